"""When an answer opens with "Yes."/"No." (verdict.yes_no): from the provision's headnote yes/no question
closest to the asker's, or from the modal of the quoted law, never when the two disagree. Pure: plans from
the real corpus, hits built by hand (the similarities are what the retriever would report).

The questions here are written for these tests; none is copied from eval/*.jsonl."""

from __future__ import annotations

import pytest

from codeassist.answer import _holds_measure
from codeassist.asking import asked_negatively, negative_main, same_figures
from codeassist.verdict import (YES_NO_EXCEPTION_MARGIN, YES_NO_EXCEPTION_SIMILARITY, YES_NO_MIN_SIMILARITY,
                                YES_NO_TELEGRAPHIC, yes_no)
from codeassist.models import Hit
from codeassist.plan import Planner


@pytest.fixture(scope="module")
def plan(corpus):
    planner = Planner(corpus)
    return lambda q: planner.build(q, "tuckahoe")


def hit(kind: str | None = None, question: str | None = None, similarity: float | None = None) -> Hit:
    return Hit(id="tuckahoe:7-11(f)", municipality="tuckahoe", citation="§ 7-11(f)", heading="", text="",
               score=1.0, yes_no=kind, yes_no_text=question, yes_no_similarity=similarity)


CLOSE = YES_NO_MIN_SIMILARITY + 0.05
FAR = YES_NO_MIN_SIMILARITY - 0.05  # below the bar, above the contradiction floor


def test_a_close_headnote_question_answers(plan):
    assert yes_no(plan("will they refund my fee if I am turned down?"),
                  hit("no", "Is the application fee refunded if the certificate is not granted?", CLOSE)) == "No"


def test_a_condition_does_not_make_the_headnote_question_negative(plan):
    # "... if the certificate is not granted" is a condition; the question asks whether the fee is refunded.
    assert not negative_main("Is the application fee refunded if the certificate is not granted?")
    assert not negative_main("May a contractor lend his license for work not done by him?")
    assert not negative_main("we are not part of a subdivision. do we need a plan?")
    assert negative_main("can I skip the inspection?")
    assert negative_main("is a shed exempt?")
    # what the act is for is no negation; what the asker concludes is
    assert not negative_main("Can we at least put up fencing and tarps so the site isn't dangerous?")
    assert not negative_main("can we cover the piles so that mud doesn't wash out?")
    assert negative_main("it's only 500 square feet, so I don't need a permit?")



def test_a_short_negative_question_pointing_back_asks_the_positive():
    # "Isn't it supposed to?" after "it doesn't mention any penalty" asks whether it is supposed to mention one
    assert not asked_negatively("The notice doesn't mention any penalty. Isn't it supposed to?")
    assert not asked_negatively("the plan has no map. Shouldn't it have to?")
    # an elliptical "have to?" points back at the statement before it, negative or not
    assert asked_negatively("We never touch dirt or any drainage - do we really have to?")
    assert not asked_negatively("We dig the trenches. Do we have to?")
    # "not only" adds to what is asked
    assert not asked_negatively("Is cutting the yearly volume of runoff, not only the peak flow, one of the goals?")


def test_only_in_a_description_or_not_only_asks_no_only():
    from codeassist.asking import ONLY_ASKED
    assert ONLY_ASKED.search("my engineer says only a PE can sign it. Is that right?")
    assert not ONLY_ASKED.search("Is a concrete-lined ditch that only runs when it rains a channel?")
    assert not ONLY_ASKED.search("Is cutting the yearly volume, not only the peak flow, a goal?")


@pytest.mark.parametrize("question,kind,headnote_question", [
    # "can I skip it?" against "Must it be done?": the answers are opposite; say neither.
    ("can I skip the final inspection?", "yes", "Must the final inspection be done?"),
    # A question about 0.3 inch is not the headnote's question about 0.5 inch, however close the words.
    ("do I need a report after 0.3 inch of rain?", "yes", "Is a report needed after 0.5 inch of rain?"),
    # "Is 1 inch = 500 feet large enough?" (No) does not answer "is there a minimum scale?".
    ("does the site map need a particular scale?", "no", "Is a scale of one inch equals 500 feet large enough?"),
    # "may we ask for monthly reports on top of the weekly ones?" adds to the rule; "is a monthly one enough?" replaces it
    ("can we require monthly monitoring reports on top of the weekly inspection reports?", "no",
     "Is a monthly inspection report enough?"),
    # "Is it allowed to make the bay muddy?" (No) is the opposite of "is there any rule about muddy runoff?".
    ("is there any rule about muddy runoff into the bay?", "no", "Is it allowed for my site's runoff to make the bay muddy?"),
    # "my electrician isn't licensed, is that a problem?" is not "may a contractor lend his license?".
    ("my electrician isn't registered here, is that a problem?", "no", "May a contractor let someone else use his license?"),
])
def test_a_close_headnote_question_that_asks_something_else_gives_no_verdict(plan, question, kind, headnote_question):
    assert yes_no(plan(question), hit(kind, headnote_question, CLOSE)) is None


def test_the_same_figures_give_a_verdict(plan):
    assert yes_no(plan("do I need a report after 0.5 inch of rain?"),
                  hit("yes", "Is a report needed after 0.5 inch of rain?", CLOSE)) == "Yes"


def test_the_modal_answers_when_no_headnote_question_is_close(plan):
    said = "It shall be unlawful for any person to reconnect the wiring until a certificate is issued."
    assert yes_no(plan("can I reconnect the wiring myself?"), hit(), said) == "No"


def test_the_modal_and_the_headnote_disagreeing_gives_no_verdict(plan):
    said = "The registration fee shall be retained by the Village."
    q = plan("does the village keep my fee?")
    assert yes_no(q, hit(), said) == "Yes"
    assert yes_no(q, hit("no", "Does the Village keep the fee?", FAR), said) is None


def test_when_something_in_the_story_happened_is_no_figure_of_the_question(plan):
    # "two months later" dates the fire; the headnote question names no figure, and the text holds none of it
    q = plan("the village approved our wiring and two months later it caught fire. can we hold the village liable?")
    assert yes_no(q, hit("no", "Is the Village liable if my inspected wiring causes a fire?", CLOSE),
                  "nor shall the Village be held as assuming any such liability") == "No"


def test_a_close_headnote_question_on_a_prohibitions_exception_answers(plan):
    # "no further work ... except for site stabilization": a question about the exception takes its headnote's Yes
    said = ("no further work shall be conducted, except for site stabilization, until any violations are corrected and "
            "all work previously completed has received approval")
    asked = "After a failed inspection, can we seed or mulch bare slopes to stabilize them before the violations are fixed?"
    q = plan("the village flagged violations on our site. may we keep putting down hay on the bare bank in the meantime?")
    assert yes_no(q, hit("yes", asked, YES_NO_EXCEPTION_SIMILARITY + 0.02), said) == "Yes"
    # a looser match against a prohibition gives none
    assert yes_no(q, hit("yes", asked, YES_NO_EXCEPTION_SIMILARITY - 0.05), said) is None


@pytest.mark.parametrize("opener", ["Village SMO here.", "I'm the Village's stormwater management officer.", "As the SMO,"])
def test_an_official_asking_can_i_asks_of_the_offices_power(plan, opener):
    asked = "Can the Stormwater Management Officer require me to do monitoring and reporting?"
    said = "The Village Stormwater Management Officer may require monitoring and reporting"
    q = plan(f"{opener} can I require the contractor to send me monthly reports?")
    assert yes_no(q, hit("yes", asked, CLOSE), said) == "Yes"
    # a builder asking "can I" is asking what he may do, not what the officer may require
    builder = plan("can I require the officer to accept monthly reports instead?")
    assert yes_no(builder, hit("yes", asked, CLOSE), said) is None


def test_a_permit_named_by_another_identifier_is_not_the_one_the_law_names(corpus):
    q = Planner(corpus).build("Is GP-02-02 the general permit our construction site must follow?", "hempstead")
    said = "the NYS Department of Environmental Conservation SPDES General Permit for Construction Activities GP-02-01"
    assert yes_no(q, hit(), said) == "No"
    same = Planner(corpus).build("Is GP-02-01 the general permit our construction site must follow?", "hempstead")
    assert yes_no(same, hit(), said) != "No"


@pytest.mark.parametrize("question, expected", [
    ("he does electrical contracting for pay and never registered. is that legal?", "No"),
    ("he does electrical contracting for pay and is registered. is that legal?", None),
])
def test_a_situation_lacking_the_step_a_prohibition_requires_is_not_allowed(plan, question, expected):
    said = ("It shall be unlawful for any person, firm or corporation to engage in the business of electrical contractor "
            "without being registered as an electrical contractor.")
    close = hit("yes", "Must an electrical contracting business be registered?", YES_NO_EXCEPTION_SIMILARITY + 0.03)
    assert yes_no(plan(question), close, said) == expected


def test_a_yes_against_a_prohibition_in_the_quote_gives_no_verdict(plan):
    said = "No person shall connect the wiring until the certificate has been issued."
    assert yes_no(plan("can I connect the wiring myself?"),
                  hit("yes", "Can the owner connect the wiring?", CLOSE), said) is None


@pytest.mark.parametrize("question, kind, asked, expected", [
    # "can they start before ...?" is the converse of "must they receive it before ...?"
    ("can the village start reviewing before I hand in the plan?", "yes",
     "Must the plan be received before review?", "No"),
    # "without" ties "may I ...?" to "do I need ...?"; it is not a negation there
    ("can I install the new circuit without a permit?", "yes", "Do I need a permit to install a new circuit?", "No"),
    ("do I need the permit before I start the wiring?", "no", "Can I start the wiring before securing the permit?",
     "Yes"),
])
def test_a_headnote_question_asking_the_converse_answers_the_other_way(plan, question, kind, asked, expected):
    said = "An application will not be reviewed until the plan has been received."
    assert yes_no(plan(question), hit(kind, asked, CLOSE), said) == expected


def test_may_against_must_with_nothing_tying_them_gives_no_headnote_verdict(plan):
    # "may the inspector enter?" and "must the inspector enter?" ask different things
    assert yes_no(plan("can the inspector come onto my site?"),
                  hit("yes", "Must the inspector inspect the site?", CLOSE), "") is None


def test_not_a_yes_no_question(plan):
    assert yes_no(plan("how much is the registration fee?"), hit("no", "Is the fee refunded?", CLOSE)) is None


# --- the figure a size or price question needs (answer._holds_measure) --------------------------------------

@pytest.mark.parametrize("text,measure,held", [
    ("Fences, signs and poles may be exempt from review.", "how tall", False),
    ("Conditions apply to sites of five acres or more.", "how deep", False),     # acres are no depth
    ("The fence shall not exceed six feet in height.", "how tall", True),
    ("at a scale of one inch equals 100 feet", "what size", True),
    ("not more than one acre shall be disturbed", "how big", True),
    ("reasonable costs at prevailing rates", "how much does the review cost", False),
    ("a fee of $50 shall be paid", "how much is the fee", True),
])
def test_a_size_or_price_needs_a_figure_of_its_kind(text, measure, held):
    assert _holds_measure(text, measure) is held


@pytest.mark.parametrize("question, negative", [
    ("my electrician isn't licensed, is that a problem?", True),    # the clause points back at the statement
    ("I'm renting, not buying. Am I an owner under the law?", False),
    ("he never finished the drains. Can the town stop occupancy?", False),
    ("he cleared the lot without approval. Can the town make him put it back?", False),  # "it" is the lot
    ("can a homeowner who is not registered pull a permit?", False),  # a relative clause describes
    ("can I skip the inspection?", True),
])
def test_a_statement_before_the_question_negates_it_only_when_referred_back_to(question, negative):
    assert asked_negatively(question) is negative


@pytest.mark.parametrize("question, asked, same", [
    ("is my 80 sq ft shed a building?", "Is a shed of 100 square feet or less a building?", True),
    ("is my 120 sq ft shed a building?", "Is a shed of 100 square feet or less a building?", False),
    # a strict bound: "more than 100" holds 120, not 100
    ("is my 120 sq ft shed a building?", "Is a shed of more than 100 square feet a building?", True),
    ("is my 100 sq ft shed a building?", "Is a shed of more than 100 square feet a building?", False),
    ("is my 80 sq ft shed a building?", "Is a shed of more than 100 square feet a building?", False),
    ("is a 6 acre project covered?", "Is a project of 5 acres or more covered?", True),
    ("0.3 inch of rain - report due?", "Is a report due after 0.5 inch of rain?", False),
    ("is a report due after half an inch?", "Is a report due after 0.5 inch of rain?", False),  # words vs digits
    # a chapter's number and a person's age are no figures the headnote must share
    ("does a utility count as an electrical contractor under ch 7?", "Is a public utility an electrical contractor?", True),
    ("my 17-year-old works for a contractor. is he a contractor?", "Is an employee of a contractor a contractor?", True),
    # what kind of development it is ("a 4-lot subdivision", "a two-family house") is no figure either
    ("can they demand a bond on a new 4-lot subdivision?", "Can the Village require a performance bond?", True),
    ("is a 3-story two-family house covered?", "Is a house covered?", True),
])
def test_a_figure_within_the_headnote_questions_bound_is_its_figure(question, asked, same):
    assert same_figures(question, asked) is same


def test_a_telegraphic_question_takes_a_very_close_headnote_answer(plan):
    q = plan("homeowner pull own electric permit?")
    assert not q.yes_no
    asked = "Can a homeowner pull his own electrical permit?"
    assert yes_no(q, hit("no", asked, YES_NO_TELEGRAPHIC + 0.01), "") == "No"
    assert yes_no(q, hit("no", asked, YES_NO_TELEGRAPHIC - 0.05), "") is None
    # "X = Y?" asks whether X is Y: a yes/no question, at the usual bar.
    assert plan("dude ranch = farm?").yes_no


def test_one_provisions_verdict_does_not_answer_whether_two_places_differ(plan):
    q = plan("is the appeal window any different in the Town and the Village?")
    assert yes_no(q, hit("yes", "May the determination be appealed?", CLOSE), "") is None


def test_the_modal_answers_only_a_question_the_quote_speaks_to(plan):
    said = "All land development activities shall submit a stormwater pollution prevention plan to the officer."
    assert yes_no(plan("are swales required?"), hit(), said) is None  # the quote never names a swale
    assert yes_no(plan("is a plan required?"), hit(), said) == "Yes"


def test_a_subject_the_question_denies_gets_no_verdict(plan):
    # The headnote question (and the quoted rule) are about landscape architects; she is not one.
    prepare = "Can a New York State licensed landscape architect prepare the SWPPP?"
    said = "The SWPPP shall be prepared by a New York State licensed landscape architect."
    assert yes_no(plan("she's an architect but not a landscape architect. Can she prepare the SWPPP?"),
                  hit("yes", prepare, CLOSE), said) is None
    assert yes_no(plan("she's a landscape architect. Can she prepare the SWPPP?"), hit("yes", prepare, CLOSE), said) == "Yes"


def test_an_either_or_question_is_answered_on_its_first_half(plan):
    owner = "Does the applicant have to be the property owner?"
    # The headnote question matches the second half; "No." would read as "you cannot be the applicant".
    assert yes_no(plan("Can I, as the builder, be the applicant, or does that have to be the owner?"),
                  hit("no", owner, CLOSE)) is None
    assert yes_no(plan("Does the applicant have to be the owner, or can a builder apply?"), hit("no", owner, CLOSE)) == "No"


def test_asking_whether_something_is_a_violation_is_the_converse_of_may_one_do_it(plan):
    use = "May an owner permit the use of wiring installed in violation of the electrical code?"
    assert yes_no(plan("the wiring was never done to code. is just using it a violation?"), hit("no", use, CLOSE)) == "Yes"
    assert yes_no(plan("may the tenant keep using wiring installed in violation of the code?"), hit("no", use, CLOSE)) == "No"
    # "against any Hempstead rule", "against the town's rules": a rule's owner between "against" and "rule".
    muddy = "Is it allowed for my site's runoff to make the bay visibly muddy?"
    assert yes_no(plan("the creek turns brown every rain. is that against any hempstead rule?"), hit("no", muddy, CLOSE)) == "Yes"
    assert yes_no(plan("our runoff muddies the bay. is that against the town's rules?"), hit("no", muddy, CLOSE)) == "Yes"
    assert yes_no(plan("the owner lets the tenant keep using it. is the owner violating anything?"),
                  hit("no", use, CLOSE)) == "Yes"


def test_while_ties_a_may_question_to_a_must_before_headnote(plan):
    must = "Must the Department of Engineering receive a SWPPP before an application is reviewed?"
    assert yes_no(plan("Can engineering start reviewing our application while the swppp is still being finished?"),
                  hit("yes", must, CLOSE)) == "No"


def test_a_long_no_shall_sentence_prohibits(plan):
    said = "No application for approval of a land development activity shall be reviewed until the plan is received."
    assert yes_no(plan("can I get my application reviewed now?"), hit(), said) == "No"


def test_a_denial_the_headnote_question_shares_is_not_a_different_subject(plan):
    # The headnote question is itself about someone who is not a registered contractor.
    asked = "Can a homeowner who is not a registered electrical contractor get an electrical permit?"
    assert yes_no(plan("can I get the permit as a homeowner if I'm not a registered contractor?"),
                  hit("no", asked, CLOSE)) == "No"


def test_a_prohibition_on_anyone_answers_whether_someone_else_may(plan):
    said = "It shall be unlawful for any person to make connection to wiring until the Building Inspector approves it."
    assert yes_no(plan("can the utility make the connection before the inspector approves the wiring?"), hit(), said) == "No"
    # A prohibition on one named person says nothing of what an official may do.
    assert yes_no(plan("can the inspector make the connection before approving the wiring?"), hit(),
                  "The contractor shall not make connection to wiring until approved.") is None


def test_the_glossarys_words_count_toward_what_the_quote_speaks_to(plan):
    said = "It shall be unlawful to reconnect wiring that the Building Inspector disconnected until approved."
    assert yes_no(plan("the inspector cut my power. can my electrician turn it back on?"), hit(), said) == "No"


def test_a_figure_the_provision_holds_needs_none_in_the_headnote_question():
    asked = "Is the reopening of the construction season one of the stages needing notice?"
    assert same_figures("Do I owe 48 hrs notice before reopening?", asked, "notify at least 48 hours before each stage")
    assert not same_figures("Do I owe 72 hrs notice before reopening?", asked, "notify at least 48 hours before each stage")


def test_a_two_part_question_is_given_a_verdict_on_its_yes_no_part(plan):
    q = plan("Can the officer hire an outside engineer to review plans? And who sets what that costs?")
    assert q.verdict_query == "Can the officer hire an outside engineer to review plans?"
    hire = "Can the Stormwater Management Officer hire an outside engineer to review the plans?"
    assert yes_no(q, hit("yes", hire, CLOSE)) == "Yes"  # asked of the yes/no part only
    assert plan("My electrician is not licensed. Is that a problem?").verdict_query is None  # one question
    assert plan("What is a SWPPP? Who writes it?").verdict_query is None  # no yes/no part


def test_we_asking_of_a_power_the_law_gives_the_town_are_the_town(plan):
    said = "The Stormwater Management Officer may prevent the occupancy of the building or land."
    assert yes_no(plan("the builder ignored the erosion rules. can we prevent occupancy of the house?"), hit(), said) == "Yes"
    # "can I ...?" of the same power asks what the asker may do: the Town's power says nothing of it.
    assert yes_no(plan("the builder ignored the erosion rules. can I prevent occupancy of the house?"), hit(), said) is None


def test_a_headnote_question_counting_in_other_units_of_time_gives_no_verdict():
    from codeassist.asking import _periods
    assert _periods("is every day it continues a new offense?") == {1}
    assert _periods("Is each week's continued violation a separate additional violation?") == {2}
    assert _periods("is it weekly or monthly?") == {2, 3}
    assert _periods("how long do I have?") == set()


def test_a_close_headnote_question_in_another_unit_of_time_gives_no_verdict(plan):
    asked = "Is each week's continued violation a separate additional violation?"
    assert yes_no(plan("is every day it goes on counted as a new violation?"), hit("yes", asked, CLOSE)) is None
    assert yes_no(plan("is every week it goes on counted as a new violation?"), hit("yes", asked, CLOSE)) == "Yes"


@pytest.mark.parametrize("question, asked, said, verdict", [
    # "may require" is the Village's choice: neither Yes nor No answers "does the village require ...?"
    ("does the village require a bond for erosion control?", "Can the Village require a performance bond before construction starts?",
     "the Village may require the applicant or developer to provide a performance bond", None),
    # ... while "shall require" is a duty.
    ("does the village require a plan?", "Does the Village require a plan?", "the Village shall require a plan", "Yes"),
])
def test_a_power_to_require_does_not_answer_whether_it_is_required(plan, question, asked, said, verdict):
    assert yes_no(plan(question), hit("yes", asked, CLOSE), said) == verdict


def test_an_area_given_by_its_sides_is_the_figure_set_against_a_headnote_bound(plan):
    asked = "Is a shed of 100 square feet or less a building?"
    assert yes_no(plan("my shed is 8 by 10 feet. is it a building?"), hit("no", asked, CLOSE)) == "No"
    assert yes_no(plan("my shed is 12 by 20 feet. is it a building?"), hit("no", asked, CLOSE)) is None


def test_a_figure_outside_the_closest_bound_takes_the_rival_whose_bound_holds_it(plan):
    below, above = "Is a shed of 100 square feet or less a building?", "Is a shed of more than 100 square feet a building?"

    def pair(kind, asked, rival, similarity=CLOSE):
        return hit(kind, asked, similarity).model_copy(update={"yes_no_rival": similarity - 0.02, "yes_no_rival_text": rival})
    # 240 sq ft is outside the closest question's bound and within its rival's: the rival answers
    assert yes_no(plan("my shed is 12 by 20 feet. is it a building?"), pair("no", below, above)) == "Yes"
    assert yes_no(plan("my shed is 8 by 10 feet. is it a building?"), pair("yes", above, below)) == "No"
    # within the closest question's own bound: its answer
    assert yes_no(plan("is my 150 sq ft shed a building?"), pair("yes", above, below)) == "Yes"
    # a rival under the bar does not answer
    far = pair("no", below, above).model_copy(update={"yes_no_rival": FAR})
    assert yes_no(plan("my shed is 12 by 20 feet. is it a building?"), far) is None


@pytest.mark.parametrize("question, kind, asked, expected", [
    # Severability asked both ways: "is the whole thing dead?" is the converse of "is the rest still good?"
    ("if a judge tosses one piece of the law, is the whole thing dead?", "yes",
     "If a court throws out one part of the law, is the rest still good?", "No"),
    ("a court voided one section. does the remainder still apply?", "no",
     "If a court strikes down one part of the law, does the whole law fall with it?", "Yes"),
    ("a court voided one section. does the rest fall too?", "no",
     "If a court strikes down one part of the law, does the whole law fall with it?", "No"),
    # "the rest dead" asks whether it falls, as "the whole thing dead" does
    ("if a judge tosses one piece of the law, is the rest dead too?", "yes",
     "If a court throws out one part of the law, is the rest still good?", "No"),
    # a headnote question that names both the invalid part and the remainder standing asks the same thing
    ("a court voided one section. does the rest of it remain in effect?", "yes",
     "Does the remainder stay in force if a court judges a provision invalid?", "Yes"),
])
def test_whether_the_whole_falls_is_the_converse_of_whether_the_rest_stands(plan, question, kind, asked, expected):
    assert yes_no(plan(question), hit(kind, asked, CLOSE)) == expected


def test_a_candidate_quoted_beside_the_lead_leads_when_only_it_settles_the_question(corpus):
    from codeassist.answer import ALSO_CITED, YES_NO_PROMOTE, _verdict_first
    plan = Planner(corpus).build("Does the farm exemption cover putting up a new barn?", "hempstead")
    exemption = Hit(id="hempstead:exemptions(A)", municipality="hempstead", citation="", heading="", text="", score=1.0)
    definition = Hit(id="hempstead:390/agricultural-activity", municipality="hempstead", citation="", heading="",
                     text="", score=0.9, yes_no="no", yes_no_text="Does the farm exemption cover building a new barn?",
                     yes_no_similarity=YES_NO_PROMOTE + 0.05)
    best = [(1.0, "Agricultural activity as defined in this article.", corpus.get(exemption.id), exemption),
            (0.9, "... or the construction of new structures ...", corpus.get(definition.id), definition)]
    assert [b[2].id for b in _verdict_first(corpus, plan, best)] == [definition.id, exemption.id]
    # A candidate not close enough to be quoted beside the lead does not take its place.
    far = [best[0], (ALSO_CITED - 0.1, *best[1][1:])]
    assert [b[2].id for b in _verdict_first(corpus, plan, far)] == [exemption.id, definition.id]


def test_what_anyone_is_forbidden_says_nothing_of_an_officials_power(plan):
    said = ("It shall be unlawful to reconnect a source of electrical energy to wiring that the Building Inspector "
            "disconnected.")
    assert yes_no(plan("can the building inspecter shut off power to my house?"), hit(), said) is None
    assert yes_no(plan("can the utility reconnect it before the certificate?"), hit(), said) == "No"


def test_asking_whether_something_happens_only_so_is_not_asking_whether_it_may(plan):
    random = "Can the Village do random inspections of stormwater facilities?"
    assert yes_no(plan("does the village only inspect stormwater facilities when somebody complains?"),
                  hit("yes", random, CLOSE)) is None
    assert yes_no(plan("does the village inspect stormwater facilities at random?"), hit("yes", random, CLOSE)) == "Yes"


def test_a_rule_against_something_asks_whether_it_is_forbidden(plan):
    # "is there any rule about ...?" asks whether the law speaks to it (a Yes only from a binding provision,
    # below); "isn't there a rule against that?" asks whether it is forbidden: the converse of "is it allowed?".
    allowed = "Is it allowed for my site's runoff to make the bay muddy?"
    assert yes_no(plan("the site's runoff turns the bay brown. isn't there a rule against that?"),
                  hit("no", allowed, CLOSE)) == "Yes"


def test_the_modal_does_not_answer_a_figure_the_quote_lacks(plan):
    said = "All electrical installations shall conform to the National Electrical Code, 1978 Edition."
    assert yes_no(plan("does the village go by the 2020 NEC?"), hit(), said) is None
    assert yes_no(plan("does the village go by the 1978 NEC?"), hit(), said) == "Yes"


def test_a_clause_pointing_back_takes_the_figures_of_the_statement_before_it(plan):
    said = ("An electrical contractor licensed by another town shall be entitled to a Tuckahoe registration if he had "
            "been in the electrical business not less than five years.")
    assert yes_no(plan("I was in business three years when the other town licensed me. Does Tuckahoe honor it?"),
                  hit(), said) is None
    assert yes_no(plan("I was in business six years when the other town licensed me. Does Tuckahoe honor it?"),
                  hit(), said) is None  # six is not the text's five either: no verdict rather than a guess
    # A quote that counts nothing is not contradicted by a figure the statement gives in passing.
    entry = "The landowner shall grant the Village the right to enter the property to inspect the facility."
    assert yes_no(plan("my drywell went in 12 years ago. Can the Village still come in to inspect it?"),
                  hit(), entry) == "Yes"


def test_a_choice_between_two_answers_gets_no_verdict(plan):
    said = "A written notice of violation shall be served upon the landowner."
    assert yes_no(plan("does the village send the notice to the landowner or to the contractor?"), hit(), said) is None
    assert yes_no(plan("does the village send the notice to the landowner?"), hit(), said) == "Yes"


def test_isnt_there_asks_whether_there_is():
    from codeassist.plan import _is_yes_no
    assert _is_yes_no("the pond turns brown after rain. isn't there a rule against that?")
    assert not negative_main("isn't there a rule against that?")


@pytest.mark.parametrize("rival, verdict", [
    (None, None),  # nothing says how far the other side is: the exception floor holds
    (CLOSE - YES_NO_EXCEPTION_MARGIN + 0.01, None),  # as close to the other side of the rule: no verdict
    (CLOSE - YES_NO_EXCEPTION_MARGIN - 0.01, "Yes"),  # clearly on one side
])
def test_a_rule_with_an_exception_answers_below_its_floor_only_a_question_clearly_on_one_side(plan, rival, verdict):
    said = "persons receiving it shall halt all work, except those activities necessary to secure the site"
    asked = "Under a stop-work order, may we still secure the site?"
    near = hit("yes", asked, CLOSE).model_copy(update={"yes_no_rival": rival})
    assert CLOSE < YES_NO_EXCEPTION_SIMILARITY
    assert yes_no(plan("stop-work order on us: can we batten down the site?"), near, said) == verdict
    very_close = near.model_copy(update={"yes_no_similarity": YES_NO_EXCEPTION_SIMILARITY, "yes_no_rival": None})
    assert yes_no(plan("stop-work order on us: can we batten down the site?"), very_close, said) == "Yes"


@pytest.mark.parametrize("question, kind, asked, expected", [
    # "good forever?" asks the converse of "does it expire?"; "last indefinitely?" the same as "stay valid indefinitely?"
    ("is a temporary hookup approval good forever?", "yes", "Does approval for temporary electrical work expire?", "No"),
    ("does the temporary approval run out?", "no", "Does a temporary certificate stay valid indefinitely?", "Yes"),
    ("does a temporary certificate last indefinitely?", "no", "Does a temporary certificate stay valid indefinitely?", "No"),
])
def test_whether_something_lasts_is_the_converse_of_whether_it_expires(plan, question, kind, asked, expected):
    assert yes_no(plan(question), hit(kind, asked, CLOSE)) == expected


def test_is_there_a_rule_is_answered_yes_by_a_binding_provision_close_to_it(plan):
    said = "No land development activity shall cause an increase in turbidity in surface waters."
    asked = hit("no", "Is it allowed for my site's runoff to make the bay muddy?", 0.65)
    assert yes_no(plan("is there any rule about muddy turbidity running into the bay?"), asked, said) == "Yes"
    # a provision that binds no one, or a headnote question not close, says nothing about whether a rule exists
    assert yes_no(plan("is there any rule about muddy turbidity running into the bay?"), asked,
                  "The chapter finds that turbidity harms fish.") is None
    assert yes_no(plan("is there any rule about muddy turbidity running into the bay?"),
                  asked.model_copy(update={"yes_no_similarity": 0.5}), said) is None


def test_is_there_a_time_limit_needs_a_figure_not_just_a_rule(plan):
    asked = hit("yes", "Must the officer approve a plan that complies?", 0.65)
    said = "The officer shall approve the plan if it complies with the requirements of this chapter."
    assert yes_no(plan("is there a time limit for the officer to approve the plan?"), asked, said) is None
    assert yes_no(plan("is there a time limit for the officer to approve the plan?"), asked,
                  said.replace("shall approve", "shall approve within 30 days")) == "Yes"


def test_the_modal_gives_no_verdict_when_the_question_counts_in_other_periods(plan):
    said = "Each week's continued violation shall constitute a separate additional violation."
    assert yes_no(plan("does every day it stays unfixed count as a separate violation?"), hit(), said) is None
    assert yes_no(plan("does every week it stays unfixed count as a separate violation?"), hit(), said) == "Yes"


def test_am_i_breaking_the_law_and_isnt_it_against_the_rules_ask_whether_it_is_forbidden(plan):
    asked = hit("no", "May an owner permit the use of wiring installed in violation of the code?", CLOSE)
    assert yes_no(plan("the wiring was done illegally. am I breaking the law just by using it?"), asked) == "Yes"
    assert yes_no(plan("isn't it against the rules for the owner to keep using that wiring?"), asked) == "Yes"


def test_a_relative_clause_with_never_does_not_negate_the_question():
    assert not negative_main("can the town shut down a job that never got approval?")
    assert negative_main("can the town never shut it down?")


def test_a_yes_about_one_profession_is_no_yes_for_another(plan):
    asked = "Can a certified erosion control specialist prepare the SWPPP?"
    said = ("The SWPPP shall be prepared by a New York State licensed landscape architect, certified erosion control "
            "specialist, or New York State licensed professional engineer.")
    assert yes_no(plan("can a land surveyor put together and stamp our swppp?"), hit("yes", asked, CLOSE), said) is None
    assert yes_no(plan("can our general contractor just sign the swppp?"), hit("yes", asked, CLOSE), said) is None
    # The profession the headnote names keeps its answer.
    assert yes_no(plan("can an erosion control specialist who is certified prepare our swppp?"),
                  hit("yes", asked, CLOSE), said) == "Yes"


def test_an_official_asked_by_an_abbreviation_is_no_other_actor():
    from codeassist.asking import other_actor

    named = "Can a certified erosion control specialist prepare the SWPPP?"
    assert other_actor("can a land surveyor sign the SWPPP?", named)
    assert not other_actor("can a certified erosion control specialist sign it?", named)
    # "SMO", spelled out beside the question by the glossary, is the Stormwater Management Officer, an official;
    # so is a county.
    assert not other_actor("can the SMO just sign it?", named, ("stormwater management officer",))
    assert not other_actor("can the county do the inspections?", named)
    # "us" is who is made to do it, not who does it
    assert not other_actor("can the village make us do monitoring and send in reports?",
                           "The Village Stormwater Management Officer may require monitoring and reporting")


def test_a_no_about_one_profession_is_no_no_for_another(plan):
    said = "The SWPPP shall be prepared by a licensed landscape architect or a licensed professional engineer."
    surveyor = hit("no", "Can a land surveyor prepare the SWPPP?", CLOSE)
    assert yes_no(plan("can a land surveyor stamp the SWPPP?"), surveyor, said) == "No"
    assert yes_no(plan("can a landscape architect stamp the SWPPP?"), surveyor, said) is None


def test_whether_a_described_situation_meets_the_rule_is_not_read_off_the_rule(plan):
    said = "The as-built plans shall be certified by a New York State licensed professional engineer."
    must = "Must the as-built plans be certified by a New York State licensed professional engineer?"
    judged = plan("our as-built was stamped by a licensed engineer. is that acceptable?")
    assert yes_no(judged, hit(), said) is None  # the modal of the rule does not judge the situation
    assert yes_no(judged, hit("yes", must, CLOSE), said) is None  # nor does a merely close headnote question
    assert yes_no(judged, hit("yes", must, YES_NO_EXCEPTION_SIMILARITY), said) == "Yes"  # a very close one may
    # but not for an engineer licensed outside New York: the rule's Yes is for New York licences
    ohio = plan("our as-built was stamped by an engineer licensed in Ohio. is that acceptable?")
    assert yes_no(ohio, hit("yes", must, YES_NO_EXCEPTION_SIMILARITY), said) is None
    assert yes_no(plan("must the as-built plans be certified by an engineer?"), hit(), said) == "Yes"



def test_a_kind_of_a_role_is_not_the_role():
    from codeassist.asking import other_actor

    landscape = "Can a New York State licensed landscape architect prepare the SWPPP?"
    architect = "Can an architect sign the SWPPP?"
    assert other_actor("can my architect sign the swppp?", landscape)  # named only as a landscape architect
    assert not other_actor("can a landscape architect sign the swppp?", landscape)
    assert other_actor("can a landscape architect sign the swppp?", architect)  # the question names a kind
    assert not other_actor("can my architect sign the swppp?", architect)
    # "licensed professional" qualifies an engineer without naming another profession
    assert not other_actor("can my engineer sign the swppp?", "Can a licensed professional engineer sign it?")
    # whoever does the work, named by no qualification, is nobody in particular
    assert not other_actor("can the crew still do work to secure the site?",
                            "May activities necessary to secure the site continue under a stop-work order?")


def test_the_other_answers_question_with_the_askers_polarity_answers_when_nearly_as_close(plan):
    said = "Silvicultural activity may be exempt, except that landing areas and log haul roads are subject to this law."
    closest = Hit(id="hempstead:exemptions(B)", municipality="hempstead", citation="", heading="", text="", score=1.0,
                  yes_no="yes", yes_no_text="Are log haul roads subject to this law?", yes_no_similarity=0.77,
                  yes_no_rival=0.72, yes_no_rival_text="Are log haul roads exempt from the stormwater law?")
    assert yes_no(plan("we log our woodlot. are the haul roads exempt too?"), closest, said) == "No"
    assert yes_no(plan("we log our woodlot. are the haul roads subject to the law?"), closest, said) == "Yes"
    # not nearly as close: the closest question answers, as the converse ("exempt" against "subject to")
    far = closest.model_copy(update={"yes_no_rival": 0.6})
    assert yes_no(plan("we log our woodlot. are the haul roads exempt too?"), far, said) == "No"


def test_is_there_answered_by_a_headnote_question_asking_is_there(plan):
    said = ("The license shall expire on the 31st day of December but may be renewed, provided that said renewal is "
            "filed on or before the above expiration date, or the license will be revoked.")
    grace = hit("no", "Is there a grace period to renew my registration after it expires?", CLOSE)
    assert yes_no(plan("is there any grace period to renew in January?"), grace, said) == "No"
    # asked about figures it does not name, it gives no verdict; and no Yes to the binding rule either
    assert yes_no(plan("is there a 30 day grace period to renew?"), grace, said) is None


def test_a_modal_does_not_answer_whether_only_one_may(plan):
    said = "The Village shall send the notice of violation to the landowner or other person in control of the premises."
    assert yes_no(plan("must the village send the notice to the owner only?"), hit(), said) is None
    assert yes_no(plan("must the village send the notice to the owner?"), hit(), said) == "Yes"


def test_a_possessive_does_not_hide_an_obligation():
    from codeassist.plan import ask_kind
    assert ask_kind("does the Town's stormwater officer have to review every plan personally?") == "obligation"
    assert ask_kind("does my contractor's crew need a permit?") == "obligation"


def test_a_headnote_question_about_a_kind_of_role_does_not_answer_a_question_naming_none():
    from codeassist.asking import role_unasked
    asked = "Can the as-built plans be certified by a landscape architect instead of a licensed professional engineer?"
    assert role_unasked("are as-built plans required and who has to certify them?", asked)
    assert not role_unasked("can a landscape architect certify the as-builts?", asked)
    assert not role_unasked("can my architect certify them?", asked)  # named: other_actor's to judge
    # roles qualified only generically ("each electrician", "a licensed professional engineer") are no kind
    assert not role_unasked("I work for a registered contractor. do I need my own registration?",
                             "Does each electrician a registered contractor employs have to register too?")
    assert not role_unasked("must the plan be sealed?", "Must a licensed professional engineer seal the plan?")


def test_is_there_a_thing_takes_a_close_headnote_answer_not_a_binding_rules_yes(plan):
    # "is there another fee ...?" asks about a thing (a fee), not whether a rule exists: the close headnote
    # question's No answers it, not the Yes a binding sentence ("shall become null and void") would give
    said = ("the certificate of registration shall become null and void 30 days after the termination, unless the "
            "contractor files the name of another master electrician; it is then renewed without payment of any further fee")
    fee = hit("no", "Is a further fee required to renew the certificate when a new supervisor is named within the allowed period?", CLOSE + 0.1)
    assert yes_no(plan("Is there another fee to renew the registration after the supervisor leaves?"), fee, said) == "No"
    # "is there a rule about ...?" still asks whether the law speaks to it
    assert yes_no(plan("is there a rule about renewing after the supervisor leaves?"), fee, said) != "No"


def test_does_the_town_care_asks_whether_the_law_speaks_to_it(plan):
    said = ("A land development activity shall not cause an increase in turbidity that will result in substantial "
            "visible contrast to natural conditions in surface waters")
    allowed = hit("no", "Is it allowed for my site's runoff to make the bay visibly muddy?", 0.77)
    assert yes_no(plan("Does the village care if my site makes the water in the surface waters cloudy and muddy with turbidity?"),
                  allowed, said) == "Yes"
    assert yes_no(plan("Is it allowed for my site to make the surface waters muddy?"), allowed, said) == "No"


def test_a_rule_for_new_york_licences_is_no_yes_for_a_licence_from_another_state(plan):
    said = ("An electrical contractor holding a license from another town or municipality of the State of New York "
            "shall be entitled to a license")
    ny = hit("yes", "Is an electrician licensed in another New York municipality entitled to a Tuckahoe registration?", 0.75)
    # what it grants New York licences only, it does not grant another state's
    assert yes_no(plan("My electrical license is from New Jersey. Does Tuckahoe honor it?"), ny, said) == "No"
    assert yes_no(plan("I'm licensed in White Plains. Does Tuckahoe honor my license?"), ny, said) == "Yes"
    required = "No person shall engage in the business of an electrical contractor in the State of New York unless registered."
    assert yes_no(plan("My electrical license is from New Jersey. Can I work in Tuckahoe?"), hit(), required) is None


def test_a_rules_modal_does_not_say_yes_to_requiring_a_thing_it_never_names(plan):
    said = "Each and every day that such violation continues shall constitute a separate offense."
    assert yes_no(plan("Does Tuckahoe require a trained contractor on site every day?"), hit(), said) is None
    assert yes_no(plan("does the village require a guarantee from the developer?"), hit(),
                  "The developer shall provide the Village with a guarantee of the completion of the facilities.") == "Yes"


def test_may_be_required_is_a_power_not_a_duty(plan):
    said = ("the developer, prior to construction, may be required to provide the Village with an irrevocable letter of "
            "credit")
    assert yes_no(plan("does the village require a letter of credit?"), hit(), said) is None


def test_whoever_is_named_to_enforce_must_be_the_one_the_law_names(plan):
    said = "the Stormwater Management Officer may prevent the occupancy of said building or land"
    assert yes_no(plan("Can the police enforce an occupancy hold?"), hit(), said) is None
    assert yes_no(plan("Can the village prevent occupancy of the building?"), hit(), said) == "Yes"


def test_a_figure_put_to_us_as_the_laws_that_the_text_gives_otherwise_is_a_no(plan):
    said = "the determination of violation may be appealed by filing a written notice of appeal within 15 days of service"
    assert yes_no(plan("I heard the appeal window on a violation notice is 30 days. Right?"), hit(), said) == "No"
    assert yes_no(plan("do I get 30 days to appeal?"), hit(), said) == "No"
    # a figure of the asker's situation, or one the text gives, is no claim to refute
    assert yes_no(plan("is a second offense within 3 years fined more?"), hit(), "committed within a period of five years") != "No"
    assert yes_no(plan("is it true the appeal window is 15 days?"), hit(), said) != "No"
    # a figure someone else told, checked against the law
    assert yes_no(plan("The letter says we have 45 days to appeal. Is that what the Village code says?"), hit(), said) == "No"
    assert yes_no(plan("My contractor said I have 15 days to appeal. Is that what the law says?"), hit(), said) != "No"


def test_a_step_the_headnote_question_never_names_is_not_its_answer(plan):
    said = "persons receiving it shall halt all land development activities, except those that address the violations"
    work = hit("yes", "May work that addresses the violations continue under a stop-work order?", 0.75)
    assert yes_no(plan("can I appeal a stop-work order?"), work, said) is None
    assert yes_no(plan("can work that fixes the violation continue under a stop-work order?"), work, said) == "Yes"


def test_an_officials_power_is_not_the_converse_of_a_partys_duty(plan):
    said = "the landowner shall grant to the Village the right to enter the property at reasonable times"
    entry = hit("yes", "If private property is connected to the public system, must the landowner grant the Village a right of entry?", 0.68)
    assert yes_no(plan("can the village enter my property without permission?"), entry, said) is None


def test_how_often_is_answered_only_by_words_of_frequency():
    from codeassist.answer import _holds_measure
    assert _holds_measure("Inspection reports shall be completed every seven days.", "how often")
    assert _holds_measure("Sediment shall be removed whenever the design capacity has been reduced by 50%.", "how often")
    assert not _holds_measure("The Board of Examiners submits a written report to the Building Inspector.", "how often")


def test_whether_something_counts_as_a_term_is_no_rules_modal(plan):
    said = "This chapter shall be applicable to all land development activities as defined in Appendix A, Zoning, § 12-1."
    assert yes_no(plan("does tearing down a house count as a land development activity?"), hit(), said) is None


def test_the_step_a_prohibition_requires_is_not_forbidden(plan):
    said = ("It shall be unlawful for any person, firm or corporation to engage in the business of electrical contractor "
            "without being registered as an electrical contractor.")
    assert yes_no(plan("can a corporation register as an electrical contractor?"), hit(), said) is None
    assert yes_no(plan("can I run an electrical contracting business without registering?"), hit(), said) != "Yes"


def test_a_headnote_question_about_someone_lacking_a_registration_does_not_answer_for_anyone(plan):
    unregistered = hit("no", "May an unregistered company carry on the business of electrical contractor in the Village?", 0.73)
    said = "It shall be unlawful for any person, firm or corporation to engage in the business without being registered."
    assert yes_no(plan("can a corporation register as an electrical contractor?"), unregistered, said) is None
    assert yes_no(plan("can an unregistered company do electrical contracting here?"), unregistered, said) == "No"


def test_an_officials_power_is_no_yes_to_what_i_may_do(plan):
    approve = hit("yes", "May the Stormwater Management Officer approve the portion of the work completed?", 0.62)
    said = "The Stormwater Management Officer may either approve that portion of the work completed or notify the applicant."
    assert yes_no(plan("can I start work before my SWPPP is approved?"), approve, said) is None


def test_is_there_a_thing_takes_only_a_headnote_question_about_that_thing(plan):
    said = "engage a registered professional engineer at a cost not to exceed a fee schedule established by the Town Board"
    cost = hit("no", "Can the outside engineer's review cost more than the Town Board's fee schedule?", 0.65)
    assert yes_no(plan("Is there any cap on what the outside review costs?"), cost, said) != "No"


def test_a_partys_duty_before_an_officials_act_is_still_its_converse(plan):
    said = ("The applicant shall assure that all other applicable environmental permits have been or will be acquired "
            "prior to approval of the final stormwater design plan.")
    permits = hit("yes", "Do I have to line up my other environmental permits before the final stormwater design plan is approved?", 0.74)
    assert yes_no(plan("Can the town approve the final stormwater design before I have my wetlands permit?"), permits, said) == "No"


@pytest.mark.parametrize("question,party", [
    ("Once my electrician fixes it can he just hook it back up?", True),
    ("can I hook it back up myself?", True),
    ("the building inspector came by. can he shut off the power?", False),  # "he" is the official
    ("my electrician got written up. could he lose his registration?", False),  # what may befall him
    ("Once it's fixed can my electrician just hook it back up?", True),
    ("Can I be charged for the consultant's inspections?", False),
    ("Can a neighbor's complaint get the site inspected?", False),  # the complaint, not the neighbour
])
def test_who_a_can_he_question_asks_about(question, party):
    from codeassist.asking import asked_of_a_party
    assert asked_of_a_party(question) is party


def test_an_officials_power_is_no_yes_for_what_he_may_do_when_he_is_the_asker_s_electrician(plan):
    power = "The Building Inspector shall have the right to enter any building and may have current disconnected."
    asked = hit("yes", "Can the Building Inspector cut a wire in an emergency?", CLOSE)
    assert yes_no(plan("My power was cut off. Once my electrician fixes it, can he reconnect the power?"), asked, power) is None
    assert yes_no(plan("The Building Inspector came by. Can he cut a wire in an emergency?"), asked, power) == "Yes"


def test_a_statement_counting_in_the_quotes_unit_is_not_settled_by_its_modal(plan):
    entitled = ("An electrical contractor holding a license from another town shall be entitled to a license on proof "
                "of not less than five (5) years in the electrical business.")
    assert yes_no(plan("I've done electrical work 3 yrs with a license from another town. Does Tuckahoe give me "
                       "a license?"), hit(), entitled) is None
    assert yes_no(plan("I have a license from another town. Does Tuckahoe give me a license?"), hit(), entitled) == "Yes"


def test_a_choice_between_me_and_another_gets_no_verdict(plan):
    asked = hit("yes", "Does the notice of violation go to the landowner?", CLOSE)
    assert yes_no(plan("does the violation letter go to me as owner or to my builder?"), asked) is None


def test_an_officials_power_asked_is_not_answered_by_what_a_party_may_do(plan):
    asked = hit("no", "May I reconnect equipment the Building Inspector ordered disconnected before a certificate?", CLOSE)
    assert yes_no(plan("Can the inspector come into my building and shut off the power?"), asked) is None
    assert yes_no(plan("May I reconnect the equipment before the certificate is issued?"), asked) == "No"


def test_only_in_a_claim_the_question_points_back_to_is_asked(plan):
    asked = hit("yes", "Can a licensed professional engineer sign the SWPPP?", CLOSE)
    assert yes_no(plan("My engineer says only a PE can sign the SWPPP. Is that right?"), asked) is None
    assert yes_no(plan("Can a professional engineer sign the SWPPP?"), asked) == "Yes"


def test_whether_one_needs_something_is_not_asked_of_a_grant_to_new_york_licences(plan):
    grant = ("An electrical contractor holding a license issued by some other town or municipality of the State of New "
             "York shall be entitled to a license.")
    assert yes_no(plan("I'm licensed in Connecticut. Do I need a Tuckahoe license?"), hit(), grant) is None


def test_covered_is_the_converse_of_exempt(plan):
    asked = hit("no", "Are log haul roads exempt from this chapter?", CLOSE)
    assert yes_no(plan("are the log haul roads covered by the chapter?"), asked) == "Yes"
    assert yes_no(plan("are the log haul roads exempt from it?"), asked) == "No"


def test_without_after_a_participle_describes_the_thing_not_the_question(plan):
    banned = "No person shall use or permit the use of any wiring installed or maintained in violation of this chapter."
    assert yes_no(plan("can I keep using wiring the last owner put in without a permit?"), hit(), banned) == "No"
    assert yes_no(plan("can I keep using the wiring without a permit?"), hit(), banned) is None  # asked in the negative


def test_just_this_or_that_asks_which_not_whether(plan):
    banned = "No person shall use or permit the use of any wiring installed or maintained in violation of this chapter."
    assert yes_no(plan("is it just the install that's illegal or the using it too?"), hit(), banned) is None
    assert yes_no(plan("Do the reports just go in the logbook, or does the Town get them too?"),
                  hit("yes", "Must the inspection reports be delivered to the Town?", CLOSE)) is None


def test_an_alternative_ties_a_power_to_a_duty_as_its_converse(plan):
    may = hit("yes", "Can the Stormwater Management Officer accept a licensed professional's certification instead of "
                     "reviewing the plans?", CLOSE)
    assert yes_no(plan("Does the stormwater officer still have to review the plans himself?"), may) == "No"


def test_is_it_the_x_who_asks_which_one(plan):
    board = hit("yes", "Can the Village Board revoke a license on the Building Inspector's written recommendation?", CLOSE)
    assert yes_no(plan("Is it the building inspector who can revoke a contractor's license?"), board) is None


def test_a_rule_for_new_things_says_nothing_of_an_old_one(plan):
    entry = ("When any new stormwater management facility is installed on private property, the landowner shall grant "
             "the Village a right of entry to inspect it.")
    assert yes_no(plan("Our drainage went in back in 1990. Does the village get to come inspect it?"), hit(), entry) is None
    assert yes_no(plan("We are putting in a new drywell. Does the village get to come inspect it?"), hit(), entry) == "Yes"


def test_a_discretionary_exemption_keeps_the_higher_bar_for_a_loosely_matched_headnote(plan):
    from codeassist.verdict import YES_NO_DISCRETION_SIMILARITY, YES_NO_EXCEPTION_SIMILARITY
    between = (YES_NO_EXCEPTION_SIMILARITY + YES_NO_DISCRETION_SIMILARITY) / 2
    garden = hit("no", "Does the home gardening exemption cover growing plants mainly for sale?", between)
    may = "The following activities may be exempt from review: home gardening, except growing for sale."
    assert yes_no(plan("Does the law cover my veggie garden?"), garden, may) is None
    halt = hit("no", "May other work continue while a stop-work order is in effect?", between)
    shall = "Persons receiving it shall halt all land development activities, except those that address the violations."
    assert yes_no(plan("Can we keep framing while the stop-work order is in effect?"), halt, shall) == "No"


def test_whether_it_is_against_the_rules_is_yes_for_an_outright_prohibition(plan):
    banned = "No person shall use or permit the use of any wiring installed or maintained in violation of this chapter."
    assert yes_no(plan("my landlord keeps using wiring that was never approved. isn't it against the rules for him to "
                       "keep using the wiring?"), hit(), banned) == "Yes"
    # a prohibition with an exception does not settle it
    excepted = "No person shall use any wiring installed in violation of this chapter, except by permit."
    assert yes_no(plan("is it illegal to keep using the wiring?"), hit(), excepted) is None


@pytest.mark.parametrize("question, expected", [
    ("The sediment trap is about a third full. Do we have to clean it out now?", "No"),
    ("Our sediment pond is 60% full of silt. Must we clean it out?", "Yes"),
    ("The trap is half full. Does it have to be cleaned?", "Yes"),  # reduced by 50%: the duty starts there
])
def test_how_full_a_trap_is_against_the_share_that_starts_the_duty(corpus, question, expected):
    planner = Planner(corpus)
    p = corpus.get("hempstead:393(A)(1)")
    h = Hit(id=p.id, municipality="hempstead", citation=p.citation, heading=p.heading, text=p.text, score=1.0)
    assert yes_no(planner.build(question, "hempstead"), h, p.text) == expected


def test_no_share_named_gives_no_share_verdict():
    from codeassist.asking import share_verdict
    assert share_verdict("Do we have to clean the trap out?", "whenever their design capacity has been reduced by 50%") is None
    assert share_verdict("It is a third full.", "shall be removed") is None


@pytest.mark.parametrize("question, official", [
    ("Can the building inspector shut off my power?", True),
    ("An inspector came by and wants to shut off the power. Can he actually do that?", True),
    ("The inspector cut our power. My electrician fixed it. Can he reconnect it?", False),  # the electrician
    ("My electrician says the town requires a permit. Can he pull it?", False),
])
def test_he_asked_about_after_an_official_is_named_asks_of_the_official(question, official):
    from codeassist.asking import asked_of_an_official
    assert asked_of_an_official(question) is official


def test_that_same_review_is_no_comparison():
    from codeassist.asking import SAME_OR_DIFFERENT
    assert not SAME_OR_DIFFERENT.search("Do the erosion control standards get applied in that same review?")
    assert not SAME_OR_DIFFERENT.search("repaving the lot at the same grade, exempt?")
    assert SAME_OR_DIFFERENT.search("is the fine the same in both?")
    assert SAME_OR_DIFFERENT.search("is the appeal window different in the village?")
    # several of a kind, or one occasion, are no comparison either
    assert not SAME_OR_DIFFERENT.search("four different subcontractors work separate corners of the lot. must the plan say who does what?")
    assert not SAME_OR_DIFFERENT.search("could the town and the county check the basin on the same visit?")
    assert not SAME_OR_DIFFERENT.search("is a same-day phone call enough notice?")
    assert SAME_OR_DIFFERENT.search("are there different rules in the village?")
    assert SAME_OR_DIFFERENT.search("does the village's list differ from the town's?")
    assert SAME_OR_DIFFERENT.search("is it the same as Hempstead?")


def test_a_negative_question_about_a_duty_asks_whether_the_duty_is_there():
    assert not asked_negatively("The stop-work order we got names no date. Isn't it supposed to say when it ends?")
    assert not asked_negatively("Aren't they required to tell the developer too?")
    assert asked_negatively("Aren't they supposed to not charge for that?")  # what follows still denies


def test_a_condition_after_the_main_clause_runs_to_the_end_of_the_sentence():
    # the list inside the condition, commas and all, is no negation of what is asked
    assert not asked_negatively("Can the town refuse my inspector if he is licensed, bonded and insured and has no complaints against him?")
    assert asked_negatively("Can I skip the inspection if the job is small, quick and tidy?")


def test_a_documents_number_or_a_label_is_no_figure_asked_about():
    assert same_figures("Is the town's article tied to the state's general permit?",
                        "Must land development activities conform to GP-02-01?")
    assert same_figures("Lot 3 is done. Can the inspector approve just that lot before lot 4?",
                        "May the officer approve the portion of the work completed?")
    assert same_figures("phase 2 starts soon; can phase 1 be signed off?", "May the officer approve the portion of the work completed?")
    assert not same_figures("we got 0.3 inches of rain, is a report due?", "Is a report due after 0.5 inch of rain?")


def test_a_headnote_question_about_a_bound_answers_only_a_question_about_one(plan):
    bound = "Can the outside engineer's review cost more than the Town Board's fee schedule?"
    assert yes_no(plan("Will the Town bill me for the outside engineer they sent to inspect my site?"),
                  hit("no", bound, CLOSE)) is None
    from codeassist.verdict import _BOUND
    assert _BOUND.search("can the review cost more than the schedule?") and not _BOUND.search("will the Town bill me?")


def test_is_that_a_problem_turns_a_may_verdict_round(plan):
    lend = "May an electrical contractor let his license be used for work not done by him and under his supervision?"
    q = plan("My buddy wants to do jobs under my electrical license while I'm not around. Any problem with that?")
    assert yes_no(q, hit("no", lend, CLOSE)) == "Yes"
    assert yes_no(q, hit("no", "Must the license be renewed each year?", CLOSE)) is None


def test_a_term_asked_to_mean_something_else_gets_no_yes(plan):
    dec = "Does 'Department' mean the New York State Department of Environmental Conservation?"
    assert yes_no(plan("when the stormwater law says 'Department', is that the town engineering department?"),
                  hit("yes", dec, CLOSE)) is None
    assert yes_no(plan("when the law says Department, is that the state DEC?"), hit("yes", dec, CLOSE)) == "Yes"


def test_the_other_answers_question_agreeing_settles_a_rule_with_an_exception(plan):
    # "may be exempt, except ..." asks 0.70 of one headnote question alone; the other answer's closest, read as it
    # is asked ("exempt?" No against "subject to?" Yes, the converse), agrees
    said = "Silvicultural activity may be exempt from review, except that log haul roads are subject to this law."
    closest = Hit(id="hempstead:exemptions(B)", municipality="hempstead", citation="", heading="", text="", score=1.0,
                  yes_no="yes", yes_no_text="Are log haul roads subject to this law?", yes_no_similarity=0.65,
                  yes_no_rival=0.61, yes_no_rival_text="Are log haul roads exempt from the stormwater law?")
    q = plan("if forestry is exempt, is the log road we build for it exempt too?")
    assert yes_no(q, closest, said) == "No"
    assert yes_no(q, closest.model_copy(update={"yes_no_rival": None, "yes_no_rival_text": None}), said) is None


def test_a_rule_against_it_answers_whether_the_asker_could_be_in_trouble(plan):
    banned = "No person shall use or permit the use of any wiring installed or maintained in violation of this chapter."
    assert yes_no(plan("could I get in trouble for letting my tenant keep using that circuit?"), hit(), banned) == "Yes"
    assert yes_no(plan("could I be fined for letting my tenant keep using that circuit?"), hit(), banned) == "Yes"
    assert yes_no(plan("may I let my tenant keep using that circuit?"), hit(), banned) == "No"


def test_what_is_required_ends_before_a_hedge_word():
    from codeassist.asking import names_what_is_required

    said = "Description of the soil(s) present at the site."
    assert names_what_is_required("does a swppp need a soils description even on a small job", said)
    assert not names_what_is_required("does a swppp need a traffic study even on a small job", said)


def test_a_second_question_the_quote_does_not_speak_to_leaves_the_first_to_answer(plan):
    said = ("the developer, prior to construction, may be required to provide the Village with an irrevocable letter of "
            "credit ... the Village may draw upon the account")
    both = plan("Can the Village require a letter of credit, and can it tap it?")
    assert yes_no(both, hit(), said) == "Yes"
    # the second question alone is not answered by words it does not share
    assert yes_no(plan("The Village holds our letter of credit. Can it tap it?"), hit(), said) is None


def test_a_tax_form_or_a_head_count_is_no_figure_asked_about():
    asked = "Is an electrician who works for a contractor considered an electrical contractor?"
    assert same_figures("I'm a W-2 electrician working for a contracting company. Am I an electrical contractor?", asked)
    assert same_figures("I have three employees who do the wiring. Is each one an electrical contractor?", asked)
    # a figure the rule turns on still counts
    assert not same_figures("we got 0.3 inches of rain, is a report due?", "Is a report due after 0.5 inch of rain?")


def test_always_asked_of_a_power_to_require_is_answered_no(plan):
    said = "Prior to construction, the Village may require the applicant or developer to provide a performance bond"
    power = hit("yes", "May the Village require a performance bond?", CLOSE)
    assert yes_no(plan("Does the Village always make developers post a bond before they start?"), power, said) == "No"
    # without "always", whether it is required is the Village's choice: neither Yes nor No
    assert yes_no(plan("Does the Village make developers post a bond before they start?"), power, said) is None
    assert yes_no(plan("Does the Village require a bond?"), power, said) is None


def test_that_after_a_preposition_is_a_thing_not_the_statement_before():
    # "with that" names what the drawing would show; the negative statement before it is not what is asked
    assert not asked_negatively("No drawing shows where the inlet protection goes. Is a drawing with that required?")
    assert asked_negatively("The plan shows no inlet protection. Is that OK?")  # "that" is the statement


def test_a_chapter_named_bare_is_no_figure_asked_about():
    assert same_figures("Does 7B allow targeting one drainage area that sends sediment into the drains?",
                        "Can the Village focus inspections on a drainage area that sends more sediment than usual?")
    assert not same_figures("Is a 20A breaker enough for the circuit?", "Is a 15A breaker enough for the circuit?")


def _provision_hit(corpus, pid: str, kind: str, question: str, similarity: float) -> Hit:
    p = corpus.get(pid)
    return Hit(id=pid, municipality=p.municipality, citation=p.citation, heading="", text=p.text, score=1.0,
               yes_no=kind, yes_no_text=question, yes_no_similarity=similarity)


def _tuckahoe_verdict(corpus, q: str, pid: str, question: str, similarity: float) -> str | None:
    """yes_no for `q` asked in Tuckahoe against provision `pid` whose closest headnote question is `question` (a yes)."""
    plan = Planner(corpus).build(q, "tuckahoe")
    h = _provision_hit(corpus, pid, "yes", question, similarity)
    return yes_no(plan, h, h.text)


@pytest.mark.parametrize("q, pid, question, verdict", [
    # a figure of the story ("30 days' notice", "1.2-acre") that the provision never measures is no figure it sets
    ("An applicant offers a letter of credit that the bank can cancel on 30 days' notice. Can the Town take that?",
     "hempstead:performance-guarantee(A)", "Can the Town accept a letter of credit that the bank is able to cancel?", "No"),
    ("A 1.2-acre project in Hempstead has no permanent stormwater facility. Do we still need a maintenance easement?",
     "hempstead:393(B)", "Is a maintenance easement needed when the approval has no stormwater management facility "
     "as a requirement?", "No"),
    # a figure the provision does measure still has to be the headnote's: 0.3 inch is not answered by a text of 0.5 inch
    ("We got 0.3 inches of rain in Hempstead. Do we have to inspect the site?", "hempstead:393(A)(2)",
     "Must the site be inspected after a storm?", None),
])
def test_a_figure_the_provision_never_measures_does_not_block_its_headnote(corpus, q, pid, question, verdict):
    plan = Planner(corpus).build(q, "hempstead")
    h = _provision_hit(corpus, pid, "no" if verdict == "No" else "yes", question, 0.8)
    assert yes_no(plan, h, h.text) == verdict


def test_a_finding_the_law_makes_answers_whether_it_cares(corpus):
    # an objective binds no one, but its close headnote question's Yes says the chapter speaks to it
    plan = Planner(corpus).build("Does the village's erosion chapter care about streams getting warmer from runoff?")
    h = _provision_hit(corpus, "tuckahoe:7B-2(c)", "yes", "Is reducing increases in stream temperature an objective of "
                       "the chapter?", 0.67)
    assert yes_no(plan, h, h.text) == "Yes"
    far = _provision_hit(corpus, "tuckahoe:7B-2(c)", "yes", "Is reducing increases in stream temperature an objective of "
                         "the chapter?", 0.5)
    assert yes_no(plan, far, far.text) is None


def test_a_figure_asked_about_still_has_to_be_in_the_text(corpus):
    # "at 10% of the construction cost" is what is asked, not the story: the text sets no such figure
    plan = Planner(corpus).build("Is it true Hempstead sets the stormwater bond at 10% of the construction cost?")
    h = _provision_hit(corpus, "hempstead:performance-guarantee(A)", "yes", "Can the Town require a performance bond?", 0.8)
    assert yes_no(plan, h, h.text) != "Yes"


def test_a_credential_the_question_denies_keeps_the_headnote_from_answering(corpus):
    # the bar on disqualifying protects companies "properly licensed, accredited, bonded and insured"; one that is
    # not accredited is not the headnote question's company
    plan = Planner(corpus).build("An inspection firm that's licensed and insured but not accredited wants to work in "
                                 "Tuckahoe. Can the Building Inspector refuse them?")
    h = _provision_hit(corpus, "tuckahoe:7-7(b)", "no", "Can the Building Inspector disqualify a properly licensed, "
                       "accredited, bonded and insured inspection company in good standing?", 0.79)
    assert yes_no(plan, h, h.text) is None
    plan = Planner(corpus).build("Can the Building Inspector refuse an inspection firm that is licensed, accredited, "
                                 "bonded and insured and in good standing?")
    assert yes_no(plan, h, h.text) == "No"


@pytest.mark.parametrize("q, pid, question, verdict", [
    # what a plan is told to leave out, asked whether that passes, against a "must the plan hold it?" question
    ("Our SWPPP for a Baldwin house leaves out the soils description since it's all fill. Good enough?",
     "hempstead:391(B)(1)(c)", "Must the plan describe the soils present at the site?", "No"),
    ("The site drains to a creek and a canal, but the plan only names the canal. Is that OK?",
     "hempstead:391(B)(1)(m)", "Must the plan name the receiving waters?", "No"),
    # what was never done to it ("signed it but never dated it"), and "is that how it's supposed to be?"
    ("The excavation sub filled in his name, firm and the site on the certification and signed, but never dated "
     "it. Is that how it's supposed to be?", "hempstead:391(E)(2)", "Must the certification include the date it is made?",
     "No"),
    # what is left out is not what the provision requires: no verdict from it
    ("Our SWPPP leaves out the contractor's phone number. Good enough?",
     "hempstead:391(B)(1)(c)", "Must the plan describe the soils present at the site?", None),
])
def test_a_plan_leaving_out_what_the_law_requires_does_not_pass(corpus, q, pid, question, verdict):
    plan = Planner(corpus).build(q)
    h = _provision_hit(corpus, pid, "yes", question, 0.45)
    assert yes_no(plan, h, h.text) == verdict


def test_a_claim_told_then_asked_true_is_a_yes_no_question(corpus):
    planner = Planner(corpus)
    assert planner.build("My contractor says the village never needs notice before final grading. True in Tuckahoe?").yes_no
    assert planner.build("The inspector said the SWPPP stays on site until final stabilization. Is that right?").yes_no
    assert not planner.build("What does true north mean on the site map?").yes_no
    assert not planner.build("Right, so when does the village want the notice?").yes_no


@pytest.mark.parametrize("q, verdict", [
    # a claim that denies what the headnote question affirms, asked whether it is true: the claim is wrong
    ("The applicant told staff that because the Board is doing his subdivision review, the village chapter doesn't "
     "cover him. Is that right?", "No"),
    ("My engineer says subdivision work in Tuckahoe isn't reviewed under the chapter's standards. True?", "No"),
    # the claim affirms it: the headnote question's own answer
    ("My engineer says subdivision work in Tuckahoe is reviewed under the chapter's standards. Is that right?", "Yes"),
])
def test_a_claim_denying_what_the_law_affirms_is_wrong(corpus, q, verdict):
    plan = Planner(corpus).build(q)
    h = _provision_hit(corpus, "tuckahoe:7B-4(c)", "yes", "Are land development activities under site plan review "
                       "reviewed under this chapter's standards?", 0.68)
    assert yes_no(plan, h, h.text) == verdict


def test_a_sum_of_money_told_before_the_question_is_the_storys(corpus):
    # the provision sets no dollar figure: "$7,500" and "$5,000" are the story's, not figures the headnote must share
    text = corpus.get("hempstead:applicability(B)(2)").text
    q = ("The Town's review engineer invoiced us $7,500. The Board's schedule tops out at $5,000 for a job like ours. "
         "Can they charge more than that?")
    assert same_figures(q, "Can the outside engineer's review cost more than the Town Board's fee schedule?", text)
    # asked about, a sum is the question's: "is the fee $500?" is not answered by a text without it
    assert not same_figures("Is the Town's review fee $500?", "May the Town charge for review of a SWPPP?", text)


@pytest.mark.parametrize("q, verdict", [
    # whether what was done will do, or what the law requires instead: the requirement answers the second half, and
    # the first is its opposite
    ("The plan for our Oceanside job just says 'erosion controls maintained by the contractor as needed.' Is that "
     "enough, or do we need an actual maintenance schedule?", "No"),
    ("The plan says 'controls kept up as needed.' That fine, or does the Town need a schedule spelled out?", "No"),
    # one question alone: the headnote question's own answer
    ("Must our SWPPP have a maintenance schedule for the silt fence and inlet protection?", "Yes"),
])
def test_is_that_enough_or_do_we_need_more_is_answered_for_its_first_half(corpus, q, verdict):
    plan = Planner(corpus).build(q, "hempstead")
    h = _provision_hit(corpus, "hempstead:391(B)(1)(l)", "yes", "Must the plan include a maintenance schedule for the "
                       "erosion and sediment control practices?", 0.72)
    assert yes_no(plan, h, h.text) == verdict


@pytest.mark.parametrize("q, verdict", [
    # "is there X, or only Y?": Yes or No answers whether there is X
    ("Is there a permit fee category in Tuckahoe that takes in repairs to old wiring, or only one for new work?", "Yes"),
    ("Is there a Tuckahoe permit fee category covering repairs to existing wiring?", "Yes"),
])
def test_is_there_x_or_only_y_is_answered_for_its_first_half(corpus, q, verdict):
    assert _tuckahoe_verdict(corpus, q, "tuckahoe:7-11(f)(5)", "Is there a permit fee category that covers alterations "
                             "or repairs to existing wiring?", 0.8) == verdict


@pytest.mark.parametrize("q, verdict", [
    # a permit asked to be issued, against a provision on a registration's report, is another step: no Yes from
    # the headnote question or from the text's "may"
    ("My application is still with the Board of Examiners. Can the Building Inspector issue me a permit meanwhile?", None),
    # the step the provision does name answers
    ("Can the Building Inspector approve an application even though the Board of Examiners recommended rejecting it?",
     "Yes"),
])
def test_a_permit_asked_of_a_provision_on_another_paper_gets_no_verdict(corpus, q, verdict):
    assert _tuckahoe_verdict(corpus, q, "tuckahoe:7-11(e)", "Can the Building Inspector approve an application even "
                             "though the Board of Examiners recommended rejecting it?", 0.7) == verdict


@pytest.mark.parametrize("q, verdict", [
    # a choice left open asks which, and no Yes or No answers it
    ("Is the fee for new electrical work set by the number of fixtures, or some other way?", None),
    ("Who sets the fee for repairs, the Building Inspector or someone else?", None),
    # an aside in parentheses is no choice
    ("Is the fee for new work (or someone's repairs) based on the cost of the work?", "Yes"),
    # the headnote question asked alone answers
    ("Is the fee for new electrical construction, repairs and alterations based on the cost of work?", "Yes"),
])
def test_an_open_choice_gets_no_verdict(corpus, q, verdict):
    assert _tuckahoe_verdict(corpus, q, "tuckahoe:7-11(f)(5)", "Is the fee for new electrical construction, repairs "
                             "and alterations based on the cost of work?", 0.8) == verdict


def test_doesnt_it_have_to_asks_whether_it_has_to():
    assert not asked_negatively("I got a violation notice addressed just to 'Owner', with no name. Doesn't it have to "
                                "name somebody?")
    assert asked_negatively("Doesn't the plan need no map at all?")  # what follows "to" still asks in the negative


def test_holding_up_an_approval_the_law_says_shall_be_given_is_a_refusal(corpus):
    # "who shall approve the SWPPP if it complies": holding it up is a refusal, No
    q = ("My SWPPP for a backyard regrade (no board review) meets every requirement, but the SMO wants a wider buffer "
         "just because. Can he hold up approval?")
    assert _tuckahoe_verdict(corpus, q, "tuckahoe:7B-4(d)", "Must the Stormwater Management Officer approve a SWPPP "
                             "that complies with the requirements?", 0.72) == "No"


def test_a_duty_to_keep_it_on_site_is_no_yes_to_taking_it_away(corpus):
    p = Planner(corpus).build("We're hauling the job trailer off our Inwood warehouse site now that the CO is issued, "
                              "but the seeded slopes haven't taken yet. Can the SWPPP binder leave with the trailer?",
                              "hempstead")
    h = _provision_hit(corpus, "hempstead:391(F)", "yes", "Do I have to keep the SWPPP on the job site during "
                       "construction?", 0.53)
    assert yes_no(p, h, h.text) is None
    keep = Planner(corpus).build("Do we have to keep a copy of the SWPPP at the site during construction?", "hempstead")
    assert yes_no(keep, h, h.text) == "Yes"


def test_which_of_several_bases_gets_no_verdict(corpus):
    q = "Are the Village's electrical permit fees set by square footage, by number of devices, or by job cost?"
    assert _tuckahoe_verdict(corpus, q, "tuckahoe:7-11(f)(5)", "Is the fee for new electrical construction, repairs "
                             "and alterations based on the cost of work?", 0.8) is None
    # a list of things a permit is asked for stays a yes/no question
    assert _tuckahoe_verdict(corpus, "Is the fee for new construction, repairs, or alterations based on the cost of work?",
                             "tuckahoe:7-11(f)(5)", "Is the fee for new electrical construction, repairs and alterations "
                             "based on the cost of work?", 0.8) == "Yes"


def test_a_bound_in_the_text_says_no_to_doing_as_one_pleases(plan):
    said = "engage the services of a registered professional engineer to review the plans at a cost not to exceed a fee schedule"
    assert yes_no(plan("Can the consultant bill whatever amount he wants for the plan review?"), hit(), said) == "No"
    assert yes_no(plan("Can the engineer charge as much as he likes?"), hit(), said) == "No"
    # a question about doing as one pleases against words that bound nothing gets no such No
    assert yes_no(plan("Can the consultant bill whatever amount he wants for the plan review?"), hit(),
                  "engage the services of a registered professional engineer to review the plans") != "No"


def test_what_a_thing_is_is_not_answered_by_what_must_be_done_about_it(corpus):
    p = Planner(corpus).build("Is the Building Inspector a volunteer position in the Village?", "tuckahoe")
    h = _provision_hit(corpus, "tuckahoe:7-7(a)", "yes", "Must the Building Inspector enforce this chapter?", 0.86)
    assert yes_no(p, h, h.text) is None
    # a question of the same kind still takes the headnote's answer
    same = Planner(corpus).build("Does the Building Inspector have to enforce the electrical chapter?", "tuckahoe")
    assert yes_no(same, h, h.text) == "Yes"


def test_a_standard_named_by_its_number_in_the_quote_is_the_same_one(plan):
    said = "shall conform to the National Electrical Code, 1978 Edition (NFPA No. 70-1978; ANSI C1-1978)"
    assert yes_no(plan("The drawings cite ANSI C1-1978. Is that the same code the Village adopted?"), hit(), said) == "Yes"
    assert yes_no(plan("The drawings cite ANSI C1-2017. Is that the same code the Village adopted?"), hit(), said) != "Yes"


def test_whether_the_law_sees_something_as_a_problem_asks_whether_it_speaks_to_it(corpus):
    q = ("Our creek goes brown every time a lot up the hill is graded. Does the Town's article recognize that muddy "
         "runoff as a problem?")
    p = Planner(corpus).build(q, "hempstead")
    h = _provision_hit(corpus, "hempstead:392(B)", "no", "Is it allowed for my site's runoff to make the bay visibly muddy?", 0.66)
    assert yes_no(p, h, h.text) != "No"


def test_whether_something_is_enough_to_satisfy_a_requirement_is_not_the_modals_yes(plan):
    said = "the Village may serve a written notice of violation upon the landowner"
    q = "Our form just has a checkbox. Is ticking 'silt fence' enough to satisfy the rule on describing the violation?"
    assert yes_no(plan(q), hit(), said) is None
    assert yes_no(plan("Can the Village serve a written notice of violation on the landowner?"), hit(), said) == "Yes"


def test_a_bare_does_it_takes_its_side_from_the_claim_before_it(corpus):
    plan = Planner(corpus).build("A judge struck the fee clause and a developer says the whole article falls with it. Does it?",
                                 "hempstead")
    rest_stands = Hit(id="hempstead:severability(A)", municipality="hempstead", citation="§ severability(A)", heading="",
                      text="", score=1.0, yes_no="yes", yes_no_similarity=CLOSE,
                      yes_no_text="Does the remainder of the article stay in force if a court judges a provision invalid?")
    said = ("If any provision(s) of this article shall be judged invalid by a court of competent jurisdiction, such order "
            "of judgment shall not affect or invalidate the remainder of this article or the Building Zone Ordinance.")
    assert yes_no(plan, rest_stands, said) == "No"
    # asked the other way round, the headnote question's side is the question's
    assert yes_no(Planner(corpus).build("If a court voids one section, does the rest still stand?", "hempstead"),
                  rest_stands, said) == "Yes"


def test_a_claim_told_in_the_negative_and_asked_correct_is_denied(plan):
    part_of = hit("yes", "Do the contractor certification statements become part of the SWPPP?", CLOSE)
    said = "The contractor and subcontractor certification statement(s) shall become part of the SWPPP."
    assert yes_no(plan("The engineer says the sub's certification isn't part of the plan, so it doesn't go in the binder. "
                       "Correct?"), part_of, said) == "No"
    assert yes_no(plan("The engineer says the sub's certification becomes part of the plan. Correct?"), part_of, said) == "Yes"


def test_what_someone_must_be_is_not_answered_by_a_question_not_naming_it(plan):
    designate = hit("yes", "Must the Town designate a Stormwater Management Officer?", CLOSE + 0.2)
    said = "The Town of Hempstead shall designate a Stormwater Management Officer who shall accept and review all plans."
    assert yes_no(plan("Does the Stormwater Management Officer have to be an engineer?"), designate, said) is None
    assert yes_no(plan("Does the Town have to designate a Stormwater Management Officer?"), designate, said) == "Yes"


def test_a_law_named_in_a_claim_is_checked_against_the_laws_the_quote_names(plan):
    authority = hit("yes", "Does the Town Board have authority under the Town Law to enact this ordinance?", FAR)
    said = ("Under Article 16 of the Town Law and § 10 of the Municipal Home Rule Law, the Town Board has the authority to "
            "enact and amend local laws.")
    assert yes_no(plan("A letter says the Town adopted it under the Environmental Conservation Law. Is that the authority "
                       "the article cites?"), authority, said) == "No"
    assert yes_no(plan("A letter says the Town adopted it under the Municipal Home Rule Law. Is that the authority "
                       "the article cites?"), authority, said) == "Yes"


def test_a_situation_lacking_an_item_the_quote_must_include_falls_short(plan):
    said = ("The certification must include the name and title of the person providing the signature, address and "
            "telephone number of the contracting firm.")
    signature = hit("no", "Is a signature alone enough on the contractor certification?", FAR)
    assert yes_no(plan("The foreman signed the certification with his name only: no job title. Is that good enough?"),
                  signature, said) == "No"
    # nothing named as lacking: the loose headnote question does not judge it
    assert yes_no(plan("The foreman signed the certification with his name and title. Is that good enough?"),
                  signature, said) is None


def test_does_that_meet_the_minimum_judges_the_situation():
    from codeassist.asking import JUDGES_SITUATION
    assert JUDGES_SITUATION.search("Does that meet the Town's minimum for maintenance after construction?")
    assert not JUDGES_SITUATION.search("Does the Town meet with developers before construction?")


def test_two_alternatives_the_quote_names_both_are_both(plan):
    said = ("Land development activities often increase stormwater runoff rates and volumes, flooding, stream channel "
            "erosion, or sediment transport and deposition.")
    finding = hit(None)
    assert yes_no(plan("Do the findings say development raises runoff rates, runoff volumes, or both?"), finding, said) == "Both"
    assert yes_no(plan("Do the findings say development raises runoff rates, groundwater levels, or both?"), finding, said) is None
    permit = ("A permit issued to municipalities for compliance with EPA-established water quality standards and/or to "
              "specify stormwater control standards.")
    assert yes_no(plan("Does the permit only address water quality, or also stormwater control standards?"), finding,
                  permit) == "Both"


def test_whether_the_text_says_anything_about_a_thing_is_answered_by_the_quote(plan):
    said = ("Clearing and grading during construction tend to increase soil erosion and add to the loss of native "
            "vegetation necessary for terrestrial and aquatic habitat.")
    finding = hit(None)
    assert yes_no(plan("Do its findings say anything about construction wiping out native plants?"), finding, said) == "Yes"
    assert yes_no(plan("Do its findings say anything about solar panels on garages?"), finding, said) is None
