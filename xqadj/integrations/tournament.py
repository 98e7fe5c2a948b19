"""Engines, schedules and the running tally of ``xqadj match``, as pure functions.

Layer: integrations.

**Engines.** ``--engine KEY=VALUE …`` once per engine, two or more; ``--each KEY=VALUE …``
gives settings to every engine (an engine's own setting wins).  The keys are cutechess-cli's
and fastchess':

========================  =========================================================
``cmd=COMMAND``           the engine's command line (required; split as a shell does)
``args=ARGS``             more arguments after the command (split as a shell does)
``dir=DIR``               the directory to start the engine in
``name=NAME``             its name in the output and the PGN (default: the command's)
``proto=uci|ucci``        its protocol (default ``uci``)
``notation=iccs|fairy``   UCI move ranks 0–9 (``iccs``, default) or 1–10 (``fairy``)
``tc=MOVES/TIME+INC``     a clock (see :mod:`xqadj.integrations.timecontrol`); ``tc=TIME+INC`` too
``st=SECONDS``            a fixed time a move (not with ``tc``)
``timemargin=MS``         milliseconds an engine may overrun its clock without losing
``depth=N``, ``nodes=N``  a search limit, alone or with a clock
``option.NAME=VALUE``     an engine option (``setoption``)
``timeunit=ms|s``         a UCCI engine's ``go time`` unit when it offers no ``usemillisec``
========================  =========================================================

**Schedules.** Every *encounter* is two engines playing one opening: ``--games 2`` (the
default) plays it twice, the colours swapped, and the two games make a *pair* for the
pentanomial statistics; ``--games 1`` plays it once, the colours alternating from round to
round.  ``--repeat`` is ``--games 2``.  A round is one encounter of every pairing: the two
engines of a head-to-head match; the first engine against each other one in a
``--tournament gauntlet``; everyone against everyone in a ``round-robin``.  ``--rounds N``
plays N rounds; each encounter takes the next opening of the book.

>>> [(g.number, g.round, g.red, g.black, g.opening) for g in schedule(2, rounds=2)]
[(1, 1, 0, 1, 0), (2, 1, 1, 0, 0), (3, 2, 0, 1, 1), (4, 2, 1, 0, 1)]
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xqadj.integrations.engine import NOTATION_SETTINGS, PROTOCOLS, TIME_UNITS, EngineSpec
from xqadj.integrations.settings import parse_key_values
from xqadj.integrations.stats import Pentanomial, Trinomial
from xqadj.integrations.timecontrol import NO_CLOCK, TimeControl

__all__ = [
    "ENGINE_KEYS",
    "MATCH_GAME_TAG",
    "TOURNAMENTS",
    "EngineConfig",
    "ScheduledGame",
    "Tally",
    "engine_configs",
    "game_points",
    "parse_settings",
    "schedule",
]

#: The ``--engine``/``--each`` keys, ``option.<Name>`` aside.
ENGINE_KEYS = (
    "cmd",
    "args",
    "dir",
    "name",
    "proto",
    "notation",
    "tc",
    "st",
    "timemargin",
    "depth",
    "nodes",
    "timeunit",
)
TOURNAMENTS = ("gauntlet", "round-robin")


def parse_settings(tokens: Sequence[str], what: str = "engine") -> dict[str, str]:
    """``KEY=VALUE`` tokens as a dict, the keys checked (``option.<Name>`` kept as is)."""
    expected = f"{', '.join(ENGINE_KEYS)} or option.<Name>"
    return parse_key_values(tokens, what, ENGINE_KEYS, expected, options=True)


def _count(settings: dict[str, str], key: str, least: int) -> int | None:
    if key not in settings:
        return None
    try:
        value = int(settings[key])
    except ValueError:
        raise ValueError(f"{key} must be a whole number, got {settings[key]!r}") from None
    if value < least:
        raise ValueError(f"{key} must be at least {least}, got {value}")
    return value


@dataclass(frozen=True)
class EngineConfig:
    """One engine of the match and how it plays."""

    name: str
    command: tuple[str, ...]
    protocol: str = "uci"
    #: ``auto`` (detected), ``iccs`` or ``fairy``.
    notation: str = "auto"
    directory: Path | None = None
    #: Its clock (``tc``) or fixed time a move (``st``), or None.
    time_control: TimeControl | None = None
    timemargin_ms: int = 0
    depth: int | None = None
    nodes: int | None = None
    options: dict[str, str] = field(default_factory=dict)
    time_unit: str = "ms"

    @classmethod
    def from_settings(cls, settings: dict[str, str]) -> EngineConfig:
        """An engine from its merged settings (see :func:`parse_settings`)."""
        if not settings.get("cmd", "").strip():
            raise ValueError("an engine needs cmd=<command line>")
        command = shlex.split(settings["cmd"]) + shlex.split(settings.get("args", ""))
        protocol = settings.get("proto", "uci").lower()
        if protocol not in PROTOCOLS:
            raise ValueError(f"proto must be uci or ucci, got {protocol!r}")
        # Without notation=, a UCI engine's is detected (its name, its first moves), as
        # xqadj proxy does; UCCI is always iccs.
        default = "auto" if protocol == "uci" else "iccs"
        notation = settings.get("notation", default).lower()
        if notation not in NOTATION_SETTINGS:
            raise ValueError(f"notation must be auto, iccs or fairy, got {notation!r}")
        if protocol == "ucci" and notation == "fairy":
            raise ValueError("UCCI engines use iccs notation (ranks 0-9)")
        if "tc" in settings and "st" in settings:
            raise ValueError("give an engine tc= or st=, not both")
        control = None
        if settings.get("tc", "").lower() in NO_CLOCK:
            pass  # cutechess-cli's tc=inf: no clock (a depth, nodes or the match's limit)
        elif "tc" in settings:
            control = TimeControl.parse(settings["tc"])
        elif "st" in settings:
            control = TimeControl.fixed(settings["st"])
        margin = _count(settings, "timemargin", 0) or 0
        time_unit = settings.get("timeunit", "ms").lower()
        if time_unit not in TIME_UNITS:
            raise ValueError(f"timeunit must be ms or s, got {time_unit!r}")
        directory = Path(settings["dir"]) if settings.get("dir") else None
        options = {
            key[len("option.") :]: value
            for key, value in settings.items()
            if key.startswith("option.")
        }
        return cls(
            settings.get("name") or os.path.basename(command[0]),
            tuple(command),
            protocol,
            notation,
            directory,
            control,
            margin,
            _count(settings, "depth", 1),
            _count(settings, "nodes", 1),
            options,
            time_unit,
        )

    def spec(self) -> EngineSpec:
        """How :class:`~xqadj.integrations.engine.Engine` starts and talks to it."""
        return EngineSpec(
            list(self.command),
            self.protocol,
            self.notation,
            self.name,
            dict(self.options),
            self.time_unit,
            self.directory,
        )

    def limits_text(self) -> str:
        """How it searches, for the match header: ``tc=10+0.1 depth=8``."""
        parts = []
        if self.time_control is not None:
            control = self.time_control
            key = "st" if control.movetime_ms is not None else "tc"
            value = control.text().removesuffix("/move")
            parts.append(f"{key}={value}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        return " ".join(parts) or "no limit"


def engine_configs(
    engines: Sequence[Sequence[str]], each: Sequence[str] = (), least: int = 2
) -> list[EngineConfig]:
    """The engines of ``--engine`` (one token list each) with ``--each`` under them; names
    made unique (``name (2)``).  Raises ValueError naming the engine at fault."""
    if len(engines) < least:
        raise ValueError(f"give --engine at least {least} times")
    shared = parse_settings(each, "--each")
    configs: list[EngineConfig] = []
    for number, tokens in enumerate(engines, 1):
        try:
            own = parse_settings(tokens)
            base = dict(shared)
            if "tc" in own or "st" in own:  # the engine's own time setting replaces --each's
                base.pop("tc", None)
                base.pop("st", None)
            settings = {**base, **own}
            configs.append(EngineConfig.from_settings(settings))
        except ValueError as error:
            raise ValueError(f"engine {number}: {error}") from None
    seen: dict[str, int] = {}
    unique = []
    for config in configs:
        count = seen.get(config.name, 0) + 1
        seen[config.name] = count
        if count > 1:
            config = EngineConfig(**{**config.__dict__, "name": f"{config.name} ({count})"})
        unique.append(config)
    return unique


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the schedule; engines are indices into the engine list."""

    #: 1-based, in schedule order (the PGN ``Round`` tag is ``round.game``).
    number: int
    round: int
    #: 0-based number of the encounter (both games of a pair share it).
    encounter: int
    #: 0-based index into the opening book.
    opening: int
    red: int
    black: int
    #: 1 or 2: the game's place in its encounter.
    leg: int = 1


def _pairings(engines: int, tournament: str) -> list[tuple[int, int]]:
    if tournament == "gauntlet":
        return [(0, other) for other in range(1, engines)]
    return [(a, b) for a in range(engines) for b in range(a + 1, engines)]


def schedule(
    engines: int,
    tournament: str = "round-robin",
    rounds: int = 1,
    games: int = 2,
    limit: int | None = None,
) -> list[ScheduledGame]:
    """The games of the match in playing order (at most ``limit`` of them)."""
    if engines < 2:
        raise ValueError("a match needs at least two engines")
    if tournament not in TOURNAMENTS:
        raise ValueError(f"--tournament must be gauntlet or round-robin, got {tournament!r}")
    if games not in (1, 2):
        raise ValueError(f"--games must be 1 or 2, got {games}")
    if rounds < 1:
        raise ValueError(f"--rounds must be at least 1, got {rounds}")
    result: list[ScheduledGame] = []
    encounter = 0
    for round_number in range(1, rounds + 1):
        for first, second in _pairings(engines, tournament):
            if games == 2:
                legs = [(first, second), (second, first)]
            elif round_number % 2:
                legs = [(first, second)]
            else:
                legs = [(second, first)]
            for leg, (red, black) in enumerate(legs, 1):
                if limit is not None and len(result) >= limit:
                    return result
                result.append(
                    ScheduledGame(
                        len(result) + 1, round_number, encounter, encounter, red, black, leg
                    )
                )
            encounter += 1
    return result


def game_points(result: str, red: bool) -> float | None:
    """Points for red (``red=True``) or black from a PGN result; None for ``*``."""
    if result == "1/2-1/2":
        return 0.5
    if result == "1-0":
        return 1.0 if red else 0.0
    if result == "0-1":
        return 0.0 if red else 1.0
    return None


class Tally:
    """The results so far, per pairing: games (trinomial) and complete pairs (pentanomial)."""

    def __init__(self, engines: int, games_per_encounter: int = 2) -> None:
        self.engines = engines
        self.games_per_encounter = games_per_encounter
        self._games: dict[tuple[int, int], Trinomial] = {}
        self._pairs: dict[tuple[int, int], Pentanomial] = {}
        #: Encounter → the lower-numbered engine's points, game by game, until the pair is done.
        self._open: dict[int, list[float]] = {}
        self.played = 0

    def add(self, game: ScheduledGame, result: str) -> None:
        """Count a finished game (an unfinished ``*`` counts for nothing)."""
        red_points = game_points(result, red=True)
        if red_points is None:
            return
        self.played += 1
        low, high = sorted((game.red, game.black))
        low_points = red_points if low == game.red else 1 - red_points
        self._games[low, high] = self._games.get((low, high), Trinomial()).add(low_points)
        if self.games_per_encounter != 2:
            return
        points = self._open.setdefault(game.encounter, [])
        points.append(low_points)
        if len(points) == 2:
            del self._open[game.encounter]
            pairs = self._pairs.get((low, high), Pentanomial())
            self._pairs[low, high] = pairs.add(points[0], points[1])

    def trinomial(self, engine: int, opponent: int) -> Trinomial:
        """``engine``'s games against ``opponent``, from its side."""
        low, high = sorted((engine, opponent))
        games = self._games.get((low, high), Trinomial())
        return games if engine == low else games.flipped()

    def pentanomial(self, engine: int, opponent: int) -> Pentanomial:
        """``engine``'s complete game pairs against ``opponent``, from its side."""
        low, high = sorted((engine, opponent))
        pairs = self._pairs.get((low, high), Pentanomial())
        return pairs if engine == low else pairs.flipped()

    def total(self, engine: int) -> Trinomial:
        """``engine``'s games against everyone."""
        wins = draws = losses = 0
        for opponent in range(self.engines):
            if opponent != engine:
                games = self.trinomial(engine, opponent)
                wins, draws, losses = (
                    wins + games.wins,
                    draws + games.draws,
                    losses + games.losses,
                )
        return Trinomial(wins, draws, losses)


#: The PGN tag that numbers a game in its match's schedule (what ``--resume`` reads).
MATCH_GAME_TAG = "MatchGame"
