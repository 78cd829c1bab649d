"""The index: chunk vectors in Chroma (embedded or a server) plus BM25 over the same chunks.

Chunks are views of provisions (chunking.py: text, heading, headnote summary and questions); the
metadata of each records its provision, municipality and view, and both searches can be limited to
some views.

The only module that imports chromadb (lazily, on first use; ~1 s) and rank_bm25.

Derived state is keyed by what it derives from: the collection name carries a hash of every chunk's
text and metadata, the corpus fingerprint, the embedding model and the chunk settings. Change any of
them and the old collection is never served: a new one is built and the stale one dropped.
An index that cannot be read (missing, truncated or corrupted directory, half-finished build, vectors
that fail a self-check) is rebuilt with a logged warning instead of crashing. A file lock keeps two
processes on this machine from building at once; the second waits, then reuses the first one's work.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import shutil
import struct
import threading
import time
from collections import OrderedDict
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable
from urllib.parse import urlparse

import numpy as np
from pydantic import BaseModel, ConfigDict

from codeassist.chunking import CHUNKER_VERSION, Chunk, chunk_provisions
from codeassist.errors import IndexUnavailable
from codeassist.text import tokenize
from codeassist.settings import Settings, get_settings

if TYPE_CHECKING:
    from codeassist.corpus import Corpus
    from codeassist.embedding import Embedder

log = logging.getLogger(__name__)

# Bump when the stored layout changes (metadata fields, distance function, id scheme).
INDEX_FORMAT = "2"  # 2: chunks are views of provisions; metadata carries "view"


# --- keys and names ------------------------------------------------------------------------------

def index_key(chunks: Sequence[Chunk], model_id: str, corpus_fingerprint: str, chunk_max_words: int) -> str:
    """Hash of everything the stored vectors derive from."""
    h = hashlib.sha256()
    for part in (INDEX_FORMAT, CHUNKER_VERSION, model_id, corpus_fingerprint, str(chunk_max_words)):
        h.update(part.encode())
        h.update(b"\0")
    for c in chunks:
        h.update(f"{c.id}\0{c.provision_id}\0{c.municipality}\0{c.view}\0{c.text}\0".encode())
    return h.hexdigest()


def collection_name(prefix: str, key: str) -> str:
    """'<prefix>-<16 hex>': Chroma allows 3-512 chars of [a-zA-Z0-9._-], alphanumeric at both ends."""
    clean = "".join(ch if ch.isalnum() or ch in "._-" else "-" for ch in prefix).strip("._-") or "codeassist"
    return f"{clean}-{key[:16]}"


# --- the storage protocol and its Chroma backends ------------------------------------------------

class CollectionInfo(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    count: int
    metadata: dict[str, Any]


@runtime_checkable
class VectorStore(Protocol):
    """A store of named collections of unit vectors; cosine distance. Both backends pass
    tests/index/test_vector_store_contract.py."""

    kind: Literal["embedded", "server"]
    location: str  # for messages: a folder or a URL

    def collection_names(self) -> list[str]: ...
    def info(self, name: str) -> CollectionInfo | None: ...
    def create(self, name: str, metadata: dict[str, Any]) -> None:
        """Create an empty collection, replacing any of that name."""
    def add(self, name: str, ids: Sequence[str], embeddings: np.ndarray,
            documents: Sequence[str], metadatas: Sequence[dict[str, Any]]) -> None: ...
    def update_metadata(self, name: str, metadata: dict[str, Any]) -> None:
        """Replace the collection's metadata."""
    def get_embeddings(self, name: str, ids: Sequence[str]) -> dict[str, np.ndarray]: ...
    def query(self, name: str, embedding: np.ndarray, k: int,
              where: dict[str, Any] | None = None) -> list[tuple[str, float]]:
        """Up to k (id, cosine distance) pairs, nearest first; `where` filters on metadata first."""
    def delete(self, name: str) -> None:
        """Drop the collection; no error if it does not exist."""
    def close(self) -> None: ...


# HNSW's candidate list at query time. A retriever asks for up to 150 chunks (views) at once, more
# than Chroma's default list holds; the collections are small (a few thousand chunks), so recall
# matters more than the fraction of a millisecond a longer list costs.
HNSW_EF_SEARCH = 400
# An embedded index of up to this many chunks is also held in memory for exact search (ExactSearch):
# 50,000 x 384 float32 is 77 MB. Larger ones, and a server's (shared with other clients, which may
# rebuild or drop it; the server is what answers), are searched by Chroma's query.
EXACT_SEARCH_MAX_CHUNKS = 50_000


def _chroma_settings():
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False)


class ChromaStore:
    """VectorStore over a chromadb client: `embedded(path)` (PersistentClient) or `server(url)` (HttpClient)."""

    def __init__(self, client: Any, kind: Literal["embedded", "server"], location: str):
        self._client = client
        self.kind = kind
        self.location = location
        self._collections: dict[str, Any] = {}  # handles cached: a lookup per query costs a round trip

    @classmethod
    def embedded(cls, path: Path) -> ChromaStore:
        import chromadb

        path.mkdir(parents=True, exist_ok=True)
        return cls(chromadb.PersistentClient(path=str(path), settings=_chroma_settings()), "embedded", str(path))

    @classmethod
    def server(cls, url: str, timeout: float = 10.0) -> ChromaStore:
        """Connect to `chroma run` at url. Checks the heartbeat first, with a bounded timeout: the
        chromadb client itself waits forever on a server that accepts but does not answer."""
        import chromadb
        import httpx

        parsed = urlparse(url if "://" in url else f"http://{url}")
        if not parsed.hostname:
            raise IndexUnavailable(f"CODEASSIST_CHROMA_URL {url!r} is not a URL like http://127.0.0.1:8000")
        ssl = parsed.scheme == "https"
        port = parsed.port or (443 if ssl else 8000)
        base = f"{parsed.scheme}://{parsed.hostname}:{port}"
        try:
            httpx.get(f"{base}/api/v2/heartbeat", timeout=timeout).raise_for_status()
            client = chromadb.HttpClient(host=parsed.hostname, port=port, ssl=ssl, settings=_chroma_settings())
        except Exception as e:
            raise IndexUnavailable(f"Chroma server at {base} is not reachable ({e}); start it with "
                                   f"`chroma run --host {parsed.hostname} --port {port} --path DIR` "
                                   "or unset CODEASSIST_CHROMA_URL to use the embedded index") from e
        session = getattr(getattr(client, "_server", None), "_session", None)
        if session is not None:  # chromadb creates its httpx session with timeout=None
            session.timeout = httpx.Timeout(timeout)
        return cls(client, "server", base)

    def _get(self, name: str):
        col = self._collections.get(name)
        if col is None:
            col = self._client.get_collection(name, embedding_function=None)
            self._collections[name] = col
        return col

    def collection_names(self) -> list[str]:
        return sorted(c if isinstance(c, str) else c.name for c in self._client.list_collections())

    def info(self, name: str) -> CollectionInfo | None:
        if name not in self.collection_names():
            return None
        self._collections.pop(name, None)  # fresh handle: another process may have rebuilt it
        col = self._get(name)
        return CollectionInfo(name=name, count=col.count(), metadata=dict(col.metadata or {}))

    def create(self, name: str, metadata: dict[str, Any]) -> None:
        self.delete(name)
        # No embedding function: vectors always come from us, and Chroma's default one would try to
        # download an ONNX model. Cosine distance: our vectors are unit length.
        self._collections[name] = self._client.create_collection(
            name, embedding_function=None, configuration={"hnsw": {"space": "cosine", "ef_search": HNSW_EF_SEARCH}}, metadata=metadata)

    def add(self, name, ids, embeddings, documents, metadatas) -> None:
        if len(ids):
            self._get(name).add(ids=list(ids), embeddings=np.asarray(embeddings, dtype=np.float32),
                                documents=list(documents), metadatas=list(metadatas))

    def update_metadata(self, name: str, metadata: dict[str, Any]) -> None:
        self._get(name).modify(metadata=metadata)

    def get_embeddings(self, name: str, ids: Sequence[str]) -> dict[str, np.ndarray]:
        got = self._get(name).get(ids=list(ids), include=["embeddings"])
        return {i: np.asarray(e, dtype=np.float32) for i, e in zip(got["ids"], got["embeddings"])}

    def query(self, name, embedding, k, where=None) -> list[tuple[str, float]]:
        if k <= 0:
            return []
        res = self._get(name).query(query_embeddings=[np.asarray(embedding, dtype=np.float32)],
                                    n_results=k, where=where or None, include=["distances"])
        return list(zip(res["ids"][0], (float(d) for d in res["distances"][0])))

    def delete(self, name: str) -> None:
        self._collections.pop(name, None)
        if name in self.collection_names():
            self._client.delete_collection(name)

    def close(self) -> None:
        self._collections.clear()
        close = getattr(self._client, "close", None)
        if close:
            close()


def open_store(settings: Settings) -> VectorStore:
    if settings.chroma_url:
        return ChromaStore.server(settings.chroma_url, timeout=settings.chroma_timeout_s)
    return ChromaStore.embedded(Path(settings.data_dir) / "index" / "chroma")


# --- BM25 ----------------------------------------------------------------------------------------

# BM25 parameters: k1 = 1.2 (Lucene's default); b = 0.5, less length normalisation than the usual 0.75
# because chunks are already short and evenly sized (b = 0.5 did better on the gold set at every k1).
BM25_K1 = 1.2
BM25_B = 0.5
# How much a word the glossary adds to a question counts in BM25, against 1 for the user's own words: an
# everyday phrase expanded to three of the law's words ("rains" -> "precipitation storm event") must not
# outweigh the question's own rare word. Measured on the four dev splits (520 questions): hit@1 451 -> 453,
# hit@5 507 -> 508, no split worse (1/n per word of a phrase: 454 / 508, one split worse).
EXPANSION_WEIGHT = 0.5


@lru_cache(maxsize=1)
def _bm25_class():
    """rank_bm25's Okapi scoring with Lucene's IDF, log(1 + (N - n + 0.5) / (n + 0.5)), always positive.
    rank_bm25's own IDF is zero for a word in half the documents and negative above that, so in a small
    municipality (a few chunks) a query could match nothing at all."""
    from rank_bm25 import BM25Okapi

    class LuceneIdfBM25(BM25Okapi):
        def __init__(self, corpus, **kwargs):
            super().__init__(corpus, **kwargs)
            # Each word's postings (documents holding it, and how often), and the length part of the
            # formula: rank_bm25 rebuilds both per query word by a Python loop over every document.
            postings: dict[str, tuple[list[int], list[int]]] = {}
            for i, freqs in enumerate(self.doc_freqs):
                for word, tf in freqs.items():
                    docs, tfs = postings.setdefault(word, ([], []))
                    docs.append(i)
                    tfs.append(tf)
            self._postings = {w: (np.array(d, dtype=np.intp), np.array(f, dtype=np.int64)) for w, (d, f) in postings.items()}
            self._length_norm = self.k1 * (1 - self.b + self.b * np.array(self.doc_len) / self.avgdl)

        def _calc_idf(self, nd):
            for word, freq in nd.items():
                self.idf[word] = math.log(1 + (self.corpus_size - freq + 0.5) / (freq + 0.5))

        def get_scores(self, query):
            """rank_bm25's scores, bit for bit (the same float64 operations on each document that holds a
            word; a document without it gained exactly 0 there), computed over the word's postings only."""
            score = np.zeros(self.corpus_size)
            for q in query:
                found = self._postings.get(q)
                if found is None:
                    continue
                docs, tf = found
                score[docs] += (self.idf.get(q) or 0) * (tf * (self.k1 + 1) / (tf + self._length_norm[docs]))
            return score

    return LuceneIdfBM25


class BM25Search:
    """rank_bm25 over chunk texts. The municipality filter (and the choice of views) is applied BEFORE
    ranking: each (municipality, views) gets its own BM25 (document frequencies from those chunks only),
    built on first use and cached, so another municipality's text can neither rank nor skew the
    statistics, and views left out (short headnote questions) do not dilute the rest."""

    def __init__(self, chunks: Sequence[Chunk], cache_size: int = 64):
        self._chunks = list(chunks)
        self._cache: OrderedDict[tuple[str | None, frozenset[str] | None], tuple[Any, list[Chunk]]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def _model(self, municipality: str | None, views: frozenset[str] | None = None):
        key = (municipality, views)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        subset = [c for c in self._chunks
                  if municipality in (None, c.municipality) and (views is None or c.view in views)]
        model = _bm25_class()([tokenize(c.text) for c in subset], k1=BM25_K1, b=BM25_B) if subset else None
        with self._lock:
            self._cache[key] = (model, subset)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return model, subset

    def search(self, query: str, k: int, municipality: str | None = None,
               views: Collection[str] | None = None, extra: Sequence[str] = ()) -> list[tuple[Chunk, float]]:
        """Up to k (chunk, BM25 score) pairs with a score above 0, best first; `views` None: all views.
        `extra`: words added to the query (a glossary's expansions), each counting EXPANSION_WEIGHT of a
        word the user wrote."""
        model, subset = self._model(municipality, None if views is None else frozenset(views))
        terms = tokenize(query)
        added = [t for words in extra for t in tokenize(words) if t not in terms]
        if model is None or not (terms or added):
            return []
        scores = model.get_scores(terms) if terms else np.zeros(len(subset))
        if added:
            scores = scores + EXPANSION_WEIGHT * model.get_scores(added)
        top = np.argsort(-scores, kind="stable")[:k]
        return [(subset[i], float(scores[i])) for i in top if scores[i] > 0]


# --- exact search in memory ------------------------------------------------------------------------

class ExactSearch:
    """Every vector of one collection in memory, rows grouped by municipality: an exact cosine search is one
    matrix-vector product over the municipality's rows (~0.1 ms for ~1,000 chunks, against ~10 ms for
    Chroma's filtered HNSW query). Distances are computed as Chroma's cosine space does (both vectors
    normalised, 1 - dot, in float32), nearest first, ties in chunk order. Read-only once built."""

    def __init__(self, chunks: Sequence[Chunk], vectors: np.ndarray):
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.shape[0] != len(chunks):
            raise ValueError(f"{vectors.shape[0]} vectors for {len(chunks)} chunks")
        self.chunks = list(chunks)
        self._views = np.array([c.view for c in self.chunks], dtype=object)
        self._all = _unit_rows(vectors)
        self._groups: dict[str | None, tuple[np.ndarray, np.ndarray]] = {None: (np.arange(len(self.chunks)), self._all)}
        for muni in sorted({c.municipality for c in self.chunks}):
            rows = np.array([i for i, c in enumerate(self.chunks) if c.municipality == muni], dtype=np.intp)
            self._groups[muni] = (rows, np.ascontiguousarray(self._all[rows]))

    def search(self, vector: np.ndarray, k: int, municipality: str | None = None,
               views: Collection[str] | None = None) -> list[tuple[Chunk, float]]:
        """Up to k (chunk, cosine distance) pairs, nearest first, of that municipality (and views) only."""
        rows, matrix = self._groups.get(municipality, (np.zeros(0, dtype=np.intp), self._all[:0]))
        if views is not None:
            keep = np.isin(self._views[rows], list(views))
            rows, matrix = rows[keep], matrix[keep]
        if k <= 0 or not len(rows):
            return []
        query = _unit_rows(np.asarray(vector, dtype=np.float32).reshape(1, -1))[0]
        # einsum, not `matrix @ query`: BLAS's threads wait for the CPU while torch's (which just embedded the
        # query) still spin, and the product then takes ~3 ms instead of ~0.1 ms.
        distances = np.float32(1.0) - np.einsum("ij,j->i", matrix, query)
        order = np.argsort(distances, kind="stable")[:k]
        return [(self.chunks[rows[i]], float(distances[i])) for i in order]


def _unit_rows(m: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length in float32, as Chroma's cosine space stores them (hnswlib's normalize)."""
    norms = np.sqrt(np.einsum("ij,ij->i", m, m, dtype=np.float32)) + np.float32(1e-30)
    return (m / norms[:, None]).astype(np.float32, copy=False)


# --- the index ----------------------------------------------------------------------------------


class IndexStatus(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    action: Literal["reused", "built", "rebuilt"]
    reason: str
    backend: Literal["embedded", "server"]
    location: str
    collection: str
    chunks: int
    seconds: float
    model: str


_HNSW_HEADER = struct.Struct("<iQQQQQQiIQQQdQ")  # chroma's hnswlib header.bin (100 bytes)


def hnsw_damage(chroma_dir: Path) -> str | None:
    """What is wrong with an embedded Chroma's vector segment files, read without opening Chroma (whose native
    code aborts the process on a truncated segment), or None. The header says how many vectors the segment
    holds and how large each is; the data files must have exactly those sizes."""
    for header in sorted(Path(chroma_dir).glob("*/header.bin")):
        seg = header.parent
        raw = header.read_bytes()
        if len(raw) != _HNSW_HEADER.size:
            return f"{header} has {len(raw)} bytes, not {_HNSW_HEADER.size}"
        _, _, max_elements, count, per_element, *_ = _HNSW_HEADER.unpack(raw)
        if not 0 <= count <= max_elements < 1 << 40 or not 0 < per_element < 1 << 20:
            return f"{header} holds impossible sizes"
        for name, size in (("data_level0.bin", count * per_element), ("length.bin", 4 * count)):
            f = seg / name
            if not f.is_file() or f.stat().st_size != size:
                return f"{f} is missing or not {size} bytes"
    return None


class Index:
    """Chunks of a corpus, their vectors in a VectorStore, and BM25 over the same chunks.

    Everything is lazy: constructing it chunks the corpus (a few ms) and computes the key; the store
    is opened, checked and if need be built on first use or by `ensure()`.
    """

    def __init__(self, corpus: Corpus | None = None, *, embedder: Embedder | None = None,
                 settings: Settings | None = None, store: VectorStore | None = None):
        self.settings = settings or get_settings()
        if corpus is None:
            from codeassist.corpus import load_corpus

            corpus = load_corpus(self.settings.corpus_dir)
        if embedder is None:
            from codeassist.embedding import default_embedder

            embedder = default_embedder()
        self.corpus = corpus
        self.embedder = embedder
        self.chunks: list[Chunk] = chunk_provisions(corpus, self.settings.chunk_max_words)
        self.chunk_by_id = {c.id: c for c in self.chunks}
        self.key = index_key(self.chunks, embedder.model_id, corpus.fingerprint(), self.settings.chunk_max_words)
        self.collection = collection_name(self.settings.collection_prefix, self.key)
        self.bm25 = BM25Search(self.chunks)
        self._store = store
        self._own_store = store is None
        self.kind: Literal["embedded", "server"] = (
            store.kind if store is not None else ("server" if self.settings.chroma_url else "embedded"))
        self._embedded_path = (Path(store.location) if store is not None and store.kind == "embedded"
                               else self.index_dir / "chroma")
        self._ready = False
        self._damaged = False  # set when the stored index could not be read; ensure() deletes it under the lock
        self._lock = threading.RLock()
        self._exact: ExactSearch | None = None  # the collection's vectors in memory, loaded on first dense()
        self._exact_failed = False  # loading them failed: Chroma answers until the index is ensured again

    @property
    def index_dir(self) -> Path:
        return Path(self.settings.data_dir) / "index"

    @property
    def manifest_path(self) -> Path:
        return self.index_dir / "manifest.json"

    @property
    def location(self) -> str:
        if self._store is not None:
            return self._store.location
        return self.settings.chroma_url if self.kind == "server" else str(self._embedded_path)

    @property
    def store(self) -> VectorStore:
        if self._store is None:
            self._store = (ChromaStore.embedded(self._embedded_path) if self.kind == "embedded"
                           else open_store(self.settings))
        return self._store

    # --- readiness ---
    def ensure(self, rebuild: bool = False) -> IndexStatus:
        """Make the index servable: reuse it if valid, else (or when `rebuild`) build it."""
        with self._lock:
            t0 = time.perf_counter()
            reason = "rebuild requested" if rebuild else self._problem()
            if reason is not None:
                with self._build_lock():
                    # Checked again under the lock: another process may have built it while we waited, and
                    # what looked damaged may have been its build in progress. Only now is anything deleted.
                    self._damaged = False
                    again = None if rebuild else self._problem(quiet=True)
                    if not rebuild and again is None:
                        self._ready = True
                        self._forget_exact()
                        return self._status("reused", "built by another process", t0)
                    # What the second look found is the reason: an error met while another process was
                    # creating the store ("table collections already exists") is not damage once it is gone.
                    reason = reason if rebuild else again
                    if self.kind == "embedded" and (rebuild or self._damaged):
                        self._wipe_embedded()
                    self._build(reason)
            self._ready = True
            if reason is not None:  # (re)built, here or by another process: vectors in memory are stale
                self._forget_exact()
            action = "reused" if reason is None else "built" if reason == "no index yet" else "rebuilt"
            return self._status(action, reason or "up to date", t0)

    def _status(self, action, reason, t0) -> IndexStatus:
        return IndexStatus(action=action, reason=reason, backend=self.kind, location=self.location,
                           collection=self.collection, chunks=len(self.chunks),
                           seconds=round(time.perf_counter() - t0, 3), model=self.embedder.model_id)

    def _ours(self, names: list[str]) -> list[str]:
        prefix = collection_name(self.settings.collection_prefix, "")
        return [n for n in names if n.startswith(prefix)]

    def _problem(self, quiet: bool = False) -> str | None:
        """Why the stored index cannot be served as is (logged unless quiet), or None when it can."""
        say = (lambda *a: None) if quiet else log.warning
        if self.kind == "embedded" and self._store is None:
            damage = hnsw_damage(self._embedded_path)
            if damage:  # checked before Chroma opens the files: a truncated segment crashes it natively
                return self._unreadable(IndexUnavailable(damage))
        try:
            info = self.store.info(self.collection)
            if info is None:
                if self._ours(self.store.collection_names()):
                    say("the index is stale (corpus, model or chunk settings changed); rebuilding")
                    return "stale: corpus, model or chunk settings changed"
                if self.kind == "embedded" and self.manifest_path.exists():
                    say("the index recorded in %s is missing from %s; rebuilding it", self.manifest_path, self.location)
                    return "missing: the index directory was deleted or emptied"
                if not quiet:
                    log.info("no index yet at %s; building it", self.location)
                return "no index yet"
            meta = info.metadata
            if meta.get("codeassist_key") != self.key:
                problem = "collection was built from other inputs"
            elif meta.get("complete") is not True:
                problem = "an earlier build did not finish"
            elif info.count != len(self.chunks):
                problem = f"it holds {info.count} of {len(self.chunks)} chunks"
            elif not self._self_check():
                problem = "its vectors failed a self-check"
            else:
                return None
            say("index %s at %s is not usable (%s); rebuilding", self.collection, self.location, problem)
            return problem
        except IndexUnavailable:
            raise
        except Exception as e:
            return self._unreadable(e)

    def _self_check(self) -> bool:
        """A few stored vectors must find themselves first: damaged vector segments make Chroma answer
        with too few or wrong results rather than an error. Probes are text views, whose header makes
        them unique (two provisions may share a headnote question, hence a vector)."""
        n = len(self.chunks)
        pool = [c for c in self.chunks if c.view == "text"] or self.chunks
        probes = [pool[i].id for i in sorted({0, len(pool) // 2, len(pool) - 1})] if pool else []
        vectors = self.store.get_embeddings(self.collection, probes)
        k = min(5, n)
        for pid in probes:
            if pid not in vectors:
                return False
            got = self.store.query(self.collection, vectors[pid], k)
            if len(got) != k or got[0][0] != pid:
                return False
        return True

    def _unreadable(self, error: Exception) -> str:
        if self.kind == "server":
            raise IndexUnavailable(f"Chroma server at {self.location} failed: {type(error).__name__}: {error}") from error
        log.warning("index at %s is unreadable (%s: %s); it will be deleted and rebuilt from the corpus",
                    self.location, type(error).__name__, str(error)[:200])
        self._forget_store()  # the next look opens the files afresh
        self._damaged = True  # deleted by ensure(), under the build lock
        return f"unreadable ({type(error).__name__})"

    def _wipe_embedded(self) -> None:
        location = Path(self.location)
        self._forget_store()
        try:
            if location.is_dir():
                # Searches in other threads may still be writing segment files into it: move it aside in one
                # step (a new index is built at the old path at once), then delete what was moved.
                trash = location.with_name(f"{location.name}.deleted-{os.getpid()}-{time.time_ns()}")
                os.replace(location, trash)
                shutil.rmtree(trash, ignore_errors=True)
            elif location.exists():
                location.unlink()
        except OSError as e:
            raise IndexUnavailable(f"cannot delete the damaged index at {location}: {e}") from e

    def _forget_store(self) -> None:
        """Close our Chroma client and drop chromadb's cached system for the path (a damaged one would be reused)."""
        location = Path(self.location)
        self._forget_exact()
        if self._store is not None:
            try:
                self._store.close()
            except Exception:
                pass
            self._store = None
        try:  # chromadb caches one System per path; a damaged one would be reused after the delete
            from chromadb.api.shared_system_client import SharedSystemClient

            SharedSystemClient._identifier_to_system.pop(str(location), None)
            SharedSystemClient._identifier_to_refcount.pop(str(location), None)
        except Exception:  # pragma: no cover - private API moved
            pass

    @contextmanager
    def _build_lock(self) -> Iterator[None]:
        from filelock import FileLock, Timeout

        try:
            self.index_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise IndexUnavailable(f"cannot create the index folder {self.index_dir}: {e}; "
                                   "set CODEASSIST_DATA_DIR to a writable folder") from e
        lock = FileLock(str(self.index_dir / "build.lock"))
        try:
            lock.acquire(timeout=0)
        except Timeout:
            wait = self.settings.index_lock_timeout_s
            log.warning("another process is building the index; waiting for it (up to %.0f s)", wait)
            try:
                lock.acquire(timeout=wait)
            except Timeout as e:
                raise IndexUnavailable(f"another process has held the index build lock {lock.lock_file} for "
                                       f"over {wait:.0f} s; if no build is running, delete that file") from e
        try:
            yield
        finally:
            lock.release()

    def _build(self, reason: str) -> None:
        n = len(self.chunks)
        log.info("building index %s: %d chunks with %s (%s)", self.collection, n, self.embedder.model_id, reason)
        t0 = time.perf_counter()
        manifest: dict[str, Any] = {
            "codeassist_key": self.key, "format": INDEX_FORMAT, "chunker": CHUNKER_VERSION,
            "model": self.embedder.model_id, "corpus_fingerprint": self.corpus.fingerprint(),
            "chunk_max_words": self.settings.chunk_max_words, "chunks": n, "complete": False,
        }
        vectors = self._embed_all()  # before touching the store: a failed embedding leaves the old index
        for attempt in (1, 2):
            try:
                self._fill(manifest, vectors)
                manifest.update(complete=True, built_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                                build_seconds=round(time.perf_counter() - t0, 2))
                self.store.update_metadata(self.collection, manifest)  # only now is it servable
                for name in self._ours(self.store.collection_names()):
                    if name != self.collection:
                        self.store.delete(name)  # stale: built from other inputs
                break
            except IndexUnavailable:
                raise
            except Exception as e:
                if self.kind == "embedded" and attempt == 1:
                    log.warning("writing the index at %s failed (%s: %s); deleting it and trying again",
                                self.location, type(e).__name__, e)
                    self._wipe_embedded()
                    manifest["complete"] = False
                    continue
                raise IndexUnavailable(f"building the index in {self.kind} Chroma at {self.location} "
                                       f"failed: {type(e).__name__}: {e}") from e
        self._write_manifest({**manifest, "collection": self.collection, "backend": self.kind,
                              "location": self.location})
        log.info("index %s built in %.1f s", self.collection, time.perf_counter() - t0)

    def _embed_all(self) -> np.ndarray:
        from tqdm import tqdm

        batch = max(1, self.settings.embedding_batch_size)
        # Similar lengths batched together pad less: nearly half the model time on this corpus (25 -> 14 s CPU).
        order = sorted(range(len(self.chunks)), key=lambda i: len(self.chunks[i].text))
        vectors = np.zeros((len(self.chunks), self.embedder.dim), dtype=np.float32)
        # disable=None: the bar shows on a terminal only, so logs and pipes stay clean.
        with tqdm(total=len(self.chunks), desc="Embedding provisions", unit="chunk", disable=None,
                  leave=False) as bar:
            for start in range(0, len(order), batch):
                rows = order[start:start + batch]
                vectors[rows] = self.embedder.embed_documents([self.chunks[i].text for i in rows])
                bar.update(len(rows))
        return vectors

    def _fill(self, manifest: dict[str, Any], vectors: np.ndarray) -> None:
        store = self.store
        store.create(self.collection, manifest)  # "complete": False until every vector is in
        step = 1000  # well under Chroma's maximum batch size
        for i in range(0, len(self.chunks), step):
            part = self.chunks[i:i + step]
            store.add(self.collection, [c.id for c in part], vectors[i:i + step], [c.text for c in part],
                      [{"municipality": c.municipality, "provision_id": c.provision_id, "view": c.view}
                       for c in part])

    def _write_manifest(self, manifest: dict) -> None:
        """A human-readable record of the last build; the authoritative copy is the collection metadata."""
        try:
            tmp = self.manifest_path.with_suffix(f".tmp{os.getpid()}")
            tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            os.replace(tmp, self.manifest_path)
        except OSError as e:
            log.warning("could not write %s: %s", self.manifest_path, e)

    # --- queries ---
    def dense(self, vector: np.ndarray, k: int, municipality: str | None = None,
              views: Collection[str] | None = None) -> list[tuple[Chunk, float]]:
        """Nearest chunks to a query vector as (chunk, cosine similarity), filtered by municipality (and,
        when given, to those views) first."""
        if not self._ready:
            self.ensure()
        views = None if views is None or set(views) >= {c.view for c in self.chunks} else set(views)
        exact = self._exact_search()
        if exact is not None:
            return [(c, 1.0 - d) for c, d in exact.search(vector, k, municipality, views)]
        filters: list[dict[str, Any]] = [{"municipality": municipality}] if municipality else []
        if views is not None:
            filters.append({"view": {"$in": sorted(views)}})
        where = filters[0] if len(filters) == 1 else {"$and": filters} if filters else None
        try:
            got = self.store.query(self.collection, vector, k, where)
        except Exception as e:
            self._ready = False  # check (and if need be rebuild) before the next query
            raise IndexUnavailable(f"vector search in {self.kind} Chroma at {self.location} failed: "
                                   f"{type(e).__name__}: {e}") from e
        return [(self.chunk_by_id[i], 1.0 - d) for i, d in got if i in self.chunk_by_id]

    def _exact_search(self) -> ExactSearch | None:
        """The collection's vectors in memory (an embedded index under EXACT_SEARCH_MAX_CHUNKS), read from
        Chroma once after the index is ensured; None: query Chroma."""
        if self.kind != "embedded" or len(self.chunks) > EXACT_SEARCH_MAX_CHUNKS:
            return None
        if self._exact is None and not self._exact_failed:
            with self._lock:
                if self._exact is None and not self._exact_failed:
                    try:
                        stored = self.store.get_embeddings(self.collection, [c.id for c in self.chunks])
                        missing = [c.id for c in self.chunks if c.id not in stored]
                        if missing:
                            raise ValueError(f"{len(missing)} chunk vectors missing, e.g. {missing[0]}")
                        self._exact = ExactSearch(self.chunks, np.stack([stored[c.id] for c in self.chunks]))
                    except Exception as e:
                        log.warning("cannot hold the index's vectors in memory (%s: %s); searching with Chroma",
                                    type(e).__name__, str(e)[:200])
                        self._exact_failed = True
        return self._exact

    def _forget_exact(self) -> None:
        self._exact, self._exact_failed = None, False

    def lexical(self, query: str, k: int, municipality: str | None = None,
                views: Collection[str] | None = None, extra: Sequence[str] = ()) -> list[tuple[Chunk, float]]:
        """BM25 over the municipality's chunks only (of those views, when given); `extra` words count less."""
        return self.bm25.search(query, k, municipality, views, extra)

    def close(self) -> None:
        if self._store is not None and self._own_store:
            self._store.close()
            self._store = None
        self._ready = False
        self._forget_exact()
