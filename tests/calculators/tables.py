"""The calculators' rule tables, as they now live in the corpus (corpus/<id>/rules/*.toml), shaped as the
tests knew them when they were Python dicts in the calculator modules."""

from __future__ import annotations

from codeassist.corpus import load_corpus

_RULES = load_corpus().rules

EXEMPTIONS = {m: dict(r.applicability.exemptions.items) for m, r in _RULES.items() if r.applicability}
MILESTONES = {m: {x.key: x for x in r.deadlines.milestones} for m, r in _RULES.items() if r.deadlines}
MINOR_REPAIRS = {k: v for r in _RULES.values() if r.electrical_permit for k, v in r.electrical_permit.minor_repairs.items()}
CHECKLISTS = {
    m: ({"base": list(r.swppp_checklist.base), "post_construction": list(r.swppp_checklist.post_construction),
         "certification": list(r.swppp_checklist.certification)} if r.swppp_checklist.missing is None else None)
    for m, r in _RULES.items() if r.swppp_checklist
}
