"""`codeassist search` and `codeassist index`, in process, with the fast fake embedder."""

from __future__ import annotations

import json

import pytest

import codeassist.embedding
from codeassist.cli import main
from codeassist.embedding import HashingEmbedder
from codeassist.settings import get_settings


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("CODEASSIST_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("CODEASSIST_CHROMA_URL", raising=False)
    monkeypatch.setattr(codeassist.embedding, "default_embedder", lambda: HashingEmbedder())
    get_settings.cache_clear()
    yield tmp_path / "data"
    get_settings.cache_clear()


def test_index_builds_then_reports_up_to_date(isolated, capsys):
    assert main(["index"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Index built:") and "embedded Chroma" in out
    assert "building index" in err  # progress goes to stderr, never stdout
    assert (isolated / "index" / "manifest.json").exists()
    assert main(["index"]) == 0
    assert capsys.readouterr().out.startswith("Index is up to date:")
    assert main(["index", "--rebuild"]) == 0
    assert capsys.readouterr().out.startswith("Index rebuilt:")


def test_search_json_has_the_documented_shape(isolated, capsys):
    assert main(["search", "stop-work order in the Village", "--k", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"query", "municipality", "hits"}
    assert data["query"] == "stop-work order in the Village" and data["municipality"] == "tuckahoe"
    assert 1 <= len(data["hits"]) <= 3
    for hit in data["hits"]:
        assert set(hit) == {"id", "municipality", "citation", "heading", "text", "score"}
        assert hit["municipality"] == "tuckahoe"


def test_search_plain_text(isolated, capsys):
    assert main(["search", "what is in 7B-6(c)?"]) == 0
    out = capsys.readouterr().out
    assert "1. Tuckahoe Code § 7B-6(c)  [tuckahoe:7B-6(c)]  score 1.000  (citation)" in out


def test_search_errors_are_one_line_messages(isolated, capsys):
    assert main(["search", "fees", "--municipality", "hempsted"]) != 0
    err = capsys.readouterr().err
    assert "unknown municipality 'hempsted'; known: hempstead, tuckahoe" in err and "Traceback" not in err
    assert main(["search", "   "]) != 0
    assert "Please type" in capsys.readouterr().err
