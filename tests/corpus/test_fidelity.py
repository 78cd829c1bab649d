"""Joining the provisions' texts reproduces each source file; offsets point at the text."""

import re

from codeassist.corpus import normalize_ws

# What may stand between provision texts: labels, headings, history notes, the Hempstead preamble,
# definition terms, and the Tuckahoe chapter headings that belong to no provision.
_GAP = re.compile(
    r"^(?:\s|[A-Z]\.|\([a-z0-9]+\s?\)|[a-g](?= )|§ 7B?-\d+\.(?:\s+[^.(]+\.)?"
    r"|\((?:Ord\.|L\.L\.)[^()]*\)|\[Effective 3-21-2006\]"
    r"|Chapter 7 1/2, ENVIRONMENTAL CONSERVATION|Chapter 7B, EROSION AND SEDIMENT CONTROL \([^)]*\))*$")


def test_offsets_point_at_the_text(corpus):
    for p in corpus.provisions():
        assert corpus.sources[p.source][p.start:p.end] == p.text, p.id


def test_provisions_cover_the_source_with_only_labels_between(corpus):
    terms = sorted({p.term for p in corpus.provisions() if p.term}, key=len, reverse=True)
    term_line = re.compile(r"(?m)^(?:" + "|".join(map(re.escape, terms)) + r")[ \t]*$")
    for rel, src in corpus.sources.items():
        spans = sorted((p.start, p.end, p.id) for p in corpus.provisions() if p.source == rel and p.text)
        pos = 0
        for start, end, pid in spans:
            assert start >= pos, f"{pid} overlaps the provision before it"
            gap = src[pos:start]
            gap = term_line.sub(" ", gap)
            assert _GAP.match(gap), f"unexpected text before {pid}: {gap!r}"
            pos = end
        assert _GAP.match(src[pos:]), f"unexpected text at the end of {rel}: {src[pos:]!r}"


def test_joined_text_equals_source_without_labels_and_notes(corpus):
    for rel, src in corpus.sources.items():
        provs = sorted((p for p in corpus.provisions() if p.source == rel and p.text), key=lambda p: p.start)
        joined = normalize_ws(" ".join(p.text for p in provs))
        words_src = normalize_ws(src)
        # Every provision's text appears in order in the source, and together they hold every word of
        # it except labels, headings, terms and history notes (checked span by span above).
        assert len(joined) > 0.9 * len(words_src) - 2000
        pos = 0
        for p in provs:
            at = words_src.find(normalize_ws(p.text), pos)
            assert at >= 0, p.id
            pos = at


def test_full_text_includes_children(corpus):
    full = corpus.full_text("tuckahoe:7B-5")
    assert full.startswith("The following activities may be exempt")
    assert "Cemetery graves." in full and "Landscaping and horticultural activities" in full
    assert corpus.quote_in("tuckahoe:7B-5", "Cemetery   graves.")
    assert not corpus.quote_in("tuckahoe:7B-5", "Cemetery graves are exempt")
