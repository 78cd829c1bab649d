"""A "Yes"/"No" for a yes/no question, only from evidence: the provision's curated headnote question closest to
the asker's, or the modal of the quoted law ("shall", "no person shall", "may"), never when the two disagree.
How the question is put (polarity, figures, actors, steps) is read by asking.py."""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import asking as A
from .models import Hit, QueryPlan
from .plan import WH, ask_kind, asking_clause
from .text import content_stems, figures, stem, stems


# A yes/no question gets "Yes."/"No." from a headnote only when it is this close to a yes/no headnote question
# the provision's text plainly answers that way, asked with the same polarity and figures. Measured on the dev
# splits' 100 yes/no questions (gold.jsonl + dev2.jsonl): at 0.80 33 right, 4 wrong; at 0.60 (with the
# polarity, figure and disagreement checks) 50 right, 2 wrong; at 0.55 54 right, 3 wrong. Session 16, with the
# converse/negation/bound checks, on all three dev splits' 158 yes/no questions: 0.60/0.75 -> 87 right, 3 wrong;
# 0.55/0.70 -> 89 right, 3 wrong.
YES_NO_MIN_SIMILARITY = 0.55
# ... and this close when the quoted rule has an exception ("halt all work except ..."): "is there anything we can
# still do under a stop-work order?" came 0.64 from "does the order end before ...?" (No), which misleads.
# Session 26, dev splits (3,759 q): 0.70 -> 0.65 gave 13 more right verdicts and 1 wrong, a "No" to "does the law
# cover my veggie garden?" from "does the gardening exemption cover plants grown for sale?" under "may be exempt";
# so a discretionary exemption keeps the 0.70 bar (10 more right, none wrong).
YES_NO_EXCEPTION_SIMILARITY = 0.65
YES_NO_DISCRETION_SIMILARITY = 0.70
_MAY_BE_EXEMPT = re.compile(r"\bmay be exempt", re.I)
# Below that, a rule with an exception still answers when the question is clearly on one side of it: its closest
# headnote question is this much closer than the provision's closest one with the other answer ("can we put
# down mulch under a stop-work order?" 0.63 against 0.37; "can we keep building elsewhere?" 0.55 against 0.47).
# Other-answer questions too far to be among the views searched count as the farthest one searched (retrieval's
# `_rivals`); a provision with none has no rival and its exception floor holds. Dev (2,668 q): 3 more right
# verdicts, 1 wrong ("is breaking the law a crime?" took "can it be punished by imprisonment?": its headnote
# now has the No question that separates them).
YES_NO_EXCEPTION_MARGIN = 0.1
# "Is there a rule about muddy runoff?" is answered Yes by a binding provision whose headnote yes/no question is
# this close to it.
YES_NO_RULE_EXISTS = 0.6
SAYS_ABOUT_SHARE = 0.4  # of the words of what "does it say anything about ...?" asks about, in the quote
# A headnote question at least this close still vetoes a modal verdict that says the opposite.
YES_NO_CONTRADICTS = 0.50


# A headnote question about a place elsewhere ("property outside the Village, in a neighboring town").
_ELSEWHERE = re.compile(r"\b(?:outside|neighbou?ring|across the (?:line|border)|another (?:town|village|city|"
                        r"municipality|state)|other (?:towns?|villages?|cit(?:y|ies)|municipalit\w+|states?))\b", re.I)
# A law that applies to its own territory, asked whether it reaches a place named outside it.
_TERRITORY = re.compile(r"\bappl(?:y|ies|icable) (?:to|within) the territory of\b", re.I)
_APPLIES_ASKED = re.compile(r"\b(?:apply|applies|cover|covers|reach|reaches|govern|governs|in effect|in force)\b", re.I)


# "my buddy wants to do jobs under my license. Any problem with that?" asks whether it is forbidden: the Yes or No
# of "may he do it?" turned round
_PROBLEM_ASKED = re.compile(r"\b(?:any|a) (?:problems?|issues?) with (?:that|this|it|doing that)\b|"
                            r"\b(?:is|would) (?:that|this|it) (?:be )?(?:a|an) (?:problem|issue)\b|"
                            r"\banything wrong with (?:that|this|it)\b", re.I)
_MAY_ASKED = re.compile(r"^\W*(?:may|can|could|is it (?:ok|okay|legal|allowed|permitted))\b", re.I)


# A headnote question about a bound ("cost more than the fee schedule?") answers only a question about one.
_BOUND = re.compile(r"\b(?:more|less|fewer|higher|lower|longer|shorter|later|earlier|sooner) than\b|\bexceed\w*|"
                    r"\b(?:at least|at most|up to|no more|no less|beyond)\b", re.I)


# "Does 'Department' mean the New York State DEC?" against "is that the town engineering department?"
_MEANS_ASKED = re.compile(r"^\W*does\s+['\"\u2018\u201c]?(?P<term>[^'\"\u2019\u201d?]+?)['\"\u2019\u201d]?\s+mean\s+(?P<what>[^?]+)", re.I)
_IS_THAT = re.compile(r"\b(?:is|does) (?:that|it|this|that one|this one) (?:mean )?(?:the |a |an )?(?P<what>[^?.,;]+)", re.I)


def _other_referent(clause: str, asked: str) -> bool:
    """The headnote question asks whether a term means one thing, and the question whether it is another that
    shares none of its words (beyond the term's own)."""
    m, n = _MEANS_ASKED.search(asked), _IS_THAT.search(clause)
    if m is None or n is None:
        return False
    term = set(content_stems(m["term"]))
    theirs, ours = set(content_stems(m["what"])) - term, set(content_stems(n["what"])) - term
    return bool(theirs) and bool(ours) and not theirs & ours


def yes_no(plan: QueryPlan, hit: Hit | None, said: str = "") -> str | None:
    """The verdict below, turned round when the question asks whether something is a problem and the verdict
    answers whether it may be done."""
    at = asking_clause(plan.query)
    clause = plan.query[at:]
    if hit is not None and _SAME_ASKED.search(clause) and (codes := _CODE_ID.findall(plan.query)) and \
            all(code in said for code in codes):
        return "Yes"  # "it says ANSI C1-1978. Is that the same code Tuckahoe adopted?" against "(... ANSI C1-1978)"
    if hit is not None and _THAT_ONE_ASKED.search(clause) and (laws := _LAW_NAMED.findall(plan.query[:at])) \
            and _LAW_NAMED.search(said):
        # "a letter says the Town adopted them under the Environmental Conservation Law. Is that the authority the article
        # cites?" against "under Article 16 of the Town Law and § 10 of the Municipal Home Rule Law"
        return "Yes" if all(law in said for law in laws) else "No"
    if hit is not None and _both_named(clause, said):
        return "Both"  # "do the findings say development raises runoff rates, runoff volumes, or both?" against "rates and volumes"
    if _OPEN_CHOICE.search(clause):
        return None  # "is the SMO a DEC official or someone from the Town?" asks which: no Yes or No answers it
    verdict = _yes_no(plan, hit, said)
    second = _AND_ASKED.search(plan.query) if verdict is None and hit is not None else None
    if second is not None:
        # "Can the Village require a letter of credit, and can it tap it?": the second question's words are not the
        # quote's ("tap" for "draw upon"); the first question, which they are, answers in the order asked
        verdict = _yes_no(plan.model_copy(update={"query": plan.query[:second.start()].rstrip(" ,") + "?"}), hit, said)
    if verdict is not None and hit is not None and _PROBLEM_ASKED.search(clause):
        if not _MAY_ASKED.search(hit.yes_no_text or ""):
            return None  # a Yes or No to another kind of question says nothing about "is that a problem?"
        return "No" if verdict == "Yes" else "Yes"
    return verdict


# A thing asked to be done by word of mouth ("just by calling the office", "can I tell him over the phone?"), and
# a rule that it be done in writing.
_SPOKEN = re.compile(r"\b(?:by|just|only) (?:calling|phoning|a (?:phone )?call|telling|talking to|speaking (?:to|with))\b|"
                     r"\b(?:over the phone|by phone|verbally|orally|word of mouth)\b", re.I)
_IN_WRITING = re.compile(r"\b(?:written|in writing)\b", re.I)
# Whether an official may refuse what the law says he shall do ("can the SMO decline to approve it?").
# (the refusal is the asked verb's, a few words on: "can the Building Inspector approve it even though the Board
# recommended rejecting it?" asks whether he may approve)
_REFUSAL_ASKED = re.compile(r"\b(?:can|could|may|is|are)\b(?:\s+[\w'-]+){0,6}?\s+(?:decline|refuse|deny|reject|withhold|turn down|"
                            r"hold (?:up|back|off)|delay|stall|block)\w*\b[^?.!]*\?", re.I)
_SHALL_GRANT = re.compile(r"\bshall (?:approve|issue|grant|accept)\b", re.I)
# ... unless what is asked of falls short ("can the SMO reject a SWPPP that is missing the site map?")
_FALLS_SHORT = re.compile(r"\b(?:doesn'?t|does not|don'?t|do not|fails?|failing|failed|incomplete|missing|lacks?|lacking|"
                          r"deficient|non-?complian\w*|not (?:meet|comply|complete|compliant)|violat\w*|wrong|bad|sloppy)\b", re.I)


# "can the SWPPP binder leave with the trailer?" against "shall be retained at the site ... to the date of final
# stabilization": the duty to keep it there is no Yes to taking it away (nor a No once the duty has ended)
_LEAVES_ASKED = re.compile(r"\b(?:can|could|may|is|are|do|does)\b(?:\s+[\w'-]+){0,6}?\s+(?:leave|go|come off|be (?:removed|taken|moved))\b"
                           r"[^?.!]*\?", re.I)
_KEPT_ON_SITE = re.compile(r"\b(?:retained|kept|remain|maintained|available) (?:at|on) (?:the )?(?:job ?)?site\b", re.I)


# A question whether someone may do as he pleases ("can the PE charge any hourly rate he wants?"), and a text that bounds
# it ("at a cost not to exceed a fee schedule", "reasonable costs"): the bound answers No.
_UNBOUNDED_ASKED = re.compile(r"\b(?:any|whatever) (?:[\w-]+ ){0,3}(?:he|she|they|it|you|i|we) (?:wants?|likes?|chooses?|pleases?|"
                              r"decides?|feels? like)\b|\bas (?:much|many|long|high) as (?:he|she|they|it|you|i|we) (?:wants?|likes?|"
                              r"chooses?|pleases?)\b", re.I)
_BOUNDED = re.compile(r"\bnot (?:to )?exceed\w*|\bno (?:more|greater|longer) than\b|\bat most\b|\breasonable\b|\blimited to\b",
                      re.I)


# What a thing is ("is the Stormwater Management Officer an elected official?"), and a question of what must, may or
# does happen ("must the Town designate a Stormwater Management Officer?"): the one's answer is not the other's.
_IDENTITY_ASKED = re.compile(r"^\W*(?:is|are) (?:the|a|an|my|our|your|his|her|their) [\w'-]+(?: [\w'-]+){0,4}? (?:an?|the) (?:[\w-]+ ){0,2}"
                             r"(?:official|employee|officer|position|job|person|agency|volunteer|board|department|staff|member|"
                             r"appointee)s?\b", re.I)
# What someone has to be, named by a noun ("does the SMO have to be an engineer?", "must it be a licensed surveyor?")
_MUST_BE_ASKED = re.compile(r"\b(?:(?:has|have|need|needs) to be|must be|required to be)\s+(?:an?|the)\s+(?:[\w-]+\s+){0,2}?"
                            r"(?P<noun>[a-z][\w-]*)\s*\?", re.I)
_MODAL_ASKED = re.compile(r"^\W*(?:must|may|can|could|shall|should|will|would)\b", re.I)


# A code, standard or permit named by its number ("ANSI C1-1978", "GP-02-01"), and a question whether it is the same one
_CODE_ID = re.compile(r"\b[A-Z]{1,5}\d*-\d{2,4}(?:-\d{2,4})*\b")
_SAME_ASKED = re.compile(r"\b(?:is|are) (?:that|this|it|they|those) (?:the same|identical)(?: (?:code|standard|edition|version|one|thing)s?)?"
                         r"(?: (?:as )?(?:the )?(?:one |code |standard )?(?:\w+ )?(?:adopted|uses?|used|requires?|required|names?|named))?\b", re.I)


# A law named by its title ("the Environmental Conservation Law"), and a question whether the one a claim names is the one
# the text names
_LAW_NAMED = re.compile(r"\b((?:[A-Z][a-z]+ ){1,4}Law)\b")
_THAT_ONE_ASKED = re.compile(r"\b(?:is|was) (?:that|this|it) (?:the |a )?(?:same )?(?:authority|law|statute|source|basis)\b", re.I)


# Two alternatives offered ("runoff rates, runoff volumes, or both?", "does it only address water quality, or also
# stormwater control standards?"): the last words of the first, the first words of the second.
_OR_BOTH = re.compile(r"(?P<a>(?:[\w'-]+\s+)?[\w'-]+),\s*(?P<b>(?:[\w'-]+\s+){0,2}[\w'-]+),?\s+or\s+both\s*\?\s*$|"
                      r"\b(?:only|just|solely)\s+(?:[\w'-]+\s+)*?(?P<a2>(?:[\w'-]+\s+)?[\w'-]+),?\s+or\s+(?:also|as well)\s+"
                      r"(?P<b2>(?:[\w'-]+\s+){0,2}[\w'-]+)\s*\?\s*$", re.I)


def _both_named(clause: str, said: str) -> bool:
    """Whether the quote names each of two alternatives the question offers, by the words that tell them apart."""
    m = _OR_BOTH.search(clause)
    if m is None:
        return False
    a, b = (set(content_stems(x)) for x in ((m["a"] or m["a2"]), (m["b"] or m["b2"])))
    quoted = set(stems(said))
    return bool(a - b) and bool(b - a) and (a - b) <= quoted and (b - a) <= quoted


# A choice left open: "... a DEC official or someone from the Town?", "by the number of outlets, or some other way?"
# ("the applicant (or somebody for them)" is an aside: no parenthesis opens or closes in the choice)
_OPEN_CHOICE = re.compile(r"(?<!\()\bor (?:someone|somebody|something|some ?one|some other|somewhere|some (?:other )?(?:way|method|basis)|"
                          r"another (?:way|method|basis|office|agency|one)|(?:some(?:thing|one)|anything|anyone) else)\b[^?.!()]*\?|"
                          # "are permit fees set by square footage, by number of devices, or by job cost?": which of them
                          r"\b(by|in|at|on|for|from|per) [^,?.!]{1,40},\s*\1 [^,?.!]{1,40},?\s*or \1 [^?.!]{1,40}\?", re.I)


# A second yes/no question joined to the first in one sentence: "..., and can it tap it?"
_AND_ASKED = re.compile(r",?\s+and\s+(?:can|could|may|must|does|do|is|are|will|would|should|has|have)\b[^?.!]*\?\s*$", re.I)


def _yes_no(plan: QueryPlan, hit: Hit | None, said: str = "") -> str | None:
    """"Yes"/"No" for a yes/no question, only from evidence. First the provision's curated headnote: it holds a
    yes/no question close to this one (YES_NO_MIN_SIMILARITY), asked with the same polarity (both negative or
    neither) and about the same figures (a question about 0.3 inches of rain is not the headnote's question
    about 0.5 inch). Failing that, a question asking whether something may, must or does happen, settled by the
    modal of the words quoted from the best provision: "no person shall", "unlawful" answer "can I ...?" No;
    "may", "shall" answer "can the town ...?" Yes, "shall" answers "must ...?" Yes ("may" never does). A
    question asked in the negative ("can I skip ...", "without ...", "exempt") gets no modal verdict; nor does a
    sentence that grants and forbids at once, nor one the headnote's closest yes/no question contradicts.
    A headnote question asking the converse ("must the plan come before review?" for "can review start
    before the plan?") answers the other way; a telegraphic question ("homeowner pull own permit?") takes a
    very close headnote question's answer; "is it the same/different in A and B?" gets none."""
    if hit is None or not (plan.yes_no or _telegraphic(plan, hit)):
        return None
    hit = _same_polarity(plan, hit)
    if plan.outside_new_york and A.NEW_YORK.search(f"{hit.yes_no_text or ''} {said}"):
        # "my license is from New Jersey; does Tuckahoe honor it?": what the text grants New York licences only it
        # does not grant another state's ("do I need ...?" is not asked of a grant); other rules for New York: none
        granted = _GRANTS.search(said) and plan.asks != "obligation" and not A.asked_negatively(plan.query)
        return "No" if granted else None
    if plan.other_place and _TERRITORY.search(said) and (plan.reach_asked or _APPLIES_ASKED.search(plan.query[asking_clause(plan.query):])):
        return "No"  # "does Tuckahoe's electrical chapter apply over in Yonkers?" against "the territory of the Village"
    if (share := A.share_verdict(plan.query, f"{said} {hit.text}")) is not None:
        return share  # "a third full of silt. Do we have to clean it out?" against "reduced by 50%": not yet
    if A.claims_another_figure(plan.query, said):
        return "No"  # "I heard the appeal window is 30 days. Right?" against "within 15 days"
    if _UNBOUNDED_ASKED.search(plan.query[asking_clause(plan.query):]) and _BOUNDED.search(said):
        return "No"  # "can the PE charge any hourly rate he wants?" against "at a cost not to exceed a fee schedule"
    if A.names_another_identifier(plan.query[asking_clause(plan.query):], said):
        return "No"  # "is GP-02-02 the permit my construction site needs?" against "... General Permit GP-02-01"
    if _REFUSAL_ASKED.search(plan.query[asking_clause(plan.query):]) and _SHALL_GRANT.search(said) and \
            not _FALLS_SHORT.search(plan.query):
        return "No"  # "can the SMO decline to approve it because neighbors object?" against "who shall approve the SWPPP if ..."
    if _SPOKEN.search(plan.query[asking_clause(plan.query):]) and _IN_WRITING.search(said):
        return "No"  # "can I appeal just by calling the office?" against "by filing a written notice of appeal"
    if A.old_asked_of_a_rule_for_new(plan.query, f"{hit.yes_no_text or ''} {said}"):
        return None  # "our drainage went in back in 1990. can the village inspect it?" against "when any new facility ..."
    if A.SAME_OR_DIFFERENT.search(plan.query) or (len(plan.named) >= 2 and A.VERSUS.search(plan.query)):
        return None  # "is the appeal window any different in A and B?": one provision's Yes/No does not answer it
    clause = plan.query[asking_clause(plan.query):]
    if A.CHOICE.search(clause):
        return None  # "does the notice go to the owner or to the contractor?" asks which, not whether
    if (about := A.SAYS_ABOUT.search(clause)) is not None:
        # "do its findings say anything about construction wiping out native plants?" against "... the loss of native
        # vegetation": Yes when the quote holds two of the words of what is asked about (its one word) and a good share
        topic = set(content_stems(clause[about.end():], _ASKING_WORDS))
        found = len(topic & set(content_stems(f"{said} {' '.join(plan.expansions)}")))
        if topic and found >= min(2, len(topic)) and found >= SAYS_ABOUT_SHARE * len(topic):
            return "Yes"  # (else the rules below may still find that it speaks to it)
    if A.CARES_ABOUT.search(clause):
        # "does Hempstead care if my site clouds the bay?" asks whether the law speaks to it, like "is there a rule
        # about ...": Yes when the quote binds and speaks to it, never "is it allowed?"'s No
        spoken = _rule_speaks(plan, hit, said, bool(A.PROHIBITS.search(said) or _OBLIGES.search(said)))
        if spoken is None and hit.yes_no == "yes" and (hit.yes_no_similarity or 0.0) >= YES_NO_RULE_EXISTS:
            # "does the village's chapter care about streams getting warmer?" against a finding or objective that
            # binds no one: its close headnote question's Yes ("is reducing increases in stream temperature an
            # objective?") says the law speaks to it
            return "Yes" if headnote_verdict(plan, hit) == "Yes" else None
        return spoken
    if A.IS_THERE.search(clause) and not A.RULE_AGAINST.search(clause):
        either = A.EITHER_OR.search(plan.query)
        if either and not _NEED_ASKED.match(plan.query, either.start()):
            # "is there a fee category for alterations, or only for new work?": Yes or No answers the first half
            plan = plan.model_copy(update={"query": plan.query[:either.start()].rstrip(" ,") + "?"})
            clause = plan.query[asking_clause(plan.query):]
        if A.IS_THERE.search(hit.yes_no_text or "") and close_enough(hit, said):
            # "is there a grace period after December 31?" is a headnote question of its own (No): its answer,
            # and never a Yes for a binding rule against it
            verdict = headnote_verdict(plan, hit)
            if verdict is not None or hit.yes_no == "no":
                return verdict
        elif not A.ABOUT_A_RULE.search(clause) and (hit.yes_no_similarity or 0.0) >= YES_NO_MIN_SIMILARITY and \
                close_enough(hit, said) and A.same_thing_asked(clause, hit.yes_no_text or ""):
            # "is there another fee to renew it?" asks about a thing, not a rule: "is a further fee required to
            # renew ...?" (No) answers it
            verdict = headnote_verdict(plan, hit)
            if verdict is not None:
                return verdict
        # "is there any rule about muddy water?" asks whether the law speaks to it, not what it allows ("isn't
        # there a rule against that?" asks whether it is forbidden): Yes when the provision quoted binds (shall,
        # shall not) and a headnote question of its, whatever its answer, is close to the question.
        # "is there a time limit for the review?" needs a figure in the quote, not just a rule.
        binds = (A.PROHIBITS.search(said) or _OBLIGES.search(said)) and (figures(said) or not A.MEASURED.search(clause))
        return _rule_speaks(plan, hit, said, bool(binds))
    if plan.verdict_query:  # "Can the officer hire an engineer? And who pays?": Yes or No answers the first
        plan = plan.model_copy(update={"query": plan.verdict_query})
    either = A.EITHER_OR.search(plan.query)
    if either:  # "can I be the applicant, or does it have to be the owner?": Yes or No answers the first half
        first = plan.query[:either.start()].rstrip(" ,") + "?"
        need = _NEED_ASKED.match(plan.query, either.start())
        if need and _ENOUGH_ASKED.search(asked := A.last_sentence(first)):
            # "it just says 'maintain as needed.' Is that enough, or do they need an actual schedule?": what the law
            # requires answers the second half; the first (whether what was done will do) is its opposite
            story, wanted = first[:len(first) - len(asked)], need.group("asked")
            second = plan.model_copy(update={"query": f"{story}{wanted[0].upper()}{wanted[1:]}"})
            verdict = _yes_no(second, hit, said)
            return None if verdict is None else "No" if verdict == "Yes" else "Yes"
        plan = plan.model_copy(update={"query": first})
    if A.discretion_asked_as_duty(plan.query, hit.yes_no_text or "", said):
        # "does the village require a bond?" against "the Village may require": it is the Village's choice; whether it
        # "always" does is answered: no, it may
        return "No" if A.ALWAYS.search(plan.query[asking_clause(plan.query):]) else None
    at = asking_clause(plan.query)
    clause = plan.query[at:]  # of the part a verdict answers
    headnote = headnote_verdict(plan, hit)
    judges = bool(A.JUDGES_SITUATION.search(clause))
    if hit.yes_no == "yes" and _MUST_INCLUDE.search(hit.yes_no_text or "") and \
            A.omission_judged(plan.query, at, f"{hit.yes_no_text} {hit.text}"):
        return "No"  # "our SWPPP skips describing the soils; OK?" against "must the plan describe the soils?"
    if _SAID_INCLUDES.search(said) and A.omission_judged(plan.query, at, said):
        return "No"  # "signed with just his name: no job title. Good enough?" against "must include the name and title"
    if judges and (hit.yes_no_similarity or 0.0) < YES_NO_EXCEPTION_SIMILARITY:
        return None  # "licensed in Connecticut. Is that acceptable?" is not "must a NYS licensed PE certify it?"
    if headnote is not None and A.role_unasked(plan.query, hit.yes_no_text or "", plan.expansions):
        return None  # "are as-builts required, and who certifies them?" is not "can a landscape architect certify them?"
    if headnote == "Yes" and A.other_actor(plan.query, f"{hit.yes_no_text or ''} {said}", plan.expansions):
        return None  # "can a land surveyor sign it?" against "can a certified erosion control specialist prepare it?"
    if headnote == "No" and A.other_actor(plan.query, hit.yes_no_text or "", plan.expansions):
        return None  # "can a landscape architect stamp it?" against "can a land surveyor prepare it?" (No)
    party = A.asked_of_a_party(plan.query)
    official = A.asked_of_an_official(plan.query)
    if headnote == "Yes" and party and A.ASKS_OF_OFFICIAL.search(hit.yes_no_text or ""):
        return None  # "can I start before my SWPPP is approved?" is not "may the officer approve the work completed?"
    if headnote is not None and official and A.asked_of_a_party(hit.yes_no_text or ""):
        return None  # "can the inspector shut off the power?" is not "may I reconnect before a certificate?"
    if _TROUBLE_ASKED.search(clause):
        # "can I get in trouble for letting them keep using it?" against "no person shall ... permit the use": a
        # rule against it says Yes; whether it is allowed (No) is not what was asked
        return "Yes" if headnote == "Yes" or (headnote is None and A.PROHIBITS.search(said)) else None
    if headnote == "Yes" and plan.asks in ("permission", "authority") and A.PROHIBITS.search(said) and \
            not (_EXCEPT.search(said) and (hit.yes_no_similarity or 0.0) >= YES_NO_EXCEPTION_SIMILARITY):
        # "can they start before ...?" against "will not be reviewed until": the two disagree; but a close headnote
        # question on the rule's exception ("no further work ... except for site stabilization": "can we keep
        # mulching the slope?") answers it
        return None
    if headnote is not None and _IDENTITY_ASKED.match(clause) and _MODAL_ASKED.match(hit.yes_no_text or ""):
        return None  # "is the SMO an elected official?" is not "must the Town designate a Stormwater Management Officer?"
    if headnote is not None and (must_be := _MUST_BE_ASKED.search(clause)) and \
            stem(must_be["noun"].lower()) not in stems(f"{hit.yes_no_text or ''} {said}"):
        return None  # "does the SMO have to be an engineer?" is not "must the Town designate an SMO?"
    if headnote == "Yes" and _other_referent(clause, hit.yes_no_text or ""):
        return None  # "'Department' - is that the town engineering department?" is not "does it mean the state DEC?"
    if headnote is not None and _BOUND.search(hit.yes_no_text or "") and not _BOUND.search(plan.query) and \
            not A.figure_within_bound(plan.query, hit.yes_no_text or "", A.sq_ft(plan)) and \
            not A.figure_within_bound(plan.query, hit.yes_no_rival_text or "", A.sq_ft(plan)):
        return None  # "will the Town bill me for its engineer?" is not "can the review cost more than the fee schedule?"
    # A rule with an exception ("halt all work except ...") answers a loosely matched question either way.
    if headnote is not None and (close_enough(hit, said) or _rival_agrees(plan, hit, headnote)):
        return headnote
    if judges and A.lacks_the_required_step(plan.query[:at], said) and \
            _modal_verdict("permission", said) == "No" and _speaks_to(plan.query, said, plan.expansions):
        return "No"  # "does side jobs and never registered with the village. Is that legal?" against "unlawful ... without being registered"
    if A.asked_negatively(plan.query):
        return None
    asks = "permission" if plan.asks == "authority" and party else plan.asks  # "can he (my electrician) ...?"
    if asks == "permission" and A.WE_ASK.search(clause) and _OFFICIAL_MAY.search(said):
        asks = "authority"  # staff asking "can we hold the CO?" of a power the law gives the Town: "we" are the Town
    if A.counts_otherwise(plan.query, said):
        return None  # "is every day a new violation?" against "each week's continued violation shall ...": neither
    if judges:
        return None  # nor does the modal of the quote ("shall be certified by ...") judge the situation described
    if A.ONLY_ASKED.search(clause):
        return None  # "must the notice go to the owner only?": "shall ... to the landowner or other person" is no Yes
    if A.COUNTS_AS.search(clause) and not A.DEEMS.search(said):
        # "does tearing down a house count as land disturbance?" is a definition's, not "shall be applicable"'s; a
        # sentence that itself deems ("each week ... shall constitute a separate violation") answers it
        return None
    # "isn't it against the rules for him to keep using it?" against "no person shall use ...": whatever the quote
    # forbids outright to anyone (its No to "may one do it?") is against the rules
    if _VIOLATION.search(clause) and not official and _modal_verdict("permission", said) == "No" \
            and headnote != "No" and _speaks_to(plan.query, said, plan.expansions):
        return "Yes"
    if _LEAVES_ASKED.search(clause) and _KEPT_ON_SITE.search(said):
        return None
    modal = _modal_verdict(asks, said, official) if _speaks_to(plan.query, said, plan.expansions) and \
        not A.denies_subject(plan.query, said) and A.same_figures(A.figures_asked(plan.query, said), "", said) and \
        A.names_what_is_required(clause, said, plan.expansions) and not A.asks_the_required_step(clause, said) and \
        not A.other_action(plan.query, said, plan.expansions) else None
    if modal is not None and headnote is not None and headnote != modal:
        return None  # a close headnote question says otherwise
    if modal == "Yes" and A.other_actor(plan.query, said, plan.expansions):
        return None  # a power or duty of the officer's is no Yes for "can my GC do it?"
    return modal


# "Is that enough, or do they need ...?", "That OK, or do they have to ...?", "Does that satisfy the article or do we
# need ...?": whether what was done will do, then what the law may require instead
_ENOUGH_ASKED = re.compile(r"^\W*(?:(?:is|was|would|will) (?:that|this|it) |that )?(?:(?:good )?enough|ok|okay|fine|sufficient|"
                           r"adequate|acceptable|alright|all right)\W*$|^\W*(?:does|do|would|will) (?:that|this|it|they) "
                           r"(?:satisfy|meet|do|cover|count|pass|work)\b", re.I)
_NEED_ASKED = re.compile(r",?\s+or\s+(?P<asked>(?:do|does|must|will|would) (?:they|we|i|you|he|she|it|the \w+) (?:\w+ )?"
                         r"(?:need|have to|has to|require)\b[^?]*\?)", re.I)


# A quote that itself says what must be in a document ("the certification must include the name and title ...")
_SAID_INCLUDES = re.compile(r"\b(?:must|shall)\s+(?:include|contain|provide|state|show|list)\b", re.I)
# A headnote question asking what a plan or notice must hold ("Must the plan name the receiving waters?")
_MUST_INCLUDE = re.compile(r"^\W*(?:must|do (?:i|we|you) have to|does (?:the|a|an|my|our) [\w' ]{1,30}? have to)\b[^?]*"
                           r"\b(?:include|describe|name|show|state|identify|contain|provide|list|specify|give|address)\b", re.I)


# The embedding hardly hears a negation: "are the haul roads exempt too?" comes closest to "are log haul roads
# subject to this law?" (yes), and only a little less close to "are log haul roads exempt ...?" (no).
YES_NO_POLARITY_MARGIN = 0.07


# Whether the asker could be held to account for something ("can I get in trouble for ...?", "could we be fined?")
_TROUBLE_ASKED = re.compile(r"\b(?:get|be|end up|land)\s+(?:\w+\s+)?(?:in|into)\s+(?:\w+\s+)?(?:trouble|hot water)\b|"
                            r"\bbe\s+(?:held\s+)?(?:liable|fined|penali[sz]ed|punished|cited|ticketed|prosecuted)\b", re.I)
_EXCEPT = re.compile(r"\bexcept\b", re.I)
# Words by which a provision grants something ("shall be entitled to a license", "recognizes", "reciprocity").
_GRANTS = re.compile(r"\b(?:entitled|recogni[sz]\w*|reciproc\w*|honou?r\w*|accept\w*)\b", re.I)


def _same_polarity(plan: QueryPlan, hit: Hit) -> Hit:
    """The hit with its rival headnote question as the closest one when that one is asked with the question's
    polarity (both negative or neither), the closest one is not, and the rival is nearly as close."""
    rival = hit.yes_no_rival_text
    if rival is None or hit.yes_no_text is None or hit.yes_no_rival is None or \
            (hit.yes_no_similarity or 0.0) - hit.yes_no_rival > YES_NO_POLARITY_MARGIN:
        return hit
    negative = A.asked_negatively(plan.query)
    if A.negative_main(hit.yes_no_text) == negative or A.negative_main(rival) != negative:
        return hit
    return _rival_closest(hit)


def _rival_closest(hit: Hit) -> Hit:
    """The hit with its rival headnote question (the other answer's closest) as the closest one."""
    return hit.model_copy(update={"yes_no": "no" if hit.yes_no == "yes" else "yes", "yes_no_text": hit.yes_no_rival_text,
                                  "yes_no_similarity": hit.yes_no_rival, "yes_no_rival": hit.yes_no_similarity,
                                  "yes_no_rival_text": hit.yes_no_text})


def _rival_agrees(plan: QueryPlan, hit: Hit, verdict: str) -> bool:
    """The closest headnote question of the other answer, read as it is asked, gives the same verdict: "are the
    log roads exempt too?" is No from "are log haul roads subject to this law?" (Yes, asked the other way round)
    and from "are log haul roads exempt?" (No). Two questions agreeing settle it under a rule with an exception."""
    if not hit.yes_no_rival_text or (hit.yes_no_rival or 0.0) < YES_NO_MIN_SIMILARITY:
        return False
    return headnote_verdict(plan, _rival_closest(hit)) == verdict


def close_enough(hit: Hit, said: str) -> bool:
    """The headnote question is close enough to answer: YES_NO_MIN_SIMILARITY, or for a rule with an exception
    YES_NO_EXCEPTION_SIMILARITY (YES_NO_DISCRETION_SIMILARITY for "may be exempt"), or YES_NO_EXCEPTION_MARGIN closer
    than the other answer's closest question."""
    similarity = hit.yes_no_similarity or 0.0
    if similarity < YES_NO_MIN_SIMILARITY:
        return False
    bar = YES_NO_DISCRETION_SIMILARITY if _MAY_BE_EXEMPT.search(said) else YES_NO_EXCEPTION_SIMILARITY
    if not _ONLY.search(said) or similarity >= bar:
        return True
    return hit.yes_no_rival is not None and similarity - hit.yes_no_rival >= YES_NO_EXCEPTION_MARGIN


# The modal of the quoted words answers only a question they speak to: "are swales required?" is not answered
# by "... shall submit a SWPPP", which never names a swale, so the quote must share at least one of the asking
# clause's subject words. Dev splits (218 yes/no questions): no wrong verdict more or less, one right one lost
# ("keep people from moving in" against "prevent the occupancy").
_ASKING_WORDS = frozenset("required require requires allowed allow permitted permit legal able can could may must "
                          "shall should will would need needs needed have has do does did is are am be".split())


def _rule_speaks(plan: QueryPlan, hit: Hit, said: str, binds: bool) -> str | None:
    """"Yes" to a question whether the law speaks to something ("is there a rule about ...?", "does the Town care
    if ...?"): the quoted words bind, a headnote question of the provision comes YES_NO_RULE_EXISTS close, and
    the quote speaks to the question; else None."""
    close = (hit.yes_no_similarity or 0.0) >= YES_NO_RULE_EXISTS
    return "Yes" if binds and close and _speaks_to(plan.query, said, plan.expansions) else None


def _speaks_to(question: str, said: str, expansions: Sequence[str] = ()) -> bool:
    """The quoted words share a subject word with the asking clause, or with the glossary's words for it
    ("turn it back on" -> "reconnect")."""
    asked = set(content_stems(question[asking_clause(question):], _ASKING_WORDS))
    return not asked or bool((asked | set(content_stems(" ".join(expansions), _ASKING_WORDS))) & set(content_stems(said)))


# "homeowner pull own electric permit?", "dude ranch = agricultural activity?": no verb says it is a yes/no
# question, but a yes/no headnote question this close says what it asks (dev splits: the telegraphic
# questions at or above 0.75 were all yes/no questions; at 0.70, with dev20 read: 6 more first sentences right
# of 3,136 questions, no wrong verdict more).
YES_NO_TELEGRAPHIC = 0.70


def _telegraphic(plan: QueryPlan, hit: Hit) -> bool:
    return (hit.yes_no is not None and (hit.yes_no_similarity or 0.0) >= YES_NO_TELEGRAPHIC
            and not WH.search(plan.query) and not plan.asked_definitions)  # "electrical contractor?" asks what it is


def headnote_verdict(plan: QueryPlan, hit: Hit) -> str | None:
    """The answer of the provision's yes/no headnote question closest to this question, when both ask with the
    same polarity and about the same figures; None otherwise (however close)."""
    if hit.yes_no is None or (hit.yes_no_similarity or 0.0) < YES_NO_CONTRADICTS:
        return None
    asked = hit.yes_no_text or ""
    relation = _relation(plan.query, asked)
    if relation is None:
        return None
    question = plan.query
    if relation == "inverse":  # "without" there is the tie, not a negation; so is "exempt" against "covered"
        question, asked = (_EXEMPT.sub(" ", _WITHOUT.sub(" ", t)) for t in (question, asked))
    denied = False
    if A.negative_main(asked) != A.asked_negatively(question):
        # "my electrician isn't licensed, is that a problem?" is not "may he lend his license?"; "I'm leasing,
        # not the owner. Am I a landowner?" asks in the positive
        # "... doesn't need notice. True in Tuckahoe?"
        if not (_TRUTH_ASKED.search(A.last_sentence(question)) and not A.negative_main(asked)):
            return None
        # "he says the chapter doesn't apply to him. Is that right?" against "is site plan work reviewed under the
        # chapter's standards?" (Yes): the claim denies what the headnote question affirms, so it is wrong (No)
        denied = True
    elif _TRUTH_ASKED.search(A.last_sentence(question)) and not A.negative_main(asked) and A.claim_denies(question):
        # "it isn't part of the approved plan, so it doesn't go in the binder. Correct?" against "do the certifications
        # become part of the SWPPP?" (Yes): a claim told in the negative, asked of in the positive
        denied = True
    if A.denies_subject(plan.query, asked):
        return None  # "she's not a landscape architect. Can she sign?" is not "can a landscape architect prepare it?"
    if A.unasked_lack(question, asked):
        return None  # "can a corporation register?" is not "may an unregistered company carry on the business?"
    if A.other_action(question, f"{asked} {hit.text}", plan.expansions):
        return None  # "can I appeal a stop-work order?" is not "may work that addresses the violations continue?"
    if A.ONLY_ASKED.search(A.asked_scope(question)) and not A.ONLY_ASKED.search(asked):
        # "my engineer says only a PE can sign it. Is that right?" is not "can a PE sign it?"
        return None  # "does the village only inspect on complaint?" is not "can the village inspect at random?"
    if not A.same_figures(plan.query, asked, hit.text, A.sq_ft(plan)):
        rival = hit.yes_no_rival_text or ""
        if A.figure_within_bound(plan.query, rival, A.sq_ft(plan)) and (hit.yes_no_rival or 0.0) >= YES_NO_MIN_SIMILARITY:
            # "a 10x12 shed" is outside "a shed of 100 square feet or less" (No) and within its rival's "a shed of
            # more than 100 square feet" (Yes): the rival's bound holds the figure, so the rival answers
            return headnote_verdict(plan, _rival_closest(hit))
        return None  # 0.3 inch is not the headnote's 0.5 inch; "is 1 inch = 500 feet enough?" is not "is there a scale?"
    if _ENOUGH.search(asked) and _ON_TOP.search(plan.query):
        return None  # "can we require monthly reports on top of the weekly ones?" is not "is a monthly report enough?"
    if A.counts_otherwise(plan.query, asked):
        return None  # "is every day a new offense?" is not "is each week's continued violation one?"
    if hit.yes_no == "no" and _ELSEWHERE.search(asked) and not _ELSEWHERE.search(plan.query) and not plan.other_place:
        return None  # "does the code apply to my house on Main Street?" is not "... to property outside the Village?"
    verdict = "Yes" if (hit.yes_no == "yes") == (relation == "same") else "No"
    return ("No" if verdict == "Yes" else "Yes") if denied else verdict


# "Is that right?", "True in Tuckahoe?", "is he correct?": whether a claim told before is true
_TRUTH_ASKED = re.compile(r"^\W*(?:(?:so|and|but),?\s+)?(?:(?:is|was) (?:that|this|it|he|she|they) |(?:are|were) they |am i |are we )?"
                          r"(?:right|true|correct|accurate)\b(?![^?]*\b(?:what|when|where|who|how|which|why)\b)[^?]{0,30}\?\s*$", re.I)


# Whether something suffices in place of what the law asks, against whether it may be asked for besides it.
_ENOUGH = re.compile(r"\b(?:enough|sufficient|suffices?|good enough|adequate|acceptable)\b", re.I)
_ON_TOP = re.compile(r"\b(?:on top of|in addition to|as well as|besides|over and above|along with|plus)\b", re.I)


# "Can I start before the permit is issued?" asks the inverse of "must the permit be issued before work
# starts?", and "can I work without a permit?" the inverse of "do I need a permit?": a question whether
# something may happen, set against a headnote question whether something must, answers the other way when
# an order or an absence ("before", "without") ties them; with no such tie the two ask different things.
_MAY = ("permission", "authority")
# A duty the headnote question lays on a private party ("must the landowner grant ...?"), not on the officials.
_PARTY_BOUND = re.compile(r"^\W*(?:if [^,?]*,\s*)?(?:must|shall|does|do|is|are|will)\s+(?:the|a|an|each|every|my|our|his|her|their)?\s*"
                          r"(?:landowners?|(?:property )?owners?|homeowners?|applicants?|developers?|contractors?|"
                          r"subcontractors?|persons?|i|you|we|they)\b", re.I)
# ... or an alternative ("may the officer accept a certification instead of reviewing?" against "must he review?")
_ORDER = re.compile(r"\b(?:before|prior to|until|without|while|instead of|rather than|in place of|in lieu of)\b", re.I)
_WITHOUT = re.compile(r"\bwithout\b", re.I)
_BEFORE = re.compile(r"\b(?:before|prior to|until|while)\b", re.I)
# "is just using it a violation?", "would that be illegal?": whether something is forbidden (not "installed in violation").
_VIOLATION = re.compile(r"\b(?:am|is|are|was|were|would|will|be)(?:n't|n’t)?(?![\w'’])[^?]{0,40}?\b(?:an? (?:\w+ )?violation|violating|"
                        r"breaking (?:the|any) (?:law|rules?|code)|(?:rule|law|regulation)s? against|illegal|unlawful|"
                        r"against (?:the |any |a )?(?:[\w'’]+ ){0,2}?(?:laws?|rules?|code|regulations?|ordinances?)|prohibited|forbidden|banned)\b", re.I)


# A law's severability asked both ways: whether the whole falls, or whether the rest stands.
# "is the rest dead too?" asks whether it falls, like "does the whole thing go?".
_WHOLE_FALLS = re.compile(r"\b(?:whole|entire|all|rest|remainder)\b.*\b(?:go|goes|gone|fall|falls|dead|die|dies|void|voided|"
                          r"invalid|collapse|collapses|cancel(?:led|ed)?|kill(?:ed)?|struck|toss(?:ed)?)\b", re.I)
_REST_STANDS = re.compile(r"\b(?:rest|remainder|remaining)\b.*\b(?:good|valid|stand|stands|survive|survives|"
                          r"stay|stays|remain|remains|effect|force|enforceable|intact|apply|applies)\b", re.I)


# Whether something lasts, asked both ways: "good forever?" is the converse of "does it expire?".
_LASTS = re.compile(r"\b(?:forever|indefinitely|permanent(?:ly)?|for good|never (?:expires?|runs? out|lapses?|ends?))\b", re.I)
_ENDS = re.compile(r"\b(?:expires?|expiration|runs? out|lapses?|time limit)\b", re.I)


# Whether a law reaches something, asked both ways: "are the skid roads covered?" is the converse of "are log haul
# roads exempt?".
_COVERED = re.compile(r"\b(?:covered|subject to|regulated|included)\b", re.I)
_EXEMPT = re.compile(r"\bexempt(?:ed|ion)?\b", re.I)


def _opposite_sides(clause: str, asked: str, one: re.Pattern, other: re.Pattern, one_wins: bool = False) -> bool:
    """The question asks one side of a pair and the headnote question the other ("the rest stands" against "the
    whole falls"). A clause with words of both sides asks neither, unless `one_wins` ("never expires" lasts)."""
    def side(text: str) -> str | None:
        first, second = bool(one.search(text)), bool(other.search(text))
        if first and (one_wins or not second):
            return "one"
        return "other" if second and not first else None
    mine, theirs = side(clause), side(asked)
    return mine is not None and theirs is not None and mine != theirs


# A condition ("if a court judges a provision invalid"): what it names is no side of a pair asked about
_CONDITION_CLAUSE = re.compile(r"\b(?:if|when|once|after)\b[^,?]*", re.I)
# A question that only points back at the claim before it: "Does it?", "Will they?", "Is it?"
_PRO_FORM = re.compile(r"^\W*(?:(?:so|and|but),?\s+)?(?:does|do|did|is|are|was|will|would|can|could|has|have)\s+"
                       r"(?:it|they|he|she|that|this)\s*\?\s*$", re.I)


def _relation(question: str, asked: str) -> str | None:
    """"same" when the headnote question asks what the question asks, "inverse" when it asks the converse
    (its Yes is the question's No), None when they ask different kinds of thing."""
    clause, asked_clause = question[asking_clause(question):], asked[asking_clause(asked):]
    kind, headnote_kind = ask_kind(clause), ask_kind(asked)
    # "a developer says the whole article falls with it. Does it?": the claim before a bare "does it?" says which side
    sides = question if _PRO_FORM.match(clause) else clause
    # ("does the remainder stay in force if a court judges a provision invalid?": the condition names no side)
    if _opposite_sides(*(_CONDITION_CLAUSE.sub(" ", t) for t in (sides, asked_clause)), _WHOLE_FALLS, _REST_STANDS) or \
            _opposite_sides(clause, asked_clause, _LASTS, _ENDS, one_wins=True) or \
            _opposite_sides(clause, asked_clause, _COVERED, _EXEMPT):
        return "inverse"  # "is the whole thing dead?" / "is the rest still good?"; "good forever?" / "does it expire?"
    if headnote_kind in _MAY and _VIOLATION.search(clause) and not _VIOLATION.search(asked):
        return "inverse"  # "is just using it a violation?" against "may one use it?": a violation is what one may not do
    if (kind in _MAY) == (headnote_kind in _MAY) or "obligation" not in (kind, headnote_kind):
        return "same"
    if kind == "authority" and _PARTY_BOUND.search(asked_clause) and not _BEFORE.search(clause):
        # "can the town enter without permission?" is not "must the landowner grant a right of entry?"; but "can the
        # town approve the design before I have my permits?" is the converse of "must I get them before approval?"
        return None
    may_side = clause if kind in _MAY else asked
    return "inverse" if _ORDER.search(may_side) else None


def _modal_verdict(asks: str | None, said: str, official_asked: bool = False) -> str | None:
    if asks is None or not said:
        return None
    if _ONLY.search(said):
        return None  # "issued only to ...", "may be exempt": the answer turns on who, when or a decision
    if A.PROHIBITS.search(said):
        # "No person shall ..." answers "can I ...?"; a sentence that also grants something is mixed.
        # A duty laid on the officials ("the Building Inspector shall not disqualify ...") says nothing of
        # what the asker may do.
        granted = _PERMITS.search(A.PROHIBITS.sub(" ", said))
        if granted:
            return None
        if asks == "permission" and not _OFFICIAL_BOUND.search(said):
            return "No"
        if asks == "authority" and (_OFFICIAL_BOUND.search(said) or (_ANYONE_BOUND.search(said) and not official_asked)):
            # "can the utility hook it up before ...?" against "unlawful for any person ... to make connection";
            # what anyone is forbidden says nothing of an official's power ("can the inspector shut off power?")
            return "No"
        return None
    if asks == "permission":
        return None  # a duty or a power the law gives someone says little about what the asker may do
    if _OBLIGES.search(said):
        return "Yes"
    if _PERMITS.search(said) and asks in ("authority", "fact"):
        return "Yes"
    return None


_OBLIGES = re.compile(r"\b(?:shall|must|is required|are required)\b", re.I)


_OFFICIAL_BOUND = re.compile(A.OFFICIALS + r"[^.;:]{0,80}?\b(?:shall not|must not|may not)\b", re.I)
# A prohibition that binds everyone ("it shall be unlawful for any person", "no person shall") binds whoever
# the question asks about.
_ANYONE_BOUND = re.compile(r"\b(?:(?:it shall be |is )?unlawful (?:for any(?:one| person)|to)|no person (?:\w+ )?shall)\b", re.I)
_ONLY = re.compile(r"\b(?:only|except|unless|exempt)\b", re.I)


_OFFICIAL_MAY = re.compile(A.OFFICIALS + r"[^.;:]{0,60}?\b(?:may|shall have the (?:right|power|authority))\b", re.I)
_PERMITS = re.compile(r"\b(?:may|authorized|entitled|empowered|has the (?:right|power|authority))\b", re.I)
