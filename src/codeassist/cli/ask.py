"""`codeassist ask`, `batch` and `compare`: thin edges over Assistant."""

from __future__ import annotations

import json
import sys

from codeassist.errors import CodeassistError


def _assistant():
    from codeassist.api import Assistant

    return Assistant()


def _plain(answer) -> str:
    lines = [answer.answer]
    if answer.follow_up and answer.follow_up not in answer.answer:
        lines.append(f"\n{answer.follow_up}")
    if answer.citations:
        lines.append("\nSources:")
        lines += [f"  [{i}] {c.citation} ({c.id})" for i, c in enumerate(answer.citations, 1)]
    lines.append(f"\n{answer.disclaimer}")
    return "\n".join(lines)


def cmd_ask(args) -> int:
    """Answer one question with verbatim, cited quotes (plain text; --json for the Answer as JSON)."""
    answer = _assistant().ask(args.question, municipality=args.municipality)
    if args.json:
        print(answer.model_dump_json(indent=2))
    else:
        print(_plain(answer))
    return 0


def cmd_batch(args) -> int:
    """Read JSON lines {"id", "question", "municipality"} from FILE ("-" for stdin) and write one JSON
    answer per line, loading the model once. A bad line gets {"id", "error"} and the batch goes on."""
    try:
        stream = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")
    except OSError as exc:
        raise CodeassistError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    assistant = _assistant()
    failures = 0
    with stream:
        for n, raw in enumerate(stream, 1):
            if not raw.strip():
                continue
            item_id = None
            try:
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise CodeassistError(f"line {n} is not valid UTF-8") from None
                try:
                    item = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise CodeassistError(f"line {n} is not valid JSON ({exc.msg})") from None
                except (ValueError, RecursionError):
                    raise CodeassistError(f"line {n} is too deeply nested or holds a number too long to read") from None
                if not isinstance(item, dict) or not isinstance(item.get("question"), str):
                    raise CodeassistError(f"line {n} needs an object with a \"question\" string")
                item_id = item.get("id")
                answer = assistant.ask(item["question"], municipality=item.get("municipality"))
                out = {"id": item_id, **answer.model_dump(mode="json")}
            except CodeassistError as exc:
                failures += 1
                out = {"id": item_id if item_id is not None else n, "error": str(exc)}
            try:
                print(json.dumps(out, ensure_ascii=False), flush=True)
            except UnicodeEncodeError:  # a lone surrogate from a "\ud800" escape: escape everything instead
                print(json.dumps(out, ensure_ascii=True), flush=True)
    return 0 if failures == 0 else 1


def cmd_compare(args) -> int:
    """The municipalities' provisions on a topic side by side; words only one side has are marked
    [-like this-] (first municipality) and {+like this+} (second)."""
    data = _assistant().compare(args.topic)
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    if not data["pairs"]:
        print(f"No provisions on {args.topic!r} were found in both municipalities.")
        return 1
    for pair in data["pairs"]:
        for muni in data["municipalities"]:
            if muni in pair:
                side = pair[muni]
                print(f"== {side['citation']} ({side['heading']})\n{side['marked']}\n")
        if "similarity" in pair:
            print(f"Wording similarity: {pair['similarity']:.0%}")
    return 0
