"""The Calculators page: a form per calculator, read off its input model; the result with its cited
steps; downloads (checklist Markdown, deadlines .ics, raw JSON)."""

from __future__ import annotations

import json
from datetime import date, datetime, time
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import BaseModel, ValidationError

from .forms import MAX_DATE, MIN_DATE, FieldSpec, collect, field_specs, row_dicts
from .layout import disclaimer_line
from .resources import chosen_municipality, get_calculators, get_corpus
from .results import calculator_title, humanize, render_result
from .text import escape_md

RESULT_KEY = "calc-result-{}"


def _option_label(value: Any) -> str:
    corpus = get_corpus()
    if isinstance(value, str) and value in corpus.municipalities:
        return corpus.municipalities[value].short_name
    return humanize(str(value)) if value is not None else "\u2014"


def _widget(spec: FieldSpec, key: str) -> Any:
    help_ = spec.help
    label = spec.label + (" (optional)" if spec.optional and spec.default is None else "")
    if spec.kind == "choice":
        options = list(spec.options)
        default = spec.default
        if default is None and spec.name == "municipality" and chosen_municipality() in options:
            default = chosen_municipality()
        index = options.index(default) if default in options else None
        return st.selectbox(label, options, index=index, format_func=_option_label, key=key, help=help_,
                            placeholder="Choose\u2026")
    if spec.kind == "bool":
        return st.checkbox(label, value=bool(spec.default), key=key, help=help_)
    if spec.kind in ("int", "float"):
        is_int = spec.kind == "int"
        default = spec.default if spec.default is not None else None
        return st.number_input(label, value=default, step=1 if is_int else 0.01, key=key, help=help_,
                               format="%d" if is_int else "%.2f")
    if spec.kind == "date":
        default = spec.default if spec.default is not None else (date.today() if spec.required else None)
        return st.date_input(label, value=default, min_value=MIN_DATE, max_value=MAX_DATE, key=key, help=help_,
                             format="YYYY-MM-DD")
    if spec.kind == "datetime":
        left, right = st.columns(2)
        d = left.date_input(label, value=None, min_value=MIN_DATE, max_value=MAX_DATE, key=key + ":date",
                            help=help_, format="YYYY-MM-DD")
        t = right.time_input("Time", value=None, key=key + ":time", step=900)
        return datetime.combine(d, t or time(0)) if d else None
    if spec.kind == "time":
        return st.time_input(label, value=spec.default, key=key, help=help_)
    if spec.kind == "list":
        hint = "YYYY-MM-DD, separated by commas" if spec.item_kind == "date" else "separate several with commas"
        default = ", ".join(str(x) for x in spec.default or [])
        return st.text_input(label, value=default, key=key, help=f"{help_ or ''} ({hint})".strip(), placeholder=hint)
    if spec.kind == "table":
        return _table(spec, key)
    if spec.kind == "json":
        raw = st.text_input(label, key=key, help=f"{help_ or ''} (JSON)".strip())
        try:
            return json.loads(raw) if raw.strip() else None
        except ValueError:
            return raw
    return st.text_input(label, value=spec.default or "", key=key, help=help_)


def _table(spec: FieldSpec, key: str) -> list[dict]:
    """A list of small records (storm events, milestones) as an editable table with one row per item."""
    model = spec.item_model
    config, columns = {}, {}
    for sub in field_specs(model):
        kw = {"help": sub.help, "required": sub.required}
        if sub.kind == "date":
            config[sub.name] = st.column_config.DateColumn(sub.label, min_value=MIN_DATE, max_value=MAX_DATE,
                                                           format="YYYY-MM-DD", **kw)
            columns[sub.name] = pd.Series(dtype="datetime64[ns]")
        elif sub.kind == "time":
            config[sub.name] = st.column_config.TimeColumn(sub.label, format="HH:mm", **kw)
            columns[sub.name] = pd.Series(dtype="object")
        elif sub.kind in ("int", "float"):
            config[sub.name] = st.column_config.NumberColumn(sub.label, **kw)
            columns[sub.name] = pd.Series(dtype="float")
        elif sub.kind == "choice":
            config[sub.name] = st.column_config.SelectboxColumn(sub.label, options=list(sub.options), **kw)
            columns[sub.name] = pd.Series(dtype="object")
        elif sub.kind == "bool":
            config[sub.name] = st.column_config.CheckboxColumn(sub.label, **kw)
            columns[sub.name] = pd.Series(dtype="bool")
        else:
            config[sub.name] = st.column_config.TextColumn(sub.label, **kw)
            columns[sub.name] = pd.Series(dtype="object")
    st.markdown(f"**{escape_md(spec.label)}** (optional; add a row for each)", help=spec.help)
    rows = st.data_editor(pd.DataFrame(columns), column_config=config, num_rows="dynamic", key=key,
                          hide_index=True, width="stretch")
    return row_dicts(rows, model)


def error_markdown(message: str, specs: list[FieldSpec]) -> str:
    """format_validation_error's lines with field names turned into the form's labels."""
    labels = {s.name: s.label for s in specs}
    items = []
    for line in message.splitlines()[1:] or message.splitlines():
        line = line.removeprefix("- ")
        name, sep, rest = line.partition(": ")
        first = name.split(" > ")[0]
        if sep and first in labels:
            line = f"{labels[first]}{name[len(first):]}: {rest}"
        items.append(f"- {escape_md(line)}")
    return "Please check these values:\n\n" + "\n".join(items)


def _validation_message(exc: ValidationError, model: type[BaseModel]) -> str:
    try:
        from ..calculators import format_validation_error
    except ImportError:
        return str(exc)
    return format_validation_error(exc, model)


def _form(calc) -> None:
    specs = field_specs(calc.input_model)
    with st.form(f"form-{calc.name}"):
        raw: dict[str, Any] = {}
        # Inputs in two columns, then the yes/no questions, then tables at full width.
        groups = ([s for s in specs if s.kind not in ("bool", "table")], [s for s in specs if s.kind == "bool"])
        for group in groups:
            cols = st.columns(2)
            for i, spec in enumerate(group):
                with cols[i % 2]:
                    raw[spec.name] = _widget(spec, f"calc:{calc.name}:{spec.name}")
        for spec in specs:
            if spec.kind == "table":
                raw[spec.name] = _widget(spec, f"calc:{calc.name}:{spec.name}")
        submitted = st.form_submit_button("Calculate", type="primary")
    if not submitted:
        return
    try:
        inp = calc.input_model.model_validate(collect(specs, raw))
    except ValidationError as exc:
        st.session_state[RESULT_KEY.format(calc.name)] = ("error", error_markdown(_validation_message(exc, calc.input_model), specs))
        return
    try:
        st.session_state[RESULT_KEY.format(calc.name)] = ("ok", calc.run(inp))
    except Exception as exc:  # a calculator bug must not take the page down
        st.session_state[RESULT_KEY.format(calc.name)] = ("error", escape_md(f"The calculator failed: {exc}"))


def _downloads(name: str, out: BaseModel) -> None:
    buttons = []
    if callable(getattr(out, "to_markdown", None)):
        buttons.append(("Download as Markdown", out.to_markdown(), f"{name}.md", "text/markdown"))
    if callable(getattr(out, "to_ics", None)):
        buttons.append(("Add to calendar (.ics)", out.to_ics(), f"{name}.ics", "text/calendar"))
    buttons.append(("Download as JSON", out.model_dump_json(indent=2), f"{name}.json", "application/json"))
    for col, (label, data, file_name, mime) in zip(st.columns(len(buttons)), buttons):
        col.download_button(label, data, file_name=file_name, mime=mime, key=f"download-{name}-{file_name}")


def render() -> None:
    corpus = get_corpus()
    st.title("Calculators")
    disclaimer_line(corpus)
    calculators = get_calculators()
    names = list(calculators)
    name = st.radio("Calculator", names, format_func=calculator_title, horizontal=True,
                    key="calc-choice")
    calc = calculators[name]
    st.markdown(escape_md(calc.description))
    _form(calc)
    state = st.session_state.get(RESULT_KEY.format(name))
    if state is None:
        return
    kind, value = state
    if kind == "error":
        st.error(value)
        return
    st.subheader("Result")
    render_result(value.model_dump(mode="json"))
    _downloads(name, value)
