"""What a gold line says about itself."""

from __future__ import annotations

from codeassist.evaluation import gold as E


def test_municipality_source():
    names = {"hempstead": ["hempstead", "town of hempstead"], "tuckahoe": ["tuckahoe", "the village"]}
    row = {"question": "fines in the village?", "municipality": None, "expected_municipality": "tuckahoe"}
    assert E.municipality_source(row, names) == "named"
    assert E.municipality_source({**row, "question": "fines in hempsted?", "expected_municipality": "hempstead"}, names) == "named"
    assert E.municipality_source({**row, "question": "what goes in a swppp"}, names) == "content"
    assert E.municipality_source({**row, "municipality": "tuckahoe"}, names) == "caller"
    assert E.municipality_source({**row, "expected_municipality": None}, names) is None


def test_retrieval_question_selection():
    base = {"category": "retrieval", "answerable": True, "gold": ["hempstead:391(C)"]}
    assert E.is_retrieval_question(base)
    assert not E.is_retrieval_question({**base, "category": "out_of_corpus", "answerable": False})
    assert not E.is_retrieval_question({**base, "gold": []})
