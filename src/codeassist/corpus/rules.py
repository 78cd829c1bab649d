"""Calculator rules as data: `corpus/<id>/rules/<calculator>.toml`, validated at load.

Every municipality-specific value a calculator uses (area thresholds, exemption lists, penalty tiers,
milestones, who reviews, the words of each step) lives in these files, beside the text it quotes. Each
cited entry is a provision id plus words quoted verbatim from that provision (checked against the parsed
text when the corpus loads). A file that is absent means the municipality's text in the corpus does not
set those rules: the calculator then answers "not in this municipality's text".

Step texts are plain sentences; some are templates filled with `str.format` (the fields each accepts are
named in the field's description), so a municipality's wording survives exactly.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..errors import CorpusError

RULES_DIR = "rules"


class _Rule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Ref(_Rule):
    """A rule's home: a provision id and words quoted verbatim from that provision (or its children)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    pid: str = Field(alias="provision", description="Provision id, '<municipality>:<section>(<label>)...' (docs/IDS.md).")
    quote: str = Field(min_length=1, description="Words of that provision, verbatim (whitespace may differ).")


class CitedStep(Ref):
    """A cited step: what the calculator says, and the provision words it rests on."""

    step: str = Field(description="The step in plain words.")


# --- applicability -----------------------------------------------------------------------------------

class Threshold(_Rule):
    acres: float = Field(gt=0, description="Land disturbance at or above this is a land development activity.")
    words: str = Field(description="The threshold in words, e.g. 'one acre'.")
    area: Ref
    common_plan: Ref = Field(description="Smaller disturbance within a larger common plan also counts.")


class ThresholdUnknown(_Rule):
    caveat: str = Field(description="Where the threshold lives and that it is not in the corpus.")
    missing: str | None = Field(default=None, description="Why it cannot be settled, for the answer's first sentence "
                                "(\"the Village's area threshold is in ..., which is not in this corpus\").")
    assumption: str = Field(description="Labelled assumption; template with {verdict} ('would'/'would not').")
    model_acres: float = Field(default=1.0, gt=0, description="The NYS model law threshold the assumption uses.")


class AcreLimit(CitedStep):
    below_acres: float = Field(gt=0, description="The exemption covers fewer acres than this.")
    # step: template with {acres}


class ExemptionNote(_Rule):
    step: CitedStep | None = None
    caveat: str | None = None


class Exemptions(_Rule):
    may_be_exempt: Ref = Field(description="The lead-in that makes the list discretionary.")
    items: dict[str, Ref] = Field(description="Activity or flag key -> the listed exemption.")
    limits: dict[str, AcreLimit] = Field(default_factory=dict)
    subject_to_law: dict[str, CitedStep] = Field(default_factory=dict, description="Activities the list keeps under the law.")
    notes: dict[str, ExemptionNote] = Field(default_factory=dict, description="Extra step or caveat when a key matches.")
    before_law_caveat: str | None = Field(default=None, description="When an exemption turns on the law's effective date.")


class Review(_Rule):
    board: str = Field(description="Who reviews a project under site plan, subdivision or special permit review.")
    smo: str = Field(description="Who reviews (and receives the SWPPP) otherwise.")
    board_ref: CitedStep
    smo_ref: CitedStep
    site_plan_caveat: str | None = None
    submit_to: str | None = Field(default=None, description="Office that must receive the SWPPP, when the text names one.")
    submit: CitedStep | None = None


class Condition(Ref):
    key: Literal["A", "B", "C"]
    impaired_water: bool = Field(default=False, description="Met when runoff discharges to an impaired water.")
    min_acres: float | None = None
    below_acres: float | None = None
    excludes: list[Literal["single_family_residence", "agricultural_property"]] = Field(default_factory=list)
    step: str = Field(description="Template with {acres}.")
    excluded_step: str | None = Field(default=None, description="Template with {what}.")


class AtAcres(_Rule):
    acres: float
    caveat: str


class PostConstruction(_Rule):
    conditions: list[Condition]
    controls: CitedStep
    caveats_at: list[AtAcres] = Field(default_factory=list)


class Preparers(CitedStep):
    names: list[str]


class AtOnce(CitedStep):
    acres: float = Field(gt=0)


class OtherSites(CitedStep):
    caveat: str


class ApplicabilityRules(_Rule):
    applies: CitedStep
    land_development: Threshold | None = None
    threshold_unknown: ThresholdUnknown | None = None
    other_sites: OtherSites | None = None
    exemptions: Exemptions
    review: Review
    post_construction: PostConstruction | None = None
    preparers: Preparers | None = None
    at_once: AtOnce | None = None
    not_in_text: str | None = Field(default=None, description="Caveat when post-construction rules are not in the text.")

    @model_validator(mode="after")
    def _one_threshold(self) -> "ApplicabilityRules":
        if (self.land_development is None) == (self.threshold_unknown is None):
            raise ValueError("give exactly one of [land_development] (the threshold) or [threshold_unknown]")
        return self


# --- penalty -----------------------------------------------------------------------------------------

class Tier(Ref):
    tier: Literal[1, 2, 3]
    fine_min: int | None = Field(default=None, ge=0)
    fine_max: int = Field(ge=0)


class Continuing(CitedStep):
    unit: Literal["week", "day"]
    rule: str
    # step: template with {days}, {weeks}, {count}


class PenaltyLaw(_Rule):
    offense_class: Literal["violation", "misdemeanor"]
    window_years: int = Field(default=5, gt=0)
    window_words: str = Field(default="five", description="The window in words ('five').")
    tiers: list[Tier] = Field(default_factory=list, description="Empty when the fine is set in text not in the corpus.")
    tier_step: str | None = Field(default=None, description="Template with {tier}, {range}.")
    imprisonment_months: int | None = None
    before: list[CitedStep] = Field(default_factory=list, description="Cited steps after the tier, before counting.")
    continuing: Continuing
    after: list[CitedStep] = Field(default_factory=list)
    no_tiers_step: str | None = Field(default=None, description="Said when priors are given but the law has no tiers.")
    misdemeanor_for_jurisdiction: bool
    registration_may_be_revoked: bool = False
    caveats: list[str] = Field(default_factory=list, description="Templates with {window_start}.")

    @model_validator(mode="after")
    def _tiers(self) -> "PenaltyLaw":
        if self.tiers and [t.tier for t in self.tiers] != [1, 2, 3]:
            raise ValueError("tiers must be given in order 1, 2, 3")
        if self.tiers and not self.tier_step:
            raise ValueError("tier_step is required when tiers are given")
        return self


class PenaltyRules(_Rule):
    stormwater: PenaltyLaw | None = None
    electrical: PenaltyLaw | None = None


# --- deadlines ---------------------------------------------------------------------------------------

class Reports(Ref):
    every_days: int = Field(default=7, gt=0)
    every_words: str = "seven days"
    storm_inches: float = Field(default=0.5, gt=0)


class Milestone(Ref):
    key: str
    said: list[str] = Field(default_factory=list, description="Other ways people name the milestone (\"end of season\", "
                            "\"shut down for the winter\"): whole phrases, matched case-insensitively, spaces or hyphens between words.")


class DeadlinesRules(_Rule):
    reports: Reports | None = None
    reports_missing: str | None = Field(default=None, description="Caveat when the text sets no report schedule.")
    notice_rule: Ref
    notice_hours: int = Field(default=48, gt=0)
    milestones: list[Milestone]
    milestones_caveat: str | None = None
    appeal: Ref
    appeal_days: int = Field(default=15, gt=0)
    guarantee: Ref
    guarantee_years: int = Field(default=1, gt=0)
    concealment: Ref | None = None
    concealment_hours: int = Field(default=24, gt=0)
    expiry: Ref | None = None
    renewal: Ref | None = None
    void: Ref | None = None
    void_days: int = Field(default=30, gt=0)
    disqualification_appeal: Ref | None = None
    disqualification_appeal_days: int = Field(default=30, gt=0)


# --- electrical permit -------------------------------------------------------------------------------

class ElectricalPermitRules(_Rule):
    minor_repairs: dict[str, Ref]
    permit: CitedStep
    minor_repair: CitedStep
    minor_repair_listed: str = Field(description="Template with {repair}.")
    not_matched: str = Field(description="Caveat template with {work}, {listed}.")
    utility: CitedStep
    utility_caveat: str
    in_house_journeyman: CitedStep
    nec: CitedStep
    apply: CitedStep
    registered_only: list[CitedStep]
    unregistered_caveat: str
    who_may_apply: str
    inspection: list[CitedStep]


# --- SWPPP checklist ---------------------------------------------------------------------------------

class ChecklistRules(_Rule):
    missing: str | None = Field(default=None, description="Set when the contents are in text not in the corpus.")
    base_lead: CitedStep | None = None
    base: list[Ref] = Field(default_factory=list)
    post_construction_lead: CitedStep | None = None
    post_construction: list[Ref] = Field(default_factory=list)
    certification: list[Ref] = Field(default_factory=list)

    @model_validator(mode="after")
    def _lists(self) -> "ChecklistRules":
        if self.missing is None and not (self.base and self.base_lead):
            raise ValueError("give the base list and base_lead, or `missing` saying where the contents live")
        return self


MODELS: dict[str, type[_Rule]] = {
    "applicability": ApplicabilityRules,
    "penalty": PenaltyRules,
    "deadlines": DeadlinesRules,
    "electrical_permit": ElectricalPermitRules,
    "swppp_checklist": ChecklistRules,
}


class MunicipalRules(_Rule):
    """One municipality's calculator rules; a calculator whose file is absent has None."""

    applicability: ApplicabilityRules | None = None
    penalty: PenaltyRules | None = None
    deadlines: DeadlinesRules | None = None
    electrical_permit: ElectricalPermitRules | None = None
    swppp_checklist: ChecklistRules | None = None
    files: dict[str, str] = Field(default_factory=dict, description="Calculator -> the file it was read from.")


def _where(loc: tuple) -> str:
    return ".".join(str(p) for p in loc) or "(top level)"


def read_rules_file(path: Path) -> _Rule:
    """One rules file, validated; CorpusError names the file and the key."""
    model = MODELS.get(path.stem)
    if model is None:
        raise CorpusError(f"{path}: unknown rules file; known: {', '.join(f'{n}.toml' for n in MODELS)}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CorpusError(f"{path}: cannot read: {exc}") from exc
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{_where(tuple(e['loc']))}: {e['msg']}" for e in exc.errors())
        raise CorpusError(f"{path}: {problems}") from exc


def read_rules(folder: Path) -> MunicipalRules:
    """Every rules file of a municipality folder (none is fine: every calculator then says 'not in text')."""
    found: dict[str, object] = {}
    files: dict[str, str] = {}
    rules_dir = folder / RULES_DIR
    if rules_dir.is_dir():
        for path in sorted(rules_dir.glob("*.toml")):
            found[path.stem] = read_rules_file(path)
            files[path.stem] = str(path)
    return MunicipalRules(**found, files=files)  # type: ignore[arg-type]


def iter_refs(obj: object, where: str = ""):
    """Every Ref inside a rules model, with a dotted key path naming where it sits."""
    if isinstance(obj, Ref):
        yield where, obj
    if isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            if name == "files":
                continue
            yield from iter_refs(getattr(obj, name), f"{where}.{name}" if where else name)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from iter_refs(v, f"{where}.{k}")
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            yield from iter_refs(v, f"{where}.{i}")


def rule_problems(corpus, municipality: str, rules: MunicipalRules) -> list[tuple[str, str, str]]:
    """(file, key, message) for each entry whose provision is unknown, belongs to another municipality,
    or whose quote is not verbatim in it."""
    out = []
    for calc in MODELS:
        model = getattr(rules, calc)
        if model is None:
            continue
        path = rules.files.get(calc, f"{RULES_DIR}/{calc}.toml")
        for key, ref in iter_refs(model):
            if not ref.pid.startswith(municipality + ":"):
                out.append((path, key, f"provision {ref.pid} is not one of {municipality}'s"))
            elif corpus.get(ref.pid) is None:
                out.append((path, key, f"provision {ref.pid} is not in the parsed text"))
            elif not corpus.quote_in(ref.pid, ref.quote):
                out.append((path, key, f"quote is not verbatim in {ref.pid}: {ref.quote[:80]!r}"))
    return out
