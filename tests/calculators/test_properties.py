"""Property tests: no crash on valid input, more area never means less regulation, every citation grounded."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codeassist.calculators import applicability, deadlines, electrical_permit, penalty, swppp_checklist
from codeassist.calculators._inputs import MAX_ACRES, SQ_FT_PER_ACRE
from codeassist.calculators.holidays import add_hours_excluding, is_sunday_or_legal_holiday, ny_legal_holidays

from .conftest import assert_grounded
from .tables import MILESTONES, MINOR_REPAIRS

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

MUNIS = st.sampled_from(["hempstead", "tuckahoe"])
ACTIVITIES = st.sampled_from(list(applicability.Activity.__args__))
ACRES = st.floats(min_value=0, max_value=MAX_ACRES, allow_nan=False, allow_infinity=False)
# Areas near the thresholds matter most; mix them in.
NEAR = st.sampled_from([0.0, 0.5, 0.999999, 1.0, 1.000001, 4.999999, 5.0, 5.000001, 43_559 / SQ_FT_PER_ACRE])
AREA = st.one_of(ACRES, NEAR)


@st.composite
def applicability_fields(draw):
    return dict(
        municipality=draw(MUNIS),
        activity=draw(ACTIVITIES),
        part_of_common_plan=draw(st.booleans()),
        single_family_residence=draw(st.booleans()),
        agricultural_property=draw(st.booleans()),
        discharges_to_impaired_water=draw(st.booleans()),
        subdivision_plat_approved_before_law=draw(st.booleans()),
        building_permit_approved_before_law=draw(st.booleans()),
        site_plan_review=draw(st.booleans()),
    )


SWPPP_RANK = {"no": 0, "likely_exempt": 1, "unknown": 2, "yes": 3}
LDA_RANK = {"no": 0, "unknown": 1, "yes": 2}


@FAST
@given(applicability_fields(), AREA, st.booleans())
def test_applicability_never_crashes_and_is_grounded(fields, acres, in_sq_ft):
    area = {"disturbed_sq_ft": acres * SQ_FT_PER_ACRE} if in_sq_ft else {"disturbed_acres": acres}
    inp = applicability.ApplicabilityInput(**fields, **area)
    out = applicability.run(inp)
    assert_grounded(out)
    assert out.steps
    if out.swppp_required == "likely_exempt":
        assert out.exemptions and any("Stormwater Management Officer decides" in c for c in out.caveats)
    checklist = swppp_checklist.run(inp)
    assert_grounded(checklist)
    assert checklist.to_markdown()


@FAST
@given(applicability_fields(), AREA, AREA)
def test_more_area_is_never_less_regulated(fields, a, b):
    small, large = sorted((a, b))
    lo = applicability.run(applicability.ApplicabilityInput(**fields, disturbed_acres=small))
    hi = applicability.run(applicability.ApplicabilityInput(**fields, disturbed_acres=large))
    assert SWPPP_RANK[lo.swppp_required] <= SWPPP_RANK[hi.swppp_required]
    assert LDA_RANK[lo.land_development_activity] <= LDA_RANK[hi.land_development_activity]
    assert bool(lo.conditions) <= bool(hi.conditions)
    assert bool(lo.post_construction_controls) <= bool(hi.post_construction_controls)
    # Condition A does not depend on area once the project is regulated.
    assert ("A" in lo.conditions) <= ("A" in hi.conditions)
    lo_items = swppp_checklist.run(applicability.ApplicabilityInput(**fields, disturbed_acres=small)).items
    hi_items = swppp_checklist.run(applicability.ApplicabilityInput(**fields, disturbed_acres=large)).items
    assert len(lo_items) <= len(hi_items)


DATES = st.dates(min_value=date(1950, 1, 1), max_value=date(2150, 12, 31))


@FAST
@given(MUNIS, st.sampled_from(["stormwater", "electrical"]), DATES, st.lists(st.integers(0, 4000), max_size=6), st.integers(0, 5000))
def test_penalty_never_crashes_and_tiers_follow_the_window(muni, chapter, offense, gaps, days):
    priors = [offense - timedelta(days=g) for g in gaps]
    out = penalty.run(penalty.PenaltyInput(municipality=muni, chapter=chapter, offense_date=offense,
                                           prior_conviction_dates=priors, continuing_days=days))
    assert_grounded(out)
    if chapter == "stormwater":
        start = penalty.window_start(offense)
        within = sum(p >= start for p in priors)
        assert out.tier == min(within + 1, 3)
        assert out.separate_violations.count == 1 + days // 7
        assert (out.fine_min or 0) <= out.fine_max
    # Adding a prior conviction never lowers the tier.
    more = penalty.run(penalty.PenaltyInput(municipality=muni, chapter=chapter, offense_date=offense,
                                            prior_conviction_dates=[*priors, offense], continuing_days=days))
    assert (more.tier or 0) >= (out.tier or 0)


MILESTONE_NAMES = st.sampled_from(sorted({k for t in MILESTONES.values() for k in t}))


@st.composite
def deadline_fields(draw):
    start = draw(st.none() | DATES)
    through = None
    if start is not None and draw(st.booleans()):
        through = start + timedelta(days=draw(st.integers(0, 400)))
    fields = dict(
        municipality=draw(MUNIS),
        construction_start=start,
        through=through,
        storm_events=draw(st.lists(st.builds(dict, date=DATES, inches=st.floats(0, 10)), max_size=4)),
        milestones=draw(st.lists(st.builds(dict, name=MILESTONE_NAMES, date=DATES), max_size=4)),
        violation_notice_served=draw(st.none() | DATES),
        final_acceptance=draw(st.none() | DATES),
        wiring_concealment_notice=draw(st.none() | st.datetimes(min_value=datetime(1950, 1, 1), max_value=datetime(2150, 12, 31))),
        supervisor_left=draw(st.none() | DATES),
        registration_issued=draw(st.none() | DATES),
        inspection_company_disqualified=draw(st.none() | DATES),
        last_report=draw(st.none() | DATES),
    )
    if not any(fields[k] for k in deadlines.INPUT_FIELDS):
        fields["final_acceptance"] = date(2024, 1, 1)
    return fields


@settings(max_examples=100, deadline=None)
@given(deadline_fields())
def test_deadlines_never_crash_and_export(fields):
    out = deadlines.run(deadlines.DeadlinesInput(**fields))
    assert_grounded(out)
    ics = out.to_ics()
    assert ics.count("BEGIN:VEVENT") == len(out.obligations) == ics.count("END:VEVENT")
    assert all(len(line.encode()) <= 75 for line in ics.split("\r\n"))


@FAST
@given(st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2199, 12, 20)))
def test_concealment_counts_exactly_24_open_hours(start):
    end = add_hours_excluding(start, 24)
    assert end - start >= timedelta(hours=24)
    counted, t = timedelta(0), start
    while t < end:  # walk hour by hour-ish boundaries: sum time on counted days
        nxt = min(end, datetime.combine(t.date() + timedelta(days=1), datetime.min.time()))
        if not is_sunday_or_legal_holiday(t.date()):
            counted += nxt - t
        t = nxt
    assert counted == timedelta(hours=24)
    assert not is_sunday_or_legal_holiday((end - timedelta(microseconds=1)).date())


@settings(max_examples=50, deadline=None)
@given(st.integers(1900, 2199))
def test_holidays_for_any_year(year):
    days = ny_legal_holidays(year)
    assert all(d.year == year for d in days)
    assert date(year, 1, 1) in days and date(year, 12, 25) in days and date(year, 7, 4) in days


@FAST
@given(MUNIS, st.one_of(st.sampled_from(list(MINOR_REPAIRS)), st.text(min_size=1, max_size=80).filter(str.strip)),
       st.sampled_from(["registered_contractor", "utility", "in_house_journeyman", "homeowner", "other"]))
def test_electrical_permit_never_crashes(muni, work, by):
    out = electrical_permit.run(electrical_permit.ElectricalPermitInput(municipality=muni, work=work, performed_by=by))
    assert_grounded(out)
    if muni == "tuckahoe":
        assert out.permit_required is (out.exemption is None)
