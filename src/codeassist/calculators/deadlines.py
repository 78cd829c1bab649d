"""By when: a dated list of obligations, each with the rule and provision it comes from, exportable as .ics.

A generic engine over the municipality's `rules/deadlines.toml` (``DeadlinesRules``).

Counting conventions (documented because the texts do not spell them out):
- "within N days of" an event: day 1 is the day after the event (NY General Construction Law § 20), so
  the last day is the event date + N. If that day is a Saturday, Sunday or public holiday, GCL § 25-a
  may allow the next business day; the due date given is the unextended one (the safe date).
- "48 hours before" a milestone: clock hours, counted back from the milestone's start time, or from
  00:00 on the milestone day when no start time is given.
- "24 hours, exclusive of Sundays and legal holidays": hours falling on a Sunday or a NY legal holiday
  (see ``holidays``) are not counted.
- "not less than one year from": the same calendar day a year later (Feb 29 -> Feb 28, GCL § 20).
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from codeassist.calculators import holidays, ics
from codeassist.calculators._inputs import CalDate, CalDateTime, MunicipalityId, not_bool
from codeassist.calculators import _refs
from codeassist.calculators._refs import Ref, citation, rules_for, short_name, step
from codeassist.corpus.rules import DeadlinesRules, Milestone as MilestoneRule
from codeassist.calculators.penalty import add_years
from codeassist.models import Step
from codeassist.slots import (ENOUGH_NOTICE, EVENT_PATTERNS, STORM, dated_times, dates_at, dates_told_with, event_dates,
                              notice_days_before)

DEFAULT_HORIZON_DAYS = 90
NAMED_IN_HEADLINE = 3  # dated obligations the first line names, each with its day; more are listed below it
MAX_SPAN_DAYS = 3660  # ten years of weekly reports is the most listed
MAX_STORM_INCHES = 50.0  # far above New York's 24-hour record; more is a typo


def _inches(v: float) -> float:
    if math.isnan(v) or math.isinf(v):
        raise ValueError("storm inches must be a finite number")
    if v < 0:
        raise ValueError(f"storm inches cannot be negative (got {v:g})")
    if v > MAX_STORM_INCHES:
        raise ValueError(f"{v:g} inches of rain in one storm is not plausible (limit {MAX_STORM_INCHES:g}); check the unit")
    return v


class StormEvent(BaseModel):
    model_config = ConfigDict(extra="forbid")

    date: CalDate = Field(description="Day of the storm (YYYY-MM-DD).")
    inches: Annotated[float, BeforeValidator(not_bool), AfterValidator(_inches)] = Field(description="Precipitation the storm produced, in inches.")


def milestone_key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


class Milestone(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="A listed milestone, e.g. 'Start of construction' or 'completion_of_rough_grading'.")
    date: CalDate = Field(description="Day the milestone is reached or the work starts.")
    start_time: time | None = Field(default=None, description="Start time that day, if known (HH:MM).")
    notified: CalDateTime | None = Field(
        default=None, description="When the enforcement official was told of it, if the question says (YYYY-MM-DDTHH:MM): "
        "the answer says whether that was in time.")
    notified_on: CalDate | None = Field(
        default=None, description="The day the enforcement official was told of it, when the hour is not known: the "
        "answer says whether any hour of that day was in time, none was, or it depends on the hour.")


class DeadlinesInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: MunicipalityId
    construction_start: CalDate | None = None
    storm_events: list[StormEvent] = Field(default_factory=list)
    through: CalDate | None = Field(default=None, description="Last day to list recurring obligations for.")
    milestones: list[Milestone] = Field(default_factory=list)
    violation_notice_served: CalDate | None = None
    final_acceptance: CalDate | None = None
    wiring_concealment_notice: CalDateTime | None = Field(
        default=None, description="When the Building Inspector was notified that wiring will be concealed (YYYY-MM-DDTHH:MM)."
    )
    supervisor_left: CalDate | None = Field(default=None, description="Day the contractor's supervisor left.")
    registration_issued: CalDate | None = Field(default=None, description="Day the contractor registration was issued.")
    last_report: CalDate | None = Field(default=None, description="Day the last weekly inspection report was completed.")
    inspection_company_disqualified: CalDate | None = Field(
        default=None, description="Day the Building Inspector disqualified an electrical inspection company.")
    as_of: CalDate | None = Field(default=None, description="The day asked about (\"today is April 14: still in time?\"): "
                                  "the answer says whether it is on or before the first deadline.")

    @model_validator(mode="after")
    def _check(self) -> "DeadlinesInput":
        given = [k for k in INPUT_FIELDS if getattr(self, k) not in (None, [])]
        if not given:
            raise ValueError(f"nothing to compute: give at least one of {', '.join(INPUT_FIELDS)}")
        if self.construction_start and self.through:
            if self.through < self.construction_start:
                raise ValueError(f"through ({self.through}) is before construction_start ({self.construction_start})")
            if (self.through - self.construction_start).days > MAX_SPAN_DAYS:
                raise ValueError(f"through is more than ten years after construction_start; list at most {MAX_SPAN_DAYS} days")
        if self.milestones:
            known = known_milestones()
            for m in self.milestones:
                if milestone_key(m.name) not in known:
                    valid = ", ".join(milestones(self.municipality))
                    raise ValueError(f"unknown milestone {m.name!r}; {short_name(self.municipality)} lists: {valid}")
        for m in self.milestones:
            m.notified = _local(m.notified)
            if m.notified is not None and m.notified_on is not None:
                raise ValueError("give either notified (a day and an hour) or notified_on (a day), not both")
        self.wiring_concealment_notice = _local(self.wiring_concealment_notice)
        return self


def _local(at: datetime | None) -> datetime | None:
    """A clock time as read on the site's clock: any time-zone offset given is dropped, not converted."""
    return at.replace(tzinfo=None) if at is not None and at.tzinfo is not None else at


INPUT_FIELDS = (
    "construction_start",
    "storm_events",
    "milestones",
    "violation_notice_served",
    "final_acceptance",
    "wiring_concealment_notice",
    "supervisor_left",
    "registration_issued",
    "inspection_company_disqualified",
    "last_report",
)


class Obligation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal[
        "inspection_report",
        "storm_inspection_report",
        "milestone_notice",
        "appeal_deadline",
        "guarantee_release",
        "wiring_may_be_concealed",
        "registration_expires",
        "registration_void",
        "disqualification_appeal_deadline",
    ]
    title: str
    due: date
    due_time: time | None = Field(default=None, description="Exact time when the rule counts hours; None = all day.")
    rule: str = Field(description="The rule in plain words.")
    provision_id: str
    citation: str
    quote: str
    item_provision_id: str | None = Field(default=None, description="The listed item (e.g. the milestone), when there is one.")
    item_citation: str | None = None
    note: str | None = None

    def description(self) -> str:
        parts = [self.rule, f"{self.citation}: \"{self.quote}\""]
        if self.item_citation:
            parts.append(f"Item: {self.item_citation}")
        if self.note:
            parts.append(self.note)
        return "\n".join(parts)


class DeadlinesOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: str
    obligations: list[Obligation] = Field(default_factory=list)
    storm_inches: float | None = Field(default=None, description="The rain that calls for a storm inspection report, "
                                       "when a storm was given and the law sets one.")
    steps: list[Step] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)

    def to_ics(self, dtstamp: datetime | None = None) -> str:
        return ics.to_ics(self.obligations, name=f"{self.municipality.title()} deadlines", dtstamp=dtstamp)


# --- Rules ------------------------------------------------------------------------------------------


def milestones(municipality: str) -> dict[str, MilestoneRule]:
    """The milestones needing notice that the municipality lists, in text order: key -> the listed item."""
    rules = rules_for(municipality, "deadlines")
    return {m.key: m for m in rules.milestones} if rules is not None else {}


def known_milestones() -> set[str]:
    """Every milestone key any municipality in the corpus lists (input names are checked against these)."""
    c = _refs.corpus()
    if c is None:
        return set()
    return {m.key for r in c.rules.values() if r.deadlines is not None for m in r.deadlines.milestones}


# --- Calculation -------------------------------------------------------------------------------------


def _ob(kind: str, title: str, due: date, rule: str, ref: Ref, due_time: time | None = None, note: str | None = None, item: Ref | None = None) -> Obligation:
    return Obligation(
        kind=kind,  # type: ignore[arg-type]
        title=title,
        due=due,
        due_time=due_time,
        rule=rule,
        provision_id=ref.pid,
        citation=citation(ref.pid),
        quote=ref.quote,
        item_provision_id=item.pid if item else None,
        item_citation=citation(item.pid) if item else None,
        note=note,
    )


def _closed(day: date) -> str | None:
    if day.weekday() >= 5:
        return day.strftime("%A")
    name = holidays.holiday_name(day)
    return f"a legal holiday ({name})" if name else None


def _reports(inp: DeadlinesInput, rules: DeadlinesRules, out: DeadlinesOutput) -> None:
    if not (inp.construction_start or inp.storm_events or inp.last_report):
        return
    if rules.reports is None:
        out.caveats.append(rules.reports_missing or f"{short_name(inp.municipality)}'s text in this corpus sets no "
                           "inspection-report schedule. No inspection reports are listed.")
        return
    ref = rules.reports
    start, end = inp.construction_start, inp.through
    if start and not end:
        end = start + timedelta(days=DEFAULT_HORIZON_DAYS)
        out.caveats.append(f"No 'through' date was given: weekly reports are listed for the first {DEFAULT_HORIZON_DAYS} days.")
    if start:
        every = timedelta(days=ref.every_days)
        due, n = start + every, 1
        while end and due <= end:
            out.obligations.append(_ob("inspection_report", f"Weekly erosion-control inspection report #{n}", due, f"Complete an inspection report at least every {ref.every_words}; deliver it to the Stormwater Management Officer and copy it to the site logbook.", ref))
            due, n = due + every, n + 1
        out.steps.append(step(f"Weekly reports from {start} (first due {start + every}) through {end}.", ref))
    if inp.last_report:
        due = inp.last_report + timedelta(days=ref.every_days)
        out.obligations.append(_ob("inspection_report", f"Next erosion-control inspection report (every {ref.every_words})", due, f"Complete an inspection report at least every {ref.every_words}; deliver it to the Stormwater Management Officer and copy it to the site logbook.", ref))
        out.steps.append(step(f"Last report {inp.last_report}: the next is due within {ref.every_words}, by {due}.", ref))
    storm = ref.storm_inches
    if inp.storm_events:
        out.storm_inches = storm
    for ev in inp.storm_events:
        if ev.inches < storm:
            out.steps.append(step(f"Storm of {ev.date} ({ev.inches:g} in) is under {storm:g} inch: no extra report.", ref))
            continue
        if (start and ev.date < start) or (end and ev.date > end):
            out.steps.append(step(f"Storm of {ev.date} falls outside the construction period listed: no report listed."))
            continue
        out.obligations.append(_ob("storm_inspection_report", f"Storm inspection report, due within 24 hours ({ev.inches:g} in on {ev.date})", ev.date + timedelta(days=1), f"Complete an inspection report within 24 hours of a storm producing {storm:g} inch or more.", ref, note="Only the storm's date is known: the report is listed for the next day; it is due 24 hours after the storm."))
        out.steps.append(step(f"Storm of {ev.date} produced {ev.inches:g} inch(es), {storm:g} or more: report within 24 hours.", ref))


def _notices(inp: DeadlinesInput, rules: DeadlinesRules, out: DeadlinesOutput) -> None:
    table = milestones(inp.municipality)
    hours = rules.notice_hours
    for m in inp.milestones:
        key = milestone_key(m.name)
        if key not in table:
            out.caveats.append(f"{short_name(inp.municipality)} does not list \"{m.name}\" among the milestones needing {hours} hours' notice; none is listed for it.")
            continue
        begins = datetime.combine(m.date, m.start_time or time(0))
        due = begins - timedelta(hours=hours)
        last_day = (due - timedelta(microseconds=1)).date()
        note = None if m.start_time else "No start time given: counted from 00:00 on the milestone day, so give notice before this time."
        closed = _closed(last_day)
        if closed:
            note = (note + " " if note else "") + f"The last day to give notice is {last_day} ({closed}); the rule counts clock hours, so notify earlier if the office is closed."
        item = table[key]
        out.obligations.append(_ob("milestone_notice", f"{hours}-hour notice before: {item.quote.rstrip('.;')} ({m.date})", due.date(), f"Notify the enforcement official at least {hours} hours before the milestone, as the Stormwater Management Officer requires.", rules.notice_rule, due_time=due.time(), note=note, item=item))
        out.steps.append(step(f"\"{item.quote.rstrip('.;')}\" on {m.date}: notice due by {due:%Y-%m-%d %H:%M}.", item))
        if m.notified is not None:
            given = (begins - m.notified).total_seconds() / 3600
            out.steps.append(step(f"Notice given {m.notified:%Y-%m-%d %H:%M}: {_hours(abs(given))} hours "
                                  f"{'before' if given >= 0 else 'after'} {begins:%Y-%m-%d %H:%M}, "
                                  f"{'at least' if given >= hours else 'less than'} {hours} before.", rules.notice_rule))
        if m.notified_on is not None:
            most, least = _day_gap(m.notified_on, begins)
            out.steps.append(step(f"Notice given on {m.notified_on}, hour unknown: from {_hours(least)} to {_hours(most)} hours "
                                  f"before {begins:%Y-%m-%d %H:%M}, by the hour it was given.", rules.notice_rule))
    if inp.milestones:
        out.steps.append(step(f"The applicant must notify at least {hours} hours before each listed milestone.", rules.notice_rule))
        if rules.milestones_caveat:
            out.caveats.append(rules.milestones_caveat)


def _day_gap(day: date, begins: datetime) -> tuple[float, float]:
    """The most and the fewest hours between some time on `day` and `begins`: from its first minute, and from its
    end (the next day's first minute)."""
    first = datetime.combine(day, time(0))
    return (begins - first).total_seconds() / 3600, (begins - first - timedelta(days=1)).total_seconds() / 3600


def _hours(h: float) -> str:
    """63.0 -> "63", 45.5 -> "45.5"."""
    return f"{h:g}" if h == int(h) else f"{h:.1f}"


def _with_25a_note(due: date) -> str | None:
    closed = _closed(due)
    if closed:
        return f"{due} is {closed}: NY General Construction Law § 25-a may extend the deadline to the next business day; filing by {due} is safe."
    return None


def run(inp: DeadlinesInput) -> DeadlinesOutput:
    muni = inp.municipality
    rules: DeadlinesRules | None = rules_for(muni, "deadlines")
    out = DeadlinesOutput(municipality=muni)
    if rules is None:
        out.caveats.append(f"The corpus holds no deadline rules for {short_name(muni)}: its text here sets none that can be dated.")
        return out
    _reports(inp, rules, out)
    _notices(inp, rules, out)
    if inp.violation_notice_served:
        n = rules.appeal_days
        due = inp.violation_notice_served + timedelta(days=n)
        out.obligations.append(_ob("appeal_deadline", f"Last day to appeal the notice of violation ({n} days from service)", due, f"File a written notice of appeal within {n} days of service of the notice of violation.", rules.appeal, note=_with_25a_note(due)))
        out.steps.append(step(f"Served {inp.violation_notice_served}; day 1 is the next day, so day {n} is {due}.", rules.appeal))
    if inp.final_acceptance:
        due = add_years(inp.final_acceptance, rules.guarantee_years)
        out.obligations.append(_ob("guarantee_release", "Earliest release of the performance guarantee", due, "A required performance guarantee stays in force at least one year from final acceptance, and until released.", rules.guarantee, note="Applies only if a guarantee was required; release also needs the one-year inspection and acceptance."))
        out.steps.append(step(f"Final acceptance {inp.final_acceptance}: not less than one year, so not before {due}.", rules.guarantee))
    _electrical(inp, rules, out)
    out.obligations.sort(key=lambda o: (o.due, o.due_time or time(0), o.title))
    if inp.as_of and out.obligations:
        first = out.obligations[0]
        out.steps.append(step(f"The day asked about, {inp.as_of}, is {'on or before' if inp.as_of <= first.due else 'after'} "
                              f"{first.due}, the last day."))
    return out


def _electrical(inp: DeadlinesInput, rules: DeadlinesRules, out: DeadlinesOutput) -> None:
    asked = inp.wiring_concealment_notice or inp.supervisor_left or inp.registration_issued or inp.inspection_company_disqualified
    if not asked:
        return
    if inp.inspection_company_disqualified and rules.disqualification_appeal is None:
        out.caveats.append(f"No rule on appealing an inspection company's disqualification for {short_name(inp.municipality)} "
                           f"is in this corpus{_only_electrical(inp.municipality)}.")
    elif inp.inspection_company_disqualified:
        n = rules.disqualification_appeal_days
        due = inp.inspection_company_disqualified + timedelta(days=n)
        out.obligations.append(_ob("disqualification_appeal_deadline", f"Last day to appeal the disqualification ({n} days from it)", due,
                                   f"The inspection company may appeal the Building Inspector's disqualification within {n} days of it.",
                                   rules.disqualification_appeal, note=_with_25a_note(due)))
        out.steps.append(step(f"Disqualified {inp.inspection_company_disqualified}; day 1 is the next day, so day {n} is {due}.",
                              rules.disqualification_appeal))
    if not (inp.wiring_concealment_notice or inp.supervisor_left or inp.registration_issued):
        return
    if rules.concealment is None or rules.expiry is None or rules.void is None or rules.renewal is None:
        out.caveats.append(f"No electrical code for {short_name(inp.municipality)} is in this corpus{_only_electrical(inp.municipality)}: wiring and contractor-registration deadlines cannot be computed.")
        return
    if inp.wiring_concealment_notice:
        n = inp.wiring_concealment_notice
        ok = holidays.add_hours_excluding(n, rules.concealment_hours)
        skipped = sorted({n.date() + timedelta(days=i) for i in range((ok.date() - n.date()).days + 1)} - {ok.date()})
        excluded = [f"{d} ({'Sunday' if d.weekday() == 6 else holidays.holiday_name(d)})" for d in skipped if holidays.is_sunday_or_legal_holiday(d)]
        out.obligations.append(_ob("wiring_may_be_concealed", f"Wiring may be concealed {rules.concealment_hours} hours after notice, not counting Sundays and legal holidays (if not inspected sooner)", ok.date(), f"Do not conceal wiring until it is inspected or {rules.concealment_hours} hours, not counting Sundays and legal holidays, have passed since notifying the Building Inspector.", rules.concealment, due_time=ok.time()))
        out.steps.append(step(f"Notified {n:%Y-%m-%d %H:%M}; {rules.concealment_hours} counted hours end {ok:%Y-%m-%d %H:%M}" + (f", skipping {', '.join(excluded)}." if excluded else "."), rules.concealment))
        out.caveats.append(holidays.UNLISTED_CAVEAT)
    if inp.registration_issued:
        due = date(inp.registration_issued.year, 12, 31)
        out.obligations.append(_ob("registration_expires", "Electrical contractor registration expires (file the renewal on or before this day)", due, "The registration expires December 31 of the year issued; file the renewal on or before then or the license will be revoked.", rules.expiry))
        out.steps.append(step(f"Issued {inp.registration_issued}: expires {due}.", rules.expiry))
        out.steps.append(step("Renewal must be filed on or before the expiration date.", rules.renewal))
    if inp.supervisor_left:
        due = inp.supervisor_left + timedelta(days=rules.void_days)
        out.obligations.append(_ob("registration_void", "Contractor certificate void unless a new supervisor is filed", due, f"When the supervisor leaves, the certificate becomes void {rules.void_days} days later unless renewed within that period by filing another qualified master electrician as supervisor.", rules.void, note="File the new supervisor before this day to be safe."))
        out.steps.append(step(f"Supervisor left {inp.supervisor_left}: certificate void {rules.void_days} days later, {due}.", rules.void))


def _only_electrical(municipality: str) -> str:
    """" (only Tuckahoe Chapter 7)": whose electrical code the corpus does hold."""
    c = _refs.corpus_for(municipality)
    held = [f"{c.municipalities[o.municipality].short_name} {o.division}" for o in c.ordinances.values()
            if o.topic == "electrical" and o.municipality != municipality] if c is not None else []
    return f" (only {', '.join(held)})" if held else ""


# --- Question and answer edges -----------------------------------------------------------------------


# The concealment clock runs from telling the Building Inspector the wiring is ready; a day named otherwise
# ("the drywall crew comes tomorrow") is not when it started.
_NOTIFIED = re.compile(r"\b(?:notif\w*|notice|heads[- ]up|told|tell|called|call|informed|let (?:\w+ ){1,3}know|ready|requested|asked for)\b", re.I)


def read_slots(slots: dict, question: str, municipality: str, prior: dict | None = None,
               today: date | None = None) -> tuple[dict | None, str | None]:
    """Input from the plan's slots: which dated event the question names. (None, None) when it names none
    this calculator knows, so the question is answered from the text instead."""
    data: dict = {**(prior or {}), "municipality": municipality}
    today = today or date.today()
    if slots.get("impossible_dates"):
        return None, f"The date {slots['impossible_dates'][0]} does not exist. Which day did you mean?"
    d0 = date.fromisoformat(slots["dates"][0]) if slots.get("dates") else today
    if len(slots.get("dates") or ()) > 1:
        # "can I close the walls on Sunday if I called the inspector Friday?": the notice's day, not the first named
        dated = [d for d in event_dates(question, today) if d.isoformat() in slots["dates"]]
        d0 = dated[0] if dated else d0
    event = slots.get("event")
    if slots.get("inches") is not None and event == "storm" or (slots.get("inches") is not None and event is None):
        if len(slots.get("dates") or ()) > 1:
            # "last weekly inspection was Tuesday, September 1. Then 1.3 inches of rain fell, ending Thursday,
            # September 3": the storm's day is the one told with the rain; the other dates the last report
            told = [d for d in dates_told_with(question, STORM, today) if d.isoformat() in slots["dates"]]
            d0 = told[0] if told else d0
            last = [d for d in dates_told_with(question, EVENT_PATTERNS["last_report"], today)
                    if d.isoformat() in slots["dates"] and d != d0]
            if last:
                data["last_report"] = last[0].isoformat()
        data["storm_events"] = [{"date": d0.isoformat(), "inches": slots["inches"]}]
    elif event == "violation_notice":
        # "dated November 10, but it wasn't served on me until Monday, November 16": the day of service counts
        served = [d for d in dates_told_with(question, _SERVED, today) if d.isoformat() in (slots.get("dates") or ())]
        d0 = served[0] if served else d0
        data["violation_notice_served"] = d0.isoformat()
    elif event == "wiring_concealment":
        if not _NOTIFIED.search(question):
            return None, None  # "drywall crew comes tomorrow; when can we close up?": the day is not the notice's
        hm = slots.get("time", "09:00")
        data["wiring_concealment_notice"] = f"{d0.isoformat()}T{hm}:00"
    elif event == "last_report":
        data["last_report"] = d0.isoformat()
    elif event == "disqualified":
        data["inspection_company_disqualified"] = d0.isoformat()
    elif event == "supervisor_left":
        data["supervisor_left"] = d0.isoformat()
    elif event == "registration":
        data["registration_issued"] = d0.isoformat()
    elif event == "final_acceptance":
        data["final_acceptance"] = d0.isoformat()
    elif event in (None, "construction_start") and len(slots.get("dates") or ()) > 1 and ENOUGH_NOTICE.search(question) and \
            (told := _notice_told(question, municipality, event, today)) is not None:
        data["milestones"] = [told]
    elif event in (None, "construction_start") and len(slots.get("dates") or ()) == 1 and ENOUGH_NOTICE.search(question) and \
            (before := notice_days_before(question)) is not None and \
            (key := "start_of_construction" if event else _milestone_named(question, municipality)) is not None:
        # "we finish rough grading Thursday 4/1 at 7:30 am. If I call the morning before, is that enough notice?"
        data["milestones"] = [{"name": milestones(municipality)[key].quote.rstrip(".;"), "date": d0.isoformat(),
                               "notified_on": (d0 - timedelta(days=before)).isoformat(),
                               **({"start_time": slots["time"]} if slots.get("time") else {})}]
    elif event in (None, "construction_start") and slots.get("dates") and ASKS_A_DAY.search(question) and \
            (named := _milestone_named(question, municipality)) is not None and \
            (event is None or (len(slots["dates"]) == 1 and named != "start_of_construction")):
        # "shut down for the winter, we want to start back up Tuesday": the one date is the reopening's
        data["milestones"] = [{"name": named, "date": d0.isoformat(),
                               **({"start_time": slots["time"]} if slots.get("time") else {})}]
    elif event == "construction_start":
        data["construction_start"] = d0.isoformat()
        data["milestones"] = [{"name": "Start of construction", "date": d0.isoformat(),
                               **({"start_time": slots["time"]} if slots.get("time") else {})}]
    else:
        return None, None
    said = re.search(_AS_OF, question, re.I) if len(slots.get("dates") or ()) > 1 and _IN_TIME_ASKED.search(question) else None
    asked_day = [d for pos, d in dates_at(question, today) if said.start() <= pos <= said.end() + 25] if said else []
    if asked_day:
        data["as_of"] = asked_day[0].isoformat()  # "Today's April 14. Am I still inside the appeal window?"
    return data, None


_SERVED = r"\b(?:served|service|handed|delivered|received|got)\b"
# The day a question asks about, told as today's ("Today's April 14", "it's now March 3", "as of June 2")
_AS_OF = r"\btoday\b|\bnow\b|\bas of\b|\bit'?s (?:already )?(?=(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"
# Whether the day asked about is still in time ("am I still inside the appeal window?", "is it too late?")
_IN_TIME_ASKED = re.compile(r"\bstill\b[^.?!]*\?|\btoo late\b|\bin time\b|\b(?:miss(?:ed)?|past|passed) (?:the |my |our )?(?:\w+ )?(?:deadline|window)\b", re.I)
# A milestone's notice told as given ("I emailed the enforcement official at 3 pm Wednesday")
_NOTICE_VERB = r"\b(?:notif\w*|told|called|phoned|e-?mail\w*|texted|informed|sent|gave (?:\w+ ){0,2}(?:notice|heads[- ]up)|let (?:\w+ ){1,3}know)\b"


def _notice_told(question: str, municipality: str, event: str | None, today: date) -> dict | None:
    """The milestone asked about, with when its notice was given, when the question tells both ("We told the
    official on Friday, April 9 at 4 pm that we start construction Monday, April 12 at 7 am"); None otherwise."""
    key = "start_of_construction" if event == "construction_start" else _milestone_named(question, municipality)
    if key is None and re.search(r"\b(?:started|began|begun|broke ground)\b", question, re.I):
        key = "start_of_construction"  # "we started construction Monday at 7 am and told the official Tuesday"
    told = dates_told_with(question, _NOTICE_VERB, today)
    if key is None or not told:
        return None
    timed = dated_times(question, today)
    notice = next(((d, t) for d, t in timed if d == told[0]), None)
    other = next(((d, t) for d, t in timed if d != told[0]), None)
    if notice is None or other is None or notice[1] is None:
        return None  # no clock time for the notice: hours cannot be counted
    return {"name": milestones(municipality)[key].quote.rstrip(".;"), "date": other[0].isoformat(), "notified": f"{notice[0].isoformat()}T{notice[1][0]:02d}:{notice[1][1]:02d}",
            **({"start_time": f"{other[1][0]:02d}:{other[1][1]:02d}"} if other[1] else {})}


# "latest we can notify?", "when's the notice due?", "the cutoff for their notice?": a day is asked for ("how much heads-up?" asks the rule).
ASKS_A_DAY = re.compile(r"\b(?:when|when'?s|latest|last (?:day|moment|minute|time)|deadline|cut-?off|by what|what day|what date|due)\b", re.I)
# Words every listed milestone shares, or that a question about a construction site leaves unsaid: the rest
# name one ("we wrap up rough grading June 8" -> completion of rough grading; "we reopen for the season" ->
# reopening of the construction season).
_MILESTONE_SHARED = frozenset(("complet", "start", "of", "construct", "site"))
# "clearing should wrap up Thursday": one word of a completion milestone's own ("clearing") names it when the
# question says the work finishes
_FINISHING = re.compile(r"\b(?:fini?sh\w*|wrap(?:s|ping)? (?:it |things )?up|done|complet\w*|be over)\b", re.I)


@lru_cache(maxsize=4096)  # (every milestone's other names are tried on each dated question)
def _said(phrase: str) -> re.Pattern:
    return re.compile(r"(?<![\w-])" + r"[\s-]+".join(map(re.escape, phrase.split())) + r"(?![\w-])", re.I)


def _milestone_named(question: str, municipality: str) -> str | None:
    """The key of the listed milestone whose own words (two or more) the question uses, the one with most words
    when several match, or one of whose other names (`said` in the rules) it uses; None when none does. The start
    of construction is the construction_start event's."""
    from codeassist.text import content_stems

    asked = set(content_stems(question))
    finishing = bool(_FINISHING.search(question))
    best: tuple[int, str] | None = None
    for key, ref in milestones(municipality).items():
        words = set(content_stems(ref.quote)) - _MILESTONE_SHARED
        named = len(words) >= 2 or (len(words) == 1 and ref.quote.startswith("Completion of") and finishing)
        if named and words <= asked and (best is None or len(words) > best[0]):  # not "construction" alone
            best = (len(words), key)
    if best is None:
        # of several named ("shut down for the winter and we want to start back up Tuesday, March 16"), the one
        # the date follows closest
        dated = [m.start() for m in _DATE_WORD.finditer(question)]
        found = [(min((d - m.end() for d in dated if d >= m.end()), default=len(question)), i, key)
                 for i, (key, ref) in enumerate(milestones(municipality).items())
                 for m in filter(None, (_said(p).search(question) for p in ref.said))]
        best = (0, min(found)[2]) if found else None
    return best[1] if best else None


_DATE_WORD = re.compile(r"\b(?:\d{1,4}|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|jul\w*|aug\w*|sep\w*|oct\w*|nov\w*|dec\w*|"
                        r"mon\w*|tue\w*|wed\w*|thu\w*|fri\w*|sat\w*|sun\w*|today|tomorrow)\b", re.I)


def _day(d: date) -> str:
    """"Wednesday, March 18, 2026" (every number in it is in the calculation's ISO date)."""
    return f"{d.strftime('%A, %B')} {d.day}, {d.year}"


_EARLIEST_ASKED = re.compile(r"\b(?:earliest|soonest|how soon)\b", re.I)


def headline(out: DeadlinesOutput, names: dict[str, str], data: dict | None = None, question: str = "") -> str:
    where = names.get(out.municipality, "")
    obs = out.obligations
    if not obs:
        why = next((st.text for st in out.steps if st.text), "")
        if out.storm_inches is not None and _REPORT_ASKED.search(question) and "no extra report" in why:
            return f"No: {why[:1].lower()}{why[1:].rstrip('.')} ({where})."
        return f"No dated obligation follows from what you told me ({where})." + (f" {why}" if why else "")
    first = obs[0]
    when = _day(first.due) + (f" at {first.due_time.strftime('%H:%M')}" if first.due_time else "")
    told = next((m for m in (data or {}).get("milestones") or () if m.get("notified")), None)
    told_day = next((m for m in (data or {}).get("milestones") or () if m.get("notified_on")), None)
    if told_day is not None and first.kind == "milestone_notice":
        # "... if I call the village the morning before, is that enough notice?": whatever the hour that day
        day = date.fromisoformat(str(told_day["notified_on"]))
        begins = datetime.combine(date.fromisoformat(str(told_day["date"])), time.fromisoformat(str(told_day.get("start_time") or "00:00")))
        needed = round((begins - datetime.combine(first.due, first.due_time or time(0))).total_seconds() / 3600)
        most, least = _day_gap(day, begins)
        at = f"{begins:%H:%M} on {_day(begins.date())}"
        if most < needed:
            return (f"No: notice given any time on {_day(day)} comes at most {_hours(most)} hours before {at}, less than "
                    f"the {needed} hours required. The latest notice was {when} ({where}).")
        if least >= needed:
            return f"Yes: notice given any time on {_day(day)} comes at least {_hours(least)} hours before {at}; the rule asks at least {needed} hours ({where})."
        return f"Only if given by {when}: the rule asks at least {needed} hours before {at} ({where})."
    if told is not None and first.kind == "milestone_notice":
        # "I emailed at 3 pm Wednesday; we close at noon Friday. Enough notice?": the hours between say whether
        notified = datetime.fromisoformat(str(told["notified"]))
        begins = datetime.combine(date.fromisoformat(str(told["date"])), time.fromisoformat(str(told.get("start_time") or "00:00")))
        hours = round((begins - notified).total_seconds() / 3600, 1)
        needed = round((begins - datetime.combine(first.due, first.due_time or time(0))).total_seconds() / 3600)
        gave = (f"notice at {notified:%H:%M} on {_day(notified.date())} came {_hours(abs(hours))} hours "
                f"{'before' if hours >= 0 else 'after'} {begins:%H:%M} on {_day(begins.date())}")
        if hours >= needed:
            return f"Yes: {gave}; the rule asks at least {needed} hours ({where})."
        short = f"less than the {needed} hours required" if hours >= 0 else f"not the {needed} hours before it that the rule requires"
        earliest = ""
        if _EARLIEST_ASKED.search(question) and hours >= 0:
            # "... what's the earliest we can finish?": with the notice as given, the milestone waits out the hours
            soonest = notified + timedelta(hours=needed)
            earliest = f" With the notice as given, the earliest it can be is {soonest:%H:%M} on {_day(soonest.date())}."
        return f"No: {gave}, {short}. The latest notice was {when} ({where}).{earliest}"
    as_of = (data or {}).get("as_of")
    if as_of and first.kind in ("appeal_deadline", "disqualification_appeal_deadline", "registration_expires"):
        # "served April 1. Today's April 14. Am I still inside the appeal window?": the day asked about against the last day
        day = date.fromisoformat(str(as_of))
        inside = day <= first.due
        late_asked = bool(_LATE_ASKED.search(question))
        verdict = ("No" if inside else "Yes") if late_asked else ("Yes" if inside else "No")
        return (f"{verdict}: {_day(day)} is {'on or before' if inside else 'after'} the last day. {first.title}: {when} ({where})."
                + (f" {len(obs) - 1} more dated obligations below." if len(obs) > 1 else ""))
    storm = next((o for o in obs if o.kind == "storm_inspection_report"), None)
    if out.storm_inches is not None and storm is not None and _ONLY_AFTER.search(question):
        # "is it true a report is only required after an inch of rain?": the law's amount says whether
        said = (data or {}).get("storm_events") or [{}]
        verdict = "Yes" if said[0].get("inches") == out.storm_inches else "No"
        return f"{verdict}: {storm.rule[:1].lower()}{storm.rule[1:].rstrip('.')} ({where}). {first.title}: {when}."
    if storm is not None and _REPORT_ASKED.search(question):
        # "we got almost an inch last night, does that mean an extra inspection report?": the storm calls for one
        return f"Yes: {storm.rule[:1].lower()}{storm.rule[1:].rstrip('.')} ({where}). {first.title}: {when}."
    under = [ev for ev in (data or {}).get("storm_events") or ()
             if ev.get("date") and float(ev.get("inches", 0)) < out.storm_inches] if out.storm_inches is not None else []
    if storm is None and under and _REPORT_ASKED.search(question):
        # "four tenths of an inch Saturday. Do we owe a storm report?": not for that storm; the next one due follows
        ev = under[0]
        return (f"No: the storm of {_day(date.fromisoformat(str(ev['date'])))} ({float(ev['inches']):g} in) is under "
                f"{out.storm_inches:g} inch, so it calls for no extra report ({where}). {first.title}: {when}.")
    claimed = _CLAIMED_TERM.search(question)
    issued = (data or {}).get("registration_issued")
    if first.kind == "registration_expires" and claimed and issued:
        # "registered in November 2025. Good for 12 months, right?": the day it expires says whether
        months = 12 if not claimed["n"] else int(claimed["n"]) * (12 if claimed["unit"].startswith("y") else 1)
        start = date.fromisoformat(str(issued))
        total = start.month - 1 + months
        end = start.replace(year=start.year + total // 12, month=total % 12 + 1, day=1) + timedelta(days=start.day - 1)
        verdict = "Yes" if abs((end - first.due).days) <= 3 else "No"  # "issued January 2: good for a year?"
        return f"{verdict}: {first.rule[:1].lower()}{first.rule[1:]} {first.title}: {when} ({where})."
    if _MISSED.search(question) and _WHAT_NOW.search(question):
        # "I never renewed the license that ran out Dec 31. What happens now?": what the rule says follows, first
        return f"{first.rule} {first.title}: {when} ({where})."
    if 1 < len(obs) <= NAMED_IN_HEADLINE:  # "when are the storm report and the next weekly report due?": each day
        rest = "; ".join(f"{o.title[:1].lower()}{o.title[1:]}: {_day(o.due)}" + (f" at {o.due_time.strftime('%H:%M')}" if o.due_time else "")
                         for o in obs[1:])
        return f"{first.title}: {when}; {rest} ({where})."
    return f"{first.title}: {when} ({where})." + (f" {len(obs) - 1} more dated obligations below." if len(obs) > 1 else "")


# "is it too late to appeal?", "did I miss the deadline?": asked whether the time has run out (Yes means it has)
_LATE_ASKED = re.compile(r"\btoo late\b|\b(?:miss(?:ed)?|blow(?:n)?|blew|past|passed) (?:the |my |our )?(?:\w+ )?(?:deadline|window|date)\b|"
                         r"\b(?:deadline|window|time) (?:has )?(?:passed|closed|run out|expired)\b", re.I)


# A term claimed for a registration, asked to be confirmed ("good for 12 months, right?", "valid for a year?").
_CLAIMED_TERM = re.compile(r"\b(?:good|valid|lasts?|last(?:ing)?|runs?)\s+(?:for\s+)?(?:a\s+(?:full\s+)?year|one\s+year|twelve\s+months|"
                           r"(?P<n>\d{1,2})\s+(?P<unit>months?|years?))\b[^?]*\?", re.I)


# The deadline told of was missed ("I never renewed", "we forgot to file", "the license ran out") and what follows
# is asked ("what happens now?", "am I in trouble?").
_MISSED = re.compile(r"\b(?:never|didn'?t|did not|forgot(?: to)?|missed|failed to|haven'?t|have not|hasn'?t|has not|neglected to)"
                     r"\b[^.?!]{0,30}\b(?:renew\w*|fil(?:e|ed|ing)|report\w*|notif\w*|submit\w*|appeal\w*)|"
                     r"\b(?:ran|run|runs) out\b|\blapsed\b|\bexpired\b", re.I)
_WHAT_NOW = re.compile(r"\bwhat (?:happens|now|next|then|do (?:i|we) do)\b|\bwhat are the consequences\b|\b(?:in trouble|too late)\b|"
                       r"\bam i (?:still )?(?:ok|okay|covered|licensed|registered)\b|\bis (?:it|my \w+) (?:still )?(?:good|valid)\b", re.I)


# A yes/no question whether the storm told of calls for a report or an inspection ("does that mean an extra
# inspection report?", "do we have to inspect again?").
_REPORT_ASKED = re.compile(r"(?:^|[.!;,]\s*)(?:do|does|did|is|are|will|would|must|should|need)\b[^?.!]*\b(?:reports?|inspect\w*)\b[^?.!]*\?", re.I)
# A yes/no question whether a report is needed only from some amount of rain on ("is it true it's only after an inch?").
_ONLY_AFTER = re.compile(r"\b(?:only|just)\b[^.?!]*\b(?:after|above|over|from|if|when|for)\b[^.?!]*\?", re.I)


def silent(out: DeadlinesOutput) -> bool:
    """No dated obligation follows for this municipality."""
    return not out.obligations


def undecided(out: DeadlinesOutput, slots: dict | None = None) -> bool:
    return not out.obligations and any("not in this corpus" in c for c in out.caveats)
