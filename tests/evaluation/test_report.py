"""REPORT.md from hand-made runs (no model): the test split first, and blind."""

from __future__ import annotations

from codeassist.evaluation.answers import summarize_answers
from codeassist.evaluation.report import compact_table, render_report
from codeassist.evaluation.retrieval import Result, System, evaluate_retrieval
from codeassist.evaluation.targets import targets

_COMMON = {"error": None, "problems": [], "unsupported": [], "facts_in_quotes": [], "fallback": False,
           "quotes_total": 1, "quotes_verbatim": 1, "gold_calculator": None, "calculator": None}


def _split(prefix: str, meta_path: str) -> dict:
    rows = [
        {"id": f"{prefix}1", "question": "who signs the plan", "category": "retrieval", "answerable": True,
         "gold": ["x"], "key_facts": ["engineer"], "lead_facts": ["engineer"], "calculator": None,
         "municipality": "hempstead", "expected_municipality": "hempstead", "user_type": "contractor"},
        {"id": f"{prefix}2", "question": "fines in tuckahoe", "category": "retrieval", "answerable": True,
         "gold": ["y"], "key_facts": ["$250"], "lead_facts": ["$250"], "calculator": None,
         "municipality": None, "expected_municipality": "tuckahoe", "user_type": "resident"},
        {"id": f"{prefix}3", "question": "zoning setbacks", "category": "out_of_corpus", "answerable": False,
         "gold": [], "key_facts": [], "lead_facts": ["not"], "calculator": None,
         "municipality": None, "expected_municipality": None, "user_type": "resident"},
    ]
    answers = {f"{prefix}1": ["x"], f"{prefix}2": ["z", "y"]}

    def run(row):
        got = answers.get(row["id"], [])
        return Result(got, ["hempstead"] * len(got), [g in row["gold"] for g in got], 1.0)

    systems = [System(name, name, 5, run) for name in ("hybrid", "langchain", "bm25", "dense")]
    retrieval = evaluate_retrieval([r for r in rows if r["answerable"]], systems, warmup=[])
    per_q = [
        {**_COMMON, "id": f"{prefix}1", "category": "retrieval", "answerable": True, "intent": "retrieval",
         "abstained": False, "citations": ["x"], "missing_facts": [], "right_provision": True,
         "lead": "A professional engineer signs it.", "lead_ok": True},
        {**_COMMON, "id": f"{prefix}2", "category": "retrieval", "answerable": True, "intent": "retrieval",
         "abstained": True, "citations": [], "missing_facts": ["$250"], "right_provision": False,
         "lead": "The text does not say.", "lead_ok": False},
        {**_COMMON, "id": f"{prefix}3", "category": "out_of_corpus", "answerable": False, "intent": "abstain",
         "abstained": True, "citations": [], "missing_facts": [], "lead": "The text does not say.", "lead_ok": True},
    ]
    answers_block = summarize_answers(rows, per_q, [5.0, 10.0, 20.0])
    meta = {"split": prefix, "run_at": "2026-12-03T00:00:00+00:00", "gold": meta_path, "questions": 3,
            "retrieval_questions": 2, "model": "fake", "k": 5,
            "setup": {"index": {"chunks": 1, "collection": "c"}, "langchain": {"chunks": 1}},
            "seconds": {"retrieval": 0.1, "answers": 0.1, "total": 0.2}, "warnings": []}
    return {"meta": meta, "retrieval": retrieval, "answers": answers_block,
            "targets": targets(retrieval, answers_block)}


def test_report_puts_test_first_and_names_none_of_its_questions():
    report = render_report({"test": _split("t", "eval/test.jsonl"), "dev": _split("d", "eval/gold.jsonl")})
    test_part = report[report.index("## Test split"):report.index("## Dev split")]
    dev_part = report[report.index("## Dev split"):]
    assert report.index("## Overview") < report.index("## Test split")
    assert "t1" not in test_part and "t2" not in test_part and "t3" not in test_part
    assert "### Misses by category" in test_part and "Misses per question" not in test_part
    assert "**d2**" in dev_part and "lead fact not in the first sentence" in dev_part
    assert "### Misses per question (dev only)" in dev_part
    overview = report[report.index("## Overview"):report.index("## Test split")]
    assert "| lead fact in the first sentence | 0.667 (2/3) | 0.667 (2/3) |" in overview
    assert "| wrong abstentions (answerable) | 1 | 1 |" in overview


def test_answer_summary_counts_lead_facts_and_misses_by_category():
    s = _split("d", "eval/gold.jsonl")
    a = s["answers"]
    assert a["lead_fact"]["n"] == 3 and a["lead_fact"]["passed"] == 2
    assert a["abstention"]["false_abstention_ids"] == ["d2"]
    assert a["misses_by_category"]["retrieval"] == {"questions": 2, "right provision": 1, "wrong abstention": 1,
                                                    "lead fact": 1, "key facts": 1}
    t = {x["target"]: x["met"] for x in s["targets"]}
    assert not t["no abstention where a provision answers"]
    assert not t["the lead fact (number, office, yes/no) in the answer's first sentence >= 90%"]
    assert "hybrid" in compact_table(s)
