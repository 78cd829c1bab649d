"""Reading headnotes: our plain-language summaries of provisions, kept as data beside the text
(`corpus/<municipality>/headnotes/*.toml`, one `[[headnotes]]` table per provision).

Unknown provision ids and duplicates are reported, not fatal, at load (a typo in a summary must not take
the whole corpus down); `codeassist add` and tests/corpus/test_headnotes.py make them errors."""

from __future__ import annotations

import logging
import tomllib
from pathlib import Path

from pydantic import ValidationError

from ..errors import CorpusError
from ..models import Headnote

log = logging.getLogger(__name__)

HEADNOTES_DIR = "headnotes"


def read_headnotes(folder: Path, corpus_dir: Path) -> tuple[dict[str, Headnote], list[str]]:
    """Headnotes of one municipality folder by provision id, and the problems found (file: message)."""
    found: dict[str, Headnote] = {}
    problems: list[str] = []
    for path in sorted((folder / HEADNOTES_DIR).glob("*.toml")):
        rel = str(path.relative_to(corpus_dir))
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise CorpusError(f"cannot read {rel}: {exc}") from exc
        for i, entry in enumerate(data.get("headnotes", [])):
            try:
                h = Headnote(**entry, source=rel)
            except (TypeError, ValidationError) as exc:
                raise CorpusError(f"{rel}: headnotes[{i}] is invalid: {exc}") from exc
            if h.id in found:
                problems.append(f"{rel}: headnote for {h.id} given twice (also in {found[h.id].source})")
                continue
            found[h.id] = h
    return found, problems
