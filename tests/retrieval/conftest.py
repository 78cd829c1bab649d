"""Retrievers over the real corpus: a fast one (hashing fake embedder, embedded Chroma in a temp dir)
and, for tests marked slow, the real model."""

from __future__ import annotations

import pytest

from codeassist.embedding import HashingEmbedder
from codeassist.index import Index
from codeassist.retrieval import Retriever
from codeassist.settings import Settings


@pytest.fixture(scope="session")
def fast_retriever(corpus, tmp_path_factory) -> Retriever:
    settings = Settings(data_dir=tmp_path_factory.mktemp("fast-index"))
    index = Index(corpus, embedder=HashingEmbedder(), settings=settings)
    index.ensure()
    return Retriever(corpus, index, settings=settings)


@pytest.fixture(scope="session")
def real_retriever(corpus, tmp_path_factory) -> Retriever:
    """The real model and a real embedded index, built once per session in a temp dir."""
    settings = Settings(data_dir=tmp_path_factory.mktemp("real-index"))
    retriever = Retriever(corpus, settings=settings)
    retriever.warm()
    return retriever
