"""Provision references used by the calculators' rule tables, and how they become ``Step``s.

A rule table entry is a ``Ref``: the provision id plus the verbatim words of that provision that carry
the rule. The display citation comes from the parsed corpus (``codeassist.corpus``); a fallback built
from the id scheme in docs/IDS.md keeps the calculators usable where the corpus cannot be loaded, and
the tests check that every id resolves in the real corpus and every quote is verbatim in it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from codeassist.models import Step

# Hempstead sections whose number the text itself confirms (see corpus/hempstead/stormwater.toml).
_HEMPSTEAD_NUMBERED = {"386", "390", "391", "392", "393"}
_HEMPSTEAD_TITLES = {
    "purpose": "Purpose",
    "statutory-authority": "Statutory authority",
    "applicability": "Applicability",
    "exemptions": "Exemptions",
    "severability": "Severability and effective date",
    "construction-inspection": "Construction inspection",
    "performance-guarantee": "Performance guarantee",
    "enforcement": "Enforcement and penalties",
    "fees": "Fees for services",
}


@dataclass(frozen=True)
class Ref:
    """A rule's home: a provision id and words quoted verbatim from that provision (or its children)."""

    pid: str
    quote: str


@lru_cache(maxsize=1)
def _load() -> Any | None:
    # The calculators' rules live in their own tables; the corpus only supplies display citations, so a
    # corpus that cannot be read degrades citations to the id-scheme fallback instead of failing the
    # calculation. The tests load the real corpus and check every id and quote against it.
    try:
        from codeassist.corpus import load_corpus
        return load_corpus()
    except Exception:  # noqa: BLE001 - any failure to read the corpus means "no corpus" here
        return None


def corpus() -> Any | None:
    """The parsed corpus, or None while it cannot be imported."""
    return _load()


def fallback_citation(pid: str) -> str:
    """Display citation built from the id alone, per docs/IDS.md (used only when the corpus lacks it)."""
    muni, _, rest = pid.partition(":")
    rest = re.sub(r"\.p\d+$", "", rest)
    if muni == "tuckahoe":
        return f"Tuckahoe Code § {rest}"
    if muni == "hempstead":
        if rest.startswith("390/"):
            term = rest[4:].replace("-", " ").capitalize()
            return f'Hempstead BZO § 390, definition of "{term}"'
        m = re.match(r"([a-z0-9-]+)(.*)$", rest)
        key, labels = (m.group(1), m.group(2)) if m else (rest, "")
        if key in _HEMPSTEAD_NUMBERED:
            return f"Hempstead BZO § {key}{labels}"
        title = _HEMPSTEAD_TITLES.get(key, key)
        item = ""
        if labels:  # "(A)(1)(g)" -> "item A(1)(g)"
            first, _, tail = labels[1:].partition(")")
            item = first + tail
        return f"Hempstead BZO Art. XXXVIII, {title}" + (f", item {item}" if item else "")
    return pid


def citation(pid: str) -> str:
    c = corpus()
    if c is not None:
        prov = c.get(pid)
        if prov is not None:
            return prov.citation
    return fallback_citation(pid)


def step(text: str, ref: Ref | None = None) -> Step:
    """One reasoning step; without a ref it is arithmetic or a labelled assumption."""
    if ref is None:
        return Step(text=text, provision_id=None)
    return Step(text=text, provision_id=ref.pid, citation=citation(ref.pid), quote=ref.quote)


def cite(ref: Ref) -> dict[str, str]:
    return {"provision_id": ref.pid, "citation": citation(ref.pid), "quote": ref.quote}
