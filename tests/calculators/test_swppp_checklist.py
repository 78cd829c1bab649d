"""SWPPP contents: Hempstead's lists verbatim, the post-construction list when a condition applies, Tuckahoe not in corpus."""

from __future__ import annotations

import pytest

from codeassist.calculators.applicability import ApplicabilityInput
from codeassist.calculators.swppp_checklist import run

from .tables import CHECKLISTS

from .conftest import assert_grounded


def calc(**kw):
    out = run(ApplicabilityInput(**kw))
    assert_grounded(out)
    return out


def groups(out):
    return [i.group for i in out.items]


def test_base_list_is_a_to_p():
    labels = [r.pid for r in CHECKLISTS["hempstead"]["base"]]
    assert labels == [f"hempstead:391(B)(1)({c})" for c in "abcdefghijklmnop"]
    assert [r.pid for r in CHECKLISTS["hempstead"]["post_construction"]] == [f"hempstead:391(B)(3)({c})" for c in "abcdefghi"]


@pytest.mark.parametrize(("kw", "post"), [
    (dict(disturbed_acres=3), 9),
    (dict(disturbed_acres=6), 9),
    (dict(disturbed_acres=0.5, part_of_common_plan=True, discharges_to_impaired_water=True), 9),
    (dict(disturbed_acres=3, single_family_residence=True), 0),
    (dict(disturbed_acres=0.5, part_of_common_plan=True), 0),
])
def test_hempstead_checklist(kw, post):
    out = calc(municipality="hempstead", **kw)
    assert out.status == "computed"
    assert groups(out).count("base") == 16
    assert groups(out).count("post_construction") == post
    assert groups(out).count("certification") == 4
    assert out.post_construction_controls is (post > 0)


def test_not_required_below_threshold():
    out = calc(municipality="hempstead", disturbed_acres=0.5)
    assert out.status == "not_required" and out.items == []


def test_likely_exempt_keeps_the_list_with_a_caveat():
    out = calc(municipality="hempstead", disturbed_acres=2, activity="emergency")
    assert out.swppp_required == "likely_exempt" and out.items
    assert any("does not grant the exemption" in c for c in out.caveats)


@pytest.mark.parametrize("acres", [0.5, 2, 10])
def test_tuckahoe_contents_are_not_in_corpus(acres):
    out = calc(municipality="tuckahoe", disturbed_acres=acres)
    assert out.status == "not_in_corpus" and out.items == []
    assert any("Appendix A, Zoning, Article XII" in c and "not in this corpus" in c for c in out.caveats)
    assert "not in this corpus" in out.to_markdown()


def test_markdown_export():
    md = calc(municipality="hempstead", disturbed_acres=6).to_markdown()
    assert md.startswith("# SWPPP checklist: Hempstead")
    assert md.count("- [ ] ") == 16 + 9 + 4
    assert "(Hempstead BZO § 391(B)(1)(m))" in md
    assert "## Post-construction stormwater controls" in md


@pytest.mark.parametrize("question, opening", [
    ("Do we need drainage calcs, an actual hydrologic and hydraulic analysis, in the SWPPP for a 6-acre site?",
     "Hydrologic and hydraulic analysis"),
    ("what goes in the swppp for 6 acres?", None),        # no item named: the list as it comes
    ("does it need a site map for 6 acres?", None),       # two items open with "site map": neither is the one
    # "state's" is no "statement" (the key words are Porter stems, not 5-letter prefixes)
    ("6 acres: is a storm sewer part of the state's waters?", None),
    # an item the story names is no item asked for when the list is asked for
    ("A 6-acre school whose receiving water is not impaired. Which SWPPP items apply?", None),
])
def test_an_item_the_question_names_is_answered_first(question, opening):
    from codeassist.calculators.swppp_checklist import headline, items_first, named_item
    out = run(ApplicabilityInput(municipality="hempstead", disturbed_acres=6))
    item = named_item(out, question)
    lead = headline(out, {"hempstead": "Town of Hempstead"}, None, question)
    if opening is None:
        assert item is None and not lead.startswith("Yes")
        assert items_first(out, question) == out.items
    else:
        assert item is not None and item.text.startswith(opening)
        assert items_first(out, question)[0] is item
        assert lead.startswith("Yes: your SWPPP (Town of Hempstead) must include the hydrologic and hydraulic analysis")


def test_a_named_item_every_plan_holds_is_not_said_to_follow_from_the_conditions():
    from codeassist.calculators.swppp_checklist import headline, named_item
    out = run(ApplicabilityInput(municipality="hempstead", disturbed_acres=6))
    question = "for 6 acres, do we need the temporary practices that will be converted to permanent control measures?"
    item = named_item(out, question)
    assert item is not None and item.group == "base"
    lead = headline(out, {"hempstead": "Town of Hempstead"}, None, question)
    assert lead.startswith("Yes: your SWPPP (Town of Hempstead) must include the temporary practices") and "because" not in lead
    # a post-construction item does follow from them
    post = "for 6 acres, do we need a hydrologic and hydraulic analysis for all structural components?"
    assert "because the project meets Condition" in headline(out, {"hempstead": "Town of Hempstead"}, None, post)


def test_the_list_names_the_subsections_its_items_come_from():
    from codeassist.calculators.swppp_checklist import headline
    names = {"hempstead": "Town of Hempstead"}
    big = headline(run(ApplicabilityInput(municipality="hempstead", disturbed_acres=6)), names, None, "which SWPPP parts apply?")
    assert "those of \u00a7 391(B)(1)" in big and "post-construction stormwater controls of \u00a7 391(B)(3)" in big
    house = run(ApplicabilityInput(municipality="hempstead", disturbed_acres=1.2, single_family_residence=True))
    small = headline(house, names, None, "what goes in the SWPPP?")
    assert "(those of \u00a7 391(B)(1))" in small and "391(B)(3)" not in small
