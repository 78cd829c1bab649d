"""BM25's words: Porter stemming, stop words, and the municipality filter applied before ranking."""

from __future__ import annotations

import pytest

from codeassist.chunking import Chunk
from codeassist.lexical import BM25Search
from codeassist.text import stem, tokenize


@pytest.mark.parametrize("word,expected", [
    ("caresses", "caress"), ("ponies", "poni"), ("agreed", "agre"), ("plastered", "plaster"),
    ("motoring", "motor"), ("hopping", "hop"), ("filing", "file"), ("happy", "happi"),
    ("relational", "relat"), ("conditional", "condit"), ("generalization", "gener"), ("electrical", "electr"),
    ("adjustment", "adjust"), ("adoption", "adopt"), ("probate", "probat"), ("cease", "ceas"),
])
def test_porter_reference_examples(word, expected):
    assert stem(word) == expected


def test_word_families_meet():
    assert len({stem(w) for w in ("violation", "violations", "violated", "violate")}) == 1
    assert len({stem(w) for w in ("inspection", "inspections", "inspected", "inspect")}) == 1


def test_tokenize_drops_stop_words_and_keeps_numbers():
    assert tokenize("What is the fine for a 2nd violation of § 7B-8?") == ["fine", "2nd", "violat", "7b", "8"]


def _chunk(i, muni, text):
    return Chunk(id=f"{muni}:{i}#0", provision_id=f"{muni}:{i}", municipality=muni, text=text)


def test_municipality_filter_applies_before_ranking():
    chunks = [_chunk(1, "hempstead", "stop-work order issued by the Town"),
              _chunk(2, "hempstead", "maintenance agreement recorded"),
              _chunk(3, "tuckahoe", "stop-work order issued by the Village"),
              _chunk(4, "tuckahoe", "electrical permit fees")]
    bm25 = BM25Search(chunks)
    assert [c.municipality for c, _ in bm25.search("stop-work order", 5, "tuckahoe")] == ["tuckahoe"]
    assert {c.id for c, _ in bm25.search("stop-work order", 5)} == {"hempstead:1#0", "tuckahoe:3#0"}
    # Hempstead's words neither rank nor count in Tuckahoe's statistics
    assert bm25.search("maintenance agreement", 5, "tuckahoe") == []
    assert bm25.search("anything", 5, "nowhere") == []
    assert bm25.search("the of and", 5) == []


def test_glossary_expansions_count_less_than_the_users_own_words():
    from codeassist.lexical import EXPANSION_WEIGHT

    chunks = [_chunk(1, "hempstead", "reports within 24 hours of any storm event producing precipitation"),
              _chunk(2, "hempstead", "no increase in turbidity in surface waters"),
              _chunk(3, "hempstead", "fees for plan review"),
              _chunk(4, "hempstead", "maintenance agreement recorded")]
    bm25 = BM25Search(chunks)
    assert 0 < EXPANSION_WEIGHT < 1
    # The user's word against a word the glossary added, equally rare: the user's word decides.
    ranked = [c.id for c, _ in bm25.search("turbidity", 5, "hempstead", extra=["precipitation"])]
    assert ranked == ["hempstead:2#0", "hempstead:1#0"]
    full = dict((c.id, s) for c, s in bm25.search("turbidity precipitation", 5, "hempstead"))
    added = dict((c.id, s) for c, s in bm25.search("turbidity", 5, "hempstead", extra=["precipitation"]))
    assert added["hempstead:1#0"] == pytest.approx(EXPANSION_WEIGHT * full["hempstead:1#0"])
    assert added["hempstead:2#0"] == pytest.approx(full["hempstead:2#0"])
    # Added words alone still find their passage; a word the user already wrote is not counted twice.
    assert [c.id for c, _ in bm25.search("", 5, "hempstead", extra=["turbidity"])] == ["hempstead:2#0"]
    once = bm25.search("turbidity", 5, "hempstead")[0][1]
    assert bm25.search("turbidity", 5, "hempstead", extra=["turbidity"])[0][1] == pytest.approx(once)
