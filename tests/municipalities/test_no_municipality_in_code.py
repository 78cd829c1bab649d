"""No municipality in the code: names, ids and provision ids of the corpus live in corpus/ (text and
metadata), never in src/codeassist outside docstrings and comments. A new municipality is data.

Examples in help texts and field descriptions use placeholders or are built from the loaded corpus; the
bench's and the eval's sample questions live in eval/bench.toml. The whole package is guarded strictly."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from codeassist.corpus import load_corpus

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "codeassist"


def patterns() -> list[re.Pattern]:
    """What must not appear in code: each municipality's id and short name, and provision ids and
    section numbers as citations write them ('7B-5', '§ 392', '392(', "390")."""
    corpus = load_corpus()
    pats = []
    for m in corpus.municipalities.values():
        for word in {m.id, m.short_name}:
            pats.append(re.compile(r"(?<![A-Za-z])" + re.escape(word) + r"(?![A-Za-z])", re.I))
    for s in corpus.sections:
        if s.number and s.number_confirmed:
            n = re.escape(s.number)
            pats.append(re.compile(r"§\s*" + n + r"(?![\w.-])"))
            pats.append(re.compile(r"(?<![\w.-])" + n + r"\("))
            pats.append(re.compile(r"^[rbuf]*([\"'])" + n + r"\1$"))  # the bare number as a string: "390"
            if "-" in s.number and not s.number.split("-")[0].isdigit():
                pats.append(re.compile(r"(?<![\w.-])" + n + r"(?![\d])"))  # "7B-5"
    pats.append(re.compile(r"(?<![\w.-])7B-"))
    return pats


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                lines.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    return lines


def offences(root: Path) -> list[str]:
    """'file:line: text' for every code token (not a comment, not a docstring) matching a pattern."""
    pats = patterns()
    out = []
    for path in sorted(root.rglob("*.py")):
        src = path.read_text(encoding="utf-8")
        docs = _docstring_lines(ast.parse(src))
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE) or tok.start[0] in docs:
                continue
            if any(p.search(tok.string) for p in pats):
                out.append(f"{path.relative_to(root)}:{tok.start[0]}: {tok.string[:80]}")
    return out


def test_the_guard_finds_what_it_should(tmp_path):
    (tmp_path / "bad.py").write_text('"""Hempstead in a docstring is fine."""\n# so is 7B-5 in a comment\n'
                                     'x = "tuckahoe:7B-5(c)"\ny = f"§ 392(B)"\nHEMPSTEAD_RULES = 1\nif key == "390": pass\n', encoding="utf-8")
    found = offences(tmp_path)
    assert [f.split(":")[1] for f in found] == ["3", "4", "5", "6"]


def test_calculators_and_corpus_name_no_municipality():
    assert offences(SRC / "calculators") + offences(SRC / "corpus") == []


def test_no_module_names_a_municipality_or_provision():
    assert offences(SRC) == []
