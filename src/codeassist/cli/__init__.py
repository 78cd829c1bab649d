"""codeassist: cited answers from New York municipal stormwater, erosion-control and electrical codes.

Every command prints JSON with --json (some by default, as their help says) and plain text for people
otherwise. Domain errors become one-line messages on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Callable

from codeassist.errors import CodeassistError

EXIT_USAGE = 2
EXIT_NOT_FOUND = 3


def _print_json(obj) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))


def cmd_show(args) -> int:
    """Print a provision and its children for a citation written as people write it
    ("7B-5(c)", "§ 7B-5 (c)", "392B", "section 392 subsection B", "Hempstead exemptions G")."""
    from codeassist.corpus import load_corpus
    from codeassist.render import provision_text, provision_tree

    corpus = load_corpus()
    p = corpus.resolve_citation(args.citation, args.municipality)
    if args.json:
        _print_json(provision_tree(corpus, p.id))
    else:
        print(f"{p.citation}  [{p.id}]")
        print(p.heading)
        print()
        print(provision_text(corpus, p.id))
        if p.history:
            print(f"\nHistory: {p.history}")
        for note in p.notes:
            print(f"Note: {note}")
    return 0


def cmd_sections(args) -> int:
    """Print the table of contents of each ordinance (or one municipality's)."""
    from codeassist.corpus import load_corpus

    corpus = load_corpus()
    muni = corpus.check_municipality(args.municipality) if args.municipality else None
    rows = []
    for s in corpus.sections:
        if muni and s.municipality != muni:
            continue
        o = corpus.ordinances[s.ordinance]
        rows.append({
            "id": s.provision_id, "municipality": s.municipality, "ordinance": s.ordinance,
            "ordinance_title": f"{o.division}, {o.title}", "section": s.key, "number": s.number,
            "number_confirmed": s.number_confirmed, "number_note": s.number_note,
            "title": s.title, "citation": s.citation,
            "provisions": 1 + len(corpus.descendants(s.provision_id)),
        })
    if args.json:
        _print_json(rows)
        return 0
    current = None
    for r in rows:
        if r["ordinance"] != current:
            current = r["ordinance"]
            muni_name = corpus.municipalities[r["municipality"]].name
            print(f"\n{muni_name}: {r['ordinance_title']}")
        mark = "" if r["number_confirmed"] else "  (number not confirmed by the text)"
        print(f"  {r['citation']:<60} {r['title']}{mark}")
    return 0


def _lazy(module: str, func: str) -> Callable:
    """A command whose module is imported only when it runs (`ask` must not pay for the eval's imports).
    `module` is relative to this package (".ask") or absolute ("codeassist.evaluation.runner")."""
    def run(args):
        import importlib

        return getattr(importlib.import_module(module, package=__name__), func)(args)
    return run


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="codeassist", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, func: Callable, help_: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, description=(func.__doc__ or help_))
        p.set_defaults(func=func)
        return p

    p = add("show", cmd_show, "print a provision by citation")
    p.add_argument("citation")
    p.add_argument("--municipality", "-m")
    p.add_argument("--json", action="store_true")

    p = add("sections", cmd_sections, "table of contents")
    p.add_argument("--municipality", "-m")
    p.add_argument("--json", action="store_true")

    p = add("search", _lazy(".search", "cmd_search"), "ranked provisions for a query")
    p.add_argument("query")
    p.add_argument("--municipality", "-m")
    p.add_argument("--k", type=int, default=5)
    p.add_argument("--json", action="store_true")

    p = add("index", _lazy(".search", "cmd_index"), "build the search index")
    p.add_argument("--rebuild", action="store_true")

    p = add("calc", _lazy(".calc", "cmd_calc"), "run a calculator")
    p.add_argument("name", nargs="?")
    p.add_argument("--input", help="JSON object of inputs")
    p.add_argument("--list", action="store_true")
    p.add_argument("--ics", help="for deadlines: also write an iCalendar file here")
    p.add_argument("--markdown", action="store_true", help="for swppp_checklist: print Markdown")

    p = add("ask", _lazy(".ask", "cmd_ask"), "ask a question")
    p.add_argument("question")
    p.add_argument("--municipality", "-m")
    p.add_argument("--json", action="store_true")

    p = add("batch", _lazy(".ask", "cmd_batch"), "answer JSON lines from a file")
    p.add_argument("file")

    p = add("compare", _lazy(".ask", "cmd_compare"), "compare municipalities on a topic")
    p.add_argument("topic")
    p.add_argument("--json", action="store_true")

    p = add("add", _lazy(".add", "cmd_add"), "check a new municipality folder before it joins the corpus")
    p.add_argument("folder")
    p.add_argument("--corpus", help="the corpus folder to check it against (default: settings)")
    p.add_argument("--json", action="store_true")

    p = add("eval", _lazy("codeassist.evaluation.runner", "cmd_eval"), "run the retrieval and answer eval")
    p.add_argument("--split", default="all",
                   help="which questions: test (eval/test.jsonl, blind), dev (eval/gold.jsonl), devN "
                        "(eval/devN.jsonl: the later blind splits), or all (default)")
    p.add_argument("--out", default=None, help="folder for REPORT.md and results-<split>.json (default eval/)")
    p.add_argument("--test-file", default=None, help="the test split's questions, if not eval/test.jsonl")
    p.add_argument("--dev-file", default=None, help="the dev split's questions, if not eval/gold.jsonl")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.func(args) or 0)
    except CodeassistError as exc:
        print(f"codeassist: {exc}", file=sys.stderr)
        return EXIT_NOT_FOUND
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0

