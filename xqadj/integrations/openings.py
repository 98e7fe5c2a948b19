"""Opening books for ``xqadj match``: EPD/FEN lines, PGN games and ``startpos|fen … moves`` lines.

Layer: integrations.

``--openings file=F [format=epd|pgn] [order=sequential|random] [plies=N] [start=K]``, as
fastchess and cutechess-cli take it (``--openings F`` alone still reads the file):

``format=epd`` (the default unless the file ends in ``.pgn``)
    One position a line: a xiangqi FEN or EPD record (``<board> <side> [- - [<halfmove>
    <fullmove>]] [<operations>;]``: the counters and EPD operations such as ``id "…";`` are
    read past), or xqadj's older ``startpos [moves …]`` / ``fen <FEN> [moves …]`` form with ICCS
    moves.  Blank lines and lines starting with ``#`` are skipped.
``format=pgn``
    The games of a PGN file, as ``xqadj replay`` reads them
    (:func:`xqadj.integrations.gamefiles.parse_pgn`):
    a ``[FEN]`` tag sets the start, the move text is ICCS, WXF or Chinese, detected per game.
``plies=N``
    Play only the first N plies of each opening's moves (default: all of them).
``order=random``
    Shuffle the book once, with ``--seed``, before the match (default ``sequential``).
``start=K``
    Begin with the K-th opening (1-based, after the shuffle; default 1).

Every opening is checked when the book is read: a bad FEN or an illegal move stops the match
before it begins, with the file, line (or game) and move.

>>> book = OpeningBook([Opening.parse("startpos moves h2e2"), Opening()], start=2)
>>> [book.opening(i).text() for i in range(3)]
['startpos', 'startpos moves h2e2', 'startpos']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from xqadj.board import STARTING_FEN, Board, Move, XqadjError
from xqadj.integrations.gamefiles import parse_pgn, read_text
from xqadj.integrations.replay import detect_notation
from xqadj.integrations.settings import parse_key_values
from xqadj.notation import parse_chinese, parse_wxf

__all__ = [
    "FORMATS",
    "ORDERS",
    "Opening",
    "OpeningBook",
    "OpeningsSpec",
    "read_openings",
]

FORMATS = ("epd", "pgn")
ORDERS = ("sequential", "random")


@dataclass(frozen=True)
class Opening:
    """A start position and the ICCS moves played from it before the engines take over."""

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

    def truncated(self, plies: int | None) -> Opening:
        """The opening with only its first ``plies`` moves (all of them for None)."""
        if plies is None or plies >= len(self.moves):
            return self
        return Opening(self.fen, self.moves[:plies])

    def text(self) -> str:
        """The opening as a ``startpos|fen … moves`` line."""
        head = "startpos" if self.fen == STARTING_FEN else f"fen {self.fen}"
        return f"{head} moves {' '.join(self.moves)}" if self.moves else head


def _epd_opening(line: str) -> Opening:
    """One EPD/FEN record, or an older ``startpos|fen … moves`` line."""
    tokens = line.split()
    if tokens[0] in ("startpos", "fen"):
        return Opening.parse(line)
    # <board> <side> [- - [<halfmove> <fullmove>]] [operations]: the board and the side make
    # the position (xiangqi has no castling or en passant; the counters do not change it).
    fen = " ".join(tokens[:2])
    return Opening(Board(fen).fen())


def _move_parser(notation: str) -> Callable[[Board, str], Move]:
    if notation == "chinese":
        return parse_chinese
    if notation == "wxf":
        return parse_wxf

    def iccs(board: Board, text: str) -> Move:
        move = Move.from_iccs(text.replace("-", ""))
        if not board.is_legal(move):
            raise XqadjError(f"illegal move {text} in {board.fen()}")
        return move

    return iccs


def _read_epd(path: Path, plies: int | None) -> list[Opening]:
    openings = []
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            openings.append(_epd_opening(line).truncated(plies))
        except (ValueError, XqadjError) as error:
            raise ValueError(f"{path}:{number}: {error}") from None
    return openings


def _read_pgn(path: Path, plies: int | None) -> list[Opening]:
    openings = []
    for record in parse_pgn(read_text(path), str(path)):
        where = f"{path}: game {record.index}" + (
            f" (line {record.line})" if record.line is not None else ""
        )
        try:
            board = Board(record.fen)
        except XqadjError as error:
            raise ValueError(f"{where}: bad FEN {record.fen!r}: {error}") from None
        start = board.fen()
        texts = record.moves if plies is None else record.moves[:plies]
        moves = []
        if texts:
            parse = _move_parser(detect_notation(texts[0]))
            for ply, text in enumerate(texts, 1):
                try:
                    move = parse(board, text)
                except XqadjError as error:
                    raise ValueError(f"{where}, ply {ply} ({text}): {error}") from None
                board.push(move)
                moves.append(move.iccs())
        openings.append(Opening(start, tuple(moves)))
    return openings


def read_openings(
    path: str | Path, fmt: str | None = None, plies: int | None = None
) -> list[Opening]:
    """The openings of a book file (``fmt`` ``epd`` or ``pgn``; by default from the name),
    each cut to ``plies`` moves.  Raises ValueError (with the place) for a bad book, OSError
    for an unreadable file."""
    path = Path(path)
    fmt = fmt or ("pgn" if path.suffix.lower() == ".pgn" else "epd")
    if fmt not in FORMATS:
        raise ValueError(f"openings format must be epd or pgn, got {fmt!r}")
    openings = _read_pgn(path, plies) if fmt == "pgn" else _read_epd(path, plies)
    if not openings:
        raise ValueError(f"{path}: no openings")
    return openings


@dataclass(frozen=True)
class OpeningsSpec:
    """What ``--openings`` asks for."""

    file: Path
    format: str | None = None
    order: str = "sequential"
    plies: int | None = None
    start: int = 1

    @classmethod
    def parse(cls, tokens: Sequence[str] | str) -> OpeningsSpec:
        """``file=F format=… order=… plies=N start=K``, or a file name alone."""
        if isinstance(tokens, str):
            tokens = tokens.split()
        if len(tokens) == 1 and "=" not in tokens[0]:
            return cls(Path(tokens[0]))
        values = parse_key_values(
            tokens,
            "openings",
            ("file", "format", "order", "plies", "start"),
            "file, format, order, plies or start",
        )
        if not values.get("file"):
            raise ValueError("--openings needs file=<path>")
        fmt = values.get("format", "").lower() or None
        if fmt is not None and fmt not in FORMATS:
            raise ValueError(f"openings format must be epd or pgn, got {fmt!r}")
        order = values.get("order", "sequential").lower()
        if order not in ORDERS:
            raise ValueError(f"openings order must be sequential or random, got {order!r}")
        plies = _positive(values["plies"], "plies", 0) if "plies" in values else None
        start = _positive(values["start"], "start", 1) if "start" in values else 1
        return cls(Path(values["file"]), fmt, order, plies, start)

    def book(self, seed: int | None = None) -> OpeningBook:
        """Read the file and make the book (shuffled with ``seed`` for ``order=random``)."""
        openings = read_openings(self.file, self.format, self.plies)
        if self.start > len(openings):
            raise ValueError(
                f"openings start={self.start}, but {self.file} holds {len(openings)} openings"
            )
        if self.order == "random":
            random.Random(seed).shuffle(openings)
        return OpeningBook(openings, self.start)


def _positive(text: str, name: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"openings {name} must be a whole number, got {text!r}") from None
    if value < least:
        raise ValueError(f"openings {name} must be at least {least}, got {value}")
    return value


class OpeningBook:
    """Openings handed out in turn: the ``i``-th encounter (0-based) of the match gets
    :meth:`opening`\\ (i), from the ``start``-th opening on, round and round."""

    def __init__(self, openings: Sequence[Opening] = (), start: int = 1) -> None:
        self.openings = list(openings) or [Opening()]
        self.start = start

    def opening(self, index: int) -> Opening:
        return self.openings[(self.start - 1 + index) % len(self.openings)]

    def __len__(self) -> int:
        return len(self.openings)
