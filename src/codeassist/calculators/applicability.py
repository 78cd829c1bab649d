"""Does the stormwater law apply, which exemption may apply, which post-construction conditions apply.

Rules come from tables keyed by municipality; each entry carries the provision it rests on. The
exemption lists say activities "may be exempt", so an exemption never yields "no": it yields
"likely_exempt", and the Stormwater Management Officer decides.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from codeassist.calculators._inputs import Acres, MunicipalityId, SquareFeet, to_acres
from codeassist.calculators._refs import Ref, citation, step
from codeassist.models import Step

Activity = Literal[
    "construction",
    "agriculture",
    "silviculture",
    "silviculture_landing_or_haul_road",
    "routine_maintenance",
    "smp_repair",
    "cemetery_graves",
    "fence_sign_pole",
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

    municipality: MunicipalityId = Field(description="'hempstead' or 'tuckahoe'.")
    disturbed_acres: Acres | None = Field(default=None, description="Total land disturbed over the project, in acres.")
    disturbed_sq_ft: SquareFeet | None = Field(
        default=None, description="The same in square feet (43,560 sq ft per acre); give this or disturbed_acres."
    )
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
    land_development_activity: Literal["yes", "no", "unknown"]
    swppp_required: Literal["yes", "no", "likely_exempt", "unknown"]
    exemptions: list[ExemptionRef] = Field(default_factory=list)
    post_construction_controls: bool | None = Field(
        description="Water quantity/quality (post-construction) controls required; None where the corpus cannot say."
    )
    conditions: list[Literal["A", "B", "C"]] = Field(default_factory=list)
    reviewed_by: str | None = None
    swppp_submitted_to: str | None = None
    plan_preparers: list[str] = Field(default_factory=list, description="Who may prepare and sign the SWPPP.")
    max_disturbed_at_once_acres: float | None = None
    steps: list[Step] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)


# --- Rule tables -------------------------------------------------------------------------------------

# activity or flag -> (exemption key, provision). Activities missing here have no exemption.
EXEMPTIONS: dict[str, dict[str, Ref]] = {
    "hempstead": {
        "agriculture": Ref("hempstead:exemptions(A)", "Agricultural activity as defined in this article."),
        "silviculture": Ref("hempstead:exemptions(B)", "Silvicultural activity"),
        "routine_maintenance": Ref(
            "hempstead:exemptions(C)", "Routine maintenance activities that disturb fewer than five acres"
        ),
        "smp_repair": Ref(
            "hempstead:exemptions(D)",
            "Repairs to any stormwater management practice or facility deemed necessary by the Stormwater Management Officer.",
        ),
        "subdivision_plat_approved_before_law": Ref(
            "hempstead:exemptions(E)",
            "Any part of a subdivision if a plat for the subdivision has been approved by the Town of Hempstead on or before the effective date of this law.",
        ),
        "building_permit_approved_before_law": Ref(
            "hempstead:exemptions(F)",
            "Land development activities for which a building permit has been approved on or before the effective date of this law.",
        ),
        "cemetery_graves": Ref("hempstead:exemptions(G)", "Cemetery graves."),
        "fence_sign_pole": Ref(
            "hempstead:exemptions(H)",
            "Installation of fence, sign, telephone, electric poles and other kinds of posts or poles.",
        ),
        "emergency": Ref(
            "hempstead:exemptions(I)",
            "Emergency activity immediately necessary to protect life, property or natural resources.",
        ),
        "home_gardening": Ref(
            "hempstead:exemptions(J)",
            "Activities of an individual engaging in home gardening by growing flowers, vegetable and other plants primarily for use by that person and his or her family.",
        ),
        "landscaping_existing_structure": Ref(
            "hempstead:exemptions(K)", "Landscaping and horticultural activities in connection with an existing structure."
        ),
    },
    "tuckahoe": {
        "agriculture": Ref("tuckahoe:7B-5(a)", "Agricultural activity as defined in Appendix A, Zoning, § 12-1."),
        "silviculture": Ref("tuckahoe:7B-5(b)", "Silvicultural activity"),
        "routine_maintenance": Ref(
            "tuckahoe:7B-5(c)", "Routine maintenance activities that disturb fewer than five acres"
        ),
        "smp_repair": Ref(
            "tuckahoe:7B-5(d)",
            "Repairs to any stormwater management practice or facility deemed necessary by the Stormwater Management Officer.",
        ),
        "subdivision_plat_approved_before_law": Ref(
            "tuckahoe:7B-5(e)",
            "Any part of a subdivision if a plat for the subdivision has been approved by the Village on or before the effective date of this chapter",
        ),
        "building_permit_approved_before_law": Ref(
            "tuckahoe:7B-5(f)",
            "Land development activities for which a building permit has been approved on or before the effective date of this chapter",
        ),
        "cemetery_graves": Ref("tuckahoe:7B-5(g)", "Cemetery graves."),
        "fence_sign_pole": Ref(
            "tuckahoe:7B-5(h)",
            "Installation of fence, sign, telephone, and electric poles and other kinds of posts or poles.",
        ),
        "emergency": Ref(
            "tuckahoe:7B-5(i)", "Emergency activity immediately necessary to protect life, property or natural resources."
        ),
        "home_gardening": Ref(
            "tuckahoe:7B-5(j)",
            "Activities of an individual engaging in home gardening by growing flowers, vegetable and other plants primarily for use by that person and his or her family.",
        ),
        "landscaping_existing_structure": Ref(
            "tuckahoe:7B-5(k)", "Landscaping and horticultural activities in connection with an existing structure."
        ),
    },
}

# Exemption items whose text keeps the activity under the law (landing areas, log haul roads).
SUBJECT_TO_LAW: dict[str, dict[str, Ref]] = {
    "hempstead": {
        "silviculture_landing_or_haul_road": Ref(
            "hempstead:exemptions(B)", "except that landing areas and log haul roads are subject to this law"
        )
    },
    "tuckahoe": {
        "silviculture_landing_or_haul_road": Ref(
            "tuckahoe:7B-5(b)", "except that landing areas and log haul roads are subject to this chapter"
        )
    },
}

ROUTINE_MAINTENANCE_LIMIT_ACRES = 5.0  # "fewer than five acres", both municipalities

RULES: dict[str, dict[str, Ref]] = {
    "hempstead": {
        "applies": Ref(
            "hempstead:applicability(A)",
            "This article shall be applicable to all land development activities as defined by § 390 of this ordinance.",
        ),
        "lda_area": Ref(
            "hempstead:390/land-development-activity",
            "results in land disturbance of equal to or greater than one acre",
        ),
        "lda_common_plan": Ref(
            "hempstead:390/land-development-activity",
            "activities disturbing less than one acre of total land area that is part of a larger common plan of development or sale",
        ),
        "other_sites": Ref("hempstead:applicability(E)", "Other sites deemed by the Stormwater Management Officer as necessary."),
        "may_be_exempt": Ref("hempstead:exemptions", "The following activities may be exempt from review under this law:"),
        "agriculture_defined": Ref(
            "hempstead:390/agricultural-activity",
            "but shall not include the operation of a dude ranch or similar operation, or the construction of new structures associated with agricultural activities",
        ),
        "review_board": Ref(
            "hempstead:applicability(C)",
            "All land development activities subject to review and approval by the Town Board of the Town of Hempstead under site plan and/or subdivision and/or special permit regulations shall be reviewed subject to the standards contained in this article",
        ),
        "review_smo": Ref(
            "hempstead:applicability(D)",
            "shall be required to submit a stormwater pollution prevention plan (hereinafter, \"SWPPP\") to the Stormwater Management Officer, who shall approve the SWPPP if it complies with the requirements of this law",
        ),
        "submit_engineering": Ref(
            "hempstead:391(A)",
            "No application for approval of a land development activity shall be reviewed until the Department of Engineering has received a stormwater pollution prevention plan (SWPPP)",
        ),
        "post_construction": Ref(
            "hempstead:391(B)(2)",
            "shall also include water quantity and water quality controls (postconstruction stormwater runoff controls) as set forth in Subsection B(3) below",
        ),
        "A": Ref(
            "hempstead:391(B)(2)(a)",
            "Condition A: Stormwater runoff from land development activities discharging a pollutant of concern to either an impaired water identified on the Department's 303(d) list of impaired waters or a total maximum daily load (TMDL) designated watershed",
        ),
        "B": Ref(
            "hempstead:391(B)(2)(b)",
            "Condition B: Stormwater runoff from land development activities disturbing five or more acres of land.",
        ),
        "C": Ref(
            "hempstead:391(B)(2)(c)",
            "Condition C: Stormwater runoff from land development activity disturbing between one acre and five acres of land during the course of the project, exclusive of the construction of single-family residences and construction activities at agricultural properties.",
        ),
        "preparers": Ref(
            "hempstead:391(C)",
            "The SWPPP shall be prepared by a New York State licensed landscape architect, certified erosion control specialist, or New York State licensed professional engineer and must be signed by the professional preparing the plan",
        ),
        "one_acre_at_once": Ref(
            "hempstead:391(B)(1)(d)",
            "not more than one acre shall be disturbed at any one time unless pursuant to an approved SWPPP",
        ),
    },
    "tuckahoe": {
        "applies": Ref(
            "tuckahoe:7B-4(a)",
            "shall be applicable to all land development activities as defined in Appendix A, Zoning, § 12-1.",
        ),
        "may_be_exempt": Ref(
            "tuckahoe:7B-5",
            "The following activities may be exempt from review under this chapter and Appendix A, Zoning, Article XII, Stormwater Control:",
        ),
        "review_board": Ref(
            "tuckahoe:7B-4(c)",
            "All land development activities subject to review and approval by the Village under subdivision, site plan, and/or special permit regulations shall be reviewed subject to the standards contained in this chapter",
        ),
        "review_smo": Ref(
            "tuckahoe:7B-4(d)",
            "shall be required to submit a stormwater pollution prevention plan (SWPPP) to the Stormwater Management Officer, who shall approve the SWPPP if it complies with the requirements of this chapter",
        ),
    },
}

OFFICES = {
    "hempstead": {
        "board": "Town Board of the Town of Hempstead (site plan, subdivision or special permit review, under this article's standards)",
        "smo": "Stormwater Management Officer, Town of Hempstead",
        "submit": "Town of Hempstead Department of Engineering",
    },
    "tuckahoe": {
        "board": "Village of Tuckahoe (subdivision, site plan or special permit review, under Chapter 7B's standards)",
        "smo": "Village Stormwater Management Officer, Village of Tuckahoe",
    },
}

HEMPSTEAD_PREPARERS = [
    "New York State licensed landscape architect",
    "certified erosion control specialist",
    "New York State licensed professional engineer",
]

TUCKAHOE_MISSING = (
    "The Village of Tuckahoe's definition of \"land development activity\" (its area threshold) is in "
    "Appendix A, Zoning, § 12-1, which is not in this corpus, so whether this project is a land development "
    "activity cannot be determined from the text here; ask the Village Stormwater Management Officer."
)
TUCKAHOE_ASSUMPTION = (
    "ASSUMPTION, not ordinance text: if the Village uses the NYS model local law threshold (land disturbance "
    "of one acre or more, or less than one acre within a larger common plan of development or sale), this "
    "project {verdict} be a land development activity."
)
TUCKAHOE_NOT_IN_CORPUS = (
    "The Village's post-construction conditions, SWPPP contents and who may prepare a SWPPP are in Appendix A, "
    "Zoning, Article XII, Stormwater Control, which is not in this corpus; Hempstead's rules are not the Village's."
)


# --- Calculation -------------------------------------------------------------------------------------


def _hempstead_lda(inp: ApplicabilityInput, acres: float, steps: list[Step]) -> Literal["yes", "no"]:
    rules = RULES["hempstead"]
    if acres >= 1.0:
        steps.append(step(f"{acres:g} acres is one acre or more of land disturbance: a land development activity.", rules["lda_area"]))
        return "yes"
    if inp.part_of_common_plan and acres > 0:
        steps.append(
            step(f"{acres:g} acres is under one acre but part of a larger common plan: a land development activity.", rules["lda_common_plan"])
        )
        return "yes"
    steps.append(
        step(f"{acres:g} acres is under one acre and not part of a larger common plan: not a land development activity.", rules["lda_area"])
    )
    return "no"


def _exemptions(inp: ApplicabilityInput, acres: float, steps: list[Step], caveats: list[str]) -> list[ExemptionRef]:
    muni = inp.municipality
    table = EXEMPTIONS[muni]
    keys: list[str] = []
    if inp.activity in table:
        if inp.activity == "routine_maintenance" and acres >= ROUTINE_MAINTENANCE_LIMIT_ACRES:
            steps.append(
                step(
                    f"Routine maintenance disturbing {acres:g} acres is not within the exemption, which covers fewer than five acres.",
                    table["routine_maintenance"],
                )
            )
        else:
            keys.append(inp.activity)
    elif inp.activity in SUBJECT_TO_LAW[muni]:
        steps.append(step("Silvicultural landing areas and log haul roads are subject to the law: no exemption.", SUBJECT_TO_LAW[muni][inp.activity]))
    for flag in ("subdivision_plat_approved_before_law", "building_permit_approved_before_law"):
        if getattr(inp, flag):
            keys.append(flag)
    found = []
    for key in keys:
        ref = table[key]
        steps.append(step(f"The activity may be exempt ({key.replace('_', ' ')}).", ref))
        found.append(ExemptionRef(key=key, citation=citation(ref.pid), provision_id=ref.pid))
    if found:
        steps.append(step("Exemptions are discretionary: the listed activities \"may be exempt\".", RULES[muni]["may_be_exempt"]))
        caveats.append(LIKELY_EXEMPT_CAVEAT)
    if "smp_repair" in keys:
        caveats.append("The repair exemption covers only repairs the Stormwater Management Officer deems necessary.")
    if "agriculture" in keys:
        if muni == "hempstead":
            steps.append(step("Agricultural activity does not include building new structures for it.", RULES[muni]["agriculture_defined"]))
        else:
            caveats.append("\"Agricultural activity\" is defined in Appendix A, Zoning, § 12-1, which is not in this corpus.")
    if "subdivision_plat_approved_before_law" in keys or "building_permit_approved_before_law" in keys:
        caveats.append(
            "The exemption turns on the law's effective date: Hempstead's text is marked \"[Effective 3-21-2006]\"."
            if muni == "hempstead"
            else "The effective date of Tuckahoe Chapter 7B (L.L. No. 2-2007) is not stated in the text here; confirm it with the Village."
        )
    return found


def _hempstead_conditions(inp: ApplicabilityInput, acres: float, steps: list[Step], caveats: list[str]) -> list[str]:
    rules = RULES["hempstead"]
    conditions: list[str] = []
    if inp.discharges_to_impaired_water:
        conditions.append("A")
        steps.append(step("Runoff discharges to an impaired (303(d)) water or a TMDL watershed: Condition A.", rules["A"]))
    if acres >= 5.0:
        conditions.append("B")
        steps.append(step(f"{acres:g} acres is five acres or more: Condition B.", rules["B"]))
    elif acres >= 1.0:
        if inp.single_family_residence or inp.agricultural_property:
            what = "a single-family residence" if inp.single_family_residence else "an agricultural property"
            steps.append(step(f"Between one and five acres, but Condition C excludes {what}.", rules["C"]))
        else:
            conditions.append("C")
            steps.append(step(f"{acres:g} acres is between one and five acres: Condition C.", rules["C"]))
    if conditions:
        steps.append(step("Meeting Condition A, B or C, the SWPPP must also include post-construction controls (the B(3) list).", rules["post_construction"]))
    if acres == 5.0:
        caveats.append("At exactly five acres Condition B applies (\"five or more\"); whether C's \"between one acre and five acres\" also reaches it does not change the result.")
    return conditions


def run(inp: ApplicabilityInput) -> ApplicabilityOutput:
    muni = inp.municipality
    acres = inp.acres
    steps: list[Step] = []
    caveats: list[str] = []
    rules = RULES[muni]
    if muni == "hempstead":
        steps.append(step("The stormwater law applies to land development activities.", rules["applies"]))
        lda: Literal["yes", "no", "unknown"] = _hempstead_lda(inp, acres, steps)
    else:
        lda = "unknown"
        steps.append(step("The chapter applies to land development activities as defined in Appendix A § 12-1, which is not in this corpus: whether this project is one is unknown.", rules["applies"]))
        caveats.append(TUCKAHOE_MISSING)
        model_lda = acres >= 1.0 or (inp.part_of_common_plan and acres > 0)
        assumption = TUCKAHOE_ASSUMPTION.format(verdict="would" if model_lda else "would not")
        steps.append(step(assumption))
        caveats.append(assumption)

    exemptions = _exemptions(inp, acres, steps, caveats)

    if lda == "no":
        swppp: Literal["yes", "no", "likely_exempt", "unknown"] = "no"
        steps.append(step("Not a land development activity: the law does not require a SWPPP, unless the Stormwater Management Officer deems the site necessary.", RULES["hempstead"]["other_sites"]))
        caveats.append("The Stormwater Management Officer may still bring in other sites deemed necessary (Applicability, item E).")
    elif exemptions:
        swppp = "likely_exempt"
    else:
        swppp = "yes" if lda == "yes" else "unknown"

    reviewed_by = submitted_to = None
    if swppp != "no":
        reviewed_by, submitted_to = _review(inp, swppp, steps, caveats)
    conditions: list[str] = []
    post: bool | None = None
    preparers: list[str] = []
    at_once: float | None = None
    if muni == "hempstead":
        if lda == "yes":
            conditions = _hempstead_conditions(inp, acres, steps, caveats)
            preparers = list(HEMPSTEAD_PREPARERS)
            steps.append(step("The SWPPP must be prepared and signed by a licensed landscape architect, certified erosion control specialist or licensed professional engineer.", rules["preparers"]))
            at_once = 1.0
            steps.append(step("Not more than one acre may be disturbed at any one time unless an approved SWPPP allows it.", rules["one_acre_at_once"]))
            if exemptions and conditions:
                caveats.append("The conditions and post-construction controls above apply if the exemption is not granted.")
        post = bool(conditions)
    else:
        caveats.append(TUCKAHOE_NOT_IN_CORPUS)
    return ApplicabilityOutput(
        municipality=muni,
        disturbed_acres=acres,
        land_development_activity=lda,
        swppp_required=swppp,
        exemptions=exemptions,
        post_construction_controls=post,
        conditions=conditions,  # type: ignore[arg-type]
        reviewed_by=reviewed_by,
        swppp_submitted_to=submitted_to,
        plan_preparers=preparers,
        max_disturbed_at_once_acres=at_once,
        steps=steps,
        caveats=caveats,
    )


def _review(inp: ApplicabilityInput, swppp: str, steps: list[Step], caveats: list[str]) -> tuple[str, str | None]:
    """Who reviews the project and where the SWPPP goes."""
    muni = inp.municipality
    rules, offices = RULES[muni], OFFICES[muni]
    cond = "" if swppp == "yes" else "If the project is regulated and not exempt: "
    if inp.site_plan_review:
        reviewed_by = offices["board"]
        steps.append(step(cond + "Under subdivision, site plan or special permit review, the project is reviewed there under the stormwater standards.", rules["review_board"]))
        if muni == "tuckahoe":
            caveats.append("Tuckahoe's site plan review rules (Appendix A, §§ 7-1.3(f) and 7-3) are not in this corpus.")
    else:
        reviewed_by = offices["smo"]
        steps.append(step(cond + "Not under site plan, subdivision or special permit review: submit a SWPPP to the Stormwater Management Officer, who approves it.", rules["review_smo"]))
    if muni == "hempstead":
        steps.append(step(cond + "No application is reviewed until the Department of Engineering has received the SWPPP.", rules["submit_engineering"]))
        return reviewed_by, offices["submit"]
    return reviewed_by, None if inp.site_plan_review else offices["smo"]
