"""Reading citations the way people write them: "7B-5(c)", "§ 7B-5 (c)", "392B", "section 392
subsection B", "Hempstead exemptions G", "tuckahoe:7B-5(c)", "390 impervious cover"."""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING

from ..errors import CitationNotFound
from ..models import Provision

if TYPE_CHECKING:
    from . import Corpus

MAX_CITATION_CHARS = 200

_FILLER = re.compile(
    r"\b(?:section|sections|sec|subsection|subsec|sub|paragraph|para|item|clause|subdivision|art|article|"
    r"xxxviii|chapter|ch|code|bzo|building|zone|ordinance|of|the|town|village|what|does|say|says|show|me|"
    r"in|to|is|under|number|no|part|definition|defined|term|meaning)\b\.?", re.I)
_DASHED_STYLE = re.compile(r"(?<![\w.])(\d+[A-Za-z]?)\s*-\s*(\d+)(?![\d.])")
_NUMBER = re.compile(r"(?<![\w.-])(\d{3})(?![\d-])")


def _strip_filler(rest: str) -> str:
    return _FILLER.sub(" ", rest)


def _labels_from(rest: str) -> list[str] | None:
    """'(B)(1)(a)' / 'B1a' / 'b 3' -> ['B','1','a']; None when words remain that are not labels."""
    tokens = re.findall(r"[A-Za-z]+|\d+", rest)
    out: list[str] = []
    for tok in tokens:
        if tok.isdigit():
            out.append(tok)
        elif len(tok) == 1:
            out.append(tok)
        elif re.fullmatch(r"[A-Za-z]\d*[a-z]?", tok):
            out.extend(re.findall(r"[A-Za-z]|\d+", tok))
        else:
            return None
    return out


def _walk(corpus: "Corpus", root: Provision, labels: list[str]) -> Provision | None:
    node = root
    for label in labels:
        nxt = None
        for child in corpus.children(node.id):
            own = child.labels[-1] if child.labels and child.kind != "definition" else None
            if own is not None and own.lower() == label.lower():
                nxt = child
                break
        if nxt is None:
            return None
        node = nxt
    return node


def _suggest(corpus: "Corpus", text: str, scope: list[Provision], near: Provision | None) -> list[str]:
    if near is not None:
        kids = corpus.children(near.id)
        return [c.citation for c in kids[:6]] or [near.citation]
    by_cite = {p.citation.lower(): p.citation for p in scope if p.kind != "definition"}
    keys = difflib.get_close_matches(text.lower(), list(by_cite), n=5, cutoff=0.3)
    if not keys:
        keys = difflib.get_close_matches(text.lower(), [k.split("§")[-1] for k in by_cite], n=5, cutoff=0.3)
        keys = [k for k in by_cite if any(k.endswith(x) for x in keys)][:5]
    return [by_cite[k] for k in keys]


def _forms(corpus: "Corpus", sections: list) -> str:
    """How to write a citation, each form shown by a real citation of `sections`: a dashed section number
    with its subsection in parentheses, a three-digit number followed by its subsection, and a
    municipality's name with a section's title and subsection."""
    found: dict[str, str] = {}
    for s in sections:
        label = next((c.labels[-1] for c in corpus.children(s.provision_id) if c.labels and c.kind != "definition"), None)
        if label is None:
            continue
        if s.number and _DASHED_STYLE.fullmatch(s.number):
            found.setdefault("dashed", f"{s.number}({label})")
        elif s.number and _NUMBER.fullmatch(s.number):
            found.setdefault("number", f"{s.number}{label}")
        elif not s.number:
            found.setdefault("named", f"{corpus.municipalities[s.municipality].short_name} {s.key.replace('-', ' ')} {label}")
    shown = [f'"{found[k]}"' for k in ("dashed", "number", "named") if k in found]
    if not shown:
        return "write a section number or title and its subsection"
    return "write it like " + (", ".join(shown[:-1]) + " or " + shown[-1] if len(shown) > 1 else shown[0])


def resolve_citation(corpus: "Corpus", text: str, municipality: str | None = None) -> Provision:
    raw = (text or "").strip()
    if not raw:
        raise CitationNotFound(raw, [], "empty citation")
    if len(raw) > MAX_CITATION_CHARS:
        raise CitationNotFound(raw[:40] + "...", [], f"a citation is at most {MAX_CITATION_CHARS} characters")
    if raw in corpus:
        return corpus.get(raw)  # type: ignore[return-value]
    lowered_ids = {pid.lower(): pid for pid in (p.id for p in corpus.provisions())}
    if raw.lower() in lowered_ids:
        return corpus.get(lowered_ids[raw.lower()])  # type: ignore[return-value]

    muni = corpus.check_municipality(municipality) if municipality else None
    work = raw
    for m in corpus.municipalities.values():
        for alias in sorted({m.id, m.name.lower(), *m.aliases}, key=len, reverse=True):
            pat = re.compile(r"(?<![\w-])" + re.escape(alias) + r"(?![\w-])", re.I)
            if pat.search(work):
                if muni and muni != m.id:
                    raise CitationNotFound(raw, [], f"it names {m.name} but the municipality chosen is {muni}")
                muni = m.id
                work = pat.sub(" ", work)
    work = work.replace("§", " ").replace(":", " ")
    scope_munis = [muni] if muni else list(corpus.municipalities)
    quoted = re.search(r'["\u201c]([^"\u201d]+)["\u201d]', work)
    if quoted:  # 'Hempstead BZO § 390, definition of "BUILDING"'
        term = " ".join(quoted.group(1).lower().split())
        hits = {corpus.definitions(m).get(term) for m in scope_munis} - {None}
        if len(hits) == 1:
            return corpus.get(hits.pop())  # type: ignore[return-value]
    scope = [p for p in corpus.provisions() if p.municipality in scope_munis]
    sections = [s for s in corpus.sections if s.municipality in scope_munis]

    # 1. the section
    candidates = []
    rest = work
    m = _DASHED_STYLE.search(work)
    if m:
        num = f"{m.group(1).upper()}-{m.group(2)}"
        candidates = [s for s in sections if s.number == num]
        rest = work[:m.start()] + " " + work[m.end():]
    else:
        m = _NUMBER.search(work)
        if m:
            candidates = [s for s in sections if s.number == m.group(1)]
            rest = work[:m.start()] + " " + work[m.end():]
        else:
            words = _FILLER.sub(" ", work).lower()
            for s in sections:
                names = {s.key.replace("-", " "), s.title.lower()}
                if s.key == "enforcement":
                    names |= {"penalties", "enforcement and penalties"}
                if "definition" in s.title.lower():
                    names |= {"definitions"}
                for name in sorted(names, key=len, reverse=True):
                    if re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", words):
                        candidates.append(s)
                        words_rest = re.sub(r"(?<!\w)" + re.escape(name) + r"(?!\w)", " ", words, count=1)
                        rest = words_rest
                        break
    if not candidates:
        if not m:
            examples = [s.citation for s in sections[:: max(1, len(sections) // 4)]][:4]
            raise CitationNotFound(raw, examples, "no section number or title found; " + _forms(corpus, sections))
        raise CitationNotFound(raw, _suggest(corpus, raw, scope, None), "no such section")
    if len(candidates) > 1:
        labels = _labels_from(_strip_filler(rest)) or []
        walked = [_walk(corpus, corpus.get(c.provision_id), labels) for c in candidates]  # type: ignore[arg-type]
        if labels and sum(w is not None for w in walked) == 1:
            return next(w for w in walked if w is not None)  # "construction inspection A(1)(i)": only the Town's has it
        options = [w.citation if w else c.citation for w, c in zip(walked, candidates)]
        raise CitationNotFound(raw, options, "more than one municipality has it; name one")
    section = candidates[0]
    root = corpus.get(section.provision_id)
    assert root is not None

    # 2. the labels (or a defined term)
    rest_clean = _strip_filler(rest)
    labels = _labels_from(rest_clean)
    if labels is None:
        term = re.sub(r"[^a-z0-9]+", " ", rest_clean.lower()).strip()
        defs = corpus.definitions(section.municipality)
        hit = defs.get(term)
        if hit and corpus.get(hit) and corpus.get(hit).section == section.key:  # type: ignore[union-attr]
            return corpus.get(hit)  # type: ignore[return-value]
        raise CitationNotFound(raw, _suggest(corpus, raw, scope, root), f"could not read {rest_clean.strip()!r} as a subsection")
    found = _walk(corpus, root, labels)
    if found is None:
        # The deepest provision that does exist, for suggestions.
        near = root
        for i in range(len(labels), 0, -1):
            near = _walk(corpus, root, labels[:i - 1]) or root
            if near is not root or i == 1:
                break
        raise CitationNotFound(raw, _suggest(corpus, raw, scope, near),
                               f"{section.citation} has no subsection {''.join(f'({x})' for x in labels)}")
    return found
