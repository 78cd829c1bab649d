"""Index faults that tests/index does not already inject: a real Chroma server that is killed, that
hangs, that comes back; a port that accepts connections and never answers; a build lock left by a
killed process; damaged vector-segment files; a manifest from another build.

(tests/index covers: damaged/truncated/empty/missing Chroma directory, a garbage manifest, a stale
collection, an unfinished build, the self-check, two processes building at once, a held lock timing
out, a refused connection, a malformed URL, an unwritable data dir; tests/retrieval covers the BM25
fallback with a monkeypatched vector store.)"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import httpx
import pytest

from codeassist.api import Assistant
from codeassist.embedding import HashingEmbedder
from codeassist.errors import IndexUnavailable
from codeassist.index import Index
from codeassist.stores import ChromaStore
from codeassist.retrieval import Retriever
from codeassist.settings import Settings

from .conftest import ROOT, record

CHROMA = Path(sys.executable).with_name("chroma")
TIMEOUT_S = 2.0  # Settings.chroma_timeout_s for these tests: every fault must resolve within a few of these
FAULTS: dict[str, dict] = {}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A `chroma run` we start, stop, pause and restart by PID, on a fixed port and folder."""

    def __init__(self, path: Path):
        self.path, self.port, self.proc = path, _free_port(), None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> "Server":
        self.proc = subprocess.Popen([str(CHROMA), "run", "--path", str(self.path), "--host", "127.0.0.1",
                                      "--port", str(self.port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/v2/heartbeat", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(f"chroma run did not start on port {self.port}")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGCONT)  # in case it was paused
        self.proc.kill()
        self.proc.wait(timeout=10)

    def pause(self) -> None:
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.proc.send_signal(signal.SIGCONT)


@pytest.fixture
def server(tmp_path):
    if not CHROMA.exists():
        pytest.skip("no chroma executable beside this python")
    s = Server(tmp_path / "chroma-db").start()
    yield s
    if s.proc.poll() is None:
        s.kill()


def _stack(corpus, settings):
    index = Index(corpus, embedder=HashingEmbedder(), settings=settings)
    retriever = Retriever(corpus, index=index, settings=settings)
    return index, retriever, Assistant(corpus=corpus, retriever=retriever, settings=settings)


def _timed(fn):
    t0 = time.monotonic()
    out = fn()
    return out, time.monotonic() - t0


QUESTION = "who inspects erosion control in tuckahoe after a storm?"


@pytest.mark.slow
def test_server_killed_mid_session_falls_back_to_bm25_then_recovers(corpus, server, tmp_path, caplog):
    settings = Settings(data_dir=tmp_path / "data", chroma_url=server.url, chroma_timeout_s=TIMEOUT_S)
    index, retriever, assistant = _stack(corpus, settings)
    assert index.ensure().action == "built"
    before = retriever.search(QUESTION, "tuckahoe")
    assert any("dense" in h.retrievers for h in before)

    server.kill()
    with caplog.at_level(logging.WARNING, logger="codeassist.retrieval"):
        hits, s1 = _timed(lambda: retriever.search(QUESTION, "tuckahoe"))
        ans, s2 = _timed(lambda: assistant.ask(QUESTION))
    assert hits and all(h.retrievers == ("bm25",) for h in hits)
    assert "BM25 alone" in caplog.text
    assert ans.citations and not ans.abstained, "still answers, from BM25"
    assert s1 < 3 * TIMEOUT_S and s2 < 3 * TIMEOUT_S

    server.start()  # same folder, same port: the collection is still there
    after, s3 = _timed(lambda: retriever.search(QUESTION, "tuckahoe"))
    assert any("dense" in h.retrievers for h in after), "dense search resumes once the server is back"
    FAULTS["server killed (SIGKILL) mid-session"] = {
        "search while down (s)": round(s1, 2), "ask while down (s)": round(s2, 2),
        "answered from": "BM25 alone", "first search after restart (s)": round(s3, 2), "recovered": True}


@pytest.mark.slow
def test_server_that_hangs_mid_query_is_bounded(corpus, server, tmp_path):
    settings = Settings(data_dir=tmp_path / "data", chroma_url=server.url, chroma_timeout_s=TIMEOUT_S)
    index, retriever, assistant = _stack(corpus, settings)
    index.ensure()
    server.pause()  # accepts connections (the kernel's backlog) but never answers
    try:
        hits, s1 = _timed(lambda: retriever.search(QUESTION, "tuckahoe"))
        ans, s2 = _timed(lambda: assistant.ask(QUESTION))
    finally:
        server.resume()
    assert hits and all(h.retrievers == ("bm25",) for h in hits)
    assert ans.citations
    assert s1 < 3 * TIMEOUT_S + 2 and s2 < 3 * TIMEOUT_S + 2, (s1, s2)
    after, s3 = _timed(lambda: retriever.search(QUESTION, "tuckahoe"))
    assert any("dense" in h.retrievers for h in after)
    FAULTS["server paused (SIGSTOP) mid-session"] = {
        "search while hung (s)": round(s1, 2), "ask while hung (s)": round(s2, 2), "timeout setting (s)": TIMEOUT_S,
        "answered from": "BM25 alone", "first search after SIGCONT (s)": round(s3, 2), "recovered": True}


@pytest.mark.slow
def test_port_that_accepts_but_never_answers(corpus, tmp_path):
    """A black hole: listen() with no accept()/reply. Connecting succeeds, the heartbeat never returns."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    try:
        settings = Settings(data_dir=tmp_path / "data", chroma_url=url, chroma_timeout_s=TIMEOUT_S)
        _, retriever, assistant = _stack(corpus, settings)
        with pytest.raises(IndexUnavailable, match="not reachable"):
            _timed(lambda: ChromaStore.server(url, timeout=TIMEOUT_S))
        ans, s = _timed(lambda: assistant.ask(QUESTION))
        assert ans.citations and s < 3 * TIMEOUT_S + 2
    finally:
        sock.close()
    FAULTS["port accepts TCP, never answers HTTP"] = {"ask (s)": round(s, 2), "answered from": "BM25 alone"}


@pytest.mark.slow
def test_ask_with_no_server_at_all_still_answers(corpus, tmp_path):
    settings = Settings(data_dir=tmp_path / "data", chroma_url=f"http://127.0.0.1:{_free_port()}",
                        chroma_timeout_s=TIMEOUT_S)
    _, _, assistant = _stack(corpus, settings)
    ans, s = _timed(lambda: assistant.ask(QUESTION))
    assert ans.citations and s < 3 * TIMEOUT_S
    FAULTS["server down from the start"] = {"ask (s)": round(s, 2), "answered from": "BM25 alone"}


HOLD_LOCK = textwrap.dedent("""
    import sys, time
    from filelock import FileLock
    lock = FileLock(sys.argv[1])
    lock.acquire()
    print("locked", flush=True)
    time.sleep(600)
""")


def test_lock_left_by_a_killed_builder_does_not_block(corpus, tmp_path):
    settings = Settings(data_dir=tmp_path / "data", index_lock_timeout_s=30)
    lock = Path(settings.data_dir) / "index" / "build.lock"
    lock.parent.mkdir(parents=True)
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(lock)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    holder.kill()  # a builder that crashed: the lock file stays, the kernel releases the lock
    holder.wait(timeout=10)
    assert lock.exists()
    status, s = _timed(lambda: Index(corpus, embedder=HashingEmbedder(), settings=settings).ensure())
    assert status.action == "built" and s < 20
    FAULTS["build lock file left by a SIGKILLed builder"] = {"next build (s)": round(s, 2), "waited for the lock": False}


REOPEN = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from codeassist.corpus import load_corpus
    from codeassist.embedding import HashingEmbedder
    from codeassist.index import Index
    from codeassist.retrieval import Retriever
    from codeassist.settings import Settings
    settings = Settings(data_dir=Path(sys.argv[1]))
    corpus = load_corpus()
    index = Index(corpus, embedder=HashingEmbedder(), settings=settings)
    status = index.ensure()
    hits = Retriever(corpus, index=index, settings=settings).search("stop-work order", "tuckahoe", k=3, mode="dense")
    print(json.dumps({"action": status.action, "reason": status.reason, "hits": [h.id for h in hits]}))
""")


def _segment_files(chroma: Path) -> list[Path]:
    return [p for p in chroma.glob("*/*.bin")]


@pytest.mark.parametrize("how", ["garbage", "truncated", "deleted"])
def test_damaged_vector_segment_files(corpus, tmp_path, how):
    """HNSW segment files (not the sqlite file tests/index damages): served correctly or rebuilt."""
    data = tmp_path / "data"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    first = json.loads(subprocess.run([sys.executable, "-c", REOPEN, str(data)], env=env, capture_output=True,
                                      text=True, timeout=300, check=True).stdout)
    chroma = data / "index" / "chroma"
    files = _segment_files(chroma)
    assert files, "expected HNSW segment files"
    for f in files:
        if how == "garbage":
            f.write_bytes(os.urandom(max(64, f.stat().st_size)))
        elif how == "truncated":
            os.truncate(f, min(10, f.stat().st_size))
    if how == "deleted":
        for d in {f.parent for f in files}:
            shutil.rmtree(d)
    done = subprocess.run([sys.executable, "-c", REOPEN, str(data)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-1500:]
    second = json.loads(done.stdout)
    assert second["hits"] == first["hits"], "same dense results as before the damage"
    FAULTS[f"HNSW segment files {how}"] = {"outcome": second["action"], "reason": second["reason"],
                                           "dense results unchanged": True}


def test_manifest_from_another_build_or_missing(corpus, tmp_path):
    """manifest.json is a human-readable record; the collection's own metadata decides."""
    settings = Settings(data_dir=tmp_path / "data")
    index = Index(corpus, embedder=HashingEmbedder(), settings=settings)
    index.ensure()
    manifest = json.loads(index.manifest_path.read_text())
    index.manifest_path.write_text(json.dumps({**manifest, "codeassist_key": "0" * 64, "chunks": 1, "complete": False}))
    index.close()
    again = Index(corpus, embedder=HashingEmbedder(), settings=settings)
    assert again.ensure().action == "reused"
    again.manifest_path.unlink()
    again.close()
    third = Index(corpus, embedder=HashingEmbedder(), settings=settings)
    assert third.ensure().action == "reused"
    FAULTS["stale manifest (other key), then no manifest"] = {"outcome": "reused (collection metadata is authoritative)"}


def test_concurrent_searches_during_a_rebuild(corpus, tmp_path):
    """Searches from threads while another thread forces a rebuild: no exception escapes, hits keep coming."""
    settings = Settings(data_dir=tmp_path / "data")
    index, retriever, _ = _stack(corpus, settings)
    index.ensure()
    errors: list[BaseException] = []
    counts = {"searches": 0}
    stop = threading.Event()

    def search():
        while not stop.is_set():
            try:
                assert retriever.search("stop-work order", "tuckahoe")
                counts["searches"] += 1
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)
                return

    threads = [threading.Thread(target=search) for _ in range(4)]
    for t in threads:
        t.start()
    try:
        index.ensure(rebuild=True)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=60)
    assert not errors, errors[:3]
    FAULTS["rebuild while 4 threads search"] = {"searches": counts["searches"], "errors": len(errors)}


def teardown_module(module):
    if FAULTS:
        record("index_faults", FAULTS, merge=True)
