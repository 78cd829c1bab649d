"""Calculators: forms read off the input models; valid input gives a cited result, invalid input a
plain message naming the field."""

from __future__ import annotations

from apphelpers import all_markdown, new_app

PAGE = "src/codeassist/ui/pages/calculators.py"


def calculators(name: str | None = None):
    at = new_app().run()
    at.switch_page(PAGE).run()
    if name:
        at.radio(key="calc-choice").set_value(name).run()
    return at


def field(at, calc: str, name: str):
    key = f"calc:{calc}:{name}"
    for kind in ("selectbox", "number_input", "checkbox", "text_input", "date_input"):
        found = [w for w in getattr(at, kind) if w.key == key]
        if found:
            return found[0]
    raise AssertionError(f"no widget {key}")


def submit(at):
    at.button(key="FormSubmitter:form-{}-Calculate".format(at.radio(key="calc-choice").value)).click().run()
    return at


def test_every_calculator_has_a_form():
    at = calculators()
    assert not at.exception
    from codeassist.calculators import CALCULATORS

    for name in CALCULATORS:
        at.radio(key="calc-choice").set_value(name).run()
        assert not at.exception
        assert any(b.label == "Calculate" for b in at.button)


def test_applicability_valid_input_gives_a_cited_result():
    at = calculators("applicability")
    field(at, "applicability", "municipality").set_value("hempstead")
    field(at, "applicability", "disturbed_acres").set_value(2.0)
    submit(at)
    assert not at.exception and not at.error
    assert at.subheader[0].value == "Result"
    text = all_markdown(at)
    assert "**SWPPP required:** yes" in text
    assert "](?cite=hempstead%3A" in text  # steps cite provisions with links
    assert {d.label for d in at.get("download_button")} >= {"Download as JSON"}


def test_applicability_invalid_input_is_explained():
    at = calculators("applicability")
    field(at, "applicability", "municipality").set_value("hempstead")
    field(at, "applicability", "disturbed_acres").set_value(-1.0)
    submit(at)
    assert not at.exception
    assert "Disturbed acres: the area in acres cannot be negative" in at.error[0].value.replace("\\", "")
    field(at, "applicability", "disturbed_acres").set_value(None)
    submit(at)
    assert "give the disturbed area" in at.error[0].value.replace("\\", "")


def test_missing_required_choice_is_named():
    at = calculators("applicability")
    field(at, "applicability", "disturbed_acres").set_value(2.0)
    submit(at)
    assert "Municipality: is required" in at.error[0].value.replace("\\", "")


def test_swppp_checklist_downloads_markdown():
    at = calculators("swppp_checklist")
    field(at, "swppp_checklist", "municipality").set_value("hempstead")
    field(at, "swppp_checklist", "disturbed_acres").set_value(3.0)
    submit(at)
    assert not at.error
    assert "Download as Markdown" in {d.label for d in at.get("download_button")}


def test_penalty_with_a_prior_conviction():
    at = calculators("penalty")
    field(at, "penalty", "municipality").set_value("hempstead")
    field(at, "penalty", "chapter").set_value("stormwater")
    from datetime import date

    field(at, "penalty", "offense_date").set_value(date(2024, 5, 1))
    field(at, "penalty", "prior_conviction_dates").input("2021-03-01")
    submit(at)
    assert not at.error, at.error[0].value
    assert "**Tier:** 2" in all_markdown(at)


def test_penalty_bad_date_list_is_explained():
    at = calculators("penalty")
    field(at, "penalty", "municipality").set_value("hempstead")
    field(at, "penalty", "chapter").set_value("stormwater")
    field(at, "penalty", "prior_conviction_dates").input("last spring")
    submit(at)
    assert "Prior conviction dates > item 1: is not a valid date" in at.error[0].value.replace("\\", "")


def test_electrical_permit_and_deadlines_calendar():
    at = calculators("electrical_permit")
    field(at, "electrical_permit", "work").input("repairing flush or snap switches")
    field(at, "electrical_permit", "performed_by").set_value("homeowner")
    submit(at)
    assert not at.error, at.error[0].value
    assert "**Permit required:** no" in all_markdown(at)

    at.radio(key="calc-choice").set_value("deadlines").run()
    field(at, "deadlines", "municipality").set_value("hempstead")
    from datetime import date

    field(at, "deadlines", "construction_start").set_value(date(2025, 4, 7))
    submit(at)
    assert not at.error, at.error[0].value
    assert "Add to calendar (.ics)" in {d.label for d in at.get("download_button")}
