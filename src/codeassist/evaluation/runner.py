"""The run: build the index, the langchain baseline and the Assistant once, evaluate each split (test
first, then dev), write eval/REPORT.md and eval/results-<split>.json; and `codeassist eval`."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from codeassist.evaluation.answers import evaluate_answers
from codeassist.evaluation.baselines import CHUNK_OVERLAP, CHUNK_SIZE, LANGCHAIN_K, LangchainBaseline
from codeassist.evaluation.gold import DEFAULT_GOLD, DEFAULT_OUT, is_retrieval_question, load_gold, resolve_splits
from codeassist.evaluation.judge import Judge
from codeassist.evaluation.metrics import K
from codeassist.evaluation.report import compact_table, render_report
from codeassist.evaluation.retrieval import (SYSTEMS, _cache_clearer, _langchain_system, _provision_system,
                                             evaluate_retrieval)
from codeassist.evaluation.targets import targets

WARMUP_FILE = DEFAULT_GOLD.with_name("bench.toml")  # [[eval.warmup]]: they name the corpus's municipalities


class Warmup(BaseModel):
    """A search every system runs before the timed queries (loads the model, the indexes and caches)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    question: str
    municipality: str | None = None  # the caller's filter, when one is given


def warmup_questions(path: Path = WARMUP_FILE) -> list[Warmup]:
    """The [[eval.warmup]] entries of eval/bench.toml; ValueError naming the file and entry when invalid."""
    try:
        with open(path, "rb") as f:
            rows = tomllib.load(f).get("eval", {}).get("warmup", [])
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: cannot read the warm-up questions: {exc}") from exc
    if not isinstance(rows, list):
        raise ValueError(f"{path}: eval.warmup must be an array of tables ([[eval.warmup]])")
    out = []
    for i, row in enumerate(rows):
        try:
            out.append(Warmup.model_validate(row))
        except ValidationError as exc:
            where = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'entry'}: {e['msg']}" for e in exc.errors())
            raise ValueError(f"{path}: eval.warmup[{i}]: {where}") from exc
    return out


def results_file(out_dir: Path | str, split: str) -> Path:
    return Path(out_dir) / f"results-{split}.json"


def run_eval(split: str = "all", out_dir: Path | str | None = DEFAULT_OUT, *,
             files: dict[str, Path | str] | None = None, folder: Path | str | None = None,
             ids: Sequence[str] | None = None,
             limit: int | None = None, answers: bool = True, write: bool = True,
             log: Callable[[str], None] | None = None) -> dict[str, dict]:
    """Run the eval (retrieval against baselines, then answers) on each requested split ("test", "dev",
    "devN" or "all"; the splits are the files of `folder`, default eval/; `files` overrides a split's
    questions file) and return {split: metrics}, test first. Writes REPORT.md and results-<split>.json into
    out_dir when `write`. `ids` and `limit` pick questions (for tests)."""
    say = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    paths = resolve_splits(split, files, folder)
    if not paths:
        raise FileNotFoundError("no questions file found for any split")
    rows_by_split = {name: _pick(load_gold(path, split=name), ids, limit) for name, path in paths.items()}
    # Warnings from the package during the run (e.g. "vector search unavailable, answering from BM25
    # alone", an index rebuilt underneath us) mean degraded numbers: they go into the report.
    captured = _LogCapture()
    pkg_log = logging.getLogger("codeassist")
    pkg_log.addHandler(captured)
    setup = None
    try:
        setup = _Setup.build(say)
        out: dict[str, dict] = {}
        for name, rows in rows_by_split.items():
            captured.messages.clear()
            out[name] = _run_split(setup, name, paths[name], rows, answers=answers, say=say, captured=captured)
    finally:
        pkg_log.removeHandler(captured)
        if setup is not None:
            setup.baseline.close()
    if write and out_dir is not None:
        folder = Path(out_dir)
        folder.mkdir(parents=True, exist_ok=True)
        for name, results in out.items():
            results_file(folder, name).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n",
                                                  encoding="utf-8")
        (folder / "REPORT.md").write_text(render_report(out), encoding="utf-8")
    return out


def _pick(rows: list[dict], ids: Sequence[str] | None, limit: int | None) -> list[dict]:
    if ids is not None:
        wanted = set(ids)
        rows = [r for r in rows if r["id"] in wanted]
    return rows[:limit] if limit is not None else rows


class _LogCapture(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(f"{record.levelname} {record.name}: {record.getMessage()[:300]}")
        except Exception:  # pragma: no cover
            pass


@dataclass
class _Setup:
    """What every split shares: the corpus, our retriever (index ensured, model loaded), the langchain
    baseline's in-memory index, the Assistant."""
    corpus: Any
    judge: Judge
    retriever: Any
    baseline: LangchainBaseline
    assistant: Any
    info: dict

    @classmethod
    def build(cls, say: Callable[[str], None]) -> _Setup:
        from codeassist.api import Assistant
        from codeassist.corpus import load_corpus
        from codeassist.retrieval import Retriever

        corpus = load_corpus()
        retriever = Retriever(corpus)
        t0 = time.perf_counter()
        status = retriever.index.ensure()
        retriever.warm()
        info: dict[str, Any] = {"index": status.model_dump(),
                                "index_and_model_seconds": round(time.perf_counter() - t0, 2)}
        say(f"eval: index {status.action} ({status.chunks} chunks), model loaded in {info['index_and_model_seconds']} s")
        t0 = time.perf_counter()
        baseline = LangchainBaseline(corpus, retriever.embedder)
        info["langchain"] = {"chunks": len(baseline.chunks), "chunk_size": CHUNK_SIZE, "chunk_overlap": CHUNK_OVERLAP,
                             "k": LANGCHAIN_K, "build_seconds": round(time.perf_counter() - t0, 2)}
        say(f"eval: langchain baseline: {len(baseline.chunks)} chunks indexed in {info['langchain']['build_seconds']} s")
        return cls(corpus, Judge(corpus), retriever, baseline, Assistant(corpus=corpus, retriever=retriever), info)


def _run_split(setup: _Setup, split: str, path: Path, rows: list[dict], *, answers: bool,
               say: Callable[[str], None], captured: _LogCapture) -> dict:
    t_start = time.perf_counter()
    load_before = _loadavg()
    corpus, judge, retriever, baseline = setup.corpus, setup.judge, setup.retriever, setup.baseline
    rrows = [r for r in rows if is_retrieval_question(r)]
    systems = [_provision_system("hybrid", retriever, judge, "hybrid"),
               _langchain_system("langchain", baseline, judge, filtered=False),
               _provision_system("bm25", retriever, judge, "bm25"),
               _provision_system("dense", retriever, judge, "dense"),
               _langchain_system("langchain_filtered", baseline, judge, filtered=True)]
    warmup = [{"question": w.question, "municipality": w.municipality, "gold": []} for w in warmup_questions()]
    names = {m.id: sorted({m.id, m.name.lower(), m.short_name.lower(), *m.aliases})
             for m in corpus.municipalities.values()}
    reset = _cache_clearer(retriever.embedder)
    t0 = time.perf_counter()
    retrieval = evaluate_retrieval(rrows, systems, warmup, names, reset) if rrows else {}
    retrieval_seconds = round(time.perf_counter() - t0, 2)
    say(f"eval [{split}]: retrieval: {len(rrows)} questions x {len(systems)} systems in {retrieval_seconds} s")

    answer_block = None
    answer_seconds = 0.0
    if answers:
        t0 = time.perf_counter()
        answer_block = evaluate_answers(rows, setup.assistant, judge, reset)
        answer_seconds = round(time.perf_counter() - t0, 2)
        say(f"eval [{split}]: answers: {len(rows)} questions in {answer_seconds} s")

    return {
        "meta": {
            "split": split, "run_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "gold": str(path), "questions": len(rows), "retrieval_questions": len(rrows),
            "model": retriever.embedder.model_id, "k": K, "setup": setup.info,
            "seconds": {"retrieval": retrieval_seconds, "answers": answer_seconds,
                        "total": round(time.perf_counter() - t_start, 2)},
            "systems": {name: SYSTEMS[name] for name in retrieval} if retrieval else {},
            "load_average": {"before": load_before, "after": _loadavg(), "cpus": os.cpu_count()},
            "warnings": list(captured.messages),
        },
        "retrieval": retrieval,
        "answers": answer_block,
        "targets": targets(retrieval, answer_block),
    }


def _loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):  # pragma: no cover - not on every platform
        return None


def cmd_eval(args) -> int:
    """Run retrieval (ours vs. langchain, BM25-only and dense-only baselines) and end-to-end answer checks
    in one process, on the blind test split (eval/test.jsonl) and the dev split (eval/gold.jsonl), or on
    one with --split; print a compact table per split; write REPORT.md (test first) and
    results-<split>.json to --out (a folder; default eval/)."""
    out = getattr(args, "out", None)
    out_dir = Path(out) if out else DEFAULT_OUT
    if out_dir.suffix == ".md":  # --out eval/REPORT.md: write beside it
        out_dir = out_dir.parent
    files = {name: path for name, path in (("test", getattr(args, "test_file", None)),
                                           ("dev", getattr(args, "dev_file", None))) if path}
    try:
        results = run_eval(getattr(args, "split", None) or "all", out_dir=out_dir, files=files)
    except (FileNotFoundError, ValueError) as e:
        print(f"codeassist eval: {e}", file=sys.stderr)
        return 2
    for name, res in results.items():
        print(f"== {name} split ==")
        print(compact_table(res))
        print()
    written = ", ".join(str(results_file(out_dir, n)) for n in results)
    print(f"wrote {out_dir / 'REPORT.md'} and {written}")
    return 0
