"""Every typed value the pipeline stages pass along. No I/O here.

Stages: corpus metadata -> Ordinance/Section/Provision (parsing) -> Hit (retrieval) ->
Citation/Answer (composition). Calculators keep their own input/output models in
``codeassist.calculators`` but reuse ``Step`` and ``Citation`` from here.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator


class Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Office(Frozen):
    key: str = Field(description="Stable key, e.g. 'building_inspector'.")
    name: str = Field(description="Display name of the office.")
    handles: list[str] = Field(default_factory=list, description="Topics it administers.")


class Example(Frozen):
    """An example question the app offers, kept with the municipality it names."""

    user: Literal["resident", "contractor", "staff"] = Field(description="Who typically asks it.")
    question: str


class Namesake(Frozen):
    """Another place with the municipality's name ("Tuckahoe" is also a hamlet of Southampton, Long Island)."""

    name: str = Field(description="The other place, as an answer names it.")
    cues: list[str] = Field(description="Regexes (lower-case question): words that place it, e.g. its town or county.")


class Municipality(Frozen):
    id: str = Field(description="Lower-case id used in provision ids, e.g. 'springfield'.")
    name: str = Field(description="Official name, e.g. 'Village of Springfield'.")
    short_name: str
    kind: str = Field(description="town, village or city.")
    county: str
    state: str
    aliases: list[str] = Field(default_factory=list, description="Lower-case names users write.")
    namesakes: list[Namesake] = Field(default_factory=list, description="Other places with its name: a question "
                                      "that names it with one's cues is about that place.")
    code_name: str
    code_abbrev: str
    offices: list[Office] = Field(default_factory=list)
    examples: list[Example] = Field(default_factory=list, description="Example questions the app offers, by user.")

    def office(self, key: str) -> Office | None:
        return next((o for o in self.offices if o.key == key), None)


class ExternalRef(Frozen):
    pattern: str = Field(description="Regular expression matching the reference in the text.")
    name: str = Field(description="What the referenced document is.")
    plural: bool = Field(default=False, description="The name is plural (\"the Town's ... regulations\"): what they say.")
    asked_as: list[str] = Field(default_factory=list, description="Regexes (lower-case question) for how people name "
                                "the document when they ask what it says; such a question is answered with where the "
                                "law points to it, as its text is not in the corpus.")


class ProvisionNote(Frozen):
    provision: str
    note: str


class Gap(Frozen):
    """A question the corpus cannot answer because the text lives elsewhere (metadata, per ordinance)."""

    all_of: list[str] = Field(description="Regexes (lower-case question) that must all match.")
    any_of: list[str] = Field(default_factory=list, description="At least one must match, when given.")
    none_of: list[str] = Field(default_factory=list, description="None may match: words that show the question "
                               "asks what the text does say (\"what must the owner have in place to keep them working?\" "
                               "asks for the maintenance rule, not for a practice to install).")
    missing: str = Field(description="What is missing and where it lives, in one sentence.")
    pointer: str | None = Field(default=None, description="Provision that points to the missing text.")
    quote: str | None = Field(default=None, description="Verbatim words of `pointer` to show.")
    yields_to: list[str] = Field(default_factory=list, description="Provisions that do answer such a question "
                                 "when retrieval ranks one of them (or a part of one) first: then the gap does not "
                                 "answer (\"does a fence trigger review?\" is answered by the exemption list).")


class SectionMeta(Frozen):
    """A section as described by metadata (used where the text has no headings)."""

    key: str
    number: str | None = None
    number_confirmed: bool = False
    number_note: str = ""
    title: str
    starts_with: str
    definitions: bool = False


class Ordinance(Frozen):
    id: str = Field(description="'<municipality>-<division>', e.g. 'springfield-ch12'.")
    municipality: str
    title: str
    code_name: str
    division: str = Field(description="'Article XXXVIII', 'Chapter 7B'.")
    division_label: str = Field(description="Short form used in citations: 'Art. XXXVIII'.")
    topic: Literal["stormwater", "electrical"]
    topic_words: list[str] = Field(default_factory=list, description="Words a question uses to name this law "
                                   "('erosion', 'electrical code'); the topic itself always counts.")
    effective_date: str | None = None
    effective_date_source: str = ""
    enacted_by: str | None = None
    territory: str | None = Field(default=None, description="The provision saying where the law applies (its territory): "
                                  "whether it reaches land in another place is answered from it. None: the text does not say.")
    source: str = Field(description="File name of the verbatim text, relative to the municipality folder.")
    citation_prefix: str
    administered_by: str = Field(description="Office key from the municipality metadata.")
    layout: Literal["unheaded-blocks", "headed-sections"]
    section_pattern: str | None = None
    starts_with: str | None = None
    ends_before: str | None = None
    preamble_starts_with: str | None = None
    sections: list[SectionMeta] = Field(default_factory=list)
    external_refs: list[ExternalRef] = Field(default_factory=list)
    notes: list[ProvisionNote] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list, description="Text it relies on that is not in the corpus.")
    gaps: list[Gap] = Field(default_factory=list, description="Questions whose answer is in text not in the corpus.")


class CrossRef(Frozen):
    """A reference found in a provision's text, resolved to a provision or to text outside the corpus."""

    text: str = Field(description="The reference as written, e.g. '§ <section>, Subsection <label>'.")
    start: int = Field(description="Offset in the source file.")
    end: int
    kind: Literal["internal", "not_in_corpus"]
    target: str | None = Field(default=None, description="Provision id when internal.")
    target_name: str | None = Field(default=None, description="Named document when not in corpus.")


ProvisionKind = Literal["section", "subsection", "paragraph", "item", "definition", "continuation"]


class Provision(Frozen):
    id: str = Field(description="Stable id: '<municipality>:<section>(<label>)...', or '<municipality>:<section>/<defined-term>' for a definition.")
    municipality: str
    ordinance: str
    section: str = Field(description="Section key: its number ('12-5', '204') or, unnumbered, a slug of its title ('exemptions').")
    labels: tuple[str, ...] = Field(default=(), description="Path of labels below the section, e.g. ('B', '1', 'a').")
    kind: ProvisionKind
    citation: str = Field(description="Display citation a lawyer would accept.")
    heading: str = Field(description="Heading path: section title > subsection caption.")
    title: str | None = Field(default=None, description="This provision's own caption, if it has one.")
    term: str | None = Field(default=None, description="The defined term, for definition entries.")
    text: str = Field(description="Exact own text (source[start:end]), without label, children or history note.")
    start: int = Field(description="Offset of `text` in the source file (characters).")
    end: int
    source: str = Field(description="Corpus-relative path of the source file.")
    parent: str | None = None
    children: tuple[str, ...] = ()
    history: str | None = Field(default=None, description="History note, e.g. 'Ord. of 3-31-1933, Art. IV'.")
    notes: tuple[str, ...] = Field(default=(), description="Editorial notes from metadata.")
    refs: tuple[CrossRef, ...] = ()


class Headnote(Frozen):
    """Our plain-language summary of one provision: curated corpus data (`corpus/<id>/headnotes/*.toml`),
    shown labelled as a summary, never as the law. Its figures, offices and defined terms are checked
    against the provision's text by tests/corpus/test_headnotes.py."""

    id: str = Field(description="Provision id the headnote summarises.")
    summary: str = Field(description="One or two sentences in everyday words: who, what, when, how much.")
    questions: tuple[str, ...] = Field(default=(), description="Questions, in users' words, the provision answers.")
    yes: tuple[str, ...] = Field(default=(), description="Yes/no questions the provision's text plainly answers yes.")
    no: tuple[str, ...] = Field(default=(), description="Yes/no questions the provision's text plainly answers no.")
    source: str = Field(default="", description="Corpus-relative file the headnote was read from.")


class Section(Frozen):
    key: str
    ordinance: str
    municipality: str
    number: str | None
    number_confirmed: bool
    number_note: str = ""
    title: str
    citation: str
    provision_id: str = Field(description="Id of the section-level provision.")


class Step(Frozen):
    """One step of a calculator's reasoning, resting on one provision."""

    text: str = Field(description="What this step concludes, in plain words.")
    provision_id: str | None = Field(description="Provision the step rests on; None only for arithmetic or assumptions.")
    citation: str | None = None
    quote: str | None = Field(default=None, description="Verbatim words of the provision that support the step.")


class Citation(Frozen):
    """A citation is data: it names a provision, and its quote must occur verbatim in that provision."""

    id: str
    municipality: str
    citation: str
    heading: str
    quote: str

    @field_validator("quote")
    @classmethod
    def _quote_in_source(cls, quote: str, info: ValidationInfo) -> str:
        # When the caller passes the corpus in the validation context, an invented quote is an error.
        corpus = (info.context or {}).get("corpus")
        if corpus is not None:
            pid = info.data.get("id")
            if pid is None or not corpus.quote_in(pid, quote):
                raise ValueError(f"quote is not verbatim in {pid}: {quote[:60]!r}")
        return quote


class Hit(Frozen):
    id: str
    municipality: str
    citation: str
    heading: str
    text: str
    score: float
    retrievers: tuple[str, ...] = Field(default=(), description="Which retrievers found it: 'dense', 'bm25', 'citation', 'definition'.")
    view: str | None = Field(default=None, description="The representation that matched closest: 'text', 'heading', "
                             "'summary', 'questions', or one headnote question: 'question', 'yes', 'no'.")
    view_text: str | None = Field(default=None, description="That view's words (the matched headnote question; "
                                  "headnote views are our summary, not the law).")
    view_similarity: float | None = Field(default=None, description="Its dense cosine; None when only BM25 found it.")
    yes_no: str | None = Field(default=None, description="'yes' or 'no': the kind of this provision's yes/no headnote "
                               "question closest to the query among the dense candidates, if any was found.")
    yes_no_text: str | None = Field(default=None, description="That yes/no headnote question.")
    yes_no_similarity: float | None = Field(default=None, description="Its dense cosine to the query.")
    yes_no_rival: float | None = Field(default=None, description="The dense cosine of this provision's closest "
                                       "headnote question with the other answer; None when none was among the "
                                       "dense candidates.")
    yes_no_rival_text: str | None = Field(default=None, description="That headnote question, when it was among the "
                                          "dense candidates.")


Intent = Literal["calculator", "definition", "lookup", "compare", "retrieval", "clarify", "abstain"]


class QueryPlan(Frozen):
    """A question understood once (plan.py): where, what kind of answer, the calculator's inputs with where
    each came from, the words to search with, citations and defined terms typed in it. Retrieval, the
    handlers and the eval read the plan; nothing parses the question again after it is built."""

    query: str = Field(description="The question, cleaned of control characters and extra spaces.")
    municipality: str | None = Field(description="Filter for every retriever; None searches all.")
    municipality_source: Literal["caller", "question", "conversation", "none"]
    named: tuple[str, ...] = Field(default=(), description="Municipalities the question names, in order.")
    scope: tuple[str, ...] = Field(default=(), description="Municipalities the answer covers.")
    other_place: str | None = Field(default=None, description="A place named that is not in the corpus.")
    sited_elsewhere: bool = Field(default=False, description="The land or work asked about lies in that other place "
                                  "(\"does the Town's article apply to a project inside the village next door?\"), "
                                  "whichever law of ours the question names.")
    reach_asked: bool = Field(default=False, description="Whether the law named reaches that other place is asked (\"my "
                              "shop is in Yonkers: do I need the village's permit?\"): the law's own territory answers it.")
    outside_new_york: bool = Field(default=False, description="The question names a place outside New York State "
                                   "('my license is from New Jersey'): a rule for New York licences is not its Yes.")
    overridden: str | None = Field(default=None, description="The municipality the caller chose when the question "
                                   "names another one only: the question's is answered, and the answer says so.")
    expanded: str = Field(description="The question with abbreviations' and everyday words' expansions appended.")
    expansions: tuple[str, ...] = Field(default=(), description="Those expansions alone, one per abbreviation or everyday phrase.")
    embedded: str = Field(default="", description="What the dense search embeds: the question with its abbreviations "
                          "spelled out where they stand and the other expansions appended (`expanded` when empty).")
    words: int = Field(default=0, description="How many content words the question has (not stop words, numbers or places).")
    unknown_words: tuple[str, ...] = Field(default=(), description="Those the corpus never uses, nor any spelling, stem or "
                                           "glossary entry of them: 'purple monkey dishwasher'.")
    citations: tuple[str, ...] = Field(default=(), description="Provisions cited in the question.")
    definitions: tuple[str, ...] = Field(default=(), description="Definitions of terms the question uses, longest term first.")
    asked_definitions: tuple[str, ...] = Field(default=(), description="Definitions the question asks for ('what is X').")
    intent: str = Field(default="retrieval", description="lookup, definition, compare, calculator, retrieval or abstain.")
    calculator: str | None = Field(default=None, description="The calculator whose required input the question holds.")
    term: str | None = Field(default=None, description="The defined term asked about.")
    citation_text: str | None = Field(default=None, description="The citation as typed, for lookups.")
    subject: str | None = Field(default=None, description="A subject these ordinances do not cover.")
    yes_no: bool = Field(default=False, description="A yes/no question (it starts with can, do, is, must ...).")
    verdict_query: str | None = Field(default=None, description="A two-part question's yes/no part, its context kept "
                                      "and its other questions left out ('Can the officer hire an engineer? And who "
                                      "pays?' -> the first); None when that is the whole question.")
    asks: Literal["authority", "permission", "obligation", "fact"] | None = Field(
        default=None, description="What a yes/no question asks: may an official act, may the asker, must it, or does it happen.")
    negative: bool = Field(default=False, description="Asked in the negative or about getting out of a rule ('without', 'skip', 'exempt').")
    external: tuple[str, ...] = Field(default=(), description="Outside documents the question asks the contents of "
                                      "(ordinance `external_refs` names): what they say is not in the corpus.")
    measure: str | None = Field(default=None, description="The figure the question asks for, in its words ('how tall', "
                                "'what size'), when it asks for a size, distance or price.")
    slots: dict[str, Any] = Field(default_factory=dict, description="Calculator inputs read from the question.")
    slot_sources: dict[str, str] = Field(default_factory=dict, description="Slot -> the words it was read from.")
    gaps: tuple[str, ...] = Field(default=(), description="Metadata gaps the question asks about: 'ordinance-id#index'.")
    divisions: tuple[str, ...] = Field(default=(), description="Ordinances the question names by their division "
                                       "('ch. 7B', 'Chapter 7', 'Article XXXVIII'): their ids.")
    laws: tuple[str, ...] = Field(default=(), description="Ordinances the question names by their topic words "
                                  "('electrician', 'erosion'; see Ordinance.topic_words): their ids.")
    follow_up: Literal["municipality", "area", "full_text"] | None = Field(
        default=None, description="A follow-up that leans on the conversation: 'what about in X?', 'and if it's 6 acres?', 'show me that section'.")
    follow_up_municipality: str | None = Field(default=None, description="The municipality a 'what about in X?' moves to.")

    def for_municipality(self, municipality: str | None) -> "QueryPlan":
        return self.model_copy(update={"municipality": municipality})


BlockKind = Literal["lead", "summary", "quote", "text", "note", "offices", "follow_up"]


class Block(Frozen):
    """One piece of a drafted answer. Our own words (lead, text, note) may hold only figures that a quote,
    a summary or a calculation in the same draft holds; a quote is verbatim in its provision; a summary is
    the curated headnote of the provision it names, shown labelled as a summary."""

    kind: BlockKind
    text: str = Field(default="", description="Our words (lead, text, note, offices, follow_up) or the summary.")
    citation: Citation | None = Field(default=None, description="Quote blocks: the verbatim quote and its provision.")
    summary_of: str | None = Field(default=None, description="Summary blocks: the provision the headnote summarises.")
    label: str | None = Field(default=None, description="The municipality this block speaks for, when several do.")
    role: str = Field(default="", description="How a quote is introduced: 'proof', 'also', 'lead-in', 'item', 'definition'.")


class Draft(Frozen):
    """A handler's answer before verification and rendering: typed blocks, in reading order."""

    blocks: tuple[Block, ...] = ()

    @property
    def citations(self) -> list[Citation]:
        return [b.citation for b in self.blocks if b.citation is not None]



class Answer(Frozen):
    """What the assistant returns for one question (the JSON other tools read)."""

    question: str
    answer: str = Field(description="The text shown to the user (plain text with light Markdown).")
    intent: Intent
    municipality: str | None = Field(description="Municipality the answer is about; None when several or none.")
    citations: list[Citation] = Field(default_factory=list, description="Most relevant first; quotes verbatim.")
    abstained: bool = False
    calculation: dict | None = Field(default=None, description="The calculator's output model, as JSON data.")
    calculator: str | None = Field(default=None, description="Name of the calculator used, if any.")
    calculation_input: dict | None = Field(default=None, description="The inputs read from the question.")
    follow_up: str | None = Field(default=None, description="A question back to the user when an input is missing.")
    caveats: list[str] = Field(default_factory=list)
    offices: list[str] = Field(default_factory=list, description="Who to ask next.")
    disclaimer: str = "This is legal information from the ordinance text, not legal advice."
    lead: str = Field(default="", description="The direct answer, the first sentence a user reads (our words or a labelled summary).")
    blocks: list[Block] = Field(default_factory=list, description="The verified draft the text was rendered from.")


class Turn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str
    answer: Answer


class Conversation(BaseModel):
    """State shared by follow-ups ("what about in Tuckahoe?", "and if it's 6 acres?"). The app and CLI
    both keep one; `Assistant.ask` reads it and appends a turn only when an answer was produced."""

    model_config = ConfigDict(extra="forbid")

    id: str = ""
    turns: list[Turn] = Field(default_factory=list)
    municipality: str | None = Field(default=None, description="Municipality chosen in the UI, if any.")
    last_municipality: str | None = None
    last_intent: str | None = None
    last_calculator: str | None = None
    last_calc_input: dict | None = None
    last_topic: str | None = Field(default=None, description="The question text that set the topic.")
    last_citation_ids: list[str] = Field(default_factory=list)
    pending: dict | None = Field(default=None, description="A calculator waiting for a follow-up answer.")

    def to_markdown(self) -> str:
        lines = ["# codeassist conversation", ""]
        for t in self.turns:
            lines += [f"**Q:** {t.question}", "", t.answer.answer, ""]
            for c in t.answer.citations:
                lines.append(f"- {c.citation} ({c.id}): \u201c{c.quote}\u201d")
            lines += ["", f"_{t.answer.disclaimer}_" if t is self.turns[-1] else "", ""]
        return "\n".join(lines).rstrip() + "\n"
