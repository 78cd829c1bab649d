"""Comparing the municipalities' provisions on a topic: the passages that match best, side by side, with
the words only one side has marked, and an answer that names the differences that change the rule."""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any

from . import draft as D
from .answer import NOT_IN_CORPUS, SearchBackend, _names, abstain, reply
from .compose import cite, short_quote
from .models import Answer, QueryPlan
from .text import content_stems, stems
from .understand import COMPARATIVE as _COMPARATIVE
from .verdict import yes_no

if TYPE_CHECKING:
    from .corpus import Corpus


def word_diff(a: str, b: str) -> tuple[str, str]:
    """Mark words only in a with [-...-] and words only in b with {+...+}."""
    wa, wb = a.split(), b.split()
    out_a, out_b = [], []
    # Words are matched without their trailing punctuation, so "construction;" equals "construction.".
    na, nb = ([w.rstrip(".,;:").lower() for w in ws] for ws in (wa, wb))
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=na, b=nb, autojunk=False).get_opcodes():
        if op == "equal":
            out_a += wa[i1:i2]
            out_b += wb[j1:j2]
        else:
            if i2 > i1:
                out_a.append("[-" + " ".join(wa[i1:i2]) + "-]")
            if j2 > j1:
                out_b.append("{+" + " ".join(wb[j1:j2]) + "+}")
    return " ".join(out_a), " ".join(out_b)


# How much a passage's rank discounts how alike it is worded to the other law's: the model laws share much
# boilerplate, and a pair worded alike lower down must not outrank the pair the question is about.
# "are the inspection notice milestones the same in both?": the words that ask for a comparison are not its topic
# (BM25 matched "both" to the penalties' "or both").
_COMPARING = re.compile(r"\b(?:in |for |across |between )?(?:both|each)(?: (?:places|towns?|villages?|municipalit(?:y|ies)|"
                        r"of (?:them|these|those)|codes?|laws?|texts?|sides?|spots?|jurisdictions?))?\b|"
                        r"\b(?:the )?same\b|\bidentical\b|\balike\b", re.I)


def _topic_only(plan: QueryPlan) -> QueryPlan:
    """The plan searched for what is compared, without the words that ask for the comparison."""
    strip = lambda text: " ".join(_COMPARING.sub(" ", text).split())  # noqa: E731
    return plan.model_copy(update={"query": strip(plan.query), "expanded": strip(plan.expanded),
                                   "embedded": strip(plan.embedded or plan.expanded)})


RANK_DISCOUNT = 0.25  # dev compare questions (40): right provision and key fact 36 -> 37 each from 0.15; same at 0.3, 0.4
# Two first hits worded at least this alike are the same provision of the model law, adapted (the occupancy holds:
# 0.56, Hempstead's names the county police): that pair is the one asked about, however alike a lower pair is.
SAME_PROVISION = 0.5


def compare(corpus: "Corpus", backend: SearchBackend, plan: QueryPlan) -> dict:
    """The municipalities' provisions on a topic side by side, with differing words marked: those the
    question names when it names two or more, else every municipality of the corpus."""
    topic = plan.query
    def full(p: Any) -> str:  # a list's lead-in and its items are compared together
        return corpus.full_text(p.id)

    def ratio(a: Any, b: Any) -> float:
        return difflib.SequenceMatcher(a=full(a).split(), b=full(b).split(), autojunk=False).ratio()

    cands: dict[str, list[Any]] = {}
    topics = _topics(corpus, topic)
    plan = _topic_only(plan)
    for muni in (plan.named if len(plan.named) >= 2 else list(corpus.municipalities)):
        hits = [corpus.get(h.id) for h in backend.search_plan(plan.for_municipality(muni), k=10) if corpus.get(h.id)]
        law = corpus.law_named_with(topic, muni)  # "Tuckahoe's electrical code vs Hempstead's stormwater article"
        if law is not None and any(corpus.ordinance_of(p.id).id == law.id for p in hits):
            hits = [p for p in hits if corpus.ordinance_of(p.id).id == law.id]
        found_here: list[Any] = []
        for p in hits:
            if corpus.ordinance_of(p.id).topic not in topics or p.kind == "definition":
                continue
            # A section or subsection with no words of its own stands for its parts.
            found_here += [p] if p.text.strip() else [c for c in corpus.children(p.id) if c.text.strip()]
        found_here = list(dict.fromkeys(found_here))
        cands[muni] = _lists_whole(corpus, found_here) if _WHOLE_LIST.search(topic) else found_here
    found: dict[str, Any] = {m: c[0] for m, c in cands.items() if c}
    if len(found) >= 2:
        # Align the pair whose wording matches best, weighted by rank (the model laws share wording);
        # any further municipality takes its passage closest to the first one's.
        (ma, ca), (mb, cb) = [(m, c) for m, c in cands.items() if c][:2]
        best = max(((ratio(a, b) / (1 + RANK_DISCOUNT * (i + j)), a, b) for i, a in enumerate(ca[:4]) for j, b in enumerate(cb[:4])),
                   key=lambda x: x[0])
        if ratio(ca[0], cb[0]) >= SAME_PROVISION:  # both searches' first hits are the model law's one provision
            best = (1.0, ca[0], cb[0])
        aligned = {ma: best[1], mb: best[2]}
        for m, c in cands.items():
            if c and m not in aligned:
                aligned[m] = max(((ratio(best[1], x) / (1 + RANK_DISCOUNT * j), x) for j, x in enumerate(c[:4])), key=lambda x: x[0])[1]
        found = aligned
    munis = list(found)
    result: dict[str, Any] = {"topic": topic, "municipalities": munis, "pairs": []}
    if len(munis) >= 2:
        # Words are marked against the first municipality's passage (with two, each against the other).
        first = found[munis[0]]
        pair: dict[str, Any] = {}
        for m in munis[1:]:
            da, db = word_diff(full(first), full(found[m]))
            pair.setdefault(munis[0], {"id": first.id, "citation": first.citation, "heading": first.heading,
                                       "text": full(first), "marked": da})
            p = found[m]
            pair[m] = {"id": p.id, "citation": p.citation, "heading": p.heading, "text": full(p), "marked": db}
        pair["similarity"] = round(ratio(first, found[munis[1]]), 3)
        result["pairs"].append(pair)
    else:
        for m in munis:
            p = found[m]
            result["pairs"].append({m: {"id": p.id, "citation": p.citation, "heading": p.heading, "text": full(p), "marked": full(p)}})
    return result


def _topics(corpus: "Corpus", question: str) -> set[str]:
    """The ordinance topics compared: those the question names ("Tuckahoe's electrical code vs Hempstead's
    stormwater article"), else stormwater, the subject both municipalities' laws share."""
    return {o.topic for o in corpus.ordinances_named(question)} or {"stormwater"}


# "how long do you get to appeal in Hempstead compared to Tuckahoe?", "who certifies the as-builts, A vs B?": a
# question for a value is answered by what each text says first, then how the wording differs.
_ASKS_WHAT = re.compile(r"(?:^|[.?!:;,-]\s*)(?:who|whom|what|which|when|where|how (?:long|much|many|soon|often))\b", re.I)
_DIFFER = re.compile(r"\b(?:differ\w*|compar\w*|contrast\w*|vary|varies|same|alike|similar)\b", re.I)
_ASKS_HOW = re.compile(r"(?:^|[.?!:;,-]\s*)how (?:do|does|did|are|is)\b", re.I)  # "how do the fines differ?": how, not whether
# "same list of stages where I have to call for an inspection?" asks about a list, not one of its items.
_WHOLE_LIST = re.compile(r"\b(?:lists?|stages|steps|milestones|items|points|everything|all the)\b", re.I)


def _lists_whole(corpus: "Corpus", found: list[Any]) -> list[Any]:
    """Items of one list found together ("the stages where I have to call for an inspection") stand for the
    list: the parent, whose full text holds its lead-in and every item, takes the first item's place."""
    lists = corpus.lists_among([p.id for p in found[:5]])
    out: list[Any] = []
    for p in found:
        parent = corpus.get(p.parent) if p.parent in lists else None
        out.append(parent if parent is not None and parent.text.rstrip().endswith(":") else p)
    return list(dict.fromkeys(out))


_NAMING = re.compile(r"\b(town|village|municipality|municipal|of|the|this|article|chapter|law|and|appendix|a|zoning|xii|"
                     r"stormwater|control|or|duly|appointed|agent|board|trustees|is|are|was|were)\b|[^\w\s]", re.I)


_FUNCTION_WORDS = frozenset("a an the to of in on at by for and or as that which is are be".split())


def _substantive(chunks: list[str], corpus: "Corpus") -> list[str]:
    """Differences that change the rule, longest first: not names ("Town of Hempstead" / "Village") or
    the law's name for itself ("this article" / "this chapter and Appendix A, ...")."""
    names = [n.lower() for m in corpus.municipalities.values() for n in (m.short_name, m.name)]
    keep = []
    for c in chunks:
        rest = c.lower()
        for n in names:
            rest = rest.replace(n.lower(), " ")
        words = re.findall(r"[a-z0-9]+", _NAMING.sub(" ", rest))
        if words and not all(w in _FUNCTION_WORDS for w in words):  # "to" alone changes no rule
            keep.append(c)
    return sorted(keep, key=len, reverse=True)


def _in_context(words: str, quoted: str) -> str:
    """\u201cNew York State licensed\u201d (before \u201cprofessional engineer\u201d): words only one text has, with the
    words they stand before in its quote (up to three, to the end of the clause), so the reader sees what they qualify."""
    at = quoted.find(words) if not words.rstrip().endswith((".", "?", "!", ";", ":")) else -1
    after = re.match(r"\s+([^.,;:()\u201c\u201d\"]+)", quoted[at + len(words):]) if at >= 0 else None
    context = " ".join(after.group(1).split()[:3]) if after else ""
    return f"\u201c{words}\u201d" + (f" (before \u201c{context}\u201d)" if context else "")


def _stems(words: str) -> tuple[str, ...]:
    return tuple(stems(words))


def _same_or_not(plan: QueryPlan, differ: bool) -> str | None:
    """"Yes."/"No." for "are they the same?" and "do they differ?" questions, from the wording compared."""
    # "hempstead vs tuckahoe erosion fines same?" has no verb, but no clause opens with a question word either
    # ("same list of stages where I call?"): it asks yes or no.
    asks = plan.slots.get("asks_same") if plan.yes_no or not (_ASKS_WHAT.search(plan.query) or _ASKS_HOW.search(plan.query)) \
        else None
    if asks is None:
        return None
    return ("No." if differ else "Yes.") if asks else ("Yes." if differ else "No.")


def _each_verdict(corpus: "Corpus", backend: SearchBackend, plan: QueryPlan, pair: dict, munis: tuple[str, str]) -> str | None:
    """"Can the officer block occupancy in both?": Yes or No for each municipality, from the headnote of the
    provision compared (verdict.yes_no, as for one municipality); None unless the question is yes/no and both
    provisions settle it."""
    if not plan.yes_no or _ASKS_WHAT.search(plan.query):
        return None
    topic = _topic_only(plan)
    names = _names(corpus)
    said: dict[str, str] = {}
    for m in munis:
        hit = next((h for h in backend.search_plan(topic.for_municipality(m), k=10) if h.id == pair[m]["id"]), None)
        v = yes_no(topic, hit, corpus.full_text(hit.id)) if hit is not None else None
        if v is None:
            return None
        said[m] = v
    a, b = munis
    if said[a] == said[b]:
        return f"{said[a]}, in both the {names[a]} and the {names[b]}."
    return f"{said[a]} in the {names[a]}; {said[b].lower()} in the {names[b]}."


# "do both places let the police enforce it?" ("can the officer block it in both, and can the police enforce it?" asks
# two things, the first of both)
_BOTH_ASKED = re.compile(r"\b(?:do|does|did|can|could|may|must|will|would|are|is|have|has)\b both\b", re.I)


def _only_one_says(plan: QueryPlan, names: dict[str, str], only: dict[str, list[str]]) -> str | None:
    """"Do both Hempstead and Tuckahoe let a contractor keep doing work needed to secure the site?" when only one
    text says "necessary to secure the site": No, and which one says it. None unless a yes/no question asks of
    both and the words only one text has carry two or more of the question's own content words."""
    if not plan.yes_no or not _BOTH_ASKED.search(plan.query):
        return None
    asked = set(content_stems(plan.query))
    saying = [(m, x) for m, words in only.items() for x in words if len(asked & set(content_stems(x))) >= 2]
    if len({m for m, _ in saying}) != 1:
        return None
    return f"No, not both: only the {names[saying[0][0]]}'s text says so."


def answer_compare(corpus: "Corpus", backend: SearchBackend, plan: QueryPlan) -> Answer:
    question = plan.query
    data = compare(corpus, backend, plan)
    if not data["pairs"] or len(data["municipalities"]) < 2:
        return abstain(corpus, question, f"{NOT_IN_CORPUS} enough on this topic in both municipalities to compare them.")
    pair = data["pairs"][0]
    names = _names(corpus)
    citations = []
    for m in data["municipalities"]:
        p = corpus.get(pair[m]["id"])
        citations.append(cite(corpus, p, short_quote(" ".join(corpus.full_text(p.id).split()), 1200)))
    if len(data["municipalities"]) != 2:  # wording differences are named for a pair only
        blocks = [D.lead("The municipalities' texts on this, side by side:")]
        for c in citations:
            blocks.append(D.quote(c, role="proof", label=names[c.municipality]))
        return reply(question, D.build(*blocks), "compare", municipality=None)
    a, b = data["municipalities"]
    # Only differences inside the quoted words are named, so every word of the summary is on the page.
    quoted = {c.municipality: " ".join(c.quote.split()) for c in citations}
    whole_a = _substantive(re.findall(r"\[-(.+?)-\]", pair[a]["marked"]), corpus)
    whole_b = _substantive(re.findall(r"\{\+(.+?)\+\}", pair[b]["marked"]), corpus)
    only_a = [x for x in whole_a if x in quoted[a]]
    only_b = [x for x in whole_b if x in quoted[b]]
    # "provision" / "provisions": the same word inflected on each side changes no rule.
    same = {_stems(x) for x in only_a} & {_stems(x) for x in only_b}
    only_a = [x for x in only_a if _stems(x) not in same]
    only_b = [x for x in only_b if _stems(x) not in same]
    said = [f"only {names[m]} says " + "; ".join(_in_context(x, quoted[m]) for x in only[:4])
            for m, only in ((a, only_a), (b, only_b)) if only]
    summary = ("Both texts are worded the same, but for the names of the municipalities and their offices." if not said
               else "Differences in wording: " + "; ".join(said) + ("" if said[-1].endswith(".\u201d") else "."))
    verdict = _same_or_not(plan, differ=bool(only_a or only_b)) or _each_verdict(corpus, backend, plan, pair, (a, b)) \
        or _only_one_says(plan, names, {a: only_a, b: only_b})
    summaries = [D.summary(corpus, c.id, names[c.municipality]) for c in citations]
    # "..., how does it get paid back - Hempstead vs Tuckahoe?" asks what each does ("how do the fines differ?" how
    # they differ)
    asks_each = re.search(r"\b(?:each|respectively)\b", question, re.I) or _ASKS_WHAT.search(question) \
        or (_ASKS_HOW.search(question) and not _DIFFER.search(question))
    alike = not ({_stems(x) for x in whole_a} ^ {_stems(x) for x in whole_b})  # the whole texts, not just the quotes
    if alike and all(summaries) and not _COMPARATIVE.search(question):
        # "NOV appeal window hempstead vs tuckahoe?": what both say is the answer; one summary says it.
        both = f"{names[a]} and {names[b]} alike (worded the same but for the names of the municipalities and their offices)"
        blocks = [D.lead(f"{verdict} {summary}") if verdict else None,
                  D.summary(corpus, citations[0].id, f"{names[a]} and {names[b]} alike" if verdict else both)]
        blocks += [D.quote(c, role="proof", label=names[c.municipality]) for c in citations]
    elif not asks_each or verdict or _COMPARATIVE.search(question) or not all(summaries):
        # "X versus Y", "are they the same?", "which is stricter?": how the wording differs is the answer.
        blocks = [D.lead(verdict) if verdict else None, D.lead(summary)]
        for c, s in zip(citations, summaries):
            blocks += [s, D.quote(c, role="proof", label=None if s else names[c.municipality])]
    else:
        # "What state law does each rely on?": what each text says comes first, then how the wording differs.
        blocks = [*summaries, D.text(summary)]
        blocks += [D.quote(c, role="proof") for c in citations]
    return reply(question, D.build(*blocks), "compare", municipality=None)
