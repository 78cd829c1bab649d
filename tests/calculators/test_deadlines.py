"""Deadlines: each obligation, both municipalities, the holiday-aware wiring rule, and the .ics export."""

from __future__ import annotations

from datetime import date, datetime, time, timezone

import pytest
from pydantic import ValidationError

from codeassist.calculators.deadlines import DeadlinesInput, run

from .tables import MILESTONES

from .conftest import assert_grounded


def calc(**kw):
    out = run(DeadlinesInput(**kw))
    assert_grounded(out)
    assert [(o.due, o.due_time or time(0)) for o in out.obligations] == sorted(
        (o.due, o.due_time or time(0)) for o in out.obligations
    )
    return out


def kinds(out, kind):
    return [o for o in out.obligations if o.kind == kind]


# --- Inspection reports (Hempstead § 393(A)(2) only) ---------------------------------------------------

def test_hempstead_weekly_reports():
    out = calc(municipality="hempstead", construction_start="2024-05-01", through="2024-05-29")
    weekly = kinds(out, "inspection_report")
    assert [o.due for o in weekly] == [date(2024, 5, 8), date(2024, 5, 15), date(2024, 5, 22), date(2024, 5, 29)]
    assert all(o.provision_id == "hempstead:393(A)(2)" and o.citation == "Hempstead BZO § 393(A)(2)" for o in weekly)


def test_default_horizon_is_stated():
    out = calc(municipality="hempstead", construction_start="2024-05-01")
    assert len(kinds(out, "inspection_report")) == 12
    assert any("'through'" in c for c in out.caveats)


@pytest.mark.parametrize(("inches", "listed"), [(0.49, False), (0.5, True), (2.3, True)])
def test_storm_report_within_24_hours(inches, listed):
    out = calc(municipality="hempstead", construction_start="2024-05-01", through="2024-06-01",
               storm_events=[{"date": "2024-05-10", "inches": inches}])
    storms = kinds(out, "storm_inspection_report")
    assert [o.due for o in storms] == ([date(2024, 5, 11)] if listed else [])


def test_storm_outside_the_period_is_not_listed():
    out = calc(municipality="hempstead", construction_start="2024-05-01", through="2024-06-01",
               storm_events=[{"date": "2024-04-20", "inches": 1.0}, {"date": "2024-06-20", "inches": 1.0}])
    assert kinds(out, "storm_inspection_report") == []


def test_storms_without_a_start_date():
    out = calc(municipality="hempstead", storm_events=[{"date": "2024-04-20", "inches": 1.0}])
    assert [o.due for o in out.obligations] == [date(2024, 4, 21)]


def test_tuckahoe_has_no_report_rule_in_this_corpus():
    out = calc(municipality="tuckahoe", construction_start="2024-05-01", through="2024-06-01",
               storm_events=[{"date": "2024-05-10", "inches": 1.0}])
    assert out.obligations == []
    assert any("sets no inspection-report schedule" in c and "Hempstead's" in c for c in out.caveats)


# --- 48-hour notices before milestones ---------------------------------------------------------------

MILESTONE_CASES = [(muni, key, ref.pid) for muni, table in MILESTONES.items() for key, ref in table.items()]


@pytest.mark.parametrize(("muni", "key", "pid"), MILESTONE_CASES)
def test_every_listed_milestone_gets_a_48_hour_notice(muni, key, pid):
    out = calc(municipality=muni, milestones=[{"name": key, "date": "2024-05-10"}])
    [notice] = kinds(out, "milestone_notice")
    assert (notice.due, notice.due_time) == (date(2024, 5, 8), time(0))
    assert notice.item_provision_id == pid
    assert notice.provision_id == ("hempstead:construction-inspection(A)(1)" if muni == "hempstead" else "tuckahoe:7B-6(a)(1)")
    assert "48 hours" in notice.quote


def test_milestone_lists():
    assert len(MILESTONES["hempstead"]) == 9 and len(MILESTONES["tuckahoe"]) == 8
    assert set(MILESTONES["hempstead"]) - set(MILESTONES["tuckahoe"]) == {"reopening_of_the_construction_season"}
    assert MILESTONES["tuckahoe"]["successful_establishment_of_landscaping_in_public_areas"].pid == "tuckahoe:7B-6(a)(2)"


def test_printed_names_and_start_times():
    out = calc(municipality="hempstead", milestones=[{"name": "Completion of rough grading", "date": "2024-05-10", "start_time": "07:30"}])
    [notice] = out.obligations
    assert (notice.due, notice.due_time) == (date(2024, 5, 8), time(7, 30))
    assert notice.item_provision_id == "hempstead:construction-inspection(A)(1)(d)"


def test_reopening_is_hempstead_only():
    assert kinds(calc(municipality="hempstead", milestones=[{"name": "Reopening of the construction season", "date": "2025-03-03"}]), "milestone_notice")
    out = calc(municipality="tuckahoe", milestones=[{"name": "Reopening of the construction season", "date": "2025-03-03"}])
    assert out.obligations == []
    assert any("does not list" in c for c in out.caveats)


def test_notice_due_on_a_weekend_is_flagged():
    # Monday milestone: 48 hours earlier is Saturday 00:00, so the last day to notify is Friday... unless
    # the milestone is on a Tuesday: due Sunday 00:00, last day Saturday.
    out = calc(municipality="hempstead", milestones=[{"name": "start_of_construction", "date": "2024-05-14"}])
    assert "Saturday" in out.obligations[0].note


# --- Appeal, guarantee ------------------------------------------------------------------------------

@pytest.mark.parametrize(("muni", "pid"), [("hempstead", "hempstead:enforcement(A)(6)"), ("tuckahoe", "tuckahoe:7B-8(a)(6)")])
def test_appeal_within_15_days_of_service(muni, pid):
    [o] = calc(municipality=muni, violation_notice_served="2024-06-03").obligations
    assert (o.kind, o.due, o.provision_id, o.note) == ("appeal_deadline", date(2024, 6, 18), pid, None)


def test_appeal_ending_on_a_sunday_notes_gcl_25a():
    [o] = calc(municipality="hempstead", violation_notice_served="2024-06-01").obligations
    assert o.due == date(2024, 6, 16) and "§ 25-a" in o.note


@pytest.mark.parametrize(("muni", "pid"), [("hempstead", "hempstead:performance-guarantee(A)"), ("tuckahoe", "tuckahoe:7B-7(a)")])
@pytest.mark.parametrize(("accepted", "release"), [("2024-06-15", date(2025, 6, 15)), ("2024-02-29", date(2025, 2, 28))])
def test_guarantee_not_less_than_one_year(muni, pid, accepted, release):
    [o] = calc(municipality=muni, final_acceptance=accepted).obligations
    assert (o.kind, o.due, o.provision_id) == ("guarantee_release", release, pid)
    assert "a one-year inspection has been conducted" in o.quote  # release is not a date alone


# --- Electrical (Tuckahoe Chapter 7) ------------------------------------------------------------------

@pytest.mark.parametrize(("notice", "due"), [
    ("2024-08-31T10:00", datetime(2024, 9, 3, 10, 0)),  # Saturday before Labor day (Monday)
    ("2024-07-03T08:00", datetime(2024, 7, 5, 8, 0)),  # Independence day
    ("2024-03-13T14:15", datetime(2024, 3, 14, 14, 15)),
])
def test_concealed_wiring_24_hours_excluding_sundays_and_holidays(notice, due):
    out = calc(municipality="tuckahoe", wiring_concealment_notice=notice)
    [o] = out.obligations
    assert (o.kind, datetime.combine(o.due, o.due_time)) == ("wiring_may_be_concealed", due)
    assert o.provision_id == "tuckahoe:7-8(b)"
    assert any("General Construction Law § 24" in c for c in out.caveats)


def test_concealed_wiring_step_names_skipped_days():
    out = calc(municipality="tuckahoe", wiring_concealment_notice="2024-08-31T10:00")
    assert any("2024-09-01 (Sunday)" in s.text and "2024-09-02 (Labor day)" in s.text for s in out.steps)


def test_registration_expires_december_31_and_void_after_supervisor_leaves():
    out = calc(municipality="tuckahoe", registration_issued="2024-03-03", supervisor_left="2024-05-01")
    got = {o.kind: (o.due, o.provision_id) for o in out.obligations}
    assert got == {
        "registration_expires": (date(2024, 12, 31), "tuckahoe:7-11(f)"),
        "registration_void": (date(2024, 5, 31), "tuckahoe:7-11(d).p2"),
    }


@pytest.mark.parametrize(("disqualified", "due", "weekend"), [
    ("2025-01-15", date(2025, 2, 14), False),  # day 1 is the next day: day 30 is Friday, February 14
    ("2026-01-01", date(2026, 1, 31), True),   # day 30 is a Saturday: the note names GCL § 25-a
])
def test_inspection_company_may_appeal_disqualification_within_30_days(disqualified, due, weekend):
    out = calc(municipality="tuckahoe", inspection_company_disqualified=disqualified)
    [o] = out.obligations
    assert (o.kind, o.due, o.provision_id) == ("disqualification_appeal_deadline", due, "tuckahoe:7-7(b)")
    assert ("§ 25-a" in (o.note or "")) is weekend


def test_hempstead_has_no_disqualification_appeal_rule():
    out = calc(municipality="hempstead", inspection_company_disqualified="2025-01-15")
    assert out.obligations == []
    assert any("appealing an inspection company's disqualification" in c for c in out.caveats)


def test_hempstead_has_no_electrical_deadlines():
    out = calc(municipality="hempstead", wiring_concealment_notice="2024-08-31T10:00", registration_issued="2024-01-01")
    assert out.obligations == []
    assert any("No electrical code for Hempstead" in c for c in out.caveats)


# --- Validation ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kw", "message"), [
    ({}, "nothing to compute"),
    ({"construction_start": "2024-05-01", "through": "2024-04-01"}, "before construction_start"),
    ({"construction_start": "2024-05-01", "through": "2044-04-01"}, "more than ten years"),
    ({"milestones": [{"name": "groundbreaking party", "date": "2024-05-01"}]}, "Hempstead lists: start_of_construction"),
    ({"storm_events": [{"date": "2024-05-01", "inches": -0.1}]}, "cannot be negative"),
    ({"storm_events": [{"date": "2024-05-01", "inches": float("nan")}]}, "finite"),
    ({"storm_events": [{"date": "2024-05-01", "inches": 80}]}, "not plausible"),
    ({"violation_notice_served": "June 1"}, "date"),
    ({"final_acceptance": "2400-01-01"}, "out of range"),
    ({"wiring_concealment_notice": "2024-02-30T10:00"}, "datetime"),
    ({"unknown_field": 1, "final_acceptance": "2024-01-01"}, "Extra inputs"),
])
def test_invalid_input_messages(kw, message):
    with pytest.raises(ValidationError) as exc:
        DeadlinesInput(municipality="hempstead", **kw)
    assert message in str(exc.value)


# --- iCalendar ----------------------------------------------------------------------------------------

STAMP = datetime(2024, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


def everything():
    return calc(
        municipality="tuckahoe",
        milestones=[{"name": "start_of_construction", "date": "2024-05-10", "start_time": "08:00"}],
        violation_notice_served="2024-06-03",
        final_acceptance="2024-06-15",
        wiring_concealment_notice="2024-08-31T10:00",
        registration_issued="2024-03-03",
        supervisor_left="2024-05-01",
    )


def unfold(text: str) -> list[str]:
    lines: list[str] = []
    for raw in text.split("\r\n"):
        if raw.startswith(" "):
            lines[-1] += raw[1:]
        elif raw:
            lines.append(raw)
    return lines


def test_ics_is_valid_rfc5545():
    out = everything()
    ics = out.to_ics(dtstamp=STAMP)
    assert ics.endswith("\r\n") and "\n" not in ics.replace("\r\n", "")
    assert all(len(line.encode("utf-8")) <= 75 for line in ics.split("\r\n"))
    lines = unfold(ics)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    assert "VERSION:2.0" in lines and any(l.startswith("PRODID:") for l in lines)
    events, current = [], None
    for line in lines:
        if line == "BEGIN:VEVENT":
            current = {}
        elif line == "END:VEVENT":
            events.append(current)
            current = None
        elif current is not None:
            name, _, value = line.partition(":")
            current[name] = value
    assert len(events) == len(out.obligations) == 6
    for ev in events:
        assert {"UID", "DTSTAMP", "SUMMARY", "DESCRIPTION"} <= set(ev)
        assert ev["DTSTAMP"] == "20240102T030405Z"
        assert "DTSTART" in ev or "DTSTART;VALUE=DATE" in ev
    assert len({ev["UID"] for ev in events}) == len(events)
    timed = [ev for ev in events if "DTSTART" in ev]
    assert {ev["DTSTART"] for ev in timed} == {"20240508T080000", "20240903T100000"}
    allday = [ev for ev in events if "DTSTART;VALUE=DATE" in ev]
    assert all(ev["DTEND;VALUE=DATE"] > ev["DTSTART;VALUE=DATE"] for ev in allday)


def test_ics_escapes_text_and_carries_citations():
    ics = everything().to_ics(dtstamp=STAMP)
    desc = [l for l in unfold(ics) if l.startswith("DESCRIPTION:")]
    assert any("Tuckahoe Code § 7-8(b)" in d for d in desc)
    for d in desc:
        body = d[len("DESCRIPTION:"):]
        # Every comma and semicolon is escaped; newlines are written as \n.
        stripped = body.replace("\\\\", "").replace("\\,", "").replace("\\;", "").replace("\\n", "")
        assert "," not in stripped and ";" not in stripped and "\\" not in stripped


def test_ics_is_deterministic_given_a_stamp():
    assert everything().to_ics(dtstamp=STAMP) == everything().to_ics(dtstamp=STAMP)


def test_ics_escape_and_fold_units():
    from codeassist.calculators.ics import escape_text, fold

    assert escape_text('a,b;c\\d\ne') == "a\\,b\\;c\\\\d\\ne"
    folded = fold("X:" + "§" * 100)
    assert all(len(p.encode()) <= 75 for p in folded.split("\r\n"))
    assert "".join(p[1:] if i else p for i, p in enumerate(folded.split("\r\n"))) == "X:" + "§" * 100


def test_the_next_weekly_report_is_seven_days_after_the_last():
    out = calc(municipality="hempstead", last_report="2025-05-02")
    [o] = out.obligations
    assert (o.kind, o.due, o.provision_id) == ("inspection_report", date(2025, 5, 9), "hempstead:393(A)(2)")
    village = calc(municipality="tuckahoe", last_report="2025-05-02")
    assert village.obligations == [] and any("no inspection-report schedule" in c for c in village.caveats)


@pytest.mark.parametrize("question, slots, milestone", [
    ("We wrap up rough grading on Monday June 8, 2026. Latest we can notify the town?", {"dates": ["2026-06-08"]},
     "completion_of_rough_grading"),
    ("site clearing will be done March 20 2026 - when's the notice due?", {"dates": ["2026-03-20"]},
     "completion_of_site_clearing"),
    ("we expect to finsh clearing the lot May 6, 2026. latest we can notify?", {"dates": ["2026-05-06"]},
     "completion_of_site_clearing"),  # a misspelled "finish"
    # one word of a completion milestone's own, with the work said to finish
    ("Clearing on our lot should wrap up Thursday Aug 13, 2026 around 3pm. When do we have to give notice?",
     {"dates": ["2026-08-13"]}, "completion_of_site_clearing"),
    # another name for a listed milestone (the rules' `said`), and "construction" left unsaid
    ("We winterize the site Nov 20 2026, end of the season for us. When is the notice due?", {"dates": ["2026-11-20"]},
     "close_of_the_construction_season"),
    ("crews reopen for the season April 6 2026 - latest day to tell the town?", {"dates": ["2026-04-06"]},
     "reopening_of_the_construction_season"),
    ("we button up the job Dec 4 2026 till spring; by when do we call the town?", {"dates": ["2026-12-04"]},
     "close_of_the_construction_season"),
    ("our silt fence goes up Tuesday June 9 2026 - last moment to give notice?", {"dates": ["2026-06-09"]},
     "installation_of_sediment_and_erosion_control_measures"),
    ("Applicant says final grading wraps up 6/30/2026 at 1 pm. What's the cutoff for their notice to us?",
     {"dates": ["2026-06-30"], "time": "13:00"}, "completion_of_final_grading"),  # the cutoff asks for a day
    ("the plantings in the public areas will be established by Thursday, June 3, 2027. when is the notice due?",
     {"dates": ["2027-06-03"]}, "successful_establishment_of_landscaping_in_public_areas"),
    # two milestones named: the date follows the one it is for; "start back up" is no start of construction
    ("Our job shut down for the winter and we want to start back up Tuesday, March 16, 2027 at 7:00. Latest notice "
     "to the Town?", {"dates": ["2027-03-16"], "event": "construction_start"}, "reopening_of_the_construction_season"),
])
def test_a_listed_milestone_named_in_the_question_dates_its_notice(question, slots, milestone):
    from codeassist.calculators.deadlines import read_slots
    data, follow = read_slots(slots, question, "hempstead", today=date(2026, 1, 5))
    assert follow is None and data["milestones"][0]["name"] == milestone
    out = run(DeadlinesInput(**data))
    assert out.obligations and out.obligations[0].kind == "milestone_notice"
    assert out.obligations[0].due < date.fromisoformat(slots["dates"][0])


@pytest.mark.parametrize("question, slots", [
    ("Rough grading wraps up Thursday. How much heads-up does the town need?", {"dates": ["2026-01-08"]}),  # the rule, not a day
    ("We wrap up rough grading soon. When do we notify?", {}),                                               # no date given
    ("construction wraps up June 8, 2026. when do we notify?", {"dates": ["2026-06-08"]}),                    # no milestone's words
    ("we start clearing June 8, 2026. when do we notify?", {"dates": ["2026-06-08"]}),                       # clearing not finished
])
def test_no_milestone_notice_without_a_date_a_day_asked_or_a_milestones_words(question, slots):
    from codeassist.calculators.deadlines import read_slots
    assert read_slots(slots, question, "hempstead", today=date(2026, 1, 5)) == (None, None)


@pytest.mark.parametrize("inches, question, start", [
    (1.0, "is it true a storm report is only required after an inch of rain?", "No: complete an inspection report within 24 hours"),
    (0.5, "so a report is only needed after half an inch or more?", "Yes: complete an inspection report within 24 hours"),
    (1.0, "we got an inch on monday, when is the report due?", "Storm inspection report, due within 24 hours (1 in"),  # no claim to check
    # whether the storm told of calls for a report at all: the law's amount answers
    (1.0, "almost an inch of rain last night. Does that mean an extra inspection report?", "Yes: complete an inspection report within 24 hours"),
    (0.3, "we had 0.3 inches yesterday, do we need a storm inspection report?", "No: storm of 2026-03-02 (0.3 in) is under 0.5 inch: no extra report (Town"),
])
def test_a_claim_that_only_some_rain_calls_for_a_report_is_checked_against_the_law(inches, question, start):
    from codeassist.calculators.deadlines import DeadlinesInput, headline, run
    data = {"municipality": "hempstead", "storm_events": [{"date": "2026-03-02", "inches": inches}]}
    out = run(DeadlinesInput.model_validate(data))
    assert out.storm_inches == 0.5
    assert headline(out, {"hempstead": "Town of Hempstead"}, data, question).startswith(start)


@pytest.mark.parametrize("issued, question, start", [
    ("2025-11-01", "We got our registration in November 2025. Good for 12 months, right?", "No: the registration expires December 31"),
    ("2026-01-02", "Our registration was issued January 2, 2026. It's valid for a year, correct?", "Yes: the registration expires"),
    ("2026-03-03", "registered March 3, 2026. when does it expire?", "Electrical contractor registration expires"),  # no claim
])
def test_a_term_claimed_for_a_registration_is_checked_against_its_expiry(issued, question, start):
    from codeassist.calculators.deadlines import headline
    data = {"municipality": "tuckahoe", "registration_issued": issued}
    out = run(DeadlinesInput.model_validate(data))
    assert headline(out, {"tuckahoe": "Village of Tuckahoe"}, data, question).startswith(start)


@pytest.mark.parametrize("question, slots, notice", [
    # the day the notice was given dates it, not the first day the question names
    ("can I close the walls on Sunday if I called the inspector Friday?",
     {"dates": ["2026-11-29", "2026-12-04"], "event": "wiring_concealment"}, "2026-12-04"),
    ("we notified the inspector on 2026-03-02; can we close up 2026-03-03?",
     {"dates": ["2026-03-02", "2026-03-03"], "event": "wiring_concealment"}, "2026-03-02"),
])
def test_the_event_a_deadline_runs_from_is_the_day_its_verb_names(question, slots, notice):
    from codeassist.calculators.deadlines import read_slots
    data, follow = read_slots(slots, question, "tuckahoe", today=date(2026, 12, 4))
    assert follow is None and data["wiring_concealment_notice"].startswith(notice)


@pytest.mark.parametrize("question, revoked_first", [
    ("It's January 6 and I never renewed my license that ran out Dec 31. What happens now?", True),
    ("we forgot to file the renewal. are we in trouble?", True),
    ("when does my registration expire?", False),          # nothing missed: the day first
    ("I never renewed. When does it expire?", False),       # missed, but the day is what is asked
])
def test_a_missed_deadline_asked_what_follows_leads_with_the_rule(question, revoked_first):
    from codeassist.calculators.deadlines import headline
    out = calc(municipality="tuckahoe", registration_issued="2026-03-03")
    lead = headline(out, {"tuckahoe": "Village of Tuckahoe"}, None, question)
    first_sentence = lead.split(". ")[0]
    assert ("revoked" in first_sentence) is revoked_first, lead


@pytest.mark.parametrize("question, slots, storm, last", [
    # the storm's day is the one told with the rain, the other the last weekly report's
    ("Our last weekly erosion inspection was Tuesday, September 1, 2026. Then 1.3 inches of rain fell, ending "
     "Thursday, September 3 at 6 pm. When are the storm report and the next weekly report due?",
     {"dates": ["2026-09-01", "2026-09-03"], "inches": 1.3, "event": "storm"}, "2026-09-03", "2026-09-01"),
    # the date before the rain words in its sentence ("On Monday May 4 it rained 2 inches")
    ("Last inspection report May 1, 2026. On Monday May 4, 2026 it rained 2 inches; when is the storm report due?",
     {"dates": ["2026-05-01", "2026-05-04"], "inches": 2.0, "event": "storm"}, "2026-05-04", "2026-05-01"),
    # a bare weekday told after a written date follows it (not the last such day before today)
    ("our last weekly report was Thursday April 9, 2026, and Saturday we got 0.7 inches of rain. storm report due?",
     {"dates": ["2026-04-09", "2026-04-11"], "inches": 0.7, "event": "storm"}, "2026-04-11", "2026-04-09"),
    # one date: the storm's, and no last report
    ("we got 1.2 inches of rain on 2026-03-02, when is the report due?",
     {"dates": ["2026-03-02"], "inches": 1.2, "event": "storm"}, "2026-03-02", None),
])
def test_a_storm_is_dated_by_the_day_told_with_the_rain(question, slots, storm, last):
    from codeassist.calculators.deadlines import read_slots
    data, follow = read_slots(slots, question, "hempstead", today=date(2026, 12, 4))
    assert follow is None
    assert data["storm_events"] == [{"date": storm, "inches": slots["inches"]}]
    assert data.get("last_report") == last


def test_a_storm_under_the_amount_answers_no_to_whether_a_report_is_owed():
    from codeassist.calculators.deadlines import headline
    data = {"municipality": "hempstead", "storm_events": [{"date": "2026-04-11", "inches": 0.4}],
            "last_report": "2026-04-09"}
    out = run(DeadlinesInput.model_validate(data))
    lead = headline(out, {"hempstead": "Town of Hempstead"}, data, "Do we owe a storm report?")
    assert lead.startswith("No: the storm of Saturday, April 11, 2026 (0.4 in) is under 0.5 inch, so it calls for no "
                           "extra report") and "Thursday, April 16, 2026" in lead


def test_a_few_dated_obligations_are_each_named_in_the_first_line():
    from codeassist.calculators.deadlines import NAMED_IN_HEADLINE, headline
    data = {"municipality": "hempstead", "storm_events": [{"date": "2026-09-03", "inches": 1.3}],
            "last_report": "2026-09-01"}
    out = run(DeadlinesInput.model_validate(data))
    assert 1 < len(out.obligations) <= NAMED_IN_HEADLINE
    lead = headline(out, {"hempstead": "Town of Hempstead"}, data, "when are the storm report and the next weekly report due?")
    assert "Friday, September 4, 2026" in lead and "Tuesday, September 8, 2026" in lead
    assert "below" not in lead
