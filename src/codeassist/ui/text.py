"""Turning user and corpus text into Markdown that Streamlit shows as text, never as markup or HTML.

Streamlit's Markdown adds LaTeX (``$...$``), colour directives (``:red[...]``), emoji and icon
shortcodes and GitHub extras to CommonMark. Corpus text is full of ``$250`` and ``(a)``; a user can type
anything. So every character Markdown could read as syntax is backslash-escaped (CommonMark allows a
backslash before any ASCII punctuation), and highlighting uses Streamlit's own
``:orange-background[...]`` directive around already-escaped text. No function here emits HTML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

# "/" too: Streamlit rewrites ":material/" to an icon before parsing, even after a backslash.
_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&^=\"/])")
_WS = re.compile(r"\s+")

HIGHLIGHT = "orange-background"


def escape_md(text: str, *, keep_newlines: bool = False) -> str:
    """Escape `text` so Markdown shows it literally. Whitespace runs collapse to one space unless
    `keep_newlines`, which keeps line breaks as hard breaks (for what a user typed)."""
    if keep_newlines:
        lines = [escape_md(line) for line in text.splitlines()]
        return "  \n".join(line for line in lines if line) if lines else ""
    return _SPECIAL.sub(r"\\\1", _WS.sub(" ", text))


def safe_answer_md(text: str) -> str:
    """The assistant's answer keeps its light Markdown (bold, lists) but loses the syntaxes that would
    turn quoted law into something else: LaTeX on "$250", directives and shortcodes on ":", HTML on "<",
    strikethrough on "~"."""
    text = re.sub(r"([$<~])", r"\\\1", text)
    return re.sub(r":(?!//)", r"\\:", text).replace("material/", "material\\/")


def cite_url(pid: str) -> str:
    """Relative link to a provision's page; the id is percent-encoded so ")" cannot end the link."""
    return "?cite=" + quote(pid, safe="")


def md_link(label_md: str, pid: str) -> str:
    return f"[{label_md}]({cite_url(pid)})"


def wrap(directive: str, md: str) -> str:
    return f":{directive}[{md}]" if md.strip() else md


def find_quote(text: str, quote_text: str) -> tuple[int, int] | None:
    """Span of `quote_text` in `text`, matching whitespace loosely (as Corpus.quote_in does), then
    ignoring case. None when the words are not there."""
    words = quote_text.split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    m = re.search(pattern, text) or re.search(pattern, text, re.IGNORECASE)
    return (m.start(), m.end()) if m else None


@dataclass(frozen=True)
class Link:
    start: int
    end: int
    pid: str


def annotate(text: str, *, links: list[Link] = (), highlights: list[tuple[int, int]] = (),
             directive: str = HIGHLIGHT) -> str:
    """Escaped Markdown for `text` with `links` (non-overlapping; later overlapping ones are dropped)
    and highlighted spans, which may cross link boundaries."""
    kept: list[Link] = []
    for link in sorted(links, key=lambda k: (k.start, -(k.end - k.start))):
        if 0 <= link.start < link.end <= len(text) and all(link.start >= k.end or link.end <= k.start for k in kept):
            kept.append(link)
    cuts = {0, len(text)}
    for link in kept:
        cuts |= {link.start, link.end}
    for a, b in highlights:
        cuts |= {max(0, a), min(len(text), b)}
    bounds = sorted(cuts)

    def link_at(i: int) -> Link | None:
        return next((k for k in kept if k.start <= i < k.end), None)

    out: list[str] = []
    group: list[str] = []
    group_link: Link | None = None

    def flush() -> None:
        if not group:
            return
        body = "".join(group)
        out.append(f"[{body}]({cite_url(group_link.pid)})" if group_link else body)
        group.clear()

    for a, b in zip(bounds, bounds[1:]):
        if a == b:
            continue
        piece = escape_md(text[a:b])
        if any(h0 <= a and b <= h1 for h0, h1 in highlights):
            piece = wrap(directive, piece)
        link = link_at(a)
        if link is not group_link:
            flush()
            group_link = link
        group.append(piece)
    flush()
    return "".join(out).strip()
