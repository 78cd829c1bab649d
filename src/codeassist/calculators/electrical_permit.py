"""Is an electrical permit needed, who may apply, what follows (the municipality's electrical code).

A generic engine over `rules/electrical_permit.toml` (``ElectricalPermitRules``); in this corpus only the
Village of Tuckahoe's Chapter 7 sets such rules. Free-text work descriptions are not guessed at: only
the minor repairs the code names (given as a key or as printed) count as that exemption. Anything else
is treated as needing a permit, with a caveat, because the Building Inspector, not this tool, decides
what else is "minor repair work".
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from codeassist.calculators import _refs
from codeassist.calculators._inputs import MunicipalityId
from codeassist.calculators._refs import Ref, cited, citation, rules_for, short_name, step
from codeassist.corpus.rules import ElectricalPermitRules
from codeassist.models import Step


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def permit_municipalities() -> list[str]:
    """Municipalities whose text in the corpus sets electrical permit rules."""
    c = _refs.corpus()
    return sorted(m for m, r in c.rules.items() if r.electrical_permit is not None) if c is not None else []


def minor_repairs(municipality: str | None = None) -> dict[str, Ref]:
    """The minor repairs the electrical code names, key -> the words as printed."""
    munis = [municipality] if municipality else permit_municipalities()
    out: dict[str, Ref] = {}
    for m in munis:
        rules = rules_for(m, "electrical_permit")
        if rules is not None:
            out.update(rules.minor_repairs)
    return out


def work_key(work: str, municipality: str | None = None) -> str | None:
    """The listed minor repair a work string names (by key or as printed), or None."""
    norm = _norm(work)
    for key, ref in minor_repairs(municipality).items():
        if norm == key or norm == _norm(ref.quote):
            return key
    return None


def _default_municipality(value: object) -> object:
    # With no municipality given, the one whose electrical code the corpus holds (if just one does).
    if value is None:
        held = permit_municipalities()
        return held[0] if len(held) == 1 else value
    return value


class ElectricalPermitInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: MunicipalityId = Field(
        default=None, validate_default=True,  # type: ignore[assignment]
        description="Defaults to the one municipality whose electrical code is in the corpus.",
    )
    work: str = Field(description="A description of the work, or a minor repair the electrical code lists.")
    performed_by: Literal["registered_contractor", "utility", "in_house_journeyman", "homeowner", "other"]

    @field_validator("municipality", mode="before")
    @classmethod
    def _municipality(cls, v: object) -> object:
        return _default_municipality(v)

    @field_validator("work")
    @classmethod
    def _work(cls, v: str, info: ValidationInfo) -> str:
        v = v.strip()
        if not v:
            repairs = minor_repairs(info.data.get("municipality"))
            raise ValueError(f"describe the work, or name a listed minor repair: {', '.join(repairs)}")
        if len(v) > 2000:
            raise ValueError("the work description is too long (over 2,000 characters)")
        return v


class PermitExemption(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: str
    provision_id: str
    citation: str


class ElectricalPermitOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: str
    status: Literal["computed", "not_in_corpus"]
    permit_required: bool | None
    exemption: PermitExemption | None = None
    who_may_apply: str | None = None
    applicant_must_be_registered: bool | None = None
    inspection_steps: list[Step] = Field(default_factory=list, description="Inspection and certificate steps after the work.")
    steps: list[Step] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)


def _exemption(key: str, ref: Ref) -> PermitExemption:
    return PermitExemption(key=key, provision_id=ref.pid, citation=citation(ref.pid))


def run(inp: ElectricalPermitInput) -> ElectricalPermitOutput:
    rules: ElectricalPermitRules | None = rules_for(inp.municipality, "electrical_permit")
    if rules is None:
        name = short_name(inp.municipality)
        held = [short_name(m) for m in permit_municipalities()]
        c = _refs.corpus_for(inp.municipality)
        codes = [f"{c.municipalities[o.municipality].short_name} {o.division}" for o in c.ordinances.values()
                 if o.topic == "electrical" and o.municipality != inp.municipality] if c is not None else []
        only = f" (only {', '.join(codes)} is)" if codes else ""
        theirs = f" {' and '.join(held)}'s rules are not {name}'s." if held else ""
        return ElectricalPermitOutput(
            municipality=inp.municipality,
            status="not_in_corpus",
            permit_required=None,
            steps=[step(f"The corpus holds no electrical code for {name}.")],
            caveats=[f"No electrical code for {name} is in this corpus{only}; ask its building department.{theirs}"],
        )
    steps: list[Step] = [cited(rules.permit)]
    caveats: list[str] = []
    exemption: PermitExemption | None = None
    repair = work_key(inp.work, inp.municipality)
    if repair:
        listed = rules.minor_repairs[repair]
        exemption = _exemption(f"minor_repair:{repair}", listed)
        steps.append(cited(rules.minor_repair))
        steps.append(step(rules.minor_repair_listed.format(repair=listed.quote), listed))
    elif inp.performed_by == "utility":
        exemption = _exemption("public_utility", rules.utility)
        steps.append(cited(rules.utility))
        caveats.append(rules.utility_caveat)
    elif inp.performed_by == "in_house_journeyman":
        exemption = _exemption("in_house_journeyman", rules.in_house_journeyman)
        steps.append(cited(rules.in_house_journeyman))
    else:
        listed_words = ", ".join(r.quote for r in rules.minor_repairs.values())
        caveats.append(rules.not_matched.format(work=inp.work, listed=listed_words))
    steps.append(cited(rules.nec))

    if exemption is not None:
        return ElectricalPermitOutput(municipality=inp.municipality, status="computed", permit_required=False, exemption=exemption, steps=steps, caveats=caveats)

    steps.append(cited(rules.apply))
    steps += [cited(s) for s in rules.registered_only]
    if inp.performed_by in ("homeowner", "other"):
        caveats.append(rules.unregistered_caveat)
    return ElectricalPermitOutput(
        municipality=inp.municipality,
        status="computed",
        permit_required=True,
        who_may_apply=rules.who_may_apply,
        applicant_must_be_registered=True,
        inspection_steps=[cited(s) for s in rules.inspection],
        steps=steps,
        caveats=caveats,
    )


# --- Question and answer edges -----------------------------------------------------------------------


def read_slots(slots: dict, question: str, municipality: str, prior: dict | None = None,
               today: object = None) -> tuple[dict | None, str | None]:
    """Input from the plan's slots: the work (a listed minor repair when it names one) and who does it."""
    data: dict = dict(prior or {})
    data.pop("municipality", None)
    data["work"] = slots.get("minor_repair") or question
    data["performed_by"] = slots.get("performed_by") or data.get("performed_by", "other")
    return data, None


def law_name(municipality: str) -> str:
    """'Village of Tuckahoe Electrical Code': the municipality's name and its electrical ordinance's title."""
    c = _refs.corpus_for(municipality)
    title = next((o.title for o in c.ordinances.values() if o.municipality == municipality and o.topic == "electrical"),
                 "electrical code") if c is not None else "electrical code"
    return f"{_refs.municipality_name(municipality)} {title}"


# "can I pull the permit myself?", "homeowner do it myself?": the asker asks whether they may take out the permit.
_ASKER_APPLIES = re.compile(r"\b(?:myself|ourselves|on (?:my|our) own|homeowners?|diy)\b|"
                            r"(?P<pulls>\b(?:can|may|could) (?:i|we)\b[^?.]{0,25}\b(?:pull|take out|get|obtain|apply for|file for)\b)", re.I)
_SOMEONE_ELSE_WORKS = re.compile(r"\b(?:my|our|the|an?) (?:electrician|electrical contractor|contractor)s?\b", re.I)
_ASKER_REGISTERED = re.compile(r"\b(?:i'?m|i am|we'?re|we are) (?:an? )?(?:registered|licensed|electricians?|"
                               r"electrical contractors?)\b", re.I)


_PERMIT_ASKED = re.compile(r"\b(?:need|needs|require[sd]?|needed|required)\b[^.?!]{0,30}\bpermits?\b|"
                           r"\bpermits?\b[^.?!]{0,15}\b(?:needed|required|necessary)\b|\bpermits?\s*(?:,|\?|and\b)", re.I)
_WITHOUT_PERMIT = re.compile(r"\b(?:without (?:a |an |any |the )?(?:electrical )?permit|skip(?:ping)? (?:the |a )?permit|"
                             r"no permit needed|get away without)\b", re.I)


def headline(out: ElectricalPermitOutput, names: dict[str, str], data: dict | None = None, question: str = "") -> str:
    if out.status == "not_in_corpus":
        return f"The {names.get(out.municipality, out.municipality)}'s electrical code is not in this corpus."
    # "can my handyman install a ceiling fan without a permit?" asks the inverse, in the sentence asked (not in the
    # situation told before it)
    inverse = bool(_WITHOUT_PERMIT.search(re.split(r"[.!]\s+", question.strip())[-1]))
    if out.permit_required:
        needed = "No: a permit" if inverse else "Yes, a permit"
        needed += " from the Building Inspector is required"
    else:
        needed = "Yes: no permit is required for this work" if inverse else "No permit is required for this work"
    needed += f" ({law_name(out.municipality)})."
    rules = rules_for(out.municipality, "electrical_permit")
    # "Tuckahoe homeowner here: ... Do I need a permit, and can I pull it myself?": asked in a question, not told
    # in the statement before it
    told = max((m.end() for m in re.finditer(r"[.!:]\s+(?=[^.!:]*\?)", question)), default=0)
    asked = _ASKER_APPLIES.search(question, told) or _ASKER_APPLIES.search(question)
    # "can I as the homeowner pull the permit and have my electrician do the work?": someone else does the work,
    # but the asker, who has not said they are registered, asks whether they may take out the permit.
    unregistered = (data or {}).get("performed_by", "other") in ("homeowner", "other") or \
        bool(asked and asked.group("pulls") and _SOMEONE_ELSE_WORKS.search(question) and not _ASKER_REGISTERED.search(question))
    if not (out.applicant_must_be_registered and unregistered and rules is not None and asked):
        return needed
    # Asked whether they may take it out themselves: that answer too, first when asked first.
    before = question[:asked.start()]
    # "do I need a permit, and can I pull it myself?" asks about the permit first ("I want to pull my own permit.
    # Can I get one myself?" does not)
    if "?" in before or _PERMIT_ASKED.search(before):
        return f"{needed} On doing it yourself: no. {rules.unregistered_caveat}"
    return f"No. {rules.unregistered_caveat} {needed}"


def undecided(out: ElectricalPermitOutput, slots: dict | None = None) -> bool:
    return out.status == "not_in_corpus"
