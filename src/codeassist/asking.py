"""How a yes/no question is put, set against a headnote question or the quoted law: its polarity, the figures
and units it names, who it asks about, the step it asks about, whether it asks about a rule or a thing, and
whether it judges the situation it describes. Pure predicates on text; verdict.py decides from them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .models import QueryPlan
from .plan import asking_clause
from .text import content_stems, figures, last_sentence, stems
from .understand import NEGATIVE


# ("in that same review", "repaving at the same grade", "on the same lot", "on the same visit", "a same-day call";
# "three different contractors handle different areas": one thing, or several of a kind, not two compared)
SAME_OR_DIFFERENT = re.compile(r"\b(?:differ|differs|difference)\b|"
                               r"\bdifferent\b(?! (?:\w+ )?(?:contractors?|subs|subcontractors?|crews?|areas?|parts?|phases?|"
                               r"lots?|sites?|builders?|developers?|owners?|compan(?:y|ies)|firms?|people|days?|times?|visits?|"
                               r"buildings?|houses?|jobs?|projects?|trades?|stages?|sections? of)\b)|"
                               r"(?<!\bthat )(?<!\bthis )\bsame\b(?!-)"
                               r"(?! (?:review|process|application|line|grade|elevation|footprint|location|spot|site|lot|"
                               r"property|parcel|time|day|week|month|project|job|building|house|permit|approval|visit|"
                               r"inspection|trip|developer|builder|owner|subdivision|plan|wiring|drainage|street|block|campus|"
                               r"crew|company|contractor|person|area|phase|family)s?\b)", re.I)
# "vs" compares places only when two are named: "pre vs post runoff comparison required?" asks one thing.
VERSUS = re.compile(r"\b(?:vs\.?|versus|compared?)(?!\w)", re.I)
# "does it go to the owner or to the builder?", "is it just the install that's illegal or the using it too?", "is
# it the building inspector who can revoke it?": which one
CHOICE = re.compile(r"\b(to|by|from|with|for|on|in) (?:(?:the|a|an|my|our|his|her|their) |(?:me|us|him|them)\b)[^?.]{0,40}? or \1 "
                    r"(?:the|a|an|my|our|his|her|their)\b|\b(?:just|only)\b[^?.]{1,60}\bor (?:the|a|an|my|our|is|are|do|does)\b|"
                    r"^\W*(?:is|was) it (?:the|a|an|my|our|his|her|their) [\w' -]{1,40}? (?:who|that|which) ", re.I)
IS_THERE = re.compile(r"\b(?:is|are) there\b", re.I)
MEASURED = re.compile(r"\b(?:is|are) there\b(?:\s+[\w'-]+){0,3}?\s+(?:time limits?|deadlines?|limits?|minimum|maximum|cap|"
                       r"fees?|charges?|costs?|amounts?|timelines?|time ?frames?|number)\b", re.I)
CARES_ABOUT = re.compile(r"^\s*(?:does|do|would|will)\s+(?:the\s+)?[\w' ]{1,30}?\s+(?:care|mind|object|regulate|police)\b|"
                          r"\b(?:have|has) (?:a|any) (?:problem|issue) with\b|"
                          # "do the stormwater laws actually recognize runoff as a problem for fish?"
                          r"\b(?:recogni[sz]e|acknowledge)s?\b[^?]{0,50}\bas (?:a |an )?(?:real |serious )?"
                          r"(?:problem|concern|threat|harm|issue|hazard|danger|pollutant)s?\b", re.I)
# "do its findings say anything about construction wiping out native plants?": whether the text speaks of something
SAYS_ABOUT = re.compile(r"^\s*(?:does|do|did|will)\s+(?:the\s+|its\s+|their\s+)?[\w' ]{1,40}?\s+(?:say|mention|address|talk about)\s+"
                        r"(?:anything|something)\s+(?:about|on|regarding|concerning)\b", re.I)
NEW_YORK = re.compile(r"\bNew York\b|\bNYS\b|\bN\.Y\.", re.I)
_THING_ASKED = re.compile(r"\b(?:is|are) there\s+(?:(?:any|a|an|another|some|no|ever)\s+)*([a-z][\w-]*)", re.I)


def same_thing_asked(clause: str, asked: str) -> bool:
    """"is there another fee ...?" and "is a further fee required ...?" ask about the same thing (the fee); "is
    there any cap?" and "can the review cost more than the schedule?" do not name the same one."""
    m = _THING_ASKED.search(clause)
    return m is not None and bool(set(stems(m.group(1))) & set(stems(asked)))


ABOUT_A_RULE = re.compile(r"\b(?:rules?|laws?|requirements?|regulations?|restrictions?|anything|something|provisions?|"
                           r"polic(?:y|ies)|standards?|limits?|deadlines?|time limits?|caps?|ceilings?|maximums?|minimums?)\b", re.I)
RULE_AGAINST = re.compile(r"\b(?:rule|law|regulation|ordinance)s? against\b", re.I)
EITHER_OR = re.compile(r",?\s+or\s+(?:does|do|is|are|can|could|must|should|will|would|has|have|just|only)\b", re.I)


# What makes a question negative is its asking clause: a condition ("... if the certificate is not granted"),
# a statement before it ("not part of any subdivision. do I need ...") or a participle ("work not done by
# him") does not.
_CONDITION = re.compile(r"\b(?:if|when|unless|because|after|before|until|once|while)\b[^,;?]*", re.I)
# A condition after the main clause runs to the end of the sentence, lists and all: "can he keep an agency out if it
# has its licensing, bonding and insurance in order and no problems with the village?" asks in the positive
# ("... told the board that because X, the chapter doesn't apply": a condition fronted in a that-clause ends at its comma)
_TRAILING_CONDITION = re.compile(r"(?<=\w)(?<!\bthat)\s+(?:if|unless|provided(?: that)?|as long as|even though|even if|because)\b[^?.!]*", re.I)
_NOT_PARTICIPLE = re.compile(r"\bnot (?:\w+ed|done|made|given|paid|taken|known|shown|held|kept|built|met|set)\b|"
                             # "wiring the last owner put in without a permit": the participle's "without" describes
                             r"\b(?:\w+ed|put in|done|built|made|wired|hooked up)\s+without\b[^,;?]*", re.I)


# A relative clause describes someone ("a homeowner who is not a registered contractor", "a job that never got
# approval"); it does not negate.
_RELATIVE_NOT = re.compile(r"\b(?:who|which|that) (?:never|(?:is|are|was|were|has|have|does|do)(?:n't| not))\b[^,;?]*", re.I)


# A purpose clause says what the act is for ("put up fencing so the site isn't dangerous", "so that mud doesn't
# wash out"); it does not negate. Not "... so I don't need a permit?", which asks in the negative.
_PURPOSE_NOT = re.compile(r"\b(?:so(?: that)?|to make sure|to ensure|in case)\s+(?:the|it|nothing|nobody|no one|mud|dirt|"
                          r"water|soil|runoff|people|kids|anyone|neighbou?rs?|rain)\b[^,;?]*", re.I)


def _negative(text: str) -> bool:
    # "isn't there a rule against that?", "isn't it against the rules?" ask whether there is one, whether it is
    text = _ISNT_THERE.sub(r"\1 \2", text)
    text = _PURPOSE_NOT.sub(" ", _RELATIVE_NOT.sub(" ", _CONDITION.sub(" ", _TRAILING_CONDITION.sub(" ", text))))
    return bool(NEGATIVE.search(_NOT_ONLY.sub(" ", _NOT_PARTICIPLE.sub(" ", text))))


def claim_denies(question: str) -> bool:
    """Whether the claim told just before a bare "Correct?" or "Is that right?" denies something ("the engineer
    says it isn't part of the approved plan, so it doesn't go in the site binder. Correct?")."""
    question = question.strip()
    claim = question[:len(question) - len(last_sentence(question))].strip()
    return bool(claim) and _negative(last_sentence(claim))


# "is cutting the yearly volume, not only the peak flow, a goal?": "not only" adds to what is asked, it denies nothing
_NOT_ONLY = re.compile(r"\bnot (?:only|just|merely|simply|solely)\b", re.I)


_ISNT_THERE = re.compile(r"\b(is|are)(?:n't|n’t| not) (there|(?:it|that|this|he|she|they) (?=against|illegal|unlawful|"
                         r"a violation|prohibited|forbidden|banned))", re.I)


def negative_main(question: str) -> bool:
    return _negative(question[asking_clause(question):])


def sq_ft(plan: QueryPlan) -> float | None:
    return plan.slots.get("area") if plan.slots.get("area_unit") == "sq_ft" else None


# A figure the asker puts to us as the law's ("is it true the Town needs 72 hours' notice?", "I heard the appeal
# window is 30 days. Right?", "do I get 30 days to appeal?"), in a unit of time, rain, percent or money.
_CLAIM = re.compile(r"\b(?:is (?:it|that|this) (?:true|right|correct|so)|i (?:heard|was told|read)|(?:someone|somebody|they|he|she|"
                    r"my \w+|the \w+) (?:said|says|told me)|told me)\b|\b(?:right|correct|true)\s*\?\s*$|"
                    r"\bdo (?:i|we) (?:have|get) (?:\w+ ){0,2}\d|"
                    # "the notice says I have 30 days to appeal. Is that what the Town law says?"
                    r"\bis (?:that|this|it) what (?:the|their|our|its) (?:[\w-]+ ){0,2}(?:says?|requires?|allows?|sets?)\b|"
                    r"\b(?:says?|said|states?|stated) (?:that )?(?:i|we|you|they) (?:have|get|must|need)\b", re.I)
_UNIT_FIGURE = re.compile(r"(\$\s?[\d,]+(?:\.\d+)?)|([\w.,-]+)\s*(?:-\s*)?(hours?|hrs?|days?|weeks?|months?|years?|yrs?|"
                          r"inch(?:es)?|percent|%)(?![\w])", re.I)
_UNIT_NAMES = {"hr": "hour", "yr": "year", "%": "percent", "inche": "inch"}


_SPELLED_AGAIN = re.compile(r"\s*\(\d+\)(?=\s)")  # "five (5) years": the figure in words and again in digits


def _unit_figures(text: str) -> set[tuple[str, str]]:
    """(value, unit) for each figure with a unit in the text: ("48", "hour"), ("1000", "dollar")."""
    out = set()
    for m in _UNIT_FIGURE.finditer(_SPELLED_AGAIN.sub("", text)):
        if m.group(1):
            out |= {(v, "dollar") for v in figures(m.group(1))}
            continue
        unit = m.group(3).lower().rstrip("s") or m.group(3)
        out |= {(v, _UNIT_NAMES.get(unit, unit)) for v in figures(m.group(2))}
    return out


def claims_another_figure(question: str, said: str) -> bool:
    """The question puts one figure to us as the law's and the quoted words give that unit only other figures."""
    if not _CLAIM.search(question):
        return False
    claimed = _unit_figures(question)
    if len(claimed) != 1:
        return False
    (value, unit), = claimed
    given = {v for v, u in _unit_figures(said) if u == unit}
    return bool(given) and value not in given


def names_another_identifier(asked: str, said: str) -> bool:
    """The asking clause names a permit or form by its identifier ("is GP-02-02 the permit my site needs?") and
    the words quoted name only other identifiers of its kind ("GP-02-01"): the one asked about is not the one the
    law names."""
    mine = {m.upper() for m in _IDENTIFIER.findall(asked)}
    given = {m.upper() for m in _IDENTIFIER.findall(said)}
    kinds = {m.split("-")[0] for m in mine}
    return bool(mine) and not (mine & given) and any(g.split("-")[0] in kinds for g in given)


# "our sediment trap is a third full": how much of a thing's capacity the question says is used up
_SHARE_WORDS = {"a quarter": 25.0, "one quarter": 25.0, "a fourth": 25.0, "a third": 100 / 3, "one third": 100 / 3,
                "half": 50.0, "two thirds": 200 / 3, "three quarters": 75.0}
_SHARE = re.compile(r"\b(?:(\d{1,3}(?:\.\d+)?)\s?(?:%|percent)|(" + "|".join(_SHARE_WORDS) + r"))(?:[\s-]+(?:of the way|way))?"
                    r"[\s-]+(?:full|filled(?: up)?|silted(?: up| in)?|(?:of|of its|of their) (?:design )?capacity)\b", re.I)
# "whenever their design capacity has been reduced by 50%": the share that sets the duty off
_REDUCED_BY = re.compile(r"\bcapacity (?:has|have) been reduced by (\d{1,3})\s?%|\breduced by (\d{1,3})\s?%", re.I)


def share_verdict(question: str, said: str) -> str | None:
    """"Yes"/"No" when the question says how full a thing is ("a third full of silt") and the words quoted set
    the share that triggers the duty ("whenever their design capacity has been reduced by 50%"): below it, not
    yet; at or above it, yes. None when either is missing."""
    asked, limit = _SHARE.search(question), _REDUCED_BY.search(said)
    if asked is None or limit is None:
        return None
    share = float(asked.group(1)) if asked.group(1) else _SHARE_WORDS[asked.group(2).lower()]
    return "Yes" if share >= float(limit.group(1) or limit.group(2)) else "No"


# A rule for new things ("when any new stormwater management facility is installed"), and a question about an old one.
_FOR_NEW = re.compile(r"\b(?:any|each|every) new\b", re.I)
_OLD = re.compile(r"\b(?:old|older|existing|pre-?existing|decades? ago|(?:\w+ )?years? ago|already (?:there|in place|built|installed)|"
                  r"since (?:the )?(?:(?:19|20)\d\d|\d0s|'\d0s)|back in (?:the )?(?:(?:19|20)\d\d|\d0s)|in (?:19|20)\d\d)\b", re.I)


def old_asked_of_a_rule_for_new(question: str, said: str) -> bool:
    """The words quoted (or the headnote question) speak of new things only, and the question of an old one ("an old
    drywell since the 90s"): whether the rule reaches it is not what they say."""
    return bool(_FOR_NEW.search(said)) and bool(_OLD.search(question)) and not re.search(r"\bnew\b", question, re.I)


# What a headnote question's subject lacks ("an unregistered company", "an unlicensed electrician").
_LACKING = re.compile(r"\b(un(?:register|licens|permit|approv|inspect|certifi|qualifi)\w*|non-?(?:register|licens)\w*)\b", re.I)


def unasked_lack(question: str, asked: str) -> bool:
    """The headnote question turns on its subject lacking something (unregistered, unlicensed) the question
    never says its subject lacks."""
    low = question.lower()
    return bool(_LACKING.search(asked)) and not _LACKING.search(low) and \
        not re.search(r"\b(?:without|no|not|never|lack\w*)\b|n't\b", low)


# Steps of their own a question may ask about: a headnote question that does not name the step ("may work continue
# under a stop-work order?") does not answer whether one may take it ("can I appeal the stop-work order?").
_LEGAL_ACTION = re.compile(r"\b(appeal\w*|contest\w*|challeng\w*|disput\w*|sue|suing|waiv\w*|transfer\w*|"
                           r"revok\w*|revocation|cancel\w*|reinstat\w*)\b", re.I)


# "can the Building Inspector give me a permit in the meantime?": a permit issued, asked of a provision on another
# paper (a registration's report) is another step
_PERMIT_ISSUED = re.compile(r"\b(?:give|gives|giving|issue|issues|issuing|grant|grants|granting|get|pull|obtain)\s+(?:me\s+|us\s+|him\s+|"
                            r"her\s+|them\s+)?(?:an?\s+|the\s+|my\s+|our\s+)?(?:[\w-]+\s+)?(permits?)\b", re.I)


def other_action(question: str, named: str, expansions: Sequence[str] = ()) -> bool:
    """The asking clause names a step (appeal, waive, revoke, issue a permit ...) that neither the headnote question
    nor the provision's text names, nor the glossary's words for the question's words."""
    clause = question[asking_clause(question):]
    words = set(stems(f"{named} {' '.join(expansions)}"))
    return any(not set(stems(m.group(1))) & words
               for m in (*_LEGAL_ACTION.finditer(clause), *_PERMIT_ISSUED.finditer(clause)))


COUNTS_AS = re.compile(r"\b(?:counts? as|considered(?: an?| the)?|qualif(?:y|ies) as|classified as|deemed)\b", re.I)
DEEMS = re.compile(r"\b(?:constitutes?|deemed|considered|means|include[sd]?|treated as)\b", re.I)
# ("it's only a few days" makes light of a wait; it does not narrow who or what)
# ("not only the peak flow" adds to what is asked, "a ditch that only runs when it rains" describes the thing: no "only")
ONLY_ASKED = re.compile(r"(?<!\bnot )(?<!\bthat )(?<!\bwhich )(?<!\bwho )\b(?:only|solely)\b(?! (?:to|for)\b| (?:an? |one |two |three |\d+ )?(?:few |couple (?:of )?)?"
                        r"(?:days?|hours?|weeks?|minutes?|months?|dollars?|bucks)\b)", re.I)
# "she's not a landscape architect", "I'm not the owner": who or what the question is about is denied to be X.
_NOT_A = re.compile(r"\b(?:not|isn't|aren't|n't)\s+(?:a|an|the)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)", re.I)
_NOT_A_PHRASE = re.compile(r"\b(?:not|isn't|aren't|n't)\s+(?:a|an|the)\s+([^,;?]+)", re.I)


# A credential denied ("licensed, bonded and insured but not accredited", "never been registered").
_NOT_QUALIFIED = re.compile(r"\b(?:not|isn't|aren't|wasn't|n't|never been|without being)\s+(?:yet\s+|even\s+)?"
                            r"(accredited|licensed|registered|certified|insured|bonded|authorized)\b", re.I)


def denies_subject(question: str, asked: str) -> bool:
    """The question says its subject is not something the headnote question names, and the headnote question
    does not deny it too ("a homeowner who is not a registered electrical contractor" asks what the question asks);
    or denies it a credential the headnote question's subject has ("licensed ... but not accredited" against "a
    properly licensed, accredited, bonded and insured company")."""
    named = set(content_stems(asked))
    denied_there = {stem for m in (*_NOT_A_PHRASE.finditer(asked), *_NOT_QUALIFIED.finditer(asked))
                    for stem in content_stems(m.group(1))}
    return any((stems := set(content_stems(m.group(1)))) and stems <= named and not stems <= denied_there
               for m in (*_NOT_A.finditer(question), *_NOT_QUALIFIED.finditer(question)))


# "can a land surveyor stamp our plan?", "can my GC just do it?": who would do the work, asked by name.
_ACTOR = re.compile(r"\b(?:can|could|may|might)\s+(?:a|an|the|my|our|his|her|their|any|one of (?:our|my|the))\s+"
                    r"(?:[\w-]+\s+){0,2}?([\w-]+)\s+(?:just\s+|also\s+|legally\s+|still\s+)?"
                    r"(?:prepare|sign|stamp|certify|design|draw|write|do|submit|seal|put together|handle|enforce|"
                    r"carry out|execute)\b", re.I)


# The professions and parties a headnote question may turn on ("... certified by a landscape architect ...?").
_ROLE = re.compile(r"\b(?:[\w-]+\s+)?(architect|engineer|surveyor|specialist|contractor|subcontractor|electrician|"
                   r"plumber|landscaper|homeowner|tenant|landlord|developer|applicant|lawyer|attorney)s?\b", re.I)


def role_unasked(question: str, asked: str, expansions: Sequence[str] = ()) -> bool:
    """The headnote question turns on a role by a kind of its own ("a landscape architect") that the question
    names in no way, nor the glossary's words for it: its answer is about that role, not what was asked."""
    named = f"{question} {' '.join(expansions)}".lower()
    for m in _ROLE.finditer(asked):
        kind = (m.group(0).split()[0] if len(m.group(0).split()) > 1 else "").lower()
        if kind and kind not in _ANY_KIND and content_stems(kind) and \
                not re.search(rf"\b{re.escape(m.group(1).lower())}", named) and kind not in named:
            return True
    return False


# Whoever does the work, named by no qualification: a rule for the work binds or frees them all.
_ANY_WORKER = frozenset("crew crews worker workers guys men people team employees laborers labourers someone anyone".split())


_MODALS = frozenset("can could may might".split())
_OBJECTS = frozenset("us me them him her it you".split())
# Words before a role that qualify it without naming another profession ("a licensed professional engineer" is
# an engineer; "a landscape architect" is not any architect).
_ANY_KIND = frozenset("a an the any my our your his her their such another other same new licensed professional "
                      "certified registered qualified state york duly master electrical general each every all no some "
                      "both either per one".split())


def other_actor(question: str, named: str, expansions: Sequence[str] = ()) -> bool:
    """The question asks whether someone may do the work, by a name (its head noun) neither the headnote question
    nor the quoted words use, nor the glossary's words for it: a Yes about a landscape architect or the officer
    is no Yes for a land surveyor (a No may stand: the law's list of who may is the whole list)."""
    m = _ACTOR.search(question[asking_clause(question):])
    if m is None:
        return False
    name = m.group(1)
    if name.lower() in _ANY_WORKER:
        return False  # "can the crew still do work to secure the site?" asks what may be done, not by whom
    if name.lower() in _OBJECTS:
        return False  # "can the village make us do monitoring?": who is made to do it is no one asked to do it
    # "can the SMO sign it?": an abbreviation the glossary spelled out beside the question (its initials)
    spelled = next((e for e in expansions if "".join(w[0] for w in e.split()) == name.lower()), "")
    if re.fullmatch(OFFICIALS, name, re.I) or re.search(OFFICIALS, spelled, re.I):
        return False  # "can the town do the work and bill us?" asks of the officials' powers, named otherwise
    head = set(stems(name))
    if not head:
        return False
    if not head & (set(stems(named)) | set(stems(" ".join(expansions)))):
        return True
    # "can my architect sign the SWPPP?" against "a licensed landscape architect", and "can a landscape architect
    # sign it?" against "can an architect sign it?": one names a kind of the role the other does not
    asked = {w.lower() for w in re.findall(r"[\w-]+", m.string[m.start():m.start(1)])} - _ANY_KIND - _MODALS
    before = {k.lower() for k in re.findall(rf"([\w-]+)\s+{re.escape(name)}s?\b", named, re.I)}
    kinds = before - _ANY_KIND
    if asked:
        return not asked & kinds
    return bool(kinds) and kinds == before


def figures_asked(question: str, said: str) -> str:
    """The words whose figures a verdict must agree with: the asking clause ("the 2020 NEC?"), and the statement
    before it when the clause points back to it and the quote sets figures of its own ("in business four years
    ... does Tuckahoe honor it?" is not settled by "shall be entitled ... not less than five years"; "built 10
    years ago. Can the Town still inspect them?" is by a right of entry that counts no years)."""
    at = asking_clause(question)
    clause = question[at:]
    if _points_back(clause) and figures(said):
        return question
    # "I've only done electrical work 3 yrs ... does Tuckahoe give me reciprocity?": the statement counts in a unit
    # the quote sets its own figure in ("not less than five (5) years")
    return question if {u for _, u in _unit_figures(question[:at])} & {u for _, u in _unit_figures(said)} else clause


# "is that acceptable / enough / ok?" asks whether the situation described meets the rule, which the rule's modal
# ("shall be certified by ...") does not say; only a headnote question that close does.
JUDGES_SITUATION = re.compile(r"^\W*(?:(?:so|and|but),?\s+)?(?:is|would|will|does|was) (?:that|this|it|he|she|they) "
                               r"(?:be |count as |still )?(?:acceptable|enough|sufficient|ok|okay|fine|good enough|valid|"
                               r"compliant|legit|legal|qualified)\b|"
                               # "is ticking 'erosion control' on the form enough to satisfy the requirement?"
                               r"^\W*(?:is|are|would|will) [^?]{1,60}? (?:enough|sufficient|adequate) to (?:satisfy|meet|fulfil+|comply)\b|"
                               # "they only call a contractor when the lot floods. Does that meet the Town's minimum?"
                               r"^\W*(?:(?:so|and|but),?\s+)?(?:does|would|will|did) (?:that|this|it) (?:meet|satisfy|fulfil+|comply with)\b", re.I)
_POINTS_BACK = re.compile(r"\b(?:it|them)\W*$", re.I)  # "... does Tuckahoe honor it?"


# "OK?", "Good enough?", "the Town is fine with that, right?", "is that a proper notice?": whether what was described
# passes, asked in words JUDGES_SITUATION does not list
OK_ASKED = re.compile(r"^\W*(?:(?:so|and|but),?\s+)?(?:ok|okay|good enough|fine|acceptable|alright|all right|enough|sufficient|"
                      r"complete|that ok|that okay|that fine|that enough)\W*$|"
                      r"\b(?:is|are) (?:fine|ok|okay|good|alright|all right) with (?:that|this|it)\b|"
                      # "... but not the job site. Is that how it's supposed to be?"
                      r"^\W*is (?:that|this) how (?:it'?s|it is) supposed to (?:be|look|read)\W*$|"
                      r"^\W*(?:is|would|will|does|was) (?:that|this|it) (?:count as |make it |make that )?(?:a |an )?"
                      r"(?:proper|valid|complete|legal|compliant|acceptable) (?:\w+ ){0,2}?(?:notice|plan|swppp|drawing|map|application)\W*$", re.I)
# What a plan or notice described leaves out: "our SWPPP skips describing the soils", "the SWPPP only names the
# bay", "no sizes for any of them", "gives no date", "leaves out the spill plan"
_OMITS = re.compile(r"\b(?:skips?|skipped|skipping|leaves? out|left out|leaving out|omits?|omitted|omitting|drops?|dropped|"
                    r"(?:does ?n[o']t|do ?n[o']t|did ?n[o']t) (?:list|show|include|name|give|mention|describe|have|say|state|"
                    r"identify|specify)|but (?:no|not)|nothing (?:about|on)|(?:has|have|with|gives?|shows?|lists?) no|"
                    # "signed with just his name: no job title", "there's no separate maintenance schedule"
                    r"without|missing|lacking|lacks?|(?<=[:;,]\s)no|there(?:'s| is| are) no)\s+(?P<what>[^.?!;]{3,80})|"
                    # "only names the bay": what it does name is the kind of thing it must name all of
                    r"\bonly (?P<only>(?:names?|lists?|identif(?:y|ies)|describes?)\s+[^.?!;]{3,80})|"
                    # "signed it, but never dated it": what was never done is what it lacks
                    r"\bnever (?P<never>dated|listed|showed|shown|included|named|gave|mentioned|described|stated|identified|specified|"
                    r"addressed|located)\b", re.I)


def omission_judged(question: str, at: int, required: str) -> bool:
    """The question tells of a plan or notice that leaves something out and asks whether that passes, and what it
    leaves out shares a word with what the provision `required` (its words and its "must ...?" headnote question)
    requires: "our SWPPP skips describing the soils. the Town is fine with that, right?" against "description of the
    soil(s) present at the site"."""
    from codeassist.text import content_stems

    last = last_sentence(question)
    if not (JUDGES_SITUATION.search(last) or OK_ASKED.search(last)):
        return False
    wanted = set(content_stems(required))
    story = question[:len(question) - len(last)] or question[:at]
    return any(set(content_stems(m.group("what") or m.group("only") or m.group("never"))) & wanted
               for m in _OMITS.finditer(story))


def _points_back(clause: str) -> bool:
    """The asking clause refers to the statement before it ("is that right?", "... does Tuckahoe honor it?")."""
    return bool(_ANAPHOR.search(clause) or _POINTS_BACK.search(clause))


def asked_scope(question: str) -> str:
    """The words a question asks with: its asking clause, and the statement before it too when the clause points
    back to it ("my engineer says only a PE can sign it. Is that right?")."""
    clause = question[asking_clause(question):]
    return question if _points_back(clause) else clause


def asked_negatively(question: str) -> bool:
    """Is the question asked in the negative? Its asking clause says, and a statement before it only when the
    clause refers back to it ("my electrician isn't licensed, is that a problem?"); "I'm leasing, not the
    owner. Am I a landowner?" and "he never did the drainage. Can the town stop occupancy?" ask positively."""
    clause = question[asking_clause(question):]
    if _NEGATIVE_TAG.match(clause):
        return False  # "it doesn't mention any penalty. Isn't it supposed to?" asks whether it is supposed to
    supposed = _SUPPOSED_TAG.match(clause)
    if supposed:
        return _negative(clause[supposed.end():])  # "isn't it supposed to give a deadline?" asks whether it is
    return _negative(clause) or (bool(_ANAPHOR.search(clause)) and _negative(question))


# A short negative question that only points back ("Isn't it supposed to?", "Shouldn't they have to?"): it asks
# the positive, expecting a yes.
_NEGATIVE_TAG = re.compile(r"^\W*(?:is|are|was|were|does|do|did|should|must|would|will|wo|can|could|has|have)(?:n't|n\u2019t)\s+"
                           r"(?:it|they|he|she|that|this|there|we|i|you)(?:\s+(?:supposed|required|meant|obliged|have|has|need|"
                           r"got)(?:\s+to)?(?:\s+(?:be|do|have|say|include|list|state))?)?\s*\?*\s*$", re.I)


# "Isn't it supposed to give a deadline?", "Aren't they required to notify us?": a negative question about a duty
# asks whether the duty is there, expecting a yes; what follows "to" may still ask in the negative.
# "Doesn't it have to name somebody?" asks so of a duty too.
_SUPPOSED_TAG = re.compile(r"^\W*(?:(?:is|are|was|were|should|must)(?:n't|n\u2019t)\s+(?:it|they|he|she|that|this|there|we|i|you|"
                           r"the \w+)\s+(?:supposed|required|meant|obliged)|(?:does|do|did)(?:n't|n\u2019t)\s+(?:it|they|he|she|that|"
                           r"this|the \w+)\s+(?:have|need))\s+to\b", re.I)


# "is that a problem?", "is it ok?": the clause points back at the statement before it ("put it back" does not).
# "is a drawing with that required?" asks of a thing named before it, not whether the statement is so.
_ANAPHOR = re.compile(r"(?<!\bwith )(?<!\bfor )(?<!\blike )(?<!\babout )(?<!\bof )\b(?:that|this|those|these|so)\b|^\W*(?:is|was|would|will|does) it\b|"
                      # "we never touch dirt - do we really have to?": the question ends where its object was
                      r"\b(?:have|has|need|needs|got) to\s*\?*\s*$", re.I)
# "a shed of 100 square feet or less", "a shed of more than 100 square feet": a bound the question's figure may fall within.
_BOUND = re.compile(r"(\d[\d,.]*)\s*(?:[a-z]+\s+){0,2}(or (?:less|fewer|under|smaller)|or (?:more|greater|over|larger))\b|"
                    r"\b(?:(more|larger|greater|bigger)|less|smaller|fewer) than\s+(\d[\d,.]*)", re.I)


def _within(bound: re.Match[str], value: float) -> bool:
    """The figure falls within the bound: "N or less" (at most N), "N or more", "more than N", "less than N"."""
    if bound.group(1) is not None:
        limit = float(bound.group(1).replace(",", ""))
        below = bound.group(2).lower().split()[1] in ("less", "fewer", "under", "smaller")
        return value <= limit if below else value >= limit
    limit = float(bound.group(4).replace(",", ""))
    return value > limit if bound.group(3) else value < limit


def _in_bound(mine: set[str], asked: str) -> bool:
    """One figure of the question's, `mine`, falls within the bound of a headnote question with one figure."""
    bound = _BOUND.search(asked)
    if bound is None or len(mine) != 1 or len(figures(asked)) != 1:
        return False
    try:
        return _within(bound, float(next(iter(mine)).replace(",", "")))
    except ValueError:
        return False


def figure_within_bound(question: str, asked: str, area: float | None = None) -> bool:
    """The question's one figure (or the area read from its sides) falls within the headnote question's bound."""
    mine = figures(_CHAPTER_REF.sub(" ", question))
    if area is not None and len(mine) == 2:
        mine = {f"{area:g}"}
    return _in_bound(mine, asked)


# "... an 'electrical contractor' under ch 7?": a law's number names it, it is no figure of the question's; nor is a
# person's age ("my 17-year-old") where the law sets none
# "does 7B allow ...?": a chapter named bare, as the subject of a verb of what a law does
_CHAPTER_REF = re.compile(r"\b(?:ch(?:apter)?|§+|sec(?:tion)?|art(?:icle)?)\.?\s*\d+[A-Z]?(?:-\d+)?(?:\([A-Za-z0-9]{1,3}\))*|§+\s*\d+|"
                          r"\b\d+[A-Z]\b(?=\s+(?:allows?|says?|requires?|covers?|applies|apply|lets?|permits?|gives?|means?|"
                          r"defines?|sets?|needs?|provides?|demands?|mentions?)\b)", re.I)
# "two months later", "3 years ago": when something in the story happened, not a figure a rule is asked about.
_ELAPSED = re.compile(r"\b(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|several|couple(?: of)?)\s+"
                      r"(?:days?|weeks?|months?|years?|yrs?)\s+(?:later|ago|afterwards?|back|since)\b", re.I)
# "my new four-family", "a five-story building", "3-bedroom", "a 4-lot subdivision": a kind of building or development,
# not a figure a rule is asked about
_KIND_OF_BUILDING = re.compile(r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve)[- ](?:family|stor(?:y|ey|ies)|"
                               r"bedroom|bathroom|car|unit|bay|stall|lane|suite|apartment|lot|home|house)s?\b", re.I)
_AGE = re.compile(r"\b\d{1,2}[- ](?:years?|yrs?)[- ]old\b|\b\d{1,2}\s?(?:yo|y/o)\b", re.I)
# "I'm a W-2 electrician", "three employees who do the wiring": a tax form's name and a head count are no figures a
# rule is asked about (a count of journeymen is: § 7-5(a)(2)'s "one (1) or more"); nor is a label ("phase 1", "lot 3")
_NOT_A_FIGURE = re.compile(r"\b(?:w-?[249]|1099(?:-[a-z]+)?|i-?9)\b|\b(?:phase|stage|lot|unit|building|part) (?:#\s*|no\.?\s*)?\d+[a-z]?\b(?!-)|"
                           r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|a few|several)\s+"
                           r"(?:employees|workers|guys|people|helpers|crew members|staff)\b", re.I)


# A document's number ("GP-02-01", "GP-0-20-001") names it; it is no figure a question must share.
_IDENTIFIER = re.compile(r"\b[a-z]{1,4}-\d+(?:-\d+)+\b", re.I)


def same_figures(question: str, asked: str, text: str = "", area: float | None = None) -> bool:
    """The question is about the headnote question's figures: the same ones, or one figure within the
    headnote's bound ("an 80 sq ft shed" and "a shed of 100 square feet or less"; an `area` read from "8 by
    10 feet" is that one figure); or the headnote question names none and the provision's text holds every
    figure the question names ("48 hrs notice before reopening?" and "is the reopening one of the stages
    ...?" of a text that says "48 hours")."""
    if not re.search(r"\b(?:years of age|age of)\b", text, re.I):
        question = _AGE.sub(" ", question)
    question = _NOT_A_FIGURE.sub(" ", _KIND_OF_BUILDING.sub(" ", _IDENTIFIER.sub(" ", question)))
    asked, text = _IDENTIFIER.sub(" ", asked), _IDENTIFIER.sub(" ", text)
    theirs = figures(asked)
    if not theirs:  # "... two months later a bad connection started a fire. Can we hold the village responsible?"
        question = _ELAPSED.sub(" ", question)
    mine = figures(_CHAPTER_REF.sub(" ", question))
    bound = _BOUND.search(asked)
    if area is not None and len(mine) == 2 and bound:
        mine = {f"{area:g}"}
    if mine == theirs and bound is not None and bound.group(4) is not None and not _BOUND.search(question):
        return False  # "my 100 sq ft shed" is not "a shed of more than 100 square feet"
    if mine == theirs or (not theirs and mine <= figures(text)):
        return True
    at = asking_clause(question)
    if not theirs and text and at and not (mine - figures(text)) & figures(question[at:]) and \
            all(_unmeasured(f, question[:at], text) for f in mine - figures(text)):
        # "a letter of credit the bank can cancel on 30 days' notice. Can the Town take that?", "a 1.2-acre project
        # ... Do we need a maintenance easement?": told before the question, in a unit the provision never
        # measures, the figure is the story's, not one the law sets ("is the bond 10% of the cost?" asks it)
        return True
    return _in_bound(mine, asked)


# A figure's unit, right after it ("30 days'", "1.2-acre", "48 hrs"), by the word that names it in a text.
_UNITS = {"acre": r"acres?|ac\b", "foot": r"feet|foot|ft\b", "inch": r"inch(?:es)?", "hour": r"hours?|hrs?\b",
          "day": r"days?", "week": r"weeks?", "month": r"months?", "year": r"years?|yrs?\b", "percent": r"%|percent"}


def _unmeasured(figure: str, question: str, text: str) -> bool:
    """The question gives `figure` with a unit ("30 days' notice", "$9,000") the provision's text never names, so
    no figure of the law's can be the one asked about."""
    number = r"(?<![\d.,])" + r",?".join(re.escape(figure)) if figure.isdigit() else r"(?<![\d.,])" + re.escape(figure)
    if re.search(r"\$\s?" + number + r"(?![\d.,]\d)", question) and "$" not in text:
        return True  # "billed us $9,000 ... can they charge more than that?": a sum the provision sets none of
    m = re.search(number + r"(?![\d.,]\d)\s*-?\s*(" + "|".join(_UNITS.values()) + r")", question, re.I)
    if m is None:
        return False
    unit = next(p for p in _UNITS.values() if re.fullmatch(p, m.group(1), re.I))
    return not re.search(r"\b(?:" + unit + r")", text, re.I)


# "does Tuckahoe require a bond?" asks whether it is required; "the Village may require" makes it the Village's
# choice, which neither Yes nor No says (DOMAIN.md: "may" is discretionary, "shall" is not).
_REQUIRED_ASKED = re.compile(r"\b(?:does|do|will|would|is|are)\b[^?.!]{0,50}?\b(?:require[sd]?|make (?:me|you|us|them|him|her|"
                             r"people|everyone|every(?:one|body)|developers?|applicants?|builders?) (?:post|provide|give|file|"
                             r"submit|get|put up))\b", re.I)
# "does the Town ALWAYS make you post a bond?" against "may require": not always, the Town's choice (a No)
ALWAYS = re.compile(r"\b(?:always|every time|each time|in every case|in all cases|automatically|no matter what|without exception)\b", re.I)
_MAY_REQUIRE = re.compile(r"\b(?:may|can|could)\b[^.;:?]{0,60}?\brequire[sd]?\b", re.I)  # "may be required" too


def discretion_asked_as_duty(question: str, asked: str, said: str) -> bool:
    """The question asks whether something is required, and the headnote question or the quoted words
    give only a power to require it."""
    clause = question[asking_clause(question):]
    return bool(_REQUIRED_ASKED.search(clause)) and bool(_MAY_REQUIRE.search(asked) or _MAY_REQUIRE.search(said)) \
        and not re.search(r"\b(?:shall|must) (?:\w+ ){0,3}require\b", said, re.I)


_PERIOD = re.compile(r"\b(?:(day|daily)|(week|weekly)|(month|monthly)|(year|yearly|annual|annually))s?\b", re.I)


def _periods(text: str) -> set[int]:
    """The units of time a question counts in (1 day, 2 week, 3 month, 4 year)."""
    return {next(i for i, g in enumerate(m.groups(), 1) if g) for m in _PERIOD.finditer(text)}


def counts_otherwise(question: str, text: str) -> bool:
    """Both count in units of time, and in none the same ("every day" against "each week's")."""
    counted, counted_there = _periods(question), _periods(text)
    return bool(counted and counted_there and not counted & counted_there)


# "does the Village require an operation and maintenance manual?": what is required, up to where the sentence
# goes on about it ("... on site every day", "... for stormwater practices").
_REQUIRED_THING = re.compile(r"\b(?:require|requires|need|needs|have to (?:have|get|provide|submit|file))\s+"
                             r"(?:an?|the|any)\s+(?!(?:one|other|such|more)\b)"
                             r"([a-z][\w-]*(?:\s+(?!(?:on|for|in|at|to|before|after|when|if|from|by|with|every|each|per|"
                             r"during|under|of|or|that|which|who|even|also|too|just|still|already|though|unless)\b)[a-z][\w-]*){0,3})", re.I)


def names_what_is_required(clause: str, said: str, expansions: Sequence[str] = ()) -> bool:
    """"does X require a Y?" is answered by a rule's modal only if the words quoted name the Y (its last word, or
    the glossary's words for it): "shall constitute a separate offense" says nothing of a trained contractor."""
    m = _REQUIRED_THING.search(clause)
    if m is None:
        return True
    head = stems(m.group(1).split()[-1])
    return not head or bool(set(head) & (set(stems(said)) | set(stems(" ".join(expansions)))))


# "unlawful ... to engage in the business ... without being registered": registering is the step the rule requires.
_WITHOUT_STEP = re.compile(r"\bwithout (?:first )?(?:being |having (?:been )?|securing |obtaining |getting |filing )?"
                           r"(?:an? |the |such )?([a-z]+)", re.I)


def asks_the_required_step(clause: str, said: str) -> bool:
    """The question asks whether one may take the step a prohibition requires ("can a corporation register?"
    against "unlawful ... without being registered"): the prohibition's No is not its answer."""
    return bool(_required_steps(said) & set(content_stems(clause)))


def _required_steps(said: str) -> set[str]:
    """The stems of the steps a prohibition requires ("unlawful ... without being registered" -> "regist");
    none when the words quoted prohibit nothing."""
    if not PROHIBITS.search(said):
        return set()
    return {s for m in _WITHOUT_STEP.finditer(said) for s in stems(m.group(1))}


# "never registered", "hasn't got a permit", "unregistered", "without a license": a step not taken.
_STEP_LACKED = re.compile(r"\b(?:never|not|no|without)\s+(?:[a-z]+\s+){0,2}?([a-z]+)|[a-z]+n['’]t\s+(?:[a-z]+\s+){0,2}?([a-z]+)|"
                          r"\bun([a-z]{4,})", re.I)


def lacks_the_required_step(question: str, said: str) -> bool:
    """The situation told lacks the step a prohibition requires ("never registered with the village" against
    "unlawful ... without being registered"): what the law forbids is what happened."""
    steps = _required_steps(said)
    return bool(steps) and any(set(stems(next(g for g in m.groups() if g))) & steps for m in _STEP_LACKED.finditer(question))


PROHIBITS = re.compile(r"\b(?:shall not|may not|must not|will not|cannot|no (?:[\w-]+ ){1,9}shall|unlawful|prohibited)\b", re.I)


OFFICIALS = r"\b(?:inspect[oe]r|officer|village|town|county|board|department|municipality|official)s?\b"


# "can the building inspector ...?", "may the village ...?": the question asks about an official's power.
OFFICIAL_ASKED = re.compile(r"^\W*(?:can|could|may|might|does|do|will|would|is|are)\s+(?:the\s+)?(?:[\w'-]+\s+){0,3}?"
                             + OFFICIALS, re.I)
ASKS_OF_OFFICIAL = re.compile(r"^\W*(?:may|can|could|must|shall|does|do|will)\s+(?:the\s+)?(?:[\w'-]+\s+){0,3}?" + OFFICIALS, re.I)
WE_ASK = re.compile(r"^\W*(?:(?:so|and|but|ok),?\s+)?(?:can|could|may) we\b", re.I)
_PRIVATE_PARTY = (r"(?:electrician|contractor|subcontractor|sub|plumber|engineer|architect|surveyor|builder|landscaper|guy|"
                  r"handyman|son|daughter|husband|wife|brother|sister|father|mother|dad|mom|friend|neighbou?r|landlord|"
                  r"tenant|owner|homeowner|developer|buyer|seller|client|customer)s?\b(?!['’])")
# "can I ...?", "can my electrician ...?", "can he ...?" asking what someone may do; "can I be charged?", "could he
# lose his registration?" ask what may befall them.
_PARTY_ASKS = re.compile(r"^\W*(?:(?:so|and|but|ok),?\s+)?(?:(?:can|could|may) (?:(?P<who>i|he|she)\b|(?:my|our|a|an) (?:own )?"
                         + _PRIVATE_PARTY + r")|am i allowed\b)(?!\s+(?:\w+\s+)?(?:lose|be|get|face|receive|owe|go to)\b)", re.I)
_PARTY_NAMED = re.compile(r"\b" + _PRIVATE_PARTY, re.I)
# The asker says which office they hold: "Village SMO here.", "I'm the Building Inspector", "As the town's SMO, ..."
_OFFICE = (r"(?:(?:the |our |a |an )?(?:village\W?s? |town\W?s? )?(?:smo|stormwater management officer|stormwater officer|"
           r"building inspector|code enforcement officer|enforcement official))")
_ASKER_OFFICIAL = re.compile(r"^\W*" + _OFFICE + r"\s+here\b|\b(?:i\W?m|i am|as) " + _OFFICE + r"\b", re.I)
_OFFICIAL_NAMED = re.compile(OFFICIALS, re.I)


_PRONOUN_ASKS = re.compile(r"^\W*(?:(?:so|and|but|ok),?\s+)?(?:can|could|may|might|will|would|does|is) (?:he|she|they)\b", re.I)
_OFFICIAL_PERSON = re.compile(r"\b(?:(?:building |electrical |stormwater |village |town )?inspect[oe]rs?|officers?|officials?|smo)\b", re.I)


def asked_of_an_official(question: str) -> bool:
    """The asking clause asks about an official's power: "can the inspector ...?", or "can he ...?" after a
    statement whose last person named is an official ("an inspector came by and wants to shut off the power ...
    can he actually do that?"), not a private party."""
    at = asking_clause(question)
    clause = question[at:]
    if OFFICIAL_ASKED.search(clause):
        return True
    if not _PRONOUN_ASKS.search(clause):
        return False
    return _named_last(question[:at], _OFFICIAL_PERSON, _PARTY_NAMED)


def _named_last(text: str, one: re.Pattern[str], other: re.Pattern[str]) -> bool:
    """`one` names someone in `text`, and after the last person `other` names (if any)."""
    ones = [m.end() for m in one.finditer(text)]
    others = [m.end() for m in other.finditer(text)]
    return bool(ones) and (not others or ones[-1] > others[-1])


def asked_of_a_party(question: str) -> bool:
    """The asking clause asks what a private party may do: "can I ...?", "can my electrician ...?", or "can he
    ...?" after a statement whose last person named is no official ("my electrician ... can he hook it back up?",
    not "the inspector came by. can he fine me?")."""
    at = asking_clause(question)
    asker = _PARTY_ASKS.search(question[at:])
    if asker is None:
        return False
    if (asker["who"] or "").lower() == "i" and _ASKER_OFFICIAL.search(question[:at]):
        return False  # "Village SMO here. Can I require weekly reports?": the official asks of the office's power
    if (asker["who"] or "").lower() not in ("he", "she"):
        return True
    return _named_last(question[:at], _PARTY_NAMED, _OFFICIAL_NAMED)
