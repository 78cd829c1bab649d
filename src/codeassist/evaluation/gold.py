"""Gold questions: loading the JSON lines of each split, and what a gold line says about itself."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_GOLD = _ROOT / "eval" / "gold.jsonl"
DEFAULT_OUT = _ROOT / "eval"

RETRIEVAL_CATEGORIES = ("retrieval", "definition", "lookup", "calculator", "compare")
UNANSWERABLE_CATEGORIES = ("out_of_corpus", "out_of_scope")
EXPECTED_INTENT = {"retrieval": "retrieval", "definition": "definition", "lookup": "lookup",
                   "calculator": "calculator", "compare": "compare", "out_of_corpus": "abstain",
                   "out_of_scope": "abstain"}


def load_gold(path: Path | str | None = None) -> list[dict]:
    rows = []
    with open(path or DEFAULT_GOLD, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
    return rows


def is_retrieval_question(row: dict) -> bool:
    return row["category"] in RETRIEVAL_CATEGORIES and bool(row.get("answerable")) and bool(row.get("gold"))


def known_municipality(row: dict) -> str | None:
    return row.get("municipality") or row.get("expected_municipality")


def municipality_source(row: dict, names: dict[str, Sequence[str]]) -> str | None:
    """How the known municipality is known: "caller" (passed in), "named" (the question names it, by
    a name or alias, or a one-letter typo of a long name) or "content" (only the gold knows it);
    None when not known. Independent of the retriever's own detector."""
    known = known_municipality(row)
    if known is None:
        return None
    if row.get("municipality"):
        return "caller"
    low = row["question"].lower()
    words = re.findall(r"[a-z]+", low)
    for n in names.get(known, ()):
        if re.search(r"(?<![a-z])" + re.escape(n) + r"(?![a-z])", low):
            return "named"
        if " " not in n and len(n) >= 7 and any(len(w) >= 6 and _near(w, n) for w in words):
            return "named"
    return "content"


def _near(a: str, b: str) -> bool:
    import difflib

    return a != b and difflib.SequenceMatcher(None, a, b).ratio() >= 0.85
