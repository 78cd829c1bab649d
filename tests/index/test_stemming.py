"""BM25's words: Porter stemming, stop words, and the municipality filter applied before ranking."""

from __future__ import annotations

import pytest

from codeassist.chunking import Chunk
from codeassist.index import BM25Search
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
