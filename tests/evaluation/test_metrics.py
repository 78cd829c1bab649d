"""The eval's pure metric functions on hand-made rankings and texts."""

from __future__ import annotations

import pytest

from codeassist.evaluation import metrics as E


def test_first_relevant_rank():
    assert E.first_relevant_rank([False, False, True, True]) == 3
    assert E.first_relevant_rank([True]) == 1
    assert E.first_relevant_rank([False, False]) is None
    assert E.first_relevant_rank([]) is None


def test_recall_and_mrr_on_hand_made_rankings():
    # Four questions: answer first, third, sixth (beyond k=5), never returned.
    ranks = [1, 3, 6, None]
    assert E.recall_at(ranks, 1) == pytest.approx(0.25)
    assert E.recall_at(ranks, 5) == pytest.approx(0.5)
    assert E.recall_at(ranks, 10) == pytest.approx(0.75)
    assert E.mean_reciprocal_rank(ranks) == pytest.approx((1 + 1 / 3 + 1 / 6 + 0) / 4)
    summary = E.summarize_ranks(ranks)
    assert summary == {"n": 4, "recall@1": 0.25, "recall@5": 0.5, "mrr": pytest.approx((1 + 1 / 3 + 1 / 6) / 4)}
    assert E.recall_at([], 5) == 0.0 and E.mean_reciprocal_rank([]) == 0.0


def test_recall_is_monotone_in_k_and_mrr_bounded():
    ranks = [2, None, 1, 4, 5, 3]
    values = [E.recall_at(ranks, k) for k in range(1, 7)]
    assert values == sorted(values)
    assert E.recall_at(ranks, 1) <= E.mean_reciprocal_rank(ranks) <= E.recall_at(ranks, 5)


def test_percentile_interpolates_like_numpy():
    xs = [10.0, 20.0, 30.0, 40.0]
    assert E.percentile(xs, 50) == pytest.approx(25.0)
    assert E.percentile(xs, 0) == 10.0 and E.percentile(xs, 100) == 40.0
    assert E.percentile(xs, 95) == pytest.approx(38.5)
    assert E.percentile([], 50) == 0.0


def test_wrong_municipality():
    assert E.has_wrong_municipality(["hempstead", "tuckahoe"], "hempstead")
    assert not E.has_wrong_municipality(["hempstead", "hempstead"], "hempstead")
    assert not E.has_wrong_municipality(["hempstead", "tuckahoe"], None)


@pytest.mark.parametrize("fact,text,present", [
    ("five years", "valid for 5 years from issue", True),
    ("5 years", "for a period of five years", True),
    ("twenty-four hours", "within 24 hours of the storm", True),
    ("$1,000", "not more than $1000", True),
    ("Nassau County Police Department", "the nassau  county\npolice department", True),
    ("Reserved", "§ 7-6. (Reserved)", True),
    ("secure the site", "secure  the\u00a0site", True),
    ("March 18", "Last day to appeal: 2026-03-18 (Town of Hempstead).", True),
    ("March 18", "Last day to appeal: 2026-03-19.", False),
    ("Wednesday", "due 2026-12-02", False),          # a weekday is not inferred from a date
    ("one acre", "five acres", False),
    ("$350", "$3500", False),
])
def test_fact_present(fact, text, present):
    assert E.fact_present(fact, text) is present


# --- the lead: what the user reads first -----------------------------------------------------------

def test_lead_text_prefers_the_answers_lead_field():
    assert E.lead_text("Long answer.\nSecond line.", "Yes: a SWPPP is required.") == "Yes: a SWPPP is required."
    assert E.lead_text("**No.** The text exempts it.\n\n> quote") == "No. The text exempts it."
    assert E.lead_text("\n\n## Heading\nbody") == "Heading"
    assert E.lead_text("- first bullet\n- second") == "first bullet"
    assert E.lead_text("", None) == "" and E.lead_text("   \n  ", "  ") == ""


@pytest.mark.parametrize("facts,lead,present", [
    (["48 hours"], "Give the Town forty-eight hours' notice.", True),     # number words == numerals
    (["forty-eight hours"], "at least 48 hours before", True),
    (["$1,000", "one thousand dollars"], "A fine of up to $1000 per violation.", True),
    (["Building Department"], "the building  department reviews it", True),  # case and whitespace
    (["7 days", "weekly"], "Inspections are due every seven days.", True),
    (["5 acres"], "five acres", True),
    (["yes"], "Yes, a permit is required.", True),
    (["yes"], "YES.", True),
    (["no"], "No: the village text does not say.", True),
    (["no"], "The text does not say.", False),                             # "no" is not in "not"
    (["no"], "None of the exemptions apply; see the notice.", False),     # nor in "none" or "notice"
    (["yes"], "As of yesterday the rule applies.", False),
    (["not"], "The ordinance text here does not say.", True),
    (["$350"], "a fee of $3500", False),                                   # whole numbers only
    (["one acre", "1 acre"], "more than one acre", True),
    ([], "anything", False),
])
def test_lead_fact_present(facts, lead, present):
    assert E.lead_fact_present(facts, lead) is present
