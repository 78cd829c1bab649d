"""Parsing ordinance text into sections and provision trees (pure: text + metadata in, provisions out).

Two layouts exist in the corpus:
- "unheaded-blocks" (Hempstead): no section headings; sections are found by the first words of their
  text given in metadata. Every label ("A.", "(1)", "(a)") stands alone on a line, its text on the next.
- "headed-sections" (Tuckahoe): "§ 7B-5. Exemptions. ..." headings; paragraphs separated by blank lines
  and opened by "(a)", "(1)" or a bare "a " (milestone items); history notes end sections.

Every provision's `text` is an exact slice of the source file, so offsets can highlight a quote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import CorpusError
from ..models import Municipality, Ordinance, Provision, Section, SectionMeta

PARSER_VERSION = "4"

_LINE_LABEL = re.compile(r"^(?:(?P<upper>[A-Z])\.|\((?P<digit>\d+)\)|\((?P<lower>[a-z])\))\s*$")
_PAREN_LABEL = re.compile(r"^\((?P<label>[a-z]|\d+)\s?\)\s*")
_BARE_ITEM = re.compile(r"^(?P<label>[a-z]) (?=[A-Z])")
_HISTORY = re.compile(r"\s*\((?P<note>(?:Ord\.|L\.L\.)[^()]*)\)\s*$")
_TERM_LINE = re.compile(r"^[A-Z0-9][A-Z0-9 ()\-,'/&.]+$")
_MODAL = re.compile(r"\b(shall|may|must|will|is|are|be)\b", re.I)
_CAPTION = re.compile(r"^(?P<cap>[A-Z][^.;:]{2,80}?)\.(?=\s|$)")

# The note of a section whose number the text prints in its heading.
PRINTED = "Printed in the text."


@dataclass
class Node:
    labels: tuple[str, ...]
    kind: str
    start: int
    end: int
    title: str | None = None
    term: str | None = None
    history: str | None = None
    children: list["Node"] = field(default_factory=list)
    level: int = 0

    def add(self, child: "Node") -> "Node":
        self.children.append(child)
        return child


def slug(term: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")


def _span(src: str, start: int, end: int) -> tuple[int, int]:
    """Trim whitespace off both ends of src[start:end]."""
    while start < end and src[start].isspace():
        start += 1
    while end > start and src[end - 1].isspace():
        end -= 1
    return start, end


def _lines(src: str, start: int, end: int):
    pos = start
    while pos < end:
        nl = src.find("\n", pos, end)
        stop = end if nl == -1 else nl
        yield pos, stop, src[pos:stop]
        pos = stop + 1


def _continuation(parent: Node, start: int, end: int) -> Node:
    n = sum(1 for c in parent.children if c.kind == "continuation") + 2
    return parent.add(Node(parent.labels + (f"p{n}",), "continuation", start, end, level=parent.level + 1))


# --- "unheaded-blocks" ---------------------------------------------------------------------------

def _find_blocks(src: str, ordinance: Ordinance) -> list[tuple[SectionMeta, int, int]]:
    starts = []
    pos = 0
    for meta in ordinance.sections:
        # Whitespace in an anchor matches any whitespace: the text uses no-break spaces after labels.
        anchor = re.compile(r"\s+".join(re.escape(tok) for tok in meta.starts_with.split()))
        hits = [m.start() for m in anchor.finditer(src)]
        after = [h for h in hits if h >= pos]
        if not after:
            raise CorpusError(f"{ordinance.id}: section {meta.key!r} start {meta.starts_with!r} not found after offset {pos}")
        if len(hits) > 1:
            raise CorpusError(f"{ordinance.id}: section {meta.key!r} start {meta.starts_with!r} is not unique")
        at = after[0]
        if at != 0 and src[at - 1] != "\n":
            raise CorpusError(f"{ordinance.id}: section {meta.key!r} must start at a line start")
        starts.append((meta, at))
        pos = at + 1
    bounds = [at for _, at in starts[1:]] + [len(src)]
    return [(meta, at, end) for (meta, at), end in zip(starts, bounds)]


def _parse_line_labelled(src: str, start: int, end: int, meta: SectionMeta) -> Node:
    section = Node((), "section", start, start)
    stack: list[Node] = [section]
    pending: tuple[int, str] | None = None
    pending_term: str | None = None
    lead_done = False
    for ls, le, line in _lines(src, start, end):
        if not line.strip():
            continue
        m = _LINE_LABEL.match(line)
        if m:
            level = 1 if m["upper"] else 2 if m["digit"] else 3
            pending = (level, m["upper"] or m["digit"] or m["lower"])
            continue
        ts, te = _span(src, ls, le)
        if pending:
            level, label = pending
            pending = None
            while stack[-1].level >= level:
                stack.pop()
            parent = stack[-1]
            if parent.level != level - 1:
                raise CorpusError(f"label {label!r} at offset {ls} has no parent at level {level - 1}")
            kind = {1: "subsection", 2: "paragraph", 3: "item"}[level]
            stack.append(parent.add(Node(parent.labels + (label,), kind, ts, te, level=level)))
        elif meta.definitions and lead_done and (pending_term is None) and _TERM_LINE.match(line.strip()):
            pending_term = line.strip()
        elif pending_term is not None:
            section.add(Node((), "definition", ts, te, term=pending_term, level=1))
            pending_term = None
        elif not lead_done and not section.children:
            section.start, section.end = ts, te
        else:
            last = next((c for c in reversed(section.children) if c.kind == "subsection"), section)
            _continuation(last, ts, te)
        lead_done = True
    if pending or pending_term:
        raise CorpusError(f"section {meta.key!r} ends with a label or term that has no text")
    return section


# --- "headed-sections" ---------------------------------------------------------------------------

def _paragraphs(src: str, start: int, end: int):
    pos = start
    for m in re.finditer(r"\n[ \t]*\n", src[start:end]):
        ps, pe = _span(src, pos, start + m.start())
        if pe > ps:
            yield ps, pe
        pos = start + m.end()
    ps, pe = _span(src, pos, end)
    if pe > ps:
        yield ps, pe


def _split_inline(src: str, node: Node, parent: Node) -> None:
    """Items "(f) ... (g) ... (h)" printed on one line: split at each next sibling label after a sentence end."""
    label = node.labels[-1]
    while len(label) == 1 and label.isalpha():
        nxt = chr(ord(label) + 1)
        m = re.compile(r"(?<=[.;:])\s+\(" + nxt + r"\)\s+").search(src, node.start, node.end)
        if not m:
            return
        new = Node(node.labels[:-1] + (nxt,), node.kind, m.end(), node.end, level=node.level)
        node.end = _span(src, node.start, m.start())[1]
        node = parent.add(new)
        label = nxt


def _parse_headed(src: str, start: int, end: int, ordinance: Ordinance) -> list[tuple[str, str, Node]]:
    head = re.compile(r"^§ (?P<num>" + (ordinance.section_pattern or r"[\w.-]+") +
                      r")\.\s+(?P<title>\(Reserved\)|[^.]+\.)(?:\s+(?P<rest>.*))?$", re.S)
    sections: list[tuple[str, str, Node]] = []
    prev_text = ""
    level1: Node | None = None
    level2: Node | None = None
    last_node: Node | None = None
    for ps, pe in _paragraphs(src, start, end):
        text = src[ps:pe]
        hist = _HISTORY.search(text)
        te = ps + hist.start() if hist else pe
        m = head.match(text)
        if m:
            num = m["num"]
            section = Node((), "section", pe, pe)
            section.title = m["title"].rstrip(".") if m["title"] != "(Reserved)" else "(Reserved)"
            if m["title"] == "(Reserved)":  # a reserved number: "(Reserved)" is all it says
                section.start, section.end = ps + m.start("title"), ps + m.end("title")
            if m["rest"]:
                section.start, section.end = _span(src, ps + m.start("rest"), te)
            sections.append((num, section.title, section))
            level1 = level2 = None
            last_node = section
        elif prev_text.endswith("§") and last_node is not None:
            # One reference split over two lines ("Appendix A, §" / "§ 7-1.3(f) and 7-3."): same provision.
            last_node.end = te
        else:
            if not sections:
                raise CorpusError(f"{ordinance.id}: text before the first section at offset {ps}")
            section = sections[-1][2]
            pm = _PAREN_LABEL.match(text)
            bm = _BARE_ITEM.match(text) if not pm else None
            if pm and pm["label"].isalpha():
                level1 = section.add(Node((pm["label"],), "subsection", *_span(src, ps + pm.end(), te), level=1))
                level2 = None
                last_node = level1
                _split_inline(src, level1, section)
                level1 = section.children[-1]
            elif pm:
                parent = level1 or section
                level2 = parent.add(Node(parent.labels + (pm["label"],), "paragraph", *_span(src, ps + pm.end(), te), level=parent.level + 1))
                last_node = level2
            elif bm and level2 is not None:
                last_node = level2.add(Node(level2.labels + (bm["label"],), "item", *_span(src, ps + bm.end(), te), level=level2.level + 1))
            elif not section.children and section.start == section.end:
                section.start, section.end = _span(src, ps, te)
                last_node = section
            else:
                last_node = _continuation(level1 or section, *_span(src, ps, te))
        if hist:
            sections[-1][2].history = hist["note"]
        prev_text = src[ps:te].rstrip()
    return sections


# --- building provisions -------------------------------------------------------------------------

def _caption(text: str, has_more: bool) -> str | None:
    """"Penalties. In addition ..." -> "Penalties": a short verbless first sentence followed by more."""
    m = _CAPTION.match(text)
    if not m:
        return None
    cap = m["cap"]
    rest = text[m.end():].strip()
    if len(cap.split()) > 8 or _MODAL.search(cap) or not (rest or has_more):
        return None
    return cap


@dataclass
class ParsedOrdinance:
    sections: list[Section]
    provisions: list[Provision]


def _label_path(labels: tuple[str, ...], first_bare: bool) -> str:
    out = []
    for i, label in enumerate(labels):
        if label.startswith("p") and label[1:].isdigit():
            continue
        out.append(label if (i == 0 and first_bare) else f"({label})")
    return "".join(out)


def parse_ordinance(src: str, muni: Municipality, ordinance: Ordinance, source_rel: str) -> ParsedOrdinance:
    if ordinance.layout == "unheaded-blocks":
        blocks = []
        for meta, s, e in _find_blocks(src, ordinance):
            blocks.append((meta, _parse_line_labelled(src, s, e, meta)))
    else:
        start = src.find(ordinance.starts_with) if ordinance.starts_with else 0
        if start == -1:
            raise CorpusError(f"{ordinance.id}: start {ordinance.starts_with!r} not found")
        end = src.find(ordinance.ends_before, start) if ordinance.ends_before else len(src)
        if end == -1:
            raise CorpusError(f"{ordinance.id}: end {ordinance.ends_before!r} not found")
        blocks = []
        for num, title, node in _parse_headed(src, start, end, ordinance):
            meta = SectionMeta(key=num, number=num, number_confirmed=True,
                               number_note=PRINTED, title=title, starts_with=f"§ {num}.")
            blocks.append((meta, node))

    notes: dict[str, list[str]] = {}
    for n in ordinance.notes:
        notes.setdefault(n.provision, []).append(n.note)

    sections: list[Section] = []
    provisions: list[Provision] = []
    for meta, root in blocks:
        confirmed = meta.number_confirmed and meta.number
        first_bare = ordinance.layout == "unheaded-blocks" and not confirmed
        base = f"{ordinance.citation_prefix} § {meta.number}" if confirmed else \
            f"{ordinance.citation_prefix} {ordinance.division_label}, {meta.title}"

        def pid(node: Node) -> str:
            ident = f"{muni.id}:{meta.key}"
            for label in node.labels:
                ident += f".{label}" if label.startswith("p") and label[1:].isdigit() else f"({label})"
            if node.kind == "definition":
                ident += f"/{slug(node.term or '')}"
            return ident

        def cite(node: Node) -> str:
            if node.kind == "definition":
                return f'{base}, definition of "{node.term}"'
            path = _label_path(node.labels, first_bare)
            out = base
            if path:
                out += (", item " + path) if first_bare else path
            if node.kind == "continuation":
                out += f" (paragraph {node.labels[-1][1:]})"
            return out

        def emit(node: Node, parent: str | None, headings: list[str]) -> None:
            ident = pid(node)
            text = src[node.start:node.end]
            title = node.title
            if node.kind == "subsection":
                title = _caption(text, bool(node.children))
            heads = headings + ([title] if title and node.kind != "section" else []) + \
                ([node.term] if node.term else [])
            provisions.append(Provision(
                id=ident, municipality=muni.id, ordinance=ordinance.id, section=meta.key,
                labels=node.labels, kind=node.kind, citation=cite(node), heading=" > ".join(heads),
                title=title, term=node.term, text=text, start=node.start, end=node.end, source=source_rel,
                parent=parent, children=tuple(pid(c) for c in node.children), history=node.history,
                notes=tuple(notes.get(ident, ())),
            ))
            for child in node.children:
                emit(child, ident, heads)

        root.title = meta.title
        emit(root, None, [meta.title])
        sections.append(Section(
            key=meta.key, ordinance=ordinance.id, municipality=muni.id, number=meta.number,
            number_confirmed=bool(confirmed), number_note=meta.number_note, title=meta.title,
            citation=base, provision_id=pid(root)))

    ids = [p.id for p in provisions]
    if len(ids) != len(set(ids)):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise CorpusError(f"{ordinance.id}: duplicate provision ids {dup}")
    unknown = set(notes) - set(ids)
    if unknown:
        raise CorpusError(f"{ordinance.id}: notes name unknown provisions {sorted(unknown)}")
    return ParsedOrdinance(sections, provisions)
