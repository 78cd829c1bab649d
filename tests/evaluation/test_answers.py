"""Answer summaries and targets on hand-made per-question records."""

from __future__ import annotations

from codeassist.evaluation.answers import summarize_answers
from codeassist.evaluation.targets import targets


def test_summaries_and_targets_on_hand_made_answers():
    rows = [
        {"id": "a", "category": "retrieval", "answerable": True, "gold": ["x"], "key_facts": ["one acre"], "calculator": None},
        {"id": "b", "category": "calculator", "answerable": True, "gold": ["y"], "key_facts": [], "calculator": "penalty"},
        {"id": "c", "category": "out_of_corpus", "answerable": False, "gold": ["z"], "key_facts": ["§ 12-1"], "calculator": None},
    ]
    common = {"error": None, "problems": [], "unsupported": [], "facts_in_quotes": [], "fallback": False}
    per_q = [
        {**common, "id": "a", "category": "retrieval", "answerable": True, "gold_calculator": None, "intent": "retrieval",
         "abstained": False, "citations": ["x"], "calculator": None, "quotes_total": 1, "quotes_verbatim": 1,
         "missing_facts": [], "right_provision": True},
        {**common, "id": "b", "category": "calculator", "answerable": True, "gold_calculator": "penalty", "intent": "calculator",
         "abstained": False, "citations": [], "calculator": "deadlines", "quotes_total": 2, "quotes_verbatim": 2,
         "missing_facts": [], "right_provision": False},
        {**common, "id": "c", "category": "out_of_corpus", "answerable": False, "gold_calculator": None, "intent": "retrieval",
         "abstained": False, "citations": [], "calculator": None, "quotes_total": 0, "quotes_verbatim": 0,
         "missing_facts": ["§ 12-1"]},
    ]
    s = summarize_answers(rows, per_q, [10.0, 20.0, 30.0])
    assert s["right_provision"] == {"n": 2, "passed": 1, "rate": 0.5, "by_category": s["right_provision"]["by_category"]}
    assert s["abstention"]["rate"] == 0.0 and s["abstention"]["n"] == 1
    assert s["calculator_routing"]["rate"] == 0.0
    assert s["verbatim"]["rate"] == 1.0
    assert s["key_facts"]["questions"] == {"n": 2, "all_present": 1, "rate": 0.5}
    assert {f["id"] for f in s["failures"]} == {"b", "c"}
    t = {x["target"]: x["met"] for x in targets({}, s)}
    assert t["100% of quotes verbatim"] and t["0 unsupported numbers"]
    assert not t["abstention on every out-of-corpus question"]
    assert not t["right provision cited for >= 95% of answerable"]
