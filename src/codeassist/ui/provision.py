"""A provision and its children as safe Markdown: quoted words highlighted, defined terms and
cross-references linked to their own pages, references to text outside the corpus named as such.

Pure (no Streamlit): the pages call `provision_markdown` and hand the result to `st.markdown`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..render import label_of
from .text import Link, annotate, escape_md, find_quote

if TYPE_CHECKING:
    from ..corpus import Corpus
    from ..models import Provision

INDENT = "\u2003"  # an em space: Markdown keeps it, unlike leading spaces


@dataclass
class Rendered:
    blocks: list[tuple[str, str]] = field(default_factory=list)  # (provision id, its Markdown)
    missing_quotes: list[str] = field(default_factory=list)  # quotes not found in the text shown

    @property
    def markdown(self) -> str:
        return "\n\n".join(md for _, md in self.blocks)

    def split(self, ids: set[str]) -> list[tuple[bool, str]]:
        """Runs of consecutive blocks, marked True where the block belongs to `ids` (e.g. a deep
        link's target and its children, which the page frames)."""
        runs: list[tuple[bool, list[str]]] = []
        for pid, md in self.blocks:
            inside = pid in ids
            if runs and runs[-1][0] == inside:
                runs[-1][1].append(md)
            else:
                runs.append((inside, [md]))
        return [(inside, "\n\n".join(mds)) for inside, mds in runs]


def quiet(md: str) -> str:
    """Small grey italic: notes about the text rather than the text itself."""
    return f":small[:gray[_{md}_]]"


def _nodes(corpus: "Corpus", pid: str) -> list[tuple["Provision", int]]:
    """The provision and its descendants in document order, with their indent depth (a section's own
    paragraphs sit at the margin, as the codes print them)."""
    out: list[tuple[Provision, int]] = []

    def walk(p: "Provision", depth: int) -> None:
        out.append((p, depth))
        for child in corpus.children(p.id):
            walk(child, depth + (0 if p.kind == "section" else 1))

    walk(corpus.get(pid), 0)
    return out


def _term_pattern(terms: list[str]) -> re.Pattern | None:
    if not terms:
        return None
    alts = "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alts})(?![\w-])", re.IGNORECASE)


def _definition_links(p: "Provision", definitions: dict[str, str], pattern: re.Pattern | None,
                      taken: list[Link], linked: set[str]) -> list[Link]:
    """Link the first use of each defined term in this view (every use would bury the text in links)."""
    if pattern is None:
        return []
    out = []
    for m in pattern.finditer(p.text):
        target = definitions.get(m.group(0).lower())
        if not target or target == p.id or target in linked:
            continue
        if any(m.start() < k.end and k.start < m.end() for k in taken):
            continue
        linked.add(target)
        out.append(Link(m.start(), m.end(), target))
    return out


def _not_in_corpus(p: "Provision") -> list[str]:
    names = []
    for ref in p.refs:
        if ref.kind == "not_in_corpus":
            name = (ref.target_name or ref.text).removesuffix(", not in this corpus")
            if name not in names:
                names.append(name)
    return names


def provision_markdown(corpus: "Corpus", pid: str, *, quote: str | list[str] | None = None,
                       focus: str | None = None, linked_terms: set[str] | None = None) -> Rendered:
    """Markdown for `pid` and its children. Each quote is highlighted where it occurs (it may run
    across children); the `focus` provision (a deep link's target) gets a pin; `linked_terms` carries the
    definitions already linked elsewhere in the same view."""
    nodes = _nodes(corpus, pid)
    linked = linked_terms if linked_terms is not None else set()

    # Spans of the quote in the joined text, the way Corpus.full_text joins it.
    offsets, parts, pos = {}, [], 0
    for p, _ in nodes:
        if p.text:
            offsets[p.id] = pos
            parts.append(p.text)
            pos += len(p.text) + 1
    quotes = [quote] if isinstance(quote, str) else list(quote or [])
    joined = "\n".join(parts)
    found = {q: find_quote(joined, q) for q in quotes}
    spans = [s for s in found.values() if s]

    root = nodes[0][0]
    definitions = corpus.definitions(root.municipality)
    pattern = _term_pattern(list(definitions))
    out = Rendered()
    for p, depth in nodes:
        indent = INDENT * (2 * depth)
        label = label_of(p, corpus)
        label_md = f"**{escape_md(label)}**" if label else ""
        if p.kind == "definition" and label_md:
            label_md += " \u2014"
        if p.id == focus:
            label_md = ":material/location_on: " + label_md
        body = ""
        if p.text:
            local = []
            for span in spans if p.id in offsets else ():
                a, b = span[0] - offsets[p.id], span[1] - offsets[p.id]
                if b > 0 and a < len(p.text):
                    local.append((max(a, 0), min(b, len(p.text))))
            ref_links = [Link(r.start - p.start, r.end - p.start, r.target) for r in p.refs
                         if r.kind == "internal" and r.target and r.target in corpus and r.target != p.id]
            links = ref_links + _definition_links(p, definitions, pattern, ref_links, linked)
            body = annotate(p.text, links=links, highlights=local)
        lines = []
        line = " ".join(x for x in (label_md, body) if x)
        if line:
            lines.append(indent + line)
        for name in _not_in_corpus(p):
            lines.append(indent + quiet("\u21b3 not in this corpus: " + escape_md(name)))
        if p.history and p.id != root.id:
            lines.append(f"{indent}{quiet('History: ' + escape_md(p.history))}")
        for note in p.notes:
            lines.append(f"{indent}{quiet('Editorial note: ' + escape_md(note))}")
        if lines:
            out.blocks.append((p.id, "\n\n".join(lines)))
    if root.history:  # a section's history note is printed after all its subsections
        out.blocks.append((root.id, quiet("History: " + escape_md(root.history))))
    out.missing_quotes = [q for q, s in found.items() if s is None]
    return out
