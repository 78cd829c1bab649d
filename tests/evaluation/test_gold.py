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
    dev, test, dev2, dev3, dev5, dev10 = (tmp_path / f"{name}.jsonl" for name in ("gold", "test", "dev2", "dev3", "dev5", "dev10"))
    dev.write_text('{"id": "q001", "question": "a?"}\n\n', encoding="utf-8")
    assert list(E.resolve_splits("all", folder=tmp_path)) == ["dev"]  # no test or later dev file yet: left out
    with pytest.raises(FileNotFoundError):
        E.resolve_splits("test", folder=tmp_path)
    with pytest.raises(ValueError, match="unknown split 'tset'"):
        E.resolve_splits("tset", folder=tmp_path)
    test.write_text('{"id": "t001", "question": "b?", "split": "test"}\n', encoding="utf-8")
    assert list(E.resolve_splits("all", folder=tmp_path)) == ["test", "dev"]
    # A later blind split is a new file; they report in the order of their numbers (dev10 after dev5).
    for path, qid in ((dev10, "z001"), (dev2, "d001"), (dev5, "k001"), (dev3, "e001")):
        path.write_text(f'{{"id": "{qid}", "question": "c?"}}\n', encoding="utf-8")
    (tmp_path / "dev-notes.jsonl").write_text("", encoding="utf-8")  # not a split
    assert list(E.resolve_splits("all", folder=tmp_path)) == ["test", "dev", "dev2", "dev3", "dev5", "dev10"]
    assert E.resolve_splits("dev", folder=tmp_path) == {"dev": dev}
    assert E.resolve_splits("dev10", folder=tmp_path) == {"dev10": dev10}
    # `files` overrides one split's file.
    assert E.resolve_splits("all", {"dev3": tmp_path / "none.jsonl"}, folder=tmp_path).keys() == {"test", "dev", "dev2", "dev5", "dev10"}
    assert E.load_gold(dev, split="dev") == [{"id": "q001", "question": "a?", "split": "dev"}]
    assert E.load_gold(test, split="dev")[0]["split"] == "test"  # a line's own split wins


def test_the_repositorys_splits_are_its_eval_files():
    assert list(E.SPLITS)[:2] == ["test", "dev"]
    assert {"dev2", "dev6", "dev7", "dev8"} <= set(E.SPLITS)
    assert all(path.is_file() for path in E.SPLITS.values())


def test_dev_gold_lines_carry_lead_facts():
    rows = E.load_gold()
    missing = [r["id"] for r in rows if not r.get("lead_facts")]
    assert not missing, missing
    assert all(1 <= len(r["lead_facts"]) <= 3 and all(isinstance(f, str) and f.strip() for f in r["lead_facts"])
               for r in rows)
