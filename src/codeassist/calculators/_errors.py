"""Pydantic validation errors in plain words, for the CLI and tool callers."""

from __future__ import annotations

from pydantic import BaseModel, ValidationError


def _where(loc: tuple) -> str:
    parts: list[str] = []
    for p in loc:
        if isinstance(p, int):
            parts.append(f"item {p + 1}")
        elif p in ("function-after", "function-before") or str(p).startswith(("function-", "literal[")):
            continue
        else:
            parts.append(str(p))
    return " > ".join(parts)


def _message(err: dict) -> str:
    kind = err.get("type", "")
    msg = err.get("msg", "")
    ctx = err.get("ctx") or {}
    if kind == "value_error":
        return msg.removeprefix("Value error, ")
    if kind == "missing":
        return "is required but was not given"
    if kind == "extra_forbidden":
        return "is not a field this calculator knows"
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected', '')} (got {err.get('input')!r})"
    if kind.startswith("date") or kind.startswith("datetime"):
        return f"is not a valid date{'/time' if kind.startswith('datetime') else ''} (got {err.get('input')!r}); write it as YYYY-MM-DD{'THH:MM' if kind.startswith('datetime') else ''}"
    if kind.startswith(("float", "int")):
        return f"must be a number (got {err.get('input')!r})"
    if kind.startswith("bool"):
        return f"must be true or false (got {err.get('input')!r})"
    if kind in ("greater_than_equal", "greater_than"):
        return f"must be {'at least' if kind.endswith('equal') else 'more than'} {ctx.get('ge', ctx.get('gt'))} (got {err.get('input')!r})"
    if kind in ("list_type", "model_type", "dict_type"):
        return f"has the wrong shape: {msg.lower()}"
    return msg


def format_validation_error(exc: ValidationError, model: type[BaseModel] | None = None) -> str:
    """One line per problem, each naming the field: 'disturbed_acres: cannot be negative (got -1)'."""
    lines = []
    for err in exc.errors():
        where = _where(tuple(err.get("loc", ())))
        text = _message(err)
        if err.get("type") == "extra_forbidden" and model is not None:
            text += f"; known fields: {', '.join(model.model_fields)}"
        lines.append(f"{where}: {text}" if where else text)
    head = f"invalid input for {exc.title}:" if exc.title else "invalid input:"
    return "\n".join([head, *(f"- {line}" for line in lines)])
