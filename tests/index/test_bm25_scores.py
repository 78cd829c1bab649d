"""BM25 scores from postings (lexical._bm25_class) are rank_bm25's own, bit for bit, on the real corpus."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from codeassist.embedding import HashingEmbedder
from codeassist.index import Index
from codeassist.settings import Settings
from codeassist.text import tokenize

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("municipality, views", [("hempstead", frozenset({"text", "questions"})),
                                                 ("tuckahoe", frozenset({"text", "questions"})), (None, None)])
def test_scores_equal_rank_bm25s_for_every_gold_question(corpus, tmp_path, municipality, views):
    index = Index(corpus, embedder=HashingEmbedder(), settings=Settings(data_dir=tmp_path))
    model, subset = index.bm25._model(municipality, views)
    questions = [json.loads(line)["question"] for line in (ROOT / "eval" / "gold.jsonl").read_text().splitlines() if line]
    for q in [*questions, "", "zzzz unknownword", "plan plan plan"]:
        terms = tokenize(q)
        assert np.array_equal(model.get_scores(terms), BM25Okapi.get_scores(model, terms)), q
