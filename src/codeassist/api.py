"""Assistant: the one object the CLI, the app and the eval use.

    assistant = Assistant()                      # corpus now; model and index on first retrieval
    answer = assistant.ask("Do I need a SWPPP for 2 acres in Hempstead?")

One question, one plan (plan.py), one handler (answer.py, compare.py), one draft: the draft's blocks are
verified (draft.py) before any text is made from them; an answer that fails becomes an honest abstention.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from . import answer as A
from . import compare as C
from . import draft as D
from .text import last_sentence
from .compose import Scorer, cite
from .errors import InvalidInput
from .models import Answer, Conversation, Draft, Hit, QueryPlan, Turn
from .plan import Planner
from .settings import Settings, get_settings
from .understand import APPROVED_BEFORE, asks_role

if TYPE_CHECKING:
    from .corpus import Corpus
    from .models import Provision

log = logging.getLogger(__name__)

QUOTE_SAFELY = f"{A.NOT_IN_CORPUS} this in a way I can quote safely."
# A corpus gap yields to a provision its metadata says answers such questions only when retrieval ranks that
# provision first by a clear lead: "does a new fence trigger review?" 0.95 against 0.42 (the exemption list);
# "permit threshold ... a quarter acre?" reached an exemption item first by 0.70 against 0.65, by chance.
GAP_YIELD_LEAD = 0.6
GAP_YIELD_CLOSE = 0.5  # and comes this close in meaning ("drain my sump pump onto the sidewalk?" came 0.37)
# A calculator asks for the area it lacks unless retrieval ranks an exemption item first by the same clear lead and
# this close: "a tree took out a drain in the storm, we dug right away; did we need a SWPPP?" (emergency work, 0.63).
EXEMPTION_LEADS_CLOSE = 0.6
# ... or when the question comes this close to one of its headnote yes/no questions ("I tied my sump pump into
# the street drain; must I let the Village in?" 0.66 to "If I connect my property to the public stormwater
# system, must I let the Village enter to inspect?").
GAP_YIELD_ASKED = 0.65
# A part of a cited section answers "what does it say about X?" when it ranks among this many closest hits for X
LOOKUP_PART_DEPTH = 10


# A licence or where someone holds one ("licensed in New Jersey", "a Connecticut license").
_LICENSED = re.compile(r"\blicen[cs]\w*", re.I)


# A yes/no question asking which person does something: "can my contractor be the one who calls?", "or does it
# have to come from me?"
# "a plain 1.3-acre SWPPP", "a 4-acre medical campus SWPPP lists ...": the plan exists and its area sizes it, so the
# question is about what it holds, not whether one is needed ("is a 0.8-acre SWPPP required?" still asks that)
_SIZED_PLAN = re.compile(r"\b\d[\d,.]*[- ]?(?:acres?|ac|sq\.? ?ft|square[- ]f(?:oo|ee)t)\b(?:[- ][\w-]+){0,3}? "
                         r"(?:swppps?|stormwater (?:pollution prevention )?plans?)\b(?!\W+(?:\w+\W+)?(?:required|needed|necessary|"
                         r"mandatory|triggered))", re.I)
# "... grading under the Town's definition?", "does that count as clearing?": what a defined term covers is asked
_TERM_ASKED = re.compile(r"\b(?:defin\w*|mean|means|meaning|counts? as|considered|qualif(?:y|ies) as)\b", re.I)
_ACTOR_ASKED = re.compile(r"\bbe the (?:one|person|party) (?:who|that|to)\b|\b(?:has|have) to come from\b", re.I)


class Assistant:
    def __init__(self, corpus: "Corpus | None" = None, retriever: A.SearchBackend | None = None,
                 settings: Settings | None = None):
        from .corpus import load_corpus

        self.settings = settings or get_settings()
        self.corpus = corpus or load_corpus(self.settings.corpus_dir)
        self._retriever = retriever
        self._lock = threading.Lock()
        self.scorer = Scorer(self.corpus)
        self.planner = Planner(self.corpus, self.settings.max_question_chars)

    @property
    def retriever(self) -> A.SearchBackend:
        """The hybrid retriever, built (and the model loaded) on first use, once."""
        if self._retriever is None:
            with self._lock:
                if self._retriever is None:
                    from .retrieval import Retriever

                    self._retriever = Retriever(self.corpus, settings=self.settings, planner=self.planner)
        return self._retriever

    def warm_up(self) -> None:
        self.retriever.search("stormwater pollution prevention plan", k=1)

    # --- the one entry point ------------------------------------------------------------------------
    def plan(self, question: str, municipality: str | None = None, conversation: Conversation | None = None) -> QueryPlan:
        """How the assistant reads a question (raises InvalidInput for bad input, UnknownMunicipality)."""
        if municipality is None and conversation is not None and conversation.municipality:
            municipality = conversation.municipality  # chosen in the UI: the caller's choice
        return self.planner.build(question, municipality, named_wins=True)

    def ask(self, question: str, municipality: str | None = None, conversation: Conversation | None = None) -> Answer:
        plan = self.plan(question, municipality, conversation)
        chosen = [plan.municipality] if plan.municipality_source == "caller" else None
        try:
            answer = self._answer(plan, conversation)
        except ValidationError:
            # A quote failed verification while composing: say so rather than return it or crash.
            log.exception("could not compose a verified answer for %r", plan.query[:200])
            answer = A.abstain(self.corpus, plan.query, QUOTE_SAFELY, chosen)
        answer = self._finish(answer, plan, chosen)
        if conversation is not None:
            self._remember(conversation, plan, answer)
        return answer

    def compare(self, topic: str) -> dict:
        return C.compare(self.corpus, self.retriever, self.planner.build(topic))

    # --- verification and rendering -------------------------------------------------------------------
    def _finish(self, answer: Answer, plan: QueryPlan, chosen: list[str] | None) -> Answer:
        draft = Draft(blocks=tuple(answer.blocks))
        problems = D.verify(self.corpus, draft, calculation=[answer.calculation, answer.calculation_input],
                            question=plan.query, echo_question=answer.intent == "clarify")
        if problems:  # never return an unsupported claim; fall back to an honest abstention
            log.warning("answer to %r failed verification: %s", plan.query[:200], problems)
            answer = A.abstain(self.corpus, plan.query, QUOTE_SAFELY, chosen)
            draft = Draft(blocks=tuple(answer.blocks))
        return answer.model_copy(update={"answer": D.render_text(draft), "lead": D.first_sentence(draft),
                                         "citations": draft.citations})

    # --- routing ----------------------------------------------------------------------------------------
    def _answer(self, plan: QueryPlan, conv: Conversation | None) -> Answer:
        if conv is not None and conv.turns:
            follow = self._follow_up(plan, conv)
            if follow is not None:
                return follow
        answer = self._route(plan)
        answer = self._answer_first_part(plan, answer) if answer.abstained else answer
        if plan.overridden and plan.municipality:
            names = A._names(self.corpus)
            answer = _with_note(answer, f"You chose the {names[plan.overridden]}; this answer is for the "
                                        f"{names[plan.municipality]}, which your question names.")
        return answer

    def _answer_first_part(self, plan: QueryPlan, whole: Answer) -> Answer:
        """"does 7B let farms off the hook? and where is 'agricultural activity' defined?": when the question as
        a whole cannot be answered but its first question can, answer that one and say what the text lacks
        for the rest (the abstention's own words), rather than abstain on all of it."""
        # "Is farming exempt in Tuckahoe, and where does the village define farming?" asks two questions too.
        parts = [p.strip() for p in re.split(r"(?<=\?)\s+|,\s+and\s+(?=(?:where|what|who|how|when|which|why)\b)",
                                            plan.query) if p.strip()]
        # "A neighbor runs a flower farm. Is farming exempt from 7B review, and where ...?": its last sentence asks
        if len(parts) >= 2 and not parts[0].endswith("?") and _OPENS_QUESTION.match(last_sentence(parts[0])):
            parts[0] += "?"
        if (len(parts) < 2 or not parts[0].endswith("?") or len(parts[0].split()) < 3 or plan.subject
                or plan.external or all(_ELABORATION.fullmatch(p) for p in parts[1:])):
            # "what hours can we run equipment? the neighbors complain about the noise": all of it is about noise;
            # "do I file an NOI under GP-02-01, and what's in it?": all of it is about an outside document;
            # "what standard must silt fence be built to? The Blue Book?": the rest only says more of the first
            return whole
        chosen = plan.municipality if plan.municipality_source != "none" else None
        try:
            first = self.planner.build(parts[0], chosen)
        except InvalidInput:
            return whole
        answer = self._route(first)
        missing = next((b.text for b in whole.blocks if b.kind in ("lead", "text") and b.text), None)
        if answer.abstained or answer.intent == "clarify" or not missing:
            return whole
        rest = " ".join(parts[1:])
        return _with_note(answer.model_copy(update={"question": plan.query}),
                          f"On the rest of your question (\u201c{rest}\u201d): {missing}")

    def _route(self, plan: QueryPlan) -> Answer:
        q = plan.query
        caller = plan.municipality if plan.municipality_source in ("caller", "conversation") else None
        named = list(plan.named)
        if plan.intent == "abstain" and plan.other_place:
            place = _with_the(plan.other_place)
            # "Port Washington in the Town of North Hempstead": each place the question names
            others = [plan.other_place, *(p for p in self.planner.gazetteer.other_places(q, self.planner.ours)
                                          if p != plan.other_place)][:3]
            reason = f"{A.NOT_IN_CORPUS} anything about {' or '.join(map(_with_the, others))}: {A.scope_sentence(self.corpus)}"
            held = " and ".join(f"the {A._names(self.corpus)[n]}" for n in plan.named)
            if plan.named and plan.sited_elsewhere:  # "does the Town's article apply to a project in Freeport?"
                reason += (f" The land asked about is in {place}, whose own laws are not in this corpus, and the "
                           f"text of {held} here does not say whether it reaches land there. Ask {place}'s own "
                           f"building or engineering department.")
            elif plan.named:  # "is Hempstead's fine higher than Yonkers'?": one side of the comparison is here
                reason += (f" So they cannot be compared here; ask about {held}'s rule on its own for what its "
                           f"text says.")
            return A.abstain(self.corpus, q, reason, list(plan.named) or None)
        if caller and named and caller not in named:
            names = A._names(self.corpus)
            follow = f"Which municipality: {' or '.join(names[n] for n in [caller, *named])}?"
            draft = D.build(D.text(f"You chose the {names[caller]}, but the question names the "
                                   f"{' and '.join(names[n] for n in named)}. Which one do you mean?"))
            return A.reply(q, draft, "clarify", municipality=caller, follow_up=follow)
        munis = list(plan.scope)
        is_named = bool(caller or named)
        laws = [self.corpus.ordinances[oid] for oid in plan.laws]
        if is_named and laws and not self.corpus.covering({o.topic for o in laws}) & set(munis) and \
                not self._own_term_asked(plan, munis):
            # "a generator at my house in Hempstead: electrical permit?": no electrical code of Hempstead's is here.
            return A.no_law_there(self.corpus, q, munis, laws[0])
        numbered = A.answer_section_number(self.corpus, q, munis)
        if numbered is not None:
            return numbered
        if plan.intent == "lookup":
            cited = A.resolve_lookup(self.corpus, q, plan.citation_text or q, plan.municipality)
            if cited is not None:
                return A.answer_provision(self.corpus, q, self._part_asked(plan, cited))
        # "can the parent company be the applicant?" of a municipality whose text defines no "applicant": who may be
        # one is the rules' question (retrieval), not what the word means
        undefined_role = plan.intent == "definition" and asks_role(q) and not any(
            self.corpus.definitions(m).get(plan.term or "") for m in munis)
        if plan.intent == "definition" and plan.term and not undefined_role:
            # "max silt fence spacing per the Blue Book?" uses the term without asking what it means: a gap the
            # question names (the manual's contents are not in the corpus) answers it
            gap = A.find_gap(self.corpus, plan, munis, None) \
                if not plan.asked_definitions and not _asks_what_is(plan) else None
            if gap is not None:
                return gap
            # "30,000 sq ft of regrading - is that a 'land development activity'?": the calculator decides it.
            name = self._calculator_from_evidence(plan)
            ans = self._calculate(plan, name, munis, is_named) if name else None
            if ans is not None:
                return ans
            hits = self.retriever.search_plan(plan, 5) if plan.yes_no else None
            return A.answer_definition(self.corpus, q, plan.term, munis, is_named, plan, hits)
        if plan.intent == "compare":
            return C.answer_compare(self.corpus, self.retriever, plan)
        # A calculator the question's slots call for answers first when it can decide: its answer names what is
        # not in the corpus itself ("10 days: 10 separate offenses; the fine is set in § 1-7, not here").
        # Else a corpus gap the question names answers before it ("2 acres in Tuckahoe?": the threshold is in
        # Appendix A, not here).
        external = A.find_external(self.corpus, plan, munis)
        if external is not None and plan.intent == "calculator":
            return external  # "what's the max penalty under § 1-7?" asks what that document says, not our tiers
        calculated = self._calculate(plan, plan.calculator, munis, is_named) \
            if plan.intent == "calculator" and plan.calculator else None
        if calculated is not None and calculated.intent == "calculator" and not calculated.abstained:
            return calculated
        gap = A.find_gap(self.corpus, plan, munis, self._first(plan)) or external
        if gap is not None:
            return gap
        if calculated is not None:
            return calculated
        name = self._calculator_from_evidence(plan)
        if name:
            ans = self._calculate(plan, name, munis, is_named)
            if ans is not None:
                return ans
        return A.answer_retrieval(self.corpus, self.scorer, self.retriever, plan, munis, is_named)

    def _exemption_leads(self, plan: QueryPlan, muni: str) -> bool:
        """Retrieval ranks first, clearly, an item the law says "may be exempt": the exemption answers, whatever
        the area a calculator would ask for."""
        hits = self.retriever.search_plan(plan.for_municipality(muni), 2)
        if not _leads_clearly(hits, EXEMPTION_LEADS_CLOSE):
            return False
        lead_in = A._lead_in(self.corpus, hits[0].id)
        return lead_in is not None and "may be exempt" in lead_in.quote

    def _rules_elsewhere(self, name: str, muni: str) -> bool:
        """The municipality's rules for this calculator say its contents live in text not in the corpus."""
        rules = self.corpus.rules.get(muni)
        table = getattr(rules, name, None) if rules is not None else None
        return bool(getattr(table, "missing", None))

    def _first(self, plan: QueryPlan) -> str | None:
        """Retrieval's best provision when it leads clearly (the next scores under GAP_YIELD_LEAD of it, and
        it is GAP_YIELD_CLOSE close) or one of its headnote yes/no questions is GAP_YIELD_ASKED close;
        searched only when a gap the question matched may yield to it."""
        if not any(gap.yields_to for _, gap in A.gaps_matched(self.corpus, plan)):
            return None
        hits = self.retriever.search_plan(plan, 2)
        if not hits:
            return None
        asked = (hits[0].yes_no_similarity or 0.0) >= GAP_YIELD_ASKED
        return hits[0].id if _leads_clearly(hits, GAP_YIELD_CLOSE) or asked else None

    def _part_asked(self, plan: QueryPlan, cited: Provision) -> Provision:
        """The part of a cited section the question asks about ("what does 7-11 say about how fees get set?" ->
        § 7-11(f)): the one retrieval ranks first among its parts for the words after "about"; the section itself
        when nothing follows "about", it has no parts, or none of them ranks among the closest LOOKUP_PART_DEPTH."""
        topic = A.topic_asked(plan.citation_text or plan.query)
        parts = {d.id for d in self.corpus.descendants(cited.id)} if topic else set()
        if not parts:
            return cited
        asked = self.planner.build(topic, cited.municipality)
        best = next((h.id for h in self.retriever.search_plan(asked, LOOKUP_PART_DEPTH) if h.id in parts), None)
        return self.corpus.get(best) if best else cited

    def _calculator_from_evidence(self, plan: QueryPlan) -> str | None:
        """A calculator for a question no wording sent to one, from evidence only: the question states a slot
        the calculator works from, and retrieval's best provision is one its rules rest on ("30,000 sq ft of
        regrading - is that a land development activity?" -> applicability). With two such calculators, the
        one resting on more of the top three provisions."""
        from .calculators import CALCULATORS
        from .calculators.deadlines import ASKS_A_DAY

        if plan.intent not in ("retrieval", "definition") or plan.subject:
            return None  # "what hours can crews start making noise on Saturday?" is about another subject
        if APPROVED_BEFORE.search(plan.query):
            return None  # "a permit approved back in 2005 ... exempt?": the law's effective date decides, not the area
        if plan.outside_new_york and _LICENSED.search(plan.query):
            return None  # "an engineer licensed in New Jersey ... a SWPPP for a 2-acre job": no calculator weighs a licence
        kind = A.answer_kind(plan)  # "2 acres: who do I hand the plan to?" asks for an office, which no calculator gives
        if kind is None and plan.yes_no:
            # "a 1.4-acre expansion ... Who takes the SWPPP, and must it be approved if it complies?": the question
            # asked first is the office's ("do we need a SWPPP for 2 acres, and who reviews it?" asks the area's first)
            kind = A.kind_of(re.split(r",\s*and\s+|\?", plan.query)[0])
        if kind is None and plan.yes_no and _ACTOR_ASKED.search(plan.query):
            kind = "who"  # "2 acres. Can my contractor be the one who calls the Town for the inspections?"
        wanted = [c.name for c in CALCULATORS.values()
                  if any(plan.slots.get(s) for s in c.needs) and (kind is None or kind in c.answers)
                  # "the SWPPP map only shows the work zone. Do they need to show the whole property?" asks of one
                  # item: the whole list of contents answers no yes/no question
                  and not (c.name == "swppp_checklist" and plan.yes_no)
                  # "renewal was due Dec 31; is there a grace period?" asks whether, not a day: no dated obligation answers it
                  and not (c.name == "deadlines" and plan.yes_no and not ASKS_A_DAY.search(plan.query))
                  and not (c.name == "applicability" and _SIZED_PLAN.search(plan.query))]
        if not wanted:
            return None
        hits = self.retriever.search_plan(plan, 3)
        if not hits:
            return None
        # "2,000 sq ft patio: is that a land development activity?": the asked term's own definition is evidence
        # before what retrieval ranked (the term is what the question asks about)
        asked = [(m, pid) for m in plan.scope if plan.intent == "definition" and plan.term
                 and (pid := self.corpus.definitions(m).get(plan.term))]
        evidence = [*asked, *((h.municipality, h.id) for h in hits)]
        best: tuple[int, str] | None = None
        for name in wanted:
            cited = self.corpus.calculator_provisions(evidence[0][0], name)
            if not _rests_on(evidence[0][1], cited):
                continue
            # "391(E)(1)" and "391(E)" are one piece of evidence, not two
            resting = list(dict.fromkeys(pid for _, pid in evidence if _rests_on(pid, cited)))
            support = sum(not any(_rests_on(pid, frozenset([other])) for other in resting[:i])
                          for i, pid in enumerate(resting))
            if support < CALCULATORS[name].evidence:
                continue
            if best is None or support > best[0]:
                best = (support, name)
        return best[1] if best else None

    def _follow_up(self, plan: QueryPlan, conv: Conversation) -> Answer | None:
        q = plan.query
        muni = plan.follow_up_municipality
        if muni and conv.last_topic:
            last = self.planner.build(conv.last_topic, muni)
            if conv.last_calculator and conv.last_calc_input is not None:
                ans = self._calculate(last, conv.last_calculator, [muni], True,
                                      prior={**conv.last_calc_input, "municipality": muni}, shown=q)
                if ans is not None:
                    return ans
            return self._route(last).model_copy(update={"question": q})
        pending = conv.pending
        if pending and "area" in plan.slots and pending.get("calculator"):
            first = self.planner.build(pending["question"])
            slots = {**first.slots, **plan.slots}
            return self._calculate(first.model_copy(update={"slots": slots}), pending["calculator"], pending["munis"],
                                   True, shown=q)
        if plan.follow_up == "area" and conv.last_calculator in ("applicability", "swppp_checklist") and conv.last_calc_input:
            last_muni = conv.last_calc_input.get("municipality")
            munis = [last_muni] if last_muni else list(self.corpus.municipalities)
            return self._calculate(plan, conv.last_calculator, munis, True, prior=conv.last_calc_input, shown=q)
        if plan.follow_up == "full_text" and conv.last_citation_ids:
            p = self.corpus.get(conv.last_citation_ids[0])
            if p is not None:
                section = self.corpus.section_of(p.id)
                ans = A.answer_lookup(self.corpus, q, section.provision_id, p.municipality)
                if ans is not None:
                    return ans
        return None

    def _own_term_asked(self, plan: QueryPlan, munis: list[str]) -> bool:
        """Whether the question asks what one of these municipalities' own defined terms covers ("is a trench for an
        electric line grading under the Town's definition?"): the law it names by a word is not the one asked of."""
        return bool(_TERM_ASKED.search(plan.query)) and any(
            (p := self.corpus.get(pid)) is not None and p.municipality in munis for pid in plan.definitions)

    def _calculate(self, plan: QueryPlan, name: str, munis: list[str], named: bool, prior: dict | None = None,
                   shown: str | None = None) -> Answer | None:
        from .calculators import CALCULATORS, format_validation_error
        from .calculators.applicability import asks_exemption
        from .calculators.swppp_checklist import items_first

        q = shown or plan.query
        calc = CALCULATORS[name]
        names = A._names(self.corpus)
        if name == "penalty" and not plan.slots.get("electrical") and \
                {self.corpus.ordinances[o].topic for o in plan.divisions if o in self.corpus.ordinances} == {"electrical"}:
            # "kept working w/o a permit for 9 days: how many offenses under ch 7?": the law named is the electrical code
            plan = plan.model_copy(update={"slots": {**plan.slots, "electrical": True}})
        if name == "electrical_permit" or (name == "penalty" and plan.slots.get("electrical")):
            codes = [o for o in self.corpus.ordinances.values() if o.topic == "electrical"]
            electrical = [o.municipality for o in codes]
            if named and munis and codes and not set(munis) & set(electrical):
                return A.no_law_there(self.corpus, q, munis, codes[0])
            munis = [m for m in munis if m in electrical] or electrical
        parts: list[tuple[str, Any, dict]] = []
        for muni in munis:
            data, follow = A.build_calc_input(name, plan.slots, plan.query, muni, prior)
            if data is None and follow is None:
                return None  # nothing in the question this calculator can use: answer from the text instead
            if name == "applicability" and data is not None and not data.get("activity") and \
                    asks_exemption(plan.query) and self._exemption_leads(plan, muni):
                # "dredging a basin back to its original depth, 4 acres: exempt?": no activity the calculator knows
                # was read, and retrieval ranks an item the law says "may be exempt" first: that item answers
                return None
            if follow and self._exemption_leads(plan, muni):
                return None  # "a storm took out a drain; we dug right away. did we need a SWPPP?": emergency work may be exempt
            if follow and len(munis) == 1 and self._rules_elsewhere(name, muni):
                return None  # "must the Village's SWPPP list the receiving waters?": its list is not here, whatever the area
            if follow:
                p = self._threshold(name, muni) if len(munis) == 1 else None
                blocks = [D.text(follow)]
                if p is not None:
                    blocks += [D.text("It turns on the definition of land development activity:"),
                               D.quote(cite(self.corpus, p, p.text), role="definition")]
                return A.reply(q, D.build(*blocks), "clarify", municipality=muni if len(munis) == 1 else None,
                               follow_up=follow, calculator=name)
            try:
                out = calc.run_dict(data, corpus=self.corpus)  # type: ignore[arg-type]
            except ValidationError as exc:
                reason = format_validation_error(exc, calc.input_model)
                draft = D.build(D.text("I couldn't use the numbers in that question: " + reason))
                return A.reply(q, draft, "clarify", municipality=muni, calculator=name,
                               calculation={"input_error": reason}, calculation_input=data,
                               follow_up="Could you restate the figures (for example \"2 acres\" or \"20,000 sq ft\")?")
            parts.append((muni, out, data))
        blocks: list = []
        caveats: list[str] = []
        quiet = [m for m, out, _ in parts if calc.silent(out)]
        if not named and 0 < len(quiet) < len(parts):
            # "disqualified on Sept 10: last day to appeal?": only the Village's text sets that deadline
            parts = [part for part in parts if part[0] not in quiet]
            caveats.append(f"Only the {' and the '.join(names[m] for m, _, _ in parts)}'s text sets this here; the "
                           f"{' and the '.join(names[m] for m in quiet)}'s text in this corpus does not.")
        for muni, out, data in parts:
            label = names[muni] if len(parts) > 1 else None
            lead = A.headline(name, out, names, data, q)
            blocks.append(D.lead(lead, label))
            if name == "swppp_checklist" and getattr(out, "items", None):
                blocks += [D.quote(cite(self.corpus, self.corpus.get(i.provision_id), i.text), role="item")
                           for i in items_first(out, plan.query)[:8]]
                blocks.append(D.text("- ...and the rest of the list in the full checklist (Calculators page, or "
                                     "`codeassist calc swppp_checklist --markdown`)."))
            else:
                cites = A.lead_cited_first(lead, A._steps_citations(self.corpus, out, limit=99))
                blocks += [D.quote(c, role="item") for c in cites[:4 if len(parts) > 1 else 6]]
            caveats.extend(c for c in getattr(out, "caveats", []) if c not in caveats)
        calc_json = parts[0][1].model_dump(mode="json") if len(parts) == 1 else \
            {"results": {m: o.model_dump(mode="json") for m, o, _ in parts}}
        # The inputs read from the question: one municipality's, or what every municipality's shares ("30,000 sq
        # ft" for both), so the user's own figure echoed in each lead is supported.
        shared = [{k: v for k, v in d.items() if k != "municipality"} for _, _, d in parts]
        calc_input = parts[0][2] if len(parts) == 1 else shared[0] if all(x == shared[0] for x in shared) else None
        citations = [b.citation for b in blocks if b.citation is not None]
        offices = A.offices_for(self.corpus, citations)
        draft = D.build(*blocks, *(D.note(c) for c in caveats[:4]), D.offices(offices, "Who decides:"))
        # The result rests on text that is not in the corpus (e.g. Tuckahoe's threshold, § 1-7 fines).
        undecided = all(A.calc_undecided(name, o, plan.slots) for _, o, _ in parts)
        return A.reply(q, draft, "calculator", calculator=name, abstained=undecided,
                       municipality=parts[0][0] if len(parts) == 1 else None,
                       calculation=calc_json, calculation_input=calc_input,
                       caveats=caveats, offices=offices)

    def _threshold(self, name: str, muni: str):
        """The municipality's own definition of land development activity, where its text has one: what
        the answer to an area question turns on."""
        if name not in ("applicability", "swppp_checklist"):
            return None
        pid = self.corpus.definitions(muni).get("land development activity")
        return self.corpus.get(pid) if pid else None

    def _remember(self, conv: Conversation, plan: QueryPlan, answer: Answer) -> None:
        q = plan.query
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
            if plan.follow_up not in ("municipality", "area"):
                conv.last_topic = q
        if answer.citations:
            conv.last_citation_ids = [c.id for c in answer.citations]
        conv.last_calculator = answer.calculator
        conv.last_calc_input = answer.calculation_input if answer.calculator else None


# "... silt fence to be built to? The Blue Book?": a few words with no question of their own say more of the first
_QUESTION_OPENERS = "is|are|does|do|did|can|could|may|must|will|would|should|has|have|what|who|how|when|where|which|why"
_ELABORATION = re.compile(r"(?!\s*(?:" + _QUESTION_OPENERS + r"|and|or|also)\b)(?:[\w'’&.-]+\s*){1,4}\?", re.I)
_OPENS_QUESTION = re.compile(r"\s*(?:" + _QUESTION_OPENERS + r")\b", re.I)


def _asks_what_is(plan: QueryPlan) -> bool:
    """"what's the Blue Book everyone keeps mentioning?" asks what the term is, however it goes on."""
    return bool(re.match(r"\s*(?:so\s+|ok\s+)?(?:what|who)(?:'s|\s+is|\s+are|\s+was)\s+(?:(?:the|a|an|this|that)\s+)?"
                         + re.escape(plan.term or "") + r"(?!['’]s\b)", plan.query, re.I))


def _leads_clearly(hits: list[Hit], close: float) -> bool:
    """Retrieval's best provision leads clearly: the next scores under GAP_YIELD_LEAD of it, and it comes `close`
    in meaning."""
    return bool(hits) and (len(hits) == 1 or hits[1].score < GAP_YIELD_LEAD * hits[0].score) and \
        (hits[0].view_similarity or 0.0) >= close


def _with_the(place: str) -> str:
    """"the Town of North Hempstead" for "Town of North Hempstead"; other names as they are."""
    return re.sub(r"^(?=(?:Town|Village|City|County) of )", "the ", place)


def _with_note(answer: Answer, words: str) -> Answer:
    """The answer with a note after it (also listed among its caveats)."""
    note = D.note(words)
    return answer.model_copy(update={"blocks": [*answer.blocks, note], "caveats": [*answer.caveats, note.text]})


def _rests_on(pid: str, cited: frozenset[str]) -> bool:
    """The provision is one of `cited`, or a part or the whole of one ("391(B)(2)" and "391(B)(2)(c)")."""
    return pid in cited or any(A.same_family(pid, c) for c in cited)
