"""Deterministic stand-ins for the hybrid retriever that go through the answer layer's real path: they
implement the whole `answer.SearchBackend` protocol (a plan in, hits out), so the production code that
takes a plan is what the fast tests exercise. A subclass supplies `search(query, municipality, k)`."""

from __future__ import annotations

from codeassist.models import Hit


class PlanSearch:
    corpus = None

    def search(self, query, municipality=None, k=5) -> list[Hit]:  # pragma: no cover - supplied by subclasses
        raise NotImplementedError

    def search_plan(self, plan, k: int = 5) -> list[Hit]:
        """Citations typed in the question and asked-about definitions first, as the real Retriever pins them."""
        pinned = [self.corpus.get(pid) for pid in (*plan.citations, *plan.asked_definitions)]
        hits = [Hit(id=p.id, municipality=p.municipality, citation=p.citation, heading=p.heading, text=p.text,
                    score=1.0, retrievers=("citation",)) for p in pinned
                if p is not None and (plan.municipality is None or p.municipality == plan.municipality)]
        rest = [h for h in self.search(plan.expanded, plan.municipality, k) if h.id not in {x.id for x in hits}]
        return (hits + rest)[:k]

    def search_plan_with_similarity(self, plan, k: int = 5) -> tuple[list[Hit], float | None]:
        return self.search_plan(plan, k), None  # a lexical stand-in has no cosine similarity to report
