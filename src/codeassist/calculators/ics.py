"""A minimal RFC 5545 iCalendar writer for obligation lists (no dependency needed for this much).

Times are written as floating local times (the site's wall clock), which every calendar accepts
without a VTIMEZONE block; all-day obligations are VALUE=DATE events.
"""

from __future__ import annotations

import hashlib
from datetime import date, datetime, time, timedelta, timezone
from typing import Iterable, Protocol

CRLF = "\r\n"


class Event(Protocol):
    kind: str
    title: str
    due: date
    due_time: time | None

    def description(self) -> str: ...


def escape_text(value: str) -> str:
    """TEXT escaping (RFC 5545 § 3.3.11): backslash, semicolon, comma and newlines."""
    return (
        value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\r\n", "\\n").replace("\n", "\\n")
    )


def fold(line: str) -> str:
    """Fold a content line at 75 octets, never splitting a UTF-8 character (RFC 5545 § 3.1)."""
    out: list[str] = []
    current, size, limit = "", 0, 75
    for ch in line:
        n = len(ch.encode("utf-8"))
        if size + n > limit:
            out.append(current)
            current, size, limit = " ", 1, 75
        current += ch
        size += n
    out.append(current)
    return CRLF.join(out)


def _uid(ev: Event) -> str:
    key = f"{ev.kind}|{ev.due.isoformat()}|{ev.due_time}|{ev.title}"
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:24] + "@codeassist"


def to_ics(events: Iterable[Event], name: str = "codeassist deadlines", dtstamp: datetime | None = None) -> str:
    stamp = (dtstamp or datetime.now(timezone.utc)).astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//codeassist//deadlines calculator//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    for ev in events:
        lines += ["BEGIN:VEVENT", f"UID:{_uid(ev)}", f"DTSTAMP:{stamp}"]
        if ev.due_time is None:
            lines.append(f"DTSTART;VALUE=DATE:{ev.due.strftime('%Y%m%d')}")
            lines.append(f"DTEND;VALUE=DATE:{(ev.due + timedelta(days=1)).strftime('%Y%m%d')}")
        else:
            lines.append(f"DTSTART:{datetime.combine(ev.due, ev.due_time).strftime('%Y%m%dT%H%M%S')}")
        lines.append(f"SUMMARY:{escape_text(ev.title)}")
        lines.append(f"DESCRIPTION:{escape_text(ev.description())}")
        lines.append("TRANSP:TRANSPARENT")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return CRLF.join(fold(line) for line in lines) + CRLF
