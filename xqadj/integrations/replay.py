"""Replay recorded games through the referee: ``xqadj replay FILE ...``.

Layer: integrations.

Each game of each file is followed move by move with :class:`~xqadj.referee.Game`, which rules
as it goes; the first ruling (checkmate, stalemate, perpetual check, perpetual chase, a
repetition draw, or the move limit when ``--move-limit`` is set) ends the replay of that game,
and the moves recorded after it are not read.  Players often play on after a third
repetition, because an arbiter rules only when asked; this command says what the arbiter would
have ruled.

Games are read, ruled and written one at a time: memory stays flat whatever the size of the
files, and the first result appears at once.  Reading is :mod:`.gamefiles` (formats,
encodings, how a broken game is cut); this module rules and reports.

**Formats**, chosen by the file's extension (``--format`` overrides it for every file).  A
directory stands for the files under it, in sorted order: those with a known extension, or
with ``--format`` every one (hidden files and directories excepted).

``pgn`` (``.pgn``)
    Games with ``[Tag "value"]`` headers; ``[FEN "..."]`` sets a start position other than the
    standard one, ``Event``, ``Red`` and ``Black`` name the game.  The notation of the move
    text is detected per game from its first move: ICCS coordinates (``1. h2e2 h9g7``, also
    ``H2-E2``), Chinese (``1. 炮二平五 马８进７``, read by :func:`xqadj.notation.parse_chinese`)
    or WXF (``1. C2=5 H8+7``).  Move numbers, ``{comments}``, ``;`` comments, ``(variations)``,
    ``$`` glyphs and ``!``/``?`` marks are skipped; a result token ends the game.  A tag line
    after move text always starts the next game, also inside a comment or a variation that was
    never closed: the game with the unclosed ``{`` or ``(`` is reported, and the games after it
    are read.  A tag line that does not parse (``[FEN "...`` without its closing quote) is an
    error for its game.  UTF-8, GB18030 (GBK) or Big5 text, or UTF-16/UTF-32, with any line
    ends (see :mod:`xqadj.integrations.gamefiles`); ``--encoding`` names the encoding instead
    of guessing it.
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
    summary: 14 games read from 1 file; ruled 1 (perpetual-chase 1); not ruled 12;
    skipped 1 (IllegalMoveError 1); 0.02 s                              (one line)

``--explain`` adds the ruling's explanation, indented, under each ruled game.

**Errors**: an unreadable, unknown or corrupt file, and a game that cannot be followed (bad
FEN, malformed record, undecodable line, illegal move, a worker process that died), are
reported on stderr with their place (file, game index and line, ply and move text), skipped,
and the run goes on (a missing folder is ``no such folder``, one without game files ``no game
files in FOLDER``).  The summary counts the skipped games and files by kind.  Exit status: 0
when every game was read, 1 when some game or file was skipped, 2 for a usage error or an
output (stdout, ``--csv``) that cannot be written, said in one line.

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
    ``AmbiguousMoveError``, ``InvalidFenError``, ``MalformedRecord``, ``WorkerDied``,
    ``UnreadableFile``, ``UnknownFormat``, ``NotText``, ``CorruptFile``, ...), ``message`` (str).
``{"type": "summary", ...}``, last:
    ``files`` (int, files named or found), ``files_skipped`` (int), ``games`` (int, games
    read: ruled + not ruled + skipped), ``ruled`` (int), ``by_reason`` (object: every reason
    above with its count), ``not_ruled``, ``skipped`` (int), ``skipped_by_error`` and
    ``files_skipped_by_error`` (objects: each error kind seen with its count), ``seconds``
    (float, wall time), ``jobs`` (int), ``cluster`` (str or null), ``rules`` (str),
    ``move_limit`` (int), ``forbidden_run`` (bool).

**CSV** (``--csv FILE``): one row per game (and per skipped file), with a header: ``file``,
``index``, ``line``, ``event``, ``red``, ``black``, ``notation``, ``start_fen``, ``plies``,
``status`` (``ruled``, ``not-ruled``, ``skipped``, ``file-skipped``), ``result``, ``reason``,
``ruling_ply``, ``offender``, ``article``, ``cycle`` (ICCS moves separated by spaces),
``error``, ``error_ply``, ``move``, ``message``; empty cells for what does not apply.

**Parallel runs.**  Files are cut into chunks of games by byte ranges at game boundaries
(:func:`.gamefiles.plan_chunks`); each chunk is read and ruled by a worker, and the
results are written in file order, the same line for line as one process gives.  ``--jobs N``
uses N local processes (``0``: one per core), with a bounded number of chunks in flight.  When
a worker process dies (killed, out of memory), the pool breaks and every chunk in flight fails
with it: each is ruled again in a new process of its own, so no game of a healthy worker is
lost; only a chunk whose own process dies too has its games reported as ``WorkerDied`` errors
with their place (exit status 1).  ``--cluster tcp://HOST:8786`` sends the chunks to a running Dask
scheduler, ``--cluster local[:N]`` starts a Dask ``LocalCluster`` of N worker processes
(:mod:`xqadj.integrations.cluster`; the extra ``xqadj[cluster]``); Dask retries the chunk of a lost
worker.  ``--chunk-size BYTES`` sets the chunk length (default 256 KiB).  A progress bar is
drawn on stderr when it is a terminal and the run takes a while (``--progress`` /
``--no-progress`` force it on or off).

**The library side**: :func:`rule_game` and :func:`rule_games` rule games given as start
position and moves (in any notation) and give :class:`Outcome` objects, the ones ``--json``
writes (:meth:`Outcome.to_json`); :func:`.gamefiles.read_games` yields the games of a
file, :func:`replay_game` follows one record, :func:`replay_paths` does both for many files.

>>> [outcome.text() for outcome in rule_games([("startpos", "h2e2 h9g7 h0g2 i9h9")])]
['<games>#1: none (4 plies)']
>>> rule_game({"moves": ["炮二平五", "马８进７"], "event": "demo"}).to_json()["notation"]
'chinese'
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, TextIO

from xqadj.board import COLOR_NAMES, STARTING_FEN, Board, Move, XqadjError
from xqadj.integrations.arguments import (
    add_picture_arguments,
    add_rules_arguments,
    picture_coordinates,
)
from xqadj.integrations.cluster import address_argument
from xqadj.integrations.gamefiles import (
    BINARY_FORMATS,
    ENCODINGS,
    EXTENSIONS,
    FORMATS,
    BinarySource,
    Chunk,
    GameFileError,
    GameRecord,
    detect_format,
    expand_paths,
    load_binary,
    no_game_files,
    parse_lines,
    parse_pgn,
    plan_chunks,
    read_chunk,
    read_games,
)
from xqadj.integrations.report import Card, Drawing, write_replay_report
from xqadj.notation import parse_chinese, parse_wxf
from xqadj.referee import Game, Reason, Ruling

__all__ = [
    "BINARY_FORMATS",
    "EXTENSIONS",
    "FORMATS",
    "BinarySource",
    "GameFileError",
    "GameRecord",
    "Options",
    "Outcome",
    "Summary",
    "add_arguments",
    "detect_format",
    "load_binary",
    "main",
    "move_parser",
    "parse_lines",
    "parse_pgn",
    "read_games",
    "replay_game",
    "replay_paths",
    "rule_chunk",
    "rule_game",
    "rule_games",
]

#: The form of an ICCS move (checked loosely, so that a typo is reported as a bad ICCS move).
_ICCS = re.compile(r"^[A-Za-z][0-9]-?[A-Za-z][0-9]$")

#: How long a chunk of a file is, by default, for parallel runs.
DEFAULT_CHUNK_BYTES = 256 * 1024

DESCRIPTION = """\
Follow every game of the given files (PGN, XQF, CBR, CBF, or `FEN | moves` lines) with the
referee and print each game's first ruling, or `none`, then a summary. Games are read, ruled and
written one at a time. Bad files and bad games are reported on stderr and skipped. Exit status:
0 if every game was read, 1 if some were skipped, 2 for a usage error."""


@dataclass(frozen=True)
class Options:
    """How games are ruled: the rules profile, the move limit, explanations, the forbidden run."""

    rules: str = "axf"
    move_limit: int = 0
    explain: bool = False
    forbidden_run: bool = False

    def new_game(self, fen: str) -> Game:
        """A game from ``fen`` under these options (raises :class:`XqadjError` for a bad FEN)."""
        return Game(
            fen, rules=self.rules, move_limit=self.move_limit, forbidden_run=self.forbidden_run
        )


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


CSV_COLUMNS = (
    "file",
    "index",
    "line",
    "event",
    "red",
    "black",
    "notation",
    "start_fen",
    "plies",
    "status",
    "result",
    "reason",
    "ruling_ply",
    "offender",
    "article",
    "cycle",
    "error",
    "error_ply",
    "move",
    "message",
)


def csv_row(outcome: Outcome) -> dict[str, Any]:
    """One ``--csv`` row (keys: :data:`CSV_COLUMNS`; ``None`` for an empty cell)."""
    error, ruling = outcome.error, outcome.ruling
    if error is not None:
        status = "skipped" if error.scope == "game" else "file-skipped"
    else:
        status = "not-ruled" if ruling is None else "ruled"
    return {
        "file": outcome.file,
        "index": outcome.index,
        "line": outcome.line,
        "event": outcome.event,
        "red": outcome.red,
        "black": outcome.black,
        "notation": outcome.notation,
        "start_fen": outcome.start_fen,
        "plies": None if error is not None else outcome.plies,
        "status": status,
        "result": ruling and ruling.result,
        "reason": ruling and ruling.reason,
        "ruling_ply": ruling and ruling.ply,
        "offender": ruling and ruling.offender,
        "article": ruling and ruling.article,
        "cycle": ruling and " ".join(ruling.cycle),
        "error": error and error.kind,
        "error_ply": error and error.ply,
        "move": error and error.move,
        "message": error and error.message,
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
    #: Skipped games and files by the kind of error (``IllegalMoveError``, ...).
    skipped_by_error: dict[str, int] = field(default_factory=dict)
    files_skipped_by_error: dict[str, int] = field(default_factory=dict)

    def add(self, outcome: Outcome) -> None:
        if outcome.is_file_error:
            assert outcome.error is not None
            self.files_skipped += 1
            kind = outcome.error.kind
            self.files_skipped_by_error[kind] = self.files_skipped_by_error.get(kind, 0) + 1
            return
        self.games += 1
        if outcome.error is not None:
            self.skipped += 1
            kind = outcome.error.kind
            self.skipped_by_error[kind] = self.skipped_by_error.get(kind, 0) + 1
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
            f"skipped {self.skipped}{_counts(self.skipped_by_error)}"
        )
        if self.files_skipped:
            text += f"; files skipped {self.files_skipped}{_counts(self.files_skipped_by_error)}"
        return text + f"; {seconds:.2f} s"

    def to_json(
        self, seconds: float, jobs: int, options: Options, cluster: str | None = None
    ) -> dict[str, Any]:
        return {
            "type": "summary",
            "files": self.files,
            "files_skipped": self.files_skipped,
            "games": self.games,
            "ruled": self.ruled,
            "by_reason": dict(self.by_reason),
            "not_ruled": self.not_ruled,
            "skipped": self.skipped,
            "skipped_by_error": dict(self.skipped_by_error),
            "files_skipped_by_error": dict(self.files_skipped_by_error),
            "seconds": round(seconds, 3),
            "jobs": jobs,
            "cluster": cluster,
            "rules": options.rules,
            "move_limit": options.move_limit,
            "forbidden_run": options.forbidden_run,
        }


def _counts(counts: Mapping[str, int]) -> str:
    """`` (A 2, B 1)`` in order of first appearance, or nothing."""
    inner = ", ".join(f"{kind} {n}" for kind, n in counts.items() if n)
    return f" ({inner})" if inner else ""


# -- following games ---------------------------------------------------------------------------


def detect_notation(text: str) -> str:
    """``'iccs'``, ``'chinese'`` or ``'wxf'``, from the form of one move text."""
    if _ICCS.match(text):
        return "iccs"
    if not text.isascii():
        return "chinese"
    return "wxf"


def move_parser(notation: str) -> Callable[[Board, str], Move]:
    """The reader of one move text in ``notation`` (``'iccs'``, also ``H2-E2``; ``'chinese'``;
    ``'wxf'``), as games are read: a function of the board and the text."""
    if notation == "iccs":

        def iccs(board: Board, text: str) -> Move:
            if len(text) == 5 and text[2] == "-":
                text = text[:2] + text[3:]
            return Move.from_iccs(text)

        return iccs
    return parse_chinese if notation == "chinese" else parse_wxf


def parse_move(board: Board, text: str) -> Move:
    """One move in ICCS, WXF or Chinese notation, detected from its form as for a game's first
    move; raises :class:`XqadjError` for a move that does not parse or is not legal.

    >>> parse_move(Board(), "炮二平五"), parse_move(Board(), "C2=5"), parse_move(Board(), "h2e2")
    (Move.from_iccs('h2e2'), Move.from_iccs('h2e2'), Move.from_iccs('h2e2'))
    """
    return move_parser(detect_notation(text))(board, text)


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
        game = options.new_game(record.fen)
    except XqadjError as error:
        message = f"bad FEN {record.fen!r}: {error}"
        return replace(base, error=ErrorInfo("game", type(error).__name__, message, 0))
    ruling = game.ruling
    if ruling is None and notation is not None:
        parse = move_parser(notation)
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


# -- the Python API: games given as values -----------------------------------------------------

#: A game for :func:`rule_game`: a :class:`GameRecord`, a ``(fen, moves)`` pair, or a mapping
#: with ``moves`` and optionally ``fen``, ``event``, ``red``, ``black``, ``file``, ``index``.
#: ``fen`` may be ``None`` or ``"startpos"`` for the standard position; ``moves`` a string of
#: moves separated by spaces or a sequence of move texts, in ICCS, Chinese or WXF notation.
GameLike = GameRecord | tuple[str | None, str | Sequence[str]] | Mapping[str, Any]


def _record(game: GameLike, index: int, file: str) -> GameRecord:
    if isinstance(game, GameRecord):
        return game
    if isinstance(game, Mapping):
        fen, moves = game.get("fen"), game.get("moves", ())
        names = {key: game.get(key) for key in ("event", "red", "black")}
        file, index = str(game.get("file", file)), int(game.get("index", index))
    else:
        fen, moves = game
        names = {}
    if fen is None or fen == "startpos":
        fen = STARTING_FEN
    texts = tuple(moves.split() if isinstance(moves, str) else (str(m) for m in moves))
    return GameRecord(file, index, None, str(fen), texts, **names)


def rule_game(
    game: GameLike, options: Options | None = None, *, index: int = 1, file: str = "<games>"
) -> Outcome:
    """Rule one game (see :data:`GameLike`): its :class:`Outcome`, as ``--json`` writes it."""
    return replay_game(_record(game, index, file), options)


def rule_games(
    games: Iterable[GameLike], options: Options | None = None, *, file: str = "<games>"
) -> Iterator[Outcome]:
    """Rule each game of an iterable, lazily and in order; games without an index are numbered
    from 1.  A bad game gives an :class:`Outcome` with an ``error``, never an exception."""
    for index, game in enumerate(games, 1):
        yield rule_game(game, options, index=index, file=file)


# -- chunks of files, in workers ---------------------------------------------------------------


def _outcomes_of_chunk(chunk: Chunk, options: Options) -> Iterator[Outcome]:
    try:
        for record in read_chunk(chunk):
            yield replay_game(record, options)
    except GameFileError as error:
        yield Outcome(chunk.name, None, error=ErrorInfo("file", error.kind, str(error)))


def rule_chunk(chunk: Chunk, options: Options | None = None) -> list[Outcome]:
    """Read and rule the games of one chunk: the function a worker runs.  Game indexes count
    from 1 within the chunk (:func:`replay_paths` renumbers them)."""
    return list(_outcomes_of_chunk(chunk, options or Options()))


def _lost(chunk: Chunk, why: str) -> list[Outcome]:
    """The games of a chunk whose worker failed, each reported as lost (read here, so that
    every lost game is named with its place)."""
    try:
        records = list(read_chunk(chunk))
    except GameFileError as error:
        return [Outcome(chunk.name, None, error=ErrorInfo("file", error.kind, str(error)))]
    message = f"not ruled: {why}"
    return [
        Outcome(
            r.file,
            r.index,
            r.line,
            r.event,
            r.red,
            r.black,
            error=ErrorInfo("game", "WorkerDied", message),
        )
        for r in records
    ]


@dataclass(frozen=True)
class _Planned:
    """One step of a run: a chunk to rule, or a file that could not be read; ``size`` is the
    number of bytes it stands for (for the progress bar); ``file_number`` tells files apart."""

    item: Chunk | Outcome
    size: int
    file_number: int


def _plan(
    paths: Sequence[str], fmt: str | None, chunk_bytes: int | None, encoding: str | None = None
) -> Iterator[_Planned]:
    for number, path in enumerate(paths):
        kind = fmt or detect_format(path)
        size = _size(path)
        try:
            if not os.path.lexists(path):
                # No extension: most likely a folder (``replay ../games``), so say so.
                raise GameFileError(
                    "UnreadableFile", "cannot read: no such file" if kind else "no such folder"
                )
            if os.path.isdir(path):
                raise no_game_files(path)
            if kind is None:
                suffix = os.path.splitext(path)[1]
                raise GameFileError(
                    "UnknownFormat", f"unknown format (extension {suffix!r}); use --format"
                )
            chunks = plan_chunks(path, os.path.abspath(path), kind, chunk_bytes, encoding)
            for chunk in chunks:
                end = size if chunk.end is None else chunk.end
                yield _Planned(chunk, max(0, end - chunk.start), number)
        except GameFileError as error:
            outcome = Outcome(path, None, error=ErrorInfo("file", error.kind, str(error)))
            yield _Planned(outcome, size, number)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path) if os.path.isfile(path) else 0
    except OSError:
        return 0


class ResultFuture(Protocol):
    def result(self) -> list[Outcome]: ...


class ChunkExecutor(Protocol):
    """Where chunks are ruled: local processes or a Dask cluster (:mod:`.cluster`)."""

    #: How many chunks may be in flight at once.
    slots: int

    def submit(self, chunk: Chunk, options: Options) -> ResultFuture: ...

    def failure(self, error: BaseException) -> str:
        """Why a chunk's result could not be had, for the lost games' message."""
        ...


def _ignore_interrupts() -> None:
    """In a ``--jobs`` worker: leave Ctrl-C to the parent, which stops the run and the pool.
    Otherwise Ctrl-C, sent to the whole process group, prints a traceback from each worker that
    waits for its next chunk (as ``--cluster local`` workers ignore it too)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _LocalPool:
    """``--jobs N``: a process pool, started anew if a worker process dies.

    When one worker dies, the pool breaks and every chunk in flight fails with it, also those
    of the healthy workers.  Each of them is ruled again (:meth:`retry`) in a process of its
    own, so that a chunk that kills its worker every time (a game that exhausts memory) takes
    no other chunk down with it; only a chunk whose own process dies too is lost.
    """

    def __init__(
        self, jobs: int, task: Callable[[Chunk, Options], list[Outcome]] | None = None
    ) -> None:
        self.jobs = jobs
        self.slots = 2 * jobs
        self.task = task or rule_chunk
        self.pool = self._new_pool()

    def _new_pool(self, workers: int | None = None) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=workers or self.jobs, initializer=_ignore_interrupts)

    def submit(self, chunk: Chunk, options: Options) -> Future[list[Outcome]]:
        try:
            return self.pool.submit(self.task, chunk, options)
        except BrokenProcessPool:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = self._new_pool()
            return self.pool.submit(self.task, chunk, options)

    def retry(self, chunk: Chunk, options: Options, error: BaseException) -> list[Outcome]:
        """The outcomes of a chunk whose result failed with ``error``: ruled again in a new
        process of its own when a worker died; raises what that run raises."""
        if not isinstance(error, BrokenProcessPool):
            raise error
        alone = self._new_pool(1)
        try:
            return alone.submit(self.task, chunk, options).result()
        finally:
            alone.shutdown(wait=True, cancel_futures=True)

    def failure(self, error: BaseException) -> str:
        if isinstance(error, BrokenProcessPool):
            return "a worker process died (killed, or out of memory) while these games were in it"
        return f"the worker failed: {type(error).__name__}: {error}"

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def _rule_in_order(
    planned: Iterator[_Planned], options: Options, executor: ChunkExecutor | None
) -> Iterator[tuple[_Planned, Iterator[Outcome] | list[Outcome]]]:
    """Each step with its outcomes, in plan order: ruled here, lazily, without an executor;
    else with at most ``executor.slots`` chunks in flight."""
    if executor is None:
        for step in planned:
            item = step.item
            yield step, ([item] if isinstance(item, Outcome) else _outcomes_of_chunk(item, options))
        return
    pending: deque[tuple[_Planned, ResultFuture | None]] = deque()
    in_flight = 0

    def head() -> tuple[_Planned, list[Outcome]]:
        nonlocal in_flight
        step, future = pending.popleft()
        if future is None:
            assert isinstance(step.item, Outcome)
            return step, [step.item]
        in_flight -= 1
        assert isinstance(step.item, Chunk)
        try:
            return step, future.result()
        except Exception as error:  # the worker died or failed: name the games it held
            if isinstance(executor, _LocalPool):  # (Dask retries by itself)
                try:
                    return step, executor.retry(step.item, options, error)
                except Exception as again:
                    error = again
            return step, _lost(step.item, executor.failure(error))

    for step in planned:
        if isinstance(step.item, Outcome):
            pending.append((step, None))
        else:
            pending.append((step, executor.submit(step.item, options)))
            in_flight += 1
        while in_flight >= executor.slots or (pending and pending[0][1] is None):
            yield head()
    while pending:
        yield head()


def replay_paths(
    paths: Iterable[str],
    options: Options | None = None,
    fmt: str | None = None,
    jobs: int = 1,
    on_progress: Callable[[int, float], None] | None = None,
    *,
    cluster: str | None = None,
    chunk_bytes: int | None = DEFAULT_CHUNK_BYTES,
    encoding: str | None = None,
) -> tuple[Summary, Iterator[Outcome]]:
    """Read and follow every game of ``paths``: the summary (filled as the outcomes are
    consumed) and the outcomes, one at a time, in file and game order, with ``jobs`` local
    processes or on the Dask ``cluster`` (``"local:N"`` or a scheduler's address).

    ``encoding`` (a value of :data:`.gamefiles.ENCODINGS`) decodes every text file without a
    byte-order mark as that encoding instead of guessing.  ``on_progress(games, fraction)`` is
    called after each game with the fraction of the bytes
    read.  Raises :class:`.cluster.ClusterError` (an :class:`XqadjError`) at once when
    Dask is missing for ``cluster``.
    """
    options = options or Options()
    files = list(expand_paths(paths, fmt))
    summary = Summary(files=len(files))
    total = sum(_size(path) for path in files) or 1
    executor_context: Any = None
    if cluster is not None:
        from xqadj.integrations.cluster import check_available, cluster_executor

        check_available()
        executor_context = cluster_executor(cluster, rule_chunk)

    def outcomes() -> Iterator[Outcome]:
        done_bytes = 0
        games = 0
        number, first_index = -1, 0  # the file being written and its games so far
        local = _LocalPool(jobs) if cluster is None and jobs > 1 else None
        context = executor_context if executor_context is not None else _Null(local)
        try:
            with context as executor:
                planned = _plan(files, fmt, chunk_bytes, encoding)
                for step, results in _rule_in_order(planned, options, executor):
                    if step.file_number != number:
                        number, first_index = step.file_number, 0
                    last = first_index
                    for outcome in results:
                        if outcome.index is not None and not outcome.is_file_error:
                            last = first_index + outcome.index
                            outcome = replace(outcome, index=last)
                        summary.add(outcome)
                        games += 1
                        if on_progress is not None:
                            on_progress(games, done_bytes / total)
                        yield outcome
                    first_index = last
                    done_bytes += step.size
                    if on_progress is not None:
                        on_progress(games, min(1.0, done_bytes / total))
        finally:
            if local is not None:
                local.close()

    return summary, outcomes()


class _Null:
    """A context manager for an executor that needs no start (or none at all)."""

    def __init__(self, executor: _LocalPool | None) -> None:
        self.executor = executor

    def __enter__(self) -> _LocalPool | None:
        return self.executor

    def __exit__(self, *exc: object) -> None:
        return None


# -- the command -------------------------------------------------------------------------------


class _Progress:
    """A one-line progress bar on a terminal, drawn once the run has lasted a moment."""

    def __init__(self, stream: TextIO, enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, games: int, fraction: float) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < 0.5 or (now - self.last < 0.1 and fraction < 1):
            return
        self.last = now
        width = 30
        filled = int(width * fraction)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {games} games "
            f"{int(100 * fraction)}% {now - self.start:.1f}s\x1b[K"
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


def _positive(text: str) -> int:
    value = _non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``replay`` subcommand's arguments; its function is :func:`main`."""
    parser.add_argument("files", nargs="+", metavar="FILE", help="game files or directories")
    parser.add_argument(
        "--format", choices=FORMATS, help="read every file in this format (default: by extension)"
    )
    parser.add_argument(
        "--encoding",
        choices=tuple(ENCODINGS),
        default="auto",
        help="text files without a byte-order mark: auto (default: UTF-8, else GB18030 or Big5, "
        "guessed from the file's start), or read every line as utf-8, gb18030 or big5",
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
        "--cluster",
        type=address_argument,
        metavar="ADDRESS",
        help="rule on a Dask cluster: tcp://HOST:8786 for a running scheduler, local[:N] to "
        "start N local worker processes (needs pip install 'xqadj[cluster]')",
    )
    parser.add_argument(
        "--chunk-size",
        type=_positive,
        default=DEFAULT_CHUNK_BYTES,
        metavar="BYTES",
        help=f"cut files into chunks of about BYTES for --jobs and --cluster "
        f"(default {DEFAULT_CHUNK_BYTES})",
    )
    parser.add_argument(
        "--csv",
        metavar="FILE",
        help="also write one CSV row per game to FILE (columns: pydoc xqadj.integrations.replay)",
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
        help="also write an HTML report: the summary, an index and each ruled game drawn "
        "(xqadj.integrations.report)",
    )
    add_picture_arguments(parser, " (--html's boards)")


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
    if args.html:  # checked now, not found unwritable after the last game
        html = Path(args.html)
        if html.is_dir() or not os.access(html if html.exists() else html.parent, os.W_OK):
            err.write(f"xqadj replay: cannot write the report: {args.html}: no writable folder\n")
            return 2
    csv_file: TextIO | None = None
    status = 2
    if args.csv is not None:
        try:
            csv_file = open(args.csv, "w", encoding="utf-8", newline="")  # noqa: SIM115
        except OSError as error:
            err.write(f"xqadj replay: --csv {args.csv}: {error.strerror or error}\n")
            return 2
    try:
        summary, outcomes = replay_paths(
            args.files,
            options,
            args.format,
            jobs,
            progress.update,
            cluster=args.cluster,
            chunk_bytes=args.chunk_size,
            encoding=ENCODINGS[args.encoding],
        )
        status = _write(args, outcomes, summary, csv_file, progress, started, jobs, options)
    except _WriteError as error:
        status = error.report(err)
    finally:
        if csv_file is not None:
            try:
                csv_file.close()
            except OSError as error:  # the last buffered rows did not fit (a full disk)
                if status != 2:
                    status = _WriteError(f"--csv {args.csv}", error).report(err)
    return status


class _WriteError(Exception):
    """An output that cannot be written (a full disk, a quota, an I/O error): ``where`` names
    it for the one error line."""

    def __init__(self, where: str, error: OSError) -> None:
        super().__init__(where)
        self.where = where
        self.error = error

    def report(self, err: TextIO) -> int:
        """Say so on ``err``; the exit status (2).  Whatever stdout still buffers is dropped, so
        that the interpreter's last flush does not print a traceback of its own."""
        err.write(f"xqadj replay: cannot write {self.where}: {self.error.strerror or self.error}\n")
        err.flush()
        if self.where.startswith("the output"):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        return 2


def _write(
    args: argparse.Namespace,
    outcomes: Iterator[Outcome],
    summary: Summary,
    csv_file: TextIO | None,
    progress: _Progress,
    started: float,
    jobs: int,
    options: Options,
) -> int:
    """Write each outcome as it comes (stdout, stderr, CSV), then the summary."""
    out, err = sys.stdout, sys.stderr
    out_tty = out.isatty()
    rows = None
    flushed = 0.0
    try:
        if csv_file is not None:
            rows = csv.DictWriter(csv_file, CSV_COLUMNS)
            try:
                rows.writeheader()
            except OSError as error:
                raise _WriteError(f"--csv {args.csv}", error) from None
        kept: list[Outcome] = []
        for outcome in outcomes:
            if args.html and outcome.ruling is not None:  # only ruled games get a card
                kept.append(outcome)
            if out_tty or outcome.error is not None:
                progress.clear()
            if args.json:
                out.write(json.dumps(outcome.to_json(), ensure_ascii=False) + "\n")
            else:
                out.write(outcome.text() + "\n")
                if outcome.ruling is not None and outcome.ruling.explanation:
                    out.write(f"    {outcome.ruling.explanation}\n")
            if rows is not None:
                try:
                    rows.writerow(csv_row(outcome))
                except OSError as error:
                    raise _WriteError(f"--csv {args.csv}", error) from None
            if outcome.error is not None:
                out.flush()
                what = "game skipped" if outcome.error.scope == "game" else "file skipped"
                err.write(f"xqadj replay: {outcome.place()}: {outcome.error.message} ({what})\n")
                err.flush()
            now = time.monotonic()
            if now - flushed > 0.2:  # results show as they come, without a write per line
                out.flush()
                flushed = now
        progress.clear()
        seconds = time.perf_counter() - started
        if args.json:
            summary_json = summary.to_json(seconds, jobs, options, args.cluster)
            out.write(json.dumps(summary_json, ensure_ascii=False) + "\n")
        else:
            out.write(summary.text(seconds) + "\n")
        out.flush()
        if args.html:
            try:
                cards = replay_cards(kept, options, args.format, ENCODINGS[args.encoding])
                drawing = Drawing(args.letters, args.flip, picture_coordinates(args))
                write_replay_report(
                    args.html, cards, [summary.text(seconds)], drawing=drawing, rules=args.rules
                )
            except OSError as error:
                err.write(f"xqadj replay: cannot write the report: {error}\n")
                return 2
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as Unix tools do, with the status of
        # a process ended by SIGPIPE (128 + 13), as match, demo and show exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
        _close(outcomes)
        return 141
    except KeyboardInterrupt:
        progress.clear()
        err.write("xqadj replay: interrupted\n")
        return 130
    except _WriteError:
        _close(outcomes)
        raise
    except OSError as error:  # stdout: a full disk, a quota (``> /full/disk/out.jsonl``)
        progress.clear()
        if error.filename is not None:  # a file of its own, not the output: as before
            raise
        _close(outcomes)
        raise _WriteError("the output (stdout)", error) from None
    return summary.exit_status


def _close(outcomes: Iterator[Outcome]) -> None:
    """Stop the run now, in order: the workers, the pool or the cluster (not at the
    interpreter's exit, where a Dask worker still sending its heartbeat prints a traceback)."""
    close = getattr(outcomes, "close", None)
    if close is not None:
        close()


# -- the HTML report ---------------------------------------------------------------------------


def replay_cards(
    outcomes: Iterable[Outcome],
    options: Options | None = None,
    fmt: str | None = None,
    encoding: str | None = None,
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
        for record in read_games(file, fmt or detect_format(file), encoding=encoding):
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
    parse = move_parser(detect_notation(record.moves[0]))
    try:
        game = options.new_game(record.fen)
        for text in record.moves:
            if game.push(parse(game.board, text)) is not None:
                break
    except XqadjError:
        return None
    return game
