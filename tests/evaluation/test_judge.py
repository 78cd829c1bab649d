"""Judging hits against the real corpus (no model)."""

from __future__ import annotations

from codeassist.evaluation.judge import Judge


def test_provision_hit_rules(corpus):
    judge = Judge(corpus)
    gold = ["hempstead:391(E)(2)"]
    assert judge.provision_hit("hempstead:391(E)(2)", "", gold)
    # An ancestor counts only when its returned text holds the gold provision's text.
    parent = corpus.get("hempstead:391(E)")
    assert judge.provision_hit(parent.id, corpus.full_text(parent.id), gold)
    assert not judge.provision_hit(parent.id, parent.text, gold)
    # A descendant of a gold provision, or an unrelated one, does not count.
    assert not judge.provision_hit("hempstead:391(E)(1)", corpus.full_text("hempstead:391(E)(1)"), ["hempstead:391(E)"])
    assert not judge.provision_hit("tuckahoe:7B-8(d)", corpus.full_text("tuckahoe:7B-8(d)"), gold)


def test_chunk_hit_needs_text_and_place(corpus):
    judge = Judge(corpus)
    p = corpus.get("tuckahoe:7B-8(d)")
    src = corpus.sources[p.source]
    start = max(0, p.start - 300)
    chunk = src[start:p.end + 50]
    assert judge.chunk_hit(p.source, start, chunk, [p.id])
    # The same text claimed at another place in the file, or from the other file, is not a hit.
    assert not judge.chunk_hit(p.source, p.end + 5000, chunk, [p.id])
    other = next(s for s in corpus.sources if s != p.source)
    assert not judge.chunk_hit(other, start, chunk, [p.id])
    # A chunk that stops before the provision's first 200 characters is not a hit.
    assert not judge.chunk_hit(p.source, start, src[start:p.start + 20], [p.id])
    # A "Reserved" section with no text is found by its heading line.
    r = corpus.get("tuckahoe:7-6")
    source, s0, s1, sig = judge.file_signature(r.id)
    assert "Reserved" in sig and judge.chunk_hit(source, s0 - 10, src[s0 - 10:s1 + 10], [r.id])


def test_related_counts_ancestors_and_descendants(corpus):
    judge = Judge(corpus)
    assert judge.related("hempstead:391(E)", ["hempstead:391(E)(2)"])
    assert judge.related("hempstead:391(E)(2)", ["hempstead:391(E)"])
    assert not judge.related("hempstead:391(C)", ["hempstead:391(E)"])
