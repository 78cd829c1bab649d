"""Fusion functions are pure: known values, determinism, no mutation."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, strategies as st

from codeassist.chunking import Chunk
from codeassist.retrieval import RRF_K, _best, _closest, _rivals, reciprocal_rank_fusion, relative_score_fusion


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


# --- a provision's score from its views -------------------------------------------------------------

def _chunk(pid: str, view: str, n: int = 0) -> Chunk:
    return Chunk(id=f"{pid}#{view}-{n}", provision_id=pid, municipality="hempstead", text=f"{view} {n}", view=view)


def test_a_provision_scores_its_best_weighted_view():
    found = [(_chunk("a", "question"), 0.9), (_chunk("b", "text"), 0.8), (_chunk("a", "text"), 0.5),
             (_chunk("c", "summary"), 0.85)]
    weights = {"text": 1.0, "question": 0.8, "summary": 1.0}
    assert _best(found, weights) == pytest.approx({"c": 0.85, "b": 0.8, "a": 0.72})
    assert list(_best(found, weights)) == ["c", "b", "a"]
    assert list(_best(found, weights, depth=2)) == ["c", "b"]
    assert _best(found, {"text": 1.0}) == {"b": 0.8, "a": 0.5}  # a view without a weight does not count
    assert _best(found) == {"a": 0.9, "c": 0.85, "b": 0.8}


def test_views_per_provision_ties_keep_first_appearance():
    found = [(_chunk("b", "text"), 1.0), (_chunk("a", "question"), 2.0)]
    assert list(_best(found, {"text": 1.0, "question": 0.5})) == ["b", "a"]


def test_the_closest_view_prefers_one_question_to_the_joined_questions():
    found = [(_chunk("a", "questions"), 0.9), (_chunk("a", "yes"), 0.7), (_chunk("a", "question", 1), 0.75),
             (_chunk("b", "questions"), 0.6), (_chunk("c", "text"), 0.5), (_chunk("c", "summary"), 0.55)]
    closest = _closest(found)
    assert {pid: (c.view, s) for pid, (c, s) in closest.items()} == {
        "a": ("question", 0.75), "b": ("questions", 0.6), "c": ("summary", 0.55)}


def test_the_rival_is_the_closest_headnote_question_with_the_other_answer():
    found = [(_chunk("a", "yes", 1), 0.7), (_chunk("a", "no", 2), 0.5), (_chunk("a", "no", 3), 0.6),
             (_chunk("a", "text"), 0.9), (_chunk("b", "no", 1), 0.8), (_chunk("c", "question", 1), 0.4)]
    verdicts = _closest(found, kinds=("yes", "no"))
    no_3 = _chunk("a", "no", 3).view_text
    assert _rivals(found, verdicts) == {"a": (0.6, no_3)}  # b has no "yes" question among the candidates; c none
    # b's headnote has "yes" questions too, none among the views searched: they are no closer than the farthest
    assert _rivals(found, verdicts, lambda pid: pid in ("a", "b")) == {"a": (0.6, no_3), "b": (0.4, None)}


view_names = st.sampled_from(["text", "heading", "summary", "questions", "question", "yes", "no"])
found_lists = st.lists(st.tuples(st.sampled_from("abcde"), view_names, st.floats(-1, 30, allow_nan=False)), max_size=20)


@given(found_lists, st.dictionaries(view_names, st.floats(0, 2, allow_nan=False)))
def test_view_fusion_is_pure_and_deterministic(rows, weights):
    found = [(_chunk(pid, view, i), score) for i, (pid, view, score) in enumerate(rows)]
    before = copy.deepcopy(found), copy.deepcopy(weights)
    best, closest = _best(found, weights), _closest(found)
    assert (found, weights) == before
    assert best == _best(found, weights) and list(best) == list(_best(found, weights))
    assert closest == _closest(found)
    assert list(best.values()) == sorted(best.values(), reverse=True)
    assert set(best) <= set(closest) == {pid for pid, _, _ in rows}
    for pid, score in best.items():
        assert score == max(weights.get(v, 0) * s for p, v, s in rows if p == pid and weights.get(v, 0) > 0)


def test_discounts_scale_a_provisions_headnote_views_not_its_text():
    found = [(_chunk("sec", "question"), 0.9), (_chunk("part", "text"), 0.8), (_chunk("sec", "text"), 0.3)]
    weights = {"text": 1.0, "question": 1.0}
    assert list(_best(found, weights)) == ["sec", "part"]
    assert _best(found, weights, discounts={"sec": 0.5}) == pytest.approx({"part": 0.8, "sec": 0.45})
    assert _best([(_chunk("sec", "text"), 0.3)], weights, discounts={"sec": 0.5}) == {"sec": 0.3}


def _verdict(pid: str, sim: float) -> tuple[Chunk, float]:
    return Chunk(id=f"{pid}#yes-0", provision_id=pid, municipality="hempstead", text="q?", view="yes"), sim


def test_a_headnote_question_restating_a_yes_no_question_comes_into_the_top_k():
    from codeassist.retrieval import RESTATED, RESTATED_MARGIN, _restated_in
    ranked = [(p, 1.0 - i / 10, ("bm25",)) for i, p in enumerate("abcdefgh")]
    verdicts = {"a": _verdict("a", 0.60), "g": _verdict("g", RESTATED + 0.01)}
    out = _restated_in(ranked, 3, verdicts)
    assert [p for p, _, _ in out] == ["a", "b", "g", "c", "d", "e", "f", "h"]
    assert [s for _, s, _ in out][:4] == [1.0, 0.9, 0.8, 0.8] and len(out) == len(ranked)  # order stays by score
    # not when a question in the top k comes nearly as close, nor when the lower one is not close enough
    near = {"a": _verdict("a", RESTATED + 0.01 - RESTATED_MARGIN / 2), "g": verdicts["g"]}
    assert _restated_in(ranked, 3, near) == ranked
    assert _restated_in(ranked, 3, {"g": _verdict("g", RESTATED - 0.01)}) == ranked
    assert _restated_in(ranked[:2], 3, verdicts) == ranked[:2]
