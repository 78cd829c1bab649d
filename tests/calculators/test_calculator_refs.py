"""Every rule table entry names a real provision and quotes it verbatim; citations come from the corpus."""

from __future__ import annotations

import pytest

from codeassist.calculators._refs import citation, fallback_citation, step
from codeassist.corpus import load_corpus
from codeassist.corpus.rules import MODELS, iter_refs

from .tables import EXEMPTIONS, MILESTONES

# The rule tables now live in corpus/<id>/rules/<calculator>.toml: (calculator, key path, ref).
REFS = [(calc, f"{muni}.{key}", ref) for muni, rules in load_corpus().rules.items() for calc in MODELS
        if getattr(rules, calc) is not None for key, ref in iter_refs(getattr(rules, calc))]


def test_every_rule_loads_with_its_quote_verbatim(corpus):
    assert corpus.rule_problems == []


def test_tables_are_not_empty():
    assert len(REFS) > 100
    assert {m for m, _, _ in REFS} == set(MODELS)


@pytest.mark.parametrize(("module", "table", "ref"), REFS, ids=[f"{m}.{t}:{r.pid}" for m, t, r in REFS])
def test_table_entry_is_verbatim_in_its_provision(corpus, module, table, ref):
    assert corpus.get(ref.pid) is not None, f"{module}.{table}: {ref.pid} is not in the corpus"
    assert corpus.quote_in(ref.pid, ref.quote), f"{module}.{table}: quote not verbatim in {ref.pid}: {ref.quote!r}"


def test_municipality_tables_keep_to_their_municipality():
    for module, table, ref in REFS:
        assert ref.pid.split(":")[0] in ("hempstead", "tuckahoe"), (module, table, ref.pid)
    for muni, rules in EXEMPTIONS.items():
        assert all(r.pid.startswith(muni + ":") for r in rules.values())
    for muni, items in MILESTONES.items():
        assert all(r.pid.startswith(muni + ":") for r in items.values())


def test_citation_comes_from_the_corpus(corpus):
    for pid in ("hempstead:391(B)(1)(a)", "hempstead:exemptions(G)", "tuckahoe:7B-5(c)", "tuckahoe:7-11(d).p2"):
        assert citation(pid) == corpus.get(pid).citation


@pytest.mark.parametrize(
    ("pid", "expected"),
    [
        ("hempstead:391(B)(1)(a)", "Hempstead BZO § 391(B)(1)(a)"),
        ("hempstead:exemptions(G)", "Hempstead BZO Art. XXXVIII, Exemptions, item G"),
        ("hempstead:enforcement(D)", "Hempstead BZO Art. XXXVIII, Enforcement and penalties, item D"),
        ("tuckahoe:7B-5(c)", "Tuckahoe Code § 7B-5(c)"),
        ("tuckahoe:7-11(d)", "Tuckahoe Code § 7-11(d)"),
    ],
)
def test_fallback_citation_follows_the_id_scheme(corpus, pid, expected):
    assert fallback_citation(pid) == expected
    assert corpus.get(pid).citation == expected


def test_fallback_citation_never_invents_a_hempstead_number():
    assert "§" not in fallback_citation("hempstead:construction-inspection(A)(1)(g)")
    assert fallback_citation("hempstead:construction-inspection(A)(1)(g)").endswith("Construction inspection, item A(1)(g)")


def test_a_step_without_a_ref_cites_nothing():
    s = step("arithmetic")
    assert (s.provision_id, s.citation, s.quote) == (None, None, None)
