"""`codeassist search` and `codeassist index`: thin edges over Retriever and Index.

Domain errors (unknown municipality, empty query, unreachable Chroma server) propagate as
CodeassistError; `cli.main` turns them into one-line messages.
"""

from __future__ import annotations

import json
import logging
import sys
import textwrap

SNIPPET_CHARS = 400


def _show_index_progress() -> None:
    """Index builds log what they do; on the command line, say it on stderr (not on stdout)."""
    logger = logging.getLogger("codeassist.index")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("codeassist: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


def cmd_search(args) -> int:
    """Print the provisions that best match a query, best first: plain text, or JSON with --json
    ({"query", "municipality", "hits": [{"id", "municipality", "citation", "heading", "text", "score"}]})."""
    from codeassist.errors import InvalidInput
    from codeassist.retrieval import MAX_K, Retriever

    k = getattr(args, "k", 5)
    if not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise InvalidInput(f"k must be a whole number from 1 to {MAX_K}; got {k!r}")
    query = " ".join(args.query) if isinstance(args.query, list) else args.query
    retriever = Retriever()
    plan = retriever.understand(query, getattr(args, "municipality", None))  # bad input fails before the model loads
    _show_index_progress()
    hits = retriever.search_plan(plan, k)
    if getattr(args, "json", False):
        print(json.dumps({
            "query": plan.query,
            "municipality": plan.municipality,
            "hits": [{"id": h.id, "municipality": h.municipality, "citation": h.citation, "heading": h.heading,
                      "text": h.text, "score": h.score} for h in hits],
        }, indent=2, ensure_ascii=False))
        return 0
    where = {"caller": "", "question": " (named in the question)", "none": ""}[plan.municipality_source]
    if plan.municipality:
        print(f"{retriever.corpus.municipalities[plan.municipality].name}{where}")
    else:
        print("All municipalities (none named; use --municipality to choose one)")
    if not hits:
        print("No matching provisions.")
    for i, h in enumerate(hits, 1):
        print(f"\n{i}. {h.citation}  [{h.id}]  score {h.score:.3f}  ({', '.join(h.retrievers)})")
        print(f"   {h.heading}")
        text = " ".join(h.text.split())
        if len(text) > SNIPPET_CHARS:
            text = text[:SNIPPET_CHARS].rsplit(" ", 1)[0] + " ..."
        print(textwrap.fill(text, width=100, initial_indent="   ", subsequent_indent="   "))
    return 0


def cmd_index(args) -> int:
    """Build the search index if it is missing, stale or damaged (--rebuild: build it anew).
    Shows a progress bar on a terminal; prints what it did."""
    from codeassist.index import Index

    _show_index_progress()
    index = Index()
    status = index.ensure(rebuild=bool(getattr(args, "rebuild", False)))
    if getattr(args, "json", False):
        print(json.dumps(status.model_dump(), indent=2))
        return 0
    verb = {"reused": "is up to date", "built": "built", "rebuilt": "rebuilt"}[status.action]
    print(f"Index {verb}: {status.chunks} chunks of {len(index.corpus.provisions())} provisions, "
          f"{status.backend} Chroma at {status.location}, collection {status.collection}, "
          f"model {status.model} ({status.seconds:.1f} s{'' if status.action == 'reused' else '; ' + status.reason})")
    return 0
