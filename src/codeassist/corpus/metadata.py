"""Reading the corpus folder: one folder per municipality, holding `municipality.toml`, the verbatim
ordinance texts, and one TOML per ordinance that maps structure and citations onto its text."""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

from pydantic import ValidationError

from ..errors import CorpusError
from ..models import Municipality, Ordinance

MUNICIPALITY_FILE = "municipality.toml"


def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CorpusError(f"cannot read {path}: {exc}") from exc


def read_metadata(corpus_dir: Path) -> list[tuple[Municipality, list[tuple[Ordinance, Path]]]]:
    """Every municipality with its ordinances and each ordinance's source path, sorted by id."""
    if not corpus_dir.is_dir():
        raise CorpusError(f"corpus folder not found: {corpus_dir}")
    found = []
    for folder in sorted(p for p in corpus_dir.iterdir() if (p / MUNICIPALITY_FILE).is_file()):
        try:
            muni = Municipality(**_read_toml(folder / MUNICIPALITY_FILE))
            ordinances = []
            for meta in sorted(folder.glob("*.toml")):
                if meta.name == MUNICIPALITY_FILE:
                    continue
                ordinance = Ordinance(**_read_toml(meta))
                source = folder / ordinance.source
                if not source.is_file():
                    raise CorpusError(f"{meta}: source file {ordinance.source!r} not found")
                if ordinance.municipality != muni.id:
                    raise CorpusError(f"{meta}: municipality {ordinance.municipality!r} != folder's {muni.id!r}")
                ordinances.append((ordinance, source))
        except ValidationError as exc:
            raise CorpusError(f"invalid metadata in {folder}: {exc}") from exc
        found.append((muni, ordinances))
    if not found:
        raise CorpusError(f"no municipality folders (with {MUNICIPALITY_FILE}) in {corpus_dir}")
    return found


def fingerprint(corpus_dir: Path, extra: str = "") -> str:
    """Hash of every text and metadata file of the municipalities in the corpus (and `extra`, e.g. the parser
    version). Shared data in folders named "_..." (the gazetteer of other places) does not change the index."""
    h = hashlib.sha256(extra.encode())
    for path in sorted(corpus_dir.rglob("*")):
        if path.relative_to(corpus_dir).parts[0].startswith("_"):
            continue
        if path.is_file() and path.suffix in {".txt", ".toml"}:
            h.update(str(path.relative_to(corpus_dir)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]
