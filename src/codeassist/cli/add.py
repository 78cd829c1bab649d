"""`codeassist add FOLDER`: check a new municipality folder before it joins the corpus."""

from __future__ import annotations

import json
import os
from pathlib import Path


def _shown(path: str) -> str:
    """The path as short as it can be said: relative to the working folder when it is inside it."""
    try:
        return os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
    except ValueError:
        return path


def cmd_add(args) -> int:
    """Check a municipality folder (its text, municipality.toml, ordinance TOML, rules/ and headnotes/)
    together with the existing corpus, before anything is indexed. Prints each problem as
    `path:line: severity: message` (JSON with --json); exits 1 when there is an error. Nothing is copied
    and the index is not touched: when the folder is clean, copy it into the corpus folder."""
    from codeassist.corpus.check import check_folder
    from codeassist.settings import get_settings

    folder = Path(args.folder)
    corpus_dir = Path(args.corpus) if getattr(args, "corpus", None) else get_settings().corpus_dir
    problems = check_folder(folder, corpus_dir)
    errors = [p for p in problems if p.severity == "error"]
    if getattr(args, "json", False):
        print(json.dumps({"folder": str(folder), "ok": not errors,
                          "problems": [{"path": _shown(p.path), "line": p.line, "severity": p.severity,
                                        "message": p.message} for p in problems]}, indent=2, ensure_ascii=False))
    else:
        for p in problems:
            print(f"{_shown(p.path)}:{p.line}: {p.severity}: {p.message}")
        warnings = sum(p.severity == "warning" for p in problems)
        verdict = "not ready" if errors else "ready to copy into the corpus folder"
        print(f"{folder}: {len(errors)} error(s), {warnings} warning(s): {verdict}.")
    return 1 if errors else 0
