"""Which penalty applies: the repeat-offense tier, the fine range, and how continuing violations count.

A generic engine over the municipality's `rules/penalty.toml` (``PenaltyRules``, one law per topic).
The NYS model stormwater law (Hempstead Enforcement and penalties, item D; Tuckahoe § 7B-8(d)) sets three tiers.
A second offense is tier 2 only when "both of which were committed within a period of five years",
and a third or later offense is tier 3 only when "all of which were committed within a period of five
years". Read as written: the tier counts the prior offenses that, together with this offense, all fall
within one five-year period. This offense is the latest, so that period ends on the offense date and
begins on the same calendar day five years earlier (a prior offense on that day counts; one a day
earlier does not).

A law without tiers in its rules (the Tuckahoe Electrical Code, § 7-14: a misdemeanor with the penalty
"as prescribed in § 1-7", which is not in this corpus) leaves the fine and imprisonment unknown (None).
"""

from __future__ import annotations

import re

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from codeassist.calculators._inputs import CalDate, MunicipalityId, not_bool
from codeassist.calculators import _refs
from codeassist.calculators._refs import cited, citation, rules_for, step
from codeassist.corpus.rules import PenaltyLaw
from codeassist.models import Step
from codeassist.slots import COUNTING

WINDOW_YEARS = 5  # the NYS model law's window; each municipality's rules give their own
MAX_CONTINUING_DAYS = 36_600  # a century; more is a typo


def _days(v: int) -> int:
    if v < 0:
        raise ValueError(f"continuing_days cannot be negative (got {v}); use 0 if the violation did not continue")
    if v > MAX_CONTINUING_DAYS:
        raise ValueError(f"continuing_days {v} is more than a century; check the figure")
    return v


class PenaltyInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: MunicipalityId
    chapter: Literal["stormwater", "electrical"] = Field(description="Which law was violated.")
    offense_date: CalDate = Field(description="Date this offense was committed (YYYY-MM-DD).")
    prior_conviction_dates: list[CalDate] = Field(
        default_factory=list,
        description="For each earlier conviction, the date its offense was committed (the repeat-offense window counts commission dates).",
    )
    continuing_days: Annotated[int, BeforeValidator(not_bool), AfterValidator(_days)] = Field(
        default=0, description="Days the violation continued after the offense date (0 = it did not continue)."
    )

    @model_validator(mode="after")
    def _priors_before(self) -> "PenaltyInput":
        late = [d.isoformat() for d in self.prior_conviction_dates if d > self.offense_date]
        if late:
            raise ValueError(
                f"prior_conviction_dates must be on or before offense_date {self.offense_date.isoformat()}; "
                f"these are after it: {', '.join(late)}"
            )
        return self


class SeparateViolations(BaseModel):
    model_config = ConfigDict(extra="forbid")

    count: int = Field(description="How many separate violations/offenses the continuing conduct makes.")
    unit: Literal["week", "day"]
    rule: str
    provision_id: str
    citation: str
    quote: str


class PenaltyOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: str
    chapter: str
    status: Literal["computed", "not_in_corpus"]
    offense_class: Literal["violation", "misdemeanor"] | None = None
    tier: Literal[1, 2, 3] | None = None
    prior_offenses_counted: int = 0
    window_start: date | None = Field(default=None, description="First day of the repeat-offense window counted (five years in the NYS model law).")
    fine_min: int | None = None
    fine_max: int | None = None
    fine_ceiling: int | None = Field(default=None, description="The highest fine of any tier (a third or later offense's).")
    max_imprisonment_months: int | None = None
    separate_violations: SeparateViolations | None = None
    misdemeanor_for_jurisdiction: bool | None = Field(
        default=None,
        description="True where the law deems its violations misdemeanors only to confer jurisdiction on courts.",
    )
    registration_may_be_revoked: bool = False
    steps: list[Step] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)


def add_years(d: date, years: int) -> date:
    """Same calendar day `years` later/earlier; Feb 29 becomes Feb 28 (NY General Construction Law § 20)."""
    try:
        return d.replace(year=d.year + years)
    except ValueError:
        return d.replace(year=d.year + years, day=28)


def window_start(offense_date: date, years: int = WINDOW_YEARS) -> date:
    return add_years(offense_date, -years)


def run(inp: PenaltyInput) -> PenaltyOutput:
    rules = rules_for(inp.municipality, "penalty")
    law: PenaltyLaw | None = getattr(rules, inp.chapter) if rules is not None else None
    if law is None:
        return _not_in_text(inp)
    if law.tiers:
        return _tiered(inp, law)
    return _untiered(inp, law)


def _not_in_text(inp: PenaltyInput) -> PenaltyOutput:
    """No such law of this municipality in the corpus: say whose is, and do not borrow it."""
    c = _refs.corpus_for(inp.municipality)
    name = _refs.short_name(inp.municipality)
    others = []
    if c is not None:
        for o in c.ordinances.values():
            if o.topic == inp.chapter and o.municipality != inp.municipality:
                others.append((c.municipalities[o.municipality].short_name, o.division))
    what = f"{inp.chapter} code" if inp.chapter == "electrical" else f"{inp.chapter} law"
    only = f" (only {', '.join(f'{m} {d}' for m, d in others)} {'is' if len(others) == 1 else 'are'})" if others else ""
    theirs = f" {' and '.join(dict.fromkeys(m for m, _ in others))}'s rules are not {name}'s." if others else ""
    return PenaltyOutput(
        municipality=inp.municipality,
        chapter=inp.chapter,
        status="not_in_corpus",
        steps=[step(f"The corpus holds no {what} for {name}: the penalty cannot be computed.")],
        caveats=[f"No {what} for {name} is in this corpus{only}; ask the municipality's building department.{theirs}"],
    )


def _separate(law: PenaltyLaw, count: int) -> SeparateViolations:
    c = law.continuing
    return SeparateViolations(count=count, unit=c.unit, rule=c.rule, provision_id=c.pid, citation=citation(c.pid), quote=c.quote)


def _continuing(law: PenaltyLaw, days: int) -> tuple[int, Step]:
    per = 7 if law.continuing.unit == "week" else 1
    count = 1 + days // per
    return count, cited(law.continuing, days=days, weeks=days // 7, count=count)


def _tiered(inp: PenaltyInput, law: PenaltyLaw) -> PenaltyOutput:
    start = window_start(inp.offense_date, law.window_years)
    counted = sorted(d for d in inp.prior_conviction_dates if d >= start)
    ignored = sorted(d for d in inp.prior_conviction_dates if d < start)
    tier = law.tiers[min(len(counted), len(law.tiers) - 1)]
    years = law.window_words
    steps: list[Step] = []
    if ignored:
        steps.append(step(f"Prior offense(s) {', '.join(d.isoformat() for d in ignored)} fall before {start.isoformat()}, outside the {years}-year period, and do not count."))
    if counted:
        steps.append(step(f"Prior offense(s) {', '.join(d.isoformat() for d in counted)} fall within the {years} years {start.isoformat()} to {inp.offense_date.isoformat()} together with this offense."))
    else:
        steps.append(step(f"No prior offense within the {years}-year period: this is treated as a first offense."))
    rng = f"${tier.fine_min:,} to ${tier.fine_max:,}" if tier.fine_min else f"up to ${tier.fine_max:,}"
    steps.append(step((law.tier_step or "").format(tier=tier.tier, range=rng), tier))
    steps += [cited(s) for s in law.before]
    count, cont = _continuing(law, inp.continuing_days)
    steps.append(cont)
    steps += [cited(s) for s in law.after]
    return PenaltyOutput(
        municipality=inp.municipality,
        chapter=inp.chapter,
        status="computed",
        offense_class=law.offense_class,
        tier=tier.tier,
        prior_offenses_counted=len(counted),
        window_start=start,
        fine_min=tier.fine_min,
        fine_max=tier.fine_max,
        fine_ceiling=max(t.fine_max for t in law.tiers),
        max_imprisonment_months=law.imprisonment_months,
        separate_violations=_separate(law, count),
        misdemeanor_for_jurisdiction=law.misdemeanor_for_jurisdiction,
        registration_may_be_revoked=law.registration_may_be_revoked,
        steps=steps,
        caveats=[c.format(window_start=start.isoformat()) for c in law.caveats],
    )


def _untiered(inp: PenaltyInput, law: PenaltyLaw) -> PenaltyOutput:
    """A law whose fine is not in the corpus: the offense class and the counting still follow."""
    steps = [cited(s) for s in law.before]
    count, cont = _continuing(law, inp.continuing_days)
    steps.append(cont)
    steps += [cited(s) for s in law.after]
    if inp.prior_conviction_dates and law.no_tiers_step:
        steps.append(step(law.no_tiers_step))
    return PenaltyOutput(
        municipality=inp.municipality,
        chapter=inp.chapter,
        status="computed",
        offense_class=law.offense_class,
        tier=None,
        max_imprisonment_months=law.imprisonment_months,
        separate_violations=_separate(law, count),
        misdemeanor_for_jurisdiction=law.misdemeanor_for_jurisdiction,
        registration_may_be_revoked=law.registration_may_be_revoked,
        steps=steps,
        caveats=list(law.caveats),
    )


# --- Question and answer edges -----------------------------------------------------------------------

MAX_OFFENSES = 10  # the third tier covers "third or subsequent"; more priors change nothing


def read_slots(slots: dict, question: str, municipality: str, prior: dict | None = None,
               today: date | None = None) -> tuple[dict | None, str | None]:
    """Input from the plan's slots: which law, how many offenses over how many years, how long it continued."""
    from datetime import datetime, timedelta

    data: dict[str, Any] = {**(prior or {}), "municipality": municipality}
    today = today or date.today()
    data["chapter"] = "electrical" if slots.get("electrical") else data.get("chapter", "stormwater")
    data.setdefault("offense_date", today.isoformat())
    n = slots.get("offense_number")
    if n:
        n = min(n, MAX_OFFENSES)
    dated = sorted(set(slots.get("dates") or ()) - _conviction_dates(question, today))
    if not n and len(dated) >= 2 and _ANOTHER.search(question):
        n = min(len(dated), MAX_OFFENSES)  # "violations committed in March 2022 and November 2024, and now another in February 2027"
    if n and n > 1 and len(dated) == n and "offense_date" not in (prior or {}):
        # "offenses June 2020, May 2023 and now April 2025 ... the third one?": one date per offense, this one last
        data["offense_date"], data["prior_conviction_dates"] = dated[-1], dated[:-1]
    elif n and n > 1:
        gap = slots.get("years_window") or _years_between(question, today) or 1.0
        step_days = int(round(gap * 365.25 / max(1, n - 1)))
        start = datetime.fromisoformat(str(data["offense_date"])).date()
        data["prior_conviction_dates"] = [(start - timedelta(days=step_days * i)).isoformat() for i in range(n - 1, 0, -1)]
    if slots.get("duration_days"):
        # "it has gone on for 10 days" is how long the violation lasted: its first day is the violation, the
        # other nine continue it; "continued for 10 more days" counts the continuation itself.
        days = slots["duration_days"]
        data["continuing_days"] = days if _CONTINUATION.search(question) else max(0, days - 1)
    return data, None


def _years_between(question: str, today: date) -> float | None:
    """"convicted in 2016 and again in 2024" -> 8.0; "in 2022 and again this year" -> the years since 2022."""
    years = {int(y) for y in re.findall(r"\b(19[5-9]\d|20\d{2})\b", question)}
    if re.search(r"\b(?:this year|now)\b", question, re.I):
        years.add(today.year)
    return float(max(years) - min(years)) if len(years) >= 2 else None


# "... and now another violation", "cited again": the dates named are one offense each, the last this one.
_ANOTHER = re.compile(r"\b(?:another|again|a new|one more)\b[^.?!]{0,30}\b(?:violation|offen[cs]e|conviction|citation|ticket)s?\b|"
                      r"\b(?:violat\w*|offen[cs]es?|convict\w*|cited)\b[^.?!]{0,60}\bagain\b|"
                      # "convicted for an offense committed in March 2025 and is now convicted for one from September 2026"
                      r"\bnow (?:being |been |getting |got )?(?:convicted|cited|charged)\b|"
                      # "convicted in June 2023, January 2025 and now September 2027 ... the latest one?"
                      r"\band now (?:in |on )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\d)|"
                      # "offenses in June 2023 and May 2025, and now another one in April 2028"
                      r"\b(?:another|one more|a new) one (?:in |on |from )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\d)|"
                      r"\bthe (?:latest|most recent|newest|last) (?:one|offen[cs]e|violation|conviction|citation|ticket)\b", re.I)
# "committed a violation in April 2021 but wasn't convicted till February 2023": the law counts offenses "committed
# within a period of five years", so a conviction's own date, told beside the date the offense was committed, is not
# an offense's date.
_CONVICTED_ON = re.compile(r"\b(?:convicted|conviction|sentenced|found guilty)\b(?:\s+(?:till|until|in|on|only|was|came|"
                           r"finally|later|not|before|after|of it|for it))*\s*$", re.I)


def _conviction_dates(question: str, today: date) -> set[str]:
    """The dates told as when an offense was convicted, when the question also tells when one was committed."""
    if not re.search(r"\bcommit\w*\b", question, re.I):
        return set()
    from codeassist.slots import dates_at
    return {d.isoformat() for pos, d in dates_at(question, today) if _CONVICTED_ON.search(question[max(0, pos - 40):pos])}


_CONTINUATION = re.compile(r"\b(?:continu\w*|more|additional|further|after)\b", re.I)


def _money(x: int | None) -> str:
    return "not set in this text" if x is None else f"${x:,}"


def headline(out: PenaltyOutput, names: dict[str, str], data: dict | None = None, question: str = "") -> str:
    where = names.get(out.municipality, "")
    if out.status != "computed":
        return f"The fine for this {out.chapter} violation in the {where} is set in text that is not in this corpus."
    sv = out.separate_violations
    if out.fine_max is None:
        kind = out.offense_class or "an offense"
        cont = (f" Continuing conduct counts as {sv.count} separate offenses, one per {sv.unit} (the first and "
                f"{sv.count - 1} additional).") if sv and sv.count > 1 else ""
        if cont and COUNTING.search(question):
            return (f"{_unit_verdict(question, sv)}{cont.strip()} Each is {'a ' if kind == 'misdemeanor' else ''}{kind} ({where}); the fine and any "
                    f"jail term are set by a section that is not in this corpus.")
        return (f"It is {'a ' if kind == 'misdemeanor' else ''}{kind} ({where}), but the fine and any jail term are "
                f"set by a section that is not in this corpus.{cont}")
    fine = f"a fine of up to {_money(out.fine_max)}" if out.fine_min in (None, 0) else \
        f"a fine of {_money(out.fine_min)} to {_money(out.fine_max)}"
    jail = f", or imprisonment of up to {out.max_imprisonment_months} months, or both" if out.max_imprisonment_months else ""
    cont = (f" Continuing conduct counts as {sv.count} separate {sv.unit}-based violations (the first and "
            f"{sv.count - 1} additional).") if sv and sv.count > 1 else ""
    if cont and COUNTING.search(question):  # "how many violations is that?": the count first
        return f"{_unit_verdict(question, sv)}{cont.strip()} Each is punishable as Tier {out.tier} ({where}): {fine}{jail}."
    stated = bool(out.prior_offenses_counted or (data or {}).get("prior_conviction_dates"))
    # "can the court fine $1,200 on the third conviction?" asks of the amount, not whether the third tier applies
    named_amount = bool(_AMOUNT.search(question)) and bool(_AMOUNT_ASKED.search(question))
    verdict = _amount_verdict(question, out, stated) or _which_verdict(question, out.tier) or \
        ("" if named_amount else _repeat_verdict(question, out.tier)) or \
        ("Yes. " if jail and _JAIL_ASKED.search(question) else "")
    return f"{verdict}Tier {out.tier} ({where}): {fine}{jail}.{cont}"


# "...the first one was seven years ago. Does the higher second-offense range apply?": a yes/no question
# whether a repeat-offense tier applies, which the computed tier settles.
_REPEAT_ASKED = re.compile(r"(?:^|[.?!:;,-]\s+)(?:does|do|is|are|will|would|am|can|could|should)\b[^.?!]*?"
                           r"\b(?:(third|3rd)|second|2nd|repeat|subsequent|higher|bigger|enhanced|prior)\b[^.?!]*\?", re.I)


# "does each week count as a new violation?", "is every day a separate offense?": whether the law counts in that unit.
_UNIT_ASKED = re.compile(r"(?:^|[.?!:;,-]\s+)(?:does|do|is|are|will|would|can|could)\b[^.?!]*?\b(?:each|every|per)\s+"
                         r"(?:additional\s+|extra\s+|further\s+)?(day|week)s?\b[^.?!]*\?", re.I)


# "can the judge give both the fine and jail time?", "could I go to jail for this?": whether imprisonment may be imposed.
_JAIL_ASKED = re.compile(r"(?:^|[.?!:;,-]\s+)(?:can|could|may|might|will|would|is|are|do|does)\b[^.?!]*?"
                         r"\b(?:jail|prison|imprison\w*|locked up|behind bars|incarcerat\w*)\b[^.?!]*\?", re.I)


def _unit_verdict(question: str, sv: SeparateViolations) -> str:
    """'Yes. ' or 'No. ' when the question asks whether each day or week counts separately; else ''."""
    m = _UNIT_ASKED.search(question)
    return "" if m is None else "Yes. " if m.group(1).lower() == sv.unit else "No. "


# "is it true the first-offense fine is $35,000?", "can they fine you $10,000 a day?": one amount, asked yes or no.
_AMOUNT = re.compile(r"\$\s?(\d[\d,]*(?:\.\d+)?)\s*(k\b|thousand\b)?", re.I)
# The second figure of a range written with one dollar sign ("the $350-700 bracket", "$350 to 700").
_RANGE_END = re.compile(r"\$\s?\d[\d,]*\s*(?:-|\u2013|to)\s*(\d[\d,]*)(?![\d,.]*\s*(?:k\b|thousand\b|%|percent|days?|weeks?|years?|months?))", re.I)
# ("says penalties 'up to $10,000 per day.' Is that what the article allows?", "the fine was set at $1,000. Allowed?")
_AMOUNT_ASKED = re.compile(r"(?:^|[.?!:;,-][\'\"\u2019\u201d)]?\s+)(?:is|are|can|could|does|do|will|would|may|might)\b[^.?!]*\?|"
                           r"\b(?:true|right|correct|accurate|really)\b|"
                           r"\b(?:allowed|legal|permitted|lawful|valid|ok|okay)\s*\?", re.I)


def _amount_verdict(question: str, out: PenaltyOutput, stated: bool) -> str:
    """'Yes. ' or 'No. ' when a yes/no question names a dollar amount for the fine, or a range ("does the
    $350-$700 tier apply?"): 'No. ' above any tier's fine; else within (the same range as) the computed tier's
    or not, when the question says which offense it is (`stated`: prior offenses, or "first"); else '' (a
    second offense may be fined what a first may not). A question asking whether one amount is over the limit
    ("fined exactly $350 ... is that over the limit?") takes the opposite answer."""
    verdict = _amount_allowed(question, out, stated)
    if verdict and _OVER_ASKED.search(question) and len(_AMOUNT.findall(question)) == 1 and not _RANGE_END.search(question):
        return "No. " if verdict == "Yes. " else "Yes. "
    return verdict


# "is that over the limit?", "does $900 exceed the max?", "is that too much?": whether the amount is beyond the law's
_OVER_ASKED = re.compile(r"\b(?:over|above|exceed\w*|beyond|more than|higher than|past) (?:the |their |its )?"
                         r"(?:legal )?(?:limit|max\w*|cap|ceiling|allowed|law allows|law permits)\b|"
                         r"\btoo (?:high|much|steep)\b|\bexcessive\b", re.I)


def _amount_allowed(question: str, out: PenaltyOutput, stated: bool) -> str:
    """_amount_verdict's answer to whether the amount is one the law allows."""
    amounts = [float(f.replace(",", "")) * (1000 if k else 1) for f, k in _AMOUNT.findall(question)]
    amounts += [float(m[1].replace(",", "")) for m in _RANGE_END.finditer(question)]  # "$350-700": 700 is dollars too
    if not 1 <= len(amounts) <= 2 or out.fine_max is None or not _AMOUNT_ASKED.search(question):
        return ""
    if out.fine_ceiling is not None and max(amounts) > out.fine_ceiling:
        return "No. "
    if not (stated or re.search(r"\bfirst\b", question, re.I)):
        return ""
    low, high = out.fine_min or 0, out.fine_max
    if len(amounts) == 2:
        return "Yes. " if sorted(amounts) == [low, high] else "No. "
    bound = _BOUND_SAID.search(question)
    if bound is not None:  # "a third offense with the $700 minimum?": the amount said is the tier's floor (or cap)
        said = bound.group("floor") or bound.group("floor_after")
        return "Yes. " if amounts[0] == (low if said else high) else "No. "
    return "Yes. " if low <= amounts[0] <= high else "No. "


# An amount named as a fine's floor ("the $700 minimum", "a minimum fine of $700") or its cap ("a $700 maximum"); "can
# the fine go up to $200?" or "at least $300?" asks whether the range reaches it, and is read as before.
_BOUND_SAID = re.compile(r"\$\s?\d[\d,]*(?:\.\d+)?\s*(?:(?P<floor>minimum|min\b|floor)|maximum|max\b|cap\b)|"
                         r"\b(?:(?P<floor_after>minimum (?:fine )?(?:is |of )?)|maximum (?:fine )?(?:is |of )?)\$", re.I)


# "Second offense or first?", "is this a first or a second offense?": which offense, not yes or no.
_WHICH_ASKED = re.compile(r"\b(first|second|third|1st|2nd|3rd)(?: (?:offen[cs]e|violation|conviction|one))?,? or (?:an? |the )?"
                          r"(first|second|third|1st|2nd|3rd|subsequent)\b", re.I)
_OFFENSE_NAMES = {1: "A first offense", 2: "A second offense", 3: "A third or subsequent offense"}


def _which_verdict(question: str, tier: int | None) -> str:
    """'A first offense. ' (second, third or subsequent) when the question asks which of two offenses it is; else ''."""
    if tier is None or tier not in _OFFENSE_NAMES or not _WHICH_ASKED.search(question):
        return ""
    return f"{_OFFENSE_NAMES[tier]}. "


def _repeat_verdict(question: str, tier: int | None) -> str:
    """'Yes. ' or 'No. ' when the question asks whether a repeat-offense tier applies; else ''."""
    m = _REPEAT_ASKED.search(question)
    if m is None or tier is None:
        return ""
    return "Yes. " if tier >= (3 if m.group(1) else 2) else "No. "


def undecided(out: PenaltyOutput, slots: dict | None = None) -> bool:
    """The fine is set in text not in the corpus, and the question is not only about counting violations."""
    if out.status == "not_in_corpus":
        return True
    return out.fine_max is None and not (slots or {}).get("counting")
