"""Browse: deep links (ids and written citations), the contents, cross-references and definitions."""

from __future__ import annotations

from apphelpers import all_markdown, new_app

SECTION = "browse-section"
ORDINANCE = "browse-ordinance"


def open_cite(cite: str):
    at = new_app()
    at.query_params["cite"] = cite
    return at.run()


def test_deep_link_by_id_opens_the_provision_in_browse():
    at = open_cite("tuckahoe:7B-5(c)")
    assert not at.exception
    assert at.title[0].value == "Browse the ordinances"
    assert at.radio(key=ORDINANCE).value == "tuckahoe-ch7b"
    assert at.radio(key=SECTION).value == "tuckahoe:7B-5"
    text = all_markdown(at)
    assert "Tuckahoe Code § 7B\\-5\\(c\\)" in text  # the focus card's heading
    assert "Routine maintenance activities that disturb fewer than five acres" in text


def test_deep_link_by_written_citation():
    at = open_cite("7B-5(c)")
    assert not at.exception
    assert at.radio(key=SECTION).value == "tuckahoe:7B-5"
    assert "Tuckahoe Code § 7B\\-5\\(c\\)" in all_markdown(at)


def test_deep_link_to_a_hempstead_item():
    at = open_cite("hempstead:exemptions(G)")
    assert at.radio(key=ORDINANCE).value == "hempstead-stormwater"
    assert at.radio(key=SECTION).value == "hempstead:exemptions"
    assert "Cemetery graves" in all_markdown(at)


def test_unknown_citation_is_explained_not_an_error():
    at = open_cite("7B-99")
    assert not at.exception
    assert any("no provision matches" in w.value for w in at.warning)


def test_contents_pick_a_section_and_update_the_link():
    at = open_cite("tuckahoe:7B-5")
    at.radio(key=SECTION).set_value("tuckahoe:7B-6").run()
    assert "Construction inspection" in at.subheader[0].value
    assert at.query_params["cite"] == "tuckahoe:7B-6"
    at.button(key="browse-next").click().run()
    assert at.radio(key=SECTION).value == "tuckahoe:7B-7"


def test_changing_ordinance_opens_its_first_section():
    at = open_cite("tuckahoe:7B-5")
    at.radio(key=ORDINANCE).set_value("hempstead-stormwater").run()
    assert at.radio(key=SECTION).value == "hempstead:386"
    assert at.query_params["cite"] == "hempstead:386"


def test_go_to_box_accepts_citations_as_people_write_them():
    at = open_cite("tuckahoe:7-1")
    at.text_input(key="browse-goto").input("§ 391(B)(1)").run()
    assert at.radio(key=SECTION).value == "hempstead:391"
    assert "Hempstead BZO § 391\\(B\\)\\(1\\)" in all_markdown(at)


def test_definitions_and_cross_references_are_links():
    text = all_markdown(open_cite("hempstead:391"))
    assert "](?cite=hempstead%3A390%2Fland-development-activity)" in text  # a defined term, linked
    text = all_markdown(open_cite("hempstead:applicability"))
    assert "](?cite=hempstead%3A390)" in text  # "§ 390" is an internal cross-reference


def test_references_outside_the_corpus_are_named():
    text = all_markdown(open_cite("tuckahoe:7B-5"))
    assert "not in this corpus: Village of Tuckahoe Code, Appendix A, Zoning, Article XII" in text
