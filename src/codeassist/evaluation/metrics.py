"""Pure metric functions: ranks, hit@k, MRR, percentiles, and the fact matchers (key facts anywhere in
the answer, a lead fact in its first sentence). No I/O, no corpus."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

K = 5


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


_MARKUP = re.compile(r"\*\*|__|`|^\s*(?:#+|>|[-*+])\s+")


def lead_text(answer: str, lead: str | None = None) -> str:
    """What the user reads first: the Answer's own ``lead`` when it has one, else the first non-empty
    line of the answer text, without Markdown marks."""
    if lead and lead.strip():
        return normalize_ws(_MARKUP.sub("", lead))
    for line in answer.splitlines():
        line = _MARKUP.sub("", line).strip()
        if line:
            return normalize_ws(line)
    return ""


_YES_NO = ("yes", "no")


def lead_fact_present(lead_facts: Sequence[str], lead: str) -> bool:
    """Is any of the alternatives in the lead? As `fact_present` (case-insensitive, numerals and number
    words alike), except that "yes" and "no" count only as whole words: "no" is not in "not", "none"
    or "notice", "yes" not in "yesterday"."""
    t = normalize_fact_text(lead)
    for fact in lead_facts:
        f = normalize_fact_text(fact)
        if f in _YES_NO:
            if re.search(rf"(?<![a-z0-9']){f}(?![a-z0-9'])", t):
                return True
        elif fact_present(fact, lead):
            return True
    return False


def summarize_ranks(ranks: Sequence[int | None]) -> dict[str, float | int]:
    return {"n": len(ranks), "recall@1": recall_at(ranks, 1), "recall@5": recall_at(ranks, K),
            "mrr": mean_reciprocal_rank(ranks)}


def rate(passed: int, n: int) -> float | None:
    return passed / n if n else None
