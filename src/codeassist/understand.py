"""Question understanding (pure): validation, municipality, intent and the slots calculators need.

Nothing here retrieves or answers; `answer.py` acts on the `Route` this returns.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import CorpusError, InvalidInput
from .text import clean_text

SQFT_PER_ACRE = 43_560

# Asked in the negative or about getting out of a rule ("can I skip ...", "without a permit", "exempt"): a yes
# or no read off the law's modal would mislead.
NEGATIVE = re.compile(r"\b(not|no|never|without|skip|avoid|exempt|n't|cannot|can't|don't|doesn't|won't|isn't|aren't)\b", re.I)
_NUM_WORDS = {"half": 0.5, "a quarter": 0.25, "quarter": 0.25, "one": 1, "two": 2, "three": 3, "four": 4,
              "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "an": 1, "a": 1}
_FRACTIONS = {"three quarters": 0.75, "two thirds": round(2 / 3, 4), "a third": round(1 / 3, 4), "third": round(1 / 3, 4)}
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
             "fifth": 5, "5th": 5}
_NUMBER = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"


def clean_question(text: object, max_chars: int) -> str:
    """The question as plain text, or InvalidInput with a message the user can act on."""
    if not isinstance(text, str):
        raise InvalidInput("Please type your question as text.")
    if "\x00" in text:
        raise InvalidInput("The question contains a NUL character; please retype it as plain text.")
    if len(text) > max_chars:
        raise InvalidInput(f"That question is {len(text):,} characters long; please keep it under "
                           f"{max_chars:,} characters and ask one thing at a time.")
    cleaned = clean_text(text)
    if not cleaned:
        raise InvalidInput("Please type a question, for example: \"Do I need a SWPPP for clearing 2 acres?\"")
    if not re.search(r"[^\W\d_]{2,}", cleaned) and not _CITATION_IN_Q.search(cleaned):
        raise InvalidInput("I couldn't find any words in that question. Please ask in a sentence.")
    return cleaned


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
        default_factory=list, description="[{subject, pattern, name_subject?, beside_law_words?}]: subjects these "
        "ordinances do not cover at all; the answer names the words matched, or the subject when name_subject is true")

    @field_validator("everyday")
    @classmethod
    def _patterns_compile(cls, rows: list[dict[str, str]]) -> list[dict[str, str]]:
        return _pattern_rows(rows, "everyday", ("pattern", "words"))

    @field_validator("other_subjects")
    @classmethod
    def _subjects_compile(cls, rows: list[dict]) -> list[dict]:
        return _pattern_rows(rows, "other_subjects", ("subject", "pattern"), optional=("name_subject", "beside_law_words"))

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
        found = [(m, row) for row in self.other_subjects if (m := _rx(row["pattern"]).search(q))
                 and (row.get("beside_law_words") or not beside_law_words)]
        if not found:
            return None
        m, row = min(found, key=lambda hit: hit[0].start())
        return row["subject"] if row.get("name_subject") else m.group(0).lower()

    def expansions(self, q: str) -> list[str]:
        """The expansions of the abbreviations and everyday words the question uses, one string each."""
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


# The words a wh-question opens with (plan.py reads yes/no questions as those without one).
QUESTION_WORDS = r"what|whats|how|who|whom|whose|when|where|which|why"


# --- slots -----------------------------------------------------------------------------------------

def _num(s: str) -> float:
    return float(s.replace(",", ""))


# What sides written "10x12" with no unit measure: a structure named beside them.
_STRUCTURES = r"(?:sheds?|decks?|garages?|rooms?|additions?|patios?|slabs?|structures?|buildings?|barns?|sunrooms?)"


_THRESHOLD_NAMED = re.compile(r"\b(?:the|that|this|an?)\s+(?:one|five|\d+(?:\.\d+)?)\s*(?:acres?|square feet|sq\.? ?ft\.?)\s+"
                              r"(?:mark|threshold|cut ?off|line|trigger|limit|rule|minimum|requirement|standard)\b|"
                              # "a phasing limit of one acre at a time": the rule's figure, not the site's
                              r"\b(?:limit|cap|maximum|max|rule|restriction)\s+of\s+(?:one|an?|\d+(?:\.\d+)?)\s*acres?\b")


def _unhyphened(q: str) -> str:
    """The question lower-cased with "2-acre", "half-acre" read as "2 acre" (same length: offsets still hold); a
    minus sign in front of a number stays (the calculator refuses it)."""
    return re.sub(r"(?<=[\da-z])-(?=[a-z])", " ", q.lower())


def _word_number(word: str) -> float:
    """"half" -> 0.5, "two thirds" -> 0.6667, "three" -> 3."""
    return float(_FRACTIONS.get(word, _NUM_WORDS.get(word, 0)))


def extract_area(q: str) -> tuple[str, float] | None:
    """('acres', 2.0) or ('sq_ft', 20000.0) as the user wrote it; None when no area is given."""
    low = _unhyphened(q)
    # "a site that doesn't hit the one acre mark": the law's line, not the site's area
    low = _THRESHOLD_NAMED.sub(" ", low)
    # "30k square feet": thousands
    low = re.sub(r"\b(\d+(?:\.\d+)?)\s?k(?=\s*(?:square|sq|sf\b|ft2))", lambda k: f"{float(k.group(1)) * 1000:g}", low)
    m = re.search(r"(-\s*)?" + _NUMBER + r"\s*(?:\+\s*)?(acres?|ac\b|square feet|square foot|sq\.? ?ft\.?|sf\b|ft2|sqft)", low)
    if m:
        unit = "acres" if m.group(3).startswith("ac") else "sq_ft"
        return unit, -_num(m.group(2)) if m.group(1) else _num(m.group(2))
    # "8 by 10 feet", "10' x 12'", "20x30 ft": the sides of a rectangle, in feet.
    m = re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:'|ft\.?|feet|foot)?\s*(?:x|by|\u00d7)\s*(\d+(?:\.\d+)?)\s*(?:'|ft\b|feet\b|foot\b)", low)
    # "a 10x12 shed", "my shed is 8x10": sides with no unit, written with an x next to what they measure
    m = m or re.search(r"\b" + _STRUCTURES + r"\s+(?:(?:is|was|will be|measures|measuring|of|about|roughly|approximately|"
                       r"only|just)\s+){0,2}(\d+(?:\.\d+)?)\s*(?:x|\u00d7)\s*(\d+(?:\.\d+)?)(?![\d.]*\s*(?:'|ft|feet|foot))", low)
    m = m or re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:x|\u00d7)\s*(\d+(?:\.\d+)?)(?=\s+(?:[\w-]+\s+){0,2}" + _STRUCTURES + r"\b)", low)
    if m:
        return "sq_ft", _num(m.group(1)) * _num(m.group(2))
    # "half an acre", "a third of an acre", "three quarters of an acre", "two acres"
    m = re.search(r"\b(three quarters|two thirds|half|a quarter|quarter|a third|third|one|two|three|four|five|six|seven|"
                  r"eight|nine|ten|an)\s+(?:(?:of\s+)?an?\s+)?acres?\b", low)
    if m:
        return "acres", _word_number(m.group(1))
    return None


_LOT_AREA = re.compile(r"(?:" + _NUMBER + r"|(three quarters|two thirds|half|a quarter|quarter|a third|one|two|three|four|five|"
                       r"six|seven|eight|nine|ten|an))\s*(acres?|ac\b|square feet|square foot|sq\.? ?ft\.?|sf\b|sqft)\s+"
                       r"(?:(?:residential|vacant|empty|corner|wooded|commercial|building)\s+)?(?:lot|parcel|property|plot)s?\b")


_COMPARED_AREA = re.compile(r"\b(?:under|over|less than|more than|below|above|at least|exceed\w*|than)\s+(?:an?|one|1)\s*acres?\b")


def area_beyond_lot(q: str) -> tuple[str, str] | None:
    """("5,000 acres", "quarter-acre lot") when the question disturbs more land than the lot it names has ("a
    5,000-acre driveway on a quarter-acre lot"): the disturbed area and the lot as written; else None."""
    low = _unhyphened(q)
    m = _LOT_AREA.search(low)
    if m is None:
        return None
    others = low[:m.start()] + " " + low[m.end():]
    rest = extract_area(others)
    if rest is None or _COMPARED_AREA.search(others):
        return None  # "a half-acre lot; does being under an acre get us out?" names the law's line, not the work
    n = _num(m.group(1)) if m.group(1) else _word_number(m.group(2))
    lot_acres = n if m.group(3).startswith("ac") else n / SQFT_PER_ACRE
    acres = rest[1] if rest[0] == "acres" else rest[1] / SQFT_PER_ACRE
    if lot_acres <= 0 or acres <= lot_acres:
        return None
    unit = {"acres": "acres", "sq_ft": "sq ft"}
    lot = re.sub(r"^an?\s+", "", q[m.start():m.end()], flags=re.I)  # as written (_unhyphened keeps offsets)
    return f"{rest[1]:,g} {unit[rest[0]]}", lot


def extract_inches(q: str) -> float | None:
    low = q.lower()
    # "0.6 in" counts as inches only before rain words or at the end; "May 4 in Hempstead" is a date and a place.
    m = re.search(_NUMBER + r"\s*(?:\"|inch(?:es)?\b|in\.?(?=\s+(?:of\s+)?(?:rain|precip))|in\.?(?=\s*(?:[?.!,;]|$)))", low)
    if m:
        return _num(m.group(1))
    m = re.search(r"\b(half|an|one|two|three)\s+inch", low)
    if m:
        return float(_NUM_WORDS[m.group(1)])
    return None


_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"], start=1)}
_MONTHS.update({k[:3]: v for k, v in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
# "ended Tues 4pm", "Fri. morning": a day typed short; the short forms that are words ("sat", "wed", "sun") count
# only before a time of day.
_WEEKDAY_SHORT = (r"tues|weds|thurs|thur|(?:mon|tue|wed|thu|fri|sat|sun)(?=\.?\s*(?:\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m|p\.m)|"
                  r"morning|afternoon|evening|night|noon)\b)|(?:mon|tue|thu|fri)(?=\.)")


def impossible_dates(q: str) -> list[str]:
    """Numeric dates written in the question that do not exist ("2/30/2026", "2026-13-01")."""
    bad = []
    for m in re.finditer(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b|\b(\d{1,2})/(\d{1,2})/(\d{2,4})\b", q):
        y, mo, d = (m[1], m[2], m[3]) if m[1] else (m[6], m[4], m[5])
        y = int(y) + (2000 if len(y) == 2 else 0)
        try:
            date(y, int(mo), int(d))
        except ValueError:
            bad.append(m.group(0))
    return bad


def extract_dates(q: str, today: date) -> list[date]:
    """Dates written as 2026-03-03, 3/3/2026, March 3rd (2026), 'Tuesday' (the most recent), today, yesterday."""
    low = q.lower()
    out: list[tuple[int, date]] = []

    def add(pos: int, d: date | None) -> None:
        if d is not None:
            out.append((pos, d))

    def safe(y: int, m: int, d: int) -> date | None:
        try:
            return date(y, m, d)
        except ValueError:
            return None

    for m in re.finditer(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", low):
        add(m.start(), safe(int(m[1]), int(m[2]), int(m[3])))
    for m in re.finditer(r"\b(\d{1,2})/(\d{1,2})/(\d{2,4})\b", low):
        y = int(m[3]) + (2000 if len(m[3]) == 2 else 0)
        add(m.start(), safe(y, int(m[1]), int(m[2])))
    month_names = "|".join(sorted(_MONTHS, key=len, reverse=True))
    for m in re.finditer(r"\b(" + month_names + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?\b", low):
        y = int(m[3]) if m[3] else today.year
        add(m.start(), safe(y, _MONTHS[m[1]], int(m[2])))
    for m in re.finditer(r"\b(?:in\s+)?(" + month_names + r")\.?\s+(\d{4})\b", low):  # "in March 2026", "issued Feb 2026"
        add(m.start(), safe(int(m[2]), _MONTHS[m[1]], 1))
    for m in re.finditer(r"\b(today|yesterday|tomorrow|last night)\b", low):
        delta = {"today": 0, "yesterday": -1, "last night": -1, "tomorrow": 1}[m[1]]
        add(m.start(), today + timedelta(days=delta))
    for m in re.finditer(r"\b(?:(next|this|last)\s+)?(" + "|".join(_WEEKDAYS) + r"|" + _WEEKDAY_SHORT + r")\b", low):
        if re.match(r",?\s+(?:(?:" + month_names + r")\b|\d{1,4}[/-]\d)", low[m.end():]):
            continue  # "Monday June 8, 2026": the date that follows says which Monday
        wd = next(i for i, day in enumerate(_WEEKDAYS) if day.startswith(m[2][:3]))
        if m[1] == "next" or re.search(r"\b(starting|start|will|going to|begin)\b", low[: m.start()]):
            days = (wd - today.weekday()) % 7 or 7
            add(m.start(), today + timedelta(days=days))
        else:
            days = (today.weekday() - wd) % 7
            add(m.start(), today - timedelta(days=days))
    return [d for _, d in sorted(out)]


# The verbs that date the event a deadline runs from ("if I called the inspector Friday", "the NOV was served on
# the 3rd", "it rained Tuesday").
_EVENT_VERB = re.compile(r"\b(?:notif\w*|told|called|informed|served|received|got|issued|dated|rained|poured|stormed|ended|stopped|"
                         r"finished|completed|left|quit|disqualified|registered|accepted)\b", re.I)


def event_dates(q: str, today: date) -> list[date]:
    """The dates written in the clause of a verb that dates an event ("close up Sunday if I called Friday" ->
    Friday), in text order; [] when no such clause holds a date."""
    out: list[date] = []
    for m in _EVENT_VERB.finditer(q):
        clause = re.split(r"[,;?.!]|\b(?:and|but|so|can|could|when|if)\b", q[m.start():], maxsplit=1, flags=re.I)[0]
        out += [d for d in extract_dates(clause, today) if d not in out]
    return out


def extract_time(q: str) -> tuple[int, int] | None:
    m = re.search(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)", q.lower())
    if not m:
        return None
    hour, minute = int(m[1]), int(m[2] or 0)
    if not 1 <= hour <= 12 or minute > 59:
        return None  # not a clock time ("13 pm", "9:75 am")
    return hour % 12 + (12 if m[3].startswith("p") else 0), minute


def extract_offense_number(q: str) -> int | None:
    low = q.lower()
    for word, n in _ORDINALS.items():
        if re.search(r"\b" + word + r"\b\s+(?:[\w'&-]+\s+){0,3}?(?:offen[cs]e|violation|conviction|time|strike|infraction|citation|ticket)", low):
            return n
    m = re.search(r"\b(\d+|one|two|three|four)\s+prior", low)
    if m:
        return int(_NUM_WORDS.get(m[1], m[1])) + 1  # type: ignore[arg-type]
    # "convicted in 2022 and again this year", "caught again": a second one.
    if re.search(r"\b(?:convict\w*|offen[cs]es?|violat\w*|cited|caught|fined)\b[^.?!]{0,40}\bagain\b", low):
        return 2
    return None


def extract_years_window(q: str) -> float | None:
    m = re.search(r"\b(?:within|in|over)(?: the last| the past| past| last)?\s+(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:years?|yrs?)\b", q.lower())
    if m:
        return float(_NUM_WORDS.get(m[1], m[1]))  # type: ignore[arg-type]
    # "six years ago", "six years apart", "7 yrs later", "a gap of six years between them"
    m = re.search(r"\b(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:years?|yrs?)\s+"
                  r"(?:ago|apart|later|afterwards?|between)\b", q.lower())
    if m:
        return float(_NUM_WORDS.get(m[1], m[1]))  # type: ignore[arg-type]
    return None


def extract_duration_days(q: str) -> int | None:
    m = re.search(r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:(?:more|additional|further|straight|"
                  r"consecutive|full|whole|entire) )?(days?|weeks?|months?)\b", q.lower())
    if not m:
        return None
    n = int(_NUM_WORDS.get(m[1], m[1]))  # type: ignore[arg-type]
    return n * {"d": 1, "w": 7, "m": 30}[m[2][0]]


# --- intent ------------------------------------------------------------------------------------------

_CITATION_IN_Q = re.compile(
    r"(§\s*\d|\b\d+[a-z]?-\d+\b|\b(?:section|sec\.?)\s*\d{3}\b|\b3[89]\d\s*\(?[a-z]\)?\b|"
    r"\b(?:exemptions?|penalties|enforcement|fees|purpose|applicability)\s+(?:item\s+)?\(?[a-k]\)?(?:\s|$|\?))", re.I)
_LOOKUP_WORDS = re.compile(r"\b(what does|what do|show|say|says|text of|read|full text|quote|look ?up|open|cite|"
                           r"what'?s in|what is in|wording|verbatim|pull (?:up|out)|bring up|display|print|"
                           r"(?:can|could|may) (?:i|we) see|let me see)\b", re.I)
_DEFINITION = re.compile(
    r"^(?:what(?:'s| is| are| does| counts as| qualifies as|s)|define|definition of|meaning of|who (?:is|counts as)|"
    r"what do(?:es)? (?:they|you|the (?:town|village|law|code)) mean by)\s+(?:an?\s+|the\s+)?[\"'\u2018\u201c]?(?P<term>[^?\"'\u2019\u201d]+?)[\"'\u2019\u201d]?"
    r"(?:\s+(?:mean|means|defined|stand for))?(?:\s+(?:under|in|according|for|as used|here|there|exactly)\b.*)?\s*\??$", re.I)
# A quoted term; an apostrophe inside a word ("Hempstead's") opens or closes nothing.
_QUOTED_TERM = re.compile(r"(?<![a-z])[\"'\u2018\u201c](?P<term>[a-z][a-z -]{2,60}?)[\"'\u2019\u201d](?![a-z])", re.I)
# "stormwater hotspot meaning?", "impervious cover definition"
_DEFINITION_TAIL = re.compile(r"^(?:an?\s+|the\s+)?(?P<term>[a-z][a-z' -]{2,60}?)\s+"
                              r"(?:meaning|definition|defined|means what|defn?\.?|=)\s*\??$", re.I)
# "phasing - what does that mean in the stormwater rules?", "impervious cover: what is it?": the term first.
_DEFINITION_LEAD = re.compile(r"^(?:an?\s+|the\s+)?(?P<term>[a-z][a-z' ]{2,60}?)\s*(?:[-\u2013\u2014:,?]+\s*)"
                              r"(?:what does (?:that|it|this) (?:mean|stand for)|what(?:'s| is) (?:that|it|this)|"
                              r"what(?:'s| is) (?:the )?(?:meaning|definition)|what(?:'s| is| are) included|meaning|definition|"
                              r"defined how)\b", re.I)
_COMPARE = re.compile(r"\b(differ|different|difference|differences|compar(?:e|ed|es|ing)|comparison|versus|vs\.?|same in both|both towns|"
                      r"both places|both municipalities|the same in|same as|in both|differently|same|identical|alike|"
                      r"between\s+[\w.' -]{1,60}?\s+and\s+[\w.'-]+)\b", re.I)  # the municipalities are counted by the caller
def compares(text: str) -> bool:
    """Does the wording compare ("differ", "versus", "the same as", "between X and Y")?"""
    return bool(_COMPARE.search(text))


# "are fines worse in X or Y?", "which is stricter": with two places named, a comparison.
COMPARATIVE = re.compile(r"\b(?:worse|better|stricter|tougher|harsher|higher|lower|bigger|larger|smaller|easier|harder|"
                          r"cheaper|longer|shorter|more (?:strict|lenient|expensive)|which (?:one|is|has)|"
                          r"but not|(?:that|which) (?:the other|[\w.']+) (?:doesn't|does not|don't|do not|lacks?))\b", re.I)
_BOTH = re.compile(r"\b(?:both|the two (?:towns|villages|municipalities|places|laws|codes|ordinances))\b", re.I)
_FOLLOW_MUNI = re.compile(r"^(?:and |but |ok(?:ay)?,? )?(?:what|how) about (?:in |for )?(?P<rest>.+?)\??$|^(?:and|same) (?:in|for) (?P<rest2>.+?)\??$", re.I)
_FOLLOW_AREA = re.compile(r"^(?:and |but |what )?(?:if|about if|what if)\b.*\b(acre|acres|sq|square|feet)\b", re.I)
_FOLLOW_FULL = re.compile(r"\b(that section|that provision|the full text|in full|whole section|show me that|full section)\b", re.I)

_APPLICABILITY = re.compile(
    r"\b(?:(?:need|needing|require[sd]?|required|requiring|have to)\s+(?:to\s+(?:file|submit|prepare|do|get|have)\s+)?"
    r"(?:an?\s+|the\s+|any\s+|one of (?:those|these|the)\s+)?"
    r"(?:swppps?|stormwater (?:pollution prevention )?plan|erosion (?:and sediment )?control (?:plan|review)|stormwater review|"
    r"stormwater permit)|(?:swppps?|stormwater (?:pollution prevention )?plan)\s+(?:\w+\s+){0,2}(?:needed|required|necessary)|"
    r"(?<!\bwhen )does (?:the|this) (?:(?:town|village)(?:'s)? )?(?:stormwater |erosion |runoff )?(?:law|rules?|chapter|article|ordinance) "
    r"(?:apply|kick in)|"
    r"am i exempt|are we exempt|is (?:it|this|that|my \w+) exempt|"
    r"(?:is|counts? as) (?:this|it|that|my \w+|our \w+) (?:a )?land development activity)", re.I)
# With an area stated, whether it crosses the law's line: "over the threshold?", "are we in or out?".
_OVER_THRESHOLD = re.compile(r"\b(?:over|under|above|below|past|meet|hit|cross|reach)(?:es|ed|ing|s)? (?:the |your |that )?"
                             r"(?:threshold|cutoff|cut-off|line)\b|\b(?:are|is) (?:we|i|it|this|the (?:job|site|project)) "
                             r"(?:in or out|covered or not)\b", re.I)
_CHECKLIST = re.compile(r"\b(what goes in|what (?:must|should|has to|needs to) (?:a |my |the |our )?(?:swppp|plan) (?:contain|include|have)|"
                        # "what are all the things the SWPPP must include for a 3 acre site?"
                        r"what (?:are )?(?:all )?(?:the )?(?:things|items|parts|sections|elements)\b[^?]{0,30}\b(?:swppp|plan) "
                        r"(?:must|should|has to|needs to|shall) (?:contain|include|have|show|list)|"
                        r"checklist|contents of (?:a |my |the )?swppp|what (?:do i|should i|must i) (?:put|include) in)\b", re.I)
_PENALTY = re.compile(r"\b(fines?|penalt(?:y|ies)|how much (?:will|would|could|do) (?:i|we|they) (?:owe|pay|be fined)|jail|imprison|"
                      r"offen[cs]es?|convictions?|how many (?:violations|offenses)|one violation or (?:several|many|more)|"
                      r"separate violations?|several violations|crimes?|criminal|misdemeanou?rs?|tickets?|ticketed)\b", re.I)
_DEADLINE = re.compile(r"\b(when is|when'?s|when are|earliest|close (?:it|them|that|the walls?) (?:up|in)|when (?:do|does|must|should) (?:i|we|the)|deadline|due|last day|how long (?:do|does) (?:i|we)|"
                       r"by when|expire|expires|expiration|run(?:s)? out|good (?:until|through|till)|valid (?:until|through|till)|"
                       r"how soon|latest|close the walls|cover (?:the )?wiring|conceal|"
                       r"when can (?:we|i)|void|release(?:d)? (?:the )?(?:bond|guarantee|security))\b", re.I)
_ELECTRICAL = re.compile(r"\b(electric(?:al|ian)?|wiring|wire|rewir(?:e|ed|es|ing)|fuse|fuses|switch(?:es)?|outlets?|receptacles?|circuits?|subpanel|"
                         r"panel|lamp sockets?|drop cords?|journeym[ae]n|sheetrock over|breakers?|ceiling fans?|"
                         r"light(?:ing)? fixtures?|generators?|ev chargers?|car chargers?|solar (?:panels?|arrays?|systems?|pv)|photovoltaic|pv)\b", re.I)
_PERMIT = re.compile(r"\b(?:(?:need|require[sd]?|get|pull|apply for|file for)\s+(?:an?\s+|the\s+|any\s+)?(?:electrical\s+|wiring\s+)?permits?|"
                     r"without (?:an?\s+|the\s+|any\s+)?(?:electrical\s+|wiring\s+)?permits?|"
                     r"permits?\s+(?:needed|required|necessary|reqd|req'd)|permit needed|can i do it myself|do it myself)\b|"
                     r"(?:^|[.!;:-]\s*)(?:an?\s+|electrical\s+)?permits?\s*\?", re.I)  # "... for a hot tub. Permit?"

# "upgrading my house to a 200 amp panel": a short statement of the work, no question asked, asks whether it
# needs a permit.
# A question typed without its mark ("does Tuckahoe honor my license") is no statement of work.
_BARE_PROJECT = re.compile(r"(?!.*\b(?:" + QUESTION_WORDS + r"|does|did|can|could|should|must|will|would)\b)[^?]{3,90}", re.I)

# Electrical work being done (the permit calculator's subject), not wiring merely used or owned.
_WORK = re.compile(r"\b(install\w*|replac\w*|add(?:ing)?|wir(?:e|ing) (?:up|a|an|the|my|our|new)|repair\w*|fix\w*|chang\w*|"
                   r"swap\w*|run(?:ning)?|upgrad\w*|mov(?:e|ing)|extend\w*|rewir\w*|put(?:ting)? (?:in|up|an?|the|some|new)|do (?:it|the work)|"
                   r"work|job|alter\w*|new|wants?|wanted|putting)\b", re.I)
_USING = re.compile(r"\b(?:keeps?|kept|still|continues? to|go(?:es)? on) us(?:e|es|ing)\b|\busing it\b", re.I)


ACTIVITY_KEYWORDS: list[tuple[str, str]] = [
    (r"landing area|log haul|haul road", "silviculture_landing_or_haul_road"),
    (r"\b(silvicultur\w*|logging|timber|forestry)\b", "silviculture"),
    (r"\b(farm\w*|agricultur\w*|livestock|crops?|grazing|orchards?|vineyards?|pastures?|hay ?fields?|growing beds|"
     r"(?:plant|tree|shrub|wholesale) nurser(?:y|ies)|nursery (?:beds?|stock|fields?|rows?))\b", "agriculture"),
    (r"\b(routine maintenance|maintain(?:ing)? the original|back to (?:how|the way) it was|original (?:line|grade)|"
     # "repaving the existing lot at the same grade"
     r"(?:same|existing) (?:line and )?grade|"
     r"(?:fix|fixing|clean|cleaning|regrad\w*) (?:an |the |our )?existing (?:ditch|swale|drainage|channel)|"
     # "clearing out a clogged drainage channel to restore its original capacity"
     r"restor\w* (?:its |the |their )?original (?:capacity|purpose|line|grade|flow)|original (?:hydraulic )?capacity|"
     r"(?:clear|clean|dredg|unclog)\w*(?: out)? (?:an? |the |our |that )?(?:clogged |existing |old |silted )*"
     r"(?:ditch|swale|drainage (?:ditch|channel|swale)|channel|culvert)s?)\b", "routine_maintenance"),
    (r"\b(repair\w* (?:to )?(?:the |a |an |our )?(?:stormwater|smp|drainage|detention|retention|basin|pond))\b", "smp_repair"),
    (r"\b(cemetery|graves?|burial)\b", "cemetery_graves"),
    # "sign" the plan is a verb, not the exempt activity: signs count as things put up.
    (r"\b(fences?|signage|billboards?|(?:an?|the|my|our|new|business|store|shop|yard|street) signs?\b(?! (?:the|off|it|this|that|a|an|for|here)\b)|"
     r"(?<!to )(?<!must )(?<!who )(?<!will )(?<!and )(?<!can )signs\b(?! (?:the|off|it|this|that|a|an|for|here)\b)|poles?|posts?(?![- ]?construction)|flagpole)\b", "fence_sign_pole"),
    (r"\b(emergenc\w*|water main (?:broke|break|burst)|(?:main|pipe) burst|burst (?:water )?(?:main|pipe))\b", "emergency"),
    (r"\b(vegetable garden|veggie garden|home garden\w*|gardening|flower beds?|"
     r"growing (?:flowers|vegetables)|"
     r"grow(?:ing)? (?:\w+ )?(?:flowers|vegetables|veggies|tomatoes|peppers|herbs|lettuce|plants) (?:\w+ ){0,3}for (?:the|my|our) family)\b",
     "home_gardening"),
    # A landscape architect prepares plans; landscaping is the activity.
    (r"\b(landscap\w*(?! architect)|horticultur\w*|planting shrubs)\b", "landscaping_existing_structure"),
]


def _first_key(table: list[tuple[str, str]], text: str) -> str | None:
    """The key of the first pattern in a (pattern, key) table that matches the lower-cased text."""
    low = text.lower()
    return next((key for pattern, key in table if re.search(pattern, low)), None)


def extract_activity(q: str) -> str | None:
    return _first_key(ACTIVITY_KEYWORDS, q)


MINOR_REPAIR_KEYWORDS: list[tuple[str, str]] = [
    (r"\bfuses?\b(?!\s*(?:box|boxes|panel|panels|board))", "replacing_fuses"),  # a fuse box is a panel
    (r"\b(?:flush|snap|light|wall)?\s*switch(?:es)?\b", "repairing_switches"),
    (r"\b(?:lamp sockets?|light sockets?|receptacles?|outlets?)\b", "changing_lamp_sockets_and_receptacles"),
    (r"\btap(?:e|ing)\b.*\bjoints?\b|\bbare joints?\b", "taping_bare_joints"),
    (r"\b(?:drop|extension) cords?\b", "repairing_drop_cords"),
    (r"\bplug(?:ging)? in\b|\bportable (?:device|appliance)s?\b", "connecting_portable_devices"),
]


def extract_minor_repair(q: str) -> str | None:
    """The listed minor repair (§ 7-5(a)(1)) a question describes, only for repair/replace wording."""
    low = q.lower()
    # "the outlet cracked, want to put in a new one": a broken part replaced is a repair
    if not re.search(r"\b(replac\w*|repair\w*|fix\w*|chang\w*|swap\w*|tap\w*|plug\w*|connect\w*|crack\w*|broke\w*|busted|"
                     r"damaged|burn(?:ed|t) out)\b", low):
        return None
    if re.search(r"\b(new(?! one)|add(?:ing)?|install(?:ing)?|extra|more)\b", low) and not re.search(r"\bfuse", low):
        return None
    return _first_key(MINOR_REPAIR_KEYWORDS, low)


def extract_performed_by(q: str) -> str | None:
    low = q.lower()
    if re.search(r"\b(utilit(?:y|ies)|con ?ed|con edison|(?:power|phone|telephone|cable|electric|gas|telecom) (?:company|utility)|"
                 r"verizon)\b", low):
        return "utility"
    if re.search(r"\b(on staff|in[- ]house|employ(?:s|ed)? (?:\w+ )?(?:journeym[ae]n|electricians)|our (?:own )?electricians|"
                 r"staff (?:journeym[ae]n|electricians)|(?:our|its|their) (?:own )?(?:\w+ )?journeym[ae]n|"
                 r"with (?:\w+ ){0,2}(?:full[- ]time )?journeym[ae]n)\b", low) or \
            re.search(r"\bjourneym[ae]n\b[^.?!]{0,40}\b(?:on (?:the |our )?payroll|on staff|full[- ]time|employ\w*|work(?:s|ing)? for us)\b", low):
        return "in_house_journeyman"
    if re.search(r"\b(registered|licensed|electrical contractor|my electrician|an electrician|hire)\b", low):
        return "registered_contractor"
    if re.search(r"\b(myself|do it myself|homeowner|i do it|i'm doing|diy|my house|my home)\b", low):
        return "homeowner"
    return None


@dataclass
class Route:
    intent: str
    calculator: str | None = None
    term: str | None = None
    citation_text: str | None = None
    other_place: str | None = None
    notes: list[str] = field(default_factory=list)


_DEFINITION_CUE = re.compile(r"\b(?:counts? as|considered|qualif(?:y|ies) as|what(?:'s| is| are|s)|define|definition of|"
                             r"meaning of|mean by|defined as|am i (?:an?|the)|are we (?:an?|the)|"
                             # "can my contractor be the applicant?": whether someone can be what a term names
                             r"(?:can|could|may) (?:[\w']+ ){1,3}(?:be|act as|serve as)(?= (?:an?|the) ))\b|\s=\s*", re.I)


def bare_phrase(text: str) -> str:
    """What a question says with its quotes, end punctuation and a leading article taken off ("the
    landowners?" -> "landowners"): when that is a defined term, the question asks what the term means."""
    return re.sub(r"^(?:an?|the)\s+", "", text.strip(" \t\n\"'\u2018\u201c\u2019\u201d?.!").lower())


def _definition_term(q: str, definitions: dict[str, str], abbreviations: dict[str, str]) -> str | None:
    m = _DEFINITION.match(q.strip()) or _DEFINITION_TAIL.match(q.strip()) or _DEFINITION_LEAD.match(q.strip())
    candidates = []
    if m:
        candidates.append(m["term"])
    # "phasing?", "the landowner?": a defined term alone (the whole question) is asked about.
    bare = bare_phrase(q)
    for t in (bare, bare.rstrip("s"), abbreviations.get(bare, "")):
        if t and definitions.get(t):
            return t
    candidates += [qm["term"] for qm in _QUOTED_TERM.finditer(q)]
    cue = _DEFINITION_CUE.search(q)
    if cue:  # "does a dude ranch count as agricultural activity", "do I count as the landowner"
        rest = q[cue.end():].lower()
        found = [t for t in definitions if len(t) > 3 and re.search(r"(?<![\w-])" + re.escape(t) + r"(?![\w-])", rest)]
        # Multi-word terms anywhere after the cue; a single word only as the whole remaining phrase.
        multi = [t for t in found if " " in t]
        single = [t for t in found if " " not in t and re.fullmatch(
            r"\s*(?:an?\s+|the\s+)?" + re.escape(t) + r"(?:\s+(?:exactly|under .*|in .*|for .*))?\s*\??\s*", rest)]
        if multi or single:
            candidates.append(max(multi or single, key=len))
    elif re.match(r"(?:is|are|would|does|do)\s", q.strip(), re.I):
        # "is a parking lot impervious cover?": a yes/no question that ends on a defined term of two words or more
        end = re.sub(r"(?:\s+(?:under|in|for|according to)\b.*)?\s*\??\s*$", "", q.strip().lower())
        ending = [t for t in definitions if " " in t and re.search(r"(?<![\w-])" + re.escape(t) + r"$", end)]
        if ending:
            candidates.append(max(ending, key=len))
    for raw in candidates:
        words = re.sub(r"\s+", " ", raw.lower()).strip(" .").split(" ")
        # "the town's stormwater hotspot": the term may follow a place or a possessive; try shorter tails.
        for i in range(min(len(words), 3)):
            term = re.sub(r"^(?:a|an|the)\s+", "", " ".join(words[i:]))
            for t in (term, term.rstrip("s"), term + "s", abbreviations.get(term, "")):
                if t and definitions.get(t):
                    return t
    if m:  # "what's impervious mean?": one word of exactly one defined term of two ("impervious cover")
        word = bare_phrase(m["term"])
        holding = [t for t in definitions if t.count(" ") == 1 and len(word) >= 5 and re.search(
            r"(?<![\w-])" + re.escape(word) + r"s?(?![\w-])", t)] if re.fullmatch(r"[a-z]+", word) else []
        if len(holding) == 1:
            return holding[0]
    return None


def read_slots(q: str, today: date) -> tuple[dict, dict[str, str]]:
    """Every calculator input the question states, read once: {slot: value} and {slot: the words read}.
    Values are JSON data (dates as ISO strings); a slot the question does not state is absent."""
    low = q.lower()
    slots: dict = {}
    words: dict[str, str] = {}

    def put(name: str, value, match: str | None) -> None:
        slots[name] = value
        words[name] = match or ""

    area = extract_area(q)
    if area:
        put("area_unit", area[0], None)
        put("area", area[1], f"{area[1]:g} {area[0]}")
    beyond = area_beyond_lot(q)
    if beyond:
        put("area_beyond_lot", list(beyond), " on a ".join(beyond))
    act = extract_activity(q)
    if act:
        put("activity", act, act)
    for name, pattern in _FLAG_SLOTS.items():
        m = re.search(pattern, low)
        if m:
            put(name, True, m.group(0))
    if re.search(r"(?:\bnot|n't|\bno longer) (?:a )?part of (?:any|a|an)\s+(?:[\w-]+\s+){0,2}?(?:subdivision|larger|common|"
                 r"development|plan|project)|\bstand[- ]?alone\b|\bon its own\b", low):
        put("part_of_common_plan", False, "not part of")
    if slots.get("discharges_to_impaired_water") and re.search(r"\b(?:no|not|nothing|none|never|any)\W+(?:[\w'-]+\W+){0,2}impaired|"
                                                              r"n't\W+(?:[\w'-]+\W+){0,4}impaired", low):
        del slots["discharges_to_impaired_water"]
    n = extract_offense_number(q)
    if n:
        put("offense_number", n, str(n))
    years = extract_years_window(q)
    if years is not None:
        put("years_window", years, f"{years:g} years")
    days = extract_duration_days(q)
    if days:
        put("duration_days", days, f"{days} days")
    bad = impossible_dates(q)
    if bad:
        put("impossible_dates", bad, bad[0])
    dates = extract_dates(q, today)
    if dates:
        put("dates", [d.isoformat() for d in dates], ", ".join(d.isoformat() for d in dates))
    inches = extract_inches(q)
    if inches is not None:
        put("inches", inches, f"{inches:g} inches")
    hm = extract_time(q)
    if hm:
        put("time", f"{hm[0]:02d}:{hm[1]:02d}", f"{hm[0]:02d}:{hm[1]:02d}")
    for name, pattern in _EVENT_SLOTS:
        if re.search(pattern, low):
            put("event", name, name)
            break
    repair = extract_minor_repair(q)
    if repair:
        put("minor_repair", repair, repair)
    by = extract_performed_by(q)
    if by:
        put("performed_by", by, by)
    if _ELECTRICAL.search(q):
        put("electrical", True, _ELECTRICAL.search(q).group(0))
    same = re.search(r"\b(same|identical|alike|match|differ\w*|different)\b", low)
    if same:  # "are they the same?" (True) or "do they differ?" (False)
        put("asks_same", not same.group(1).startswith("differ"), same.group(0))
    counting = re.search(r"\b(how many|separate|each (?:day|week)|count)\b", low)
    if counting:  # "how many violations is that?": a question about counting, not the fine
        put("counting", True, counting.group(0))
    return slots, words


_FLAG_SLOTS = {
    "single_family_residence": r"single[- ]family|one[- ]family|my (?:house|home)|a house\b|one (?:house|home)\b|"
                               r"(?:house|home) for (?:my|our) (?:own )?family|our (?:own )?(?:family )?(?:house|home)\b",
    # "a development" is a subdivision; "land development (activity)" is the law's own term, not a plan.
    "part_of_common_plan": r"\b(subdivision|lots|phases|phased|larger (?:common )?plan|common plan|(?<!land )development(?! activit)|"
                           r"one of (?:the )?(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several|many|a few) (?:houses|homes|lots|"
                           r"units|buildings)|same developer|"
                           # "my half-acre lot is one of 12 the developer is selling off"
                           r"one of (?:the )?(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several|many|a few)\b"
                           r"(?=[^.?]{0,40}\b(?:lots?|parcels?|developer|builder|sell\w*|sold)\b))",
    "discharges_to_impaired_water": r"\b(impaired|303\(d\)|tmdl)\b",
    "site_plan_review": r"\b(site plan|special permit|subdivision review)\b",
}
_STORM = r"\b(rain|storm(?!water)|precip|it (?:poured|was pouring|is pouring|'s pouring)\b|downpour|pouring rain)"
# The dated event a deadline question is about, first match wins.
_EVENT_SLOTS = [
    ("storm", _STORM),
    ("last_report", r"\b(?:last|previous|latest|most recent)\b(?:\s+[\w&-]+){0,4}\s+reports?\b"),
    ("violation_notice", r"\b(nov(?!\.?\s*\d)|notice of violation|violation notice|served)\b"),  # not "Nov 25"
    ("wiring_concealment", r"\b(conceal\w*|sheetrock|drywall|cover(?:ing)? (?:up )?(?:the )?(?:wiring|wires|walls)|close (?:up )?the walls|"
                           r"(?:wiring|wires)\b[^.?!]{0,40}\b(?:covered|closed (?:up|in)|(?:ready|ok|okay) to (?:be )?(?:cover|close)\w*))\b"),
    ("disqualified", r"\b(?:disqualif\w*|dq(?:'?d|ed)?\b)"),
    ("supervisor_left", r"\b(supervis\w*|master electrician)\b.*\b(left|leaves|quit|quits|leave|gone|retired|fired|terminated|died)\b"),
    ("registration", r"\b(registration|registered|license|licence)\b"),
    ("final_acceptance", r"\b(final acceptance|guarantee|bond|escrow|letter of credit)\b"),
    ("construction_start", r"\b(start|starting|begin|break(?:ing)? ground|mobiliz\w*)\b"),
]


_OFFICIAL_TITLE = re.compile(r"\b(?:storm ?water|erosion(?: control)?|electrical)\s+(?:management\s+)?(?:officer|official|"
                             r"inspector|department|engineer)s?\b", re.I)


def without_titles(text: str) -> str:
    """The text without officials' titles that name a law's subject ("the stormwater officer")."""
    return _OFFICIAL_TITLE.sub(" ", text)


_DISTURBS = re.compile(r"\b(?:disturb\w*|(?:re)?grad(?:e|es|ed|ing)|clear(?:s|ed|ing)?|excavat\w*|fill(?:ing)?|(?:re)?pav(?:e|es|ed|ing)|"
                       r"strip(?:s|ped|ping)?|dig(?:s|ging)?|construct\w*|build(?:s|ing)?|develop(?:s|ed|ing)?)\b")


_FILING_ASKED = re.compile(r"\b(?:anything|something|what|paperwork|forms?|filings?)\b[^.?!]{0,25}\b(?:need|have|must|should|got)"
                           r"(?: to)? (?:file|submit|fill out|get|send|hand in|turn in)\b|\bany (?:paperwork|filings?|forms?)\b",
                           re.I)


def asks_applicability(q: str) -> bool:
    """Whether the question asks if a SWPPP or the law's review is needed ("flagpole - swppp needed?")."""
    return bool(_APPLICABILITY.search(q))


def route(q: str, definitions: dict[str, str], n_named: int = 0, other_place: str | None = None,
          slots: dict | None = None, glossary: Glossary | None = None, names_law: bool = False) -> Route:
    """Decide what the question needs, from the slots it states. `definitions` maps lower-case defined terms
    to provision ids; `n_named` is how many municipalities the question names; `names_law` is whether it
    names the topic of a law in the corpus (its metadata's topic words: "circuit" names an electrical code).
    A subject these laws do not cover is noted, not decided here: the answer layer abstains only when
    retrieval finds nothing close."""
    low = q.lower()
    if slots is None:
        slots = read_slots(q, date.today())[0]
    if other_place and not n_named:  # "I'm licensed in White Plains; can I work in Tuckahoe?" is about Tuckahoe
        return Route("abstain", other_place=other_place)
    glossary = glossary or load_glossary()
    subject = glossary.other_subject(q)
    # "keep trash out of the runoff", "is a parking lot impervious cover?": the laws' own subject is named too.
    # "repaving a parking lot at the same grade, exempt?": whether an activity the exemptions name is exempt is
    # theirs too ("can I keep chickens on my farm?" is not).
    # "can the stormwater officer officiate my wedding?": an official's title does not make the question the laws'
    # "disturbing 45,000 sq ft for a parking lot": an area of land disturbed is the laws' own subject ("chickens on
    # my 2 acre lot" is not).
    topical = without_titles(low)
    ours = names_law or ("area" in slots and _DISTURBS.search(topical)) or \
        ("activity" in slots and re.search(r"\bexempt", low)) or \
        re.search(r"\b(storm ?water|runoff|erosion|sediment|swpp\w*|pollut\w*|electric\w*|wiring|drainage)\b", topical) or \
        any(" " in t and re.search(r"(?<![\w-])" + re.escape(t) + r"(?![\w-])", low) for t in definitions)
    notes = [subject] if subject and not ours else [s] if (s := glossary.other_subject(q, beside_law_words=True)) else []
    m = _CITATION_IN_Q.search(q)
    # "appendix a 7-3" is the Village's zoning appendix, not Chapter 7 § 7-3.
    if m and (_LOOKUP_WORDS.search(q) or len(q.split()) <= 6) and not re.search(r"\bappendix\b", low):
        return Route("lookup", citation_text=q[m.start():])
    if (_COMPARE.search(q) and (n_named >= 2 or _BOTH.search(low))) or (n_named >= 2 and COMPARATIVE.search(q)):
        return Route("compare")
    if notes:  # "what hours can crews start making noise on Saturday?": no calculator of ours counts that
        return Route("retrieval", notes=notes)
    has_area = "area" in slots
    if _CHECKLIST.search(q) and has_area:
        return Route("calculator", calculator="swppp_checklist")
    if slots.get("electrical") and (_PERMIT.search(q) or _BARE_PROJECT.fullmatch(q.strip())) and _WORK.search(q) \
            and not _USING.search(q) and not _PENALTY.search(q) and not _DEADLINE.search(q):
        return Route("calculator", calculator="electrical_permit")
    if (_PENALTY.search(q) and ("offense_number" in slots or "duration_days" in slots or
                                re.search(r"\b(max|maximum|minimum|how much|range|what(?:'s| is) the fine)\b|\$\s?\d", low))) or \
            ("offense_number" in slots and re.search(r"\$\s?\d", low)):  # "a first violation can cost up to $500?"
        return Route("calculator", calculator="penalty")
    rain = "inches" in slots and re.search(_STORM, low)
    if rain or (_DEADLINE.search(q) and ("dates" in slots or "inches" in slots)):
        return Route("calculator", calculator="deadlines")
    if "area_beyond_lot" in slots:  # "a 5,000-acre driveway on a quarter-acre lot": the figures are asked back
        return Route("calculator", calculator="applicability")
    if has_area and _DISTURBS.search(low) and _FILING_ASKED.search(q):
        # "regrading the backyard, about 8,000 sq ft total. anything I need to file?": whether the law reaches it
        return Route("calculator", calculator="applicability")
    if has_area and _OVER_THRESHOLD.search(q):  # "45,000 sq ft of grading: over the threshold?"
        return Route("calculator", calculator="applicability")
    if _APPLICABILITY.search(q) and not _CHECKLIST.search(q) and (has_area or "activity" not in slots) and \
            not re.search(r"\b(approved before|(?:approved|issued|pulled) (?:back )?in (?:19|20)\d\d|before the (?:stormwater )?law|plat)\b", low):
        return Route("calculator", calculator="applicability")
    term = _definition_term(q, definitions, glossary.abbreviations)
    if term:
        return Route("definition", term=term)
    return Route("retrieval", notes=notes)


def follow_up_rest(q: str) -> str:
    """The place part of "what about in Tuckahoe?" / "and in Hempstead", or "" when not such a follow-up."""
    m = _FOLLOW_MUNI.match(q.strip())
    return (m["rest"] or m["rest2"] or "") if m else ""


def is_follow_up_area(q: str) -> bool:
    return bool(_FOLLOW_AREA.search(q.strip())) and len(q.split()) <= 12


def is_follow_up_full_text(q: str) -> bool:
    return bool(_FOLLOW_FULL.search(q)) and len(q.split()) <= 12
