"""`codeassist show` and `codeassist sections`, in process and as the installed command."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from codeassist.cli import main

CLI = str(Path(sys.executable).with_name("codeassist"))


def test_show_json_has_children(capsys):
    assert main(["show", "§ 7B-5 (c)", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["id"] == "tuckahoe:7B-5(c)"
    assert out["citation"] == "Tuckahoe Code § 7B-5(c)"
    assert set(out) >= {"id", "municipality", "citation", "heading", "text", "children"}
    assert out["text"].startswith("Routine maintenance activities that disturb fewer than five acres")
    assert main(["show", "391B", "--json"]) == 0
    tree = json.loads(capsys.readouterr().out)
    assert [c["id"] for c in tree["children"]] == ["hempstead:391(B)(1)", "hempstead:391(B)(2)", "hempstead:391(B)(3)"]
    assert len(tree["children"][0]["children"]) == 16


def test_show_plain_text(capsys):
    assert main(["show", "Hempstead, exemptions G"]) == 0
    out = capsys.readouterr().out
    assert "Hempstead BZO Art. XXXVIII, Exemptions, item G" in out and "Cemetery graves." in out


def test_show_unknown_citation_names_nearest_and_fails(capsys):
    assert main(["show", "7B-5(z)"]) != 0
    err = capsys.readouterr().err
    assert "no provision matches '7B-5(z)'" in err and "Tuckahoe Code § 7B-5(a)" in err
    assert "Traceback" not in err


def test_show_with_municipality_option(capsys):
    assert main(["show", "exemptions G", "--municipality", "tuckahoe", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == "tuckahoe:7B-5(g)"
    assert main(["show", "7B-5", "-m", "hempsted"]) != 0
    assert "known: hempstead, tuckahoe" in capsys.readouterr().err


def test_sections_json_and_text(capsys):
    assert main(["sections", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 37
    ex = next(r for r in rows if r["id"] == "hempstead:exemptions")
    assert ex["number"] is None and not ex["number_confirmed"] and "Unconfirmed" in ex["number_note"]
    assert main(["sections", "-m", "tuckahoe"]) == 0
    out = capsys.readouterr().out
    assert "Chapter 7B, Erosion and Sediment Control" in out and "Hempstead" not in out


@pytest.mark.skipif(not Path(CLI).exists(), reason="console script not installed")
def test_console_script_exit_codes():
    ok = subprocess.run([CLI, "show", "392B", "--json"], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and json.loads(ok.stdout)["id"] == "hempstead:392(B)"
    bad = subprocess.run([CLI, "show", "nonsense 999"], capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "no provision matches" in bad.stderr and "Traceback" not in bad.stderr
