"""The parsed tree against counts made by hand from the ordinance text."""

import re

import pytest

# Provisions below each section (not counting the section itself), counted by hand from the seeds.
HAND_COUNTS = {
    "hempstead:386": 9,                     # A-I
    "hempstead:purpose": 6,                 # A-F
    "hempstead:statutory-authority": 1,     # A
    "hempstead:applicability": 8,           # A-E, B(1)-(3)
    "hempstead:exemptions": 11,             # A-K
    "hempstead:390": 39,                    # 39 defined terms
    "hempstead:391": 40,                    # A-F, B(1)-(3), B(1)(a)-(p), B(2)(a)-(c), B(3)(a)-(i), E(1)-(3)
    "hempstead:392": 4,                     # A, B, A(1), A(2)
    "hempstead:393": 10,                    # A-D, A(1)-(2), C(1)-(4)
    "hempstead:severability": 2,
    "hempstead:construction-inspection": 16,  # A-E, A(1)-(2), A(1)(a)-(i)
    "hempstead:performance-guarantee": 3,
    "hempstead:enforcement": 12,            # A-F, A(1)-(6)
    "hempstead:fees": 0,
    "tuckahoe:7-1": 0, "tuckahoe:7-2": 0, "tuckahoe:7-3": 0, "tuckahoe:7-4": 0,
    "tuckahoe:7-5": 6,                      # (a)-(c), (a)(1)-(3)
    "tuckahoe:7-6": 0,
    "tuckahoe:7-7": 4, "tuckahoe:7-8": 2, "tuckahoe:7-9": 2, "tuckahoe:7-10": 0,
    "tuckahoe:7-11": 18,                    # (a)-(k), (d) para 2, (f)(1)-(5), (f) para 2
    "tuckahoe:7-12": 0, "tuckahoe:7-13": 0, "tuckahoe:7-14": 0,
    "tuckahoe:7B-1": 9,                     # (a)-(i); (f)-(i) share one line
    "tuckahoe:7B-2": 6, "tuckahoe:7B-3": 0,
    "tuckahoe:7B-4": 6,                     # (a)-(d), (b)(1)-(2)
    "tuckahoe:7B-5": 11,
    "tuckahoe:7B-6": 14,                    # (a)-(e), (a)(1)-(2), (a)(1) items a-g
    "tuckahoe:7B-7": 3,
    "tuckahoe:7B-8": 12,                    # (a)-(f), (a)(1)-(6)
    "tuckahoe:7B-9": 0,
}

HEMPSTEAD_TERMS = """AGRICULTURAL ACTIVITY|APPLICANT|BUILDING|CHANNEL|CLEARING|DEDICATION|DEPARTMENT|DESIGN MANUAL|
DEVELOPER|EROSION CONTROL MANUAL|GRADING|IMPERVIOUS COVER|INDUSTRIAL STORMWATER PERMIT|INFILTRATION|
JURISDICTIONAL WETLAND|LAND DEVELOPMENT ACTIVITY|LANDOWNER|MAINTENANCE AGREEMENT|NONPOINT SOURCE POLLUTION|
PHASING|POLLUTANT OF CONCERN|PROJECT|RECHARGE|SEDIMENT CONTROL|SENSITIVE AREAS|
SPDES GENERAL PERMIT FOR STORMWATER DISCHARGES FROM MUNICIPAL SEPARATE STORMWATER SEWER SYSTEMS GP-02-02|
STABILIZATION|STOP-WORK ORDER|STORMWATER|STORMWATER HOTSPOT|STORMWATER MANAGEMENT|STORMWATER MANAGEMENT FACILITY|
STORMWATER MANAGEMENT OFFICER|STORMWATER MANAGEMENT PRACTICES (SMPS)|STORMWATER POLLUTION PREVENTION PLAN (SWPPP)|
STORMWATER RUNOFF|SURFACE WATERS OF THE STATE OF NEW YORK|WATERCOURSE|WATERWAY"""


def test_every_section_found_with_hand_counted_provisions(corpus):
    found = {s.provision_id: len(corpus.descendants(s.provision_id)) for s in corpus.sections}
    assert found == HAND_COUNTS


def test_every_hempstead_definition_term_found(corpus):
    terms = [t.strip() for t in HEMPSTEAD_TERMS.replace("\n", "").split("|")]
    assert len(terms) == 39
    defs = [p for p in corpus.provisions("hempstead") if p.kind == "definition"]
    assert [p.term for p in defs] == terms
    table = corpus.definitions("hempstead")
    for term in terms:
        assert table[term.lower()].startswith("hempstead:390/")
    # Abbreviations in a term define themselves too.
    assert table["swppp"] == "hempstead:390/stormwater-pollution-prevention-plan-swppp"
    assert table["smps"] == "hempstead:390/stormwater-management-practices-smps"
    assert table["impervious cover"] == "hempstead:390/impervious-cover"


def test_tuckahoe_definitions_hold_only_what_the_corpus_defines(corpus):
    # The Village's stormwater definitions live in Appendix A § 12-1, which is not in the corpus.
    assert corpus.definitions("tuckahoe") == {"electrical contractor": "tuckahoe:7-11(a)"}


@pytest.mark.parametrize("pid,text", [
    ("hempstead:exemptions(G)", "Cemetery graves."),
    ("hempstead:390/impervious-cover", "Those surfaces, improvements and structures that cannot effectively infiltrate rainfall"),
    ("tuckahoe:7B-1(g)", "Stormwater runoff, soil erosion and nonpoint source pollution can be controlled"),
    ("tuckahoe:7B-1(i)", "Regulation of land development activities by means of performance standards"),
    ("tuckahoe:7-9(b)", "It shall be unlawful for any person"),
    ("tuckahoe:7B-6(a)(1)(a)", "Start of construction;"),
    ("tuckahoe:7B-6(a)(1)(g)", "Completion of final landscaping."),
    ("tuckahoe:7B-6(a)(2)", "Successful establishment of landscaping in public areas."),
    ("tuckahoe:7-11(d).p2", "In the event that the business association"),
    ("tuckahoe:7-11(f).p2", "A list of such fees shall be maintained"),
    ("tuckahoe:7-1", "The provisions of this chapter shall constitute"),
])
def test_traps_land_on_the_right_provision(corpus, pid, text):
    assert corpus.get(pid).text.startswith(text)


def test_inline_list_in_7b_6_is_not_split(corpus):
    # "(1) conduct the inspection, or (2) upon approval ..." is prose inside 7B-6(a)(1), not provisions.
    p = corpus.get("tuckahoe:7B-6(a)(1)")
    assert "may (1) conduct the inspection, or (2) upon approval" in p.text
    assert [c.split("(")[-1] for c in p.children] == [f"{x})" for x in "abcdefg"]


def test_7b_1_shared_line_items_end_at_their_sentence(corpus):
    assert corpus.get("tuckahoe:7B-1(f)").text == \
        "Substantial economic losses can result from these adverse impacts on the waters of the municipality."


def test_split_reference_stays_in_7b_4_c(corpus):
    p = corpus.get("tuckahoe:7B-4(c)")
    assert p.text.endswith("Appendix A, §\n\n§ 7-1.3(f) and 7-3.")
    assert "tuckahoe:7B-4(c)" in {pid for pid in corpus.get("tuckahoe:7B-4").children}


def test_history_notes_are_metadata_not_text(corpus):
    assert corpus.get("tuckahoe:7-5").history == "Ord. of 3-31-1933, Art. IV"
    assert corpus.get("tuckahoe:7-7").history == "Ord. of 3-31-1933, Art. VI; L.L. No. 12-2007, § 2"
    assert "§< § 5 - 8" in corpus.get("tuckahoe:7-11").history  # garbled, kept as printed
    for p in corpus.provisions():
        assert not re.search(r"\((Ord\.|L\.L\.) ", p.text), p.id


def test_citations_and_headings(corpus):
    assert corpus.get("hempstead:392(B)").citation == "Hempstead BZO § 392(B)"
    assert corpus.get("hempstead:exemptions(G)").citation == "Hempstead BZO Art. XXXVIII, Exemptions, item G"
    assert corpus.get("hempstead:construction-inspection(A)(1)(g)").citation == \
        "Hempstead BZO Art. XXXVIII, Construction inspection, item A(1)(g)"
    assert corpus.get("tuckahoe:7B-5(c)").citation == "Tuckahoe Code § 7B-5(c)"
    assert corpus.get("tuckahoe:7-11(d).p2").citation == "Tuckahoe Code § 7-11(d) (paragraph 2)"
    assert corpus.get("hempstead:391(B)(1)(a)").heading == \
        "Stormwater pollution prevention plans > Contents of stormwater pollution prevention plans"
    assert corpus.get("tuckahoe:7B-8(d)").heading == "Enforcement; penalties for offenses > Penalties"


def test_unconfirmed_numbers_are_never_cited_as_numbers(corpus):
    confirmed = {"386", "390", "391", "392", "393"}
    for s in corpus.sections:
        if s.municipality != "hempstead":
            continue
        assert s.number_confirmed == (s.key in confirmed), s.key
        assert s.number_note
    for p in corpus.provisions("hempstead"):
        nums = set(re.findall(r"§ (\d+)", p.citation))
        assert nums <= confirmed, p.citation


def test_ordinance_metadata(corpus):
    o = corpus.ordinances["hempstead-stormwater"]
    assert o.effective_date == "2006-03-21" and o.division == "Article XXXVIII"
    assert corpus.office_for("tuckahoe:7-5") == "Building Inspector, Village of Tuckahoe"
    assert "Stormwater Management Officer" in corpus.office_for("hempstead:391")
    assert corpus.ordinances["tuckahoe-ch7b"].missing


def test_lists_among_groups_items_of_one_list_found_together():
    from codeassist.corpus import load_corpus

    c = load_corpus()
    ids = ["hempstead:386(B)", "hempstead:391(C)", "hempstead:386(E)", "hempstead:exemptions(A)", "nowhere:1"]
    assert c.lists_among(ids) == {"hempstead:386": [0, 2]}
    assert c.lists_among(["hempstead:386(B)"]) == {}
