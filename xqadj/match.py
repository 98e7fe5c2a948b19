"""``xqadj match``: play games between two engines, refereed by xqadj.

Each game starts from the start position or an opening (one ``fen <FEN> [moves …]`` or
``startpos [moves …]`` a line), colours alternate, and xqadj follows every ply: the game ends at
its ruling (perpetual check, perpetual chase, repetition draw), at checkmate or stalemate, or at
the move limit.  An engine that crashes, hangs, plays an illegal move or has no move loses that
game by forfeit and is restarted; the match goes on.  Results are appended to a PGN file (the
xqbase PGN form: ``[Game "Chinese Chess"]`` first) with ``[Result]``, ``[Termination]`` and the
ruling's explanation as a comment.

Both engines (one pair per concurrent game) are started before the first game, so an engine
that cannot start is an error before the match.  Ctrl-C (or SIGTERM) stops the match: queued
games are not started, games in progress are dropped unscored, every engine is killed, and the
finished games stay in the PGN; the summary line is printed and the exit status is 130 (143 for
SIGTERM).
"""

from __future__ import annotations

import argparse
import datetime
import os
import queue
import re
import signal
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from xqadj.board import BLACK, RED, STARTING_FEN, Board, Move, XqadjError
from xqadj.cli import add_rules_arguments
from xqadj.engine import Engine, EngineError, EngineSpec, SearchLimit
from xqadj.referee import Game, Ruling

#: The longest PGN line written (the PGN standard's export format says 79 characters).
PGN_LINE = 79


@dataclass(frozen=True)
class Opening:
    fen: str = STARTING_FEN
    moves: tuple[str, ...] = ()

    @classmethod
    def parse(cls, line: str) -> Opening:
        """``startpos [moves …]`` or ``fen <FEN> [moves …]`` (ICCS moves), checked for legality."""
        tokens = line.split()
        head, moves = tokens, []
        if "moves" in tokens:
            split = tokens.index("moves")
            head, moves = tokens[:split], tokens[split + 1 :]
        if head == ["startpos"]:
            fen = STARTING_FEN
        elif head[:1] == ["fen"] and len(head) > 1:
            fen = Board(" ".join(head[1:])).fen()
        else:
            raise ValueError(f"expected 'startpos' or 'fen <FEN>', got {line.strip()!r}")
        board = Board(fen)
        for text in moves:
            board.push_iccs(text)
        return cls(fen, tuple(moves))


def read_openings(path: Path) -> list[Opening]:
    openings = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            openings.append(Opening.parse(line))
        except (ValueError, XqadjError) as error:
            raise ValueError(f"{path}:{number}: {error}") from None
    if not openings:
        raise ValueError(f"{path}: no openings")
    return openings


def _tag_value(value: str) -> str:
    """A PGN tag value: one line, with backslash and double quote escaped (PGN 8.1.1)."""
    value = " ".join(value.split())
    return value.replace("\\", "\\\\").replace('"', '\\"')


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
            if turn == BLACK:
                number += 1
            turn ^= 1
        if comments and self.comment:
            words = _comment_words(self.comment)
            if words:
                words[0] = "{" + words[0]
                words[-1] += "}"
                tokens.extend(words)
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
) -> GameRecord | None:
    """Play one game; never raises for an engine failure (the engine forfeits and is
    restarted).  Returns None when ``stop`` is set during the game: a game cut short by
    Ctrl-C is not scored, and an engine killed by it has not crashed."""
    record = GameRecord(
        number,
        red.spec.name,
        black.spec.name,
        opening,
        rules=rules,
        move_limit=move_limit,
        forbidden_run=forbidden_run,
    )
    game = Game(opening.fen, rules=rules, move_limit=move_limit, forbidden_run=forbidden_run)
    for text in opening.moves:
        game.push_iccs(text)
    slots = {RED: red, BLACK: black}

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
        try:
            engine = slot.get()
            banned = game.banned_moves() if engine.spec.protocol == "ucci" else None
            reply = engine.best_move(
                opening.fen, list(game.moves), limit, banned, slot.start_timeout
            )
        except EngineError as error:
            if stopped(error):
                return None
            slot.reset()
            return _forfeit(record, game, side, error.kind, str(error))
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
    ruling = game.ruling
    record.moves = list(game.moves)
    record.result, record.termination = ruling.result, ruling.reason.value
    record.ruling = ruling
    record.comment = ruling.explain()
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
    engines: tuple[EngineSpec, EngineSpec]
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

    def scores(self, name: str) -> float:
        return sum(r.score_for(name) for r in self.records)


class Match:
    """A match between two engines: :meth:`run` plays it.  :meth:`stop` (any thread) stops it
    as Ctrl-C does.  Games are played by ``concurrency`` workers, each with its own pair of
    engines, all started before the first game."""

    def __init__(self, config: MatchConfig, out: TextIO = sys.stdout) -> None:
        self.config = config
        self.out = out
        first, second = config.engines
        if first.name == second.name:
            second.name += " (2)"
        self.names = (first.name, second.name)
        self.stop_event = threading.Event()
        self._lock = threading.Lock()
        self._slots: list[EngineSlot] = []
        self._scores = {first.name: 0.0, second.name: 0.0}
        self._done = 0
        self._pgn: TextIO | None = None
        self._first_round = 1
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

    def _start_engines(self, pairs: int) -> Iterator[tuple[EngineSlot, EngineSlot]]:
        config = self.config
        for _ in range(pairs):
            pair = tuple(
                EngineSlot(spec, config.handshake_timeout, config.log_dir, self.stop_event)
                for spec in config.engines
            )
            self._slots.extend(pair)
            for slot in pair:
                try:
                    slot.get()
                except EngineError as error:
                    raise MatchError(f"engine {slot.spec.name!r} did not start: {error}") from None
            yield pair[0], pair[1]

    def run(self) -> MatchResult:
        config = self.config
        records: list[GameRecord | None] = [None] * config.games
        result = MatchResult([], "", config.games)
        try:
            if config.pgn is not None:
                self._first_round = count_pgn_games(config.pgn) + 1
            free: queue.Queue[tuple[EngineSlot, EngineSlot]] = queue.Queue()
            for pair in self._start_engines(min(config.concurrency, config.games)):
                free.put(pair)
            if config.pgn is not None:
                # Appended to, never truncated: an earlier match's games stay.
                self._pgn = config.pgn.open("a", encoding="utf-8")
                self._pgn.write(_pgn_separator(config.pgn))
            pool = ThreadPoolExecutor(max_workers=free.qsize(), thread_name_prefix="game")
            futures: list[Future[None]] = []
            try:
                for index in range(config.games):
                    futures.append(pool.submit(self._play, index, free, records))
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
        return result

    def _play(
        self,
        index: int,
        free: queue.Queue[tuple[EngineSlot, EngineSlot]],
        records: list[GameRecord | None],
    ) -> None:
        if self.stop_event.is_set():
            return
        config = self.config
        pair = free.get()
        try:
            a, b = pair
            # Colours alternate; each opening is played twice in a row, once with each colour.
            red, black = (a, b) if index % 2 == 0 else (b, a)
            opening = config.openings[(index // 2) % len(config.openings)]
            record = play_game(
                self._first_round + index,
                opening,
                red,
                black,
                config.limit,
                config.move_limit,
                config.max_plies,
                config.rules,
                config.forbidden_run,
                self.stop_event,
            )
        finally:
            free.put(pair)
        if record is None:  # cut short by stop(): not scored
            return
        with self._lock:
            records[index] = record
            if self._pgn is not None:
                self._pgn.write(record.pgn(config.event, config.pgn_comments) + "\n")
                self._pgn.flush()
            first, second = self.names
            self._scores[first] += record.score_for(first)
            self._scores[second] += record.score_for(second)
            self._done += 1
            print(
                f"game {index + 1}/{config.games}: {record.red} vs {record.black}: "
                f"{record.result} {record.termination} ({len(record.moves)} plies) | "
                f"score {first} {self._scores[first]:g} - {self._scores[second]:g} "
                f"{second} ({self._done}/{config.games} played)",
                file=self.out,
                flush=True,
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
        help="an engine, given twice: cmd=<command line> [proto=uci|ucci] "
        "[notation=iccs|fairy] [name=<name>] [timeunit=ms|s] [option.<Name>=<value> ...]",
    )
    parser.add_argument("--games", type=int, default=2, help="games to play (default 2)")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    parser.add_argument(
        "--openings",
        type=Path,
        help="file of openings, one a line: "
        "'startpos [moves ...]' or 'fen <FEN> [moves ...]' (ICCS)",
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
        "per move with --depth/--nodes (default 60)",
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
        help="append the games to this PGN file (an existing file is kept; rounds go on "
        "counting)",
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


def _check_arguments(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments, or None."""
    if len(args.engine) != 2:
        return "give --engine exactly twice"
    if args.games < 1 or args.concurrency < 1:
        return "--games and --concurrency must be at least 1"
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
    if args.pgn is not None:
        pgn: Path = args.pgn
        folder = pgn.parent
        if pgn.is_dir():
            return f"--pgn {pgn}: is a folder"
        if not folder.is_dir():
            return f"--pgn {pgn}: no folder {str(folder)!r}"
        target = pgn if pgn.exists() else folder
        if not os.access(target, os.W_OK):
            return f"--pgn {pgn}: {'file' if pgn.exists() else 'folder'} is not writable"
    return None


class _Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is."""

    signum = signal.SIGTERM


def _on_sigterm(signum: int, frame: object) -> None:
    raise _Terminated()


def main(args: argparse.Namespace) -> int:
    problem = _check_arguments(args)
    if problem:
        print(f"xqadj match: {problem}", file=sys.stderr)
        return 2
    option = "--engine"
    try:
        engines = (EngineSpec.parse(args.engine[0]), EngineSpec.parse(args.engine[1]))
        option = "--openings"
        openings = read_openings(args.openings) if args.openings else [Opening()]
        option = "--log"
        if args.log is not None:
            args.log.mkdir(parents=True, exist_ok=True)
    except ValueError as error:
        print(f"xqadj match: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"xqadj match: {option} {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    limit = SearchLimit(args.movetime, args.depth, args.nodes)
    if args.timeout is not None:
        limit.grace = limit.search_timeout = args.timeout
    if limit.movetime is None and limit.depth is None and limit.nodes is None:
        limit.movetime = 100
    config = MatchConfig(
        engines,
        args.games,
        args.concurrency,
        openings,
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
    )
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
    first, second = match.names
    summary = (
        f"final: {first} {result.scores(first):g} - {result.scores(second):g} {second} "
        f"over {len(result.records)} games"
    )
    if result.stopped:
        summary += f" ({result.stopped}: {result.planned - len(result.records)} not played)"
    try:
        print(summary, flush=True)
    except BrokenPipeError:
        result.stopped = "output closed"
    if result.stopped == "output closed":
        # Nothing more can go to stdout; keep the interpreter from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        print(
            f"xqadj match: output closed; stopped after {len(result.records)} games "
            f"({summary})",
            file=sys.stderr,
        )
        return 141
    if result.stopped == "interrupted":
        print(
            f"xqadj match: interrupted; {len(result.records)} finished games kept",
            file=sys.stderr,
        )
        return 128 + int(result.signal)
    return 0
