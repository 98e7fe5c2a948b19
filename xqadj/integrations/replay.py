"""Replay recorded games through the referee: ``xqadj replay FILE ...``.

Layer: integrations.

Each game of each file is followed move by move with :class:`~xqadj.referee.Game`, which rules
as it goes; the first ruling (checkmate, stalemate, perpetual check, perpetual chase, a
repetition draw, or the move limit when ``--move-limit`` is set) ends the replay of that game,
and the moves recorded after it are not read.  Players often play on after a third
repetition, because an arbiter rules only when asked; this command says what the arbiter would
have ruled.

**Formats**, chosen by the file's extension (``--format`` overrides it for every file).  A
directory stands for the files under it, in sorted order: those with a known extension, or
with ``--format`` every one (hidden files and directories excepted).

``pgn`` (``.pgn``)
    Games with ``[Tag "value"]`` headers; ``[FEN "..."]`` sets a start position other than the
    standard one, ``Event``, ``Red`` and ``Black`` name the game.  The notation of the move
    text is detected per game from its first move: ICCS coordinates (``1. h2e2 h9g7``, also
    ``H2-E2``), Chinese (``1. 炮二平五 马８进７``, read by :func:`xqadj.notation.parse_chinese`)
    or WXF (``1. C2=5 H8+7``).  Move numbers, ``{comments}``, ``;`` comments, ``(variations)``,
    ``$`` glyphs and ``!``/``?`` marks are skipped; a result token ends the game.  UTF-8 or
    GB18030 text.
``xqf``, ``cbr``, ``cbf`` (``.xqf``, ``.cbr``, ``.cbf``)
    One game per file, loaded with ``cchess`` (the optional dependency ``xqadj[files]``) and
    turned into a start FEN and the ICCS moves of its main line; variations are ignored.
    cchess is used for nothing else.
``lines`` (``.txt``, ``.lines``, ``.tsv``)
    One game per line: ``<FEN> | <moves>`` or ``startpos | <moves>``, moves separated by
    spaces (ICCS, Chinese or WXF, detected as for PGN).  ``#`` starts a comment; blank lines
    are skipped.  A ``.tsv`` file whose first line is a header naming ``fen`` and ``moves``
    columns (such as the rulebook case file ``axf-cases.tsv``) is read as a table instead,
    with the ``id`` column, if any, as the game's event.

**Text output** (stdout): one line per game, then a summary line::

    games.pgn#12 [Event] (Red vs Black): ruling 0-1 perpetual-chase ply 88 offender red art.15
    games.pgn#13 [Event] (Red vs Black): none (96 plies)
    games.pgn#14 [Event] (Red vs Black): skipped: ply 7, move 'h2h9': illegal move ...
    summary: 14 games read from 1 file; ruled 1 (perpetual-chase 1); not ruled 12; skipped 1; 0.02 s

``--explain`` adds the ruling's explanation, indented, under each ruled game.

**Errors**: an unreadable, unknown or corrupt file, and a game that cannot be followed (bad
FEN, malformed or illegal move), are reported on stderr with their place (file, game index and
line, ply and move text), skipped, and the run goes on.  Exit status: 0 when every game was
read, 1 when some game or file was skipped, 2 for a usage error.

**JSON Lines** (``--json``), one object per line on stdout; every object has ``"type"``:

``{"type": "game", ...}``, a game that was followed:
    ``file`` (str, the path as given), ``index`` (int, 1-based, within the file), ``line``
    (int or null, where the game starts in a text file), ``event``, ``red``, ``black`` (str or
    null), ``notation`` (``"iccs"``, ``"chinese"``, ``"wxf"``, or null when there are no
    moves), ``start_fen`` (str), ``plies`` (int, moves in the record), ``ruling`` (null when
    the game was not ruled, else an object: ``result`` ``"1-0"``/``"0-1"``/``"1/2-1/2"``,
    ``reason`` (``checkmate``, ``stalemate``, ``perpetual-check``, ``perpetual-chase``,
    ``repetition``, ``move-limit``), ``ply`` (int, moves from the start when the ruling fell),
    ``offender`` (``"red"``, ``"black"`` or null for a draw), ``article`` (str, e.g.
    ``"art.15"``, may be empty), ``cycle`` (list of ICCS moves, empty unless a repetition),
    and with ``--explain`` ``explanation`` (str)).
``{"type": "error", ...}``, a game or a file that was skipped:
    ``scope`` (``"game"`` or ``"file"``), ``file``, ``index`` (int, or null for a file),
    ``line``, ``event``, ``red``, ``black``, ``ply`` (int: the number of the move that failed,
    0 for a bad start position; null when no move was reached), ``move`` (str or null, the move
    text as written), ``error`` (str, the kind: ``IllegalMoveError``, ``InvalidMoveError``,
    ``AmbiguousMoveError``, ``InvalidFenError``, ``MalformedRecord``, ``UnreadableFile``,
    ``UnknownFormat``, ``CorruptFile``, ...), ``message`` (str).
``{"type": "summary", ...}``, last:
    ``files`` (int, files named or found), ``files_skipped`` (int), ``games`` (int, games
    read: ruled + not ruled + skipped), ``ruled`` (int), ``by_reason`` (object: every reason
    above with its count), ``not_ruled``, ``skipped`` (int), ``seconds`` (float, wall time),
    ``jobs`` (int), ``rules`` (str), ``move_limit`` (int), ``forbidden_run`` (bool).

``--jobs N`` follows the games in N processes (``0``: one per core); the output is the same,
in the same order.  A progress bar is drawn on stderr when it is a terminal and the run takes
a while (``--progress``/``--no-progress`` force it on or off).

The library side: :func:`read_games` yields the games of a file, :func:`replay_game` follows
one, :func:`replay_paths` does both for many files.

>>> record = GameRecord("demo", 1, moves=tuple("h2e2 h9g7 h0g2 i9h9".split()))
>>> replay_game(record).text()
'demo#1: none (4 plies)'
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from xqadj.board import COLOR_NAMES, STARTING_FEN, Board, Move, XqadjError
from xqadj.integrations.arguments import add_rules_arguments
from xqadj.integrations.report import Card, write_replay_report
from xqadj.notation import parse_chinese, parse_wxf
from xqadj.referee import Game, Reason, Ruling

__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "BinarySource",
    "GameFileError",
    "GameRecord",
    "Options",
    "Outcome",
    "Summary",
    "add_arguments",
    "main",
    "read_games",
    "replay_game",
    "replay_paths",
]

FORMATS = ("pgn", "xqf", "cbr", "cbf", "lines")
EXTENSIONS = {
    ".pgn": "pgn",
    ".xqf": "xqf",
    ".cbr": "cbr",
    ".cbf": "cbf",
    ".txt": "lines",
    ".lines": "lines",
    ".tsv": "lines",
}
#: Formats with one game per file, read by cchess.
BINARY_FORMATS = ("xqf", "cbr", "cbf")

DESCRIPTION = """\
Follow every game of the given files (PGN, XQF, CBR, CBF, or `FEN | moves` lines) with the
referee and print each game's first ruling, or `none`, then a summary. Bad files and bad games
are reported on stderr and skipped. Exit status: 0 if every game was read, 1 if some were
skipped, 2 for a usage error."""


class GameFileError(XqadjError):
    """A file that cannot be read as games: ``kind`` says why (``UnreadableFile``, ...)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


# -- records: games as read from files ---------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """A game as read from a file: where it is, its start position and its move texts."""

    file: str
    index: int
    line: int | None = None
    fen: str = STARTING_FEN
    moves: tuple[str, ...] = ()
    event: str | None = None
    red: str | None = None
    black: str | None = None
    #: Why the record cannot be followed at all (a malformed line), else ``None``.
    problem: str | None = None


@dataclass(frozen=True)
class BinarySource:
    """A one-game file (XQF, CBR, CBF), loaded by :func:`replay_game` when it is followed, so
    that loading happens in the worker processes too."""

    file: str
    fmt: str


@dataclass(frozen=True)
class Options:
    rules: str = "axf"
    move_limit: int = 0
    explain: bool = False
    forbidden_run: bool = False


# -- outcomes ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RulingInfo:
    result: str
    reason: str
    ply: int
    offender: str | None
    article: str
    cycle: tuple[str, ...] = ()
    explanation: str | None = None

    @staticmethod
    def from_ruling(ruling: Ruling, explain: bool = False) -> RulingInfo:
        return RulingInfo(
            ruling.result,
            ruling.reason.value,
            ruling.ply,
            None if ruling.offender is None else COLOR_NAMES[ruling.offender],
            ruling.article,
            tuple(move.iccs() for move in ruling.cycle),
            ruling.explain() if explain else None,
        )


@dataclass(frozen=True)
class ErrorInfo:
    scope: str  # "game" or "file"
    kind: str
    message: str
    ply: int | None = None
    move: str | None = None


@dataclass(frozen=True)
class Outcome:
    """What became of one game (or of a file that could not be read)."""

    file: str
    index: int | None
    line: int | None = None
    event: str | None = None
    red: str | None = None
    black: str | None = None
    notation: str | None = None
    start_fen: str | None = None
    plies: int = 0
    ruling: RulingInfo | None = None
    error: ErrorInfo | None = None

    @property
    def is_file_error(self) -> bool:
        return self.error is not None and self.error.scope == "file"

    def source(self) -> str:
        """``games.pgn#12 [Event] (Red vs Black)``, with what is known."""
        text = self.file if self.index is None else f"{self.file}#{self.index}"
        if self.event:
            text += f" [{self.event}]"
        if self.red or self.black:
            text += f" ({self.red or '?'} vs {self.black or '?'})"
        return text

    def place(self) -> str:
        """Where an error is: the source, its line, and the ply and move."""
        text = self.source()
        if self.line is not None:
            text += f" (line {self.line})"
        error = self.error
        if error is not None and error.ply is not None:
            text += f": ply {error.ply}"
            if error.move is not None:
                text += f", move {error.move!r}"
        return text

    def text(self) -> str:
        """The output line of text mode."""
        if self.error is not None:
            what = "skipped" if self.error.scope == "game" else "file skipped"
            where = ""
            if self.error.ply is not None:
                where = f"ply {self.error.ply}"
                if self.error.move is not None:
                    where += f", move {self.error.move!r}"
                where += ": "
            return f"{self.source()}: {what}: {where}{self.error.message}"
        ruling = self.ruling
        if ruling is None:
            return f"{self.source()}: none ({self.plies} {'ply' if self.plies == 1 else 'plies'})"
        text = f"{self.source()}: ruling {ruling.result} {ruling.reason} ply {ruling.ply}"
        if ruling.offender is not None:
            text += f" offender {ruling.offender}"
        if ruling.article:
            text += f" {ruling.article}"
        return text

    def to_json(self) -> dict[str, Any]:
        base: dict[str, Any] = {
            "file": self.file,
            "index": self.index,
            "line": self.line,
            "event": self.event,
            "red": self.red,
            "black": self.black,
        }
        if self.error is not None:
            return {
                "type": "error",
                "scope": self.error.scope,
                **base,
                "ply": self.error.ply,
                "move": self.error.move,
                "error": self.error.kind,
                "message": self.error.message,
            }
        ruling: dict[str, Any] | None = None
        if self.ruling is not None:
            r = self.ruling
            ruling = {
                "result": r.result,
                "reason": r.reason,
                "ply": r.ply,
                "offender": r.offender,
                "article": r.article,
                "cycle": list(r.cycle),
            }
            if r.explanation is not None:
                ruling["explanation"] = r.explanation
        return {
            "type": "game",
            **base,
            "notation": self.notation,
            "start_fen": self.start_fen,
            "plies": self.plies,
            "ruling": ruling,
        }


@dataclass
class Summary:
    """Counts over a run."""

    files: int = 0
    files_skipped: int = 0
    games: int = 0
    ruled: int = 0
    not_ruled: int = 0
    skipped: int = 0
    by_reason: dict[str, int] = field(default_factory=lambda: {r.value: 0 for r in Reason})

    def add(self, outcome: Outcome) -> None:
        if outcome.is_file_error:
            self.files_skipped += 1
            return
        self.games += 1
        if outcome.error is not None:
            self.skipped += 1
        elif outcome.ruling is not None:
            self.ruled += 1
            self.by_reason[outcome.ruling.reason] = self.by_reason.get(outcome.ruling.reason, 0) + 1
        else:
            self.not_ruled += 1

    @property
    def exit_status(self) -> int:
        return 1 if self.skipped or self.files_skipped else 0

    def text(self, seconds: float) -> str:
        reasons = ", ".join(f"{r} {n}" for r, n in self.by_reason.items() if n)
        files = f"{self.files} file{'' if self.files == 1 else 's'}"
        text = (
            f"summary: {self.games} games read from {files}; ruled {self.ruled}"
            f"{f' ({reasons})' if reasons else ''}; not ruled {self.not_ruled}; "
            f"skipped {self.skipped}"
        )
        if self.files_skipped:
            text += f"; files skipped {self.files_skipped}"
        return text + f"; {seconds:.2f} s"

    def to_json(self, seconds: float, jobs: int, options: Options) -> dict[str, Any]:
        return {
            "type": "summary",
            "files": self.files,
            "files_skipped": self.files_skipped,
            "games": self.games,
            "ruled": self.ruled,
            "by_reason": dict(self.by_reason),
            "not_ruled": self.not_ruled,
            "skipped": self.skipped,
            "seconds": round(seconds, 3),
            "jobs": jobs,
            "rules": options.rules,
            "move_limit": options.move_limit,
            "forbidden_run": options.forbidden_run,
        }


# -- reading files -----------------------------------------------------------------------------


def detect_format(path: str | Path) -> str | None:
    """The format for ``path``'s extension, or ``None``."""
    return EXTENSIONS.get(Path(path).suffix.lower())


def read_text(path: str | Path) -> str:
    """A text file's contents: UTF-8 (with or without a BOM), else GB18030."""
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("gb18030", errors="replace")


def read_games(
    path: str | Path, fmt: str | None = None, name: str | None = None
) -> Iterator[GameRecord]:
    """The games of one file, as records (binary formats are loaded through cchess).

    ``name`` is how the file is shown (default: ``str(path)``).  Raises
    :class:`GameFileError` for a file that cannot be read at all.
    """
    name = str(path) if name is None else name
    fmt = fmt or detect_format(path)
    if fmt is None:
        raise GameFileError(
            "UnknownFormat", f"unknown format (extension {Path(path).suffix!r}); use --format"
        )
    if fmt in BINARY_FORMATS:
        yield load_binary(path, fmt, name)
        return
    try:
        text = read_text(path)
    except OSError as error:
        raise GameFileError("UnreadableFile", f"cannot read: {error.strerror or error}") from None
    if fmt == "pgn":
        yield from parse_pgn(text, name)
    elif fmt == "lines":
        yield from parse_lines(text, name, table=Path(path).suffix.lower() == ".tsv")
    else:
        raise GameFileError("UnknownFormat", f"unknown format {fmt!r}")


_HEADER = re.compile(r'^\[\s*(\w+)\s*"(.*)"\s*\]\s*$')
_PGN_TOKEN = re.compile(r"\{[^}]*\}?|;.*|[()]|[^\s{}();]+")
_MOVE_NUMBER = re.compile(r"^\d+(?:\.+|．+|…+)(?!\d)(.*)$")
_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "½-½", "*"})
#: The form of an ICCS move (checked loosely, so that a typo is reported as a bad ICCS move).
_ICCS = re.compile(r"^[A-Za-z][0-9]-?[A-Za-z][0-9]$")


def parse_pgn(text: str, name: str) -> Iterator[GameRecord]:
    """The games of a PGN text (see the module docstring for what is read)."""
    index = 0
    headers: dict[str, str] = {}
    moves: list[str] = []
    start: int | None = None
    closed = False  # a result token ended the game's move text
    depth = 0  # variation nesting
    in_comment = False

    def finish() -> GameRecord:
        nonlocal index, headers, moves, start, closed, depth
        index += 1
        fen = headers.get("fen", "").strip() or STARTING_FEN
        record = GameRecord(
            name,
            index,
            start,
            fen,
            tuple(moves),
            headers.get("event") or None,
            headers.get("red") or None,
            headers.get("black") or None,
        )
        headers, moves, start, closed, depth = {}, [], None, False, 0
        return record

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if in_comment:
            end = line.find("}")
            if end < 0:
                continue
            line = line[end + 1 :]
            in_comment = False
        elif line.startswith("["):
            if moves or closed:
                yield finish()
            match = _HEADER.match(line)
            if match:
                value = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
                headers[match.group(1).lower()] = value.strip()
            if start is None:
                start = lineno
            continue
        elif line.startswith("%"):
            continue
        elif line and line.strip("=") == "":
            # cchess's Game.save_to ends a game with a line of '='.
            if moves or headers:
                yield finish()
            continue
        for token in _PGN_TOKEN.findall(line):
            first = token[0]
            if first == "{":
                in_comment = not token.endswith("}")
                continue
            if first == ";":
                break
            if token == "(":
                depth += 1
                continue
            if token == ")":
                depth = max(0, depth - 1)
                continue
            if depth or first == "$":
                continue
            if token in _RESULTS:
                closed = True
                continue
            match = _MOVE_NUMBER.match(token)
            if match:
                token = match.group(1)
            token = token.rstrip("!?")
            if not token:
                continue
            if closed:  # move text after a result and no headers: a new game
                yield finish()
            if start is None:
                start = lineno
            moves.append(token)
    if moves or headers or closed:
        yield finish()


def parse_lines(text: str, name: str, table: bool = False) -> Iterator[GameRecord]:
    """The games of a ``<FEN> | <moves>`` text, or of a TSV table with ``fen`` and ``moves``
    columns when ``table`` is true and the first line is such a header."""
    columns: dict[str, int] | None = None
    index = 0
    for lineno, raw in enumerate(text.splitlines(), 1):
        if columns is None and table and index == 0 and "\t" in raw and not raw.startswith("#"):
            names = [c.strip().lower() for c in raw.split("\t")]
            if "fen" in names and "moves" in names:
                columns = {c: i for i, c in enumerate(names)}
                continue
            table = False
        line = raw if columns is not None else raw.split("#", 1)[0]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        index += 1
        event = None
        if columns is not None:
            cells = line.split("\t")
            if len(cells) <= max(columns["fen"], columns["moves"]):
                yield GameRecord(
                    name, index, lineno, problem="malformed row: too few tab-separated columns"
                )
                continue
            fen, moves = cells[columns["fen"]], cells[columns["moves"]]
            if "id" in columns and columns["id"] < len(cells):
                event = cells[columns["id"]].strip() or None
        else:
            fen, bar, moves = line.partition("|")
            if not bar or "|" in moves:
                yield GameRecord(
                    name,
                    index,
                    lineno,
                    problem="malformed line: expected '<FEN> | <moves>' or 'startpos | <moves>'",
                )
                continue
        fen = fen.strip()
        if fen == "startpos":
            fen = STARTING_FEN
        yield GameRecord(name, index, lineno, fen, tuple(moves.split()), event)


def load_binary(path: str | Path, fmt: str, name: str | None = None) -> GameRecord:
    """Load a one-game XQF, CBR or CBF file through cchess: the start FEN, the ICCS moves of
    the main line and the names.  Raises :class:`GameFileError`."""
    name = str(path) if name is None else name
    try:
        import cchess  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - cchess is a test dependency
        raise GameFileError(
            "MissingDependency", f"reading {fmt.upper()} files needs cchess: pip install cchess"
        ) from None
    readers: dict[str, Callable[[str], Any]] = {
        "xqf": cchess.read_from_xqf,
        "cbr": cchess.read_from_cbr,
        "cbf": cchess.read_from_cbf,
    }
    if not Path(path).is_file():
        problem = "no such file" if not Path(path).exists() else "not a regular file"
        raise GameFileError("UnreadableFile", f"cannot read: {problem}")
    limit = sys.getrecursionlimit()
    try:
        # cchess reads each move with one more level of recursion; it prints warnings on stdout.
        sys.setrecursionlimit(max(limit, 10_000))
        with contextlib.redirect_stdout(io.StringIO()):
            game = readers[fmt](str(path))
            if game is None:
                raise GameFileError("CorruptFile", f"not a {fmt.upper()} file (bad magic)")
            fen = str(game.init_board.to_fen())
            moves = tuple(str(move.to_iccs()) for move in game.iter_moves())
            info: dict[str, Any] = dict(game.info)
    except GameFileError:
        raise
    except OSError as error:
        raise GameFileError("UnreadableFile", f"cannot read: {error.strerror or error}") from None
    except Exception as error:  # cchess raises anything on a corrupt file
        message = f"corrupt {fmt.upper()} file ({type(error).__name__}: {error})"
        raise GameFileError("CorruptFile", message) from None
    finally:
        sys.setrecursionlimit(limit)
    if fmt == "cbf":
        info.update(_cbf_names(path))

    def text(key: str) -> str | None:
        value = info.get(key)
        return value.strip() or None if isinstance(value, str) else None

    return GameRecord(
        name,
        1,
        None,
        fen,
        moves,
        text("event") or text("title"),
        text("red"),
        text("black"),
    )


def _cbf_names(path: str | Path) -> dict[str, str]:
    """Event and players from a CBF file's ``<Head>`` (cchess reads only its FEN)."""
    from xml.etree import ElementTree

    try:
        head = ElementTree.parse(path).getroot().find("Head")
    except (OSError, ElementTree.ParseError):
        return {}
    if head is None:
        return {}
    found = {child.tag.lower(): (child.text or "").strip() for child in head}
    names = {
        "event": found.get("event") or found.get("contest") or found.get("name") or "",
        "red": found.get("red", ""),
        "black": found.get("black", ""),
    }
    return {k: v for k, v in names.items() if v}


# -- following games ---------------------------------------------------------------------------


def detect_notation(text: str) -> str:
    """``'iccs'``, ``'chinese'`` or ``'wxf'``, from the form of one move text."""
    if _ICCS.match(text):
        return "iccs"
    if not text.isascii():
        return "chinese"
    return "wxf"


def _parser(notation: str) -> Callable[[Board, str], Move]:
    if notation == "iccs":

        def iccs(board: Board, text: str) -> Move:
            if len(text) == 5 and text[2] == "-":
                text = text[:2] + text[3:]
            return Move.from_iccs(text)

        return iccs
    return parse_chinese if notation == "chinese" else parse_wxf


def replay_game(item: GameRecord | BinarySource, options: Options | None = None) -> Outcome:
    """Follow one game with :class:`Game` until its first ruling or its last move."""
    options = options or Options()
    if isinstance(item, BinarySource):
        try:
            record = load_binary(item.file, item.fmt)
        except GameFileError as error:
            return Outcome(item.file, None, error=ErrorInfo("file", error.kind, str(error)))
    else:
        record = item
    base = Outcome(record.file, record.index, record.line, record.event, record.red, record.black)
    if record.problem is not None:
        return replace(base, error=ErrorInfo("game", "MalformedRecord", record.problem))
    notation = detect_notation(record.moves[0]) if record.moves else None
    base = replace(base, notation=notation)
    try:
        game = Game(
            record.fen,
            rules=options.rules,
            move_limit=options.move_limit,
            forbidden_run=options.forbidden_run,
        )
    except XqadjError as error:
        message = f"bad FEN {record.fen!r}: {error}"
        return replace(base, error=ErrorInfo("game", type(error).__name__, message, 0))
    ruling = game.ruling
    if ruling is None and notation is not None:
        parse = _parser(notation)
        board = game.board
        push = game.push
        ply = 0
        text = ""
        try:
            for ply, text in enumerate(record.moves, 1):  # noqa: B007 - read in the handlers
                ruling = push(parse(board, text))
                if ruling is not None:
                    break
        except XqadjError as error:
            info = ErrorInfo("game", type(error).__name__, str(error), ply, text)
            return replace(base, error=info)
        except Exception as error:  # a bug in the library: report it, do not stop the run
            message = f"internal error: {type(error).__name__}: {error}"
            return replace(base, error=ErrorInfo("game", "InternalError", message, ply, text))
    return replace(
        base,
        start_fen=game.start_fen,
        plies=len(record.moves),
        ruling=None if ruling is None else RulingInfo.from_ruling(ruling, options.explain),
    )


def _replay_chunk(
    items: Sequence[GameRecord | BinarySource | Outcome], options: Options
) -> list[Outcome]:
    return [item if isinstance(item, Outcome) else replay_game(item, options) for item in items]


def _expand(paths: Iterable[str], fmt: str | None) -> Iterator[str]:
    """The files named, with each directory replaced by the game files under it."""
    for path in paths:
        if os.path.isdir(path):
            found = sorted(
                str(p)
                for p in Path(path).rglob("*")
                if p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
                and (fmt is not None or detect_format(p) is not None)
            )
            if not found:
                yield path  # reported as unreadable
            yield from found
        else:
            yield path


def collect(
    paths: Iterable[str], fmt: str | None = None
) -> tuple[int, list[GameRecord | BinarySource | Outcome]]:
    """Read every file: the number of files and, in order, one item per game (a record to
    follow, or a one-game file to load and follow) or per unreadable file (an outcome)."""
    items: list[GameRecord | BinarySource | Outcome] = []
    files = 0
    for path in _expand(paths, fmt):
        files += 1
        kind = fmt or detect_format(path)
        try:
            if os.path.isdir(path):
                raise GameFileError("UnreadableFile", "cannot read: a directory with no game files")
            if kind in BINARY_FORMATS:
                items.append(BinarySource(path, kind))
                continue
            items.extend(read_games(path, kind))
        except GameFileError as error:
            items.append(Outcome(path, None, error=ErrorInfo("file", error.kind, str(error))))
    return files, items


def replay_paths(
    paths: Iterable[str],
    options: Options | None = None,
    fmt: str | None = None,
    jobs: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[Summary, Iterator[Outcome]]:
    """Read and follow every game of ``paths``: the summary (filled as the outcomes are
    consumed) and the outcomes, in file and game order, with ``jobs`` processes."""
    options = options or Options()
    files, items = collect(paths, fmt)
    summary = Summary(files=files)

    def outcomes() -> Iterator[Outcome]:
        done = 0
        for outcome in _run(items, options, jobs):
            summary.add(outcome)
            done += 1
            if on_progress is not None:
                on_progress(done, len(items))
            yield outcome

    return summary, outcomes()


def _run(
    items: list[GameRecord | BinarySource | Outcome], options: Options, jobs: int
) -> Iterator[Outcome]:
    if jobs <= 1 or len(items) < 2:
        for item in items:
            yield item if isinstance(item, Outcome) else replay_game(item, options)
        return
    size = max(1, min(128, len(items) // (jobs * 8)))
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        pending: deque[Future[list[Outcome]]] = deque()
        for chunk in chunks:
            pending.append(pool.submit(_replay_chunk, chunk, options))
            if len(pending) >= 4 * jobs:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


# -- the command -------------------------------------------------------------------------------


class _Progress:
    """A one-line progress bar on a terminal, drawn once the run has lasted a moment."""

    def __init__(self, stream: TextIO, enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < 0.5 or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        width = 30
        filled = width * done // max(total, 1)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games "
            f"{100 * done // max(total, 1)}% {now - self.start:.1f}s\x1b[K"
        )
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``replay`` subcommand's arguments; its function is :func:`main`."""
    parser.add_argument("files", nargs="+", metavar="FILE", help="game files or directories")
    parser.add_argument(
        "--format", choices=FORMATS, help="read every file in this format (default: by extension)"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="JSON Lines: an object per game, then a summary "
        "(schema: pydoc xqadj.integrations.replay)",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=_non_negative,
        default=1,
        metavar="N",
        help="follow games in N processes; 0 for one per core (default 1)",
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: if stderr is a terminal and stdout is not)",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--move-limit",
        type=_non_negative,
        default=0,
        metavar="N",
        help="natural move limit: N moves without a capture draw (default 0, off)",
    )
    parser.add_argument(
        "--explain", action="store_true", help="explain each ruling (a line under it)"
    )
    parser.add_argument(
        "--html",
        metavar="FILE",
        help="also write an HTML report: the summary and each ruled game drawn "
        "(xqadj.integrations.report)",
    )


def main(args: argparse.Namespace) -> int:
    """Run ``xqadj replay`` with parsed arguments; returns the exit status."""
    started = time.perf_counter()
    jobs = args.jobs or os.cpu_count() or 1
    options = Options(args.rules, args.move_limit, args.explain, args.forbidden_run)
    out, err = sys.stdout, sys.stderr
    for stream in (out, err):
        # Names and Chinese moves must not crash a terminal that cannot show them.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    out_tty = out.isatty()
    # By default the bar is drawn when the results go to a file and stderr is a terminal.
    show = args.progress if args.progress is not None else err.isatty() and not out_tty
    progress = _Progress(err, bool(show))
    summary, outcomes = replay_paths(args.files, options, args.format, jobs, progress.update)
    try:
        kept: list[Outcome] = []
        for outcome in outcomes:
            if args.html:
                kept.append(outcome)
            if out_tty or outcome.error is not None:
                progress.clear()
            if args.json:
                out.write(json.dumps(outcome.to_json(), ensure_ascii=False) + "\n")
            else:
                out.write(outcome.text() + "\n")
                if outcome.ruling is not None and outcome.ruling.explanation:
                    out.write(f"    {outcome.ruling.explanation}\n")
            if outcome.error is not None:
                out.flush()
                what = "game skipped" if outcome.error.scope == "game" else "file skipped"
                err.write(f"xqadj replay: {outcome.place()}: {outcome.error.message} ({what})\n")
                err.flush()
        progress.clear()
        seconds = time.perf_counter() - started
        if args.json:
            summary_json = summary.to_json(seconds, jobs, options)
            out.write(json.dumps(summary_json, ensure_ascii=False) + "\n")
        else:
            out.write(summary.text(seconds) + "\n")
        out.flush()
        if args.html:
            try:
                cards = replay_cards(kept, options, args.format)
                write_replay_report(args.html, cards, [summary.text(seconds)])
            except OSError as error:
                err.write(f"xqadj replay: cannot write the report: {error}\n")
                return 2
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
        return 1
    return summary.exit_status


# -- the HTML report ---------------------------------------------------------------------------


def replay_cards(
    outcomes: Iterable[Outcome], options: Options | None = None, fmt: str | None = None
) -> list[Card]:
    """A card of the HTML report (:mod:`xqadj.integrations.report`) for each ruled outcome.  An
    outcome keeps the ruling's summary, not the game, so each ruled game is read from its file
    again (each file once) and followed to its ruling with the same options."""
    options = options or Options()
    ruled = [o for o in outcomes if o.ruling is not None and o.index is not None]
    by_file: dict[str, list[Outcome]] = {}
    for outcome in ruled:
        by_file.setdefault(outcome.file, []).append(outcome)
    games: dict[tuple[str, int], GameRecord] = {}
    for file, wanted in by_file.items():
        indices = {o.index for o in wanted}
        for record in read_games(file, fmt or detect_format(file)):
            if record.index in indices:
                games[file, record.index] = record
    cards = []
    for outcome in ruled:
        assert outcome.index is not None
        found = games.get((outcome.file, outcome.index))
        followed = None if found is None else _follow(found, options)
        if followed is not None and followed.ruling is not None:
            cards.append(
                Card(outcome.source(), followed.board, followed.ruling, outcome.red, outcome.black)
            )
    return cards


def _follow(record: GameRecord, options: Options) -> Game | None:
    """Follow a replay record to its first ruling, as :func:`replay_game` does."""
    if not record.moves:
        return None
    parse = _parser(detect_notation(record.moves[0]))
    try:
        game = Game(
            record.fen,
            rules=options.rules,
            move_limit=options.move_limit,
            forbidden_run=options.forbidden_run,
        )
        for text in record.moves:
            if game.push(parse(game.board, text)) is not None:
                break
    except XqadjError:
        return None
    return game
