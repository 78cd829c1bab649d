"""Where the vectors live: the storage protocol, its Chroma backends (embedded or a server) and the exact
in-memory search over an embedded collection's vectors. The only module that imports chromadb (lazily, on
first use; ~1 s).

One protocol, one contract suite (tests/index/test_vector_store_contract.py) run against both backends.
"""

from __future__ import annotations

import logging
import struct
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable
from urllib.parse import urlparse

import numpy as np
from pydantic import BaseModel, ConfigDict

from codeassist.chunking import Chunk
from codeassist.errors import IndexUnavailable
from codeassist.settings import Settings

log = logging.getLogger(__name__)


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
