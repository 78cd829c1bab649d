"""Helpers shared by the app tests (a plain module: test files import it by name, not conftest)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from codeassist import draft as D
from codeassist.models import Answer, Citation, Turn

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


def new_app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=120)


def all_markdown(at) -> str:
    """Every Markdown, caption and alert text on the page, joined (what a reader would see, escaped)."""
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for e in (*at.warning, *at.error, *at.info)]
    return "\n".join(parts)


class FakeAssistant:
    """Answers from the real corpus with a fixed citation; raises on demand; records what it was asked."""

    def __init__(self, corpus):
        self.corpus = corpus
        self.calls: list[tuple[str, str | None]] = []

    def ask(self, question, municipality=None, conversation=None):
        self.calls.append((question, municipality))
        if "explode" in question:
            raise RuntimeError("engine failure")
        if question.startswith(("Can ", "Compare ")):
            answer = drafted_answer(self.corpus, question)
            if conversation is not None:
                conversation.turns.append(Turn(question=question, answer=answer))
            return answer
        p = self.corpus.get("tuckahoe:7B-5(c)")
        answer = Answer(
            question=question, intent="retrieval", municipality=municipality or "tuckahoe",
            answer="Routine maintenance may be exempt. A fine can reach $1,000 <b>bold?</b> :red[no]",
            citations=[Citation(id=p.id, municipality=p.municipality, citation=p.citation, heading=p.heading,
                                quote="disturb fewer than five acres")],
            follow_up="How many acres will you disturb?" if "acres" not in question else None,
        )
        if conversation is not None:
            conversation.turns.append(Turn(question=question, answer=answer))
        return answer

    def compare(self, topic):
        return {"topic": topic, "municipalities": ["hempstead", "tuckahoe"], "pairs": [{
            "hempstead": {"id": "hempstead:enforcement(B)", "citation": "Hempstead BZO Art. XXXVIII, Enforcement and penalties, item B",
                          "heading": "Enforcement and penalties > Stop-work orders", "text": "x",
                          "marked": "The [-Town of Hempstead-] may issue a stop-work order"},
            "tuckahoe": {"id": "tuckahoe:7B-8(b)", "citation": "Tuckahoe Code § 7B-8(b)", "heading": "Stop-work orders",
                         "text": "x", "marked": "The {+Village+} may issue a stop-work order"},
            "similarity": 0.81}]}


def cite(corpus, pid: str, quote: str | None = None) -> Citation:
    p = corpus.get(pid)
    return Citation(id=p.id, municipality=p.municipality, citation=p.citation, heading=p.heading,
                    quote=quote or p.text)


def drafted_answer(corpus, question: str) -> Answer:
    """An answer drafted as blocks the way the real handlers draft them: "Can ..." gets a Yes lead, the
    headnote, a list's lead-in and item, an "also" quote, a note and offices; "Compare ..." gets one
    labelled section per municipality."""
    if question.startswith("Compare "):
        blocks = [D.lead("Differences in wording: only one text lets work that secures the site go on.")]
        for pid in ("hempstead:enforcement(B)", "tuckahoe:7B-8(b)"):
            label = corpus.municipalities[corpus.get(pid).municipality].name
            blocks += [D.summary(corpus, pid, label), D.quote(cite(corpus, pid), role="proof")]
        draft = D.build(*blocks)
    else:
        draft = D.build(
            D.lead("Yes."), D.summary(corpus, "tuckahoe:7B-5(c)"),
            D.quote(cite(corpus, "tuckahoe:7B-5"), role="lead-in"),
            D.quote(cite(corpus, "tuckahoe:7B-5(c)", "disturb fewer than five acres"), role="proof"),
            D.quote(cite(corpus, "tuckahoe:7B-4(a)"), role="also"),
            D.note("Exemption is decided case by case."),
            D.offices(["Village Stormwater Management Officer"], "Questions about your site:"))
    assert not D.verify(corpus, draft), D.verify(corpus, draft)
    return Answer(question=question, intent="retrieval" if question.startswith("Can ") else "compare",
                  municipality=None, answer=D.render_text(draft), citations=draft.citations,
                  lead=D.first_sentence(draft), blocks=list(draft.blocks),
                  caveats=["Exemption is decided case by case."])
