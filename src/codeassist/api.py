"""Assistant: the one object the CLI, the app and the eval use.

    assistant = Assistant()                      # corpus now; model and index on first retrieval
    answer = assistant.ask("Do I need a SWPPP for 2 acres in Hempstead?")
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from . import answer as A
from . import compare as C
from . import understand as U
from .compose import Scorer, check_answer, cite
from .models import Answer, Conversation, Turn
from .settings import Settings, get_settings

if TYPE_CHECKING:
    from .corpus import Corpus

log = logging.getLogger(__name__)


class Assistant:
    def __init__(self, corpus: "Corpus | None" = None, retriever: A.SearchBackend | None = None,
                 settings: Settings | None = None):
        from .corpus import load_corpus

        self.settings = settings or get_settings()
        self.corpus = corpus or load_corpus()
        self._retriever = retriever
        self._lock = threading.Lock()
        self.scorer = Scorer(self.corpus)
        self.aliases = {m.id: [*m.aliases, m.name.lower(), m.short_name.lower()] for m in self.corpus.municipalities.values()}
        self.definitions = {}
        for mid in self.corpus.municipalities:
            for term, pid in self.corpus.definitions(mid).items():
                self.definitions.setdefault(term, pid)

    @property
    def retriever(self) -> A.SearchBackend:
        """The hybrid retriever, built (and the model loaded) on first use, once."""
        if self._retriever is None:
            with self._lock:
                if self._retriever is None:
                    from .retrieval import Retriever

                    self._retriever = Retriever(self.corpus, settings=self.settings)
        return self._retriever

    def warm_up(self) -> None:
        self.retriever.search("stormwater pollution prevention plan", k=1)

    # --- the one entry point ------------------------------------------------------------------------
    def ask(self, question: str, municipality: str | None = None, conversation: Conversation | None = None) -> Answer:
        q = U.clean_question(question, self.settings.max_question_chars)
        chosen = self.corpus.check_municipality(municipality) if municipality else None
        if chosen is None and conversation is not None and conversation.municipality:
            chosen = self.corpus.check_municipality(conversation.municipality)
        try:
            answer = self._answer(q, chosen, conversation)
        except ValidationError:
            # A quote failed verification while composing: say so rather than return it or crash.
            log.exception("could not compose a verified answer for %r", q[:200])
            answer = A.abstain(self.corpus, q, f"{A.NOT_IN_CORPUS} this in a way I can quote safely.",
                               [chosen] if chosen else None)
        problems = check_answer(self.corpus, answer)
        if problems:  # never return an unsupported claim; fall back to an honest abstention
            answer = A.abstain(self.corpus, q, f"{A.NOT_IN_CORPUS} this in a way I can quote safely.",
                               [chosen] if chosen else None)
        if conversation is not None:
            self._remember(conversation, q, answer)
        return answer

    def compare(self, topic: str) -> dict:
        q = U.clean_question(topic, self.settings.max_question_chars)
        return C.compare(self.corpus, self.retriever, q)

    # --- routing ----------------------------------------------------------------------------------------
    def _answer(self, q: str, chosen: str | None, conv: Conversation | None) -> Answer:
        named = U.detect_municipalities(q, self.aliases)
        # Follow-ups that lean on the conversation.
        if conv is not None and conv.turns:
            follow = self._follow_up(q, chosen, conv)
            if follow is not None:
                return follow
        route = U.route(q, self.definitions, len(named))
        scope = ("this assistant covers only the Town of Hempstead's stormwater article and the Village of "
                 "Tuckahoe's Electrical Code and Erosion and Sediment Control law")
        if route.intent == "abstain" and route.other_place:
            return A.abstain(self.corpus, q, f"{A.NOT_IN_CORPUS} anything about {route.other_place}: {scope}.")
        if route.intent == "abstain":
            subject = route.notes[0] if route.notes else "that subject"
            return A.abstain(self.corpus, q, f"{A.NOT_IN_CORPUS} anything about {subject}: {scope}. "
                             "The municipality's clerk can say which local law covers it.", [chosen] if chosen else named or None)
        if chosen and named and chosen not in named:
            names = A._names(self.corpus)
            return Answer(question=q, intent="clarify", municipality=chosen, abstained=False,
                          answer=f"You chose the {names[chosen]}, but the question names the "
                                 f"{' and '.join(names[n] for n in named)}. Which one do you mean?",
                          follow_up=f"Which municipality: {' or '.join(names[n] for n in [chosen, *named])}?")
        munis = [chosen] if chosen else (named or list(self.corpus.municipalities))
        is_named = bool(chosen or named)
        if route.intent == "lookup":
            ans = A.answer_lookup(self.corpus, q, route.citation_text or q, chosen or (named[0] if len(named) == 1 else None))
            if ans is not None:
                return ans
        if route.intent == "definition" and route.term:
            return A.answer_definition(self.corpus, q, route.term, munis, is_named)
        if route.intent == "compare":
            return C.answer_compare(self.corpus, self.retriever, q)
        gap = A.find_gap(self.corpus, q, munis)
        if gap is not None:
            return gap
        if route.intent == "calculator" and route.calculator:
            ans = self._calculate(q, route.calculator, munis, is_named)
            if ans is not None:
                return ans
        return A.answer_retrieval(self.corpus, self.scorer, self.retriever, q, munis, is_named)

    def _follow_up(self, q: str, chosen: str | None, conv: Conversation) -> Answer | None:
        muni = U.is_follow_up_municipality(q, self.aliases)
        if muni and conv.last_topic:
            if conv.last_calculator and conv.last_calc_input is not None:
                ans = self._calculate(conv.last_topic, conv.last_calculator, [muni], True,
                                      prior={**conv.last_calc_input, "municipality": muni}, shown=q)
                if ans is not None:
                    return ans
            return self._answer_as(q, self._answer(conv.last_topic, muni, None))
        if conv.pending and U.extract_area(q) and conv.pending.get("calculator"):
            p = conv.pending
            return self._calculate(p["question"], p["calculator"], p["munis"], True, prior=None, extra=q, shown=q)
        if U.is_follow_up_area(q) and conv.last_calculator in ("applicability", "swppp_checklist") and conv.last_calc_input:
            munis = [conv.last_calc_input.get("municipality")] if conv.last_calc_input.get("municipality") else list(self.corpus.municipalities)
            return self._calculate(q, conv.last_calculator, munis, True, prior=conv.last_calc_input, shown=q)
        if U.is_follow_up_full_text(q) and conv.last_citation_ids:
            pid = conv.last_citation_ids[0]
            p = self.corpus.get(pid)
            if p is not None:
                section = self.corpus.section_of(pid)
                ans = A.answer_lookup(self.corpus, q, section.provision_id, p.municipality)
                if ans is not None:
                    return ans
        return None

    @staticmethod
    def _answer_as(q: str, ans: Answer) -> Answer:
        return ans.model_copy(update={"question": q})

    def _calculate(self, q: str, name: str, munis: list[str], named: bool, prior: dict | None = None,
                   extra: str | None = None, shown: str | None = None) -> Answer | None:
        from .calculators import CALCULATORS, format_validation_error

        calc = CALCULATORS[name]
        names = A._names(self.corpus)
        text_for_slots = f"{q} {extra}" if extra else q
        if name in ("electrical_permit", "penalty") and (name == "electrical_permit" or U._ELECTRICAL.search(q)):
            electrical = [o.municipality for o in self.corpus.ordinances.values() if o.topic == "electrical"]
            if named and munis and not set(munis) & set(electrical):
                return A.abstain(self.corpus, shown or q, f"{A.NOT_IN_CORPUS} anything about electrical work in the "
                                 f"{names[munis[0]]}: no electrical code of theirs is in this corpus.", munis)
            munis = [m for m in munis if m in electrical] or electrical
        parts: list[tuple[str, Any, dict]] = []
        for muni in munis:
            data, follow = A.build_calc_input(name, text_for_slots, muni, prior)
            if data is None and follow is None:
                return None  # nothing in the question this calculator can use: answer from the text instead
            if follow:
                hint = self._each_way(name, muni) if len(munis) == 1 else ""
                return Answer(question=shown or q, answer=follow + (f"\n\n{hint}" if hint else ""), intent="clarify",
                              municipality=muni if len(munis) == 1 else None, follow_up=follow, calculator=name,
                              citations=self._each_way_citations(name, muni) if hint else [])
            try:
                out = calc.run_dict(data)  # type: ignore[arg-type]
            except ValidationError as exc:
                reason = format_validation_error(exc, calc.input_model)
                return Answer(question=shown or q, intent="clarify", municipality=muni, calculator=name,
                              calculation={"input_error": reason}, calculation_input=data,
                              answer="I couldn't use the numbers in that question: " + reason,
                              follow_up="Could you restate the figures (for example \"2 acres\" or \"20,000 sq ft\")?")
            parts.append((muni, out, data))
        lines, citations, caveats = [], [], []
        for muni, out, data in parts:
            label = f"**{names[muni]}:** " if len(parts) > 1 else ""
            lines.append(label + A.headline(name, out, names, data))
            if name == "swppp_checklist" and getattr(out, "items", None):
                cites = [cite(self.corpus, self.corpus.get(i.provision_id), i.text) for i in out.items[:8]]
                for c in cites:
                    lines.append(f"- {c.quote} ({c.citation})")
                lines.append("- ...and the rest of the list in the full checklist (Calculators page, or "
                             "`codeassist calc swppp_checklist --markdown`).")
                citations.extend(cites)
                caveats.extend(c for c in out.caveats if c not in caveats)
                continue
            cites = A._steps_citations(self.corpus, out, limit=4 if len(parts) > 1 else 6)
            for c in cites:
                lines.append(f"- \u201c{c.quote}\u201d ({c.citation})")
            citations.extend(cites)
            caveats.extend(c for c in getattr(out, "caveats", []) if c not in caveats)
        calc_json = parts[0][1].model_dump(mode="json") if len(parts) == 1 else \
            {"results": {m: o.model_dump(mode="json") for m, o, _ in parts}}
        offices = A.offices_for(self.corpus, citations)
        text = "\n".join(lines)
        if caveats:
            text += "\n\n" + "\n".join(f"Note: {c}" for c in caveats[:4])
        if offices:
            text += "\n\nWho decides: " + "; ".join(offices) + "."
        # The result rests on text that is not in the corpus (e.g. Tuckahoe's threshold, § 1-7 fines).
        undecided = all(A.calc_undecided(name, o, q) for _, o, _ in parts)
        return Answer(question=shown or q, answer=text, intent="calculator", calculator=name, abstained=undecided,
                      municipality=parts[0][0] if len(parts) == 1 else None, citations=citations,
                      calculation=calc_json, calculation_input=parts[0][2] if len(parts) == 1 else None,
                      caveats=caveats, offices=offices)

    def _threshold(self, name: str, muni: str):
        """The municipality's own definition of land development activity, where its text has one: what
        the answer to an area question turns on."""
        if name not in ("applicability", "swppp_checklist"):
            return None
        pid = self.corpus.definitions(muni).get("land development activity")
        return self.corpus.get(pid) if pid else None

    def _each_way(self, name: str, muni: str) -> str:
        p = self._threshold(name, muni)
        return f"It turns on the definition of land development activity: \u201c{p.text}\u201d ({p.citation})" if p else ""

    def _each_way_citations(self, name: str, muni: str):
        p = self._threshold(name, muni)
        return [cite(self.corpus, p, p.text)] if p else []

    def _remember(self, conv: Conversation, q: str, answer: Answer) -> None:
        conv.turns.append(Turn(question=q, answer=answer))
        if answer.intent == "clarify" and answer.calculator:
            conv.pending = {"calculator": answer.calculator, "question": q,
                            "munis": [answer.municipality] if answer.municipality else list(self.corpus.municipalities)}
            return
        conv.pending = None
        conv.last_intent = answer.intent
        if answer.municipality:
            conv.last_municipality = answer.municipality
        if answer.intent not in ("abstain", "clarify"):
            follow = U.is_follow_up_municipality(q, self.aliases) or U.is_follow_up_area(q)
            if not follow:
                conv.last_topic = q
        if answer.citations:
            conv.last_citation_ids = [c.id for c in answer.citations]
        conv.last_calculator = answer.calculator
        conv.last_calc_input = answer.calculation_input if answer.calculator else None
