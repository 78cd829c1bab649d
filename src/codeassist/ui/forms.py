"""Form fields read off a pydantic input model: each field's type picks the widget, its description
becomes the help text, its default the starting value. Validation stays with the model; the form
only collects raw values (so a bad value reaches pydantic and comes back as its plain message)."""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any, Literal, Union

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

Kind = Literal["choice", "bool", "int", "float", "date", "datetime", "time", "text", "list", "table", "json"]

# date_input's own range is ten years either way; the laws here reach back to 1933.
MIN_DATE, MAX_DATE = date(1900, 1, 1), date(2199, 12, 31)


@dataclass(frozen=True)
class FieldSpec:
    name: str
    label: str
    help: str | None
    kind: Kind
    required: bool
    optional: bool  # None is an accepted value
    default: Any
    options: tuple = ()
    item_kind: Kind | None = None  # for "list": the kind of each item
    item_model: type[BaseModel] | None = None  # for "table": one row's model


def _strip(tp: Any) -> tuple[Any, bool]:
    """Drop Annotated wrappers and a `| None`; report whether None was allowed."""
    optional = False
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            optional = optional or len(args) < len(typing.get_args(tp))
            if len(args) != 1:
                return tp, optional
            tp = args[0]
        else:
            return tp, optional


def _kind(tp: Any) -> tuple[Kind, tuple]:
    if typing.get_origin(tp) is Literal:
        return "choice", typing.get_args(tp)
    for py, kind in ((bool, "bool"), (int, "int"), (float, "float"), (datetime, "datetime"), (date, "date"),
                     (time, "time"), (str, "text")):
        if tp is py:
            return kind, ()  # type: ignore[return-value]
    return "json", ()


def field_specs(model: type[BaseModel]) -> list[FieldSpec]:
    specs = []
    for name, info in model.model_fields.items():
        tp, optional = _strip(info.annotation)
        default = None if info.default is PydanticUndefined else info.default
        if info.default_factory is not None:
            default = info.default_factory()
        required = info.is_required()
        label = (info.title or name.replace("_", " ")).capitalize()
        kind, options = _kind(tp)
        # Choices known only at run time (the corpus's municipalities) come from the field's metadata.
        dynamic = next((m for m in info.metadata if callable(getattr(m, "choices", None))), None)
        if dynamic is not None:
            kind, options = "choice", tuple(dynamic.choices())
        item_kind = item_model = None
        if typing.get_origin(tp) is list:
            (inner,) = typing.get_args(tp) or (str,)
            inner, _ = _strip(inner)
            if isinstance(inner, type) and issubclass(inner, BaseModel):
                kind, item_model = "table", inner
            else:
                kind, item_kind = "list", _kind(inner)[0]
        specs.append(FieldSpec(name, label, info.description, kind, required, optional, default, options,
                               item_kind, item_model))
    return specs


def split_list(text: str) -> list[str]:
    """'2021-03-01, 2023-07-15' or one per line -> ['2021-03-01', '2023-07-15']."""
    return [x.strip() for x in text.replace("\n", ",").replace(";", ",").split(",") if x.strip()]


def collect(specs: list[FieldSpec], raw: dict[str, Any]) -> dict[str, Any]:
    """The dict handed to the model: empty optional values become None, empty required ones are left
    out (so the model says which are missing), lists are split, times joined to dates."""
    data: dict[str, Any] = {}
    for spec in specs:
        value = raw.get(spec.name)
        if spec.kind == "list" and isinstance(value, str):
            value = split_list(value)
        if isinstance(value, str) and not value.strip() and spec.kind != "text":
            value = None
        if value is None or (spec.kind == "text" and isinstance(value, str) and not value.strip() and not spec.required):
            if spec.optional:
                data[spec.name] = None
            continue
        data[spec.name] = value
    return data


def row_dicts(rows: Any, model: type[BaseModel]) -> list[dict]:
    """Rows from a data editor -> plain dicts, blank rows dropped, blank cells left out."""
    records = rows.to_dict("records") if hasattr(rows, "to_dict") else list(rows or [])
    out = []
    for r in records:
        clean = {}
        for k, v in r.items():
            if k not in model.model_fields or v is None or (isinstance(v, float) and v != v) or v == "":
                continue
            if hasattr(v, "to_pydatetime"):
                v = v.to_pydatetime()
            clean[k] = v
        if clean:
            out.append(clean)
    return out
