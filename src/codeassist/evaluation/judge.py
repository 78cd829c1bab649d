"""Whether a returned provision or langchain chunk answers a gold question."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from codeassist.evaluation.metrics import normalize_ws

if TYPE_CHECKING:
    from codeassist.corpus import Corpus

SIGNATURE_CHARS = 200


class Judge:
    """Whether a returned provision or langchain chunk answers a gold question."""

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self._own_sig: dict[str, str] = {}
        self._file_sig: dict[str, tuple[str, int, int, str]] = {}

    def own_signature(self, pid: str) -> str:
        """The gold provision's own text (or its first descendant's), normalised, first 200 chars."""
        if pid not in self._own_sig:
            p = self.corpus.get(pid)
            text = ""
            if p is not None:
                text = next((q.text for q in [p, *self.corpus.descendants(pid)] if q.text.strip()), "")
            self._own_sig[pid] = normalize_ws(text)[:SIGNATURE_CHARS]
        return self._own_sig[pid]

    def file_signature(self, pid: str) -> tuple[str, int, int, str]:
        """(source file, start, end, normalised verbatim text from the file, first 200 chars) of a
        provision and its descendants; a provision with no text (a "Reserved" section) is its heading line."""
        if pid not in self._file_sig:
            p = self.corpus.get(pid)
            assert p is not None, pid
            src = self.corpus.sources[p.source]
            parts = [q for q in [p, *self.corpus.descendants(pid)] if q.text.strip()]
            if parts:
                start, end = min(q.start for q in parts), max(q.end for q in parts)
            else:
                line_start = src.rfind("\n", 0, max(p.start - 1, 0)) + 1
                start, end = line_start, max(p.start, src.find("\n", line_start) if "\n" in src[line_start:] else len(src))
            self._file_sig[pid] = (p.source, start, end, normalize_ws(src[start:end])[:SIGNATURE_CHARS])
        return self._file_sig[pid]

    def provision_hit(self, hit_id: str, hit_text: str, gold: Sequence[str]) -> bool:
        if hit_id in gold:
            return True
        text = normalize_ws(hit_text)
        for g in gold:
            if self.corpus.get(g) is None:
                continue
            if any(a.id == hit_id for a in self.corpus.ancestors(g)):
                sig = self.own_signature(g)
                if sig and sig in text:
                    return True
        return False

    def chunk_hit(self, source: str, start: int, text: str, gold: Sequence[str]) -> bool:
        norm = normalize_ws(text)
        for g in gold:
            if self.corpus.get(g) is None:
                continue
            g_source, g_start, g_end, sig = self.file_signature(g)
            if source != g_source or not sig:
                continue
            if start < max(g_end, g_start + 1) and start + len(text) > g_start and sig in norm:
                return True
        return False

    def related(self, pid: str, gold: Sequence[str]) -> bool:
        """A gold id, or an ancestor or descendant of one (for 'right provision cited')."""
        if pid in gold:
            return True
        for g in gold:
            if self.corpus.get(g) is None or self.corpus.get(pid) is None:
                continue
            if any(a.id == pid for a in self.corpus.ancestors(g)) or any(a.id == g for a in self.corpus.ancestors(pid)):
                return True
        return False
