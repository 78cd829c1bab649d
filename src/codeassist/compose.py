"""Composing grounded answers (pure): choosing the sentence that answers, quoting it verbatim, and the
checks every answer must pass (quotes verbatim in their provision; no number the sources don't hold)."""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import TYPE_CHECKING

from .models import Citation
from .text import clauses as sentences
from .text import content_stems as _content_stems

if TYPE_CHECKING:
    from .corpus import Corpus
    from .models import Provision

HEADING_WORDS = 7  # a "sentence" this short at a provision's start is its run-in heading, not a rule
_QUANTITY_Q = re.compile(r"\b(how (?:long|many|much|soon|fast|often|big|large)|when|deadline|within|days?|hours?|"
                         r"weeks?|acres?|fine|fee|cost|amount|minimum|maximum|max|min|scale|size)\b", re.I)


class Scorer:
    """IDF-weighted overlap between a question and a passage, with IDF from the whole corpus."""

    def __init__(self, corpus: "Corpus"):
        # The municipalities' own names say where, not what: they are no evidence of a subject.
        self.place_words = frozenset(w for m in corpus.municipalities.values()
                                     for name in (m.id, m.name, m.short_name, *m.aliases) for w in name.lower().split())
        docs = [set(self.stems(p.text + " " + p.heading)) for p in corpus.provisions()]
        df = Counter(s for d in docs for s in d)
        n = len(docs)
        self.idf = {s: math.log(1 + n / (1 + c)) for s, c in df.items()}
        self.vocab = set(df)
        self.default_idf = math.log(1 + n)

    def stems(self, text: str) -> list[str]:
        return _content_stems(text, self.place_words)

    def coverage(self, question: str, text: str) -> float:
        """Share of the question's content (IDF-weighted) found in the text."""
        q = set(self.stems(question))
        if not q:
            return 0.0
        t = set(self.stems(text))
        total = sum(self.idf.get(s, self.default_idf) for s in q)
        return sum(self.idf.get(s, self.default_idf) for s in q & t) / total

    def best_sentence(self, question: str, text: str) -> tuple[str, float]:
        wants_number = bool(_QUANTITY_Q.search(question))
        best, best_score = text.strip(), -1.0
        for s in sentences(text):
            score = self.coverage(question, s)
            if wants_number and re.search(r"\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|thirty)\b", s):
                score += 0.15
            if len(s) < 25:
                score -= 0.1
            if score > best_score:
                best, best_score = s, score
        return best, best_score

    def passage(self, question: str, text: str, limit: int = 420) -> tuple[str, float]:
        """The words to quote: the whole text when short, else the best sentence, joined by the next
        one when both fit (a verbatim span either way)."""
        text = text.strip()
        best, score = self.best_sentence(question, text)
        if len(text) <= limit:
            return text, score
        parts = sentences(text)
        if best in parts:
            i = parts.index(best)
            if i + 1 < len(parts) and len(best) + len(parts[i + 1]) + 1 <= limit:
                start = text.find(best)
                end = text.find(parts[i + 1], start + len(best)) + len(parts[i + 1])
                if start >= 0 and end > start:
                    return text[start:end], score
            if i + 1 < len(parts) and len(best.split()) < HEADING_WORDS:
                return parts[i + 1], score  # "Withholding of certificate of occupancy.": a heading says no rule
        return best, score


def cite(corpus: "Corpus", p: "Provision", quote: str) -> Citation:
    """A Citation whose quote is validated against the provision's text."""
    return Citation.model_validate(
        {"id": p.id, "municipality": p.municipality, "citation": p.citation, "heading": p.heading,
         "quote": quote.strip()},
        context={"corpus": corpus},
    )


def short_quote(text: str, limit: int = 400) -> str:
    """The whole text when short; else its first sentences up to `limit` characters (verbatim prefix)."""
    text = text.strip()
    if len(text) <= limit:
        return text
    out = ""
    for s in sentences(text):
        if out and len(out) + len(s) + 1 > limit:
            break
        out = f"{out} {s}".strip() if out else s
    if len(out) < limit // 2 or len(out) > limit:
        # A caption followed by one long sentence: a verbatim prefix cut at a word boundary.
        cut = text[:limit].rsplit(" ", 1)[0]
        if text.startswith(cut):
            return cut
    return out if text.startswith(out.split(" ")[0]) else text[:limit]


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#+!|~$])")


def md_escape(text: str) -> str:
    """Escape Markdown (and HTML angle brackets) so user or corpus text renders as plain text."""
    return _MD_SPECIAL.sub(r"\\\1", text)
