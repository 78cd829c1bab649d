"""Fixtures for the index tests: both vector-store backends, a deterministic fake embedder.

The server backend is a real `chroma run` process: CODEASSIST_TEST_CHROMA_URL when set (`.ci/run`
starts one), else one started here on a free loopback port, polled until healthy, stopped by its PID.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest

from codeassist.procs import stop

from codeassist.embedding import HashingEmbedder
from codeassist.stores import ChromaStore
from codeassist.settings import Settings

CHROMA_BIN = Path(sys.executable).with_name("chroma")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/api/v2/heartbeat", timeout=1.0).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.fixture(scope="session")
def chroma_server(tmp_path_factory):
    """URL of a real Chroma server for the session."""
    url = os.environ.get("CODEASSIST_TEST_CHROMA_URL")
    if url:
        if not _healthy(url):
            pytest.fail(f"CODEASSIST_TEST_CHROMA_URL={url} does not answer /api/v2/heartbeat")
        yield url.rstrip("/")
        return
    if not CHROMA_BIN.exists() and not shutil.which("chroma"):
        pytest.skip("no `chroma` executable to start a server with")
    path = tmp_path_factory.mktemp("chroma-server")
    port = _free_port()
    log = open(path / "server.log", "wb")
    proc = subprocess.Popen([str(CHROMA_BIN if CHROMA_BIN.exists() else "chroma"), "run", "--path", str(path / "db"),
                             "--host", "127.0.0.1", "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not _healthy(url):
            if proc.poll() is not None:
                pytest.fail(f"chroma run exited with {proc.returncode}: {(path / 'server.log').read_text()[-2000:]}")
            if time.monotonic() > deadline:
                pytest.fail("chroma run did not answer its heartbeat within 60 s")
            time.sleep(0.1)
        yield url
    finally:
        stop(proc, timeout=10)
        log.close()


BACKENDS = ["embedded", pytest.param("server", marks=pytest.mark.server)]


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.fixture
def settings_for(tmp_path, request):
    """settings_for(backend, **overrides) -> Settings with a private data dir and collection prefix."""
    prefix = f"t{uuid.uuid4().hex[:10]}"  # tests sharing one server never see each other's collections
    servers: list[str] = []

    def make(backend: str, **overrides) -> Settings:
        url = None
        if backend == "server":
            url = request.getfixturevalue("chroma_server")
            servers.append(url)
        values = {"data_dir": tmp_path / "data", "chroma_url": url, "collection_prefix": prefix, **overrides}
        return Settings(**values)

    yield make
    for url in set(servers):  # leave a shared server as we found it
        store = ChromaStore.server(url, timeout=5)
        for name in store.collection_names():
            if name.startswith(prefix):
                store.delete(name)
        store.close()


@pytest.fixture
def store_for(tmp_path, request):
    """store_for(backend) -> a VectorStore on that backend."""
    stores = []

    def make(backend: str):
        if backend == "server":
            store = ChromaStore.server(request.getfixturevalue("chroma_server"))
        else:
            store = ChromaStore.embedded(tmp_path / "chroma")
        stores.append(store)
        return store

    yield make
    for s in stores:
        s.close()


@pytest.fixture
def fake_embedder() -> HashingEmbedder:
    return HashingEmbedder()
