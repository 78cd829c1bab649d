"""Pieces every page shows: the disclaimer, the ordinances' effective dates, the sidebar."""

from __future__ import annotations

from datetime import date

import streamlit as st

from ..corpus import Corpus
from ..models import Answer
from .text import escape_md

DISCLAIMER = Answer.model_fields["disclaimer"].default


def long_date(iso: str | None) -> str | None:
    if not iso:
        return None
    try:
        d = date.fromisoformat(iso)
    except ValueError:
        return iso
    return f"{d:%B} {d.day}, {d.year}"


NOT_STATED = "not stated in the text"


def effective_dates(corpus: Corpus) -> list[tuple[str, str, str, str]]:
    """(short name, full name, effective date or NOT_STATED, where that comes from) per ordinance."""
    rows = []
    for o in corpus.ordinances.values():
        muni = corpus.municipalities[o.municipality]
        rows.append((f"{muni.short_name} {o.division_label}", f"{muni.short_name} {o.division_label} ({o.title})",
                     long_date(o.effective_date) or NOT_STATED, o.effective_date_source))
    return rows


def effective_dates_md(corpus: Corpus) -> str:
    return " \u00b7 ".join(f"{escape_md(short)}: {escape_md(when)}" for short, _, when, _ in effective_dates(corpus))


def disclaimer_line(corpus: Corpus) -> None:
    """The one-line disclaimer with each ordinance's effective date (hover for where the date comes from)."""
    sources = "\n\n".join(f"{full}: {source}" for _, full, _, source in effective_dates(corpus))
    st.caption(f":material/gavel: {escape_md(DISCLAIMER)} Effective: {effective_dates_md(corpus)}", help=sources)


def sidebar(corpus: Corpus) -> None:
    with st.sidebar:
        st.caption("**Ordinances in this assistant**")
        for _, full, when, source in effective_dates(corpus):
            st.caption(f"{escape_md(full)}: effective {escape_md(when)}", help=source or None)
        st.caption(escape_md(DISCLAIMER))
