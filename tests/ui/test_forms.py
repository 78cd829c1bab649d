"""Form fields read off the calculators' input models, and raw widget values collected for pydantic."""

from __future__ import annotations

from datetime import date

import pytest
from pydantic import ValidationError

from codeassist.calculators import CALCULATORS
from codeassist.ui.calculators import error_markdown
from codeassist.ui.forms import collect, field_specs, split_list


def specs(name):
    return {s.name: s for s in field_specs(CALCULATORS[name].input_model)}


def test_kinds_follow_the_types():
    s = specs("applicability")
    assert s["municipality"].kind == "choice" and s["municipality"].required
    assert s["disturbed_acres"].kind == "float" and s["disturbed_acres"].optional
    assert s["part_of_common_plan"].kind == "bool"
    assert s["activity"].default == "construction"
    d = specs("deadlines")
    assert d["storm_events"].kind == "table" and d["storm_events"].item_model is not None
    assert d["wiring_concealment_notice"].kind == "datetime"
    p = specs("penalty")
    assert p["prior_conviction_dates"].kind == "list" and p["prior_conviction_dates"].item_kind == "date"


def test_collect_drops_empty_required_and_keeps_empty_optional_as_none():
    s = list(field_specs(CALCULATORS["applicability"].input_model))
    data = collect(s, {"municipality": None, "disturbed_acres": None, "disturbed_sq_ft": 20000.0})
    assert "municipality" not in data and data["disturbed_acres"] is None and data["disturbed_sq_ft"] == 20000.0


def test_collect_splits_lists():
    s = list(field_specs(CALCULATORS["penalty"].input_model))
    data = collect(s, {"municipality": "hempstead", "chapter": "stormwater", "offense_date": date(2024, 5, 1),
                       "prior_conviction_dates": "2021-03-01; 2022-01-02"})
    inp = CALCULATORS["penalty"].input_model.model_validate(data)
    assert inp.prior_conviction_dates == [date(2021, 3, 1), date(2022, 1, 2)]
    assert split_list("") == []


def test_validation_errors_use_the_form_labels():
    from codeassist.calculators import format_validation_error

    model = CALCULATORS["applicability"].input_model
    s = field_specs(model)
    with pytest.raises(ValidationError) as exc:
        model.model_validate({"municipality": "hempstead", "disturbed_acres": -1})
    md = error_markdown(format_validation_error(exc.value, model), s)
    assert md.startswith("Please check these values:")
    assert "- Disturbed acres\\: the area in acres cannot be negative" in md
