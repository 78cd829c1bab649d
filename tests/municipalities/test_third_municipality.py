"""A third municipality added as data alone: the made-up Village of Brindlewood (tests/municipalities/
fixtures/brindlewood: its text, municipality.toml, ordinance TOML, rules/*.toml and headnotes), dropped
into a copy of corpus/. With no Python change it parses, answers cited questions, runs the calculators
on its own numbers (a one-half-acre threshold, three-year penalty window, daily violations), appears in
Browse and Compare, and never bleeds into Hempstead or Tuckahoe answers."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from codeassist.api import Assistant
from codeassist.calculators import CALCULATORS
from codeassist.compare import compare
from codeassist.corpus import load_corpus
from codeassist.models import Hit
from fakes import PlanSearch
from codeassist.settings import Settings, get_settings
from codeassist.text import content_stems

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "fixtures" / "brindlewood"
NEW = "brindlewood"


def make_corpus_dir(dest: Path, fixture: Path = FIXTURE) -> Path:
    """A corpus folder: every municipality of corpus/, plus the fixture's folder."""
    dest.mkdir(parents=True, exist_ok=True)
    for folder in (ROOT / "corpus").iterdir():
        if folder.is_dir():
            shutil.copytree(folder, dest / folder.name)
    shutil.copytree(fixture, dest / fixture.name)
    return dest


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory) -> Path:
    return make_corpus_dir(tmp_path_factory.mktemp("corpus3") / "corpus")


@pytest.fixture(scope="module")
def corpus3(corpus_dir):
    return load_corpus(corpus_dir)


class LexicalBackend(PlanSearch):
    """A deterministic stand-in for the hybrid retriever: word overlap, per municipality as asked (the
    real index is built in test_real_index_answers_and_keeps_municipalities_apart)."""

    def __init__(self, corpus):
        self.corpus = corpus

    def search(self, query: str, municipality: str | None = None, k: int = 5) -> list[Hit]:
        q = set(content_stems(query))
        scored = []
        for p in self.corpus.provisions(municipality):
            overlap = len(q & set(content_stems(p.text + " " + p.heading)))
            if overlap:
                scored.append((overlap / (1 + len(q)), p))
        scored.sort(key=lambda x: -x[0])
        return [Hit(id=p.id, municipality=p.municipality, citation=p.citation, heading=p.heading, text=p.text,
                    score=s, retrievers=("bm25",)) for s, p in scored[:k]]


@pytest.fixture(scope="module")
def assistant(corpus3, corpus_dir, tmp_path_factory):
    settings = Settings(corpus_dir=corpus_dir, data_dir=tmp_path_factory.mktemp("data3"))
    return Assistant(corpus=corpus3, settings=settings, retriever=LexicalBackend(corpus3))


def ids(answer) -> set[str]:
    return {c.id.split(":")[0] for c in answer.citations}


# --- parsing -------------------------------------------------------------------------------------------

def test_the_fixture_parses_beside_the_real_corpus(corpus3):
    assert set(corpus3.municipalities) >= {"hempstead", "tuckahoe", NEW}
    provs = corpus3.provisions(NEW)
    assert len(provs) > 60
    assert [s.number for s in corpus3.sections if s.municipality == NEW] == [f"14-{i}" for i in range(1, 13)]
    src = (FIXTURE / "chapter-14.txt").read_text(encoding="utf-8")
    for p in provs:  # every provision is an exact slice of the text
        assert src[p.start:p.end] == p.text
    assert corpus3.get("brindlewood:14-9(a)(1)(f)").text == "Completion of final landscaping."
    assert corpus3.definitions(NEW)["land development activity"] == "brindlewood:14-4(a)"
    assert corpus3.rules[NEW].applicability.land_development.acres == 0.5
    assert corpus3.headnote("brindlewood:14-11(c)") is not None


def test_the_real_corpus_is_unchanged(corpus3):
    base = load_corpus()
    assert NEW not in base.municipalities
    for muni in ("hempstead", "tuckahoe"):
        assert [p.id for p in corpus3.provisions(muni)] == [p.id for p in base.provisions(muni)]
        assert corpus3.rules[muni] == base.rules[muni].model_copy(update={"files": corpus3.rules[muni].files})


# --- cited answers -------------------------------------------------------------------------------------

def test_definition_is_the_villages(assistant):
    a = assistant.ask("What does land development activity mean in Brindlewood?")
    assert a.intent == "definition" and ids(a) == {NEW}
    assert "one-half acre" in a.answer


def test_lookup_by_section_number(assistant):
    a = assistant.ask("What does § 14-6 say in Brindlewood?")
    assert a.intent == "lookup" and ids(a) == {NEW}
    assert "Cemetery graves." in a.answer


def test_retrieval_answer_quotes_the_village(assistant):
    a = assistant.ask("Are cemetery graves exempt in Brindlewood?")
    assert not a.abstained and ids(a) == {NEW}
    assert "brindlewood:14-6(g)" in {c.id for c in a.citations}
    assert "Stormwater Management Officer, Village of Brindlewood" in a.offices


def test_gap_from_metadata(assistant):
    a = assistant.ask("How much are the fees in Brindlewood?")
    assert a.abstained and "prevailing rates" in a.answer


# --- calculators on the village's own numbers ----------------------------------------------------------

@pytest.mark.parametrize(("acres", "lda", "swppp", "conditions"), [
    (0.49, "no", "no", []),
    (0.5, "yes", "yes", ["C"]),
    (2.9, "yes", "yes", ["C"]),
    (3.0, "yes", "yes", ["B"]),
])
def test_applicability_half_acre_threshold_both_sides(corpus3, acres, lda, swppp, conditions):
    out = CALCULATORS["applicability"].run_dict({"municipality": NEW, "disturbed_acres": acres}, corpus=corpus3)
    assert (out.land_development_activity, out.swppp_required, out.conditions) == (lda, swppp, conditions)
    assert all(s.provision_id is None or s.provision_id.startswith(NEW + ":") for s in out.steps)
    for s in out.steps:
        if s.provision_id:
            assert corpus3.quote_in(s.provision_id, s.quote)


def test_applicability_through_the_assistant(assistant):
    yes = assistant.ask("Do I need a SWPPP for 0.6 acres in Brindlewood?")
    no = assistant.ask("Do I need a SWPPP for 0.4 acres in Brindlewood?")
    assert yes.calculator == "applicability" and yes.calculation["swppp_required"] == "yes"
    assert no.calculation["swppp_required"] == "no"
    assert ids(yes) == ids(no) == {NEW}
    assert yes.answer.startswith("Yes: a SWPPP is required (Village of Brindlewood, 0.6 acres disturbed)")
    # The same project in Hempstead (one-acre threshold) is not a land development activity.
    h = assistant.ask("Do I need a SWPPP for 0.6 acres in Hempstead?")
    assert h.calculation["swppp_required"] == "no" and ids(h) == {"hempstead"}


def test_penalty_three_year_window_and_daily_count(corpus3):
    run = CALCULATORS["penalty"].run_dict
    second = run({"municipality": NEW, "chapter": "stormwater", "offense_date": "2025-06-01",
                  "prior_conviction_dates": ["2022-06-01"], "continuing_days": 3}, corpus=corpus3)
    assert (second.tier, second.fine_min, second.fine_max) == (2, 500, 1000)
    assert second.separate_violations.count == 4 and second.separate_violations.unit == "day"
    first = run({"municipality": NEW, "chapter": "stormwater", "offense_date": "2025-06-01",
                 "prior_conviction_dates": ["2022-05-31"]}, corpus=corpus3)
    assert (first.tier, first.fine_max) == (1, 500)  # three years and a day earlier does not count
    third = run({"municipality": NEW, "chapter": "stormwater", "offense_date": "2025-06-01",
                 "prior_conviction_dates": ["2023-01-01", "2024-01-01"]}, corpus=corpus3)
    assert (third.tier, third.fine_min, third.fine_max, third.max_imprisonment_months) == (3, 1000, 2500, 3)
    none = run({"municipality": NEW, "chapter": "electrical", "offense_date": "2025-06-01"}, corpus=corpus3)
    assert none.status == "not_in_corpus"


def test_penalty_through_the_assistant(assistant):
    a = assistant.ask("What is the fine for a second offense within 2 years in Brindlewood?")
    assert a.calculator == "penalty" and a.calculation["tier"] == 2 and ids(a) == {NEW}
    assert "$500 to $1,000" in a.answer


def test_deadlines_and_checklist_follow_the_village(corpus3):
    out = CALCULATORS["deadlines"].run_dict({"municipality": NEW, "violation_notice_served": "2025-03-03",
                                             "milestones": [{"name": "Start of construction", "date": "2025-04-10"}]},
                                            corpus=corpus3)
    due = {o.kind: o for o in out.obligations}
    assert str(due["appeal_deadline"].due) == "2025-03-13"  # 10 days
    assert str(due["milestone_notice"].due) == "2025-04-07"  # 72 hours
    chk = CALCULATORS["swppp_checklist"].run_dict({"municipality": NEW, "disturbed_acres": 1}, corpus=corpus3)
    assert chk.status == "computed" and len(chk.items) == 10
    assert all(i.provision_id.startswith(NEW + ":") for i in chk.items)


# --- Browse and Compare --------------------------------------------------------------------------------

@pytest.fixture
def app_over(corpus_dir, monkeypatch):
    """The real app, reading the three-municipality corpus through CODEASSIST_CORPUS_DIR."""
    sys.path.insert(0, str(ROOT / "tests" / "app"))
    from apphelpers import new_app

    from codeassist.ui import resources

    monkeypatch.setenv("CODEASSIST_CORPUS_DIR", str(corpus_dir))
    get_settings.cache_clear()
    resources.get_corpus.clear()
    yield new_app
    monkeypatch.delenv("CODEASSIST_CORPUS_DIR")
    get_settings.cache_clear()
    resources.get_corpus.clear()
    sys.path.remove(str(ROOT / "tests" / "app"))


def _page_text(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    return "\n".join(parts + [e.value for e in (*at.warning, *at.error, *at.info)])


def test_browse_opens_a_village_provision(app_over):
    at = app_over()
    at.query_params["cite"] = "brindlewood:14-6(g)"
    at.run()
    assert not at.exception
    assert at.radio(key="browse-ordinance").value == "brindlewood-ch14"
    assert at.radio(key="browse-section").value == "brindlewood:14-6"
    text = _page_text(at)
    assert "Cemetery graves" in text and "Brindlewood Code" in text


def test_compare_lines_up_all_three(corpus3, assistant, app_over, monkeypatch):
    data = compare(corpus3, LexicalBackend(corpus3), assistant.planner.build("stop-work orders"))
    assert data["municipalities"] == ["brindlewood", "hempstead", "tuckahoe"]
    assert data["pairs"][0]["brindlewood"]["id"].startswith("brindlewood:14-")
    two = compare(corpus3, LexicalBackend(corpus3), assistant.planner.build("stop-work orders in Hempstead and Tuckahoe"))
    assert two["municipalities"] == ["hempstead", "tuckahoe"]
    answer = assistant.ask("Compare stop-work orders in Hempstead and Tuckahoe")
    assert answer.intent == "compare" and ids(answer) == {"hempstead", "tuckahoe"}
    from codeassist.compare import answer_compare

    three = answer_compare(corpus3, LexicalBackend(corpus3), assistant.planner.build("stop-work orders"))
    assert three.intent == "compare" and ids(three) == {"brindlewood", "hempstead", "tuckahoe"}
    assert "Village of Brindlewood" in {b.label for b in three.blocks}

    from codeassist.ui import resources

    monkeypatch.setattr(resources, "get_assistant", lambda: assistant)
    at = app_over().run()
    at.switch_page("src/codeassist/ui/pages/compare.py").run()
    at.text_input(key="compare-topic").input("stop-work orders")
    at.button(key="FormSubmitter:compare-form-Compare").click().run()
    assert not at.exception
    text = _page_text(at)
    assert "Village of Brindlewood" in text and "Brindlewood Code" in text


# --- no bleeding ---------------------------------------------------------------------------------------

NAMED = [
    ("hempstead", "Are cemetery graves exempt in Hempstead?"),
    ("tuckahoe", "Are cemetery graves exempt in Tuckahoe?"),
    ("hempstead", "What does land development activity mean in the Town of Hempstead?"),
    ("hempstead", "Do I need a SWPPP for 0.6 acres in Hempstead?"),
    ("tuckahoe", "Do I need a SWPPP for 2 acres in Tuckahoe?"),
    ("hempstead", "What is the fine for a third offense within 4 years in Hempstead?"),
    ("tuckahoe", "What is the fine for a second stormwater offense in Tuckahoe?"),
    ("tuckahoe", "Who can stop work on a site in Tuckahoe?"),
    ("hempstead", "When is the appeal of a notice of violation due in Hempstead if it was served 2025-03-03?"),
    ("tuckahoe", "Do I need a permit to replace fuses in Tuckahoe?"),
]


@pytest.mark.parametrize(("muni", "question"), NAMED)
def test_questions_naming_a_municipality_cite_only_it(assistant, muni, question):
    a = assistant.ask(question)
    assert ids(a) <= {muni}, (question, [c.id for c in a.citations])
    assert "Brindlewood" not in a.answer


def test_a_generic_alias_does_not_pull_in_another_village(assistant):
    a = assistant.ask("When must I notify the village before grading in Brindlewood?")
    assert ids(a) == {NEW}, [c.id for c in a.citations]


def test_no_module_under_src_names_the_fixture():
    hits = [str(p.relative_to(ROOT)) for p in (ROOT / "src").rglob("*") if p.is_file() and p.suffix in {".py", ".toml", ".txt", ".md"}
            and re.search(NEW, p.read_text(encoding="utf-8", errors="replace"), re.I)]
    assert hits == []


@pytest.mark.slow
def test_real_index_answers_and_keeps_municipalities_apart(corpus3, corpus_dir, tmp_path):
    """A real index (embedding model + Chroma) in a temporary data folder over the three municipalities."""
    settings = Settings(corpus_dir=corpus_dir, data_dir=tmp_path / "data")
    real = Assistant(corpus=corpus3, settings=settings)
    a = real.ask("Are cemetery graves exempt in Brindlewood?")
    assert not a.abstained and ids(a) == {NEW}
    assert "brindlewood:14-6(g)" in {c.id for c in a.citations}
    b = real.ask("How often must inspection reports be completed in Brindlewood?")
    assert ids(b) == {NEW} and "every five days" in b.answer
    for muni, q in NAMED[:2] + NAMED[7:8]:
        assert ids(real.ask(q)) <= {muni}, q
    assert os.path.isdir(tmp_path / "data")


# --- rules validated at load ---------------------------------------------------------------------------

def test_a_rules_file_that_does_not_validate_names_its_file_and_key(tmp_path):
    from codeassist.corpus import Corpus
    from codeassist.errors import CorpusError

    root = make_corpus_dir(tmp_path / "corpus")
    path = root / NEW / "rules" / "penalty.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("fine_max = 2500", 'fine_max = "lots"'), encoding="utf-8")
    with pytest.raises(CorpusError) as exc:
        Corpus(root)
    assert str(path) in str(exc.value) and "stormwater.tiers.2.fine_max" in str(exc.value)


def test_a_gap_yielding_to_an_unknown_provision_stops_the_load(tmp_path):
    from codeassist.corpus import Corpus
    from codeassist.errors import CorpusError

    root = make_corpus_dir(tmp_path / "corpus")
    path = root / NEW / "chapter-14.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('pointer = "brindlewood:14-12"',
                                                             'yields_to = ["brindlewood:99-1"]\npointer = "brindlewood:14-12"'),
                    encoding="utf-8")
    with pytest.raises(CorpusError, match="yields_to brindlewood:99-1"):
        Corpus(root)


def test_an_amended_text_switches_off_the_rules_it_no_longer_has(tmp_path):
    from codeassist.corpus import Corpus

    root = make_corpus_dir(tmp_path / "corpus")
    text = root / NEW / "chapter-14.txt"
    text.write_text(text.read_text(encoding="utf-8").replace("greater than one-half acre", "greater than one acre"),
                    encoding="utf-8")
    amended = Corpus(root)
    assert amended.rules[NEW].applicability is None and amended.rules[NEW].penalty is not None
    assert any("applicability.toml" in p and "brindlewood:14-4(a)" in p for p in amended.rule_problems)
    out = CALCULATORS["applicability"].run_dict({"municipality": NEW, "disturbed_acres": 1}, corpus=amended)
    assert out.swppp_required == "unknown" and "does not set when its stormwater law applies" in out.caveats[0]
