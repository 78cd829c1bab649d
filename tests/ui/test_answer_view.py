"""An answer's blocks laid out for the chat: sections per municipality label, lead-ins before the quote
they introduce, quotes from one provision together, expander titles from the citations."""

from __future__ import annotations

from codeassist import draft as D
from codeassist.models import Citation
from codeassist.ui.answer_view import LAW_TITLE, Quoted, expander_title, layout, quoted_md, runs


def cite(corpus, pid: str, quote: str | None = None) -> Citation:
    p = corpus.get(pid)
    return Citation(id=p.id, municipality=p.municipality, citation=p.citation, heading=p.heading, quote=quote or p.text)


def test_a_label_starts_a_section_and_notes_offices_are_answer_wide(corpus):
    blocks = [D.lead("Both may stop work."),
              D.summary(corpus, "hempstead:enforcement(B)", "Town"), D.quote(cite(corpus, "hempstead:enforcement(B)")),
              D.note("A note."),
              D.summary(corpus, "tuckahoe:7B-8(b)", "Village"), D.quote(cite(corpus, "tuckahoe:7B-8(b)")),
              D.offices(["Clerk"], "Ask:")]
    shown = layout(blocks)
    assert [s.label for s in shown.sections] == [None, "Town", "Village"]
    assert [len(s.law) for s in shown.sections] == [0, 1, 1]
    assert shown.notes == ["A note."] and shown.offices == ["Ask: Clerk."]


def test_lead_in_goes_with_the_next_quote_and_roles_sort_quotes(corpus):
    blocks = [D.quote(cite(corpus, "tuckahoe:7B-5"), role="lead-in"),
              D.quote(cite(corpus, "tuckahoe:7B-5(c)"), role="proof"),
              D.quote(cite(corpus, "tuckahoe:7B-4(a)"), role="also"),
              D.quote(cite(corpus, "tuckahoe:7B-4(a)"), role="pointer")]
    (s,) = layout(blocks).sections
    assert s.law[0].intro.id == "tuckahoe:7B-5" and s.law[0].citation.id == "tuckahoe:7B-5(c)"
    assert len(s.also) == 1 and len(s.pointers) == 1
    md = quoted_md([s.law[0]])
    assert md.index("The following activities") < md.index("Routine maintenance")
    assert all(line.startswith("> ") for line in md.splitlines())


def test_a_lead_in_left_alone_is_still_shown(corpus):
    (s,) = layout([D.lead("See the list."), D.quote(cite(corpus, "tuckahoe:7B-5"), role="lead-in")]).sections
    assert [q.citation.id for q in s.law] == ["tuckahoe:7B-5"]


def test_quotes_from_one_provision_share_a_blockquote_and_the_title_is_short(corpus):
    a = cite(corpus, "tuckahoe:7-5(a)(1)", "No permit shall be required for minor repair work, such as")
    b = cite(corpus, "tuckahoe:7-5(a)(1)", "repairing flush or snap switches")
    quoted = [Quoted(cite(corpus, "tuckahoe:7-5(a)")), Quoted(a), Quoted(b), Quoted(cite(corpus, "tuckahoe:7-4"))]
    assert [len(r) for r in runs(quoted)] == [1, 2, 1]
    assert quoted_md(runs(quoted)[1]).count("Tuckahoe Code") == 1
    title = expander_title(LAW_TITLE, quoted)
    assert title == "What the law says \u2014 Tuckahoe Code § 7\\-5\\(a\\), § 7\\-5\\(a\\)\\(1\\) and 1 more"
