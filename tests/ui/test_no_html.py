"""The app never renders HTML: no unsafe_allow_html, st.html or custom components anywhere in it."""

from __future__ import annotations

from pathlib import Path

import codeassist.ui

ROOT = Path(__file__).resolve().parents[2]


def test_no_html_rendering_in_the_app():
    files = [ROOT / "app.py", *Path(codeassist.ui.__file__).parent.rglob("*.py")]
    for path in files:
        text = path.read_text(encoding="utf-8")
        for forbidden in ("unsafe_allow_html", "st.html(", "components.v1", "components.html"):
            assert forbidden not in text, f"{path.name} uses {forbidden}"
