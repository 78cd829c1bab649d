"""What a gold line says about itself."""

from __future__ import annotations

import pytest

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


def test_splits_test_first_and_missing_files(tmp_path):
    dev, test, dev2, dev3, dev4, dev5, dev6 = (tmp_path / f"{name}.jsonl"
                                               for name in ("dev", "test", "dev2", "dev3", "dev4", "dev5", "dev6"))
    dev.write_text('{"id": "q001", "question": "a?"}\n\n', encoding="utf-8")
    files = {"dev": dev, "test": test, "dev2": dev2, "dev3": dev3, "dev4": dev4, "dev5": dev5, "dev6": dev6}
    assert list(E.resolve_splits("all", files)) == ["dev"]  # no test or later dev file yet: left out
    with pytest.raises(FileNotFoundError):
        E.resolve_splits("test", {"dev": dev, "test": test})
    with pytest.raises(ValueError, match="unknown split 'tset'"):
        E.resolve_splits("tset", {"dev": dev})
    test.write_text('{"id": "t001", "question": "b?", "split": "test"}\n', encoding="utf-8")
    assert list(E.resolve_splits("all", files)) == ["test", "dev"]
    dev2.write_text('{"id": "d001", "question": "c?"}\n', encoding="utf-8")
    assert list(E.resolve_splits("all", files)) == ["test", "dev", "dev2"]  # the blind split first
    dev3.write_text('{"id": "e001", "question": "d?"}\n', encoding="utf-8")
    assert list(E.resolve_splits("all", files)) == ["test", "dev", "dev2", "dev3"]
    dev5.write_text('{"id": "k001", "question": "e?"}\n', encoding="utf-8")
    assert list(E.resolve_splits("all", files)) == ["test", "dev", "dev2", "dev3", "dev5"]
    assert E.resolve_splits("dev", files) == {"dev": dev}
    assert E.load_gold(dev, split="dev") == [{"id": "q001", "question": "a?", "split": "dev"}]
    assert E.load_gold(test, split="dev")[0]["split"] == "test"  # a line's own split wins


def test_dev_gold_lines_carry_lead_facts():
    rows = E.load_gold()
    missing = [r["id"] for r in rows if not r.get("lead_facts")]
    assert not missing, missing
    assert all(1 <= len(r["lead_facts"]) <= 3 and all(isinstance(f, str) and f.strip() for f in r["lead_facts"])
               for r in rows)
