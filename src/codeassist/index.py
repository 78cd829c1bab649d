"""The index: chunk vectors in Chroma (embedded or a server) plus BM25 over the same chunks.

Chunks are views of provisions (chunking.py: text, heading, headnote summary and questions); the
metadata of each records its provision, municipality and view, and both searches can be limited to
some views.

The vectors live in a store (stores.py: Chroma embedded or a server, and an exact search in memory); BM25
is lexical.py's. This module decides what to build, when to rebuild and which search answers.

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
import os
import shutil
import threading
import time
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from codeassist.chunking import CHUNKER_VERSION, Chunk, chunk_provisions
from codeassist.errors import IndexUnavailable
from codeassist.lexical import BM25Search
from codeassist.stores import ChromaStore, ExactSearch, VectorStore, hnsw_damage, open_store
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


# An embedded index of up to this many chunks is also held in memory for exact search (ExactSearch):
# 50,000 x 384 float32 is 77 MB. Larger ones, and a server's (shared with other clients, which may
# rebuild or drop it; the server is what answers), are searched by Chroma's query.
EXACT_SEARCH_MAX_CHUNKS = 50_000


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
