"""Reading a question: municipality, abbreviations, defined terms, typed citations, bad input."""

from __future__ import annotations

import pytest

from codeassist.errors import InvalidInput, UnknownMunicipality
from codeassist.retrieval import Retriever


@pytest.fixture(scope="module")
def retriever(corpus) -> Retriever:
    return Retriever(corpus)  # understanding needs no index and no model


@pytest.mark.parametrize("question,expected", [
    ("how often are inspections in Tuckahoe?", "tuckahoe"),
    ("does the Village charge for plan review", "tuckahoe"),
    ("Town of Hempstead stop-work orders", "hempstead"),
    ("what does the town require for a SWPPP", "hempstead"),
    ("erosion rules in hempsted", "hempstead"),  # a one-letter typo
    ("is North Hempstead's stormwater law the same?", None),  # another place, not Hempstead
    ("I hold an electrician license from White Plains; may I work in Tuckahoe too?", "tuckahoe"),
    ("compare Hempstead and Tuckahoe stop-work orders", None),  # two named: search both
    ("how full can a sediment trap get", None),
])
def test_municipality_named_in_the_question(retriever, question, expected):
    plan = retriever.understand(question)
    assert plan.municipality == expected
    assert plan.municipality_source == ("question" if expected else "none")


def test_the_callers_municipality_wins_and_accepts_names(retriever):
    plan = retriever.understand("stop-work orders in Hempstead", "Village of Tuckahoe")
    assert (plan.municipality, plan.municipality_source) == ("tuckahoe", "caller")


def test_unknown_municipality_names_the_valid_ones(retriever):
    with pytest.raises(UnknownMunicipality, match="known: hempstead, tuckahoe"):
        retriever.understand("fees", "Yonkers")


@pytest.mark.parametrize("abbr,expansion", [
    ("SWPPP", "stormwater pollution prevention plan"), ("SMP", "stormwater management practice"),
    ("MS4", "municipal separate storm"), ("SPDES", "state pollutant discharge elimination system"),
    ("TMDL", "total maximum daily load"), ("CO", "certificate of occupancy"), ("NOV", "notice of violation"),
    ("E&S", "erosion and sediment"),
])
def test_abbreviations_are_expanded_beside_the_original(retriever, abbr, expansion):
    plan = retriever.understand(f"question about the {abbr} rules")
    assert abbr in plan.expanded and expansion in plan.expanded.lower()


@pytest.mark.parametrize("question,pid", [
    ("what is in 7B-6(c)?", "tuckahoe:7B-6(c)"),
    ("pull up section 392 B please", "hempstead:392(B)"),
    ("I need the text of 391(B)(1)(d)", "hempstead:391(B)(1)(d)"),
    ("read me sec 7-5 a 1", "tuckahoe:7-5(a)(1)"),
    ("Tuckahoe's § 7B-8(d), please", "tuckahoe:7B-8(d)"),
    ("show me hempstead exemptions (G)", "hempstead:exemptions(G)"),
    ("text of hempstead penalties item E", "hempstead:enforcement(E)"),
    ("what does § 7-6 of the electrical code say?", "tuckahoe:7-6"),
])
def test_a_typed_citation_is_found(retriever, question, pid):
    assert retriever.understand(question).citations[0] == pid


@pytest.mark.parametrize("question", [
    "clearing 500 square feet in 2 acres", "a 0.5 inch storm in 2024", "fines of $350 to $700", "7 days",
])
def test_numbers_are_not_citations(retriever, question):
    assert retriever.understand(question).citations == ()


@pytest.mark.parametrize("question,pid", [
    ("does my patio count as impervious cover?", "hempstead:390/impervious-cover"),
    ("what's an SMP exactly", "hempstead:390/stormwater-management-practices-smps"),
    ("give me the definition of SWPPP", "hempstead:390/stormwater-pollution-prevention-plan-swppp"),
    ("is my shed a 'building' under the town law?", "hempstead:390/building"),
    ("what does phasing mean on a building site", "hempstead:390/phasing"),
    ("who counts as an electrical contractor in the village code", "tuckahoe:7-11(a)"),
])
def test_a_question_asking_what_a_term_means_asks_for_its_definition(retriever, question, pid):
    assert retriever.understand(question).asked_definitions == (pid,)


@pytest.mark.parametrize("question", [
    "who reviews SWPPPs in hempstead",
    "what is the fine for stormwater violations",
    "what is a stormwater maintenance agreement recorded against",
])
def test_a_question_that_only_uses_a_term_does_not_ask_for_it(retriever, question):
    plan = retriever.understand(question)
    assert plan.asked_definitions == ()
    assert plan.definitions  # the terms are still noticed


@pytest.mark.parametrize("bad", ["", "   \n\t", "\x00\x01", None, 42, "x" * 5000])
def test_bad_queries_are_refused_with_a_message(retriever, bad):
    with pytest.raises(InvalidInput):
        retriever.understand(bad)


def test_control_characters_are_cleaned(retriever):
    assert retriever.understand("stop\x07work\u200b  order\n").query.startswith("stop work")


def test_a_nul_character_is_refused_with_a_message(retriever):
    with pytest.raises(InvalidInput, match="NUL"):
        retriever.understand("stop\x00work order")


def test_a_question_for_reasons_gets_the_list_whole_when_its_items_crowd_the_top(retriever):
    import codeassist.retrieval as R

    row = lambda pid, s: (pid, s, ("bm25",))  # noqa: E731
    ranked = [row("hempstead:386(B)", 0.9), row("hempstead:enforcement(A)(4)", 0.8), row("hempstead:386(E)", 0.7),
              row("hempstead:386", 0.2)]
    whole = retriever._reasons_whole(ranked)
    assert [r[0] for r in whole] == ["hempstead:386", "hempstead:386(B)", "hempstead:enforcement(A)(4)", "hempstead:386(E)"]
    assert whole[0][1] == 0.9  # the first item's place and score
    # Already above its items, or only one item near the top: unchanged.
    above = [row("hempstead:purpose", 0.9), row("hempstead:purpose(F)", 0.9), row("hempstead:purpose(A)", 0.5)]
    assert retriever._reasons_whole(above) == above
    one = [row("hempstead:386(B)", 0.9), row("hempstead:391(C)", 0.5)]
    assert retriever._reasons_whole(one) == one
    assert R._REASONS.search("why does the town care about runoff?") and R._REASONS.search("what's the point of ch. 7B?")
    assert not R._REASONS.search("who reviews my plan?")
    # A question for everything a document must hold asks for the list whole too.
    for q in ("what has to be spelled out in a notice of violation?", "what all goes in a NOV", "what must the notice contain?"):
        assert R._REASONS.search(q), q
    assert not R._REASONS.search("what has to happen before I start?")
