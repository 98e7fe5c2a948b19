"""``xqadj match``: play engine matches and tournaments, refereed by xqadj.

Layer: integrations.

Two engines or more (``--engine`` once each, ``--each`` for shared settings) play a schedule
(:mod:`.tournament`: head-to-head, ``--tournament gauntlet`` or ``round-robin``,
``--rounds``, ``--games 1|2``), each encounter from the next opening of the book
(:mod:`.openings`), on clocks or with fixed limits (:mod:`.timecontrol`).  xqadj
follows every ply: the game ends at its ruling (perpetual check, perpetual chase, repetition
draw), at checkmate or stalemate, at the move limit, or, when asked, at a draw or resign
adjudication from the engines' scores (:mod:`.adjudication`), which never comes before a
ruling.  An engine that overruns its clock loses on time; one that crashes, hangs, plays an
illegal move or has no move loses that game by forfeit and is restarted; the match goes on.
Results are appended to a PGN file (the xqbase PGN form: ``[Game "Chinese Chess"]`` first)
with ``[Result]``, ``[Termination]``, the ruling's explanation as a comment and, on clocks, a
``{score/depth time [%clk …]}`` comment after each move.  The running statistics
(:mod:`.stats`) follow the games; ``--sprt`` stops the match when its test is decided;
``--results`` writes every game and the statistics as JSON; ``--resume`` goes on with a match
whose PGN holds its first games.

Every engine (one set per concurrent game) is started before the first game, so an engine
that cannot start is an error before the match.  Ctrl-C (or SIGTERM) stops the match: queued
games are not started, games in progress are dropped unscored, every engine is killed, and the
finished games stay in the PGN; the summary line is printed and the exit status is 130 (143 for
SIGTERM).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import queue
import re
import signal
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from xqadj.board import BLACK, PAWN, RED, STARTING_FEN, Board, Move, XqadjError
from xqadj.integrations.adjudication import Adjudicator, DrawRule, ResignRule, parse_info
from xqadj.integrations.arguments import add_rules_arguments
from xqadj.integrations.engine import (
    Engine,
    EngineError,
    EngineSpec,
    PositionText,
    SearchLimit,
)
from xqadj.integrations.openings import Opening, OpeningBook, OpeningsSpec, read_openings
from xqadj.integrations.standings import (
    Endings,
    Outcome,
    Standing,
    forfeit_warnings,
    pairing_lines,
    standings,
    standings_lines,
    termination_lines,
    terminations,
)
from xqadj.integrations.stats import Pentanomial, Sprt, SprtState, Trinomial, elo_estimate
from xqadj.integrations.statsview import (
    PairingView,
    ProgressPoint,
    StatisticsView,
    statistics_section,
)
from xqadj.integrations.timecontrol import (
    Clock,
    TimeControl,
    move_comment,
    pgn_time_control,
    ucci_go,
    uci_go,
)
from xqadj.integrations.tournament import (
    MATCH_GAME_TAG,
    TOURNAMENTS,
    EngineConfig,
    ScheduledGame,
    Tally,
    check_resume,
    engine_configs,
    read_played,
    schedule,
)
from xqadj.referee import Game, Ruling

__all__ = [
    "EngineSlot",
    "GameRecord",
    "Match",
    "MatchConfig",
    "MatchError",
    "MatchResult",
    "Opening",
    "Player",
    "add_arguments",
    "main",
    "play_game",
    "read_openings",
    "run_match",
]

#: The longest PGN line written (the PGN standard's export format says 79 characters).
PGN_LINE = 79


def _tag_value(value: str) -> str:
    """A PGN tag value: one line, with backslash and double quote escaped (PGN 8.1.1)."""
    value = " ".join(value.split())
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> list[str]:
    """A ``{…}`` comment as PGN tokens (see :func:`_comment_words`)."""
    words = _comment_words(text)
    if words:
        words[0] = "{" + words[0]
        words[-1] += "}"
    return words


def _comment_words(text: str) -> list[str]:
    """The words of a ``{…}`` comment: no brace inside (a ``}`` would end it early), none
    longer than a PGN line."""
    text = text.replace("{", "(").replace("}", ")")
    words: list[str] = []
    for word in text.split():
        words.extend(textwrap.wrap(word, PGN_LINE - 2, break_long_words=True) or [word])
    return words


@dataclass
class GameRecord:
    """One finished game of the match."""

    number: int
    red: str
    black: str
    opening: Opening
    moves: list[Move] = field(default_factory=list)
    result: str = "*"
    termination: str = ""
    comment: str = ""
    ruling: Ruling | None = None
    rules: str = "axf"
    move_limit: int = 0
    forbidden_run: bool = False
    #: The game's number in the match's schedule (the ``[MatchGame]`` tag ``--resume`` reads).
    match_game: int | None = None
    #: Red's and black's time controls (None: no clock), for the ``TimeControl`` tags.
    time_controls: tuple[TimeControl | None, TimeControl | None] = (None, None)
    #: A comment for each move, "" for none (``book`` for the opening's moves, on clocks
    #: ``score/depth time [%clk …]``).
    move_comments: list[str] = field(default_factory=list)

    def score_for(self, name: str) -> float:
        if self.result == "1/2-1/2":
            return 0.5
        if self.result == "1-0":
            return 1.0 if name == self.red else 0.0
        if self.result == "0-1":
            return 1.0 if name == self.black else 0.0
        return 0.0

    def headers(self, event: str) -> list[tuple[str, str]]:
        """The PGN tags, ``Game`` first as the xqbase PGN standard asks."""
        headers = [
            ("Game", "Chinese Chess"),
            ("Event", event),
            ("Site", "xqadj match"),
            ("Date", datetime.date.today().strftime("%Y.%m.%d")),
            ("Round", str(self.number)),
            ("Red", self.red),
            ("Black", self.black),
            ("Result", self.result),
        ]
        headers += pgn_time_control(*self.time_controls)
        if self.opening.fen != STARTING_FEN:
            headers += [("SetUp", "1"), ("FEN", f"{self.opening.fen} - - 0 1")]
        headers += [
            ("Format", "ICCS"),
            ("Termination", self.termination),
            ("Rules", self.rules),
            ("MoveLimit", str(self.move_limit)),
        ]
        if self.forbidden_run:
            headers.append(("ForbiddenRun", "1"))
        if self.match_game is not None:
            headers.append((MATCH_GAME_TAG, str(self.match_game)))
        return headers

    def pgn(self, event: str, comments: bool = True) -> str:
        """The game in PGN: tags, then ICCS moves, the comment and the result, in lines of at
        most 79 characters."""
        lines = [f'[{key} "{_tag_value(value)}"]' for key, value in self.headers(event)]
        turn = Board(self.opening.fen).turn
        number = 1
        tokens = []
        for index, move in enumerate(self.moves):
            if turn == RED:
                tokens.append(f"{number}.")
            elif index == 0:
                tokens.append(f"{number}...")
            tokens.append(move.iccs())
            if comments and index < len(self.move_comments) and self.move_comments[index]:
                # A move's comment is short: one token, so that a line never splits it.
                tokens.append("{" + " ".join(_comment_words(self.move_comments[index])) + "}")
            if turn == BLACK:
                number += 1
            turn ^= 1
        if comments and self.comment:
            tokens.extend(_comment(self.comment))
        tokens.append(self.result)
        text, line = [], ""
        for token in tokens:
            if line and len(line) + len(token) + 1 > PGN_LINE:
                text.append(line)
                line = token
            else:
                line = f"{line} {token}" if line else token
        text.append(line)
        return "\n".join(lines) + "\n\n" + "\n".join(text) + "\n"


def count_pgn_games(path: Path) -> int:
    """How many games a PGN file holds (its ``[Event`` tags), 0 if it does not exist."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return 0
    return len(re.findall(r"^\s*\[Event\s", text, re.M))


def _pgn_separator(path: Path) -> str:
    """What to write before appending a game to ``path``: the blank line that ends the last
    game, when the file's own last game lacks it."""
    with path.open("rb") as pgn:
        pgn.seek(0, os.SEEK_END)
        size = pgn.tell()
        pgn.seek(max(0, size - 2))
        tail = pgn.read()
    if not tail or tail == b"\n\n":
        return ""
    return "\n" if tail.endswith(b"\n") else "\n\n"


class EngineSlot:
    """One engine kept alive across games, restarted after a failure.

    ``stop`` (set at Ctrl-C) makes :meth:`get` refuse to start an engine, so that no engine is
    started while the match is being stopped.
    """

    def __init__(
        self,
        spec: EngineSpec,
        start_timeout: float = 10.0,
        log_dir: Path | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        self.spec = spec
        self.start_timeout = start_timeout
        self.log_dir = log_dir
        self.stop = stop if stop is not None else threading.Event()
        self.engine: Engine | None = None
        self._lock = threading.Lock()

    def get(self) -> Engine:
        with self._lock:
            if self.stop.is_set():
                raise EngineError("stopped", "the match is being stopped")
            if self.engine is None or not self.engine.alive:
                if self.engine is not None:
                    self.engine.kill()  # what is left of its process group
                self.engine = None
                self.engine = Engine(self.spec, self.start_timeout, self.log_dir)
            return self.engine

    def reset(self) -> None:
        """Kill the engine (it is restarted by the next :meth:`get`)."""
        engine, self.engine = self.engine, None
        if engine is not None:
            engine.kill()

    def kill(self) -> None:
        """Kill the engine now, from any thread (at Ctrl-C); a search in progress then fails
        with an :class:`EngineError` of kind ``stopped``."""
        engine = self.engine
        if engine is not None:
            engine.kill()

    def close(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            engine.quit()


@dataclass(frozen=True)
class Player:
    """How one engine searches: on a clock (``tc``) or a fixed time a move (``st``), with
    ``timemargin_ms`` of grace, and/or to a depth or a node count.  With none of them, the
    match's own :class:`~xqadj.integrations.engine.SearchLimit` (``--movetime``/``--depth``/
    ``--nodes``)."""

    time_control: TimeControl | None = None
    timemargin_ms: int = 0
    depth: int | None = None
    nodes: int | None = None

    @classmethod
    def of(cls, config: EngineConfig) -> Player:
        return cls(config.time_control, config.timemargin_ms, config.depth, config.nodes)


def _search(
    engine: Engine,
    player: Player,
    clocks: dict[int, Clock | None],
    side: int,
    limit: SearchLimit,
) -> tuple[SearchLimit, str | None, float | None]:
    """The limit, the ``go`` line (None: the limit's own) and the seconds to wait for
    ``bestmove`` (None: the limit's) for ``side``'s engine."""
    clock = clocks[side]
    if clock is None:
        if player.depth is None and player.nodes is None:
            return limit, None, None
        own = SearchLimit(None, player.depth, player.nodes, limit.grace, limit.search_timeout)
        return own, None, None
    if engine.spec.protocol == "ucci":
        # UCCI's go takes a time, a depth or a node count, not two of them: the clock wins.
        go = ucci_go(clock, clocks[1 - side], engine.time_unit == "ms")
    else:
        go = uci_go(clocks[RED], clocks[BLACK], side == RED)
        if player.depth is not None:
            go += f" depth {player.depth}"
        if player.nodes is not None:
            go += f" nodes {player.nodes}"
    return limit, go, clock.allowed_ms() / 1000


def play_game(
    number: int,
    opening: Opening,
    red: EngineSlot,
    black: EngineSlot,
    limit: SearchLimit,
    move_limit: int,
    max_plies: int,
    rules: str = "axf",
    forbidden_run: bool = False,
    stop: threading.Event | None = None,
    players: tuple[Player, Player] | None = None,
    adjudicator: Adjudicator | None = None,
    match_game: int | None = None,
) -> GameRecord | None:
    """Play one game; never raises for an engine failure (the engine forfeits and is
    restarted).  Returns None when ``stop`` is set during the game: a game cut short by
    Ctrl-C is not scored, and an engine killed by it has not crashed.

    ``players`` says how red and black search (clocks, fixed times, depths); an engine that
    overruns its clock loses on time.  ``adjudicator`` rules draws and resignations from the
    engines' scores, after a move that drew no ruling from xqadj."""
    red_player, black_player = players or (Player(), Player())
    record = GameRecord(
        number,
        red.spec.name,
        black.spec.name,
        opening,
        rules=rules,
        move_limit=move_limit,
        forbidden_run=forbidden_run,
        match_game=match_game,
        time_controls=(red_player.time_control, black_player.time_control),
    )
    game = Game(opening.fen, rules=rules, move_limit=move_limit, forbidden_run=forbidden_run)
    for text in opening.moves:
        game.push_iccs(text)
    # The position command's text in each engine's notation, one move appended at a time.
    positions = {
        slot.spec.notation: PositionText(opening.fen, slot.spec.notation).extend(game.moves)
        for slot in (red, black)
    }
    slots = {RED: red, BLACK: black}
    by_side = {RED: red_player, BLACK: black_player}
    clocks: dict[int, Clock | None] = {
        side: None if p.time_control is None else Clock(p.time_control, p.timemargin_ms)
        for side, p in by_side.items()
    }
    on_clocks = any(clock is not None for clock in clocks.values())
    if on_clocks:
        record.move_comments = ["book"] * len(opening.moves)

    def stopped(error: EngineError) -> bool:
        return error.kind == "stopped" or (stop is not None and stop.is_set())

    for side, slot in ((RED, red), (BLACK, black)):
        try:
            slot.get().new_game(slot.start_timeout)
        except EngineError as error:
            if stopped(error):
                return None
            slot.reset()
            return _forfeit(record, game, side, error.kind, str(error))
    while game.ruling is None:
        if stop is not None and stop.is_set():
            return None
        if game.ply - len(opening.moves) >= max_plies:
            record.moves = list(game.moves)
            record.result, record.termination = "1/2-1/2", "max-plies"
            record.comment = f"Stopped after {max_plies} plies without a ruling."
            return record
        side = game.board.turn
        slot = slots[side]
        clock = clocks[side]
        engine: Engine | None = None
        try:
            engine = slot.get()
            banned = game.banned_moves() if engine.spec.protocol == "ucci" else None
            own_limit, go, deadline = _search(engine, by_side[side], clocks, side, limit)
            reply = engine.best_move(
                opening.fen,
                game.moves,
                own_limit,
                banned,
                slot.start_timeout,
                go=go,
                deadline=deadline,
                position=positions[engine.spec.notation].text,
            )
        except EngineError as error:
            if stopped(error):
                return None
            if error.kind == "timeout" and clock is not None and engine and engine.searching:
                # The flag fell while it searched: a loss on time, not a hung engine.  Told to
                # stop, it answers; the next isready drops that late bestmove.
                try:
                    engine.send("stop")
                except EngineError:
                    slot.reset()
                return _time_forfeit(record, game, side, slot.spec.name, clock, None)
            slot.reset()
            return _forfeit(record, game, side, error.kind, str(error))
        spent = engine.last_search_ms
        if clock is not None:
            allowed = clock.allowed_ms()
            if not clock.punch(spent):
                return _time_forfeit(record, game, side, slot.spec.name, clock, (spent, allowed))
        info = parse_info(engine.last_info)
        if reply is None:
            # The game is not over (a ruling, checkmate or stalemate would have ended it), so
            # the engine had a legal move; with UCCI every one of them may be banned (each
            # loses by rule), and then its `nobestmove` loses all the same.
            legal = game.board.legal_moves()
            all_banned = banned is not None and len(banned) == len(legal)
            detail = (
                "every legal move loses by rule (all banned)"
                if all_banned
                else "returned no move with legal moves on the board"
            )
            slot.reset()
            return _forfeit(record, game, side, "no-move", f"{slot.spec.name} {detail}")
        try:
            move = engine.parse_move(reply)
            board = game.board
            mover = board.piece_at(move.from_square)
            # Captures and pawn moves cannot be undone: they restart a draw adjudication count.
            irreversible = board.piece_at(move.to_square) is not None or (
                mover is not None and mover.piece_type == PAWN
            )
            game.push(move)
        except XqadjError:
            slot.reset()  # who knows what position it believes it is in: a fresh start
            return _forfeit(
                record,
                game,
                side,
                "illegal-move",
                f"{slot.spec.name} played {reply}, illegal in {game.board.fen()}",
            )
        for position in positions.values():
            position.push(move)
        if on_clocks:
            remaining = None if clock is None or clock.fixed else clock.remaining_ms
            record.move_comments.append(move_comment(spent, remaining, info.score_text, info.depth))
        if game.ruling is None and adjudicator is not None:
            verdict = adjudicator.after_move(game.ply, info.score, irreversible, side == RED)
            if verdict is not None:
                record.moves = list(game.moves)
                record.result, record.termination = verdict.result, "adjudication"
                record.comment = verdict.reason[0].upper() + verdict.reason[1:] + "."
                return record
    ruling = game.ruling
    record.moves = list(game.moves)
    record.result, record.termination = ruling.result, ruling.reason.value
    record.ruling = ruling
    record.comment = ruling.explain()
    return record


def _time_forfeit(
    record: GameRecord,
    game: Game,
    loser: int,
    name: str,
    clock: Clock,
    overrun: tuple[int, int] | None,
) -> GameRecord:
    """A loss on time; ``overrun`` is (milliseconds the move took, milliseconds it had), or
    None when no move came within the time it had."""
    record.moves = list(game.moves)
    record.result = "0-1" if loser == RED else "1-0"
    record.termination = "time forfeit"
    allowed = clock.allowed_ms() if overrun is None else overrun[1]
    margin = f" ({clock.margin_ms / 1000:g} s margin included)" if clock.margin_ms else ""
    if overrun is None:
        what = f"no move within {allowed / 1000:.3f} s"
    else:
        what = f"its move took {overrun[0] / 1000:.3f} s of {allowed / 1000:.3f} s"
    record.comment = f"{name} lost on time: {what}{margin}."
    return record


def _forfeit(record: GameRecord, game: Game, loser: int, kind: str, detail: str) -> GameRecord:
    record.moves = list(game.moves)
    record.result = "0-1" if loser == RED else "1-0"
    record.termination = f"forfeit ({kind})"
    record.comment = f"Forfeit: {detail}"
    return record


class MatchError(Exception):
    """The match cannot start (an engine that does not start, a PGN file that cannot be
    written)."""


@dataclass
class MatchConfig:
    #: The engines, two or more.
    engines: Sequence[EngineSpec]
    #: With no ``schedule``: the games of a two-engine match, colours alternating.
    games: int = 2
    concurrency: int = 1
    openings: list[Opening] = field(default_factory=lambda: [Opening()])
    limit: SearchLimit = field(default_factory=SearchLimit)
    move_limit: int = 60
    max_plies: int = 600
    pgn: Path | None = None
    event: str = "xqadj match"
    rules: str = "axf"
    forbidden_run: bool = False
    #: Seconds for an engine's handshake (and for each ``isready``).
    handshake_timeout: float = 10.0
    #: A folder for one traffic-and-stderr log per engine instance.
    log_dir: Path | None = None
    #: Write the explanation as a ``{comment}`` (cchess's PGN reader takes no comment).
    pgn_comments: bool = True
    #: How each engine searches (default: ``limit`` for all).
    players: Sequence[Player] = ()
    #: The games to play (default: ``games`` games of engines 0 and 1, in pairs).
    schedule: Sequence[ScheduledGame] | None = None
    #: The opening book (default: ``openings``, in order).
    book: OpeningBook | None = None
    #: 2: each encounter is a game pair (pentanomial statistics); 1: single games.
    games_per_encounter: int = 2
    sprt: Sprt | None = None
    #: Print the statistics every this many games (0: at the end only; the final block is
    #: printed once, by the caller, after the last game).
    rating_interval: int = 0
    draw: DrawRule | None = None
    resign: ResignRule | None = None
    #: Go on with the match whose first games the PGN file holds.
    resume: bool = False
    #: Write every game and the statistics here as JSON at the end.
    results: Path | None = None


@dataclass
class MatchResult:
    """The finished games in order, and why the match ended early, if it did."""

    records: list[GameRecord]
    #: "" (all games played), "interrupted" (Ctrl-C / SIGTERM) or "output closed" (EPIPE).
    stopped: str = ""
    #: The games of this match: finished ones plus those not played.
    planned: int = 0
    #: The signal that stopped the match (SIGINT or SIGTERM), if one did.
    signal: int = 0
    #: The SPRT when it stopped the match (its ``accepted`` says which hypothesis), else None.
    decision: SprtState | None = None
    #: Games taken from the PGN with ``--resume``.
    resumed: int = 0

    def scores(self, name: str) -> float:
        return sum(r.score_for(name) for r in self.records)


def _default_schedule(games: int) -> list[ScheduledGame]:
    """``games`` games between the first two engines, each opening with both colours."""
    return schedule(2, rounds=max(1, math.ceil(games / 2)), games=2, limit=games)


class Match:
    """A match between engines: :meth:`run` plays it.  :meth:`stop` (any thread) stops it as
    Ctrl-C does.  Games are played by ``concurrency`` workers, each with its own set of
    engines, all started before the first game."""

    def __init__(self, config: MatchConfig, out: TextIO = sys.stdout) -> None:
        self.config = config
        self.out = out
        if len(config.engines) < 2:
            raise ValueError("a match needs two engines or more")
        seen: set[str] = set()
        for spec in config.engines:
            base, count = spec.name, 1
            while spec.name in seen:
                count += 1
                spec.name = f"{base} ({count})"
            seen.add(spec.name)
        self.names = tuple(spec.name for spec in config.engines)
        self.players = list(config.players) or [Player() for _ in config.engines]
        self.schedule = list(
            config.schedule if config.schedule is not None else _default_schedule(config.games)
        )
        self.book = config.book or OpeningBook(config.openings)
        self.tally = Tally(len(config.engines), config.games_per_encounter)
        self.stop_event = threading.Event()
        self._lock = threading.Lock()
        self._slots: list[EngineSlot] = []
        self._done = 0
        self._pgn: TextIO | None = None
        self._round_offset = 0
        self._decision: SprtState | None = None
        #: Every finished game, for ``--results``.
        self.game_log: list[dict[str, Any]] = []
        #: The first pairing's statistics after each game played here, for the charts.
        self.progress: list[ProgressPoint] = []
        self._ignoring_sigint: signal.Handlers | Callable[..., object] | int | None = None
        self._ignoring_sigterm: signal.Handlers | Callable[..., object] | int | None = None

    def stop(self) -> None:
        """Stop the match: start no more games and kill every engine (a game in progress ends
        unscored)."""
        self.stop_event.set()
        for slot in list(self._slots):
            slot.kill()

    def _interrupted(self, result: MatchResult, interrupt: KeyboardInterrupt) -> None:
        result.stopped = "interrupted"
        result.signal = getattr(interrupt, "signum", signal.SIGINT)
        # A second Ctrl-C (or a SIGTERM) must not cut the clean-up short and leave engines
        # running; the clean-up is bounded (every engine is killed, not asked to quit).
        if threading.current_thread() is threading.main_thread():
            self._ignoring_sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)
            self._ignoring_sigterm = signal.signal(signal.SIGTERM, signal.SIG_IGN)

    def _start_engines(self, sets: int) -> Iterator[tuple[EngineSlot, ...]]:
        config = self.config
        for _ in range(sets):
            engines = tuple(
                EngineSlot(spec, config.handshake_timeout, config.log_dir, self.stop_event)
                for spec in config.engines
            )
            self._slots.extend(engines)
            for slot in engines:
                try:
                    slot.get()
                except EngineError as error:
                    raise MatchError(f"engine {slot.spec.name!r} did not start: {error}") from None
            yield engines

    def _resume(self, result: MatchResult) -> list[ScheduledGame]:
        """The games still to play; with ``resume``, those of the PGN are counted first."""
        config = self.config
        if not config.resume:
            if config.pgn is not None:
                self._round_offset = count_pgn_games(config.pgn)
            return self.schedule
        assert config.pgn is not None
        try:
            text = config.pgn.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            text = ""
        except OSError as error:
            raise MatchError(f"--resume: cannot read {config.pgn}: {error.strerror}") from None
        played = read_played(text)
        try:
            remaining = check_resume(self.schedule, self.names, played)
        except ValueError as error:
            raise MatchError(f"--resume {config.pgn}: {error}") from None
        offsets = [p.round - p.number for p in played.values() if p.round is not None]
        self._round_offset = offsets[0] if offsets else 0
        by_number = {game.number: game for game in self.schedule}
        for number, found in sorted(played.items()):
            self.tally.add(by_number[number], found.result)
            self.game_log.append(
                {
                    "number": number,
                    "round": by_number[number].round,
                    "red": found.red,
                    "black": found.black,
                    "result": found.result,
                    "from_pgn": True,
                }
            )
        result.resumed = len(played)
        self._done = len(played)
        return remaining

    def run(self) -> MatchResult:
        config = self.config
        result = MatchResult([], "", len(self.schedule))
        records: list[GameRecord | None] = []
        try:
            remaining = self._resume(result)
            records = [None] * len(remaining)
            free: queue.Queue[tuple[EngineSlot, ...]] = queue.Queue()
            if remaining:
                for engines in self._start_engines(min(config.concurrency, len(remaining))):
                    free.put(engines)
            if config.pgn is not None:
                # Appended to, never truncated: an earlier match's games stay.
                self._pgn = config.pgn.open("a", encoding="utf-8")
                self._pgn.write(_pgn_separator(config.pgn))
            pool = ThreadPoolExecutor(max_workers=max(1, free.qsize()), thread_name_prefix="game")
            futures: list[Future[None]] = []
            try:
                for index, game in enumerate(remaining):
                    futures.append(pool.submit(self._play, index, game, free, records))
                for future in futures:
                    future.result()
            except KeyboardInterrupt as interrupt:
                self._interrupted(result, interrupt)
            except BrokenPipeError:
                result.stopped = "output closed"
            finally:
                if result.stopped or any(f.done() and f.exception() for f in futures):
                    self.stop()
                pool.shutdown(wait=True, cancel_futures=True)
        except KeyboardInterrupt as interrupt:  # while the engines were starting
            self._interrupted(result, interrupt)
        finally:
            for slot in self._slots:
                if result.stopped:
                    slot.kill()
                else:
                    slot.close()
            if self._pgn is not None:
                self._pgn.close()
            if self._ignoring_sigint is not None:
                signal.signal(signal.SIGINT, self._ignoring_sigint)
                signal.signal(signal.SIGTERM, self._ignoring_sigterm)
        result.records = [r for r in records if r is not None]
        result.decision = self._decision
        return result

    def _play(
        self,
        index: int,
        scheduled: ScheduledGame,
        free: queue.Queue[tuple[EngineSlot, ...]],
        records: list[GameRecord | None],
    ) -> None:
        if self.stop_event.is_set():
            return
        config = self.config
        engines = free.get()
        try:
            adjudicator = None
            if config.draw is not None or config.resign is not None:
                adjudicator = Adjudicator(config.draw, config.resign)
            record = play_game(
                self._round_offset + scheduled.number,
                self.book.opening(scheduled.opening),
                engines[scheduled.red],
                engines[scheduled.black],
                config.limit,
                config.move_limit,
                config.max_plies,
                config.rules,
                config.forbidden_run,
                self.stop_event,
                players=(self.players[scheduled.red], self.players[scheduled.black]),
                adjudicator=adjudicator,
                match_game=scheduled.number,
            )
        finally:
            free.put(engines)
        if record is None:  # cut short by stop(): not scored
            return
        with self._lock:
            records[index] = record
            if self._pgn is not None:
                self._pgn.write(record.pgn(config.event, config.pgn_comments) + "\n")
                self._pgn.flush()
            self.tally.add(scheduled, record.result)
            self.game_log.append(
                {
                    "number": scheduled.number,
                    "round": scheduled.round,
                    "red": record.red,
                    "black": record.black,
                    "result": record.result,
                    "termination": record.termination,
                    "plies": len(record.moves),
                    "opening": record.opening.text(),
                    "comment": record.comment,
                }
            )
            self._done += 1
            total = len(self.schedule)
            print(
                f"game {scheduled.number}/{total}: {record.red} vs {record.black}: "
                f"{record.result} {record.termination} ({len(record.moves)} plies) | "
                f"{self.score_line()} ({self._done}/{total} played)",
                file=self.out,
                flush=True,
            )
            state = None
            if config.sprt is not None and self._decision is None:
                state = config.sprt.state(self._sprt_sample())
                if state.accepted is not None:
                    self._decision = state
                    print(
                        f"SPRT: {state.accepted} accepted ({state.text()}) after "
                        f"{self._done} games; the match stops",
                        file=self.out,
                        flush=True,
                    )
                    self.stop()
            self._note_progress(state)
            # The final block follows the last game (and a decided SPRT): not twice.
            last = self._done == total or self._decision is not None
            if config.rating_interval and self._done % config.rating_interval == 0 and not last:
                for line in self.statistics():
                    print(line, file=self.out, flush=True)

    def _note_progress(self, state: SprtState | None) -> None:
        """The first pairing's Elo (and the SPRT's LLR) after this game, for the charts."""
        estimate = elo_estimate(self._sprt_sample())
        self.progress.append(
            ProgressPoint(
                self._done, estimate.elo, estimate.error, None if state is None else state.llr
            )
        )

    def _sprt_sample(self) -> Trinomial | Pentanomial:
        """The first engine's results against the second, in pairs when games are paired."""
        if self.config.games_per_encounter == 2:
            return self.tally.pentanomial(0, 1)
        return self.tally.trinomial(0, 1)

    def score_line(self) -> str:
        """``score A 3 - 2 B`` for two engines, else ``A 3, B 2.5, C 0.5``."""
        points = [self.tally.total(i).points for i in range(len(self.names))]
        if len(self.names) == 2:
            return f"score {self.names[0]} {points[0]:g} - {points[1]:g} {self.names[1]}"
        return ", ".join(f"{name} {p:g}" for name, p in zip(self.names, points, strict=True))

    def pairings(self) -> list[tuple[int, int]]:
        """The engine pairs that have played, first engine first."""
        return [
            (a, b)
            for a in range(len(self.names))
            for b in range(a + 1, len(self.names))
            if self.tally.trinomial(a, b).games
        ]

    def statistics(self, final: bool = False) -> list[str]:
        """The statistics block: each pairing (what W/L/D and the Elo count, :mod:`.standings`),
        the SPRT, with three engines or more the standings; ``final`` adds how each engine's
        games ended and the forfeit warnings."""
        paired = self.config.games_per_encounter == 2
        lines = []
        for a, b in self.pairings():
            pairs = self.tally.pentanomial(a, b) if paired else None
            lines += pairing_lines(self.names[a], self.names[b], self.tally.trinomial(a, b), pairs)
        sprt = self.config.sprt
        if sprt is not None:
            state = self._decision or sprt.state(self._sprt_sample())
            lines.append(f"  SPRT ({sprt.text()}): {state.text()}")
        if len(self.names) >= 3:
            lines += standings_lines(self.standings())
        if final:
            endings = self.endings()
            lines += termination_lines(endings)
            lines += forfeit_warnings(endings)
        return lines

    def standings(self) -> list[Standing]:
        return standings(self.names, [self.tally.total(i) for i in range(len(self.names))])

    def endings(self) -> list[Endings]:
        """How each engine's games ended (a resumed game's ending is not known)."""
        outcomes = [
            Outcome(g["red"], g["black"], g["result"], g.get("termination", ""))
            for g in self.game_log
        ]
        return terminations(self.names, outcomes)

    def view(self, notes: Sequence[str] = ()) -> StatisticsView:
        """What ``--html`` shows of the statistics (:mod:`.statsview`)."""
        paired = self.config.games_per_encounter == 2
        sprt = self.config.sprt
        return StatisticsView(
            [
                PairingView(
                    self.names[a],
                    self.names[b],
                    self.tally.trinomial(a, b),
                    self.tally.pentanomial(a, b) if paired else None,
                )
                for a, b in self.pairings()
            ],
            sprt,
            None if sprt is None else self._decision or sprt.state(self._sprt_sample()),
            list(self.progress) if len(self.names) == 2 else [],
            self.standings(),
            self.endings(),
            tuple(notes),
        )


def run_match(config: MatchConfig, out: TextIO = sys.stdout) -> MatchResult:
    """Play the match; progress lines go to ``out``.  Raises :class:`MatchError` when it cannot
    start.  A Ctrl-C while it runs ends it early (``MatchResult.stopped``), not with an
    exception."""
    return Match(config, out).run()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        action="append",
        nargs="+",
        required=True,
        metavar="KEY=VALUE",
        help="an engine, once for each (two or more): cmd=<command line> [args=<arguments>] "
        "[dir=<folder>] [name=<name>] [proto=uci|ucci] [notation=iccs|fairy] "
        "[tc=MOVES/TIME+INC | st=SECONDS] [timemargin=MS] [depth=N] [nodes=N] "
        "[timeunit=ms|s] [option.<Name>=<value> ...]",
    )
    parser.add_argument(
        "--each",
        action="extend",
        nargs="+",
        default=[],
        metavar="KEY=VALUE",
        help="settings for every engine, as --engine takes them (an engine's own win)",
    )
    parser.add_argument(
        "--tc",
        metavar="MOVES/TIME+INC",
        help="a clock for every engine, in seconds (40/60+0.6, 10+0.1): --each tc=…",
    )
    parser.add_argument(
        "--tournament",
        choices=TOURNAMENTS,
        default="round-robin",
        help="with three engines or more: the first against each other one (gauntlet) or "
        "everyone against everyone (round-robin, the default)",
    )
    parser.add_argument(
        "--rounds", type=int, help="rounds to play: each pairing plays one encounter a round"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=2,
        help="games an encounter: 2 (the default: each opening with both colours, a game "
        "pair) or 1; without --rounds, a number above 2 is the games of a two-engine match",
    )
    parser.add_argument("--repeat", action="store_true", help="the same as --games 2")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    parser.add_argument(
        "--openings",
        nargs="+",
        metavar="KEY=VALUE",
        help="file=F [format=epd|pgn] [order=sequential|random] [plies=N] [start=K], or a "
        "file alone: EPD/FEN lines, 'startpos|fen <FEN> [moves ...]' lines, or PGN games",
    )
    parser.add_argument(
        "--seed", type=int, help="the seed for --openings order=random (default: a random one)"
    )
    parser.add_argument(
        "--sprt",
        nargs="+",
        metavar="KEY=VALUE",
        help="elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=normalized|logistic]: stop the "
        "match when the SPRT on the game pairs accepts H0 or H1 (two engines)",
    )
    parser.add_argument(
        "--ratinginterval",
        type=int,
        default=0,
        metavar="N",
        help="print the statistics every N games (default 0: at the end only)",
    )
    parser.add_argument(
        "--draw",
        nargs="+",
        metavar="KEY=VALUE",
        help="movenumber=N movecount=C score=S: adjudicate a draw when both engines' scores "
        "stay within S cp for C moves each, from move N on",
    )
    parser.add_argument(
        "--resign",
        nargs="+",
        metavar="KEY=VALUE",
        help="movecount=C score=S [twosided=true]: adjudicate a loss for an engine whose score "
        "stays S cp or more below zero for C of its moves",
    )
    parser.add_argument(
        "--results", type=Path, metavar="FILE", help="write every game and the statistics as JSON"
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on with the match whose first games the --pgn file holds (same options)",
    )
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument(
        "--movetime",
        type=int,
        help="milliseconds per move (default 100; UCCI engines get 'go time MS movestogo 1')",
    )
    limit.add_argument("--depth", type=int, help="search depth per move")
    limit.add_argument("--nodes", type=int, help="nodes per move")
    parser.add_argument(
        "--timeout",
        type=float,
        help="seconds after which a silent engine forfeits: beyond --movetime (default 5), or "
        "per move with --depth/--nodes (default 60); an engine on a clock (tc=, st=) is bound "
        "by its clock and timemargin= instead",
    )
    parser.add_argument(
        "--handshake-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds an engine has to answer uci/ucci and isready before it is killed "
        "(default 10)",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--move-limit",
        type=int,
        default=60,
        help="natural move limit in moves without a capture, 0 = off (default 60)",
    )
    parser.add_argument(
        "--max-plies",
        type=int,
        default=600,
        help="stop a game as a draw after this many plies (default 600)",
    )
    parser.add_argument(
        "--pgn",
        type=Path,
        help="append the games to this PGN file (an existing file is kept; rounds go on counting)",
    )
    parser.add_argument(
        "--no-pgn-comments",
        dest="pgn_comments",
        action="store_false",
        help="write no {comment} in the PGN (for readers such as cchess that take none)",
    )
    parser.add_argument("--event", default="xqadj match", help="the PGN Event tag")
    parser.add_argument(
        "--log",
        type=Path,
        metavar="DIR",
        help="write each engine instance's traffic both ways and its stderr to DIR/NAME-N.log",
    )
    parser.add_argument(
        "--html",
        type=Path,
        help="write an HTML report: the statistics with charts, then each ruled game drawn",
    )


def _check_arguments(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments, or None."""
    if len(args.engine) < 2:
        return "give --engine at least twice"
    if args.games < 1 or args.concurrency < 1:
        return "--games and --concurrency must be at least 1"
    if args.rounds is not None and args.rounds < 1:
        return "--rounds must be at least 1"
    if args.rounds is not None and args.games not in (1, 2):
        return "--games must be 1 or 2 with --rounds"
    if args.games > 2 and len(args.engine) > 2:
        return "--games must be 1 or 2 with more than two engines (give --rounds)"
    if args.ratinginterval < 0:
        return "--ratinginterval must be at least 0"
    if args.sprt is not None and len(args.engine) != 2:
        return "--sprt needs exactly two engines"
    if args.resume and args.pgn is None:
        return "--resume needs the --pgn file of the match to go on with"
    if args.move_limit < 0:
        return "--move-limit must be at least 0"
    if args.max_plies < 1:
        return "--max-plies must be at least 1"
    for option in ("movetime", "depth", "nodes"):
        value = getattr(args, option)
        if value is not None and value < 1:
            return f"--{option} must be at least 1, got {value}"
    if args.timeout is not None and not args.timeout > 0:
        return f"--timeout must be more than 0 seconds, got {args.timeout:g}"
    if not args.handshake_timeout > 0:
        return f"--handshake-timeout must be more than 0 seconds, got {args.handshake_timeout:g}"
    # Every output file is checked before the first game, not found unwritable after the last.
    for option, path in (("--pgn", args.pgn), ("--results", args.results), ("--html", args.html)):
        if path is None:
            continue
        folder = path.parent
        if path.is_dir():
            return f"{option} {path}: is a folder"
        if not folder.is_dir():
            return f"{option} {path}: no folder {str(folder)!r}"
        target = path if path.exists() else folder
        if not os.access(target, os.W_OK):
            return f"{option} {path}: {'file' if path.exists() else 'folder'} is not writable"
    return None


class _Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is."""

    signum = signal.SIGTERM


def _on_sigterm(signum: int, frame: object) -> None:
    raise _Terminated()


def _configure(args: argparse.Namespace) -> tuple[MatchConfig, list[str]]:
    """The match the arguments ask for, and notes for the user; raises ValueError (or
    OSError, with ``args._option`` naming the option at fault)."""
    notes = []
    args._option = "--engine"
    each = list(args.each) + ([f"tc={args.tc}"] if args.tc else [])
    configs = engine_configs(args.engine, each)
    games_per_encounter = 2 if args.repeat else args.games
    if args.rounds is None and games_per_encounter > 2:
        # The older --games N: N games of a two-engine match, each opening twice.
        games = schedule(2, rounds=math.ceil(args.games / 2), games=2, limit=args.games)
        games_per_encounter = 2
    else:
        games = schedule(len(configs), args.tournament, args.rounds or 1, games_per_encounter)
    args._option = "--openings"
    book = OpeningBook()
    if args.openings:
        spec = OpeningsSpec.parse(args.openings)
        seed = args.seed
        if spec.order == "random" and seed is None:
            seed = int.from_bytes(os.urandom(4), "big") >> 1
            notes.append(f"openings shuffled with --seed {seed} (give it to --resume this match)")
        book = spec.book(seed)
    args._option = "--sprt"
    sprt = Sprt.parse(args.sprt) if args.sprt else None
    args._option = "--draw"
    draw = DrawRule.parse(args.draw) if args.draw else None
    args._option = "--resign"
    resign = ResignRule.parse(args.resign) if args.resign else None
    args._option = "--log"
    if args.log is not None:
        args.log.mkdir(parents=True, exist_ok=True)
    limit = SearchLimit(args.movetime, args.depth, args.nodes)
    if args.timeout is not None:
        limit.grace = limit.search_timeout = args.timeout
    if limit.movetime is None and limit.depth is None and limit.nodes is None:
        limit.movetime = 100
    config = MatchConfig(
        [c.spec() for c in configs],
        len(games),
        args.concurrency,
        book.openings,
        limit,
        args.move_limit,
        args.max_plies,
        args.pgn,
        args.event,
        args.rules,
        args.forbidden_run,
        args.handshake_timeout,
        args.log,
        args.pgn_comments,
        players=[Player.of(c) for c in configs],
        schedule=games,
        book=book,
        games_per_encounter=games_per_encounter,
        sprt=sprt,
        rating_interval=args.ratinginterval,
        draw=draw,
        resign=resign,
        resume=args.resume,
        results=args.results,
    )
    return config, notes


def _finite(value: float) -> float | None:
    """A float for JSON (which has no infinity): None when infinite."""
    return round(value, 4) if math.isfinite(value) else None


def results_document(match: Match, result: MatchResult) -> dict[str, Any]:
    """What ``--results`` writes: the engines, the games and the statistics."""
    config = match.config
    statistics = []
    for a, b in match.pairings():
        games = match.tally.trinomial(a, b)
        pairs = match.tally.pentanomial(a, b)
        from_pairs = config.games_per_encounter == 2 and pairs.pairs > 0
        estimate = elo_estimate(pairs if from_pairs else games)
        statistics.append(
            {
                "engines": [match.names[a], match.names[b]],
                "games": games.games,
                "wins": games.wins,
                "draws": games.draws,
                "losses": games.losses,
                "points": games.points,
                "score": _finite(games.score),
                "pentanomial": list(pairs.counts()) if config.games_per_encounter == 2 else None,
                "elo": _finite(estimate.elo),
                "elo_error": _finite(estimate.error),
                "nelo": _finite(estimate.nelo),
                "nelo_error": _finite(estimate.nelo_error),
                "los": _finite(estimate.los),
                # What the Elo, nElo and LOS count: the complete pairs, or the games.
                "elo_from": "pairs" if from_pairs else "games",
                "elo_samples": estimate.samples,
            }
        )
    endings = match.endings()
    sprt = None
    if config.sprt is not None:
        state = result.decision or config.sprt.state(match._sprt_sample())
        sprt = {
            "elo0": config.sprt.elo0,
            "elo1": config.sprt.elo1,
            "alpha": config.sprt.alpha,
            "beta": config.sprt.beta,
            "model": config.sprt.model,
            "llr": _finite(state.llr),
            "lower": _finite(state.lower),
            "upper": _finite(state.upper),
            "accepted": state.accepted,
        }
    return {
        "engines": [
            {
                "name": name,
                "command": spec.command,
                "protocol": spec.protocol,
                "tc": None if player.time_control is None else player.time_control.text(),
                "depth": player.depth,
                "nodes": player.nodes,
            }
            for name, spec, player in zip(match.names, config.engines, match.players, strict=True)
        ],
        "games_per_encounter": config.games_per_encounter,
        "scheduled": len(match.schedule),
        "played": match.tally.played,
        "resumed": result.resumed,
        "stopped": result.stopped or None,
        "games": sorted(match.game_log, key=lambda game: int(game["number"])),
        "statistics": statistics,
        "sprt": sprt,
        "standings": [
            {
                "rank": place.rank,
                "engine": place.engine,
                "games": place.games.games,
                "points": place.games.points,
                "draws": place.games.draws,
                "elo": _finite(place.estimate.elo),
                "elo_error": _finite(place.estimate.error),
            }
            for place in match.standings()
        ],
        "terminations": {
            ending.engine: {
                "wins": dict(ending.wins),
                "losses": dict(ending.losses),
                "draws": dict(ending.draws),
                "forfeits_lost": ending.forfeits_lost,
                "forfeits_won": ending.forfeits_won,
            }
            for ending in endings
        },
        "warnings": forfeit_warnings(endings),
    }


def _write_results(path: Path, document: dict[str, Any]) -> None:
    """Write the JSON next to ``path`` and rename it there: never half a file."""
    temporary = path.with_name(path.name + ".part")
    temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def main(args: argparse.Namespace) -> int:
    problem = _check_arguments(args)
    if problem:
        print(f"xqadj match: {problem}", file=sys.stderr)
        return 2
    try:
        config, notes = _configure(args)
    except ValueError as error:
        print(f"xqadj match: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"xqadj match: {args._option} {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"xqadj match: {note}", flush=True)
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        match = Match(config)
        result = match.run()
    except MatchError as error:
        print(f"xqadj match: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # the PGN file could not be opened after all
        print(f"xqadj match: {error}", file=sys.stderr)
        return 1
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    played = match.tally.played
    summary = f"final: {match.score_line().removeprefix('score ')} over {played} games"
    if result.resumed:
        summary += f" ({result.resumed} of them from {config.pgn})"
    if result.decision is not None:
        summary += f" (SPRT: {result.decision.accepted} accepted)"
    elif result.stopped:
        summary += f" ({result.stopped}: {result.planned - played} not played)"
    if config.results is not None:
        try:
            _write_results(config.results, results_document(match, result))
        except OSError as error:
            print(f"xqadj match: --results {config.results}: {error.strerror}", file=sys.stderr)
    try:
        for line in match.statistics(final=True):
            print(line, flush=True)
        print(summary, flush=True)
    except BrokenPipeError:
        result.stopped = "output closed"
    if args.html:
        from xqadj.integrations.report import write_match_report

        try:
            section = statistics_section(match.view())
            write_match_report(args.html, result.records, [summary], section=section)
        except OSError as error:
            print(f"xqadj match: cannot write the report: {error}", file=sys.stderr)
            return 2
    if result.stopped == "output closed":
        # Nothing more can go to stdout; keep the interpreter from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        print(
            f"xqadj match: output closed; stopped after {played} games ({summary})",
            file=sys.stderr,
        )
        return 141
    if result.stopped == "interrupted":
        print(
            f"xqadj match: interrupted; {played} finished games kept",
            file=sys.stderr,
        )
        return 128 + int(result.signal)
    return 0
