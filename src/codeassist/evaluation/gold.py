"""Gold questions: the splits, loading their JSON lines, and what a gold line says about itself.

The splits (eval/GOLD.md), each a file of eval/. ``dev`` (eval/gold.jsonl) is the set the project was tuned
on and may be tuned on; ``dev2`` and ``dev3`` (eval/dev2.jsonl, eval/dev3.jsonl) were each written blind later, measured
once untouched, then tuned on too; ``dev4`` (eval/dev4.jsonl) was written blind in session 16 and measured
once at its end, untouched, then tuned on in session 17; ``dev5`` (eval/dev5.jsonl) was written blind in
session 17, measured once untouched, then tuned on; ``dev6`` (eval/dev6.jsonl) was written blind late in
session 17 and measured once untouched, then tuned on in session 18; ``dev7`` was written blind in session 18,
measured once untouched, then tuned on; ``dev8`` was written blind in session 18 beside it and kept untouched
until the session's end (a holdout);
``test`` (eval/test.jsonl) was written blind and is only measured: the report shows its counts by
category, never its per-question misses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_GOLD = _ROOT / "eval" / "gold.jsonl"
DEFAULT_TEST = _ROOT / "eval" / "test.jsonl"
DEFAULT_OUT = _ROOT / "eval"
_LATER_DEV = re.compile(r"dev(\d+)\.jsonl")


def splits_in(folder: Path | str) -> dict[str, Path]:
    """The splits of an eval folder, in report order: the blind split first (test.jsonl), the first dev split
    (gold.jsonl), then every later blind split dev<N>.jsonl by its number. A new split is a new file."""
    folder = Path(folder)
    later = sorted((int(m.group(1)), path) for path in folder.glob("dev*.jsonl") if (m := _LATER_DEV.fullmatch(path.name)))
    return {"test": folder / "test.jsonl", "dev": folder / "gold.jsonl", **{f"dev{n}": path for n, path in later}}


SPLITS = splits_in(DEFAULT_OUT)

RETRIEVAL_CATEGORIES = ("retrieval", "definition", "lookup", "calculator", "compare")
UNANSWERABLE_CATEGORIES = ("out_of_corpus", "out_of_scope")
EXPECTED_INTENT = {"retrieval": "retrieval", "definition": "definition", "lookup": "lookup",
                   "calculator": "calculator", "compare": "compare", "out_of_corpus": "abstain",
                   "out_of_scope": "abstain"}


def load_gold(path: Path | str | None = None, split: str | None = None) -> list[dict]:
    """The gold lines of one file; each row's ``split`` is set to `split` when the line has none."""
    rows = []
    with open(path or DEFAULT_GOLD, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                if split is not None:
                    row.setdefault("split", split)
                rows.append(row)
    return rows


def resolve_splits(split: str, files: dict[str, Path | str] | None = None,
                   folder: Path | str | None = None) -> dict[str, Path]:
    """The files of the requested split ("test", "dev", "dev2"... or "all"), in report order: those of
    `folder` (default eval/), `files` overriding any. With "all" a split whose file does not exist is left
    out; a named split must exist."""
    base = splits_in(folder) if folder is not None else SPLITS
    paths = {name: Path(p) for name, p in {**base, **(files or {})}.items()}
    if split == "all":
        return {name: path for name, path in paths.items() if path.is_file()}
    if split not in paths:
        raise ValueError(f"unknown split {split!r}; known: {', '.join(paths)}, all")
    if not paths[split].is_file():
        raise FileNotFoundError(f"the {split} split's questions are not at {paths[split]}")
    return {split: paths[split]}


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
