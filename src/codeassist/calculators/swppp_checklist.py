"""What a SWPPP must contain for a project: the base list, plus the post-construction list when a condition applies.

The lists are the ordinance's own words (verbatim), keyed by municipality. Tuckahoe's SWPPP contents
are in Appendix A, Zoning, Article XII, which is not in this corpus: for Tuckahoe the checklist says so
and lists nothing rather than borrowing Hempstead's list.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from codeassist.calculators import applicability
from codeassist.calculators._refs import Ref, citation, step
from codeassist.calculators.applicability import ApplicabilityInput
from codeassist.models import Step

# Hempstead § 391(B)(1)(a)-(p) and § 391(B)(3)(a)-(i), as printed (label, text).
BASE_ITEMS = (
    ('a', 'Background information about the scope of the project, including location, type and size of the project.'),
    ('b', 'Site map/construction drawing(s) for the project, including a general location map. At a minimum, the site map should show the total site area; all improvements; areas of disturbance; areas that will not be disturbed; existing vegetation; on-site and adjacent off-site surface water(s); wetlands and drainage patterns that could be affected by the construction activity; existing and final slopes; locations of off-site material, waste, borrow or equipment storage areas; and location(s) of the stormwater discharge(s). [The site map should be at a scale no smaller than one inch equals 100 feet (e.g., one inch equals 500 feet is smaller than one inch equals 100 feet).];'),
    ('c', 'Description of the soil(s) present at the site.'),
    ('d', 'Construction phasing plan describing the intended sequence of construction activities, including clearing and grubbing, excavation and grading, utility and infrastructure installation and any other activity at the site that results in soil disturbance. Consistent with the New York Standard and Specifications for Erosion and Sediment Control (Erosion Control Manual), not more than one acre shall be disturbed at any one time unless pursuant to an approved SWPPP.'),
    ('e', 'Description of the pollution prevention measures that will be used to control litter, construction chemicals and construction debris from becoming a pollutant source in stormwater runoff.'),
    ('f', 'Description of construction and waste materials expected to be stored on-site with updates as appropriate, and a description of controls to reduce pollutants from these materials, including storage practices to minimize exposure of the materials to stormwater, and spill prevention and response.'),
    ('g', 'Temporary and permanent structural and vegetative measures to be used for soil stabilization, runoff control and sediment control for each stage of the project, from initial land clearing and grubbing to project closeout.'),
    ('h', 'A site map /construction drawings specifying the location(s), size(s) and length(s) of each erosion and sediment control practice.'),
    ('i', 'Dimensions, material specifications and installation details for all erosion and sediment control practices, including the siting and sizing of any temporary sediment basis.'),
    ('j', 'Temporary practices that will be converted to permanent control measures.'),
    ('k', 'An implementation schedule for staging temporary erosion and sediment control practices, including the timing of initial placement and duration that each practice should remain in place.'),
    ('l', 'A maintenance schedule to ensure continuous and effective operation of the erosion and sediment control practice.'),
    ('m', 'Name(s) of the receiving water(s).'),
    ('n', 'Delineation of SWPPP implementation responsibilities for each part of the site.'),
    ('o', 'Description of structural practices designed to divert flows from exposed soils, store flows, or otherwise limit runoff and the discharge of pollutants from exposed areas of the site to the degree attainable.'),
    ('p', 'Any existing data that describes the stormwater runoff at the site.'),
)
POST_CONSTRUCTION_ITEMS = (
    ('a', 'All information in Subsection B(1) of this section.'),
    ('b', 'Description of each postconstruction stormwater management practice.'),
    ('c', 'Site map/construction drawing(s) showing the specific location(s) and size(s) of each postconstruction stormwater management practice.'),
    ('d', 'Hydrologic and hydraulic analysis for all structural components of the stormwater management system for the applicable design storms.'),
    ('e', 'Comparison of postdevelopment stormwater runoff conditions with predevelopment conditions.'),
    ('f', 'Dimensions, material specifications and installation details for each postconstruction stormwater management practice.'),
    ('g', 'Maintenance schedule to ensure continuous and effective operation of each postconstruction stormwater management practice.'),
    ('h', 'Maintenance easements to ensure access to all stormwater management practices at the site for the purpose of inspection and repair. Easements shall be recorded on the plan and shall remain in effect with transfer of title to the property.'),
    ('i', 'Inspection and maintenance agreement binding on all subsequent landowners served by the on-site stormwater management measures in accordance with § 393 of this article.'),
)


# Other things the SWPPP itself must carry or be (Hempstead § 391(C), (E), (F)).
HEMPSTEAD_OTHER = (
    Ref(
        "hempstead:391(C)",
        "The SWPPP shall be prepared by a New York State licensed landscape architect, certified erosion control specialist, or New York State licensed professional engineer and must be signed by the professional preparing the plan, who shall certify that the design of all stormwater management practices meets the requirements in this article.",
    ),
    Ref(
        "hempstead:391(E)(1)",
        "Each contractor and subcontractor identified in the SWPPP who will be involved in soil disturbance and/or stormwater management practice installation shall sign and date a copy of the following certification statement before undertaking any land development activity",
    ),
    Ref(
        "hempstead:391(E)(3)",
        "The certification statement(s) shall become part of the SWPPP for the land development activity.",
    ),
    Ref(
        "hempstead:391(F)",
        "A copy of the SWPPP shall be retained at the site of the land development activity during construction from the date of initiation of construction to the date of final stabilization.",
    ),
)


def _table(prefix: str, rows: tuple[tuple[str, str], ...]) -> tuple[Ref, ...]:
    return tuple(Ref(f"{prefix}({label})", text) for label, text in rows)


CHECKLISTS: dict[str, dict[str, tuple[Ref, ...]] | None] = {
    "hempstead": {
        "base": _table("hempstead:391(B)(1)", BASE_ITEMS),
        "post_construction": _table("hempstead:391(B)(3)", POST_CONSTRUCTION_ITEMS),
        "certification": HEMPSTEAD_OTHER,
    },
    "tuckahoe": None,  # Appendix A, Article XII: not in this corpus
}

TUCKAHOE_MISSING = (
    "The Village of Tuckahoe's SWPPP contents are in Appendix A, Zoning, Article XII, Stormwater Control, which is "
    "not in this corpus, so no checklist can be given from the text here. Hempstead's list is not the Village's; "
    "ask the Village Stormwater Management Officer."
)


class ChecklistItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    group: Literal["base", "post_construction", "certification"]
    text: str = Field(description="The requirement, verbatim.")
    provision_id: str
    citation: str


class SwpppChecklistOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: str
    status: Literal["computed", "not_required", "not_in_corpus"]
    swppp_required: str
    post_construction_controls: bool | None
    conditions: list[str] = Field(default_factory=list)
    items: list[ChecklistItem] = Field(default_factory=list)
    steps: list[Step] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)

    def to_markdown(self) -> str:
        out = [f"# SWPPP checklist: {self.municipality.title()}", ""]
        out.append(f"SWPPP required: **{self.swppp_required}**" + (f"; conditions: {', '.join(self.conditions)}" if self.conditions else ""))
        out.append("")
        titles = {
            "base": "Background information and erosion and sediment controls",
            "post_construction": "Post-construction stormwater controls (Conditions A, B, C)",
            "certification": "Preparation, certification and keeping",
        }
        for group, title in titles.items():
            rows = [i for i in self.items if i.group == group]
            if rows:
                out += [f"## {title}", ""]
                out += [f"- [ ] {i.text} ({i.citation})" for i in rows]
                out.append("")
        if self.caveats:
            out += ["## Caveats", ""] + [f"- {c}" for c in self.caveats] + [""]
        return "\n".join(out)


def _item(group: str, ref: Ref) -> ChecklistItem:
    return ChecklistItem(group=group, text=ref.quote, provision_id=ref.pid, citation=citation(ref.pid))  # type: ignore[arg-type]


def run(inp: ApplicabilityInput) -> SwpppChecklistOutput:
    app = applicability.run(inp)
    out = SwpppChecklistOutput(
        municipality=inp.municipality,
        status="computed",
        swppp_required=app.swppp_required,
        post_construction_controls=app.post_construction_controls,
        conditions=list(app.conditions),
        steps=list(app.steps),
        caveats=list(app.caveats),
    )
    lists = CHECKLISTS[inp.municipality]
    if lists is None:
        out.status = "not_in_corpus"
        out.caveats.append(TUCKAHOE_MISSING)
        return out
    if app.swppp_required == "no":
        out.status = "not_required"
        return out
    out.items = [_item("base", r) for r in lists["base"]]
    out.steps.append(step("Every SWPPP must give the background information and erosion and sediment controls listed.", Ref("hempstead:391(B)(1)", "All SWPPPs shall provide the following background information and erosion and sediment controls:")))
    if app.post_construction_controls:
        out.items += [_item("post_construction", r) for r in lists["post_construction"]]
        out.steps.append(step("A condition applies: the SWPPP must also include the post-construction items.", Ref("hempstead:391(B)(3)", "SWPPP requirements for Conditions A, B, and C:")))
    out.items += [_item("certification", r) for r in lists["certification"]]
    if app.swppp_required == "likely_exempt":
        out.caveats.append("This list applies if the Stormwater Management Officer does not grant the exemption.")
    return out
