"""What gets embedded and BM25-indexed: several representations ("views") of each provision. Pure.

Views (`Chunk.view`), each its own chunk, all pointing at their provision:
- "text": the provision's text with its context (below), one or more chunks;
- "heading": where it sits: municipality, citation, heading path, its title or defined term;
- "summary": its headnote's plain-language summary (our words, not the law; corpus/<id>/headnotes);
- "questions": the headnote's questions joined in one text, and each one alone as "question", "yes"
  or "no" (a yes/no question the text answers yes or no), so a search can say which one matched.
A provision without a headnote has the first two only. Retrieval scores a provision by its best view.

Every provision with text yields at least one "text" chunk:
- a header naming where it sits (municipality, citation, heading path), so "the Town's erosion
  inspections" can match text that never says "Town" or "inspection";
- its body: the provision's own text, so a hit points at the most specific provision (parents and
  children are separate chunks; whole passages were tried and lost recall on the gold set, as the
  parent then outranked the child that answers); a section with no text of its own lists its parts'
  captions instead ("Contains: A. Stormwater pollution prevention plan requirement; B. ...").
- a body too long for the budget is split on its own sentences (never mid-sentence); a single
  sentence longer than the budget (the corpus has a 200-word one) is split at its clause breaks
  ("; ", ", and ", ", ") and only as a last resort between words.

The budget (`Settings.chunk_max_words`, header included) keeps a chunk inside the model's 256-token
window: legal English runs about 1.3 word pieces per word, so 180 words is about 235 tokens.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from codeassist.text import sentences
from codeassist.models import Headnote, Municipality, Provision

# Bump when the chunk texts change in a way the chunk hash would not notice (it notices most things:
# the index key hashes every chunk's text and view).
CHUNKER_VERSION = "3"

View = Literal["text", "heading", "summary", "questions", "question", "yes", "no"]
VIEWS: tuple[View, ...] = ("text", "heading", "summary", "questions", "question", "yes", "no")
HEADNOTE_VIEWS: frozenset[str] = frozenset({"summary", "questions", "question", "yes", "no"})


class Chunk(BaseModel):
    """One embedded text: one view of one provision. A provision has several (a long text in parts,
    its heading, its headnote's summary and questions)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="'<provision id>#<part>' for text ('<municipality>:<section>(<label>)#1'), "
                                "'<provision id>#<view>' or '#<view>-<n>' for the others ('...#yes-0').")
    provision_id: str
    municipality: str
    text: str = Field(description="Exactly what is embedded and BM25-indexed (a view's text, with context).")
    view: View = Field(default="text", description="Which representation of the provision this is.")
    body: str | None = Field(default=None, description="The view's own words without the context header "
                                                       "(the text part, the question); None: same as `text`.")

    @property
    def view_text(self) -> str:
        return self.text if self.body is None else self.body


class ChunkSource(Protocol):
    """The part of `codeassist.corpus.Corpus` chunking reads."""

    municipalities: dict[str, Municipality]

    def provisions(self, municipality: str | None = None) -> list[Provision]: ...
    def children(self, pid: str) -> list[Provision]: ...
    def headnote(self, pid: str) -> Headnote | None: ...


def words(text: str) -> int:
    return len(text.split())


def header(provision: Provision, municipality: Municipality | None) -> str:
    """'Village of Tuckahoe. Tuckahoe Code § 7B-5(c). Exemptions.': where the text sits."""
    parts = [municipality.name if municipality else provision.municipality, provision.citation]
    if provision.heading and provision.kind != "definition":  # a definition's citation names its term
        parts.append(provision.heading)
    return ". ".join(p.rstrip(".") for p in parts) + "."


def _table_of_contents(children: list[Provision]) -> str:
    """What a section with no text of its own contains: its parts' captions, or their first words."""
    items = []
    for c in children:
        label = c.labels[-1] if c.labels else ""
        ws = c.text.split()
        caption = c.title or " ".join(ws[:10]) + (" ..." if len(ws) > 10 else "")
        items.append(f"{label}. {caption.rstrip('.')}" if label else caption.rstrip("."))
    return "Contains: " + "; ".join(items) + "." if items else ""


def heading_view(provision: Provision, municipality: Municipality | None) -> str:
    """The header plus, for a definition, its heading path ("Definitions > IMPERVIOUS COVER")."""
    head = header(provision, municipality)
    return f"{head} {provision.heading}." if provision.kind == "definition" and provision.heading else head


def chunk_provisions(source: ChunkSource, max_words: int = 180,
                     views: Iterable[str] = VIEWS) -> list[Chunk]:
    """All chunks of the corpus: each provision's views in VIEWS order, provisions in document order.
    Deterministic: same corpus, same chunks."""
    if max_words < 40:
        raise ValueError(f"chunk budget of {max_words} words leaves no room for text after the header")
    wanted = set(views)
    if unknown := wanted - set(VIEWS):
        raise ValueError(f"unknown views {sorted(unknown)}; known: {', '.join(VIEWS)}")
    chunks: list[Chunk] = []
    for p in source.provisions():
        muni = source.municipalities.get(p.municipality)
        head = header(p, muni)
        budget = max_words - words(head)
        if p.text.strip():
            body = p.text
        else:
            body = " ".join(_table_of_contents(source.children(p.id)).split()[:budget])
            if not body:
                continue  # "(Reserved)": nothing to find; a typed citation still reaches it
        texts: list[tuple[str, View, str, str | None]] = []  # (id suffix, view, text, body)
        if "text" in wanted:
            texts += [(str(i), "text", f"{head}\n{part}", part) for i, part in enumerate(split_text(body, budget))]
        if "heading" in wanted:
            texts.append(("heading", "heading", heading_view(p, muni), None))
        note = source.headnote(p.id)
        if note is not None:
            texts += _headnote_views(note, muni.name if muni else p.municipality, wanted)
        chunks += [Chunk(id=f"{p.id}#{suffix}", provision_id=p.id, municipality=p.municipality, text=text,
                         view=view, body=own) for suffix, view, text, own in texts]
    return chunks


def _headnote_views(note: Headnote, place: str, wanted: set[str]) -> list[tuple[str, View, str, str | None]]:
    out: list[tuple[str, View, str, str | None]] = []
    # The place's name leads the summary: summaries say "the Town", which names no place.
    if "summary" in wanted and note.summary.strip():
        out.append(("summary", "summary", f"{place}. {note.summary}", note.summary))
    asked = [q for q in (*note.questions, *note.yes, *note.no) if q.strip()]
    if "questions" in wanted and asked:
        out.append(("questions", "questions", " ".join(asked), None))
    for view, items in (("question", note.questions), ("yes", note.yes), ("no", note.no)):
        if view in wanted:
            out += [(f"{view}-{i}", view, q, None) for i, q in enumerate(items) if q.strip()]
    return out


# --- splitting long text -------------------------------------------------------------------------

# Words whose final period does not end a sentence in these codes ("L.L. No. 2-2007", "Ord. of ...").
_CLAUSE_BREAKS = (re.compile(r"(?<=;)\s+"), re.compile(r"(?<=,)\s+(?=and |or |but )"), re.compile(r"(?<=,)\s+"))


def _pieces(sentence: str, budget: int, level: int = 0) -> Iterator[str]:
    """A sentence longer than the budget, cut at the gentlest break that works."""
    if words(sentence) <= budget:
        yield sentence
        return
    if level >= len(_CLAUSE_BREAKS):
        ws = sentence.split()
        for i in range(0, len(ws), budget):
            yield " ".join(ws[i:i + budget])
        return
    parts = [p for p in _CLAUSE_BREAKS[level].split(sentence) if p]
    if len(parts) == 1:
        yield from _pieces(sentence, budget, level + 1)
        return
    for part in _pack(parts, budget):
        yield from _pieces(part, budget, level + 1)


def _pack(units: Iterable[str], budget: int) -> Iterator[str]:
    """Greedily join consecutive units while they fit the budget."""
    current: list[str] = []
    size = 0
    for u in units:
        n = words(u)
        if current and size + n > budget:
            yield " ".join(current)
            current, size = [], 0
        current.append(u)
        size += n
    if current:
        yield " ".join(current)


def split_text(text: str, budget: int) -> list[str]:
    """Text in parts of at most `budget` words, broken between sentences where at all possible."""
    if words(text) <= budget:
        return [text]
    units = [piece for s in sentences(text) for piece in _pieces(s, budget)]
    return list(_pack(units, budget))
