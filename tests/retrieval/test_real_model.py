"""With the real model and a real embedded index: the right provision for gold questions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codeassist.retrieval import Retriever

pytestmark = pytest.mark.slow

GOLD = Path(__file__).resolve().parents[2] / "eval" / "gold.jsonl"

# A spread of the gold set: residents, contractors and staff; both municipalities; named in the text,
# chosen by the caller, or neither; definitions and typed citations.
SAMPLE = ["q001", "q007", "q013", "q016", "q022", "q026", "q037", "q040", "q043", "q049", "q054", "q055",
          "q061", "q062", "q066", "q073", "q081", "q084", "q090", "q097", "q099", "q102", "q105"]


def _gold() -> dict[str, dict]:
    return {row["id"]: row for row in map(json.loads, GOLD.read_text(encoding="utf-8").splitlines()) if row}


@pytest.mark.parametrize("qid", SAMPLE)
def test_finds_the_gold_provision_in_the_top_five(real_retriever, qid):
    row = _gold()[qid]
    hits = real_retriever.search(row["question"], row["municipality"], k=5)
    assert set(row["gold"]) & {h.id for h in hits}, (row["question"], row["gold"], [h.id for h in hits])


def test_recall_over_the_answerable_gold_questions(real_retriever):
    rows = [r for r in _gold().values() if r["answerable"] and r["gold"]]
    ranks = []
    for row in rows:
        ids = [h.id for h in real_retriever.search(row["question"], row["municipality"], k=5)]
        ranks.append(next((i for i, x in enumerate(ids, 1) if x in set(row["gold"])), None))
    recall1 = sum(r == 1 for r in ranks) / len(ranks)
    recall5 = sum(r is not None for r in ranks) / len(ranks)
    # Measured 0.74 / 0.92 when written, 0.87 / 0.97 with headnote views; these floors catch a
    # regression, the eval reports the truth.
    assert recall1 >= 0.82 and recall5 >= 0.94, (recall1, recall5)


def test_wrong_municipality_never_when_the_caller_chooses(real_retriever):
    for row in _gold().values():
        if row["municipality"]:
            hits = real_retriever.search(row["question"], row["municipality"], k=5)
            assert {h.municipality for h in hits} <= {row["municipality"]}, row["id"]


def test_chunks_fit_the_models_window(real_retriever):
    model = real_retriever.embedder.load()
    limit = model.max_seq_length
    too_long = []
    for c in real_retriever.index.chunks:
        n = len(model.tokenizer(c.text, truncation=False)["input_ids"])
        if n > limit:
            too_long.append((c.id, n))
    # One 172-word chunk of dense legal text runs 2 word pieces over; it loses its last word or so.
    assert all(n <= limit + 8 for _, n in too_long) and len(too_long) <= 2, too_long


def test_dense_scores_are_cosine_similarities(real_retriever):
    hits = real_retriever.search("stop-work order", "tuckahoe", mode="dense")
    assert all(0.0 < h.score <= 1.0 for h in hits)


def test_a_question_only_a_headnote_question_matches_finds_its_provision(real_retriever):
    # § 7-5(b) says the application "shall be made in writing"; nothing in the text is
    # near "call in ... over the phone", but its headnote asks "Can an electrical permit application
    # be made just by phone or verbally?" (answered no).
    question = "can I phone in my electrical permit request"
    text_only = Retriever(real_retriever.corpus, real_retriever.index, settings=real_retriever.settings)
    text_only.view_weights = {"dense": {"text": 1.0}, "bm25": {"text": 1.0}}
    assert text_only.search(question, "tuckahoe", k=1)[0].id != "tuckahoe:7-5(b)"
    for mode in ("hybrid", "dense"):
        hit = real_retriever.search(question, "tuckahoe", k=1, mode=mode)[0]
        assert hit.id == "tuckahoe:7-5(b)", mode
        assert hit.view == "no" and hit.view_text in real_retriever.corpus.headnote(hit.id).no
        assert hit.view_similarity > 0.6


def test_a_definition_question_still_gets_the_definition(real_retriever):
    for question in ["what is impervious cover", "impervious cover meaning"]:
        assert real_retriever.search(question, "hempstead", k=1)[0].id == "hempstead:390/impervious-cover"


def test_exact_vector_search_ranks_as_chroma_does_on_the_real_index(real_retriever):
    """The embedded index answers dense queries from its vectors in memory (index.ExactSearch). On every gold
    question, per municipality, down to the 150 views a search asks for: never a farther neighbour than Chroma's
    at any rank, and every view Chroma returns at the distance Chroma gives it. Chroma's HNSW is approximate: a
    fresh build (CI's clean clone) once left out a view at rank 6 that the exact search has, so the two lists
    agree in order only where Chroma found every nearer view; over all the gold questions, Chroma's top 30
    holds at least 97% of the exact top 30."""
    index = real_retriever.index
    assert index._exact_search() is not None
    found = total = 0
    for row in _gold().values():
        plan = real_retriever.understand(row["question"], row["municipality"])
        vec = real_retriever.embedder.embed_query(plan.expanded)
        for muni in [plan.municipality] if plan.municipality else sorted(real_retriever.corpus.municipalities):
            got = index.dense(vec, 150, muni)
            want = index.store.query(index.collection, vec, 150, {"municipality": muni})
            assert len(got) == len(want)
            assert all(1 - s <= d + 1e-5 for (_, s), (_, d) in zip(got, want)), row["id"]
            exact = {c.id: 1 - s for c, s in got}
            assert all(i not in exact or exact[i] == pytest.approx(d, abs=1e-5) for i, d in want), row["id"]
            top = {c.id for c, _ in got[:30]}
            found += len(top & {i for i, _ in want[:30]})
            total += len(top)
    assert found / total >= 0.97


def test_query_vectors_are_those_of_sentence_transformers_encode(real_retriever):
    """Queries skip `encode`'s per-call checks (embedding._encode_one) only because the vectors are the same,
    bit for bit; the embedder checks this when it loads the model."""
    import numpy as np

    embedder = real_retriever.embedder
    model = embedder.load()
    assert embedder._lean
    for row in _gold().values():
        embedder.clear_query_cache()
        want = model.encode(row["question"], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        assert np.array_equal(embedder.embed_query(row["question"]), np.asarray(want, dtype=np.float32)), row["id"]


def test_a_two_part_questions_verdicts_come_from_its_yes_no_part(real_retriever):
    # The yes/no headnote question closest to "Can the officer hire an outside engineer?" is the same whether or
    # not a second, wh- question follows it: the verdict is looked up for the yes/no part alone.
    planner = real_retriever.planner
    both = planner.build("Can the stormwater officer hand plan review off to an outside engineering firm? "
                         "And who sets what that costs?", "hempstead")
    alone = planner.build("Can the stormwater officer hand plan review off to an outside engineering firm?", "hempstead")
    assert both.verdict_query == alone.query
    verdicts = {h.id: (h.yes_no_text, h.yes_no_similarity) for h in real_retriever.search_plan(both, k=5)}
    verdicts_alone = {h.id: (h.yes_no_text, h.yes_no_similarity) for h in real_retriever.search_plan(alone, k=5)}
    shared = set(verdicts) & set(verdicts_alone)
    assert shared and all(verdicts[pid] == verdicts_alone[pid] for pid in shared)


def test_the_law_a_question_names_by_its_topic_words_ranks_first(real_retriever):
    # Tuckahoe holds two laws with a continuing-violation rule: § 7-14 (electrical, each day) and § 7B-8(d)
    # (erosion, each week). The law the question names decides which one answers.
    electrical = real_retriever.search("electrical violation goes on for weeks - counted once or per day?", "tuckahoe", k=3)
    assert electrical[0].id == "tuckahoe:7-14"
    erosion = real_retriever.search("does the erosion chapter count each week of an ongoing violation as a new "
                                    "offense?", "tuckahoe", k=3)
    assert erosion[0].id == "tuckahoe:7B-8(d)"
