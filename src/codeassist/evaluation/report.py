"""The issues' targets, the compact stdout table and eval/REPORT.md, from the results dict. Pure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from codeassist.evaluation.baselines import LANGCHAIN_K
from codeassist.evaluation.retrieval import REQUIRED_BASELINES


def targets(retrieval: dict, answers: dict | None) -> list[dict]:
    """The issues' targets with met / not met. Quality comparisons use the overall numbers; latency is
    reported beside them but is not a quality metric (BM25 alone embeds nothing and is always faster)."""
    out = []
    if retrieval:
        h = retrieval["hybrid"]["overall"]
        out.append({"issue": 3, "target": "Recall@5 >= 0.95", "value": h["recall@5"], "met": h["recall@5"] >= 0.95})
        out.append({"issue": 3, "target": "Recall@1 >= 0.80", "value": h["recall@1"], "met": h["recall@1"] >= 0.80})
        out.append({"issue": 3, "target": "wrong-municipality hits in the top 5 = 0 when the municipality is known "
                    "(caller's or expected)", "value": f"{h['wrong_municipality_rate']:.3f} ({h['wrong_municipality_n']}/"
                    f"{h['known_municipality_n']})", "met": h["wrong_municipality_n"] == 0})
        bs = h.get("wrong_municipality_by_source", {})
        if bs:
            n = sum(bs[x]["n"] for x in ("caller", "named") if x in bs)
            w = sum(bs[x]["wrong"] for x in ("caller", "named") if x in bs)
            out.append({"issue": 3, "target": "(supplementary) the same, counting only a municipality passed by the "
                        "caller or named in the question", "value": f"{w}/{n}", "met": w == 0})
        for b in REQUIRED_BASELINES + ("langchain_filtered",):
            if b not in retrieval:
                continue
            o = retrieval[b]["overall"]
            worse = [m for m in ("recall@1", "recall@5", "mrr") if h[m] < o[m] - 1e-12]
            if h["wrong_municipality_rate"] > o["wrong_municipality_rate"] + 1e-12:
                worse.append("wrong-municipality rate")
            value = ("below on: " + ", ".join(worse)) if worse else "at or above on all"
            if h["latency_ms"]["p95"] > o["latency_ms"]["p95"]:
                value += f"; slower p95 ({h['latency_ms']['p95']:.0f} vs {o['latency_ms']['p95']:.0f} ms, not scored)"
            out.append({"issue": 3, "target": ("(supplementary) " if b == "langchain_filtered" else "")
                        + f"R@1, R@5, MRR at or above, wrong-municipality at or below, {b}",
                        "value": value, "met": not worse})
    if answers:
        out.append({"issue": 5, "target": "100% of quotes verbatim", "value": answers["verbatim"]["rate"],
                    "met": answers["verbatim"]["rate"] == 1.0})
        out.append({"issue": 5, "target": "0 unsupported numbers",
                    "value": answers["unsupported_numbers"]["answers_with_unsupported"],
                    "met": answers["unsupported_numbers"]["answers_with_unsupported"] == 0})
        sn = answers["safety_net_fallbacks"]
        out.append({"issue": 5, "target": "(supplementary) no draft answer needed the safety net (quotes and numbers "
                    "sound before Assistant.ask's final check)", "value": f"{sn['n']} ({', '.join(sn['ids']) or '-'})",
                    "met": sn["n"] == 0})
        by = answers["abstention"]["by_category"]
        oc = by.get("out_of_corpus")
        if oc:
            out.append({"issue": 5, "target": "abstention on every out-of-corpus question",
                        "value": f"{oc['rate']:.3f} ({oc['passed']}/{oc['n']})", "met": oc["passed"] == oc["n"]})
        os_ = by.get("out_of_scope")
        if os_:
            out.append({"issue": 5, "target": "(supplementary) abstention on every out-of-scope question",
                        "value": f"{os_['rate']:.3f} ({os_['passed']}/{os_['n']})", "met": os_["passed"] == os_["n"]})
        rp = answers["right_provision"]
        out.append({"issue": 5, "target": "right provision cited for >= 95% of answerable",
                    "value": f"{_f(rp['rate'])} ({rp['passed']}/{rp['n']})",
                    "met": rp["rate"] is not None and rp["rate"] >= 0.95})
    return out



def _f(x: Any, digits: int = 3) -> str:
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(_f(c) for c in r) + " |" for r in rows]
    return lines


def compact_table(results: dict) -> str:
    """The short table printed to stdout."""
    lines = []
    ret = results["retrieval"]
    if ret:
        lines.append(f"{'system':<20} {'R@1':>6} {'R@5':>6} {'MRR':>6} {'wrongM':>7} {'p50ms':>7} {'p95ms':>7}")
        for name, s in ret.items():
            o = s["overall"]
            lines.append(f"{name:<20} {o['recall@1']:>6.3f} {o['recall@5']:>6.3f} {o['mrr']:>6.3f} "
                         f"{o['wrong_municipality_rate']:>7.3f} {o['latency_ms']['p50']:>7.1f} {o['latency_ms']['p95']:>7.1f}")
        lines.append(f"({results['meta']['retrieval_questions']} retrieval questions; langchain k=4 so its R@5 is R@4)")
    a = results.get("answers")
    if a:
        lines.append("")
        lines.append(f"answers ({a['n']} questions): right provision {_f(a['right_provision']['rate'])} "
                     f"({a['right_provision']['passed']}/{a['right_provision']['n']}), key facts "
                     f"{_f(a['key_facts']['questions']['rate'])}, abstention {_f(a['abstention']['rate'])} "
                     f"({a['abstention']['abstained']}/{a['abstention']['n']}), verbatim {_f(a['verbatim']['rate'])}, "
                     f"unsupported-number answers {a['unsupported_numbers']['answers_with_unsupported']}, "
                     f"safety-net fallbacks {a['safety_net_fallbacks']['n']}, calculator routing "
                     f"{_f(a['calculator_routing']['rate'])}, intent {_f(a['intent']['overall'])}")
    lines.append("")
    for t in results["targets"]:
        lines.append(f"[{'MET' if t['met'] else 'NOT MET'}] issue {t['issue']}: {t['target']} -> {_f(t['value'])}")
    if results["meta"].get("warnings"):
        lines.append(f"WARNING: {len(results['meta']['warnings'])} warnings during the run (listed in REPORT.md)")
    lines.append(f"total {results['meta']['seconds']['total']} s")
    return "\n".join(lines)


def render_report(results: dict) -> str:
    m = results["meta"]
    ret = results["retrieval"]
    a = results["answers"]
    L: list[str] = ["# Eval report", "",
                    f"Generated by `codeassist eval` on {m['run_at']} ({m['seconds']['total']} s in one process). "
                    f"Gold: `{Path(m['gold']).name}`, {m['questions']} questions, of which {m['retrieval_questions']} "
                    "are answerable retrieval/definition/lookup/calculator/compare questions with gold ids "
                    "(the retrieval set). Do not edit by hand; rerun `codeassist eval`.", "",
                    f"Model: {m['model']}. Our index: {m['setup']['index']['chunks']} chunks "
                    f"({m['setup']['index']['collection']}).", ""]
    warnings = Counter(m.get("warnings", []))
    errs = {n: len(s["errors"]) for n, s in ret.items() if s.get("errors")} if ret else {}
    if warnings or errs:
        L += ["## Warnings: numbers below may be degraded", ""]
        L += [f"- {w}" + (f" (x{c})" if c > 1 else "") for w, c in warnings.most_common()]
        L += [f"- {n}: {c} searches raised an error (counted as misses)" for n, c in errs.items()]
        L += [""]
    L += ["## Targets", ""]
    L += _table(["issue", "target", "value", "met"],
                [[t["issue"], t["target"], t["value"], "**met**" if t["met"] else "**NOT met**"] for t in results["targets"]])
    if ret:
        L += ["", "## Retrieval: systems x metrics", ""]
        L += _table(["system", "R@1", "R@5", "MRR", "wrong-municipality", "p50 ms", "p95 ms"],
                    [[f"{n} — {s['label']}", s["overall"]["recall@1"], s["overall"]["recall@5"], s["overall"]["mrr"],
                      f"{s['overall']['wrong_municipality_rate']:.3f} ({s['overall']['wrong_municipality_n']}/"
                      f"{s['overall']['known_municipality_n']})", f"{s['overall']['latency_ms']['p50']:.1f}",
                      f"{s['overall']['latency_ms']['p95']:.1f}"] for n, s in ret.items()])
        L += ["",
              "- Hits: for provision systems, the hit is a gold id or an ancestor returned whole whose text "
              "contains the gold provision's text; for the langchain chunks, the chunk (from the provision's "
              "source file, overlapping its span) contains the provision's verbatim file text, "
              "whitespace-normalised, first 200 characters for longer provisions.",
              f"- The langchain baseline returns k={LANGCHAIN_K}: its R@5 column is Recall@{LANGCHAIN_K}. "
              f"It indexes {m['setup']['langchain']['chunks']} chunks of the two raw files. Its primary row has no "
              "metadata filter (a tutorial pipeline has only `source` metadata and filters nothing); "
              "`langchain_filtered` adds a source-file filter when the caller picked a municipality.",
              "- Wrong-municipality: share of questions with a known municipality (the caller's, else the "
              "expected one) whose returned results include another municipality's text. Questions that name "
              "no municipality and are answered by both texts are not counted.",
              "- Latency: warm, per query, in this process (query embedding included; the embedder's query cache "
              "is emptied before each timed search so no system is timed on another's cached vector), systems "
              "interleaved. "
              f"Load average (1/5/15 min) before the run {m.get('load_average', {}).get('before')}, after "
              f"{m.get('load_average', {}).get('after')}, on {m.get('load_average', {}).get('cpus')} CPUs: "
              "with other work on the machine the embedding-bound systems' latencies are inflated and noisy."]
        L += ["", "### Wrong-municipality hits by how the municipality is known", "",
              "caller = passed by the caller; named = the question names it (name, alias or a one-letter typo); "
              "content = only the gold knows it (e.g. a SWPPP-contents question, which only Hempstead's text answers).", ""]
        L += _table(["system"] + [f"{src} wrong/n" for src in ("caller", "named", "content")],
                    [[n] + [f"{s['overall']['wrong_municipality_by_source'][src]['wrong']}/"
                            f"{s['overall']['wrong_municipality_by_source'][src]['n']}"
                            for src in ("caller", "named", "content")] for n, s in ret.items()])
        below = _group_shortfalls(ret)
        if below:
            L += ["", "Group cells (per user type / municipality / category) where hybrid is below a required baseline: "
                  + "; ".join(below) + "."]
        for title, key in (("per user type", "by_user_type"), ("per municipality (expected_municipality)", "by_municipality"),
                           ("per gold category", "by_category")):
            L += ["", f"### Retrieval {title}", ""]
            groups = sorted({g for s in ret.values() for g in s[key]})
            header = ["group", "n"] + [f"{n} R@1 / R@5 / MRR" for n in ret]
            rows = []
            for g in groups:
                first = next(s[key][g] for s in ret.values() if g in s[key])
                rows.append([g, first["n"]] + [
                    f"{s[key][g]['recall@1']:.3f} / {s[key][g]['recall@5']:.3f} / {s[key][g]['mrr']:.3f}"
                    if g in s[key] else "n/a" for s in ret.values()])
            L += _table(header, rows)
    if a:
        L += ["", "## Answers (Assistant.ask, real retriever, every gold line)", ""]
        kf = a["key_facts"]
        L += _table(["check", "value", "detail"], [
            ["right provision cited (answerable with gold ids)", a["right_provision"]["rate"],
             f"{a['right_provision']['passed']}/{a['right_provision']['n']} (a gold id, or an ancestor/descendant of one)"],
            ["key facts, all present in the answer text", kf["questions"]["rate"],
             f"{kf['questions']['all_present']}/{kf['questions']['n']} questions; {kf['facts_found']}/{kf['facts_total']} facts"],
            ["  of which answerable", kf["answerable"]["rate"], f"{kf['answerable']['all_present']}/{kf['answerable']['n']}"],
            ["  of which out-of-corpus (pointer facts)", kf["unanswerable"]["rate"], f"{kf['unanswerable']['all_present']}/{kf['unanswerable']['n']}"],
            ["abstention on out_of_corpus / out_of_scope", a["abstention"]["rate"],
             f"{a['abstention']['abstained']}/{a['abstention']['n']}; " + ", ".join(
                 f"{c} {v['passed']}/{v['n']}" for c, v in a["abstention"]["by_category"].items())],
            ["abstained on an answerable question", a["abstention"]["false_abstention_rate"], str(a["abstention"]["false_abstentions"])],
            ["quotes verbatim", a["verbatim"]["rate"], f"{a['verbatim']['verbatim']}/{a['verbatim']['quotes']} quotes"],
            ["answers with unsupported numbers", a["unsupported_numbers"]["answers_with_unsupported"],
             ", ".join(a["unsupported_numbers"]["ids"]) or "-"],
            ["safety-net replacements (draft failed check_answer; shown as abstention)", a["safety_net_fallbacks"]["n"],
             ", ".join(a["safety_net_fallbacks"]["ids"]) or "-"],
            ["calculator questions routed to the expected calculator", a["calculator_routing"]["rate"],
             f"{a['calculator_routing']['routed']}/{a['calculator_routing']['n']}"],
            ["intent as expected for the gold category", a["intent"]["overall"], ""],
            ["crashes", a["errors"]["n"], ", ".join(a["errors"]["ids"]) or "-"],
            ["answer latency p50 / p95 ms", f"{a['latency_ms']['p50']} / {a['latency_ms']['p95']}", ""],
        ])
        L += ["", "Verbatim and unsupported-number checks are enforced inside `Assistant.ask`, which replaces a "
              "failing draft with an abstention; the safety-net row counts those replacements, so a composer bug "
              "shows up there (and as a false abstention) rather than as a non-verbatim quote.", ""]
        L += ["### Right provision and key facts by category", ""]
        cats = sorted(set(a["right_provision"]["by_category"]) | set(kf["by_category"]))
        L += _table(["category", "right provision", "key facts"],
                    [[c, _ratio(a["right_provision"]["by_category"].get(c)), _ratio(kf["by_category"].get(c))] for c in cats])
        L += ["", "### Intent by gold category", ""]
        intents = sorted({i for d in a["intent"]["distribution"].values() for i in d})
        L += _table(["category", "expected", "accuracy"] + intents,
                    [[c, v["expected"], f"{v['correct']}/{v['n']}"] + [a["intent"]["distribution"][c].get(i, 0) for i in intents]
                     for c, v in a["intent"]["accuracy_by_category"].items()])
        if a["calculator_routing"]["misrouted"]:
            L += ["", "Calculator questions not routed to the expected calculator: " + "; ".join(
                f"{x['id']} (expected {x['expected']}, got {x['got']}, intent {x['intent']})" for x in a["calculator_routing"]["misrouted"])]
    L += ["", "## Failing questions", ""]
    if ret:
        h = ret["hybrid"]
        miss5 = [x for x in h["not_first"] if x["rank"] is None]
        miss1 = [x for x in h["not_first"] if x["rank"] is not None]
        L += [f"### Retrieval (hybrid): not in the top 5 ({len(miss5)})", ""]
        L += [f"- {x['id']}: gold {x['gold'][:3]}; got {x['got']}" for x in miss5] or ["- none"]
        L += ["", f"### Retrieval (hybrid): found but not first ({len(miss1)})", ""]
        L += [f"- {x['id']}: rank {x['rank']}; gold {x['gold'][:3]}; got first {x['got'][:1]}" for x in miss1] or ["- none"]
        L += ["", f"### Retrieval (hybrid): another municipality in the top 5 ({len(h['wrong_municipality_ids'])})", ""]
        L += [f"- {i}" for i in h["wrong_municipality_ids"]] or ["- none"]
    if a:
        L += ["", f"### Answers ({len(a['failures'])} questions with at least one failed check)", ""]
        for f in a["failures"]:
            L.append(f"- **{f['id']}** ({f['category']}, intent {f['intent']}): " + "; ".join(f["why"]))
    return "\n".join(L) + "\n"


def _group_shortfalls(ret: dict) -> list[str]:
    out = []
    h = ret.get("hybrid")
    if not h:
        return out
    for b in REQUIRED_BASELINES:
        if b not in ret:
            continue
        for key in ("by_user_type", "by_municipality", "by_category"):
            for g, hv in h[key].items():
                bv = ret[b][key].get(g)
                if bv is None:
                    continue
                worse = [mname for mname in ("recall@1", "recall@5", "mrr") if hv[mname] < bv[mname] - 1e-12]
                if worse:
                    out.append(f"{g} vs {b} ({', '.join(worse)})")
    return out


def _ratio(v: dict | None) -> str:
    return "n/a" if not v else f"{v['passed']}/{v['n']} ({v['rate']:.2f})"
