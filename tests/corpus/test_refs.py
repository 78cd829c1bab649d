"""Every cross-reference in both texts resolves to the right provision or to "not in corpus"."""

EXPECTED_INTERNAL = {
    ("hempstead:purpose", "hempstead:386"),
    ("hempstead:applicability(A)", "hempstead:390"),
    ("hempstead:applicability(D)", "hempstead:applicability(C)"),
    ("hempstead:391(B)(2)", "hempstead:390"),
    ("hempstead:391(B)(2)", "hempstead:391(B)(3)"),
    ("hempstead:391(B)(3)(a)", "hempstead:391(B)(1)"),
    ("hempstead:391(B)(3)(i)", "hempstead:393"),
    ("hempstead:393(C)(4)", "hempstead:392(B)"),
    ("hempstead:construction-inspection(E)", "hempstead:construction-inspection(C)"),
    ("tuckahoe:7-11(g)", "tuckahoe:7-11(f)"),
    ("tuckahoe:7B-2", "tuckahoe:7B-1"),
    ("tuckahoe:7B-4(d)", "tuckahoe:7B-4(c)"),
    ("tuckahoe:7B-6(e)", "tuckahoe:7B-6(c)"),
}


def _refs(corpus, kind):
    return {(p.id, r.target if kind == "internal" else r.text, r.target_name)
            for p in corpus.provisions() for r in p.refs if r.kind == kind}


def test_internal_references(corpus):
    assert {(a, b) for a, b, _ in _refs(corpus, "internal")} == EXPECTED_INTERNAL


def test_outside_text_is_not_in_corpus_never_a_wrong_provision(corpus):
    nic = {(pid, " ".join(text.split())) for pid, text, _ in _refs(corpus, "not_in_corpus")}
    assert ("tuckahoe:7-14", "§ 1-7") in nic
    assert ("tuckahoe:7B-4(a)", "Appendix A, Zoning, § 12-1") in nic
    assert ("tuckahoe:7B-5(a)", "Appendix A, Zoning, § 12-1") in nic
    # The split "Appendix A, §" / "§ 7-1.3(f) and 7-3." is one outside reference, not Chapter 7 § 7-3.
    assert ("tuckahoe:7B-4(c)", "Appendix A, § § 7-1.3(f) and 7-3") in nic
    assert not any(r.target == "tuckahoe:7-3" for p in corpus.provisions() for r in p.refs)
    assert ("hempstead:purpose(B)", "GP-02-01") in nic
    assert ("hempstead:purpose(A)", "GP-02-02") in nic
    assert ("hempstead:390/erosion-control-manual", "Blue Book") in nic
    # Each article XII mention in Chapter 7B is marked as outside the corpus.
    art12 = sum(p.text.count("Article XII") for p in corpus.provisions("tuckahoe"))
    marked = sum(1 for p in corpus.provisions("tuckahoe") for r in p.refs if "Article XII" in r.text)
    assert art12 == marked > 20


def test_reference_offsets_match_source(corpus):
    for p in corpus.provisions():
        for r in p.refs:
            assert corpus.sources[p.source][r.start:r.end] == r.text
