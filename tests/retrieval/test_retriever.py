"""The retriever end to end over the real corpus, with the fast fake embedder."""

from __future__ import annotations

import logging

import pytest

from codeassist.errors import IndexUnavailable, InvalidInput
from codeassist.models import Hit


def test_hits_are_typed_and_ranked(fast_retriever):
    hits = fast_retriever.search("stop-work order", "hempstead", k=5)
    assert 1 <= len(hits) <= 5 and all(isinstance(h, Hit) for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert all(h.retrievers and set(h.retrievers) <= {"dense", "bm25", "citation", "definition"} for h in hits)
    for h in hits:
        p = fast_retriever.corpus.get(h.id)
        assert (h.municipality, h.citation, h.heading) == (p.municipality, p.citation, p.heading)
        assert h.text and (h.text == p.text or h.text == fast_retriever.corpus.full_text(h.id))


@pytest.mark.parametrize("municipality", ["hempstead", "tuckahoe"])
def test_no_other_municipalitys_text_when_one_is_known(fast_retriever, municipality):
    for q in ["stop-work order", "penalties for violations", "Hempstead SWPPP contents", "electrical permit"]:
        for mode in ("hybrid", "dense", "bm25"):
            hits = fast_retriever.search(q, municipality, k=10, mode=mode)
            assert {h.municipality for h in hits} <= {municipality}, (q, mode)


def test_named_municipality_filters_too(fast_retriever):
    hits = fast_retriever.search("stop-work order in the Village", k=10)
    assert hits and {h.municipality for h in hits} == {"tuckahoe"}


def test_a_typed_citation_comes_first(fast_retriever):
    hits = fast_retriever.search("I need the wording of 7B-6(c)")
    assert hits[0].id == "tuckahoe:7B-6(c)" and hits[0].retrievers == ("citation",) and hits[0].score == 1.0


def test_an_asked_definition_comes_first(fast_retriever):
    hit = fast_retriever.search("what's the definition of impervious cover?")[0]
    assert hit.id == "hempstead:390/impervious-cover" and hit.retrievers[0] == "definition"


def test_parent_and_child_are_not_both_returned_for_one_passage(fast_retriever):
    # § 391 has no text of its own: its hit shows all its parts, so none of them may follow it
    hits = fast_retriever.search("§ 391 stormwater pollution prevention plans", "hempstead", k=20)
    assert hits[0].id == "hempstead:391"
    assert not [h for h in hits[1:] if h.id.startswith("hempstead:391(")]
    for q in ["inspection milestones", "notice of violation contents", "exemptions from review"]:
        hits = fast_retriever.search(q, k=20)
        shown = {h.id: h for h in hits}
        for h in hits:
            for anc in fast_retriever.corpus.ancestors(h.id):
                if anc.id in shown:
                    assert h.text not in shown[anc.id].text, (q, h.id, anc.id)


def test_modes_use_one_retriever_each(fast_retriever):
    dense = fast_retriever.search("maintenance agreement", "hempstead", mode="dense")
    bm25 = fast_retriever.search("maintenance agreement", "hempstead", mode="bm25")
    assert {r for h in dense for r in h.retrievers} == {"dense"} and all(-1 <= h.score <= 1 for h in dense)
    assert {r for h in bm25 for r in h.retrievers} == {"bm25"}
    with pytest.raises(InvalidInput, match="known: hybrid, dense, bm25"):
        fast_retriever.search("x", mode="magic")


@pytest.mark.parametrize("k", [0, -1, 101, 2.5, "5"])
def test_k_is_validated(fast_retriever, k):
    with pytest.raises(InvalidInput):
        fast_retriever.search("fees", k=k)


def test_vector_store_failure_falls_back_to_bm25(fast_retriever, monkeypatch, caplog):
    def down(*a, **kw):
        raise IndexUnavailable("Chroma server at http://127.0.0.1:1 failed")

    monkeypatch.setattr(fast_retriever.index, "dense", down)
    with caplog.at_level(logging.WARNING, logger="codeassist.retrieval"):
        hits = fast_retriever.search("stop-work order", "tuckahoe")
    assert hits and all(h.retrievers == ("bm25",) for h in hits)
    assert "BM25 alone" in caplog.text
    with pytest.raises(IndexUnavailable):
        fast_retriever.search("stop-work order", "tuckahoe", mode="dense")


def test_langchain_adapter(fast_retriever):
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever

    from codeassist.retrieval import CodeassistRetriever

    lc = fast_retriever.as_langchain(municipality="tuckahoe", k=3)
    assert isinstance(lc, BaseRetriever) and isinstance(lc, CodeassistRetriever)
    docs = lc.invoke("stop-work order")
    assert 1 <= len(docs) <= 3 and all(isinstance(d, Document) for d in docs)
    hits = fast_retriever.search("stop-work order", "tuckahoe", k=3)
    assert [d.id for d in docs] == [h.id for h in hits]
    assert docs[0].page_content == hits[0].text
    assert docs[0].metadata["citation"] == hits[0].citation and docs[0].metadata["municipality"] == "tuckahoe"


def test_importing_retrieval_does_not_import_heavy_libraries():
    import subprocess
    import sys

    code = ("import sys, codeassist.retrieval; "
            "print(sorted(m for m in ('torch', 'chromadb', 'langchain_core', 'sentence_transformers', 'rank_bm25') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_hit_names_the_view_that_matched_closest(fast_retriever):
    note = fast_retriever.corpus.headnote("tuckahoe:7-5(b)")
    asked = note.no[0]
    hit = fast_retriever.search(asked, "tuckahoe", k=3)[0]
    assert hit.id == "tuckahoe:7-5(b)"
    assert (hit.view, hit.view_text) == ("no", asked) and hit.view_similarity == pytest.approx(1.0)
    text_hit = fast_retriever.search("fines and penalties for violations of the electrical code", "tuckahoe",
                                     k=5, mode="bm25")
    assert all(h.view and h.view_text and h.view_similarity is None for h in text_hit)  # BM25 has no cosine
    for h in fast_retriever.search("maintenance agreement", "hempstead", k=5):
        assert h.view in {"text", "heading", "summary", "questions", "question", "yes", "no"}
        chunks = [c for c in fast_retriever.index.chunks if c.provision_id == h.id and c.view == h.view]
        assert h.view_text in {c.view_text for c in chunks}
        if h.view_similarity is not None:
            assert -1.0 <= h.view_similarity <= 1.0


def test_headnote_wording_does_not_outrank_a_precise_text_match(fast_retriever):
    # The defined term's own words, not asked as a definition: the definition still comes first.
    hit = fast_retriever.search("surfaces, improvements and structures that cannot effectively infiltrate rainfall",
                                "hempstead", k=1)[0]
    assert hit.id == "hempstead:390/impervious-cover"


def test_no_text_passage_among_the_closest_views_is_zero_similarity_not_no_search(fast_retriever, monkeypatch):
    # None means the vector search did not run (the answer layer then judges on BM25 coverage alone); a search
    # whose closest views are all headnote wording found the law's own text no closer than those.
    dense = fast_retriever.index.dense
    monkeypatch.setattr(fast_retriever.index, "dense",
                        lambda *a, **kw: [(c, s) for c, s in dense(*a, **kw) if c.view != "text"])
    hits, nearest = fast_retriever.search_with_similarity("reconnect the panel the inspector disconnected", "tuckahoe")
    assert hits and nearest == 0.0
    monkeypatch.setattr(fast_retriever.index, "dense", lambda *a, **kw: [])
    assert fast_retriever.search_with_similarity("reconnect the panel", "tuckahoe")[1] is None
