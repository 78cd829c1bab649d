"""The Chat page: questions in, cited answers out; the Conversation lives in session state so that
follow-ups work and an error in one answer leaves the rest intact."""

from __future__ import annotations

import logging
import uuid

import streamlit as st

from ..corpus import Corpus
from ..errors import CodeassistError
from ..models import Conversation, Turn
from ..settings import get_settings
from .answer_view import render_answer
from .examples import examples
from .layout import disclaimer_line
from .resources import get_corpus, load_assistant, municipality_selector
from .text import escape_md

log = logging.getLogger(__name__)

CONV_KEY = "conversation"
FAILED_KEY = "chat_failed"  # questions that got no answer, why, and after which turn (not in the download)
QUEUED_KEY = "chat_queued"  # an example question clicked, asked on this run


def conversation() -> Conversation:
    if CONV_KEY not in st.session_state:
        st.session_state[CONV_KEY] = Conversation(id=uuid.uuid4().hex)
    return st.session_state[CONV_KEY]


def _queue(question: str) -> None:
    st.session_state[QUEUED_KEY] = question


def _start_over() -> None:
    st.session_state.pop(CONV_KEY, None)
    st.session_state.pop(FAILED_KEY, None)


def _examples(corpus: Corpus, expanded: bool) -> None:
    by_user = examples(corpus)
    if not by_user:
        return
    with st.expander("Example questions", expanded=expanded):
        for tab, (who, questions) in zip(st.tabs(list(by_user)), by_user.items()):
            with tab:
                for i, q in enumerate(questions):
                    st.button(q, key=f"example-{who}-{i}", on_click=_queue, args=(q,), type="tertiary",
                              icon=":material/arrow_forward:")


def _failed(question: str, message: str) -> None:
    after = len(conversation().turns)
    st.session_state.setdefault(FAILED_KEY, []).append({"after": after, "question": question, "message": message})
    _show_question(question)
    with st.chat_message("assistant"):
        st.warning(escape_md(message))


def _show_failures(after: int) -> None:
    for f in st.session_state.get(FAILED_KEY, []):
        if f["after"] == after:
            _show_question(f["question"])
            with st.chat_message("assistant"):
                st.warning(escape_md(f["message"]))


def _show_question(q: str) -> None:
    with st.chat_message("user"):
        st.markdown(escape_md(q, keep_newlines=True))


def _ask(assistant, question: str, municipality: str | None) -> None:
    limit = get_settings().max_question_chars
    if len(question) > limit:
        _failed(question[:200].rstrip() + "\u2026",
                f"That question is {len(question):,} characters long; please keep it under {limit:,} "
                "characters. Ask about one thing at a time, and quote only the words you are asking about.")
        return
    conv = conversation()
    before = conv.model_copy(deep=True)
    n = len(conv.turns)
    placeholder = st.empty()  # the question and a spinner now; replaced by the turn or the failure
    with placeholder.container():
        _show_question(question)
        with st.chat_message("assistant"), st.spinner("Looking it up in the ordinances\u2026"):
            try:
                answer = assistant.ask(question, municipality=municipality, conversation=conv)
            except CodeassistError as exc:  # InvalidInput and friends carry a message meant for the user
                answer, message = None, str(exc)
            except Exception:
                log.exception("answer failed for %r", question[:200])
                answer, message = None, ("Sorry, something went wrong while answering that question. Your "
                                         "conversation is still here; please try rephrasing it, or browse the "
                                         "ordinances directly.")
    placeholder.empty()
    if answer is None:
        st.session_state[CONV_KEY] = before
        _failed(question, message)
        return
    if len(conv.turns) == n:  # keep the transcript whole even if the engine did not record it
        conv.turns.append(Turn(question=question, answer=answer))
    _show_question(question)
    with st.chat_message("assistant"):
        render_answer(answer, get_corpus())


def render() -> None:
    corpus = get_corpus()
    st.title("Ask about the code")
    disclaimer_line(corpus)
    municipality = municipality_selector(corpus)
    conv = conversation()
    conv.municipality = municipality
    assistant, problem = load_assistant()
    if problem:
        st.error(escape_md(problem) + " The Browse and Calculators pages still work.")
    _examples(corpus, expanded=not conv.turns)

    for i, turn in enumerate(conv.turns):
        _show_failures(i)
        _show_question(turn.question)
        with st.chat_message("assistant"):
            render_answer(turn.answer, corpus)
    _show_failures(len(conv.turns))

    typed = st.chat_input("Ask about stormwater, erosion control or electrical rules\u2026", disabled=assistant is None)
    question = typed or st.session_state.pop(QUEUED_KEY, None)
    if question and assistant is not None:
        _ask(assistant, question, municipality)

    conv = conversation()
    if conv.turns:
        left, right = st.columns(2)
        left.download_button("Download this conversation (Markdown)", conv.to_markdown(),
                             file_name="codeassist-conversation.md", mime="text/markdown", key="download-conversation")
        right.button("Start over", on_click=_start_over, key="start-over")
