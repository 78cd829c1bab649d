"""Chat: answers with citations that expand to the highlighted provision, follow-ups, the
municipality selector, long inputs, errors that leave the conversation intact, the download.

The fast tests use a fake Assistant (the page's own logic); the slow ones ask the real one."""

from __future__ import annotations

import pytest

from apphelpers import all_markdown, new_app


def ask(at, question: str):
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception
    return at


def test_answer_shows_citation_that_expands_to_the_highlighted_provision(fake_assistant):
    at = ask(new_app().run(), "Is routine maintenance exempt?")
    assert len(at.chat_message) == 2
    labels = [e.label for e in at.expander]
    assert any(label.startswith("[1] Tuckahoe Code § 7B\\-5\\(c\\)") for label in labels)
    text = all_markdown(at)
    assert ":orange-background[disturb fewer than five acres]" in text
    assert "](?cite=tuckahoe%3A7B-5%28c%29)" in text


def test_answer_text_cannot_inject_markup(fake_assistant):
    text = all_markdown(ask(new_app().run(), "Is routine maintenance exempt? <script>alert(1)</script> $x$"))
    assert "\\$1,000" in text  # no LaTeX
    assert "\\<b>" in text  # no HTML
    assert "\\:red[no]" in text  # no colour directive
    assert "\\<script\\>alert\\(1\\)\\<\\/script\\> \\$x\\$" in text  # the question is shown as typed


def test_follow_up_question_and_answer(fake_assistant):
    at = ask(new_app().run(), "Do I need a plan?")
    assert "**How many acres will you disturb?**" in all_markdown(at)
    ask(at, "3 acres")
    assert len(at.chat_message) == 4
    assert [q for q, _ in fake_assistant.calls] == ["Do I need a plan?", "3 acres"]
    assert len(at.session_state["conversation"].turns) == 2


def test_municipality_selector_is_passed_on(fake_assistant):
    at = new_app().run()
    at.radio(key="_municipality_widget").set_value("tuckahoe").run()
    ask(at, "Is routine maintenance exempt?")
    assert fake_assistant.calls[-1][1] == "tuckahoe"
    assert at.session_state["conversation"].municipality == "tuckahoe"
    at.radio(key="_municipality_widget").set_value("all").run()
    ask(at, "and with 3 acres?")
    assert fake_assistant.calls[-1][1] is None


def test_long_question_refused_politely(fake_assistant):
    at = ask(new_app().run(), "x" * 2001)
    assert fake_assistant.calls == []
    assert "2,001 characters long" in at.warning[0].value


def test_error_in_one_answer_leaves_the_conversation_intact(fake_assistant):
    at = ask(new_app().run(), "Is routine maintenance exempt?")
    ask(at, "please explode")
    assert "something went wrong" in at.warning[0].value
    assert len(at.session_state["conversation"].turns) == 1
    ask(at, "and with 3 acres?")
    assert len(at.session_state["conversation"].turns) == 2
    assert len(at.warning) == 1  # the failed attempt stays in its place, outside the conversation


def test_example_question_is_asked(fake_assistant):
    at = new_app().run()
    first = next(b for b in at.button if b.key and b.key.startswith("example-Resident-"))
    first.click().run()
    assert fake_assistant.calls[0][0] == first.label


def test_conversation_download_and_start_over(fake_assistant):
    at = ask(new_app().run(), "Is routine maintenance exempt?")
    labels = {d.label for d in at.get("download_button")}
    assert "Download this conversation (Markdown)" in labels
    at.button(key="start-over").click().run()
    assert not at.chat_message


# --- the real Assistant (model and index) ---------------------------------------------------------


@pytest.mark.slow
def test_real_question_answered_with_citation():
    at = ask(new_app().run(), "Do I need a permit to replace a light switch in my house in Tuckahoe?")
    assert len(at.chat_message) == 2
    assert any("Tuckahoe Code § 7\\-5" in e.label for e in at.expander)
    assert ":orange-background[" in all_markdown(at)


@pytest.mark.slow
def test_real_follow_up():
    at = ask(new_app().run(), "Do I need a stormwater plan for my project in Hempstead?")
    conv = at.session_state["conversation"]
    assert conv.turns[-1].answer.follow_up
    ask(at, "2 acres")
    conv = at.session_state["conversation"]
    assert len(conv.turns) == 2
    assert conv.turns[-1].answer.citations
    assert any("Hempstead BZO" in e.label for e in at.expander)
