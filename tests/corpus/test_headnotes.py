"""Headnotes are data a user reads first, so they are held to the text: every figure, office and defined
term a headnote uses must be in its provision's text (own text and its parts), in the lead-ins above it
(a list item inherits its lead-in's rule) or its heading. Every provision has one."""

from __future__ import annotations

import re

import pytest

from codeassist.corpus import load_corpus
from codeassist.text import figures as numbers

CORPUS = load_corpus()
HEADNOTED = [pid for pid in (p.id for p in CORPUS.provisions()) if CORPUS.headnote(pid)]

def context(pid: str) -> str:
    """What a headnote may draw on: the provision with its parts, its lead-ins and its heading."""
    p = CORPUS.get(pid)
    assert p is not None
    return " ".join([CORPUS.full_text(pid), p.heading, p.term or "", *(a.text for a in CORPUS.ancestors(pid))])


def _mentions(text: str, term: str) -> bool:
    stemmed = re.escape(term.lower()).replace(r"\ ", r"[\s-]+")
    return re.search(r"(?<![\w-])" + stemmed + r"(?:s|es)?(?![\w-])", text.lower()) is not None or (
        term.endswith("y") and term[:-1].lower() + "ies" in text.lower())


def offices(muni: str) -> list[str]:
    """Office names as people write them: the name before the municipality ("Building Inspector")."""
    return [o.name.split(",")[0].strip() for o in CORPUS.municipalities[muni].offices]


def test_headnote_files_load_without_problems():
    assert CORPUS.headnote_problems == []


@pytest.mark.parametrize("section", sorted({(p.municipality, p.section) for p in CORPUS.provisions()}),
                         ids=lambda s: f"{s[0]}:{s[1]}")
def test_every_provision_has_a_headnote(section):
    muni, key = section
    missing = [p.id for p in CORPUS.provisions(muni) if p.section == key and CORPUS.headnote(p.id) is None]
    assert missing == [], f"no headnote for {missing}"


@pytest.mark.parametrize("pid", HEADNOTED)
def test_headnote_figures_offices_and_terms_are_in_the_text(pid):
    h = CORPUS.headnote(pid)
    p = CORPUS.get(pid)
    text = context(pid)
    problems = []
    extra_numbers = numbers(h.summary) - numbers(text)
    if extra_numbers:
        problems.append(f"figures not in the text: {sorted(extra_numbers)}")
    for q in (*h.questions, *h.yes, *h.no):
        if numbers(q) - numbers(text):
            problems.append(f"question has figures not in the text: {q!r}")
    for office in offices(p.municipality):
        if _mentions(h.summary, office) and not _mentions(text, office):
            problems.append(f"office not in the text: {office!r}")
    for term in CORPUS.definitions(p.municipality):
        if len(term) > 3 and _mentions(h.summary, term) and not _mentions(text, term):
            problems.append(f"defined term not in the text: {term!r}")
    assert not problems, f"{h.source} {pid}: " + "; ".join(problems)


@pytest.mark.parametrize("pid", HEADNOTED)
def test_headnote_is_a_short_plain_summary(pid):
    h = CORPUS.headnote(pid)
    words = len(h.summary.split())
    assert 4 <= words <= 90, f"{pid}: summary of {words} words"
    assert h.questions, f"{pid}: no questions"
    assert not re.search(r"\bis exempt\b", h.summary, re.I) or "exempt" in CORPUS.full_text(pid).lower() and \
        "may be exempt" not in context(pid).lower(), f"{pid}: 'may be exempt' is discretionary"


def test_no_summary_opens_with_a_no_that_waits_on_something_else():
    # An answer opens with the summary: "No application shall be reviewed until the SWPPP is received" first under
    # "is a copy of the SWPPP required on site?" reads as "No". A prohibition ("No person shall use ...") may open
    # one: its "No" answers "may I ...?" as the law does.
    opening_no = [pid for pid in HEADNOTED if re.match(r"No\b[^.;]*\buntil\b", CORPUS.headnote(pid).summary)]
    assert opening_no == []


def test_number_reader():
    assert numbers("within forty-eight (48) hours and seven days") == {"48", "7"}
    assert numbers("one of the following") == set()
    assert numbers("one acre, $1,000 and 0.5 inch") == {"1", "1000", "0.5"}
