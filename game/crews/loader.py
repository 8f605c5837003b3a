"""Roster files on disk: the shipped starter crews in the repo's crews/ folder, or any roster file by path
(docs/crews.md). `load_crew` reads, validates and checks a roster (PART 7) and returns the CrewSpec a game is set up
from with the parsed document and the file's SHA-256 (records embed both)."""
from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.core.rules.crews import Problem
from game.core.rules.setup import CrewSpec
from game.core.settings import Settings
from game.crews.roster import CrewFileError, crew_from_doc, validate_doc

CREWS_DIR = Path(__file__).resolve().parents[2] / "crews"


@dataclass(frozen=True, slots=True)
class LoadedCrew:
    """A roster loaded for play: the CrewSpec, the parsed document (defaults filled in), the SHA-256 of the file
    bytes and the file it came from."""

    spec: CrewSpec
    doc: dict[str, Any]
    sha256: str
    source: str


def known_crews() -> list[str]:
    """The shipped starter crews by name (crews/<name>.toml), sorted."""
    return sorted(p.stem for p in CREWS_DIR.glob("*.toml"))


def crew_path(name_or_path: str | Path) -> Path:
    """A shipped crew name or a roster file path; unknown names are refused with the known ones."""
    text = str(name_or_path)
    p = Path(text)
    if p.suffix == ".toml" or p.exists() or "/" in text or "\\" in text:
        if not p.is_file():
            raise CrewFileError(text, [Problem("(file)", "no such roster file", "a readable .toml roster file, or "
                                               f"a crew name: {', '.join(known_crews())}", "ROSTER-12")])
        return p
    shipped = CREWS_DIR / f"{text}.toml"
    if not shipped.is_file():
        raise CrewFileError(text, [Problem("(name)", f"unknown crew {text!r}",
                                           f"{', '.join(known_crews())}, or a roster file path", "ROSTER-12")])
    return shipped


def read_roster(path: Path) -> tuple[dict[str, Any], bytes]:
    """The raw TOML of a roster file and its bytes; errors name the file."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CrewFileError(str(path), [Problem("(file)", f"cannot be read: {exc.strerror}", "a readable file",
                                                "ROSTER-12")]) from None
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise CrewFileError(str(path), [Problem("(file)", "not UTF-8 text", "a UTF-8 TOML file",
                                                "ROSTER-12")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise CrewFileError(str(path), [Problem("(file)", f"not valid TOML: {exc}", "TOML (docs/crews.md)",
                                                "ROSTER-12")]) from None
    return raw, data


def load_crew(name_or_path: str | Path, *, side: str | None = None, zone: str = "",
              settings: Settings | None = None, k_limit: int | None = None) -> LoadedCrew:
    """Read, validate and check a roster (a shipped crew name or a file path). `side` is the side id its models are
    prefixed with (default: the crew's id); `k_limit` overrides the roster's own K limit for the check (a scenario's
    agreed limit, ZONE-8.1.PARITY). Raises CrewFileError naming the file, each field, what is wrong and allowed."""
    path = crew_path(name_or_path)
    raw, data = read_roster(path)
    norm, problems = validate_doc(raw)
    if problems:
        raise CrewFileError(str(path), problems)
    spec = crew_from_doc(norm, side=side or norm["crew"]["id"], zone=zone, where=str(path), settings=settings,
                         k_limit=k_limit)
    return LoadedCrew(spec, norm, hashlib.sha256(data).hexdigest(), str(path))
