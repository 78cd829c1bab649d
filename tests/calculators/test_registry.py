"""The registry, the langchain tools, and plain-words validation messages."""

from __future__ import annotations

import json

import pytest
from langchain_core.tools import StructuredTool
from pydantic import ValidationError

from codeassist.calculators import CALCULATORS, UnknownCalculator, as_tools, format_validation_error, get, run_calculator

EXAMPLES = {
    "applicability": {"municipality": "hempstead", "disturbed_acres": 2},
    "penalty": {"municipality": "tuckahoe", "chapter": "stormwater", "offense_date": "2024-03-01"},
    "deadlines": {"municipality": "hempstead", "violation_notice_served": "2024-06-03"},
    "electrical_permit": {"work": "replacing fuses", "performed_by": "homeowner"},
    "swppp_checklist": {"municipality": "hempstead", "disturbed_sq_ft": 50000},
}


def test_registry_names_and_models():
    assert list(CALCULATORS) == ["applicability", "penalty", "deadlines", "electrical_permit", "swppp_checklist"]
    for name, calc in CALCULATORS.items():
        assert calc.name == name and calc.description
        assert calc.input_model.model_config.get("extra") == "forbid"
        out = calc.run(calc.input_model.model_validate(EXAMPLES[name]))
        assert isinstance(out, calc.output_model)
        json.loads(out.model_dump_json())


def test_unknown_calculator_names_the_known_ones():
    with pytest.raises(UnknownCalculator) as exc:
        get("penalties")
    assert "known: applicability, penalty" in str(exc.value)


def test_tools():
    tools = as_tools()
    assert [t.name for t in tools] == list(CALCULATORS)
    for tool in tools:
        assert isinstance(tool, StructuredTool)
        assert tool.args_schema is CALCULATORS[tool.name].input_model
        result = tool.invoke(EXAMPLES[tool.name])
        assert isinstance(result, dict) and "steps" in result


def test_tool_reports_invalid_input_in_plain_words():
    tool = as_tools()[0]
    msg = tool.invoke({"municipality": "hempsted", "disturbed_acres": -1})
    assert isinstance(msg, str)
    assert "unknown municipality 'hempsted'; known: hempstead, tuckahoe" in msg
    assert "cannot be negative" in msg


def test_tool_schema_lists_the_choices():
    schema = CALCULATORS["applicability"].input_model.model_json_schema()
    assert schema["properties"]["municipality"]["enum"] == ["hempstead", "tuckahoe"]
    assert "silviculture_landing_or_haul_road" in schema["properties"]["activity"]["enum"]


INVALID = [
    ("applicability", {"municipality": "hempsted", "disturbed_acres": 1}, "municipality: unknown municipality 'hempsted'; known: hempstead, tuckahoe"),
    ("applicability", {"municipality": "hempstead", "disturbed_acres": -1}, "disturbed_acres: the area in acres cannot be negative"),
    ("applicability", {"municipality": "hempstead", "disturbed_acres": float("nan")}, "not a number (NaN)"),
    ("applicability", {"municipality": "hempstead", "disturbed_acres": float("inf")}, "finite number, not infinity"),
    ("applicability", {"municipality": "hempstead", "disturbed_sq_ft": float("-inf")}, "finite number"),
    ("applicability", {"municipality": "hempstead", "disturbed_acres": 100_001}, "more land than a whole town"),
    ("applicability", {"municipality": "hempstead", "disturbed_sq_ft": 5e9}, "more land than a whole town"),
    ("applicability", {"municipality": "hempstead"}, "give the disturbed area"),
    ("applicability", {"municipality": "hempstead", "disturbed_acres": 1, "disturbed_sq_ft": 43560}, "not both"),
    ("applicability", {"municipality": "hempstead", "disturbed_acres": "lots"}, "disturbed_acres: must be a number"),
    ("applicability", {"municipality": "hempstead", "disturbed_acres": True}, "must be a number, not true"),
    ("applicability", {"municipality": "hempstead", "disturbed_acres": 1, "activity": "mining"}, "activity: must be one of 'construction'"),
    ("applicability", {"municipality": "hempstead", "disturbed_acres": 1, "acres": 1}, "acres: is not a field this calculator knows; known fields: municipality"),
    ("applicability", {"municipality": "hempstead", "disturbed_acres": 1, "part_of_common_plan": "maybe"}, "must be true or false"),
    ("penalty", {"municipality": "hempstead", "chapter": "stormwater"}, "offense_date: is required"),
    ("penalty", {"municipality": "hempstead", "chapter": "stormwater", "offense_date": "03/01/2024"}, "offense_date: is not a valid date"),
    ("penalty", {"municipality": "hempstead", "chapter": "stormwater", "offense_date": "2024-03-01", "continuing_days": -2}, "continuing_days: continuing_days cannot be negative"),
    ("penalty", {"municipality": "hempstead", "chapter": "stormwater", "offense_date": "2024-03-01", "continuing_days": 1.5}, "continuing_days: must be a number"),
    ("penalty", {"municipality": "hempstead", "chapter": "stormwater", "offense_date": "2024-03-01", "prior_conviction_dates": ["2024-01-01", "nope"]}, "prior_conviction_dates > item 2: is not a valid date"),
    ("deadlines", {"municipality": "tuckahoe", "storm_events": [{"date": "2024-01-01"}]}, "storm_events > item 1 > inches: is required"),
    ("deadlines", {"municipality": "tuckahoe", "milestones": [{"name": "party", "date": "2024-01-01"}]}, "unknown milestone 'party'; Tuckahoe lists"),
    ("electrical_permit", {"work": "x", "performed_by": "me"}, "performed_by: must be one of 'registered_contractor'"),
]


@pytest.mark.parametrize(("name", "data", "expected"), INVALID)
def test_every_invalid_input_gets_a_clear_message(name, data, expected):
    with pytest.raises(ValidationError) as exc:
        run_calculator(name, data)
    msg = format_validation_error(exc.value, get(name).input_model)
    assert expected in msg
    assert msg.startswith("invalid input for ")
    assert "Value error," not in msg and "pydantic.dev" not in msg
