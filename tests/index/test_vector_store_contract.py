"""The VectorStore contract: every backend (embedded Chroma, a real Chroma server) passes the same tests."""

from __future__ import annotations

import uuid

import numpy as np
import pytest

from codeassist.stores import VectorStore


def unit(*values: float, dim: int = 8) -> np.ndarray:
    v = np.zeros(dim, dtype=np.float32)
    v[: len(values)] = values
    return v / np.linalg.norm(v)


@pytest.fixture
def store(backend, store_for) -> VectorStore:
    return store_for(backend)


@pytest.fixture
def name(store):
    n = f"contract-{uuid.uuid4().hex[:12]}"
    yield n
    store.delete(n)


def fill(store, name):
    """Four vectors: two per municipality; 'h1' and 't1' point the same way."""
    store.create(name, {"purpose": "contract", "complete": False})
    ids = ["h1", "h2", "t1", "t2"]
    vectors = np.stack([unit(1, 0), unit(0, 1), unit(1, 0.01), unit(-1, 0)])
    store.add(name, ids, vectors, [f"doc {i} §" for i in ids],
              [{"municipality": "hempstead" if i[0] == "h" else "tuckahoe", "provision_id": i} for i in ids])
    return dict(zip(ids, vectors))


def test_satisfies_the_protocol(store):
    assert isinstance(store, VectorStore)
    assert store.kind in ("embedded", "server")
    assert store.location


def test_missing_collection_has_no_info(store, name):
    assert store.info(name) is None
    assert name not in store.collection_names()


def test_create_then_info_round_trips_metadata_and_count(store, name):
    fill(store, name)
    info = store.info(name)
    assert info is not None and info.name == name
    assert info.count == 4
    assert info.metadata["purpose"] == "contract"
    assert info.metadata["complete"] is False
    assert name in store.collection_names()


def test_update_metadata_replaces_it(store, name):
    fill(store, name)
    store.update_metadata(name, {"purpose": "contract", "complete": True, "chunks": 4})
    meta = store.info(name).metadata
    assert meta["complete"] is True and meta["chunks"] == 4


def test_query_returns_nearest_first_with_cosine_distance(store, name):
    vectors = fill(store, name)
    got = store.query(name, vectors["h2"], 4)
    assert [i for i, _ in got][0] == "h2"
    assert got[0][1] == pytest.approx(0.0, abs=1e-5)
    distances = [d for _, d in got]
    assert distances == sorted(distances)
    assert distances[-1] == pytest.approx(1.0 - float(vectors["h2"] @ vectors[got[-1][0]]), abs=1e-4)


def test_where_filters_before_ranking(store, name):
    vectors = fill(store, name)
    # 't1' is nearer to h1 than h2 is, yet a Hempstead filter must return Hempstead only, k of them.
    got = store.query(name, vectors["h1"], 2, where={"municipality": "hempstead"})
    assert [i for i, _ in got] == ["h1", "h2"]
    got = store.query(name, vectors["h1"], 5, where={"municipality": "tuckahoe"})
    assert {i for i, _ in got} == {"t1", "t2"}


def test_k_larger_than_the_collection_returns_everything(store, name):
    vectors = fill(store, name)
    assert len(store.query(name, vectors["h1"], 50)) == 4
    assert store.query(name, vectors["h1"], 0) == []


def test_get_embeddings_returns_what_was_stored(store, name):
    vectors = fill(store, name)
    got = store.get_embeddings(name, ["t2", "h1", "nope"])
    assert set(got) == {"t2", "h1"}
    assert np.allclose(got["t2"], vectors["t2"], atol=1e-6)


def test_create_replaces_an_existing_collection(store, name):
    fill(store, name)
    store.create(name, {"purpose": "second"})
    info = store.info(name)
    assert info.count == 0 and info.metadata["purpose"] == "second"


def test_delete_is_idempotent(store, name):
    fill(store, name)
    store.delete(name)
    store.delete(name)
    assert store.info(name) is None


def test_unicode_documents_and_ids(store, name):
    store.create(name, {"x": 1})
    store.add(name, ["tuckahoe:7B-6(a)(1)(a)#0"], np.stack([unit(1, 1)]), ["“Start of construction;” — § 7B-6 ✓"],
              [{"municipality": "tuckahoe", "provision_id": "tuckahoe:7B-6(a)(1)(a)"}])
    assert store.query(name, unit(1, 1), 1)[0][0] == "tuckahoe:7B-6(a)(1)(a)#0"
