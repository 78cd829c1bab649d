"""The query-embedding cache: a question searched once per municipality (or again for a comparison) is
embedded once. Uses a stand-in model object, so no torch."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from codeassist.embedding import SentenceTransformerEmbedder


class CountingModel:
    def __init__(self):
        self.calls = 0
        self.lock = threading.Lock()

    def encode(self, text, **kw):
        with self.lock:
            self.calls += 1
        v = np.zeros(384, dtype=np.float32)
        v[hash(text) % 384] = 1.0
        return v


@pytest.fixture
def embedder():
    e = SentenceTransformerEmbedder(query_cache_size=4)
    e._model = CountingModel()  # what load() would have set
    return e


def test_repeated_query_is_embedded_once(embedder):
    a = embedder.embed_query("stop-work order")
    b = embedder.embed_query("stop-work order")
    assert embedder._model.calls == 1 and a is b
    embedder.embed_query("something else")
    assert embedder._model.calls == 2


def test_cached_vectors_are_read_only(embedder):
    v = embedder.embed_query("fees")
    with pytest.raises(ValueError):
        v[0] = 2.0


def test_cache_is_bounded_and_least_recently_used(embedder):
    for q in ["a", "b", "c", "d"]:
        embedder.embed_query(q)
    embedder.embed_query("a")  # a is now the most recent
    embedder.embed_query("e")  # evicts b
    calls = embedder._model.calls
    embedder.embed_query("a")
    assert embedder._model.calls == calls
    embedder.embed_query("b")
    assert embedder._model.calls == calls + 1


def test_clear_and_disabled(embedder):
    embedder.embed_query("x")
    embedder.clear_query_cache()
    embedder.embed_query("x")
    assert embedder._model.calls == 2
    off = SentenceTransformerEmbedder(query_cache_size=0)
    off._model = CountingModel()
    off.embed_query("x")
    off.embed_query("x")
    assert off._model.calls == 2


def test_threads_share_the_cache_safely(embedder):
    out: list[tuple[str, np.ndarray]] = []

    def run():
        for q in ["p", "q", "r"] * 50:
            out.append((q, embedder.embed_query(q)))

    threads = [threading.Thread(target=run) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(out) == 8 * 150
    assert embedder._model.calls <= 3 * 8  # at worst each thread misses once per text
    expected = {q: CountingModel().encode(q) for q in "pqr"}
    assert all(np.array_equal(v, expected[q]) for q, v in out), "every thread got its own text's vector"
