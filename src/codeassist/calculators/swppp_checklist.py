"""What a SWPPP must contain for a project: the base list, plus the post-construction list when a condition applies.

A generic engine over `rules/swppp_checklist.toml` (``ChecklistRules``): the lists are the ordinance's
own words (verbatim). Where the contents are in text not in the corpus (the rules file says where, in
`missing`), the checklist says so and lists nothing rather than borrowing another municipality's list.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from codeassist.calculators import applicability
from codeassist.calculators._refs import Ref, cited, citation, municipality_name, rules_for
from codeassist.calculators.applicability import ApplicabilityInput
from codeassist.corpus.rules import ChecklistRules
from codeassist.models import Step
from codeassist.text import last_sentence, stem


class ChecklistItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    group: Literal["base", "post_construction", "certification"]
    text: str = Field(description="The requirement, verbatim.")
    provision_id: str
    citation: str


class SwpppChecklistOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: str
    status: Literal["computed", "not_required", "not_in_corpus"]
    swppp_required: str
    post_construction_controls: bool | None
    conditions: list[str] = Field(default_factory=list)
    items: list[ChecklistItem] = Field(default_factory=list)
    steps: list[Step] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)

    def to_markdown(self) -> str:
        out = [f"# SWPPP checklist: {self.municipality.title()}", ""]
        out.append(f"SWPPP required: **{self.swppp_required}**" + (f"; conditions: {', '.join(self.conditions)}" if self.conditions else ""))
        out.append("")
        titles = {
            "base": "Background information and erosion and sediment controls",
            "post_construction": "Post-construction stormwater controls (Conditions A, B, C)",
            "certification": "Preparation, certification and keeping",
        }
        for group, title in titles.items():
            rows = [i for i in self.items if i.group == group]
            if rows:
                out += [f"## {title}", ""]
                out += [f"- [ ] {i.text} ({i.citation})" for i in rows]
                out.append("")
        if self.caveats:
            out += ["## Caveats", ""] + [f"- {c}" for c in self.caveats] + [""]
        return "\n".join(out)


def _item(group: str, ref: Ref) -> ChecklistItem:
    return ChecklistItem(group=group, text=ref.quote, provision_id=ref.pid, citation=citation(ref.pid))  # type: ignore[arg-type]


def run(inp: ApplicabilityInput) -> SwpppChecklistOutput:
    app = applicability.run(inp)
    out = SwpppChecklistOutput(
        municipality=inp.municipality,
        status="computed",
        swppp_required=app.swppp_required,
        post_construction_controls=app.post_construction_controls,
        conditions=list(app.conditions),
        steps=list(app.steps),
        caveats=list(app.caveats),
    )
    lists: ChecklistRules | None = rules_for(inp.municipality, "swppp_checklist")
    if lists is None or lists.missing is not None or lists.base_lead is None:
        out.status = "not_in_corpus"
        out.caveats.append(lists.missing if lists is not None and lists.missing else
                           f"The {municipality_name(inp.municipality)}'s SWPPP contents are not in this corpus, so no "
                           "checklist can be given from the text here; ask its Stormwater Management Officer.")
        return out
    if app.swppp_required == "no":
        out.status = "not_required"
        return out
    out.items = [_item("base", r) for r in lists.base]
    out.steps.append(cited(lists.base_lead))
    if app.post_construction_controls:
        out.items += [_item("post_construction", r) for r in lists.post_construction]
        if lists.post_construction_lead is not None:
            out.steps.append(cited(lists.post_construction_lead))
    out.items += [_item("certification", r) for r in lists.certification]
    if app.swppp_required == "likely_exempt":
        out.caveats.append("This list applies if the Stormwater Management Officer does not grant the exemption.")
    return out


# --- Question and answer edges -----------------------------------------------------------------------

read_slots = applicability.read_slots  # the same project facts


# An item is named by its opening words ("Hydrologic and hydraulic analysis for all structural components"), less
# the words every SWPPP question shares.
_OPENING_WORDS = 8
_SHARED_WORDS = frozenset("""the and for all any with from that this shall will must which each into such other
    their there where when what swppp swppps stormwater management plan plans project site sites construction
    control controls practice practices description erosion sediment including include includes""".split())


def _key_words(text: str) -> set[str]:
    words = re.findall(r"[a-z]+", text.lower())[:_OPENING_WORDS]
    return {stem(w) for w in words if len(w) >= 4 and w not in _SHARED_WORDS}


# "... receiving water not on any impaired list. Which SWPPP items apply?" asks for the list, whatever the story names
_LIST_ASKED = re.compile(r"\b(?:which|what) (?:[\w-]+ ){0,2}(?:items?|elements?|components?|parts?|sections?|contents?)\b|"
                         r"\bwhat (?:does|do|must|should|has to|have to) (?:[\w-]+ ){0,4}(?:include|contain|cover|have)\b|"
                         r"\b(?:full|whole|complete) list\b", re.I)


def named_item(out: SwpppChecklistOutput, question: str) -> ChecklistItem | None:
    """The one item the question names by most of its opening words ("do we need an actual hydrologic and
    hydraulic analysis?"), or None; none when the last sentence asks for the list."""
    if _LIST_ASKED.search(last_sentence(question)):
        return None
    asked = {stem(w) for w in re.findall(r"[a-z]+", question.lower()) if len(w) >= 4}
    scored = []
    for item in out.items:
        keys = _key_words(item.text)
        hit = len(keys & asked)
        if hit >= 2 and hit * 2 >= len(keys):
            scored.append((hit / len(keys), item))
    scored.sort(key=lambda x: -x[0])
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def items_first(out: SwpppChecklistOutput, question: str) -> list[ChecklistItem]:
    """The items, the one the question names first."""
    named = named_item(out, question)
    return [named, *(i for i in out.items if i is not named)] if named is not None else list(out.items)


def _opening(item: ChecklistItem) -> str:
    """The item's words up to its first comma or "for" clause, as named in a sentence."""
    head = re.split(r"[,;:(.]| for | to be ", item.text, maxsplit=1)[0].strip()
    return head[:1].lower() + head[1:]


def _parts(out: SwpppChecklistOutput, group: str) -> str:
    """The subsections a group of items comes from, as cited ("§ 391(B)(1)" for its items (a)-(m))."""
    parts = dict.fromkeys(re.sub(r"\([^()]*\)$", "", i.citation[i.citation.find("\u00a7"):]) for i in out.items
                          if i.group == group and "\u00a7" in i.citation)
    return " and ".join(parts)


def headline(out: SwpppChecklistOutput, names: dict[str, str], data: dict | None = None, question: str = "") -> str:
    where = names.get(out.municipality, "")
    named = named_item(out, question) if out.status == "computed" else None
    if named is not None and named.group == "post_construction" and out.conditions:
        which = " and ".join(f"Condition {c}" for c in out.conditions)
        return (f"Yes: your SWPPP ({where}) must include the {_opening(named)}, because the project meets {which}; "
                "it is one of the items below.")
    if named is not None and named.group != "post_construction":
        return f"Yes: your SWPPP ({where}) must include the {_opening(named)}; it is one of the items below."
    if out.status == "computed" and out.items:
        base, post = _parts(out, "base"), _parts(out, "post_construction")
        if out.post_construction_controls and out.conditions:
            which = " and ".join(f"Condition {c}" for c in out.conditions)
            return (f"Your SWPPP ({where}) must contain the items below: {base and f'those of {base} and '}the "
                    f"post-construction stormwater controls{post and f' of {post}'}, because the project meets {which}.")
        if out.post_construction_controls is False:
            return (f"Your SWPPP ({where}) must contain the items below{base and f' (those of {base})'}; the "
                    "post-construction stormwater controls are not required, as the project meets none of the "
                    "conditions that call for them.")
        return f"Your SWPPP ({where}) must contain the items below."
    if out.status == "not_required":
        return f"No SWPPP is required for this project ({where}), so there is no checklist."
    return f"The required SWPPP contents for the {where} are not in this corpus."


def undecided(out: SwpppChecklistOutput, slots: dict | None = None) -> bool:
    return out.status == "not_in_corpus"
