"""The xqadj line protocol: a long-running adjudicator driven over stdin/stdout.

The specification is ``protocol/PROTOCOL.md``.  :class:`Session` holds the state and turns one
command line into output lines, with no I/O of its own, so it can be tested and embedded
(``xqadj proxy`` uses it); :func:`serve` is the loop around it.

>>> session = Session()
>>> session.handle("position fen 4k4/9/9/9/9/9/9/9/9/3K5 w moves d0d1")
[]
>>> session.handle("status")
['status ply 1 occurrences 1 result * reason none fen 4k4/9/9/9/9/9/9/9/3K5/9 b']
>>> session.handle("move e9e8 d1e1")
['error illegal-move d1e1 index 1 not legal in 9/4k4/9/9/9/9/9/9/3K5/9 w']
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import BinaryIO, TextIO

from xqadj import __version__
from xqadj.board import STARTING_FEN, Board, IllegalMoveError, InvalidFenError, Move, XqadjError
from xqadj.referee import RULE_SETS, Game, Ruling

#: Longest accepted command line, in bytes; a longer one is refused and skipped.
MAX_LINE_BYTES = 1 << 20
#: Longest accepted move limit, in moves.
MAX_MOVE_LIMIT = 100_000

AUTHOR = "the xqadj developers"
NOTATIONS = ("iccs", "fairy")


class ProtocolError(Exception):
    """A refused command: ``code`` and details make the ``error`` line."""

    def __init__(self, code: str, details: str) -> None:
        super().__init__(f"{code} {details}")
        self.code = code
        self.details = details

    def line(self) -> str:
        return f"error {self.code} {self.details}".rstrip()


@dataclass
class Options:
    """The values of the protocol's options."""

    rules: str = "axf"
    notation: str = "iccs"
    move_limit: int = 0
    explain: bool = False
    forbidden_run: bool = False


_BOOLEANS = ("true", "false")


def _choice(name: str, value: str, choices: Sequence[str], expected: str = "") -> str:
    """The option's value among ``choices`` (case-insensitive), lower-cased; else the
    ``bad-value`` error, saying what was ``expected`` (by default, the choices)."""
    if value.lower() not in choices:
        expected = expected or f"one of {', '.join(choices)}"
        raise ProtocolError("bad-value", f"{name} {value or '(none)'}: expected {expected}")
    return value.lower()


def _game_settings(options: Options) -> tuple[str, int, bool]:
    """The options that change how a game is ruled (a change replays the game)."""
    return options.rules, options.move_limit, options.forbidden_run


def _new_game(fen: str, options: Options) -> Game:
    return Game(
        fen,
        rules=options.rules,
        move_limit=options.move_limit,
        forbidden_run=options.forbidden_run,
    )


def _single_line(text: str) -> str:
    return " ".join(text.split())


class Session:
    """The protocol's state: options and the game being followed."""

    def __init__(self) -> None:
        self.options = Options()
        self.game = Game()
        # The start position as given by the last `position` command (normalised FEN).
        self.start_fen = self.game.start_fen
        self._commands: dict[str, Callable[[list[str]], list[str]]] = {
            "uci": lambda args: self._handshake("uciok", ucci=False),
            "ucci": lambda args: self._handshake("ucciok", ucci=True),
            "isready": lambda args: ["readyok"],
            "setoption": self._setoption,
            "ucinewgame": self._ucinewgame,
            "position": self._position,
            "move": self._move,
            "undo": self._undo,
            "banmoves": self._banmoves,
            "status": self._status,
        }

    # -- dispatch --------------------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """Process one command line and return the output lines.

        A refused command returns one ``error`` line and leaves the state exactly as it was.
        ``quit`` is not handled here (see :func:`serve`).
        """
        tokens = line.split()
        if not tokens:
            return []
        name, args = tokens[0], tokens[1:]
        command = self._commands.get(name)
        try:
            if command is None:
                raise ProtocolError("unknown-command", _single_line(line)[:200])
            return command(args)
        except ProtocolError as error:
            return [error.line()]

    # -- commands --------------------------------------------------------------------------

    def _handshake(self, done: str, ucci: bool) -> list[str]:
        prefix = "option " if ucci else "option name "
        notations = " ".join(f"var {n}" for n in NOTATIONS)
        rules = " ".join(f"var {r}" for r in RULE_SETS)
        return [
            f"id name xqadj {__version__}",
            f"id author {AUTHOR}",
            f"{prefix}Rules type combo default {self.options.rules} {rules}",
            f"{prefix}Notation type combo default {self.options.notation} {notations}",
            f"{prefix}MoveLimit type spin default {self.options.move_limit} min 0 "
            f"max {MAX_MOVE_LIMIT}",
            f"{prefix}Explain type check default {str(self.options.explain).lower()}",
            f"{prefix}ForbiddenRun type check default "
            f"{str(self.options.forbidden_run).lower()}",
            done,
        ]

    def _setoption(self, args: list[str]) -> list[str]:
        if args and args[0] == "name":
            # UCI: setoption name <Name> [value <Value>]; names and values may contain spaces.
            rest = args[1:]
            if "value" in rest:
                split = rest.index("value")
                name, value = " ".join(rest[:split]), " ".join(rest[split + 1 :])
            else:
                name, value = " ".join(rest), ""
        elif len(args) >= 1:
            # UCCI: setoption <Name> [<Value>]
            name, value = args[0], " ".join(args[1:])
        else:
            raise ProtocolError("bad-option", "usage: setoption name <Name> value <Value>")
        key = name.lower()
        options = Options(**vars(self.options))
        if key == "rules":
            options.rules = _choice("Rules", value, RULE_SETS)
        elif key == "notation":
            options.notation = _choice("Notation", value, NOTATIONS)
        elif key == "movelimit":
            if not _is_count(value) or int(value) > MAX_MOVE_LIMIT:
                raise ProtocolError(
                    "bad-value",
                    f"MoveLimit {value or '(none)'}: expected a whole "
                    f"number from 0 to {MAX_MOVE_LIMIT}",
                )
            options.move_limit = int(value)
        elif key == "explain":
            options.explain = _choice("Explain", value, _BOOLEANS, "true or false") == "true"
        elif key == "forbiddenrun":
            run = _choice("ForbiddenRun", value, _BOOLEANS, "true or false")
            options.forbidden_run = run == "true"
        else:
            raise ProtocolError(
                "bad-option",
                f"unknown option {name!r}; options: Rules, Notation, MoveLimit, Explain, "
                "ForbiddenRun",
            )
        if _game_settings(options) != _game_settings(self.options):
            # The game is followed again under the new rules; its ruling may change.
            try:
                game = self._replay(
                    self.start_fen, [self._format(m) for m in self.game.moves], options
                )
            except ProtocolError as error:
                # The new value would have ended the game before its last move: refuse it
                # rather than drop the moves played since.
                raise ProtocolError(
                    "bad-value",
                    f"{name} {value}: the current game would have ended earlier "
                    f"({error.details}); send ucinewgame or a new position first",
                ) from None
            self.options = options
            self.game = game
            return []
        self.options = options
        return []

    def _ucinewgame(self, args: list[str]) -> list[str]:
        self.game = _new_game(STARTING_FEN, self.options)
        self.start_fen = self.game.start_fen
        return []

    def _position(self, args: list[str]) -> list[str]:
        if not args:
            raise ProtocolError("bad-position", "usage: position startpos | fen <FEN> [moves ...]")
        if "moves" in args:
            split = args.index("moves")
            head, moves = args[:split], args[split + 1 :]
        else:
            head, moves = args, []
        if not head:
            raise ProtocolError("bad-position", "expected startpos or fen before moves")
        if head[0] == "startpos":
            if len(head) != 1:
                raise ProtocolError(
                    "bad-position", f"unexpected {' '.join(head[1:])!r} after startpos"
                )
            start_fen = STARTING_FEN
        elif head[0] == "fen":
            if len(head) < 2:
                raise ProtocolError("bad-fen", "position fen needs a FEN")
            try:
                start_fen = Board(" ".join(head[1:])).fen()
            except InvalidFenError as error:
                raise ProtocolError("bad-fen", str(error)) from None
        else:
            raise ProtocolError("bad-position", f"expected startpos or fen, got {head[0]!r}")
        current = [self._format(m) for m in self.game.moves]
        if start_fen == self.start_fen and moves[: len(current)] == current:
            # The GUI's line extends the game already followed: process only the new moves.
            if len(moves) == len(current):
                return []
            return self._extend(moves[len(current) :], offset=len(current))
        game = self._replay(start_fen, moves, self.options)
        self.game, self.start_fen = game, start_fen
        return self._ruling_lines(game.ruling) if game.ruling else []

    def _move(self, args: list[str]) -> list[str]:
        if not args:
            raise ProtocolError("bad-argument", "usage: move <move> [<move> ...]")
        return self._extend(args, offset=0)

    def _undo(self, args: list[str]) -> list[str]:
        if len(args) > 1 or (args and not _is_count(args[0])):
            raise ProtocolError("bad-argument", "usage: undo [<plies>]")
        count = int(args[0]) if args else 1
        if count > self.game.ply:
            raise ProtocolError(
                "bad-argument", f"cannot undo {count} plies: the game has {self.game.ply}"
            )
        for _ in range(count):
            self.game.pop()
        return []

    def _banmoves(self, args: list[str]) -> list[str]:
        if args:
            raise ProtocolError("bad-argument", "banmoves takes no arguments")
        banned = self.game.banned_moves()
        return [" ".join(["banmoves", *(self._format(m) for m in banned)])]

    def _status(self, args: list[str]) -> list[str]:
        if args:
            raise ProtocolError("bad-argument", "status takes no arguments")
        game = self.game
        ruling = game.ruling
        result = ruling.result if ruling else "*"
        reason = ruling.reason.value if ruling else "none"
        return [
            f"status ply {game.ply} occurrences {game.board.repetition_count()} "
            f"result {result} reason {reason} fen {game.board.fen()}"
        ]

    # -- helpers ---------------------------------------------------------------------------

    def _format(self, move: Move) -> str:
        return move.fairy() if self.options.notation == "fairy" else move.iccs()

    def _parse(self, text: str, index: int, board: Board) -> Move:
        try:
            if self.options.notation == "fairy":
                return Move.from_fairy(text)
            return Move.from_iccs(text)
        except XqadjError:
            raise ProtocolError(
                "bad-move",
                f"{text[:40]} index {index} is not a move in {self.options.notation} notation",
            ) from None

    def _push_all(self, game: Game, texts: list[str], offset: int) -> int:
        """Push moves; on error, pop what was pushed and raise.  Returns how many were pushed."""
        pushed = 0
        try:
            for index, text in enumerate(texts, offset):
                if game.ruling is not None:
                    raise ProtocolError(
                        "game-over",
                        f"{text[:40]} index {index}: the game "
                        f"ended at ply {game.ruling.ply} "
                        f"({game.ruling.result} {game.ruling.reason.value})",
                    )
                move = self._parse(text, index, game.board)
                try:
                    game.push(move)
                except IllegalMoveError:
                    raise ProtocolError(
                        "illegal-move", f"{text} index {index} not legal in {game.board.fen()}"
                    ) from None
                pushed += 1
        except ProtocolError:
            for _ in range(pushed):
                game.pop()
            raise
        return pushed

    def _extend(self, texts: list[str], offset: int) -> list[str]:
        self._push_all(self.game, texts, offset)
        # _push_all refuses moves after a ruling, so a ruling now was caused by these moves.
        return self._ruling_lines(self.game.ruling) if self.game.ruling else []

    def _replay(self, start_fen: str, texts: list[str], options: Options) -> Game:
        game = _new_game(start_fen, options)
        if game.ruling is not None and texts:
            raise ProtocolError(
                "game-over", f"the start position is already over ({game.ruling.reason.value})"
            )
        self._push_all(game, texts, 0)
        return game

    def _ruling_lines(self, ruling: Ruling) -> list[str]:
        offender = (
            "none" if ruling.offender is None else ("red" if ruling.offender == 0 else "black")
        )
        cycle = " ".join(self._format(m) for m in ruling.cycle)
        line = (
            f"ruling result {ruling.result} reason {ruling.reason.value} ply {ruling.ply} "
            f"offender {offender} article {ruling.article} cycle {cycle}"
        ).rstrip()
        lines = [line]
        if self.options.explain:
            for index, move in enumerate(ruling.cycle):
                side = "red" if (index % 2 == 0) == (ruling.start_turn == 0) else "black"
                if ruling.labels:  # the CXA profile labels moves in its own vocabulary
                    lines.append(
                        f"info string move {self._format(move)} {side} {ruling.labels[index]}"
                    )
                    continue
                cls = ruling.classifications[index]
                victims = " ".join(
                    f"{_sq(self, t.attacker)}x{_sq(self, t.victim)}" for t in cls.victims
                )
                lines.append(
                    f"info string move {self._format(move)} {side} {cls.kind}"
                    + (f" victims {victims}" if victims else "")
                )
            lines.append(f"info string {_single_line(ruling.explain())}")
        return lines


def _is_count(text: str) -> bool:
    """A whole number written with at most 9 ASCII digits (``str.isdigit`` accepts ``'²'``)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _sq(session: Session, square: int) -> str:
    name = Move(square, square).iccs()[:2]
    if session.options.notation == "fairy":
        return f"{name[0]}{int(name[1]) + 1}"
    return name


def _read_line(stream: BinaryIO) -> tuple[bytes, bool]:
    """Read one line of at most MAX_LINE_BYTES; returns (line, too_long).  b'' at end of input."""
    line = stream.readline(MAX_LINE_BYTES + 2)  # room for CR LF after a line of the maximum
    ended = line.endswith(b"\n")
    if len(line.rstrip(b"\r\n") if ended else line) <= MAX_LINE_BYTES:
        return line, False
    while not ended:  # skip the rest of an over-long line
        rest = stream.readline(MAX_LINE_BYTES)
        ended = not rest or rest.endswith(b"\n")
    return line, True


def serve(stdin: BinaryIO | None = None, stdout: TextIO | None = None) -> int:
    """Serve the protocol until ``quit`` or end of input; returns the exit status (0)."""
    source = stdin if stdin is not None else sys.stdin.buffer
    if stdout is None and isinstance(sys.stdout, io.TextIOWrapper):
        # The protocol is UTF-8 with LF line ends, whatever the locale says.
        sys.stdout.reconfigure(encoding="utf-8", newline="\n")
    sink = stdout if stdout is not None else sys.stdout
    session = Session()
    while True:
        raw, too_long = _read_line(source)
        if not raw:
            return 0
        if too_long:
            lines = [f"error line-too-long the line exceeds {MAX_LINE_BYTES} bytes and was ignored"]
        else:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                lines = [f"error bad-encoding the line is not UTF-8 (byte {error.start})"]
            else:
                text = text.replace("\x00", " ")
                if text.split()[:1] == ["quit"]:
                    return 0
                try:
                    lines = session.handle(text)
                except Exception as error:  # noqa: BLE001 - the server must survive any input
                    print(
                        f"xqadj: internal error on {text.strip()[:200]!r}: {error!r}",
                        file=sys.stderr,
                    )
                    lines = [f"error internal {type(error).__name__}"]
        if lines:
            sink.write("\n".join(lines) + "\n")
            sink.flush()
