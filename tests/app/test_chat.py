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


# --- answers drafted as blocks: the plain answer first, the law verbatim in an expander -----------------


def children(node) -> list:
    """A container's elements, in the order the page shows them."""
    return [node.children[k] for k in sorted(node.children)]


def test_plain_answer_first_then_labelled_summary_then_the_law_in_an_expander(fake_assistant):
    at = ask(new_app().run(), "Can I skip review for routine maintenance?")
    first, label, law, also, *rest = children(at.chat_message[1])
    assert first.type == "markdown" and first.value.startswith("**Yes\\.** Routine maintenance")
    assert label.type == "caption" and "Summary \u2014 our plain-language reading of [Tuckahoe Code" in label.value
    assert "not the law's words" in label.value and "(?cite=tuckahoe%3A7B-5%28c%29)" in label.value
    assert law.type == "expander" and law.label.startswith("What the law says \u2014 Tuckahoe Code § 7B\\-5\\(c\\)")
    (quoted,) = law.markdown
    intro, item = quoted.value.index("The following activities may be exempt"), quoted.value.index("disturb fewer")
    assert intro < item  # the list's lead-in comes before the item it introduces
    assert also.label.startswith("Also relevant \u2014 Tuckahoe Code § 7B\\-4\\(a\\)")
    shown = [getattr(e, "value", "") for e in rest]
    assert any("**Note:** Exemption is decided case by case" in v for v in shown)
    assert any("Questions about your site" in v for v in shown)
    assert sum("Exemption is decided case by case" in v for v in shown) == 1  # the caveat is the note
    assert any(e.label.startswith("[2] Tuckahoe Code § 7B\\-5\\(c\\)") for e in at.expander)  # sources stay


def test_summary_is_never_shown_as_the_law(fake_assistant):
    at = ask(new_app().run(), "Can I skip review for routine maintenance?")
    law = next(e for e in at.expander if e.label.startswith("What the law says"))
    summary = at.session_state["conversation"].turns[-1].answer.blocks[1].text
    assert summary[:40] not in "\n".join(m.value for m in law.markdown).replace("\\", "")


def test_each_municipality_gets_its_own_section(fake_assistant):
    at = ask(new_app().run(), "Compare stop-work orders in both places.")
    values = [getattr(e, "value", "") or getattr(e, "label", "") for e in children(at.chat_message[1])]
    assert values[0].startswith("Differences in wording")
    town = next(i for i, v in enumerate(values) if v.endswith("**Town of Hempstead**"))
    village = next(i for i, v in enumerate(values) if v.endswith("**Village of Tuckahoe**"))
    assert town < village
    assert values[town + 1].startswith("The Town of Hempstead may issue a stop\\-work order")
    assert values[town + 2].startswith(":material/summarize: Summary")
    assert values[town + 3].startswith("What the law says \u2014 Hempstead BZO Art\\. XXXVIII")
    assert values[village + 3].startswith("What the law says \u2014 Tuckahoe Code § 7B\\-8\\(b\\)")


def test_download_keeps_the_drafted_answer(fake_assistant):
    at = ask(new_app().run(), "Can I skip review for routine maintenance?")
    md = at.session_state["conversation"].to_markdown()
    assert "**Yes.** Routine maintenance" in md and "_(our summary, not the law's words)_" in md
    assert "Download this conversation (Markdown)" in {d.label for d in at.get("download_button")}


def test_answer_without_blocks_is_shown_from_its_text(fake_assistant):
    at = ask(new_app().run(), "Is routine maintenance exempt?")
    assert children(at.chat_message[1])[0].value.startswith("Routine maintenance may be exempt")
    assert not any(e.label.startswith("What the law says") for e in at.expander)


def test_examples_come_from_the_corpus_metadata(fake_assistant, corpus):
    at = new_app().run()
    shown = [b.label for b in at.button if b.key and b.key.startswith("example-")]
    listed = [e.question for m in corpus.municipalities.values() for e in m.examples]
    assert set(listed) <= set(shown)
    names = [m.short_name for m in corpus.municipalities.values()]
    assert f"Compare stop-work orders in {names[0]} and {names[1]}." in shown


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


@pytest.mark.slow
def test_real_answer_opens_with_the_plain_answer():
    at = ask(new_app().run(), "Who may prepare and sign a SWPPP in Hempstead?")
    first, label, law, *_ = children(at.chat_message[1])
    assert first.type == "markdown" and "licensed" in first.value
    assert label.type == "caption" and "Summary \u2014 our plain-language reading" in label.value
    assert law.type == "expander" and law.label.startswith("What the law says \u2014 Hempstead BZO § 391\\(C\\)")
    assert "Plan certification\\." in law.markdown[0].value
