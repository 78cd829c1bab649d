"""Index lifecycle with the fake embedder: build, reuse, staleness, damage, locking, unreachable server."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from filelock import FileLock

from codeassist.corpus import Corpus, load_corpus
from codeassist.embedding import HashingEmbedder
from codeassist.errors import IndexUnavailable
from codeassist.index import Index, collection_name

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def edited_corpus(tmp_path):
    """A private copy of the corpus; edit(old, new) changes one phrase of the Hempstead text."""
    root = tmp_path / "corpus"
    shutil.copytree(ROOT / "corpus", root)

    def edit(old: str, new: str):
        path = next((root / "hempstead").glob("*.txt"))
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        return Corpus(root)  # not load_corpus: its cache would hand back the unedited parse

    return root, edit


def build(corpus, settings, embedder=None) -> tuple[Index, object]:
    index = Index(corpus, embedder=embedder or HashingEmbedder(), settings=settings)
    return index, index.ensure()


def test_builds_then_reuses_without_embedding_again(corpus, backend, settings_for):
    settings = settings_for(backend)
    first, status = build(corpus, settings)
    assert status.action == "built" and status.chunks == len(first.chunks) > len(corpus.provisions()) * 0.9
    first.close()
    embedder = HashingEmbedder()
    second, status = build(corpus, settings, embedder)
    assert status.action == "reused"
    assert embedder.calls == 0
    assert second.store.info(second.collection).metadata["complete"] is True


def test_collection_name_is_keyed_by_what_the_index_derives_from(corpus, settings_for):
    base = Index(corpus, embedder=HashingEmbedder(), settings=settings_for("embedded"))
    other_model = Index(corpus, embedder=HashingEmbedder(name="other"), settings=settings_for("embedded"))
    other_chunks = Index(corpus, embedder=HashingEmbedder(), settings=settings_for("embedded", chunk_max_words=120))
    names = {base.collection, other_model.collection, other_chunks.collection}
    assert len(names) == 3
    assert all(n.startswith(collection_name(base.settings.collection_prefix, "")) for n in names)


def test_stale_index_is_rebuilt_when_corpus_text_changes(corpus, edited_corpus, backend, settings_for, caplog):
    root, edit = edited_corpus
    settings = settings_for(backend)
    old, _ = build(Corpus(root), settings)
    changed = edit("0.5 inch of precipitation", "0.75 inch of precipitation")
    assert changed.fingerprint() != load_corpus(ROOT / "corpus").fingerprint()
    with caplog.at_level(logging.WARNING, logger="codeassist.index"):
        new, status = build(changed, settings)
    assert status.action == "rebuilt" and status.reason.startswith("stale")
    assert new.collection != old.collection
    assert "stale" in caplog.text
    names = new.store.collection_names()
    assert new.collection in names and old.collection not in names  # never served again
    # and the rebuilt index has the new text
    hit = new.lexical("0.75 inch precipitation storm event", 1, "hempstead", ("text",))
    assert "0.75 inch" in hit[0][0].text


def test_stale_index_is_rebuilt_when_the_model_changes(corpus, backend, settings_for):
    settings = settings_for(backend)
    build(corpus, settings)
    _, status = build(corpus, settings, HashingEmbedder(name="another-model"))
    assert status.action == "rebuilt"


def test_rebuild_on_request(corpus, backend, settings_for):
    settings = settings_for(backend)
    build(corpus, settings)
    index = Index(corpus, embedder=HashingEmbedder(), settings=settings)
    status = index.ensure(rebuild=True)
    assert (status.action, status.reason) == ("rebuilt", "rebuild requested")
    assert index.store.info(index.collection).count == len(index.chunks)


def test_unfinished_build_is_rebuilt(corpus, backend, settings_for, caplog):
    settings = settings_for(backend)
    index, _ = build(corpus, settings)
    meta = index.store.info(index.collection).metadata
    index.store.update_metadata(index.collection, {**meta, "complete": False})
    with caplog.at_level(logging.WARNING, logger="codeassist.index"):
        _, status = build(corpus, settings)
    assert status.action == "rebuilt" and "did not finish" in caplog.text


def test_vectors_failing_the_self_check_are_rebuilt(corpus, settings_for, monkeypatch, caplog):
    settings = settings_for("embedded")
    index, _ = build(corpus, settings)
    index.close()
    index = Index(corpus, embedder=HashingEmbedder(), settings=settings)
    monkeypatch.setattr(type(index.store), "query", lambda self, name, vec, k, where=None: [("nope", 0.0)])
    with caplog.at_level(logging.WARNING, logger="codeassist.index"):
        assert index._problem() == "its vectors failed a self-check"
    assert "self-check" in caplog.text


# --- damage on disk (embedded only: a server's storage is the server's business) ---------------------

def _damage(index: Index, how: str) -> None:
    path = Path(index.location)
    index.close()
    sqlite = path / "chroma.sqlite3"
    if how == "garbage":
        with open(sqlite, "r+b") as f:
            f.write(os.urandom(8192))
    elif how == "truncated":
        os.truncate(sqlite, 4096)
    elif how == "empty":
        sqlite.write_bytes(b"")
    elif how == "missing":
        shutil.rmtree(path)
    elif how == "a-file":
        shutil.rmtree(path)
        path.write_text("not a directory")
    else:
        raise ValueError(how)


@pytest.mark.parametrize("how", ["garbage", "truncated", "empty", "missing", "a-file"])
def test_damaged_or_missing_directory_is_rebuilt_with_a_message(corpus, settings_for, caplog, how):
    settings = settings_for("embedded")
    index, _ = build(corpus, settings)
    _damage(index, how)
    with caplog.at_level(logging.WARNING, logger="codeassist.index"):
        index, status = build(corpus, settings)
    assert status.action == "rebuilt"
    assert caplog.records, "a rebuild after damage must say why"
    assert any(w in caplog.text for w in ("unreadable", "missing", "not usable", "failed"))
    # the rebuilt index answers queries
    vec = index.embedder.embed_query("stormwater pollution prevention plan")
    assert len(index.dense(vec, 3, "hempstead")) == 3


def test_damaged_manifest_file_does_not_matter(corpus, settings_for):
    settings = settings_for("embedded")
    index, _ = build(corpus, settings)
    index.manifest_path.write_text("{ not json")
    index.close()
    _, status = build(corpus, settings)
    assert status.action == "reused"  # the authoritative manifest is the collection's metadata


# --- concurrency and faults --------------------------------------------------------------------------

SLOW_BUILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from codeassist.embedding import HashingEmbedder
    from codeassist.index import Index
    from codeassist.settings import Settings

    class Slow(HashingEmbedder):
        def embed_documents(self, texts):
            time.sleep(0.2)
            return super().embed_documents(texts)

    settings = Settings(data_dir=Path(sys.argv[1]), collection_prefix=sys.argv[2], embedding_batch_size=64)
    status = Index(embedder=Slow(), settings=settings).ensure()
    print(status.action, "|", status.reason, flush=True)
""")


def test_two_processes_do_not_build_at_once(tmp_path, settings_for):
    settings = settings_for("embedded")
    script = tmp_path / "build.py"
    script.write_text(SLOW_BUILD)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    procs = [subprocess.Popen([sys.executable, str(script), str(settings.data_dir), settings.collection_prefix],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for _ in range(2)]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [e for _, e in outputs]
    actions = sorted(out.strip().split(" | ")[0] for out, _ in outputs)
    assert actions == ["built", "reused"], outputs
    assert any("built by another process" in out for out, _ in outputs)
    assert any("another process is building" in err for _, err in outputs)


def test_a_held_build_lock_times_out_with_a_clear_error(corpus, settings_for):
    settings = settings_for("embedded", index_lock_timeout_s=0.3)
    lock_path = Path(settings.data_dir) / "index" / "build.lock"
    lock_path.parent.mkdir(parents=True)
    with FileLock(str(lock_path)):
        index = Index(corpus, embedder=HashingEmbedder(), settings=settings)
        with pytest.raises(IndexUnavailable, match="build lock"):
            index.ensure()


def test_unreachable_server_fails_fast_with_advice(corpus, tmp_path):
    from codeassist.settings import Settings

    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = Settings(data_dir=tmp_path, chroma_url=f"http://127.0.0.1:{port}", chroma_timeout_s=2)
    index = Index(corpus, embedder=HashingEmbedder(), settings=settings)
    t0 = time.monotonic()
    with pytest.raises(IndexUnavailable, match="not reachable.*chroma run"):
        index.ensure()
    assert time.monotonic() - t0 < 10


def test_malformed_server_url_is_a_clear_error(corpus, tmp_path):
    from codeassist.settings import Settings

    index = Index(corpus, embedder=HashingEmbedder(), settings=Settings(data_dir=tmp_path, chroma_url="http://"))
    with pytest.raises(IndexUnavailable, match="not a URL"):
        index.ensure()


def test_unwritable_data_dir_is_a_clear_error(corpus, tmp_path):
    from codeassist.settings import Settings

    blocker = tmp_path / "file"
    blocker.write_text("x")
    index = Index(corpus, embedder=HashingEmbedder(), settings=Settings(data_dir=blocker / "data"))
    with pytest.raises(IndexUnavailable):
        index.ensure()


def test_each_chunk_is_stored_with_its_provision_municipality_and_view(corpus, settings_for):
    index, _ = build(corpus, settings_for("embedded"))
    got = index.store._get(index.collection).get(ids=[c.id for c in index.chunks[:40]], include=["metadatas"])
    for cid, meta in zip(got["ids"], got["metadatas"]):
        c = index.chunk_by_id[cid]
        assert meta == {"provision_id": c.provision_id, "municipality": c.municipality, "view": c.view}
    assert {c.view for c in index.chunks} >= {"text", "heading", "summary", "questions", "question"}


@pytest.mark.parametrize("municipality, views", [("hempstead", None), ("tuckahoe", None), (None, ("text",)),
                                                 ("tuckahoe", ("text", "questions")), (None, None)])
def test_filtered_vector_search_equals_the_stores_filtered_query(corpus, settings_for, municipality, views, monkeypatch):
    """The Chroma path of `Index.dense` (an index too large to hold in memory; tests/index/test_exact_search.py
    covers the exact search that serves smaller ones)."""
    monkeypatch.setattr("codeassist.index.EXACT_SEARCH_MAX_CHUNKS", 0)
    index, _ = build(corpus, settings_for("embedded"))
    where = [{"municipality": municipality}] if municipality else []
    if views:
        where.append({"view": {"$in": list(views)}})
    where = where[0] if len(where) == 1 else {"$and": where} if where else None
    n = sum(1 for c in index.chunks if municipality in (None, c.municipality) and (not views or c.view in views))
    for question in ["stop-work order", "who may sign the plan", "electrical permit fees"]:
        vec = index.embedder.embed_query(question)
        for k in (5, 60, n):
            got = index.dense(vec, k, municipality, views)
            want = index.store.query(index.collection, vec, k, where)
            # Same distances in the same order; the same ids, but for order among ties and which of a tie
            # at the cut made it in (the fake embedder gives many chunks the same distance).
            assert [1 - s for _, s in got] == pytest.approx([d for _, d in want], abs=1e-5), (question, k)
            last = want[-1][1] if want else 0
            assert ({c.id for c, s in got if 1 - s < last - 1e-5} == {i for i, d in want if d < last - 1e-5}), (question, k)
            assert all(municipality in (None, c.municipality) and (not views or c.view in views) for c, _ in got)


def test_bm25_searches_only_the_views_asked_for(corpus, settings_for):
    index = Index(corpus, embedder=HashingEmbedder(), settings=settings_for("embedded"))
    hits = index.lexical("who can prepare the stormwater pollution prevention plan", 50, "hempstead", ("questions",))
    assert hits and {c.view for c, _ in hits} == {"questions"}
    assert {c.view for c, _ in index.lexical("stormwater plan", 200, "hempstead")} > {"text", "questions"}
