"""Playing one game of a match, and what a runner that plays many is.

:func:`play_game` plays one game between two engines kept alive across games
(:class:`EngineSlot`), refereed by xqadj ply by ply, and returns its :class:`.GameRecord`.
:class:`GameJob` is one scheduled game with everything needed to play it (the opening, how
each side searches, the rules, the limits); it pickles, so that a game can be played in
another process or on another machine, and :func:`play_job` plays it on a set of engines.
:class:`Runner` is what plays the jobs of a match (:mod:`.local`: a thread pool here), handing
each finished record back in any order; the match's director (:mod:`.director`) tallies and
writes them.

Layer: integrations.  Inside :mod:`xqadj.integrations.match` it imports only :mod:`.record` and
:mod:`.options`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from xqadj.board import BLACK, PAWN, RED, Move, XqadjError
from xqadj.integrations.adjudication import Adjudicator, DrawRule, ResignRule, parse_info
from xqadj.integrations.engine import (
    Engine,
    EngineError,
    EngineSpec,
    PositionText,
    SearchLimit,
)
from xqadj.integrations.match.options import MatchConfig, Player
from xqadj.integrations.match.record import GameRecord
from xqadj.integrations.openings import Opening, OpeningBook
from xqadj.integrations.timecontrol import Clock, move_comment, ucci_go, uci_go
from xqadj.integrations.tournament import ScheduledGame
from xqadj.referee import Game

__all__ = [
    "SWITCH_INTERVAL",
    "EngineSlot",
    "Finished",
    "GameJob",
    "Runner",
    "game_jobs",
    "play_game",
    "play_job",
    "short_switch_interval",
]


#: Seconds a search on a clock may go past the flag before the wait for ``bestmove`` ends:
#: the move is judged by its stamp (:attr:`.Engine.last_search_ms`), so a reply read just in
#: time but handled late by a busy game thread is no loss on time.
READ_SLACK = 0.25


class EngineSlot:
    """One engine kept alive across games, restarted after a failure.

    ``stop`` (set at Ctrl-C) makes :meth:`get` refuse to start an engine, so that no engine is
    started while the match is being stopped.  An engine that has run before and then fails
    to start twice in a row cannot be restarted: :attr:`lost` says why, and :meth:`get` raises
    an :class:`.EngineError` of kind ``unstartable`` from then on (the game is not played, see
    :attr:`.GameRecord.lost_engine`).
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
        #: Why the engine cannot be restarted, or "".
        self.lost = ""
        self._started = False
        self._log_error = ""
        self._lock = threading.Lock()

    def get(self) -> Engine:
        with self._lock:
            if self.stop.is_set():
                raise EngineError("stopped", "the match is being stopped")
            if self.lost:
                raise EngineError("unstartable", self.lost)
            if self.engine is None or not self.engine.alive:
                if self.engine is not None:
                    self._forget(self.engine)
                    self.engine.kill()  # what is left of its process group
                self.engine = None
                self.engine = self._start()
            return self.engine

    def _start(self) -> Engine:
        tries = 2 if self._started else 1
        for attempt in range(tries):
            try:
                engine = Engine(self.spec, self.start_timeout, self.log_dir)
            except EngineError as error:
                if error.kind == "stopped" or self.stop.is_set():
                    raise
                if attempt + 1 == tries and self._started:
                    # It ran before and fails again on a retry: each further game would be a
                    # forfeit at 0 plies, counted as a result; the match must hear of it.
                    self.lost = f"{self.spec.name} cannot be restarted: {error}"
                    raise EngineError("unstartable", self.lost) from None
                if attempt + 1 == tries:
                    raise
            else:
                self._started = True
                return engine
        raise AssertionError("unreachable")  # pragma: no cover

    def _forget(self, engine: Engine) -> None:
        self._log_error = self._log_error or engine.log_error

    def log_error(self) -> str:
        """The first ``--log`` write error of this slot's engines (``"FILE: reason"``), or
        ""."""
        engine = self.engine
        return self._log_error or (engine.log_error if engine is not None else "")

    def reset(self) -> None:
        """Kill the engine (it is restarted by the next :meth:`get`)."""
        engine, self.engine = self.engine, None
        if engine is not None:
            self._forget(engine)
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
        # UCCI's go takes a time, a depth or a node count, not two of them: an engine's own
        # depth=/nodes= with a clock is refused before the match (options.configure).
        go = ucci_go(clock, clocks[1 - side], engine.time_unit == "ms")
    else:
        go = uci_go(clocks[RED], clocks[BLACK], side == RED)
        if player.depth is not None:
            go += f" depth {player.depth}"
        if player.nodes is not None:
            go += f" nodes {player.nodes}"
    return limit, go, clock.allowed_ms() / 1000 + READ_SLACK


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
    engines' scores, after a move that drew no ruling from xqadj.

    Two outcomes are not results: an engine that cannot be restarted gives a record with
    result ``*`` and :attr:`.GameRecord.lost_engine` set (the game was not played), and a
    ``--log`` file that could not be written is named in :attr:`.GameRecord.write_error`
    (the game itself is sound; the match stops after it)."""
    record = _play(
        number,
        opening,
        red,
        black,
        limit,
        move_limit,
        max_plies,
        rules,
        forbidden_run,
        stop,
        players,
        adjudicator,
        match_game,
    )
    if record is not None:
        record.write_error = red.log_error() or black.log_error()
    return record


def _play(
    number: int,
    opening: Opening,
    red: EngineSlot,
    black: EngineSlot,
    limit: SearchLimit,
    move_limit: int,
    max_plies: int,
    rules: str,
    forbidden_run: bool,
    stop: threading.Event | None,
    players: tuple[Player, Player] | None,
    adjudicator: Adjudicator | None,
    match_game: int | None,
) -> GameRecord | None:
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
    # The position command's text in each notation an engine reads, one move appended at a
    # time; made on first use, since a UCI engine's notation=auto is settled by the engine
    # (its name at the handshake, or its first move).
    positions: dict[str, PositionText] = {}
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
            if error.kind == "unstartable":
                return _unplayed(record, slot.spec.name, str(error))
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
                position=_position_text(positions, engine.notation, opening.fen, game).text,
            )
        except EngineError as error:
            if stopped(error):
                return None
            if error.kind == "unstartable":
                return _unplayed(record, slot.spec.name, str(error))
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
        if not game.moves and engine.detects_notation:
            _settle_notation(slot, engine, game, reply)
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
            hint = ""
            if engine.detects_notation:
                hint = (
                    f" (read as {engine.notation}, ranks {_RANKS[engine.notation]}: give the "
                    "engine notation=iccs or notation=fairy)"
                )
            slot.reset()  # who knows what position it believes it is in: a fresh start
            return _forfeit(
                record,
                game,
                side,
                "illegal-move",
                f"{slot.spec.name} played {reply}, illegal in {game.board.fen()}{hint}",
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


_RANKS = {"iccs": "0-9", "fairy": "1-10"}


def _position_text(
    positions: dict[str, PositionText], notation: str, fen: str, game: Game
) -> PositionText:
    """The game's position text in ``notation``, made from the moves so far the first time."""
    if notation not in positions:
        positions[notation] = PositionText(fen, notation).extend(game.moves)
    return positions[notation]


def _settle_notation(slot: EngineSlot, engine: Engine, game: Game, reply: str) -> None:
    """Settle a UCI engine's ``notation=auto`` from its first move, as ``xqadj proxy`` does:
    a move that is legal only with the other ranks (0-9 or 1-10) says which the engine uses.
    Only a reply to a position sent without moves is taken: after moves in the wrong
    notation, the engine's board is not ours."""
    legal = game.board.legal_moves()
    readings = {}
    for notation, parse in (("iccs", Move.from_iccs), ("fairy", Move.from_fairy)):
        try:
            readings[notation] = parse(reply) in legal
        except XqadjError:
            readings[notation] = False
    other = "fairy" if engine.notation == "iccs" else "iccs"
    if readings[other] and not readings[engine.notation]:
        engine.notation = other
        engine.notation_source = "its moves"
        # Kept for the engine's restarts: the slot's own copy of the spec.
        slot.spec = replace(slot.spec, notation=other)
        if engine.log is not None:
            engine.log.write("#", f"notation {other} (ranks {_RANKS[other]}), from its moves")


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


def _unplayed(record: GameRecord, name: str, reason: str) -> GameRecord:
    record.result, record.termination = "*", "not played"
    record.lost_engine = name
    record.comment = reason
    return record


def _forfeit(record: GameRecord, game: Game, loser: int, kind: str, detail: str) -> GameRecord:
    record.moves = list(game.moves)
    record.result = "0-1" if loser == RED else "1-0"
    record.termination = f"forfeit ({kind})"
    record.comment = f"Forfeit: {detail}"
    return record


@dataclass(frozen=True)
class GameJob:
    """One scheduled game and all it takes to play it, engines aside; it pickles."""

    #: The game in the match's schedule (its ``number`` is the ``[MatchGame]`` tag).
    scheduled: ScheduledGame
    #: The game's ``[Round]`` tag: its number after the games the PGN file held before.
    number: int
    opening: Opening
    #: How red and black search.
    players: tuple[Player, Player]
    limit: SearchLimit
    move_limit: int
    max_plies: int
    rules: str
    forbidden_run: bool
    draw: DrawRule | None = None
    resign: ResignRule | None = None
    #: The match's tags for the game's PGN (:func:`match_tags`, and its ``MatchOpening``:
    #: :func:`opening_hash`).
    tags: tuple[tuple[str, str], ...] = ()


def opening_hash(opening: Opening) -> str:
    """A hash of an opening (its position and moves): short enough for a PGN tag line."""
    return hashlib.sha256(opening.text().encode("utf-8")).hexdigest()[:16]


def book_hash(book: OpeningBook) -> str:
    """A hash of the book's content, whatever its order (the order is the seed's)."""
    texts = sorted(opening.text() for opening in book.openings)
    return hashlib.sha256("\n".join(texts).encode("utf-8")).hexdigest()[:16]


def match_tags(config: MatchConfig, book: OpeningBook) -> tuple[tuple[str, str], ...]:
    """The tags every game of the match carries, for ``--resume`` to check: ``MatchId`` (a
    hash of what decides the games: the engines' names, commands, protocols and options, how
    each searches, the limits, the rules, the adjudication, the pairing and the book in its
    order), ``MatchBook`` (the book's content) and ``MatchSeed`` (with a shuffled book).
    Concurrency, file names, time-outs and the SPRT are left out: they change no game."""
    engines = [
        [
            spec.name,
            spec.command,
            spec.protocol,
            spec.notation,
            sorted(spec.options.items()),
            str(spec.directory or ""),
            spec.time_unit,
        ]
        for spec in config.engines
    ]
    limit = config.limit
    what = {
        "engines": engines,
        "players": [repr(player) for player in config.players],
        "limit": [limit.movetime, limit.depth, limit.nodes],
        "move_limit": config.move_limit,
        "max_plies": config.max_plies,
        "rules": [config.rules, config.forbidden_run],
        "adjudication": [repr(config.draw), repr(config.resign)],
        "games_per_encounter": config.games_per_encounter,
        "book": [[opening.text() for opening in book.openings], book.start],
    }
    digest = hashlib.sha256(json.dumps(what, sort_keys=True).encode("utf-8")).hexdigest()
    tags = [("MatchId", digest[:16]), ("MatchBook", book_hash(book))]
    if config.seed is not None:
        tags.append(("MatchSeed", str(config.seed)))
    return tuple(tags)


def game_jobs(
    config: MatchConfig,
    games: Sequence[ScheduledGame],
    book: OpeningBook,
    players: Sequence[Player],
    round_offset: int,
) -> list[GameJob]:
    """The jobs of ``games``: each with its opening from ``book`` and its engines'
    ``players``, numbered from ``round_offset``."""
    tags = match_tags(config, book)
    return [
        GameJob(
            game,
            round_offset + game.number,
            book.opening(game.opening),
            (players[game.red], players[game.black]),
            config.limit,
            config.move_limit,
            config.max_plies,
            config.rules,
            config.forbidden_run,
            config.draw,
            config.resign,
            (*tags, ("MatchOpening", opening_hash(book.opening(game.opening)))),
        )
        for game in games
    ]


def play_job(
    job: GameJob, engines: Sequence[EngineSlot], stop: threading.Event | None = None
) -> GameRecord | None:
    """Play ``job`` on ``engines`` (one slot per engine of the match, in the match's order),
    as :func:`play_game` does; None when ``stop`` cut it short."""
    adjudicator = None
    if job.draw is not None or job.resign is not None:
        # Its counts are this game's own: a new one for every game.
        adjudicator = Adjudicator(job.draw, job.resign)
    record = play_game(
        job.number,
        job.opening,
        engines[job.scheduled.red],
        engines[job.scheduled.black],
        job.limit,
        job.move_limit,
        job.max_plies,
        job.rules,
        job.forbidden_run,
        stop,
        players=job.players,
        adjudicator=adjudicator,
        match_game=job.scheduled.number,
    )
    if record is not None:
        record.match_tags = job.tags
    return record


#: The interpreter's thread switch interval while games are played (Python's default is 5 ms).
#: On Linux the clock charges the kernel's stamp of an engine's ``bestmove``, whenever it is
#: read; elsewhere (an engine's stdout on a pipe, :mod:`xqadj.integrations.engineio`) the line
#: is stamped when a game's thread reads it, which needs the GIL: with several games' threads
#: running it could wait a switch interval or more, charging an engine for xqadj's own latency
#: (``bench/clock_share.py``, 4 games at once on a loaded machine, when a reader thread stamped
#: the lines: 9 false losses on time in 3,595 moves, worst overcharge 32 ms, against 1 in 3,925
#: and 8 ms at 0.5 ms).
SWITCH_INTERVAL = 0.0005

_switch_lock = threading.Lock()
#: How many callers are inside :func:`short_switch_interval`, and the interval before the first.
_switch_users = 0
_switch_before = 0.0


@contextlib.contextmanager
def short_switch_interval() -> Iterator[None]:
    """Play with the switch interval at :data:`SWITCH_INTERVAL` (never raised), restored when
    the last caller inside leaves: a Dask worker plays several pairs at once on its threads,
    and the pair that ends first must not restore it under the others' games.

    >>> before = sys.getswitchinterval()
    >>> with short_switch_interval():
    ...     sys.getswitchinterval() == min(before, SWITCH_INTERVAL)
    True
    >>> sys.getswitchinterval() == before
    True
    """
    global _switch_users, _switch_before
    with _switch_lock:
        if _switch_users == 0:
            _switch_before = sys.getswitchinterval()
            sys.setswitchinterval(min(_switch_before, SWITCH_INTERVAL))
        _switch_users += 1
    try:
        yield
    finally:
        with _switch_lock:
            _switch_users -= 1
            if _switch_users == 0:
                sys.setswitchinterval(_switch_before)


#: What a runner calls with each finished game: its job and its record.
Finished = Callable[[GameJob, GameRecord], None]


class Runner(Protocol):
    """What plays a match's games: given the jobs, it plays them (each with :func:`play_job`)
    and hands every finished record to ``finished`` as it comes, in any order; a game cut
    short by :meth:`stop` is not handed on.  The director calls ``finished`` only to tally
    and write; it may call :meth:`stop` from inside it (the SPRT decided, a file could not be
    written, an engine is lost), and then says why itself: :attr:`stopped` stays "".  A record
    must come back with its ``lost_engine`` and ``write_error`` (they pickle)."""

    #: "" while all goes well, "interrupted" (Ctrl-C, SIGTERM) or "output closed" (EPIPE).
    stopped: str
    #: The signal that stopped the match, if one did.
    signal: int

    def start(self, games: int) -> None:
        """Start the engines for ``games`` games; raises :class:`.MatchError` if one does not
        start."""

    def play(self, jobs: Sequence[GameJob], finished: Finished) -> None:
        """Play ``jobs``; returns when all are played or the match is stopped."""

    def stop(self) -> None:
        """Start no more games and end those in progress unscored (from any thread)."""

    def interrupted(self, interrupt: KeyboardInterrupt) -> None:
        """Note a Ctrl-C or SIGTERM that reached the director outside :meth:`play`."""

    def close(self) -> None:
        """Quit the engines (kill them if the match was stopped) and undo what
        :meth:`start` and :meth:`play` changed in the process."""
