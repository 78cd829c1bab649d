"""Fixtures for the reliability suite: an Assistant over the real corpus and a real embedded Chroma index,
with deterministic hashing vectors so hostile-input tests run without the model (the slow tests and the
load test use the real one)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from codeassist.api import Assistant
from codeassist.embedding import HashingEmbedder
from codeassist.index import Index
from codeassist.retrieval import Retriever
from codeassist.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "reliability"


@pytest.fixture(scope="session")
def hashing_settings(tmp_path_factory) -> Settings:
    return Settings(data_dir=tmp_path_factory.mktemp("reliability-data"))


@pytest.fixture(scope="session")
def hashing_retriever(corpus, hashing_settings) -> Retriever:
    index = Index(corpus, embedder=HashingEmbedder(), settings=hashing_settings)
    index.ensure()
    return Retriever(corpus, index=index, settings=hashing_settings)


@pytest.fixture(scope="session")
def assistant(corpus, hashing_retriever, hashing_settings) -> Assistant:
    return Assistant(corpus=corpus, retriever=hashing_retriever, settings=hashing_settings)


def run_cli(*args: str, stdin: bytes | None = None, env: dict | None = None, timeout: float = 300,
            data_dir: Path | str | None = None) -> subprocess.CompletedProcess:
    """`codeassist ARGS` in a fresh process (bytes in, bytes out)."""
    full_env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
                **(env or {})}
    if data_dir is not None:
        full_env["CODEASSIST_DATA_DIR"] = str(data_dir)
    return subprocess.run([sys.executable, "-m", "codeassist.cli", *args], cwd=ROOT, env=full_env, input=stdin,
                          capture_output=True, timeout=timeout)


def record(name: str, data: dict, merge: bool = False) -> None:
    """Figures for eval/RELIABILITY.md, written where a person can read them after the run. With merge,
    keys from earlier runs stay (a run of a subset, e.g. without the slow tests, updates only its own)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.json"
    if merge and path.exists():
        try:
            data = {**json.loads(path.read_text(encoding="utf-8")), **data}
        except (ValueError, OSError):
            pass
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
