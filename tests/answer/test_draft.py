"""Drafts as data (draft.py): verifying hand-built drafts against real provisions, and rendering them.

Every quote must be verbatim in its provision; a summary must be exactly the provision's headnote; every
figure in our own words (lead, text, note) must be held by a quote, a summary or the calculation."""

from __future__ import annotations

import pytest

from codeassist import draft as D
from codeassist.compose import cite
from codeassist.models import Answer, Block, Citation

APPEAL = "hempstead:enforcement(A)(6)"  # "... within 15 days of service of the notice of violation."
NOTICE = "hempstead:enforcement(A)"      # its lead-in: "The notice of violation shall contain:"
REPORTS = "hempstead:393(A)(2)"          # "every seven days and within 24 hours of any storm event ..."
EXEMPT = "hempstead:exemptions"          # "The following activities may be exempt from review under this law:"
GRAVES = "hempstead:exemptions(G)"       # "Cemetery graves."


def q(corpus, pid: str, words: str | None = None) -> Citation:
    """A checked citation of `words` (the provision's whole text by default)."""
    p = corpus.get(pid)
    return cite(corpus, p, words if words is not None else p.text)


def forged(corpus, pid: str, words: str) -> Citation:
    """A citation built without the corpus in the validation context, so its quote is not checked."""
    p = corpus.get(pid)
    return Citation(id=p.id, municipality=p.municipality, citation=p.citation, heading=p.heading, quote=words)


def appeal_quote(corpus) -> Citation:
    return q(corpus, APPEAL, "within 15 days of service of the notice of violation")


# --- quotes ------------------------------------------------------------------------------------------

def test_a_verbatim_quote_passes(corpus):
    assert D.verify(corpus, D.build(D.quote(q(corpus, APPEAL)))) == []


def test_quotes_are_compared_with_whitespace_as_in_the_text(corpus):
    text = corpus.get(REPORTS).text
    sentence = text[text.index("Inspection reports"):text.index("or more.") + len("or more.")]
    assert D.verify(corpus, D.build(D.quote(q(corpus, REPORTS, sentence)))) == []


@pytest.mark.parametrize("altered", [
    "within 30 days of service of the notice of violation",       # a figure changed
    "within 15 business days of service of the notice of violation",  # a word added
    "within 15 days of receipt of the notice of violation",       # a word replaced
])
def test_an_altered_quote_fails(corpus, altered):
    problems = D.verify(corpus, D.build(D.quote(forged(corpus, APPEAL, altered))))
    assert len(problems) == 1 and problems[0].startswith(f"quote not verbatim in {APPEAL}")


def test_a_quote_from_the_wrong_provision_fails(corpus):
    words = "within 15 days of service of the notice of violation"
    assert D.verify(corpus, D.build(D.quote(forged(corpus, GRAVES, words))))


def test_a_quote_cannot_be_made_with_the_corpus_in_context(corpus):
    with pytest.raises(ValueError, match="not verbatim"):
        q(corpus, APPEAL, "within 30 days of service of the notice of violation")


# --- summaries ---------------------------------------------------------------------------------------

def test_the_headnote_as_a_summary_passes(corpus):
    block = D.summary(corpus, APPEAL)
    assert block is not None and block.text == corpus.headnote(APPEAL).summary
    assert D.verify(corpus, D.build(block)) == []


@pytest.mark.parametrize("change", [
    lambda s: s + " Appeals are usually granted.",
    lambda s: s.replace("15 days", "fifteen days"),
    lambda s: s[:-1],
    lambda s: s.lower(),
])
def test_a_summary_must_be_exactly_the_headnote(corpus, change):
    text = change(corpus.headnote(APPEAL).summary)
    block = Block(kind="summary", text=text, summary_of=APPEAL)
    assert D.verify(corpus, D.build(block)) == [f"summary is not the headnote of {APPEAL}"]


def test_a_summary_may_open_with_the_sentence_the_quote_says(corpus):
    from codeassist.answer import _quoted_sentence_first
    from codeassist.text import sentences

    pid = "tuckahoe:7-8(a)"
    summary = D.summary(corpus, pid)
    parts = sentences(summary.text)
    assert len(parts) >= 3
    quote = "When a certificate is issued authorizing the connection and the use of temporary work, such a certificate " \
            "shall be issued to expire at a stated time and shall be revocable by the Building Inspector at his discretion."
    moved = _quoted_sentence_first(summary, quote)
    assert moved.text.startswith("Temporary-work certificates expire") and sorted(sentences(moved.text)) == sorted(parts)
    assert D.verify(corpus, D.build(moved)) == []  # the headnote's own sentences, reordered
    # The first sentence stays first when the quote is what it says.
    assert _quoted_sentence_first(summary, corpus.get(pid).text.split(", and the person")[0]).text == summary.text
    # Sentences of the headnote with one of them altered are not the headnote.
    altered = summary.model_copy(update={"text": moved.text.replace("stated time", "later time")})
    assert D.verify(corpus, D.build(altered)) == [f"summary is not the headnote of {pid}"]


def test_a_summary_of_another_provision_fails(corpus):
    block = Block(kind="summary", text=corpus.headnote(APPEAL).summary, summary_of=GRAVES)
    assert D.verify(corpus, D.build(block)) == [f"summary is not the headnote of {GRAVES}"]


@pytest.mark.parametrize("pid", ["hempstead:no-such-provision", None])
def test_a_summary_of_nothing_fails(corpus, pid):
    assert D.summary(corpus, pid or "") is None
    block = Block(kind="summary", text="Anything at all.", summary_of=pid)
    assert D.verify(corpus, D.build(block)) == [f"summary is not the headnote of {pid}"]


# --- figures in our own words ------------------------------------------------------------------------

@pytest.mark.parametrize("make", [D.lead, D.text, D.note])
def test_a_figure_nothing_holds_is_unsupported(corpus, make):
    draft = D.build(make("You have 30 days to appeal."), D.quote(appeal_quote(corpus)))
    assert D.unsupported_figures(corpus, draft) == {"30"}
    assert any("unsupported numbers" in p and "'30'" in p for p in D.verify(corpus, draft))


@pytest.mark.parametrize("make", [D.lead, D.text, D.note])
def test_a_figure_held_by_a_quote_is_supported(corpus, make):
    draft = D.build(make("You have 15 days to appeal."), D.quote(appeal_quote(corpus)))
    assert D.unsupported_figures(corpus, draft) == set()
    assert D.verify(corpus, draft) == []


def test_a_figure_written_as_a_word_is_the_same_figure(corpus):
    draft = D.build(D.lead("You have fifteen days to appeal."), D.quote(appeal_quote(corpus)))
    assert D.verify(corpus, draft) == []
    draft = D.build(D.lead("You have thirty days to appeal."), D.quote(appeal_quote(corpus)))
    assert D.unsupported_figures(corpus, draft) == {"30"}


def test_a_figure_held_by_a_summary_is_supported(corpus):
    draft = D.build(D.lead("Appeal within 15 days."), D.summary(corpus, APPEAL))
    assert D.verify(corpus, draft) == []


def test_a_figure_held_only_by_a_quote_that_fails_is_unsupported(corpus):
    bad = forged(corpus, APPEAL, "within 30 days of service of the notice of violation")
    draft = D.build(D.lead("You have 30 days to appeal."), D.quote(bad))
    assert D.unsupported_figures(corpus, draft) == {"30"}


def test_a_figure_held_by_the_calculation_is_supported(corpus):
    draft = D.build(D.lead("Storm inspection report due Friday, April 3, 2026 (0.7 in on 2026-04-02)."))
    calc = {"obligations": [{"due": "2026-04-03"}], "storm_events": [{"date": "2026-04-02", "inches": 0.7}]}
    assert D.verify(corpus, draft, calculation=calc) == []
    assert {"0.7", "2026"} <= D.unsupported_figures(corpus, draft)  # without it, they are not


def test_without_the_calculation_its_figures_are_unsupported(corpus):
    draft = D.build(D.lead("The fine is up to $1,000 for 3 offenses."))
    assert D.unsupported_figures(corpus, draft) == {"1000", "3"}
    assert D.verify(corpus, draft, calculation={"fine_max": 1000, "tier": 3}) == []


@pytest.mark.parametrize("words", [
    "See § 7-14 for the penalty.",
    "Those rules are in Appendix A, §§ 7-1.3(f) and 7-3, not in this corpus.",
    "It is listed as item G of the exemptions.",
    "Part of Art. XXXVIII of the Building Zone Ordinance.",
    "Chapter 7B governs erosion in the Village.",
])
def test_section_references_are_not_figures(corpus, words):
    draft = D.build(D.text(words))
    assert D.unsupported_figures(corpus, draft) == set()
    assert D.verify(corpus, draft) == []


def test_a_cited_provisions_citation_in_our_words_is_not_a_figure(corpus):
    c = q(corpus, REPORTS, "Inspection reports shall be completed every seven days")
    draft = D.build(D.text(f"Weekly reports are required ({c.citation}, {c.id})."), D.quote(c))
    assert D.verify(corpus, draft) == []


def test_echoing_the_users_figure_is_allowed_only_for_clarify(corpus):
    question = "is 7 acres too much for the exemption?"
    draft = D.build(D.text("You said 7 acres; which municipality is the site in?"))
    assert D.unsupported_figures(corpus, draft, question=question) == {"7"}
    assert D.unsupported_figures(corpus, draft, question=question, echo_question=True) == set()
    asked = Answer(question=question, answer="", intent="clarify", municipality=None, blocks=list(draft.blocks))
    assert D.check_answer(corpus, asked) == [] and D.unsupported_numbers(corpus, asked) == set()
    told = asked.model_copy(update={"intent": "retrieval"})
    assert D.unsupported_numbers(corpus, told) == {"7"} and D.check_answer(corpus, told)


def test_the_users_words_quoted_back_claim_nothing(corpus):
    question = "what storm must a basin be sized for? the 100-yr?"
    echoed = D.build(D.note("On the rest of your question (\u201cthe 100-yr?\u201d): the design manual is not here."))
    assert D.unsupported_figures(corpus, echoed, question=question) == set()
    # Only the user's own words: a quoted figure they did not write is still ours.
    told = D.build(D.note("On the rest of your question (\u201cthe 10-yr?\u201d): the design manual is not here."))
    assert D.unsupported_figures(corpus, told, question=question) == {"10"}
    unquoted = D.build(D.note("Basins are sized for the 100-year storm."))
    assert D.unsupported_figures(corpus, unquoted, question=question) == {"100"}


def test_quotes_and_summaries_are_not_checked_as_our_words(corpus):
    # Their figures are checked as quotes (verbatim) and as headnotes, never flagged as unsupported.
    draft = D.build(D.summary(corpus, REPORTS), D.quote(q(corpus, REPORTS)))
    assert D.unsupported_figures(corpus, draft) == set()


# --- check_answer on a finished Answer ----------------------------------------------------------------

def answer_of(*blocks, **fields) -> Answer:
    draft = D.build(*blocks)
    return Answer(question=fields.pop("question", "how long do I have to appeal?"), answer=D.render_text(draft),
                  intent=fields.pop("intent", "retrieval"), municipality="hempstead", citations=draft.citations,
                  blocks=list(draft.blocks), **fields)


def test_check_answer_passes_a_sound_answer(corpus):
    ans = answer_of(D.lead("Within 15 days."), D.summary(corpus, APPEAL), D.quote(appeal_quote(corpus)))
    assert D.check_answer(corpus, ans) == []
    assert D.unsupported_numbers(corpus, ans) == set()


def test_check_answer_reads_the_blocks_not_the_rendered_text(corpus):
    ans = answer_of(D.lead("Within 30 days."), D.quote(appeal_quote(corpus)))
    assert D.unsupported_numbers(corpus, ans) == {"30"}
    # The rendered text is not parsed: changing it does not change the check.
    assert D.unsupported_numbers(corpus, ans.model_copy(update={"answer": "Within 15 days."})) == {"30"}


def test_check_answer_uses_the_answers_calculation(corpus):
    ans = answer_of(D.lead("Tier 2: a fine of up to $700."), intent="calculator",
                    calculation={"tier": 2, "fine_max": 700})
    assert D.check_answer(corpus, ans) == []
    assert D.check_answer(corpus, ans.model_copy(update={"calculation": None}))


def test_check_answer_checks_citations_outside_the_blocks(corpus):
    ans = answer_of(D.quote(appeal_quote(corpus)))
    bad = forged(corpus, APPEAL, "within 30 days")
    problems = D.check_answer(corpus, ans.model_copy(update={"citations": [*ans.citations, bad]}))
    assert problems == [f"quote not verbatim in {APPEAL}: 'within 30 days'"]


def test_check_answer_reports_a_problem_once(corpus):
    bad = forged(corpus, APPEAL, "within 30 days")
    problems = D.check_answer(corpus, answer_of(D.quote(bad)))  # in the blocks and in the citations
    assert problems == [f"quote not verbatim in {APPEAL}: 'within 30 days'"]


# --- rendering ---------------------------------------------------------------------------------------

def test_build_drops_missing_blocks_and_keeps_order(corpus):
    draft = D.build(D.lead("First."), None, D.note("Last."))
    assert [b.kind for b in draft.blocks] == ["lead", "note"]


def test_the_lead_comes_first_then_the_law(corpus):
    c = appeal_quote(corpus)
    text = D.render_text(D.build(D.quote(c), D.lead("Within 15 days.")))
    # Blocks render in order; handlers put the lead first, and the lead is never a quote.
    assert text.splitlines()[0].startswith("The law says: \u201cwithin 15 days")
    text = D.render_text(D.build(D.lead("Within 15 days."), D.quote(c)))
    assert text.splitlines() == ["Within 15 days.", f"The law says: \u201c{c.quote}\u201d ({c.citation})"]


def test_a_summary_is_labelled_as_ours(corpus):
    summary = corpus.headnote(APPEAL).summary
    text = D.render_text(D.build(D.summary(corpus, APPEAL), D.quote(appeal_quote(corpus))))
    first = text.splitlines()[0]
    assert first == f"{summary} _(our summary, not the law's words)_"


def test_yes_no_is_joined_with_the_summary(corpus):
    summary = corpus.headnote(APPEAL).summary
    draft = D.build(D.lead("Yes."), D.summary(corpus, APPEAL), D.quote(appeal_quote(corpus)))
    assert D.render_text(draft).splitlines()[0] == f"**Yes.** {summary} _(our summary, not the law's words)_"
    assert D.first_sentence(draft) == f"Yes. {summary}"


def test_a_lead_in_quote_is_joined_before_its_item(corpus):
    intro = q(corpus, EXEMPT)
    item = q(corpus, GRAVES)
    text = D.render_text(D.build(D.lead("Possibly."), D.quote(intro, role="lead-in"), D.quote(item)))
    assert text.splitlines() == ["Possibly.", f"The law says: \u201c{intro.quote}\u201d ({intro.citation}) \u2026 "
                                              f"\u201c{item.quote}\u201d ({item.citation})"]
    # A lead-in is used once: the next quote stands alone.
    text = D.render_text(D.build(D.quote(intro, role="lead-in"), D.quote(item, role="item"), D.quote(item, role="item")))
    assert text.splitlines()[1] == f"- \u201c{item.quote}\u201d ({item.citation})"


def test_also_quotes_are_listed(corpus):
    main, other = appeal_quote(corpus), q(corpus, NOTICE, "The notice of violation shall contain:")
    text = D.render_text(D.build(D.lead("Within 15 days."), D.quote(main), D.quote(other, role="also")))
    assert text.splitlines()[-1] == f"- Also: \u201c{other.quote}\u201d ({other.citation})"


def test_pointer_quotes_say_what_the_text_does_say(corpus):
    c = q(corpus, "tuckahoe:7-14", "be subject to a penalty as prescribed in § 1-7 for each offense")
    text = D.render_text(D.build(D.lead("The fine is set elsewhere."), D.quote(c, role="pointer")))
    assert text.splitlines()[1].startswith("What the text does say: \u201cbe subject to a penalty")


def test_notes_and_offices_come_after_the_answer(corpus):
    draft = D.build(D.offices(["Stormwater Management Officer"], "Ask:"), D.note("Dates depend on service."),
                    D.lead("Within 15 days."), D.quote(appeal_quote(corpus)), D.follow_up("Which notice?"))
    parts = D.render_text(draft).split("\n\n")
    assert parts[0].startswith("Within 15 days.")
    assert parts[1] == "Note: Dates depend on service."
    assert parts[2:] == ["Ask: Stormwater Management Officer.", "Which notice?"]


def test_labels_name_the_municipality_each_block_speaks_for(corpus):
    draft = D.build(D.lead("Within 15 days.", "Town of Hempstead"), D.summary(corpus, APPEAL, "Town of Hempstead"),
                    D.quote(appeal_quote(corpus), label="Town of Hempstead"))
    lines = D.render_text(draft).splitlines()
    assert all(line.startswith("**Town of Hempstead:** ") for line in lines)
    assert D.first_sentence(draft) == "Town of Hempstead: Within 15 days."


def test_offices_without_names_are_dropped(corpus):
    assert D.offices([], "Ask:") is None


@pytest.mark.parametrize("blocks,expected", [
    (lambda c: [D.note("n"), D.lead("The lead."), D.summary(c, APPEAL)], "The lead."),
    (lambda c: [D.text("Some words."), D.summary(c, APPEAL)], "SUMMARY"),
    (lambda c: [D.text("Some words."), D.quote(appeal_quote(c))], "QUOTE"),
    (lambda c: [D.lead("No."), D.text("Not a summary.")], "No."),
    (lambda c: [D.text("Only words.")], ""),
    (lambda c: [], ""),
])
def test_first_sentence(corpus, blocks, expected):
    c = appeal_quote(corpus)
    expected = {"SUMMARY": corpus.headnote(APPEAL).summary,
                "QUOTE": f"\u201c{c.quote}\u201d ({c.citation})"}.get(expected, expected)
    assert D.first_sentence(D.build(*blocks(corpus))) == expected


def test_draft_citations_are_its_quotes_in_order(corpus):
    a, b = appeal_quote(corpus), q(corpus, GRAVES)
    draft = D.build(D.lead("x"), D.quote(b), D.summary(corpus, APPEAL), D.quote(a, role="also"))
    assert draft.citations == [b, a]


def test_a_run_in_heading_is_not_quoted_as_the_rule(corpus):
    from codeassist.compose import Scorer
    text = ("Withholding of approval. " + "If the work was done in violation of this article, the officer may refuse "
            "to approve it and may withhold the certificate until every listed defect is corrected and inspected, "
            "and the applicant shall bear the cost of each further inspection that the officer makes. " * 3)
    quote, _ = Scorer(corpus).passage("withholding of approval", text)
    assert quote.startswith("If the work was done")
