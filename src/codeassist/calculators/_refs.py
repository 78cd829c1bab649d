"""Where the calculators find their rules and citations: the corpus, and its `rules/*.toml`.

A rule entry is a ``Ref``: a provision id plus the verbatim words of that provision that carry the
rule (validated when the corpus loads, see ``codeassist.corpus.rules``). The display citation comes
from the parsed corpus; ``fallback_citation`` rebuilds it from the metadata alone (docs/IDS.md's id
scheme) for the rare caller that holds an id the corpus in memory does not.

Which corpus: the one set with ``using(corpus)`` (the registry's ``run_dict(data, corpus=...)``), else
the default corpus from settings, else any corpus already loaded in this process that has the
municipality (so ``Assistant(corpus=...)`` over another corpus folder works without passing it here).
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from codeassist.corpus.rules import CitedStep, Ref
from codeassist.models import Step

__all__ = ["CitedStep", "Ref", "citation", "cite", "corpus", "corpus_for", "fallback_citation", "known_municipalities",
           "resolve_municipality", "rules_for", "step", "using"]

_active: ContextVar[Any | None] = ContextVar("codeassist_calculator_corpus", default=None)


@contextmanager
def using(corpus: Any | None) -> Iterator[None]:
    """Run calculators over this corpus (None keeps the default)."""
    token = _active.set(corpus)
    try:
        yield
    finally:
        _active.reset(token)


def _default() -> Any | None:
    # A corpus that cannot be read means no rules: the calculators then say the text is not available,
    # rather than failing (the tests load the real corpus and check every rule against it).
    try:
        from codeassist.settings import get_settings
        return _load_default(get_settings().corpus_dir)
    except Exception:  # noqa: BLE001 - any failure to read the corpus means "no corpus" here
        return None


@lru_cache(maxsize=8)
def _load_default(corpus_dir: Path) -> Any:
    """load_corpus's answer for the settings' folder, kept: load_corpus resolves the path on every call (file
    system calls; a calculator answer asks for the default corpus a dozen times). A failure is not kept."""
    from codeassist.corpus import load_corpus
    return load_corpus(corpus_dir)


def _candidates() -> list[Any]:
    from codeassist.corpus import loaded_corpora

    out = [c for c in (_active.get(), _default()) if c is not None]
    return out + [c for c in loaded_corpora() if all(c is not o for o in out)]


def corpus() -> Any | None:
    """The corpus the calculators use now (set by ``using``, else the default), or None."""
    return _active.get() or _default()


def corpus_for(municipality: str | None = None) -> Any | None:
    """The corpus that holds this municipality (see the module docstring for the order)."""
    cands = _candidates()
    if municipality is None:
        return cands[0] if cands else None
    return next((c for c in cands if municipality in c.municipalities), cands[0] if cands else None)


def known_municipalities() -> list[str]:
    c = corpus()
    return sorted(c.municipalities) if c is not None else []


def resolve_municipality(text: str) -> str | None:
    """The id for an id or official name ('village of tuckahoe'), from any corpus in use."""
    key = " ".join(text.strip().lower().split())
    for c in _candidates():
        for m in c.municipalities.values():
            if key in (m.id, m.name.lower()):
                return m.id
    return None


def rules_for(municipality: str, calculator: str) -> Any | None:
    """The municipality's rules for one calculator, or None when its text sets none."""
    c = corpus_for(municipality)
    rules = c.rules.get(municipality) if c is not None else None
    return getattr(rules, calculator) if rules is not None else None


def municipality_name(municipality: str) -> str:
    c = corpus_for(municipality)
    m = c.municipalities.get(municipality) if c is not None else None
    return m.name if m else municipality


def short_name(municipality: str) -> str:
    c = corpus_for(municipality)
    m = c.municipalities.get(municipality) if c is not None else None
    return m.short_name if m else municipality.title()


@lru_cache(maxsize=4)
def _metadata(corpus_dir: str) -> list:
    from codeassist.corpus.metadata import read_metadata

    try:
        return read_metadata(Path(corpus_dir))
    except Exception:  # noqa: BLE001 - no metadata: the id itself is the best citation left
        return []


def fallback_citation(pid: str) -> str:
    """Display citation built from the id and the ordinance metadata alone, per docs/IDS.md."""
    from codeassist.settings import get_settings

    muni, _, rest = pid.partition(":")
    rest = re.sub(r"\.p\d+$", "", rest)
    for m, ordinances in _metadata(str(get_settings().corpus_dir)):
        if m.id != muni:
            continue
        for o, _path in ordinances:
            if o.layout == "headed-sections":
                if re.match(r"(?:" + (o.section_pattern or r"[\w.-]+") + r")(?![\w-])", rest):
                    return f"{o.citation_prefix} § {rest}"
                continue
            key, slash, term = rest.partition("/")
            mm = re.match(r"([a-z0-9-]+)(.*)$", key)
            key, labels = (mm.group(1), mm.group(2)) if mm else (key, "")
            sec = next((s for s in o.sections if s.key == key), None)
            if sec is None:
                continue
            numbered = sec.number_confirmed and sec.number
            if slash:
                name = term.replace("-", " ").capitalize()
                where = f"§ {sec.number}" if numbered else f"{o.division_label}, {sec.title}"
                return f'{o.citation_prefix} {where}, definition of "{name}"'
            if numbered:
                return f"{o.citation_prefix} § {sec.number}{labels}"
            item = ""
            if labels:  # "(A)(1)(g)" -> "item A(1)(g)"
                first, _, tail = labels[1:].partition(")")
                item = first + tail
            return f"{o.citation_prefix} {o.division_label}, {sec.title}" + (f", item {item}" if item else "")
    return pid


def citation(pid: str) -> str:
    c = corpus_for(pid.partition(":")[0])
    prov = c.get(pid) if c is not None else None
    return prov.citation if prov is not None else fallback_citation(pid)


def step(text: str, ref: Ref | None = None) -> Step:
    """One reasoning step; without a ref it is arithmetic or a labelled assumption."""
    if ref is None:
        return Step(text=text, provision_id=None)
    return Step(text=text, provision_id=ref.pid, citation=citation(ref.pid), quote=ref.quote)


def cited(s: CitedStep, prefix: str = "", **fields: Any) -> Step:
    """The step a rules entry describes, its text filled with `fields` when it is a template."""
    return step(prefix + (s.step.format(**fields) if fields else s.step), s)


def cite(ref: Ref) -> dict[str, str]:
    return {"provision_id": ref.pid, "citation": citation(ref.pid), "quote": ref.quote}
