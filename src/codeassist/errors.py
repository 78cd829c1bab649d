"""Domain errors with messages a user can act on. The CLI and app turn them into friendly text."""

from __future__ import annotations


class CodeassistError(Exception):
    """Base class: the message is meant for the user."""


class UnknownMunicipality(CodeassistError):
    def __init__(self, given: str, known: list[str]):
        self.given, self.known = given, known
        super().__init__(f"unknown municipality {given!r}; known: {', '.join(known)}")


class CitationNotFound(CodeassistError):
    def __init__(self, given: str, suggestions: list[str], reason: str = ""):
        self.given, self.suggestions = given, suggestions
        msg = f"no provision matches {given!r}"
        if reason:
            msg += f" ({reason})"
        if suggestions:
            msg += "; nearest valid citations: " + ", ".join(suggestions)
        super().__init__(msg)


class InvalidInput(CodeassistError):
    """Bad user input (empty, too long, binary, nonsense values)."""


class IndexUnavailable(CodeassistError):
    """The vector index cannot be reached or rebuilt."""


class CorpusError(CodeassistError):
    """Corpus text and metadata disagree (a maintainer's error, caught at load time)."""
