"""Drafted answers as data: building blocks, verifying them, and rendering them as text.

Handlers return a `Draft` (models.py): typed blocks in reading order. `verify` walks the blocks: every
quote must be verbatim in its provision, every summary must be that provision's curated headnote (its
sentences perhaps reordered; figures the provision's text holds), and every figure in our own words must be
held by a quote, a summary or the calculation in the same answer. Text is made from the blocks only after that, by `render_text`.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .models import Answer, Block, Citation, Draft
from .text import figures, sentences

if TYPE_CHECKING:
    from .corpus import Corpus

# Section references are not figures: "§ 7-14", and lists such as "§§ 7-1.3(f) and 7-3".
_SECTION_REF = re.compile(r"§+\s*[\w.\-()]+(?:\s*(?:,|and|or)\s*\d[\w.\-()]*)*|\b(?:item|Art\.|Article|Chapter|Ch\.)\s+[\w()]+")


# --- building -----------------------------------------------------------------------------------------

def lead(text: str, label: str | None = None) -> Block:
    return Block(kind="lead", text=text, label=label)


def text(words: str, label: str | None = None) -> Block:
    return Block(kind="text", text=words, label=label)


def note(words: str) -> Block:
    return Block(kind="note", text=words)


def quote(citation: Citation, role: str = "proof", label: str | None = None) -> Block:
    return Block(kind="quote", citation=citation, role=role, label=label)


def summary(corpus: "Corpus", pid: str, label: str | None = None) -> Block | None:
    """The provision's headnote as a block, or None when it has none."""
    h = corpus.headnote(pid)
    return Block(kind="summary", text=h.summary, summary_of=pid, label=label) if h else None


def offices(names: list[str], intro: str) -> Block | None:
    return Block(kind="offices", text=f"{intro} " + "; ".join(names) + ".") if names else None


def follow_up(words: str) -> Block:
    return Block(kind="follow_up", text=words)


def build(*blocks: Block | None) -> Draft:
    return Draft(blocks=tuple(b for b in blocks if b is not None))


# --- verifying ----------------------------------------------------------------------------------------

def provision_context(corpus: "Corpus", pid: str) -> str:
    """What a provision's summary may draw on: its text with its parts, its lead-ins and its heading."""
    p = corpus.get(pid)
    if p is None:
        return ""
    return " ".join([corpus.full_text(pid), p.heading, p.term or "", *(a.text for a in corpus.ancestors(pid))])


def verify(corpus: "Corpus", draft: Draft, calculation: Any = None, question: str = "",
           echo_question: bool = False) -> list[str]:
    """Problems with a draft (empty when sound): quotes not verbatim, summaries that are not the
    provision's headnote or hold figures its text lacks, our words holding figures nothing supports."""
    problems, _ = _walk(corpus, draft, calculation, question, echo_question)
    return problems


def unsupported_figures(corpus: "Corpus", draft: Draft, calculation: Any = None, question: str = "",
                        echo_question: bool = False) -> set[str]:
    """Figures in our own words (lead, text, notes) that no quote, summary or calculation holds."""
    return _walk(corpus, draft, calculation, question, echo_question)[1]


def check_answer(corpus: "Corpus", answer: Answer) -> list[str]:
    """Problems with a finished Answer, from its blocks: what `verify` finds, plus any citation whose quote
    is not verbatim (an Answer built without blocks is checked on its citations alone)."""
    problems = verify(corpus, Draft(blocks=tuple(answer.blocks)), [answer.calculation, answer.calculation_input],
                      answer.question, answer.intent == "clarify")
    for c in answer.citations:
        if not corpus.quote_in(c.id, c.quote):
            problems.append(f"quote not verbatim in {c.id}: {c.quote[:60]!r}")
    return list(dict.fromkeys(problems))


def unsupported_numbers(corpus: "Corpus", answer: Answer) -> set[str]:
    """Figures in a finished Answer's own words that nothing in its draft supports (should be empty)."""
    return unsupported_figures(corpus, Draft(blocks=tuple(answer.blocks)), [answer.calculation, answer.calculation_input],
                               answer.question, answer.intent == "clarify")


@lru_cache(maxsize=4096)
def _figures_of(corpus: "Corpus", summary: str, pid: str) -> frozenset[str]:
    """Figures of a headnote summary that the provision's text lacks; kept per corpus, summary and provision
    (a corpus is not changed once loaded; the summary is part of the key all the same)."""
    return frozenset(figures(summary) - figures(provision_context(corpus, pid)))


def _leaves(value: Any) -> list[str]:
    """The keys and values of a JSON record, as text."""
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in (str(k), *_leaves(v))]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [] if value is None else [str(value)]


@lru_cache(maxsize=8192)
def _held(text: str) -> frozenset[str]:
    """The figures a supporting text holds, and every run of digits in it (the parts of a date: 2026-03-18)."""
    return figures(text) | {str(int(x)) for x in re.findall(r"\d+", text)}


_ECHOED = re.compile("\u201c([^\u201d]{1,300})\u201d")


def _walk(corpus: "Corpus", draft: Draft, calculation: Any, question: str, echo_question: bool) -> tuple[list[str], set[str]]:
    problems: list[str] = []
    support = []
    for b in draft.blocks:
        if b.kind == "quote":
            c = b.citation
            if c is None or not corpus.quote_in(c.id, c.quote):
                problems.append(f"quote not verbatim in {c.id if c else '?'}: {(c.quote if c else '')[:60]!r}")
            else:
                support.append(c.quote)
        elif b.kind == "summary":
            h = corpus.headnote(b.summary_of or "")
            if h is None or (h.summary != b.text and sorted(sentences(h.summary)) != sorted(sentences(b.text))):
                problems.append(f"summary is not the headnote of {b.summary_of}")
                continue
            extra = _figures_of(corpus, h.summary, h.id)
            if extra:
                problems.append(f"summary of {h.id} holds figures its text lacks: {sorted(extra)}")
            support.append(h.summary)
    if calculation is not None:
        support += _leaves(json.loads(json.dumps(calculation, default=str)))
    if echo_question:
        support.append(question)  # echoing the user's own figure back is not a claim about the law
    # piece by piece: a quote or summary read for one answer is read again for the next (remembered), and a
    # calculation's long record is read once, not as part of one long text
    held = set().union(*(_held(x) for x in support))
    unsupported: set[str] = set()
    for b in draft.blocks:
        if b.kind in ("quote", "summary"):
            continue
        # Citations and ids named in our words ("see § 392(B)") are not figures: longest first, so that
        # "§ 7B-6(a)" does not leave the "(1)" of "§ 7B-6(a)(1)" behind, and section references as a whole.
        words = _SECTION_REF.sub(" ", b.text)
        # The user's own words quoted back ("On the rest of your question (“100-yr?”): ...") claim nothing.
        words = _ECHOED.sub(lambda m: " " if question and m.group(1).strip() and m.group(1) in question else m.group(0), words)
        for ref in sorted({x for c in draft.citations for x in (c.citation, c.id)}, key=len, reverse=True):
            words = words.replace(ref, " ")
        bad = figures(words) - held
        if bad:
            unsupported |= bad
            problems.append(f"unsupported numbers in {b.kind}: {sorted(bad)}")
    return problems, unsupported


# --- rendering ----------------------------------------------------------------------------------------

def _q(c: Citation) -> str:
    return f"\u201c{c.quote}\u201d ({c.citation})"


def first_sentence(draft: Draft) -> str:
    """The direct answer: the lead, else the first summary, else the first quote."""
    blocks = list(draft.blocks)
    for kind in ("lead", "summary", "quote"):
        i = next((i for i, b in enumerate(blocks) if b.kind == kind), None)
        if i is None:
            continue
        b = blocks[i]
        words = _q(b.citation) if b.citation else b.text
        if b.kind == "lead" and b.text in ("Yes.", "No.") and i + 1 < len(blocks) and blocks[i + 1].kind in ("lead", "summary", "quote"):
            after = blocks[i + 1]
            words = f"{b.text} {_q(after.citation) if after.citation else after.text}"
        return (f"{b.label}: " if b.label else "") + words
    return ""


def render_text(draft: Draft) -> str:
    """Plain text with light Markdown: the answer first, then the law verbatim, then notes and offices."""
    out: list[str] = []
    notes: list[str] = []
    tail: list[str] = []
    intro: Citation | None = None  # a list's lead-in, printed in front of the item quoted after it
    verdict = ""
    for b in draft.blocks:
        label = f"**{b.label}:** " if b.label else ""
        if b.kind == "lead" and b.text in ("Yes.", "No."):
            verdict = f"{label}**{b.text}** "
        elif b.kind == "lead":
            out.append((verdict or label) + b.text)  # "No. Both texts are worded the same ..."
            verdict = ""
        elif b.kind == "summary":
            out.append(f"{verdict or label}{b.text} _(our summary, not the law's words)_")
            verdict = ""
        elif b.kind == "quote" and b.role == "lead-in":
            intro = b.citation
        elif b.kind == "quote":
            c = b.citation
            said = f"{_q(intro)} \u2026 {_q(c)}" if intro else _q(c)
            intro = None
            if b.role == "also":
                out.append(f"- Also: {said}")
            elif b.role == "item":
                out.append(f"- {said}")
            elif b.role == "pointer":
                out.append(f"What the text does say: {said}")
            else:
                out.append(f"{verdict or label}The law says: {said}")
                verdict = ""
        elif b.kind == "text":
            out.append(label + b.text)
        elif b.kind == "note":
            notes.append(f"Note: {b.text}")
        elif b.kind in ("offices", "follow_up"):
            tail.append(b.text)
    parts = ["\n".join(out)]
    if notes:
        parts.append("\n".join(notes))
    parts += tail
    return "\n\n".join(p for p in parts if p)
