"""Reading game files for ``xqadj replay``: one game at a time, from a whole file or from a byte

Layer: integrations (below the replay and the opening books, which read files with it).
range of it.

Text files (PGN and ``FEN | moves`` lines) are read line by line from a binary handle, so that
memory stays flat whatever the size of the file, and so that a file can be cut into *chunks*:
byte ranges that start at a game boundary, each read on its own (by a worker process or a Dask
worker) with the same result, game for game, as reading the whole file.

**Encodings.**  A byte-order mark names the encoding (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE).
Without one, a file whose first 64 KiB hold NUL bytes in the pattern of ASCII text in UTF-16 is
read as UTF-16 (LE or BE); other NUL bytes mean a binary file, refused as ``not a text file``.
Otherwise each line is decoded as UTF-8, else as GB18030 (which covers GBK and GB2312, the usual
encodings of Chinese PGN), or else as Big5 when the file's first 64 KiB, not UTF-8, read as more
Chinese move text (进/進 退 平 车/車 ...) in Big5 than in GB18030; a line that is none of them is
an error for the game it belongs to.  ``encoding`` (``--encoding``) names the encoding instead,
for every line of a file without a byte-order mark.  Lines end in LF, CRLF, or CR alone (old
Mac OS files: no LF in the first 64 KiB, and a CR).

**Game boundaries in PGN.**  A *tag line* is a line whose first non-blank character is ``[``
followed by a tag name and an opening quote (``[Event "``).  A tag line that follows a line of
move text (any non-blank line that is not a tag line and not a ``%`` escape line) starts the next
game, *always*: also inside a ``{comment}`` or a ``(variation)`` that was never closed.  That is
how a runaway comment or variation is cut: the game it was opened in is reported as malformed
(``unclosed '{' comment opened at line N``) and skipped, and the games after it are read as if
nothing had happened.  The price: a comment that really does hold a line beginning with
``[Name "`` is cut there too.  A tag line that does not parse (``[FEN "...`` without its closing
quote or bracket) makes its game malformed; the game is not followed from another position.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO

from xqadj.board import STARTING_FEN, XqadjError

__all__ = [
    "BINARY_FORMATS",
    "EXTENSIONS",
    "FORMATS",
    "BinarySource",
    "Chunk",
    "GameFileError",
    "GameRecord",
    "TextEncoding",
    "detect_format",
    "load_binary",
    "parse_lines",
    "parse_pgn",
    "plan_chunks",
    "read_chunk",
    "read_games",
    "sniff_encoding",
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


class GameFileError(XqadjError):
    """A file that cannot be read as games: ``kind`` says why (``UnreadableFile``, ...)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


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
    """A one-game file (XQF, CBR, CBF), loaded when it is followed, so that loading happens in
    the worker processes too."""

    file: str
    fmt: str


def detect_format(path: str | Path) -> str | None:
    """The format for ``path``'s extension, or ``None``."""
    return EXTENSIONS.get(Path(path).suffix.lower())


# -- encodings and lines -----------------------------------------------------------------------


@dataclass(frozen=True)
class TextEncoding:
    """How a text file is decoded: each line as ``codec``, else as ``fallback`` (by default
    UTF-8, else GB18030, line by line), the length of its byte-order mark, its code unit in
    bytes, and whether its lines end in CR alone (old Mac OS files)."""

    codec: str = "utf-8"
    bom: int = 0
    unit: int = 1
    fallback: str | None = "gb18030"
    cr: bool = False

    @property
    def newline(self) -> bytes:
        end = "\r" if self.cr else "\n"
        return end.encode("ascii") if self.unit == 1 else end.encode(self.codec)

    def decode(self, raw: bytes) -> str | None:
        """One line's text without its line end, or ``None`` if it cannot be decoded."""
        try:
            text = raw.decode(self.codec)
        except UnicodeDecodeError:
            if self.fallback is None:
                return None
            try:
                text = raw.decode(self.fallback)
            except UnicodeDecodeError:
                return None
        return text.rstrip("\r\n")

    def undecodable(self, lineno: int) -> str:
        """The problem of a line that :meth:`decode` could not decode."""
        names = [_CODEC_NAMES.get(self.codec, self.codec)]
        if self.unit == 1 and self.fallback is not None:
            names.append(_CODEC_NAMES.get(self.fallback, self.fallback))
        if len(names) == 1:
            return f"line {lineno} is not {names[0]} text"
        return f"line {lineno} is neither {names[0]} nor {names[1]} text"


_CODEC_NAMES = {"utf-8": "UTF-8", "gb18030": "GB18030", "big5hkscs": "Big5"}

#: ``--encoding`` names: ``auto`` sniffs (see the module docstring); the others are read as
#: that encoding only, line by line.
ENCODINGS = {"auto": None, "utf-8": "utf-8", "gb18030": "gb18030", "big5": "big5hkscs"}

#: Characters of Chinese move text, in both scripts: which of GB18030 and Big5 reads more of
#: them from a file's first bytes is the file's encoding.
_MOVE_CHARACTERS = frozenset("进進退平车車马馬炮砲将將帅帥士仕象相兵卒一二三四五六七八九前后後")


def _chinese_codec(head: bytes) -> str:
    """``"gb18030"``, or ``"big5hkscs"`` when the bytes read as more Chinese move text in Big5
    than in GB18030 (GB18030 decodes Big5 bytes too, as other characters)."""

    def score(codec: str) -> int:
        text = head.decode(codec, errors="replace")
        return sum(character in _MOVE_CHARACTERS for character in text) - text.count("\ufffd")

    return "big5hkscs" if score("big5hkscs") > max(0, score("gb18030")) else "gb18030"


def _line_ends(head: bytes, encoding: TextEncoding) -> TextEncoding:
    """``encoding`` with ``cr`` set when ``head`` has CR line ends and no LF at all."""
    codec = "ascii" if encoding.unit == 1 else encoding.codec
    lf, cr = "\n".encode(codec), "\r".encode(codec)
    body = head[encoding.bom :]
    body = body[: len(body) // encoding.unit * encoding.unit]
    if lf not in body and cr in body:
        return replace(encoding, cr=True)
    return encoding


_BOMS = (
    (b"\xef\xbb\xbf", "utf-8", 1),
    (b"\xff\xfe\x00\x00", "utf-32-le", 4),
    (b"\x00\x00\xfe\xff", "utf-32-be", 4),
    (b"\xff\xfe", "utf-16-le", 2),
    (b"\xfe\xff", "utf-16-be", 2),
)
_SNIFF_BYTES = 1 << 16


def sniff_encoding(head: bytes, encoding: str | None = None) -> TextEncoding:
    """The encoding of a text file from its first bytes; :class:`GameFileError` for binary.
    ``encoding`` (a value of :data:`ENCODINGS`) skips the guess for files without a
    byte-order mark: each line is decoded as that encoding only."""
    return _line_ends(head, _sniff_codec(head, encoding))


def _sniff_codec(head: bytes, encoding: str | None) -> TextEncoding:
    for bom, codec, unit in _BOMS:
        if head.startswith(bom):
            # A UTF-8 mark still allows GB18030 lines (files edited by hand); others do not.
            fallback = "gb18030" if unit == 1 else None
            return TextEncoding(codec, len(bom), unit, fallback)
    if encoding is not None:
        return TextEncoding(encoding, fallback=None)
    if b"\x00" not in head:
        if head.isascii():
            return TextEncoding()
        try:
            head.decode("utf-8")
            return TextEncoding()
        except UnicodeDecodeError as error:
            if error.start >= len(head) - 4:  # a character cut at the end of the sample
                return TextEncoding()
        return TextEncoding(fallback=_chinese_codec(head))
    pairs = len(head) // 2 or 1
    even, odd = head[0::2].count(0), head[1::2].count(0)
    # ASCII text in UTF-16 has a NUL in every other byte, CJK text a few anywhere; PGN is
    # mostly ASCII (tags, move numbers, spaces).
    for codec, high, low in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
        if high > 0.25 * pairs and low * 4 < high:
            try:
                head[: len(head) // 2 * 2].decode(codec)
            except UnicodeDecodeError as error:
                if error.start < len(head) - 4:  # not just a character cut at the end
                    continue
            return TextEncoding(codec, 0, 2, None)
    raise GameFileError(
        "NotText",
        "not a text file (NUL bytes; not UTF-8, GB18030, or UTF-16/UTF-32 with a byte-order mark)",
    )


def read_text(path: str | Path) -> str:
    """A whole (small) text file, decoded as the game readers decode it: a byte-order mark's
    UTF-8/16/32, else UTF-8, else GB18030 (undecodable bytes replaced).  For opening books and
    the like; game files are read line by line with :func:`read_games`."""
    data = Path(path).read_bytes()
    encoding = sniff_encoding(data[:_SNIFF_BYTES])
    try:
        return data[encoding.bom :].decode(encoding.codec)
    except UnicodeDecodeError:
        codec = encoding.fallback or encoding.codec
        return data[encoding.bom :].decode(codec, errors="replace")


def no_game_files(folder: str | Path) -> GameFileError:
    """The error for a folder that holds no file of a known game format."""
    known = " ".join(EXTENSIONS)
    return GameFileError(
        "UnreadableFile", f"no game files in {folder} (none named {known}; or use --format)"
    )


def _open(path: str | Path) -> BinaryIO:
    if os.path.isdir(path):
        raise no_game_files(path)
    try:
        return open(path, "rb")  # noqa: SIM115 - closed by the callers
    except OSError as error:
        raise GameFileError("UnreadableFile", f"cannot read: {error.strerror or error}") from None


def _raw_lines(
    handle: BinaryIO, start: int, end: int | None, encoding: TextEncoding
) -> Iterator[tuple[int, bytes]]:
    """``(offset, bytes)`` of each line that starts in ``[start, end)`` (``end=None``: to the
    end of the file); the bytes keep their line end."""
    handle.seek(start)
    position = start
    if encoding.unit == 1 and not encoding.cr:
        readline = handle.readline
        while end is None or position < end:
            raw = readline()
            if not raw:
                return
            yield position, raw
            position += len(raw)
        return
    newline, unit = encoding.newline, encoding.unit
    buffer = b""
    at_eof = False
    while True:
        taken = 0
        found = buffer.find(newline)
        while found >= 0:
            if found % unit:  # the pattern across two code units: not a line end
                found = buffer.find(newline, found + 1)
                continue
            if end is not None and position + taken >= end:
                return
            yield position + taken, buffer[taken : found + unit]
            taken = found + unit
            found = buffer.find(newline, taken)
        buffer = buffer[taken:]
        position += taken
        if at_eof:
            if buffer and (end is None or position < end):
                yield position, buffer
            return
        block = handle.read(1 << 20)
        at_eof = not block
        buffer += block


def _count_lines(handle: BinaryIO, start: int, end: int, encoding: TextEncoding) -> int:
    """The number of line ends in ``[start, end)``."""
    if encoding.unit != 1 or encoding.cr:
        # ``end`` is a line start, so every line that starts in the range ends in it.
        return sum(1 for _ in _raw_lines(handle, start, end, encoding))
    handle.seek(start)
    count, left = 0, end - start
    while left > 0:
        block = handle.read(min(left, 1 << 20))
        if not block:
            break
        count += block.count(b"\n")
        left -= len(block)
    return count


# -- PGN ---------------------------------------------------------------------------------------

#: The start of a tag line: ``[`` (after blanks), a tag name and an opening quote.
TAG_START = re.compile(r'\s*\[\s*[A-Za-z][A-Za-z0-9_]*\s*"')
_HEADER = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s*"(.*)"\s*\]$')
_ONE_TAG = r'\[\s*[A-Za-z][A-Za-z0-9_]*\s*"(?:[^"\\]|\\.)*"\s*\]'
_TAGS = re.compile(rf"(?:{_ONE_TAG}\s*)+")
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_PGN_TOKEN = re.compile(r"\{[^}]*\}?|;.*|[()]|[^\s{}();]+")
_MOVE_NUMBER = re.compile(r"^\d+(?:\.+|．+|…+)(?!\d)(.*)$")
_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "½-½", "*"})
#: The most of a bad line quoted in a message.
_QUOTE = 60


def _kind_of_line(text: str | None) -> str:
    """``'blank'`` (blank or a ``%`` escape line), ``'tag'`` or ``'body'``: what decides game
    boundaries, the same for the whole-file reader and the boundary finder."""
    if text is None:
        return "body"
    stripped = text.strip()
    if not stripped or stripped.startswith("%"):
        return "blank"
    return "tag" if TAG_START.match(text) else "body"


def _quote(text: str) -> str:
    return repr(text if len(text) <= _QUOTE else text[:_QUOTE] + "...")


def _parse_tags(line: str) -> list[tuple[str, str]] | None:
    """The ``(name, value)`` pairs of a tag line, or ``None`` if it does not parse."""
    if _TAGS.fullmatch(line):
        return [(name, _unescape(value)) for name, value in _TAG.findall(line)]
    match = _HEADER.match(line)  # one tag whose value holds unescaped quotes
    if match:
        return [(match.group(1), _unescape(match.group(2)))]
    return None


def _unescape(value: str) -> str:
    return value.replace('\\"', '"').replace("\\\\", "\\")


class _PgnGames:
    """The PGN reader's state: fed one line at a time, gives each game as it ends."""

    def __init__(self, name: str, encoding: TextEncoding = TextEncoding()) -> None:
        self.name = name
        self.encoding = encoding
        self.index = 0
        self._reset()

    def _reset(self) -> None:
        self.headers: dict[str, str] = {}
        self.moves: list[str] = []
        self.start: int | None = None
        self.closed = False  # a result token ended the game's move text
        self.depth = 0  # variation nesting
        self.variation_line = 0  # where the outermost open variation began
        self.comment_line: int | None = None  # where an open comment began
        self.body = False  # a move text line was seen: a tag line now starts the next game
        self.problem: str | None = None

    def _note(self, problem: str) -> None:
        if self.problem is None:
            self.problem = problem

    def finish(self) -> GameRecord | None:
        """The game read so far (``None`` if there is none), and a fresh state."""
        if self.comment_line is not None:
            self._note(
                f"unclosed '{{' comment opened at line {self.comment_line}: the game is cut at "
                "the next tag line"
            )
        if self.depth:
            self._note(
                f"unclosed '(' variation opened at line {self.variation_line}: the game is cut "
                "at the next tag line"
            )
        record = None
        if self.headers or self.moves or self.closed or self.problem is not None:
            self.index += 1
            fen = self.headers.get("fen", "").strip() or STARTING_FEN
            record = GameRecord(
                self.name,
                self.index,
                self.start,
                fen,
                tuple(self.moves),
                self.headers.get("event") or None,
                self.headers.get("red") or None,
                self.headers.get("black") or None,
                self.problem,
            )
        self._reset()
        return record

    def feed(self, lineno: int, text: str | None) -> Iterator[GameRecord]:
        """Read one line (``None``: a line that could not be decoded)."""
        kind = _kind_of_line(text)
        if kind == "blank":
            return
        if kind == "tag":
            assert text is not None
            if self.body:
                record = self.finish()
                if record is not None:
                    yield record
            if self.start is None:
                self.start = lineno
            line = text.strip()
            tags = _parse_tags(line)
            if tags is None:
                self._note(f"malformed tag at line {lineno}: {_quote(line)}")
            else:
                for tag, value in tags:
                    self.headers[tag.lower()] = value.strip()
            return
        self.body = True
        if text is None:
            if self.start is None:
                self.start = lineno
            self._note(self.encoding.undecodable(lineno))
            return
        line = text.strip()
        if self.comment_line is not None:
            close = line.find("}")
            if close < 0:
                return
            line = line[close + 1 :]
            self.comment_line = None
        elif line.strip("=") == "":
            # cchess's Game.save_to ends a game with a line of '='.
            record = self.finish()
            if record is not None:
                yield record
            self.body = True
            return
        for token in _PGN_TOKEN.findall(line):
            first = token[0]
            if first == "{":
                if not token.endswith("}"):
                    self.comment_line = lineno
                continue
            if first == ";":
                break
            if token == "(":
                if not self.depth:
                    self.variation_line = lineno
                self.depth += 1
                continue
            if token == ")":
                self.depth = max(0, self.depth - 1)
                continue
            if self.depth or first == "$":
                continue
            if token in _RESULTS:
                self.closed = True
                continue
            match = _MOVE_NUMBER.match(token)
            if match:
                token = match.group(1)
            token = token.rstrip("!?")
            if not token:
                continue
            if self.closed:  # move text after a result and no headers: a new game
                record = self.finish()
                if record is not None:
                    yield record
                self.body = True
            if self.start is None:
                self.start = lineno
            self.moves.append(token)


def _split_lines(text: str) -> list[str]:
    """The lines of a text whose lines end in LF, CRLF, or CR alone (old Mac OS files)."""
    return text.split("\r" if "\n" not in text else "\n")


def parse_pgn(text: str, name: str) -> Iterator[GameRecord]:
    """The games of a PGN text (see the module docstring for what is read)."""
    games = _PgnGames(name)
    for lineno, line in enumerate(_split_lines(text), 1):
        yield from games.feed(lineno, line.rstrip("\r"))
    record = games.finish()
    if record is not None:
        yield record


# -- FEN | moves lines -------------------------------------------------------------------------


class _LineGames:
    """The ``FEN | moves`` reader, fed one line at a time; ``table`` for a ``.tsv`` file whose
    first line may name ``fen`` and ``moves`` columns."""

    def __init__(
        self, name: str, table: bool = False, encoding: TextEncoding = TextEncoding()
    ) -> None:
        self.name = name
        self.table = table
        self.encoding = encoding
        self.columns: dict[str, int] | None = None
        self.index = 0

    def feed(self, lineno: int, raw: str | None) -> Iterator[GameRecord]:
        name = self.name
        if raw is None:
            self.index += 1
            yield GameRecord(name, self.index, lineno, problem=self.encoding.undecodable(lineno))
            return
        if self.columns is None and self.table and self.index == 0 and "\t" in raw:
            if not raw.startswith("#"):
                names = [c.strip().lower() for c in raw.split("\t")]
                if "fen" in names and "moves" in names:
                    self.columns = {c: i for i, c in enumerate(names)}
                    return
                self.table = False
        columns = self.columns
        line = raw if columns is not None else raw.split("#", 1)[0]
        if not line.strip() or line.lstrip().startswith("#"):
            return
        self.index += 1
        event = None
        if columns is not None:
            cells = line.split("\t")
            if len(cells) <= max(columns["fen"], columns["moves"]):
                yield GameRecord(
                    name, self.index, lineno, problem="malformed row: too few tab-separated columns"
                )
                return
            fen, moves = cells[columns["fen"]], cells[columns["moves"]]
            if "id" in columns and columns["id"] < len(cells):
                event = cells[columns["id"]].strip() or None
        else:
            fen, bar, moves = line.partition("|")
            if not bar or "|" in moves:
                yield GameRecord(
                    name,
                    self.index,
                    lineno,
                    problem="malformed line: expected '<FEN> | <moves>' or 'startpos | <moves>'",
                )
                return
        fen = fen.strip()
        if fen == "startpos":
            fen = STARTING_FEN
        yield GameRecord(name, self.index, lineno, fen, tuple(moves.split()), event)


def parse_lines(text: str, name: str, table: bool = False) -> Iterator[GameRecord]:
    """The games of a ``<FEN> | <moves>`` text, or of a TSV table with ``fen`` and ``moves``
    columns when ``table`` is true and the first line is such a header."""
    games = _LineGames(name, table)
    for lineno, line in enumerate(_split_lines(text), 1):
        yield from games.feed(lineno, line.rstrip("\r"))


# -- chunks ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chunk:
    """A byte range of a game file that starts at a game boundary: what one worker reads.

    ``name`` is how the file is shown, ``path`` where it is opened, ``first_line`` the number of
    the range's first line in the file; ``end`` is ``None`` for the end of the file.  Game
    indexes read from a chunk count from 1 within it: the caller adds the games of the chunks
    before (see :func:`.replay.replay_paths`).  A binary format is always one chunk.
    """

    name: str
    path: str
    fmt: str
    start: int = 0
    end: int | None = None
    first_line: int = 1
    encoding: TextEncoding = TextEncoding()
    #: ``.tsv`` files: the first line may be a header naming the columns.
    table: bool = False

    @property
    def is_binary(self) -> bool:
        return self.fmt in BINARY_FORMATS


def read_chunk(chunk: Chunk) -> Iterator[GameRecord]:
    """The games of one chunk, read line by line.  Raises :class:`GameFileError`."""
    if chunk.is_binary:
        yield load_binary(chunk.path, chunk.fmt, chunk.name)
        return
    games: _PgnGames | _LineGames
    if chunk.fmt == "pgn":
        games = _PgnGames(chunk.name, chunk.encoding)
    elif chunk.fmt == "lines":
        games = _LineGames(chunk.name, chunk.table, chunk.encoding)
    else:
        raise GameFileError("UnknownFormat", f"unknown format {chunk.fmt!r}")
    encoding = chunk.encoding
    with _open(chunk.path) as handle:
        start = max(chunk.start, encoding.bom)
        try:
            for lineno, (_, raw) in enumerate(
                _raw_lines(handle, start, chunk.end, encoding), chunk.first_line
            ):
                yield from games.feed(lineno, encoding.decode(raw))
        except OSError as error:
            raise GameFileError(
                "UnreadableFile", f"cannot read: {error.strerror or error}"
            ) from None
    if isinstance(games, _PgnGames):
        record = games.finish()
        if record is not None:
            yield record


def _whole_file(name: str, path: str, fmt: str, encoding: str | None = None) -> tuple[Chunk, int]:
    """The one chunk of a whole file, and the file's size (``encoding``: see
    :func:`sniff_encoding`).  Raises :class:`GameFileError`."""
    if fmt in BINARY_FORMATS:
        if os.path.isdir(path):
            raise no_game_files(path)
        return Chunk(name, path, fmt), 0
    with _open(path) as handle:
        try:
            head = handle.read(_SNIFF_BYTES)
            size = os.fstat(handle.fileno()).st_size
        except OSError as error:
            raise GameFileError(
                "UnreadableFile", f"cannot read: {error.strerror or error}"
            ) from None
    sniffed = sniff_encoding(head, encoding)
    table = Path(path).suffix.lower() == ".tsv"
    return Chunk(name, path, fmt, sniffed.bom, None, 1, sniffed, table), size


def _next_boundary(handle: BinaryIO, target: int, fmt: str, encoding: TextEncoding) -> int | None:
    """The first game boundary at or after ``target`` (rounded up to a line start), or
    ``None`` if there is none before the end of the file.

    For PGN, a boundary is a tag line that follows a move text line: the same rule as
    :class:`_PgnGames` follows, so a chunk starts where the whole-file reader starts a game,
    whatever comment or variation the target falls in.
    """
    unit = encoding.unit
    target += -target % unit  # up to a code unit: the boundary stays after the chunk's start
    if target > encoding.bom:
        handle.seek(target - unit)
        if handle.read(unit) != encoding.newline:
            # Inside a line: start at the next one.
            for offset, raw in _raw_lines(handle, target - unit, None, encoding):
                target = offset + len(raw)
                break
    seen_body = False
    for offset, raw in _raw_lines(handle, target, None, encoding):
        if fmt != "pgn":
            return offset
        kind = _kind_of_line(encoding.decode(raw))
        if kind == "tag" and seen_body:
            return offset
        if kind == "body":
            seen_body = True
    return None


#: The first chunk of a file is this long (or ``chunk_bytes`` if shorter), and each next one
#: twice the last, up to ``chunk_bytes``: the first results come back at once.
FIRST_CHUNK_BYTES = 16 * 1024


def plan_chunks(
    name: str, path: str, fmt: str, chunk_bytes: int | None, encoding: str | None = None
) -> Iterator[Chunk]:
    """The chunks of one file, cut at game boundaries: the first about 16 KiB long, each next
    one twice as long, up to about ``chunk_bytes`` (``None``: the whole file, one chunk).
    Planning reads only the lines around each cut, and counts line ends on the way, so that
    every chunk knows its first line's number (``encoding``: see :func:`sniff_encoding`).
    Raises :class:`GameFileError` before the first chunk for a file that cannot be read."""
    whole, size = _whole_file(name, path, fmt, encoding)
    if (
        chunk_bytes is None
        or whole.is_binary
        or whole.table
        or size <= min(chunk_bytes, FIRST_CHUNK_BYTES)
    ):
        yield whole
        return
    text_encoding = whole.encoding
    length = min(chunk_bytes, FIRST_CHUNK_BYTES)
    with _open(path) as handle:
        start, first_line = whole.start, 1
        while True:
            boundary = _next_boundary(handle, start + length, fmt, text_encoding)
            if boundary is None or boundary >= size:
                yield Chunk(name, path, fmt, start, None, first_line, text_encoding)
                return
            yield Chunk(name, path, fmt, start, boundary, first_line, text_encoding)
            first_line += _count_lines(handle, start, boundary, text_encoding)
            start = boundary
            length = min(chunk_bytes, 2 * length)


def read_games(
    path: str | Path, fmt: str | None = None, name: str | None = None, encoding: str | None = None
) -> Iterator[GameRecord]:
    """The games of one file, as records, one at a time (binary formats are loaded through
    cchess).  ``name`` is how the file is shown (default: ``str(path)``).  Raises
    :class:`GameFileError` for a file that cannot be read at all."""
    name = str(path) if name is None else name
    fmt = fmt or detect_format(path)
    if fmt is None:
        raise GameFileError(
            "UnknownFormat", f"unknown format (extension {Path(path).suffix!r}); use --format"
        )
    chunk, _ = _whole_file(name, str(path), fmt, encoding)
    yield from read_chunk(chunk)


# -- binary formats, through cchess ------------------------------------------------------------


def load_binary(path: str | Path, fmt: str, name: str | None = None) -> GameRecord:
    """Load a one-game XQF, CBR or CBF file through cchess: the start FEN, the ICCS moves of
    the main line and the names.  Raises :class:`GameFileError`."""
    name = str(path) if name is None else name
    try:
        import cchess  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - cchess is a test dependency
        raise GameFileError(
            "MissingDependency",
            f"reading {fmt.upper()} files needs the files extra (cchess): "
            "pip install -e '.[files]'",
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


def expand_paths(paths: Iterable[str], fmt: str | None) -> Iterator[str]:
    """The files named, with each directory replaced by the game files under it (sorted;
    hidden ones left out); a directory with none stands for itself, to be reported."""
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
