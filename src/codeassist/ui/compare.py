"""The Compare page: the two stormwater laws side by side on a topic, the words that differ marked.

It renders what ``Assistant.compare(topic)`` returns, read defensively: ``{"topic", "municipalities":
[ids], "pairs": [{<id>: {"id", "citation", "heading", "text", "marked"}, "similarity"}]}``, where
"marked" wraps words found only on one side in ``[-...-]`` or ``{+...+}``."""

from __future__ import annotations

import logging
import re

import streamlit as st

from ..corpus import Corpus
from ..errors import CodeassistError
from ..models import Municipality
from .layout import disclaimer_line
from .provision import provision_markdown
from .resources import get_corpus, load_assistant, municipalities_with
from .text import HIGHLIGHT, escape_md, md_link, wrap

log = logging.getLogger(__name__)

TOPICS = ["exemptions", "stop-work orders", "penalties", "construction inspection", "performance guarantee",
          "fees for services", "applicability"]
TOPIC_KEY = "compare-topic"
RESULT_KEY = "compare-result"
_MARK = re.compile(r"\[-(.+?)-\]|\{\+(.+?)\+\}", re.S)


def _possessive(m: Municipality) -> str:
    """"the Town of X's" for a formal name, "X's" for a bare one."""
    the = "the " if m.name.lower().startswith(f"{m.kind.lower()} of ") else ""
    return f"{the}{m.name}'s"


def intro(corpus: Corpus) -> str:
    """The page's opening sentence, naming the municipalities that have a stormwater law in the corpus."""
    names = [_possessive(m) for m in municipalities_with(corpus, "stormwater")]
    listed = names[0] if len(names) < 2 else ", ".join(names[:-1]) + " and " + names[-1]
    listed = listed[:1].upper() + listed[1:]
    return f"{listed} erosion and stormwater laws, side by side on one topic. Words found on one side only are highlighted."


def marked_md(marked: str) -> tuple[str, int]:
    """Escaped Markdown with the differing words highlighted, and how many runs differ."""
    out, pos, runs = [], 0, 0
    for m in _MARK.finditer(marked):
        out.append(escape_md(marked[pos:m.start()]))
        out.append(wrap(HIGHLIGHT, escape_md(m.group(1) or m.group(2))))
        pos, runs = m.end(), runs + 1
    out.append(escape_md(marked[pos:]))
    return "".join(out), runs


def _pick(topic: str) -> None:
    st.session_state[TOPIC_KEY] = topic
    st.session_state["_compare-run"] = True


def _run(topic: str) -> None:
    assistant, problem = load_assistant()
    if assistant is None:
        st.session_state[RESULT_KEY] = ("error", problem)
        return
    try:
        with st.spinner("Finding the matching provisions\u2026"):
            st.session_state[RESULT_KEY] = ("ok", topic, assistant.compare(topic))
    except CodeassistError as exc:
        st.session_state[RESULT_KEY] = ("error", str(exc))
    except Exception:
        log.exception("compare failed for %r", topic[:200])
        st.session_state[RESULT_KEY] = ("error", "Sorry, the comparison failed. Try another wording of the topic.")


def render_comparison(data: dict) -> None:
    corpus = get_corpus()
    if not isinstance(data, dict):
        st.json(data)
        return
    munis = [m for m in data.get("municipalities") or [] if m in corpus.municipalities] or list(corpus.municipalities)
    pairs = data.get("pairs") or []
    if not pairs:
        st.info("Neither law has a provision that matches this topic well. Try other words, or browse the text.")
        return
    for pair in pairs:
        cols = st.columns(len(munis))
        for col, m in zip(cols, munis):
            name = corpus.municipalities[m].name
            side = pair.get(m) if isinstance(pair, dict) else None
            with col:
                st.markdown(f"**{escape_md(name)}**")
                if not isinstance(side, dict) or not side.get("id"):
                    st.info(f"No matching provision found in the {name}'s law.")
                    continue
                st.markdown(md_link(escape_md(side.get("citation") or side["id"]), side["id"]))
                if side.get("heading"):
                    st.caption(escape_md(side["heading"]))
                md, runs = marked_md(side.get("marked") or side.get("text") or "")
                st.markdown(md)
                if side["id"] in corpus:
                    with st.expander("Full provision"):
                        st.markdown(provision_markdown(corpus, side["id"]).markdown)
        similarity = pair.get("similarity") if isinstance(pair, dict) else None
        if isinstance(similarity, (int, float)):
            st.caption(f"Wording similarity: {similarity:.0%}. Highlighted words appear on one side only.")
        st.divider()


def render() -> None:
    corpus = get_corpus()
    st.title("Compare the stormwater laws")
    st.markdown(escape_md(intro(corpus)))
    disclaimer_line(corpus)
    with st.form("compare-form", border=False):
        topic = st.text_input("Topic", key=TOPIC_KEY, placeholder="e.g. stop-work orders")
        submitted = st.form_submit_button("Compare", type="primary")
    with st.container(horizontal=True):
        st.caption("Try:")
        for t in TOPICS:
            st.button(t, key=f"topic-{t}", on_click=_pick, args=(t,), type="secondary", width="content")
    if st.session_state.pop("_compare-run", False):
        submitted, topic = True, st.session_state[TOPIC_KEY]
    if submitted and topic.strip():
        _run(topic.strip())
    result = st.session_state.get(RESULT_KEY)
    if not result:
        return
    if result[0] == "error":
        st.warning(escape_md(result[1] or "The comparison is not available."))
        return
    st.subheader(f"On \u201c{escape_md(result[1])}\u201d", anchor=False)
    render_comparison(result[2])
