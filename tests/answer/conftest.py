import pytest

from codeassist.api import Assistant
from codeassist.compose import Scorer
from codeassist.models import Hit
from fakes import PlanSearch


class LexicalBackend(PlanSearch):
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


@pytest.fixture(scope="session")
def assistant(corpus):
    return Assistant(corpus=corpus, retriever=LexicalBackend(corpus))
