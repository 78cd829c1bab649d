"""One answer in the chat, drawn from its verified blocks: the plain answer first (a "Yes."/"No." joined
with the summary after it), our headnote labelled as a summary with the provision it summarises, then the
law verbatim in an expander titled with its citations, then notes, who to ask, the calculation, and the
sources as compact references that open to the full provision with the quoted words highlighted.

A municipality `label` on a block starts that municipality's section. Answers without blocks (older
conversations kept in session state) are shown from their text, as before."""

from __future__ import annotations

from dataclasses import dataclass, field

import streamlit as st

from ..corpus import Corpus
from ..models import Answer, Block, Citation
from .provision import provision_markdown
from .results import calculator_title, render_result
from .text import cite_url, escape_md, md_link, safe_answer_md

VERDICTS = ("Yes.", "No.")
SUMMARY_LABEL = "Summary \u2014 our plain-language reading{of}, not the law's words."
LAW_TITLE = "What the law says \u2014 {}"
POINTER_TITLE = "What the text does say \u2014 {}"
ALSO_TITLE = "Also relevant \u2014 {}"
MAX_TITLE_CITATIONS = 2  # more are counted ("and 3 more"), so an expander's title stays on one line


def group_citations(citations: list[Citation]) -> list[tuple[Citation, list[str]]]:
    """One reference per provision, in first-cited order, with all the words quoted from it."""
    groups: dict[str, tuple[Citation, list[str]]] = {}
    for c in citations:
        _, quotes = groups.setdefault(c.id, (c, []))
        if c.quote not in quotes:
            quotes.append(c.quote)
    return list(groups.values())


def citation_label(i: int, c: Citation) -> str:
    """"[2] <citation> — <caption>": the citation plus the nearest heading, unless the citation already
    says it."""
    caption = c.heading.split(" > ")[-1].strip()
    if not caption or caption.lower() in c.citation.lower():
        return f"[{i}] {escape_md(c.citation)}"
    return f"[{i}] {escape_md(c.citation)} \u2014 {escape_md(caption)}"


def render_citation(c: Citation, quotes: list[str], corpus: Corpus) -> None:
    """The full provision with the quoted words highlighted, and a link to the provision's own page."""
    missing = quotes
    st.caption(escape_md(c.heading))
    if c.id in corpus:
        rendered = provision_markdown(corpus, c.id, quote=quotes)
        st.markdown(rendered.markdown)
        missing = rendered.missing_quotes
    for q in missing:
        st.markdown(f"Quoted: _\u201c{escape_md(q)}\u201d_")
    st.markdown(f":material/open_in_new: [Open {escape_md(c.citation)} on its own page]({cite_url(c.id)})")


# --- the blocks, grouped --------------------------------------------------------------------------------

@dataclass
class Quoted:
    """A quote as shown: the list lead-in that introduces it (if any) and the quote itself."""

    citation: Citation
    intro: Citation | None = None


@dataclass
class Section:
    """What one municipality's part of an answer shows (label None: the answer as a whole)."""

    label: str | None
    said: list[Block] = field(default_factory=list)  # lead, summary, text, in reading order
    law: list[Quoted] = field(default_factory=list)  # proof, lead-in + item, definition
    also: list[Quoted] = field(default_factory=list)
    pointers: list[Quoted] = field(default_factory=list)


@dataclass
class Layout:
    sections: list[Section]
    notes: list[str]
    offices: list[str]
    follow_ups: list[str]


def layout(blocks: list[Block]) -> Layout:
    """Blocks -> sections (a label starts one) plus the answer-wide notes, offices and follow-ups."""
    sections: list[Section] = []
    notes: list[str] = []
    offices: list[str] = []
    follow_ups: list[str] = []
    intro: Citation | None = None
    for b in blocks:
        if b.kind == "note":
            notes.append(b.text)
            continue
        if b.kind == "offices":
            offices.append(b.text)
            continue
        if b.kind == "follow_up":
            follow_ups.append(b.text)
            continue
        if not sections or (b.label and b.label != sections[-1].label):
            sections.append(Section(label=b.label))
        s = sections[-1]
        if b.kind in ("lead", "summary", "text"):
            s.said.append(b)
        elif b.kind == "quote" and b.citation is not None:
            if b.role == "lead-in":
                intro = b.citation
                continue
            shown = Quoted(b.citation, intro)
            intro = None
            {"also": s.also, "pointer": s.pointers}.get(b.role, s.law).append(shown)
    if intro is not None and sections:  # a lead-in with nothing after it is still the law's words
        sections[-1].law.append(Quoted(intro))
    return Layout(sections, notes, offices, follow_ups)


# --- rendering ------------------------------------------------------------------------------------------

def summary_caption(pid: str | None, corpus: Corpus) -> str:
    """The label every headnote carries, naming (and linking) the provision it summarises."""
    p = corpus.get(pid) if pid else None
    of = f" of {md_link(escape_md(p.citation), p.id)}" if p is not None else ""
    return ":material/summarize: " + SUMMARY_LABEL.format(of=of)


def expander_title(template: str, quoted: list[Quoted]) -> str:
    """The template filled with the quoted citations; a prefix the first one shares ("<code> ") is not
    repeated: "<code> § 7-5(a), § 7-5(a)(1) and 1 more"."""
    names = list(dict.fromkeys(q.citation.citation for q in quoted))
    prefix = names[0].split("\u00a7")[0] if "\u00a7" in names[0] else None
    short = [names[0], *(n[len(prefix):] if prefix and n.startswith(prefix + "\u00a7") else n
                         for n in names[1:MAX_TITLE_CITATIONS])]
    shown = ", ".join(short)
    if len(names) > MAX_TITLE_CITATIONS:
        shown += f" and {len(names) - MAX_TITLE_CITATIONS} more"
    return escape_md(template.format(shown))


def quoted_md(run: list[Quoted]) -> str:
    """A blockquote for quotes from one provision: a lead-in (when there is one) before the words it
    introduces, each passage on its own line, the citation (linked) once at the end."""
    lines = []
    for q in run:
        if q.intro is not None:
            lines.append(f"\u201c{escape_md(q.intro.quote)}\u201d \u2026")
            if q.intro.id != q.citation.id:
                lines.append(f"\u2014 {md_link(escape_md(q.intro.citation), q.intro.id)}")
        lines.append(f"\u201c{escape_md(q.citation.quote)}\u201d")
    c = run[-1].citation
    lines.append(f"\u2014 {md_link(escape_md(c.citation), c.id)}")
    return "\n".join(f"> {line}  " for line in lines)


def runs(quoted: list[Quoted]) -> list[list[Quoted]]:
    """Consecutive quotes from the same provision, together (a calculator quotes one item several times)."""
    out: list[list[Quoted]] = []
    for q in quoted:
        if out and out[-1][-1].citation.id == q.citation.id and q.intro is None:
            out[-1].append(q)
        else:
            out.append([q])
    return out


def _quotes_expander(template: str, quoted: list[Quoted], expanded: bool = False) -> None:
    if not quoted:
        return
    with st.expander(expander_title(template, quoted), expanded=expanded):
        for run in runs(quoted):
            st.markdown(quoted_md(run))


def _said(section: Section, corpus: Corpus, abstained: bool) -> None:
    """The plain answer, in reading order; a Yes/No lead is joined with the summary that follows it."""
    verdict = ""
    first = True
    for b in section.said:
        icon = ":material/info: " if abstained and first else ""
        if b.kind == "lead" and b.text in VERDICTS:
            verdict = f"**{escape_md(b.text)}** "
            continue
        st.markdown(icon + verdict + escape_md(b.text))
        if b.kind == "summary":
            st.caption(summary_caption(b.summary_of, corpus))
        verdict, first = "", False
    if verdict:  # a verdict with no summary after it
        st.markdown(verdict)


def render_section(section: Section, corpus: Corpus, abstained: bool = False) -> None:
    if section.label:
        st.markdown(f":material/account_balance: **{escape_md(section.label)}**")
    _said(section, corpus, abstained)
    # Nothing plain before the law (no headnote): the law is the answer, so it is shown open.
    _quotes_expander(LAW_TITLE, section.law, expanded=not section.said)
    _quotes_expander(POINTER_TITLE, section.pointers, expanded=not section.said and not section.law)
    _quotes_expander(ALSO_TITLE, section.also)


def render_blocks(answer: Answer, corpus: Corpus) -> None:
    shown = layout(list(answer.blocks))
    for i, section in enumerate(shown.sections):
        render_section(section, corpus, answer.abstained and i == 0)
    for n in shown.notes:
        st.markdown(f":material/info: **Note:** {escape_md(n)}")
    for f in shown.follow_ups:
        st.markdown(f"**{escape_md(f)}**")
    if answer.follow_up and not any(answer.follow_up.strip() in f for f in shown.follow_ups):
        st.markdown(f"**{escape_md(answer.follow_up)}**")
    for o in shown.offices:
        st.markdown(f":material/contact_phone: {escape_md(o)}")
    if not shown.offices and answer.offices:
        st.caption("Who to ask: " + "; ".join(escape_md(o) for o in answer.offices))
    _calculation(answer)
    for caveat in (c for c in answer.caveats if c not in shown.notes):
        st.caption(f":material/warning: {escape_md(caveat)}")


def render_text(answer: Answer) -> None:
    """An answer with no blocks (kept from before answers were drafted as blocks): its text."""
    if answer.abstained:
        st.markdown(":material/info: " + safe_answer_md(answer.answer))
    else:
        st.markdown(safe_answer_md(answer.answer))
    if answer.follow_up and answer.follow_up.strip() not in answer.answer:
        st.markdown(f"**{escape_md(answer.follow_up)}**")
    _calculation(answer)
    for caveat in (c for c in answer.caveats if c not in answer.answer):  # the text may already say it
        st.caption(f":material/warning: {escape_md(caveat)}")
    offices = [o for o in answer.offices if o not in answer.answer]
    if offices:
        st.caption("Who to ask: " + "; ".join(escape_md(o) for o in offices))


def _calculation(answer: Answer) -> None:
    if answer.calculation:
        title = calculator_title(answer.calculator) if answer.calculator else ""
        with st.expander(f"How this was calculated{': ' + escape_md(title) if title else ''}"):
            render_result(answer.calculation)


def render_answer(answer: Answer, corpus: Corpus) -> None:
    if answer.blocks:
        render_blocks(answer, corpus)
    else:
        render_text(answer)
    groups = group_citations(answer.citations)
    if groups:
        st.caption("Sources (open one to read the full provision, quoted words highlighted):")
        for i, (c, quotes) in enumerate(groups, 1):
            with st.expander(citation_label(i, c)):
                render_citation(c, quotes, corpus)
    st.caption(escape_md(answer.disclaimer))
