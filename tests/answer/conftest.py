import pytest

from codeassist.api import Assistant
from codeassist.compose import Scorer
from codeassist.models import Hit


class LexicalBackend:
    """A deterministic stand-in for the hybrid retriever (IDF overlap), so routing and composition tests
    run without the model. The real retriever runs in the slow tests and the eval."""

    def __init__(self, corpus):
        self.corpus = corpus
        self.scorer = Scorer(corpus)

    def search(self, query, municipality=None, k=5):
        ps = [p for p in self.corpus.provisions(municipality) if p.text]
        ps.sort(key=lambda p: -self.scorer.coverage(query, p.text + " " + p.heading))
        return [Hit(id=p.id, municipality=p.municipality, citation=p.citation, heading=p.heading, text=p.text,
                    score=1.0, retrievers=("lexical",)) for p in ps[:k]]

    # The rest of the protocol the answer layer calls (answer.SearchBackend), as the real Retriever does:
    # a plan in, hits out; a lexical stand-in has no cosine similarity to report.
    def search_plan(self, plan, k=5):
        pinned = [self.corpus.get(pid) for pid in (*plan.citations, *plan.asked_definitions)]
        hits = [Hit(id=p.id, municipality=p.municipality, citation=p.citation, heading=p.heading, text=p.text,
                    score=1.0, retrievers=("citation",)) for p in pinned
                if p is not None and (plan.municipality is None or p.municipality == plan.municipality)]
        rest = [h for h in self.search(plan.expanded, plan.municipality, k) if h.id not in {x.id for x in hits}]
        return (hits + rest)[:k]

    def search_plan_with_similarity(self, plan, k=5):
        return self.search_plan(plan, k), None


@pytest.fixture(scope="session")
def assistant(corpus):
    return Assistant(corpus=corpus, retriever=LexicalBackend(corpus))
