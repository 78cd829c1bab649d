"""Does the stormwater law apply, which exemption may apply, which post-construction conditions apply.

A generic engine over the municipality's `rules/applicability.toml` (``ApplicabilityRules``); each
entry carries the provision it rests on. The exemption lists say activities "may be exempt", so an
exemption never yields "no": it yields "likely_exempt", and the Stormwater Management Officer decides.
Where the municipality's text lacks a rule (its threshold, its post-construction conditions), the
result says so instead of borrowing another municipality's.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from codeassist.calculators._inputs import Acres, MunicipalityId, SquareFeet, to_acres
from codeassist.calculators._refs import cited, citation, municipality_name, rules_for, step
from codeassist.corpus.rules import ApplicabilityRules
from codeassist.models import Step
from codeassist.slots import metric_unit

Activity = Literal[
    "construction",
    "agriculture",
    "agricultural_structures",
    "silviculture",
    "silviculture_landing_or_haul_road",
    "routine_maintenance",
    "capacity_change",
    "smp_repair",
    "cemetery_graves",
    "cemetery_other_work",
    "fence_sign_pole",
    "pole_building",
    "emergency",
    "home_gardening",
    "landscaping_existing_structure",
]

LIKELY_EXEMPT_CAVEAT = (
    "The law says these activities \"may be exempt\" from review: the result is likely exempt, not exempt; "
    "the Stormwater Management Officer decides."
)


class ApplicabilityInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: MunicipalityId = Field(description="A municipality id of the corpus.")
    disturbed_acres: Acres | None = Field(default=None, description="Total land disturbed over the project, in acres.")
    disturbed_sq_ft: SquareFeet | None = Field(
        default=None, description="The same in square feet (43,560 sq ft per acre); give this or disturbed_acres."
    )
    disturbed_under: bool = Field(default=False, description="The area given is a bound the work stays under (\"well "
                                  "under an acre\": less than 1 acre is disturbed), not the area itself.")
    part_of_common_plan: bool = Field(default=False, description="Part of a larger common plan of development or sale.")
    activity: Activity = Field(default="construction", description="What the disturbance is for.")
    single_family_residence: bool = Field(default=False, description="Construction of a single-family residence.")
    agricultural_property: bool = Field(default=False, description="Construction activity at an agricultural property.")
    discharges_to_impaired_water: bool = Field(
        default=False, description="Runoff discharges a pollutant of concern to a 303(d)-listed water or a TMDL watershed."
    )
    subdivision_plat_approved_before_law: bool = Field(
        default=False, description="Part of a subdivision whose plat was approved on or before the law's effective date."
    )
    building_permit_approved_before_law: bool = Field(
        default=False, description="A building permit was approved on or before the law's effective date."
    )
    site_plan_review: bool = Field(
        default=False, description="The project is under subdivision, site plan or special permit review."
    )

    @model_validator(mode="after")
    def _one_area(self) -> "ApplicabilityInput":
        to_acres(self.disturbed_acres, self.disturbed_sq_ft)
        return self

    @property
    def acres(self) -> float:
        return to_acres(self.disturbed_acres, self.disturbed_sq_ft)


class ExemptionRef(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(description="Exemption key, e.g. 'cemetery_graves'.")
    citation: str
    provision_id: str


class ApplicabilityOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: str
    disturbed_acres: float = Field(description="The disturbed area used, in acres.")
    disturbed_under: bool = Field(default=False, description="Less than disturbed_acres is disturbed (a bound was given).")
    land_development_activity: Literal["yes", "no", "unknown"]
    swppp_required: Literal["yes", "no", "likely_exempt", "unknown"]
    exemptions: list[ExemptionRef] = Field(default_factory=list)
    not_exempt: str | None = Field(default=None, description="Why the activity named is not within its exemption "
                                   "(routine maintenance of five acres or more; log haul roads), when the law says.")
    post_construction_controls: bool | None = Field(
        description="Water quantity/quality (post-construction) controls required; None where the corpus cannot say."
    )
    conditions: list[Literal["A", "B", "C"]] = Field(default_factory=list)
    reviewed_by: str | None = None
    swppp_submitted_to: str | None = None
    plan_preparers: list[str] = Field(default_factory=list, description="Who may prepare and sign the SWPPP.")
    max_disturbed_at_once_acres: float | None = None
    at_once_rule: str | None = Field(default=None, description="How much may be disturbed at one time, in the rules' words.")
    unsettled_because: str | None = Field(default=None, description="Why the corpus cannot settle whether the law "
                                          "reaches the project, when it cannot (the threshold's text is not in it).")
    officer_may_still_require: str | None = Field(
        default=None, description="Below the law's reach, the officer's discretion to bring the site in anyway, in the rules' words.")
    steps: list[Step] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)


# --- Calculation -------------------------------------------------------------------------------------

BEFORE_LAW = ("subdivision_plat_approved_before_law", "building_permit_approved_before_law")


def acres_words(acres: float, under: bool = False) -> str:
    """"1 acre", "2.5 acres", "less than 1 acre" (a bound the work stays under)."""
    return f"{'less than ' if under else ''}{acres:g} acre{'' if acres == 1 else 's'}"


def _reaches(inp: ApplicabilityInput, acres: float, line: float) -> bool | None:
    """Whether the land disturbed is `line` acres or more; None when a bound given does not settle it ("under 3
    acres" against a one-acre line)."""
    if not inp.disturbed_under:
        return acres >= line
    return False if acres <= line else None


def _lda(rules: ApplicabilityRules, inp: ApplicabilityInput, acres: float, steps: list[Step], caveats: list[str]) -> Literal["yes", "no", "unknown"]:
    t = rules.land_development
    if t is None:
        unknown = rules.threshold_unknown
        assert unknown is not None  # the rules model requires one of the two
        caveats.append(unknown.caveat)
        model_lda = bool(_reaches(inp, acres, unknown.model_acres)) or (inp.part_of_common_plan and acres > 0)
        assumption = unknown.assumption.format(verdict="would" if model_lda else "would not")
        steps.append(step(assumption))
        caveats.append(assumption)
        return "unknown"
    reaches = _reaches(inp, acres, t.acres)
    amount = acres_words(acres, inp.disturbed_under)
    if reaches:
        steps.append(step(f"{amount} is {t.words} or more of land disturbance: a land development activity.", t.area))
        return "yes"
    if inp.part_of_common_plan and acres > 0:
        steps.append(step(f"{amount} is under {t.words} but part of a larger common plan: a land development activity.", t.common_plan))
        return "yes"
    if reaches is None:
        steps.append(step(f"{amount} may or may not be {t.words} or more of land disturbance: the figure given does not "
                          "settle whether the project is a land development activity.", t.area))
        return "unknown"
    steps.append(step(f"{amount} is under {t.words} and not part of a larger common plan: not a land development activity.", t.area))
    return "no"


def _exemptions(rules: ApplicabilityRules, inp: ApplicabilityInput, acres: float, steps: list[Step],
                caveats: list[str]) -> tuple[list[ExemptionRef], str | None]:
    """The exemptions the activity may have, and why the activity named has none (None when it has or is unnamed)."""
    ex = rules.exemptions
    table = ex.items
    keys: list[str] = []
    not_exempt = None
    if inp.activity in table:
        limit = ex.limits.get(inp.activity)
        if limit is not None and _reaches(inp, acres, limit.below_acres):
            steps.append(cited(limit, acres=acres))
            not_exempt = steps[-1].text
        else:
            keys.append(inp.activity)
    elif inp.activity in ex.subject_to_law:
        steps.append(cited(ex.subject_to_law[inp.activity]))
        not_exempt = steps[-1].text
    for flag in BEFORE_LAW:
        if getattr(inp, flag) and flag in table:
            keys.append(flag)
    found = []
    for key in keys:
        ref = table[key]
        steps.append(step(f"The activity may be exempt ({key.replace('_', ' ')}).", ref))
        found.append(ExemptionRef(key=key, citation=citation(ref.pid), provision_id=ref.pid))
    if found:
        steps.append(step("Exemptions are discretionary: the listed activities \"may be exempt\".", ex.may_be_exempt))
        caveats.append(LIKELY_EXEMPT_CAVEAT)
    for key in keys:
        note = ex.notes.get(key)
        if note is not None and note.step is not None:
            steps.append(cited(note.step))
        if note is not None and note.caveat:
            caveats.append(note.caveat)
    if ex.before_law_caveat and any(k in keys for k in BEFORE_LAW):
        caveats.append(ex.before_law_caveat)
    return found, not_exempt


def _conditions(rules: ApplicabilityRules, inp: ApplicabilityInput, acres: float, steps: list[Step], caveats: list[str]) -> list[str]:
    post = rules.post_construction
    assert post is not None
    conditions: list[str] = []
    for c in post.conditions:
        if c.impaired_water:
            if inp.discharges_to_impaired_water:
                conditions.append(c.key)
                steps.append(step(c.step.format(acres=acres), c))
            continue
        if (c.min_acres is not None and not _reaches(inp, acres, c.min_acres)) or \
                (c.below_acres is not None and _reaches(inp, acres, c.below_acres) is not False):
            continue
        excluded = [f for f in c.excludes if getattr(inp, f)]
        if excluded:
            what = "a single-family residence" if excluded[0] == "single_family_residence" else "an agricultural property"
            if c.excluded_step:
                steps.append(step(c.excluded_step.format(what=what), c))
            continue
        conditions.append(c.key)
        steps.append(step(c.step.format(acres=acres), c))
    if conditions:
        steps.append(cited(post.controls))
    caveats.extend(at.caveat for at in post.caveats_at if acres == at.acres and not inp.disturbed_under)
    return conditions


def _not_in_text(inp: ApplicabilityInput, acres: float) -> ApplicabilityOutput:
    where = municipality_name(inp.municipality)
    return ApplicabilityOutput(
        municipality=inp.municipality, disturbed_acres=acres, land_development_activity="unknown",
        swppp_required="unknown", post_construction_controls=None,
        unsettled_because=f"the {where}'s text in this corpus does not set when its stormwater law applies",
        steps=[step(f"The corpus holds no stormwater applicability rules for the {where}.")],
        caveats=[f"The {where}'s text in this corpus does not set when its stormwater law applies; ask its "
                 "Stormwater Management Officer. Another municipality's rules are not this one's."],
    )


def run(inp: ApplicabilityInput) -> ApplicabilityOutput:
    acres = inp.acres
    rules: ApplicabilityRules | None = rules_for(inp.municipality, "applicability")
    if rules is None:
        return _not_in_text(inp, acres)
    steps: list[Step] = [cited(rules.applies)]
    caveats: list[str] = []
    lda = _lda(rules, inp, acres, steps, caveats)
    exemptions, not_exempt = _exemptions(rules, inp, acres, steps, caveats)

    if lda == "no":
        swppp: Literal["yes", "no", "likely_exempt", "unknown"] = "no"
        if rules.other_sites is not None:
            steps.append(cited(rules.other_sites))
            caveats.append(rules.other_sites.caveat)
    elif exemptions:
        swppp = "likely_exempt"
    else:
        swppp = "yes" if lda == "yes" else "unknown"

    reviewed_by = submitted_to = None
    if swppp != "no":
        reviewed_by, submitted_to = _review(rules, inp, swppp, steps, caveats)
    conditions: list[str] = []
    post: bool | None = None
    preparers: list[str] = []
    at_once: float | None = None
    at_once_rule: str | None = None
    if rules.post_construction is not None:
        if lda == "yes":
            conditions = _conditions(rules, inp, acres, steps, caveats)
            if rules.preparers is not None:
                preparers = list(rules.preparers.names)
                steps.append(cited(rules.preparers))
            if rules.at_once is not None:
                at_once, at_once_rule = rules.at_once.acres, rules.at_once.step
                steps.append(cited(rules.at_once))
            if exemptions and conditions:
                caveats.append("The conditions and post-construction controls above apply if the exemption is not granted.")
        post = bool(conditions)
    elif rules.not_in_text:
        caveats.append(rules.not_in_text)
    return ApplicabilityOutput(
        municipality=inp.municipality,
        disturbed_acres=acres,
        disturbed_under=inp.disturbed_under,
        land_development_activity=lda,
        swppp_required=swppp,
        exemptions=exemptions,
        not_exempt=not_exempt,
        post_construction_controls=post,
        conditions=conditions,  # type: ignore[arg-type]
        reviewed_by=reviewed_by,
        swppp_submitted_to=submitted_to,
        plan_preparers=preparers,
        max_disturbed_at_once_acres=at_once,
        at_once_rule=at_once_rule,
        unsettled_because=(rules.threshold_unknown.missing if rules.threshold_unknown else
                           f"the figure given ({acres_words(acres, True)}) does not settle whether the land disturbed "
                           "reaches the law's threshold") if lda == "unknown" else None,
        officer_may_still_require=rules.other_sites.caveat if lda == "no" and rules.other_sites is not None else None,
        steps=steps,
        caveats=caveats,
    )


def _review(rules: ApplicabilityRules, inp: ApplicabilityInput, swppp: str, steps: list[Step], caveats: list[str]) -> tuple[str, str | None]:
    """Who reviews the project and where the SWPPP goes."""
    r = rules.review
    cond = "" if swppp == "yes" else "If the project is regulated and not exempt: "
    if inp.site_plan_review:
        reviewed_by = r.board
        steps.append(cited(r.board_ref, cond))
        if r.site_plan_caveat:
            caveats.append(r.site_plan_caveat)
    else:
        reviewed_by = r.smo
        steps.append(cited(r.smo_ref, cond))
    if r.submit is not None:
        steps.append(cited(r.submit, cond))
    if r.submit_to is not None:
        return reviewed_by, r.submit_to
    return reviewed_by, None if inp.site_plan_review else r.smo


# --- Question and answer edges (the slot reader and headline the assistant uses) -----------------------


def read_slots(slots: dict, question: str, municipality: str, prior: dict | None = None,
               today: date | None = None) -> tuple[dict | None, str | None]:
    """Input from the plan's slots (over a previous input for follow-ups), or a follow-up question."""
    data: dict[str, Any] = {**(prior or {}), "municipality": municipality}
    if "area_beyond_lot" in slots:  # "a 5,000-acre driveway on a quarter-acre lot"
        disturbed, lot = slots["area_beyond_lot"]
        return None, (f"The question gives {disturbed} disturbed on a {lot}: a project cannot disturb more land "
                      "than its lot has. How much land will the project disturb in total (in acres or square feet)?")
    if "area" in slots:
        data.pop("disturbed_acres", None)
        data.pop("disturbed_sq_ft", None)
        data.pop("disturbed_under", None)
        data["disturbed_acres" if slots["area_unit"] == "acres" else "disturbed_sq_ft"] = slots["area"]
        if slots.get("area_under"):
            data["disturbed_under"] = True
    if "activity" in slots:
        data["activity"] = slots["activity"]
    for flag in ("single_family_residence", "agricultural_property", "part_of_common_plan", "discharges_to_impaired_water",
                 "site_plan_review"):
        if flag in slots:
            data[flag] = slots[flag]
    if "disturbed_acres" not in data and "disturbed_sq_ft" not in data:
        return None, "How much land will the project disturb in total (in acres or square feet)?"
    if data.get("disturbed_under") and "activity" not in data:
        # "under 3 acres": whether that reaches a one-acre line is not said; a bound at or below the line settles it
        rules = rules_for(municipality, "applicability")
        line = rules.land_development.acres if rules is not None and rules.land_development is not None else None
        bound = to_acres(data.get("disturbed_acres"), data.get("disturbed_sq_ft"))
        if line is not None and bound > line:
            return None, (f"The question gives {acres_words(bound, True)} disturbed; the law's line is {line:g} acre"
                          f"{'' if line == 1 else 's'}. How much land will the project disturb in total (in acres or square feet)?")
    return data, None


def area_words(out: Any, data: dict | None, question: str = "") -> str:
    """The area disturbed as the user gave it: square feet when they wrote square feet, else acres; a metric area
    is said to be converted (its figure is not repeated: the calculation holds the converted one)."""
    under = "less than " if getattr(out, "disturbed_under", False) else ""
    if data and data.get("disturbed_sq_ft") is not None:
        words = f"{under}{data['disturbed_sq_ft']:,g} sq ft disturbed"
    else:
        words = f"{acres_words(out.disturbed_acres, bool(under))} disturbed"
    unit = metric_unit(question)
    return f"{words}, converted from {unit}" if unit else words


# What the first sentence answers: the question asked. "Do I need the post-construction controls?" is answered
# about them first; "does being under an acre get us out of it?" / "exempt?" asks whether the law does NOT
# apply, so a required SWPPP is its "No".
_ASKS_POST_CONSTRUCTION = re.compile(r"\bpost[- ]?construction\b|\b(?:quantity|quality)(?: and (?:quantity|quality))? "
                                     r"controls?\b|\bpermanent (?:runoff|stormwater) (?:controls?|practices?)\b", re.I)
# Whether a SWPPP is needed is asked ("do I need a SWPPP", "SWPPP?"), not just named ("does our SWPPP need ...").
_PLAN = r"(?:swppp|stormwater (?:pollution prevention )?plan)"
_ASKS_SWPPP = re.compile(r"\b(?:need|needs|require[sd]?|have to (?:file|submit|do|get|prepare))\s+(?:an?\s+|the\s+|any\s+)?" + _PLAN +
                         r"\b|\b" + _PLAN + r"\s*(?:\?|(?:is |be )?(?:required|needed)\b)", re.I)
_ASKS_OUT = re.compile(r"\bexempt(?:ed|ion)?\b|\b(?:get|gets|let|lets)\b(?: \w+){0,2} (?:out of|off)\b|\boff the hook\b|"
                       # "houses are excluded from the post-construction controls, right?"
                       r"\b(?:skip|avoid|escape)\b|\bexclud(?:e|es|ed|ing)\b|\bcarved out\b", re.I)


# Leaving the controls out of the plan ("they can drop the postconstruction stormwater controls from the SWPPP")
_DROPS = re.compile(r"\b(?:drop|dropping|omit|omitting|leave out|leaving out|leave off|do without|go without|forgo)\b", re.I)


def asks_exemption(question: str) -> bool:
    """Whether the question asks if the work is exempt or otherwise out of the law's reach."""
    return bool(_ASKS_OUT.search(question))


# Whether the officials may require a plan anyway, below the law's reach ("could they still make me file one?").
_ASKS_STILL = re.compile(r"\b(?:still|anyway|regardless|nonetheless|nevertheless|even so|even though|even if)\b[^?]{0,50}?"
                         r"\b(?:make|makes|force|forces|require|requires|order|orders|ask for|demand)\b|"
                         # "the officer is insisting on a SWPPP anyway. Can he do that?"; "he wants one from us anyway"
                         r"\b(?:make|force|require|order|insist\w*|demand\w*|wants?|wanted|wanting|asks? for|asked for|asking for|"
                         r"request\w*)\b[^?]{0,50}?\b(?:anyway|regardless|nonetheless|even so)\b|"
                         # "can the SMO pull that site under the article even though it's under an acre?"
                         r"\b(?:can|could|may)\s+(?:the\s+)?(?:smo|stormwater management officer|stormwater officer|officer|town|village)\b"
                         r"[^?]{0,80}?\b(?:even though|even if|although|though|despite)\b|"
                         # "it's under an acre; can he decide that's necessary?" (the officer deems other sites necessary)
                         r"\b(?:can|could|may)\s+(?:he|she|they|the\s+(?:smo|stormwater management officer|officer|town|village)|smo)\s+"
                         r"(?:decide|deem|determine|find|rule|say|declare|judge)\b[^?]{0,40}?\b(?:nec+es+ar\w*|needed|required)\b", re.I)


_AT_ONCE = re.compile(r"\b(?:(?:all )?at once|at (?:any )?one time|in one go|all at the same time|simultaneously)\b", re.I)


def headline(out: ApplicabilityOutput, names: dict[str, str], data: dict | None = None, question: str = "") -> str:
    """The direct first sentence, built only from the output's fields, in answer to the question asked."""
    where = f"({names.get(out.municipality, '')}, {area_words(out, data, question)})"
    required = out.swppp_required
    post = _ASKS_POST_CONSTRUCTION.search(question)
    plan_first = _ASKS_SWPPP.search(question[:post.start()]) if post else None
    # "Do I need a SWPPP, and does it need the post-construction stuff?": answered in the order asked
    if post and not plan_first and required in ("yes", "likely_exempt"):
        swppp = "a SWPPP is required" if required == "yes" else "the SWPPP itself may be exempt (the officer decides)"
        # "so we can skip the post-construction controls, right?" asks whether they do NOT apply
        near = question[post.start() - 40 if post.start() > 40 else 0:post.end()]
        skip = _ASKS_OUT.search(near) or _DROPS.search(near)  # "they can drop the postconstruction controls. Right?"
        if out.conditions:
            return (f"{'No: post-construction stormwater controls still' if skip else 'Yes: post-construction stormwater controls'} "
                    f"apply (Condition {', '.join(out.conditions)}), and {swppp} {where}.")
        if out.post_construction_controls is False:
            return (f"{'Yes' if skip else 'No'}: post-construction stormwater controls are not required on these facts "
                    f"(none of Conditions A, B and C is met); {swppp} {where}.")
    if out.at_once_rule and out.max_disturbed_at_once_acres is not None and _AT_ONCE.search(question) and \
            out.disturbed_acres > out.max_disturbed_at_once_acres:
        # "can we strip the whole 4 acre lot at once?": how much may be open at one time answers it first
        verdict = f"{out.at_once_rule.rstrip('.')}"
        if required == "yes":
            verdict += ", and a SWPPP is required"
        return f"{verdict} {where}."
    if required == "unknown" and out.not_exempt:
        # "regrading a basin, 6 acres, exempt?": the exemption is settled though the law's reach is not
        why = out.not_exempt[:1].lower() + out.not_exempt[1:].rstrip(".")
        verdict = (f"{'No' if _ASKS_OUT.search(question) else 'Not exempt'}: {why}. Whether a "
                   f"SWPPP is required otherwise cannot be settled from this corpus")
    elif required == "no" and out.officer_may_still_require and _ASKS_STILL.search(question):
        # "my half acre isn't covered. Could the Town still make me file a SWPPP?": the officer's discretion answers it
        still = out.officer_may_still_require.rstrip(".")
        verdict = (f"Yes, it may: the stormwater law's SWPPP requirement does not apply on its own {where}, but "
                   f"{still[:1].lower()}{still[1:]}")
        return f"{verdict}."
    elif _ASKS_OUT.search(question) and required in ("yes", "no"):
        verdict = ("No: a SWPPP is still required" if required == "yes"
                   else "Yes: the stormwater law's SWPPP requirement does not apply")
    else:
        verdict = {"yes": "Yes: a SWPPP is required", "no": "No: the stormwater law's SWPPP requirement does not apply",
                   "likely_exempt": "Likely exempt: the activity is one the law says \u201cmay be exempt\u201d; the Stormwater Management Officer decides",
                   "unknown": "It cannot be settled from this corpus"}[required]
        if required == "unknown" and out.unsettled_because:
            verdict += f": {out.unsettled_because}"
    extra = ""
    if required == "no" and out.exemptions:
        # "regrading a ditch back to its grade, well under an acre: review?": out of reach, and exempt-listed too
        return f"{verdict} {where}, and the activity is also one the law says \u201cmay be exempt\u201d from review."
    if out.conditions and required == "likely_exempt":
        extra = f" If the exemption is not granted, post-construction stormwater controls apply (Condition {', '.join(out.conditions)})."
    elif out.conditions:
        extra = f" Post-construction stormwater controls also apply (Condition {', '.join(out.conditions)})."
    elif out.post_construction_controls is False and required in ("yes", "likely_exempt"):
        extra = " Post-construction stormwater controls are not required on these facts (none of Conditions A, B and C is met)."
    if required == "yes" and out.not_exempt and _ASKS_OUT.search(question):
        # "They're calling it routine maintenance. Does that fit the exemption?": why it does not, next
        extra = f" {out.not_exempt}{extra}"
    return f"{verdict} {where}.{extra}"


def undecided(out: ApplicabilityOutput, slots: dict | None = None) -> bool:
    """True when the corpus cannot settle the question (it does settle that an activity is not exempt)."""
    return out.swppp_required == "unknown" and not out.not_exempt
