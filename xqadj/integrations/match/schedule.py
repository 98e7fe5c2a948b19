"""Which games a match plays, and which of them a PGN file already holds.

The schedule of pairings, colours, openings and rounds (:mod:`xqadj.integrations.tournament`
makes it), and, for ``--resume``, the games a PGN file already holds and those still to play.

Layer: integrations.  Inside :mod:`xqadj.integrations.match` it imports only
:mod:`.record`.
"""

from __future__ import annotations

import math
import re
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xqadj.integrations.match.record import MatchError
from xqadj.integrations.tournament import MATCH_GAME_TAG, ScheduledGame, schedule

__all__ = [
    "PgnGame",
    "PlayedGame",
    "Resumption",
    "count_pgn_games",
    "default_schedule",
    "plan",
    "read_pgn_games",
    "regular_file",
    "resume_point",
]


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


def regular_file(path: Path) -> bool:
    """Whether ``path`` is a regular file or does not exist yet (a symlink is followed): only
    such a file is read back; ``/dev/stdout``, ``/dev/null`` or a pipe is only written to."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except FileNotFoundError:
        return True


def count_pgn_games(path: Path) -> int:
    """How many games a PGN file holds (its ``[Event`` tags), 0 if it does not exist or is
    not a regular file (it is not read: a pipe would hang, ``/dev/zero`` never end)."""
    if not regular_file(path):
        return 0
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return 0
    return len(re.findall(r"^\s*\[Event\s", text, re.M))


_TAG = re.compile(rb'^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_RESULTS = ("1-0", "0-1", "1/2-1/2")


@dataclass
class PgnGame:
    """One game of a PGN file as ``--resume`` reads it."""

    #: Where it starts: its byte offset and its line (1-based).
    offset: int
    line: int
    tags: dict[str, str] = field(default_factory=dict)
    #: The last token of its move text (a finished game ends with its result).
    last_token: str = ""

    @property
    def complete(self) -> bool:
        """Whether it was written to the end: its move text ends with its ``[Result]``, one
        of ``1-0``, ``0-1``, ``1/2-1/2``."""
        result = self.tags.get("Result", "")
        return result in _RESULTS and self.last_token == result


def read_pgn_games(data: bytes) -> list[PgnGame]:
    r"""The games of a PGN file's bytes, each with its tags and the end of its move text.

    A line beginning with ``[`` that is not a whole tag is a tag cut short only among a game's
    tags, or as the file's last line where a game's tags begin (after a blank line, or at the
    top): a game begun and not finished.  Anywhere else it is move text (a comment that quotes
    an engine's ``[error] …``, as older xqadj wrote it), and its game may well be finished.

    >>> [game.complete for game in read_pgn_games(b'[Result "1-0"]\n\n1. h2e2 {a\n[b]} 1-0\n')]
    [True]
    >>> [game.complete for game in read_pgn_games(b'[Result "1-0"]\n\n1. h2e2 1-0\n\n[Resu')]
    [True, False]
    """
    games: list[PgnGame] = []
    in_tags = False
    offset = 0
    lines = data.splitlines(keepends=True)
    # Where a game's tags may begin: the top of the file, or a line after a blank one.
    tags_may_begin = True
    last = max((number for number, line in enumerate(lines, 1) if line.strip()), default=0)
    for number, line in enumerate(lines, 1):
        match = _TAG.match(line)
        if match:
            if not in_tags:
                games.append(PgnGame(offset, number))
                in_tags = True
            value = match.group(2).decode("utf-8", "replace")
            games[-1].tags[match.group(1).decode()] = value.replace('\\"', '"').replace(
                "\\\\", "\\"
            )
        elif line.lstrip().startswith(b"[") and (in_tags or (number == last and tags_may_begin)):
            # A tag cut short: a game begun, not finished.
            if not in_tags:
                games.append(PgnGame(offset, number))
                in_tags = True
            games[-1].tags["Result"] = "*"
        elif line.strip():
            in_tags = False
            if games:
                games[-1].last_token = line.split()[-1].decode("utf-8", "replace")
        tags_may_begin = not line.strip()
        offset += len(line)
    if games and not data.endswith(b"\n"):
        games[-1].last_token = ""  # cut in the middle of its last line
    return games


@dataclass(frozen=True)
class PlayedGame:
    """A finished game of this match that the PGN file already holds (``--resume``)."""

    number: int
    red: str
    black: str
    result: str
    #: The game's ``[Round]`` tag, if a number.
    round: int | None = None
    #: Its ``[Termination]`` tag (``perpetual-chase``, ``time forfeit``, …), "" if it has none.
    termination: str = ""


@dataclass
class Resumption:
    """Where a match starts: the games still to play, those the PGN already holds (with
    ``--resume``), and what to add to a game's number for its ``[Round]`` tag."""

    remaining: list[ScheduledGame]
    played: dict[int, PlayedGame] = field(default_factory=dict)
    round_offset: int = 0
    #: With ``--resume``: the byte offset of a last game only half written (a kill or a full
    #: disk in the middle of writing it), to be cut off the file before the match goes on.
    cut: int | None = None
    #: What to tell the user (the half-written game cut off).
    notes: list[str] = field(default_factory=list)


def resume_point(
    games: Sequence[ScheduledGame],
    names: Sequence[str],
    pgn: Path | None,
    resume: bool,
    tags: Mapping[str, str] | None = None,
    opening_hash: Callable[[ScheduledGame], str] | None = None,
) -> Resumption:
    """The games still to play; with ``resume``, every finished game of the PGN is checked
    against the game of the schedule with its ``[MatchGame]`` number and left out.

    The checks, in this order, each naming the game and what differs: the game is this
    schedule's, has the engines with these colours, the ``tags`` (``MatchSeed``, then
    ``MatchBook``, then ``MatchId``), the ``MatchOpening`` hash ``opening_hash`` gives, and the same
    ``[Round]`` offset as the others; no game twice.  A game without ``[MatchGame]`` or
    ``[MatchId]`` (another tool's, another match's, an older xqadj's) cannot be checked and
    is refused.  A last game only half written is not a finished game: it is left out and
    :attr:`Resumption.cut` says where to cut the file; one in the middle of the file is
    refused.  Raises :class:`MatchError`."""
    if not resume:
        # Rounds go on counting after the games an existing PGN file holds.
        return Resumption(list(games), round_offset=count_pgn_games(pgn) if pgn else 0)
    assert pgn is not None
    if not regular_file(pgn):
        raise MatchError(f"--resume {pgn}: not a regular file (a PGN to read back is needed)")
    try:
        data = pgn.read_bytes()
    except FileNotFoundError:
        data = b""
    except OSError as error:
        raise MatchError(f"--resume: cannot read {pgn}: {error.strerror}") from None
    found = read_pgn_games(data)
    result = Resumption([])
    if found and not found[-1].complete:
        last = found.pop()
        result.cut = last.offset
        result.notes.append(
            f"--resume: the last game of {pgn} (line {last.line}) was only half written: "
            "it is cut off the file and played again"
        )
    by_number = {game.number: game for game in games}
    offsets: set[int] = set()
    for pgn_game in found:
        where = f"--resume {pgn}: the game at line {pgn_game.line}"
        if not pgn_game.complete:
            raise MatchError(f"{where} is incomplete (its move text does not end with its result)")
        number_text = pgn_game.tags.get(MATCH_GAME_TAG, "")
        if not number_text.isdigit() or "MatchId" not in pgn_game.tags:
            raise MatchError(
                f"{where} has no [{MATCH_GAME_TAG}] and [MatchId] tags: it is not a game of "
                "this match (another match's, another tool's or an older xqadj's), so the "
                "file cannot be resumed"
            )
        number = int(number_text)
        where = f"{where} (game {number})"
        game = by_number.get(number)
        if game is None:
            raise MatchError(f"{where}: this match schedules only {len(games)} games")
        if number in result.played:
            raise MatchError(f"{where}: the file holds this game twice (two matches in one file?)")
        red, black = pgn_game.tags.get("Red", ""), pgn_game.tags.get("Black", "")
        expected = (names[game.red], names[game.black])
        if (red, black) != expected:
            raise MatchError(
                f"{where} is {red} vs {black}, but this match schedules {expected[0]} vs "
                f"{expected[1]}: not the same match"
            )
        _check_tags(where, pgn_game.tags, tags or {})
        if opening_hash is not None:
            if pgn_game.tags.get("MatchOpening") != opening_hash(game):
                raise MatchError(
                    f"{where} began with another opening than this match schedules "
                    f"(the book's opening {game.opening + 1}): another book order"
                )
        round_text = pgn_game.tags.get("Round", "")
        if round_text.isdigit():
            offsets.add(int(round_text) - number)
        if len(offsets) > 1:
            raise MatchError(f"{where}: its [Round] does not follow on from the games before it")
        result.played[number] = PlayedGame(
            number,
            red,
            black,
            pgn_game.tags["Result"],
            int(round_text) if round_text.isdigit() else None,
            pgn_game.tags.get("Termination", ""),
        )
    result.remaining = [game for game in games if game.number not in result.played]
    result.round_offset = offsets.pop() if offsets else 0
    return result


def _check_tags(where: str, found: Mapping[str, str], expected: Mapping[str, str]) -> None:
    """Refuse a game whose ``Match…`` tags are not the ones this match writes, saying which
    setting differs (the seed, the book, or another one)."""
    seed, want_seed = found.get("MatchSeed"), expected.get("MatchSeed")
    if seed != want_seed:
        raise MatchError(
            f"{where} was played with --seed {seed or '(none: books in order)'}, but this "
            f"match has --seed {want_seed or '(none: books in order)'}"
        )
    if "MatchBook" in expected and found.get("MatchBook") != expected["MatchBook"]:
        raise MatchError(f"{where} was played with another opening book (its content differs)")
    if "MatchId" in expected and found.get("MatchId") != expected["MatchId"]:
        raise MatchError(
            f"{where} was played with other settings (engine commands or options, time "
            "controls, limits, rules, adjudication or the opening order): not the same match"
        )
