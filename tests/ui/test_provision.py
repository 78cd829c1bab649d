"""A provision as Markdown: quotes highlighted (also across children), terms and references linked."""

from __future__ import annotations

import pytest

from codeassist.ui.provision import provision_markdown


def test_quote_is_highlighted_in_the_right_child(corpus):
    r = provision_markdown(corpus, "tuckahoe:7B-5", quote="disturb fewer than five acres")
    assert not r.missing_quotes
    (block,) = [md for pid, md in r.blocks if ":orange-background[" in md]
    assert block.startswith("**\\(c\\)** Routine maintenance activities that :orange-background[disturb fewer")


def test_quote_spanning_two_children(corpus):
    a = corpus.get("tuckahoe:7B-5(g)").text
    b = corpus.get("tuckahoe:7B-5(h)").text
    r = provision_markdown(corpus, "tuckahoe:7B-5", quote=f"{a} {b.split()[0]}")
    marked = [pid for pid, md in r.blocks if ":orange-background[" in md]
    assert marked == ["tuckahoe:7B-5(g)", "tuckahoe:7B-5(h)"]


def test_missing_quote_is_reported(corpus):
    r = provision_markdown(corpus, "tuckahoe:7B-5(c)", quote="six acres")
    assert r.missing_quotes == ["six acres"]


def test_each_defined_term_is_linked_once_per_view(corpus):
    md = provision_markdown(corpus, "hempstead:391").markdown
    assert md.count("(?cite=hempstead%3A390%2Fland-development-activity)") == 1


def test_not_in_corpus_reference_named(corpus):
    md = provision_markdown(corpus, "tuckahoe:7-14").markdown
    assert ":gray[_\u21b3 not in this corpus: Code of the Village of Tuckahoe § 1\\-7" in md
    assert md.endswith("_History: Ord\\. of 3\\-31\\-1933, Art\\. XIII_]]")


@pytest.mark.parametrize("pid", ["hempstead:390", "hempstead:391", "tuckahoe:7-11", "tuckahoe:7B-6"])
def test_every_section_renders_all_its_provisions(corpus, pid):
    r = provision_markdown(corpus, pid, focus=corpus.descendants(pid)[0].id)
    ids = [b for b, _ in r.blocks if b != pid]
    assert ids == [d.id for d in corpus.descendants(pid) if d.text or d.kind == "definition"]
    assert ":material/location_on:" in r.markdown
