"""The exact in-memory vector search an embedded index serves from (index.ExactSearch): the same filters as
Chroma's query, never a farther neighbour than it, loaded once and dropped when the index is rebuilt."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from codeassist.embedding import HashingEmbedder
from codeassist.index import Index
from codeassist.stores import ExactSearch

QUESTIONS = ["stop-work order", "who may sign the plan", "electrical permit fees"]
FILTERS = [("hempstead", None), ("tuckahoe", None), (None, ("text",)), ("tuckahoe", ("text", "questions")), (None, None)]


def build(corpus, settings, embedder=None) -> Index:
    index = Index(corpus, embedder=embedder or HashingEmbedder(), settings=settings)
    index.ensure()
    return index


def _where(municipality, views):
    where = [{"municipality": municipality}] if municipality else []
    if views:
        where.append({"view": {"$in": list(views)}})
    return where[0] if len(where) == 1 else {"$and": where} if where else None


def _brute_force(index: Index, vector, k, municipality, views) -> list[tuple[str, float]]:
    """Every stored vector of the municipality (and views) scored one by one, in float64."""
    stored = index.store.get_embeddings(index.collection, [c.id for c in index.chunks])
    q = np.asarray(vector, dtype=np.float64)
    q /= np.linalg.norm(q)
    scored = []
    for c in index.chunks:
        if municipality in (None, c.municipality) and (not views or c.view in views):
            v = stored[c.id].astype(np.float64)
            scored.append((c.id, 1.0 - float(v @ q) / float(np.linalg.norm(v))))
    return sorted(scored, key=lambda x: x[1])[:k]


@pytest.mark.parametrize("municipality, views", FILTERS)
def test_exact_search_is_a_brute_force_search_of_the_stored_vectors(corpus, settings_for, municipality, views):
    index = build(corpus, settings_for("embedded"))
    n = sum(1 for c in index.chunks if municipality in (None, c.municipality) and (not views or c.view in views))
    for question in QUESTIONS:
        vec = index.embedder.embed_query(question)
        for k in (5, 60, n):
            got = index.dense(vec, k, municipality, views)
            want = _brute_force(index, vec, k, municipality, views)
            assert len(got) == len(want) == min(k, n)
            assert [1 - s for _, s in got] == pytest.approx([d for _, d in want], abs=1e-5), (question, k)
            cut = want[-1][1]  # which of a tie at the cut made it in is arbitrary; all above it must agree
            assert {c.id for c, s in got if 1 - s < cut - 1e-5} == {i for i, d in want if d < cut - 1e-5}
    assert index._exact is not None, "served from memory"


@pytest.mark.parametrize("municipality, views", FILTERS)
def test_exact_search_is_never_farther_than_chromas_query(corpus, settings_for, municipality, views):
    """Chroma's HNSW query is approximate (with this fake embedder's many near ties it misses neighbours);
    the exact search returns, rank by rank, a neighbour at least as near, with the same filters applied."""
    index = build(corpus, settings_for("embedded"))
    for question in QUESTIONS:
        vec = index.embedder.embed_query(question)
        for k in (5, 60, 150):
            got = index.dense(vec, k, municipality, views)
            want = index.store.query(index.collection, vec, k, _where(municipality, views))
            assert len(got) == len(want)
            assert all(1 - s <= d + 1e-5 for (_, s), (_, d) in zip(got, want)), (question, k)
            assert all(municipality in (None, c.municipality) and (not views or c.view in views) for c, _ in got)


def test_vectors_are_read_once_and_dropped_on_rebuild(corpus, settings_for):
    settings = settings_for("embedded")
    index = build(corpus, settings)
    vec = index.embedder.embed_query("stop-work order")
    before = index.dense(vec, 10, "hempstead")
    exact = index._exact
    assert exact is not None
    index.dense(vec, 10, "tuckahoe")
    assert index._exact is exact, "loaded once, not per query"

    class Shifted(HashingEmbedder):
        """Same model id (so the same collection), other vectors: what a rebuild may store."""

        def _vector(self, text):
            v = super()._vector(text)
            return np.roll(v, 1)

    index.embedder = Shifted()
    assert index.ensure(rebuild=True).action == "rebuilt"
    assert index._exact is None, "a rebuild drops the vectors held in memory"
    after = index.dense(vec, 10, "hempstead")
    assert index._exact is not None and index._exact is not exact
    assert [(c.id, round(s, 5)) for c, s in after] != [(c.id, round(s, 5)) for c, s in before]
    want = _brute_force(index, vec, 10, "hempstead", None)
    assert [1 - s for _, s in after] == pytest.approx([d for _, d in want], abs=1e-5)


def test_an_index_built_by_another_process_is_read_afresh(corpus, settings_for):
    settings = settings_for("embedded")
    index = build(corpus, settings)
    index.dense(index.embedder.embed_query("plan"), 3, "hempstead")
    assert index._exact is not None
    index.close()
    assert index._exact is None
    Index(corpus, embedder=HashingEmbedder(), settings=settings).ensure(rebuild=True)  # another builder
    index.ensure()
    assert len(index.dense(index.embedder.embed_query("plan"), 3, "hempstead")) == 3


def test_chroma_answers_when_the_vectors_cannot_be_read(corpus, settings_for, monkeypatch, caplog):
    index = build(corpus, settings_for("embedded"))
    monkeypatch.setattr(type(index.store), "get_embeddings", lambda self, name, ids: {})
    vec = index.embedder.embed_query("stop-work order")
    with caplog.at_level(logging.WARNING, logger="codeassist.index"):
        got = index.dense(vec, 5, "hempstead")
    assert "searching with Chroma" in caplog.text and index._exact is None
    want = index.store.query(index.collection, vec, 5, {"municipality": "hempstead"})
    assert [c.id for c, _ in got] == [i for i, _ in want]


@pytest.mark.server
def test_a_server_index_is_searched_by_the_server(corpus, settings_for):
    """A server is shared with other clients and answers for itself: nothing is held in memory."""
    index = build(corpus, settings_for("server"))
    assert len(index.dense(index.embedder.embed_query("stop-work order"), 5, "hempstead")) == 5
    assert index._exact is None



def test_exact_search_on_its_own():
    from codeassist.chunking import Chunk

    chunks = [Chunk(id=f"c{i}", provision_id=f"p{i}", municipality=m, view=v, text=f"t{i}")
              for i, (m, v) in enumerate([("a", "text"), ("a", "heading"), ("b", "text"), ("a", "text")])]
    vectors = np.array([[1, 0], [0.6, 0.8], [1, 0], [0, 2]], dtype=np.float32)  # rows need not be unit length
    search = ExactSearch(chunks, vectors)
    got = search.search(np.array([3.0, 0.0]), 10, "a")
    assert [c.id for c, _ in got] == ["c0", "c1", "c3"]
    assert [round(d, 6) for _, d in got] == [0.0, 0.4, 1.0]
    assert [c.id for c, _ in search.search(np.array([1.0, 0.0]), 10, None)] == ["c0", "c2", "c1", "c3"]  # ties in chunk order
    assert [c.id for c, _ in search.search(np.array([1.0, 0.0]), 10, "a", {"heading"})] == ["c1"]
    assert search.search(np.array([1.0, 0.0]), 10, "nowhere") == [] and search.search(np.array([1.0, 0.0]), 0) == []
    with pytest.raises(ValueError):
        ExactSearch(chunks, vectors[:2])
