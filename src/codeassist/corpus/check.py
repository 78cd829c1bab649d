"""Checking a municipality folder before it joins the corpus (`codeassist add FOLDER`).

``check_folder`` parses the folder together with the existing corpus (in a scratch folder of links, so
nothing in the corpus or the index changes) and returns every problem found, each with the file and
line it is about: metadata that does not validate, text the parser leaves out of every provision,
references to sections that exist nowhere, rule entries whose quotes are not verbatim, headnotes for
provisions that do not exist, and what is missing (rules, headnotes, offices). Pure apart from reading
files and the scratch folder; the command prints the list.
"""

from __future__ import annotations

import re
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ValidationError

from ..errors import CorpusError
from ..models import Municipality, Ordinance
from .headnotes import HEADNOTES_DIR, read_headnotes
from .metadata import MUNICIPALITY_FILE
from .rules import MODELS, RULES_DIR, iter_refs

Severity = Literal["error", "warning", "note"]


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    severity: Severity
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.severity}: {self.message}"


# What the parser consumes as structure rather than provision text: section headings, labels, history notes.
_STRUCTURE = re.compile(
    r"§\s*[\w.-]+\.(?:\s+(?:\(Reserved\)|[^.\n]+\.))?"   # "§ 7B-5. Exemptions.", "§ 7-6."
    r"|\((?:Ord\.|L\.L\.)[^()]*\)"                  # "(Ord. of 3-31-1933, Art. IV)"
    r"|\(\s*[A-Za-z0-9]{1,3}\s*\)"                     # "(a)", "(12)", "(b )"
    r"|(?<![\w.])[A-Z]\.(?!\w)"                       # "A."
    r"|^\s*[a-z]\s*$"                                  # a bare item letter on its own
)


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, max(0, offset)) + 1


def _find_line(path: Path, *needles: str) -> int:
    """The first line of the file holding any of the needles (tried in order); 1 when none is found."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return 1
    for needle in needles:
        if not needle:
            continue
        for i, line in enumerate(lines, 1):
            if needle in line:
                return i
    return 1


def _locate(path: Path, loc: tuple) -> int:
    """The line of a key path (('stormwater', 'tiers', 2, 'fine_max')) in a TOML file, following table
    headers, arrays of tables and inline arrays; the nearest line found so far when it cannot go deeper."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return 1
    pos, keys = 0, []
    for part in loc:
        if isinstance(part, int):
            header = "[[" + ".".join(keys) + "]]"
            heads = [n for n, line in enumerate(lines) if line.strip() == header]
            if len(heads) > part:
                pos = heads[part]
            else:  # an inline array: the part-th item line after the key
                items = [n for n in range(pos + 1, len(lines)) if lines[n].lstrip().startswith(("{", '"'))]
                pos = items[part] if len(items) > part else pos
            continue
        keys.append(str(part))
        table = "[" + ".".join(keys) + "]"
        key = re.compile(r"\s*" + re.escape(str(part)) + r"\s*=|.*[{,]\s*" + re.escape(str(part)) + r"\s*=")
        for n in range(pos, len(lines)):
            if lines[n].strip() == table or key.match(lines[n]):
                pos = n
                break
    return pos + 1


def _toml(path: Path, out: list[Problem]) -> dict | None:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        out.append(Problem(str(path), 1, "error", f"cannot read: {exc}"))
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        out.append(Problem(str(path), int(m.group(1)) if m else 1, "error", f"not valid TOML: {exc}"))
    return None


def _validation(path: Path, exc: ValidationError, out: list[Problem]) -> None:
    for err in exc.errors():
        loc = tuple(err.get("loc", ()))
        where = ".".join(str(k) for k in loc) or "(top level)"
        line = _locate(path, loc)
        out.append(Problem(str(path), line, "error", f"{where}: {err.get('msg')}"))


def _validate(path: Path, model: type[BaseModel], data: dict, out: list[Problem]) -> BaseModel | None:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        _validation(path, exc, out)
    return None


def _metadata(folder: Path, out: list[Problem]) -> tuple[Municipality | None, list[tuple[Path, Ordinance]]]:
    mpath = folder / MUNICIPALITY_FILE
    if not mpath.is_file():
        out.append(Problem(str(mpath), 1, "error", f"missing: every municipality folder needs {MUNICIPALITY_FILE}"))
        return None, []
    data = _toml(mpath, out)
    muni = _validate(mpath, Municipality, data, out) if data is not None else None
    ordinances: list[tuple[Path, Ordinance]] = []
    for meta in sorted(folder.glob("*.toml")):
        if meta.name == MUNICIPALITY_FILE:
            continue
        data = _toml(meta, out)
        o = _validate(meta, Ordinance, data, out) if data is not None else None
        if o is None:
            continue
        if not (folder / o.source).is_file():
            out.append(Problem(str(meta), _find_line(meta, "source ="), "error", f"source file {o.source!r} not found"))
            continue
        if muni is not None and o.municipality != muni.id:
            out.append(Problem(str(meta), _find_line(meta, "municipality ="), "error",
                               f"municipality {o.municipality!r} is not the folder's {muni.id!r}"))
        ordinances.append((meta, o))  # type: ignore[arg-type]
    if muni is not None and not ordinances:
        out.append(Problem(str(folder), 1, "error", "no ordinance metadata (*.toml beside municipality.toml)"))
    if muni is not None:
        if not muni.offices:
            out.append(Problem(str(mpath), 1, "warning", "no [[offices]]: answers cannot say whom to ask"))
        for meta, o in ordinances:
            if muni.office(o.administered_by) is None:
                out.append(Problem(str(meta), _find_line(meta, "administered_by"), "warning",
                                   f"administered_by {o.administered_by!r} is not an office key of {MUNICIPALITY_FILE}"))
    return muni, ordinances  # type: ignore[return-value]


def _scratch_corpus(folder: Path, corpus_dir: Path | None, muni_id: str, scratch: Path) -> Path:
    """A corpus folder of links: the existing municipalities (but the one being checked) and this folder."""
    if corpus_dir is not None and corpus_dir.is_dir():
        for other in corpus_dir.iterdir():
            if (other / MUNICIPALITY_FILE).is_file() and other.resolve() != folder.resolve() and other.name != muni_id:
                try:
                    other_id = tomllib.loads((other / MUNICIPALITY_FILE).read_text(encoding="utf-8")).get("id")
                except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
                    other_id = None
                if other_id != muni_id:
                    (scratch / other.name).symlink_to(other.resolve(), target_is_directory=True)
    (scratch / muni_id).symlink_to(folder.resolve(), target_is_directory=True)
    return scratch


def _parse_error(exc: CorpusError, ordinances: list[tuple[Path, Ordinance]], folder: Path) -> Problem:
    msg = str(exc)
    for meta, o in ordinances:
        if msg.startswith(o.id + ":") or f"{o.id}:" in msg:
            quoted = re.findall(r"'([^']{4,})'", msg)
            return Problem(str(meta), _find_line(meta, *(q[:40] for q in quoted)), "error", msg)
    return Problem(str(folder), 1, "error", msg)


def _region(src: str, o: Ordinance) -> tuple[int, int]:
    """The part of the source file the ordinance's metadata maps (all of it unless starts_with/ends_before)."""
    start = src.find(o.starts_with) if o.starts_with else 0
    start = max(start, 0)
    end = src.find(o.ends_before, start) if o.ends_before else len(src)
    return start, len(src) if end == -1 else end


def _unparsed(corpus, muni_id: str, ordinances: list[tuple[Path, Ordinance]], folder: Path, out: list[Problem]) -> None:
    """Text in no provision: an error inside an ordinance's part of the file (the parser dropped it), a
    warning outside every part (a title line, or text `starts_with` / `ends_before` leave out)."""
    terms = {p.term for p in corpus.provisions(muni_id) if p.term}  # a defined term's line is metadata
    for source in dict.fromkeys(o.source for _, o in ordinances):
        src_path = folder / source
        src = src_path.read_text(encoding="utf-8")
        covered = bytearray(len(src))
        for p in corpus.provisions(muni_id):
            if Path(p.source).name == source:
                covered[p.start:p.end] = b"\x01" * (p.end - p.start)
        regions = [_region(src, o) for _, o in ordinances if o.source == source]
        preambles = [o.preamble_starts_with for _, o in ordinances if o.source == source and o.preamble_starts_with]
        pos = 0
        for line in src.splitlines(keepends=True):
            ls, pos = pos, pos + len(line)
            left = "".join(ch for i, ch in enumerate(line) if not covered[ls + i]).strip()
            if not left or left in terms or any(left.startswith(x) for x in preambles):
                continue
            if not re.search(r"\w", _STRUCTURE.sub(" ", left)):
                continue
            inside = any(s <= ls < e for s, e in regions)
            out.append(Problem(str(src_path), _line_of(src, ls), "error" if inside else "warning",
                               ("text in no provision (the parser leaves it out): " if inside else
                                "text outside every ordinance's part of the file (starts_with / ends_before): ")
                               + repr(left[:80])))


def _references(corpus, muni_id: str, folder: Path, ordinances: list[tuple[Path, Ordinance]], out: list[Problem]) -> None:
    for p in corpus.provisions(muni_id):
        for r in p.refs:
            if r.kind == "not_in_corpus" and (r.target_name or "").endswith("(not in this corpus)"):
                src = (folder / Path(p.source).name).read_text(encoding="utf-8")
                out.append(Problem(str(folder / Path(p.source).name), _line_of(src, r.start), "warning",
                                   f"{p.id}: reference {r.text!r} names no section of this corpus; if it is another "
                                   "document, name it in the ordinance's [[external_refs]]"))


def _rules(corpus, muni_id: str, folder: Path, out: list[Problem]) -> None:
    rules_dir = folder / RULES_DIR
    present = sorted(p.stem for p in rules_dir.glob("*.toml")) if rules_dir.is_dir() else []
    if not present:
        out.append(Problem(str(rules_dir), 1, "note", "no rules: every calculator will say its rules are not in "
                           "this municipality's text (see corpus/README.md, Adding a municipality)"))
        return
    missing = [n for n in MODELS if n not in present]
    if missing:
        out.append(Problem(str(rules_dir), 1, "note", f"no rules for {', '.join(missing)}: those calculators will "
                           "say the rules are not in this municipality's text"))
    for name in present:
        path = rules_dir / f"{name}.toml"
        model = MODELS.get(name)
        if model is None:
            out.append(Problem(str(path), 1, "error", f"unknown rules file; known: {', '.join(f'{n}.toml' for n in MODELS)}"))
            continue
        data = _toml(path, out)
        rules = _validate(path, model, data, out) if data is not None else None
        if rules is None:
            continue
        for key, ref in iter_refs(rules):
            loc = tuple(int(k) if k.isdigit() else k for k in key.split("."))
            line = _locate(path, loc + ("quote",))
            if not ref.pid.startswith(muni_id + ":"):
                out.append(Problem(str(path), line, "error", f"{key}: provision {ref.pid} is not one of {muni_id}'s"))
            elif corpus.get(ref.pid) is None:
                out.append(Problem(str(path), _locate(path, loc + ("provision",)), "error",
                                   f"{key}: provision {ref.pid} is not in the parsed text"))
            elif not corpus.quote_in(ref.pid, ref.quote):
                out.append(Problem(str(path), line, "error",
                                   f"{key}: quote is not verbatim in {ref.pid}: {ref.quote[:80]!r}"))


def _headnotes(corpus, muni_id: str, folder: Path, scratch: Path, out: list[Problem]) -> None:
    hdir = folder / HEADNOTES_DIR
    if not hdir.is_dir() or not any(hdir.glob("*.toml")):
        out.append(Problem(str(hdir), 1, "note", "no headnotes: answers and search use the legal text alone"))
        return
    try:
        notes, problems = read_headnotes(scratch / muni_id, scratch)
    except CorpusError as exc:
        out.append(Problem(str(hdir), 1, "error", str(exc)))
        return
    for problem in problems:
        rel, _, message = problem.partition(": ")
        out.append(Problem(str(folder / Path(rel).relative_to(muni_id)), 1, "error", message))
    for pid, h in notes.items():
        if corpus.get(pid) is None or not pid.startswith(muni_id + ":"):
            path = folder / Path(h.source).relative_to(muni_id)
            out.append(Problem(str(path), _find_line(path, f'"{pid}"'), "error", f"headnote for unknown provision {pid}"))


def check_folder(folder: Path, corpus_dir: Path | None = None) -> list[Problem]:
    """Every problem with a municipality folder, parsed beside the corpus in `corpus_dir` (if given)."""
    from . import Corpus

    folder = Path(folder)
    out: list[Problem] = []
    if not folder.is_dir():
        return [Problem(str(folder), 1, "error", "not a folder")]
    muni, ordinances = _metadata(folder, out)
    if muni is None or any(p.severity == "error" for p in out):
        return out
    with tempfile.TemporaryDirectory(prefix="codeassist-add-") as tmp:
        scratch = _scratch_corpus(folder, corpus_dir, muni.id, Path(tmp))
        try:
            corpus = Corpus(scratch, check_rules=False)
        except CorpusError as exc:
            out.append(_parse_error(exc, ordinances, folder))
            return out
        _unparsed(corpus, muni.id, ordinances, folder, out)
        _references(corpus, muni.id, folder, ordinances, out)
        _rules(corpus, muni.id, folder, out)
        _headnotes(corpus, muni.id, folder, scratch, out)
    return out
