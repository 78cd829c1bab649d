"""BM25 over the chunks (rank_bm25, imported lazily), with the question's own words and the glossary's
expansions weighed apart. Terms come from text.tokenize, the one tokenizer of the project."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from codeassist.chunking import Chunk
from codeassist.text import tokenize


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
