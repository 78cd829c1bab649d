"""Plain-data and plain-text views of provisions, shared by the CLI, the API and the app."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .corpus import Corpus
    from .models import Provision


def label_of(p: "Provision", corpus: "Corpus | None" = None) -> str:
    """How the label is printed in front of the text: "(c)", "A.", "a", a term, or nothing. In an ordinance
    whose headings were stripped ("unheaded-blocks"), top-level labels print as "A." (as in the source)."""
    layout = corpus.ordinance_of(p.id).layout if corpus is not None else "headed-sections"
    if p.kind == "definition":
        return p.term or ""
    if not p.labels or p.kind == "continuation":
        return ""
    label = p.labels[-1]
    if layout == "unheaded-blocks" and len(p.labels) == 1:
        return f"{label}."
    return f"({label})"


def provision_tree(corpus: "Corpus", pid: str) -> dict:
    """{"id", "municipality", "citation", "heading", "text", "children": [...]} (recursive)."""
    p = corpus.get(pid)
    assert p is not None
    return {
        "id": p.id,
        "municipality": p.municipality,
        "citation": p.citation,
        "heading": p.heading,
        "label": label_of(p, corpus),
        "text": p.text,
        "history": p.history,
        "notes": list(p.notes),
        "children": [provision_tree(corpus, c) for c in p.children],
    }


def provision_text(corpus: "Corpus", pid: str, indent: str = "") -> str:
    """The provision and its children as indented plain text."""
    p = corpus.get(pid)
    assert p is not None
    lines = []
    label = label_of(p, corpus)
    if p.text or label:
        lines.append(f"{indent}{label + ' ' if label else ''}{p.text}".rstrip())
    for child in p.children:
        lines.append(provision_text(corpus, child, indent + ("  " if p.kind != "section" else "")))
    return "\n".join(x for x in lines if x)
