"""Electrical permits under Tuckahoe Code § 7-5: each exemption, who may apply, the inspection steps."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from codeassist.calculators.electrical_permit import ElectricalPermitInput, run

from .tables import MINOR_REPAIRS

from .conftest import assert_grounded


def calc(**kw):
    out = run(ElectricalPermitInput(**kw))
    assert_grounded(out)
    return out


@pytest.mark.parametrize("key", list(MINOR_REPAIRS))
@pytest.mark.parametrize("by", ["registered_contractor", "homeowner", "other"])
def test_listed_minor_repairs_need_no_permit(key, by):
    out = calc(work=key, performed_by=by)
    assert out.permit_required is False
    assert out.exemption.key == f"minor_repair:{key}"
    assert out.exemption.provision_id == "tuckahoe:7-5(a)(1)"
    assert out.exemption.citation == "Tuckahoe Code § 7-5(a)(1)"
    assert out.inspection_steps == []


@pytest.mark.parametrize("printed", [r.quote for r in MINOR_REPAIRS.values()] + ["Replacing Fuses", "taping bare joints."])
def test_minor_repairs_as_printed(printed):
    assert calc(work=printed, performed_by="homeowner").permit_required is False


@pytest.mark.parametrize(("by", "key", "pid"), [
    ("utility", "public_utility", "tuckahoe:7-5(a)(3)"),
    ("in_house_journeyman", "in_house_journeyman", "tuckahoe:7-5(a)(2)"),
])
def test_utility_and_in_house_journeyman(by, key, pid):
    out = calc(work="new 200 A service", performed_by=by)
    assert out.permit_required is False
    assert (out.exemption.key, out.exemption.provision_id) == (key, pid)


def test_contractor_needs_permit_and_the_steps_follow():
    out = calc(work="add a circuit for a kitchen", performed_by="registered_contractor")
    assert out.permit_required is True and out.exemption is None
    assert out.applicant_must_be_registered is True
    assert "registered electrical contractor" in out.who_may_apply and "in writing" in out.who_may_apply
    step_pids = {s.provision_id for s in out.steps}
    assert {"tuckahoe:7-5(a)", "tuckahoe:7-5(b)", "tuckahoe:7-5(c)", "tuckahoe:7-11(c)", "tuckahoe:7-4"} <= step_pids
    assert [s.provision_id for s in out.inspection_steps] == [
        "tuckahoe:7-8(b)", "tuckahoe:7-8(a)", "tuckahoe:7-8(a)", "tuckahoe:7-8(a)", "tuckahoe:7-9(a)",
    ]
    assert any("such as" in c for c in out.caveats)


@pytest.mark.parametrize("by", ["homeowner", "other"])
def test_unregistered_person_must_hire_a_registered_contractor(by):
    out = calc(work="finish the basement wiring", performed_by=by)
    assert out.permit_required is True
    assert any("must hire one" in c for c in out.caveats)


def test_free_text_is_not_guessed_into_an_exemption():
    # Mentions fuses but is not "replacing fuses".
    out = calc(work="replace the fuse box with a breaker panel", performed_by="registered_contractor")
    assert out.permit_required is True
    assert any("was not matched" in c for c in out.caveats)


def test_hempstead_has_no_electrical_code():
    out = calc(municipality="hempstead", work="replacing fuses", performed_by="homeowner")
    assert out.status == "not_in_corpus" and out.permit_required is None
    assert any("No electrical code for Hempstead" in c for c in out.caveats)


@pytest.mark.parametrize(("kw", "message"), [
    (dict(work="   ", performed_by="homeowner"), "describe the work"),
    (dict(work="x" * 2001, performed_by="homeowner"), "too long"),
    (dict(work="fuses", performed_by="wizard"), "registered_contractor"),
    (dict(work="fuses"), "Field required"),
])
def test_invalid_input(kw, message):
    with pytest.raises(ValidationError) as exc:
        ElectricalPermitInput(**kw)
    assert message in str(exc.value)


@pytest.mark.parametrize("question,first", [
    ("I'm handy. Can I pull an electrical permit myself to finish wiring my basement?", "No. Only a registered"),
    ("homeowner rewiring a basement, do I need a permit?", "No. Only a registered"),
    ("adding 3 new circuits in my basement, permit needed?", "Yes, a permit"),
    ("3 new circuits in my house. permit needed? can I do it myself?", "Yes, a permit from the Building Inspector is required"),
    ("a new circuit in the garage. do I need a permit, and can I pull it myself?", "Yes, a permit from the Building"),
    # who the asker is, told before the question, is not what is asked first
    ("Tuckahoe homeowner here: I want a new circuit for an EV charger. Do I need a permit, and can I pull it and do "
     "it myself?", "Yes, a permit from the Building"),
    # a permit named in the statement is not a permit asked about
    ("I'm pretty handy and want to pull my own permit to wire the basement. Can I get one myself?", "No. Only a registered"),
])
def test_headline_answers_whether_the_asker_may_take_out_the_permit(question, first):
    from codeassist.calculators.electrical_permit import headline

    data = {"work": question, "performed_by": "other"}
    out = calc(**data)
    line = headline(out, {}, data, question)
    assert line.startswith(first)
    asks_self = "myself" in question or "homeowner" in question
    assert ("Only a registered" in line) == asks_self
    # A registered contractor asking whether they can pull it gets the plain answer.
    assert headline(calc(work=question, performed_by="registered_contractor"), {},
                    {"performed_by": "registered_contractor"}, question).startswith("Yes, a permit")


@pytest.mark.parametrize("question,first", [
    # The electrician does the work, but the asker asks whether they may take out the permit themselves.
    ("Can I as the homeowner pull the electrical permit and then have my electrician do the work?", "No. Only a registered"),
    ("We're registered electrical contractors. Can we pull the permit for our electrician's job?", "Yes, a permit"),
    ("My electrician is adding a circuit. Does he need a permit?", "Yes, a permit"),
])
def test_the_asker_taking_out_the_permit_for_someone_elses_work(question, first):
    from codeassist.calculators.electrical_permit import headline

    data = {"work": question, "performed_by": "registered_contractor"}
    assert headline(calc(**data), {}, data, question).startswith(first)
