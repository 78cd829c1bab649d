"""The shared glossary (corpus/_glossary/glossary.toml), pure once loaded: everyday words and abbreviations
-> the ordinances' words (appended to a question before searching, never replacing what the user wrote), and
the subjects these ordinances do not cover."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

from .errors import CorpusError


class AbbreviationGuard(BaseModel):
    """When an abbreviation that is also an everyday word or part of a date counts as the abbreviation: "CO"
    only in capitals (not "co-owner"); "nov" not before a day ("Nov 25"), though "NOV" in capitals always does."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    capitals_only: bool = False
    not_followed_by: str | None = Field(default=None, description="a regex; lower-case uses followed by it do not count")

    @field_validator("not_followed_by")
    @classmethod
    def _compiles(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"not_followed_by is not a valid pattern: {exc}") from exc
        return pattern

    def admits(self, q: str, use: re.Match) -> bool:
        capitals = use.group("abbr").isupper()  # "COs" too
        if self.capitals_only:
            return capitals
        return capitals or self.not_followed_by is None or not re.match(self.not_followed_by, q[use.end():], re.I)


_REMEMBERED_TEXTS = 512


@lru_cache(maxsize=1024)
def _rx(pattern: str) -> re.Pattern:
    """A glossary pattern compiled once (case-insensitive): the glossary runs every pattern on every question."""
    return re.compile(pattern, re.I)


def _pattern_rows(rows: list[dict], table: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> list[dict]:
    """The rows of a glossary table, each with exactly `keys` (and any of `optional`) and a `pattern` that
    compiles (else ValueError)."""
    for row in rows:
        if not set(keys) <= set(row) <= set(keys) | set(optional):
            raise ValueError(f"each [[{table}]] entry needs exactly {' and '.join(f'`{k}`' for k in keys)}"
                             f"{' (and may have ' + ', '.join(optional) + ')' if optional else ''}; got {sorted(row)}")
        try:
            re.compile(row["pattern"])
        except re.error as exc:
            raise ValueError(f"[[{table}]] pattern {row['pattern']!r} is not valid: {exc}") from exc
    return rows


class Glossary(BaseModel):
    """Everyday words and abbreviations -> the ordinances' words (corpus/_glossary/glossary.toml): shared
    vocabulary, appended to a question before searching, never replacing what the user wrote."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    abbreviations: dict[str, str] = Field(default_factory=dict)
    abbreviation_guards: dict[str, "AbbreviationGuard"] = Field(
        default_factory=dict, description="when an abbreviation that is also a word or a date counts as one")
    everyday: list[dict[str, str]] = Field(default_factory=list, description="[{pattern, words}]")
    other_subjects: list[dict] = Field(
        default_factory=list, description="[{subject, pattern, name_subject?, beside_law_words?, ask?}]: subjects "
        "these ordinances do not cover at all; the answer names the words matched, or the subject when name_subject "
        "is true, and says who can answer (`ask`, else the clerk)")
    # Each question is read more than once (routing asks for the other subjects twice; the planner expands the same
    # words again): what the patterns found in a text, kept for the last texts seen
    _found: dict[tuple[str, str], list] = PrivateAttr(default_factory=dict)

    @field_validator("everyday")
    @classmethod
    def _patterns_compile(cls, rows: list[dict[str, str]]) -> list[dict[str, str]]:
        return _pattern_rows(rows, "everyday", ("pattern", "words"))

    @field_validator("other_subjects")
    @classmethod
    def _subjects_compile(cls, rows: list[dict]) -> list[dict]:
        return _pattern_rows(rows, "other_subjects", ("subject", "pattern"), optional=("name_subject", "beside_law_words", "ask"))

    @model_validator(mode="after")
    def _guards_name_abbreviations(self) -> "Glossary":
        unknown = sorted(set(self.abbreviation_guards) - set(self.abbreviations))
        if unknown:
            raise ValueError(f"[abbreviation_guards] for abbreviations the glossary does not define: {unknown}")
        return self

    def other_subject(self, q: str, beside_law_words: bool = False) -> str | None:
        """The words of the question that name a subject these ordinances do not cover ("plumbing permit" ->
        "plumbing"), the first in the question when it names several; None when it names none. With
        `beside_law_words`, only the subjects that stand even beside the laws' own words."""
        found = [(m, row) for m, row in self._remembered("subjects", q, lambda: self._subjects(q))
                 if row.get("beside_law_words") or not beside_law_words]
        if not found:
            return None
        m, row = min(found, key=lambda hit: hit[0].start())
        return row["subject"] if row.get("name_subject") else m.group(0).lower()

    def _subjects(self, q: str) -> list[tuple[re.Match, dict]]:
        return [(m, row) for row in self.other_subjects if (m := _rx(row["pattern"]).search(q))]

    def who_answers(self, subject: str) -> str | None:
        """Who can answer a question on a named subject the ordinances do not cover (its row's `ask`), or None."""
        return next((row["ask"] for row in self.other_subjects if row.get("ask") and row["subject"] == subject), None)

    def _remembered(self, kind: str, q: str, find):
        # Read once and keep the value: another thread may clear the dict between a store and a read.
        key = (kind, q)
        found = self._found.get(key)
        if found is None:
            found = find()
            if len(self._found) >= _REMEMBERED_TEXTS:
                self._found.clear()
            self._found[key] = found
        return found

    def expansions(self, q: str) -> list[str]:
        """The expansions of the abbreviations and everyday words the question uses, one string each."""
        return list(self._remembered("expansions", q, lambda: self._expansions(q)))

    def _expansions(self, q: str) -> list[str]:
        extra = [row["words"] for row in self.everyday if _rx(row["pattern"]).search(q)]
        for abbr, full in self.abbreviations.items():
            guard = self.abbreviation_guards.get(abbr)
            uses = _rx(r"(?<![\w&])(?P<abbr>" + re.escape(abbr) + r")s?(?![\w&])").finditer(q)
            if any(guard is None or guard.admits(q, use) for use in uses):
                extra.append(full)
        return extra

    def inline(self, q: str, expansions: Sequence[str]) -> tuple[str, list[str]]:
        """The question with each abbreviation among its `expansions` spelled out where it stands ("a
        stormwater NOV" -> "a stormwater notice of violation (NOV)"), and the expansions that are not those."""
        done: set[str] = set()
        for abbr, full in self.abbreviations.items():
            if full not in expansions:
                continue  # not used, or refused by its guard
            guard = self.abbreviation_guards.get(abbr)

            def spell(m: re.Match, text: str = q, full: str = full, guard=guard) -> str:
                return m.group(0) if guard is not None and not guard.admits(text, m) else f"{full} ({m.group(0)})"
            q = re.sub(r"(?<![\w&])(?P<abbr>" + re.escape(abbr) + r")s?(?![\w&])", spell, q, flags=re.I)
            done.add(full)
        return q, [e for e in expansions if e not in done]

    def expand(self, q: str) -> str:
        """Append expansions of abbreviations and everyday words the question uses (kept beside the original)."""
        return append_expansions(q, self.expansions(q))


def append_expansions(q: str, extra: Sequence[str]) -> str:
    """The question with expansions appended in brackets (what the search and the scorer read)."""
    return q + (" (" + "; ".join(extra) + ")" if extra else "")


@lru_cache(maxsize=8)
def load_glossary(corpus_dir: Path | None = None) -> Glossary:
    """The shared glossary of a corpus folder (an empty one when the folder has none)."""
    if corpus_dir is None:
        from .settings import get_settings

        corpus_dir = get_settings().corpus_dir
    path = Path(corpus_dir) / "_glossary" / "glossary.toml"
    if not path.is_file():
        return Glossary()
    try:
        return Glossary(**tomllib.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValidationError, re.error) as exc:
        raise CorpusError(f"invalid glossary {path}: {exc}") from exc


def expand_abbreviations(q: str, glossary: Glossary | None = None) -> str:
    """The question with the glossary's expansions appended (the corpus folder's glossary by default)."""
    return (glossary or load_glossary()).expand(q)
