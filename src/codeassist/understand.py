"""Question understanding (pure): validation, intent and the route a question takes. The glossary
(glossary.py) and the calculators' inputs (slots.py) are read by their own modules.

Nothing here retrieves or answers; `answer.py` acts on the `Route` this returns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from .errors import InvalidInput
from .glossary import Glossary, load_glossary
from .slots import ENOUGH_NOTICE, NOT_ELECTRICAL, STORM, notice_days_before, read_slots
from .text import clean_text, sentences, stems

# Asked in the negative or about getting out of a rule ("can I skip ...", "without a permit", "exempt"): a yes
# or no read off the law's modal would mislead.
NEGATIVE = re.compile(r"\b(not|no|never|without|skip|avoid|exempt|n't|cannot|can't|don't|doesn't|won't|isn't|aren't)\b", re.I)


def clean_question(text: object, max_chars: int) -> str:
    """The question as plain text, or InvalidInput with a message the user can act on."""
    if not isinstance(text, str):
        raise InvalidInput("Please type your question as text.")
    if "\x00" in text:
        raise InvalidInput("The question contains a NUL character; please retype it as plain text.")
    if len(text) > max_chars:
        raise InvalidInput(f"That question is {len(text):,} characters long; please keep it under "
                           f"{max_chars:,} characters and ask one thing at a time.")
    cleaned = clean_text(text)
    if not cleaned:
        raise InvalidInput("Please type a question, for example: \"Do I need a SWPPP for clearing 2 acres?\"")
    if not re.search(r"[^\W\d_]{2,}", cleaned) and not _CITATION_IN_Q.search(cleaned):
        raise InvalidInput("I couldn't find any words in that question. Please ask in a sentence.")
    return cleaned


# The words a wh-question opens with (plan.py reads yes/no questions as those without one).
QUESTION_WORDS = r"what|whats|how|who|whom|whose|when|where|which|why"


# --- intent ------------------------------------------------------------------------------------------

_CITATION_IN_Q = re.compile(
    r"(§\s*\d|\b\d+[a-z]?-\d+\b|\b(?:section|sec\.?)\s*\d{3}\b|\b3[89]\d\s*\(?[a-z]\)?\b|"
    r"\b(?:exemptions?|penalties|enforcement|fees|purpose|applicability)\s+(?:item\s+)?\(?[a-k]\)?(?:\s|$|\?))", re.I)
# "item f in 7B-6(a)(1)", "paragraph 2 of 7-11(d)": the item's label after the citation it belongs to.
_ITEM_OF = re.compile(r"\b(?:item|milestone|sub-?item|letter|clause|paragraph|subparagraph|subdivision|subsection|exemption|"
                      r"condition|requirement)\s+"
                      # "item b under the village's 7B-6(a)(1)": whose citation it is may be said between
                      r"\(?([A-Za-z]|\d{1,2})\)?\s+(?:in|of|under|from)\s+(?:(?:the|our|their)\s+)?(?:[a-z]+['\u2019]s\s+)?((?:(?:§+|section|sec\.?)\s*)?"
                      r"(?:\d+[A-Za-z]?\s*-\s*\d+|\d{3})(?:\s*\(\s*[A-Za-z0-9]{1,3}\s*\))*)(?![\w(-])", re.I)


def without_asides(text: str) -> str:
    """The text with each parenthetical aside blanked, every character a space, so positions stay put."""
    return re.sub(r"\([^()]*\)", lambda m: " " * len(m.group(0)), text)


# "7B-5 item (i)", "§ 7B-6(a)(1), milestone g": the item's label after its citation.
_ITEM_AFTER = re.compile(r"((?:§+\s*)?(?:\d+[A-Za-z]?\s*-\s*\d+|\d{3})(?:\s*\(\s*[A-Za-z0-9]{1,3}\s*\))*),?\s+"
                         r"(?:item|milestone|sub-?item|letter|clause|paragraph|subparagraph|exemption|condition)\s+"
                         r"\(?([A-Za-z]|\d{1,2})\)?(?![\w(])", re.I)


def items_cited(q: str) -> str:
    """The question with each item named with its citation written after it, or after its citation: "item f in
    7B-6(a)(1)" and "7B-6(a)(1) item f" -> "7B-6(a)(1)(f)"."""
    q = _ITEM_OF.sub(lambda m: f"{m.group(2)}({m.group(1)})", q)
    return _ITEM_AFTER.sub(lambda m: f"{m.group(1)}({m.group(2)})", q)


_LOOKUP_WORDS = re.compile(r"\b(what does|what do|show|say|says|text of|read|full text|quote|look ?up|open|cite|summar(?:y|ize|ise)|"
                           r"what'?s in|what is in|wording|verbatim|pull (?:up|out)|bring up|display|print|"
                           r"(?:can|could|may) (?:i|we) see|let me see|"
                           # "Tuckahoe 7B-5(g) -- which exemption is that one?", "what milestone is 7B-6(a)(1)(g)?"
                           r"(?:which|what) (?:milestone|exemption)\b|what(?:'s| is) (?:it|that)(?: one)?\s*\?|"
                           r"what goes in (?:that|this) (?:part|item|paragraph))\b", re.I)
_DEFINITION = re.compile(
    r"^(?:what(?:'s| is| are| does| counts as| qualifies as|s)|define|definition of|meaning of|who (?:is|counts as)|"
    r"what do(?:es)? (?:they|you|the (?:town|village|law|code)) mean by)\s+(?:an?\s+|the\s+)?[\"'\u2018\u201c]?(?P<term>[^?\"'\u2019\u201d]+?)[\"'\u2019\u201d]?"
    r"(?:\s+(?:mean|means|defined|stand for))?(?:\s+(?:under|in|according|for|as used|here|there|exactly)\b.*)?\s*\??$", re.I)
# A quoted term; an apostrophe inside a word ("Hempstead's") opens or closes nothing.
_QUOTED_TERM = re.compile(r"(?<![a-z])[\"'\u2018\u201c](?P<term>[a-z][a-z -]{2,60}?)[\"'\u2019\u201d](?![a-z])", re.I)
# "stormwater hotspot meaning?", "impervious cover definition"
_DEFINITION_TAIL = re.compile(r"^(?:an?\s+|the\s+)?(?P<term>[a-z][a-z' -]{2,60}?)\s+"
                              r"(?:meaning|definition|defined|means what|defn?\.?|=)\s*\??$", re.I)
# "phasing - what does that mean in the stormwater rules?", "impervious cover: what is it?": the term first.
_DEFINITION_LEAD = re.compile(r"^(?:an?\s+|the\s+)?(?P<term>[a-z][a-z' ]{2,60}?)\s*(?:[-\u2013\u2014:,?]+\s*)"
                              r"(?:what does (?:that|it|this) (?:mean|stand for)|what(?:'s| is) (?:that|it|this)|"
                              r"what(?:'s| is) (?:the )?(?:meaning|definition)|what(?:'s| is| are) included|meaning|definition|"
                              r"defined how|how (?:is|are) (?:that|it|this|the) (?:word |term )?defined|"
                              r"what does (?:that|this|the) (?:word|term) mean)\b", re.I)
_COMPARE = re.compile(r"\b(differ|different|difference|differences|compar(?:e|ed|es|ing)|comparison|versus|vs\.?|same in both|both towns|"
                      r"both places|both municipalities|the same in|same as|in both|differently|same|identical|alike|"
                      r"between\s+[\w.' -]{1,60}?\s+and\s+[\w.'-]+)\b", re.I)  # the municipalities are counted by the caller
def compares(text: str) -> bool:
    """Does the wording compare ("differ", "versus", "the same as", "between X and Y")?"""
    return bool(_COMPARE.search(text))


# "are fines worse in X or Y?", "which is stricter": with two places named, a comparison.
COMPARATIVE = re.compile(r"\b(?:worse|better|stricter|tougher|harsher|higher|lower|bigger|larger|smaller|easier|harder|"
                          r"cheaper|longer|shorter|more (?:strict|lenient|expensive)|which (?:one|is|has)|"
                          r"but not|(?:that|which) (?:the other|[\w.']+) (?:doesn't|does not|don't|do not|lacks?))\b", re.I)
# "higher than in Yonkers", "stricter than White Plains'": a comparison with one side named.
_THAN = re.compile(COMPARATIVE.pattern + r"[^.?!]{0,40}?\bthan\b", re.I)
# "doing work in Scarsdale - do I register there the way I did in Tuckahoe?": the place named after it is the model
_AS_DONE_IN = re.compile(r"\b(?:the way|like|as) (?:i|we|you|they|he|she) (?:did|do|had to|have to|have|had) (?:it |that )?(?:in|for|with)\b", re.I)
# "licensed in New Rochelle ... Is there a different fee for that than for a new license?": a thing is the other side
_THAN_A_THING = re.compile(r"\bthan (?:for |with |to |on |under )?(?:a|an)\b", re.I)


def _compares_with(q: str, other_place: str) -> bool:
    """Does the question compare its municipality's law with the other place's? A sentence that compares with a
    thing ("than for a new license") and does not name the place compares nothing with it."""
    place = other_place.lower()
    return any((_COMPARE.search(s) or _THAN.search(s) or _AS_DONE_IN.search(s))
               and (place in s.lower() or not _THAN_A_THING.search(s)) for s in sentences(q))


_BOTH = re.compile(r"\b(?:both|the two (?:towns|villages|municipalities|places|laws|codes|ordinances))\b", re.I)
_FOLLOW_MUNI = re.compile(r"^(?:and |but |ok(?:ay)?,? )?(?:what|how) about (?:in |for )?(?P<rest>.+?)\??$|^(?:and|same) (?:in|for) (?P<rest2>.+?)\??$", re.I)
_FOLLOW_AREA = re.compile(r"^(?:and |but |what )?(?:if|about if|what if)\b.*\b(acre|acres|sq|square|feet)\b", re.I)
_FOLLOW_FULL = re.compile(r"\b(that section|that provision|the full text|in full|whole section|show me that|full section)\b", re.I)

_APPLICABILITY = re.compile(
    r"\b(?:(?:need|needing|require[sd]?|required|requiring|have to)\s+(?:to\s+(?:file|submit|prepare|do|get|have|go through|undergo)\s+)?"
    r"(?:an?\s+|the\s+|any\s+|one of (?:those|these|the)\s+)?"
    r"(?:swppps?|stormwater (?:pollution prevention )?plan|erosion (?:and sediment )?(?:control )?(?:plan|review)|stormwater review|"
    r"stormwater permit)|(?:swppps?|stormwater (?:pollution prevention )?plan)\s+(?:\w+\s+){0,2}(?:needed|required|necessary)|"
    r"(?<!\bwhen )does (?:the|this) (?:(?:town|village)(?:'s)? )?(?:stormwater |erosion (?:and sediment )?(?:control )?|runoff )?"
    r"(?:law|rules?|chapter|article|ordinance) (?:even |really |actually )?(?:apply|kick in|cover (?:it|this|that|me|us|them|my \w+|our \w+))|"
    r"am i exempt|are we exempt|is (?:it|this|that|my \w+) exempt|"
    r"(?:is|counts? as) (?:this|it|that|my \w+|our \w+) (?:a )?land development activity)", re.I)
# With an area stated, whether it crosses the law's line: "over the threshold?", "are we in or out?".
_OVER_THRESHOLD = re.compile(r"\b(?:over|under|above|below|past|meet|hit|cross|reach|trip|trigger)(?:es|ed|ing|s|ped|ping)? (?:the |your |that |its )?"
                             r"(?:(?:town|village|law|article|chapter|code)(?:'s|\u2019s)? ){0,2}(?:(?:stormwater|erosion|swppp|disturbance) )?"
                             r"(?:(?:acreage|area|size|one[- ]acre) )?(?:threshold|cutoff|cut-off|line)\b|\b(?:are|is) (?:we|i|it|this|the (?:job|site|project)) "
                             r"(?:in or out|covered or not)\b|(?:^|[.?!:;\u2014-]\s*)in or out\b|"
                             # "4,850 square yards. Is that enough to trigger the Town's stormwater rules?"
                             r"\b(?:enough|big enough|large enough|sufficient) to (?:trigger|kick in|bring in|invoke) (?:the |your |its )?"
                             r"(?:(?:town|village)(?:'s|\u2019s)? )?(?:stormwater |erosion (?:control )?|swppp )?"
                             r"(?:rules?|law|article|chapter|ordinance|requirements?|review)\b|"
                             # "4,200 square meters: enough to fall under the Town rules?"
                             r"\b(?:fall|falls|come|comes) (?:under|within) (?:the |your |its )?(?:(?:town|village)(?:'s)? )?"
                             r"(?:stormwater |erosion (?:control )?)?(?:rules?|law|article|chapter|ordinance|requirements?)\b", re.I)
_CHECKLIST = re.compile(r"\b(what goes in|what (?:must|should|has to|needs to) (?:a |my |the |our )?(?:swppp|plan) (?:contain|include|have)|"
                        # "what are all the things the SWPPP must include for a 3 acre site?"
                        r"what (?:are )?(?:all )?(?:the )?(?:things|items|parts|sections|elements)\b[^?]{0,30}\b(?:swppp|plan) "
                        r"(?:must|should|has to|needs to|shall) (?:contain|include|have|show|list)|"
                        r"checklist|contents of (?:a |my |the )?swppp|which (?:of the )?(?:swppp |plan )?(?:items|parts|sections|elements)\b(?! of (?:the )?(?:law|article|chapter|code))|what (?:do i|should i|must i) (?:put|include) in|"
                        # "what else has to be in the SWPPP?", "what needs to go in the plan?"
                        r"what (?:else )?(?:has|needs|have|must|should) (?:to )?(?:be|go) in(?:to)? (?:a |my |the |our )?(?:swppp|plan))\b", re.I)
_PENALTY = re.compile(r"\b(fines?|penalt(?:y|ies)|how much (?:will|would|could|do) (?:i|we|they) (?:owe|pay|be fined)|jail|imprison|"
                      r"offen[cs]es?|convict(?:ions?|ed)|how many (?:(?:more|extra|additional|separate) ){0,2}(?:violations|offen[cs]es)|one violation or (?:several|many|more)|"
                      r"separate violations?|several violations|crimes?|criminal|misdemeanou?rs?|tickets?|ticketed)\b", re.I)
_DEADLINE = re.compile(r"\b(when is|when'?s|when are|earliest|close (?:it|them|that|the walls?) (?:up|in)|when (?:do|does|must|should) (?:i|we|the)|deadline|due|last day|how long (?:do|does) (?:i|we)|"
                       r"by when|expire|expires|expiration|run(?:s)? out(?! to\b)|good (?:until|through|till)|valid (?:until|through|till)|"
                       # "registered January 2: valid for a year, correct?"
                       r"(?:good|valid) for (?:a (?:full )?year|one year|twelve months|\d{1,2} (?:months?|years?))|"
                       # "approved on December 18: how long is it good for?"
                       r"how long (?:is|will|would|does) (?:it|that|this|the \w+|my \w+|our \w+) (?:be )?(?:good|valid|last)|"
                       r"how soon|latest|cut-?offs?|close the walls|cover (?:the )?wiring|conceal|"
                       # "last report was Monday, May 24. Can the next one slide past Memorial Day?"
                       r"(?:slide|slip|push(?:ed)?|wait|put (?:it |them )?off) (?:it |them )?(?:past|beyond|until after|till after)|postpone|"
                       r"when can (?:we|i)|void|release(?:d)? (?:the )?(?:bond|guarantee|security)|"
                       # "am I still inside the appeal window?", "is it too late to appeal?"
                       r"(?:appeal|filing) (?:window|period)|still (?:inside|within|in) (?:the |my |our )?(?:\w+ )?(?:window|time|deadline|period)|too late)\b", re.I)
_PERMIT = re.compile(r"\b(?:(?:need|require[sd]?|get|pull|apply for|file for|take out|obtain)\s+(?:an?\s+|the\s+|any\s+)?(?:village\s+|town\s+|city\s+|separate\s+)?"
                     r"(?:electrical\s+|wiring\s+)?permits?|"
                     r"without (?:an?\s+|the\s+|any\s+)?(?:electrical\s+|wiring\s+)?permits?|"
                     # "do I need permission to add a 50-amp outlet?" (not the landlord's: "need my landlord's permission")
                     r"(?:need|require[sd]?|get)\s+(?:(?:the\s+)?(?:village'?s?|town'?s?)\s+)?perm+is+ion\s+to|"
                     r"permits?\s+(?:needed|required|necessary|reqd|req'd)|permit needed|can i do it myself|do it myself|"
                     r"(?:pull|get|take out) (?:it|the permit|one) (?:out )?myself)\b|"
                     # "... for a hot tub. Permit?", "Permit, and can I pull it myself?", "Permit, or is that minor work?"
                     r"(?:^|[.!;:-]\s*)(?:an?\s+|electrical\s+)?permits?(?:\s+or\s+(?:no|not|none))?\s*(?:\?|,\s*(?:and|or)\b)", re.I)  # "... for a hot tub. Permit?"

# "upgrading my house to a 200 amp panel": a short statement of the work, no question asked, asks whether it
# needs a permit.
# A question typed without its mark ("does Tuckahoe honor my license") is no statement of work.
_BARE_PROJECT = re.compile(r"(?!.*\b(?:" + QUESTION_WORDS + r"|does|did|can|could|should|must|will|would)\b)[^?]{3,90}", re.I)

# Electrical work being done (the permit calculator's subject), not wiring merely used or owned.
_WORK = re.compile(r"\b(install\w*|replac\w*|add(?:ing)?|wir(?:e|ing) (?:up|a|an|the|my|our|new)|repair\w*|fix\w*|chang\w*|"
                   r"swap\w*|run(?:ning)?|upgrad\w*|mov(?:e|ing)|extend\w*|rewir\w*|put(?:ting)? (?:in|up|an?|the|some|new)|do (?:it|the work)|"
                   r"work|job|alter\w*|new|wants?|wanted|putting|circuits?|wired (?:in|into|up|to)|hook(?:ing|ed)? (?:it |them )?up)\b", re.I)
_USING = re.compile(r"\b(?:keeps?|kept|still|continues? to|go(?:es)? on) us(?:e|es|ing)\b|\busing it\b", re.I)


@dataclass
class Route:
    intent: str
    calculator: str | None = None
    term: str | None = None
    citation_text: str | None = None
    other_place: str | None = None
    notes: list[str] = field(default_factory=list)


# "can my contractor be the applicant?": whether someone can be what a term names
_ROLE = r"(?:can|could|may) (?:[\w']+ ){1,3}(?:be|act as|serve as)(?= (?:an?|the) )"
_DEFINITION_CUE = re.compile(r"\b(?:counts? as|considered|qualif(?:y|ies) as|what(?:'s| is| are|s)|define|definition of|"
                             r"meaning of|mean by|defined as|am i (?:an?|the)|are we (?:an?|the)|" + _ROLE + r")\b|\s=\s*", re.I)
_ROLE_ASKED = re.compile(r"\b" + _ROLE + r"\b", re.I)


def asks_role(q: str) -> bool:
    """Whether the question asks if someone can be what a term names ("can the parent company be the applicant?"):
    where no definition of the term is in the text, who may be it is the rules' question, not a meaning's."""
    return bool(_ROLE_ASKED.search(q)) and not _DEFINITION_CUE.search(_ROLE_ASKED.sub(" ", q))


def bare_phrase(text: str) -> str:
    """What a question says with its quotes, end punctuation and a leading article taken off ("the
    landowners?" -> "landowners"): when that is a defined term, the question asks what the term means."""
    return re.sub(r"^(?:an?|the)\s+", "", text.strip(" \t\n\"'\u2018\u201c\u2019\u201d?.!").lower())


# A leading "Under Tuckahoe's code, " / "In Hempstead's stormwater law: " names where, before the question.
_SETTING = re.compile(r"^(?:under|in|according to|per|for)\s+[^,:;?]{1,60}?\s*[,:;]\s*", re.I)


def _definition_term(q: str, definitions: dict[str, str], abbreviations: dict[str, str]) -> str | None:
    asked = _SETTING.sub("", q.strip())  # "Under Tuckahoe's code, who is an electrical contractor?"
    m = _DEFINITION.match(asked) or _DEFINITION_TAIL.match(asked) or _DEFINITION_LEAD.match(asked)
    candidates = []
    if m:
        candidates.append(m["term"])
    # "phasing?", "the landowner?": a defined term alone (the whole question) is asked about.
    bare = bare_phrase(q)
    for t in (bare, bare.rstrip("s"), abbreviations.get(bare, "")):
        if t and definitions.get(t):
            return t
    candidates += [qm["term"] for qm in _QUOTED_TERM.finditer(q)]
    cue = _DEFINITION_CUE.search(q)
    if cue:  # "does a dude ranch count as agricultural activity", "do I count as the landowner"
        rest = q[cue.end():].lower()
        found = [t for t in definitions if len(t) > 3 and re.search(r"(?<![\w-])" + re.escape(t) + r"(?![\w-])", rest)]
        # Multi-word terms anywhere after the cue; a single word only as the whole remaining phrase.
        multi = [t for t in found if " " in t]
        single = [t for t in found if " " not in t and re.fullmatch(
            r"\s*(?:an?\s+|the\s+)?" + re.escape(t) + r"(?:\s+(?:exactly|under .*|in .*|for .*))?\s*\??\s*", rest)]
        if multi or single:
            candidates.append(max(multi or single, key=len))
    elif re.match(r"(?:is|are|would|does|do)\s", last := re.split(r"(?<=[.!?:])\s+", q.strip())[-1], re.I):
        # "is a parking lot impervious cover?": a yes/no question (the last sentence: "2,000 sq ft patio. Is that a
        # regulated land development activity?") that ends on a defined term of two words or more
        end = re.sub(r"(?:\s+(?:under|in|for|according to)\b.*)?\s*\??\s*$", "", last.lower())
        ending = [t for t in definitions if " " in t and re.search(r"(?<![\w-])" + re.escape(t) + r"$", end)]
        if ending:
            candidates.append(max(ending, key=len))
    for raw in candidates:
        words = re.sub(r"\s+", " ", raw.lower()).strip(" .,:;-\u2013\u2014").split(" ")  # "stabilization - definition?"
        # "the town's stormwater hotspot": the term may follow a place or a possessive; try shorter tails.
        for i in range(min(len(words), 3)):
            term = re.sub(r"^(?:a|an|the)\s+", "", " ".join(words[i:]))
            for t in (term, term.rstrip("s"), term + "s", abbreviations.get(term, "")):
                if t and definitions.get(t):
                    return t
    if _MEANING_ASKED.search(q):
        # "the roads will be 'dedicated' to the Town. what does that word mean?": another form of a defined word
        for raw in candidates:
            word = bare_phrase(raw)
            same = [t for t in definitions if " " not in t and stems(t) == stems(word)] if re.fullmatch(r"[a-z]{5,}", word) else []
            if len(same) == 1:
                return same[0]
    back = _MEANING_OF_THAT.search(q)
    if back and not _QUOTED_TERM.search(q):
        # "my plan says the system works by infiltration. What does that mean?": the one defined term before it
        before = q[:back.start()].lower()
        named = [t for t in definitions if len(t) > 3 and re.search(r"(?<![\w-])" + re.escape(t) + r"(?![\w-])", before)]
        named = [t for t in named if not any(t != u and t in u for u in named)]  # "cover" inside "impervious cover"
        if len(named) == 1:
            return named[0]
    if m:  # "what's impervious mean?": one word of exactly one defined term of two ("impervious cover")
        word = bare_phrase(m["term"])
        holding = [t for t in definitions if t.count(" ") == 1 and len(word) >= 5 and re.search(
            r"(?<![\w-])" + re.escape(word) + r"s?(?![\w-])", t)] if re.fullmatch(r"[a-z]+", word) else []
        if len(holding) == 1:
            return holding[0]
    return None


_MEANING_OF_THAT = re.compile(r"\bwhat(?:'s| does| do| is)? (?:that|this|it)(?: word| term| phrase)? (?:mean|means)\b|"
                              r"\bwhat(?:'s| is) (?:the )?meaning of (?:that|this|it)\b", re.I)
_MEANING_ASKED = re.compile(r"\b(?:mean|means|meaning|defin\w*)\b", re.I)


_OFFICIAL_TITLE = re.compile(r"\b(?:storm ?water|erosion(?: control)?|electrical)\s+(?:management\s+)?(?:officer|official|"
                             r"inspector|department|engineer)s?\b", re.I)


def without_titles(text: str) -> str:
    """The text without officials' titles that name a law's subject ("the stormwater officer")."""
    return _OFFICIAL_TITLE.sub(" ", text)


_DISTURBS = re.compile(r"\b(?:disturb\w*|(?:re)?grad(?:e|es|ed|ing)|clear(?:s|ed|ing)?|excavat\w*|fill(?:ing)?|(?:re)?pav(?:e|es|ed|ing)|"
                       r"strip(?:s|ped|ping)?|dig(?:s|ging)?|construct\w*|build(?:s|ing)?|develop(?:s|ed|ing)?)\b")


_FILING_ASKED = re.compile(r"\b(?:anything|something|what|paperwork|forms?|filings?)\b[^.?!]{0,25}\b(?:need|have|must|should|got)"
                           r"(?: to)? (?:file|submit|fill out|get|send|hand in|turn in)\b|\bany (?:paperwork|filings?|forms?)\b",
                           re.I)


_LDA_ASKED = re.compile(r"\bland development activit(?:y|ies)\b[^.!]*\?")


# "a building permit approved back in 2005", "the plat was approved before the law": whether an approval that
# old exempts the work turns on the law's effective date, which no area decides.
APPROVED_BEFORE = re.compile(r"\b(approved before|(?:approved|issued|pulled) (?:back )?in (?:19|20)\d\d|before the (?:stormwater )?law|plat|"
                             # "a building permit approved on March 1, 2006", "issued on 2/14/2006"
                             r"(?:approved|issued|pulled) (?:back )?on (?:[a-z]+\.? \d{1,2}(?:st|nd|rd|th)?,? |\d{1,2}[/-]\d{1,2}[/-])(?:19|20)\d\d|"
                             r"(?:approved|issued|pulled|got|obtained)\b[^.?!]{0,50}\bback in (?:19|20)\d\d)\b", re.I)


def asks_applicability(q: str) -> bool:
    """Whether the question asks if a SWPPP or the law's review is needed ("flagpole - swppp needed?")."""
    return bool(_APPLICABILITY.search(q))


def route(q: str, definitions: dict[str, str], n_named: int = 0, other_place: str | None = None,
          slots: dict | None = None, glossary: Glossary | None = None, names_law: bool = False) -> Route:
    """Decide what the question needs, from the slots it states. `definitions` maps lower-case defined terms
    to provision ids; `n_named` is how many municipalities the question names; `names_law` is whether it
    names the topic of a law in the corpus (its metadata's topic words: "circuit" names an electrical code).
    A subject these laws do not cover is noted, not decided here: the answer layer abstains only when
    retrieval finds nothing close."""
    low = q.lower()
    if slots is None:
        slots = read_slots(q, date.today())[0]
    # "I'm licensed in White Plains; can I work in Tuckahoe?" is about Tuckahoe, but "is Tuckahoe's law the same as
    # White Plains'?" or "is the fine higher than in Yonkers?" asks of a law the corpus does not hold.
    if other_place and (not n_named or _compares_with(q, other_place)):
        return Route("abstain", other_place=other_place)
    glossary = glossary or load_glossary()
    subject = glossary.other_subject(q)
    # "keep trash out of the runoff", "is a parking lot impervious cover?": the laws' own subject is named too.
    # "repaving a parking lot at the same grade, exempt?": whether an activity the exemptions name is exempt is
    # theirs too ("can I keep chickens on my farm?" is not).
    # "can the stormwater officer officiate my wedding?": an official's title does not make the question the laws'
    # "disturbing 45,000 sq ft for a parking lot": an area of land disturbed is the laws' own subject ("chickens on
    # my 2 acre lot" is not).
    topical = NOT_ELECTRICAL.sub(" ", without_titles(low))
    ours = names_law or slots.get("electrical") or ("area" in slots and _DISTURBS.search(topical)) or \
        ("activity" in slots and re.search(r"\bexempt", low)) or \
        re.search(r"\b(storm ?water|storm (?:systems?|drains?|sewers?|mains?|lines?)|runoff|erosion|sediment|swpp\w*|pollut\w*|electric\w*|wiring|drainage|"
                  # "rough grading for a pool and patio": the land work is the laws' own
                  r"grading|regrad\w*|excavat(?:e|ed|es|ing|ion)\b|(?:land|soil) disturbance|"
                  # "the retention pond behind my house is full of trash": a stormwater practice is the laws' own
                  r"(?:retention|detention|recharge|infiltration) (?:ponds?|basins?|tanks?)|dry ?wells?|catch ?basins?)\b", topical) or \
        any(" " in t and re.search(r"(?<![\w-])" + re.escape(t) + r"(?![\w-])", low) for t in definitions)
    notes = [subject] if subject and not ours else [s] if (s := glossary.other_subject(q, beside_law_words=True)) else []
    cq = items_cited(q)
    m = _CITATION_IN_Q.search(cq)
    # "appendix a 7-3" is the Village's zoning appendix, not Chapter 7 § 7-3.
    if m and (_LOOKUP_WORDS.search(q) or len(q.split()) <= 6) and not re.search(r"\bappendix\b", low):
        return Route("lookup", citation_text=cq[m.start():])
    # "we work in Tuckahoe (and in Hempstead, different story). Can the village ...?": an aside compares nothing asked
    unaside = without_asides(q)
    if (_COMPARE.search(unaside) and (n_named >= 2 or _BOTH.search(low))) or (n_named >= 2 and COMPARATIVE.search(unaside)):
        return Route("compare")
    if notes:  # "what hours can crews start making noise on Saturday?": no calculator of ours counts that
        return Route("retrieval", notes=notes)
    has_area = "area" in slots
    if _CHECKLIST.search(q) and has_area:
        return Route("calculator", calculator="swppp_checklist")
    if slots.get("electrical") and (_PERMIT.search(q) or _BARE_PROJECT.fullmatch(q.strip())) and _WORK.search(q) \
            and not _USING.search(q) and not _PENALTY.search(q) and not _DEADLINE.search(q):
        return Route("calculator", calculator="electrical_permit")
    if (_PENALTY.search(q) and ("offense_number" in slots or "duration_days" in slots or
                                re.search(r"\b(max|maximum|minimum|how much|range|what(?:'s| is) the fine)\b|\$\s?\d", low))) or \
            ("offense_number" in slots and re.search(r"\$\s?\d", low)):  # "a first violation can cost up to $500?"
        return Route("calculator", calculator="penalty")
    rain = "inches" in slots and re.search(STORM, low)
    if rain or (_DEADLINE.search(q) and ("dates" in slots or "inches" in slots)) or \
            (len(slots.get("dates") or ()) > 1 and ENOUGH_NOTICE.search(q)) or \
            (len(slots.get("dates") or ()) == 1 and ENOUGH_NOTICE.search(q) and notice_days_before(q) is not None):
        return Route("calculator", calculator="deadlines")
    if "area_beyond_lot" in slots:  # "a 5,000-acre driveway on a quarter-acre lot": the figures are asked back
        return Route("calculator", calculator="applicability")
    if has_area and _DISTURBS.search(low) and (_FILING_ASKED.search(q) or _LDA_ASKED.search(low)):
        # "regrading the backyard, about 8,000 sq ft total. anything I need to file?", "clearing a 95 ft by 460 ft
        # strip: land development activity or not?": whether the law reaches it (the defined term turns on the area)
        return Route("calculator", calculator="applicability")
    if has_area and _OVER_THRESHOLD.search(q):  # "45,000 sq ft of grading: over the threshold?"
        return Route("calculator", calculator="applicability")
    if _APPLICABILITY.search(q) and not _CHECKLIST.search(q) and (has_area or "activity" not in slots) and \
            not APPROVED_BEFORE.search(low):
        return Route("calculator", calculator="applicability")
    term = _definition_term(q, definitions, glossary.abbreviations)
    if term:
        return Route("definition", term=term)
    return Route("retrieval", notes=notes)


def follow_up_rest(q: str) -> str:
    """The place part of "what about in Tuckahoe?" / "and in Hempstead", or "" when not such a follow-up."""
    m = _FOLLOW_MUNI.match(q.strip())
    return (m["rest"] or m["rest2"] or "") if m else ""


def is_follow_up_area(q: str) -> bool:
    return bool(_FOLLOW_AREA.search(q.strip())) and len(q.split()) <= 12


def is_follow_up_full_text(q: str) -> bool:
    return bool(_FOLLOW_FULL.search(q)) and len(q.split()) <= 12
