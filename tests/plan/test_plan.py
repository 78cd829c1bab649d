"""Building a QueryPlan (plan.py): where, what kind of answer, the calculator's inputs with their words, the
expanded query, gaps, yes/no and follow-ups. Pure: the real corpus, no index and no model.

The questions here are written for these tests; none is copied from eval/*.jsonl."""

from __future__ import annotations

import math
from datetime import date

import pytest
from pydantic import ValidationError

from codeassist.answer import resolve_lookup
from codeassist.errors import InvalidInput, UnknownMunicipality
from codeassist.plan import Planner

TODAY = date(2026, 3, 18)  # a Wednesday: "Monday" is 2026-03-16


@pytest.fixture(scope="module")
def planner(corpus) -> Planner:
    return Planner(corpus)


@pytest.fixture(scope="module")
def build(planner):
    def _build(question, municipality=None, **kw):
        return planner.build(question, municipality, today=TODAY, **kw)
    return _build


def gap_key(corpus, pointer: str) -> str:
    """The plan's key ('ordinance-id#index') of the metadata gap that points to `pointer`."""
    for o in corpus.ordinances.values():
        for i, g in enumerate(o.gaps):
            if g.pointer == pointer:
                return f"{o.id}#{i}"
    raise AssertionError(f"no gap points to {pointer}")


# --- where ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("question,expected", [
    ("are silt fences mandatory around a Town of Hempstead job site", "hempstead"),
    ("who inspects the wiring in the Village", "tuckahoe"),
    ("erosion rules for my back yard in hempsted", "hempstead"),  # one-letter typo of a long name
    ("my lot in Elmont needs regrading, which rules apply?", "hempstead"),  # a hamlet the Town governs
    ("Elmont", "hempstead"),
])
def test_the_municipality_named_in_the_question(build, question, expected):
    plan = build(question)
    assert (plan.municipality, plan.municipality_source) == (expected, "question")
    assert plan.named == (expected,) and plan.scope == (expected,)
    assert plan.other_place is None and plan.intent != "abstain"


@pytest.mark.parametrize("question,place", [
    ("is the North Hempstead erosion law any stricter?", "North Hempstead"),
    ("a 2 acre subdivision in Oyster Bay", "Oyster Bay"),
    ("can my contractor pull an electrical permit in Yonkers", "Yonkers"),
    ("we're building a house down in Florida, need a swppp?", "Florida"),   # "down in": where the work is
])
def test_another_place_is_not_ours_and_abstains(build, question, place):
    plan = build(question)
    assert plan.other_place == place
    assert plan.municipality is None and plan.named == ()
    assert plan.intent == "abstain"


def test_the_callers_own_office_keeps_the_callers_municipality(build):
    # "our building inspector" is the caller's; Yonkers is only where his side work is
    plan = build("our building inspector wires houses in Yonkers on Saturdays - is he allowed to?", "tuckahoe")
    assert plan.municipality == "tuckahoe" and plan.intent != "abstain"
    assert build("do I need a wiring permit in Yonkers?", "tuckahoe").intent == "abstain"


@pytest.mark.parametrize("question", [
    "can a registered electrician let his helper run jobs under his name while he is away in Arizona?",
    "the owner is vacationing in Florida, can the contractor sign the stormwater plan for her?",
])
def test_where_someone_is_for_a_while_is_not_the_place_asked_about(build, question):
    plan = build(question)
    assert plan.other_place is None and plan.intent != "abstain"


def test_where_someone_is_from_or_has_an_address_leaves_the_callers_municipality(build):
    plan = build("Village clerk: our draft notice of violation for a lot on Midland Place lists the owner's Scarsdale "
                 "mailing address but not the lot itself. Is that enough?", "tuckahoe")
    assert plan.other_place == "Scarsdale" and plan.named == ("tuckahoe",) and plan.intent != "abstain"
    assert build("I'm an electrician from Yonkers. Do I need a permit to change a panel?", "tuckahoe").intent != "abstain"
    # the other place's own law asked of, or where the work may be: still not ours
    assert build("Does Scarsdale require an electrical permit for a panel?", "tuckahoe").intent == "abstain"
    assert build("The owner lives in Scarsdale. Does he need a permit to rewire the garage?", "tuckahoe").intent == "abstain"


def test_the_place_a_licence_is_from_is_not_where_the_law_is_asked_to_reach(build):
    plan = build("My Tuckahoe registration came through reciprocity on my City of Yonkers license. Do I still have to "
                 "follow all of Tuckahoe's electrical chapter?")
    assert plan.named == ("tuckahoe",) and not plan.reach_asked and "tuckahoe:7-2" not in plan.citations
    # work sited there is asked of
    assert build("Does Tuckahoe's electrical chapter apply to the job I'm doing in Yonkers?").reach_asked


def test_a_hamlet_the_land_lies_in_is_the_towns_beside_where_someone_is_from(build):
    plan = build("Our lot in Elmont is being graded by a contractor from Freeport. Does he need a SWPPP for 2 acres?")
    assert plan.named == ("hempstead",) and plan.intent != "abstain"
    assert build("does Freeport's code apply to my lot in Elmont?").intent == "abstain"
    assert build("my lot in Lakeview, the Village of Lynbrook says what?").intent == "abstain"


def test_where_the_owner_spends_most_of_the_year_is_not_the_place_asked_about(build):
    plan = build("I own the lot in Baldwin Harbor but spend most of the year in Florida. Do I personally have to be "
                 "there whenever the builder is grading?")
    assert plan.other_place is None and plan.municipality == "hempstead" and plan.intent != "abstain"


def test_another_place_beside_ours_does_not_abstain(build):
    plan = build("my electrician is registered in Yonkers, may he work in Tuckahoe?")
    assert plan.other_place == "Yonkers"
    assert plan.municipality == "tuckahoe" and plan.intent != "abstain"


@pytest.mark.parametrize("question,place", [
    ("Does Hempstead's stormwater article cover my lot in Bergen County, New Jersey?", "Bergen County"),
    ("Building a deck in Chicago, do I need a Tuckahoe permit?", "Chicago"),
    ("Disturbing 4,000 acres on Mars for a colony, do I need a Hempstead SWPPP?", "Mars"),   # named anywhere
    ("does the Tuckahoe stormwater law cover a 900-acre dig on the moon?", "the Moon"),
])
def test_land_that_lies_in_another_place_abstains_though_one_of_ours_is_named(build, question, place):
    plan = build(question)
    assert plan.other_place == place and plan.intent == "abstain"


def test_land_elsewhere_in_new_york_is_answered_by_the_named_law_s_own_territory(build):
    plan = build("My house is in Bronxville but my electrician's shop is in Tuckahoe. Does Tuckahoe's electrical code apply?")
    assert plan.other_place == "Bronxville" and plan.municipality == "tuckahoe" and plan.intent != "abstain"


@pytest.mark.parametrize("question,place", [
    ("Does the Town's stormwater article apply to a project inside the incorporated Village of Hempstead?",
     "Village of Hempstead"),
    ("my house is in Bronxville, does Tuckahoe's erosion control law apply?", "Bronxville"),
    # where the asker is, when the question asks whether the law reaches the project
    ("I'm in the Village of Lynbrook. Does the Town of Hempstead's stormwater article cover my 1.5-acre project?",
     "Lynbrook"),
    # "unincorporated" between the cue and the place
    ("Our project is in unincorporated Eastchester, just outside the Village of Tuckahoe line. What erosion control "
     "rules apply to us?", "Eastchester"),
])
def test_whether_a_law_with_no_territory_clause_reaches_land_in_another_place_abstains(build, question, place):
    # Neither the Town's article nor Chapter 7B says where it applies; Chapter 7's § 7-2 does (test above).
    plan = build(question)
    assert plan.other_place == place and plan.sited_elsewhere and plan.intent == "abstain"


def test_where_the_asker_lives_does_not_site_work_the_question_does_not_ask_the_law_to_reach(build):
    plan = build("I live in Lynbrook. Can I get registered as an electrician in Tuckahoe?")
    assert plan.other_place == "Lynbrook" and not plan.sited_elsewhere and plan.intent != "abstain"


def test_our_town_and_my_village_name_the_corpus_town_and_village(build):
    assert build("Is there a rule about this in our town?").municipality == "hempstead"
    assert build("In my village, do I need a permit to replace a light switch?").municipality == "tuckahoe"
    # beside another village named, "my village" is that one
    plan = build("I live in the incorporated Village of Hempstead, not the unincorporated part of the town. "
                 "What does my village require for a 2 acre project?")
    assert plan.named == () and plan.intent == "abstain"
    # "my village" beside a place that is a town and a village in New York is that place
    plan = build("Scarsdale resident here. What's the penalty for muddy runoff in my village?")
    assert plan.named == () and plan.intent == "abstain"


def test_the_code_a_law_sits_in_names_its_municipality(build):
    # the Town's article is part of its Building Zone Ordinance (its citations read "Hempstead BZO")
    assert build("Is the exemptions list § 389 of the BZO?").named == ("hempstead",)
    assert build("Under the building zone ordinance, who reviews a SWPPP?").named == ("hempstead",)


def test_a_road_named_after_a_municipality_is_no_municipality_named(build):
    plan = build("Our store is on Tuckahoe Road in Yonkers. Do we need an electrical permit for a new circuit?")
    assert plan.named == () and plan.other_place == "Yonkers"
    assert build("Tuckahoe's electrical code: do I need a permit for a new circuit?").named == ("tuckahoe",)


@pytest.mark.parametrize("question, reach", [
    # a permit of ours asked for work that lies in another place: whether the law reaches it
    ("Our store is on Tuckahoe Road in Yonkers. Do we need a Tuckahoe electrical permit for a new circuit?", True),
    ("We live in Bronxville. Do we need a Tuckahoe electrical permit for a new circuit?", True),
    # the work lies in the village; the other place is where someone lives or comes from
    ("We live in Bronxville but our rental house in the village needs a new circuit. Do we need a Tuckahoe permit?", False),
    ("I'm an electrician from Yonkers. Do I need a Tuckahoe permit for a circuit in a house in the village?", False),
])
def test_a_permit_of_ours_asked_for_work_elsewhere_asks_the_law_s_reach(build, question, reach):
    plan = build(question)
    assert plan.reach_asked is reach
    assert ("tuckahoe:7-2" in plan.citations) is reach


def test_a_hamlet_of_the_town_is_the_town_s_own_land(build):
    plan = build("does the Town law apply to my lot in Elmont?")
    assert plan.other_place is None and not plan.sited_elsewhere and plan.intent != "abstain"


def test_no_municipality_named_searches_all(build, corpus):
    plan = build("how deep may a sediment trap get before cleaning")
    assert (plan.municipality, plan.municipality_source, plan.named) == (None, "none", ())
    assert set(plan.scope) == set(corpus.municipalities)


def test_two_named_search_both(build):
    plan = build("do Tuckahoe and Hempstead inspect sites on the same schedule")
    assert plan.municipality is None and plan.municipality_source == "none"
    assert plan.named == ("tuckahoe", "hempstead")  # in the order the question names them
    assert plan.scope == ("tuckahoe", "hempstead")


@pytest.mark.parametrize("chosen", ["tuckahoe", "Village of Tuckahoe", "TUCKAHOE"])
def test_the_callers_choice_wins_and_accepts_names(build, chosen):
    plan = build("what does the Town require before grading", chosen)
    assert (plan.municipality, plan.municipality_source) == ("tuckahoe", "caller")
    assert plan.scope == ("tuckahoe",)
    assert plan.named == ("hempstead",)  # still recorded, so the caller can be asked which one


def test_the_assistant_answers_for_the_municipality_the_question_names_by_name(build):
    q = "I'm licensed in Yonkers. Can I get registered in Tuckahoe without another exam?"
    plan = build(q, "hempstead", named_wins=True)
    assert (plan.municipality, plan.municipality_source, plan.overridden) == ("tuckahoe", "question", "hempstead")
    # a filtered search keeps its filter; "the Town" alone is no name to override a choice with
    assert build(q, "hempstead").municipality == "hempstead"
    plan = build("what does the Town require before grading", "tuckahoe", named_wins=True)
    assert (plan.municipality, plan.overridden) == ("tuckahoe", None)


def test_an_unknown_caller_municipality_names_the_valid_ones(build):
    with pytest.raises(UnknownMunicipality, match="known: hempstead, tuckahoe"):
        build("grading rules", "New Rochelle")


def test_the_conversations_municipality_fills_in_only_when_none_is_named(build):
    plan = build("who signs off on the final inspection", fallback_municipality="hempstead")
    assert (plan.municipality, plan.municipality_source) == ("hempstead", "conversation")
    plan = build("who signs off on the final inspection in Tuckahoe", fallback_municipality="hempstead")
    assert (plan.municipality, plan.municipality_source) == ("tuckahoe", "question")


def test_for_municipality_copies_without_changing_the_plan(build):
    plan = build("how long does a stop-work order last")
    narrowed = plan.for_municipality("tuckahoe")
    assert narrowed.municipality == "tuckahoe" and plan.municipality is None
    assert narrowed.query == plan.query and narrowed.expanded == plan.expanded
    with pytest.raises(ValidationError):
        plan.intent = "lookup"  # frozen: built once, read by every stage


# --- intent: lookups and definitions -----------------------------------------------------------------

@pytest.mark.parametrize("question,pid", [
    ("read 393(A) to me", "hempstead:393(A)"),
    ("show me § 7-3 of the electrical code", "tuckahoe:7-3"),
    ("§ 7-3", "tuckahoe:7-3"),
    ("hempstead § 392 B", "hempstead:392(B)"),
    ("quote 7B-7(b) please", "tuckahoe:7B-7(b)"),
    ("can you pull up 391(E)(1) for me, the part with the certification wording", "hempstead:391(E)(1)"),
    ("could I see 7-9(b)?", "tuckahoe:7-9(b)"),
])
def test_a_typed_citation_is_a_lookup(build, question, pid):
    plan = build(question)
    assert plan.intent == "lookup"
    assert plan.citations[0] == pid
    assert plan.citation_text and plan.citation_text in plan.query
    assert plan.calculator is None


def test_a_number_that_is_not_a_citation_is_not_a_lookup(build):
    plan = build("we disturbed 500 square feet near a 392 foot long swale")
    assert plan.intent != "lookup" and plan.citations == ()


@pytest.mark.parametrize("question,term,pid", [
    ("what is a swppp?", "swppp", "hempstead:390/stormwater-pollution-prevention-plan-swppp"),
    ("define 'building'", "building", "hempstead:390/building"),
    ("what is the meaning of 'phasing' in hempstead", "phasing", "hempstead:390/phasing"),
    ("what is a land development activity?", "land development activity", "hempstead:390/land-development-activity"),
])
def test_what_is_a_defined_term_is_a_definition(build, question, term, pid):
    plan = build(question)
    assert plan.intent == "definition" and plan.term == term
    assert plan.asked_definitions == (pid,)
    assert plan.definitions[0] == pid


@pytest.mark.parametrize("question, term", [
    ("the plans say the basin gets 'dedicated' to the town - what does that mean?", "dedication"),
    ("define 'graded'", "grading"),
])
def test_another_form_of_a_defined_word_asks_its_definition(build, question, term):
    plan = build(question)
    assert plan.intent == "definition" and plan.term == term


def test_a_term_used_in_passing_is_noticed_but_not_asked(build):
    plan = build("who reviews a stormwater pollution prevention plan in the town")
    assert plan.intent != "definition" and plan.asked_definitions == ()
    assert "hempstead:390/stormwater-pollution-prevention-plan-swppp" in plan.definitions


# --- intent: comparisons -----------------------------------------------------------------------------

@pytest.mark.parametrize("question", [
    "Hempstead and Tuckahoe: how do the inspection rules differ?",
    "how do the stop-work rules compare in both places?",
    "is the maintenance guarantee the same in Tuckahoe as in Hempstead",
    # What one has and the other lacks; "the two towns" for both.
    "which stop-work rules apply in Tuckahoe but not in Hempstead?",
    "does Hempstead list an inspection that Tuckahoe doesn't?",
    "comparing the bond rules of the two towns, which asks for more?",
])
def test_a_comparison_of_both(build, question):
    assert build(question).intent == "compare"


def test_compare_wording_about_one_place_is_not_a_comparison(build):
    assert build("compare the fee rules in Hempstead").intent != "compare"
    assert build("does Hempstead need a SWPPP for 2 acres but not for 1?").intent != "compare"


# --- intent: calculators only with their required input ----------------------------------------------

@pytest.mark.parametrize("question,calculator,slot", [
    ("do I need a SWPPP for disturbing 3 acres in Hempstead", "applicability", "area"),
    ("do we need an erosion control plan for 12,000 sq ft in the village?", "applicability", "area"),
    ("what must the plan contain for a 2 acre job in hempstead", "swppp_checklist", "area"),
    ("3 acres in hempstead: what else needs to go in the plan?", "swppp_checklist", "area"),
    ("it rained 1.2 inches on Monday, when is the inspection due in hempstead", "deadlines", "inches"),
    ("the inspector served a notice of violation on 3/2/2026, when must we appeal in hempstead?", "deadlines", "dates"),
    ("what is the penalty for a first offense in hempstead", "penalty", "offense_number"),
    ("it has gone on for 5 days, what is the penalty in tuckahoe", "penalty", "duration_days"),
    ("what is the maximum fine for an erosion violation in hempstead", "penalty", None),
    ("is a permit required to run a new circuit to the garage in tuckahoe", "electrical_permit", "electrical"),
    # With an area stated, whether it crosses the law's line is the applicability calculator's.
    ("grading roughly 50,000 sq ft behind the store in hempstead, are we over the threshold?", "applicability", "area"),
    ("1.1 acres of clearing in hempstead. is the job in or out?", "applicability", "area"),
    ("what's the cutoff for needing a SWPPP in hempstead?", "applicability", None),  # asks for the area
    ("do I need a permit to swap a blown fuse myself in tuckahoe", "electrical_permit", "minor_repair"),
    ("want a 240V outlet for a welder in my tuckahoe garage. permit?", "electrical_permit", "electrical"),
    ("running new wiring to the detached garage in tuckahoe - permit reqd?", "electrical_permit", "electrical"),
    ("Need a permit to put an EV charger in my garage in Tuckahoe?", "electrical_permit", "electrical"),
    ("Solar installer here. Rooftop PV on a house in Tuckahoe: do I need a permit?", "electrical_permit", "electrical"),
    ("can they fine me $5,000 for erosion in hempstead, is that right?", "penalty", None),  # an amount asked about
    ("the town says a first stormwater violation can cost $500. right?", "penalty", "offense_number"),
    ("third stormwater strike within 5 yrs in tuckahoe, max fine?", "penalty", "offense_number"),
    ("A site plan in East Atlantic Beach shows 0.45 hectares of disturbance. Does that trip the Town article's acreage "
     "threshold?", "applicability", "area"),
    ("6.5-acre distribution warehouse in West Hempstead. Which SWPPP items apply?", "swppp_checklist", "area"),
    ("Our Merrick site work will disturb 4,850 square yards. Is that enough to trigger the Town's stormwater rules?",
     "applicability", "area"),
    ("Do I need permision to add a 50-amp RV outlet on a new circuit outside my garage in Tuckahoe?", "electrical_permit",
     "electrical"),
])
def test_a_calculator_when_its_input_is_in_the_question(build, question, calculator, slot):
    plan = build(question)
    assert (plan.intent, plan.calculator) == ("calculator", calculator)
    if slot:
        assert slot in plan.slots and slot in plan.slot_sources


@pytest.mark.parametrize("question", [
    "what must the plan contain",                      # checklist wording, no area
    "when is the inspection report due",                # deadline wording, no date or rainfall
    "what are the fines for erosion violations",        # penalty wording, no offense, duration or "maximum"
    "do I need a permit for a shed",                    # permit wording, nothing electrical
    "who may install wiring in tuckahoe",               # electrical, no permit wording
    "what electrical work needs a permit",              # a general question, no work described
    # a question typed without its mark is no statement of work ("New Jersey" is not new work)
    "licensed electrician in New Jersey, does Tuckahoe honor my license",
])
def test_no_calculator_without_its_required_input(build, question):
    plan = build(question)
    assert plan.intent == "retrieval" and plan.calculator is None


def test_without_a_permit_is_permit_wording(build):
    plan = build("can I replace a blown fuse myself in tuckahoe without a permit")
    assert plan.slots["minor_repair"] == "replacing_fuses"
    assert plan.calculator == "electrical_permit"


def test_a_swppp_question_without_an_area_goes_to_the_calculator_to_ask_for_it(build):
    # Applicability is the one calculator routed without its input: its handler asks for the area
    # (a clarify turn) rather than quoting text that cannot settle the question.
    plan = build("is a swppp required?")
    assert (plan.intent, plan.calculator) == ("calculator", "applicability")
    assert "area" not in plan.slots
    # ... unless the question turns on a permit approved before the law (the exemptions say "may be exempt").
    assert build("our building permit was approved in 2005 and we never built. does the stormwater law apply?").intent \
        == "retrieval"


@pytest.mark.parametrize("question", ["building one house for my family on 3 acres", "our own home on a 2 acre lot",
                                      "a single-family house"])
def test_one_familys_house_is_a_single_family_residence(build, question):
    assert build(question).slots.get("single_family_residence") is True


def test_whether_the_law_kicks_in_for_an_area_is_the_applicability_calculators(build):
    plan = build("regrading 20,000 square feet of my backyard. does the town stormwater law kick in?")
    assert (plan.intent, plan.calculator) == ("calculator", "applicability")
    assert build("when does the town stormwater law kick in?").intent != "calculator"  # its effective date


def test_a_listed_activity_without_an_area_is_answered_from_the_text(build):
    plan = build("is my farm exempt in hempsted")
    assert plan.slots.get("activity") == "agriculture"
    assert plan.calculator is None and plan.intent == "retrieval"


# --- incidental words never route --------------------------------------------------------------------

@pytest.mark.parametrize("question", [
    "who may prepare and sign the plan",
    "who is allowed to sign the erosion plan in the village",
    "how do I put up a sign at the site entrance",
])
def test_an_incidental_word_never_routes_or_injects_words(build, question):
    plan = build(question)
    assert plan.intent == "retrieval" and plan.calculator is None
    assert plan.expanded == plan.query  # no glossary word in it, so nothing is appended
    assert "exempt" not in plan.expanded.lower()
    assert plan.expansions == ()


def test_everyday_words_are_expanded_beside_the_question(build):
    plan = build("the creek behind the site turns milky brown every time it rains")
    assert plan.expansions == ("precipitation storm event", "turbidity muddy")
    assert plan.expanded == plan.query + " (precipitation storm event; turbidity muddy)"


def test_sign_as_a_verb_is_not_an_activity(build):
    assert "activity" not in build("who may prepare and sign the plan").slots


def test_a_date_before_in_place_is_not_rainfall(build):
    plan = build("construction begins May 4 in hempstead; when is the first inspection report due?")
    assert plan.slots["dates"] == ["2026-05-04"]
    assert "inches" not in plan.slots


def test_an_appendix_reference_is_not_pinned_as_the_electrical_code(build):
    assert build("Appendix A § 7-3 site plan rules for a new garage").citations == ()


def test_an_appendix_reference_is_not_a_lookup(build):
    plan = build("what does appendix a 7-3 require")
    assert plan.intent != "lookup"


# --- slots and the words they came from --------------------------------------------------------------

def test_pouring_concrete_is_not_a_storm(build):
    assert build("we're pouring the foundation tomorrow, erosion rules?").slots.get("event") != "storm"


@pytest.mark.parametrize("question,slots,words", [
    ("do I need a SWPPP for disturbing 3 acres", {"area": 3.0, "area_unit": "acres"}, {"area": "3 acres"}),
    ("and if we only disturb 15,000 square feet?", {"area": 15000.0, "area_unit": "sq_ft"}, {"area": "15000"}),
    ("it rained 1.2 inches on Monday", {"inches": 1.2, "dates": ["2026-03-16"], "event": "storm"},
     {"inches": "1.2 inches", "dates": "2026-03-16"}),
    ("second violation of the electrical code, how much is the fine?", {"offense_number": 2, "electrical": True},
     {"offense_number": "2", "electrical": "electrical"}),
    ("what is the penalty for 3 weeks of ongoing violations", {"duration_days": 21}, {"duration_days": "21 days"}),
    ("it went on for 14 more days, fine?", {"duration_days": 14}, {"duration_days": "14 days"}),
    ("clearing half an acre for a garage", {"area": 0.5, "area_unit": "acres"}, {}),
    ("a third of an acre of grading", {"area": 0.3333, "area_unit": "acres"}, {}),
    ("third erosion-law conviction in five years, fine?", {"offense_number": 3}, {}),
    ("2nd E&S conviction, what's the fine?", {"offense_number": 2}, {}),
    ("convicted of an erosion violation in 2023 and committed another one in 2026", {"offense_number": 2}, {}),
    ("our supervising electrician quit April 10", {"event": "supervisor_left"}, {}),
    ("it poured last night, maybe an inch", {"inches": 1.0, "event": "storm"}, {}),
    ("Saturday we got four tenths of an inch of rain", {"inches": 0.4}, {}),   # not "an inch"
    ("reshaping a swale back to its original grade, about a tenth of an acre", {"area": 0.1, "area_unit": "acres"}, {}),
    # a bound the work stays under, not the area itself
    ("regrading a ditch back to its original grade, well under an acre of work", {"area": 1.0, "area_under": True},
     {"area": "under 1 acres"}),
    ("less than 20,000 sq ft of grading", {"area": 20000.0, "area_unit": "sq_ft", "area_under": True}, {}),
    # the lot's area told after it is the lot's, not the work's
    ("Our lot in Hewlett is 1.2 acres, but we'll only disturb about 0.3 acre for an addition", {"area": 0.3}, {}),
    # "again" counts one more than the years of the convictions told before it, however long the list
    ("convicted under the Town stormwater law in March 2022, June 2023 and May 2025, and now again in February 2026",
     {"offense_number": 4}, {}),
    ("Work starts on the site on Tuesday, March 2, 2027", {"event": "construction_start"}, {}),
    ("our inspection firm got DQ'd on June 1", {"event": "disqualified"}, {}),
    ("0.6 acres, one of 8 houses the same developer is building", {"area": 0.6, "part_of_common_plan": True}, {}),
    ("regrading roughly 30k square feet", {"area": 30000.0, "area_unit": "sq_ft"}, {}),
    ("the water main broke and we dug up the yard", {"activity": "emergency"}, {}),
    ("outlet in my kitchen cracked, want to put in a new one", {"minor_repair": "changing_lamp_sockets_and_receptacles"}, {}),
    ("the inspector disqualified our inspection firm on June 1", {"event": "disqualified"}, {}),
    ("our last weekly E&S report was May 2", {"event": "last_report"}, {}),
    ("can I replace a blown fuse myself", {"minor_repair": "replacing_fuses", "performed_by": "homeowner"},
     {"electrical": "fuse"}),
    # the asker does the work; the registered electrician is the alternative asked about
    ("can I get a permit myself to wire my basement, or does it have to be a registered electrician?",
     {"performed_by": "homeowner"}, {}),
    ("I'm a licensed electrician; can I pull the permit myself?", {"performed_by": "registered_contractor"}, {}),
    # "employs two full-time journeyman electricians": in-house journeymen (§ 7-5(a)(2))
    ("our co-op employs two full-time journeyman electricians. permits to replace hallway fixtures?",
     {"performed_by": "in_house_journeyman"}, {}),
    # a new portable device plugged into a receptacle already installed: § 7-5(a)(1)'s portable devices
    ("Do I need a permit to plug a new window air conditioner into the outlet that's already in the wall?",
     {"minor_repair": "connecting_portable_devices"}, {}),
    ("can I plug in a space heater without a permit", {"minor_repair": "connecting_portable_devices"}, {}),
    ("each pad disturbs about 0.3 acre, but the developer is doing 12 of them over three years as one plan",
     {"area": 0.3, "part_of_common_plan": True}, {}),
    # continuing conduct from one weekday to another, both counted
    ("kept working on it Monday through Friday before the village caught it, how many offenses",
     {"duration_days": 5}, {"duration_days": "5 days"}),
    # "from ... through ...": both dates told are days of the span
    ("the shed ran off an unpermitted feed from Tuesday, May 4 through Thursday, May 20, 2027. how many offenses?",
     {"duration_days": 17}, {}),
    # a written fraction of an acre, and a part told in square feet added to it
    ("clearing 3/4 of an acre for the house plus a 5,000 sq ft laydown yard", {"area": 0.864784, "area_unit": "acres"}, {}),
    # sides in yards: 9 square feet to the square yard
    ("grading a pad 70 yards by 60 yards for the new depot", {"area": 37800.0, "area_unit": "sq_ft"}, {}),
    # a portable generator plugged into an inlet installed years ago is a portable device at a fixed receptacle
    ("the transfer inlet was installed by an electrician in 2019. can I plug the portable generator into it in a blackout without a permit?",
     {"minor_repair": "connecting_portable_devices"}, {}),
    # another trade's licence, and the electrical registration denied, are not a registered electrician's
    ("I'm a licensed HVAC tech without an electrical contractor registration. Can I file for the wiring permit myself?",
     {"performed_by": "homeowner"}, {}),
    ("I'm not a licensed electrician. Can I wire the new bathroom fan myself?", {"performed_by": "homeowner"}, {}),
])
def test_slots_carry_the_words_they_were_read_from(build, question, slots, words):
    plan = build(question)
    for name, value in slots.items():
        assert plan.slots[name] == value, name
    for name, said in words.items():
        assert said in plan.slot_sources[name], name
    assert set(plan.slots) == set(plan.slot_sources)


def test_a_question_without_figures_has_no_figure_slots(build):
    plan = build("who keeps the site logbook")
    assert not {"area", "dates", "inches", "offense_number", "duration_days"} & set(plan.slots)


# --- the expanded query ------------------------------------------------------------------------------

@pytest.mark.parametrize("question,added", [
    ("what's the SWPPP review process", "stormwater pollution prevention plan"),
    ("it rained hard yesterday, now what", "precipitation storm event"),
    ("can my electrician do it", "electrical contractor"),
    ("got a ticket from the town", "penalty"),
    ("the storm undercut the slope, we need to regrade today before it slides", "emergency"),
    ("nobody from the builder is ever around when they grade", "representative on site"),
    # whom a notice is issued to, not the address written on it
    ("Who can we serve an NOV on?", "person in control of the premises"),
    ("Who can a notice of violation be addressed to?", "person in control of the premises"),
])
def test_expanded_keeps_the_question_and_appends_glossary_words(build, question, added):
    plan = build(question)
    assert plan.expanded.startswith(plan.query + " (")
    assert added in plan.expanded[len(plan.query):].lower()
    assert plan.expanded.count(added) == 1  # appended once, not once per stage


def test_a_question_with_no_glossary_word_is_searched_as_typed(build):
    plan = build("who keeps the site logbook")
    assert plan.expanded == plan.query == "who keeps the site logbook"


# --- gaps from metadata ------------------------------------------------------------------------------

def test_a_question_about_missing_amounts_names_the_gap(build, corpus):
    plan = build("how much does the town charge to review a swppp")
    # the Town's gap for its fees (the Village's text allows the same charges, and its own gap says so)
    assert [g for g in plan.gaps if g.startswith("hempstead")] == [gap_key(corpus, "hempstead:fees")]
    assert gap_key(corpus, "tuckahoe:7B-9") in plan.gaps


def test_a_gap_both_municipalities_share(build, corpus):
    plan = build("what does the Blue Book say about silt fence spacing?")
    design = {f"{o.id}#{i}" for o in corpus.ordinances.values() for i, g in enumerate(o.gaps)
              if "design standards" in g.missing.lower()}
    assert set(plan.gaps) == design
    assert {k.split("#")[0] for k in plan.gaps} == {"hempstead-stormwater", "tuckahoe-ch7b"}


def test_no_gap_for_a_question_the_text_answers(build):
    assert build("who may issue a stop-work order").gaps == ()


# --- yes/no and follow-ups ---------------------------------------------------------------------------

@pytest.mark.parametrize("question,yes_no", [
    ("can the town stop my work", True),
    ("hi, can I start before the plan is approved?", True),
    ("Is a written notice required", True),
    ("must the report be delivered to the officer", True),
    ("who delivers the report", False),
    ("what happens after a stop-work order", False),
    ("how long is the permit good for", False),
    ("tuckahoe electrical license expiry?", False),
    # No question word, yet a verb decides it: an indirect or run-on yes/no question.
    ("tell me if I can start", True),
    ("if a judge strikes down one part does the rest still stand", True),
    ("in tuckahoe is a continuing violation counted per day", True),
    ("Hempstead, if I sell the lot, do the easements stay with it?", True),
    # An elliptical one: what is asked of it opens the clause.
    ("swapping an outlet - permit required?", True),
    ("Covered by the stormwater law?", True),
    ("swppp gotta cover the fuel tanks on site?", True),  # "gotta": have to
    ("spill plan in the swppp req'd??", True),
    ("contractor cert - what info reqd?", False),  # the clause asks for something: "what" before "reqd"
    ("Exam fee refundable if I fail? Tuckahoe", True),  # the place typed after the mark
])
def test_yes_no_questions(build, question, yes_no):
    assert build(question).yes_no is yes_no


@pytest.mark.parametrize("question,kind,muni", [
    ("what about in Tuckahoe?", "municipality", "tuckahoe"),
    ("how about for the Village?", "municipality", "tuckahoe"),
    ("and in Hempstead", "municipality", "hempstead"),
    ("and if we only disturb 15,000 square feet?", "area", None),
    ("ok, show me the full text", "full_text", None),
    ("what about the fine in Tuckahoe for a second violation of the erosion law", None, None),  # a question
    ("who keeps the site logbook", None, None),
])
def test_follow_ups(build, question, kind, muni):
    plan = build(question)
    assert plan.follow_up == kind
    assert plan.follow_up_municipality == muni


# --- bad input ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("bad,message", [
    ("", "type a question"),
    ("  \n\t ", "type a question"),
    (None, "as text"),
    (42, "as text"),
    ("x" * 5000, "characters"),
    ("grading\x00rules", "NUL"),
    ("123 456", "any words"),
    ("?!", "any words"),
])
def test_bad_input_raises_with_a_message(build, bad, message):
    with pytest.raises(InvalidInput, match=message):
        build(bad)


def test_control_characters_are_cleaned_before_planning(build):
    plan = build("stop\x07work\u200b  order\n in  hempstead")
    assert plan.query.startswith("stop work order") and "  " not in plan.query
    assert plan.municipality == "hempstead"


# --- definitions asked in other shapes; the laws' own subject beside an off-topic word ------------------

@pytest.mark.parametrize("question,term", [
    ("stormwater hotspot meaning?", "stormwater hotspot"),
    ("the town's impervious cover definition", "impervious cover"),
    ("When the town's article says 'the Department', which one is it?", "department"),
    ("is a paved patio impervious cover?", "impervious cover"),
    ("recharge -- how is that word defined in the Town's stormwater definitions?", "recharge"),
])
def test_definition_questions_in_other_shapes(build, question, term):
    plan = build(question, "hempstead")
    assert (plan.intent, plan.term) == ("definition", term)


def test_a_defined_term_inside_a_question_is_not_a_definition_question(build):
    assert build("does my land development activity need a plan if it is 2 acres?", "hempstead").intent != "definition"


@pytest.mark.parametrize("question,subject", [
    ("where can I park my truck overnight?", "park my truck"),
    ("how do we keep trash on the site out of the runoff?", None),
    ("is a parking lot impervious cover?", None),
    # The subjects are corpus data (glossary [[other_subjects]]), matched as the user wrote them.
    ("who issues plumbing permits?", "plumbing"),
    ("Tree Removal rules?", "trees"),
    ("which brand of erosion blanket?", None),  # erosion is the laws' own subject
    ("which brand of hammer should I buy?", "brand"),
    ("does every week count as a brand new offense?", None),
    ("can the stormwater officer officiate our wedding?", "wedding"),  # a title is not the laws' subject
    ("can the stormwater officer inspect the runoff from our wedding tent site?", None),
    ("Do we need a permit for a block party on our street?", "street use (block parties, equipment parked on the street)"),
    ("Do I need a permit to park a crane on a village street for a day?",
     "street use (block parties, equipment parked on the street)"),
    ("When is the next village budget hearing?", "local government and history"),
    ("What's the Town's policy on using a Town car for personal errands?", "local government and history"),
    # another trade's licence, with the electrical code as the yardstick
    ("Does Tuckahoe require plumbers to be licensed too, like electricians?", "licensing of plumbers and other trades"),
    ("do I need a licensed electrician to move an outlet?", None),
    ("My landlord still hasn't turned the heat on and it's November. What are the rules?", "heat and hot water in rented homes"),
    ("Are gas leaf blowers banned during the summer? I run a landscaping crew.", "leaf blowers"),
    ("Do I need a permit to launch my kayak from the town marina?", "boating, fishing, marinas and waterways"),
    ("The street tree's roots cracked my sidewalk. Who pays to fix it?", "snow removal and sidewalk repair"),
    # a drain tied into the storm system is the laws' own subject, whatever it drains
    ("my contractor is tying a new parking-lot drain into the village storm system. What access do I owe?", None),
])
def test_an_off_topic_word_beside_the_laws_subject(build, question, subject):
    assert build(question, "hempstead").subject == subject


@pytest.mark.parametrize("question,common_plan", [
    ("is 0.5 acres of regrading a land development activity?", None),
    ("0.5 acres, a standalone project", False),
    ("0.5 acres in a new housing development", True),
    ("0.5 acres, one of 12 lots in a subdivision", True),
    ("0.6 acre on a lot that's not part of any bigger development", False),
    ("we aren't part of a larger plan, 0.8 acres", False),
    ("my third of an acre is one of 9 that the builder is selling", True),
    ("0.5 acres, one of 3 reasons I'm asking", None),
    ("phase one of the campus master plan is 0.7 acres; does it need a SWPPP on its own?", True),  # asked, not said
    ("0.7 acres on its own, nothing else planned", False),
    # "lots of" a quantity is no lots of land; the lots "of a subdivision" are
    ("regrading 0.6 acres of backyard, and we get lots of puddling after storms", None),
    ("0.4 acres: the final two lots of the approved subdivision", True),
])
def test_common_plan_slot(build, question, common_plan):
    assert build(question, "hempstead").slots.get("part_of_common_plan") is common_plan


@pytest.mark.parametrize("question,measure", [
    ("how tall can my fence be?", "how tall"),
    ("what size culvert goes under the driveway", "what size"),
    ("how much does a permit cost here", "how much does a permit cost"),
    ("how big can the fine get for a third offense", None),
    ("how much notice before grading starts", None),
    ("how long do I keep the reports", None),
    ("whats the electrical permit fee for a $20k job", "whats the electrical permit fee"),
    ("what's the fee schedule called", None),   # where the fees are, not an amount
    ("who sets the review fee?", None),
    ("outside engineer review fee amounts?", "fee amounts"),
    ("how far back from the property line can a shed go?", "how far"),  # a setback is a distance
    ("which inspections do we call in for, and how far ahead?", None),  # a time, which any figure gives
    ("how far in advance must the town be told?", None),
    ("How does the Town figure out how big our performance bond has to be?", None),  # how the figure is set
    ("how is it decided how big the bond must be?", None),
    ("how big does the bond have to be?", "how big"),
    # whether the plan must show a size, not the size
    ("The SWPPP shows a sediment basin with no size. Does our article require the plan to deal with where it goes "
     "and how big it is?", None),
    ("do the drawings have to show how deep the drywell is?", None),
    ("how big does the sediment basin have to be?", "how big"),
    ("our site map shows where the basins go but not how big they are. Why was it rejected?", None),
    ("The narrative lists the drywells, with no sheet showing where they sit or how big they are. OK?", None),
])
def test_questions_asking_for_a_size_distance_or_price(build, question, measure):
    assert build(question, "hempstead").measure == measure


# --- outside documents: what they say is not in the corpus ---------------------------------------------

@pytest.mark.parametrize("question,muni,doc", [
    ("what does the DEC general permit GP-02-01 require for a notice of intent?", None, "SPDES general permits"),
    ("what does the design manual say about pond sizing?", "hempstead", "Design Manual"),
    ("what does section 1-7 of the village code say?", "tuckahoe", "§ 1-7"),
    # The more specific of two overlapping names: "Appendix A ... 7-3", not all of Appendix A.
    ("what do appendix a sections 7-1.3(f) and 7-3 require?", "tuckahoe", "7-1.3(f) and 7-3"),
    ("Does the Village's subdivision review under Appendix A require a tree survey?", "tuckahoe", "Appendix A"),
])
def test_a_question_about_an_outside_documents_contents(build, question, muni, doc):
    plan = build(question, muni)
    assert plan.external and all(doc in name for name in plan.external), plan.external


@pytest.mark.parametrize("question,muni", [
    ("does the town follow the design manual?", "hempstead"),        # whether the law uses it: the law says
    ("what does the town require for erosion control?", "hempstead"),  # no outside document named
])
def test_naming_or_asking_is_not_enough_alone(build, question, muni):
    assert build(question, muni).external == ()


def test_a_weekday_followed_by_its_date_is_that_date(build):
    # "Monday June 8 2026" is June 8, not the Monday after today.
    assert build("we start grading Monday June 8 2026 - when must we call the town?", "hempstead").slots["dates"] == ["2026-06-08"]


@pytest.mark.parametrize("question", ["can I put in a ceiling fan without a permit?",
                                      "do I need a permit to hook up a standby generator?"])
def test_more_electrical_work_is_electrical(build, question):
    assert build(question, "tuckahoe").slots.get("electrical") is True


def test_a_weekday_followed_by_a_time_is_still_a_weekday(build):
    assert build("told the inspector saturday 10am the wiring is ready; when can we close the walls?", "tuckahoe").slots["dates"] == ["2026-03-14"]


@pytest.mark.parametrize("question, dates", [
    ("0.8 in of rain ended Tues 4pm on our site. report due when?", ["2026-03-17"]),
    ("it poured thurs morning, when is the report due?", ["2026-03-12"]),
    ("the site sat idle 2 weeks after the rain, when is the report due?", None),  # "sat" the verb is no Saturday
])
def test_a_weekday_typed_short_is_a_weekday(build, question, dates):
    assert build(question, "hempstead").slots.get("dates") == dates


def test_of_two_places_named_the_one_asked_about_is_the_municipality(build):
    plan = build("we work out of Westchester on a job in Tuckahoe. In Hempstead the trigger is an acre. "
                 "Do we need a plan in the village?")
    assert plan.municipality == "tuckahoe" and plan.scope == ("tuckahoe",)
    both = build("are the stop-work rules in Hempstead the same as in Tuckahoe?")
    assert both.municipality is None and set(both.scope) == {"hempstead", "tuckahoe"}


@pytest.mark.parametrize("question, document", [
    ("which waters are on the 303(d) impaired list?", "303(d)"),
    ("what's the actual penalty in section 1-7?", "1-7"),
])
def test_what_an_outside_document_holds_is_asked_of_it(build, question, document):
    assert any(document in name for name in build(question).external)


def test_who_has_to_is_not_an_obligation_yes_no(build):
    assert build("can the officer hire an engineer? who has to approve that?").asks == "authority"
    assert build("subs need to sign anything first?").asks == "obligation"


def test_a_defined_term_alone_asks_its_definition(build):
    assert build("phasing?", "hempstead").asked_definitions == ("hempstead:390/phasing",)
    assert build("phasing plan for the site?", "hempstead").asked_definitions == ()


@pytest.mark.parametrize("question, yes_no", [
    ("which activities, as defined in the village code, have to submit a SWPPP?", False),
    ("what happens now, can we keep building?", True),
    ("we shut down in March. does the town need to know?", True),
])
def test_a_question_word_then_a_comma_is_not_a_yes_no_question_unless_a_question_follows(build, question, yes_no):
    assert build(question).yes_no is yes_no


@pytest.mark.parametrize("question,slots,absent", [
    # "Nov 25" is a date, not a notice of violation: the deadline is the wiring one asked about.
    ("notified the inspector Wed Nov 25 2026 at 2 pm that we want to cover wiring. earliest we can close it up?",
     {"event": "wiring_concealment", "dates": ["2026-11-25"]}, ()),
    ("got an NOV served nov 25, when is the appeal due?", {"event": "violation_notice"}, ()),
    ("told the inspector on Nov 21 2026 at 9am the wires were ready to be covered. when can we?",
     {"event": "wiring_concealment"}, ()),
    # A telephone or cable company is a public utility (the utility exception of the permit rule).
    ("does the telephone company need a permit for its own lines in tuckahoe?", {"performed_by": "utility"}, ()),
    ("cable company running wires on a house in tuckahoe, permit?", {"performed_by": "utility"}, ()),
    # A denial in the sentence undoes "impaired".
    ("2 acres, single-family house. Nothing impaired downstream. post-construction controls?", {"area": 2.0}, ("discharges_to_impaired_water",)),
    ("3.5 acre site, runoff doesn't go to any impaired water. post construction controls?", {"area": 3.5}, ("discharges_to_impaired_water",)),
    ("3.5 acre site draining to an impaired water, post construction controls?", {"discharges_to_impaired_water": True}, ()),
    # The asker says no soil is touched: the building's area is not disturbed land.
    ("gutting the inside of a 2-acre warehouse, no site work, no soil touched at all. land development activity?", {"area": 0.0}, ()),
    ("not digging, just bringing in fill over 1.5 acres. does the law apply?", {"area": 1.5}, ()),
    # "convicted in 2022 and again this year" is a second conviction.
    ("We were convicted of an erosion violation in 2022 and again this year. What fine?", {"offense_number": 2}, ()),
    # "again" after two dated offenses is the third.
    ("convictions for offenses in September 2022 and January 2024, and now we've been convicted again for one in June 2026. fine?",
     {"offense_number": 3}, ()),
])
def test_slots_read_from_everyday_wording(build, question, slots, absent):
    plan = build(question)
    assert {k: plan.slots.get(k) for k in slots} == slots
    assert not set(absent) & set(plan.slots)


@pytest.mark.parametrize("question,date", [
    ("electrical contractor registration issued Feb 2026 in tuckahoe - when does it expire?", "2026-02-01"),
    ("got my electrical contractor registration in march 2026. when does it run out?", "2026-03-01"),
    ("if the inspector approves my electrical contractor registration on Friday, December 18, 2026, how long is it good for?",
     "2026-12-18"),
])
def test_a_month_and_year_date_a_registration_for_the_deadlines_calculator(build, question, date):
    plan = build(question)
    assert plan.slots["dates"] == [date] and plan.calculator == "deadlines"


@pytest.mark.parametrize("question,activity", [
    ("clearing out a clogged drainage channel on 3 acres to restore its original capacity. review needed?", "routine_maintenance"),
    ("we're dredging the silted ditch behind the lot, do we need a swppp?", "routine_maintenance"),
    ("clearing 3 acres for a new drainage channel, do we need a swppp?", None),  # clearing land, not a channel
    ("dredging an existing recharge basin back to its original depth, 4 acres. exempt?", "routine_maintenance"),
    # a practice the officer ordered rebuilt is a repair of it
    ("the SMO ordered us to rebuild a section of the grassed swale behind the lot. review needed?", "smp_repair"),
    ("we have to repair part of our swale after the storm. Tuckahoe review?", "smp_repair"),
])
def test_maintaining_a_channel_is_the_routine_maintenance_activity(build, question, activity):
    assert build(question).slots.get("activity") == activity


def test_the_zoning_appendix_is_the_villages_appendix_a(build):
    plan = build("What does the zoning appendix's § 7-3 site plan section require for stormwater in Tuckahoe?")
    assert plan.intent != "lookup" and any("7-1.3(f) and 7-3" in name for name in plan.external)


def test_going_to_court_to_stop_work_is_an_injunction(build):
    assert "injunction restrained" in build("can the village go to court to stop the grading?").expansions


def test_a_month_abbreviation_is_not_expanded_as_a_notice_of_violation(build):
    assert "notice of violation" not in build("inspection on Nov 25, what next?").expanded
    assert "notice of violation" in build("we got a NOV on Nov 25, what next?").expanded


def test_the_dense_search_reads_abbreviations_spelled_out_where_they_stand(build):
    plan = build("we got a NOV on Nov 25 and the inspector says it rained; what has to be in it?")
    assert plan.embedded.startswith("we got a notice of violation (NOV) on Nov 25 and")  # "Nov 25" is a date
    assert plan.embedded.endswith("(precipitation storm event)")  # everyday words are still appended
    assert plan.expanded.startswith(plan.query)  # BM25 and the scorer read the question as typed, expansions after


@pytest.mark.parametrize("question,expanded,not_expanded", [
    ("the DEC inspector came on dec 5", ["department of environmental conservation"], []),
    ("inspection moved to dec 5", [], ["department of environmental conservation"]),
    ("does a co-owner have to sign?", [], ["certificate of occupancy"]),
    ("can they hold our COs?", ["certificate of occupancy"], []),
    ("we got an SWO, now what?", ["stop-work order"], []),
    ("def of a watercourse?", ["definition"], []),
    ("when are the as-builts due?", ["as built plans"], []),
    # the crew leaving for the winter is the season's close; the Village shutting the site down is a stop-work order
    ("we pull off the site for the holidays till April; do we owe the Town a notice?",
     ["close of the construction season"], ["stop-work order"]),
    ("can the Village shut our site down?", ["stop-work order"], ["close of the construction season"]),
])
def test_abbreviation_guards_come_from_the_glossary_data(build, question, expanded, not_expanded):
    got = build(question).expanded
    assert all(words in got for words in expanded) and not any(words in got for words in not_expanded)


def test_an_other_subject_entry_needs_a_name_and_a_pattern_that_compiles():
    from pydantic import ValidationError

    from codeassist.glossary import Glossary

    g = Glossary(other_subjects=[{"subject": "boats", "pattern": r"\b(?:boats?|docks?)\b"}])
    assert g.other_subject("can I tie my boat to the dock?") == "boat"
    assert Glossary().other_subject("can I tie my boat to the dock?") is None
    with pytest.raises(ValidationError, match="`subject` and `pattern`"):
        Glossary(other_subjects=[{"pattern": r"\bboats?\b"}])
    with pytest.raises(ValidationError):
        Glossary(other_subjects=[{"subject": "boats", "pattern": "(boat"}])


class _ClearedByAnotherThread(dict):
    """A cache another thread empties right after each store (what CI's load test hit as a KeyError)."""

    def __setitem__(self, key, value):
        self.clear()


def test_a_glossary_answer_survives_its_cache_being_cleared_by_another_thread():
    from codeassist.glossary import Glossary

    g = Glossary(other_subjects=[{"subject": "boats", "pattern": r"\bboats?\b"}], everyday=[])
    g._found = _ClearedByAnotherThread()
    assert g.other_subject("can I tie my boat here?") == "boat"
    assert g.expansions("can I tie my boat here?") == []


def test_a_guard_for_an_abbreviation_the_glossary_lacks_is_refused():
    from pydantic import ValidationError

    from codeassist.glossary import Glossary

    with pytest.raises(ValidationError, match="does not define"):
        Glossary(abbreviations={"co": "certificate of occupancy"}, abbreviation_guards={"nov": {"capitals_only": True}})
    with pytest.raises(ValidationError):
        Glossary(abbreviations={"nov": "notice of violation"}, abbreviation_guards={"nov": {"not_followed_by": "("}})


@pytest.mark.parametrize("question,pid", [
    ("section 392 subsection B", "hempstead:392(B)"),
    ("§ 7-5 paragraph (a)", "tuckahoe:7-5(a)"),
])
def test_a_word_naming_the_label_level_does_not_hide_the_label(build, question, pid):
    assert build(question).citations[0] == pid


@pytest.mark.parametrize("question, asked", [
    ("is a 12x14 pool house a building?", ("hempstead:390/building",)),
    ("we graded it flat. is the lot a land development activity?", ("hempstead:390/land-development-activity",)),
    ("is a building permit needed?", ()),  # the term is not what the thing is asked to be
])
def test_whether_a_thing_is_what_a_term_names_asks_the_definition(build, question, asked):
    assert build(question, "hempstead").asked_definitions == asked


@pytest.mark.parametrize("question, muni, calculator", [
    ("new 240-volt circuit for the condenser at my house. Permit or no?", "tuckahoe", "electrical_permit"),
    ("adding four recessed lights in the den - do I need a permit?", "tuckahoe", "electrical_permit"),
    ("we're reshaping the old playground beds. does the erosion control chapter even apply to that?", "tuckahoe",
     "applicability"),
    ("the DPW regrades 2 acres of parkland. Do we need to go through erosion and sediment review?", "tuckahoe",
     "applicability"),
    ("one house on a 60 x 100 lot. Does the stormwater article cover it?", "hempstead", "applicability"),
    ("which permit measures does this article cover?", "hempstead", None),  # what it covers, not whether
    ("Adding two motion floodlights and a new switch leg on a detached garage. Permit, or is that minor work?",
     "tuckahoe", "electrical_permit"),
    # the speller's reading of the words decides the route and the slots: a misspelled violation is one
    ("My first stormwater violaton was in June 2023, now I'm facing a second one. Could the judge go as low as $200?",
     "hempstead", "penalty"),
    ("Applicant says final grading wraps up 6/30/2026 at 1 pm. What's the cutoff for their notice to us?", "hempstead",
     "deadlines"),
])
def test_whether_a_rule_reaches_the_work_goes_to_its_calculator(build, question, muni, calculator):
    assert build(question, muni).calculator == calculator


def test_a_misspelled_word_is_read_right_when_routing(build):
    plan = build("we're putting in a new 240V circuit for the kiln. do we need a permitt?", "tuckahoe")
    assert plan.intent == "calculator" and plan.calculator == "electrical_permit"
    assert plan.query.endswith("permitt?")  # the question is kept as typed


def test_a_provision_cited_by_a_shortened_title_names_its_municipality(build):
    plan = build("constr. inspection A(1)(i) - which stage is that?")
    assert plan.citations == ("hempstead:construction-inspection(A)(1)(i)",) and plan.scope == ("hempstead",)
    # both municipalities have a performance guarantee item B: the question cites neither alone
    assert build("perf. guarantee B - what's that about?").citations == ()


def test_misspelled_corpus_words_are_corrected_beside_the_question(build):
    plan = build("where do i apply to get registerd as an electrican in the village")
    assert "registered" in plan.expansions and "electrician" in plan.expansions
    assert plan.query == "where do i apply to get registerd as an electrican in the village"
    # the model reads the question with each correction written in place, not appended after the misspelling
    assert plan.embedded == "where do i apply to get registered as an electrician in the village"
    assert "registered" in plan.expanded and "registerd" in plan.expanded  # the words searched keep both


@pytest.mark.parametrize("question,divisions", [
    ("point of tuckahoe ch. 7B?", ("tuckahoe-ch7b",)),
    ("Chapter 7 permit rules", ("tuckahoe-ch7",)),
    ("what does chapter 7 1/2 say", ()),   # another chapter, not in the corpus
    ("7B-3 b", ()),                         # a section cited, not the chapter named
    ("art. XXXVIII purpose", ("hempstead-stormwater",)),
])
def test_ordinances_named_by_their_division(build, question, divisions):
    assert build(question).divisions == divisions


def test_whether_to_follow_the_manuals_is_not_a_question_about_their_contents(build):
    assert build("if I build my basins straight out of the blue book and design manual am I automatically OK?",
                 "hempstead").gaps == ()
    assert build("what size storm do we have to design the basin for in the blue book?", "hempstead").gaps != ()


def test_journeymen_on_the_payroll_are_the_in_house_exception(build):
    plan = build("our plant has two journeyman electricians on payroll. do they need permits to add outlets?", "tuckahoe")
    assert plan.slots.get("performed_by") == "in_house_journeyman"


@pytest.mark.parametrize("question", [
    "growing flowers in my yard, do I need a swppp?",
    "we're digging up part of the yard to grow tomatoes and peppers for the family. do we need review?",
])
def test_growing_food_or_flowers_for_the_family_is_home_gardening(build, question):
    plan = build(question, "tuckahoe")
    assert plan.slots.get("activity") == "home_gardening" and "home gardening" in plan.expanded


@pytest.mark.parametrize("question,term", [
    ("phasing - what does that mean in the stormwater rules", "phasing"),
    ("pollutant of concern def", "pollutant of concern"),
    ("what does phasing mean here?", "phasing"),
    ("phasing?", "phasing"),
    ("stormwater hotspot = ?", "stormwater hotspot"),
    ("dude ranch = agricultural activity?", "agricultural activity"),
    ("I lease the lot long-term. Am I a landowner under this article?", "landowner"),
    # One word of exactly one two-word term asks that term; "erosion" (in a three-word term only) does not.
    ("what's impervious mean", "impervious cover"),
])
def test_definition_questions_in_everyday_forms(build, question, term):
    plan = build(question, "hempstead")
    assert plan.intent == "definition" and plan.term == term


@pytest.mark.parametrize("question, asked", [
    ("Town's definitions: does clearing mean cutting down trees too, or only brush?", True),
    ("does phasing mean we stabilize each piece first?", True),
    ("my neighbor does clearing on weekends. what does the town require?", False),
    ("what exactly is phasing under the Town's law, one piece at a time or all at once?", True),
])
def test_whether_a_term_means_something_asks_its_definition(build, question, asked):
    plan = build(question, "hempstead")
    assert any(d.endswith(("/clearing", "/phasing")) for d in plan.asked_definitions) is asked


def test_a_question_that_only_uses_a_term_is_not_a_definition_question(build):
    assert build("who reviews my stormwater pollution prevention plan?", "hempstead").intent != "definition"


@pytest.mark.parametrize("question, asks, clause", [
    # An opening condition typed without its comma ends where the auxiliary and its subject begin.
    ("Once we fix it can we just flip it back on?", "permission", "can we just flip it back on?"),
    ("if i fail the exam do i get the application fee back", "fact", "do i get the application fee back"),
    ("before the town signs off do we need our other permits?", "obligation", "do we need our other permits?"),
])
def test_a_condition_without_its_comma_still_leads_to_the_question(build, question, asks, clause):
    plan = build(question)
    assert (plan.yes_no, plan.asks) == (True, asks)
    from codeassist.plan import asking_clause
    assert question[asking_clause(question):] == clause


@pytest.mark.parametrize("question", ["if nobody shows up when can we close the walls?", "when can we close the walls?"])
def test_a_question_word_inside_the_condition_keeps_it_a_wh_question(build, question):
    assert not build(question).yes_no


@pytest.mark.parametrize("question, scope", [
    # Only Tuckahoe has an electrical code here: its topic words and its office narrow a question naming no place.
    ("the electrician finished - who does the final inspection?", ("tuckahoe",)),
    ("the Building Inspector disqualified our inspection firm. how long to appeal?", ("tuckahoe",)),
    ("who reviews the erosion control plan?", ("hempstead", "tuckahoe")),
])
def test_a_question_naming_no_place_is_searched_where_a_law_it_names_exists(build, corpus, question, scope):
    plan = build(question)
    assert plan.municipality is None and set(plan.scope) == set(scope)


def test_a_bare_permit_question_after_electrical_work_is_the_permit_calculator(build):
    plan = build("Adding a dedicated circuit in my garage for a hot tub. Permit?", "tuckahoe")
    assert (plan.intent, plan.calculator, plan.subject) == ("calculator", "electrical_permit", None)


@pytest.mark.parametrize("question, gap", [
    ("where do I find the site plan review standards in Appendix A that the erosion chapter mentions?", True),
    # Without Appendix A named, 7B-4(c) itself says what the review is held to: no gap.
    ("what standards does site plan review judge stormwater by?", False),
])
def test_the_appendix_a_gap_needs_appendix_a_named(build, corpus, question, gap):
    assert (gap_key(corpus, "tuckahoe:7B-4(c)") in build(question, "tuckahoe").gaps) is gap


@pytest.mark.parametrize("question, pointer, gap", [
    ("What NTU number makes runoff a substantial visible contrast in the Town?", "hempstead:392(B)", True),
    ("is muddy runoff into the bay against the Town's water quality standard?", "hempstead:392(B)", False),
    ("How muddy is too muddy for runoff leaving a Town site?", "hempstead:392(B)", False),  # the standard's words answer
    ("How many pounds of seed per acre for temporary seeding on a Town site?", "hempstead:392(A)(2)", True),
    ("Which board hears an appeal of a Town stormwater notice of violation?", "hempstead:enforcement(A)(6)", True),
    ("how long do I have to appeal a Town stormwater notice of violation?", "hempstead:enforcement(A)(6)", False),
    ("Which board hears an appeal of a Village erosion notice of violation in Tuckahoe?", "tuckahoe:7B-8(a)(6)", True),
    ("In Tuckahoe, which office records the lien for the Village's restoration costs?", "tuckahoe:7B-8(f)", True),
    ("Can Tuckahoe put a lien on my property for the restoration it did?", "tuckahoe:7B-8(f)", False),
    ("what liability coverage amount does Tuckahoe want on the insurence certificate for electricians?",
     "tuckahoe:7-11(k)", True),
    ("Do Tuckahoe electrical contractors have to file a certificate of insurance?", "tuckahoe:7-11(k)", False),
    ("What's the name of the Tuckahoe Building Inspector and what hours is the office open?", "tuckahoe:7-7(a)", True),
    ("Under the NEC Tuckahoe adopted, where do I need GFCIs in a bathroom?", "tuckahoe:7-4", True),
    ("Where do I download the Town of Hempstead SWPPP application form?", "hempstead:391(A)", True),
    # whether a use is agricultural activity is Appendix A's definition, not in the corpus
    ("I run a plant nursery in Tuckahoe. Does the village's agricultural exemption cover a new greenhouse?",
     "tuckahoe:7B-5(a)", True),
    ("Is farming exempt from Tuckahoe's erosion control review?", "tuckahoe:7B-5(a)", False),
    # what a state permit the article only defines requires of a facility
    ("I run a bus depot. What sampling does an industrial stormwater permit require, and how often?",
     "hempstead:390/industrial-stormwater-permit", True),
    ("what is an industrial stormwater permit?", "hempstead:390/industrial-stormwater-permit", False),
    # what the SWPPP holds is the text's, whatever permit the data came from
    ("The prior tenant's industrial stormwater permit produced years of outfall samples. Do those go in the SWPPP?",
     "hempstead:390/industrial-stormwater-permit", False),
    # how a SWPPP is handed in, not what was e-mailed to the asker
    ("Can I e-mail the Town my SWPPP?", "hempstead:391(A)", True),
    ("The reviewer emailed us the marked-up SWPPP. Who signs off on it?", "hempstead:391(A)", False),
    # a fine, not feeling fine
    ("What's the fine for doing electrical work without a permit in Tuckahoe?", "tuckahoe:7-14", True),
    ("The tenant wired the shed without a permit. I'm fine to keep using it since I didn't do it?", "tuckahoe:7-14", False),
    # whether the officer may require reports is 7B-6(d)'s, not the schedule the text lacks
    ("how often do I have to file erosion inspection reports in Tuckahoe?", "tuckahoe:7B-6(d)", True),
    ("As the Village SMO, can I require monthly progress reports from a builder?", "tuckahoe:7B-6(d)", False),
    # what a Village SWPPP must hold is in Appendix A
    ("Does a Tuckahoe SWPPP need a dust control plan?", "tuckahoe:7B-4(d)", True),
    # no meeting before work begins is called for
    ("Does the Town hold a pre-construction meeting before grading starts?", "hempstead:construction-inspection(A)(1)", True),
    ("Is there a preconstruction conference with the Village before we break ground?", "tuckahoe:7B-6(a)(1)", True),
    # how long the Town has to bring charges: no limitation period in the text (misdemeanor law applies)
    ("Is there a statute of limitations on stormwater violations in Hempstead?", "hempstead:enforcement(D)", True),
    ("The erosion violation was two years ago. Is it too late for the Village to prosecute?", "tuckahoe:7B-8(d)", True),
    ("Can I be prosecuted again for each week the violation continues in Hempstead?", "hempstead:enforcement(D)", False),
    ("How long do I have to appeal the Town's notice of violation?", "hempstead:enforcement(D)", False),
    # what it costs to appeal is not said; how long there is to appeal is
    ("Does it cost anything to file an appeal of a Town notice of violation?", "hempstead:enforcement(A)(6)", True),
    ("How long do I have to appeal the Town's notice of violation?", "hempstead:enforcement(A)(6)", False),
    # no reinspection fee among the categories the Board may set; a stormwater reinspection is 7B-9's
    ("How much does Tuckahoe charge for an electrical reinspection?", "tuckahoe:7-11(f)", True),
    ("The Village billed us for re-inspecting our silt fence. Can they charge for that?", "tuckahoe:7-11(f)", False),
])
def test_gaps_the_text_leaves_open(build, corpus, question, pointer, gap):
    keys = {f"{o.id}#{i}" for o in corpus.ordinances.values() for i, g in enumerate(o.gaps) if g.pointer == pointer}
    assert bool(keys & set(build(question).gaps)) is gap


def test_the_laws_a_question_names_by_topic_words(build):
    assert build("electrical violation goes on for weeks - counted once or per day?", "tuckahoe").laws == ("tuckahoe-ch7",)
    assert set(build("who checks the erosion controls?").laws) == {"hempstead-stormwater", "tuckahoe-ch7b"}
    assert build("who checks the site?").laws == ()


@pytest.mark.parametrize("question, searched", [
    ("give me the full list of what a basic swppp has to contain in hempstead", "give me the full list of what a basic swppp has to contain"),
    ("Does the Town of Hempstead require a bond?", "Does the town require a bond?"),
    ("can tuckahoe inspect my site", "can the village inspect my site"),
    ("in the village can I dig", "in the village can I dig"),  # who acts stays
])
def test_our_municipalities_names_are_left_out_of_a_word_search(planner, question, searched):
    assert planner.without_places(question) == searched


@pytest.mark.parametrize("question, gap", [
    ("We're building a new house. Does the town make us put in dry wells or rain gardens?", True),
    ("do new houses have to have a rain garden or green roof", True),
    # what the text does say of a dry well: who may inspect, certify or keep it up
    ("can the town inspect my drywell?", False),
    ("who has to certify the as-built plans for the drywells?", False),
])
def test_no_practice_a_property_must_install_is_named_in_the_text(build, corpus, question, gap):
    keys = {f"{o.id}#{i}" for o in corpus.ordinances.values() for i, g in enumerate(o.gaps) if "rain garden" in g.missing}
    assert bool(keys & set(build(question, "hempstead").gaps)) is gap


@pytest.mark.parametrize("question, gap", [
    ("what does the design manual say about sizing ponds?", True),
    # Whether following the manual is enough is § 392(A)'s presumption, which the corpus holds.
    ("If I size everything straight out of the design manual, am I automatically OK?", False),
    ("if we build the basins by the design manual are we in compliance?", False),
    ("the swales follow the state design manual. must the Town accept them as meeting its standards?", False),
    # whether a plan shows enough is § 391(B)'s list, not the manual's specifications
    ("the erosion plan only marks silt fence on the map with no specs. is that sufficient?", False),
    # whether the plan must hold specifications is § 391(B)'s too
    ("they gave dimensions and material specs for the temporary controls but nothing for the permanent "
     "bioretention area. Is that required too?", False),
    ("what specs does the Town require for silt fence posts?", True),
])
def test_the_design_manual_gap_is_what_the_manual_says_not_whether_following_it_is_enough(build, corpus, question, gap):
    assert (gap_key(corpus, "hempstead:392(A)") in build(question, "hempstead").gaps) is gap


@pytest.mark.parametrize("question, words", [
    ("we bought the house and it has drywells. now that it's sold who keeps them up?",
     {"stormwater management facility", "subsequent landowners", "maintain maintenance"}),
    ("max area open at once?", {"at any one time", "disturbed"}),
    ("got a violation notice. how long do i have to fight it", {"appeal"}),
    ("does a rain garden count?", set()),   # a rain garden is not rain
    ("can I just call the inspector to get a permit, or does it have to be on paper?", {"in writing by phone or verbally"}),
    ("what info goes on the certification?", {"information"}),
    ("drafting a violation letter. what has to be in it?", {"notice of violation"}),
    ("site washing silt into the drain. can the village shut them down", {"stop-work order"}),
    ("can the inspector come in and shut off the power?", {"current disconnected"}),
    ("can a PE sign the plan?", {"professional engineer"}),
    ("compare the penalties in both towns", {"punishable fine"}),
    ("who tests the new electricians?", {"examination examiners"}),
    ("what must a contractor file with the village yearly?", {"annually"}),
    ("bond stays up till when?", {"how long date"}),
    ("do you want drainage calcs with the plan?", {"analysis"}),
    ("who pays for the inspections?", {"reasonable costs fees"}),
    ("the town found a violation on my lot. can they make me fix it?", {"restore corrective action"}),
    ("what do we show for the permanent practices?", {"postconstruction stormwater management practices"}),
])
def test_glossary_words_for_everyday_phrasings(build, question, words):
    assert set(build(question).expansions) >= words
    if not words:
        assert "precipitation storm event" not in build(question).expansions


@pytest.mark.parametrize("question, words", [
    ("we shut the site down for winter. who do we tell?", "stop-work order"),
    ("is everything shut down until it's fixed?", "stop-work order"),
    ("who tells Con Ed they can turn the power on?", "current disconnected"),
    ("who tests the new wiring before the walls close?", "examination examiners"),
    ("who do I call about my neighbor's muddy site?", "in writing by phone or verbally"),
])
def test_glossary_words_not_for_the_other_sense(build, question, words):
    assert words not in build(question).expansions


@pytest.mark.parametrize("question, calculator", [
    ("upgrading my house to a 200 amp panel", "electrical_permit"),   # the work stated, no question: a permit?
    ("my electrician is installing a new subpanel in the garage", "electrical_permit"),
    ("what wiring work is my electrician doing", None),               # a question word: not a bare statement
])
def test_a_bare_statement_of_electrical_work_asks_about_its_permit(build, question, calculator):
    assert build(question, "tuckahoe").calculator == calculator


def test_a_fuse_box_is_not_a_fuse(build):
    assert "minor_repair" not in build("replacing the old fuse box with breakers", "tuckahoe").slots
    assert build("replacing a blown fuse", "tuckahoe").slots["minor_repair"] == "replacing_fuses"


def test_when_is_the_earliest_the_wiring_can_be_closed_up_is_the_deadlines_calculator(build):
    plan = build("told the inspector saturday oct 4 2025 at 10am the wiring was ready to be covered. when's the earliest "
                 "we can close it up?", "tuckahoe")
    assert (plan.intent, plan.calculator) == ("calculator", "deadlines")
    assert plan.slots.get("event") == "wiring_concealment"


@pytest.mark.parametrize("text, area", [
    ("My new shed is 8 by 10 feet.", 80.0),
    ("a 10' x 12' shed", 120.0),
    ("20x30 ft garage", 600.0),
    ("2 x 4 studs", None),        # no unit: not a size
    ("a 10x12 garden shed", 120.0),  # no unit, but next to what it measures
    ("My shed is 8x10. Is it a building?", 80.0),
    ("framing the addition with 2x4 studs", None),
    # a side written with a thousands comma is the whole number, not the digits after the comma
    ("clearing a 1,250 ft by 36 ft right-of-way", 45000.0),
    ("a 1,000 x 40 ft strip", 40000.0),
])
def test_the_sides_of_a_rectangle_in_feet_are_an_area(text, area):
    from codeassist.slots import extract_area
    assert extract_area(text) == (("sq_ft", area) if area else None)


@pytest.mark.parametrize("text, expected", [
    ("4,200 square meters of disturbance", ("sq_ft", 45208.0)),   # 4,200 x 10.7639 = 45,208.4
    ("a 300 m2 building pad", ("sq_ft", 3229.0)),
    ("1,000 m\u00b2 of grading", ("sq_ft", 10764.0)),
    ("clearing 0.5 ha", ("acres", 1.236)),                       # 0.5 x 2.4711 = 1.2355
    ("2 hectares of woods", ("acres", 4.942)),
    ("ha ha, very funny", None),
    ("grading about 5,000 square yards", ("sq_ft", 45000.0)),     # 9 sq ft to the square yard
    ("1,200 sq yd of fill", ("sq_ft", 10800.0)),
])
def test_metric_areas_are_converted(text, expected):
    from codeassist.slots import extract_area
    assert extract_area(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("disturbing 0.7 acre this spring and another 0.6 acre next year", ("acres", 1.3)),
    ("15,000 sq ft now plus 20,000 sq ft for the lot next door", ("sq_ft", 35000.0)),
    ("a 2 acre site plus 5,000 sq ft staging", ("acres", 2.114784)),  # another unit: converted, then added
])
def test_parts_of_one_project_s_area_add_up(text, expected):
    from codeassist.slots import extract_area
    assert extract_area(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("bringing in fill to raise about one and a half acres", ("acres", 1.5)),
    ("an acre and a half of lawn", ("acres", 1.5)),
    ("2 and a half acres of parking", ("acres", 2.5)),
    ("half an acre", ("acres", 0.5)),
])
def test_a_whole_number_and_a_half_is_read_whole(text, expected):
    from codeassist.slots import extract_area
    assert extract_area(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("a 70 m by 58 m clearing", ("sq_ft", 43701.0)),   # 4,060 m2 x 10.7639 = 43,701.4
    ("grading 40 x 25 meters", ("sq_ft", 10764.0)),
    ("a 100 by 150 ft lot", ("sq_ft", 15000.0)),       # feet stay feet
])
def test_the_sides_of_a_rectangle_in_meters_are_converted(text, expected):
    from codeassist.slots import extract_area
    assert extract_area(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("regrading four adjoining lots, each 100 x 120 ft, at the same time", ("sq_ft", 48000.0)),
    ("two 60 x 80 ft pads for the new barns", ("sq_ft", 9600.0)),
    ("3 lots at 0.4 acres each", ("acres", 1.2)),
    ("five parcels of 0.25 acre each", ("acres", 1.25)),
    # one of several, or a count of something else, is not multiplied
    ("building two houses on a 1.5 acre lot", ("acres", 1.5)),
    ("each lot is 0.3 acre", ("acres", 0.3)),
])
def test_the_area_of_each_of_several_like_things_is_multiplied(text, expected):
    from codeassist.slots import extract_area
    assert extract_area(text) == expected


def test_lots_whose_areas_were_added_up_are_the_whole_project_not_a_larger_plan(build):
    plan = build("We're clearing three neighboring lots, each 100 x 130 ft, together. Does the Town stormwater law apply?")
    assert plan.slots["area"] == 39000.0 and "part_of_common_plan" not in plan.slots
    # lots of a subdivision stay part of its plan
    plan = build("We're clearing two lots of a new subdivision, 0.3 acre each. Does the Town stormwater law apply?")
    assert plan.slots["area"] == 0.6 and plan.slots["part_of_common_plan"] is True


@pytest.mark.parametrize("text, expected", [
    ("we got 12 mm of rain last night", 0.4724),
    ("the gauge read 2.5 cm of rainfall", 0.9843),
    ("a 12 mm steel plate", None),  # no rain: no rain figure
])
def test_rain_in_millimeters_or_centimeters_is_read_in_inches(text, expected):
    from codeassist.slots import extract_inches
    assert extract_inches(text) == expected


def test_a_second_building_on_the_same_campus_plan_is_part_of_a_common_plan(build):
    plan = build("We're disturbing 0.7 acre this spring and another 0.6 acre next year for a second building on the same "
                 "Hempstead office campus plan. Does the stormwater article apply?")
    assert plan.calculator == "applicability" and plan.slots["area"] == 1.3 and plan.slots["part_of_common_plan"] is True


def test_over_the_town_s_threshold_asks_the_law_s_reach(build):
    plan = build("Developer's plans show 0.5 hectare of disturbance at a site in Inwood. Is that over the Town's threshold?",
                 "hempstead")
    assert plan.calculator == "applicability" and plan.slots["area_unit"] == "acres"
    plan = build("Would grading 3,000 square yards put a Merrick homeowner over the Town's stormwater threshold?")
    assert plan.calculator == "applicability" and plan.slots["area"] == 27000.0


@pytest.mark.parametrize("text, hm", [("around noon on Thursday", (12, 0)), ("by midnight", (0, 0)), ("at 8:00", (8, 0))])
def test_noon_and_midnight_are_clock_times(text, hm):
    from codeassist.slots import extract_time
    assert extract_time(text) == hm


def test_a_place_named_only_as_a_landmark_is_not_the_one_asked_about(build):
    plan = build("Electrical permit requirements in Bronxville? Its right next to Tuckahoe")
    assert plan.other_place == "Bronxville" and plan.intent == "abstain"
    # named again as where the work is: the question is the Village's
    plan = build("I'm an electrician from Yonkers, right next to Tuckahoe. Do I need to register to work in Tuckahoe?")
    assert plan.municipality == "tuckahoe" and plan.intent != "abstain"
    # "which is inside the Town of Hempstead" says where the village named lies: the village's own code is asked
    plan = build("Our shop is in the Village of Freeport, which is inside the Town of Hempstead. What SWPPP does the "
                 "village want for a 2 acre lot?")
    assert plan.other_place == "Freeport" and plan.intent == "abstain"


def test_a_place_named_only_in_an_aside_is_not_asked_about(build):
    plan = build("We inspect wiring in Tuckahoe (and in Hempstead, but that's another matter). Can the village Building "
                 "Inspector refuse our firm?")
    assert plan.named == ("tuckahoe",) and plan.intent != "compare"
    # named outside the aside too, both are asked about
    assert build("How do Tuckahoe (the village) and Hempstead differ on stop-work orders?").intent == "compare"


def test_a_lettered_exemption_of_a_section_is_that_item(build):
    plan = build("what is exemption (c) in 7B-5 of Tuckahoe's code?")
    assert "tuckahoe:7B-5(c)" in plan.citations


@pytest.mark.parametrize("question, namesake", [
    ("Tuckahoe out by Southampton on Long Island - what are the stormwater rules for clearing my lot there?", True),
    ("my lot in Tuckahoe, Suffolk County: SWPPP needed?", True),
    ("I'm an electrician from Southampton, licensed there for years. Do I need to register in Tuckahoe?", False),
])
def test_a_place_sharing_a_municipality_s_name_is_known_by_the_words_beside_it(build, question, namesake):
    # corpus/tuckahoe/municipality.toml `namesakes`: Tuckahoe is also a hamlet of Southampton, Long Island
    plan = build(question)
    if namesake:
        assert plan.intent == "abstain" and "Southampton" in plan.other_place and plan.named == ()
    else:
        assert plan.named == ("tuckahoe",) and plan.intent != "abstain"


def test_the_blue_book_s_edition_is_the_text_s_not_a_gap(build, corpus):
    manuals = gap_key(corpus, "hempstead:392(A)")
    assert manuals not in build("What edition of the Blue Book does the Town treat as its official erosion control spec?").gaps
    assert manuals in build("What silt fence post spacing does the Blue Book require in Hempstead?").gaps


def test_the_standards_an_outside_document_sets_are_its_contents(build):
    plan = build("What detention and runoff design standards does the village's Article XII stormwater control set for "
                 "new development?", "tuckahoe")
    assert plan.external and "Article XII" in plan.external[0]


def test_a_metric_area_reaches_the_applicability_calculator_converted(build):
    plan = build("Engineer's plans for an Inwood lot show 4,200 square meters of disturbance. Is that enough to fall "
                 "under the Town rules?")
    assert plan.calculator == "applicability" and plan.slots["area"] == 45208.0


def test_in_or_out_with_an_area_asks_the_law_s_reach(build):
    plan = build("Our Franklin Square site disturbs exactly 43,560 square feet - not a foot more. In or out?", "hempstead")
    assert plan.calculator == "applicability"


def test_a_farm_is_an_agricultural_property(build):
    plan = build("2.5 acre barn and equipment shed project on an agricultural property in the Town. Do we need the "
                 "post-construction quantity and quality controls?")
    assert plan.slots.get("agricultural_property") is True


@pytest.mark.parametrize("text, activity", [
    ("2.5 acre barn and equipment shed project on an agricultural property", "agricultural_structures"),
    ("building a new greenhouse on our farm", "agricultural_structures"),
    ("3 acres of grading at our farm", "agriculture"),           # no structure built: the farming itself
    ("plowing a new hay field", "agriculture"),
])
def test_new_farm_structures_are_not_agricultural_activity(text, activity):
    from codeassist.slots import extract_activity
    assert extract_activity(text) == activity


def test_that_meaning_refers_back_to_the_one_defined_term(build):
    plan = build("My plan says the system works by infiltration. What does that mean, in the Town's terms?", "hempstead")
    assert plan.intent == "definition" and plan.term == "infiltration"


def test_an_exemption_item_asked_for_its_wording_is_cited(build):
    plan = build("Hempstead Exemptions item I wording?")
    assert "hempstead:exemptions(I)" in plan.citations


def test_wiring_run_out_to_a_hot_tub_is_no_expiry(build):
    plan = build("I want a new 50-amp circuit run out to a hot tub on my deck in Tuckahoe. Permit, and can I pull it myself?")
    assert plan.calculator == "electrical_permit" and "expire" not in plan.expansions


@pytest.mark.parametrize("question", [
    "Can we submit our SWPPP to the Town's Department of Engineering online, and what's the portal?",
])
def test_how_a_swppp_is_handed_in_is_a_gap(build, corpus, question):
    assert gap_key(corpus, "hempstead:391(A)") in build(question).gaps


@pytest.mark.parametrize("question, pointer, gap", [
    ("What does the Nassau County Clerk charge to record a stormwater maintenance agreement?", "hempstead:393(D)", True),
    ("does the maintenance agreement have to be recorded with the County Clerk?", "hempstead:393(D)", False),
    ("Which credential counts as a 'certified erosion control specialist' for signing a Hempstead SWPPP? Is CPESC enough?",
     "hempstead:391(C)", True),
    ("can a certified erosion control specialist prepare the SWPPP?", "hempstead:391(C)", False),
    ("Can a CPESC (certified erosion control specialist) prepare and sign the SWPPP, or does it have to be a PE?",
     "hempstead:391(C)", False),
    ("How far apart do the stakes on a silt fence need to be under the Town's rules?", "hempstead:392(A)", True),
])
def test_what_another_office_charges_or_certifies_is_a_gap(build, corpus, question, pointer, gap):
    assert (gap_key(corpus, pointer) in build(question, "hempstead").gaps) is gap


def test_when_a_chapter_took_effect_is_a_gap_where_its_text_does_not_say(build, corpus):
    plan = build("Subdivision plat in Tuckahoe was approved in fall 2006. What's the effective date of Chapter 7B for "
                 "the plat exemption?", "tuckahoe")
    assert gap_key(corpus, "tuckahoe:7B-5(e)") in plan.gaps
    assert not build("my plat was approved before the effective date of 7B, is it exempt?", "tuckahoe").gaps


def test_reno_in_lower_case_is_a_renovation_not_the_city(build):
    plan = build("doing a big reno on my house, about 1.5 acres disturbed. do i need a swppp?", "hempstead")
    assert plan.other_place is None and plan.intent == "calculator"
    assert build("how do stormwater rules work in Reno, Nevada?").other_place


def test_the_chosen_village_named_as_the_village_beside_another_place_is_asked_about(build):
    plan = build("in the village do we have to turn in inspection reports every week like they do in hempstead?", "tuckahoe")
    assert "tuckahoe" in plan.named and plan.municipality == "tuckahoe"


def test_new_outlets_done_myself_is_the_permit_calculator(build):
    plan = build("I want to add a couple of new outlets in my basement. Can I just do it myself?", "tuckahoe")
    assert (plan.intent, plan.calculator) == ("calculator", "electrical_permit")


@pytest.mark.parametrize("question, pid", [
    ("def of stabilization?", "hempstead:390/stabilization"),
    ("phasing meaning, for clearing a site", "hempstead:390/phasing"),
    ("stabilization definition?", "hempstead:390/stabilization"),
])
def test_a_term_asked_about_in_short_forms(build, question, pid):
    assert build(question, "hempstead").asked_definitions == (pid,)


def test_a_term_used_at_the_start_without_a_definition_cue_is_not_asked(build):
    assert build("phasing plan for the site?", "hempstead").asked_definitions == ()
    assert build("stabilization must happen within 14 days?", "hempstead").asked_definitions == ()


def test_a_word_of_a_longer_defined_term_alone_is_not_that_term(build):
    assert build("what is erosion?", "hempstead").intent != "definition"


def test_is_something_needed_before_is_an_obligation_however_long_its_subject():
    from codeassist.plan import ask_kind
    assert ask_kind("Is a certificate of approval from the Building Inspector needed before connecting power?") == "obligation"
    # Telegraphic: the clause ends on what is asked of it.
    assert ask_kind("SWPPP: soils description reqd?") == "obligation"
    assert ask_kind("site map required?") == "obligation"
    assert ask_kind("what info is required?") is None


def test_the_laws_line_named_is_not_the_sites_area(build):
    assert "area" not in build("can the officer pull in a site that doesn't hit the one-acre mark?", "hempstead").slots
    assert build("does the 1 acre threshold apply to my 0.5 acre lot?", "hempstead").slots["area"] == 0.5


def test_a_place_named_as_the_yardstick_is_not_the_one_asked_about(build):
    plan = build("do sediment traps in Tuckahoe have to be cleaned out at half full like in Hempstead?")
    assert (plan.municipality, plan.municipality_source) == ("tuckahoe", "question")
    assert build("are sediment traps cleaned out sooner in Tuckahoe than in Hempstead?").municipality is None
    # in the asking clause itself: "like Hempstead does" measures against the Town
    plan = build("What design standards does Tuckahoe use? Does it follow the state Design Manual like Hempstead does?")
    assert (plan.municipality, plan.municipality_source) == ("tuckahoe", "question")


@pytest.mark.parametrize("question", [
    "Clearing versus grading: what's the difference in the town's definitions?",
    "what is the difference between clearing and grading?",
    "clearing vs. grading - how do they differ",
])
def test_two_defined_terms_set_against_each_other_ask_both_definitions(build, question):
    assert build(question, "hempstead").asked_definitions == ("hempstead:390/clearing", "hempstead:390/grading")


def test_two_defined_terms_named_without_a_difference_asked_ask_no_definition(build):
    assert build("do clearing and grading both count toward the acre?", "hempstead").asked_definitions == ()


@pytest.mark.parametrize("question,asks", [
    ("Is a soils description reqd in the hempstead swppp", "obligation"),
    ("is a spill plan req'd in the swppp", "obligation"),
])
def test_shorthand_for_required_asks_an_obligation(build, question, asks):
    assert build(question).asks == asks


def test_the_callers_village_is_the_village_asked_of_though_another_is_named(build):
    # the caller chose Tuckahoe: "the village building inspector" is its inspector; Bronxville is where the side business is
    plan = build("Can the village building inspector also run a side business over in Bronxville?", "tuckahoe")
    assert plan.named == ("tuckahoe",) and plan.intent != "abstain"
    # no caller: "the town" beside another town named is that town
    plan = build("Oyster Bay marina SWPPP - what does the town want?")
    assert plan.named == () and plan.intent == "abstain" and plan.other_place == "Oyster Bay"


@pytest.mark.parametrize("question", ["Is Hempstead Bay on the state's impaired waters list?",
                                      "is Mill River on DEC's impaired waters list?"])
def test_whether_a_named_water_is_on_the_states_list_is_a_gap(build, corpus, question):
    listed = {f"{o.id}#{i}" for o in corpus.ordinances.values() for i, g in enumerate(o.gaps)
              if "list of impaired waters" in g.missing}
    assert listed & set(build(question, "hempstead").gaps)


@pytest.mark.parametrize("question, subject", [
    ("Once the underground detention under our parking deck is finished, what paperwork is due?", None),
    ("is the new parking lot impervious cover?", None),
    ("where can I park overnight on my street?", "park overnight"),  # the words matched name it
    ("parking rules near the village hall?", "parking"),
    ("tying a new parking-lot drain into the storm system", None),
])
def test_a_parking_structure_is_a_site_not_a_parking_rule(question, subject):
    from codeassist.glossary import load_glossary
    assert load_glossary().other_subject(question) == subject


def test_temporary_power_is_electrical_work(build):
    plan = build("We're renting temporary power for a tented wedding. Does the approval for temp work last forever?",
                 "tuckahoe")
    assert plan.slots.get("electrical") and plan.subject is None


@pytest.mark.parametrize("question", [
    "The owner wants us to install a 50-amp outdoor pedestal for the truck to plug into. Permit, or just a portable device?",
    "I want to add a new outlet to plug the AC into",
    "hook up a generator by plugging it into the panel",
    "need to hardwire the new AC unit, can I just plug it in?",
])
def test_plugging_into_new_work_is_no_portable_device(build, question):
    assert build(question, "tuckahoe").slots.get("minor_repair") != "connecting_portable_devices"


def test_the_same_weekday_twice_is_no_duration(build):
    assert "duration_days" not in build("violation from Monday to Monday, how many offenses?", "tuckahoe").slots


@pytest.mark.parametrize("question,muni,cited", [
    ("What's item f in 7B-6(a)(1)?", "tuckahoe", "tuckahoe:7B-6(a)(1)(f)"),
    ("item B of section 393?", "hempstead", "hempstead:393(B)"),
])
def test_an_item_named_before_its_citation_is_that_item(build, question, muni, cited):
    plan = build(question, muni)
    assert plan.citations == (cited,) and plan.intent == "lookup"


def test_my_village_beside_another_village_is_that_village(build):
    plan = build("I live in the incorporated Village of Hempstead, not the unincorporated part of the town. What "
                 "stormwater permit does my village require for a new driveway?")
    assert plan.named == () and plan.intent == "abstain" and plan.other_place == "Village of Hempstead"


def test_a_place_outside_the_law_asked_whether_the_law_reaches_it_pins_the_laws_territory(build):
    # "do the Tuckahoe electrical permit rules apply to us (in Bronxville)?": § 7-2 says where the chapter applies
    plan = build("We're adding a room in Bronxville, right next door to Tuckahoe. Do the Tuckahoe electrical permit "
                 "rules apply to us?")
    assert plan.citations[:1] == ("tuckahoe:7-2",)
    # a licence asked to reach is not the law asked to
    assert "tuckahoe:7-2" not in build("I have a Yonkers electrical license. Does it apply in Tuckahoe?").citations


def test_what_the_text_leaves_unnamed_is_a_gap(build, corpus):
    # the Design Manual's year: the text says only "most current version or its successor"
    manual = build("Which edition of the NYS Stormwater Management Design Manual is the Town using right now, 2010 or "
                   "2015?", "hempstead")
    assert gap_key(corpus, "hempstead:392(A)(1)") in manual.gaps
    # which edition counts, no year asked, is the text's own answer
    assert gap_key(corpus, "hempstead:392(A)(1)") not in build("Which edition of the design manual counts in Hempstead?",
                                                               "hempstead").gaps
    # the "applicable municipal board" the Village's officer forwards plans to is named nowhere
    board = build("Which board in Tuckahoe is the 'applicable municipal board' that the SMO forwards SWPPPs to -- the "
                  "Planning Board?", "tuckahoe")
    assert gap_key(corpus, "tuckahoe:7B-4(b)") in board.gaps


@pytest.mark.parametrize("q, dates", [
    # "the 16th" is that day of the month told before; "Wednesday" before it names no other day
    ("We close at noon on Friday, December 18, 2026. I emailed at 3 pm Wednesday the 16th.", ["2026-12-18", "2026-12-16"]),
    # a month and day after a dated one take the year that puts them nearest it; "Today's April 14" is that day
    ("Served on me Thursday, April 1, 2027. Today's April 14.", ["2027-04-01", "2027-04-14"]),
    ("Served Dec 28, 2026; today is Jan 5.", ["2026-12-28", "2027-01-05"]),
])
def test_dates_told_relative_to_a_written_one(build, q, dates):
    assert build(q, "hempstead").slots["dates"] == dates


def test_each_clock_time_goes_to_the_nearest_date():
    from codeassist.slots import dated_times
    q = "We told the official on Friday, April 9, 2027 at 4 pm that we start construction Monday, April 12 at 7 am."
    assert dated_times(q, date(2026, 12, 6)) == [(date(2027, 4, 9), (16, 0)), (date(2027, 4, 12), (7, 0))]


@pytest.mark.parametrize("q, muni", [
    ("What is a sub agreeing to when they sign the contractor certification on a Town SWPPP?", "hempstead"),
    ("Village handed us a notice of violation for the erosion control on our lot. Can we appeal?", "tuckahoe"),
    ("Town vs village: what state law gives each one the power to pass these stormwater rules?", None),
])
def test_town_or_village_written_as_a_name(build, q, muni):
    assert build(q).municipality == muni


@pytest.mark.parametrize("q, named", [
    ("I live in Tuckahoe, Virginia. Do I need a permit to add a circuit?", ()),
    ("Is Hempstead, TX covered by this stormwater law?", ()),
    ("In Tuckahoe, Washington Street house: do I need a permit to add a circuit?", ("tuckahoe",)),
    ("I'm licensed in Tuckahoe, New York. Do I need a permit?", ("tuckahoe",)),
])
def test_a_namesake_in_another_state(build, q, named):
    assert build(q).named == named


def test_electrical_work_denied_is_not_electrical(build):
    plan = build("Do I need a building permit to replace my kitchen cabinets? No electrical changes at all.")
    assert "electrical" not in plan.slots


@pytest.mark.parametrize("text, expected", [
    # a strip given by its length and width
    ("a gas main replacement along 2,400 feet of road with a 20-foot-wide work strip", ("sq_ft", 48000.0)),
    ("a 20 foot wide strip 2,400 feet long", ("sq_ft", 48000.0)),
    ("a water line trench 1,300 feet long with a 35-foot-wide work corridor", ("sq_ft", 45500.0)),
    ("the lot is 150 ft wide and 300 ft deep", ("sq_ft", 45000.0)),
    # a trapezoid: the mean of its parallel sides times its depth
    ("a trapezoid: 180 ft along the street, 260 ft along the back line, and 200 ft deep", ("sq_ft", 44000.0)),
    # the part left alone is not disturbed
    ("Lot is 190 x 235 ft. A 30 x 60 ft garage on it stays untouched and we're disturbing everything else.", ("sq_ft", 42850.0)),
    ("a 10 x 12 ft shed and a 20 x 30 ft patio", ("sq_ft", 120.0)),  # nothing left alone: the first, as before
    # a round area by its diameter or its radius: pi r squared
    ("excavating a round retention area 236 feet across", ("sq_ft", 43744.0)),
    ("a circular pond with a radius of 100 ft", ("sq_ft", 31416.0)),
    # frontage times depth; a parallelogram's slanting sides do not count
    ("a parallelogram, 250 ft along the street, 170 ft deep measured straight back, side lines slanting at 180 ft",
     ("sq_ft", 42500.0)),
])
def test_an_area_from_lengths_widths_and_what_is_left_alone(text, expected):
    from codeassist.slots import extract_area
    assert extract_area(text) == expected


@pytest.mark.parametrize("text, n", [
    ("offenses in June 2023 and May 2025 and now another in April 2027", 3),
    ("violations in 2024 and then another this spring", 2),
    ("a violation by another contractor", None),
])
def test_another_offense_after_dated_ones_counts_them(text, n):
    from codeassist.slots import extract_offense_number
    assert extract_offense_number(text) == n


@pytest.mark.parametrize("text, activity", [
    ("grade 12 acres for a ground-mount solar farm on an old landfill", None),  # not farming
    ("rebuilding the sand bunkers back to there original grades", "routine_maintenance"),  # "there" for "their"
    ("Our leaching pools are failing. If we replace them before the SMO says anything, is that exempt?", "smp_repair"),
    # a new building's own landscaping is part of its development
    ("We're building a new 1.3-acre facility. Can we leave the landscaping out of the SWPPP?", None),
    ("redo the landscaping around our existing office building", "landscaping_existing_structure"),
    ("planting an evergreen screen along the side of the existing warehouse", "landscaping_existing_structure"),
    # maintenance keeps a facility's capacity; widening it to carry more water changes it
    ("Highway wants to widen and deepen a drainage ditch so it carries more water. They call it routine maintenance.",
     "capacity_change"),
    ("clearing out a clogged drainage channel to restore its original capacity", "routine_maintenance"),
    ("we are widening the driveway next to the ditch", None),  # no maintenance or exemption named: construction
    # a cemetery's lanes and parking are not its graves
    ("A cemetery association wants new paved lanes and a visitor parking lot. Exempt?", "cemetery_other_work"),
    ("A cemetery is digging 300 new graves plus a new lane. Exempt?", "cemetery_graves"),
    # a pole barn is a building on poles, not the installation of posts or poles
    ("putting up a 30x40 pole barn; the exemption list mentions posts and poles", "pole_building"),
    ("setting new utility poles along the road", "fence_sign_pole"),
])
def test_activities_read_from_their_context(text, activity):
    from codeassist.slots import extract_activity
    assert extract_activity(text) == activity


def test_a_farm_building_on_its_own_land_is_at_an_agricultural_property(build):
    plan = build("A farm in the Town of Hempstead is building a 1.8 acre farm market with parking on its own land. "
                 "Does the SWPPP need post-construction controls?")
    assert plan.slots.get("agricultural_property") is True


def test_interior_work_with_no_digging_disturbs_no_land(build):
    plan = build("We're gutting the inside of a factory on a 3-acre lot in Inwood. No outside work, no digging at all. "
                 "Does the stormwater article apply?")
    assert plan.slots["area"] == 0.0


def test_a_state_where_someone_is_licensed_leaves_the_hamlet_to_name_the_town(build):
    plan = build("An applicant's engineer is licensed in New Jersey and Connecticut but not New York. Can we accept a "
                 "SWPPP he prepared for a 2-acre job in Inwood?")
    assert plan.municipality == "hempstead" and plan.outside_new_york
    # a hamlet's name with a state after it is that state's place
    assert build("What are the stormwater rules in Levittown, Pennsylvania?").named == ()


def test_a_namesake_county_in_another_state_is_not_the_town(build):
    plan = build("What are the stormwater permit rules for a construction site in Hempstead County, Arkansas, near Hope?")
    assert plan.intent == "abstain" and plan.other_place == "Hempstead County, Arkansas"


def test_another_village_named_with_its_kind_is_not_the_caller_s_village(build):
    # the caller picked the Village of Tuckahoe; "the Village of Rye Brook" names that village, not "the village"
    plan = build("Electrician here with a job in the Village of Rye Brook next month: is a permit needed over there?",
                 "tuckahoe")
    assert plan.other_place == "Rye Brook" and plan.intent == "abstain"
    # "the village" on its own is still the caller's
    plan = build("I'm rewiring a store in the village; my other job is over in Rye Brook. Permit needed here?", "tuckahoe")
    assert plan.municipality == "tuckahoe" and plan.intent != "abstain"


def test_a_statement_after_the_question_names_no_place_asked_about(build):
    # the question asks of the Village; the sentence after its question mark only says what the Town does
    plan = build("Building a 120 sq ft potting shed in Tuckahoe. Is that a 'building' under the village's erosion "
                 "law? My cousin says Hempstead counts anything over 100 sq ft.")
    assert plan.municipality == "tuckahoe"


@pytest.mark.parametrize("question, area", [
    ("Two lots go into one project: 120 x 180 ft and 105 x 200 ft, both to be stripped and regraded. Over the line?",
     120 * 180 + 105 * 200),
    ("We're grading 150 x 200 ft, plus a 40 x 50 ft laydown yard. SWPPP needed?", 150 * 200 + 40 * 50),
    # a structure told after the lot is what stands on it, not more land
    ("Lot is 150 x 200 ft and the house on it is 40 x 50 ft. Do we need a SWPPP to regrade the yard?", 150 * 200),
])
def test_rectangles_listed_one_after_another_add_up(build, question, area):
    assert build(question, "hempstead").slots["area"] == area


def test_several_modifiers_before_violations_still_ask_a_count(build):
    plan = build("Our site stayed out of compliance 19 days after the deadline in the notice. How many separate "
                 "additional violations does the Town count?", "hempstead")
    assert plan.intent == "calculator" and plan.calculator == "penalty"


@pytest.mark.parametrize("question, subject", [
    ("Can kids ride e-bikes on the sidewalk downtown?", "bicycles, e-bikes and scooters"),
    ("How would I get a certified copy of my son's birth certificate from the Town?", "birth, death and marriage records"),
    ("Does the Village Board have to vote to renew our accounting software license?",
     "the municipality's software and technology purchases"),
    # state insurance for employees and a federal certification
    ("How much is workers' compensation insurance for a two-person electrical shop?", "workers' compensation"),
    ("Does my HVAC tech need an EPA 608 card to recover refrigerant from the condenser?",
     "refrigerant handling certification"),
    ("can we feed the ducks at the village pond?", "feeding wildlife"),
    ("Where can I get a form notarized in the Town?", "notary services"),
    ("What was decided at last month's village board meeting?", "board meetings and minutes"),
    # the meeting where something was said is not what is asked
    ("At a village board meeting a neighbor said the erosion law protects only private land. Does it?", None),
    ("Must our subcontractors run new hires through E-Verify?", "employment eligibility verification (E-Verify)"),
    ("There's a downed wire sparking in my driveway, what do I do?", "downed power lines"),
    ("Is town hall closed on Columbus Day?", "the municipal offices' opening hours and holidays"),
    ("We're a women-owned business: how do we get on the list for public bids?", "business certification and public bidding"),
    # a utility's own work and another trade's licence asked against the law's own requirement are the law's
    ("Does the utility need a permit to replace the transformer on the pole?", None),
    ("My county home improvement contractor license: is it enough to get a Village electrical permit?", None),
    ("Does Tuckahoe license roofers the way it registers electricians?", "licensing of plumbers and other trades"),
])
def test_subjects_these_laws_do_not_cover(build, question, subject):
    assert build(question).subject == subject


def test_shovels_moving_dirt_are_not_snow_removal(build):
    assert build("Leveling a low spot in my yard with a shovel and a rake: does that count as grading under the Town "
                 "law?", "hempstead").subject is None
    assert build("Who has to shovel the snow off the sidewalk in front of my store?").subject == \
        "snow removal and sidewalk repair"


def test_an_employee_asking_to_pull_a_permit_in_his_own_name_is_not_registered(build):
    plan = build("I'm an apprentice working for a licensed electrical contractor. My uncle wants his basement wired; "
                 "can I take out the permit under my own name?", "tuckahoe")
    assert plan.slots["performed_by"] == "other"


def gap_saying(corpus, words: str) -> str:
    """The plan's key of the metadata gap whose `missing` text holds `words`."""
    for o in corpus.ordinances.values():
        for i, g in enumerate(o.gaps):
            if words in g.missing:
                return f"{o.id}#{i}"
    raise AssertionError(f"no gap says {words!r}")


@pytest.mark.parametrize("question, municipality, words, gap", [
    # what the text sets no figure or procedure for
    ("If my registration renewal goes in after the deadline, what's the late charge?", "tuckahoe", "no late fee", True),
    ("Is there a grace period for renewing my registration in January?", "tuckahoe", "no late fee", False),
    ("When does my electrical registration expire?", "tuckahoe", "no late fee", False),
    ("Could the Village resolve my wiring violation with a civil fine and no court case?", "tuckahoe",
     "settled by a civil penalty", True),
    ("Is an electrical violation a misdemeanor?", "tuckahoe", "settled by a civil penalty", False),
    ("What conduit fill does the code allow for three conductors?", "tuckahoe", "National Electrical Code (1978", True),
    ("Does a Village SWPPP need drainage area maps?", "tuckahoe", "does not list what a SWPPP must contain", True),
    ("How do the police go about enforcing the SMO's occupancy order?", "hempstead", "not what procedure they follow", True),
    ("Who can enforce the SMO's order preventing occupancy?", "hempstead", "not what procedure they follow", False),
    # a street's gutter is where a site's runoff goes; a roof's is not the law's
    ("Our notice says mud went into the street gutter. Is that a violation?", "hempstead", "rain barrels", False),
    ("Do I need approval to add gutters and a rain barrel to my house?", "hempstead", "rain barrels", True),
    ("On top of the Town's fine, could the state DEC also penalize us under the Environmental Conservation Law?",
     "hempstead", "under state or federal law", True),
    ("What's the Town's fine for a second offense?", "hempstead", "under state or federal law", False),
    ("Which day in the fall does the Town treat as the end of the construction season?", "hempstead",
     "dates of the season", True),
    ("How much notice before the reopening of the construction season?", "hempstead", "dates of the season", False),
    ("Once I apply, how quickly does the Building Inspector have to issue my electrical permit?", "tuckahoe",
     "sets no time for issuing them", True),
    ("how long is my electrical permit valid once it's issued?", "tuckahoe", "sets no time for issuing them", False),
])
def test_what_the_text_sets_no_figure_or_date_for_is_a_gap(build, corpus, question, municipality, words, gap):
    assert (gap_saying(corpus, words) in build(question, municipality).gaps) is gap


@pytest.mark.parametrize("question, yes_no", [
    ("We paid nothing when our supervisor was replaced. So renewing in December costs nothing either, right?", True),
    ("The site is under an acre, so no SWPPP, correct?", True),
    ("Right, so when is the next inspection?", False),
])
def test_a_statement_with_a_tag_asks_whether_it_holds(build, question, yes_no):
    assert build(question, "tuckahoe").yes_no is yes_no


def test_brand_new_names_no_product(build):
    plan = build("The lot was split again under a brand-new plat last year. Is it still covered by the old-plat "
                 "exemption in 7B-5?", "tuckahoe")
    assert plan.subject is None and plan.intent != "abstain"
    assert build("Which brand of silt fence does the Town accept?", "hempstead").subject == "brand"


def test_a_comparison_with_a_thing_compares_no_other_place(build):
    # licensed in another place; the fee is compared with a new license's, not with that place's
    plan = build("I hold a Mount Vernon license and want one in Tuckahoe by reciprocity. Is the fee for that "
                 "different than for a new license?")
    assert plan.other_place == "Mount Vernon" and plan.intent != "abstain" and plan.municipality == "tuckahoe"
    # a comparison with the other place still is one
    assert build("Is the Tuckahoe license fee higher than the one in Mount Vernon?").intent == "abstain"


@pytest.mark.parametrize("question, area", [
    ("We're regrading an oval infield about 300 ft by 200 ft across. Does the Town's one-acre rule apply?",
     round(math.pi * 150 * 100)),
    ("An elliptical detention area, 260 x 210 ft: over an acre?", round(math.pi * 130 * 105)),
    # an oval thing on a rectangular lot leaves the lot's sides a rectangle
    ("Our lot is 250 ft by 220 ft with an oval pond we won't touch. SWPPP to regrade the rest?", 250 * 220),
])
def test_an_oval_by_its_two_widths_is_an_ellipse(build, question, area):
    assert build(question, "hempstead").slots["area"] == area


@pytest.mark.parametrize("question, area", [
    # a share of the lot told after its sides: only that share is disturbed
    ("Our lot is 300 ft by 150 ft and we'll grade 90% of it. SWPPP?", 300 * 150 * 0.9),
    ("A 2-acre parcel; 40 percent of the lot will be cleared. Over the Town's line?", 0.8),
    # a road and the turnaround it ends in are both built
    ("A 500 ft long, 30 ft wide drive that ends in a turnaround circle with a radius of 50 ft: an acre?",
     500 * 30 + round(math.pi * 50 * 50)),
    ("A round parking court with a 100-foot radius, regraded: one acre or more?", round(math.pi * 100 * 100)),
    # a ring: the outer circle less the inner one, by radii or by widths across
    ("Regrading a ring around our pond, outer edge 140 ft from the center and inner edge 50 ft: over an acre?",
     round(math.pi * (140 ** 2 - 50 ** 2))),
    ("An annular berm, outer 300 ft across and inner 200 ft across. Is it an acre?",
     round(math.pi * (150 ** 2 - 100 ** 2))),
])
def test_shares_rings_and_roads_ending_in_circles(build, question, area):
    assert build(question, "hempstead").slots["area"] == pytest.approx(area)


@pytest.mark.parametrize("question, days", [
    # the year at the span's end dates its start too
    ("The violation ran from March 28 through April 4, 2027. How many offenses?", 8),
    ("Out of compliance from December 29 through January 3, 2028: how many separate offenses?", 6),
    # a jail term is no violation's length
    ("Second offense: could I get both the fine and six months in jail?", None),
    ("Up to 15 days imprisonment, or a violation that went on for 3 weeks: how many weeks of violations?", 21),
])
def test_a_span_and_a_sentence_are_read_apart(build, question, days):
    assert build(question, "hempstead").slots.get("duration_days") == days


@pytest.mark.parametrize("question, activity", [
    # work done to fight a fire is emergency work; a fire department's building project is not
    ("Firefighters cut a fire break through our back acre to stop a brush fire. Review needed now?", "emergency"),
    ("The fire department is building a new firehouse on 2 acres. SWPPP?", None),
])
def test_work_to_fight_a_fire_is_emergency_work(build, question, activity):
    assert build(question, "hempstead").slots.get("activity") == activity


def test_an_area_that_sizes_the_plan_asks_what_it_holds():
    from codeassist.api import _SIZED_PLAN
    assert _SIZED_PLAN.search("Does a plain 2.5-acre SWPPP have to name the receiving waters?")
    assert _SIZED_PLAN.search("a 3-acre office park SWPPP shows the basins only in the narrative")
    # whether a plan is needed for the area is the applicability calculator's
    assert not _SIZED_PLAN.search("Is a 0.8-acre SWPPP required in Hempstead?")
    assert not _SIZED_PLAN.search("Do we need a SWPPP for a 2-acre job?")


def test_an_ordinal_reaches_over_the_place_named_before_the_offense(build):
    assert build("Fourth Town of Hempstead stormwater conviction in five years: what's the maximum fine?",
                 "hempstead").slots["offense_number"] == 4
    assert build("An eighth conviction within five years: is the fine still capped?", "hempstead").slots["offense_number"] == 8
    # a fraction of an acre is no offense's number
    assert "offense_number" not in build("A third of an acre was graded in violation: the fine?", "hempstead").slots


@pytest.mark.parametrize("question, cited", [
    ("Tuckahoe 7B-5 item (g): short summary please", "tuckahoe:7B-5(g)"),
    ("what does 7B-6(a)(1) milestone c say", "tuckahoe:7B-6(a)(1)(c)"),
])
def test_an_item_named_after_its_citation(build, corpus, question, cited):
    plan = build(question, "tuckahoe")
    assert plan.intent == "lookup"
    assert resolve_lookup(corpus, question, plan.citation_text, "tuckahoe").id == cited


@pytest.mark.parametrize("question, municipality, words, gap", [
    ("What's the Village's charge for each erosion-control inspection visit?", "tuckahoe",
     "it allows the Village to charge", True),
    ("Who pays for the Village's inspections of my site?", "tuckahoe", "it allows the Village to charge", False),
    ("How much grass has to grow in before the Town counts the site as finally stabilized?", "hempstead",
     "does not define it or give a measure of vegetative cover", True),
    ("Until when must the SWPPP be kept at the site?", "hempstead",
     "does not define it or give a measure of vegetative cover", False),
    ("Is the electrical licensing exam offered in languages other than English?", "tuckahoe",
     "how it is given (its language or format)", True),
    # the asker's own seat on the Board asks nothing about who sits on it
    ("I'm a newly appointed member of the Board of Examiners. What do we hand the Building Inspector after an exam?",
     "tuckahoe", "does not say who sits on it", False),
    ("Who are the members of the Board of Examiners?", "tuckahoe", "does not say who sits on it", True),
])
def test_figures_and_formats_the_text_does_not_give_are_gaps(build, corpus, question, municipality, words, gap):
    assert (gap_saying(corpus, words) in build(question, municipality).gaps) is gap


def test_whether_one_follows_a_law_in_another_village_is_asked_of_that_land(build):
    plan = build("Our house is in the Village of Cedarhurst. Do we follow the Hempstead town stormwater article for "
                 "a new driveway?", "hempstead")
    assert plan.sited_elsewhere and plan.intent == "abstain"


def test_a_negative_question_typed_without_its_apostrophe_is_yes_no(build):
    assert build("the notice just lists a fine. isnt it supposed to say what the violation is?", "hempstead").yes_no
    assert build("doesnt the village have to tell the applicant too?", "tuckahoe").yes_no


def test_moving_a_ceiling_light_is_electrical_work(build):
    plan = build("Relocating the ceiling light in our den a few feet with new cable. Permit needed?", "tuckahoe")
    assert plan.slots.get("electrical") and plan.calculator == "electrical_permit"


def test_a_defined_term_in_the_possessive_is_not_the_definition_asked(build):
    # what the manual holds is asked, not what "Design Manual" means
    assert build("What are the Design Manual's sizing rules for a rain garden on a Town project?", "hempstead") \
        .asked_definitions == ()
    assert build("What is the Design Manual?", "hempstead").asked_definitions == ("hempstead:390/design-manual",)


@pytest.mark.parametrize("question", [
    "Our last weekly erosion report was Tuesday, June 1, 2027. Can the next one slip past the July 4th weekend?",
    "Last inspection report was done on March 2, 2027. Can we push it past next Wednesday?",
])
def test_whether_a_report_may_slide_past_a_day_is_the_deadlines_calculators(build, question):
    plan = build(question, "hempstead")
    assert plan.calculator == "deadlines" and plan.slots.get("event") == "last_report"


@pytest.mark.parametrize("question, area", [
    # a length in miles
    ("A utility corridor in Lido Beach is a quarter mile long and 35 ft wide, all of it disturbed. Does it meet the "
     "Town's acre threshold?", 1320 * 35),
    ("A strip half a mile long and 20 ft wide: SWPPP?", 2640 * 20),
    ("a road 1 mile long and 12 ft wide", 5280 * 12),
    # a separate part of the same job adds up
    ("0.98 acre of grading plus a separate 1,200 sq ft patch for a shed, same job. Is that one acre or more?",
     0.98 + 1200 / 43560),
])
def test_miles_and_a_separate_part_of_the_same_job(build, question, area):
    got = build(question, "hempstead").slots
    assert got["area"] == pytest.approx(area, abs=1e-5)


def test_miles_alone_are_no_area(build):
    assert build("we're 2 miles from the river, 3 acres of grading", "hempstead").slots["area"] == 3


@pytest.mark.parametrize("question, flag", [
    ("We're building four two-family houses on 2.5 acres in Baldwin. Does the single-family exclusion in Condition C "
     "cover us?", "single_family_residence"),
    ("Condition C leaves out agricultural properties. Does Condition B have the same carve-out for a 6-acre greenhouse "
     "complex in Uniondale?", "agricultural_property"),
])
def test_the_laws_own_words_are_no_fact_of_the_project(build, question, flag):
    slots = build(question, "hempstead").slots
    assert flag not in slots and "activity" not in slots


def test_the_projects_own_words_still_are(build):
    assert build("single-family house on 2 acres in Elmont, SWPPP?", "hempstead").slots["single_family_residence"]
    slots = build("The article exempts farms. I'm building a barn on my farm, 3 acres. SWPPP?", "hempstead").slots
    assert slots["agricultural_property"] and slots["activity"] == "agricultural_structures"


def test_election_day_only_dates_the_work(build):
    plan = build("We'll finish rough grading on a Tuckahoe job at 9 am on Tuesday, November 2, 2027 (Election Day). "
                 "By when do we have to notify the Village?")
    assert plan.subject is None and plan.calculator == "deadlines"
    assert build("when is the next village election?", "tuckahoe").subject == "local government and history"


def test_which_agencys_permit_a_chapter_points_to_is_the_chapters_question(build):
    plan = build("Which agency's construction general permit does Tuckahoe's erosion chapter point builders to?")
    assert plan.external == ()
    # what the document pointed to says is still asked of that document
    assert build("the erosion chapter refers to the SPDES permit - what does it say about inspections?",
                 "tuckahoe").external != ()


def test_where_the_fee_amounts_are_posted_asks_no_figure(build):
    assert build("Where am I supposed to be able to see the Village's electrical fee amounts in person?",
                 "tuckahoe").measure is None
    assert build("What are the Village's electrical fee amounts?", "tuckahoe").measure is not None


def _gaps_missing(corpus, plan) -> list[str]:
    """What each gap the plan names says the text lacks."""
    out = []
    for key in plan.gaps:
        oid, i = key.split("#")
        out.append(corpus.ordinances[oid].gaps[int(i)].missing)
    return out


@pytest.mark.parametrize("question, muni, says", [
    ("Does the Town of Hempstead keep an approved list of erosion control specialists?", "hempstead", "keeps no list"),
    ("Is there a Town form for the weekly inspection reports I can download?", "hempstead", "no form for the inspection"),
    ("If I cancel the job, does the Village refund my electrical permit fee?", "tuckahoe", "refunding a permit fee"),
])
def test_lists_forms_and_refunds_the_text_does_not_hold_are_gaps(build, corpus, question, muni, says):
    assert any(says in m for m in _gaps_missing(corpus, build(question, muni)))


@pytest.mark.parametrize("question, muni", [
    ("What must the weekly inspection reports contain?", "hempstead"),
    ("Failed the electrical exam - is the fee refunded?", "tuckahoe"),  # § 7-11(f): retained
    ("Who may prepare a SWPPP in the Town?", "hempstead"),
])
def test_what_the_text_does_say_about_reports_fees_and_preparers_is_no_gap(build, corpus, question, muni):
    missing = _gaps_missing(corpus, build(question, muni))
    assert not any(s in m for m in missing for s in ("keeps no list", "no form for the inspection", "refunding a permit"))


@pytest.mark.parametrize("question, subject", [
    ("Does Tuckahoe require a permit to install a gas fireplace insert?", "gas appliances and fireplaces"),
    ("How do I reserve a plot at the community garden?", "community gardens and parks"),
    ("Is there a curfew for teenagers in the village?", "curfews and policing"),
    ("How many continuing education hours does a PE need to renew?", "professional licence renewal and continuing education"),
    ("Does the Town pick up Christmas trees after the holidays?", "Christmas tree and bulk pickup"),
])
def test_subjects_the_laws_do_not_cover(build, question, subject):
    assert build(question).subject == subject


def test_christmas_tree_lights_are_no_pickup(build):
    assert build("can I plug my Christmas tree lights into the porch outlet?", "tuckahoe").subject != \
        "Christmas tree and bulk pickup"


def test_a_community_gardens_beds_are_land_being_cleared(build):
    # the garden's rules are not the laws', but stripping sod for its beds is clearing
    assert build("were stripping sod for the comunity garden beds - does that count as clearing?", "hempstead").subject is None


def test_hardwired_heat_cable_is_electrical_work(build):
    plan = build("I want hardwired heat cable along my roof edge to stop ice dams. Tuckahoe permit needed?")
    assert plan.slots.get("electrical") and plan.calculator == "electrical_permit"


def test_grading_for_a_pool_is_the_laws_own_work(build):
    plan = build("We're rough grading for a pool and patio in my Tuckahoe backyard. Does the Village need a heads-up "
                 "before the rough grading is finished?")
    assert plan.subject is None and plan.intent == "retrieval"
    assert build("Can I put an above-ground pool in my yard in Tuckahoe?").subject == "above-ground pool"


def test_what_a_fee_is_based_on_is_no_fee_amount_gap(build, corpus):
    asked = build("Quoting a fit-out in Tuckahoe: are electrical permit fees set by square footage or by job cost?")
    assert not any("fee amounts are set by resolution" in m for m in _gaps_missing(corpus, asked))
    amount = build("How much is the electrical permit fee in Tuckahoe?")
    assert any("fee amounts are set by resolution" in m for m in _gaps_missing(corpus, amount))


def test_digging_the_fill_back_out_is_restoring_the_land(build):
    plan = build("an owner filled a wet corner of his lot without approval. Can we make him dig the fill back out?",
                 "hempstead")
    assert "restore land to its undisturbed condition" in plan.expansions


def test_excavators_named_as_noisy_machines_keep_the_noise_subject(build):
    assert build("What hours are contractors allowed to run jackhammers and excavators on weekdays in the Town?",
                 "hempstead").subject is not None
