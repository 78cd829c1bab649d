"""Query understanding and hybrid retrieval: a question -> ranked provisions (`Hit`s).

    retriever = Retriever()                          # corpus, index and model from settings, all lazy
    retriever.search("how fast is the report due after a big rain?", municipality="hempstead", k=5)

Steps, each a small function:
1. `understand()` reads the question: the municipality it names ("in Tuckahoe", "the Village",
   "Town of Hempstead", a one-letter typo), abbreviations (SWPPP, SMP, MS4, SPDES, TMDL, CO, NOV, E&S,
   expanded beside the original words), terms the ordinance defines, and citations typed in it.
2. Dense (Chroma) and BM25 candidates over the views of each provision (its text, heading, headnote
   summary and questions), both filtered to the municipality before ranking; each retriever scores a
   provision by its best view, weighted (`DEFAULT_VIEW_WEIGHTS`); the two rankings are fused: `relative_score_fusion` by default, `reciprocal_rank_fusion` on request.
   On the gold set (133 answerable questions, real model) score fusion gave Recall@1 0.74 / Recall@5
   0.92 / MRR 0.81 against RRF's 0.62 / 0.82 / 0.70: RRF flattens BM25's clear wins on a rare shared word.
3. A typed citation, and the definition a definitional question asks about ("what counts as impervious
   cover?"), come first with score 1.0 (fused scores lie in [0, 1]: the weights sum to 1).
4. A parent and a child are not both returned when one hit's text already contains the other's (a
   section made only of parts shows them all).

Scores: hybrid, the fused score; mode="dense", cosine similarity; mode="bm25", the BM25 score.
`search(..., mode="dense" | "bm25")` runs one retriever alone over the same understood query (no pins),
for baselines. `CodeassistRetriever` (langchain `BaseRetriever`) is defined on first access so that
importing this module does not import langchain.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Mapping, Sequence
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from codeassist.errors import CitationNotFound, IndexUnavailable, InvalidInput
from codeassist.models import Hit, Provision
from codeassist.settings import Settings, get_settings
from codeassist.understand import detect_municipalities, detect_other_place, expand_abbreviations

if TYPE_CHECKING:
    from codeassist.chunking import Chunk
    from codeassist.corpus import Corpus
    from codeassist.embedding import Embedder
    from codeassist.index import Index

log = logging.getLogger(__name__)

# Reciprocal-rank fusion constant (Cormack, Clarke & Buettcher, SIGIR 2009): an item at rank r in a
# list adds weight / (RRF_K + r). A large k flattens the curve, so agreement between retrievers
# outweighs either one's top rank; 60 is the published default, robust without tuning.
RRF_K = 60
# Relative trust in each retriever, for either fusion. BM25 gets more: on the gold set BM25 alone beats
# dense alone (all-MiniLM-L6-v2 often misses paraphrased legal questions that share one rare word with
# the answer: "judge" / "judged invalid by a court").
DEFAULT_WEIGHTS: dict[str, float] = {"dense": 0.3, "bm25": 0.7}
# Per retriever, how much each view of a provision counts (chunking.py): a provision's score is the best
# of weight x score over its views; a view missing or weighted 0 is not searched by that retriever.
# Measured on the dev split (eval/gold.jsonl) only; see eval/REPORT.md. Headnote views weigh less than
# the law's own words, so a precise match in the text is not swamped by a paraphrase.
DEFAULT_VIEW_WEIGHTS: dict[str, dict[str, float]] = {
    "dense": {"text": 1.0, "summary": 0.95, "questions": 0.95, "question": 0.9, "yes": 0.9, "no": 0.9},
    "bm25": {"text": 1.0, "questions": 0.6},
}
# A section with no text of its own shows all its parts when hit, and its headnote sums them up; its
# headnote views count this much less, so a question about one part finds that part, not the section.
CONTAINER_HEADNOTE_WEIGHT = 0.8
# Chunks fetched per provision wanted: a provision has several views, and a retriever's top chunks
# often are views of the same few provisions.
VIEWS_PER_PROVISION = 5
PINNED_SCORE = 1.0  # citations typed in the question and asked-about definitions rank first
MAX_K = 100

Mode = Literal["hybrid", "dense", "bm25"]
Fusion = Literal["score", "rrf"]


def reciprocal_rank_fusion(rankings: Mapping[str, Sequence[str]], k: int = RRF_K,
                           weights: Mapping[str, float] | None = None) -> list[tuple[str, float, tuple[str, ...]]]:
    """Fuse ranked id lists into one: [(id, score, names of the rankings that contained it)], best first.

    score(id) = sum over rankings of weight / (k + rank), rank starting at 1; an id repeated within one
    ranking counts at its first rank. Ties keep the order of first appearance (rankings in the given
    order), so the result is deterministic. Pure: inputs are not modified.
    """
    scores: dict[str, float] = {}
    found: dict[str, list[str]] = {}
    for name, ids in rankings.items():
        w = 1.0 if weights is None else weights.get(name, 1.0)
        seen: set[str] = set()
        for rank, item in enumerate(ids, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + w / (k + rank)
            found.setdefault(item, []).append(name)
    order = {item: i for i, item in enumerate(scores)}
    fused = sorted(scores, key=lambda item: (-scores[item], order[item]))
    return [(item, scores[item], tuple(found[item])) for item in fused]


def relative_score_fusion(scores: Mapping[str, Mapping[str, float]],
                          weights: Mapping[str, float] | None = None) -> list[tuple[str, float, tuple[str, ...]]]:
    """Fuse scored candidate lists: each retriever's scores are min-max normalised to [0, 1] over its
    own candidates (its best gets 1, its worst 0; a lone candidate gets 1), then summed with weights.
    [(id, fused score, names of the retrievers that returned it)], best first; ties in first-seen order.

    Unlike RRF this keeps how far ahead a retriever's best candidate is: BM25 putting one provision
    far above the rest (a rare word matched) is not flattened to "rank 1". Pure.
    """
    fused: dict[str, float] = {}
    found: dict[str, list[str]] = {}
    for name, cand in scores.items():
        if not cand:
            continue
        w = 1.0 if weights is None else weights.get(name, 1.0)
        hi, lo = max(cand.values()), min(cand.values())
        for item, s in cand.items():
            norm = (s - lo) / (hi - lo) if hi > lo else 1.0
            fused[item] = fused.get(item, 0.0) + w * norm
            found.setdefault(item, []).append(name)
    order = {item: i for i, item in enumerate(fused)}
    ranked = sorted(fused, key=lambda item: (-fused[item], order[item]))
    return [(item, fused[item], tuple(found[item])) for item in ranked]


class QueryPlan(BaseModel):
    """What `understand()` read in a question."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    query: str = Field(description="The question, cleaned of control characters and extra spaces.")
    municipality: str | None = Field(description="Filter for every retriever; None searches all.")
    municipality_source: Literal["caller", "question", "none"]
    other_place: str | None = Field(default=None, description="A place named that is not in the corpus.")
    expanded: str = Field(description="The question with abbreviations' expansions appended.")
    citations: tuple[str, ...] = Field(default=(), description="Provisions cited in the question.")
    definitions: tuple[str, ...] = Field(default=(), description="Definitions of terms the question uses, longest term first.")
    asked_definitions: tuple[str, ...] = Field(default=(), description="Definitions the question asks for ('what is X').")


# --- reading the question ------------------------------------------------------------------------

def clean_query(query: object, max_chars: int) -> str:
    if not isinstance(query, str):
        raise InvalidInput("Please type the search as text.")
    if len(query) > max_chars:
        raise InvalidInput(f"That search is {len(query):,} characters long; please keep it under {max_chars:,}.")
    text = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in query)
    text = re.sub(r"\s+", " ", text).strip()
    if not text or not re.search(r"\w", text):
        raise InvalidInput('Please type what to search for, e.g. "erosion inspection after rain in Hempstead".')
    return text


def _edit_distance_le1(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1 or a == b:
        return a == b
    if len(a) > len(b):
        a, b = b, a
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), len(a))
    return a[i:] == b[i + 1:] if len(a) < len(b) else a[i + 1:] == b[i + 1:]


def named_municipalities(query: str, aliases: Mapping[str, Sequence[str]]) -> list[str]:
    """Municipality ids the question names, in order ("North Hempstead" is not Hempstead); failing an
    exact name, a one-letter typo of a name of 7+ letters ("hempsted"), unless another place is named."""
    found = detect_municipalities(query, {m: list(a) for m, a in aliases.items()})
    if found or detect_other_place(query):
        return found
    words = re.findall(r"[a-z]+", query.lower())
    for mid, names in aliases.items():
        single = [n for n in names if " " not in n and len(n) >= 7]
        if any(_edit_distance_le1(w, n) for w in words for n in single):
            found.append(mid)
    return found


_LABELS = r"(?:\s*(?:\(\s*[A-Za-z0-9]{1,3}\s*\)|(?<=[\s\d)])[A-Za-z](?![A-Za-z])|\d{1,2}(?!\d)))*"
_CITATION_SPANS = [
    re.compile(r"(?<![\w.-])\d+[A-Za-z]?\s*-\s*\d+(?![\d.])" + _LABELS),                  # 7B-6(c), 7-5 a 1
    re.compile(r"(?:§+|\bsec(?:tion)?\.?)\s*\d{3}(?!\d)" + _LABELS, re.I),                # § 391(B), section 392 B
    re.compile(r"(?<![\w.-])\d{3}(?=\s*\(?[A-Za-z]\b|\s*\()" + _LABELS),                 # 391(B)(1)(d), 392B
    re.compile(r"(?:\b(?:hempstead|tuckahoe)\s+)?\b(?:exemptions?|enforcement|penalties|fees|purpose|applicability|"
               r"findings of fact|construction inspection|performance guarantee|statutory authority)"
               r"\s+(?:item\s+)?\(?[A-Ka-k]\)?(?=\s*[?.!]?\s*$)" + _LABELS, re.I),        # hempstead exemptions G
]


def find_citations(query: str, corpus: Corpus, municipality: str | None) -> list[Provision]:
    """Provisions cited in the question. Only spans that look like citations are tried, so a number
    such as "500 feet" is never read as one."""
    out: list[Provision] = []
    for pattern in _CITATION_SPANS:
        for m in pattern.finditer(query):
            span = m.group(0).strip()
            while span:
                try:
                    p = corpus.resolve_citation(span, municipality)
                except CitationNotFound:
                    shorter = re.sub(r"\s*(?:\(\s*[A-Za-z0-9]{1,3}\s*\)|[A-Za-z0-9]{1,2})$", "", span)
                    span = "" if shorter == span else shorter.strip()
                    continue
                if p.id not in {q.id for q in out}:
                    out.append(p)
                break
    return out


_STOP_AFTER_TERM = r"(?=\s*(?:$|[?.!,;:()'\"’”]|\b(?:in|under|for|mean|means|exactly|according|per|mean\w*|is|as|of the)\b))"
_DEF_CUE_BEFORE = (r"(?:what(?:'s|’s|s| is| are)|who(?:'s| is)|define[sd]?|definition of|meaning of|count(?:s|ed)? as|"
                   r"considered(?: to be)?|qualif(?:y|ies) as|is (?:that|this|it) (?:a|an)|mean by)")


class _Terms:
    """Defined terms of one municipality as matchable variants (singular and plural)."""

    def __init__(self, definitions: Mapping[str, str]):
        variants: dict[str, str] = {}
        for term, pid in definitions.items():
            t = re.sub(r"\s+", " ", term.lower()).strip()
            for v in {t, t[:-1] if t.endswith("s") and len(t) > 3 else t + "s"}:
                variants.setdefault(v, pid)
        self.variants = variants
        self._pattern = (re.compile(r"(?<![\w-])(" + "|".join(re.escape(v) for v in sorted(variants, key=len, reverse=True))
                                    + r")(?![\w-])") if variants else None)

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """Non-overlapping (start, end, pid), longest variant first at each position."""
        if self._pattern is None:
            return []
        return [(m.start(), m.end(), self.variants[m.group(1)]) for m in self._pattern.finditer(text.lower())]


def definition_intent(query: str, term_spans: list[tuple[int, int, str]]) -> list[str]:
    """Definition ids the question asks about: a quoted term ('building'), or a term right after a cue
    ("what is a", "count as", "definition of") and ending the phrase, or "what does TERM mean"."""
    low = query.lower()
    asked: list[str] = []
    for start, end, pid in term_spans:
        quoted = start > 0 and low[start - 1] in "'\"‘“" and end < len(low) and low[end] in "'\"’”"
        before = low[:start]
        cue = re.search(_DEF_CUE_BEFORE + r"\s+(?:(?:a|an|the)\s+)?$", before)
        ends = re.match(_STOP_AFTER_TERM, low[end:])
        means = re.search(r"\bwhat (?:does|do)\s+(?:(?:a|an|the)\s+)?$", before) and re.match(r"\s+mean", low[end:])
        if quoted or (cue and ends) or means:
            if pid not in asked:
                asked.append(pid)
    return asked


# --- the retriever -------------------------------------------------------------------------------

class Retriever:
    """Hybrid retrieval over one corpus. Thread-safe for searches once built; cheap to construct
    (the index, the model and Chroma are opened on first search or by `warm()`)."""

    # retriever -> view -> weight; assign a new mapping on an instance to measure others.
    view_weights: Mapping[str, Mapping[str, float]] = DEFAULT_VIEW_WEIGHTS

    def __init__(self, corpus: Corpus | None = None, index: Index | None = None, *,
                 embedder: Embedder | None = None, settings: Settings | None = None,
                 weights: Mapping[str, float] | None = None, fusion: Fusion = "score", depth: int = 30):
        self.settings = settings or get_settings()
        if corpus is None:
            if index is not None:
                corpus = index.corpus
            else:
                from codeassist.corpus import load_corpus

                corpus = load_corpus(self.settings.corpus_dir)
        self.corpus = corpus
        self._index = index
        self._embedder = embedder
        self.weights = {**DEFAULT_WEIGHTS, **(weights or {})}
        if fusion not in ("score", "rrf"):
            raise ValueError(f"unknown fusion {fusion!r}; known: score, rrf")
        self.fusion = fusion
        self.depth = depth
        self.aliases = {m.id: sorted({m.id, m.name.lower(), m.short_name.lower(), *m.aliases})
                        for m in corpus.municipalities.values()}
        self._terms = {m: _Terms(corpus.definitions(m)) for m in corpus.municipalities}

    @property
    def index(self) -> Index:
        if self._index is None:
            from codeassist.index import Index

            self._index = Index(self.corpus, embedder=self._embedder, settings=self.settings)
        return self._index

    @property
    def embedder(self) -> Embedder:
        return self.index.embedder

    def warm(self) -> None:
        """Open (or build) the index and load the model now, so the first search is fast."""
        self.index.ensure()
        self.embedder.embed_query("warm up")

    # --- understanding ---
    def understand(self, query: str, municipality: str | None = None) -> QueryPlan:
        text = clean_query(query, self.settings.max_question_chars)
        other = detect_other_place(text)
        if municipality is not None:
            muni, source = self.corpus.check_municipality(municipality), "caller"
        else:
            named = named_municipalities(text, self.aliases)
            # Two named (a comparison) or none: search everything.
            muni, source = (named[0], "question") if len(set(named)) == 1 else (None, "none")
        expanded = expand_abbreviations(text)
        citations = tuple(p.id for p in find_citations(text, self.corpus, muni))
        scopes = [muni] if muni else list(self._terms)
        spans = [s for m in scopes for s in self._terms[m].find(expanded)]
        asked = definition_intent(expanded, spans)
        # Longer terms first: "land development activity" says more than "stormwater".
        used = [pid for _, _, pid in sorted(spans, key=lambda s: (-(s[1] - s[0]), s[0]))]
        return QueryPlan(query=text, municipality=muni, municipality_source=source, other_place=other,
                         expanded=expanded, citations=citations, definitions=tuple(dict.fromkeys(asked + used)),
                         asked_definitions=tuple(asked))

    # --- searching ---
    def search(self, query: str, municipality: str | None = None, k: int = 5, *,
               mode: Mode = "hybrid") -> list[Hit]:
        """The k best provisions for a question, most relevant first."""
        return self.search_with_similarity(query, municipality, k, mode=mode)[0]

    def search_with_similarity(self, query: str, municipality: str | None = None, k: int = 5, *,
                               mode: Mode = "hybrid") -> tuple[list[Hit], float | None]:
        """`search`, plus the cosine similarity of the nearest passage the dense search found (None when
        the vector search did not run or found nothing): how close the question came to the text at all."""
        if not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise InvalidInput(f"k must be a whole number from 1 to {MAX_K}; got {k!r}")
        if mode not in ("hybrid", "dense", "bm25"):
            raise InvalidInput(f"unknown search mode {mode!r}; known: hybrid, dense, bm25")
        return self._search(self.understand(query, municipality), k, mode)

    def search_plan(self, plan: QueryPlan, k: int = 5, *, mode: Mode = "hybrid") -> list[Hit]:
        return self._search(plan, k, mode)[0]

    def _search(self, plan: QueryPlan, k: int, mode: Mode) -> tuple[list[Hit], float | None]:
        depth = max(self.depth, 3 * k)
        weights = self.view_weights
        scores: dict[str, dict[str, float]] = {}  # retriever -> provision id -> weighted best view score
        views: dict[str, dict[str, tuple[Chunk, float]]] = {}  # retriever -> provision id -> closest view
        nearest = None
        if mode in ("hybrid", "dense"):
            try:
                vector = self.embedder.embed_query(plan.expanded)
                found = self.index.dense(vector, depth * VIEWS_PER_PROVISION, plan.municipality,
                                         views=_searched(weights["dense"]))
                scores["dense"] = _best(found, weights["dense"], depth, self._discounts)
                views["dense"] = _closest(found)
                # How close the question came to the law's own text (not to our headnotes' wording).
                nearest = max((round(float(s), 6) for c, s in found if c.view == "text"), default=None)
            except IndexUnavailable as e:
                if mode == "dense":
                    raise
                log.warning("vector search unavailable, answering from BM25 alone: %s", e)
        if mode in ("hybrid", "bm25"):
            found = self.index.lexical(plan.expanded, depth * VIEWS_PER_PROVISION, plan.municipality,
                                       views=_searched(weights["bm25"]))
            scores["bm25"], views["bm25"] = _best(found, weights["bm25"], depth, self._discounts), _closest(found)
        # The view a hit shows: the dense one when dense found it (it carries a cosine), else BM25's.
        shown = {pid: (c, s if name == "dense" else None)
                 for name in ("bm25", "dense") for pid, (c, s) in views.get(name, {}).items()}
        if mode != "hybrid":
            return self._hits([(pid, s, (mode,)) for pid, s in scores.get(mode, {}).items()], k, shown), nearest
        if self.fusion == "rrf":
            fused = reciprocal_rank_fusion({name: list(c) for name, c in scores.items()}, weights=self.weights)
        else:
            fused = relative_score_fusion(scores, weights=self.weights)
        found_by = {pid: names for pid, _, names in fused}
        pinned = list(dict.fromkeys([*plan.citations, *plan.asked_definitions]))
        head = [(pid, PINNED_SCORE, ("citation",) if pid in plan.citations else ("definition", *found_by.get(pid, ())))
                for pid in pinned]
        return self._hits(head + [row for row in fused if row[0] not in pinned], k, shown), nearest

    @cached_property
    def _discounts(self) -> dict[str, float]:
        """Provision id -> factor for its non-text views: CONTAINER_HEADNOTE_WEIGHT for a section made
        only of parts."""
        return {p.id: CONTAINER_HEADNOTE_WEIGHT for p in self.corpus.provisions() if not p.text.strip()}

    # --- hits ---
    def hit_text(self, p: Provision) -> str:
        """Verbatim text shown for a hit: its own text, or for a section made only of parts (or a
        reserved one) the whole section. `corpus.full_text(hit.id)` gives any hit with its parts."""
        if p.text.strip():
            return p.text
        return self.corpus.full_text(p.id) or p.title or ""

    def _covers(self, p: Provision) -> set[str]:
        return set() if p.text.strip() else {d.id for d in self.corpus.descendants(p.id)}

    def _hits(self, ranked: Sequence[tuple[str, float, tuple[str, ...]]], k: int,
              shown: Mapping[str, tuple[Chunk, float | None]] | None = None) -> list[Hit]:
        out: list[Hit] = []
        kept: list[tuple[str, set[str]]] = []
        for pid, score, names in ranked:
            p = self.corpus.get(pid)
            if p is None:
                continue
            covers = self._covers(p)
            # The same passage twice: one hit's text already contains the other's.
            if any(pid in kc or kid in covers for kid, kc in kept):
                continue
            kept.append((pid, covers))
            chunk, similarity = (shown or {}).get(pid, (None, None))
            out.append(Hit(id=p.id, municipality=p.municipality, citation=p.citation, heading=p.heading,
                           text=self.hit_text(p), score=round(float(score), 6), retrievers=tuple(names),
                           view=chunk.view if chunk else None, view_text=chunk.view_text if chunk else None,
                           view_similarity=None if similarity is None else round(float(similarity), 6)))
            if len(out) == k:
                break
        return out

    def as_langchain(self, municipality: str | None = None, k: int = 5):
        """This retriever as a langchain `BaseRetriever` (imports langchain_core)."""
        return _langchain_class()(retriever=self, municipality=municipality, k=k)


def _searched(weights: Mapping[str, float]) -> list[str]:
    """The views a retriever searches: those it gives a positive weight."""
    return sorted(v for v, w in weights.items() if w > 0)


def _best(chunk_scores: Sequence[tuple[Chunk, float]], weights: Mapping[str, float] | None = None,
          depth: int | None = None, discounts: Mapping[str, float] | None = None) -> dict[str, float]:
    """Provision id -> max over its views of weight(view) x score, best first, at most `depth` of them.

    Views without a weight count 0 (weights None: every view counts 1); `discounts` (provision id ->
    factor) scales a provision's views other than its text. Ties keep the order of first appearance,
    so the result is deterministic. Pure."""
    best: dict[str, float] = {}
    for chunk, score in chunk_scores:
        w = 1.0 if weights is None else weights.get(chunk.view, 0.0)
        if w <= 0:
            continue
        if discounts and chunk.view != "text":
            w *= discounts.get(chunk.provision_id, 1.0)
        s = w * score
        if chunk.provision_id not in best or s > best[chunk.provision_id]:
            best[chunk.provision_id] = s
    order = {pid: i for i, pid in enumerate(best)}
    ranked = sorted(best, key=lambda pid: (-best[pid], order[pid]))[:depth]
    return {pid: best[pid] for pid in ranked}


def _closest(chunk_scores: Sequence[tuple[Chunk, float]]) -> dict[str, tuple[Chunk, float]]:
    """Provision id -> its view that matched closest (raw score) and that score. A single headnote
    question ("question", "yes", "no") is preferred to the joined "questions" view it is part of: the
    answer layer quotes one question, and its own similarity says how close that one came. Pure."""
    def rank(match: tuple[Chunk, float]) -> tuple[bool, float]:
        return match[0].view != "questions", match[1]

    out: dict[str, tuple[Chunk, float]] = {}
    for match in chunk_scores:
        pid = match[0].provision_id
        if pid not in out or rank(match) > rank(out[pid]):  # ties keep the first seen
            out[pid] = match
    return out


@lru_cache(maxsize=1)
def _langchain_class():
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever

    class CodeassistRetriever(BaseRetriever):
        """codeassist's hybrid retrieval as a langchain retriever: one Document per provision, its
        verbatim text as page_content and the Hit's other fields as metadata."""

        model_config = ConfigDict(arbitrary_types_allowed=True)

        retriever: Any
        municipality: str | None = None
        k: int = 5

        def _get_relevant_documents(self, query: str, *,
                                    run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
            hits = self.retriever.search(query, municipality=self.municipality, k=self.k)
            return [Document(id=h.id, page_content=h.text,
                             metadata={**h.model_dump(exclude={"text"}), "retrievers": list(h.retrievers)})
                    for h in hits]

    return CodeassistRetriever


def __getattr__(name: str):
    # `from codeassist.retrieval import CodeassistRetriever` works, importing langchain only then.
    if name == "CodeassistRetriever":
        return _langchain_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
