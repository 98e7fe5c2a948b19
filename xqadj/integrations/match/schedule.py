"""Which games a match plays, and which of them a PGN file already holds.

The schedule of pairings, colours, openings and rounds (:mod:`xqadj.integrations.tournament`
makes it), and, for ``--resume``, the games a PGN file already holds and those still to play.

Layer: integrations.  Inside :mod:`xqadj.integrations.match` it imports only
:mod:`.record`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xqadj.integrations.match.record import MatchError
from xqadj.integrations.tournament import (
    PlayedGame,
    ScheduledGame,
    check_resume,
    read_played,
    schedule,
)

__all__ = ["Resumption", "count_pgn_games", "default_schedule", "plan", "resume_point"]


def default_schedule(games: int) -> list[ScheduledGame]:
    """``games`` games between the first two engines, each opening with both colours."""
    return schedule(2, rounds=max(1, math.ceil(games / 2)), games=2, limit=games)


def plan(
    engines: int, tournament: str, rounds: int | None, games: int, repeat: bool
) -> tuple[list[ScheduledGame], int]:
    """The games ``--tournament``, ``--rounds``, ``--games`` and ``--repeat`` ask for, and the
    games an encounter (2: game pairs, 1: single games)."""
    games_per_encounter = 2 if repeat else games
    if rounds is None and games_per_encounter > 2:
        # The older --games N: N games of a two-engine match, each opening twice.
        return schedule(2, rounds=math.ceil(games / 2), games=2, limit=games), 2
    return schedule(engines, tournament, rounds or 1, games_per_encounter), games_per_encounter


def count_pgn_games(path: Path) -> int:
    """How many games a PGN file holds (its ``[Event`` tags), 0 if it does not exist."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return 0
    return len(re.findall(r"^\s*\[Event\s", text, re.M))


@dataclass
class Resumption:
    """Where a match starts: the games still to play, those the PGN already holds (with
    ``--resume``), and what to add to a game's number for its ``[Round]`` tag."""

    remaining: list[ScheduledGame]
    played: dict[int, PlayedGame] = field(default_factory=dict)
    round_offset: int = 0


def resume_point(
    games: Sequence[ScheduledGame], names: Sequence[str], pgn: Path | None, resume: bool
) -> Resumption:
    """The games still to play; with ``resume``, those of the PGN are checked against the
    schedule and left out.  Raises :class:`MatchError` for a PGN that is not this match's."""
    if not resume:
        # Rounds go on counting after the games an existing PGN file holds.
        return Resumption(list(games), round_offset=count_pgn_games(pgn) if pgn else 0)
    assert pgn is not None
    try:
        text = pgn.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        text = ""
    except OSError as error:
        raise MatchError(f"--resume: cannot read {pgn}: {error.strerror}") from None
    played = read_played(text)
    try:
        remaining = check_resume(games, names, played)
    except ValueError as error:
        raise MatchError(f"--resume {pgn}: {error}") from None
    offsets = [p.round - p.number for p in played.values() if p.round is not None]
    return Resumption(remaining, played, offsets[0] if offsets else 0)
