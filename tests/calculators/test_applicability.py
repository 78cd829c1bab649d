"""Applicability: every rule and exemption, both municipalities, each area boundary."""

from __future__ import annotations

import pytest

from codeassist.calculators.applicability import ApplicabilityInput, run

from .tables import EXEMPTIONS

from .conftest import assert_grounded


def calc(**kw):
    kw.setdefault("municipality", "hempstead")
    if "disturbed_sq_ft" not in kw:
        kw.setdefault("disturbed_acres", 2.0)
    out = run(ApplicabilityInput(**kw))
    assert_grounded(out)
    return out


def pids(out):
    return {s.provision_id for s in out.steps}


# --- Hempstead: land development activity, conditions A/B/C --------------------------------------------

HEMPSTEAD_AREA = [
    # kwargs, land_development_activity, swppp_required, conditions
    (dict(disturbed_acres=0), "no", "no", []),
    (dict(disturbed_acres=0.99), "no", "no", []),
    (dict(disturbed_acres=1.0), "yes", "yes", ["C"]),
    (dict(disturbed_sq_ft=43_559), "no", "no", []),
    (dict(disturbed_sq_ft=43_560), "yes", "yes", ["C"]),
    (dict(disturbed_acres=0.5, part_of_common_plan=True), "yes", "yes", []),
    (dict(disturbed_acres=0.5, part_of_common_plan=True, discharges_to_impaired_water=True), "yes", "yes", ["A"]),
    (dict(disturbed_acres=0.5, discharges_to_impaired_water=True), "no", "no", []),
    (dict(disturbed_acres=4.99), "yes", "yes", ["C"]),
    (dict(disturbed_acres=5.0), "yes", "yes", ["B"]),
    (dict(disturbed_sq_ft=5 * 43_560), "yes", "yes", ["B"]),
    (dict(disturbed_acres=40), "yes", "yes", ["B"]),
    (dict(disturbed_acres=3, single_family_residence=True), "yes", "yes", []),
    (dict(disturbed_acres=3, agricultural_property=True), "yes", "yes", []),
    (dict(disturbed_acres=6, single_family_residence=True), "yes", "yes", ["B"]),
    (dict(disturbed_acres=3, discharges_to_impaired_water=True), "yes", "yes", ["A", "C"]),
    (dict(disturbed_acres=3, discharges_to_impaired_water=True, single_family_residence=True), "yes", "yes", ["A"]),
    (dict(disturbed_acres=7, discharges_to_impaired_water=True), "yes", "yes", ["A", "B"]),
]


@pytest.mark.parametrize(("kw", "lda", "swppp", "conditions"), HEMPSTEAD_AREA)
def test_hempstead_threshold_and_conditions(kw, lda, swppp, conditions):
    out = calc(municipality="hempstead", **kw)
    assert out.land_development_activity == lda
    assert out.swppp_required == swppp
    assert out.conditions == conditions
    assert out.post_construction_controls is bool(conditions)
    if conditions:
        assert "hempstead:391(B)(2)" in pids(out)
        assert {f"hempstead:391(B)(2)({c.lower()})" for c in conditions} <= pids(out)


def test_square_feet_and_acres_agree():
    assert calc(disturbed_sq_ft=43_560).disturbed_acres == 1.0
    assert calc(disturbed_sq_ft=43_559).disturbed_acres < 1.0


def test_hempstead_threshold_steps_cite_the_definition():
    assert "hempstead:390/land-development-activity" in pids(calc(disturbed_acres=1))
    assert "hempstead:390/land-development-activity" in pids(calc(disturbed_acres=0.5, part_of_common_plan=True))
    assert "hempstead:390/land-development-activity" in pids(calc(disturbed_acres=0.5))


def test_hempstead_below_threshold_mentions_other_sites():
    out = calc(disturbed_acres=0.5)
    assert out.reviewed_by is None and out.plan_preparers == [] and out.max_disturbed_at_once_acres is None
    assert "hempstead:applicability(E)" in pids(out)
    assert any("other sites" in c for c in out.caveats)


def test_hempstead_review_route_smo():
    out = calc(disturbed_acres=2)
    assert "Stormwater Management Officer" in out.reviewed_by
    assert out.swppp_submitted_to == "Town of Hempstead Department of Engineering"
    assert {"hempstead:applicability(D)", "hempstead:391(A)"} <= pids(out)


def test_hempstead_review_route_town_board():
    out = calc(disturbed_acres=2, site_plan_review=True)
    assert "Town Board" in out.reviewed_by
    assert {"hempstead:applicability(C)", "hempstead:391(A)"} <= pids(out)
    assert "hempstead:applicability(D)" not in pids(out)


def test_hempstead_preparers_and_one_acre_at_a_time():
    out = calc(disturbed_acres=2)
    assert out.plan_preparers == [
        "New York State licensed landscape architect",
        "certified erosion control specialist",
        "New York State licensed professional engineer",
    ]
    assert out.max_disturbed_at_once_acres == 1.0
    assert {"hempstead:391(C)", "hempstead:391(B)(1)(d)"} <= pids(out)


def test_exactly_five_acres_notes_condition_c_reading():
    out = calc(disturbed_acres=5)
    assert any("exactly five acres" in c for c in out.caveats)


# --- Exemptions, both municipalities -------------------------------------------------------------------

HEMPSTEAD_LETTERS = dict(zip(
    ["agriculture", "silviculture", "routine_maintenance", "smp_repair", "subdivision_plat_approved_before_law",
     "building_permit_approved_before_law", "cemetery_graves", "fence_sign_pole", "emergency", "home_gardening",
     "landscaping_existing_structure"],
    "ABCDEFGHIJK",
))
EXEMPTION_CASES = [
    (muni, key, f"hempstead:exemptions({letter})" if muni == "hempstead" else f"tuckahoe:7B-5({letter.lower()})")
    for muni in ("hempstead", "tuckahoe")
    for key, letter in HEMPSTEAD_LETTERS.items()
]


def exemption_kwargs(key):
    if key in ("subdivision_plat_approved_before_law", "building_permit_approved_before_law"):
        return {key: True}
    return {"activity": key}


@pytest.mark.parametrize(("muni", "key", "pid"), EXEMPTION_CASES)
def test_every_exemption_is_likely_exempt_never_exempt(muni, key, pid):
    out = calc(municipality=muni, disturbed_acres=2, **exemption_kwargs(key))
    assert out.swppp_required == "likely_exempt"
    assert [(e.key, e.provision_id) for e in out.exemptions] == [(key, pid)]
    assert out.exemptions[0].citation.startswith("Hempstead BZO" if muni == "hempstead" else "Tuckahoe Code § 7B-5(")
    assert pid in pids(out)
    assert any("the Stormwater Management Officer decides" in c for c in out.caveats)
    intro = "hempstead:exemptions" if muni == "hempstead" else "tuckahoe:7B-5"
    assert intro in pids(out)


def test_exemption_tables_cover_the_same_keys():
    assert set(EXEMPTIONS["hempstead"]) == set(EXEMPTIONS["tuckahoe"]) == set(HEMPSTEAD_LETTERS)


@pytest.mark.parametrize("muni", ["hempstead", "tuckahoe"])
def test_landing_areas_and_haul_roads_are_subject_to_the_law(muni):
    out = calc(municipality=muni, disturbed_acres=2, activity="silviculture_landing_or_haul_road")
    assert out.exemptions == []
    assert out.swppp_required == ("yes" if muni == "hempstead" else "unknown")
    assert (f"{muni}:exemptions(B)" if muni == "hempstead" else "tuckahoe:7B-5(b)") in pids(out)


@pytest.mark.parametrize("muni", ["hempstead", "tuckahoe"])
@pytest.mark.parametrize("activity, item, words", [
    # widening a ditch to carry more water changes the capacity routine maintenance keeps
    ("capacity_change", {"hempstead": "exemptions(C)", "tuckahoe": "7B-5(c)"}, "hydraulic capacity"),
    # a cemetery's lanes and parking lot are not its graves
    ("cemetery_other_work", {"hempstead": "exemptions(G)", "tuckahoe": "7B-5(g)"}, "cemetery graves only"),
    # a pole barn is a building, not the installation of a post or pole
    ("pole_building", {"hempstead": "exemptions(H)", "tuckahoe": "7B-5(h)"}, "not the installation of a post or pole"),
])
def test_work_beside_an_exempt_activity_is_not_exempt(muni, activity, item, words):
    from codeassist.calculators.applicability import headline
    out = calc(municipality=muni, disturbed_acres=1.5, activity=activity)
    assert out.exemptions == [] and words in (out.not_exempt or "")
    assert f"{muni}:{item[muni]}" in pids(out)
    if muni == "hempstead":
        # "does that fit the exemption?": No, and why, in the first lines
        first = headline(out, NAMES, None, "They call it routine maintenance. Does that fit the exemption?")
        assert first.startswith("No: a SWPPP is still required") and words in first


@pytest.mark.parametrize(("muni", "acres", "expected"), [
    ("hempstead", 4.99, "likely_exempt"),
    ("hempstead", 5.0, "yes"),
    ("hempstead", 12, "yes"),
    ("tuckahoe", 4.99, "likely_exempt"),
    ("tuckahoe", 5.0, "unknown"),
])
def test_routine_maintenance_only_under_five_acres(muni, acres, expected):
    out = calc(municipality=muni, disturbed_acres=acres, activity="routine_maintenance")
    assert out.swppp_required == expected
    assert bool(out.exemptions) is (expected == "likely_exempt")
    assert (f"{muni}:exemptions(C)" if muni == "hempstead" else "tuckahoe:7B-5(c)") in pids(out)


def test_exemption_below_threshold_is_still_no():
    out = calc(disturbed_acres=0.2, activity="cemetery_graves")
    assert out.swppp_required == "no"
    assert [e.key for e in out.exemptions] == ["cemetery_graves"]


def test_two_exemptions_are_both_listed():
    out = calc(disturbed_acres=2, activity="emergency", building_permit_approved_before_law=True)
    assert [e.key for e in out.exemptions] == ["emergency", "building_permit_approved_before_law"]


def test_smp_repair_caveat_and_agriculture_definition():
    assert any("deems necessary" in c for c in calc(activity="smp_repair").caveats)
    assert "hempstead:390/agricultural-activity" in pids(calc(activity="agriculture"))
    assert any("§ 12-1" in c for c in calc(municipality="tuckahoe", activity="agriculture").caveats)


def test_exempt_project_keeps_conditions_for_if_not_granted():
    out = calc(disturbed_acres=3, activity="emergency")
    assert out.conditions == ["C"]
    assert any("if the exemption is not granted" in c for c in out.caveats)


def test_effective_date_caveats():
    assert any("3-21-2006" in c for c in calc(subdivision_plat_approved_before_law=True).caveats)
    assert any("L.L. No. 2-2007" in c for c in calc(municipality="tuckahoe", building_permit_approved_before_law=True).caveats)


# --- Tuckahoe: threshold not in corpus ---------------------------------------------------------------

@pytest.mark.parametrize(("acres", "common_plan", "verdict"), [
    (0.5, False, "would not"),
    (0.5, True, "would"),
    (1.0, False, "would"),
    (10, False, "would"),
])
def test_tuckahoe_threshold_is_unknown_and_assumption_is_labelled(acres, common_plan, verdict):
    out = calc(municipality="tuckahoe", disturbed_acres=acres, part_of_common_plan=common_plan)
    assert out.land_development_activity == "unknown"
    assert out.swppp_required == "unknown"
    assert out.conditions == [] and out.post_construction_controls is None
    assert out.plan_preparers == [] and out.max_disturbed_at_once_acres is None
    assert any("Appendix A, Zoning, § 12-1" in c and "not in this corpus" in c for c in out.caveats)
    assumption = [c for c in out.caveats if c.startswith("ASSUMPTION, not ordinance text")]
    assert len(assumption) == 1 and f"this project {verdict} be" in assumption[0]
    # The assumption is a step that cites nothing, so it cannot pass for ordinance text.
    assert any(s.provision_id is None and s.text.startswith("ASSUMPTION") for s in out.steps)
    assert "tuckahoe:7B-4(a)" in pids(out)
    assert not any(p and p.startswith("hempstead:") for p in pids(out))


def test_tuckahoe_review_routes():
    out = calc(municipality="tuckahoe", disturbed_acres=2)
    assert "Stormwater Management Officer" in out.reviewed_by and "tuckahoe:7B-4(d)" in pids(out)
    out = calc(municipality="tuckahoe", disturbed_acres=2, site_plan_review=True)
    assert "Village" in out.reviewed_by and "tuckahoe:7B-4(c)" in pids(out)
    assert any("7-1.3(f)" in c for c in out.caveats)


def test_tuckahoe_says_conditions_and_preparers_are_not_in_corpus():
    out = calc(municipality="tuckahoe", disturbed_acres=8, discharges_to_impaired_water=True)
    assert out.conditions == []
    assert any("Article XII" in c and "Hempstead's rules are not the Village's" in c for c in out.caveats)


@pytest.mark.parametrize("name", ["Hempstead", " TOWN OF HEMPSTEAD ", "village of tuckahoe"])
def test_municipality_names_are_normalised(name):
    assert calc(municipality=name).municipality in ("hempstead", "tuckahoe")


# --- the first sentence answers the question asked ---------------------------------------------------

NAMES = {"hempstead": "Town of Hempstead", "tuckahoe": "Village of Tuckahoe"}


@pytest.mark.parametrize("acres, house, question, start", [
    (7, False, "do I need the post-construction controls?", "Yes: post-construction stormwater controls apply (Condition B)"),
    (2, True, "do we need the water quantity and quality controls?", "No: post-construction stormwater controls are not required"),
    (6, False, "ditch cleaning over 6 acres - exempt?", "No: a SWPPP is still required"),
    (0.5, False, "does being under an acre get us out of it?", "Yes: the stormwater law's SWPPP requirement does not apply"),
    (3, False, "do I need a SWPPP?", "Yes: a SWPPP is required"),
    # two questions: answered in the order asked
    (1.5, True, "do I need a SWPPP, and does it need the post-construction stuff?", "Yes: a SWPPP is required"),
    (1.5, True, "post-construction controls needed, and a SWPPP?", "No: post-construction stormwater controls are not"),
    (2, True, "does our swppp need the post-construction stuff?", "No: post-construction stormwater controls are not"),
    # "so we can skip them, right?" asks whether they do NOT apply
    (7, False, "so we can skip the post-construction stormwater controls, right?", "No: post-construction stormwater controls still apply (Condition B)"),
    (2, True, "can we skip the post-construction controls for houses?", "Yes: post-construction stormwater controls are not required"),
    # "they can drop them from the plan, right?" asks the same
    (4.5, False, "the developer says it can drop the post-construction controls from the SWPPP. Right?",
     "No: post-construction stormwater controls still apply (Condition C)"),
    # how much may be open at one time, asked of a bigger site
    (4, False, "can we strip the whole 4 acre lot at once?", "Not more than one acre may be disturbed at any one time"),
    (0.8, False, "can we clear all 0.8 acres at once?", "No: the stormwater law's SWPPP requirement does not apply"),
    # below the line, whether the officer may still require one is the officer's discretion (Applicability E)
    (0.5, False, "my 0.5 acre job isn't covered. could the town still make me file a SWPPP?", "Yes, it may: "),
    (0.5, False, "do I need a SWPPP for half an acre?", "No: the stormwater law's SWPPP requirement does not apply"),
])
def test_headline_answers_the_question_asked(acres, house, question, start):
    from codeassist.calculators.applicability import headline
    out = run(ApplicabilityInput(municipality="hempstead", disturbed_acres=acres, single_family_residence=house))
    assert headline(out, NAMES, None, question).startswith(start)


@pytest.mark.parametrize("activity, acres, question, start", [
    ("routine_maintenance", 6, "regrading our basin, 6 acres - exempt?", "No: routine maintenance disturbing 6 acres is not"),
    ("routine_maintenance", 6, "do I need a SWPPP?", "Not exempt: routine maintenance disturbing 6 acres is not"),
    ("silviculture_landing_or_haul_road", 2, "is the haul road exempt?", "No: "),
])
def test_an_activity_outside_its_exemption_is_settled_where_the_laws_reach_is_not(activity, acres, question, start):
    from codeassist.calculators.applicability import headline, undecided
    out = run(ApplicabilityInput(municipality="tuckahoe", disturbed_acres=acres, activity=activity))
    assert out.swppp_required == "unknown" and out.not_exempt and not undecided(out)
    assert headline(out, NAMES, None, question).startswith(start)
    assert "cannot be settled from this corpus" in headline(out, NAMES, None, question)
    # with no activity named, nothing is settled
    assert undecided(run(ApplicabilityInput(municipality="tuckahoe", disturbed_acres=acres)))


def test_why_the_law_s_reach_cannot_be_settled_is_in_the_first_sentence():
    from codeassist.calculators.applicability import headline
    out = run(ApplicabilityInput(municipality="tuckahoe", disturbed_acres=2))
    assert out.swppp_required == "unknown" and "§ 12-1" in (out.unsettled_because or "")
    first = headline(out, NAMES, None, "does 2 acres count?")
    assert first.startswith("It cannot be settled from this corpus: ") and "§ 12-1" in first
    # a settled answer has no such reason
    assert run(ApplicabilityInput(municipality="hempstead", disturbed_acres=2)).unsettled_because is None


def test_the_officers_discretion_below_the_line_is_in_the_rules_words():
    from codeassist.calculators.applicability import headline
    out = run(ApplicabilityInput(municipality="hempstead", disturbed_acres=0.5))
    assert out.officer_may_still_require and "Stormwater Management Officer" in out.officer_may_still_require
    first = headline(out, NAMES, None, "could they still require a SWPPP anyway?")
    assert "Stormwater Management Officer may still" in first and "(Applicability, item E)" in first
    insisting = headline(out, NAMES, None, "the officer is insisting on a SWPPP anyway. Can he do that when we're under an acre?")
    assert insisting.startswith("Yes, it may:") and "Stormwater Management Officer may still" in insisting
    wants = headline(out, NAMES, None, "the stormwater inspector wants a plan from us anyway. Is he allowed to when we're so small?")
    assert wants.startswith("Yes, it may:")
    # "can the officer ... even though": the officer's power asked, conceding the size
    conceding = headline(out, NAMES, None, "Can the SMO bring this lot under the article even though it's half an acre?")
    assert conceding.startswith("Yes, it may:")
    # "can he decide that's necessary?": whether the officer may deem the site necessary (a typo kept)
    deems = headline(out, NAMES, None, "The SMO says my half-acre repaving needs review. It's under an acre; can he decide that's neccessary?")
    assert deems.startswith("Yes, it may:")
    assert headline(out, NAMES, None, "Half an acre. Do I need a SWPPP?").startswith("No:")
    assert run(ApplicabilityInput(municipality="hempstead", disturbed_acres=2)).officer_may_still_require is None


# --- an area given as a bound ("well under an acre") -------------------------------------------------

@pytest.mark.parametrize(("kw", "lda", "swppp"), [
    (dict(disturbed_acres=1, disturbed_under=True), "no", "no"),           # under the one-acre line
    (dict(disturbed_sq_ft=20_000, disturbed_under=True), "no", "no"),
    (dict(disturbed_acres=3, disturbed_under=True), "unknown", "unknown"),  # may or may not reach it
    (dict(disturbed_acres=1, disturbed_under=True, part_of_common_plan=True), "yes", "yes"),
    # routine maintenance under five acres may be exempt, whatever the law's reach
    (dict(disturbed_acres=3, disturbed_under=True, activity="routine_maintenance"), "unknown", "likely_exempt"),
])
def test_an_area_bound_settles_only_what_it_settles(kw, lda, swppp):
    out = calc(**kw)
    assert (out.land_development_activity, out.swppp_required) == (lda, swppp)
    assert out.disturbed_under and "less than" in out.steps[1].text
    assert not out.conditions  # no condition is met by an area that may be smaller


def test_an_area_bound_is_said_as_a_bound():
    from codeassist.calculators.applicability import headline, read_slots
    data, follow = read_slots({"area": 1.0, "area_unit": "acres", "area_under": True}, "well under an acre, SWPPP?",
                              "hempstead")
    assert follow is None and data["disturbed_under"] is True
    first = headline(run(ApplicabilityInput(**data)), NAMES, data, "well under an acre, SWPPP?")
    assert first.startswith("No: the stormwater law's SWPPP requirement does not apply (Town of Hempstead, less than 1 "
                            "acre disturbed)")
    # a bound above the law's line settles nothing: the area is asked for
    data, follow = read_slots({"area": 3.0, "area_unit": "acres", "area_under": True}, "less than 3 acres, SWPPP?",
                              "hempstead")
    assert data is None and "less than 3 acres" in follow and "How much land" in follow
    # a new area given in a follow-up is no bound
    data, _ = read_slots({"area": 2.0, "area_unit": "acres"}, "and 2 acres?", "hempstead", prior=data or
                         {"municipality": "hempstead", "disturbed_acres": 1.0, "disturbed_under": True})
    assert "disturbed_under" not in data


def test_out_of_reach_and_exempt_listed_are_both_said():
    from codeassist.calculators.applicability import headline
    out = calc(disturbed_acres=1, disturbed_under=True, activity="routine_maintenance")
    assert out.swppp_required == "no" and out.exemptions
    assert headline(out, NAMES, None, "regrading the ditch, well under an acre: review?").endswith(
        "and the activity is also one the law says \u201cmay be exempt\u201d from review.")
