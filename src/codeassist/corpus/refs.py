"""Cross-references inside provision text, resolved to provision ids or to a typed "not in corpus".

Order matters: references to named outside documents (metadata `external_refs`, e.g. "Appendix A,
Zoning, § 12-1") are found first, and a section reference inside one of them is never read as a
reference to this corpus (Tuckahoe's "Appendix A, §§ 7-1.3(f) and 7-3" is not Chapter 7 § 7-3).
"""

from __future__ import annotations

import re

from ..errors import CorpusError
from ..models import CrossRef, Ordinance, Provision

# "§ 392, Subsection B", "§ 7-11(f)", "§ 386 hereof", "§§ 4, 5", "§ 1-7"
_SECTION_REF = re.compile(
    r"§\s*(?P<num>\d+[A-Z]?(?:-\d+(?:\.\d+)?)?)(?P<labels>(?:\([a-z0-9]+\))*)"
    r"(?:,\s*Subsection\s+(?P<sub>[A-Z])(?P<sublabels>(?:\(\d+\))*))?")
# "Subsection B(3) below", "Subsection (c) hereinabove in this section", "Subsection C above"
_SUBSECTION_REF = re.compile(r"Subsection\s+(?:(?P<upper>[A-Z])(?P<labels>(?:\(\d+\))*)|\((?P<lower>[a-z])\))")


def _labels(s: str | None) -> list[str]:
    return re.findall(r"\(([a-z0-9]+)\)", s or "")


def find_refs(p: Provision, ordinance: Ordinance, section_ids: dict[str, str], known: set[str],
              src: str) -> tuple[CrossRef, ...]:
    """All references in p's own text. `section_ids` maps a printed section number to its id prefix."""
    text = p.text
    out: list[CrossRef] = []
    taken: list[tuple[int, int]] = []

    def overlaps(a: int, b: int) -> bool:
        return any(a < y and x < b for x, y in taken)

    for ext in ordinance.external_refs:
        # A space in a pattern matches any whitespace (the texts use no-break spaces after "§").
        for m in re.finditer(ext.pattern.replace(" ", r"\s+"), text):
            if overlaps(m.start(), m.end()):
                continue
            taken.append((m.start(), m.end()))
            out.append(CrossRef(text=m.group(0), start=p.start + m.start(), end=p.start + m.end(),
                                kind="not_in_corpus", target_name=ext.name))

    def internal(m: re.Match, target: str) -> None:
        if target not in known:
            raise CorpusError(f"{p.id}: reference {m.group(0)!r} resolves to unknown provision {target}")
        taken.append((m.start(), m.end()))
        out.append(CrossRef(text=m.group(0), start=p.start + m.start(), end=p.start + m.end(),
                            kind="internal", target=target))

    for m in _SECTION_REF.finditer(text):
        if overlaps(m.start(), m.end()):
            continue
        prefix = section_ids.get(m["num"])
        if prefix is None:
            taken.append((m.start(), m.end()))
            out.append(CrossRef(text=m.group(0), start=p.start + m.start(), end=p.start + m.end(),
                                kind="not_in_corpus", target_name=f"§ {m['num']} (not in this corpus)"))
            continue
        labels = _labels(m["labels"]) + ([m["sub"]] if m["sub"] else []) + _labels(m["sublabels"])
        internal(m, prefix + "".join(f"({x})" for x in labels))

    section_prefix = p.id.split("(", 1)[0].split(".p", 1)[0].split("/", 1)[0]
    for m in _SUBSECTION_REF.finditer(text):
        if overlaps(m.start(), m.end()):
            continue
        labels = [m["upper"]] + _labels(m["labels"]) if m["upper"] else [m["lower"]]
        internal(m, section_prefix + "".join(f"({x})" for x in labels))

    out.sort(key=lambda r: r.start)
    for r in out:
        if src[r.start:r.end] != r.text:
            raise CorpusError(f"{p.id}: reference offsets do not match the source")
    return tuple(out)
