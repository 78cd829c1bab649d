"""`make bench` (python -m codeassist.bench [--quick]): speed, memory and scale, beside the langchain
baseline, in one run. Prints a table and writes eval/BENCH.md (and eval/bench.json, the raw figures).

Sections, in the order they run (each child process is started fresh, so cold figures are cold):
1. seed index build in a child: time, peak memory, on-disk size, embedding rate (296 chunks);
   the langchain baseline's index built the same way (splitter 1000/200, persisted Chroma);
2. warm, in this process: `Assistant.ask` per intent over the gold questions, and the same questions
   through the baseline (`similarity_search(k=4)`), interleaved; the parts of a retrieval answer;
   embedding throughput on a sample of synthetic provisions;
3. cold: `codeassist ask` for a calculator, a lookup and a retrieval question (and what each imports),
   a cold langchain query script, the app (server to healthy, to chat ready and to first answer in
   Chromium; and through AppTest in a fresh process);
4. scale (`bench.scale`): >= 1,000 municipalities x 100 provisions on embedded Chroma and on a server.

Nothing here is a test: figures vary with the machine's load, which is recorded beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import defaultdict
from datetime import datetime, timezone
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from codeassist.bench import cold
from codeassist.bench.cold import ROOT

OUT_MD = ROOT / "eval" / "BENCH.md"
OUT_JSON = ROOT / "eval" / "bench.json"
QUESTIONS_FILE = ROOT / "eval" / "bench.toml"  # [bench.cold] and [bench.app]: they name the corpus's municipalities

FULL = {"passes": 2, "cold_reps": 3, "munis": 1000, "per": 100, "server_ingest": 20_000, "embed_sample": 500}
QUICK = {"passes": 1, "cold_reps": 1, "munis": 100, "per": 100, "server_ingest": 5_000, "embed_sample": 200}

PARTS_QUESTIONS = 40  # retrieval questions timed part by part (enough for p50/p95, within the time budget)
INTENTS = ("calculator", "definition", "lookup", "retrieval", "abstain", "compare", "clarify")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ColdQuestions(_Strict):
    """One question per path for the cold CLI and the app; their intents are checked in the warm section."""

    calculator: str
    lookup: str
    retrieval: str


class AppCheck(_Strict):
    expect: str  # what the app's answer to the retrieval question must contain (case-insensitive)


class BenchQuestions(_Strict):
    cold: ColdQuestions
    app: AppCheck


@lru_cache(maxsize=None)
def bench_questions(path: Path = QUESTIONS_FILE) -> BenchQuestions:
    """The [bench] table of eval/bench.toml, validated; ValueError naming the file and key when it is not."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: cannot read the bench questions: {exc}") from exc
    try:
        return BenchQuestions.model_validate(data.get("bench"))
    except ValidationError as exc:
        where = "; ".join(f"bench.{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise ValueError(f"{path}: {where}") from exc


def pct(xs: list[float], p: float) -> float:
    from codeassist.evaluation.metrics import percentile

    return round(percentile(xs, p), 2)


def lat(xs: list[float]) -> dict[str, Any]:
    return {"n": len(xs), "p50": pct(xs, 50), "p95": pct(xs, 95), "max": round(max(xs), 2) if xs else None}


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


class _Uncached:
    """The baseline's embeddings without our query cache: each query costs what it costs langchain."""

    def __init__(self, inner):
        self.inner = inner

    def embed_documents(self, texts):
        return self.inner.embed_documents(texts)

    def embed_query(self, text):
        return self.inner.embed_documents([text])[0]


# --- warm ---------------------------------------------------------------------------------------

def warm(corpus, settings, rows: list[dict], passes: int, say) -> tuple[dict[str, Any], Any]:
    from codeassist.api import Assistant
    from codeassist.errors import CodeassistError
    from codeassist.evaluation.baselines import LangchainBaseline
    from codeassist.retrieval import Retriever

    t0 = time.perf_counter()
    retriever = Retriever(corpus, settings=settings)
    assistant = Assistant(corpus=corpus, retriever=retriever, settings=settings)
    retriever.warm()
    embedder = retriever.embedder
    ready_s = time.perf_counter() - t0
    clear = getattr(embedder, "clear_query_cache", lambda: None)
    t0 = time.perf_counter()
    baseline = LangchainBaseline(corpus, _Uncached(embedder))
    baseline_build_s = time.perf_counter() - t0

    def ask(r: dict):
        try:
            return assistant.ask(r["question"], municipality=r.get("municipality"))
        except CodeassistError:
            return None

    say(f"bench: warm: {len(rows)} gold questions x {passes} pass(es), ours and baseline interleaved ...")
    intents = {}
    for i, r in enumerate(rows):  # warm-up pass: code paths, per-municipality BM25 tables, Chroma handles
        ans = ask(r)
        intents[r["id"]] = ans.intent if ans else "error"
        if i < 10:
            baseline.search(r["question"])
    ours: dict[str, list[float]] = defaultdict(list)
    base: dict[str, list[float]] = defaultdict(list)
    def time_ours(r: dict) -> None:
        clear()  # a new question: its embedding is not cached
        t = time.perf_counter()
        ask(r)
        ours[intents[r["id"]]].append((time.perf_counter() - t) * 1000)

    def time_base(r: dict) -> None:
        t = time.perf_counter()
        baseline.search(r["question"])
        base[intents[r["id"]]].append((time.perf_counter() - t) * 1000)

    for p in range(passes):
        for j, r in enumerate(rows):  # interleaved, alternating who goes first, so a noisy moment hits both
            first, second = (time_ours, time_base) if (j + p) % 2 == 0 else (time_base, time_ours)
            first(r)
            second(r)
    by_intent = {i: {"ours": lat(ours[i]), "baseline": lat(base[i])} for i in INTENTS if ours.get(i)}
    all_ours = [x for v in ours.values() for x in v]
    all_base = [x for v in base.values() for x in v]
    by_intent["all"] = {"ours": lat(all_ours), "baseline": lat(all_base)}

    # The parts of a retrieval answer, on the questions routed to retrieval.
    rq = [r for r in rows if intents[r["id"]] == "retrieval"][:PARTS_QUESTIONS]
    parts: dict[str, list[float]] = defaultdict(list)
    cache = getattr(embedder, "_query_cache_size", None)
    for r in rq:
        clear()
        t = time.perf_counter()
        embedder.embed_query(r["question"])
        parts["embed_query"].append((time.perf_counter() - t) * 1000)
        clear()
        t = time.perf_counter()
        retriever.search(r["question"], municipality=r.get("municipality"), k=5)
        parts["retriever_search"].append((time.perf_counter() - t) * 1000)
        plan = retriever.understand(r["question"], r.get("municipality"))
        t = time.perf_counter()
        retriever.index.lexical(plan.query, retriever.depth, plan.municipality, extra=plan.expansions)
        parts["bm25"].append((time.perf_counter() - t) * 1000)
        vec = embedder.embed_query(plan.expanded)
        t = time.perf_counter()
        retriever.index.dense(vec, retriever.depth, plan.municipality)
        parts["chroma_query"].append((time.perf_counter() - t) * 1000)
        if cache is not None:  # the same ask without the query cache: what the cache saves
            embedder._query_cache_size = 0
            clear()
            t = time.perf_counter()
            ask(r)
            parts["ask_without_query_cache"].append((time.perf_counter() - t) * 1000)
            embedder._query_cache_size = cache
            clear()
            t = time.perf_counter()
            ask(r)
            parts["ask_with_query_cache"].append((time.perf_counter() - t) * 1000)
    out = {
        "questions": len(rows), "passes": passes, "ready_s": round(ready_s, 2),
        "baseline_build_s": round(baseline_build_s, 2), "baseline_chunks": len(baseline.chunks),
        "intent_counts": {i: sum(1 for v in intents.values() if v == i) for i in sorted(set(intents.values()))},
        "by_intent": by_intent, "retrieval_parts": {k: lat(v) for k, v in parts.items()},
        "cold_question_intents": {},
    }
    for kind, q in bench_questions().cold.model_dump().items():
        ans = assistant.ask(q)
        out["cold_question_intents"][kind] = ans.intent
    baseline.close()
    return out, embedder


def embedding_rate(embedder, seed_npz: Path, n: int, batch: int) -> dict[str, Any]:
    """Provisions per second for n synthetic provisions (real texts, reworded), in batches as the index does."""
    import numpy as np

    from codeassist.bench.scale import synthetic

    texts = [str(t) for t in np.load(seed_npz)["texts"]]
    sample = [t for _, _, t, _ in synthetic(texts, max(1, n // 100 + 1), 100)][:n]
    t0 = time.perf_counter()
    for i in range(0, len(sample), batch):
        embedder.embed_documents(sample[i:i + batch])
    s = time.perf_counter() - t0
    words = sum(len(t.split()) for t in sample) / len(sample)
    return {"n": len(sample), "seconds": round(s, 2), "per_s": round(len(sample) / s, 1),
            "mean_words": round(words, 1), "batch": batch}


def query_vectors(embedder, rows: list[dict], path: Path) -> None:
    import numpy as np

    np.savez(path, vectors=np.stack([embedder.embed_documents([r["question"]])[0] for r in rows]))


# --- the run ------------------------------------------------------------------------------------

def run(quick: bool = False, skip_scale: bool = False, skip_app: bool = False, work: Path | None = None,
        say=print) -> dict[str, Any]:
    from codeassist.corpus import load_corpus
    from codeassist.evaluation.gold import load_gold
    from codeassist.settings import Settings

    cfg = dict(QUICK if quick else FULL)
    bench_questions()  # a broken eval/bench.toml fails here, not after the index builds
    t_start = time.perf_counter()
    own_work = work is None
    work = Path(tempfile.mkdtemp(prefix="codeassist-bench-")) if work is None else work
    data_dir, lc_dir = work / "data", work / "langchain"
    seed_npz, queries_npz, questions_json = work / "seed.npz", work / "queries.npz", work / "questions.json"
    res: dict[str, Any] = {"meta": meta(cfg, quick), "load": {"start": loadavg()}, "sections": {}}
    t_mark = [time.perf_counter()]

    def lap(name: str) -> None:
        now = time.perf_counter()
        res["sections"][name] = round(now - t_mark[0], 1)
        t_mark[0] = now
        res["load"][f"after_{name}"] = loadavg()

    try:
        rows = load_gold()
        questions_json.write_text(json.dumps([r["question"] for r in rows]))
        say("bench: building the seed index in a fresh process ...")
        res["seed_build"] = cold.run_worker(["build-seed", str(data_dir), str(seed_npz)], cold.child_env())
        say("bench: building the langchain baseline's index in a fresh process ...")
        res["baseline_build"] = cold.run_worker(["build-lc", str(lc_dir)], cold.child_env())
        lap("builds")

        settings = Settings(data_dir=data_dir)
        corpus = load_corpus(settings.corpus_dir)
        res["warm"], embedder = warm(corpus, settings, rows, cfg["passes"], say)
        say("bench: embedding throughput ...")
        res["embedding"] = embedding_rate(embedder, seed_npz, cfg["embed_sample"], settings.embedding_batch_size)
        query_vectors(embedder, rows, queries_npz)
        lap("warm")

        say("bench: cold `codeassist ask` ...")
        qs = bench_questions()
        res["cold_cli"] = cold.cold_cli(qs.cold.model_dump(), data_dir, cfg["cold_reps"])
        say("bench: cold langchain query script ...")
        res["cold_baseline"] = cold.cold_langchain(lc_dir, qs.cold.retrieval, cfg["cold_reps"])
        if not skip_app:
            say("bench: cold app (streamlit server + Chromium) ...")
            res["cold_app"] = {**cold.cold_app(data_dir, qs.cold.retrieval, qs.app.expect), "expect": qs.app.expect}
            say("bench: cold app through AppTest ...")
            res["cold_apptest"] = {**cold.cold_apptest(data_dir, qs.cold.retrieval, qs.app.expect),
                                   "expect": qs.app.expect}
        lap("cold")

        if not skip_scale:
            from codeassist.bench.scale import run_scale

            res["scale"] = run_scale(seed_npz, queries_npz, questions_json, work, cfg["munis"], cfg["per"],
                                     server_ingest=cfg["server_ingest"], say=say)
            lap("scale")
    finally:
        if own_work:
            shutil.rmtree(work, ignore_errors=True)
    res["meta"]["seconds"] = round(time.perf_counter() - t_start, 1)
    return res


def meta(cfg: dict, quick: bool) -> dict[str, Any]:
    def version(pkg: str) -> str:
        try:
            return metadata.version(pkg)
        except metadata.PackageNotFoundError:
            return "-"

    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "?")
    mem = next((int(line.split()[1]) // 1024 for line in Path("/proc/meminfo").read_text().splitlines()
                if line.startswith("MemTotal")), 0)
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
    except OSError:
        commit = "?"
    return {"run_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "mode": "quick" if quick else "full",
            "config": cfg, "cpus": os.cpu_count(), "cpu": cpu, "mem_mb": mem, "python": platform.python_version(),
            "commit": commit, "versions": {p: version(p) for p in ("chromadb", "torch", "sentence-transformers",
                                                                 "langchain-chroma", "streamlit")}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m codeassist.bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="100 municipalities (10,000 provisions), one pass, one cold run each")
    p.add_argument("--skip-scale", action="store_true")
    p.add_argument("--skip-app", action="store_true")
    p.add_argument("--out", type=Path, default=OUT_MD, help="Markdown report (default eval/BENCH.md); JSON beside it")
    args = p.parse_args(argv)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from codeassist.bench.report import compact, render

    res = run(quick=args.quick, skip_scale=args.skip_scale, skip_app=args.skip_app,
              say=lambda m: print(m, file=sys.stderr, flush=True))
    print(compact(res))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(res), encoding="utf-8")
    args.out.with_name("bench.json").write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out} and {args.out.with_name('bench.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
