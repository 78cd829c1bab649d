"""Understanding a question, once: the `QueryPlan` that retrieval, the handlers and the eval read.

    planner = Planner(corpus)
    plan = planner.build("Do I need a SWPPP for clearing 2 acres in Hempstead?")
    plan.intent, plan.calculator, plan.slots, plan.municipality, plan.expanded

Pure (no index, no model). Everything specific to a municipality comes from the corpus metadata: its
names and aliases, its defined terms, and the gazetteer of other places (corpus/_places/).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from functools import cached_property
from typing import TYPE_CHECKING

from . import understand as U
from .glossary import append_expansions, load_glossary
from .slots import NOT_ELECTRICAL, read_slots
from .errors import CitationNotFound
from .models import Provision, QueryPlan
from .places import load_gazetteer
from .text import STOPWORDS, Speller

if TYPE_CHECKING:
    from .corpus import Corpus
    from .models import Ordinance

# Questions a yes or a no answers open (or, after a statement, go on: "... - can the town ...?") with an
# auxiliary verb; what they ask: may something happen (permission), must it (obligation), or does it (fact).
_QUESTION_WORDS = U.QUESTION_WORDS
_AUXILIARIES = r"can|could|do|does|did|is|are|am|was|were|must|should|shall|will|would|may|might|need|needs"
# "Once we fix it can we just flip it back on?", "if i fail the exam do i get the fee back": an opening
# condition typed without its comma ends where an auxiliary and its subject begin the question.
_CONDITION = (r"(?:^|[.!?;]\s+)(?:if|once|after|before|now that|as soon as)\s+"
              r"(?:(?!\b(?:" + _QUESTION_WORDS + r")\b)[^,?.;]){3,80}?\s+(?=(?:" + _AUXILIARIES +
              r")\s+(?:i|we|you|they|he|she|it|the|my|our|a|an|someone|anyone)\b)")
_CLAUSE_START = r"(?:^|[.!?;:\u2013\u2014-]\s+|,\s+|" + _CONDITION + ")"
_CLAUSE = _CLAUSE_START + r"(?:(?:ok(?:ay)?|so|and|but|also|hi|hello|quick question)[,:]?\s+)*"
_YES_NO = re.compile(_CLAUSE + r"(?P<aux>(?:" + _AUXILIARIES + r"|have|has)(?:n't|n’t|'t|’t|nt)?)(?![\w'’])", re.I)  # "isn't there ...?"
# "permit required?", "Covered by the stormwater law?", "exam fee refundable if I fail? Tuckahoe": a clause that
# opens with what is asked of it ("what info reqd?" asks for something else).
_ELLIPTICAL = re.compile(_CLAUSE_START + r"(?:(?!(?:" + _QUESTION_WORDS + r")\b)[\w'&-]+\s+){0,6}(?:required|req'?d|needed|covered|allowed|kept|counted|"
                         r"included|enough|acceptable|accepted|one of|"
                         r"exempt|ok|okay|legal|permitted|necessary|mandatory|refunded|refundable|returned|reimbursed|"
                         r"transferable|renewable|valid|enforceable|waived)\b[^?.!]*\?+(?:\s+[\w.'-]+){0,3}\s*$", re.I)
# A question with no question word that still turns on a verb ("if a judge strikes one part down does the rest
# still stand"; "in tuckahoe is a continuing violation counted ...").
WH = re.compile(r"\b(?:" + _QUESTION_WORDS + r")\b", re.I)
_AUX = re.compile(r"\b(?:" + _AUXILIARIES + r"|gotta)\b", re.I)  # "swppp gotta cover fuel storage?"
_ASKS = [
    ("obligation", re.compile(_CLAUSE + r"(?:must|should|do(?:es)? (?:[\w'\u2019-]+ ){1,6}(?:have|need) to|do(?:es)? (?:[\w'\u2019-]+ ){1,3}need|"
                              # "subs need to sign anything?" (not "who has to sign?")
                              r"(?!(?:" + _QUESTION_WORDS + r")\b)(?:[\w'&-]+ ){1,3}(?:(?:need|needs|have|has) to|gotta)|"
                              r"(?:is|are) (?:\w+ ){1,8}?(?:required|req'?d|needed|necessary|mandatory)|"
                              # "soils description reqd?": a telegraphic clause that ends on what is asked of it
                              r"(?!(?:" + _QUESTION_WORDS + r")\b)(?:[\w'&-]+ ){1,6}(?:required|req'?d|needed|necessary|mandatory)(?=\s*\?))\b", re.I)),
    # May the asker act ("can I ...?", "can a homeowner ...?"): only a prohibition answers it (No).
    ("permission", re.compile(_CLAUSE + r"(?:(?:can|could|may) (?:i|we|you|me|us|my \w+|our \w+|a homeowner|homeowners|"
                              r"an? (?:contractor|electrician|owner|resident|developer|landowner|person)|someone|anyone|people)|"
                              r"(?:am i|are we|are you|is my \w+) allowed|(?:is|would) (?:this|that|it) (?:be )?(?:allowed|permitted|legal|ok|okay)|"
                              # "... wait on the certificate later. Allowed in the village?"
                              r"(?:allowed|permitted|legal)(?=[^?.!]{0,40}\?))\b", re.I)),
    # May something else happen ("can the town inspect ...?", "can the CO be held up?"): the law's "may" or
    # "shall" answers it (Yes), a duty laid on the officials "shall not" answers it (No).
    ("authority", re.compile(_CLAUSE + r"(?:can|could|may|(?:is|are) (?:\w+ ){1,4}allowed)\b", re.I)),
    ("fact", re.compile(_CLAUSE + r"(?:does|do|will|would) (?:the|a|an|my|our|this|that|they|he|she|it|\w+)\b", re.I)),
]


def ask_kind(text: str) -> str | None:
    """What a yes/no question asks: "permission", "authority", "obligation", "fact" (see _ASKS), or None."""
    return next((kind for kind, pattern in _ASKS if pattern.search(text)), None)


def asking_clause(text: str) -> int:
    """Where the (last) yes/no clause of a question starts: "not part of a subdivision. do I need ..." -> at
    "do"; 0 when none is found."""
    starts = [m.start("aux") for m in _YES_NO.finditer(text)]
    return starts[-1] if starts else 0


# A typed question's sentences: text.sentences() splits the law's text only before a capital, and users type
# "can i? who pays?" in lower case. "0.5 inch" stays whole.
_SENTENCE = re.compile(r"(?:[^?.!]|[?.!](?=\S))+(?:[?.!]+|$)")


def verdict_query(text: str) -> str | None:
    """The yes/no part of a question that also asks something else: its statements and yes/no questions,
    without the other questions ("Can the officer hire an outside engineer? And who sets the cost?" -> the
    first). None when the question has no other question, or no yes/no one."""
    sentences = [m.group(0).strip() for m in _SENTENCE.finditer(text) if m.group(0).strip()]
    asked = [s for s in sentences if s.endswith("?")]
    kept = [s for s in sentences if not s.endswith("?") or _is_yes_no(s)]
    if len(asked) < 2 or len(kept) == len(sentences) or not any(s.endswith("?") for s in kept):
        return None
    return " ".join(kept)


def _is_yes_no(text: str) -> bool:
    # "which activities, as defined, have to submit a plan?" opens with a question word: the "have" after
    # its comma does not make it a yes/no question ("... in March. Does the town need to know?" still is).
    asked = [m for m in _YES_NO.finditer(text)
             if not _WH_OPENS.match(re.split(r"[.?!;:]\s", text[:m.start() + 1])[-1]) or _SUBJECT.match(text, m.end())]
    equation = re.search(r"\w\s*=\s*\w[^?]*\?\s*$", text)  # "dude ranch = agricultural activity?"
    either = re.search(r"\bor (?:no|not)\s*\?\s*$", text, re.I)  # "a new circuit for the condenser. Permit or no?"
    # "Our builder says the village needn't hear anything. True in Tuckahoe?": a claim told, then asked after
    true = re.search(r"(?:^|[.!?]\s+)(?:(?:is|was) (?:that|it|this|he|she|they) )?(?:true|right|correct|accurate)\b"
                     r"(?![^.?!]*\b(?:what|when|where|who|how|which|why)\b)[^.?!]{0,30}\?\s*$", text, re.I)  # not "Right, so when ...?"
    return bool(asked or _ELLIPTICAL.search(text) or equation or either or true or _TAG.search(text) or
                (not WH.search(text) and _AUX.search(text)))


# "So the yearly renewal is free too, right?": a statement with a tag asks whether it holds
_TAG = re.compile(r"\w[^.?!,]{8,},\s*(?:right|correct|true|yes|no|isn'?t (?:it|that)|aren'?t (?:they|we)|don'?t (?:they|we|i)|"
                  r"doesn'?t (?:it|he|she|that))\s*\?\s*$", re.I)


# ... unless the verb comes before its subject, as a question's does ("what happens, can we keep building?").
_SUBJECT = re.compile(r"\s+(?:i|we|you|he|she|it|they|the|a|an|my|our|your|their|this|that|these|those|there|[a-z]+'s)\b", re.I)
_WH_OPENS = re.compile(r"\s*(?:" + _QUESTION_WORDS + r")\b[^,]*,", re.I)


# A question that asks for a size, a distance or a price: the answer must hold a figure. "How far ahead / in
# advance" asks for a time, which any figure may give.
_METHOD_ASKED = re.compile(r"\bhow (?:does|do|did|will|would|is|are)\b[^?.]{0,40}?\b(?:figures?|figured|determin\w*|decid\w*|"
                           r"calculat\w*|computed?|works? out|sets?|comes? up with)\b[^?.]{0,12}$", re.I)
# A document the applicant prepares, asked whether it must show something: "require the plan to deal with where it
# goes and how big it is", "do the drawings have to say how deep the drywell is".
_SHOWN_IN_PLAN = re.compile(r"\b(?:plans?|swpp\w*|drawings?|maps?|applications?|reports?|submissions?|sheets?)\s+"
                            r"(?:(?:to|has to|have to|must|should|needs? to|also|actually|even|(?:is|are) required to)\s+){0,3}"
                            # "our SWPPP drawing shows where the drywells go but not how big they are"
                            r"(?:deals? with|address(?:es)?|show[sn]?|showed|says?|state[sd]?|specif(?:y|ies|ied)|include[sd]?|"
                            # "no drawing showing where they are or how big"
                            r"cover(?:s|ed)?|describe[sd]?|indicate[sd]?|gives?|list(?:s|ed)?|showing|saying|stating|"
                            r"specifying|including|covering|describing|indicating|giving|listing)\b"
                            r"[^?.]{0,40}$", re.I)
_MEASURE = re.compile(
    r"\bhow (?:tall|high|deep|wide|far|close|near|big|large|heavy|thick|steep)\b"
    r"(?! (?:can|could|will|would|is) the (?:fine|penalty)| (?:ahead|in advance|before|beforehand|out|along)\b)|"
    r"\bhow many (?:feet|foot|inches|yards|meters|square|gallons|amps?|volts?)\b|"
    r"\bwhat (?:size|height|depth|width|diameter|distance|spacing|slope|dimensions?|setbacks?|gauge|amperage)\b|"
    r"\bhow much (?:does (?:it|a|an|the) [\w -]{0,30}cost|is (?:the|a|an) [\w -]{0,30}(?:fee|charge|cost|price))\b|"
    r"\bwhat(?:'s|s| is| are) (?:the |a |an )?(?:[\w-]+ ){0,4}(?:fees?|cost|price|charge)(?= for| to| in| on| of| per| each|\s*\?|$)|"
    r"\b(?:fee|charge|cost)s? amounts?\b|\b(?:dollar )?amounts? of (?:the )?(?:fees?|charges?)\b|"
    r"\b(?:minimum|maximum|max|min) (?:[\w-]+ )?(?:size|height|depth|width|distance|setback|spacing|slope|grade)\b|"
    # "how often does the board of examiners meet?": a frequency
    r"\bhow often\b|"
    r"\bwhat (?:percent(?:age)?|share|fraction|portion) of\b", re.I)


_WHERE_SEEN = re.compile(r"\bwhere\b[^?.]{0,60}\b(?:see|find|look (?:up|at)|view|read|get (?:a copy|a list)|posted|kept|listed)\b"
                         r"[^?.]{0,40}$", re.I)


_HOW_MANY = re.compile(r"\bhow many ([a-z]{3,})\b", re.I)


NAMESAKE_SPAN = 30  # characters either side of a municipality's name where words placing a namesake count
# A place named only to say where another lies: "right next to Tuckahoe", "just outside the village".
_LANDMARK = re.compile(r"\b(?:next to|near|nearby|beside|bordering|borders|outside(?: of)?|close to|adjacent to|"
                       r"across (?:the (?:line|border) )?from|neighbou?ring|just past|right by|"
                       # "the Village of Garden City, which is inside the Town of Hempstead": where the place named lies
                       r"(?:which|that|it) is (?:inside|in|within|part of|located in))\s+(?:the\s+)?(?:(?:town|village|city) of\s+)?$")
# Whether a law reaches something: "does the Town's article apply to ...", "is my lot covered by ...".
_REACH = re.compile(r"\b(?:apply|applies|applicable|cover|covers|covered|govern|governs|reach|reaches|extend|extends|"
                    r"follow|obey|subject to|bound by|falls? under)\b", re.I)
# The law itself is what is asked to reach ("do the village's electrical rules apply to us?"; not "does my Yonkers
# license apply here?")
_LAW_REACH = re.compile(r"\b(?:rules?|code|chapter|law|ordinance|article|regulations?|requirements?)\b[^.?!]{0,30}\b(?:apply|applies|cover|covers|"
                        r"govern|governs|reach|reaches|extend|extends)\b|"
                        # "I live in the Village of Lawrence. Do I follow the Hempstead town stormwater article?"
                        r"\b(?:follow|obey|go by|(?:am|are|is) (?:\w+ )?(?:subject to|bound by))\b[^.?!]{0,40}\b(?:rules?|code|chapter|law|"
                        r"ordinance|article|regulations?|requirements?)\b", re.I)
# Whether a permit of ours is needed ("do I need a village electrical permit to add a circuit?")
_PERMIT_ASKED = re.compile(r"\b(?:need|needs|require[sd]?|get|pull|obtain|apply for)\s+(?:a|an|the|any)\s+(?:[\w'\u2019-]+\s+){0,3}?permits?\b", re.I)
# A text pointing to another ("the procedure the erosion chapter points to").
_POINTS_TO = r"\b(?:points?|pointed|refers?|referred|sends? (?:me|us|you)|directs? (?:me|us|you))\s+(?:\w+\s+)?to\b"
# "which agency's permit does the erosion chapter point builders to?": which document is asked, and the pointing text
# names it (its contents are not asked)
_WHICH_POINTED = re.compile(r"\b(?:which|what)\s+(?:[\w'\u2019-]+\s+){0,4}?(?:does|do|did|is|are)\b[^?.]{0,80}" + _POINTS_TO, re.I)
# A question about what a document says or requires, or how to act under it.
_CONTENTS = re.compile(
    r"\bwhat (?:exactly |actually )?(?:does|do|did|would|will) .{0,80}?\b(?:say|says|require|requires|call for|contain|include|specify|mean|cover|list|set|"
    r"make (?:me|us|you|them) (?:submit|file|provide|do|show)|ask (?:me |us )?for)\b|"
    r"\bwhat(?: are| is|'s) (?:the |its |their )?(?:[\w'\u2019.-]+ ){0,3}?(?:requirements?|terms|rules|standards|specs?|specifications|conditions|procedures?|process|measures)\b|"
    # "... cites minimum measures 4 & 5 of the MS4 permit - what are they?"
    r"\bwhat (?:are|is) (?:they|it|those|these|that)\s*\?|"
    # "what wire size does the 1978 NEC call for on a 30 amp circuit?"
    r"\bwhat (?:[\w'\u2019-]+ ){1,3}(?:does|do|did|would|will) (?:the |a |an )?[\w() .'-]{1,40}?\b(?:say|says|require|requires|"
    r"call for|specify|allow|permit|list|set)\b|"
    # "what detention and runoff design standards does Article XII set?"
    r"\bwhat (?:[\w'\u2019-]+ ){0,4}(?:requirements|standards|specs|specifications|rules|criteria|conditions) (?:does|do|did|will|would)\b|"
    r"\bhow (?:do|can|would|should) (?:i|we|you) .{0,60}?\b(?:file|apply|comply|submit|get|obtain)\b|"
    r"\baccording to\b|\bunder (?:the )?(?:terms|requirements) of\b|"
    # "GP-02-01 is ancient. Which general permit is actually in force now?": the document's own later versions
    r"\b(?:is|are) (?:actually |currently |really )?(?:in force|in effect|current) (?:now|today|these days)\b|"
    r"\b(?:actually|currently) (?:in force|in effect)\b|"
    # "Under the 1978 NEC that Tuckahoe adopted, how many receptacles can I put on a circuit?"
    r"^\W*(?:under|per|by) (?:the |a |an )?[\w() .'-]{1,50}?,\s*(?:how|what|which|can|may|must|do|does|is|are)\b|"
    # "where's the procedure the erosion chapter points to?", "7B-4(c) sends me to 7-3 - can you pull it up?"
    + _POINTS_TO + r"|\bcross[- ]?referenc\w*|\bpull (?:it |that |this )?up\b|"
    # "when do I file the NOI under the state general permit?": what that permit requires
    r"\bunder (?:the |a |an )?(?:[\w-]+ ){0,4}?(?:general )?permit\b|"
    # "does Tuckahoe's site plan review under Appendix A call for a landscaping plan?": the appendix's rules
    r"\bunder (?:the )?(?:village\W?s )?appendix [a-z]\b|\bfile (?:the |an? |my |our )?(?:noi|notice of intent)\b|"
    # "which waters are on the 303(d) list?", "what's the actual penalty in § 1-7?": what the document holds
    r"\b(?:which|what) \w+(?: \w+){0,4} (?:are|is) (?:on|in|listed)\b|\bwhat(?:'s| is) the (?:actual |exact )?\w+(?: \w+)? (?:in|under)\b|"
    # "is Hewlett Bay on the 303(d) list?": whether something is in what a document lists
    r"\b(?:is|are) [\w' -]{1,40}? (?:on|in|listed (?:on|in)) (?:the |a |an )?[\w()' -]{0,40}?\blist\b", re.I)


# "my village", "our town": the asker's own municipality
_OWN_PLACE = re.compile(r"\b(?:my|our) (town|village|city)\b")
# "Town" or "Village" capitalised as a name ("on a Town job", "Village handed us a notice"), not "Town of X" nor
# someone's from elsewhere ("Town engineer from upstate")
_KIND_AS_NAME = re.compile(r"\b(Town|Village)\b(?!\s+of\b)(?!\s+[\w-]+\s+from\b)|"
                           # "a village stormwater violation": the kind in lower case before one of the laws' words
                           r"\b(town|village)\s+(?=(?:stormwater|storm water|erosion|electrical|swppp|stop[- ]work|"
                           r"building inspector|enforcement official|stormwater (?:management )?officer)\b)")
# "Town vs village", "towns and villages": the kinds set side by side, as kinds
_KINDS_SET_SIDE_BY_SIDE = re.compile(r"\b(?:towns?|villages?)\s+(?:vs\.?|versus|or|and|/)\s+(?:an?\s+|the\s+)?(?:towns?|villages?)\b")
# An alias made only of words every municipality could be called by ("the village", "the town").
_GENERIC = re.compile(r"(?:(?:the|our|my|town|village|city|county|of)\s*)+")


def _edit_distance_le1(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1 or a == b:
        return a == b
    if len(a) > len(b):
        a, b = b, a
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), len(a))
    return a[i:] == b[i + 1:] if len(a) < len(b) else a[i + 1:] == b[i + 1:]


_LABELS = r"(?:\s*(?:\(\s*[A-Za-z0-9]{1,3}\s*\)|(?<=[\s\d)])[A-Za-z](?![A-Za-z])|\d{1,2}(?!\d)))*"
# A word naming the level of the label after a number: "392 subsection B", "7-5 paragraph (a)".
_SUBLABEL = re.compile(r"(?<=[\d)])\s*,?\s+(?:sub-?sections?|sub-?divisions?|(?:sub)?paragraphs?|items?|clauses?|subsec\.?|para\.?)"
                       r"(?=\s+\(?[A-Za-z0-9]{1,3}\)?(?![\w-]))", re.I)
# (not a possessive: "what are the Design Manual's requirements for porous pavement?" asks what the manual holds)
_STOP_AFTER_TERM = r"(?=\s*(?:$|[?.!,;:()\"”]|['’](?!s\b)|\b(?:in|under|for|mean|means|exactly|according|per|mean\w*|is|as|of the)\b))"
_DEF_CUE_BEFORE = (r"(?:what(?:'s|’s|s| is| are| (?:exactly|actually|really|precisely) (?:is|are))|who(?:'s| is)|define[sd]?|definition of|defn?\.? of|meaning of|count(?:s|ed)? as|"
                   r"considered(?: to be)?|qualif(?:y|ies) as|is (?:that|this|it) (?:a|an)|mean by|"
                   # "is a 12x14 pool house a building?": whether a thing is what the term names
                   r"(?:^|[.?!;:]\s+|,\s*)(?:is|are) (?:a|an|my|our|the|this|that|these|those|his|her|their) [^?.!,;]{1,60}? (?:a|an))")


class _Terms:
    """Defined terms of one municipality as matchable variants (singular and plural)."""

    def __init__(self, definitions: Mapping[str, str]):
        variants: dict[str, str] = {}
        for term, pid in definitions.items():
            t = re.sub(r"\s+", " ", term.lower()).strip()
            for v in {t, t[:-1] if t.endswith("s") and len(t) > 3 else t + "s"}:
                variants.setdefault(v, pid)
        self.variants = variants
        self._pattern = (re.compile(r"(?<![\w-])(" + "|".join(re.escape(v) for v in sorted(variants, key=len, reverse=True))
                                    + r")(?![\w-])") if variants else None)

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """Non-overlapping (start, end, pid), longest variant first at each position."""
        if self._pattern is None:
            return []
        return [(m.start(), m.end(), self.variants[m.group(1)]) for m in self._pattern.finditer(text.lower())]


def definition_intent(query: str, term_spans: list[tuple[int, int, str]]) -> list[str]:
    """Definition ids the question asks about: a quoted term ('building'), or a term right after a cue
    ("what is a", "count as", "definition of", "def of") and ending the phrase, "what does TERM mean", or
    "TERM meaning/definition" opening the question."""
    low = query.lower()
    core = re.sub(r"\s*\([^()]*\)\s*$", "", low)  # without the glossary words appended to it
    asked: list[str] = []
    for start, end, pid in term_spans:
        quoted = start > 0 and low[start - 1] in "'\"‘“" and end < len(low) and low[end] in "'\"’”"
        # "phasing?": the question is the defined term and nothing else
        alone = end <= len(core) and U.bare_phrase(core) in (low[start:end], low[start:end] + "s")
        quoted = quoted or alone
        before = low[:start]
        cue = re.search(_DEF_CUE_BEFORE + r"\s+(?:(?:a|an|the)\s+)?$", before)
        ends = re.match(_STOP_AFTER_TERM, low[end:])
        # "what does TERM mean", and asked yes or no: "Town definition: does a stop-work order mean the drywall crew
        # stops too?"
        means = re.search(r"(?:\bwhat |^\W*|[.?!:;]\s+)(?:does|do)\s+(?:(?:a|an|the)\s+)?$", before) and \
            re.match(r"\s+mean\b", low[end:])
        # "phasing meaning, for clearing a site", "stabilization definition?": the term opens the question
        named_first = not before.strip() and re.match(r"\s+(?:meaning|definition|defn?\b)", low[end:])
        if quoted or (cue and ends) or means or named_first:
            if pid not in asked:
                asked.append(pid)
    if not asked and _DIFFERENCE.search(low):
        # "clearing versus grading: what's the difference?", "difference between a swale and a ditch": two defined
        # terms set against each other ask both definitions
        spans = sorted(term_spans)
        for (_, end, one), (start, _, other) in zip(spans, spans[1:]):
            if one != other and re.fullmatch(_BETWEEN_TERMS, low[end:start]):
                asked += [pid for pid in (one, other) if pid not in asked]
    return asked


_DIFFERENCE = re.compile(r"\b(?:differen(?:ce|t)|differ|distinguish\w*|versus|vs\.?|compared?)(?!\w)")
_BETWEEN_TERMS = r"\s*(?:and|vs\.?|versus|or|compared (?:to|with)|,|/)\s*(?:(?:a|an|the)\s+)?"


def _division_pattern(division: str, label: str) -> re.Pattern[str]:
    """"Chapter 7B" / "Ch. 7B" -> "chapter 7b", "ch. 7b", "ch 7B" (not "chapter 7 1/2" for "Chapter 7", nor "7B-3")."""
    words = {w.rstrip(".").lower() for w in (division.split()[0], (label or division).split()[0])}
    number = re.escape(division.split()[-1])
    return re.compile(r"\b(?:" + "|".join(sorted(words)) + r")\.?\s*" + number + r"(?![\w-])(?!\s*\d+/\d+)", re.I)


def _corpus_words(corpus: "Corpus") -> set[str]:
    """Every word of the corpus's texts, headings and headnotes, lower case: what the speller corrects to."""
    words: set[str] = set()
    for p in corpus.provisions():
        h = corpus.headnote(p.id)
        extra = (h.summary, *h.questions, *h.yes, *h.no) if h else ()
        words.update(re.findall(r"[a-z]+", " ".join([p.text, p.heading, p.term or "", *extra]).lower()))
    return words


# "like in Hempstead", "like they do in the town", "as in Tuckahoe": a place named as the yardstick.
_LIKE_THERE = re.compile(r"\b(?:just\s+)?(?:like|as)\s+(?:(?:they|it|you|we)\s+(?:do|does|did|are|is|were)\s+)?(?:in|at|over in)\s+"
                         r"[^,.;?!]+|"
                         # "does it follow the Design Manual like Hempstead does?"
                         r"\b(?:just\s+)?(?:like|as)\s+(?:the\s+)?(?:[\w'-]+\s+){1,3}?(?:does|do|did|has|have)\b", re.I)


class Planner:
    """Builds QueryPlans for one corpus; cheap to call, thread-safe (no state changes after init)."""

    def __init__(self, corpus: "Corpus", max_chars: int = 2000):
        self.corpus = corpus
        self.max_chars = max_chars
        self.aliases: dict[str, list[str]] = {
            m.id: sorted({m.id, m.name.lower(), m.short_name.lower(), *(a.lower() for a in m.aliases)})
            for m in corpus.municipalities.values()}
        self.ours = sorted({a for names in self.aliases.values() for a in names}, key=len, reverse=True)
        self.gazetteer = load_gazetteer(corpus.corpus_dir)
        self.glossary = load_glossary(corpus.corpus_dir)
        self.speller = Speller(_corpus_words(corpus))
        self._divisions = [(o.id, _division_pattern(o.division, o.division_label)) for o in corpus.ordinances.values()
                           if o.division]
        self.terms = {m: _Terms(corpus.definitions(m)) for m in corpus.municipalities}
        # Every gap's patterns compiled once, not looked up in re's own cache (512 patterns) on every question, where
        # hundreds of them crowd the question's other patterns.
        self._gaps = [(f"{o.id}#{i}", [re.compile(p) for p in g.all_of], [re.compile(p) for p in g.any_of],
                       [re.compile(p) for p in g.none_of])
                      for o in corpus.ordinances.values() for i, g in enumerate(o.gaps)]
        self.definitions: dict[str, str] = {}
        for mid in corpus.municipalities:
            for term, pid in corpus.definitions(mid).items():
                self.definitions.setdefault(term, pid)
        # Section titles people cite by name ("Hempstead exemptions G"), optionally after the municipality.
        titles = {s.title.lower() for s in corpus.sections if not s.number_confirmed}
        titles |= {t.split()[0] for t in titles if len(t.split()[0]) > 3}  # "enforcement" for "Enforcement and penalties"
        titles = sorted(titles, key=len, reverse=True)
        places = "|".join(re.escape(a) for a in self.ours)
        self._citation_spans = [
            re.compile(r"(?<![\w.-])\d+[A-Za-z]?\s*-\s*\d+(?![\d.])" + _LABELS),                  # 7B-6(c), 7-5 a 1
            re.compile(r"(?:§+|\bsec(?:tion)?\.?)\s*\d{3}(?!\d)" + _LABELS, re.I),                # § 391(B), section 392 B
            re.compile(r"(?<![\w.-])\d{3}(?=\s*\(?[A-Za-z]\b|\s*\()" + _LABELS),                 # 391(B)(1)(d), 392B
        ]
        if titles:
            self._citation_spans.append(re.compile(
                r"(?:\b(?:" + places + r")\s+)?\b(?:" + "|".join(re.escape(t) for t in titles) + r"|exemption|penalties)"
                r"\s+(?:item\s+)?\(?[A-Ka-k]\)?(?=\s*[?.!]?\s*$|\s*\(\d|\s+[-\u2013\u2014:]\s|"
                r"\s+(?:wording|text|language|verbatim|says?|reads?|means?)\b)" + _LABELS, re.I))  # hempstead exemptions G
        # "constr. inspection A(1)(i)": a title word cut short with a period
        self._title_words = sorted({w for t in titles for w in t.split() if len(w) > 5})

    # --- cleaning ---
    def clean(self, text: object) -> str:
        """The question as plain text, or InvalidInput with a message the user can act on."""
        return U.clean_question(text, self.max_chars)

    # --- places ---
    def other_place(self, text: str) -> str | None:
        return self.gazetteer.other_place(text, self.ours)

    @cached_property
    def _place_names(self) -> tuple[re.Pattern[str], dict[str, str]]:
        kinds = {n: self.corpus.municipalities[mid].kind for mid, names in self.aliases.items() for n in names}
        specific = sorted((n for n in kinds if not _GENERIC.fullmatch(n)), key=len, reverse=True)
        pattern = re.compile(r"(?P<prep>\b(?:in|for|at|within)\s+)?(?:\bthe\s+)?(?<![\w-])(?P<name>"
                             + "|".join(re.escape(n) for n in specific) + r")(?:'s)?(?![\w-])", re.I)
        return pattern, kinds

    def without_places(self, text: str) -> str:
        """The question without the names of our municipalities: "... contain in hempstead" -> "... contain",
        "does the Town of Hempstead require" -> "does the town require". A search filtered to the municipality
        learns nothing from its name, and "Town of Hempstead", written through the law, would favour the
        provisions that repeat it; who acts (the town, the village) stays."""
        pattern, kinds = self._place_names

        def put(m: re.Match[str]) -> str:
            return " " if m["prep"] else f" the {kinds.get(m['name'].lower(), '')} "
        return re.sub(r"\s{2,}", " ", pattern.sub(put, text)).strip() or text

    def named(self, text: str) -> list[str]:
        """Municipality ids the question names, in order ("North Hempstead" is not Hempstead); failing an
        exact name, a one-letter typo of a name of 7+ letters ("hempsted"), unless another place is named."""
        return self._named(text, self.other_place(text))

    def _named(self, text: str, other_place: str | None) -> list[str]:
        # "We work in Tuckahoe (and in Hempstead, different story). Can the village ...?": a place named only in
        # an aside, beside one named outside it, is not asked about
        aside = U.without_asides(text)
        if aside != text and (outside := self._named(aside, other_place)):
            return outside
        masked = self.gazetteer.mask(text, self.ours)
        low = masked.lower()
        # "Oyster Bay marina SWPPP - what does the town want?": "the town" beside another town named is that one
        elsewhere = self.gazetteer.kinds_named(text, self.ours) if other_place else frozenset()
        found: list[tuple[int, str]] = []
        generic: list[tuple[int, str]] = []
        for mid, names in self.aliases.items():
            # A municipality's own name counts over "the village" (a generic alias found first does not stop
            # the search for its name: "... Tuckahoe ... In Hempstead ... in the village?").
            # "electrical permit requirements in Bronxville? it's right next to Tuckahoe": named as a landmark only
            at = [(m.start(), bool(_GENERIC.fullmatch(name))) for name in names
                  if (m := next((x for x in re.finditer(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", low)
                                 if not (other_place and _LANDMARK.search(low[max(0, x.start() - 30):x.start()]))
                                 and not self.gazetteer.road_after(low, x.end())), None))]  # "on Tuckahoe Road in Yonkers"
            specific, loose = [p for p, g in at if not g], [p for p, g in at if g]
            if specific:
                found.append((min(specific), mid))
            elif loose and self.corpus.municipalities[mid].kind not in elsewhere:
                generic.append((min(loose), mid))
        if not found and not generic and not _KINDS_SET_SIDE_BY_SIDE.search(low):
            # "a Town SWPPP", "Village permit needed?": the kind written as a name is ours, when one of ours is of that
            # kind ("Town vs village: ..." names kinds, not places)
            for x in _KIND_AS_NAME.finditer(masked):
                kind = (x.group(1) or x.group(2)).lower()
                mids = [mid for mid, m in self.corpus.municipalities.items() if m.kind == kind]
                if len(mids) == 1 and kind not in elsewhere:
                    generic.append((x.start(), mids[0]))
        # "I live in the incorporated Village of Hempstead, not the unincorporated part of the town. What does my
        # village require?": the asker's own town or village is the other place of that kind, and "the town" only
        # says where that place lies
        own = _OWN_PLACE.search(low)
        if not found and own and own[1] in elsewhere:
            return []
        # "the village" names a municipality only when no municipality is named by its own name.
        ids = [mid for _, mid in sorted(found or generic)]
        # "an engineer licensed in New Jersey ... a job in Inwood": a state where someone is licensed leaves the
        # hamlet where the land lies to say whose law it is
        if ids or (other_place and not (self.gazetteer.outside_new_york(text, self.ours)
                                        and not self.gazetteer.sited_elsewhere(text, self.ours))):
            # "our lot in Baldwin Harbor; the engineer is from Freeport": the hamlet the land lies in is the
            # town's, when the other place is not where land lies
            if not ids and self.gazetteer.only_origins(text, self.ours) and \
                    (town := self.gazetteer.governing_town(text, self.ours, sited=True)) is not None:
                return [mid for mid, names in self.aliases.items() if town in names][:1]
            return ids
        town = self.gazetteer.governing_town(text, self.ours)  # a hamlet the town governs ("my lot in Elmont")
        if town is not None:
            return [mid for mid, names in self.aliases.items() if town in names][:1]
        words = re.findall(r"[a-z]+", low)
        for mid, names in self.aliases.items():
            single = [n for n in names if " " not in n and len(n) >= 7]
            if any(_edit_distance_le1(w, n) for w in words for n in single):
                ids.append(mid)
        return ids

    def _namesake(self, text: str, named: tuple[str, ...]) -> tuple[str, tuple[str, ...]] | None:
        """(the other place, the municipalities still named) when the question names one of ours by a name another
        place shares and words that place that one ("Tuckahoe out by Southampton"); None otherwise."""
        low = text.lower()
        for mid in named:
            m = self.corpus.municipalities[mid]
            said = list(re.finditer(r"(?<![\w-])" + re.escape(m.short_name.lower()) + r"(?![\w-])", low))
            # the cue beside the name ("Tuckahoe out by Southampton"), not anywhere ("an electrician from Southampton")
            near = [low[max(0, x.start() - NAMESAKE_SPAN):x.end() + NAMESAKE_SPAN] for x in said]
            for other in m.namesakes:
                if any(re.search(cue, w) for cue in other.cues for w in near):
                    return other.name, tuple(n for n in named if n != mid)
            # "I live in Tuckahoe, Virginia": the name with another state after it is that state's place
            for x in said:
                state = self.gazetteer.abroad_right_after(text, self.ours, x.end())
                if state is not None:
                    # "Hempstead County, Arkansas": the name as written, with the county's word
                    return f"{text[x.start():self.gazetteer.name_end(text, x.end())]}, {state}", \
                        tuple(n for n in named if n != mid)
        return None

    def _says_generically(self, text: str, muni: str) -> bool:
        """The question names the municipality by a generic alias of its own ("the village")."""
        return self._says(text, muni, generic=True)

    def _divisions_as_this(self, text: str) -> str:
        """`text` with each law named by its division ("Art. XXXVIII", "ch 7B") said as "this article"/"this chapter"."""
        for oid, pattern in self._divisions:
            word = self.corpus.ordinances[oid].division.split()[0].lower()
            text = pattern.sub(f"this {word}", text)
        return text

    def _own_office_named(self, text: str, muni: str) -> bool:
        """The question names an office of the municipality as the asker's own ("our new building inspector does
        side jobs over in Yonkers"): the municipality is asked of, the other place is where something happens."""
        m = self.corpus.municipalities.get(muni)
        titles = {t for o in (m.offices if m else ()) for t in (o.name.split(",")[0].lower(), o.key.replace("_", " "))}
        return any(re.search(r"\bour (?:new |own |local )?" + re.escape(t) + r"\b", text, re.I) for t in titles)

    def _says_by_name(self, text: str, muni: str) -> bool:
        """The question names the municipality by its own name ("Tuckahoe"), not only as "the town"."""
        return self._says(text, muni, generic=False)

    def _says(self, text: str, muni: str, generic: bool) -> bool:
        low = text.lower()
        # "a job in the Village of Ardsley" names that village, not the caller's by its kind
        after = r"(?!\s+of\s+(?!the\b|this\b|our\b|my\b)\w)" if generic else ""
        return any(bool(_GENERIC.fullmatch(n)) == generic and re.search(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])" + after, low)
                   for n in self.aliases.get(muni, ()))

    def _asked_about(self, text: str, named: tuple[str, ...], other_place: str | None) -> str | None:
        """Of two places named, the one the question asks about: "In Hempstead I know an acre is the trigger.
        Do we need a SWPPP in the village?" asks about the Village; a comparison asks about both."""
        if len(set(named)) < 2 or U.COMPARATIVE.search(text) or U.compares(text):
            return None
        start = asking_clause(text)
        # "... in Tuckahoe. Does the village's law count it? I saw Hempstead uses 100 sq ft.": the statement after
        # the question mark names no place asked about
        end = text.find("?", start) + 1 or len(text)
        asked = set(self._named(_LIKE_THERE.sub(" ", text[start:end]), other_place)) if start else set()
        if len(asked) != 1:
            # "do sediment traps in Tuckahoe have to be cleaned at 50% full like in Hempstead?": the place the
            # question measures against is not the one it asks about
            asked = set(self._named(_LIKE_THERE.sub(" ", text), other_place))
        return asked.pop() if len(asked) == 1 else None

    def _topic_scope(self, laws: list["Ordinance"]) -> tuple[str, ...]:
        """Where a question that names no place can be answered: every municipality, but those with a law on
        the topic it names when only some have one ("who does the final inspection after the electrician is
        done?" -> the municipalities with an electrical code)."""
        everywhere = tuple(self.corpus.municipalities)
        having = self.corpus.covering({o.topic for o in laws})
        return tuple(m for m in everywhere if m in having) or everywhere

    def follow_up_municipality(self, text: str) -> str | None:
        """"what about in Tuckahoe?" -> the municipality it moves to."""
        rest = U.follow_up_rest(text)
        found = self.named(rest) if rest else []
        return found[0] if found and len(rest.split()) <= 6 else None

    def _measure(self, text: str) -> str | None:
        """The figure the question asks for: a size, distance or price (_MEASURE), or a count of something the
        corpus never names ("how many bananas fit in a swppp?": no text here counts bananas)."""
        if (m := _MEASURE.search(text)) is not None:
            # "how does the Town figure out how big our bond has to be?" asks how the figure is set, not the figure
            if _METHOD_ASKED.search(text[:m.start()]):
                return None
            # "does our article require the plan to deal with where it goes and how big it is?" asks whether the
            # plan must show the size, not the size
            if _SHOWN_IN_PLAN.search(text[:m.start()]):
                return None
            # "where can I see the Village's fee amounts in person?" asks where they are kept, not the figures
            if _WHERE_SEEN.search(text[:m.start()]):
                return None
            return m.group(0).lower()
        # "is the bond 110% or 125% of the estimate?": a choice of shares asks the share
        if (m := re.search(r"\b\d+(?:\.\d+)?\s?(?:%|percent)\s+or\s+\d+(?:\.\d+)?\s?(?:%|percent)", text, re.I)) is not None:
            return m.group(0).lower()
        counted = _HOW_MANY.search(text)
        if counted is not None and not self.speller.knows(counted.group(1)) and not self.speller.corrections(counted.group(1)):
            return counted.group(0).lower()
        return None

    # --- citations and terms ---
    def find_citations(self, query: str, municipality: str | None) -> list[Provision]:
        """Provisions cited in the question. Only spans that look like citations are tried, so a number
        such as "500 feet" is never read as one."""
        out: list[Provision] = []
        query = U.items_cited(query)  # "item f in 7B-6(a)(1)" is "7B-6(a)(1)(f)"
        query = _SUBLABEL.sub(" ", query)  # "section 392 subsection B" is "section 392 B"
        query = re.sub(r"\b([A-Za-z]{4,})\.(?=\s)", self._title_word, query)
        for pattern in self._citation_spans:
            for m in pattern.finditer(query):
                if re.search(r"\bappendix\b[^.?!]{0,40}$", query[:m.start()], re.I):
                    continue  # "Appendix A § 7-3" is the Village's zoning appendix, not Chapter 7 § 7-3
                span = m.group(0).strip()
                while span:
                    try:
                        p = self.corpus.resolve_citation(span, municipality)
                    except CitationNotFound:
                        shorter = re.sub(r"\s*(?:\(\s*[A-Za-z0-9]{1,3}\s*\)|[A-Za-z0-9]{1,2})$", "", span)
                        span = "" if shorter == span else shorter.strip()
                        continue
                    if p.id not in {q.id for q in out}:
                        out.append(p)
                    break
        return out

    def _title_word(self, cut: re.Match) -> str:
        """The section-title word a word cut short with a period stands for ("constr." -> "construction"), when
        it begins exactly one; else the text as written."""
        words = [w for w in self._title_words if w.startswith(cut.group(1).lower()) and w != cut.group(1).lower()]
        return words[0] if len(words) == 1 else cut.group(0)

    def _external(self, low: str, scope: tuple[str, ...]) -> tuple[str, ...]:
        """Outside documents the question names (`external_refs` `asked_as`); of two it names with overlapping
        words ("appendix a" and "appendix a ... 7-3"), the more specific."""
        spans: list[tuple[int, int, str]] = []
        for o in self.corpus.ordinances.values():
            if o.municipality in scope:
                for ext in o.external_refs:
                    for a in ext.asked_as:
                        m = re.search(a, low)
                        if m:
                            spans.append((m.start(), m.end(), ext.name))
                            break
        kept = [x for x in spans if not any(y[0] <= x[0] and x[1] <= y[1] and y[1] - y[0] > x[1] - x[0] for y in spans)]
        return tuple(dict.fromkeys(name for _, _, name in kept))

    # --- the plan ---
    def build(self, question: str, municipality: str | None = None, *, today: date | None = None,
              fallback_municipality: str | None = None, named_wins: bool = False) -> QueryPlan:
        """The plan for one question. `municipality` is the caller's choice (validated); a question that
        names none falls back to `fallback_municipality` (the conversation's choice) when given. With
        `named_wins` (the assistant's questions, not a filtered search), a question that names one other
        municipality by its name is about that one."""
        text = self.clean(question)
        cited: list[Provision] = []  # set when the provisions a question cites are what name its municipality
        other = self.other_place(text)
        named = tuple(self._named(text, other))
        namesake = self._namesake(text, named)
        if namesake is not None:  # "Tuckahoe out by Southampton on Long Island" is not the Village of Tuckahoe
            other, named = namesake
        overridden = None
        if municipality is not None:
            muni, source = self.corpus.check_municipality(municipality), "caller"
            if named and muni not in named and self._says_generically(text, muni):
                # Village chosen: "in the village do we have to ... like they do in hempstead?" names it too.
                named = (*named, muni)
            elif not named and other and (self._says_generically(text, muni) or self._own_office_named(text, muni)
                                          or self.gazetteer.only_origins(text, self.ours)):
                # Village chosen: "can the village building inspector run a side business over in Bronxville?"
                # asks of the caller's village; the other village is only where the business is. Village chosen:
                # "the notice lists the owner's Scarsdale mailing address": the other place is only where someone is from
                named = (muni,)
            elif named_wins and len(set(named)) == 1 and muni not in named and self._says_by_name(text, named[0]):
                # Hempstead chosen, "can I get registered in Tuckahoe ...?": the words typed say where.
                overridden, muni, source = muni, named[0], "question"
        elif len(set(named)) == 1:
            muni, source = named[0], "question"
        elif (asked_about := self._asked_about(text, named, other)) is not None:
            muni, source = asked_about, "question"
        elif not named and fallback_municipality:
            muni, source = self.corpus.check_municipality(fallback_municipality), "conversation"
        elif not named and (cited := self.find_citations(text, None)) and len({p.municipality for p in cited}) == 1:
            muni, source = cited[0].municipality, "question"  # "constr. inspection A(1)(i) - which milestone?": the Town's
        else:
            muni, source = None, "none"  # two named (a comparison) or none: search everything
        laws = self.corpus.ordinances_named(text)
        divisions = tuple(oid for oid, pattern in self._divisions if pattern.search(text))  # "Chapter 7B", "art XXXVIII"
        scope = (muni,) if muni else (named or self._topic_scope(laws))
        expansions = (*self.glossary.expansions(text), *self.speller.corrections(text))
        # "what authority does art XXXVIII rest on?": the law's number names it as "this article" does; its numerals
        # are no words to search for
        searched = self._divisions_as_this(text)
        words = [w for w in re.findall(r"[a-z]{3,}", self.without_places(searched).lower()) if w not in STOPWORDS]
        unknown = tuple(w for w in words if not self.speller.knows(w) and not self.speller.corrections(w)
                        and not self.glossary.expansions(w))
        expanded = append_expansions(searched, expansions)
        # The model reads a misspelled word as word pieces: the embedded question has each word with one
        # correction written right ("My nieghbor's pond" -> "My neighbor's pond"), that correction not appended
        respelled = self.speller.respelled(searched)
        written = set(re.findall(r"[a-z]+", respelled.lower())) - set(re.findall(r"[a-z]+", searched.lower()))
        inlined, rest = self.glossary.inline(respelled, [e for e in expansions if e not in written])
        embedded = append_expansions(inlined, rest)
        # read once: the provisions that set the municipality are the ones cited
        citations = tuple(p.id for p in (cited if source == "question" and cited else self.find_citations(text, muni)))
        spans = [s for m in ([muni] if muni else list(self.terms)) for s in self.terms[m].find(expanded)]
        asked = definition_intent(expanded, spans)
        # Longer terms first: "land development activity" says more than "stormwater".
        used = [pid for _, _, pid in sorted(spans, key=lambda s: (-(s[1] - s[0]), s[0]))]
        # the question's figures as the speller reads its words ("a second violaton" is a second violation)
        respelled_text = self.speller.respelled(text)
        slots, sources = read_slots(respelled_text, today or date.today())
        low = text.lower()
        gaps = tuple(key for key, all_of, any_of, none_of in self._gaps
                     if all(p.search(low) for p in all_of) and (not any_of or any(p.search(low) for p in any_of))
                     and not any(p.search(low) for p in none_of))
        # "does Hempstead's law cover my lot in Bergen County?": the land lies elsewhere, whoever's law is named
        # "does the Town's article apply to a project inside the Village of Hempstead?": whether the law reaches land
        # in another place is asked; the corpus holds that place's laws no more than any other's
        # A law that says where it applies answers that itself ("my house is in Bronxville, does Tuckahoe's electrical
        # code apply?" -> § 7-2, the Village's territory).
        asked_of = [o for o in laws if o.municipality in scope] or \
            [o for o in self.corpus.ordinances.values() if o.municipality in scope]
        in_state = bool(_REACH.search(text)) and not any(o.territory for o in asked_of)
        sited = bool(other) and self.gazetteer.sited_elsewhere(text, self.ours, in_state=in_state)
        # "my shop is on Tuckahoe Road in Yonkers: do I need a Tuckahoe permit?" asks it too, of work sited there
        # (not of the place a licence or an address is from: "registered here through my Mamaroneck license")
        reach = bool(other) and not sited and not self.gazetteer.only_origins(text, self.ours) and bool(_LAW_REACH.search(text) or (
            _PERMIT_ASKED.search(text) and self.gazetteer.sited_elsewhere(text, self.ours, in_state=True)
            and not self.gazetteer.sited_at(text, self.ours)))  # "we live in Bronxville; our rental in the village ..."
        if reach:
            # "adding a room in Bronxville: do the Tuckahoe electrical permit rules apply to us?": where the law
            # applies (its territory) answers it, whatever else its words draw
            citations = (*citations, *(o.territory for o in asked_of if o.territory and o.territory not in citations))
        route = U.route(respelled_text, self.definitions, 0 if sited else len(named), other_place=other, slots=slots, glossary=self.glossary,
                        # "the mayor put Chapter 7B in place by executive order?": a law's number names it too
                        names_law=(bool(laws) and bool(self.corpus.ordinances_named(NOT_ELECTRICAL.sub(" ", U.without_titles(text)))))
                        or bool(divisions))
        # "what does § 1-7 say?", "§ 1-7 text?": asked for what a document the texts refer to holds
        contents = _CONTENTS.search(re.sub(_POINTS_TO, " ", text, flags=re.I) if _WHICH_POINTED.search(text) else text)
        external = self._external(low, scope) if contents or route.intent == "lookup" else ()
        if route.intent == "lookup" and external and contents:
            # "7-10 mentions the Industrial Commission's rules - what do they say about grounding?": what the outside
            # document says is asked, not the section that names it
            route = U.Route("retrieval")
        moved_to = self.follow_up_municipality(text)
        follow = ("municipality" if moved_to else "area" if "area" in slots and U.is_follow_up_area(text)
                  else "full_text" if U.is_follow_up_full_text(text) else None)
        return QueryPlan(query=text, municipality=muni, municipality_source=source, named=named, scope=scope,
                         other_place=other, sited_elsewhere=sited, reach_asked=reach, outside_new_york=bool(other) and self.gazetteer.outside_new_york(text, self.ours),
                         overridden=overridden, expanded=expanded, expansions=expansions, citations=citations, embedded=embedded,
                         words=len(words), unknown_words=unknown,
                         definitions=tuple(dict.fromkeys(asked + used)), asked_definitions=tuple(asked),
                         intent=route.intent, calculator=route.calculator, term=route.term,
                         citation_text=route.citation_text, subject=route.notes[0] if route.notes else None,
                         yes_no=_is_yes_no(text), verdict_query=verdict_query(text), negative=bool(U.NEGATIVE.search(text)),
                         asks=ask_kind(text),
                         measure=self._measure(text), external=external,
                         slots=slots, slot_sources=sources, gaps=gaps,
                         divisions=divisions,
                         laws=tuple(o.id for o in laws),
                         follow_up=follow, follow_up_municipality=moved_to)

