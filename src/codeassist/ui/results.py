"""A calculator's output (as JSON data) shown generically: the figures, the items it lists, the
reasoning steps with their citations, the caveats. It reads field names, never ordinance rules."""

from __future__ import annotations

import re
from typing import Any

import streamlit as st

from .text import escape_md, md_link

_SKIP = {"steps", "caveats", "municipality"}
_TITLE_KEYS = ("title", "text", "name", "key", "rule")
_KEYLIKE = re.compile(r"[a-z0-9]+(?:[_:][a-z0-9]+)+")


TITLES = {  # interface copy; a calculator missing here is shown by its name
    "applicability": "Does the stormwater law apply?",
    "swppp_checklist": "SWPPP checklist",
    "penalty": "Penalties",
    "deadlines": "Deadlines",
    "electrical_permit": "Electrical permit",
}
_ACRONYMS = {"swppp": "SWPPP", "smp": "SMP", "smps": "SMPs", "ics": "ICS", "id": "ID", "pe": "PE"}


def humanize(name: str) -> str:
    """'swppp_required' -> 'SWPPP required' (field names and enum values shown to people)."""
    words = name.replace("_", " ").strip().split(" ")
    words = [_ACRONYMS.get(w.lower(), w) for w in words]
    if words and words[0] and words[0] not in _ACRONYMS.values():
        words[0] = words[0][:1].upper() + words[0][1:]
    return " ".join(words)


def value_md(key: str, value: Any) -> str:
    if value is None:
        return "\u2014"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        text = f"{value:,}" if isinstance(value, int) else f"{value:,.4g}"
        return escape_md(("$" + text) if "fine" in key else text)
    if isinstance(value, list):
        return ", ".join(value_md(key, v) for v in value) or "none"
    if isinstance(value, str) and _KEYLIKE.fullmatch(value):
        value = value.replace("_", " ").replace(":", ": ")  # keys such as likely_exempt, minor_repair:switches
    return escape_md(str(value))


def _cite(d: dict) -> str:
    pid, cit = d.get("provision_id"), d.get("citation")
    if pid and cit:
        return md_link(escape_md(cit), pid)
    return escape_md(cit) if cit else ""


def calculator_title(name: str) -> str:
    return TITLES.get(name, humanize(name))


def item_md(d: dict) -> str:
    """One listed thing (an obligation, an exemption, a checklist item, a step) as one Markdown line
    plus indented detail lines."""
    head = []
    if d.get("due"):
        head.append(f"**{escape_md(str(d['due']))}{' ' + escape_md(str(d['due_time'])) if d.get('due_time') else ''}**")
    title_key = next((k for k in _TITLE_KEYS if d.get(k)), None)
    if title_key:
        head.append(value_md(title_key, d[title_key]) if title_key == "key" else escape_md(str(d[title_key])))
    cite = _cite(d)
    line = " \u2014 ".join(x for x in (" ".join(head), cite) if x)
    details = []
    if d.get("rule") and title_key != "rule":
        details.append(escape_md(d["rule"]))
    if d.get("quote"):
        details.append(f"_\u201c{escape_md(d['quote'])}\u201d_")
    if d.get("item_citation"):
        details.append("Item: " + (md_link(escape_md(d["item_citation"]), d["item_provision_id"])
                                   if d.get("item_provision_id") else escape_md(d["item_citation"])))
    if d.get("note"):
        details.append(escape_md(d["note"]))
    for k, v in d.items():  # anything else a future model adds, shown plainly
        if k not in {"due", "due_time", "provision_id", "citation", "quote", "rule", "note", "item_citation",
                     "item_provision_id", title_key} and v not in (None, [], ""):
            details.append(f"{escape_md(humanize(k))}: {value_md(k, v)}")
    return line + "".join(f"  \n\u2003{x}" for x in details)


def steps_md(steps: list[dict]) -> str:
    return "\n".join(f"{i}. {item_md(s)}" for i, s in enumerate(steps, 1))


def render_result(data: dict, *, show_steps: bool = True) -> None:
    groups = {k: v for k, v in data.items() if isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values())}
    if groups and len(groups) == len(data):  # e.g. {"results": {"hempstead": {...}, "tuckahoe": {...}}}
        for inner in groups.values():
            for name, sub in inner.items():
                st.markdown(f"**{escape_md(humanize(name))}**")
                render_result(sub, show_steps=show_steps)
        return
    scalars = [(k, v) for k, v in data.items()
               if k not in _SKIP and not isinstance(v, dict) and not (isinstance(v, list) and v and isinstance(v[0], dict))]
    rows = [f"- **{escape_md(humanize(k))}:** {value_md(k, v)}" for k, v in scalars if v not in (None, [])]
    if rows:
        st.markdown("\n".join(rows))
    for k, v in data.items():
        if k in _SKIP:
            continue
        if isinstance(v, dict):
            st.markdown(f"**{escape_md(humanize(k))}:** {item_md(v)}")
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            st.markdown(f"**{escape_md(humanize(k))}**")
            st.markdown("\n".join(f"- {item_md(x)}" for x in v))
    if data.get("caveats"):
        st.info("\n".join(f"- {escape_md(c)}" for c in data["caveats"]))
    if show_steps and data.get("steps"):
        with st.expander("How this was worked out (each step cited)", expanded=False):
            st.markdown(steps_md(data["steps"]))
