"""The eval: retrieval against baselines, and end-to-end answer checks, in one process and one run.

    codeassist eval [--out DIR]          # writes DIR/REPORT.md and DIR/results.json (default: eval/)
    run_eval()                            # the same, returning the metrics dict

Retrieval (issue 3). On every gold question that is answerable, has gold ids and is in category
retrieval / definition / lookup / calculator / compare, four systems answer the same question:

- ``hybrid``: our Retriever (dense + BM25 fused, query understanding), k=5;
- ``langchain``: what a typical langchain user builds: the raw corpus text files split with
  RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200), embedded with the same model
  (our embedder, wrapped as langchain ``Embeddings``), in an in-memory langchain_chroma ``Chroma``,
  ``similarity_search(k=4)``. No metadata filter: the tutorial pipeline has none, and its chunks carry
  only ``source``. A supplementary row, ``langchain_filtered``, adds ``filter={"source": <file>}``
  whenever the caller picked a municipality, i.e. what a user with a municipality picker would add;
- ``bm25`` and ``dense``: our Retriever with mode="bm25" / mode="dense" (same chunks, same
  municipality filter, no fusion, no pinned citations or definitions).

The caller's municipality (the gold line's ``municipality``) is passed to hybrid, bm25 and dense.

What counts as a hit:
- provision systems: the hit's id is a gold id, or the hit is an ancestor of a gold provision whose
  returned text contains the gold provision's own text (a passage returned whole); a descendant of a
  gold provision does not count (the gold lists every id that answers);
- langchain chunks: the chunk comes from the gold provision's source file, its span in that file
  overlaps the provision's span (``add_start_index``), and its text contains the provision's verbatim
  text from the file (whitespace-normalised; the first 200 characters for longer provisions). The
  municipality of a chunk is that of its source file (the Tuckahoe file holds Chapters 7 and 7B; both
  are Tuckahoe's).

Metrics per system: Recall@1, Recall@5 (for the k=4 langchain baseline: within its 4 results), MRR
over the returned list, the same per user type and per expected municipality, the wrong-municipality
rate (share of questions whose municipality is known, from the caller or else ``expected_municipality``,
whose returned top 5 holds a hit from another municipality), and warm query latency p50/p95 in ms
(every system is warmed first; systems run interleaved per question so load affects all alike).

Answers (issue 5), over every gold line through ``Assistant.ask`` with the real retriever: the right
provision among the citations (a gold id, or an ancestor or descendant of one) for answerable
questions; key facts in the answer text (case-insensitive, whitespace-normalised, numerals and number
words interchangeable); abstention (``abstained``) on out-of-corpus and out-of-scope questions;
quotes verbatim and no unsupported numbers (``compose.check_answer``); intent by gold category; the
expected calculator for calculator questions. ``Assistant.ask`` replaces an answer that fails
``check_answer`` with an abstention, so the verbatim and number checks pass by construction; the eval
therefore also counts those safety-net replacements and re-runs the draft to say what was wrong.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import statistics
import sys
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codeassist.corpus import Corpus
    from codeassist.models import Answer, Provision
    from codeassist.retrieval import Retriever

_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_GOLD = _ROOT / "eval" / "gold.jsonl"
DEFAULT_OUT = _ROOT / "eval"

RETRIEVAL_CATEGORIES = ("retrieval", "definition", "lookup", "calculator", "compare")
UNANSWERABLE_CATEGORIES = ("out_of_corpus", "out_of_scope")
EXPECTED_INTENT = {"retrieval": "retrieval", "definition": "definition", "lookup": "lookup",
                   "calculator": "calculator", "compare": "compare", "out_of_corpus": "abstain",
                   "out_of_scope": "abstain"}
K = 5
LANGCHAIN_K = 4
CHUNK_SIZE, CHUNK_OVERLAP = 1000, 200
SIGNATURE_CHARS = 200
FALLBACK_MARK = "in a way I can quote safely"  # api.Assistant.ask's safety-net abstention

SYSTEMS = {
    "hybrid": "codeassist hybrid (k=5)",
    "langchain": "baseline 1: langchain splitter(1000,200) + Chroma, k=4",
    "bm25": "baseline 2: BM25 only (k=5)",
    "dense": "baseline 3: dense only (k=5)",
    "langchain_filtered": "baseline 1b: as 1 + source-file filter when the caller picks a municipality",
}
REQUIRED_BASELINES = ("langchain", "bm25", "dense")


# --- pure metric functions ----------------------------------------------------------------------

def first_relevant_rank(relevant: Sequence[bool]) -> int | None:
    """1-based rank of the first relevant result, or None when none is."""
    return next((i for i, r in enumerate(relevant, start=1) if r), None)


def recall_at(ranks: Sequence[int | None], k: int) -> float:
    """Share of questions whose first relevant result is at rank <= k (0.0 for no questions)."""
    if not ranks:
        return 0.0
    return sum(1 for r in ranks if r is not None and r <= k) / len(ranks)


def mean_reciprocal_rank(ranks: Sequence[int | None]) -> float:
    """Mean of 1/rank of the first relevant result (0 when none was returned)."""
    if not ranks:
        return 0.0
    return sum(1.0 / r for r in ranks if r is not None) / len(ranks)


def percentile(values: Sequence[float], p: float) -> float:
    """Linear-interpolated percentile (numpy's default), p in [0, 100]; 0.0 for no values."""
    if not values:
        return 0.0
    xs = sorted(values)
    pos = (len(xs) - 1) * p / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def has_wrong_municipality(hit_municipalities: Iterable[str], known: str | None) -> bool:
    """Does a result list hold a hit from a municipality other than the known one?"""
    return known is not None and any(m != known for m in hit_municipalities)


_WS = re.compile(r"\s+")


def normalize_ws(text: str) -> str:
    return _WS.sub(" ", text).strip()


_UNITS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                     "thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"}
_NUMBER_WORDS = re.compile(
    r"\b(?:(" + "|".join(_TENS) + r")(?:[\s-](" + "|".join(w for w in _UNITS if w != "zero") + r"))?|("
    + "|".join(_UNITS) + r"))\b")


def _number_words_to_digits(text: str) -> str:
    def repl(m: re.Match) -> str:
        if m.group(1):
            return str(_TENS[m.group(1)] + (_UNITS[m.group(2)] if m.group(2) else 0))
        return str(_UNITS[m.group(3)])
    return _NUMBER_WORDS.sub(repl, text)


def normalize_fact_text(text: str) -> str:
    """Lower case, straight quotes and hyphens, one space, numbers as digits without thousands commas."""
    t = text.lower()
    t = t.translate(str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                                   "\u2013": "-", "\u2014": "-", "\u00a0": " "}))
    t = re.sub(r"(?<=\d),(?=\d{3}\b)", "", t)
    t = _number_words_to_digits(t)
    return normalize_ws(t)


_MONTHS = ("january february march april may june july august september october november december").split()
_MONTH_DAY = re.compile(r"^(" + "|".join(_MONTHS) + r")\s+(\d{1,2})$")


def fact_present(fact: str, text: str) -> bool:
    """Is a key fact in the text? Case-insensitive, whitespace-normalised, "five years" == "5 years",
    and a month-day fact ("March 18") also matches an ISO date ("2026-03-18"). A weekday fact
    ("Wednesday") must be written out: it is not inferred from a date."""
    f, t = normalize_fact_text(fact), normalize_fact_text(text)
    if not f:
        return True
    # Whole words and whole numbers ("$350" is not in "$3500"); a word may take a plural ending.
    before = r"(?<![a-z0-9])" if f[0].isalnum() else ""
    after = (r"(?:s|es)?(?![a-z0-9])" if f[-1].isalpha() else r"(?![0-9]|\.[0-9])" if f[-1].isdigit() else "")
    if re.search(before + re.escape(f) + after, t):
        return True
    m = _MONTH_DAY.match(f)
    if m:
        month, day = _MONTHS.index(m.group(1)) + 1, int(m.group(2))
        return re.search(rf"\b\d{{4}}-{month:02d}-{day:02d}\b", t) is not None
    return False


def summarize_ranks(ranks: Sequence[int | None]) -> dict[str, float | int]:
    return {"n": len(ranks), "recall@1": recall_at(ranks, 1), "recall@5": recall_at(ranks, K),
            "mrr": mean_reciprocal_rank(ranks)}


def rate(passed: int, n: int) -> float | None:
    return passed / n if n else None


# --- gold ---------------------------------------------------------------------------------------

def load_gold(path: Path | str | None = None) -> list[dict]:
    rows = []
    with open(path or DEFAULT_GOLD, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
    return rows


def is_retrieval_question(row: dict) -> bool:
    return row["category"] in RETRIEVAL_CATEGORIES and bool(row.get("answerable")) and bool(row.get("gold"))


def known_municipality(row: dict) -> str | None:
    return row.get("municipality") or row.get("expected_municipality")


def municipality_source(row: dict, names: dict[str, Sequence[str]]) -> str | None:
    """How the known municipality is known: "caller" (passed in), "named" (the question names it, by
    a name or alias, or a one-letter typo of a long name) or "content" (only the gold knows it);
    None when not known. Independent of the retriever's own detector."""
    known = known_municipality(row)
    if known is None:
        return None
    if row.get("municipality"):
        return "caller"
    low = row["question"].lower()
    words = re.findall(r"[a-z]+", low)
    for n in names.get(known, ()):
        if re.search(r"(?<![a-z])" + re.escape(n) + r"(?![a-z])", low):
            return "named"
        if " " not in n and len(n) >= 7 and any(len(w) >= 6 and _near(w, n) for w in words):
            return "named"
    return "content"


def _near(a: str, b: str) -> bool:
    import difflib

    return a != b and difflib.SequenceMatcher(None, a, b).ratio() >= 0.85


# --- judging hits -------------------------------------------------------------------------------

class Judge:
    """Whether a returned provision or langchain chunk answers a gold question."""

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self._own_sig: dict[str, str] = {}
        self._file_sig: dict[str, tuple[str, int, int, str]] = {}

    def own_signature(self, pid: str) -> str:
        """The gold provision's own text (or its first descendant's), normalised, first 200 chars."""
        if pid not in self._own_sig:
            p = self.corpus.get(pid)
            text = ""
            if p is not None:
                text = next((q.text for q in [p, *self.corpus.descendants(pid)] if q.text.strip()), "")
            self._own_sig[pid] = normalize_ws(text)[:SIGNATURE_CHARS]
        return self._own_sig[pid]

    def file_signature(self, pid: str) -> tuple[str, int, int, str]:
        """(source file, start, end, normalised verbatim text from the file, first 200 chars) of a
        provision and its descendants; a provision with no text (a "Reserved" section) is its heading line."""
        if pid not in self._file_sig:
            p = self.corpus.get(pid)
            assert p is not None, pid
            src = self.corpus.sources[p.source]
            parts = [q for q in [p, *self.corpus.descendants(pid)] if q.text.strip()]
            if parts:
                start, end = min(q.start for q in parts), max(q.end for q in parts)
            else:
                line_start = src.rfind("\n", 0, max(p.start - 1, 0)) + 1
                start, end = line_start, max(p.start, src.find("\n", line_start) if "\n" in src[line_start:] else len(src))
            self._file_sig[pid] = (p.source, start, end, normalize_ws(src[start:end])[:SIGNATURE_CHARS])
        return self._file_sig[pid]

    def provision_hit(self, hit_id: str, hit_text: str, gold: Sequence[str]) -> bool:
        if hit_id in gold:
            return True
        text = normalize_ws(hit_text)
        for g in gold:
            if self.corpus.get(g) is None:
                continue
            if any(a.id == hit_id for a in self.corpus.ancestors(g)):
                sig = self.own_signature(g)
                if sig and sig in text:
                    return True
        return False

    def chunk_hit(self, source: str, start: int, text: str, gold: Sequence[str]) -> bool:
        norm = normalize_ws(text)
        for g in gold:
            if self.corpus.get(g) is None:
                continue
            g_source, g_start, g_end, sig = self.file_signature(g)
            if source != g_source or not sig:
                continue
            if start < max(g_end, g_start + 1) and start + len(text) > g_start and sig in norm:
                return True
        return False

    def related(self, pid: str, gold: Sequence[str]) -> bool:
        """A gold id, or an ancestor or descendant of one (for 'right provision cited')."""
        if pid in gold:
            return True
        for g in gold:
            if self.corpus.get(g) is None or self.corpus.get(pid) is None:
                continue
            if any(a.id == pid for a in self.corpus.ancestors(g)) or any(a.id == g for a in self.corpus.ancestors(pid)):
                return True
        return False


# --- systems ------------------------------------------------------------------------------------

@dataclass
class Result:
    """One system's answer to one question: (id or chunk label, municipality, relevant) per result."""
    ids: list[str]
    municipalities: list[str]
    relevant: list[bool]
    ms: float
    error: str | None = None


@dataclass
class System:
    name: str
    label: str
    k: int
    run: Callable[[dict], Result]
    results: dict[str, Result] = field(default_factory=dict)


def _provision_system(name: str, retriever: Retriever, judge: Judge, mode: str) -> System:
    def run(row: dict) -> Result:
        t0 = time.perf_counter()
        hits = retriever.search(row["question"], municipality=row.get("municipality"), k=K, mode=mode)  # type: ignore[arg-type]
        ms = (time.perf_counter() - t0) * 1000
        return Result([h.id for h in hits], [h.municipality for h in hits],
                      [judge.provision_hit(h.id, h.text, row["gold"]) for h in hits], ms)
    return System(name, SYSTEMS[name], K, run)


class _SharedEmbeddings:
    """Our embedder (the same SentenceTransformer instance) as langchain `Embeddings`."""

    def __new__(cls, embedder):
        from langchain_core.embeddings import Embeddings

        class CodeassistEmbeddings(Embeddings):
            def embed_documents(self, texts: list[str]) -> list[list[float]]:
                return embedder.embed_documents(list(texts)).tolist()

            def embed_query(self, text: str) -> list[float]:
                return embedder.embed_query(text).tolist()

        return CodeassistEmbeddings()


class LangchainBaseline:
    """The typical langchain pipeline over the raw text files, in an in-memory Chroma collection."""

    def __init__(self, corpus: Corpus, embedder):
        import chromadb
        from chromadb.config import Settings as ChromaSettings
        from langchain_chroma import Chroma
        from langchain_core.documents import Document
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        splitter = RecursiveCharacterTextSplitter(chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP,
                                                  add_start_index=True)
        docs: list[Document] = []
        # One Document per raw text file, as TextLoader/DirectoryLoader would give (source = the path).
        for rel, text in sorted(corpus.sources.items()):
            docs.append(Document(page_content=text, metadata={"source": rel}))
        self.chunks = splitter.split_documents(docs)
        self.municipality_of = {rel: next(p.municipality for p in corpus.provisions() if p.source == rel)
                                for rel in corpus.sources}
        self.sources_of: dict[str, list[str]] = defaultdict(list)
        for rel, m in self.municipality_of.items():
            self.sources_of[m].append(rel)
        self.client = chromadb.EphemeralClient(settings=ChromaSettings(anonymized_telemetry=False))
        self.collection = f"eval-langchain-{uuid.uuid4().hex[:12]}"
        t0 = time.perf_counter()
        self.store = Chroma(collection_name=self.collection, embedding_function=_SharedEmbeddings(embedder),
                            client=self.client)
        self.store.add_documents(self.chunks, ids=[f"c{i:04d}" for i in range(len(self.chunks))])
        self.build_seconds = time.perf_counter() - t0

    def search(self, question: str, municipality: str | None = None, k: int = LANGCHAIN_K):
        where = None
        if municipality is not None:
            files = self.sources_of.get(municipality, [])
            where = {"source": files[0]} if len(files) == 1 else {"source": {"$in": files}}
        return self.store.similarity_search(question, k=k, filter=where)

    def close(self) -> None:
        try:
            self.client.delete_collection(self.collection)
        except Exception:  # pragma: no cover - cleanup only
            pass


def _langchain_system(name: str, baseline: LangchainBaseline, judge: Judge, filtered: bool) -> System:
    def run(row: dict) -> Result:
        muni = row.get("municipality") if filtered else None
        t0 = time.perf_counter()
        docs = baseline.search(row["question"], municipality=muni, k=LANGCHAIN_K)
        ms = (time.perf_counter() - t0) * 1000
        ids, munis, rel = [], [], []
        for d in docs:
            src, start = d.metadata["source"], int(d.metadata.get("start_index", -1))
            ids.append(f"{src}@{start}")
            munis.append(baseline.municipality_of[src])
            rel.append(judge.chunk_hit(src, start, d.page_content, row["gold"]))
        return Result(ids, munis, rel, ms)
    return System(name, SYSTEMS[name], LANGCHAIN_K, run)


# --- retrieval eval -----------------------------------------------------------------------------

def _group_summary(rows: list[dict], ranks: dict[str, int | None], key: Callable[[dict], str]) -> dict:
    groups: dict[str, list[int | None]] = defaultdict(list)
    for r in rows:
        groups[key(r)].append(ranks[r["id"]])
    return {g: summarize_ranks(v) for g, v in sorted(groups.items())}


def _cache_clearer(embedder) -> Callable[[], None]:
    """The embedder's query cache is emptied before every timed search: each gold question is new to a
    real user, and without this the second system to embed the same text would be timed on a cache hit."""
    clear = getattr(embedder, "clear_query_cache", None)
    return clear if callable(clear) else (lambda: None)


def evaluate_retrieval(rows: list[dict], systems: list[System], warmup: Sequence[dict],
                       names: dict[str, Sequence[str]] | None = None,
                       reset: Callable[[], None] = lambda: None) -> dict:
    for s in systems:  # warm: models loaded, BM25 per-municipality tables built, Chroma handles open
        for row in warmup:
            s.run(row)
    for row in rows:  # interleaved, so a noisy moment affects every system alike
        for s in systems:
            reset()
            t0 = time.perf_counter()
            try:
                s.results[row["id"]] = s.run(row)
            except Exception as e:  # a failing search is a miss to report, not the end of the eval
                s.results[row["id"]] = Result([], [], [], (time.perf_counter() - t0) * 1000,
                                              error=f"{type(e).__name__}: {str(e)[:200]}")
    out: dict[str, Any] = {}
    for s in systems:
        ranks = {rid: first_relevant_rank(res.relevant) for rid, res in s.results.items()}
        known = [r for r in rows if known_municipality(r)]
        wrong = [r["id"] for r in known if has_wrong_municipality(s.results[r["id"]].municipalities, known_municipality(r))]
        lat = [res.ms for res in s.results.values()]
        overall = summarize_ranks([ranks[r["id"]] for r in rows])
        by_source: dict[str, dict] = {}
        for src in ("caller", "named", "content"):
            qs = [r for r in known if municipality_source(r, names or {}) == src]
            bad = [r["id"] for r in qs if r["id"] in wrong]
            by_source[src] = {"n": len(qs), "wrong": len(bad), "rate": rate(len(bad), len(qs)) or 0.0, "ids": bad}
        overall.update({
            "wrong_municipality_rate": rate(len(wrong), len(known)) or 0.0,
            "wrong_municipality_n": len(wrong), "known_municipality_n": len(known),
            "wrong_municipality_by_source": by_source,
            "latency_ms": {"p50": round(percentile(lat, 50), 2), "p95": round(percentile(lat, 95), 2),
                           "mean": round(statistics.fmean(lat), 2) if lat else 0.0},
        })
        errors = {rid: res.error for rid, res in s.results.items() if res.error}
        overall["errors"] = len(errors)
        misses = [{"id": r["id"], "rank": ranks[r["id"]], "gold": r["gold"], "got": s.results[r["id"]].ids}
                  for r in rows if ranks[r["id"]] != 1]
        out[s.name] = {
            "label": s.label, "k": s.k, "overall": overall,
            "by_user_type": _group_summary(rows, ranks, lambda r: r["user_type"]),
            "by_municipality": _group_summary(rows, ranks, lambda r: r.get("expected_municipality") or "both/none"),
            "by_category": _group_summary(rows, ranks, lambda r: r["category"]),
            "wrong_municipality_ids": wrong,
            "errors": errors,
            "not_first": misses,
            "per_question": {rid: {"rank": ranks[rid], "got": res.ids, "ms": round(res.ms, 2)}
                             for rid, res in s.results.items()},
        }
    return out


# --- answer eval --------------------------------------------------------------------------------

def _draft_problems(assistant, row: dict) -> list[str]:
    """Re-run the draft that Assistant.ask replaced with its safety-net abstention (private API, eval only)."""
    try:
        from codeassist import understand as U
        from codeassist.compose import check_answer

        q = U.clean_question(row["question"], assistant.settings.max_question_chars)
        chosen = assistant.corpus.check_municipality(row["municipality"]) if row.get("municipality") else None
        draft = assistant._answer(q, chosen, None)
        return check_answer(assistant.corpus, draft) or ["draft passes the check now (nondeterminism?)"]
    except Exception as e:  # pragma: no cover - diagnostic only
        return [f"could not re-run the draft: {type(e).__name__}: {e}"]


def evaluate_answers(rows: list[dict], assistant, judge: Judge, reset: Callable[[], None] = lambda: None) -> dict:
    from codeassist.compose import check_answer, unsupported_numbers

    corpus = assistant.corpus
    per_q: list[dict] = []
    lat: list[float] = []
    for row in rows:
        reset()
        t0 = time.perf_counter()
        try:
            ans: Answer | None = assistant.ask(row["question"], municipality=row.get("municipality"))
            error = None
        except Exception as e:  # a crash is a failure to report, not a reason to stop the eval
            ans, error = None, f"{type(e).__name__}: {normalize_ws(str(e))[:240]}"
        lat.append((time.perf_counter() - t0) * 1000)
        rec: dict[str, Any] = {"id": row["id"], "category": row["category"], "answerable": row["answerable"],
                               "gold_calculator": row.get("calculator"), "error": error}
        if ans is None:
            rec.update(intent=None, abstained=None, citations=[], calculator=None, problems=[],
                       missing_facts=list(row.get("key_facts", [])), facts_in_quotes=[], fallback=False,
                       quotes_total=0, quotes_verbatim=0, unsupported=[])
            per_q.append(rec)
            continue
        cites = [c.id for c in ans.citations]
        verbatim = sum(1 for c in ans.citations if corpus.quote_in(c.id, c.quote))
        quotes_text = " ".join(c.quote for c in ans.citations)
        missing = [f for f in row.get("key_facts", []) if not fact_present(f, ans.answer)]
        fallback = FALLBACK_MARK in ans.answer
        rec.update(
            intent=ans.intent, abstained=ans.abstained, citations=cites, calculator=ans.calculator,
            problems=check_answer(corpus, ans), unsupported=sorted(unsupported_numbers(ans)),
            quotes_total=len(ans.citations), quotes_verbatim=verbatim, missing_facts=missing,
            facts_in_quotes=[f for f in missing if fact_present(f, quotes_text)], fallback=fallback,
            answer_head=normalize_ws(ans.answer)[:160],
        )
        if fallback:
            rec["draft_problems"] = _draft_problems(assistant, row)
        if row["answerable"] and row.get("gold"):
            rec["right_provision"] = any(judge.related(c, row["gold"]) for c in cites)
        per_q.append(rec)
    return summarize_answers(rows, per_q, lat)


def summarize_answers(rows: list[dict], per_q: list[dict], lat: Sequence[float]) -> dict:
    by_id = {r["id"]: r for r in rows}
    answerable = [q for q in per_q if q["answerable"] and by_id[q["id"]].get("gold")]
    unanswerable = [q for q in per_q if q["category"] in UNANSWERABLE_CATEGORIES]
    with_facts = [q for q in per_q if by_id[q["id"]].get("key_facts")]
    calc_qs = [q for q in per_q if q["category"] == "calculator"]
    facts_total = sum(len(by_id[q["id"]]["key_facts"]) for q in with_facts)
    facts_found = facts_total - sum(len(q["missing_facts"]) for q in with_facts)
    quotes_total = sum(q["quotes_total"] for q in per_q)
    quotes_ok = sum(q["quotes_verbatim"] for q in per_q)

    def facts_block(qs: list[dict]) -> dict:
        n = len(qs)
        ok = sum(1 for q in qs if not q["missing_facts"])
        return {"n": n, "all_present": ok, "rate": rate(ok, n)}

    dist: dict[str, Counter] = defaultdict(Counter)
    for q in per_q:
        dist[q["category"]][q["intent"] or "error"] += 1
    intent_acc = {}
    for cat, counts in sorted(dist.items()):
        n = sum(counts.values())
        exp = EXPECTED_INTENT.get(cat)
        ok = sum(1 for q in per_q if q["category"] == cat and _intent_ok(q, exp))
        intent_acc[cat] = {"n": n, "expected": exp, "correct": ok, "rate": rate(ok, n)}
    routed = [q for q in calc_qs if q["calculator"] == q["gold_calculator"]]
    abst_ok = [q for q in unanswerable if q["abstained"]]
    false_abst = [q for q in per_q if q["answerable"] and q["abstained"]]
    right = [q for q in answerable if q.get("right_provision")]
    n_unsupported = [q for q in per_q if q["unsupported"]]
    n_problems = [q for q in per_q if q["problems"]]
    fallbacks = [q for q in per_q if q["fallback"]]
    errors = [q for q in per_q if q["error"]]

    failures = []
    for q in per_q:
        row = by_id[q["id"]]
        why = []
        if q["error"]:
            why.append(f"crashed: {q['error']}")
        if q["answerable"] and row.get("gold") and not q.get("right_provision"):
            why.append(f"no gold provision cited (cited {q['citations'][:4] or 'nothing'}; gold {row['gold'][:3]})")
        if q["category"] in UNANSWERABLE_CATEGORIES and not q["abstained"]:
            why.append(f"did not abstain (intent {q['intent']})")
        if q["answerable"] and q["abstained"]:
            why.append("abstained on an answerable question")
        if q["missing_facts"]:
            extra = f" (in a cited quote but not the answer text: {q['facts_in_quotes']})" if q["facts_in_quotes"] else ""
            why.append(f"key facts missing: {q['missing_facts']}{extra}")
        if q["category"] == "calculator" and q["calculator"] != q["gold_calculator"]:
            why.append(f"calculator {q['calculator']!r}, expected {q['gold_calculator']!r}")
        if not _intent_ok(q, EXPECTED_INTENT.get(q["category"])):
            why.append(f"intent {q['intent']!r}, expected {EXPECTED_INTENT.get(q['category'])!r}")
        if q["problems"]:
            why.append(f"check_answer: {q['problems']}")
        if q["fallback"]:
            why.append(f"safety-net abstention replaced the draft: {q.get('draft_problems')}")
        if why:
            failures.append({"id": q["id"], "category": q["category"], "intent": q["intent"], "why": why,
                             "answer_head": q.get("answer_head", "")})

    return {
        "n": len(per_q),
        "right_provision": {"n": len(answerable), "passed": len(right), "rate": rate(len(right), len(answerable)),
                            "by_category": _by(answerable, lambda q: q["category"], lambda q: bool(q.get("right_provision")))},
        "key_facts": {"questions": facts_block(with_facts),
                      "answerable": facts_block([q for q in with_facts if q["answerable"]]),
                      "unanswerable": facts_block([q for q in with_facts if not q["answerable"]]),
                      "facts_total": facts_total, "facts_found": facts_found, "fact_rate": rate(facts_found, facts_total),
                      "by_category": _by(with_facts, lambda q: q["category"], lambda q: not q["missing_facts"])},
        "abstention": {"n": len(unanswerable), "abstained": len(abst_ok), "rate": rate(len(abst_ok), len(unanswerable)),
                       "by_category": _by(unanswerable, lambda q: q["category"], lambda q: bool(q["abstained"])),
                       "false_abstentions": len(false_abst),
                       "false_abstention_rate": rate(len(false_abst), len([q for q in per_q if q["answerable"]]))},
        "verbatim": {"quotes": quotes_total, "verbatim": quotes_ok, "rate": rate(quotes_ok, quotes_total) if quotes_total else 1.0},
        "unsupported_numbers": {"answers_with_unsupported": len(n_unsupported),
                                "ids": [q["id"] for q in n_unsupported]},
        "check_answer": {"answers_with_problems": len(n_problems), "ids": [q["id"] for q in n_problems]},
        "safety_net_fallbacks": {"n": len(fallbacks), "ids": [q["id"] for q in fallbacks],
                                 "draft_problems": {q["id"]: q.get("draft_problems") for q in fallbacks}},
        "errors": {"n": len(errors), "ids": [q["id"] for q in errors]},
        "intent": {"distribution": {c: dict(v) for c, v in sorted(dist.items())}, "accuracy_by_category": intent_acc,
                   "overall": rate(sum(v["correct"] for v in intent_acc.values()), len(per_q))},
        "calculator_routing": {"n": len(calc_qs), "routed": len(routed), "rate": rate(len(routed), len(calc_qs)),
                               "misrouted": [{"id": q["id"], "expected": q["gold_calculator"], "got": q["calculator"],
                                              "intent": q["intent"]} for q in calc_qs if q not in routed]},
        "latency_ms": {"p50": round(percentile(lat, 50), 2), "p95": round(percentile(lat, 95), 2)},
        "failures": failures,
        "per_question": per_q,
    }


def _intent_ok(q: dict, expected: str | None) -> bool:
    if expected is None:
        return True
    if expected == "abstain":
        return q["intent"] == "abstain" or bool(q["abstained"])
    return q["intent"] == expected


def _by(qs: list[dict], key: Callable[[dict], str], ok: Callable[[dict], bool]) -> dict:
    groups: dict[str, list[bool]] = defaultdict(list)
    for q in qs:
        groups[key(q)].append(ok(q))
    return {g: {"n": len(v), "passed": sum(v), "rate": rate(sum(v), len(v))} for g, v in sorted(groups.items())}


# --- targets ------------------------------------------------------------------------------------

def targets(retrieval: dict, answers: dict | None) -> list[dict]:
    """The issues' targets with met / not met. Quality comparisons use the overall numbers; latency is
    reported beside them but is not a quality metric (BM25 alone embeds nothing and is always faster)."""
    out = []
    if retrieval:
        h = retrieval["hybrid"]["overall"]
        out.append({"issue": 3, "target": "Recall@5 >= 0.95", "value": h["recall@5"], "met": h["recall@5"] >= 0.95})
        out.append({"issue": 3, "target": "Recall@1 >= 0.80", "value": h["recall@1"], "met": h["recall@1"] >= 0.80})
        out.append({"issue": 3, "target": "wrong-municipality hits in the top 5 = 0 when the municipality is known "
                    "(caller's or expected)", "value": f"{h['wrong_municipality_rate']:.3f} ({h['wrong_municipality_n']}/"
                    f"{h['known_municipality_n']})", "met": h["wrong_municipality_n"] == 0})
        bs = h.get("wrong_municipality_by_source", {})
        if bs:
            n = sum(bs[x]["n"] for x in ("caller", "named") if x in bs)
            w = sum(bs[x]["wrong"] for x in ("caller", "named") if x in bs)
            out.append({"issue": 3, "target": "(supplementary) the same, counting only a municipality passed by the "
                        "caller or named in the question", "value": f"{w}/{n}", "met": w == 0})
        for b in REQUIRED_BASELINES + ("langchain_filtered",):
            if b not in retrieval:
                continue
            o = retrieval[b]["overall"]
            worse = [m for m in ("recall@1", "recall@5", "mrr") if h[m] < o[m] - 1e-12]
            if h["wrong_municipality_rate"] > o["wrong_municipality_rate"] + 1e-12:
                worse.append("wrong-municipality rate")
            value = ("below on: " + ", ".join(worse)) if worse else "at or above on all"
            if h["latency_ms"]["p95"] > o["latency_ms"]["p95"]:
                value += f"; slower p95 ({h['latency_ms']['p95']:.0f} vs {o['latency_ms']['p95']:.0f} ms, not scored)"
            out.append({"issue": 3, "target": ("(supplementary) " if b == "langchain_filtered" else "")
                        + f"R@1, R@5, MRR at or above, wrong-municipality at or below, {b}",
                        "value": value, "met": not worse})
    if answers:
        out.append({"issue": 5, "target": "100% of quotes verbatim", "value": answers["verbatim"]["rate"],
                    "met": answers["verbatim"]["rate"] == 1.0})
        out.append({"issue": 5, "target": "0 unsupported numbers",
                    "value": answers["unsupported_numbers"]["answers_with_unsupported"],
                    "met": answers["unsupported_numbers"]["answers_with_unsupported"] == 0})
        sn = answers["safety_net_fallbacks"]
        out.append({"issue": 5, "target": "(supplementary) no draft answer needed the safety net (quotes and numbers "
                    "sound before Assistant.ask's final check)", "value": f"{sn['n']} ({', '.join(sn['ids']) or '-'})",
                    "met": sn["n"] == 0})
        by = answers["abstention"]["by_category"]
        oc = by.get("out_of_corpus")
        if oc:
            out.append({"issue": 5, "target": "abstention on every out-of-corpus question",
                        "value": f"{oc['rate']:.3f} ({oc['passed']}/{oc['n']})", "met": oc["passed"] == oc["n"]})
        os_ = by.get("out_of_scope")
        if os_:
            out.append({"issue": 5, "target": "(supplementary) abstention on every out-of-scope question",
                        "value": f"{os_['rate']:.3f} ({os_['passed']}/{os_['n']})", "met": os_["passed"] == os_["n"]})
        rp = answers["right_provision"]
        out.append({"issue": 5, "target": "right provision cited for >= 95% of answerable",
                    "value": f"{_f(rp['rate'])} ({rp['passed']}/{rp['n']})",
                    "met": rp["rate"] is not None and rp["rate"] >= 0.95})
    return out


# --- the run ------------------------------------------------------------------------------------

def run_eval(gold_path: Path | str | None = None, out_dir: Path | str | None = DEFAULT_OUT, *,
             ids: Sequence[str] | None = None, limit: int | None = None, answers: bool = True,
             write: bool = True, log: Callable[[str], None] | None = None) -> dict:
    """Run the whole eval (retrieval against baselines, then answers) and return the metrics dict;
    writes REPORT.md and results.json into out_dir when `write`."""
    say = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    t_start = time.perf_counter()
    load_before = _loadavg()
    # Warnings from the package during the run (e.g. "vector search unavailable, answering from BM25
    # alone", an index rebuilt underneath us) mean degraded numbers: they go into the report.
    captured = _LogCapture()
    pkg_log = logging.getLogger("codeassist")
    pkg_log.addHandler(captured)
    try:
        results = _run(rows_from=(gold_path, ids, limit), out_dir=out_dir, answers=answers, say=say,
                       t_start=t_start, load_before=load_before, captured=captured)
    finally:
        pkg_log.removeHandler(captured)
    if write and out_dir is not None:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        (out / "REPORT.md").write_text(render_report(results), encoding="utf-8")
    return results


class _LogCapture(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(f"{record.levelname} {record.name}: {record.getMessage()[:300]}")
        except Exception:  # pragma: no cover
            pass


def _run(*, rows_from, out_dir, answers: bool, say, t_start: float, load_before, captured: _LogCapture) -> dict:
    gold_path, ids, limit = rows_from
    rows = load_gold(gold_path)
    if ids is not None:
        wanted = set(ids)
        rows = [r for r in rows if r["id"] in wanted]
    if limit is not None:
        rows = rows[:limit]

    from codeassist.corpus import load_corpus
    from codeassist.retrieval import Retriever

    corpus = load_corpus()
    judge = Judge(corpus)
    retriever = Retriever(corpus)
    t0 = time.perf_counter()
    status = retriever.index.ensure()
    retriever.warm()
    setup = {"index": status.model_dump(), "index_and_model_seconds": round(time.perf_counter() - t0, 2)}
    say(f"eval: index {status.action} ({status.chunks} chunks), model loaded in {setup['index_and_model_seconds']} s")

    t0 = time.perf_counter()
    baseline = LangchainBaseline(corpus, retriever.embedder)
    setup["langchain"] = {"chunks": len(baseline.chunks), "chunk_size": CHUNK_SIZE, "chunk_overlap": CHUNK_OVERLAP,
                          "k": LANGCHAIN_K, "build_seconds": round(time.perf_counter() - t0, 2)}
    say(f"eval: langchain baseline: {len(baseline.chunks)} chunks indexed in {setup['langchain']['build_seconds']} s")

    rrows = [r for r in rows if is_retrieval_question(r)]
    systems = [_provision_system("hybrid", retriever, judge, "hybrid"),
               _langchain_system("langchain", baseline, judge, filtered=False),
               _provision_system("bm25", retriever, judge, "bm25"),
               _provision_system("dense", retriever, judge, "dense"),
               _langchain_system("langchain_filtered", baseline, judge, filtered=True)]
    warmup = [{"question": q, "municipality": m, "gold": []} for q, m in
              (("stormwater pollution prevention plan", None), ("electrical permit", "tuckahoe"),
               ("erosion inspection after rain", "hempstead"))]
    t0 = time.perf_counter()
    names = {m.id: sorted({m.id, m.name.lower(), m.short_name.lower(), *m.aliases})
             for m in corpus.municipalities.values()}
    reset = _cache_clearer(retriever.embedder)
    try:
        retrieval = evaluate_retrieval(rrows, systems, warmup, names, reset) if rrows else {}
    finally:
        baseline.close()
    retrieval_seconds = round(time.perf_counter() - t0, 2)
    say(f"eval: retrieval: {len(rrows)} questions x {len(systems)} systems in {retrieval_seconds} s")

    answer_block = None
    answer_seconds = 0.0
    if answers:
        from codeassist.api import Assistant

        assistant = Assistant(corpus=corpus, retriever=retriever)
        t0 = time.perf_counter()
        answer_block = evaluate_answers(rows, assistant, judge, reset)
        answer_seconds = round(time.perf_counter() - t0, 2)
        say(f"eval: answers: {len(rows)} questions in {answer_seconds} s")

    results = {
        "meta": {
            "run_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "gold": str(Path(gold_path or DEFAULT_GOLD)), "questions": len(rows), "retrieval_questions": len(rrows),
            "model": retriever.embedder.model_id, "k": K, "setup": setup,
            "seconds": {"retrieval": retrieval_seconds, "answers": answer_seconds,
                        "total": round(time.perf_counter() - t_start, 2)},
            "systems": {name: SYSTEMS[name] for name in retrieval} if retrieval else {},
            "load_average": {"before": load_before, "after": _loadavg(), "cpus": os.cpu_count()},
        },
        "retrieval": retrieval,
        "answers": answer_block,
        "targets": targets(retrieval, answer_block),
    }
    results["meta"]["warnings"] = list(captured.messages)
    return results


def _loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):  # pragma: no cover - not on every platform
        return None


# --- rendering ----------------------------------------------------------------------------------

def _f(x: Any, digits: int = 3) -> str:
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(_f(c) for c in r) + " |" for r in rows]
    return lines


def compact_table(results: dict) -> str:
    """The short table printed to stdout."""
    lines = []
    ret = results["retrieval"]
    if ret:
        lines.append(f"{'system':<20} {'R@1':>6} {'R@5':>6} {'MRR':>6} {'wrongM':>7} {'p50ms':>7} {'p95ms':>7}")
        for name, s in ret.items():
            o = s["overall"]
            lines.append(f"{name:<20} {o['recall@1']:>6.3f} {o['recall@5']:>6.3f} {o['mrr']:>6.3f} "
                         f"{o['wrong_municipality_rate']:>7.3f} {o['latency_ms']['p50']:>7.1f} {o['latency_ms']['p95']:>7.1f}")
        lines.append(f"({results['meta']['retrieval_questions']} retrieval questions; langchain k=4 so its R@5 is R@4)")
    a = results.get("answers")
    if a:
        lines.append("")
        lines.append(f"answers ({a['n']} questions): right provision {_f(a['right_provision']['rate'])} "
                     f"({a['right_provision']['passed']}/{a['right_provision']['n']}), key facts "
                     f"{_f(a['key_facts']['questions']['rate'])}, abstention {_f(a['abstention']['rate'])} "
                     f"({a['abstention']['abstained']}/{a['abstention']['n']}), verbatim {_f(a['verbatim']['rate'])}, "
                     f"unsupported-number answers {a['unsupported_numbers']['answers_with_unsupported']}, "
                     f"safety-net fallbacks {a['safety_net_fallbacks']['n']}, calculator routing "
                     f"{_f(a['calculator_routing']['rate'])}, intent {_f(a['intent']['overall'])}")
    lines.append("")
    for t in results["targets"]:
        lines.append(f"[{'MET' if t['met'] else 'NOT MET'}] issue {t['issue']}: {t['target']} -> {_f(t['value'])}")
    if results["meta"].get("warnings"):
        lines.append(f"WARNING: {len(results['meta']['warnings'])} warnings during the run (listed in REPORT.md)")
    lines.append(f"total {results['meta']['seconds']['total']} s")
    return "\n".join(lines)


def render_report(results: dict) -> str:
    m = results["meta"]
    ret = results["retrieval"]
    a = results["answers"]
    L: list[str] = ["# Eval report", "",
                    f"Generated by `codeassist eval` on {m['run_at']} ({m['seconds']['total']} s in one process). "
                    f"Gold: `{Path(m['gold']).name}`, {m['questions']} questions, of which {m['retrieval_questions']} "
                    "are answerable retrieval/definition/lookup/calculator/compare questions with gold ids "
                    "(the retrieval set). Do not edit by hand; rerun `codeassist eval`.", "",
                    f"Model: {m['model']}. Our index: {m['setup']['index']['chunks']} chunks "
                    f"({m['setup']['index']['collection']}).", ""]
    warnings = Counter(m.get("warnings", []))
    errs = {n: len(s["errors"]) for n, s in ret.items() if s.get("errors")} if ret else {}
    if warnings or errs:
        L += ["## Warnings: numbers below may be degraded", ""]
        L += [f"- {w}" + (f" (x{c})" if c > 1 else "") for w, c in warnings.most_common()]
        L += [f"- {n}: {c} searches raised an error (counted as misses)" for n, c in errs.items()]
        L += [""]
    L += ["## Targets", ""]
    L += _table(["issue", "target", "value", "met"],
                [[t["issue"], t["target"], t["value"], "**met**" if t["met"] else "**NOT met**"] for t in results["targets"]])
    if ret:
        L += ["", "## Retrieval: systems x metrics", ""]
        L += _table(["system", "R@1", "R@5", "MRR", "wrong-municipality", "p50 ms", "p95 ms"],
                    [[f"{n} — {s['label']}", s["overall"]["recall@1"], s["overall"]["recall@5"], s["overall"]["mrr"],
                      f"{s['overall']['wrong_municipality_rate']:.3f} ({s['overall']['wrong_municipality_n']}/"
                      f"{s['overall']['known_municipality_n']})", f"{s['overall']['latency_ms']['p50']:.1f}",
                      f"{s['overall']['latency_ms']['p95']:.1f}"] for n, s in ret.items()])
        L += ["",
              "- Hits: for provision systems, the hit is a gold id or an ancestor returned whole whose text "
              "contains the gold provision's text; for the langchain chunks, the chunk (from the provision's "
              "source file, overlapping its span) contains the provision's verbatim file text, "
              "whitespace-normalised, first 200 characters for longer provisions.",
              f"- The langchain baseline returns k={LANGCHAIN_K}: its R@5 column is Recall@{LANGCHAIN_K}. "
              f"It indexes {m['setup']['langchain']['chunks']} chunks of the two raw files. Its primary row has no "
              "metadata filter (a tutorial pipeline has only `source` metadata and filters nothing); "
              "`langchain_filtered` adds a source-file filter when the caller picked a municipality.",
              "- Wrong-municipality: share of questions with a known municipality (the caller's, else the "
              "expected one) whose returned results include another municipality's text. Questions that name "
              "no municipality and are answered by both texts are not counted.",
              "- Latency: warm, per query, in this process (query embedding included; the embedder's query cache "
              "is emptied before each timed search so no system is timed on another's cached vector), systems "
              "interleaved. "
              f"Load average (1/5/15 min) before the run {m.get('load_average', {}).get('before')}, after "
              f"{m.get('load_average', {}).get('after')}, on {m.get('load_average', {}).get('cpus')} CPUs: "
              "with other work on the machine the embedding-bound systems' latencies are inflated and noisy."]
        L += ["", "### Wrong-municipality hits by how the municipality is known", "",
              "caller = passed by the caller; named = the question names it (name, alias or a one-letter typo); "
              "content = only the gold knows it (e.g. a SWPPP-contents question, which only Hempstead's text answers).", ""]
        L += _table(["system"] + [f"{src} wrong/n" for src in ("caller", "named", "content")],
                    [[n] + [f"{s['overall']['wrong_municipality_by_source'][src]['wrong']}/"
                            f"{s['overall']['wrong_municipality_by_source'][src]['n']}"
                            for src in ("caller", "named", "content")] for n, s in ret.items()])
        below = _group_shortfalls(ret)
        if below:
            L += ["", "Group cells (per user type / municipality / category) where hybrid is below a required baseline: "
                  + "; ".join(below) + "."]
        for title, key in (("per user type", "by_user_type"), ("per municipality (expected_municipality)", "by_municipality"),
                           ("per gold category", "by_category")):
            L += ["", f"### Retrieval {title}", ""]
            groups = sorted({g for s in ret.values() for g in s[key]})
            header = ["group", "n"] + [f"{n} R@1 / R@5 / MRR" for n in ret]
            rows = []
            for g in groups:
                first = next(s[key][g] for s in ret.values() if g in s[key])
                rows.append([g, first["n"]] + [
                    f"{s[key][g]['recall@1']:.3f} / {s[key][g]['recall@5']:.3f} / {s[key][g]['mrr']:.3f}"
                    if g in s[key] else "n/a" for s in ret.values()])
            L += _table(header, rows)
    if a:
        L += ["", "## Answers (Assistant.ask, real retriever, every gold line)", ""]
        kf = a["key_facts"]
        L += _table(["check", "value", "detail"], [
            ["right provision cited (answerable with gold ids)", a["right_provision"]["rate"],
             f"{a['right_provision']['passed']}/{a['right_provision']['n']} (a gold id, or an ancestor/descendant of one)"],
            ["key facts, all present in the answer text", kf["questions"]["rate"],
             f"{kf['questions']['all_present']}/{kf['questions']['n']} questions; {kf['facts_found']}/{kf['facts_total']} facts"],
            ["  of which answerable", kf["answerable"]["rate"], f"{kf['answerable']['all_present']}/{kf['answerable']['n']}"],
            ["  of which out-of-corpus (pointer facts)", kf["unanswerable"]["rate"], f"{kf['unanswerable']['all_present']}/{kf['unanswerable']['n']}"],
            ["abstention on out_of_corpus / out_of_scope", a["abstention"]["rate"],
             f"{a['abstention']['abstained']}/{a['abstention']['n']}; " + ", ".join(
                 f"{c} {v['passed']}/{v['n']}" for c, v in a["abstention"]["by_category"].items())],
            ["abstained on an answerable question", a["abstention"]["false_abstention_rate"], str(a["abstention"]["false_abstentions"])],
            ["quotes verbatim", a["verbatim"]["rate"], f"{a['verbatim']['verbatim']}/{a['verbatim']['quotes']} quotes"],
            ["answers with unsupported numbers", a["unsupported_numbers"]["answers_with_unsupported"],
             ", ".join(a["unsupported_numbers"]["ids"]) or "-"],
            ["safety-net replacements (draft failed check_answer; shown as abstention)", a["safety_net_fallbacks"]["n"],
             ", ".join(a["safety_net_fallbacks"]["ids"]) or "-"],
            ["calculator questions routed to the expected calculator", a["calculator_routing"]["rate"],
             f"{a['calculator_routing']['routed']}/{a['calculator_routing']['n']}"],
            ["intent as expected for the gold category", a["intent"]["overall"], ""],
            ["crashes", a["errors"]["n"], ", ".join(a["errors"]["ids"]) or "-"],
            ["answer latency p50 / p95 ms", f"{a['latency_ms']['p50']} / {a['latency_ms']['p95']}", ""],
        ])
        L += ["", "Verbatim and unsupported-number checks are enforced inside `Assistant.ask`, which replaces a "
              "failing draft with an abstention; the safety-net row counts those replacements, so a composer bug "
              "shows up there (and as a false abstention) rather than as a non-verbatim quote.", ""]
        L += ["### Right provision and key facts by category", ""]
        cats = sorted(set(a["right_provision"]["by_category"]) | set(kf["by_category"]))
        L += _table(["category", "right provision", "key facts"],
                    [[c, _ratio(a["right_provision"]["by_category"].get(c)), _ratio(kf["by_category"].get(c))] for c in cats])
        L += ["", "### Intent by gold category", ""]
        intents = sorted({i for d in a["intent"]["distribution"].values() for i in d})
        L += _table(["category", "expected", "accuracy"] + intents,
                    [[c, v["expected"], f"{v['correct']}/{v['n']}"] + [a["intent"]["distribution"][c].get(i, 0) for i in intents]
                     for c, v in a["intent"]["accuracy_by_category"].items()])
        if a["calculator_routing"]["misrouted"]:
            L += ["", "Calculator questions not routed to the expected calculator: " + "; ".join(
                f"{x['id']} (expected {x['expected']}, got {x['got']}, intent {x['intent']})" for x in a["calculator_routing"]["misrouted"])]
    L += ["", "## Failing questions", ""]
    if ret:
        h = ret["hybrid"]
        miss5 = [x for x in h["not_first"] if x["rank"] is None]
        miss1 = [x for x in h["not_first"] if x["rank"] is not None]
        L += [f"### Retrieval (hybrid): not in the top 5 ({len(miss5)})", ""]
        L += [f"- {x['id']}: gold {x['gold'][:3]}; got {x['got']}" for x in miss5] or ["- none"]
        L += ["", f"### Retrieval (hybrid): found but not first ({len(miss1)})", ""]
        L += [f"- {x['id']}: rank {x['rank']}; gold {x['gold'][:3]}; got first {x['got'][:1]}" for x in miss1] or ["- none"]
        L += ["", f"### Retrieval (hybrid): another municipality in the top 5 ({len(h['wrong_municipality_ids'])})", ""]
        L += [f"- {i}" for i in h["wrong_municipality_ids"]] or ["- none"]
    if a:
        L += ["", f"### Answers ({len(a['failures'])} questions with at least one failed check)", ""]
        for f in a["failures"]:
            L.append(f"- **{f['id']}** ({f['category']}, intent {f['intent']}): " + "; ".join(f["why"]))
    return "\n".join(L) + "\n"


def _group_shortfalls(ret: dict) -> list[str]:
    out = []
    h = ret.get("hybrid")
    if not h:
        return out
    for b in REQUIRED_BASELINES:
        if b not in ret:
            continue
        for key in ("by_user_type", "by_municipality", "by_category"):
            for g, hv in h[key].items():
                bv = ret[b][key].get(g)
                if bv is None:
                    continue
                worse = [mname for mname in ("recall@1", "recall@5", "mrr") if hv[mname] < bv[mname] - 1e-12]
                if worse:
                    out.append(f"{g} vs {b} ({', '.join(worse)})")
    return out


def _ratio(v: dict | None) -> str:
    return "n/a" if not v else f"{v['passed']}/{v['n']} ({v['rate']:.2f})"


# --- CLI ----------------------------------------------------------------------------------------

def cmd_eval(args) -> int:
    """Run retrieval (ours vs. langchain, BM25-only and dense-only baselines) and end-to-end answer checks
    on eval/gold.jsonl in one process; print a compact table; write REPORT.md and results.json to --out
    (a folder; default eval/)."""
    out = getattr(args, "out", None)
    out_dir = Path(out) if out else DEFAULT_OUT
    if out_dir.suffix == ".md":  # --out eval/REPORT.md: write beside it
        out_dir = out_dir.parent
    results = run_eval(out_dir=out_dir)
    print(compact_table(results))
    print(f"wrote {out_dir / 'REPORT.md'} and {out_dir / 'results.json'}")
    return 0
