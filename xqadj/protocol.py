"""The xqadj line protocol: a long-running adjudicator driven over stdin/stdout.

The specification is ``protocol/PROTOCOL.md``.  :class:`Session` holds the state and turns one
command line into output lines, with no I/O of its own, so it can be tested and embedded
(``xqadj proxy`` uses it); :func:`serve` is the loop around it.

Layer: protocol.  It imports the referee, the rules registry (:data:`xqadj.rules.PROFILES`, the
``Rules`` option's values) and the core; no integration.

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
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import BinaryIO, TextIO

from xqadj import __version__
from xqadj.board import STARTING_FEN, Board, IllegalMoveError, InvalidFenError, Move, XqadjError
from xqadj.referee import Game, Ruling
from xqadj.rules import PROFILES

#: Longest accepted command line, in bytes; a longer one is refused and skipped.
MAX_LINE_BYTES = 1 << 20
#: The UTF-8 byte-order mark, ignored before the first command.
UTF8_BOM = b"\xef\xbb\xbf"
#: Most characters of one piece of input an error line repeats (a longer piece is cut).
MAX_QUOTE_CHARS = 40
#: Most characters of an error line's details.
MAX_ERROR_DETAILS = 200
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
        details = self.details
        if len(details) > MAX_ERROR_DETAILS:
            details = details[:MAX_ERROR_DETAILS] + "..."
        return f"error {self.code} {details}".rstrip()


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
        raise ProtocolError("bad-value", f"{name} {_quote(value) or '(none)'}: expected {expected}")
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


def _quote(text: str) -> str:
    """At most :data:`MAX_QUOTE_CHARS` characters of a piece of input, for an error line."""
    text = _single_line(text)
    return text if len(text) <= MAX_QUOTE_CHARS else text[:MAX_QUOTE_CHARS] + "..."


def _quote_within(message: str) -> str:
    """A message with each piece of input it quotes (``'...'``) cut as :func:`_quote` cuts."""
    return re.sub(r"'([^']*)'", lambda match: repr(_quote(match.group(1))), _single_line(message))


def _common_prefix(first: list[str], second: list[str]) -> int:
    """How many leading items the two lists share."""
    length = min(len(first), len(second))
    if first[:length] == second[:length]:  # the usual case (a growing line), compared in C
        return length
    index = 0
    while first[index] == second[index]:
        index += 1
    return index


class _Followed:
    """The game followed: a :class:`Game` with its moves as text and the hash of every position.

    A ``position`` line may go on past the game's ruling (a client that did not know of it
    sends the game as it was played on): those moves are followed on the board, checked for
    legality, and not ruled; the ruling stays until its own move is taken back.
    """

    def __init__(self, fen: str, options: Options) -> None:
        self.game = _new_game(fen, options)
        self.start_fen = self.game.start_fen
        #: The moves in the session's notation (a growing line is compared, not formatted).
        self.texts: list[str] = []
        #: The Zobrist hash after each ply, the start position's first (``position fen``
        #: lines are looked up here).
        self.hashes: list[int] = [self.game.board.zobrist_hash()]

    @property
    def ply(self) -> int:
        return len(self.texts)

    def push(self, move: Move, text: str) -> None:
        """Play a move; raises :class:`IllegalMoveError` (nothing changed) if it is not legal."""
        game = self.game
        if game.ruling is None:
            game.push(move)
        elif game.board.is_legal(move):
            game.board.push(move)  # played on after the ruling: followed, not ruled
        else:
            raise IllegalMoveError(f"illegal move {move.iccs()}")
        self.texts.append(text)
        self.hashes.append(game.board.zobrist_hash())

    def pop(self) -> tuple[Move, str]:
        game = self.game
        if game.ruling is not None and game.ply > game.ruling.ply:
            move = game.board.pop()  # a move played on after the ruling: the ruling stays
        else:
            move = game.pop()
        self.hashes.pop()
        return move, self.texts.pop()


class Session:
    """The protocol's state: options and the game being followed."""

    def __init__(self) -> None:
        self.options = Options()
        self._followed = _Followed(STARTING_FEN, self.options)
        # The last `position` line that was accepted and had a `moves` keyword, stripped, with
        # the number of moves it held: a line that merely extends it is processed from its
        # tail alone, so the work per line does not grow with the game.
        self._last_position: str | None = None
        self._last_position_moves = 0
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

    @property
    def game(self) -> Game:
        """The game followed (its board may hold moves played on after its ruling)."""
        return self._followed.game

    @property
    def start_fen(self) -> str:
        """The start position of the game followed (normalised FEN)."""
        return self._followed.start_fen

    # -- dispatch --------------------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """Process one command line and return the output lines.

        A refused command returns one ``error`` line and leaves the state exactly as it was.
        ``quit`` is not handled here (see :func:`serve`).
        """
        try:
            extension = self._extension_of_last_position(line)
            if extension is not None:
                output = self._advance(self._followed.ply, extension, self._last_position_moves)
                self._last_position = line.strip()
                self._last_position_moves += len(extension)
                return output
            tokens = line.split()
            if not tokens:
                return []
            name, args = tokens[0], tokens[1:]
            command = self._commands.get(name)
            if command is None:
                raise ProtocolError("unknown-command", _quote(line))
            if name not in ("position", "isready", "status", "banmoves", "uci", "ucci"):
                self._last_position = None  # the game may change other than by a line
            output = command(args)
            if name == "position":
                self._remember_position(line, args)
            return output
        except ProtocolError as error:
            return [error.line()]

    def _extension_of_last_position(self, line: str) -> list[str] | None:
        """The new moves, if ``line`` is the last accepted ``position`` line plus moves."""
        last = self._last_position
        if last is None or not line.startswith("position"):
            return None
        text = line.strip()
        if not text.startswith(last) or len(text) == len(last):
            return None
        if not text[len(last)].isspace():
            return None
        return text[len(last) :].split()

    def _remember_position(self, line: str, args: list[str]) -> None:
        if "moves" in args:
            self._last_position = line.strip()
            self._last_position_moves = len(args) - args.index("moves") - 1
        else:
            self._last_position = None

    # -- commands --------------------------------------------------------------------------

    def _handshake(self, done: str, ucci: bool) -> list[str]:
        prefix = "option " if ucci else "option name "
        notations = " ".join(f"var {n}" for n in NOTATIONS)
        rules = " ".join(f"var {r}" for r in PROFILES)
        return [
            f"id name xqadj {__version__}",
            f"id author {AUTHOR}",
            f"{prefix}Rules type combo default {self.options.rules} {rules}",
            f"{prefix}Notation type combo default {self.options.notation} {notations}",
            f"{prefix}MoveLimit type spin default {self.options.move_limit} min 0 "
            f"max {MAX_MOVE_LIMIT}",
            f"{prefix}Explain type check default {str(self.options.explain).lower()}",
            f"{prefix}ForbiddenRun type check default {str(self.options.forbidden_run).lower()}",
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
            options.rules = _choice("Rules", value, tuple(PROFILES))
        elif key == "notation":
            options.notation = _choice("Notation", value, NOTATIONS)
        elif key == "movelimit":
            if not _is_count(value) or int(value) > MAX_MOVE_LIMIT:
                raise ProtocolError(
                    "bad-value",
                    f"MoveLimit {_quote(value) or '(none)'}: expected a whole "
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
                f"unknown option {_quote(name)!r}; options: Rules, Notation, MoveLimit, Explain, "
                "ForbiddenRun",
            )
        old = self._followed
        if _game_settings(options) != _game_settings(self.options):
            # The game is followed again from its start under the new value.  Its moves stay
            # legal whatever the rules, so this cannot fail; a ruling it now has and did not
            # have before is printed, and moves after it are kept, as for `position`.
            followed = _Followed(old.start_fen, options)
            for move, text in zip(old.game.moves, old.texts, strict=True):
                followed.push(move, text)
            self.options = options
            self._followed = followed
            before = self._ruling_line(old.game.ruling)
            after = self._ruling_line(followed.game.ruling)
            if followed.game.ruling is not None and after != before:
                return self._ruling_lines(followed.game.ruling)
            return []
        if options.notation != self.options.notation:
            old.texts = [_format(m, options.notation) for m in old.game.moves]
        self.options = options
        return []

    def _ucinewgame(self, args: list[str]) -> list[str]:
        self._followed = _Followed(STARTING_FEN, self.options)
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
                    "bad-position", f"unexpected {_quote(' '.join(head[1:]))!r} after startpos"
                )
            start = Board(STARTING_FEN)
        elif head[0] == "fen":
            if len(head) < 2:
                raise ProtocolError("bad-fen", "position fen needs a FEN")
            try:
                start = Board(" ".join(head[1:]))
            except InvalidFenError as error:
                raise ProtocolError("bad-fen", _quote_within(str(error))) from None
        else:
            raise ProtocolError(
                "bad-position", f"expected startpos or fen, got {_quote(head[0])!r}"
            )
        followed = self._followed
        if start.fen() == followed.start_fen:
            # The game from its start: an extension, the same line, or a takeback.
            found: tuple[int, list[Move]] | None = (0, [])
        else:
            found = self._locate(start, moves)
        if found is None:
            # Another game: followed from its own start.
            fresh = _Followed(start.fen(), self.options)
            self._push_texts(fresh, moves, first_index=0)
            self._followed = fresh
            return self._ruling_lines(fresh.game.ruling) if fresh.game.ruling else []
        # The line continues the game followed: from ply `base` (where its start position was
        # reached), after any moves the client sent and this session did not see.
        base, unseen = found
        seen = [_format(m, self.options.notation) for m in unseen]
        target = followed.texts[:base] + seen + moves if base or seen else moves
        keep = _common_prefix(followed.texts, target)
        return self._advance(keep, target[keep:], first_index=keep - base - len(seen))

    def _locate(self, start: Board, moves: list[str]) -> tuple[int, list[Move]] | None:
        """Where ``position fen <start> moves <moves>`` joins the game followed, if it does.

        UCCI GUIs and UCI2WB start each line at the position after the last capture, as the
        UCCI specification recommends, so the FEN changes at every capture; the game followed,
        its history and its move-limit count must be kept.  Looked for: a ply just after a
        capture at which ``start`` occurred (preferring one from which ``moves`` agree with the
        moves followed since), or one or two moves the client did not send, the last of them a
        capture, that lead to ``start`` from the last position followed.  Returns that ply and
        the unseen moves; None for another game.
        """
        followed = self._followed
        target = start.zobrist_hash()
        texts, hashes, board = followed.texts, followed.hashes, followed.game.board
        fallback = None
        for ply in range(len(hashes) - 1, 0, -1):
            if hashes[ply] == target and board.captured_by(ply - 1):
                if moves[: len(texts) - ply] == texts[ply:]:
                    return ply, []
                if fallback is None:
                    fallback = ply
        work = board.copy()
        for first in work.legal_moves():
            if work.squares[first.to_square]:
                work.push(first)
                if work.zobrist_hash() == target:
                    return len(texts), [first]
                work.pop()
        for first in work.legal_moves():
            work.push(first)
            for second in work.legal_moves():
                if work.squares[second.to_square]:
                    work.push(second)
                    if work.zobrist_hash() == target:
                        return len(texts), [first, second]
                    work.pop()
            work.pop()
        return None if fallback is None else (fallback, [])

    def _move(self, args: list[str]) -> list[str]:
        if not args:
            raise ProtocolError("bad-argument", "usage: move <move> [<move> ...]")
        return self._advance(self._followed.ply, args, first_index=0, past_ruling=False)

    def _undo(self, args: list[str]) -> list[str]:
        if len(args) > 1 or (args and not _is_count(args[0])):
            raise ProtocolError("bad-argument", "usage: undo [<plies>]")
        count = int(args[0]) if args else 1
        followed = self._followed
        if count > followed.ply:
            raise ProtocolError(
                "bad-argument", f"cannot undo {count} plies: the game has {followed.ply}"
            )
        for _ in range(count):
            followed.pop()
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
        return _format(move, self.options.notation)

    def _parse(self, text: str, index: int) -> Move:
        try:
            if self.options.notation == "fairy":
                return Move.from_fairy(text)
            return Move.from_iccs(text)
        except XqadjError:
            raise ProtocolError(
                "bad-move",
                f"{_quote(text)} index {index} is not a move in {self.options.notation} notation",
            ) from None

    def _push_texts(
        self, followed: _Followed, texts: list[str], first_index: int, past_ruling: bool = True
    ) -> None:
        """Push moves given as text; on error, pop what was pushed and raise.  ``first_index``
        is the index of ``texts[0]`` in the command's move list (for the error line).  Moves
        after a ruling are followed when ``past_ruling`` (``position``), refused otherwise."""
        pushed = 0
        try:
            for index, text in enumerate(texts, first_index):
                ruling = followed.game.ruling
                if ruling is not None and not past_ruling:
                    raise ProtocolError("game-over", _game_over(text, index, ruling))
                move = self._parse(text, index)
                try:
                    followed.push(move, text)
                except IllegalMoveError:
                    raise ProtocolError(
                        "illegal-move",
                        f"{_quote(text)} index {index} not legal in {followed.game.board.fen()}",
                    ) from None
                pushed += 1
        except ProtocolError:
            for _ in range(pushed):
                followed.pop()
            raise

    def _advance(
        self, keep: int, texts: list[str], first_index: int, past_ruling: bool = True
    ) -> list[str]:
        """Take the game followed back to ply ``keep`` and play ``texts``; atomic.  Prints the
        ruling if the game now has one it did not have before (a ruling whose move was kept is
        not printed again)."""
        followed = self._followed
        before = followed.game.ruling
        taken: list[tuple[Move, str]] = []
        while followed.ply > keep:
            taken.append(followed.pop())
        try:
            self._push_texts(followed, texts, first_index, past_ruling)
        except ProtocolError:
            for move, text in reversed(taken):
                followed.push(move, text)
            raise
        ruling = followed.game.ruling
        if ruling is None or (before is not None and keep >= before.ply):
            return []
        return self._ruling_lines(ruling)

    def _ruling_line(self, ruling: Ruling | None) -> str:
        return self._ruling_lines(ruling)[0] if ruling is not None else ""

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
            # The paragraph in the notation of the moves around it (ranks 1-10 under fairy).
            lines.append(f"info string {_single_line(ruling.explain(self.options.notation))}")
        return lines


def _is_count(text: str) -> bool:
    """A whole number written with at most 9 ASCII digits (``str.isdigit`` accepts ``'²'``)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _format(move: Move, notation: str) -> str:
    return move.fairy() if notation == "fairy" else move.iccs()


def _game_over(text: str, index: int, ruling: Ruling) -> str:
    return (
        f"{_quote(text)} index {index}: the game ended at ply {ruling.ply} "
        f"({ruling.result} {ruling.reason.value})"
    )


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
    """Serve the protocol until ``quit`` or end of input; returns the exit status.

    0 at ``quit``, at end of input and when the client stops reading (EPIPE on stdout: the
    conversation is over); 130 on Ctrl-C (SIGINT).  Neither prints a traceback.
    """
    source = stdin if stdin is not None else sys.stdin.buffer
    if stdout is None and isinstance(sys.stdout, io.TextIOWrapper):
        # The protocol is UTF-8 with LF line ends, whatever the locale says.
        sys.stdout.reconfigure(encoding="utf-8", newline="\n")
    sink = stdout if stdout is not None else sys.stdout
    try:
        return _serve_lines(source, sink)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        if stdout is None:
            # Nothing can be written any more: point stdout at /dev/null so that the flush at
            # exit does not report the broken pipe again.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        return 0


def _serve_lines(source: BinaryIO, sink: TextIO) -> int:
    session = Session()
    first = True
    while True:
        raw, too_long = _read_line(source)
        if not raw:
            return 0
        if first and raw.startswith(UTF8_BOM):
            # Some clients (Windows tools, .NET) start their output with a byte-order mark.
            raw = raw[len(UTF8_BOM) :]
        first = False
        if too_long:
            lines = [f"error line-too-long the line exceeds {MAX_LINE_BYTES} bytes and was ignored"]
        else:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                lines = [f"error bad-encoding the line is not UTF-8 (byte {error.start})"]
            else:
                if "\x00" in text:
                    text = text.replace("\x00", " ")
                # Only the first word: splitting a 60 kB position line costs more than the rest.
                if text.split(None, 1)[:1] == ["quit"]:
                    return 0
                try:
                    lines = session.handle(text)
                except Exception as error:  # noqa: BLE001 - the server must survive any input
                    print(
                        f"xqadj: internal error on {_quote(text)!r}: {error!r}",
                        file=sys.stderr,
                    )
                    lines = [f"error internal {type(error).__name__}"]
        if lines:
            sink.write("\n".join(lines) + "\n")
            sink.flush()
