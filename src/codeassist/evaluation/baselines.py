"""Baseline 1: the typical langchain pipeline (RecursiveCharacterTextSplitter(1000, 200), the same
embedding model, an in-memory langchain_chroma ``Chroma``, ``similarity_search(k=4)``). Used by the
eval and the bench."""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeassist.corpus import Corpus

LANGCHAIN_K = 4
CHUNK_SIZE, CHUNK_OVERLAP = 1000, 200


class _SharedEmbeddings:
    """Our embedder (the same SentenceTransformer instance) as langchain `Embeddings`."""

    def __new__(cls, embedder):
        from langchain_core.embeddings import Embeddings

        class CodeassistEmbeddings(Embeddings):
            def embed_documents(self, texts: list[str]) -> list[list[float]]:
                return embedder.embed_documents(list(texts)).tolist()

            def embed_query(self, text: str) -> list[float]:
                return embedder.embed_query(text).tolist()

        return CodeassistEmbeddings()


class LangchainBaseline:
    """The typical langchain pipeline over the raw text files, in an in-memory Chroma collection."""

    def __init__(self, corpus: Corpus, embedder):
        import chromadb
        from chromadb.config import Settings as ChromaSettings
        from langchain_chroma import Chroma
        from langchain_core.documents import Document
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        splitter = RecursiveCharacterTextSplitter(chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP,
                                                  add_start_index=True)
        docs: list[Document] = []
        # One Document per raw text file, as TextLoader/DirectoryLoader would give (source = the path).
        for rel, text in sorted(corpus.sources.items()):
            docs.append(Document(page_content=text, metadata={"source": rel}))
        self.chunks = splitter.split_documents(docs)
        self.municipality_of = {rel: next(p.municipality for p in corpus.provisions() if p.source == rel)
                                for rel in corpus.sources}
        self.sources_of: dict[str, list[str]] = defaultdict(list)
        for rel, m in self.municipality_of.items():
            self.sources_of[m].append(rel)
        self.client = chromadb.EphemeralClient(settings=ChromaSettings(anonymized_telemetry=False))
        self.collection = f"eval-langchain-{uuid.uuid4().hex[:12]}"
        t0 = time.perf_counter()
        self.store = Chroma(collection_name=self.collection, embedding_function=_SharedEmbeddings(embedder),
                            client=self.client)
        self.store.add_documents(self.chunks, ids=[f"c{i:04d}" for i in range(len(self.chunks))])
        self.build_seconds = time.perf_counter() - t0

    def search(self, question: str, municipality: str | None = None, k: int = LANGCHAIN_K):
        where = None
        if municipality is not None:
            files = self.sources_of.get(municipality, [])
            where = {"source": files[0]} if len(files) == 1 else {"source": {"$in": files}}
        return self.store.similarity_search(question, k=k, filter=where)

    def close(self) -> None:
        try:
            self.client.delete_collection(self.collection)
        except Exception:  # pragma: no cover - cleanup only
            pass
