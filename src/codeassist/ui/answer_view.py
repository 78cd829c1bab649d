"""One answer in the chat: its text, a follow-up question, the calculation, and its citations as
compact references that open to the full provision with the quoted words highlighted."""

from __future__ import annotations

import streamlit as st

from ..corpus import Corpus
from ..models import Answer, Citation
from .provision import provision_markdown
from .results import calculator_title, render_result
from .text import cite_url, escape_md, safe_answer_md


def group_citations(citations: list[Citation]) -> list[tuple[Citation, list[str]]]:
    """One reference per provision, in first-cited order, with all the words quoted from it."""
    groups: dict[str, tuple[Citation, list[str]]] = {}
    for c in citations:
        _, quotes = groups.setdefault(c.id, (c, []))
        if c.quote not in quotes:
            quotes.append(c.quote)
    return list(groups.values())


def citation_label(i: int, c: Citation) -> str:
    """"[2] Tuckahoe Code § 7B-5(c) — Exemptions": the citation plus the nearest heading, unless the
    citation already says it."""
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


def render_answer(answer: Answer, corpus: Corpus) -> None:
    if answer.abstained:
        st.markdown(":material/info: " + safe_answer_md(answer.answer))
    else:
        st.markdown(safe_answer_md(answer.answer))
    if answer.follow_up and answer.follow_up.strip() not in answer.answer:
        st.markdown(f"**{escape_md(answer.follow_up)}**")
    if answer.calculation:
        title = calculator_title(answer.calculator) if answer.calculator else ""
        with st.expander(f"How this was calculated{': ' + escape_md(title) if title else ''}"):
            render_result(answer.calculation)
    for caveat in (c for c in answer.caveats if c not in answer.answer):  # the text may already say it
        st.caption(f":material/warning: {escape_md(caveat)}")
    offices = [o for o in answer.offices if o not in answer.answer]
    if offices:
        st.caption("Who to ask: " + "; ".join(escape_md(o) for o in offices))
    groups = group_citations(answer.citations)
    if groups:
        st.caption("Sources (open one to read the provision, quoted words highlighted):")
        for i, (c, quotes) in enumerate(groups, 1):
            with st.expander(citation_label(i, c)):
                render_citation(c, quotes, corpus)
    st.caption(escape_md(answer.disclaimer))
