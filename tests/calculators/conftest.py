"""Shared helpers: every citation a calculator emits must resolve to a real provision and quote it verbatim."""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator

import pytest
from pydantic import BaseModel

from codeassist.calculators._refs import Ref
from codeassist.corpus import load_corpus


@pytest.fixture(scope="session")
def corpus():
    return load_corpus()


def cited(obj: Any) -> Iterator[dict]:
    """Every dict in a dumped output that names a provision."""
    if isinstance(obj, BaseModel):
        obj = obj.model_dump(mode="json")
    if isinstance(obj, dict):
        if obj.get("provision_id") or obj.get("item_provision_id"):
            yield obj
        for v in obj.values():
            yield from cited(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from cited(v)


def assert_grounded(output: BaseModel, corpus=None) -> int:
    """Each provision id resolves, its citation is the corpus's, and its quote (or verbatim text) is in it."""
    corpus = corpus or load_corpus()
    n = 0
    for d in cited(output):
        for id_key, cite_key in (("provision_id", "citation"), ("item_provision_id", "item_citation")):
            pid = d.get(id_key)
            if not pid:
                continue
            prov = corpus.get(pid)
            assert prov is not None, f"{pid} is not a provision in the corpus"
            if cite_key in d:
                assert d[cite_key] == prov.citation, (pid, d[cite_key], prov.citation)
        pid = d.get("provision_id")
        if pid:
            words = d.get("quote") or (d.get("text") if "group" in d else None)
            if "quote" in d or "group" in d:
                assert words, f"step on {pid} carries no quote"
                assert corpus.quote_in(pid, words), f"quote not verbatim in {pid}: {words[:80]!r}"
            n += 1
    # Steps without a provision are arithmetic or labelled assumptions: they must not pretend to cite.
    for s in getattr(output, "steps", []):
        if s.provision_id is None:
            assert s.citation is None and s.quote is None
    return n


def table_refs(module: Any) -> Iterator[tuple[str, Ref]]:
    """Every Ref in a module's rule tables (dicts, tuples, dataclasses), with the table's name."""

    def walk(o: Any, seen: set[int]) -> Iterator[Ref]:
        if isinstance(o, Ref):
            yield o
            return
        if id(o) in seen or isinstance(o, (str, bytes, type)):
            return
        seen.add(id(o))
        if isinstance(o, dict):
            for v in o.values():
                yield from walk(v, seen)
        elif isinstance(o, (list, tuple)):
            for v in o:
                yield from walk(v, seen)
        elif dataclasses.is_dataclass(o):
            for f in dataclasses.fields(o):
                yield from walk(getattr(o, f.name), seen)

    for name, value in vars(module).items():
        if name.isupper():
            for ref in walk(value, set()):
                yield name, ref
