"""Escaping and highlighting: corpus and user text must come out of Markdown exactly as written."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from codeassist.ui.text import Link, annotate, cite_url, escape_md, find_quote, safe_answer_md

MD = MarkdownIt("commonmark").enable("table").enable("strikethrough")


def visible_text(md: str) -> str:
    """What a CommonMark renderer shows: the HTML with tags dropped and entities decoded."""
    import html

    out = MD.render(md)
    assert "<script" not in out and "<a " not in out and "<em" not in out and "<strong" not in out
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", out)).split())


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=200))
@settings(max_examples=300, deadline=None)
def test_escaped_text_renders_as_itself(text):
    assert visible_text(escape_md(text)) == " ".join(text.split())


def test_escapes_streamlit_extensions():
    md = escape_md("Fine $250 to $1,000 :red[x] :material/home: ~gone~ <b>")
    assert "\\$250" in md and "\\:red\\[x\\]" in md and "\\:material\\/home\\:" in md
    assert "\\~gone\\~" in md and "\\<b\\>" in md
    assert ":material/" not in md  # Streamlit turns that into an icon even when the colon is escaped


def test_keep_newlines_makes_hard_breaks():
    assert escape_md("line one\nline two", keep_newlines=True) == "line one  \nline two"


def test_safe_answer_keeps_emphasis_but_not_latex_html_or_directives():
    md = safe_answer_md("**Yes.** Fines of $250 <i>x</i> :red[y] :material/home: see https://example.org")
    assert ":material/" not in md
    assert md.startswith("**Yes.**")
    assert "\\$250" in md and "\\<i>" in md and "\\:red[y]" in md
    assert "https://example.org" in md


def test_find_quote_ignores_whitespace_then_case():
    text = "Routine maintenance activities that disturb\nfewer than  five acres"
    assert find_quote(text, "disturb fewer than five") == (36, 60)
    assert find_quote(text, "ROUTINE maintenance") == (0, 19)
    assert find_quote(text, "six acres") is None
    assert find_quote(text, "   ") is None


def test_annotate_links_and_highlight_across_a_link():
    text = "See § 390 for the defined terms."
    md = annotate(text, links=[Link(4, 9, "hempstead:390")], highlights=[(0, 13)])
    assert md == (":orange-background[See ][:orange-background[§ 390]](?cite=hempstead%3A390)"
                  ":orange-background[ for] the defined terms\\.")


def test_overlapping_links_keep_the_first():
    md = annotate("stormwater management", links=[Link(0, 21, "a:x"), Link(0, 10, "a:y")])
    assert md == "[stormwater management](?cite=a%3Ax)"


def test_cite_url_encodes_parentheses():
    assert cite_url("tuckahoe:7B-5(c)") == "?cite=tuckahoe%3A7B-5%28c%29"
