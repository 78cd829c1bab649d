"""Fusion functions are pure: known values, determinism, no mutation."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, strategies as st

from codeassist.retrieval import RRF_K, reciprocal_rank_fusion, relative_score_fusion


def test_rrf_sums_weighted_reciprocal_ranks():
    fused = reciprocal_rank_fusion({"dense": ["a", "b", "c"], "bm25": ["b", "d"]})
    scores = {i: s for i, s, _ in fused}
    assert scores["b"] == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    assert scores["a"] == pytest.approx(1 / (RRF_K + 1))
    assert [i for i, _, _ in fused] == ["b", "a", "d", "c"]
    assert dict((i, n) for i, _, n in fused)["b"] == ("dense", "bm25")


def test_rrf_weights_and_constant():
    fused = reciprocal_rank_fusion({"x": ["a"], "y": ["b"]}, k=10, weights={"x": 2.0, "y": 1.0})
    assert fused[0][0] == "a" and fused[0][1] == pytest.approx(2 / 11)


def test_rrf_counts_a_repeated_id_once_at_its_first_rank():
    fused = reciprocal_rank_fusion({"x": ["a", "a", "b"]})
    assert dict((i, s) for i, s, _ in fused) == pytest.approx({"a": 1 / (RRF_K + 1), "b": 1 / (RRF_K + 3)})


def test_rrf_ties_keep_first_appearance_order():
    assert [i for i, _, _ in reciprocal_rank_fusion({"x": ["a"], "y": ["b"]})] == ["a", "b"]


def test_relative_score_fusion_normalises_each_retriever():
    fused = relative_score_fusion({"dense": {"a": 0.9, "b": 0.5, "c": 0.1}, "bm25": {"b": 12.0, "d": 2.0}},
                                  weights={"dense": 0.3, "bm25": 0.7})
    scores = {i: s for i, s, _ in fused}
    assert scores == pytest.approx({"a": 0.3, "b": 0.3 * 0.5 + 0.7, "c": 0.0, "d": 0.0})
    assert fused[0][0] == "b" and fused[0][2] == ("dense", "bm25")


def test_relative_score_fusion_lone_candidate_and_empty_lists():
    assert relative_score_fusion({"bm25": {"a": 3.0}, "dense": {}}) == [("a", 1.0, ("bm25",))]
    assert relative_score_fusion({}) == []


ids = st.lists(st.sampled_from("abcdefgh"), max_size=8)


@given(st.dictionaries(st.sampled_from(["dense", "bm25", "x"]), ids, max_size=3))
def test_rrf_is_pure_and_returns_each_id_once(rankings):
    before = copy.deepcopy(rankings)
    fused = reciprocal_rank_fusion(rankings)
    assert rankings == before
    out = [i for i, _, _ in fused]
    assert sorted(out) == sorted({i for r in rankings.values() for i in r})
    assert [s for _, s, _ in fused] == sorted((s for _, s, _ in fused), reverse=True)
    assert fused == reciprocal_rank_fusion(rankings)


@given(st.dictionaries(st.sampled_from(["dense", "bm25"]),
                       st.dictionaries(st.sampled_from("abcdefgh"), st.floats(-5, 50), max_size=8), max_size=2))
def test_score_fusion_is_pure_bounded_and_complete(scores):
    before = copy.deepcopy(scores)
    fused = relative_score_fusion(scores, weights={"dense": 0.3, "bm25": 0.7})
    assert scores == before
    assert sorted(i for i, _, _ in fused) == sorted({i for c in scores.values() for i in c})
    assert all(-1e-9 <= s <= 1 + 1e-9 for _, s, _ in fused)
