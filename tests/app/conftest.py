"""AppTest fixtures: the real app.py, and a fake Assistant for the fast tests of the chat's own logic."""

from __future__ import annotations

import pytest
from apphelpers import FakeAssistant, new_app
from streamlit.testing.v1 import AppTest


@pytest.fixture
def app() -> AppTest:
    return new_app()


@pytest.fixture
def fake_assistant(monkeypatch, corpus):
    from codeassist.ui import resources

    fake = FakeAssistant(corpus)
    monkeypatch.setattr(resources, "get_assistant", lambda: fake)
    return fake
