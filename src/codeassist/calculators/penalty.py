"""Which penalty applies: the repeat-offense tier, the fine range, and how continuing violations count.

The stormwater laws (Hempstead Enforcement and penalties, item D; Tuckahoe § 7B-8(d)) set three tiers.
A second offense is tier 2 only when "both of which were committed within a period of five years",
and a third or later offense is tier 3 only when "all of which were committed within a period of five
years". Read as written: the tier counts the prior offenses that, together with this offense, all fall
within one five-year period. This offense is the latest, so that period ends on the offense date and
begins on the same calendar day five years earlier (a prior offense on that day counts; one a day
earlier does not).

The Tuckahoe Electrical Code (§ 7-14) makes a violation a misdemeanor with the penalty "as prescribed
in § 1-7", which is not in this corpus: the fine and imprisonment are then unknown (None).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from codeassist.calculators._inputs import CalDate, MunicipalityId, not_bool
from codeassist.calculators._refs import Ref, citation, step
from codeassist.models import Step

WINDOW_YEARS = 5
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
        description="For each earlier conviction, the date its offense was committed (the five-year rule counts commission dates).",
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
    window_start: date | None = Field(default=None, description="First day of the five-year period counted.")
    fine_min: int | None = None
    fine_max: int | None = None
    max_imprisonment_months: int | None = None
    separate_violations: SeparateViolations | None = None
    misdemeanor_for_jurisdiction: bool | None = Field(
        default=None,
        description="True where the law deems its violations misdemeanors only to confer jurisdiction on courts.",
    )
    registration_may_be_revoked: bool = False
    steps: list[Step] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class Tier:
    tier: int
    fine_min: int | None
    fine_max: int
    ref: Ref


@dataclass(frozen=True)
class StormwaterPenalty:
    tiers: tuple[Tier, Tier, Tier]
    imprisonment_months: int
    imprisonment: Ref
    jurisdiction: Ref
    weekly: Ref
    cumulative: Ref


def _stormwater(pid: str, of_law: str, fine_of: str) -> StormwaterPenalty:
    return StormwaterPenalty(
        tiers=(
            Tier(1, None, 350, Ref(pid, "punishable by a fine not exceeding $350 or imprisonment for a period not to exceed six months, or both, for conviction of a first offense")),
            Tier(2, 350, 700, Ref(pid, f"for conviction of a second offense, both of which were committed within a period of five years, punishable by a fine {fine_of}not less than $350 nor more than $700")),
            Tier(3, 700, 1000, Ref(pid, f"upon conviction for a third or subsequent offense, all of which were committed within a period of five years, punishable by a fine {fine_of}not less than $700 nor more than $1,000")),
        ),
        imprisonment_months=6,
        imprisonment=Ref(pid, "imprisonment for a period not to exceed six months"),
        jurisdiction=Ref(pid, f"violations of {of_law} shall be deemed misdemeanors and for such purpose only all provisions of law relating to misdemeanors shall apply to such violations"),
        weekly=Ref(pid, "Each week's continued violation shall constitute a separate additional violation."),
        cumulative=Ref(pid, "In addition to or as an alternative to any penalty provided herein or by law"),
    )


STORMWATER: dict[str, StormwaterPenalty] = {
    "hempstead": _stormwater("hempstead:enforcement(D)", "this article", ""),
    "tuckahoe": _stormwater("tuckahoe:7B-8(d)", "this chapter and Appendix A, Zoning, Article XII, Stormwater Control,", "of "),
}


@dataclass(frozen=True)
class ElectricalPenalty:
    misdemeanor: Ref
    disorderly: Ref
    revocation: Ref
    daily: Ref


ELECTRICAL: dict[str, ElectricalPenalty] = {
    "tuckahoe": ElectricalPenalty(
        misdemeanor=Ref("tuckahoe:7-14", "shall be guilty of a misdemeanor and, upon conviction thereof, be subject to a penalty as prescribed in § 1-7 for each offense"),
        disorderly=Ref("tuckahoe:7-14", "such violation shall constitute disorderly conduct and any person committing such violation shall be a disorderly person"),
        revocation=Ref("tuckahoe:7-14", "such registration may be revoked by the Village Board"),
        daily=Ref("tuckahoe:7-14", "Each and every day that such violation continues shall constitute a separate offense."),
    )
}


def add_years(d: date, years: int) -> date:
    """Same calendar day `years` later/earlier; Feb 29 becomes Feb 28 (NY General Construction Law § 20)."""
    try:
        return d.replace(year=d.year + years)
    except ValueError:
        return d.replace(year=d.year + years, day=28)


def window_start(offense_date: date) -> date:
    return add_years(offense_date, -WINDOW_YEARS)


def run(inp: PenaltyInput) -> PenaltyOutput:
    if inp.chapter == "electrical":
        return _electrical(inp)
    return _stormwater_penalty(inp)


def _stormwater_penalty(inp: PenaltyInput) -> PenaltyOutput:
    law = STORMWATER[inp.municipality]
    start = window_start(inp.offense_date)
    counted = sorted(d for d in inp.prior_conviction_dates if d >= start)
    ignored = sorted(d for d in inp.prior_conviction_dates if d < start)
    tier = law.tiers[min(len(counted), 2)]
    steps: list[Step] = []
    if ignored:
        steps.append(step(f"Prior offense(s) {', '.join(d.isoformat() for d in ignored)} fall before {start.isoformat()}, outside the five-year period, and do not count."))
    if counted:
        steps.append(step(f"Prior offense(s) {', '.join(d.isoformat() for d in counted)} fall within the five years {start.isoformat()} to {inp.offense_date.isoformat()} together with this offense."))
    else:
        steps.append(step("No prior offense within the five-year period: this is treated as a first offense."))
    rng = f"${tier.fine_min:,} to ${tier.fine_max:,}" if tier.fine_min else f"up to ${tier.fine_max:,}"
    steps.append(step(f"Tier {tier.tier}: fine {rng}, or imprisonment of up to six months, or both.", tier.ref))
    steps.append(step("The same imprisonment limit applies at every tier.", law.imprisonment))
    steps.append(step("These are violations, deemed misdemeanors only to give courts jurisdiction.", law.jurisdiction))
    count = 1 + inp.continuing_days // 7
    steps.append(step(f"{inp.continuing_days} day(s) of continuation = {inp.continuing_days // 7} full week(s): {count} violation(s) in all.", law.weekly))
    steps.append(step("The penalty is in addition to, or an alternative to, any other penalty provided by law.", law.cumulative))
    return PenaltyOutput(
        municipality=inp.municipality,
        chapter=inp.chapter,
        status="computed",
        offense_class="violation",
        tier=tier.tier,  # type: ignore[arg-type]
        prior_offenses_counted=len(counted),
        window_start=start,
        fine_min=tier.fine_min,
        fine_max=tier.fine_max,
        max_imprisonment_months=law.imprisonment_months,
        separate_violations=SeparateViolations(
            count=count,
            unit="week",
            rule="Each week's continued violation is a separate additional violation: 1 + one per full week (7 days) the violation continued.",
            provision_id=law.weekly.pid,
            citation=citation(law.weekly.pid),
            quote=law.weekly.quote,
        ),
        misdemeanor_for_jurisdiction=True,
        steps=steps,
        caveats=[
            "Reading of the five-year rule: prior_conviction_dates are taken as the dates the earlier convicted "
            "offenses were committed. The tier counts the prior offenses that, together with this one, were all "
            f"committed within a period of five years; since this offense is the latest, that is the priors on or "
            f"after {start.isoformat()}. A prior offense exactly five years earlier counts; five years and a day "
            "earlier does not. If you entered conviction dates rather than offense dates, the result may differ.",
            "The fine range is for one conviction; each week's continued violation is a separate additional "
            "violation, so the total exposure can be larger. The court sets the actual penalty within the range.",
        ],
    )


def _electrical(inp: PenaltyInput) -> PenaltyOutput:
    law = ELECTRICAL.get(inp.municipality)
    if law is None:
        return PenaltyOutput(
            municipality=inp.municipality,
            chapter=inp.chapter,
            status="not_in_corpus",
            steps=[step(f"The corpus holds no electrical code for {inp.municipality.title()}: the penalty cannot be computed.")],
            caveats=[
                f"No electrical code for {inp.municipality.title()} is in this corpus (only Tuckahoe Chapter 7 is); "
                "ask the municipality's building department. Tuckahoe's rules are not Hempstead's."
            ],
        )
    count = 1 + inp.continuing_days
    steps = [
        step("A violation of the Electrical Code is a misdemeanor, with the penalty set by § 1-7 for each offense.", law.misdemeanor),
        step("The violation is also disorderly conduct.", law.disorderly),
        step("A registered electrical contractor's registration may be revoked by the Village Board.", law.revocation),
        step(f"Each day the violation continues is a separate offense: {count} offense(s).", law.daily),
    ]
    if inp.prior_conviction_dates:
        steps.append(step("Chapter 7 sets no repeat-offense tiers; prior convictions do not change the result computed here."))
    return PenaltyOutput(
        municipality=inp.municipality,
        chapter=inp.chapter,
        status="computed",
        offense_class="misdemeanor",
        tier=None,
        separate_violations=SeparateViolations(
            count=count,
            unit="day",
            rule="Each day the violation continues is a separate offense: 1 + one per day it continued.",
            provision_id=law.daily.pid,
            citation=citation(law.daily.pid),
            quote=law.daily.quote,
        ),
        misdemeanor_for_jurisdiction=False,
        registration_may_be_revoked=True,
        steps=steps,
        caveats=[
            "The fine and any imprisonment are \"as prescribed in § 1-7\" of the Village Code, the general "
            "penalty, which is not in this corpus: fine_min, fine_max and max_imprisonment_months are unknown.",
            "This is a misdemeanor outright (misdemeanor_for_jurisdiction is false because that flag marks "
            "violations deemed misdemeanors only for jurisdiction, as in the stormwater laws).",
            "Registration may be revoked only if the person is a registered electrical contractor, and the Village Board decides.",
        ],
    )
