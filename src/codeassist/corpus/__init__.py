"""The corpus: ordinance texts parsed into provisions, with lookups, definitions and citations.

    corpus = load_corpus()              # cached per corpus folder
    corpus.get("tuckahoe:7B-5(c)")      # Provision | None
    corpus.resolve_citation("392B")     # Provision, or CitationNotFound naming the nearest valid ones
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

from ..errors import CitationNotFound, CorpusError, UnknownMunicipality
from ..models import Headnote, Municipality, Ordinance, Provision, Section
from .citations import resolve_citation
from .headnotes import read_headnotes
from .metadata import fingerprint, read_metadata
from .parse import PARSER_VERSION, parse_ordinance, slug
from .refs import find_refs
from .rules import MunicipalRules, iter_refs, read_rules, rule_problems

__all__ = ["Corpus", "load_corpus", "loaded_corpora", "normalize_ws", "slug"]

log = logging.getLogger(__name__)

_WS = re.compile(r"\s+")


def normalize_ws(s: str) -> str:
    return _WS.sub(" ", s).strip()


class Corpus:
    def __init__(self, corpus_dir: Path, check_rules: bool = True):
        self.corpus_dir = corpus_dir
        self.municipalities: dict[str, Municipality] = {}
        self.rules: dict[str, MunicipalRules] = {}
        self._calc_pids: dict[tuple[str, str], frozenset[str]] = {}
        folders: dict[str, Path] = {}
        self.ordinances: dict[str, Ordinance] = {}
        self.sources: dict[str, str] = {}
        self.sections: list[Section] = []
        self._provisions: dict[str, Provision] = {}
        self._quotable: dict[str, str] = {}  # provision id -> its full text, whitespace normalised (quote_in)
        raw: list[tuple[Ordinance, str, list[Provision]]] = []
        for muni, ordinances in read_metadata(corpus_dir):
            self.municipalities[muni.id] = muni
            folders[muni.id] = ordinances[0][1].parent if ordinances else corpus_dir / muni.id
            for ordinance, path in ordinances:
                rel = str(path.relative_to(corpus_dir))
                src = self.sources.setdefault(rel, path.read_text(encoding="utf-8"))
                parsed = parse_ordinance(src, muni, ordinance, rel)
                self.ordinances[ordinance.id] = ordinance
                self.sections.extend(parsed.sections)
                raw.append((ordinance, rel, parsed.provisions))
                for p in parsed.provisions:
                    if p.id in self._provisions:
                        raise CorpusError(f"provision id {p.id} appears in two ordinances")
                    self._provisions[p.id] = p
        # Cross-references need every provision of the municipality first.
        known = set(self._provisions)
        for ordinance, rel, provisions in raw:
            section_ids = {s.number: f"{s.municipality}:{s.key}" for s in self.sections
                           if s.municipality == ordinance.municipality and s.number and s.number_confirmed}
            for p in provisions:
                refs = find_refs(p, ordinance, section_ids, known, self.sources[rel])
                if refs:
                    self._provisions[p.id] = p.model_copy(update={"refs": refs})

        for muni in self.municipalities.values():
            for pattern in (c for n in muni.namesakes for c in n.cues):
                try:
                    re.compile(pattern)
                except re.error as exc:
                    raise CorpusError(f"{muni.id}: bad namesake cue {pattern!r}: {exc}") from exc
        for ordinance in self.ordinances.values():
            if ordinance.territory and ordinance.territory not in self._provisions:
                raise CorpusError(f"{ordinance.id}: territory {ordinance.territory} is not a provision")
            for gap in ordinance.gaps:
                if gap.pointer and (gap.pointer not in self._provisions or
                                    (gap.quote and not self.quote_in(gap.pointer, gap.quote))):
                    raise CorpusError(f"{ordinance.id}: gap pointer {gap.pointer} or its quote is not in the text")
                for pid in gap.yields_to:
                    if pid not in self._provisions:
                        raise CorpusError(f"{ordinance.id}: gap yields_to {pid} is not a provision")
                for pattern in [*gap.all_of, *gap.any_of, *gap.none_of]:
                    try:
                        re.compile(pattern)
                    except re.error as exc:
                        raise CorpusError(f"{ordinance.id}: bad gap pattern {pattern!r}: {exc}") from exc
            for ext in ordinance.external_refs:
                for pattern in ext.asked_as:
                    try:
                        re.compile(pattern)
                    except re.error as exc:
                        raise CorpusError(f"{ordinance.id}: bad external_refs asked_as pattern {pattern!r}: {exc}") from exc

        # Calculator rules (corpus/<id>/rules/*.toml). A file that does not validate stops the load (its
        # path and key in the message). A quote no longer verbatim in its provision (say, after an amended
        # text was dropped in) switches that calculator off for the municipality, so it says "not in the
        # text" rather than cite words the law no longer has; the problem is logged and kept in
        # `rule_problems` (the tests and `codeassist add` make it an error).
        self.rule_problems: list[str] = []
        for mid, folder in folders.items():
            try:
                self.rules[mid] = read_rules(folder)
            except CorpusError:
                if check_rules:
                    raise
                self.rules[mid] = MunicipalRules()  # `codeassist add` reports each bad entry itself
            if not check_rules:
                continue
            problems = rule_problems(self, mid, self.rules[mid])
            off = {}
            for path, key, message in problems:
                self.rule_problems.append(f"{path}: {key}: {message}")
                off[Path(path).stem] = None
            if off:
                self.rules[mid] = self.rules[mid].model_copy(update=off)
        for problem in self.rule_problems:
            log.warning("%s", problem)

        self._headnotes: dict[str, Headnote] = {}
        self.headnote_problems: list[str] = []
        for muni_id in self.municipalities:
            notes, problems = read_headnotes(corpus_dir / muni_id, corpus_dir)
            self.headnote_problems += problems
            for pid, h in notes.items():
                if pid in self._provisions and self._provisions[pid].municipality == muni_id:
                    self._headnotes[pid] = h
                else:
                    self.headnote_problems.append(f"{h.source}: headnote for unknown provision {pid}")
        for problem in self.headnote_problems:
            log.warning("%s", problem)

        self._fingerprint  # hash the files now, alongside the text just parsed

    # --- lookups ---
    def get(self, pid: str) -> Provision | None:
        return self._provisions.get(pid)

    def headnote(self, pid: str) -> Headnote | None:
        """Our plain-language summary of the provision (data, labelled as a summary), if written."""
        return self._headnotes.get(pid)

    def __contains__(self, pid: str) -> bool:
        return pid in self._provisions

    def calculator_provisions(self, municipality: str, calculator: str) -> frozenset[str]:
        """The provisions a calculator's rules for this municipality rest on (corpus/<id>/rules/<name>.toml)."""
        key = (municipality, calculator)
        if key not in self._calc_pids:
            rules = self.rules.get(municipality)
            model = getattr(rules, calculator, None) if rules is not None else None
            self._calc_pids[key] = frozenset(ref.pid for _, ref in iter_refs(model)) if model is not None else frozenset()
        return self._calc_pids[key]

    def provisions(self, municipality: str | None = None) -> list[Provision]:
        if municipality is not None:
            self.check_municipality(municipality)
        return [p for p in self._provisions.values() if municipality in (None, p.municipality)]

    def children(self, pid: str) -> list[Provision]:
        p = self._provisions[pid]
        return [self._provisions[c] for c in p.children]

    def descendants(self, pid: str) -> list[Provision]:
        out = []
        for child in self.children(pid):
            out.append(child)
            out.extend(self.descendants(child.id))
        return out

    def lists_among(self, pids: Sequence[str]) -> dict[str, list[int]]:
        """Parent id -> the positions in `pids` of its children, for each parent with two or more of them there
        (items of one list found together), in the order the parents first appear."""
        groups: dict[str, list[int]] = {}
        for i, pid in enumerate(pids):
            p = self._provisions.get(pid)
            if p is not None and p.parent:
                groups.setdefault(p.parent, []).append(i)
        return {parent: rows for parent, rows in groups.items() if len(rows) >= 2}

    def ancestors(self, pid: str) -> list[Provision]:
        out, p = [], self._provisions[pid]
        while p.parent:
            p = self._provisions[p.parent]
            out.append(p)
        return out

    def full_text(self, pid: str) -> str:
        """Own text plus every descendant's, in document order, one per line."""
        parts = [p.text for p in [self._provisions[pid], *self.descendants(pid)] if p.text]
        return "\n".join(parts)

    def quote_in(self, pid: str, quote: str) -> bool:
        """Is `quote` verbatim (up to whitespace) in the provision or its descendants?"""
        if pid not in self._provisions or not quote.strip():
            return False
        text = self._quotable.get(pid)
        if text is None:  # every quote of every answer is checked here: normalise each provision once
            text = self._quotable[pid] = normalize_ws(self.full_text(pid))
        return normalize_ws(quote) in text

    def section_of(self, pid: str) -> Section:
        p = self._provisions[pid]
        return next(s for s in self.sections if s.municipality == p.municipality and s.key == p.section)

    def ordinance_of(self, pid: str) -> Ordinance:
        return self.ordinances[self._provisions[pid].ordinance]

    def ordinances_named(self, text: str) -> list[Ordinance]:
        """The ordinances a question names by their topic or topic words ("electrician" names an electrical
        code, "erosion" a stormwater law)."""
        return [o for o in self.ordinances.values()
                if any(re.search(r"\b" + re.escape(w) + r"(?!\w)", text, re.I) for w in [o.topic, *o.topic_words])]

    def law_named_with(self, text: str, municipality: str) -> Ordinance | None:
        """The municipality's ordinance a question names right after the municipality's name ("Tuckahoe's
        electrical code", "Hempstead stormwater article"), when it names exactly one that way."""
        m = self.municipalities[municipality]
        names = "|".join(re.escape(n) for n in sorted({m.name.lower(), m.short_name.lower(), *m.aliases}, key=len, reverse=True)
                         if n and not n.startswith("the "))
        named = [o for o in self.ordinances.values() if o.municipality == municipality and any(
            re.search(r"\b(?:" + names + r")(?:'s|s')?\s+(?:[\w-]+\s+){0,2}?" + re.escape(w) + r"(?!\w)", text, re.I)
            for w in [o.topic, *o.topic_words])]
        return named[0] if len(named) == 1 else None

    def covering(self, topics: set[str]) -> set[str]:
        """The municipalities with a law on any of `topics` in this corpus."""
        return {o.municipality for o in self.ordinances.values() if o.topic in topics}

    def office_for(self, pid_or_ordinance: str) -> str:
        """Display name of the office that administers the provision's ordinance."""
        ordinance = self.ordinances.get(pid_or_ordinance) or self.ordinance_of(pid_or_ordinance)
        office = self.municipalities[ordinance.municipality].office(ordinance.administered_by)
        return office.name if office else ordinance.administered_by

    def check_municipality(self, municipality: str) -> str:
        key = municipality.strip().lower()
        for m in self.municipalities.values():
            if key == m.id or key in m.aliases or key == m.name.lower():
                return m.id
        raise UnknownMunicipality(municipality, sorted(self.municipalities))

    @cached_property
    def _definitions(self) -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {m: {} for m in self.municipalities}
        # First the definition entries, then names the text gives in passing ("commonly known as the
        # "Blue Book."", "hereafter referred to as the "Design Manual""): an entry always wins.
        for p in self._provisions.values():
            terms = []
            if p.kind == "definition" and p.term:
                terms.append(p.term)
                terms += re.findall(r"\(([^)]+)\)", p.term)  # "STORMWATER ... (SMPS)" also defines "SMPS"
                terms.append(re.sub(r"\s*\([^)]*\)", "", p.term))
            for m in re.finditer(r'[Tt]he term "([^"]+)" as used in this chapter means', p.text):
                terms.append(m.group(1))
            for t in terms:
                out[p.municipality].setdefault(normalize_ws(t).lower(), p.id)
        for p in self._provisions.values():
            for m in re.finditer(r'(?:commonly known as|hereafter referred to as)(?: the)? "([^"]+?)\.?"', p.text):
                out[p.municipality].setdefault(normalize_ws(m.group(1)).lower(), p.id)
        return out

    def definitions(self, municipality: str) -> dict[str, str]:
        """Defined term (lower case) -> id of the provision that defines it."""
        return dict(self._definitions[self.check_municipality(municipality)])

    def resolve_citation(self, text: str, municipality: str | None = None) -> Provision:
        return resolve_citation(self, text, municipality)

    @cached_property
    def _fingerprint(self) -> str:
        return fingerprint(self.corpus_dir, PARSER_VERSION)

    def fingerprint(self) -> str:
        """Hash of the corpus files as they were when this corpus was parsed (so an index keyed by it
        always matches the text in memory)."""
        return self._fingerprint


_cache: dict[Path, Corpus] = {}
_lock = threading.Lock()


def loaded_corpora() -> list[Corpus]:
    """Every corpus loaded so far in this process (the calculators look up a municipality in them)."""
    with _lock:
        return list(_cache.values())


def load_corpus(corpus_dir: Path | None = None) -> Corpus:
    from ..settings import get_settings

    path = Path(corpus_dir or get_settings().corpus_dir).resolve()
    with _lock:
        if path not in _cache:
            _cache[path] = Corpus(path)
        return _cache[path]


__all__ += ["CitationNotFound"]
