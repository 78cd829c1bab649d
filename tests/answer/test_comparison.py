"""Comparing the municipalities (compare.py): the pure word diff, which differences count, and the compare
answer end to end through the lexical stand-in retriever (tests/answer/conftest.py), which implements the
whole SearchBackend protocol the answer layer calls."""

from __future__ import annotations

import re

import pytest

from codeassist import compare as C
from codeassist import draft as D
from codeassist.models import Draft

STOP_WORK = "stop-work orders in Hempstead versus Tuckahoe"


# --- word_diff (pure) --------------------------------------------------------------------------------

def test_identical_texts_have_no_marks():
    text = "The applicant shall inspect the site every seven days."
    assert C.word_diff(text, text) == (text, text)


def test_a_replaced_word_is_marked_on_each_side():
    assert C.word_diff("a b c", "a x c") == ("a [-b-] c", "a {+x+} c")


def test_words_only_one_side_has_are_marked_on_that_side():
    a, b = C.word_diff("halt all work, or except those necessary to secure the site.", "halt all work.")
    assert a == "halt all work, [-or except those necessary to secure the site.-]"
    assert b == "halt all work."
    a, b = C.word_diff("halt all work.", "halt all work, or except those necessary to secure the site.")
    assert a == "halt all work." and b.endswith("{+or except those necessary to secure the site.+}")


def test_a_run_of_differing_words_is_one_mark():
    a, b = C.word_diff("The Town of Hempstead may issue", "The Village may issue")
    assert (a, b) == ("The [-Town of Hempstead-] may issue", "The {+Village+} may issue")


def test_case_trailing_punctuation_and_spacing_do_not_count():
    a, b = C.word_diff("Stop-work  orders;\nthe Town", "stop-work orders. The town")
    assert "[-" not in a and "{+" not in b
    assert (a, b) == ("Stop-work orders; the Town", "stop-work orders. The town")  # each side keeps its words


def test_empty_texts():
    assert C.word_diff("", "") == ("", "")
    assert C.word_diff("", "new words") == ("", "{+new words+}")


def test_word_diff_is_pure():
    a, b = "the Town may", "the Village may"
    assert C.word_diff(a, b) == C.word_diff(a, b)
    assert (a, b) == ("the Town may", "the Village may")


# --- which differences count -------------------------------------------------------------------------

@pytest.mark.parametrize("chunk", [
    "Town of Hempstead", "Village", "Village of Tuckahoe", "this article", "this chapter",
    "this chapter and Appendix A, Zoning, Article XII, Stormwater Control", "Town", "the Board of Trustees", ";",
    # a function word alone ("to ensure" / "ensure") changes no rule
    "to", "of the",
])
def test_names_and_the_laws_name_for_itself_are_not_differences(corpus, chunk):
    assert C._substantive([chunk], corpus) == []


def test_differences_that_change_the_rule_are_kept_longest_first(corpus):
    chunks = ["Town of Hempstead", "or except those activities necessary to secure the site.", "weekly", "Village", "to"]
    assert C._substantive(chunks, corpus) == ["or except those activities necessary to secure the site.", "weekly"]


def test_substantive_does_not_change_its_input(corpus):
    chunks = ["Village", "weekly"]
    C._substantive(chunks, corpus)
    assert chunks == ["Village", "weekly"]


# --- the comparison data -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def stop_work(assistant):
    return assistant.compare(STOP_WORK)


def test_compare_pairs_a_provision_from_each_municipality(stop_work, corpus):
    assert stop_work["municipalities"] == ["hempstead", "tuckahoe"]
    pair = stop_work["pairs"][0]
    for muni in ("hempstead", "tuckahoe"):
        side = pair[muni]
        assert corpus.get(side["id"]).municipality == muni
        assert side["text"] == corpus.full_text(side["id"])
        assert side["citation"] == corpus.get(side["id"]).citation
    assert pair["hempstead"]["id"] == "hempstead:enforcement(B)"
    assert 0.5 < pair["similarity"] < 1.0  # the model law's wording, with local changes


def test_compare_marks_hempsteads_extra_words(stop_work):
    pair = stop_work["pairs"][0]
    only_hempstead = re.findall(r"\[-(.+?)-\]", pair["hempstead"]["marked"])
    assert any("secure the site" in chunk for chunk in only_hempstead)
    # Unmarked, the marked text is the text itself, word for word.
    unmarked = re.sub(r"\[-|-\]", "", pair["hempstead"]["marked"]).split()
    assert unmarked == pair["hempstead"]["text"].split()


def test_compare_leaves_out_electrical_and_definitions(assistant, corpus):
    data = assistant.compare("how do Hempstead and Tuckahoe define a land development activity")
    for pair in data["pairs"]:
        for muni in data["municipalities"]:
            pid = pair[muni]["id"]
            assert corpus.get(pid).kind != "definition"
            assert corpus.ordinance_of(pid).topic == "stormwater"


# --- the compare answer ------------------------------------------------------------------------------

def quoted_differences(lead: str, name: str) -> list[str]:
    """The quoted words after "only <name> says" in a compare lead."""
    m = re.search(r"only " + re.escape(name) + r" says (.*?)(?:; only |\.?$)", lead)
    return re.findall(r"\u201c(.+?)\u201d", m.group(1)) if m else []


@pytest.fixture(scope="module")
def stop_work_answer(assistant):
    return assistant.ask(STOP_WORK)


def test_the_compare_answer_cites_both_municipalities(stop_work_answer):
    ans = stop_work_answer
    assert ans.intent == "compare" and not ans.abstained and ans.municipality is None
    assert {c.municipality for c in ans.citations} == {"hempstead", "tuckahoe"}
    assert "hempstead:enforcement(B)" in [c.id for c in ans.citations]


def test_the_compare_answer_is_verified(stop_work_answer, corpus):
    assert D.check_answer(corpus, stop_work_answer) == []
    assert D.unsupported_numbers(corpus, stop_work_answer) == set()


def test_differences_are_named_only_inside_the_quotes(stop_work_answer, corpus):
    ans = stop_work_answer
    names = {m.id: m.name for m in corpus.municipalities.values()}
    quotes = {c.municipality: " ".join(c.quote.split()) for c in ans.citations}
    named = {m: quoted_differences(ans.lead, names[m]) for m in names}
    assert any("secure the site" in x for x in named["hempstead"])  # Hempstead's addition (DOMAIN.md)
    for muni, diffs in named.items():
        for x in diffs:
            assert x in quotes[muni], (muni, x)


def test_each_side_is_labelled_with_its_municipality(stop_work_answer, corpus):
    for name in (m.name for m in corpus.municipalities.values()):
        assert f"**{name}:**" in stop_work_answer.answer


def test_answer_compare_returns_blocks_that_verify(assistant, corpus):
    plan = assistant.planner.build(STOP_WORK)
    ans = C.answer_compare(corpus, assistant.retriever, plan)
    assert ans.answer == ""  # text is rendered by the Assistant, after verification
    assert D.verify(corpus, Draft(blocks=tuple(ans.blocks))) == []
    kinds = [b.kind for b in ans.blocks]
    assert kinds[0] == "lead" and kinds.count("quote") == 2


def test_a_difference_past_the_quoted_words_is_not_named(assistant, corpus, monkeypatch):
    # Quote only the first sentence of each side: Hempstead's "secure the site" is then off the page.
    monkeypatch.setattr(C, "short_quote", lambda text, limit=400: text[:text.index(".") + 1])
    ans = C.answer_compare(corpus, assistant.retriever, assistant.planner.build(STOP_WORK))
    assert all("secure the site" not in c.quote for c in ans.citations)
    assert "secure the site" not in ans.blocks[0].text


def test_a_topic_only_one_municipality_covers_is_not_compared(assistant, corpus):
    ans = assistant.ask("how do Hempstead and Tuckahoe differ on electrical permits")
    assert ans.abstained and ans.intent == "abstain"
    assert "does not say" in ans.answer
    assert D.check_answer(corpus, ans) == []


def test_texts_worded_alike_are_compared_not_abstained(assistant, corpus):
    ans = assistant.ask("compare the maintenance guarantee in both places")
    assert ans.intent == "compare" and not ans.abstained
    assert {c.municipality for c in ans.citations} == {"hempstead", "tuckahoe"}


def test_a_comparative_with_two_places_is_a_comparison(assistant):
    ans = assistant.ask("are stop-work orders tougher in Tuckahoe or Hempstead?")
    assert ans.intent == "compare"


def test_what_each_says_comes_first_when_asked_for_each(assistant, corpus):
    ans = assistant.ask("Hempstead and Tuckahoe: what does each say about stop-work orders, compared?")
    assert ans.intent == "compare"
    assert ans.blocks[0].kind == "summary"  # each text's summary first, the wording differences after


def test_whether_two_texts_differ_is_answered_first(assistant, corpus):
    # The two appeal provisions differ only in what each calls itself ("the Town" / "the municipality").
    ans = assistant.ask("is the time to appeal a violation notice any different in the town of hempstead and the village of tuckahoe?")
    assert ans.intent == "compare"
    assert ans.lead.startswith("No. Both texts are worded the same"), ans.lead
    ans = assistant.ask("are stop-work orders the same in hempstead and tuckahoe?")
    assert ans.lead.startswith("No. Differences in wording: only Town of Hempstead says"), ans.lead
    assert "secure the site" in ans.lead
    # No verb, but no clause opens with a question word either: "... same?" asks yes or no.
    ans = assistant.ask("hempstead vs tuckahoe stop-work orders same?")
    assert ans.lead.startswith("No. Differences in wording"), ans.lead
    ans = assistant.ask("hempstead vs tuckahoe: what is the same about stop-work orders?")
    assert not ans.lead.startswith(("Yes.", "No.")), ans.lead


def test_a_question_for_a_value_gets_what_each_text_says_first(assistant, corpus):
    ans = assistant.ask("how long do you get to appeal a violation notice in the town of hempstead compared to the "
                        "village of tuckahoe?")
    assert ans.intent == "compare" and ans.blocks[0].kind == "summary"
    assert "15 days" in ans.lead
    assert "worded the same" in ans.answer  # the wording comparison still follows


# --- what is compared -------------------------------------------------------------------------------

def test_the_topics_compared_are_those_the_question_names(corpus):
    assert C._topics(corpus, "stop-work orders in Hempstead versus Tuckahoe") == {"stormwater"}
    assert C._topics(corpus, "Tuckahoe's electrical code vs Hempstead's stormwater article") == {"electrical", "stormwater"}
    # The ordinances' topic_words (metadata) name them too.
    assert C._topics(corpus, "Tuckahoe's wiring rules vs Hempstead's erosion rules") == {"electrical", "stormwater"}
    assert C._topics(corpus, "electricians in Tuckahoe vs Hempstead") == {"electrical"}


def test_items_of_one_list_found_together_stand_for_the_list(corpus):
    items = [corpus.get(f"hempstead:construction-inspection(A)(1)({x})") for x in "bag"]
    whole = C._lists_whole(corpus, items)
    assert [p.id for p in whole] == ["hempstead:construction-inspection(A)(1)"]
    # One item alone, or items of different lists, stay themselves.
    one = [items[0], corpus.get("hempstead:enforcement(D)")]
    assert C._lists_whole(corpus, one) == one


def test_texts_alike_lead_with_what_both_say(assistant, corpus):
    # Not asked whether they differ: what both say is the answer, under one summary labelled for both.
    ans = assistant.ask("NOV appeal window hempstead vs tuckahoe?")
    assert ans.intent == "compare"
    assert ans.blocks[0].kind == "summary" and "alike" in (ans.blocks[0].label or "")
    assert "15 days" in ans.lead


def test_the_law_named_after_each_municipality_is_the_one_compared(corpus):
    q = "Compare how a continuing violation is counted under Tuckahoe's electrical code vs Hempstead's stormwater article"
    assert corpus.law_named_with(q, "tuckahoe").topic == "electrical"
    assert corpus.law_named_with(q, "hempstead").topic == "stormwater"
    assert corpus.law_named_with("continuing violations in tuckahoe and hempstead", "tuckahoe") is None


def test_how_texts_differ_is_not_answered_yes_or_no(assistant, corpus):
    from codeassist.compare import _same_or_not
    from codeassist.plan import Planner
    planner = Planner(corpus)
    assert _same_or_not(planner.build("how do the fines differ between Hempstead and Tuckahoe?", None), differ=False) is None
    assert _same_or_not(planner.build("do the fines differ between Hempstead and Tuckahoe?", None), differ=False) == "No."


def test_the_first_hits_of_one_model_provision_are_the_pair_however_alike_a_lower_pair_is(corpus):
    """The occupancy holds (worded 0.56 alike: Hempstead's names the county police) rank first on both sides; the
    penalty sections below them are worded almost the same, and must not take their place."""
    from fakes import PlanSearch

    from codeassist.models import Hit
    from codeassist.plan import Planner

    ranked = {"hempstead": ["hempstead:enforcement(E)", "hempstead:enforcement(D)"],
              "tuckahoe": ["tuckahoe:7B-8(e)", "tuckahoe:7B-8(d)"]}

    class Fixed(PlanSearch):
        def search(self, query, municipality=None, k=5):
            return [Hit(id=i, municipality=municipality, citation="", heading="", text="", score=1.0)
                    for i in ranked[municipality]]

    plan = Planner(corpus).build("Can both places block occupancy over a stormwater violation?")
    pair = C.compare(corpus, Fixed(), plan)["pairs"][0]
    assert (pair["hempstead"]["id"], pair["tuckahoe"]["id"]) == ("hempstead:enforcement(E)", "tuckahoe:7B-8(e)")
    assert C.SAME_PROVISION <= pair["similarity"] < 0.9


def test_asked_whether_both_do_what_only_one_text_says_is_no(assistant):
    # only the Town's text has the county police enforce the officer's order
    ans = assistant.ask("Do both places let the police enforce the stormwater officer's order holding up occupancy?")
    assert ans.intent == "compare"
    assert ans.lead.startswith("No, not both: only the Town of Hempstead's text says so."), ans.lead
    # two things asked, the first of both: no No made up from the second
    ans = assistant.ask("Hempstead vs Tuckahoe: can the officer block occupancy in both, and can the police enforce it?")
    assert not ans.lead.startswith("No, not both"), ans.lead


def test_words_only_one_text_has_are_shown_before_what_they_qualify():
    quoted = "certified by a New York State licensed professional engineer, who shall attest"
    assert C._in_context("New York State licensed", quoted) == \
        "\u201cNew York State licensed\u201d (before \u201cprofessional engineer\u201d)"
    # a sentence's end, or words not in the quote, get no context
    assert C._in_context("to the landowner.", "issue it to the landowner. The notice") == "\u201cto the landowner.\u201d"
    assert C._in_context("absent words", quoted) == "\u201cabsent words\u201d"
