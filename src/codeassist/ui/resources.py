"""Things loaded once per server process and shared by every session (st.cache_resource), plus the
few values every page shares through session state."""

from __future__ import annotations

import logging

import streamlit as st

from ..corpus import Corpus, load_corpus
from ..models import Municipality

log = logging.getLogger(__name__)

MUNICIPALITY_KEY = "municipality"  # session key: None (all) or a municipality id, shared by the pages


@st.cache_resource(show_spinner="Reading the ordinance text\u2026")
def get_corpus() -> Corpus:
    return load_corpus()


@st.cache_resource(show_spinner="Loading the search model and the ordinance index (once per server)\u2026")
def get_assistant():
    """The one Assistant for this server. Its model and index load here, under the spinner, so the
    first question does not pay for them."""
    from ..api import Assistant

    assistant = Assistant()
    warm_up = getattr(assistant, "warm_up", None)
    if callable(warm_up):
        warm_up()
    return assistant


def load_assistant() -> tuple[object | None, str | None]:
    """(assistant, None), or (None, a message for the user) when it cannot be built."""
    try:
        return get_assistant(), None
    except Exception as exc:  # the app must still open: Browse and Calculators do not need it
        log.exception("assistant failed to load")
        return None, f"The question-answering engine could not start ({type(exc).__name__}: {exc})."


@st.cache_resource(show_spinner=False)
def get_calculators() -> dict:
    from ..calculators import CALCULATORS

    return dict(CALCULATORS)


ALL = "all"  # the selector's value for "no municipality chosen" (a radio cannot select None)


def municipality_options(corpus: Corpus) -> dict[str, str]:
    """Selector value -> label: All first, then each municipality by its short name."""
    opts: dict[str, str] = {ALL: "All"}
    for m in corpus.municipalities.values():
        opts[m.id] = m.short_name
    return opts


def chosen_municipality() -> str | None:
    return st.session_state.get(MUNICIPALITY_KEY)


def municipality_selector(corpus: Corpus, *, where=st) -> str | None:
    """A horizontal All / Hempstead / Tuckahoe choice that survives page switches (widget state is
    dropped when its page is not shown, so the choice lives under its own key)."""
    opts = municipality_options(corpus)
    keys = list(opts)
    current = chosen_municipality()

    def changed() -> None:
        value = st.session_state["_municipality_widget"]
        st.session_state[MUNICIPALITY_KEY] = None if value == ALL else value

    st.session_state["_municipality_widget"] = current if current in opts else ALL
    where.radio("Municipality", keys, format_func=opts.__getitem__, horizontal=True,
                key="_municipality_widget", on_change=changed,
                help="Answers and calculator forms use this municipality's law; All lets the question decide.")
    return chosen_municipality()


def municipalities_with(corpus: Corpus, topic: str) -> list[Municipality]:
    """The municipalities with an ordinance on `topic` ('stormwater', 'electrical'), in corpus order."""
    have = {o.municipality for o in corpus.ordinances.values() if o.topic == topic}
    return [m for m in corpus.municipalities.values() if m.id in have]
