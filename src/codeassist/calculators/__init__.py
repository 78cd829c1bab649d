"""Deterministic calculators over the ordinance text: applicability, penalty, deadlines, electrical permit,
SWPPP checklist. Each is a generic engine over the municipality's rules in the corpus
(`corpus/<id>/rules/<name>.toml`, see ``codeassist.corpus.rules``), and every step of its result carries
the provision id, citation and verbatim quote it rests on.

Use them three ways: ``CALCULATORS[name].run(input_model)`` (or ``run_calculator(name, dict)``),
``codeassist calc NAME --input JSON``, or ``as_tools()`` for langchain. Each registered calculator also
owns its edges to the assistant: ``read_slots`` (input from the question's plan slots), ``headline`` (the first
sentence of an answer) and ``undecided`` (the corpus cannot settle it), so adding a calculator touches
its module and this registry only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Callable

from pydantic import BaseModel, ValidationError

from codeassist.calculators import _refs, applicability, deadlines, electrical_permit, penalty, swppp_checklist
from codeassist.calculators._errors import format_validation_error

# read_slots(plan slots, question, municipality, prior input, today) -> (input dict, None), (None, a
# follow-up question), or (None, None) when the question holds nothing the calculator can use
SlotReader = Callable[[dict, str, str, dict | None, date | None], tuple[dict | None, str | None]]


@dataclass(frozen=True)
class Calculator:
    name: str
    description: str
    input_model: type[BaseModel]
    output_model: type[BaseModel]
    run: Callable[[Any], BaseModel]
    read_slots: SlotReader
    headline: Callable[[Any, dict[str, str], dict | None, str], str]  # (output, names, input, question)
    undecided: Callable[[Any, dict], bool]
    # Plan slots any one of which this calculator can work from: with one present, the assistant routes a
    # question here when retrieval's best provision is one this calculator's rules rest on.
    needs: tuple[str, ...] = ()
    # The kinds of wh-question its result answers (answer.answer_kind: "amount", "when"), beside yes/no and
    # "what" questions: "how much of the site may be open at once? 4 acres" is no question for applicability.
    answers: tuple[str, ...] = ()
    # The result says nothing for its municipality ("no dated obligation follows"): asked of no municipality in
    # particular, the assistant shows only the municipalities whose result does say something.
    silent: Callable[[Any], bool] = lambda out: False
    # How many of retrieval's top three provisions, the best one among them, its rules must rest on for the
    # assistant to route here from evidence: a checklist answers what a whole plan contains, so one item of it
    # alone ("3 acres: what do my subs have to sign?") is that item's question.
    evidence: int = 1

    def run_dict(self, data: dict[str, Any], corpus: Any | None = None) -> BaseModel:
        """Validate a plain dict (raises pydantic.ValidationError) and run, over `corpus` when given."""
        with _refs.using(corpus):
            return self.run(self.input_model.model_validate(data))


CALCULATORS: dict[str, Calculator] = {
    c.name: c
    for c in (
        Calculator(
            "applicability",
            "Does a municipality's stormwater law apply to a project? Gives land development activity "
            "(yes/no/unknown), whether a SWPPP is required (yes/no/likely_exempt/unknown), matching exemptions, "
            "post-construction conditions A/B/C, who reviews, who may prepare the plan; every step cited.",
            applicability.ApplicabilityInput,
            applicability.ApplicabilityOutput,
            applicability.run,
            applicability.read_slots,
            applicability.headline,
            applicability.undecided,
            ("area",),
        ),
        Calculator(
            "penalty",
            "Penalty for a stormwater or electrical violation: repeat-offense tier under the law's window (five "
            "years in the NYS model law), fine range, imprisonment limit, how continuing violations count (weeks "
            "or days); every step cited.",
            penalty.PenaltyInput,
            penalty.PenaltyOutput,
            penalty.run,
            penalty.read_slots,
            penalty.headline,
            penalty.undecided,
            ("offense_number", "duration_days"),
            ("amount", "when"),
        ),
        Calculator(
            "deadlines",
            "Dated obligations: inspection reports (every 7 days, 24 h after a 0.5-inch storm), 48-hour milestone "
            "notices, notice-of-violation appeal, performance guarantee release, when concealed wiring may be covered "
            "(24 h excluding Sundays and NY legal holidays), contractor registration expiry; exportable as .ics.",
            deadlines.DeadlinesInput,
            deadlines.DeadlinesOutput,
            deadlines.run,
            deadlines.read_slots,
            deadlines.headline,
            deadlines.undecided,
            ("dates", "inches"),
            ("when",),
            deadlines.silent,
        ),
        Calculator(
            "electrical_permit",
            "Does electrical work need a permit under the municipality's electrical code? Gives the exemption if any, "
            "who may apply, and the inspection and certificate steps; every step cited.",
            electrical_permit.ElectricalPermitInput,
            electrical_permit.ElectricalPermitOutput,
            electrical_permit.run,
            electrical_permit.read_slots,
            electrical_permit.headline,
            electrical_permit.undecided,
            ("minor_repair",),
        ),
        Calculator(
            "swppp_checklist",
            "The required contents of a project's stormwater pollution prevention plan (SWPPP): the base list, plus "
            "the post-construction list when a condition applies, each item cited; exportable as Markdown.",
            applicability.ApplicabilityInput,
            swppp_checklist.SwpppChecklistOutput,
            swppp_checklist.run,
            swppp_checklist.read_slots,
            swppp_checklist.headline,
            swppp_checklist.undecided,
            ("area",),
            evidence=2,
        ),
    )
}


class UnknownCalculator(KeyError):
    def __str__(self) -> str:
        return f"unknown calculator {self.args[0]!r}; known: {', '.join(CALCULATORS)}"


def get(name: str) -> Calculator:
    try:
        return CALCULATORS[name]
    except KeyError:
        raise UnknownCalculator(name) from None


def run_calculator(name: str, data: dict[str, Any]) -> BaseModel:
    """Run a calculator on a plain dict; raises UnknownCalculator or pydantic.ValidationError."""
    return get(name).run_dict(data)


def as_tools() -> list[Any]:
    """The calculators as langchain StructuredTools; each tool's args_schema is the input model."""
    from langchain_core.tools import StructuredTool  # adapter import kept out of the pure path

    def make(calc: Calculator) -> StructuredTool:
        def call(**kwargs: Any) -> dict[str, Any]:
            return calc.run(calc.input_model.model_validate(kwargs)).model_dump(mode="json")

        def on_error(exc: ValidationError) -> str:
            return format_validation_error(exc, calc.input_model)

        return StructuredTool.from_function(
            func=call,
            name=calc.name,
            description=calc.description,
            args_schema=calc.input_model,
            handle_validation_error=on_error,
        )

    return [make(c) for c in CALCULATORS.values()]


__all__ = [
    "CALCULATORS",
    "Calculator",
    "UnknownCalculator",
    "as_tools",
    "format_validation_error",
    "get",
    "run_calculator",
]
