"""Text handling, in one place (pure): tokenizing and the Porter stemmer (BM25, the composer's coverage
score and the abstention gate all use the same words), sentence splitting, and cleaning a question.

No stemmer package ships in the stack, and "violation"/"violated"/"violations" must meet, so this is
M. F. Porter's 1980 algorithm ("An algorithm for suffix stripping", Program 14(3)), as published,
with the two later fixes from his reference implementation (-bli -> -ble, -logi -> -log).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

_WORD = re.compile(r"[a-z0-9]+")

STOPWORDS = frozenset(
    "a an and any are as at be been being but by can could do does did for from had has have how i if in "
    "into is it its me my of on or our shall should so such than that the their them then there these they "
    "this those to under upon was we were what when where which who whom will with within would you your "
    "s t".split())


def tokenize(text: str) -> list[str]:
    """BM25 terms: lower-case words and numbers, stop words dropped, Porter-stemmed."""
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


# Everyday phrases whose content word is none of the law's: "in order to", "in what order" ask for no stop-work
# order; dropped from what BM25 searches.
_IDIOMS = re.compile(r"\bin (?:order to|(?:what|which|the right|the wrong|the same|that|this|any) order)\b|"
                     r"\border (?=of (?:the )?(?:steps|events|things|operations|inspections)\b)|"
                     # "what kinds of security can they demand?": the question's frame, not "other kinds of posts"
                     r"\b(?:what|which|any|all|other|different|some) (?:kinds?|types?|sorts?|forms?) of\b", re.I)


# "Besides the renewal fee, what else ...?": what the question sets aside opens it, before a comma; its words
# are not what is asked.
_SET_ASIDE = re.compile(r"(?:^|(?<=[.!?;:])\s)\s*(?:besides|apart from|aside from|other than|beyond|in addition to)\b[^,.?!;]{1,60},", re.I)


def without_idioms(text: str) -> str:
    return _IDIOMS.sub(" ", _SET_ASIDE.sub(" ", text))


def stems(text: str) -> list[str]:
    """Every lower-case word and number, Porter-stemmed, stop words kept (to match phrases word for word)."""
    return [stem(w) for w in _WORD.findall(text.lower())]


# --- Porter (1980) ---------------------------------------------------------------------------------

def _cons(w: str, i: int) -> bool:
    ch = w[i]
    if ch in "aeiou":
        return False
    if ch == "y":
        return i == 0 or not _cons(w, i - 1)
    return True


def _measure(stem_: str) -> int:
    """m in [C](VC)^m[V]."""
    m, i, n = 0, 0, len(stem_)
    while i < n and _cons(stem_, i):
        i += 1
    while i < n:
        while i < n and not _cons(stem_, i):
            i += 1
        if i >= n:
            break
        while i < n and _cons(stem_, i):
            i += 1
        m += 1
    return m


def _has_vowel(stem_: str) -> bool:
    return any(not _cons(stem_, i) for i in range(len(stem_)))


def _double_cons(w: str) -> bool:
    return len(w) >= 2 and w[-1] == w[-2] and _cons(w, len(w) - 1)


def _cvc(w: str) -> bool:
    return (len(w) >= 3 and _cons(w, len(w) - 3) and not _cons(w, len(w) - 2) and _cons(w, len(w) - 1)
            and w[-1] not in "wxy")


def _replace(w: str, rules: tuple[tuple[str, str], ...], min_m: int) -> str:
    for suffix, repl in rules:
        if w.endswith(suffix):
            base = w[: len(w) - len(suffix)]
            return base + repl if _measure(base) > min_m else w
    return w


_STEP2 = (("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
          ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
          ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
          ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
          ("logi", "log"))
_STEP3 = (("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
          ("ness", ""))
_STEP4 = ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
          "ism", "ate", "iti", "ous", "ive", "ize")


@lru_cache(maxsize=50_000)
def stem(word: str) -> str:
    w = word
    if len(w) <= 2 or not w.isalpha():
        return w
    # 1a
    if w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("ies"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    # 1b
    extra = False
    if w.endswith("eed"):
        if _measure(w[:-3]) > 0:
            w = w[:-1]
    elif w.endswith("ed") and _has_vowel(w[:-2]):
        w, extra = w[:-2], True
    elif w.endswith("ing") and _has_vowel(w[:-3]):
        w, extra = w[:-3], True
    if extra:
        if w.endswith(("at", "bl", "iz")):
            w += "e"
        elif _double_cons(w) and w[-1] not in "lsz":
            w = w[:-1]
        elif _measure(w) == 1 and _cvc(w):
            w += "e"
    # 1c
    if w.endswith("y") and _has_vowel(w[:-1]):
        w = w[:-1] + "i"
    w = _replace(w, _STEP2, 0)
    w = _replace(w, _STEP3, 0)
    # 4
    for suffix in sorted(_STEP4, key=len, reverse=True):
        if w.endswith(suffix):
            base = w[: len(w) - len(suffix)]
            if _measure(base) > 1 and (suffix != "ion" or base.endswith(("s", "t"))):
                w = base
            break
    # 5a
    if w.endswith("e"):
        base = w[:-1]
        m = _measure(base)
        if m > 1 or (m == 1 and not _cvc(base)):
            w = base
    # 5b
    if _measure(w) > 1 and _double_cons(w) and w.endswith("l"):
        w = w[:-1]
    return w


# --- content words (the composer's coverage score and the abstention gate) ---------------------------

# Words that carry no subject in a question: BM25's stop words, question words, chat filler and the names of
# the laws themselves. The corpus's municipality names are added by whoever scores (they are data).
CONTENT_STOPWORDS = STOPWORDS | frozenset("""yes no not all some anything something someone somebody per about
over than also only just very too need needs needed get got make made like want tell know say says said please
thanks hi hello much many long often thing things stuff put go going way still after before ok okay guy guys folks
lot lots really actually exactly new york ny code law ordinance rule rules section chapter article fast quick
quickly big small large done happen happens happened ignore ignored here might must may doing did having""".split())


def content_stems(text: str, extra_stopwords: frozenset[str] = frozenset()) -> list[str]:
    """Stems of the words that carry a question's subject (same stemmer as BM25)."""
    return [stem(w) for w in _WORD.findall(text.lower())
            if w not in CONTENT_STOPWORDS and w not in extra_stopwords and len(w) > 1]


# --- sentences -------------------------------------------------------------------------------------

_ABBREVIATIONS = {"no", "nos", "ord", "art", "sec", "subd", "ch", "vol", "inc", "co", "corp", "st",
                  "etc", "ft", "sq", "approx", "e.g", "i.e", "u.s", "n.y", "p.e", "mr", "ms", "dr"}
_SENTENCE_END = re.compile(r"[.!?][\"”)]?(?=\s+[\"“(]?[A-Z])")
_CLAUSE_SPLIT = re.compile(r"(?<=[.;:])\s+(?=[\"(A-Z])")


def last_sentence(question: str) -> str:
    """The question's last sentence, whatever its case ("... The SWPPP only names the bay. OK?" -> "OK?"; "... just
    says 'as needed.' Is that enough?" -> "Is that enough?")."""
    return re.split(r"(?<=[.!?])\s+|(?<=[.!?]['\"\u2019\u201d])\s+", question.strip())[-1]


def sentences(text: str) -> list[str]:
    """Sentences, each a verbatim substring; no split on abbreviations ("No.", "L.L.") or one-letter labels."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        before = text[start:m.start()].split()
        last = before[-1].rstrip(".!?\"”)").lower() if before else ""
        if last in _ABBREVIATIONS or re.fullmatch(r"(?:[a-z]\.)*[a-z]", last):
            continue
        out.append(text[start:m.end()].strip())
        start = m.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return [s for s in out if s]


def clauses(text: str) -> list[str]:
    """Quotable units, each a verbatim substring: sentences, and also the parts a ";" or a lead-in ":"
    ends when a capital follows (a list's lead-in "... may be exempt from review:" is its own unit)."""
    parts = [s.strip() for s in _CLAUSE_SPLIT.split(text) if s.strip()]
    return parts or [text.strip()]


# --- cleaning what a user typed ----------------------------------------------------------------------

def clean_text(text: str) -> str:
    """Pasted text made plain: fullwidth letters to ASCII (NFKC), invisible format characters (soft hyphen,
    zero-width space) dropped so words stay whole, other control characters and runs of space to one space."""
    text = unicodedata.normalize("NFKC", text)
    cleaned = "".join("" if unicodedata.category(ch) == "Cf" else
                      ch if unicodedata.category(ch)[0] != "C" or ch in "\t\n" else " " for ch in text)
    return re.sub(r"\s+", " ", cleaned).strip()


# --- figures ---------------------------------------------------------------------------------------

_UNITS = r"(?:acres?|inch(?:es)?|years?|days?|hours?|weeks?|months?|feet|foot|percent|dollars?|times?|copies|copy)"
_SMALL = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
          "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_WORD_NUMBER = re.compile(r"\b(?:(" + "|".join(_TENS) + r")(?:[- ](" + "|".join(_SMALL[1:10]) + r"))?|(" +
                          "|".join(_SMALL) + r"))\b(?:\s+(hundred|thousand))?(\s+" + _UNITS + r")?", re.I)
_DIGITS = re.compile(r"(?:(?<![\w.])|(?<=\d[x\u00d7]))\$?\d[\d,]*(?:\.\d+)?")  # "10x12": 10 and 12


def _canonical(number: str) -> str:
    try:
        f = float(number.replace("$", "").replace(",", ""))
    except ValueError:
        return number
    if f != f or f in (float("inf"), float("-inf")):
        return number  # a figure too long for a float is compared as written
    return str(int(f)) if f == int(f) else repr(f)


# The letters that IGNORECASE matches to ASCII letters besides the ASCII ones (re's documentation); "İ" also
# lowercases to two characters. A text without them can be lowercased and searched case-sensitively.
_FOLDS_TO_ASCII = frozenset("\u0130\u0131\u017f\u212a")
_WORD_NUMBER_LOWER = re.compile(_WORD_NUMBER.pattern)


def _number_words(text: str):
    """_WORD_NUMBER's matches, found in the lowercased text when that finds the same ones (4x faster than
    IGNORECASE on the long texts the answer check reads); the groups then come lowercase, as they are used."""
    low = text.lower()
    if len(low) == len(text) and not _FOLDS_TO_ASCII.intersection(text):
        return _WORD_NUMBER_LOWER.finditer(low)
    return _WORD_NUMBER.finditer(text)


def figures(text: str) -> frozenset[str]:
    """Figures in a text, digits and number words alike ("forty-eight" == "48", "$1,000" == "1000"); a bare
    "one" that counts nothing ("one of the following") is not a figure. Short texts (questions, quotes,
    headnote questions: read again for every answer) are remembered."""
    return _short_figures(text) if len(text) <= _REMEMBERED_CHARS else _figures(text)


_REMEMBERED_CHARS = 2000


@lru_cache(maxsize=4096)
def _short_figures(text: str) -> frozenset[str]:
    return _figures(text)


def _figures(text: str) -> frozenset[str]:
    out = {_canonical(m.group(0)) for m in _DIGITS.finditer(text)}
    for m in _number_words(text):
        tens, unit_digit, small, scale, unit = m.groups()
        if small and small.lower() == "one" and not unit and not scale:
            continue
        n = _TENS[tens.lower()] + (_SMALL.index(unit_digit.lower()) if unit_digit else 0) if tens else _SMALL.index(small.lower())
        n *= {"hundred": 100, "thousand": 1000}.get((scale or "").lower(), 1)
        out.add(str(n))
    return frozenset(out)


# --- misspellings ----------------------------------------------------------------------------------

class Speller:
    """Likely misspellings of a corpus's own words, found from the corpus's vocabulary alone (no dictionary):
    a question word of SPELL_MIN_LETTERS or more that the corpus never uses and whose stem it never uses,
    which is one of its words with a letter left out ("registerd", "electrican", "reqired") or doubled ("permitt"), or, from
    SPELL_SWAP_LETTERS letters, with two neighbouring letters swapped ("preformance") or one vowel for another
    ("cemetary", "inspecter"). A wrong consonant ("inspektor") is not guessed at: too many real words are one
    letter from a corpus word ("basement", "easement"). Corrections are added beside the question's words,
    never replacing them."""

    def __init__(self, words: Iterable[str]):
        self.vocabulary = frozenset(w for w in words if w.isalpha())
        self._stems = frozenset(stem(w) for w in self.vocabulary)

    def knows(self, word: str) -> bool:
        """Does the corpus use this word, or a word with its stem?"""
        w = word.lower()
        return w in self.vocabulary or stem(w) in self._stems

    def corrections(self, text: str) -> list[str]:
        out: list[str] = []
        for w in dict.fromkeys(re.findall(r"[a-z]+", text.lower())):
            if len(w) < SPELL_MIN_LETTERS or self.knows(w):
                continue
            found = {w[:i] + c + w[i:] for i in range(len(w) + 1) for c in _LETTERS} & self.vocabulary
            # ... or a letter doubled ("permitt", "requirred")
            found |= {w[:i] + w[i + 1:] for i in range(len(w) - 1) if w[i] == w[i + 1]} & self.vocabulary
            if len(w) >= SPELL_SWAP_LETTERS:
                found |= {w[:i] + w[i + 1] + w[i] + w[i + 2:] for i in range(len(w) - 1)} & self.vocabulary
                # ... or one vowel for another ("cemetary", "seperate"), the commonest wrong letter
                found |= {w[:i] + v + w[i + 1:] for i, ch in enumerate(w) if ch in _VOWELS
                          for v in _VOWELS if v != ch} & self.vocabulary
            out += sorted(found)
        return out

    def respelled(self, text: str) -> str:
        """The text with each misspelled word that has exactly one correction written right ("Do we need a
        permitt?" -> "... a permit?"): what rules that read the question's own words (routing) should see."""
        def fix(m: re.Match) -> str:
            found = self.corrections(m.group(0))
            return found[0] if len(found) == 1 else m.group(0)
        return re.sub(r"[A-Za-z]{%d,}" % SPELL_MIN_LETTERS, fix, text)


SPELL_MIN_LETTERS = 6
SPELL_SWAP_LETTERS = 8
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_VOWELS = "aeiouy"
