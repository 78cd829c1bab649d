"""Places a question may name that the corpus does not cover, read from `corpus/_places/places.toml`.

`Gazetteer.other_place` tells "a deck in Chicago", "my lot in Oyster Bay" or "North Hempstead" from the
corpus municipalities, whose names and aliases the caller passes in (`ours`); nothing here knows which
municipalities those are. `Gazetteer.mask` blanks the other places so that municipality detection does not
read "North Hempstead" as Hempstead.

Matching: every name variant goes into one regular expression built as a character trie (a plain
alternation of some 4,000 names is tried name by name at every position; the trie fails on the first
character). Candidates are collected at every word start, then the longest wins wherever two overlap, so
"village of hempstead" beats the alias "the village", and "north hempstead" beats "hempstead".
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import CorpusError

PLACES_FILE = Path("_places") / "places.toml"

_SPACE = re.compile(r"[\s\-]+")
_POSSESSIVE = re.compile(r"(?:'s|')$")
_CUE_BEFORE = re.compile(r"\b(?:(?:town|village|city|county|hamlet) of|county\s*,)\s+$")  # "Fairfax County, Virginia"
_WEAK_CUE_BEFORE = re.compile(r"\b(?:in|near|from|at|outside|around)\s+$")
_CUE_AFTER = re.compile(r"(?:'s|')?(?:\s*,\s*|\s+)(?:ny|n\.y\.|new york|nj|n\.j\.|county)(?![\w-])")
_SENTENCE_END_AFTER = re.compile(r"(?:'s|')?\s*(?:[?.!;,:)]|$)")
# "Sea Cliff stormwater rules for ...": a capitalised name before the words of a local law or its offices
_LAW_AFTER = re.compile(r"(?:'s|')?\s+(?:stormwater|storm water|erosion|electrical|building|zoning|village|town|city|code|codes|"
                        r"rules?|laws?|ordinances?|permits?|regulations?|requirements?|inspectors?|officials?)\b")
_STATE_CODE_AFTER = re.compile(r"(,\s*|\s+)([A-Z]{2})(?![\w-])")
_STATE_GAP = re.compile(r"(?:'s|')?\s*,?\s*$")
_STATE_CODE = re.compile(r"\s*,\s*([A-Z]{2})(?![\w-])")
# Land or work placed by the words just before a place's name ("my lot in", "4,000 acres on", "a deck out in").
_SITED_BEFORE = re.compile(r"\b(?:lots?|propert(?:y|ies)|house|home|houseboat|yard|parcel|land|acres?|acreage|farm|"
                           r"site|job ?site|project|building|deck|shed|pool|garage|driveway|warehouse|dig|development|"
                           r"subdivision|colony|shop|store|storefront|office|restaurant|apartment|condo)\b(?:\s+[\w',-]+){0,4}?\s+(?:in|on|at|near|inside|within)\s+(?:the\s+)?(?:(?:un)?incorporated\s+)?$")
# Where the asker lives or is ("I'm in the Village of Lynbrook"): the land asked about, when the question asks
# whether a law reaches it.
_LIVES_BEFORE = re.compile(r"\b(?:i'?m|i am|we'?re|we are|(?:i|we) (?:live|reside)|located)\s+(?:in|inside|within)\s+"
                           r"(?:the\s+)?(?:(?:un)?incorporated\s+)?$")
_ORIGIN_BEFORE = re.compile(r"\b(?:from|out of|licen[sc]ed (?:in|by)|registered (?:in|with)|based (?:in|out of)|"
                            r"work(?:s|ed|ing)? (?:in|for)|moved (?:here )?from)\s+(?:the\s+)?(?:(?:town|village|city) of\s+)?$")
# "the owner's Scarsdale mailing address": the place is only someone's address
# (or the one who issued someone's credential: "registered here by reciprocity through my Town of Mamaroneck license")
_ADDRESS_AFTER = re.compile(r"\s*(?:mailing |home |business |office |billing |permanent |street )?(?:address(?:es)?|residence|p\.?\s?o\.? box)\b|"
                            r"\s*(?:electrical |electrician'?s? |contractor'?s? |master (?:electrician'?s? )?)?"
                            r"(?:licen[sc]es?|registrations?|certificates? of registration|credentials?)\b")
# "while he's down in Florida all winter", "the owner is away in Florida": where someone is for a while, not where
# the work or the question is.
_AWAY_BEFORE = re.compile(r"(?:\bwhile [a-z]+(?:'s|'re|'m| is| are| am| was| were)\s+(?:away |down |up |out |off |over |still )?in|"
                          r"\b(?:away|vacationing|wintering|on vacation|on holiday|snowbirding) in|"
                          # "I own the lot in Baldwin Harbor but spend most of the year in Florida"
                          r"\bspen(?:d|ds|ding|t) (?:most |much |part |half |the rest )?(?:of )?(?:the |my |our |his |her |their )?"
                          r"(?:year|winters?|summers?|months?|time|season) in)\s+(?:the\s+)?$")


def _after(cue: re.Pattern[str], low: str, start: int, span: int = 40) -> bool:
    """The `span` characters before `start` end with `cue` ("... licensed in ", "while he's down in ")."""
    return bool(cue.search(low[max(0, start - span):start]))


_STATE_AGENCY = re.compile(r"(?<![\w-])([A-Z]{2})[ -](?:[A-Z]{2,6})(?![\w-])")
_WORDLIKE_CODES = frozenset({"IN", "OR", "ME", "OK", "HI", "OH", "AS", "ID", "DC", "PR", "VI", "MP", "GU", "DE", "MD"})
_CAPITAL_COUNTY = re.compile(r"\b((?:[A-Z][A-Za-z.']+[ -]){1,3})County\b")
_GENERIC = re.compile(r"(?<![\w-])(?:town|village|city|county|hamlet)\s+of\s+"
                      r"([a-z][a-z.'\-]*(?:\s+[a-z][a-z.'\-]*){0,2})")
_ABBREVIATIONS = [("saint ", ("st. ", "st ")), ("st. ", ("st ", "saint ")), ("mount ", ("mt. ", "mt ")),
                  ("fort ", ("ft. ", "ft ")), ("north ", ("n. ", "n ", "no. ")), ("south ", ("s. ", "so. ")),
                  ("east ", ("e. ",)), ("west ", ("w. ",))]


class PlacesFile(BaseModel):
    """The schema of places.toml; see the comments in that file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ambiguous: list[str] = Field(description="Lower-case names that need a place cue.")
    neutral: list[str] = Field(description="Names never read as another place (the state, its regions).")
    not_place_after: list[str] = Field(description="Next words that make a name a road or river.")
    name_stop_words: list[str] = Field(description="Words that end X in 'town of X'.")
    other_state_codes: dict[str, str] = Field(description="Two-letter codes of the other states ('Springfield, IL'), "
                                              "each with the state's name (shown instead of the code).")
    ny_regions: list[str]
    boroughs: list[str]
    us_states: list[str]
    us_cities: list[str]
    countries: list[str]
    beyond: list[str] = Field(default_factory=list, description="Places no municipal code reaches: other planets, "
                              "the poles, fictional lands. Named anywhere, the question is about them.")
    ny_counties: list[str]
    ny_counties_not_bare: list[str] = Field(description="Counties matched only as 'X County'.")
    ny_cities: list[str]
    ny_towns: list[str]
    ny_villages: list[str]
    ny_hamlets: dict[str, list[str]] = Field(description="Hamlets by the town that governs them.")


@dataclass(frozen=True)
class _Name:
    display: str
    base: str  # normalized bare name, e.g. "hempstead" for "village of hempstead"
    kind: str
    cued: bool  # the variant carries its own cue ("town of kent", "orange county")
    abroad: bool = False  # outside New York State: another state, a city there, another country


@dataclass(frozen=True)
class _Match:
    start: int
    end: int
    name: _Name | None  # None: one of ours (or neutral)
    ours: bool = False  # one of the caller's names (not a neutral one)
    key: str = ""


@dataclass(frozen=True)
class _Compiled:
    """What one set of `ours` names compiles to."""

    pattern: re.Pattern
    names: dict[str, _Name]  # variant -> other place
    hamlet_town: dict[str, str]  # variant of a hamlet of one of our towns -> that town's name in `ours`


_TYPO_MIN_CHARS = 8  # shorter names misspelled are too near everyday words
_TYPO_CUTOFF = 0.9  # "conneticut" is 0.95 like "connecticut"
_UNSEEN = object()  # a word not yet looked up (None is a word that misspells no state)
_TYPO_CACHE = 20_000


def normalize(name: str) -> str:
    """Lower case, one space between words, hyphens as spaces (the key names are stored under)."""
    return _SPACE.sub(" ", name.lower().replace("\u2019", "'")).strip()


def _lower_same_length(text: str) -> str:
    low = text.lower().replace("\u2019", "'")
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text).replace("\u2019", "'")


def _title(name: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in _POSSESSIVE.sub("", name.strip()).split())


def _spellings(name: str) -> set[str]:
    out = {name}
    for long, shorts in _ABBREVIATIONS:
        for n in list(out):
            if n.startswith(long) or f" {long}" in n:
                out.update(n.replace(long, s, 1) for s in shorts)
    return out


def _variants(display: str, kind: str) -> list[tuple[str, str, bool]]:
    """(variant, bare name, cued) for one listed place."""
    bare = normalize(display)
    forms: list[tuple[str, bool]] = {
        "town": [(bare, False), (f"town of {bare}", True)],
        "village": [(bare, False), (f"village of {bare}", True), (f"{bare} village", True),
                    (f"incorporated village of {bare}", True)],
        "city": [(bare, False), (f"city of {bare}", True)],
        "county": [(bare, False), (f"{bare} county", True), (f"county of {bare}", True)],
        "hamlet": [(bare, False), (f"hamlet of {bare}", True)],
        "state": [(bare, False), (f"state of {bare}", True), (f"{bare} state", True)],
    }.get(kind, [(bare, False)])
    return [(s, bare, cued) for form, cued in forms for s in _spellings(form)]


def _trie_regex(words: Iterable[str]) -> str:
    """A regex matching any of `words`, longest first; a space matches any run of spaces or hyphens."""
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = True

    def emit(node: dict) -> str:
        end = "" in node
        branches = [(r"[\s\-]+" if ch == " " else re.escape(ch)) + emit(child)
                    for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if end:  # greedy: the longer name is tried first, the shorter one on backtracking
            return f"(?:{body})?" if len(branches) > 1 or len(body) > 1 else f"{body}?"
        return body

    return emit(trie)


class Gazetteer:
    """Named places outside the corpus, compiled once; per set of `ours` names, one regex is cached."""

    def __init__(self, data: PlacesFile):
        self.data = data
        self._ambiguous = {normalize(a) for a in data.ambiguous}
        self._not_after = re.compile(r"(?:'s|')?\s+(?:" + "|".join(
            re.escape(w) for w in sorted(set(data.not_place_after), key=len, reverse=True)) + r")(?![\w-])")
        self._stop = {normalize(w) for w in data.name_stop_words}
        self._neutral = {normalize(n) for n in data.neutral}
        self._state_codes = set(data.other_state_codes)
        self._state_names = dict(data.other_state_codes)
        self._abroad_names = {normalize(n) for n in [*data.us_states, *data.countries]}  # "Florida" is a NY village too
        self._states_longest_first = sorted(data.us_states, key=len, reverse=True)  # "West Virginia" before "Virginia"
        self._names: dict[str, _Name] = {}
        self._kinds: dict[str, set[str]] = {}  # every New York kind a bare name has
        # (kind, names, outside New York State)
        lists = [("borough", data.boroughs, False), ("city", data.ny_cities, False), ("town", data.ny_towns, False),
                 ("village", data.ny_villages, False),
                 ("hamlet", [h for hs in data.ny_hamlets.values() for h in hs], False), ("region", data.ny_regions, False),
                 ("county", data.ny_counties, False), ("state", data.us_states, True), ("city", data.us_cities, True),
                 ("country", data.countries, True), ("beyond", data.beyond, True)]
        not_bare = {normalize(c) for c in data.ny_counties_not_bare}
        for kind, names, abroad in lists:
            for display in names:
                for variant, bare, cued in _variants(display, kind):
                    if kind == "county":
                        if not cued and bare in not_bare:
                            continue
                        shown = display if not cued else f"{display} County"
                    else:
                        shown = display
                    self._names.setdefault(variant, _Name(shown, bare, kind, cued, abroad))
                    if not abroad:  # "Scarsdale" is a town and a village: "my village" may be it
                        self._kinds.setdefault(bare, set()).add(kind)
        # "a Conneticut license": a long one-word state name misspelled by a letter or two
        self._long_states = [n for n in map(normalize, data.us_states) if " " not in n and len(n) >= _TYPO_MIN_CHARS]
        self._typos: dict[str, str | None] = {}  # word -> the long state it misspells, if any
        self._compiled: dict[frozenset[str], _Compiled] = {}
        self._by_raw: dict[tuple[str, ...], _Compiled] = {}

    def _for(self, ours: Iterable[str]) -> _Compiled:
        raw = tuple(ours)
        if raw not in self._by_raw:  # callers pass the same names on every call; normalize them once
            key = frozenset(normalize(o) for o in raw)
            if key not in self._compiled:
                self._compiled[key] = self._compile(key)
            self._by_raw[raw] = self._compiled[key]
        return self._by_raw[raw]

    def _compile(self, ours: frozenset[str]) -> _Compiled:
        # A hamlet of one of our towns is governed by that town: it is ours too.
        protected = set(ours) | self._neutral
        hamlet_town: dict[str, str] = {}
        for town, hamlets in self.data.ny_hamlets.items():
            for name in (normalize(town), f"town of {normalize(town)}"):
                if name in ours:
                    for v in (v for h in hamlets for v, _, _ in _variants(h, "hamlet")):
                        hamlet_town.setdefault(v, name)
                    break
        protected |= hamlet_town.keys()
        names: dict[str, _Name] = {}
        for variant, name in self._names.items():
            if variant in protected or (name.kind == "county" and name.base in ours):
                continue
            if name.base in protected and not name.cued:
                continue
            if name.base in ours and name.kind in ("village", "town", "city", "hamlet"):
                # e.g. the Village of Hempstead, when bare "hempstead" is the Town's
                name = _Name(f"{name.kind.title()} of {name.display}", name.base, name.kind, name.cued, name.abroad)
            names[variant] = name
        words = names.keys() | protected
        body = _trie_regex(sorted(words))
        pattern = re.compile(r"(?<![\w\-])(?=((?:" + body + r")(?:'s|')?)(?![\w\-]))")
        return _Compiled(pattern, names, hamlet_town)

    def _matches(self, text: str, ours: Iterable[str]) -> list[_Match]:
        compiled = self._for(ours)
        low = _lower_same_length(text)
        found: list[_Match] = []
        for m in compiled.pattern.finditer(low):
            start, end = m.start(1), m.end(1)
            key = _POSSESSIVE.sub("", normalize(m.group(1)))
            name = compiled.names.get(key)
            if name is not None and not self._counts(name, text, low, start, end):
                continue
            found.append(_Match(start, end, name, ours=name is None and key not in self._neutral, key=key))
        found += self._misspelled_states(text, low, found)
        # Longest first wherever candidates overlap; on a tie the earlier one.
        chosen: list[_Match] = []
        for cand in sorted(found, key=lambda c: (c.start - c.end, c.start)):
            if all(cand.end <= c.start or cand.start >= c.end for c in chosen):
                chosen.append(cand)
        chosen = self._elsewhere(sorted(chosen, key=lambda c: c.start), text, low)
        generic = self._generic(low, chosen)
        generic += self._counties(text, chosen + generic)
        generic += self._agencies(text, chosen + generic)
        return sorted(chosen + generic, key=lambda c: c.start)

    def _misspelled_states(self, text: str, low: str, found: list[_Match]) -> list[_Match]:
        """Words no listed place matched that are a long state's name with a letter or two wrong ("conneticut")."""
        out = []
        for m in re.finditer(r"(?<![\w-])[a-z]{%d,}(?![\w-])" % _TYPO_MIN_CHARS, low):
            if any(f.start <= m.start() < f.end for f in found):
                continue
            word = m.group(0)
            # difflib once per word: _matches runs several times on one question. The value is kept in a
            # local: another thread may clear the dict between a store and a read.
            state = self._typos.get(word, _UNSEEN)
            if state is _UNSEEN:
                state = next(iter(difflib.get_close_matches(word, self._long_states, n=1, cutoff=_TYPO_CUTOFF)), None)
                if len(self._typos) >= _TYPO_CACHE:
                    self._typos.clear()  # bounded: a server answering random words does not grow it forever
                self._typos[word] = state
            name = self._names.get(state or "")
            if name is not None and self._counts(name, text, low, m.start(), m.end()):
                out.append(_Match(m.start(), m.end(), name, key=state or ""))
        return out

    def _counties(self, text: str, chosen: list[_Match]) -> list[_Match]:
        """'Miami-Dade County', 'Cook County': a county named with capitals that is none of New York's (the
        list has all of them), so it lies outside the state."""
        out = []
        for m in _CAPITAL_COUNTY.finditer(text):
            words = m.group(1).replace("-", " - ").split()
            while words and normalize(words[0]) in self._stop:
                words.pop(0)
            if not words or any(not (m.end() <= c.start or m.start() >= c.end) for c in chosen):
                continue  # a known county ("Nassau County"), one of ours, or no name at all ("The County")
            display = " ".join(words).replace(" - ", "-") + " County"
            out.append(_Match(m.start(), m.end(), _Name(display, normalize(display), "county", True, True)))
        return out

    def _agencies(self, text: str, chosen: list[_Match]) -> list[_Match]:
        """'CT DEEP', 'NJ DEP': another state's code written before an agency's initials names that state. Codes
        that are also words or units ('IN', 'OR', 'DC', 'PR') are left out."""
        out = []
        for m in _STATE_AGENCY.finditer(text):
            if m.group(1) in self._state_codes and m.group(1) not in _WORDLIKE_CODES and not any(
                    not (m.end(1) <= c.start or m.start(1) >= c.end) for c in chosen):
                name = self._state_names.get(m.group(1), m.group(1))  # "CT DEEP" names Connecticut
                out.append(_Match(m.start(1), m.end(1), _Name(name, name.lower(), "state", True, True)))
        return out

    def _elsewhere(self, chosen: list[_Match], text: str, low: str) -> list[_Match]:
        """One of our names followed by another state names that state's place ("Hempstead, Texas",
        "Tuckahoe, NJ"); `chosen` is in text order."""
        codes = self._state_codes
        out: list[_Match] = []
        for m in chosen:
            prev = out[-1] if out else None
            if (prev is not None and prev.ours and m.name is not None and m.name.kind == "state"
                    and _STATE_GAP.match(low[prev.end:m.start])):
                state = self._state_names.get(m.name.display.replace(".", ""), m.name.display)  # "NJ", "N.J." -> New Jersey
                display = f"{_title(text[prev.start:prev.end])}, {state}"
                out[-1] = _Match(prev.start, m.end, _Name(display, normalize(display), "place", True, True))
                continue
            out.append(m)
        for i, m in enumerate(out):
            code = _STATE_CODE.match(text, m.end) if m.ours else None
            if code and code.group(1) in codes and not (i + 1 < len(out) and out[i + 1].start < code.end()):
                display = f"{_title(text[m.start:m.end])}, {self._state_names[code.group(1)]}"  # the state, not its code
                out[i] = _Match(m.start, code.end(), _Name(display, normalize(display), "place", True, True))
        return out

    def road_after(self, low: str, end: int) -> bool:
        """Whether the name ending at `end` of lower-cased `low` is a road's or river's ("Tuckahoe Road")."""
        return bool(self._not_after.match(low[end:end + 40]))

    def _counts(self, name: _Name, text: str, low: str, start: int, end: int) -> bool:
        """Whether this occurrence names the place: not a road or river; an ambiguous name needs a cue."""
        after = low[end:end + 40]
        if self._not_after.match(after):
            return False
        if name.cued or name.base not in self._ambiguous:
            return True
        before = low[max(0, start - 30):start]
        if _CUE_BEFORE.search(before) or _CUE_AFTER.match(after) or self._state_code_after(text, start, end):
            return True
        if _WEAK_CUE_BEFORE.search(before):
            return text[start].isupper() or bool(_SENTENCE_END_AFTER.match(after))
        # written as a name (every word capitalised), of more than one word or not opening a sentence
        as_name = all(w[:1].isupper() for w in text[start:end].split())
        opens = not text[:start].strip() or text[:start].rstrip()[-1:] in ".?!"
        return as_name and (" " in text[start:end].strip() or not opens) and bool(_LAW_AFTER.match(after))

    def _state_code_after(self, text: str, start: int, end: int) -> bool:
        """'Springfield, IL'; without the comma ('Austin TX') only a capitalised name and a state's code."""
        m = _STATE_CODE_AFTER.match(text, end)
        if m is None:
            return False
        return "," in m.group(1) or (text[start].isupper() and m.group(2) in self._state_codes)

    def _generic(self, low: str, chosen: list[_Match]) -> list[_Match]:
        """'town|village|city|county|hamlet of X' with X unknown: the name is X, up to the first stop word."""
        out = []
        for m in _GENERIC.finditer(low):
            words: list[str] = []
            start = end = m.start(1)
            for w in re.finditer(r"[a-z][a-z.'\-]*", m.group(1)):
                word = _POSSESSIVE.sub("", w.group().rstrip(".-"))
                if word in self._stop:
                    break
                words.append(word)
                end = m.start(1) + w.start() + len(word)
            if not words:
                continue
            if any(not (end <= c.start or start >= c.end) for c in chosen):
                continue  # a known place, one of ours, or a neutral name
            display = _title(" ".join(words))
            out.append(_Match(start, end, _Name(display, " ".join(words), "unknown", True)))
        return out

    def other_place(self, text: str, ours: Iterable[str]) -> str | None:
        """The first place named in `text` that is not one of `ours` (lower-case names and aliases), as
        displayed (Title Case), or None."""
        return next((m.name.display for m in self._present(text, ours)), None)

    def _present(self, text: str, ours: Iterable[str]) -> list[_Match]:
        """The other places `text` names, but where someone only is for a while ("while he's down in Florida")."""
        low = _lower_same_length(text)
        return [m for m in self._matches(text, ours) if m.name is not None and not _after(_AWAY_BEFORE, low, m.start)]

    def sited_elsewhere(self, text: str, ours: Iterable[str], in_state: bool = False) -> bool:
        """Whether the land or work asked about lies outside New York State ("does Hempstead's law cover my lot
        in Bergen County, New Jersey?", "a 900-acre dig on the moon"), so naming one of ours does not make it
        ours ("licensed in New Jersey, can I work in Tuckahoe?" stays Tuckahoe's). Land elsewhere in the state
        stays with the law named, unless `in_state`: then land sited in another New York place counts too (the
        caller sets it when the question asks whether the law reaches that land: "does the Town's article apply to
        a project inside the Village of Hempstead?")."""
        low = _lower_same_length(text)
        return any(m.name is not None and (m.name.abroad or in_state) and
                   (m.name.kind == "beyond" or _after(_SITED_BEFORE, low, m.start, 60)
                    or (in_state and _after(_LIVES_BEFORE, low, m.start)))
                   for m in self._matches(text, ours))

    def sited_at(self, text: str, names: Iterable[str]) -> bool:
        """Whether the land or work asked about is said to lie at one of `names` ("a rental house in the village")."""
        low = _lower_same_length(text)
        return any(_after(_SITED_BEFORE, low, m.start(), 60) and not self.road_after(low, m.end()) for n in names
                   for m in re.finditer(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", low))  # not "on Tuckahoe Road"

    def kinds_named(self, text: str, ours: Iterable[str]) -> frozenset[str]:
        """The kinds ("town", "village") of the other places `text` names that are not only where someone comes
        from: "Oyster Bay marina SWPPP - what does the town want?" names a town, so "the town" may be Oyster Bay;
        "electrician from Yonkers, what does the village need?" names none (a city, and an origin)."""
        low = _lower_same_length(text)
        return frozenset(kind for m in self._matches(text, ours) if m.name is not None
                         and m.name.base not in self._abroad_names
                         and not _after(_ORIGIN_BEFORE, low, m.start)
                         # "Scarsdale" alone may be the town or the village; "the Village of Hempstead" is a village
                         for kind in ({m.name.kind} if m.name.cued else self._kinds.get(m.name.base, {m.name.kind})))

    def only_origins(self, text: str, ours: Iterable[str]) -> bool:
        """Whether every other place `text` names is only where someone comes from or has an address ("a
        contractor from Freeport", "the owner's Scarsdale mailing address"), not where anything asked about is."""
        low = _lower_same_length(text)
        present = self._present(text, ours)
        return bool(present) and all(_after(_ORIGIN_BEFORE, low, m.start) or _ADDRESS_AFTER.match(low, m.end)
                                     for m in present)

    def outside_new_york(self, text: str, ours: Iterable[str]) -> bool:
        """Whether `text` names a place outside New York State ("licensed in New Jersey", "Stamford, CT")."""
        return any(m.name.abroad for m in self._present(text, ours))

    @staticmethod
    def name_end(text: str, end: int) -> int:
        """Where a town's name that ends at `end` ends with the county's word after it ("Hempstead County")."""
        county = _COUNTY_AFTER_NAME.match(text, end)
        return county.end() if county else end

    def abroad_right_after(self, text: str, ours: Iterable[str], end: int) -> str | None:
        """The place outside New York State named right after position `end` (or after the county's word there),
        set off by a comma only ("Tuckahoe, Virginia", "Hempstead, TX", "Hempstead County, Arkansas"), as
        displayed; None otherwise."""
        sep = _STATE_AFTER_NAME.match(text, self.name_end(text, end))
        if sep is None:
            return None
        rest = text[sep.end():]
        code = re.match(r"([A-Z]{2})\b", rest)
        if code and code[1] in self._state_names:
            return self._state_names[code[1]]
        low = rest.lower()
        for state in self._states_longest_first:
            after = low[len(state):len(state) + 1]
            if low.startswith(state.lower()) and not after.isalnum():
                # "In Tuckahoe, Washington Avenue ...": a name that is also a person's or a street's needs its
                # sentence to go on after it ("Tuckahoe, Virginia, out in ...")
                shared = normalize(state) in self._ambiguous or normalize(state) in _ALSO_A_STREET
                return state if not shared or after in ("", ",", ".", "?", "!", ";", ")") else None
        return None

    def other_places(self, text: str, ours: Iterable[str]) -> list[str]:
        """Every such place, in the order named."""
        return list(dict.fromkeys(m.name.display for m in self._matches(text, ours) if m.name is not None))

    def governing_town(self, text: str, ours: Iterable[str], sited: bool = False) -> str | None:
        """For a hamlet of one of our towns named in `text` ("my lot in Elmont"), that town's name as given
        in `ours` ("hempstead"), so the caller can route the question to it; else None. With `sited`, only a
        hamlet the land or work is said to lie in ("the lot in Baldwin Harbor", not "a builder from Merrick")."""
        hamlet_town = self._for(ours).hamlet_town
        low = _lower_same_length(text) if sited else ""
        # not "Levittown, Pennsylvania"
        return next((hamlet_town[m.key] for m in self._matches(text, ours) if m.key in hamlet_town
                     and self.abroad_right_after(text, ours, m.end) is None
                     and (not sited or _after(_SITED_BEFORE, low, m.start, 60))), None)

    def mask(self, text: str, ours: Iterable[str]) -> str:
        """`text` with every other place replaced by '#' of the same length."""
        out = list(text)
        for m in self._matches(text, ours):
            if m.name is not None:
                out[m.start:m.end] = "#" * (m.end - m.start)
        return "".join(out)


# Between a town's name and its state: "Tuckahoe, Virginia", "Hempstead , TX"; a county's word may come first
# ("Hempstead County, Arkansas").
_STATE_AFTER_NAME = re.compile(r"\s*,\s*(?=[A-Z])")
_COUNTY_AFTER_NAME = re.compile(r"\s+County\b")
_ALSO_A_STREET = frozenset(("washington", "jersey"))  # "Washington Avenue", "Jersey Street" (besides the ambiguous names)


@lru_cache(maxsize=8)
def _load(path: Path) -> Gazetteer:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        return Gazetteer(PlacesFile(**raw))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CorpusError(f"cannot read {path}: {exc}") from exc
    except ValidationError as exc:
        raise CorpusError(f"invalid places file {path}: {exc}") from exc


def load_gazetteer(corpus_dir: Path) -> Gazetteer:
    """The gazetteer in `corpus_dir`/_places/places.toml (cached per path)."""
    return _load((Path(corpus_dir) / PLACES_FILE).resolve())
