"""One small real run of the whole eval (slow), and the runner's helpers."""

from __future__ import annotations

import json
import math

import pytest

from codeassist.evaluation import gold as G
from codeassist.evaluation import runner as E
from codeassist.evaluation.report import compact_table
from codeassist.evaluation.retrieval import _cache_clearer


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
    # The dev split, and a made-up test split of two dev lines under other ids: one process, both splits.
    dev = [json.loads(line) for line in open(G.DEFAULT_GOLD, encoding="utf-8") if line.strip()]
    test_file = tmp_path / "test.jsonl"
    test_file.write_text("".join(json.dumps({**r, "id": "t" + r["id"]}) + "\n" for r in dev[:2]), encoding="utf-8")
    # The splits are tmp_path's files (no later dev split there), so "all" is these two splits.
    both = E.run_eval("all", out_dir=tmp_path, files={"test": test_file, "dev": G.DEFAULT_GOLD}, folder=tmp_path,
                      ids=SUBSET + ["tq001", "tq002"],
                      log=lambda msg: None)
    assert list(both) == ["test", "dev"]
    assert both["test"]["meta"]["questions"] == 2 and both["test"]["meta"]["split"] == "test"
    results = both["dev"]

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
    assert report.index("## Test split") < report.index("## Dev split")
    dev_part = report[report.index("## Dev split"):]
    for heading in ("### Targets", "### Retrieval: systems x metrics", "#### Retrieval per user type",
                    "#### Retrieval per municipality", "### Answers", "#### Intent by gold category",
                    "### Misses by category", "### Misses per question"):
        assert heading in dev_part
    test_part = report[report.index("## Test split"):report.index("## Dev split")]
    assert "### Misses by category" in test_part and "tq00" not in test_part
    saved = json.loads((tmp_path / "results-dev.json").read_text(encoding="utf-8"))
    assert saved["targets"] == json.loads(json.dumps(results["targets"]))
    table = compact_table(results)
    assert "hybrid" in table and "langchain" in table and not math.isnan(results["meta"]["seconds"]["total"])


def test_query_cache_is_cleared_before_timed_searches():
    calls = []

    class Fake:
        def clear_query_cache(self):
            calls.append(1)

    _cache_clearer(Fake())()
    assert calls == [1]
    _cache_clearer(object())()  # an embedder without a cache is fine
