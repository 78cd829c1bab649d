"""What gets embedded and BM25-indexed: provisions with their context, sized for the model. Pure.

Every provision with text yields at least one chunk:
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
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from codeassist.text import sentences
from codeassist.models import Municipality, Provision

# Bump when the chunk texts change in a way the chunk hash would not notice (it notices most things:
# the index key hashes every chunk's text).
CHUNKER_VERSION = "2"


class Chunk(BaseModel):
    """One embedded text. Several chunks may share a provision (a long provision split in parts)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="'<provision id>#<part>', e.g. '<municipality>:<section>(<label>)#1'.")
    provision_id: str
    municipality: str
    text: str = Field(description="Header plus body: exactly what is embedded and BM25-indexed.")


class ChunkSource(Protocol):
    """The part of `codeassist.corpus.Corpus` chunking reads."""

    municipalities: dict[str, Municipality]

    def provisions(self, municipality: str | None = None) -> list[Provision]: ...
    def children(self, pid: str) -> list[Provision]: ...


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


def chunk_provisions(source: ChunkSource, max_words: int = 180) -> list[Chunk]:
    """All chunks of the corpus, in document order. Deterministic: same corpus, same chunks."""
    if max_words < 40:
        raise ValueError(f"chunk budget of {max_words} words leaves no room for text after the header")
    chunks: list[Chunk] = []
    for p in source.provisions():
        head = header(p, source.municipalities.get(p.municipality))
        budget = max_words - words(head)
        if p.text.strip():
            body = p.text
        else:
            body = " ".join(_table_of_contents(source.children(p.id)).split()[:budget])
            if not body:
                continue  # "(Reserved)": nothing to find; a typed citation still reaches it
        for i, part in enumerate(split_text(body, budget)):
            chunks.append(Chunk(id=f"{p.id}#{i}", provision_id=p.id, municipality=p.municipality,
                                text=f"{head}\n{part}"))
    return chunks


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
