"""Example questions, by who is asking, read from each municipality's corpus metadata (`examples` in
municipality.toml), so a municipality added as data brings its own. Interface copy only: the answers
come from the Assistant."""

from __future__ import annotations

from itertools import chain, zip_longest

from ..corpus import Corpus
from ..models import Example
from .resources import municipalities_with

USERS: dict[str, str] = {"resident": "Resident", "contractor": "Contractor", "staff": "Staff"}  # tab order
COMPARE_TOPIC = "stop-work orders"  # every stormwater law after the state model law has them


def compare_example(corpus: Corpus) -> str | None:
    """"Compare stop-work orders in A and B.", named from the first two municipalities with a stormwater law."""
    names = [m.short_name for m in municipalities_with(corpus, "stormwater")]
    return f"Compare {COMPARE_TOPIC} in {names[0]} and {names[1]}." if len(names) >= 2 else None


def examples(corpus: Corpus) -> dict[str, list[str]]:
    """Tab label -> questions, taking the municipalities in turn so that no one of them fills a tab."""
    out: dict[str, list[str]] = {}
    for user, label in USERS.items():
        per_muni: list[list[Example]] = [[e for e in m.examples if e.user == user]
                                         for m in corpus.municipalities.values()]
        questions = [e.question for e in chain.from_iterable(zip_longest(*per_muni)) if e is not None]
        if user == "staff" and (compare := compare_example(corpus)):
            questions.append(compare)
        if questions:
            out[label] = list(dict.fromkeys(questions))
    return out
