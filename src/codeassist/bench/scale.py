"""Scale benchmark: a synthetic corpus of many municipalities derived from the real provisions, loaded
into Chroma (embedded, and a real `chroma run` server) through codeassist's own `ChromaStore`.

The synthetic texts. Municipality `m` (of n) gets `per` provisions: the seed chunks (the real ones the
index embeds, header included) starting at an offset that depends on m. Its name comes from a table
(base x suffix x direction, "Town/Village/City of ..."), unique for up to 2,500 municipalities. Its
wording follows one of `FAMILIES` code families, as real codes follow a few model laws: each family
picks, from small fixed tables, the officials' and boards' titles, "shall"/"must", and factors for
dollar amounts, day/hour counts, distances and acreages (digits and number words alike). Nothing is
random; the same arguments give the same corpus.

The vectors. Embedding 100,000 texts with the real model would take about an hour on this machine,
so the store is filled with precomputed vectors: each synthetic provision gets its seed chunk's real
vector plus a small deterministic perturbation (Gaussian noise from a generator seeded by the batch
number, scaled by `NOISE`, then renormalised; cosine to the seed about 0.97). The embedding rate is
measured separately on a sample of real synthetic texts. Queries are the gold questions' real vectors.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from codeassist.bench.cold import BIN, free_port, hwm_mb, peak_rss_mb, rss_mb, wait_http
from codeassist.procs import stop

FAMILIES = 24
NOISE = 0.25
BATCH = 1000  # as Index._fill; --batch overrides
COLLECTION = "bench-scale"

BASES = ("Ashford", "Birchwood", "Brookfield", "Cedar Grove", "Clearwater", "Crestview", "Deer Park", "Eastwood",
         "Elmhurst", "Fairhaven", "Fox Run", "Glenwood", "Greenfield", "Hawthorne", "Highland", "Hillcrest",
         "Hollis", "Kingsbridge", "Lakeview", "Laurel", "Maple Ridge", "Meadowbrook", "Millbrook", "Milton",
         "New Castle", "Oakdale", "Orchard", "Pine Bush", "Pleasant Valley", "Riverside", "Rockland", "Rosedale",
         "Salem", "Sandy Hook", "Shelter Cove", "Silver Lake", "Spring Valley", "Stony Brook", "Summit", "Sutton",
         "Thornwood", "Valley Stream", "Warwick", "Waterford", "Westbury", "Willow Creek", "Windham", "Woodbury",
         "Woodstock", "Yorktown")
SUFFIXES = ("", " Falls", " Harbor", " Hills", " Springs", " Landing", " Point", " Ridge", " Center", " Corners")
MODIFIERS = ("", "North ", "South ", "East ", "West ")
KINDS = ("Town", "Village", "City")

OFFICIALS = {
    "Building Inspector": ("Building Inspector", "Code Enforcement Officer", "Building Official", "Director of Buildings"),
    "Stormwater Management Officer": ("Stormwater Management Officer", "Municipal Engineer",
                                      "Superintendent of Public Works", "Stormwater Manager"),
    "Village Board": ("Village Board", "Board of Trustees", "Common Council", "Town Board"),
    "Town Board": ("Town Board", "Town Council", "Board of Trustees", "Common Council"),
    "Board of Trustees": ("Board of Trustees", "Village Board", "Common Council", "Town Board"),
}
SHALL = ("shall", "must")
DOLLAR_FACTORS = (1.0, 1.5, 2.0, 0.5, 3.0, 1.25)
COUNT_FACTORS = {"day": (1, 2, 0.5, 1.5), "hour": (1, 2, 0.5, 1.5), "year": (1, 2, 1, 3),
                 "foot": (1, 2, 0.5, 1.5), "acre": (1, 2, 0.5, 3), "inch": (1, 2, 0.5, 1)}
WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_UNIT = r"(days?|hours?|years?|feet|foot|acres?|inch(?:es)?)"
_DIGIT_QTY = re.compile(r"\b(\d+(?:\.\d+)?)(\s+)(?:\(\d+\)\s+)?" + _UNIT + r"\b")
_WORD_QTY = re.compile(r"\b(" + "|".join(WORDS[1:]) + r")(\s+)(?:\(\d+\)\s+)?" + _UNIT + r"\b", re.I)
_DOLLARS = re.compile(r"\$(\d[\d,]*)")
_OFFICIALS = re.compile("|".join(sorted(map(re.escape, OFFICIALS), key=len, reverse=True)))
_SHALL = re.compile(r"\bshall\b")


def municipality_names(n: int) -> list[tuple[str, str]]:
    """(id, display name) for n municipalities, deterministic and unique."""
    out = []
    nb, ns, nm = len(BASES), len(SUFFIXES), len(MODIFIERS)
    for i in range(n):
        base = MODIFIERS[(i // (nb * ns)) % nm] + BASES[i % nb] + SUFFIXES[(i // nb) % ns]
        if i >= nb * ns * nm:
            base += f" {i // (nb * ns * nm) + 1}"
        name = f"{KINDS[i % len(KINDS)]} of {base}"
        out.append((re.sub(r"[^a-z0-9]+", "-", base.lower()).strip("-"), name))
    return out


def _unit_key(unit: str) -> str:
    u = unit.lower()
    return "foot" if u in ("feet", "foot") else "inch" if u.startswith("inch") else u.rstrip("s")


def _unit_word(unit: str, n: float) -> str:
    key = _unit_key(unit)
    if key == "foot":
        return "foot" if n == 1 else "feet"
    if key == "inch":
        return "inch" if n == 1 else "inches"
    return key if n == 1 else key + "s"


def _fmt(x: float, decimal: bool) -> str:
    return f"{x:g}" if decimal else str(max(1, int(round(x))))


@lru_cache(maxsize=None)
def family_text(text: str, family: int) -> str:
    """The seed text reworded for one code family (names are substituted afterwards, per municipality)."""
    def official(m: re.Match) -> str:
        alts = OFFICIALS[m.group(0)]
        return alts[(family + len(m.group(0))) % len(alts)]

    def dollars(m: re.Match) -> str:
        value = int(m.group(1).replace(",", "")) * DOLLAR_FACTORS[family % len(DOLLAR_FACTORS)]
        return f"${int(round(value)):,}"

    def digits(m: re.Match) -> str:
        factors = COUNT_FACTORS[_unit_key(m.group(3))]
        value = float(m.group(1)) * factors[family % len(factors)]
        decimal = "." in m.group(1) or value != int(value)
        shown = _fmt(value, decimal)
        return f"{shown}{m.group(2)}{_unit_word(m.group(3), float(shown))}"

    def words(m: re.Match) -> str:
        factors = COUNT_FACTORS[_unit_key(m.group(3))]
        value = WORDS.index(m.group(1).lower()) * factors[family % len(factors)]
        n = max(1, int(round(value)))
        shown = WORDS[n] if n < len(WORDS) else str(n)
        if m.group(1)[0].isupper():
            shown = shown.capitalize()
        return f"{shown}{m.group(2)}{_unit_word(m.group(3), n)}"

    out = _OFFICIALS.sub(official, text)
    out = _DOLLARS.sub(dollars, out)
    out = _DIGIT_QTY.sub(digits, out)
    out = _WORD_QTY.sub(words, out)
    if SHALL[(family // 2) % len(SHALL)] == "must":
        out = _SHALL.sub("must", out)
    return out


@lru_cache(maxsize=1)
def _seed_names() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """What names a seed municipality in its text, from the corpus: official names ("Town of X"), the
    ordinances' citation prefixes ("X Code") and short names, each longest first."""
    from codeassist.corpus import load_corpus

    corpus = load_corpus()
    munis, ordinances = corpus.municipalities.values(), corpus.ordinances.values()

    def longest_first(names) -> tuple[str, ...]:
        return tuple(sorted({n for n in names if n}, key=len, reverse=True))

    return (longest_first(m.name for m in munis), longest_first(o.citation_prefix for o in ordinances),
            longest_first(m.short_name for m in munis))


def _rename(text: str, name: str, base: str) -> str:
    names, prefixes, short_names = _seed_names()
    for old in names:
        text = text.replace(old, name)
    for old in prefixes:
        text = text.replace(old, f"{base} Code")
    for old in short_names:
        text = text.replace(old, base)
    return text


def synthetic(seed_texts: list[str], n_munis: int, per: int) -> Iterator[tuple[str, str, str, int]]:
    """(id, municipality id, text, seed index) for n_munis x per provisions."""
    n_seed = len(seed_texts)
    for m, (mid, name) in enumerate(municipality_names(n_munis)):
        base = name.split(" of ", 1)[1]
        family = m % FAMILIES
        start = (m * 37) % n_seed
        for j in range(per):
            s = (start + j) % n_seed
            yield f"{mid}:{s}#{j // n_seed}", mid, _rename(family_text(seed_texts[s], family), name, base), s


def perturbed(seed_vectors: np.ndarray, seed_idx: np.ndarray, batch_no: int) -> np.ndarray:
    """Seed vectors plus deterministic noise, renormalised to unit length."""
    rng = np.random.default_rng(1_000_003 + batch_no)
    noise = rng.standard_normal((len(seed_idx), seed_vectors.shape[1])).astype(np.float32)
    noise /= np.sqrt(seed_vectors.shape[1])
    v = seed_vectors[seed_idx] + NOISE * noise
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _pct(xs: list[float], p: float) -> float:
    from codeassist.evaluation.metrics import percentile

    return round(percentile(xs, p), 2)


def _lat(xs: list[float]) -> dict[str, float]:
    return {"n": len(xs), "p50": _pct(xs, 50), "p95": _pct(xs, 95), "max": round(max(xs), 2) if xs else 0.0}


def _cpu() -> float:
    """CPU seconds of this process (all threads): steadier than wall time on a shared machine."""
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


# --- the worker (a child process, so its peak memory is its own) ---------------------------------

def _fill(store, name: str, rows: list, vectors: np.ndarray, batch: int) -> tuple[float, float]:
    """Write rows through ChromaStore.add in batches; (wall seconds, CPU seconds of this process)."""
    t0, cpu0 = time.perf_counter(), _cpu()
    for b, i in enumerate(range(0, len(rows), batch)):
        part = rows[i:i + batch]
        vecs = perturbed(vectors, np.array([r[3] for r in part]), b)
        store.add(name, [r[0] for r in part], vecs, [r[2] for r in part],
                  [{"municipality": r[1], "provision_id": r[0]} for r in part])
    return time.perf_counter() - t0, _cpu() - cpu0


def worker(a: argparse.Namespace) -> dict[str, Any]:
    from codeassist.chunking import Chunk
    from codeassist.lexical import BM25Search
    from codeassist.stores import ChromaStore

    seed = np.load(a.seed)
    texts = [str(t) for t in seed["texts"]]
    vectors = seed["vectors"]
    qv = np.load(a.queries)["vectors"]
    out: dict[str, Any] = {"backend": a.backend, "munis": a.munis, "per": a.per, "batch": a.batch, "k": a.k}
    server_rss = (lambda: round(rss_mb(a.server_pid), 1)) if a.server_pid else (lambda: None)
    t0 = time.perf_counter()
    rows = list(synthetic(texts, a.munis, a.per))
    out["generate_s"] = round(time.perf_counter() - t0, 2)
    out["provisions"] = len(rows)
    out["words_mean"] = round(float(np.mean([len(r[2].split()) for r in rows[:5000]])), 1)
    out["rss_before_store_mb"] = round(rss_mb(), 1)
    store = ChromaStore.embedded(Path(a.path)) if a.backend == "embedded" else ChromaStore.server(a.url, timeout=120)
    out["server_rss_at_open_mb"] = server_rss()
    if a.reuse:  # serve what another backend wrote (same on-disk format)
        out["reused"] = True
    else:
        store.create(COLLECTION, {"bench": "scale"})
        build, cpu = _fill(store, COLLECTION, rows, vectors, a.batch)
        out.update(build_s=round(build, 2), build_cpu_s=round(cpu, 2), vectors_per_s=round(len(rows) / build, 1))
    info = store.info(COLLECTION)
    out["stored"] = info.count if info else 0
    munis = [mid for mid, _ in municipality_names(a.munis)]
    t0 = time.perf_counter()
    store.query(COLLECTION, qv[0], a.k)
    out["first_query_ms"] = round((time.perf_counter() - t0) * 1000, 1)  # loads the vector index
    for q in qv[:10]:  # warm: handles open, segments loaded
        store.query(COLLECTION, q, a.k)
        store.query(COLLECTION, q, a.k, {"municipality": munis[0]})
    plain, filtered, leaks = [], [], 0
    for i, q in enumerate(qv):
        t = time.perf_counter()
        store.query(COLLECTION, q, a.k)
        plain.append((time.perf_counter() - t) * 1000)
        muni = munis[(i * 7919) % len(munis)]
        t = time.perf_counter()
        got = store.query(COLLECTION, q, a.k, {"municipality": muni})
        filtered.append((time.perf_counter() - t) * 1000)
        leaks += sum(1 for pid, _ in got if not pid.startswith(muni + ":"))
    out["query_ms"] = {"unfiltered": _lat(plain), "municipality_filter": _lat(filtered)}
    out["filter_leaks"] = leaks
    out["exact_per_municipality_ms"] = _exact_alternative(store, qv, munis, a.k)
    out["server_rss_after_queries_mb"] = server_rss()
    if a.ingest:  # write throughput on a fresh collection of `ingest` provisions
        store.create(COLLECTION + "-ingest", {"bench": "ingest"})
        build, cpu = _fill(store, COLLECTION + "-ingest", rows[:a.ingest], vectors, a.batch)
        out["ingest"] = {"provisions": min(a.ingest, len(rows)), "s": round(build, 2), "client_cpu_s": round(cpu, 2),
                         "vectors_per_s": round(min(a.ingest, len(rows)) / build, 1)}
        out["server_rss_after_ingest_mb"] = server_rss()
        store.delete(COLLECTION + "-ingest")
    if a.bm25:
        _bm25(out, rows, munis, json.loads(Path(a.questions).read_text()), a.bm25_all, Chunk, BM25Search)
    store.close()
    if a.backend == "embedded":
        out["disk_bytes"] = du(Path(a.path))
    out["peak_rss_mb"] = round(peak_rss_mb(), 1)
    return out


def _bm25(out: dict, rows: list, munis: list[str], questions: list[str], unfiltered: bool, Chunk, BM25Search) -> None:
    chunks = [Chunk(id=r[0], provision_id=r[0], municipality=r[1], text=r[2]) for r in rows]
    bm = BM25Search(chunks)
    cold, warm = [], []
    for i, q in enumerate(questions):
        muni = munis[(i * 7919) % len(munis)]
        t = time.perf_counter()
        bm.search(q, 30, muni)  # first use of this municipality: its BM25 is built
        cold.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        bm.search(q, 30, muni)
        warm.append((time.perf_counter() - t) * 1000)
    out["bm25_filtered_ms"] = {"first_use": _lat(cold), "cached": _lat(warm)}
    if unfiltered:
        t = time.perf_counter()
        bm.search(questions[0], 30, None)
        out["bm25_unfiltered_build_s"] = round(time.perf_counter() - t, 2)
        times = []
        for q in questions[:40]:
            t = time.perf_counter()
            bm.search(q, 30, None)
            times.append((time.perf_counter() - t) * 1000)
        out["bm25_unfiltered_ms"] = _lat(times)


def _exact_alternative(store, qv: np.ndarray, munis: list[str], k: int) -> dict[str, Any]:
    """A candidate fix for slow filtered queries: fetch one municipality's vectors once (a metadata
    `get`, no HNSW) and score them exactly with numpy; later queries for it reuse the matrix."""
    col = store._get(COLLECTION)  # the chromadb collection behind codeassist's ChromaStore
    fetch, score = [], []
    for i, q in enumerate(qv[:60]):
        muni = munis[(i * 7919) % len(munis)]
        t = time.perf_counter()
        got = col.get(where={"municipality": muni}, include=["embeddings"])
        m = np.asarray(got["embeddings"], dtype=np.float32)
        fetch.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        sims = m @ q
        top = np.argsort(-sims)[:k]
        [(got["ids"][j], 1.0 - float(sims[j])) for j in top]
        score.append((time.perf_counter() - t) * 1000)
    return {"fetch_once": _lat(fetch), "cached_query": _lat(score)}


# --- driving it from the bench ---------------------------------------------------------------------

def run_scale(seed_npz: Path, queries_npz: Path, questions_json: Path, work: Path, munis: int, per: int,
              k: int = 30, server_ingest: int = 20_000, say=print) -> dict[str, Any]:
    """The scale measurements, each backend in its own worker process. Embedded Chroma builds the
    collection; then a `chroma run` server is started on that same folder (the on-disk format is
    shared) and queried, and its write rate is measured on a fresh collection of `server_ingest`
    provisions (writing all of them twice would not fit the bench's time budget)."""
    from codeassist.bench.cold import child_env

    env = child_env()
    common = ["--seed", str(seed_npz), "--queries", str(queries_npz), "--questions", str(questions_json),
              "--munis", str(munis), "--per", str(per), "--k", str(k)]
    results: dict[str, Any] = {}
    path = work / "scale-chroma"
    shutil.rmtree(path, ignore_errors=True)
    say(f"bench: scale: embedded Chroma, {munis * per:,} provisions ...")
    results["embedded"] = _worker_run(["--backend", "embedded", "--path", str(path), "--bm25", "--bm25-all", *common], env)
    port = free_port()
    log = open(work / "chroma-server.log", "w")
    proc = subprocess.Popen([str(BIN / "chroma"), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        ready = wait_http(f"http://127.0.0.1:{port}/api/v2/heartbeat", proc, 60)
        say(f"bench: scale: Chroma server (pid {proc.pid}, ready in {ready:.2f} s) on the same {munis * per:,} ...")
        server = _worker_run(["--backend", "server", "--url", f"http://127.0.0.1:{port}", "--reuse",
                              "--server-pid", str(proc.pid), "--ingest", str(min(server_ingest, munis * per)), *common], env)
        server.update(server_ready_s=round(ready, 2), server_peak_rss_mb=round(hwm_mb(proc.pid), 1), disk_bytes=du(path))
        results["server"] = server
    finally:
        stop(proc)
        log.close()
        shutil.rmtree(path, ignore_errors=True)
    return results


def _worker_run(args: list[str], env: dict[str, str]) -> dict[str, Any]:
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "codeassist.bench.scale", *args], env=env, capture_output=True,
                          text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"scale worker failed: {done.stderr[-2000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["process_wall_s"] = round(time.perf_counter() - t0, 2)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="scale worker (run by codeassist.bench)")
    p.add_argument("--backend", choices=["embedded", "server"], required=True)
    p.add_argument("--path")
    p.add_argument("--url")
    p.add_argument("--seed", required=True)
    p.add_argument("--queries", required=True)
    p.add_argument("--questions", required=True)
    p.add_argument("--munis", type=int, default=1000)
    p.add_argument("--per", type=int, default=100)
    p.add_argument("--k", type=int, default=30)
    p.add_argument("--batch", type=int, default=BATCH)
    p.add_argument("--reuse", action="store_true", help="query the collection already in the store")
    p.add_argument("--ingest", type=int, default=0, help="then time writing this many to a fresh collection")
    p.add_argument("--server-pid", type=int, default=0, help="read this server's memory at each phase")
    p.add_argument("--bm25", action="store_true")
    p.add_argument("--bm25-all", action="store_true")
    print(json.dumps(worker(p.parse_args(argv))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
