"""Load: 20 conversations at once, 1,000 questions in all, through one Assistant with the real retriever
(the model, embedded Chroma, BM25), from 20 threads. No errors, no answer lands in another conversation
(each conversation's figures are its own, so a crossed follow-up shows), memory roughly flat."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from codeassist.api import Assistant
from codeassist.models import Conversation

from .conftest import ROOT, record

pytestmark = pytest.mark.slow

CONVERSATIONS = 20
PER_CONVERSATION = 50  # 20 x 50 = 1,000 questions


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _gold_questions() -> list[dict]:
    rows = [json.loads(x) for x in (ROOT / "eval" / "gold.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    return [r for r in rows if r["category"] != "compare"]  # compare searches every municipality several times


def script(c: int, gold: list[dict]) -> list[tuple[str, str | None, dict]]:
    """(question, municipality, what the answer must show) x PER_CONVERSATION for conversation c.
    Areas are unique to the conversation (c + 1 + turn/1000 acres), so a follow-up answered from another
    conversation's state would carry another conversation's area. Two in five questions are gold
    questions (most of them retrieval), with a per-conversation wording so few repeat exactly."""
    out: list[tuple[str, str | None, dict]] = []
    tails = ["", " please", " - thanks", " (asking for a client)", " quick question", "?"]
    turn = 0
    while len(out) < PER_CONVERSATION:
        acres = round(c + 1 + turn / 1000, 3)
        other = round(c + 1 + (turn + 500) / 1000, 3)
        out.append((f"Do I need a SWPPP for {acres} acres in Hempstead?", None,
                    {"calculator": "applicability", "acres": acres, "municipality": "hempstead"}))
        out.append(("What about in Tuckahoe?", None, {"acres": acres, "municipality": "tuckahoe"}))
        out.append((f"and if it's {other} acres?", None, {"acres": other}))
        for j in range(2):
            g = gold[(c * 20 + turn * 2 + j) % len(gold)]
            q = g["question"].rstrip() + tails[(c + turn) % len(tails)]
            out.append((q, g.get("municipality"), {"question": q}))
        turn += 1
    return out[:PER_CONVERSATION]


def test_twenty_conversations_thousand_questions():
    assistant = Assistant()
    assistant.warm_up()
    gold = _gold_questions()
    for q in gold[:20]:  # warm the per-municipality BM25 tables and the code paths
        assistant.ask(q["question"], municipality=q.get("municipality"))
    rss_before = _rss_mb()
    errors: list[str] = []
    crossed: list[str] = []
    latencies: list[float] = []
    done = {"n": 0}
    rss_samples: list[tuple[int, float]] = []
    lock = threading.Lock()

    def run(c: int) -> Conversation:
        conv = Conversation(id=f"conv-{c}")
        asked = 0
        for q, muni, want in script(c, gold):
            t0 = time.perf_counter()
            try:
                ans = assistant.ask(q, municipality=muni, conversation=conv)
            except Exception as exc:  # noqa: BLE001 - counted, then asserted on
                with lock:
                    errors.append(f"conv {c}: {q[:50]!r}: {type(exc).__name__}: {exc}")
                continue
            finally:
                with lock:
                    latencies.append((time.perf_counter() - t0) * 1000)
                    done["n"] += 1
                    if done["n"] % 100 == 0:
                        rss_samples.append((done["n"], round(_rss_mb(), 1)))
            asked += 1
            problems = _check(ans, q, want)
            if problems:
                with lock:
                    crossed.append(f"conv {c}: {q[:50]!r}: {problems}")
            if len(conv.turns) != asked or conv.turns[-1].answer is not ans:
                with lock:
                    crossed.append(f"conv {c}: turn count {len(conv.turns)} != {asked}")
        return conv

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=CONVERSATIONS) as pool:
        convs = list(pool.map(run, range(CONVERSATIONS)))
    seconds = time.perf_counter() - t0
    rss_after = _rss_mb()
    latencies.sort()
    figures = {
        "conversations": CONVERSATIONS, "questions": done["n"], "threads": CONVERSATIONS,
        "seconds": round(seconds, 1), "questions_per_s": round(done["n"] / seconds, 2),
        "latency_ms": {"p50": round(latencies[len(latencies) // 2], 1),
                       "p95": round(latencies[int(len(latencies) * 0.95)], 1), "max": round(latencies[-1], 1)},
        "errors": len(errors), "crossed_or_wrong": len(crossed),
        "rss_mb": {"after_warm_up": round(rss_before, 1), "every_100_questions": rss_samples,
                   "after_all": round(rss_after, 1)},
        "examples": (errors + crossed)[:10],
    }
    record("load", figures)
    print(json.dumps(figures, indent=2))
    assert done["n"] == CONVERSATIONS * PER_CONVERSATION
    assert not errors, errors[:5]
    assert not crossed, crossed[:5]
    assert all(len(c.turns) == PER_CONVERSATION for c in convs)
    # Flat: the second half of the run adds little (allocator pools for 20 threads fill in the first half).
    half = dict(rss_samples).get(CONVERSATIONS * PER_CONVERSATION // 2, rss_before)
    assert rss_after - half < 100, figures["rss_mb"]


def _check(ans, q: str, want: dict) -> list[str]:
    problems = []
    if ans.question != q:
        problems.append(f"answer is for {ans.question[:50]!r}")
    calc_in = ans.calculation_input or {}
    if "acres" in want and ans.intent == "calculator":
        got = calc_in.get("disturbed_acres")
        if got is None or abs(got - want["acres"]) > 1e-9:
            problems.append(f"acres {got} != {want['acres']}")
    if "acres" in want and ans.intent not in ("calculator", "abstain", "clarify"):
        problems.append(f"intent {ans.intent} for an area question")
    if want.get("municipality") and ans.municipality and ans.municipality != want["municipality"]:
        problems.append(f"municipality {ans.municipality} != {want['municipality']}")
    if want.get("cites") and want["cites"] not in [c.id for c in ans.citations]:
        problems.append(f"does not cite {want['cites']}")
    return problems
