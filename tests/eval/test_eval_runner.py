"""The eval harness: its metric functions on hand-made rankings (fast), and one small real run (slow)."""

from __future__ import annotations

import json
import math

import pytest

from codeassist import eval_runner as E


# --- metric functions ---------------------------------------------------------------------------

def test_first_relevant_rank():
    assert E.first_relevant_rank([False, False, True, True]) == 3
    assert E.first_relevant_rank([True]) == 1
    assert E.first_relevant_rank([False, False]) is None
    assert E.first_relevant_rank([]) is None


def test_recall_and_mrr_on_hand_made_rankings():
    # Four questions: answer first, third, sixth (beyond k=5), never returned.
    ranks = [1, 3, 6, None]
    assert E.recall_at(ranks, 1) == pytest.approx(0.25)
    assert E.recall_at(ranks, 5) == pytest.approx(0.5)
    assert E.recall_at(ranks, 10) == pytest.approx(0.75)
    assert E.mean_reciprocal_rank(ranks) == pytest.approx((1 + 1 / 3 + 1 / 6 + 0) / 4)
    summary = E.summarize_ranks(ranks)
    assert summary == {"n": 4, "recall@1": 0.25, "recall@5": 0.5, "mrr": pytest.approx((1 + 1 / 3 + 1 / 6) / 4)}
    assert E.recall_at([], 5) == 0.0 and E.mean_reciprocal_rank([]) == 0.0


def test_recall_is_monotone_in_k_and_mrr_bounded():
    ranks = [2, None, 1, 4, 5, 3]
    values = [E.recall_at(ranks, k) for k in range(1, 7)]
    assert values == sorted(values)
    assert E.recall_at(ranks, 1) <= E.mean_reciprocal_rank(ranks) <= E.recall_at(ranks, 5)


def test_percentile_interpolates_like_numpy():
    xs = [10.0, 20.0, 30.0, 40.0]
    assert E.percentile(xs, 50) == pytest.approx(25.0)
    assert E.percentile(xs, 0) == 10.0 and E.percentile(xs, 100) == 40.0
    assert E.percentile(xs, 95) == pytest.approx(38.5)
    assert E.percentile([], 50) == 0.0


def test_wrong_municipality():
    assert E.has_wrong_municipality(["hempstead", "tuckahoe"], "hempstead")
    assert not E.has_wrong_municipality(["hempstead", "hempstead"], "hempstead")
    assert not E.has_wrong_municipality(["hempstead", "tuckahoe"], None)


@pytest.mark.parametrize("fact,text,present", [
    ("five years", "valid for 5 years from issue", True),
    ("5 years", "for a period of five years", True),
    ("twenty-four hours", "within 24 hours of the storm", True),
    ("$1,000", "not more than $1000", True),
    ("Nassau County Police Department", "the nassau  county\npolice department", True),
    ("Reserved", "§ 7-6. (Reserved)", True),
    ("secure the site", "secure  the\u00a0site", True),
    ("March 18", "Last day to appeal: 2026-03-18 (Town of Hempstead).", True),
    ("March 18", "Last day to appeal: 2026-03-19.", False),
    ("Wednesday", "due 2026-12-02", False),          # a weekday is not inferred from a date
    ("one acre", "five acres", False),
    ("$350", "$3500", False),
])
def test_fact_present(fact, text, present):
    assert E.fact_present(fact, text) is present


# --- judging hits against the real corpus (no model) --------------------------------------------

def test_provision_hit_rules(corpus):
    judge = E.Judge(corpus)
    gold = ["hempstead:391(E)(2)"]
    assert judge.provision_hit("hempstead:391(E)(2)", "", gold)
    # An ancestor counts only when its returned text holds the gold provision's text.
    parent = corpus.get("hempstead:391(E)")
    assert judge.provision_hit(parent.id, corpus.full_text(parent.id), gold)
    assert not judge.provision_hit(parent.id, parent.text, gold)
    # A descendant of a gold provision, or an unrelated one, does not count.
    assert not judge.provision_hit("hempstead:391(E)(1)", corpus.full_text("hempstead:391(E)(1)"), ["hempstead:391(E)"])
    assert not judge.provision_hit("tuckahoe:7B-8(d)", corpus.full_text("tuckahoe:7B-8(d)"), gold)


def test_chunk_hit_needs_text_and_place(corpus):
    judge = E.Judge(corpus)
    p = corpus.get("tuckahoe:7B-8(d)")
    src = corpus.sources[p.source]
    start = max(0, p.start - 300)
    chunk = src[start:p.end + 50]
    assert judge.chunk_hit(p.source, start, chunk, [p.id])
    # The same text claimed at another place in the file, or from the other file, is not a hit.
    assert not judge.chunk_hit(p.source, p.end + 5000, chunk, [p.id])
    other = next(s for s in corpus.sources if s != p.source)
    assert not judge.chunk_hit(other, start, chunk, [p.id])
    # A chunk that stops before the provision's first 200 characters is not a hit.
    assert not judge.chunk_hit(p.source, start, src[start:p.start + 20], [p.id])
    # A "Reserved" section with no text is found by its heading line.
    r = corpus.get("tuckahoe:7-6")
    source, s0, s1, sig = judge.file_signature(r.id)
    assert "Reserved" in sig and judge.chunk_hit(source, s0 - 10, src[s0 - 10:s1 + 10], [r.id])


def test_related_counts_ancestors_and_descendants(corpus):
    judge = E.Judge(corpus)
    assert judge.related("hempstead:391(E)", ["hempstead:391(E)(2)"])
    assert judge.related("hempstead:391(E)(2)", ["hempstead:391(E)"])
    assert not judge.related("hempstead:391(C)", ["hempstead:391(E)"])


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
    s = E.summarize_answers(rows, per_q, [10.0, 20.0, 30.0])
    assert s["right_provision"] == {"n": 2, "passed": 1, "rate": 0.5, "by_category": s["right_provision"]["by_category"]}
    assert s["abstention"]["rate"] == 0.0 and s["abstention"]["n"] == 1
    assert s["calculator_routing"]["rate"] == 0.0
    assert s["verbatim"]["rate"] == 1.0
    assert s["key_facts"]["questions"] == {"n": 2, "all_present": 1, "rate": 0.5}
    assert {f["id"] for f in s["failures"]} == {"b", "c"}
    t = {x["target"]: x["met"] for x in E.targets({}, s)}
    assert t["100% of quotes verbatim"] and t["0 unsupported numbers"]
    assert not t["abstention on every out-of-corpus question"]
    assert not t["right provision cited for >= 95% of answerable"]


# --- one small real run --------------------------------------------------------------------------

SUBSET = ["q001", "q002", "q081", "q097", "q110", "q127", "q134", "q148"]


def _rates(obj, path=""):
    """Every value under a key naming a rate/recall/MRR, with its path."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (dict, list)):
                yield from _rates(v, f"{path}.{k}")
            elif any(w in str(k) for w in ("rate", "recall@", "mrr")) and v is not None:
                yield f"{path}.{k}", v
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _rates(v, f"{path}[{i}]")


@pytest.mark.slow
def test_run_eval_on_a_subset(tmp_path):
    results = E.run_eval(out_dir=tmp_path, ids=SUBSET, log=lambda msg: None)

    assert results["meta"]["questions"] == len(SUBSET)
    assert results["meta"]["retrieval_questions"] == 6  # the two unanswerable ones are not retrieval questions
    assert set(results["retrieval"]) == {"hybrid", "langchain", "bm25", "dense", "langchain_filtered"}
    for name, system in results["retrieval"].items():
        o = system["overall"]
        assert o["n"] == 6
        for key in ("recall@1", "recall@5", "mrr", "wrong_municipality_rate"):
            assert 0.0 <= o[key] <= 1.0, (name, key)
        assert o["recall@1"] <= o["recall@5"]
        assert 0 <= o["latency_ms"]["p50"] <= o["latency_ms"]["p95"]
        assert set(system["by_user_type"]) <= {"resident", "contractor", "staff"}
        assert set(system["by_municipality"]) <= {"hempstead", "tuckahoe", "both/none"}
        assert system["k"] == (4 if name.startswith("langchain") else 5)
        assert len(system["per_question"]) == 6

    a = results["answers"]
    assert a["n"] == len(SUBSET)
    assert a["abstention"]["n"] == 2
    assert a["right_provision"]["n"] == 6
    assert set(a["intent"]["distribution"]) == {"retrieval", "definition", "lookup", "calculator", "compare",
                                                "out_of_corpus", "out_of_scope"}
    # A crash inside Assistant.ask is recorded as a failed question, never raised out of the harness.
    assert a["errors"]["n"] == len(a["errors"]["ids"])
    assert all(q["error"] is None or isinstance(q["error"], str) for q in a["per_question"])
    for path, value in _rates(results):
        assert 0.0 <= value <= 1.0, path
    assert all(isinstance(t["met"], bool) for t in results["targets"])

    report = (tmp_path / "REPORT.md").read_text(encoding="utf-8")
    for heading in ("## Targets", "## Retrieval: systems x metrics", "### Retrieval per user type",
                    "### Retrieval per municipality", "## Answers", "### Intent by gold category", "## Failing questions"):
        assert heading in report
    saved = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert saved["targets"] == json.loads(json.dumps(results["targets"]))
    table = E.compact_table(results)
    assert "hybrid" in table and "langchain" in table and not math.isnan(results["meta"]["seconds"]["total"])


def test_query_cache_is_cleared_before_timed_searches():
    calls = []

    class Fake:
        def clear_query_cache(self):
            calls.append(1)

    E._cache_clearer(Fake())()
    assert calls == [1]
    E._cache_clearer(object())()  # an embedder without a cache is fine
