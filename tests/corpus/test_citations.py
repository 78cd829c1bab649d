import pytest
from hypothesis import given, settings, strategies as st

from codeassist.errors import CitationNotFound, UnknownMunicipality


@pytest.mark.parametrize("text,municipality,expected", [
    ("7B-5(c)", None, "tuckahoe:7B-5(c)"),
    ("§ 7B-5 (c)", None, "tuckahoe:7B-5(c)"),
    ("§7b-5c", None, "tuckahoe:7B-5(c)"),
    ("392B", None, "hempstead:392(B)"),
    ("section 392 subsection B", None, "hempstead:392(B)"),
    ("§ 392, Subsection B", None, "hempstead:392(B)"),
    ("hempstead: exemptions G", None, "hempstead:exemptions(G)"),
    ("exemptions G", "hempstead", "hempstead:exemptions(G)"),
    ("exemptions g", "tuckahoe", "tuckahoe:7B-5(g)"),
    ("391(B)(1)(a)", None, "hempstead:391(B)(1)(a)"),
    ("391 B 1 a", None, "hempstead:391(B)(1)(a)"),
    ("tuckahoe:7B-5(c)", None, "tuckahoe:7B-5(c)"),
    ("TUCKAHOE:7b-5(C)", None, "tuckahoe:7B-5(c)"),
    ("7-11(d)", None, "tuckahoe:7-11(d)"),
    ("Tuckahoe Code § 7-5(a)(1)", None, "tuckahoe:7-5(a)(1)"),
    ("390 impervious cover", None, "hempstead:390/impervious-cover"),
    ("Hempstead BZO § 393(A)(2)", None, "hempstead:393(A)(2)"),
    ("Hempstead BZO Art. XXXVIII, Enforcement and penalties, item D", None, "hempstead:enforcement(D)"),
    ("hempstead penalties D", None, "hempstead:enforcement(D)"),
    ("7B-6", None, "tuckahoe:7B-6"),
    # a title both municipalities use, with labels only one of them has
    ("construction inspection A(1)(h)", None, "hempstead:construction-inspection(A)(1)(h)"),
])
def test_forms_people_write(corpus, text, municipality, expected):
    assert corpus.resolve_citation(text, municipality).id == expected


@pytest.mark.parametrize("text,hint", [
    ("7B-5(z)", "Tuckahoe Code § 7B-5(a)"),
    ("7B-10", "Tuckahoe Code § 7B-1"),
    ("exemptions G", "Tuckahoe Code § 7B-5(g)"),
    ("hello world", "write it like"),
    ("", "empty"),
    ("392 frobnicate", "Hempstead BZO § 392"),
])
def test_nonsense_is_rejected_with_nearest_valid(corpus, text, hint):
    with pytest.raises(CitationNotFound) as exc:
        corpus.resolve_citation(text)
    assert hint in str(exc.value)


def test_conflicting_municipality(corpus):
    with pytest.raises(CitationNotFound, match="names Village of Tuckahoe"):
        corpus.resolve_citation("tuckahoe 7B-5", "hempstead")
    with pytest.raises(UnknownMunicipality, match="known: hempstead, tuckahoe"):
        corpus.resolve_citation("7B-5", "hempsted")


def test_every_provision_citation_round_trips(corpus):
    for p in corpus.provisions():
        if p.kind == "continuation":
            continue  # "(paragraph 2)" is display only; the id reaches it
        assert corpus.resolve_citation(p.citation).id == p.id, p.citation


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_never_crashes(corpus, text):
    try:
        p = corpus.resolve_citation(text)
        assert p.id in corpus
    except (CitationNotFound, UnknownMunicipality):
        pass
