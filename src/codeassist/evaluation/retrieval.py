"""Retrieval eval: every system (ours and the baselines) answers the same questions, interleaved;
Recall@1/@5, MRR, wrong-municipality hits and latency per system and per group."""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from codeassist.evaluation.baselines import LANGCHAIN_K, LangchainBaseline
from codeassist.evaluation.gold import known_municipality, municipality_source
from codeassist.evaluation.judge import Judge
from codeassist.evaluation.metrics import (K, first_relevant_rank, has_wrong_municipality, percentile, rate,
                                           summarize_ranks)

if TYPE_CHECKING:
    from codeassist.retrieval import Retriever

SYSTEMS = {
    "hybrid": "codeassist hybrid (k=5)",
    "langchain": "baseline 1: langchain splitter(1000,200) + Chroma, k=4",
    "bm25": "baseline 2: BM25 only (k=5)",
    "dense": "baseline 3: dense only (k=5)",
    "langchain_filtered": "baseline 1b: as 1 + source-file filter when the caller picks a municipality",
}
REQUIRED_BASELINES = ("langchain", "bm25", "dense")


# --- systems ------------------------------------------------------------------------------------

@dataclass
class Result:
    """One system's answer to one question: (id or chunk label, municipality, relevant) per result."""
    ids: list[str]
    municipalities: list[str]
    relevant: list[bool]
    ms: float
    error: str | None = None


@dataclass
class System:
    name: str
    label: str
    k: int
    run: Callable[[dict], Result]
    results: dict[str, Result] = field(default_factory=dict)


def _provision_system(name: str, retriever: Retriever, judge: Judge, mode: str) -> System:
    def run(row: dict) -> Result:
        t0 = time.perf_counter()
        hits = retriever.search(row["question"], municipality=row.get("municipality"), k=K, mode=mode)  # type: ignore[arg-type]
        ms = (time.perf_counter() - t0) * 1000
        return Result([h.id for h in hits], [h.municipality for h in hits],
                      [judge.provision_hit(h.id, h.text, row["gold"]) for h in hits], ms)
    return System(name, SYSTEMS[name], K, run)



def _langchain_system(name: str, baseline: LangchainBaseline, judge: Judge, filtered: bool) -> System:
    def run(row: dict) -> Result:
        muni = row.get("municipality") if filtered else None
        t0 = time.perf_counter()
        docs = baseline.search(row["question"], municipality=muni, k=LANGCHAIN_K)
        ms = (time.perf_counter() - t0) * 1000
        ids, munis, rel = [], [], []
        for d in docs:
            src, start = d.metadata["source"], int(d.metadata.get("start_index", -1))
            ids.append(f"{src}@{start}")
            munis.append(baseline.municipality_of[src])
            rel.append(judge.chunk_hit(src, start, d.page_content, row["gold"]))
        return Result(ids, munis, rel, ms)
    return System(name, SYSTEMS[name], LANGCHAIN_K, run)


# --- retrieval eval -----------------------------------------------------------------------------

def _group_summary(rows: list[dict], ranks: dict[str, int | None], key: Callable[[dict], str]) -> dict:
    groups: dict[str, list[int | None]] = defaultdict(list)
    for r in rows:
        groups[key(r)].append(ranks[r["id"]])
    return {g: summarize_ranks(v) for g, v in sorted(groups.items())}


def _cache_clearer(embedder) -> Callable[[], None]:
    """The embedder's query cache is emptied before every timed search: each gold question is new to a
    real user, and without this the second system to embed the same text would be timed on a cache hit."""
    clear = getattr(embedder, "clear_query_cache", None)
    return clear if callable(clear) else (lambda: None)


def evaluate_retrieval(rows: list[dict], systems: list[System], warmup: Sequence[dict],
                       names: dict[str, Sequence[str]] | None = None,
                       reset: Callable[[], None] = lambda: None) -> dict:
    for s in systems:  # warm: models loaded, BM25 per-municipality tables built, Chroma handles open
        for row in warmup:
            s.run(row)
    for row in rows:  # interleaved, so a noisy moment affects every system alike
        for s in systems:
            reset()
            t0 = time.perf_counter()
            try:
                s.results[row["id"]] = s.run(row)
            except Exception as e:  # a failing search is a miss to report, not the end of the eval
                s.results[row["id"]] = Result([], [], [], (time.perf_counter() - t0) * 1000,
                                              error=f"{type(e).__name__}: {str(e)[:200]}")
    out: dict[str, Any] = {}
    for s in systems:
        ranks = {rid: first_relevant_rank(res.relevant) for rid, res in s.results.items()}
        known = [r for r in rows if known_municipality(r)]
        wrong = [r["id"] for r in known if has_wrong_municipality(s.results[r["id"]].municipalities, known_municipality(r))]
        lat = [res.ms for res in s.results.values()]
        overall = summarize_ranks([ranks[r["id"]] for r in rows])
        by_source: dict[str, dict] = {}
        for src in ("caller", "named", "content"):
            qs = [r for r in known if municipality_source(r, names or {}) == src]
            bad = [r["id"] for r in qs if r["id"] in wrong]
            by_source[src] = {"n": len(qs), "wrong": len(bad), "rate": rate(len(bad), len(qs)) or 0.0, "ids": bad}
        overall.update({
            "wrong_municipality_rate": rate(len(wrong), len(known)) or 0.0,
            "wrong_municipality_n": len(wrong), "known_municipality_n": len(known),
            "wrong_municipality_by_source": by_source,
            "latency_ms": {"p50": round(percentile(lat, 50), 2), "p95": round(percentile(lat, 95), 2),
                           "mean": round(statistics.fmean(lat), 2) if lat else 0.0},
        })
        errors = {rid: res.error for rid, res in s.results.items() if res.error}
        overall["errors"] = len(errors)
        misses = [{"id": r["id"], "rank": ranks[r["id"]], "gold": r["gold"], "got": s.results[r["id"]].ids}
                  for r in rows if ranks[r["id"]] != 1]
        out[s.name] = {
            "label": s.label, "k": s.k, "overall": overall,
            "by_user_type": _group_summary(rows, ranks, lambda r: r["user_type"]),
            "by_municipality": _group_summary(rows, ranks, lambda r: r.get("expected_municipality") or "both/none"),
            "by_category": _group_summary(rows, ranks, lambda r: r["category"]),
            "wrong_municipality_ids": wrong,
            "errors": errors,
            "not_first": misses,
            "per_question": {rid: {"rank": ranks[rid], "got": res.ids, "ms": round(res.ms, 2)}
                             for rid, res in s.results.items()},
        }
    return out
