"""One answer in the chat: its text, a follow-up question, the calculation, and its citations as
compact references that open to the full provision with the quoted words highlighted."""

from __future__ import annotations

import streamlit as st

from ..corpus import Corpus
from ..models import Answer, Citation
from .provision import provision_markdown
from .results import render_result
from .text import cite_url, escape_md, safe_answer_md


def citation_label(i: int, c: Citation) -> str:
    return f"[{i}] {escape_md(c.citation)} \u2014 {escape_md(c.heading)}"


def render_citation(c: Citation, corpus: Corpus) -> None:
    """The full provision with the quote highlighted, and a link to the provision's own page."""
    if c.id in corpus:
        rendered = provision_markdown(corpus, c.id, quote=c.quote)
        st.markdown(rendered.markdown)
        if not rendered.quote_found:
            st.markdown(f"Quoted: _\u201c{escape_md(c.quote)}\u201d_")
    else:
        st.markdown(f"_\u201c{escape_md(c.quote)}\u201d_")
    st.markdown(f"[Open {escape_md(c.citation)} on its own page \u2197]({cite_url(c.id)})")


def render_answer(answer: Answer, corpus: Corpus) -> None:
    if answer.abstained:
        st.markdown(":material/info: " + safe_answer_md(answer.answer))
    else:
        st.markdown(safe_answer_md(answer.answer))
    if answer.follow_up and answer.follow_up.strip() not in answer.answer:
        st.markdown(f"**{escape_md(answer.follow_up)}**")
    if answer.calculation:
        with st.expander(f"Calculation{': ' + escape_md(answer.calculator) if answer.calculator else ''}"):
            render_result(answer.calculation)
    for caveat in answer.caveats:
        st.caption(f":material/warning: {escape_md(caveat)}")
    if answer.offices:
        st.caption("Who to ask: " + "; ".join(escape_md(o) for o in answer.offices))
    if answer.citations:
        refs = " \u00b7 ".join(f"[{i}] {escape_md(c.citation)}" for i, c in enumerate(answer.citations, 1))
        st.caption(f"Sources: {refs}")
        for i, c in enumerate(answer.citations, 1):
            with st.expander(citation_label(i, c)):
                render_citation(c, corpus)
    st.caption(escape_md(answer.disclaimer))
