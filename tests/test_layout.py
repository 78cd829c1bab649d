"""The import direction: the edges (cli, bench, evaluation, ui) may import the core; the core never
imports an edge."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "src" / "codeassist"
EDGES = ("cli", "bench", "evaluation", "ui")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found |= {base} | {f"{base}.{a.name}" if node.module else base + a.name for a in node.names}
    return found


def _edge_of(name: str) -> str | None:
    parts = name.lstrip(".").split(".")
    if name.startswith("codeassist."):
        parts = parts[1:]
    elif not name.startswith("."):
        return None
    return parts[0] if parts and parts[0] in EDGES else None


def test_core_imports_no_edge():
    core = [p for p in PKG.rglob("*.py") if p.relative_to(PKG).parts[0] not in EDGES]
    assert core, PKG
    bad = {str(p.relative_to(PKG)): sorted(n for n in _imports(p) if _edge_of(n)) for p in core}
    assert {k: v for k, v in bad.items() if v} == {}


def test_edges_are_packages():
    for edge in ("cli", "bench", "evaluation"):
        assert (PKG / edge / "__init__.py").is_file(), edge
    assert (PKG / "cli" / "__main__.py").is_file() and (PKG / "bench" / "__main__.py").is_file()
    assert not list(PKG.glob("cli_*.py")) and not list(PKG.glob("bench_*.py")) and not (PKG / "eval_runner.py").exists()
