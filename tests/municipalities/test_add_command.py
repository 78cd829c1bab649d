"""`codeassist add FOLDER`: a broken copy of the Brindlewood fixture is reported problem by problem, each
with its file and line; the command exits non-zero and never touches the index. The clean fixture and the
real municipalities pass."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codeassist.cli import main
from codeassist.corpus.check import check_folder

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "fixtures" / "brindlewood"
CORPUS = ROOT / "corpus"


def _edit(path: Path, old: str, new: str) -> int:
    """Replace text in a file; the 1-based line where the new text starts."""
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return text[: text.index(new)].count("\n") + 1


@pytest.fixture
def broken(tmp_path) -> tuple[Path, dict[str, tuple[str, int]]]:
    """A copy of the fixture with one problem of each kind; name -> (file, line) where it should be reported."""
    folder = tmp_path / "brindlewood"
    shutil.copytree(FIXTURE, folder)
    where: dict[str, tuple[str, int]] = {}
    text = folder / "chapter-14.txt"
    where["reference"] = (str(text), _edit(text, "(c) Stormwater facilities that are badly designed",
                                           "(c) As § 14-40 provides, stormwater facilities that are badly designed"))
    where["outside"] = (str(text), 1)
    rules = folder / "rules" / "applicability.toml"
    where["quote"] = (str(rules), _edit(rules, 'quote = "Cemetery graves."', 'quote = "Cemetery graves and mausoleums."'))
    where["provision"] = (str(rules), _edit(rules, 'provision = "brindlewood:14-6(h)"', 'provision = "brindlewood:14-6(z)"'))
    penalty = folder / "rules" / "penalty.toml"
    where["value"] = (str(penalty), _edit(penalty, "fine_max = 2500", 'fine_max = "lots"'))
    (folder / "rules" / "deadlines.toml").unlink()
    notes = folder / "headnotes" / "chapter-14.toml"
    where["headnote"] = (str(notes), _edit(notes, 'id = "brindlewood:14-11(c)"', 'id = "brindlewood:14-99"'))
    return folder, where


def test_clean_fixture_and_real_municipalities_have_no_errors():
    for folder in (FIXTURE, CORPUS / "hempstead", CORPUS / "tuckahoe"):
        problems = check_folder(folder, CORPUS)
        assert [str(p) for p in problems if p.severity == "error"] == [], folder


def test_each_problem_names_its_file_and_line(broken):
    folder, where = broken
    problems = check_folder(folder, CORPUS)
    found = {(p.path, p.line): p for p in problems}

    def at(name: str, severity: str, words: str) -> None:
        p = found.get(where[name])
        assert p is not None, (name, where[name], [str(x) for x in problems])
        assert p.severity == severity and words in p.message, str(p)

    at("quote", "error", "quote is not verbatim in brindlewood:14-6(g)")
    at("provision", "error", "brindlewood:14-6(z) is not in the parsed text")
    at("value", "error", "stormwater.tiers.2.fine_max")
    at("headnote", "error", "headnote for unknown provision brindlewood:14-99")
    at("reference", "warning", "'§ 14-40' names no section of this corpus")
    at("outside", "warning", "Chapter 14, STORMWATER MANAGEMENT")
    assert any(p.severity == "note" and "no rules for deadlines" in p.message for p in problems)


def test_parse_failure_is_reported_against_the_ordinance_metadata(tmp_path):
    folder = tmp_path / "brindlewood"
    shutil.copytree(FIXTURE, folder)
    meta = folder / "chapter-14.toml"
    line = _edit(meta, 'starts_with = "§ 14-1. Findings of fact."', 'starts_with = "§ 14-1. Findings of facts."')
    (problem,) = [p for p in check_folder(folder, CORPUS) if p.severity == "error"]
    assert (problem.path, problem.line) == (str(meta), line)
    assert "not found" in problem.message


def test_missing_rules_and_headnotes_are_notes_not_errors(tmp_path):
    folder = tmp_path / "brindlewood"
    shutil.copytree(FIXTURE, folder)
    shutil.rmtree(folder / "rules")
    shutil.rmtree(folder / "headnotes")
    problems = check_folder(folder, CORPUS)
    assert not [p for p in problems if p.severity == "error"]
    notes = " ".join(p.message for p in problems if p.severity == "note")
    assert "no rules: every calculator will say" in notes and "no headnotes" in notes


def test_command_prints_path_line_message_and_exits_non_zero(broken, capsys):
    folder, where = broken
    assert main(["add", str(folder), "--corpus", str(CORPUS)]) == 1
    out = capsys.readouterr().out
    path, line = where["quote"]
    shown = os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
    assert f"{shown}:{line}: error: exemptions.items.cemetery_graves: quote is not verbatim" in out
    assert "error(s)" in out and "not ready" in out
    assert main(["add", str(FIXTURE), "--corpus", str(CORPUS), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and all(p["severity"] != "error" for p in data["problems"])


def test_command_never_touches_the_index(broken, tmp_path):
    folder, _ = broken
    data_dir = tmp_path / "data"
    code = ("import sys; from codeassist.cli import main; rc = main(['add', sys.argv[1]]); "
            "loaded = [m for m in ('codeassist.index', 'chromadb', 'sentence_transformers') if m in sys.modules]; "
            "print('LOADED', loaded); sys.exit(rc)")
    env = {**os.environ, "CODEASSIST_DATA_DIR": str(data_dir), "CODEASSIST_CORPUS_DIR": str(CORPUS),
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 1, run.stderr
    assert "LOADED []" in run.stdout
    assert not data_dir.exists()
