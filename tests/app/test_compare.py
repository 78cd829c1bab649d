"""Compare: two laws side by side on a topic, differing words highlighted."""

from __future__ import annotations

import pytest

from apphelpers import all_markdown, new_app

PAGE = "src/codeassist/ui/pages/compare.py"


def compare_page():
    at = new_app().run()
    return at.switch_page(PAGE).run()


def test_topic_button_compares_with_differences_marked(fake_assistant):
    at = compare_page()
    at.button(key="topic-stop-work orders").click().run()
    assert not at.exception
    text = all_markdown(at)
    assert ":orange-background[Town of Hempstead]" in text
    assert ":orange-background[Village]" in text
    assert "](?cite=tuckahoe%3A7B-8%28b%29)" in text
    assert "Wording similarity: 81%" in text


@pytest.mark.slow
def test_real_compare():
    at = compare_page()
    at.text_input(key="compare-topic").input("stop-work orders")
    at.button(key="FormSubmitter:compare-form-Compare").click().run()
    assert not at.exception and not at.warning
    text = all_markdown(at)
    assert "Hempstead BZO" in text and "Tuckahoe Code" in text
    assert ":orange-background[" in text
