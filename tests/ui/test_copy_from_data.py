"""App copy that names municipalities or provisions comes from the corpus, never from the code: example
questions (municipality.toml `examples`), the Compare page's intro, the Browse page's hint."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import SimpleNamespace

import codeassist.ui
from codeassist.models import Example, Municipality, Ordinance
from codeassist.ui.browse import goto_placeholder
from codeassist.ui.compare import intro
from codeassist.ui.examples import examples

ROOT = Path(__file__).resolve().parents[2]


def with_village(corpus, *questions: Example) -> SimpleNamespace:
    """The real corpus's municipalities and ordinances plus a made-up village with a stormwater law."""
    village = Municipality(id="elmbrook", name="Village of Elmbrook", short_name="Elmbrook", kind="village",
                           county="Nowhere", state="NY", code_name="Elmbrook Code", code_abbrev="Code",
                           examples=list(questions))
    law = Ordinance(id="elmbrook-sw", municipality="elmbrook", title="Stormwater", code_name="Elmbrook Code",
                    division="Chapter 9", division_label="Ch. 9", topic="stormwater", source="x.txt",
                    citation_prefix="Elmbrook Code", administered_by="clerk", layout="headed-sections")
    return SimpleNamespace(municipalities={**corpus.municipalities, "elmbrook": village},
                           ordinances={**corpus.ordinances, law.id: law})


def test_every_example_in_the_metadata_is_offered_once(corpus):
    offered = [q for qs in examples(corpus).values() for q in qs]
    listed = [e.question for m in corpus.municipalities.values() for e in m.examples]
    assert listed and set(listed) <= set(offered)
    assert len(offered) == len(set(offered))
    assert list(examples(corpus)) == ["Resident", "Contractor", "Staff"]


def test_each_example_sits_with_the_municipality_it_names(corpus):
    for m in corpus.municipalities.values():
        others = [o for o in corpus.municipalities.values() if o.id != m.id]
        for e in m.examples:
            assert not any(o.short_name.lower() in e.question.lower() for o in others), e.question


def test_a_municipality_added_as_data_brings_its_examples(corpus):
    fake = with_village(corpus, Example(user="contractor", question="Who inspects my site in Elmbrook?"))
    assert "Who inspects my site in Elmbrook?" in examples(fake)["Contractor"]
    assert "Village of Elmbrook's" in intro(fake)


def test_compare_intro_names_the_stormwater_laws(corpus):
    text = intro(corpus)
    for m in corpus.municipalities.values():
        assert m.name in text
    assert text[0].isupper()


def test_browse_hint_holds_citations_that_resolve(corpus):
    hint = goto_placeholder(corpus)
    assert hint.startswith("e.g. ")
    for written in hint.removeprefix("e.g. ").split("; "):
        assert corpus.get(written) is not None or corpus.resolve_citation(written) is not None


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """String literals in a module, docstrings left out (comments never reach the AST)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def test_no_municipality_or_provision_named_in_the_app_code(corpus):
    words = {w.lower() for m in corpus.municipalities.values() for w in (m.id, m.short_name, m.name)}
    pattern = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)), re.I)
    ids = re.compile(r"\b(?:" + "|".join(re.escape(m) for m in corpus.municipalities) + r"):\S")
    files = [ROOT / "app.py", *Path(codeassist.ui.__file__).parent.rglob("*.py")]
    found = [f"{path.name}:{line}: {text[:60]!r}" for path in files for line, text in _code_strings(path)
             if pattern.search(text) or ids.search(text) or re.search(r"§\s*\d", text)]
    assert not found, found
