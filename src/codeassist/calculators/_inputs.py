"""Input types shared by the calculators, with validation messages a user can act on."""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, GetJsonSchemaHandler

from codeassist.calculators import _refs

SQ_FT_PER_ACRE = 43_560.0

# The largest disturbed area accepted. The bigger municipality here, the Town of Hempstead, has about
# 120 square miles of land (~76,800 acres); 100,000 acres (~156 sq mi) is more land than it has, so a
# larger figure is a typo or a unit mistake, not a project.
MAX_ACRES = 100_000.0
MAX_SQ_FT = MAX_ACRES * SQ_FT_PER_ACRE

# Dates outside this range are almost surely typos; the laws here date from 1933 to 2007.
MIN_DATE = date(1900, 1, 1)
MAX_DATE = date(2199, 12, 31)


def _municipality(value: object) -> object:
    # The known municipalities are the corpus's (its municipality.toml files), not a list in code.
    if isinstance(value, str):
        found = _refs.resolve_municipality(value)
        if found:
            return found
    raise ValueError(f"unknown municipality {value!r}; known: {', '.join(_refs.known_municipalities())}")


class _KnownMunicipalities:
    """The corpus's municipalities as the field's choices, read when asked: by the JSON schema (tools) and
    by forms (``choices()``), so a municipality added as data shows up without code."""

    def choices(self) -> list[str]:
        return _refs.known_municipalities()

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        schema = handler(core_schema)
        schema["enum"] = _refs.known_municipalities()
        return schema


MunicipalityId = Annotated[str, BeforeValidator(_municipality), _KnownMunicipalities()]


def check_area(value: float, unit: str, maximum: float) -> float:
    if math.isnan(value):
        raise ValueError(f"the area in {unit} is not a number (NaN); give a number such as 1.5")
    if math.isinf(value):
        raise ValueError(f"the area in {unit} must be a finite number, not infinity")
    if value < 0:
        raise ValueError(f"the area in {unit} cannot be negative (got {value:g})")
    if value > maximum:
        raise ValueError(
            f"that many {unit} is more land than a whole town (the limit is {maximum:,.0f} {unit}, "
            f"about {MAX_ACRES / 640:,.0f} square miles); check the figure and the unit"
        )
    return value


def not_bool(value: object) -> object:
    """Refuse true/false where a number is meant (pydantic would read true as 1)."""
    if isinstance(value, bool):
        raise ValueError(f"must be a number, not {str(value).lower()}")
    return value


def _acres(v: float) -> float:
    return check_area(v, "acres", MAX_ACRES)


def _sq_ft(v: float) -> float:
    return check_area(v, "square feet", MAX_SQ_FT)


Acres = Annotated[float, BeforeValidator(not_bool), AfterValidator(_acres)]
SquareFeet = Annotated[float, BeforeValidator(not_bool), AfterValidator(_sq_ft)]


def _check_date(value: date) -> date:
    d = value.date() if isinstance(value, datetime) else value
    if not (MIN_DATE <= d <= MAX_DATE):
        raise ValueError(f"date {d.isoformat()} is out of range; use a date between {MIN_DATE} and {MAX_DATE}")
    return value


CalDate = Annotated[date, AfterValidator(_check_date)]
CalDateTime = Annotated[datetime, AfterValidator(_check_date)]


def to_acres(acres: float | None, sq_ft: float | None) -> float:
    """The disturbed area in acres, from whichever unit was given (exactly one must be)."""
    if acres is not None and sq_ft is not None:
        raise ValueError("give the disturbed area once: either disturbed_acres or disturbed_sq_ft, not both")
    if acres is None and sq_ft is None:
        raise ValueError("give the disturbed area: disturbed_acres (acres) or disturbed_sq_ft (square feet)")
    return acres if acres is not None else sq_ft / SQ_FT_PER_ACRE  # type: ignore[operator]
