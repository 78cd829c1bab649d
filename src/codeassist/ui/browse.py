"""The Browse page: each ordinance's table of contents, the full text of each section, defined terms
and cross-references as links, and a deep link per provision: ``?cite=tuckahoe:7B-5(c)`` (an id) or
``?cite=7B-5(c)`` (a citation as people write it) opens that provision in its section."""

from __future__ import annotations

import streamlit as st

from ..corpus import Corpus
from ..errors import CodeassistError
from ..models import Provision, Section
from .layout import NOT_STATED, long_date
from .provision import provision_markdown
from .resources import get_corpus
from .text import cite_url, escape_md

ORD_KEY = "browse-ordinance"
SEC_KEY = "browse-section"
GOTO_KEY = "browse-goto"
APPLIED_KEY = "_browse-applied"  # the deep link already applied to the contents widgets
PROBLEM_KEY = "_browse-problem"


def resolve(corpus: Corpus, text: str) -> tuple[Provision | None, str | None]:
    """A provision id or a written citation -> (provision, None), or (None, what went wrong)."""
    text = (text or "").strip()
    if not text:
        return None, None
    p = corpus.get(text)
    if p is not None:
        return p, None
    try:
        return corpus.resolve_citation(text), None
    except CodeassistError as exc:
        return None, str(exc)


def goto_placeholder(corpus: Corpus) -> str:
    """"e.g. <a citation>, <a citation>, <an id>": one provision two levels deep from each ordinance, so
    the hint shows both ways to go somewhere, whatever the corpus holds."""
    picks = []
    for o in corpus.ordinances.values():
        p = next((p for p in corpus.provisions(o.municipality) if p.ordinance == o.id and len(p.labels) >= 2), None)
        if p is not None:
            picks.append(p)
    shown = [p.citation for p in picks[:-1]] + [p.id for p in picks[-1:]]
    return "e.g. " + "; ".join(shown) if shown else ""


def toc_label(s: Section) -> str:
    return f"\u00a7 {s.number} {s.title}" if s.number and s.number_confirmed else s.title


def _sections(corpus: Corpus, ordinance: str) -> list[Section]:
    return [s for s in corpus.sections if s.ordinance == ordinance]


def _open(pid: str) -> None:
    st.query_params["cite"] = pid
    st.session_state[APPLIED_KEY] = pid


def _on_ordinance() -> None:
    corpus = get_corpus()
    first = _sections(corpus, st.session_state[ORD_KEY])[0].provision_id
    st.session_state[SEC_KEY] = first
    _open(first)


def _on_section() -> None:
    _open(st.session_state[SEC_KEY])


def _on_goto() -> None:
    p, problem = resolve(get_corpus(), st.session_state.get(GOTO_KEY, ""))
    st.session_state[PROBLEM_KEY] = problem
    if p is not None:
        st.query_params["cite"] = p.id  # applied to the contents on this run


def _step(pid: str) -> None:
    st.session_state[SEC_KEY] = pid
    _open(pid)


def _contents(corpus: Corpus, target: Provision | None) -> Section:
    if target is not None and st.session_state.get(APPLIED_KEY) != target.id:
        st.session_state[ORD_KEY] = target.ordinance
        st.session_state[SEC_KEY] = corpus.section_of(target.id).provision_id
        st.session_state[APPLIED_KEY] = target.id
    ordinances = corpus.ordinances
    with st.sidebar:
        ord_id = st.radio(
            "Ordinance", list(ordinances), key=ORD_KEY, on_change=_on_ordinance,
            format_func=lambda o: f"{corpus.municipalities[ordinances[o].municipality].short_name} "
                                  f"{ordinances[o].division_label}: {ordinances[o].title}")
        sections = _sections(corpus, ord_id)
        by_pid = {s.provision_id: s for s in sections}
        if st.session_state.get(SEC_KEY) not in by_pid:
            st.session_state[SEC_KEY] = sections[0].provision_id
        pid = st.radio("Contents", list(by_pid), key=SEC_KEY, on_change=_on_section,
                       format_func=lambda p: toc_label(by_pid[p]))
    return by_pid[pid]


def _ordinance_header(corpus: Corpus, ordinance_id: str) -> None:
    o = corpus.ordinances[ordinance_id]
    muni = corpus.municipalities[o.municipality]
    when = long_date(o.effective_date) or f"date {NOT_STATED}"
    st.caption(f"{escape_md(muni.name)} \u00b7 {escape_md(o.code_name)}, {escape_md(o.division)}: "
               f"{escape_md(o.title)} \u00b7 effective {escape_md(when)} \u00b7 administered by "
               f"{escape_md(corpus.office_for(ordinance_id))}", help=o.effective_date_source or None)
    if o.missing:
        with st.expander("Text this ordinance relies on that is not in this corpus"):
            st.markdown("\n".join(f"- {escape_md(m)}" for m in o.missing))


def _focus_card(corpus: Corpus, target: Provision) -> None:
    with st.container(border=True):
        st.markdown(f"#### :material/location_on: {escape_md(target.citation)}")
        st.caption(escape_md(target.heading))
        st.markdown(provision_markdown(corpus, target.id).markdown)
        st.markdown(f":material/link: [Link to this provision]({cite_url(target.id)}) \u00b7 id `{target.id}`")


def _section_text(corpus: Corpus, section: Section, target: Provision | None) -> None:
    title = section.citation if section.title in section.citation else f"{section.citation} \u2014 {section.title}"
    st.subheader(escape_md(title), anchor=False)
    if section.number_note and not section.number_confirmed:
        st.caption(escape_md(section.number_note))
    focus = target.id if target is not None and target.kind != "section" else None
    rendered = provision_markdown(corpus, section.provision_id, focus=focus)
    framed = {focus, *(d.id for d in corpus.descendants(focus))} if focus else set()
    for inside, md in rendered.split(framed):
        if inside:
            with st.container(border=True):
                st.markdown(md)
        else:
            st.markdown(md)


def _prev_next(sections: list[Section], section: Section) -> None:
    i = next(i for i, s in enumerate(sections) if s.provision_id == section.provision_id)
    left, right = st.columns(2)
    if i > 0:
        prev = sections[i - 1]
        left.button(f"\u2190 {toc_label(prev)}", key="browse-prev", on_click=_step, args=(prev.provision_id,))
    if i + 1 < len(sections):
        nxt = sections[i + 1]
        right.button(f"{toc_label(nxt)} \u2192", key="browse-next", on_click=_step, args=(nxt.provision_id,))


def render() -> None:
    corpus = get_corpus()
    st.title("Browse the ordinances")
    cite = st.query_params.get("cite", "")
    target, problem = resolve(corpus, cite)
    st.text_input("Go to a citation", key=GOTO_KEY, on_change=_on_goto,
                  placeholder=goto_placeholder(corpus))
    for message in (problem, st.session_state.pop(PROBLEM_KEY, None)):
        if message:
            st.warning(escape_md(message))
    section = _contents(corpus, target)
    _ordinance_header(corpus, section.ordinance)
    if target is not None and target.kind != "section" and corpus.section_of(target.id) == section:
        _focus_card(corpus, target)
    _section_text(corpus, section, target if target is not None and corpus.section_of(target.id) == section else None)
    _prev_next(_sections(corpus, section.ordinance), section)
