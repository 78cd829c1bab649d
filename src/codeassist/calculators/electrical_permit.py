"""Is an electrical permit needed (Village of Tuckahoe Electrical Code, Chapter 7), who may apply, what follows.

Free-text work descriptions are not guessed at: only the minor repairs § 7-5(a)(1) names (given as a
key or as printed) count as that exemption. Anything else is treated as needing a permit, with a caveat,
because the Building Inspector, not this tool, decides what else is "minor repair work".
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from codeassist.calculators._inputs import MunicipalityId
from codeassist.calculators._refs import Ref, citation, step
from codeassist.models import Step

_P = "tuckahoe:7-5(a)(1)"
# Minor repairs § 7-5(a)(1) names, key -> the words as printed.
MINOR_REPAIRS: dict[str, Ref] = {
    "repairing_switches": Ref(_P, "repairing flush or snap switches"),
    "replacing_fuses": Ref(_P, "replacing fuses"),
    "changing_lamp_sockets_and_receptacles": Ref(_P, "changing lamp sockets and receptacles"),
    "taping_bare_joints": Ref(_P, "taping bare joints"),
    "repairing_drop_cords": Ref(_P, "repairing drop cords"),
    "connecting_portable_devices": Ref(
        _P, "the connection of portable devices to suitable receptacles which have been permanently installed"
    ),
}

RULES: dict[str, dict[str, Ref]] = {
    "tuckahoe": {
        "permit": Ref(
            "tuckahoe:7-5(a)",
            "without first securing a permit therefor from the Building Inspector except as follows",
        ),
        "minor_repair": Ref(_P, "No permit shall be required for minor repair work, such as"),
        "in_house_journeyman": Ref(
            "tuckahoe:7-5(a)(2)",
            "No permit shall be required for maintenance and repair work or for the installation of electrical wiring devices or equipment to be installed in the premises of a person, firm or corporation regularly employing one (1) or more journeymen electricians for that purpose.",
        ),
        "utility": Ref(
            "tuckahoe:7-5(a)(3)",
            "No permit shall be required for the installation of electrical wiring devices or equipment to be installed by or for a public utilities corporation",
        ),
        "apply": Ref(
            "tuckahoe:7-5(b)",
            "Application for such permit describing the work to be done shall be made in writing to the Building Inspector by the person, firm or corporation installing the work",
        ),
        "registered_only": Ref(
            "tuckahoe:7-5(c)",
            "No permit for the installation or alteration of any electrical wiring, devices or equipment shall be issued to any person, firm or corporation unless such person, firm or corporation is the holder of a certificate of registration as an electrical contractor",
        ),
        "registered_only_11c": Ref(
            "tuckahoe:7-11(c)",
            "unless such person, firm or corporation is the holder of a certificate of registration as an electrical contractor",
        ),
        "notify_completion": Ref(
            "tuckahoe:7-8(a)",
            "it shall be the duty of the person, firm or corporation installing the same to notify the Building Inspector of the completion of such work",
        ),
        "inspection_company": Ref(
            "tuckahoe:7-8(a)",
            "shall select an electrical inspection company engaged and authorized to provide electrical inspection services within the Village",
        ),
        "certificate": Ref(
            "tuckahoe:7-8(a)",
            "the Building Inspector shall issue to such person, firm or corporation this certificate as a final approval authorizing connection to the electrical service",
        ),
        "concealment": Ref(
            "tuckahoe:7-8(b)",
            "such parts of the wiring installation shall not be concealed until they have been inspected or until 24 hours, exclusive of Sundays and legal holidays, shall have elapsed from the time of such notification",
        ),
        "no_connection": Ref(
            "tuckahoe:7-9(a)",
            "It shall be unlawful for any person, firm or corporation to make connection from a source of electrical energy to any electrical wiring devices or equipment for the installation of which a permit is required until a certificate of approval had been issued by the Building Inspector",
        ),
        "nec": Ref(
            "tuckahoe:7-4",
            "All electrical installations mentioned in this chapter shall be made in conformity with the requirements of the National Electrical Code, 1978 Edition",
        ),
    }
}


def work_key(work: str) -> str | None:
    """The listed minor repair a work string names (by key or as printed), or None."""
    norm = re.sub(r"[^a-z0-9]+", "_", work.lower()).strip("_")
    for key, ref in MINOR_REPAIRS.items():
        if norm == key or norm == re.sub(r"[^a-z0-9]+", "_", ref.quote.lower()).strip("_"):
            return key
    return None


class ElectricalPermitInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: MunicipalityId = Field(default="tuckahoe", description="Only Tuckahoe's electrical code is in the corpus.")
    work: str = Field(description=f"A description of the work, or a listed minor repair: {', '.join(MINOR_REPAIRS)}.")
    performed_by: Literal["registered_contractor", "utility", "in_house_journeyman", "homeowner", "other"]

    @field_validator("work")
    @classmethod
    def _work(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError(f"describe the work, or name a listed minor repair: {', '.join(MINOR_REPAIRS)}")
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
    rules = RULES.get(inp.municipality)
    if rules is None:
        return ElectricalPermitOutput(
            municipality=inp.municipality,
            status="not_in_corpus",
            permit_required=None,
            steps=[step(f"The corpus holds no electrical code for {inp.municipality.title()}.")],
            caveats=[f"No electrical code for {inp.municipality.title()} is in this corpus (only Tuckahoe Chapter 7 is); ask its building department. Tuckahoe's rules are not {inp.municipality.title()}'s."],
        )
    steps: list[Step] = [step("Electrical work needs a permit from the Building Inspector unless an exception applies.", rules["permit"])]
    caveats: list[str] = []
    exemption: PermitExemption | None = None
    repair = work_key(inp.work)
    if repair:
        exemption = _exemption(f"minor_repair:{repair}", MINOR_REPAIRS[repair])
        steps.append(step("No permit is required for minor repair work.", rules["minor_repair"]))
        steps.append(step(f"The work is a listed minor repair ({MINOR_REPAIRS[repair].quote}): no permit.", MINOR_REPAIRS[repair]))
    elif inp.performed_by == "utility":
        exemption = _exemption("public_utility", rules["utility"])
        steps.append(step("Work by or for a public utilities corporation: no permit.", rules["utility"]))
        caveats.append("The utility exception covers installations by or for a public utility corporation, or for its use in generating, transmitting, selling or using electrical energy or transmitting intelligence.")
    elif inp.performed_by == "in_house_journeyman":
        exemption = _exemption("in_house_journeyman", rules["in_house_journeyman"])
        steps.append(step("Maintenance, repair or installation on premises of an employer regularly employing journeymen electricians for that purpose: no permit.", rules["in_house_journeyman"]))
    else:
        caveats.append(
            f"\"{inp.work}\" was not matched to a minor repair § 7-5(a)(1) names ({', '.join(r.quote for r in MINOR_REPAIRS.values())}). "
            "That list gives examples (\"such as\"); whether other work is minor repair work is for the Building Inspector."
        )
    steps.append(step("Exempt or not, installations must conform to the National Electrical Code as the chapter adopts it.", rules["nec"]))

    if exemption is not None:
        return ElectricalPermitOutput(municipality=inp.municipality, status="computed", permit_required=False, exemption=exemption, steps=steps, caveats=caveats)

    steps.append(step("Apply in writing to the Building Inspector, describing the work; the applicant is whoever installs it.", rules["apply"]))
    steps.append(step("A permit is issued only to a holder of a certificate of registration as an electrical contractor.", rules["registered_only"]))
    steps.append(step("The registration section repeats the rule.", rules["registered_only_11c"]))
    if inp.performed_by in ("homeowner", "other"):
        caveats.append("Only a registered electrical contractor can obtain the permit: a homeowner or other unregistered person must hire one (or register).")
    inspection = [
        step("If wiring will be hidden, notify the Building Inspector; do not conceal it until inspected or 24 hours (excluding Sundays and legal holidays) have passed.", rules["concealment"]),
        step("On completion, notify the Building Inspector.", rules["notify_completion"]),
        step("Select an electrical inspection company authorized in the Village to inspect the installation.", rules["inspection_company"]),
        step("If it complies, the Building Inspector issues a certificate authorizing connection and use.", rules["certificate"]),
        step("No connection to a source of electrical energy until the certificate of approval is issued.", rules["no_connection"]),
    ]
    return ElectricalPermitOutput(
        municipality=inp.municipality,
        status="computed",
        permit_required=True,
        who_may_apply="The registered electrical contractor installing the work, applying in writing to the Building Inspector.",
        applicant_must_be_registered=True,
        inspection_steps=inspection,
        steps=steps,
        caveats=caveats,
    )
