"""What gets embedded: every provision with text, with its context, inside the model's window."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

import pytest

from codeassist.chunking import HEADNOTE_VIEWS, VIEWS, chunk_provisions, split_text, words
from codeassist.text import _ABBREVIATIONS, sentences


def _text(chunks):
    return [c for c in chunks if c.view == "text"]


def test_every_provision_with_text_is_chunked_in_document_order(corpus):
    chunks = chunk_provisions(corpus, 180)
    ids = [c.id for c in chunks]
    assert len(ids) == len(set(ids))
    chunked = list(dict.fromkeys(c.provision_id for c in chunks))
    with_text = [p.id for p in corpus.provisions() if p.text.strip() or p.children]
    assert chunked == with_text


def test_chunks_fit_the_budget_and_carry_their_context(corpus):
    for c in _text(chunk_provisions(corpus, 180)):
        p = corpus.get(c.provision_id)
        assert words(c.text) <= 180, c.id
        assert c.municipality == p.municipality
        head = c.text.split("\n", 1)[0]
        assert p.citation.rstrip(".") in head
        assert corpus.municipalities[p.municipality].name in head


def test_a_long_provision_is_split_between_sentences_and_loses_nothing(corpus):
    chunks = [c for c in _text(chunk_provisions(corpus, 180)) if c.provision_id == "tuckahoe:7-8(a)"]
    assert len(chunks) >= 2
    bodies = [c.text.split("\n", 1)[1] for c in chunks]
    assert " ".join(" ".join(b.split()) for b in bodies) == " ".join(corpus.get("tuckahoe:7-8(a)").text.split())
    # its first sentence alone is over the budget, so it breaks at a clause, after a comma
    assert bodies[0].rstrip().endswith(",")


def test_long_provisions_split_at_sentence_ends_where_possible(corpus):
    for c in _text(chunk_provisions(corpus, 100)):
        body = c.text.split("\n", 1)[1]
        p = corpus.get(c.provision_id)
        if not p.text.strip():
            continue  # a table of contents, cut to the budget
        if body != p.text and not body.endswith((".", ";", ":", ",")):
            raise AssertionError(f"{c.id} ends mid-clause: ...{body[-40:]!r}")


def test_a_section_made_of_parts_lists_them(corpus):
    (chunk,) = [c for c in _text(chunk_provisions(corpus, 180)) if c.provision_id == "hempstead:391"]
    assert "Contains: A. Stormwater pollution prevention plan requirement" in chunk.text


def test_chunking_is_deterministic(corpus):
    assert chunk_provisions(corpus, 150) == chunk_provisions(corpus, 150)


def test_every_chunked_provision_has_its_heading_view_and_its_headnote_views(corpus):
    chunks = chunk_provisions(corpus, 180)
    by_pid: dict[str, dict[str, list]] = {}
    for c in chunks:
        assert c.municipality == corpus.get(c.provision_id).municipality
        by_pid.setdefault(c.provision_id, {}).setdefault(c.view, []).append(c)
    for pid, views in by_pid.items():
        assert "text" in views and len(views["heading"]) == 1, pid
        assert corpus.get(pid).citation in views["heading"][0].text
        note = corpus.headnote(pid)
        if note is None:
            assert not HEADNOTE_VIEWS & set(views), pid
            continue
        assert views["summary"][0].view_text == note.summary
        assert views["summary"][0].text.startswith(corpus.municipalities[note.id.split(":")[0]].name)
        assert [c.view_text for c in views.get("question", [])] == list(note.questions)
        assert [c.view_text for c in views.get("yes", [])] == list(note.yes)
        assert [c.view_text for c in views.get("no", [])] == list(note.no)
        if note.questions or note.yes or note.no:
            assert views["questions"][0].text == " ".join([*note.questions, *note.yes, *note.no])
    assert {c.view for c in chunks} == set(VIEWS)  # the corpus has headnotes with yes and no questions


def test_a_text_chunks_view_text_is_its_part_without_the_header(corpus):
    (chunk,) = [c for c in chunk_provisions(corpus, 180) if c.id == "tuckahoe:7B-5(c)#0"]
    assert chunk.view == "text" and chunk.view_text == corpus.get("tuckahoe:7B-5(c)").text
    assert chunk.text.endswith("\n" + chunk.view_text)


def test_views_can_be_chosen_and_unknown_ones_are_refused(corpus):
    assert {c.view for c in chunk_provisions(corpus, 180, views=("text",))} == {"text"}
    with pytest.raises(ValueError, match="unknown views.*known: text, heading"):
        chunk_provisions(corpus, 180, views=("text", "summery"))


def test_sentences_keep_abbreviations_and_citations_whole():
    text = 'Enacted by L.L. No. 2-2007. See Ord. of 3-31-1933, Art. IV. It said "stop." Then it ended.'
    assert sentences(text) == ["Enacted by L.L. No. 2-2007.", "See Ord. of 3-31-1933, Art. IV.",
                               'It said "stop."', "Then it ended."]


_WORD = st.from_regex(r"[A-Za-z]{1,9}[.,;]?", fullmatch=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(_WORD, min_size=1, max_size=400), st.integers(min_value=5, max_value=120))
def test_split_text_respects_the_budget_and_keeps_every_word(tokens, budget):
    text = " ".join(tokens)
    parts = split_text(text, budget)
    assert all(1 <= words(p) <= budget for p in parts)
    assert " ".join(parts).split() == text.split()


# A sentence here ends in a word of 3+ letters that is not an abbreviation ("No.", "Art."): a lone
# letter before a period reads as a label or an initial ("A.", "L.L."), by design.
_SENTENCE = st.from_regex(r"[A-Z][a-z]{0,8}( [a-z]{1,8}){0,20} [a-z]{3,8}\.", fullmatch=True).filter(
    lambda s: s.split()[-1].rstrip(".") not in _ABBREVIATIONS)


@settings(max_examples=100, deadline=None)
@given(st.lists(_SENTENCE, min_size=1, max_size=30))
def test_sentences_that_fit_are_never_cut(sents):
    text = " ".join(sents)
    budget = max(words(s) for s in sents)
    for part in split_text(text, budget):
        assert part.endswith(".") and re.match(r"[A-Z]", part)
