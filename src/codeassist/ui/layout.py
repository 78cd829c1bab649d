"""Pieces every page shows: the disclaimer, the ordinances' effective dates, the sidebar."""

from __future__ import annotations

from datetime import date

import streamlit as st

from ..corpus import Corpus
from ..models import Answer
from .text import escape_md

DISCLAIMER = Answer.model_fields["disclaimer"].default


def _when(iso: str | None) -> str | None:
    if not iso:
        return None
    try:
        d = date.fromisoformat(iso)
    except ValueError:
        return iso
    return f"{d:%B} {d.day}, {d.year}"


def effective_dates(corpus: Corpus) -> list[tuple[str, str, str]]:
    """(ordinance name, effective date or 'not stated in the text', where that comes from) per ordinance."""
    rows = []
    for o in corpus.ordinances.values():
        muni = corpus.municipalities[o.municipality]
        name = f"{muni.short_name} {o.division} ({o.title})"
        rows.append((name, _when(o.effective_date) or "date not stated in the text", o.effective_date_source))
    return rows


def effective_dates_md(corpus: Corpus) -> str:
    return " \u00b7 ".join(f"{escape_md(n)}: **{escape_md(w)}**" for n, w, _ in effective_dates(corpus))


def disclaimer_line(corpus: Corpus) -> None:
    st.caption(f"\u2696\ufe0f {escape_md(DISCLAIMER)} Effective dates: {effective_dates_md(corpus)}")


def sidebar(corpus: Corpus) -> None:
    with st.sidebar:
        st.markdown("**The ordinances here**")
        for name, when, source in effective_dates(corpus):
            st.markdown(f"- {escape_md(name)}: {escape_md(when)}", help=source or None)
        st.caption(escape_md(DISCLAIMER))
