"""Penalty tiers, the five-year window as written, continuing violations, and the electrical code."""

from __future__ import annotations

from datetime import date

import pytest
from pydantic import ValidationError

from codeassist.calculators.penalty import PenaltyInput, add_years, run

from .conftest import assert_grounded

SECTION = {"hempstead": "hempstead:enforcement(D)", "tuckahoe": "tuckahoe:7B-8(d)"}


def calc(**kw):
    kw.setdefault("chapter", "stormwater")
    kw.setdefault("offense_date", "2024-03-01")
    out = run(PenaltyInput(**kw))
    assert_grounded(out)
    return out


TIERS = [
    # priors, tier, fine_min, fine_max, counted
    ([], 1, None, 350, 0),
    (["2023-01-01"], 2, 350, 700, 1),
    (["2019-03-01"], 2, 350, 700, 1),  # exactly five years earlier: within
    (["2019-02-28"], 1, None, 350, 0),  # five years and a day: outside
    (["2020-01-01", "2022-01-01"], 3, 700, 1000, 2),
    (["2019-03-01", "2024-03-01"], 3, 700, 1000, 2),
    (["2019-02-28", "2022-01-01"], 2, 350, 700, 1),  # one in, one out
    (["2010-01-01", "2012-01-01", "2015-01-01"], 1, None, 350, 0),
    (["2020-01-01", "2021-01-01", "2022-01-01", "2023-01-01"], 3, 700, 1000, 4),
]


@pytest.mark.parametrize("muni", ["hempstead", "tuckahoe"])
@pytest.mark.parametrize(("priors", "tier", "fmin", "fmax", "counted"), TIERS)
def test_stormwater_tiers_and_five_year_window(muni, priors, tier, fmin, fmax, counted):
    out = calc(municipality=muni, prior_conviction_dates=priors)
    assert (out.tier, out.fine_min, out.fine_max, out.prior_offenses_counted) == (tier, fmin, fmax, counted)
    assert out.status == "computed" and out.offense_class == "violation"
    assert out.max_imprisonment_months == 6
    assert out.misdemeanor_for_jurisdiction is True
    assert out.window_start == date(2019, 3, 1)
    assert any(s.provision_id == SECTION[muni] and f"Tier {tier}" in s.text for s in out.steps)
    assert any("five years and a day" in c for c in out.caveats)


def test_leap_day_window():
    out = calc(municipality="hempstead", offense_date="2024-02-29", prior_conviction_dates=["2019-02-28"])
    assert out.window_start == date(2019, 2, 28) and out.tier == 2
    out = calc(municipality="hempstead", offense_date="2024-02-29", prior_conviction_dates=["2019-02-27"])
    assert out.tier == 1


def test_add_years():
    assert add_years(date(2024, 2, 29), -5) == date(2019, 2, 28)
    assert add_years(date(2024, 2, 29), 4) == date(2028, 2, 29)
    assert add_years(date(2023, 6, 15), 1) == date(2024, 6, 15)


@pytest.mark.parametrize("muni", ["hempstead", "tuckahoe"])
@pytest.mark.parametrize(("days", "count"), [(0, 1), (6, 1), (7, 2), (13, 2), (14, 3), (70, 11)])
def test_each_week_of_continued_violation_is_separate(muni, days, count):
    sv = calc(municipality=muni, continuing_days=days).separate_violations
    assert (sv.count, sv.unit, sv.provision_id) == (count, "week", SECTION[muni])
    assert "Each week's continued violation" in sv.quote


@pytest.mark.parametrize(("days", "count"), [(0, 1), (1, 2), (6, 7), (30, 31)])
def test_electrical_each_day_is_a_separate_offense(days, count):
    out = calc(municipality="tuckahoe", chapter="electrical", continuing_days=days)
    assert (out.separate_violations.count, out.separate_violations.unit) == (count, "day")
    assert out.separate_violations.provision_id == "tuckahoe:7-14"


def test_electrical_penalty_is_in_section_1_7_not_in_corpus():
    out = calc(municipality="tuckahoe", chapter="electrical", prior_conviction_dates=["2023-01-01"])
    assert out.status == "computed" and out.offense_class == "misdemeanor"
    assert (out.tier, out.fine_min, out.fine_max, out.max_imprisonment_months) == (None, None, None, None)
    assert out.misdemeanor_for_jurisdiction is False
    assert out.registration_may_be_revoked is True
    assert any("§ 1-7" in c and "not in this corpus" in c for c in out.caveats)
    assert {s.provision_id for s in out.steps} >= {"tuckahoe:7-14"}
    assert any("disorderly" in (s.quote or "") for s in out.steps)


def test_hempstead_has_no_electrical_code():
    out = calc(municipality="hempstead", chapter="electrical")
    assert out.status == "not_in_corpus"
    assert (out.tier, out.fine_min, out.fine_max, out.separate_violations) == (None, None, None, None)
    assert any("No electrical code for Hempstead" in c for c in out.caveats)


def test_cumulative_penalty_step():
    out = calc(municipality="hempstead")
    assert any("In addition to or as an alternative" in (s.quote or "") for s in out.steps)


@pytest.mark.parametrize(("kw", "message"), [
    (dict(prior_conviction_dates=["2025-01-01"]), "on or before offense_date"),
    (dict(continuing_days=-1), "cannot be negative"),
    (dict(continuing_days=True), "not true"),
    (dict(offense_date="2024-02-30"), "date"),
    (dict(offense_date="1850-01-01"), "out of range"),
    (dict(chapter="plumbing"), "stormwater"),
    (dict(municipality="yonkers"), "known: hempstead, tuckahoe"),
])
def test_invalid_input_messages(kw, message):
    data = {"municipality": "hempstead", "chapter": "stormwater", "offense_date": "2024-03-01", **kw}
    with pytest.raises(ValidationError) as exc:
        PenaltyInput(**data)
    assert message in str(exc.value)


@pytest.mark.parametrize("question, days, continuing", [
    ("it has gone on for 10 days, how many offenses?", 10, 9),       # the first day is the violation itself
    ("the violation went on for three weeks straight", 21, 20),
    ("it continued for 14 more days after the notice", 14, 14),       # the continuation, as stated
])
def test_a_stated_duration_is_how_long_the_violation_lasted(question, days, continuing):
    from codeassist.calculators.penalty import read_slots
    data, _ = read_slots({"duration_days": days}, question, "hempstead", today=date(2026, 1, 5))
    assert data["continuing_days"] == continuing


def test_a_counting_question_leads_with_the_count():
    from codeassist.calculators.penalty import headline
    out = calc(municipality="hempstead", continuing_days=20)
    names = {"hempstead": "Town of Hempstead"}
    assert headline(out, names, None, "how many separate violations is that?").startswith(
        "Continuing conduct counts as 3 separate week-based violations (the first and 2 additional).")
    assert headline(out, names, None, "what is the fine?").startswith("Tier 1")


@pytest.mark.parametrize("question,tier_prior_years", [
    ("convicted in 2016 and again in 2024, does the second-offense fine apply?", 8.0),   # more than five years apart
    ("convicted in 2022 and again this year, what fine?", 4.0),
])
def test_the_years_named_set_how_far_apart_the_offenses_were(question, tier_prior_years):
    from codeassist.calculators.penalty import read_slots
    today = date(2026, 12, 3)
    data, _ = read_slots({"offense_number": 2}, question, "hempstead", today=today)
    prior = date.fromisoformat(data["prior_conviction_dates"][0])
    assert abs((today - prior).days / 365.25 - tier_prior_years) < 0.01


@pytest.mark.parametrize("question, slots, today_, prior_dates", [
    # one date per offense: the latest is this offense, the others the priors (not spread back from today)
    ("violations in March 2019, Feb 2022 and Oct 2023 - what does the third one cost?",
     {"offense_number": 3, "dates": ["2019-03-01", "2022-02-01", "2023-10-01"]}, "2023-10-01", ["2019-03-01", "2022-02-01"]),
    # no count, but "another" one after dated ones: one offense per date
    ("violations in March 2019 and Feb 2022, and now another violation in Oct 2023. what range?",
     {"dates": ["2019-03-01", "2022-02-01", "2023-10-01"]}, "2023-10-01", ["2019-03-01", "2022-02-01"]),
    # no count, but "and now" the last of the dates named: one offense per date
    ("fined for erosion violations in May 2021, August 2023 and now March 2025. fine for the latest?",
     {"dates": ["2021-05-01", "2023-08-01", "2025-03-01"]}, "2025-03-01", ["2021-05-01", "2023-08-01"]),
    # "another one in <month year>": one offense per date
    ("convictions for offenses in June 2020 and May 2022, and now another one in April 2025. fine range?",
     {"dates": ["2020-06-01", "2022-05-01", "2025-04-01"]}, "2025-04-01", ["2020-06-01", "2022-05-01"]),
    # "is now convicted for one from <month year>" after a dated conviction: one offense per date
    ("convicted for an offense committed in March 2021 and is now convicted for one from September 2023. fine range?",
     {"dates": ["2021-03-01", "2023-09-01"]}, "2023-09-01", ["2021-03-01"]),
    # two dates for three offenses: spread back from today as before
    ("third offense; the others were 2019 and 2022", {"offense_number": 3, "dates": ["2019-01-01", "2022-01-01"]}, None, None),
    # the law counts offenses "committed" within five years: a conviction's own date is not an offense's date
    ("I committed a violation in April 2022 but wasn't convicted till February 2023. Now I've got a new one from "
     "June 2026. Second offense or first?", {"offense_number": 2, "dates": ["2022-04-01", "2023-02-01", "2026-06-01"]},
     "2026-06-01", ["2022-04-01"]),
])
def test_a_date_for_each_offense_dates_them(question, slots, today_, prior_dates):
    from codeassist.calculators.penalty import read_slots
    data, _ = read_slots(slots, question, "hempstead", today=date(2026, 12, 3))
    if today_ is None:
        assert data["offense_date"] == "2026-12-03" and len(data["prior_conviction_dates"]) == 2
    else:
        assert (data["offense_date"], data["prior_conviction_dates"]) == (today_, prior_dates)
        assert calc(**data).tier == len(prior_dates) + 1  # all within five years


@pytest.mark.parametrize("question, continuing_tier, lead", [
    ("the first conviction was seven years ago. does the higher second-offense range apply?", 1, "No. Tier 1"),
    ("second conviction two years after the first: do we get the repeat-offense fine?", 2, "Yes. Tier 2"),
    ("is the third-offense fine what we face now?", 2, "No. Tier 2"),
    ("what is the fine for a second offense?", 2, "Tier 2"),   # not a yes/no question: no verdict
])
def test_a_question_whether_a_repeat_tier_applies_is_answered_yes_or_no_by_the_computed_tier(question, continuing_tier, lead):
    from codeassist.calculators.penalty import headline
    priors = [date(2025, 1, 10)] * (continuing_tier - 1)
    out = calc(municipality="hempstead", offense_date=date(2026, 1, 10), prior_conviction_dates=priors)
    assert out.tier == continuing_tier
    assert headline(out, {"hempstead": "Town of Hempstead"}, None, question).startswith(lead)


def test_the_conviction_date_of_an_offense_committed_earlier_does_not_bring_it_into_the_five_years():
    from codeassist.calculators.penalty import headline, read_slots
    question = ("We committed an erosion violation in March 2020, convicted in January 2022. Charged again for one "
                "from May 2025. Second offense or first?")
    slots = {"offense_number": 2, "dates": ["2020-03-01", "2022-01-01", "2025-05-01"]}
    data, _ = read_slots(slots, question, "tuckahoe", today=date(2026, 12, 3))
    out = calc(**data)
    assert out.tier == 1  # March 2020 to May 2025 is more than five years
    # "second or first?" asks which offense it is, answered by name rather than yes or no
    assert headline(out, {"tuckahoe": "Village of Tuckahoe"}, data, question).startswith("A first offense. Tier 1")


@pytest.mark.parametrize("question, tier, lead", [
    ("is this a first or a second offense?", 2, "A second offense. Tier 2"),
    ("third offense or second?", 3, "A third or subsequent offense. Tier 3"),
])
def test_which_of_two_offenses_is_answered_by_name(question, tier, lead):
    from codeassist.calculators.penalty import headline
    out = calc(municipality="hempstead", offense_date=date(2026, 1, 10), prior_conviction_dates=[date(2025, 1, 10)] * (tier - 1))
    assert headline(out, {"hempstead": "Town of Hempstead"}, None, question).startswith(lead)


@pytest.mark.parametrize("muni, question, lead", [
    ("hempstead", "does each week count as a new violation?", "Yes. Continuing conduct counts as 3 separate week-based"),
    ("hempstead", "is every day a separate violation?", "No. Continuing conduct counts as 3 separate week-based"),
    ("tuckahoe", "is each day a separate offense?", "Yes. Continuing conduct counts as 21 separate offenses, one per day"),
    ("hempstead", "how many separate violations is that?", "Continuing conduct counts"),  # not yes/no: no verdict
])
def test_whether_each_day_or_week_counts_is_answered_by_the_laws_unit(muni, question, lead):
    from codeassist.calculators.penalty import headline
    out = calc(municipality=muni, continuing_days=20, chapter="electrical" if muni == "tuckahoe" else "stormwater")
    names = {"hempstead": "Town of Hempstead", "tuckahoe": "Village of Tuckahoe"}
    assert headline(out, names, None, question).startswith(lead)


@pytest.mark.parametrize("priors, question, lead", [
    (0, "is it true the first-offense fine is $35,000?", "No. Tier 1"),
    (0, "heard they can fine you $10k a day. true?", "No. Tier 1"),     # more than any tier's fine
    (0, "can the first fine be $300?", "Yes. Tier 1"),
    (0, "can they fine me $700?", "Tier 1"),                          # which offense is not said: a second may be
    (1, "second offense: can they fine me $700?", "Yes. Tier 2"),
    (1, "second offense: can they fine me $900?", "No. Tier 2"),
    (0, "what is the fine? we were quoted $500", "Tier 1"),           # not a yes/no question about the amount
    (1, "second conviction: does the $350-$700 tier apply?", "Yes. Tier 2"),
    (0, "first offense: does the $350-$700 tier apply?", "No. Tier 1"),
    (0, "first offense. does the $350-700 bracket apply?", "No. Tier 1"),    # one dollar sign for the range
    (1, "2nd conviction, is it the $350 to 700 range?", "Yes. Tier 2"),
    # the amount is what is asked, not whether the third tier applies (it does; $1,200 is over its top)
    (2, "Can the court fine $1,200 on the third conviction?", "No. Tier 3"),
    (2, "third conviction: can the court fine $800?", "Yes. Tier 3"),
    # whether the amount is over the limit: within the tier is No
    (0, "first offense and the judge fined exactly $350. Is that over the limit?", "No. Tier 1"),
    (0, "first offense, fined $500. Is that above the max?", "Yes. Tier 1"),
    (1, "second conviction, fined $900. Is that more than the law allows?", "Yes. Tier 2"),
    # asked in one word, or after a quoted amount
    (1, "second offense within five years, and the fine was set at $1,000. Allowed?", "No. Tier 2"),
    (1, "second offense, fined $500. Legal?", "Yes. Tier 2"),
    (0, "the notice says penalties 'up to $10,000 per day.' Is that what the article allows?", "No. Tier 1"),
])
def test_a_dollar_amount_asked_about_is_checked_against_the_tiers(priors, question, lead):
    from codeassist.calculators.penalty import headline
    out = calc(municipality="hempstead", offense_date=date(2026, 1, 10), prior_conviction_dates=[date(2025, 1, 10)] * priors)
    assert out.fine_ceiling == 1000
    assert headline(out, {"hempstead": "Town of Hempstead"}, None, question).startswith(lead)


@pytest.mark.parametrize("question, lead", [
    ("second conviction within 3 years. Can the judge give both the fine and jail time?", "Yes. Tier 2"),
    ("could I go to jail for this?", "Yes. Tier 2"),
    ("what is the jail term for a second offense?", "Tier 2"),      # not a yes/no question: no verdict
])
def test_whether_jail_may_be_imposed_is_answered_from_the_tier(question, lead):
    from codeassist.calculators.penalty import headline
    out = calc(municipality="hempstead", offense_date=date(2026, 1, 10), prior_conviction_dates=[date(2025, 1, 10)])
    assert out.max_imprisonment_months
    assert headline(out, {"hempstead": "Town of Hempstead"}, None, question).startswith(lead)


@pytest.mark.parametrize("question,years", [
    ("Two convictions in Hempstead six years apart. Is the second one fined as a second offense?", 6.0),
    ("second violation 3 yrs later, what fine?", 3.0),
    ("the first one was seven years ago", 7.0),
    ("caught again within the last 2 years", 2.0),
    ("second offense, what is the fine?", None),
])
def test_how_far_apart_the_offenses_were_is_read_from_the_words(question, years):
    from codeassist.slots import extract_years_window
    assert extract_years_window(question) == years
