"""Property tests over understand.py: the router and the slot extractors never crash on any text, and
what they read back is what was written (areas, sq ft <-> acres, inches, durations, dates, times).

(The citation parser and the calculators have their own property tests in tests/corpus and
tests/calculators.)"""

from __future__ import annotations

import math
from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from codeassist import slots as S
from codeassist import understand as U
from codeassist.glossary import expand_abbreviations
from codeassist.answer import build_calc_input as _build
from codeassist.corpus import load_corpus
from codeassist.plan import Planner
from codeassist.calculators import CALCULATORS
from codeassist.errors import InvalidInput

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TODAY = date(2026, 3, 10)
KNOWN_INTENTS = {"calculator", "definition", "lookup", "compare", "retrieval", "abstain"}
DEFINITIONS = {"land development activity": "hempstead:390/land-development-activity", "swppp": "x", "building": "y"}

# Text that looks like questions: words the extractors look for, numbers, units, dates, junk.
VOCAB = ["acre", "acres", "sq ft", "square feet", "sf", "inch", "inches", "rain", "days", "weeks", "months", "years",
         "prior", "second", "3rd", "offense", "violation", "within", "ago", "am", "pm", "p.m.", "march", "sept",
         "tuesday", "next", "today", "yesterday", "/", "-", ":", ",", ".", "$", "§", "7B-5", "392(B)", "hempstead",
         "tuckahoe", "village of", "town of", "fine", "permit", "swppp", "fuse", "switch", "half", "a quarter", "an",
         "one", "two", "ten", "what is", "do i need", "?", "\x00", "\u202e", "\ud800", "٣", "𝟚", "½", "1e308", "-0"]
QUESTIONISH = st.lists(st.one_of(st.sampled_from(VOCAB), st.integers(-10**6, 10**12).map(str),
                                 st.floats(allow_nan=False, allow_infinity=False, width=32).map(str),
                                 st.text(max_size=8)), max_size=25).map(" ".join)
ANY_TEXT = st.one_of(st.text(max_size=400), QUESTIONISH)
PLANNER = Planner(load_corpus())


def build_calc_input(name: str, question: str, muni: str):
    """The calculator input the answer layer builds: the question read once into slots, then mapped."""
    slots, _ = S.read_slots(question, TODAY)
    return _build(name, slots, question, muni, today=TODAY)


@FAST
@given(ANY_TEXT)
def test_extractors_and_router_never_crash(q):
    area = S.extract_area(q)
    # A negative figure is passed on only when the user typed a minus sign (the calculator refuses it with
    # a message); it is never made up or flipped.
    assert area is None or (area[0] in ("acres", "sq_ft") and not math.isnan(area[1]) and
                            (area[1] >= 0 or "-" in q))
    inches = S.extract_inches(q)
    assert inches is None or inches >= 0
    assert all(isinstance(d, date) for d in S.extract_dates(q, TODAY))
    S.extract_time(q)
    n = S.extract_offense_number(q)
    assert n is None or n >= 1
    y = S.extract_years_window(q)
    assert y is None or y >= 0
    d = S.extract_duration_days(q)
    assert d is None or d >= 0
    S.extract_activity(q)
    S.extract_minor_repair(q)
    assert S.extract_performed_by(q) in (None, "utility", "in_house_journeyman", "registered_contractor", "homeowner")
    assert expand_abbreviations(q).startswith(q)
    PLANNER.other_place(q)
    PLANNER.named(q)
    S.read_slots(q, TODAY)
    r = U.route(q, DEFINITIONS)
    assert r.intent in KNOWN_INTENTS
    assert r.calculator is None or r.calculator in CALCULATORS


@FAST
@given(ANY_TEXT)
def test_clean_question_refuses_only_with_invalid_input(q):
    try:
        out = U.clean_question(q, 2000)
    except InvalidInput as exc:
        assert str(exc)
        return
    assert out == out.strip() and "\x00" not in out and "  " not in out
    assert all(ch in "\t\n" or not (0xD800 <= ord(ch) <= 0xDFFF) for ch in out)


NUMBER = st.one_of(st.integers(0, 10**7).map(float),
                   st.decimals(min_value=0, max_value=10**6, places=3, allow_nan=False).map(float))


def _written(x: float, commas: bool) -> str:
    if x == int(x):
        return f"{int(x):,}" if commas else str(int(x))
    return f"{x:,.3f}".rstrip("0") if commas else f"{x:.3f}".rstrip("0")


@FAST
@given(NUMBER, st.sampled_from(["acres", "acre", "ac", "-acre"]), st.booleans(), st.sampled_from(["", " in Hempstead"]))
def test_acres_read_back(x, unit, commas, tail):
    q = f"Do I need a SWPPP for {_written(x, commas)}{'' if unit.startswith('-') else ' '}{unit} lot{tail}?"
    assert S.extract_area(q) == ("acres", pytest.approx(x))


@FAST
@given(NUMBER, st.sampled_from(["square feet", "square foot", "sq ft", "sq. ft.", "sqft", "sf", "ft2"]), st.booleans())
def test_square_feet_read_back(x, unit, commas):
    q = f"we will disturb {_written(x, commas)} {unit} of land"
    assert S.extract_area(q) == ("sq_ft", pytest.approx(x))


@FAST
@given(st.decimals(min_value=0, max_value=99_000, places=2, allow_nan=False).map(float),
       st.sampled_from(["hempstead", "tuckahoe"]))
def test_square_feet_and_acres_give_the_same_area_to_the_calculator(acres, muni):
    """The same area written in acres and in square feet reaches the calculator as the same acres."""
    sq_ft = round(acres * S.SQFT_PER_ACRE, 2)
    calc = CALCULATORS["applicability"]
    a_data, _ = build_calc_input("applicability", f"Do I need a SWPPP for {_written(acres, True)} acres?", muni)
    f_data, _ = build_calc_input("applicability", f"Do I need a SWPPP for {_written(sq_ft, True)} sq ft?", muni)
    a_out, f_out = calc.run_dict(a_data), calc.run_dict(f_data)
    assert a_out.disturbed_acres == pytest.approx(acres, abs=1e-6)
    assert f_out.disturbed_acres == pytest.approx(sq_ft / S.SQFT_PER_ACRE, rel=1e-9)
    assert f_out.disturbed_acres == pytest.approx(acres, abs=1e-6)
    assert a_out.swppp_required == f_out.swppp_required or abs(acres - round(acres)) < 1e-6


@FAST
@given(st.decimals(min_value=0, max_value=100, places=2, allow_nan=False).map(float),
       st.sampled_from(["inches", "inch", '"', "in. of rain"]))
def test_inches_read_back(x, unit):
    q = f"it rained {_written(x, False)}{unit if unit == chr(34) else ' ' + unit} yesterday"
    assert S.extract_inches(q) == pytest.approx(x)


@pytest.mark.parametrize("q, x", [
    ("Got half an inch of rain last night", 0.5),  # not the "an inch" inside it
    ("a quarter of an inch fell", 0.25),
    ("three-quarters of an inch of rain", 0.75),
    ("an inch and a half of rain", 1.5),
    ("a half-inch storm on Monday", 0.5),
    ("an inch of rain", 1.0),
    ("two inches of rain", 2.0),
])
def test_inches_in_words(q, x):
    assert S.extract_inches(q) == pytest.approx(x)


@pytest.mark.parametrize("q, event", [
    ("last routine E&S inspection was Thursday June 4. When is the next one reqd?", "last_report"),
    ("our last report was May 2; next due?", "last_report"),
    # "last day for an inspection firm ..." names a deadline, not the last inspection
    ("last day for an inspection firm disqualified on Oct 5 2026 to appeal to the trustees?", "disqualified"),
    # a storm said not to have happened is no storm event
    ("Last erosion control inspection report was Tuesday, Sept 8, 2026. When is the next one due, assuming no big "
     "storms?", "last_report"),
    ("it rained hard Tuesday, Sept 8, 2026. when is the report due?", "storm"),
])
def test_the_dated_event_named(q, event):
    assert S.read_slots(q, date(2026, 12, 5))[0].get("event") == event


@pytest.mark.parametrize("q, n", [("contractor convicted twice in Hempstead", 2), ("ticketed three times for it", 3),
                                  ("cited once before", None),
                                  ("violations in 2019, 2021 and 2024. what is the range for the third one?", 3),
                                  ("which one is the third one on the list?", None),  # no offense named
                                  # the ordinal told with "one" after an ordinal told with the offense: the higher
                                  ("my first violation was in June 2023, and now I'm facing a second one", 2)])
def test_offenses_counted_in_words(q, n):
    assert S.extract_offense_number(q) == n


@pytest.mark.parametrize("q, counting", [("is that one offense or ten?", True), ("how many violations is that?", True),
                                         ("what is the fine for one offense?", False)])
def test_a_question_about_counting_violations(q, counting):
    assert bool(S.read_slots(q, date(2026, 12, 5))[0].get("counting")) is counting


@FAST
@given(st.integers(0, 10_000), st.sampled_from([("day", 1), ("days", 1), ("week", 7), ("weeks", 7),
                                                ("month", 30), ("months", 30)]))
def test_durations_read_back(n, unit):
    word, days = unit
    assert S.extract_duration_days(f"the violation went on for {n} {word}") == n * days


DATES = st.dates(min_value=date(1900, 1, 1), max_value=date(2199, 12, 31))
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


@FAST
@given(DATES, st.sampled_from(["iso", "us", "long", "short"]))
@example(date(2024, 2, 29), "us")
def test_dates_read_back(d, style):
    text = {"iso": d.isoformat(), "us": f"{d.month}/{d.day}/{d.year}", "long": f"{MONTHS[d.month - 1]} {d.day}, {d.year}",
            "short": f"{MONTHS[d.month - 1][:3]} {d.day}th {d.year}"}[style]
    assert d in S.extract_dates(f"we were served on {text} in hempstead", TODAY)


@FAST
@given(st.integers(1900, 2199), st.integers(1, 12), st.integers(29, 40))
def test_impossible_dates_are_skipped_not_fatal(y, m, day):
    try:
        date(y, m, day)
        assume(False)  # only impossible ones
    except ValueError:
        pass
    for text in (f"{y}-{m:02d}-{day:02d}", f"{m}/{day}/{y}", f"{MONTHS[m - 1]} {day}, {y}"):
        assert all(x.day != day or x.month != m for x in S.extract_dates(f"served on {text}", TODAY))


@FAST
@given(st.integers(0, 6))
def test_weekdays_resolve_within_a_week(offset):
    day = TODAY - timedelta(days=offset)
    name = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][day.weekday()]
    got = S.extract_dates(f"the storm was on {name}", TODAY)
    assert got == [day]


@FAST
@given(st.integers(1, 12), st.integers(0, 59), st.sampled_from(["am", "pm", "a.m.", "p.m."]))
def test_valid_clock_times_read_back(h, m, ampm):
    hour, minute = S.extract_time(f"at {h}:{m:02d} {ampm}")
    assert minute == m and hour == h % 12 + (12 if ampm.startswith("p") else 0)


@pytest.mark.parametrize("q, hm", [("they go in Monday at 8:00", (8, 0)), ("pour at 14:30 sharp", (14, 30)),
                                   ("the 4:1 slope", None), ("at 25:00", None)])
def test_a_clock_time_without_am_or_pm_reads_as_written(q, hm):
    assert S.extract_time(q) == hm


@FAST
@given(st.integers(0, 99), st.integers(0, 99), st.sampled_from(["am", "pm"]))
def test_any_clock_time_read_is_a_real_time(h, m, ampm):
    got = S.extract_time(f"notice given at {h}:{m:02d} {ampm}")
    assert got is None or (0 <= got[0] <= 23 and 0 <= got[1] <= 59)


@FAST
@given(st.sampled_from(list(S._ORDINALS.items())), st.sampled_from(["offense", "violation", "conviction", "time"]))
def test_ordinal_offenses_read_back(ordinal, noun):
    word, n = ordinal
    assert S.extract_offense_number(f"what is the fine for a {word} {noun} in hempstead") == n


@FAST
@given(st.sampled_from(["hempstead", "tuckahoe"]), NUMBER)
def test_calculator_input_from_any_area_question_validates_or_explains(muni, x):
    """Whatever area a question gives, the calculator either runs or refuses with a validation error."""
    from pydantic import ValidationError

    data, follow = build_calc_input("applicability", f"do I need a swppp for {_written(x, True)} acres", muni)
    assert follow is None and data is not None
    try:
        CALCULATORS["applicability"].run_dict(data)
    except ValidationError:
        assert x > 100_000


@pytest.mark.parametrize("q, slot, value", [
    ("our site drains to a 303(d)-listed water; 1.2 acres", "discharges_to_impaired_water", True),
    ("the highway crew is regrading six acres of drainage ditch as routine upkeep", "activity", "routine_maintenance"),
    ("we're building one new house on a sloped 1.5 acre lot", "single_family_residence", True),
    ("0.9 acre cleared now and another 0.4 acre next year, same expansion plan", "part_of_common_plan", True),
    ("our supervising master electrician's last day with us is Aug 14, 2026", "event", "supervisor_left"),
    ("the old owner DIY'd a subpanel; the inspector ordered it disconnected", "electrical", True),
    ("regrading the roadside ditch back to its original profile", "activity", "routine_maintenance"),
    ("relaying the old drain pipe at the line and grade it always had", "activity", "routine_maintenance"),
    ("reshaping the berm back to its design grades", "activity", "routine_maintenance"),
    ("the SMO had us replace a caved-in catch basin", "activity", "smp_repair"),
    ("convicted again 6 years after his first offense", "years_window", 6.0),
    # the work's area, not the lot's, when both are given
    ("a new barn on our 5 acre parcel, grading about 0.8 acres", "area", 0.8),
    ("a shed on my quarter-acre lot", "area", 0.25),
    # electrical work named by its parts
    ("adding a 60-amp feed to the garage", "electrical", True),
    ("the utility is replacing the transformer on our pole", "electrical", True),
    # a structure's sides with no unit
    ("is a 10x12 pool house a building?", "area", 120.0),
    ("one house on a 90 x 100 lot, no subdivision", "area", 9000.0),
    # a water the site does not drain to
    ("4 acres of houses, and nothing drains to an impaired water", "discharges_to_impaired_water", None),
    ("our outfall goes to an impaired water", "discharges_to_impaired_water", True),
    ("redoing the planting beds and shrubs around the house", "activity", "landscaping_existing_structure"),
    ("regrading the ballfield back to the grade it was built at", "activity", "routine_maintenance"),
    ("six recessed lights in the living room ceiling", "electrical", True),
    ("a new 240-volt line for the condenser", "electrical", True),
    # the electrical code named as what the question measures against is not its subject
    ("does each day of the erosion violation count separately, like with electrical?", "electrical", None),
    # wiring told of, then closing up asked
    ("we called the inspector about the wiring on Tuesday Oct 6 2026; when can we close it up?", "event", "wiring_concealment"),
])
def test_situation_slots(q, slot, value):
    assert S.read_slots(q, date(2026, 12, 5))[0].get(slot) == value


@pytest.mark.parametrize("q, expected", [
    ("grading ends Thursday June 12 at 7am", date(2025, 6, 12)),  # a Thursday in 2025, not in 2026
    ("starting Monday Sept 8", date(2025, 9, 8)),
    ("told him Thurs. July 3 at 2pm", date(2025, 7, 3)),
    ("grading ends June 12", date(2026, 6, 12)),  # no weekday: this year
    ("grading ends Friday June 12", date(2026, 6, 12)),  # the weekday agrees with this year
])
def test_a_weekday_before_a_date_without_a_year_picks_the_nearest_year_it_fits(q, expected):
    assert S.extract_dates(q, date(2026, 12, 5)) == [expected]
