"""The run: build the index, the baselines and the Assistant once, evaluate, write the report;
and `codeassist eval`."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path

from codeassist.evaluation.answers import evaluate_answers
from codeassist.evaluation.baselines import CHUNK_OVERLAP, CHUNK_SIZE, LANGCHAIN_K, LangchainBaseline
from codeassist.evaluation.gold import DEFAULT_GOLD, DEFAULT_OUT, is_retrieval_question, load_gold
from codeassist.evaluation.judge import Judge
from codeassist.evaluation.metrics import K
from codeassist.evaluation.report import compact_table, render_report, targets
from codeassist.evaluation.retrieval import (SYSTEMS, _cache_clearer, _langchain_system, _provision_system,
                                             evaluate_retrieval)


def run_eval(gold_path: Path | str | None = None, out_dir: Path | str | None = DEFAULT_OUT, *,
             ids: Sequence[str] | None = None, limit: int | None = None, answers: bool = True,
             write: bool = True, log: Callable[[str], None] | None = None) -> dict:
    """Run the whole eval (retrieval against baselines, then answers) and return the metrics dict;
    writes REPORT.md and results.json into out_dir when `write`."""
    say = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    t_start = time.perf_counter()
    load_before = _loadavg()
    # Warnings from the package during the run (e.g. "vector search unavailable, answering from BM25
    # alone", an index rebuilt underneath us) mean degraded numbers: they go into the report.
    captured = _LogCapture()
    pkg_log = logging.getLogger("codeassist")
    pkg_log.addHandler(captured)
    try:
        results = _run(rows_from=(gold_path, ids, limit), out_dir=out_dir, answers=answers, say=say,
                       t_start=t_start, load_before=load_before, captured=captured)
    finally:
        pkg_log.removeHandler(captured)
    if write and out_dir is not None:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        (out / "REPORT.md").write_text(render_report(results), encoding="utf-8")
    return results


class _LogCapture(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(f"{record.levelname} {record.name}: {record.getMessage()[:300]}")
        except Exception:  # pragma: no cover
            pass


def _run(*, rows_from, out_dir, answers: bool, say, t_start: float, load_before, captured: _LogCapture) -> dict:
    gold_path, ids, limit = rows_from
    rows = load_gold(gold_path)
    if ids is not None:
        wanted = set(ids)
        rows = [r for r in rows if r["id"] in wanted]
    if limit is not None:
        rows = rows[:limit]

    from codeassist.corpus import load_corpus
    from codeassist.retrieval import Retriever

    corpus = load_corpus()
    judge = Judge(corpus)
    retriever = Retriever(corpus)
    t0 = time.perf_counter()
    status = retriever.index.ensure()
    retriever.warm()
    setup = {"index": status.model_dump(), "index_and_model_seconds": round(time.perf_counter() - t0, 2)}
    say(f"eval: index {status.action} ({status.chunks} chunks), model loaded in {setup['index_and_model_seconds']} s")

    t0 = time.perf_counter()
    baseline = LangchainBaseline(corpus, retriever.embedder)
    setup["langchain"] = {"chunks": len(baseline.chunks), "chunk_size": CHUNK_SIZE, "chunk_overlap": CHUNK_OVERLAP,
                          "k": LANGCHAIN_K, "build_seconds": round(time.perf_counter() - t0, 2)}
    say(f"eval: langchain baseline: {len(baseline.chunks)} chunks indexed in {setup['langchain']['build_seconds']} s")

    rrows = [r for r in rows if is_retrieval_question(r)]
    systems = [_provision_system("hybrid", retriever, judge, "hybrid"),
               _langchain_system("langchain", baseline, judge, filtered=False),
               _provision_system("bm25", retriever, judge, "bm25"),
               _provision_system("dense", retriever, judge, "dense"),
               _langchain_system("langchain_filtered", baseline, judge, filtered=True)]
    warmup = [{"question": q, "municipality": m, "gold": []} for q, m in
              (("stormwater pollution prevention plan", None), ("electrical permit", "tuckahoe"),
               ("erosion inspection after rain", "hempstead"))]
    t0 = time.perf_counter()
    names = {m.id: sorted({m.id, m.name.lower(), m.short_name.lower(), *m.aliases})
             for m in corpus.municipalities.values()}
    reset = _cache_clearer(retriever.embedder)
    try:
        retrieval = evaluate_retrieval(rrows, systems, warmup, names, reset) if rrows else {}
    finally:
        baseline.close()
    retrieval_seconds = round(time.perf_counter() - t0, 2)
    say(f"eval: retrieval: {len(rrows)} questions x {len(systems)} systems in {retrieval_seconds} s")

    answer_block = None
    answer_seconds = 0.0
    if answers:
        from codeassist.api import Assistant

        assistant = Assistant(corpus=corpus, retriever=retriever)
        t0 = time.perf_counter()
        answer_block = evaluate_answers(rows, assistant, judge, reset)
        answer_seconds = round(time.perf_counter() - t0, 2)
        say(f"eval: answers: {len(rows)} questions in {answer_seconds} s")

    results = {
        "meta": {
            "run_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "gold": str(Path(gold_path or DEFAULT_GOLD)), "questions": len(rows), "retrieval_questions": len(rrows),
            "model": retriever.embedder.model_id, "k": K, "setup": setup,
            "seconds": {"retrieval": retrieval_seconds, "answers": answer_seconds,
                        "total": round(time.perf_counter() - t_start, 2)},
            "systems": {name: SYSTEMS[name] for name in retrieval} if retrieval else {},
            "load_average": {"before": load_before, "after": _loadavg(), "cpus": os.cpu_count()},
        },
        "retrieval": retrieval,
        "answers": answer_block,
        "targets": targets(retrieval, answer_block),
    }
    results["meta"]["warnings"] = list(captured.messages)
    return results


def _loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):  # pragma: no cover - not on every platform
        return None



def cmd_eval(args) -> int:
    """Run retrieval (ours vs. langchain, BM25-only and dense-only baselines) and end-to-end answer checks
    on eval/gold.jsonl in one process; print a compact table; write REPORT.md and results.json to --out
    (a folder; default eval/)."""
    out = getattr(args, "out", None)
    out_dir = Path(out) if out else DEFAULT_OUT
    if out_dir.suffix == ".md":  # --out eval/REPORT.md: write beside it
        out_dir = out_dir.parent
    results = run_eval(out_dir=out_dir)
    print(compact_table(results))
    print(f"wrote {out_dir / 'REPORT.md'} and {out_dir / 'results.json'}")
    return 0
