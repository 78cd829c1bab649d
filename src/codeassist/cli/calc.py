"""`codeassist calc`: run a calculator on a JSON input and print its output model as JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import ValidationError


def cmd_calc(args) -> int:
    """Run calculator NAME on --input JSON (an object, or @file.json) and print the result as JSON.
    `codeassist calc --list` lists the calculators and their input fields."""
    from codeassist.calculators import CALCULATORS, format_validation_error

    if args.list or not args.name:
        for calc in CALCULATORS.values():
            fields = ", ".join(calc.input_model.model_fields)
            print(f"{calc.name}\n  {calc.description}\n  inputs: {fields}\n")
        return 0 if args.list else 2
    if args.name not in CALCULATORS:
        print(f"codeassist: unknown calculator {args.name!r}; known: {', '.join(CALCULATORS)}", file=sys.stderr)
        return 2
    calc = CALCULATORS[args.name]
    raw = args.input or "{}"
    if raw.startswith("@"):
        try:
            raw = Path(raw[1:]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"codeassist: cannot read {raw[1:]}: {exc}", file=sys.stderr)
            return 2
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        print(f"codeassist: --input is not valid JSON ({exc.msg} at character {exc.pos})", file=sys.stderr)
        return 2
    except (ValueError, RecursionError):
        print("codeassist: --input is too deeply nested or holds a number too long to read", file=sys.stderr)
        return 2
    if not isinstance(data, dict):
        example = json.dumps({"municipality": _first_municipality(), "disturbed_acres": 2})
        print(f"codeassist: --input must be a JSON object, e.g. '{example}'", file=sys.stderr)
        return 2
    try:
        out = calc.run_dict(data)
    except ValidationError as exc:
        print("codeassist: " + format_validation_error(exc, calc.input_model), file=sys.stderr)
        return 2
    if args.markdown and hasattr(out, "to_markdown"):
        print(out.to_markdown())
    else:
        print(out.model_dump_json(indent=2))
    if args.ics:
        if not hasattr(out, "to_ics"):
            print("codeassist: --ics applies to the deadlines calculator", file=sys.stderr)
            return 2
        try:
            Path(args.ics).write_text(out.to_ics(), encoding="utf-8", newline="")
        except OSError as exc:
            print(f"codeassist: cannot write {args.ics}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    return 0


def _first_municipality() -> str:
    """The first municipality id of the corpus, for an example; a placeholder when it cannot be read."""
    try:
        from codeassist.corpus import load_corpus

        return next(iter(load_corpus().municipalities), "<municipality>")
    except Exception:  # noqa: BLE001 - an example must not turn a usage error into a crash
        return "<municipality>"
