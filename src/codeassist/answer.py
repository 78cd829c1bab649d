"""From a routed question to an Answer: retrieval answers, definitions, lookups, comparisons,
calculator answers and abstentions, each composed only from verbatim quotes and calculator results."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol


from . import understand as U
from .compose import Scorer, cite, short_quote
from .compose import sentences as _sentences
from .errors import CitationNotFound
from .models import Answer, Citation, Hit

if TYPE_CHECKING:
    from .corpus import Corpus

NOT_IN_CORPUS = "The ordinance text here does not say"
MAX_OFFENSES = 10
MIN_COVERAGE = 0.34  # share of the question's (IDF-weighted) words a passage must hold, or:
MIN_DENSE = 0.30     # cosine similarity of the best passage to the question (all-MiniLM-L6-v2)
MIN_KNOWN = 0.5  # below this share of known words the question is about something else


class SearchBackend(Protocol):
    def search(self, query: str, municipality: str | None = None, k: int = 5) -> list[Hit]: ...


def _names(corpus: "Corpus") -> dict[str, str]:
    return {m.id: m.name for m in corpus.municipalities.values()}


def _office_line(corpus: "Corpus", ordinance_ids: list[str]) -> list[str]:
    seen: list[str] = []
    for oid in ordinance_ids:
        name = corpus.office_for(oid)
        if name not in seen:
            seen.append(name)
    return seen


def offices_for(corpus: "Corpus", citations: list[Citation]) -> list[str]:
    """The offices that administer the cited provisions' ordinances, in citation order."""
    return _office_line(corpus, list(dict.fromkeys(corpus.ordinance_of(c.id).id for c in citations)))


def _ordinances_for(corpus: "Corpus", munis: list[str], topic: str | None = None) -> list[str]:
    return [o.id for o in corpus.ordinances.values()
            if o.municipality in munis and (topic is None or o.topic == topic)]


def _topic_of(q: str) -> str:
    return "electrical" if U._ELECTRICAL.search(q) else "stormwater"


def abstain(corpus: "Corpus", question: str, reason: str, munis: list[str] | None = None,
            topic: str | None = None, citations: list[Citation] | None = None,
            municipality: str | None = None) -> Answer:
    munis = munis or list(corpus.municipalities)
    offices = _office_line(corpus, _ordinances_for(corpus, munis, topic))
    text = reason
    if offices:
        text += "\n\nFor an answer, ask: " + "; ".join(offices) + "."
    return Answer(question=question, answer=text, intent="abstain", municipality=municipality,
                  citations=citations or [], abstained=True, offices=offices)


# --- retrieval answers -------------------------------------------------------------------------------

def _missing_caveats(corpus: "Corpus", pids: list[str]) -> list[str]:
    """Name outside text the cited provisions rely on (e.g. Appendix A § 12-1)."""
    out: list[str] = []
    for pid in pids:
        for p in [corpus.get(pid), *corpus.ancestors(pid)]:
            for r in p.refs if p else ():
                if r.kind == "not_in_corpus" and r.target_name and "not in this corpus" in r.target_name:
                    msg = f"{p.citation} relies on {r.target_name.replace(', not in this corpus', '')}, which is not in this corpus."
                    if msg not in out:
                        out.append(msg)
    return out[:2]


def _search(backend: SearchBackend, query: str, muni: str | None) -> tuple[list[Hit], float | None]:
    """Hits, and the nearest passage's cosine similarity when the backend can say (the hybrid Retriever
    reports it from the same search; other backends leave the lexical gate to decide alone)."""
    scored = getattr(backend, "search_with_similarity", None)
    if scored is not None:
        return scored(query, municipality=muni, k=5)
    return backend.search(query, municipality=muni, k=5), None


def _lead_in(corpus: "Corpus", pid: str) -> Citation | None:
    """For an item of a list ("may be exempt from review ...:" / "Cemetery graves."), the list's lead-in
    sentence, which carries the rule (discretion, deadlines such as "at least 48 hours before")."""
    p = corpus.get(pid)
    parent = corpus.get(p.parent) if p and p.parent else None
    if parent is None or not parent.text.rstrip().endswith(":") or p.kind == "definition":
        return None
    last = [s for s in _sentences(parent.text) if s.rstrip().endswith(":")]
    if not last or len(last[-1]) > 450:
        return None
    return cite(corpus, parent, last[-1])


def answer_retrieval(corpus: "Corpus", scorer: Scorer, backend: SearchBackend, question: str,
                     munis: list[str], named: bool) -> Answer:
    expanded = U.expand_abbreviations(question)
    share, n_words = scorer.known_share(question), len(set(scorer.stems(question)))
    # Most words unknown to these ordinances even after everyday words are mapped to the ordinance's,
    # or half unknown with at most one known: the question is about something else.
    if scorer.known_share(expanded) < MIN_KNOWN or (share <= MIN_KNOWN and share * n_words <= 1):
        return abstain(corpus, question, f"{NOT_IN_CORPUS} anything about that: the question uses words that "
                       "do not appear in these ordinances (Hempstead's stormwater article; Tuckahoe's Electrical "
                       "Code and Erosion and Sediment Control law).", munis)
    parts: list[tuple[str, list[Citation], float]] = []
    for muni in munis:
        hits, dense = _search(backend, expanded, muni)
        best: list[tuple[float, str, Any]] = []
        top_cov = 0.0
        for rank, h in enumerate(hits[:5]):
            p = corpus.get(h.id)
            if p is None:
                continue
            text = p.text or corpus.full_text(p.id)
            if not text:
                continue
            sentence, s_score = scorer.passage(expanded, text)
            cov = scorer.coverage(expanded, text + " " + p.heading)
            top_cov = max(top_cov, cov)
            # The retriever's order counts most; overlap picks among close candidates.
            best.append((0.6 / (1 + rank) + cov + 0.5 * max(s_score, 0), sentence, p))
        if not best:
            continue
        relevant = top_cov >= MIN_COVERAGE or (dense is not None and dense >= MIN_DENSE)
        if not relevant:
            continue
        best.sort(key=lambda x: -x[0])
        top_score, sentence, p = best[0]
        cites = [cite(corpus, p, sentence)]
        for score, sent, other in best[1:]:
            if len(cites) == 3:
                break
            if score >= 0.6 * top_score and other.id != p.id and other.parent != p.id and p.parent != other.id:
                cites.append(cite(corpus, other, sent))
        parts.append((muni, cites, (dense or 0) + top_cov))
    if not parts:
        where = " or ".join(_names(corpus)[m] for m in munis)
        return abstain(corpus, question, f"{NOT_IN_CORPUS} how this works in the {where}: no provision in the "
                       "text here addresses the question closely enough to quote.", munis, _topic_of(question))
    if not named and len(parts) > 1:
        top = max(s for _, _, s in parts)
        parts = [x for x in parts if x[2] >= 0.6 * top]
    names = _names(corpus)
    lines: list[str] = []
    citations: list[Citation] = []
    for muni, cites, _ in parts:
        label = f"**{names[muni]}:** " if (len(parts) > 1 or not named) else ""
        lead = cites[0]
        intro = _lead_in(corpus, lead.id)
        if intro is not None and intro.id not in {c.id for c in cites}:
            lines.append(f"{label}\u201c{intro.quote}\u201d ({intro.citation}) \u2026 \u201c{lead.quote}\u201d ({lead.citation})")
            cites = [lead, intro, *cites[1:]]
        else:
            lines.append(f"{label}\u201c{lead.quote}\u201d ({lead.citation})")
        for c in cites[1:]:
            if c is not intro:
                lines.append(f"- Also: \u201c{c.quote}\u201d ({c.citation})")
        citations.extend(cites)
    caveats = _missing_caveats(corpus, [c.id for c in citations])
    if not named and len(parts) == 1 and len(munis) > 1:
        other = [names[m] for m in munis if m != parts[0][0]]
        caveats.append(f"Only the {names[parts[0][0]]}'s text answers this here; the {', '.join(other)}'s text in this corpus does not address it.")
    offices = offices_for(corpus, citations)
    text = "\n".join(lines)
    if caveats:
        text += "\n\n" + "\n".join(f"Note: {c}" for c in caveats)
    if offices:
        text += "\n\nQuestions about your site: " + "; ".join(offices) + "."
    muni_out = parts[0][0] if len(parts) == 1 else None
    return Answer(question=question, answer=text, intent="retrieval", municipality=muni_out,
                  citations=citations, caveats=caveats, offices=offices)


# --- definitions and lookups ----------------------------------------------------------------------

def answer_definition(corpus: "Corpus", question: str, term: str, munis: list[str], named: bool) -> Answer:
    names = _names(corpus)
    lines, citations, caveats = [], [], []
    for muni in munis:
        pid = corpus.definitions(muni).get(term)
        if pid is None:
            if named or len(munis) == 1:
                missing = "; ".join(o.missing[0] for o in corpus.ordinances.values() if o.municipality == muni and o.missing)
                caveats.append(f"The {names[muni]}'s text here does not define \u201c{term}\u201d"
                               + (f"; its stormwater definitions are in {missing}." if missing else "."))
            continue
        p = corpus.get(pid)
        assert p is not None
        c = cite(corpus, p, p.text)
        citations.append(c)
        label = f"**{names[muni]}:** " if (not named or len(munis) > 1) else ""
        lines.append(f"{label}{(p.term or term).capitalize()} means: \u201c{c.quote}\u201d ({c.citation})")
    if not citations:
        return abstain(corpus, question, f"{NOT_IN_CORPUS} what \u201c{term}\u201d means for the "
                       f"{' or '.join(names[m] for m in munis)}. " + " ".join(caveats), munis)
    if not named and len(munis) > 1 and len(citations) < len(munis):
        others = [names[m] for m in munis if not corpus.definitions(m).get(term)]
        caveats.append(f"The {', '.join(others)}'s text in this corpus does not define it; do not assume the same definition applies there.")
    text = "\n".join(lines) + ("\n\n" + "\n".join(f"Note: {c}" for c in caveats) if caveats else "")
    return Answer(question=question, answer=text, intent="definition",
                  municipality=citations[0].municipality if len(citations) == 1 else None,
                  citations=citations, caveats=caveats)


def answer_lookup(corpus: "Corpus", question: str, citation_text: str, muni: str | None) -> Answer | None:
    core = re.search(r"§*\s*\d{1,3}[A-Za-z]?(?:-\d+)?(?:\s*\([A-Za-z0-9]{1,2}\))*", citation_text)
    attempts = [citation_text, re.sub(r"\b(say|says|mean|means|cover|covers|about|pls|please|of the .*)\b.*$", "",
                                      citation_text, flags=re.I), core.group(0) if core else "", question]
    p = None
    for text in attempts:
        if not text.strip():
            continue
        try:
            p = corpus.resolve_citation(text.strip(" ?."), muni)
            break
        except CitationNotFound:
            continue
    if p is None:
        return None
    quote_src = p.text or next((c.text for c in corpus.children(p.id) if c.text), "")
    if not quote_src:
        return Answer(question=question, answer=f"{p.citation} ({p.title or p.heading}) has no text in this corpus.",
                      intent="lookup", municipality=p.municipality, citations=[])
    c = cite(corpus, p, short_quote(quote_src, 1500))  # asked for the text: quote it whole
    kids = corpus.children(p.id)
    text = f"{p.citation} ({p.heading}) says: \u201c{c.quote}\u201d"
    citations = [c]
    if kids:
        text += "\n\nIts subdivisions:"
        for k in kids[:12]:
            if k.text:
                kc = cite(corpus, k, short_quote(k.text, 160))
                citations.append(kc)
                text += f"\n- {k.citation}: \u201c{kc.quote}\u201d"
    return Answer(question=question, answer=text, intent="lookup", municipality=p.municipality,
                  citations=citations)


# --- calculators -------------------------------------------------------------------------------------

def _steps_citations(corpus: "Corpus", output: Any, limit: int = 6) -> list[Citation]:
    out: list[Citation] = []
    seen: set[tuple[str, str]] = set()
    for step in getattr(output, "steps", []) or []:
        if step.provision_id and step.quote and corpus.get(step.provision_id) and (step.provision_id, step.quote) not in seen:
            if corpus.quote_in(step.provision_id, step.quote):
                seen.add((step.provision_id, step.quote))
                out.append(cite(corpus, corpus.get(step.provision_id), step.quote))  # type: ignore[arg-type]
    return out[:limit]


def _day(d: date) -> str:
    """"Wednesday, March 18, 2026" (every number in it is in the calculation's ISO date)."""
    return f"{d.strftime('%A, %B')} {d.day}, {d.year}"


def _money(x: int | None) -> str:
    return "not set in this text" if x is None else f"${x:,}"


def _area(out: Any, data: dict | None) -> str:
    """The area as the user gave it: square feet when they wrote square feet, else acres."""
    if data and data.get("disturbed_sq_ft") is not None:
        return f"{data['disturbed_sq_ft']:,g} sq ft"
    return f"{out.disturbed_acres:g} acres"


def headline(name: str, out: Any, names: dict[str, str], data: dict | None = None) -> str:
    """The direct first sentence for a calculator result (each calculator owns its headline)."""
    from .calculators import CALCULATORS
    return CALCULATORS[name].headline(out, names, data) if name in CALCULATORS else ""


def calc_undecided(name: str, out: Any, question: str = "") -> bool:
    """True when the calculator could not settle the question from the corpus."""
    from .calculators import CALCULATORS
    return CALCULATORS[name].undecided(out, question) if name in CALCULATORS else getattr(out, "status", "") == "not_in_corpus"


def find_gap(corpus: "Corpus", question: str, munis: list[str]) -> Answer | None:
    """A question about text the corpus lacks, as listed in each ordinance's metadata `[[gaps]]`.
    With several municipalities in scope, it abstains only when every one of them lacks the text."""
    low = question.lower()
    found: dict[str, tuple[Any, Any]] = {}
    for o in corpus.ordinances.values():
        if o.municipality not in munis or o.municipality in found:
            continue
        for gap in o.gaps:
            if all(re.search(p, low) for p in gap.all_of) and (not gap.any_of or any(re.search(p, low) for p in gap.any_of)):
                found[o.municipality] = (o, gap)
                break
    if not found or len(found) < len(munis):
        return None
    lines, cites = [], []
    for muni, (o, gap) in found.items():
        where = corpus.municipalities[muni].name
        lines.append(f"{NOT_IN_CORPUS} this for the {where}: {gap.missing}")
        p = corpus.get(gap.pointer) if gap.pointer else None
        if p and gap.quote:
            c = cite(corpus, p, gap.quote)
            cites.append(c)
            lines.append(f"What the text does say: \u201c{c.quote}\u201d ({c.citation})")
    topic = next(iter(found.values()))[0].topic
    return abstain(corpus, question, "\n\n".join(lines), list(found), topic, cites,
                   municipality=next(iter(found)) if len(found) == 1 else None)


def _today() -> date:
    return date.today()


def build_calc_input(name: str, question: str, muni: str, prior: dict | None = None) -> tuple[dict | None, str | None]:
    """Calculator input from the question (and a previous input for follow-ups); or a follow-up question."""
    from .calculators import CALCULATORS
    return CALCULATORS[name].read_slots(question, muni, prior, _today()) if name in CALCULATORS else ({**(prior or {}), "municipality": muni}, None)
