"""End-to-end answer eval: every gold line through ``Assistant.ask``; right provision cited, abstentions
(right and wrong), the lead fact in the first sentence, key facts anywhere, verbatim quotes, unsupported
numbers, intent and calculator routing, latency."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from codeassist.evaluation.gold import EXPECTED_INTENT, UNANSWERABLE_CATEGORIES
from codeassist.evaluation.judge import Judge
from codeassist.evaluation.metrics import (fact_present, lead_fact_present, lead_text, normalize_ws, percentile,
                                           rate)

if TYPE_CHECKING:
    from codeassist.models import Answer

FALLBACK_MARK = "in a way I can quote safely"  # api.Assistant.ask's safety-net abstention


def _draft_problems(assistant, row: dict) -> list[str]:
    """Re-run the draft that Assistant.ask replaced with its safety-net abstention (private API, eval only)."""
    try:
        from codeassist.draft import check_answer

        draft = assistant._answer(assistant.plan(row["question"], row.get("municipality")), None)
        return check_answer(assistant.corpus, draft) or ["draft passes the check now (nondeterminism?)"]
    except Exception as e:  # pragma: no cover - diagnostic only
        return [f"could not re-run the draft: {type(e).__name__}: {e}"]


def evaluate_answers(rows: list[dict], assistant, judge: Judge, reset: Callable[[], None] = lambda: None) -> dict:
    from codeassist.draft import check_answer, unsupported_numbers

    corpus = assistant.corpus
    per_q: list[dict] = []
    lat: list[float] = []
    for row in rows:
        reset()
        t0 = time.perf_counter()
        try:
            ans: Answer | None = assistant.ask(row["question"], municipality=row.get("municipality"))
            error = None
        except Exception as e:  # a crash is a failure to report, not a reason to stop the eval
            ans, error = None, f"{type(e).__name__}: {normalize_ws(str(e))[:240]}"
        lat.append((time.perf_counter() - t0) * 1000)
        rec: dict[str, Any] = {"id": row["id"], "category": row["category"], "answerable": row["answerable"],
                               "gold_calculator": row.get("calculator"), "error": error}
        if ans is None:
            rec.update(intent=None, abstained=None, citations=[], calculator=None, problems=[],
                       missing_facts=list(row.get("key_facts", [])), facts_in_quotes=[], fallback=False,
                       quotes_total=0, quotes_verbatim=0, unsupported=[], lead="",
                       lead_ok=False if row.get("lead_facts") else None)
            per_q.append(rec)
            continue
        cites = [c.id for c in ans.citations]
        verbatim = sum(1 for c in ans.citations if corpus.quote_in(c.id, c.quote))
        quotes_text = " ".join(c.quote for c in ans.citations)
        missing = [f for f in row.get("key_facts", []) if not fact_present(f, ans.answer)]
        fallback = FALLBACK_MARK in ans.answer
        lead = lead_text(ans.answer, getattr(ans, "lead", None))
        rec.update(
            intent=ans.intent, abstained=ans.abstained, citations=cites, calculator=ans.calculator,
            problems=check_answer(corpus, ans), unsupported=sorted(unsupported_numbers(corpus, ans)),
            quotes_total=len(ans.citations), quotes_verbatim=verbatim, missing_facts=missing,
            facts_in_quotes=[f for f in missing if fact_present(f, quotes_text)], fallback=fallback,
            answer_head=normalize_ws(ans.answer)[:160], lead=lead[:240],
            lead_ok=lead_fact_present(row["lead_facts"], lead) if row.get("lead_facts") else None,
        )
        if fallback:
            rec["draft_problems"] = _draft_problems(assistant, row)
        if row["answerable"] and row.get("gold"):
            rec["right_provision"] = any(judge.related(c, row["gold"]) for c in cites)
        per_q.append(rec)
    return summarize_answers(rows, per_q, lat)


def summarize_answers(rows: list[dict], per_q: list[dict], lat: Sequence[float]) -> dict:
    by_id = {r["id"]: r for r in rows}
    answerable = [q for q in per_q if q["answerable"] and by_id[q["id"]].get("gold")]
    unanswerable = [q for q in per_q if q["category"] in UNANSWERABLE_CATEGORIES]
    with_facts = [q for q in per_q if by_id[q["id"]].get("key_facts")]
    calc_qs = [q for q in per_q if q["category"] == "calculator"]
    with_lead = [q for q in per_q if q.get("lead_ok") is not None]
    facts_total = sum(len(by_id[q["id"]]["key_facts"]) for q in with_facts)
    facts_found = facts_total - sum(len(q["missing_facts"]) for q in with_facts)
    quotes_total = sum(q["quotes_total"] for q in per_q)
    quotes_ok = sum(q["quotes_verbatim"] for q in per_q)

    def facts_block(qs: list[dict]) -> dict:
        n = len(qs)
        ok = sum(1 for q in qs if not q["missing_facts"])
        return {"n": n, "all_present": ok, "rate": rate(ok, n)}

    dist: dict[str, Counter] = defaultdict(Counter)
    for q in per_q:
        dist[q["category"]][q["intent"] or "error"] += 1
    intent_acc = {}
    for cat, counts in sorted(dist.items()):
        n = sum(counts.values())
        exp = EXPECTED_INTENT.get(cat)
        ok = sum(1 for q in per_q if q["category"] == cat and _intent_ok(q, exp))
        intent_acc[cat] = {"n": n, "expected": exp, "correct": ok, "rate": rate(ok, n)}
    routed = [q for q in calc_qs if q["calculator"] == q["gold_calculator"]]
    abst_ok = [q for q in unanswerable if q["abstained"]]
    false_abst = [q for q in per_q if q["answerable"] and q["abstained"]]
    right = [q for q in answerable if q.get("right_provision")]
    n_unsupported = [q for q in per_q if q["unsupported"]]
    n_problems = [q for q in per_q if q["problems"]]
    fallbacks = [q for q in per_q if q["fallback"]]
    errors = [q for q in per_q if q["error"]]

    failures = [f for f in (_failure(q, by_id[q["id"]]) for q in per_q) if f]
    misses_by_category: dict[str, Counter] = defaultdict(Counter)
    for q in per_q:
        misses_by_category[q["category"]]["questions"] += 1
    for f in failures:
        misses_by_category[f["category"]].update(f["checks"])

    return {
        "n": len(per_q),
        "right_provision": {"n": len(answerable), "passed": len(right), "rate": rate(len(right), len(answerable)),
                            "by_category": _by(answerable, lambda q: q["category"], lambda q: bool(q.get("right_provision")))},
        "key_facts": {"questions": facts_block(with_facts),
                      "answerable": facts_block([q for q in with_facts if q["answerable"]]),
                      "unanswerable": facts_block([q for q in with_facts if not q["answerable"]]),
                      "facts_total": facts_total, "facts_found": facts_found, "fact_rate": rate(facts_found, facts_total),
                      "by_category": _by(with_facts, lambda q: q["category"], lambda q: not q["missing_facts"])},
        "lead_fact": {"n": len(with_lead), "passed": sum(1 for q in with_lead if q["lead_ok"]),
                      "rate": rate(sum(1 for q in with_lead if q["lead_ok"]), len(with_lead)),
                      "by_category": _by(with_lead, lambda q: q["category"], lambda q: bool(q["lead_ok"]))},
        "abstention": {"n": len(unanswerable), "abstained": len(abst_ok), "rate": rate(len(abst_ok), len(unanswerable)),
                       "by_category": _by(unanswerable, lambda q: q["category"], lambda q: bool(q["abstained"])),
                       "false_abstentions": len(false_abst), "false_abstention_ids": [q["id"] for q in false_abst],
                       "false_abstention_rate": rate(len(false_abst), len([q for q in per_q if q["answerable"]]))},
        "verbatim": {"quotes": quotes_total, "verbatim": quotes_ok, "rate": rate(quotes_ok, quotes_total) if quotes_total else 1.0},
        "unsupported_numbers": {"answers_with_unsupported": len(n_unsupported),
                                "ids": [q["id"] for q in n_unsupported]},
        "check_answer": {"answers_with_problems": len(n_problems), "ids": [q["id"] for q in n_problems]},
        "safety_net_fallbacks": {"n": len(fallbacks), "ids": [q["id"] for q in fallbacks],
                                 "draft_problems": {q["id"]: q.get("draft_problems") for q in fallbacks}},
        "errors": {"n": len(errors), "ids": [q["id"] for q in errors]},
        "intent": {"distribution": {c: dict(v) for c, v in sorted(dist.items())}, "accuracy_by_category": intent_acc,
                   "overall": rate(sum(v["correct"] for v in intent_acc.values()), len(per_q))},
        "calculator_routing": {"n": len(calc_qs), "routed": len(routed), "rate": rate(len(routed), len(calc_qs)),
                               "misrouted": [{"id": q["id"], "expected": q["gold_calculator"], "got": q["calculator"],
                                              "intent": q["intent"]} for q in calc_qs if q not in routed]},
        "latency_ms": {"p50": round(percentile(lat, 50), 2), "p95": round(percentile(lat, 95), 2)},
        "failures": failures,
        "misses_by_category": {c: dict(v) for c, v in sorted(misses_by_category.items())},
        "per_question": per_q,
    }


# The checks a question can fail, as counted per category (the order of the report's columns).
CHECKS = ("crash", "right provision", "abstention", "wrong abstention", "lead fact", "key facts", "calculator",
          "intent", "check_answer", "safety net")


def _failure(q: dict, row: dict) -> dict | None:
    """The checks one answer failed, with why; None when it passed all."""
    why: list[tuple[str, str]] = []
    if q["error"]:
        why.append(("crash", f"crashed: {q['error']}"))
    if q["answerable"] and row.get("gold") and not q.get("right_provision"):
        why.append(("right provision", f"no gold provision cited (cited {q['citations'][:4] or 'nothing'}; gold {row['gold'][:3]})"))
    if q["category"] in UNANSWERABLE_CATEGORIES and not q["abstained"]:
        why.append(("abstention", f"did not abstain (intent {q['intent']})"))
    if q["answerable"] and q["abstained"]:
        why.append(("wrong abstention", "abstained on an answerable question"))
    if q.get("lead_ok") is False:
        why.append(("lead fact", f"lead fact not in the first sentence (any of {row['lead_facts']}): {q.get('lead', '')[:120]!r}"))
    if q["missing_facts"]:
        extra = f" (in a cited quote but not the answer text: {q['facts_in_quotes']})" if q["facts_in_quotes"] else ""
        why.append(("key facts", f"key facts missing: {q['missing_facts']}{extra}"))
    if q["category"] == "calculator" and q["calculator"] != q["gold_calculator"]:
        why.append(("calculator", f"calculator {q['calculator']!r}, expected {q['gold_calculator']!r}"))
    if not _intent_ok(q, EXPECTED_INTENT.get(q["category"])):
        why.append(("intent", f"intent {q['intent']!r}, expected {EXPECTED_INTENT.get(q['category'])!r}"))
    if q["problems"]:
        why.append(("check_answer", f"check_answer: {q['problems']}"))
    if q["fallback"]:
        why.append(("safety net", f"safety-net abstention replaced the draft: {q.get('draft_problems')}"))
    if not why:
        return None
    return {"id": q["id"], "category": q["category"], "intent": q["intent"], "checks": [c for c, _ in why],
            "why": [w for _, w in why], "answer_head": q.get("answer_head", "")}


def _intent_ok(q: dict, expected: str | None) -> bool:
    if expected is None:
        return True
    if expected == "abstain":
        return q["intent"] == "abstain" or bool(q["abstained"])
    return q["intent"] == expected


def _by(qs: list[dict], key: Callable[[dict], str], ok: Callable[[dict], bool]) -> dict:
    groups: dict[str, list[bool]] = defaultdict(list)
    for q in qs:
        groups[key(q)].append(ok(q))
    return {g: {"n": len(v), "passed": sum(v), "rate": rate(sum(v), len(v))} for g, v in sorted(groups.items())}
