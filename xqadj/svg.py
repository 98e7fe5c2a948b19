"""Pictures of boards and rulings, as SVG strings (modelled on python-chess's ``chess.svg``).

Pure Python, no dependency, no I/O: every function returns the text of an SVG image.

Layer: presentation, above the referee (it draws :func:`xqadj.referee.cycle_steps`); it imports
the referee, the notation and the core.  The core's notebook picture (``Board._repr_svg_``) is
:func:`notebook_picture`, handed to the core by the package (:mod:`xqadj`), not imported by it.

>>> from xqadj.board import Board
>>> picture = board(Board(), size=300)
>>> picture.startswith("<svg") and picture.count('class="piece ') == 32
True

* :func:`board`: a position on the 9×10 board (the river with 楚河 漢界, the palaces, the
  cannon and pawn marks), coordinates in ICCS (files a–i, ranks 0–9) or Chinese (Red's files
  九…一 along the bottom, Black's 1…9 along the top), flipped or not, with arrows
  (:class:`Arrow`) and highlighted squares.  ``Board._repr_svg_()`` calls it, so a notebook
  shows a board as a picture.
* :func:`ruling` and :func:`ruling_panels`: a ruling drawn move by move from
  :func:`xqadj.referee.cycle_steps`: the position at the first occurrence of the repeated
  position, then for each move the position after it with the move as an arrow, the checks and
  chases it makes as arrows from attacker to victim, its label, the offender, the article and
  the explanation.

Pieces are drawn as discs with the traditional characters (帥仕相傌俥炮兵 for Red, 將士象馬車砲卒
for Black), which need a CJK font: the SVG asks for the usual ones (Noto CJK, Source Han,
WenQuanYi, SimSun, PingFang, Microsoft YaHei) and a viewer without any shows empty boxes
instead.  ``letters=True`` draws the WXF letters (K A E H R C P) instead, which every font has,
leaves out the river's characters, writes Red's file numbers as WXF digits and the titles and
captions of a ruling in English and WXF notation: a board with no CJK text at all, and a ruling
whose only CJK text is the rulebook's terms quoted in its explanation.

Every arrow is a ``<g class="arrow KIND" data-from="b3" data-to="b2" data-kind="KIND">``
element (KIND one of :data:`ARROW_KINDS`), its shaft, drawn under the pieces, with a ``<g
class="arrow-head KIND">`` of the same data over them; every ring a ``<circle class="mark KIND"
data-square="f2" data-kind="KIND">`` (KIND one of :data:`MARK_KINDS`); and every piece a ``<g
class="piece ..." data-square="b2" data-piece="C">`` element (a ``<use class="piece">`` in the
pictures that share :func:`definitions`), so tools (and the tests) can read a picture back.

The marks: a ring on the king in check and on each chased piece (on every picture, the piece
a perpetual chase was ruled for); under the CXA rules, the mating line a 杀 threatens (dashed
``kill`` arrows: the threatening side's moves), the check a 拦 stands in the way of (a dashed
``block`` arrow through the blocking piece, which is ringed), the two pieces of a 兑 (a dashed
``exchange`` arrow with two heads, both pieces ringed); for a checkmate, the mating move.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from xqadj.board import (
    ADVISOR,
    BLACK,
    CANNON,
    ELEPHANT,
    FILE_NAMES,
    KING,
    KNIGHT,
    PAWN,
    PIECE_NAMES,
    PIECE_TYPES,
    RED,
    ROOK,
    Board,
    Color,
    Move,
    Piece,
    square_file,
    square_name,
    square_rank,
)
from xqadj.notation import to_chinese, to_wxf
from xqadj.referee import CycleStep, Reason, Ruling, cycle_start, cycle_steps

#: The characters of the pieces, by colour and piece type.
PIECE_CHARACTERS: dict[tuple[Color, int], str] = {
    (RED, KING): "帥",
    (RED, ADVISOR): "仕",
    (RED, ELEPHANT): "相",
    (RED, KNIGHT): "傌",
    (RED, ROOK): "俥",
    (RED, CANNON): "炮",
    (RED, PAWN): "兵",
    (BLACK, KING): "將",
    (BLACK, ADVISOR): "士",
    (BLACK, ELEPHANT): "象",
    (BLACK, KNIGHT): "馬",
    (BLACK, ROOK): "車",
    (BLACK, CANNON): "砲",
    (BLACK, PAWN): "卒",
}

#: The WXF letters drawn with ``letters=True``, by piece type.
PIECE_LETTERS = dict(zip(PIECE_TYPES, "KAEHRCP", strict=True))

#: The fonts asked for, in order: common CJK fonts of Linux, macOS and Windows.
CJK_FONTS = (
    "'Noto Serif CJK SC','Noto Sans CJK SC','Source Han Serif SC','Source Han Sans SC',"
    "'WenQuanYi Zen Hei','WenQuanYi Micro Hei',SimSun,'Songti SC','PingFang SC',"
    "'Microsoft YaHei',KaiTi,serif"
)
LATIN_FONTS = "DejaVu Sans,Verdana,Arial,Helvetica,sans-serif"

#: Colours: the board, its lines, the sides' ink, the discs, the arrows by kind.
COLORS = {
    "board": "#f0cf8e",
    "lines": "#5b3a1a",
    "coordinates": "#5b3a1a",
    "red": "#c8102e",
    "black": "#111111",
    "disc": "#fbe9c6",
    "highlight": "#ffe14d",
    "move": "#1d7f3a",
    "check": "#d4145a",
    "chase": "#ef7d00",
    "kill": "#7b2cbf",
    "block": "#1f6fb5",
    "exchange": "#0a8f8f",
}

#: The kinds of arrows: the move played, a check (attacker to king), a chase (attacker to
#: victim), a move of a threatened mating line (CXA 杀), the check a piece stands in the way of
#: (CXA 拦), and the pair of pieces a move offers to exchange (CXA 兑, a head at both ends).
ARROW_KINDS = ("move", "check", "chase", "kill", "block", "exchange")

#: The kinds of marks (:class:`Mark`), rings round a piece: the king in check, a chased piece,
#: a piece of an offered exchange (CXA 兑), the piece that blocks (CXA 拦).
MARK_KINDS = ("check", "chase", "exchange", "block")

#: The arrows drawn dashed: threats that are not on the board yet.
DASHED = frozenset({"kill", "block", "exchange"})

CELL = 40  # the distance between two lines, in user units
DISC = CELL * 0.45  # a piece's radius
MARGIN = 42  # room for the edge pieces and the coordinates around the lines
BOARD_WIDTH = 2 * MARGIN + 8 * CELL
BOARD_HEIGHT = 2 * MARGIN + 9 * CELL

#: Red's file numbers (from file a) and Black's, for ``coordinates="chinese"``.
_RED_FILES = "九八七六五四三二一"
_BLACK_FILES = "123456789"

#: The rulebook's words for the labels, in English, for captions.
LABEL_NAMES = {
    "将": "check",
    "杀": "mate threat",
    "捉": "chase",
    "兑": "offer to exchange",
    "献": "sacrifice",
    "拦": "block",
    "跟": "follow",
    "闲": "idle",
}

#: The reasons' Chinese names, for titles.
REASON_NAMES = {
    Reason.CHECKMATE: "checkmate 将死",
    Reason.STALEMATE: "stalemate 困毙",
    Reason.PERPETUAL_CHECK: "perpetual check 长将",
    Reason.PERPETUAL_CHASE: "perpetual chase 长捉",
    Reason.PERPETUAL_KILL: "perpetual mate threat 长杀",
    Reason.REPETITION: "repetition draw 循环作和",
    Reason.MOVE_LIMIT: "move limit 自然限着",
}


class Arrow(NamedTuple):
    """An arrow from square ``tail`` to square ``head``; ``kind`` is one of :data:`ARROW_KINDS`
    and chooses its colour (any other text is taken as a colour)."""

    tail: int
    head: int
    kind: str = "move"


class Mark(NamedTuple):
    """A ring round the piece on ``square``; ``kind`` is one of :data:`MARK_KINDS` and chooses
    its colour (any other text is taken as a colour)."""

    square: int
    kind: str = "chase"


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _num(value: float) -> str:
    """A coordinate, short: ``30``, ``12.5``."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _point(sq: int, flipped: bool) -> tuple[float, float]:
    """The centre of ``sq``'s intersection in user units."""
    file, rank = square_file(sq), square_rank(sq)
    column, row = (8 - file, rank) if flipped else (file, 9 - rank)
    return MARGIN + column * CELL, MARGIN + row * CELL


def _grid() -> list[str]:
    """The lines: ten ranks, the files broken by the river, the palaces' diagonals, and the
    marks of the cannons' and pawns' start points (the grid is symmetric, so it never flips)."""
    left, right = MARGIN, MARGIN + 8 * CELL
    top, bottom = MARGIN, MARGIN + 9 * CELL
    river_top, river_bottom = MARGIN + 4 * CELL, MARGIN + 5 * CELL
    path = []
    for row in range(10):
        y = MARGIN + row * CELL
        path.append(f"M{left} {y}H{right}")
    for column in range(1, 8):
        x = MARGIN + column * CELL
        path.append(f"M{x} {top}V{river_top}M{x} {river_bottom}V{bottom}")
    for top_row in (0, 7):
        y0, y2 = MARGIN + top_row * CELL, MARGIN + (top_row + 2) * CELL
        x3, x5 = MARGIN + 3 * CELL, MARGIN + 5 * CELL
        path.append(f"M{x3} {y0}L{x5} {y2}M{x5} {y0}L{x3} {y2}")
    marks = []
    gap, arm = 3, 8
    for column, row in [(1, 2), (7, 2), (1, 7), (7, 7)] + [
        (c, r) for c in (0, 2, 4, 6, 8) for r in (3, 6)
    ]:
        x, y = MARGIN + column * CELL, MARGIN + row * CELL
        for dx in (-1, 1):
            if not 0 <= column + dx <= 8:
                continue
            for dy in (-1, 1):
                px, py = x + dx * gap, y + dy * gap
                marks.append(f"M{px + dx * arm} {py}H{px}V{py + dy * arm}")
    color = COLORS["lines"]
    return [
        f'<rect class="frame" x="{left - 4}" y="{top - 4}" width="{right - left + 8}" '
        f'height="{bottom - top + 8}" fill="none" stroke="{color}" stroke-width="2"/>',
        f'<rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" '
        f'fill="none" stroke="{color}" stroke-width="1.5"/>',
        f'<path class="lines" d="{"".join(path)}" fill="none" stroke="{color}" stroke-width="1"/>',
        f'<path class="marks" d="{"".join(marks)}" fill="none" stroke="{color}" stroke-width="1"/>',
    ]


def _river(letters: bool) -> list[str]:
    """楚河 漢界, one character a column, upright for Red (the usual board's print)."""
    if letters:
        return []
    y = MARGIN + 4.5 * CELL
    texts = [
        f'<text x="{_num(MARGIN + column * CELL)}" y="{_num(y)}" dy=".35em">{character}</text>'
        for column, character in zip((1.5, 2.5, 5.5, 6.5), "楚河漢界", strict=True)
    ]
    return [
        f'<g class="river" font-size="{_num(CELL * 0.62)}" fill="{COLORS["lines"]}" '
        f'text-anchor="middle">',
        *texts,
        "</g>",
    ]


def _coordinates(style: str, flipped: bool, letters: bool) -> list[str]:
    """File names above and below, rank numbers at the sides (ICCS), or the sides' file
    numbers (Chinese: Red's 九…一 on Red's side, Black's 1…9 on Black's; with ``letters``,
    Red's 9…1 as WXF writes them, so that no CJK font is needed)."""
    out = []
    color = COLORS["coordinates"]
    size = 12 if style == "iccs" else 13
    low, high = 2 * MARGIN + 9 * CELL - 10, 10.0
    for file in range(9):
        x = MARGIN + (8 - file if flipped else file) * CELL
        if style == "iccs":
            labels = [(low, FILE_NAMES[file]), (high, FILE_NAMES[file])]
        else:
            red = str(9 - file) if letters else _RED_FILES[file]
            black = _BLACK_FILES[file]
            labels = [(high, red), (low, black)] if flipped else [(low, red), (high, black)]
        for y, text in labels:
            out.append(
                f'<text x="{_num(x)}" y="{_num(y)}" dy=".35em" text-anchor="middle">{text}</text>'
            )
    if style == "iccs":
        for rank in range(10):
            rank_y = MARGIN + (rank if flipped else 9 - rank) * CELL
            for rank_x in (10.0, 2 * MARGIN + 8 * CELL - 10):
                out.append(
                    f'<text x="{_num(rank_x)}" y="{_num(rank_y)}" dy=".35em" '
                    f'text-anchor="middle">{rank}</text>'
                )
    return [
        f'<g class="coordinates" font-size="{size}" fill="{color}" '
        f'font-family="{LATIN_FONTS if style == "iccs" else CJK_FONTS}">',
        *out,
        "</g>",
    ]


def piece(piece: Piece, size: int | None = None, letters: bool = False) -> str:
    """One piece alone, as an SVG image (like ``chess.svg.piece``)."""
    side = CELL
    body = _piece(piece, side / 2, side / 2, None, letters)
    dims = f' width="{size}" height="{size}"' if size else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {side} {side}"'
        f"{dims}>{body}</svg>"
    )


def _piece(
    piece: Piece, x: float, y: float, sq: int | None, letters: bool, shared: bool = False
) -> str:
    """A disc with the piece's character (or WXF letter), centred on ``(x, y)``; with
    ``shared``, a ``<use>`` of the piece's face in :func:`definitions` (short: a report has
    thousands)."""
    where = f' data-square="{square_name(sq)}"' if sq is not None else ""
    if shared:
        return (
            f'<use class="piece" href="#{_piece_id(piece, letters)}"{where} '
            f'data-piece="{piece.symbol()}" x="{_num(x)}" y="{_num(y)}"/>'
        )
    side = "red" if piece.color == RED else "black"
    name = PIECE_NAMES[piece.piece_type]
    return (
        f'<g class="piece {side} {name}"{where} data-piece="{piece.symbol()}" '
        f'transform="translate({_num(x)},{_num(y)})">{_piece_face(piece, letters)}</g>'
    )


def _piece_face(piece: Piece, letters: bool) -> str:
    """The disc and the character of a piece, centred on the origin."""
    ink = COLORS["red" if piece.color == RED else "black"]
    if letters:
        text = PIECE_LETTERS[piece.piece_type]
        font = f' font-family="{LATIN_FONTS}" font-weight="bold"'
    else:
        text = PIECE_CHARACTERS[piece.color, piece.piece_type]
        font = ""
    return (
        f'<circle r="{_num(DISC)}" fill="{COLORS["disc"]}" stroke="{ink}" stroke-width="2"/>'
        f'<circle r="{_num(CELL * 0.37)}" fill="none" stroke="{ink}" stroke-width="0.8"/>'
        f'<text y="0" dy=".35em" text-anchor="middle" font-size="{_num(CELL * 0.5)}" '
        f'fill="{ink}"{font}>{text}</text>'
    )


def _piece_id(piece: Piece, letters: bool) -> str:
    """The id of a piece's face in :func:`definitions`: ``xq-R``, ``xq-r``, ``xq-R-l``."""
    return f"xq-{piece.symbol()}{'-l' if letters else ''}"


def _background_id(coordinates: str | None, flipped: bool, letters: bool) -> str:
    """The id of the wood, lines, river and coordinates in :func:`definitions`."""
    return f"xq-board-{coordinates or 'none'}{'-f' if flipped else ''}{'-l' if letters else ''}"


def _background(coordinates: str | None, flipped: bool, letters: bool) -> list[str]:
    """What every board of these options has: the wood, the lines, the river, the
    coordinates."""
    out = [
        f'<rect class="board" width="{BOARD_WIDTH}" height="{BOARD_HEIGHT}" '
        f'fill="{COLORS["board"]}"/>'
    ]
    out += _grid()
    out += _river(letters)
    if coordinates:
        out += _coordinates(coordinates, flipped, letters)
    return out


def definitions(
    coordinates: str | None = "iccs", flipped: bool = False, letters: bool = False
) -> str:
    """The ``<defs>`` that the boards of :func:`ruling_panels` with ``shared=True`` refer to:
    the board's background (wood, lines, river, coordinates) for these options and the face of
    each piece, drawn once.  A page (an HTML report) holds it once, in an SVG of its own,
    whatever the number of boards; :func:`ruling` puts it in its image.  The ids start
    ``xq-``."""
    if coordinates not in (None, "iccs", "chinese"):
        raise ValueError(f"coordinates must be 'iccs', 'chinese' or None, not {coordinates!r}")
    font = LATIN_FONTS if letters else CJK_FONTS
    faces = [
        f'<g id="{_piece_id(Piece(piece_type, color), letters)}" class="piece-face" '
        f'font-family="{font}">{_piece_face(Piece(piece_type, color), letters)}</g>'
        for color in (RED, BLACK)
        for piece_type in PIECE_TYPES
    ]
    background = "".join(_background(coordinates, flipped, letters))
    return (
        f'<defs><g id="{_background_id(coordinates, flipped, letters)}" font-family="{font}">'
        f"{background}</g>{''.join(faces)}</defs>"
    )


def _arrow(
    arrow: Arrow, flipped: bool, occupied: frozenset[int] = frozenset()
) -> tuple[str, str]:
    """An arrow from ``tail`` to ``head`` in two parts: the shaft, drawn under the pieces, and
    the head, drawn over them.  The shaft starts at the edge of the disc on ``tail``; the tip
    stops at the edge of the disc on ``head`` (at the point itself when that square is empty),
    and the head is short, so that neither hides a piece's character, not even that of a
    cannon's screen one point before the victim.  An ``exchange`` arrow has a head at both
    ends; the threats not on the board yet (:data:`DASHED`) have a dashed shaft."""
    x1, y1 = _point(arrow.tail, flipped)
    x2, y2 = _point(arrow.head, flipped)
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    head_length, half_width, shaft = CELL * 0.24, CELL * 0.17, CELL * 0.13
    both = arrow.kind == "exchange"
    start = DISC + 1 if arrow.tail in occupied else 0.0
    tip = length - (DISC + 1 if arrow.head in occupied else 0.0)
    # Between two neighbouring pieces there is no room for a head: it reaches back over the
    # tail's disc (short of its character) rather than over the head's.
    reach = head_length * (2 if both else 1)
    tip = max(tip, reach)
    start = min(start, tip - reach)
    heads = [(x1 + ux * tip, y1 + uy * tip, ux, uy)]
    if both:
        heads.append((x1 + ux * start, y1 + uy * start, -ux, -uy))
    color = COLORS.get(arrow.kind, arrow.kind)
    kind = arrow.kind if arrow.kind in ARROW_KINDS else "custom"
    dash = f' stroke-dasharray="{_num(CELL * 0.2)} {_num(CELL * 0.14)}"' if kind in DASHED else ""
    tips = []
    for tx, ty, hx, hy in heads:
        bx, by = tx - hx * head_length, ty - hy * head_length
        px, py = -hy * half_width, hx * half_width
        tips.append(
            f'<polygon points="{_num(tx)},{_num(ty)} {_num(bx + px)},{_num(by + py)} '
            f'{_num(bx - px)},{_num(by - py)}"/>'
        )
    # The shaft runs into the heads, so that it shows no gap.
    begin = start + (head_length / 2 if both else 0)
    sx, sy = x1 + ux * begin, y1 + uy * begin
    ex, ey = x1 + ux * (tip - head_length / 2), y1 + uy * (tip - head_length / 2)
    where = (
        f'data-from="{square_name(arrow.tail)}" data-to="{square_name(arrow.head)}" '
        f'data-kind="{kind}"'
    )
    return (
        f'<g class="arrow {kind}" {where} stroke="{color}" opacity="0.8">'
        f'<line x1="{_num(sx)}" y1="{_num(sy)}" x2="{_num(ex)}" y2="{_num(ey)}" '
        f'stroke-width="{_num(shaft)}"{dash}/></g>',
        f'<g class="arrow-head {kind}" {where} fill="{color}" stroke="{COLORS["disc"]}" '
        f'stroke-width="0.8" opacity="0.8">{"".join(tips)}</g>',
    )


def _mark(mark: Mark, flipped: bool) -> str:
    """A ring just outside the disc on ``mark.square``, over the pieces (it covers none)."""
    x, y = _point(mark.square, flipped)
    color = COLORS.get(mark.kind, mark.kind)
    kind = mark.kind if mark.kind in MARK_KINDS else "custom"
    return (
        f'<circle class="mark {kind}" data-square="{square_name(mark.square)}" '
        f'data-kind="{kind}" cx="{_num(x)}" cy="{_num(y)}" r="{_num(DISC + 2.5)}" fill="none" '
        f'stroke="{color}" stroke-width="3"/>'
    )


def _board_elements(
    board: Board,
    flipped: bool,
    arrows: Iterable[Arrow],
    squares: Mapping[int, str],
    coordinates: str | None,
    letters: bool,
    marks: Iterable[Mark] = (),
    shared: bool = False,
) -> list[str]:
    """The board's elements, bottom up: the background, the highlighted squares, the arrows'
    shafts (under the pieces, so that they hide none), the pieces, the marks, the arrows'
    heads."""
    if shared:
        out = [f'<use href="#{_background_id(coordinates, flipped, letters)}"/>']
    else:
        out = _background(coordinates, flipped, letters)
    for sq, color in squares.items():
        x, y = _point(sq, flipped)
        half = CELL * 0.48
        out.append(
            f'<rect class="highlight" data-square="{square_name(sq)}" x="{_num(x - half)}" '
            f'y="{_num(y - half)}" width="{_num(2 * half)}" height="{_num(2 * half)}" '
            f'rx="4" fill="{color}" opacity="0.6"/>'
        )
    placed = [(sq, found) for sq in range(90) if (found := board.piece_at(sq)) is not None]
    occupied = frozenset(sq for sq, _ in placed)
    drawn = [_arrow(arrow, flipped, occupied) for arrow in arrows]
    out += [shaft for shaft, _head in drawn]
    out += [_piece(found, *_point(sq, flipped), sq, letters, shared) for sq, found in placed]
    out += [_mark(mark, flipped) for mark in dict.fromkeys(marks)]
    out += [head for _shaft, head in drawn]
    return out


def board(
    board: Board | None = None,
    *,
    flipped: bool = False,
    arrows: Iterable[Arrow | tuple[int, int]] = (),
    squares: Mapping[int, str] | Iterable[int] | None = None,
    lastmove: Move | None = None,
    coordinates: str | None = "iccs",
    letters: bool = False,
    size: int | None = None,
    marks: Iterable[Mark | int] = (),
    shared: bool = False,
) -> str:
    """The position of ``board`` (an empty board when ``None``) as an SVG image.

    ``flipped`` puts Black at the bottom.  ``arrows``: :class:`Arrow` objects or
    ``(tail, head)`` square pairs (drawn as ``move`` arrows).  ``squares``: squares to
    highlight, a mapping to colours or an iterable (highlight colour).  ``lastmove``: its two
    squares are highlighted.  ``coordinates``: ``"iccs"`` (files a–i, ranks 0–9),
    ``"chinese"`` (Red's files 九…一, Black's 1…9) or ``None``.  ``letters``: WXF letters
    instead of Chinese characters (no CJK font needed).  ``size``: width in pixels (the height
    follows); ``None`` leaves the image free to scale.  ``marks``: rings round pieces,
    :class:`Mark` objects or squares (``chase`` rings).  ``shared``: the background and the
    pieces' faces are ``<use>`` references to :func:`definitions` (of the same
    ``coordinates``, ``flipped`` and ``letters``), which the page must hold: many boards in one
    page then draw them once.

    >>> from xqadj.board import Board
    >>> picture = board(Board("3k5/9/9/9/9/9/9/9/9/R3K4 w"), marks=[Mark(84, "check")])
    >>> picture.count('class="mark check" data-square="d9"')
    1
    """
    if coordinates not in (None, "iccs", "chinese"):
        raise ValueError(f"coordinates must be 'iccs', 'chinese' or None, not {coordinates!r}")
    highlighted: dict[int, str] = {}
    if lastmove is not None:
        highlighted[lastmove.from_square] = COLORS["highlight"]
        highlighted[lastmove.to_square] = COLORS["highlight"]
    if isinstance(squares, Mapping):
        highlighted.update(squares)
    elif squares is not None:
        highlighted.update(dict.fromkeys(squares, COLORS["highlight"]))
    drawn = [a if isinstance(a, Arrow) else Arrow(a[0], a[1]) for a in arrows]
    rings = [m if isinstance(m, Mark) else Mark(m) for m in marks]
    body = _board_elements(
        board if board is not None else Board(None),
        flipped,
        drawn,
        highlighted,
        coordinates,
        letters,
        rings,
        shared,
    )
    # A shared picture's texts are all in the definitions, which carry their own fonts.
    return _root(BOARD_WIDTH, BOARD_HEIGHT, size, letters, body, font=not shared)


#: :func:`board` under another name, for functions whose ``board`` argument hides it.
_draw_board = board


def _root(
    width: float,
    height: float,
    size: int | None,
    letters: bool,
    body: list[str],
    font: bool = True,
) -> str:
    dims = f' width="{size}" height="{round(size * height / width)}"' if size else ""
    family = f' font-family="{LATIN_FONTS if letters else CJK_FONTS}"' if font else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'viewBox="0 0 {_num(width)} {_num(height)}"{dims}{family}>'
        + "".join(body)
        + "</svg>"
    )


# -- rulings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Panel:
    """One picture of a ruling: a title, a caption and the board as SVG."""

    title: str
    caption: str
    svg: str
    #: Whether the move drawn is the offender's.
    offender: bool = False


def step_arrows(step: CycleStep) -> list[Arrow]:
    """The arrows of one cycle move: the move, then its checks and chases (attacker to
    victim, on the board after the move), then what the CXA labels name: the moves of the
    mating line a 杀 threatens (``kill``), the check a 拦 stands in the way of (``block``), the
    pair a 兑 offers (``exchange``)."""
    arrows = [Arrow(step.move.from_square, step.move.to_square, "move")]
    arrows += [Arrow(t.attacker, t.victim, "check") for t in step.checks]
    arrows += [Arrow(t.attacker, t.victim, "chase") for t in step.chases]
    if step.label == "杀":
        # The threatening side's moves of the line; the defender's replies fall between.
        arrows += [Arrow(m.from_square, m.to_square, "kill") for m in step.line[::2]]
    elif step.label == "拦":
        arrows += [Arrow(m.from_square, m.to_square, "block") for m in step.line]
    if step.pair is not None:
        arrows.append(Arrow(step.pair[0], step.pair[1], "exchange"))
    return arrows


def step_marks(step: CycleStep) -> list[Mark]:
    """The rings of one cycle move, on the board after it: the king in check, each chased
    piece, the two pieces of an offered exchange (兑), the piece that blocks (拦)."""
    marks = [Mark(t.victim, "check") for t in step.checks[:1]]
    marks += [Mark(t.victim, "chase") for t in step.chases]
    if step.pair is not None:
        marks += [Mark(sq, "exchange") for sq in step.pair]
    if step.label == "拦":
        marks.append(Mark(step.move.to_square, "block"))
    return list(dict.fromkeys(marks))


def _in_check(position: Board) -> list[Mark]:
    """A ring on the king of the side to move when it is in check."""
    return [Mark(position.king_squares[position.turn], "check")] if position.is_check() else []


def shown_steps(start: Board, steps: list[CycleStep]) -> tuple[list[CycleStep], int]:
    """The cycle moves worth drawing and how many times they were played: a cycle made of
    the same moves played twice from the same position is drawn once."""
    half = len(steps) // 2
    if half and len(steps) % 2 == 0:
        first, second = steps[:half], steps[half:]
        if [s.move for s in first] == [s.move for s in second]:
            work = start.copy()
            for step in first:
                work.push(step.move)
            if work.zobrist_hash() == start.zobrist_hash():
                return first, 2
    return steps, 1


def _threat_text(board: Board, attacker: int, victim: int) -> str:
    a, v = board.piece_at(attacker), board.piece_at(victim)
    a_name = PIECE_NAMES[a.piece_type] if a else "?"
    v_name = PIECE_NAMES[v.piece_type] if v else "?"
    return f"{a_name} {square_name(attacker)} → {v_name} {square_name(victim)}"


def ruling_panels(
    board: Board,
    ruling: Ruling,
    *,
    coordinates: str | None = "iccs",
    letters: bool = False,
    flipped: bool = False,
    shared: bool = False,
) -> list[Panel]:
    """The pictures of ``ruling`` for the game's ``board`` at the ruling.

    A repetition ruling gives the position at the first occurrence of the repeated position,
    then one picture per move of the cycle (once when the cycle is the same moves played
    twice): the position after the move, the move as a ``move`` arrow, the checks and chases it
    makes as ``check`` and ``chase`` arrows, and what a CXA label names (:func:`step_arrows`);
    rings (:func:`step_marks`) on the king in check, on each chased piece, and on every picture
    on the piece the ruling says was chased on every move.  A ruling without a cycle
    (checkmate, stalemate, move limit) gives the final position, with the last move (the mating
    move) and the checks against the king that lost.  With ``shared`` the boards refer to
    :func:`definitions` (see :func:`board`).
    """

    def draw(
        position: Board,
        arrows: list[Arrow] | None = None,
        last: Move | None = None,
        marks: list[Mark] | None = None,
    ) -> str:
        return _draw_board(
            position,
            arrows=arrows or (),
            lastmove=last,
            coordinates=coordinates,
            letters=letters,
            flipped=flipped,
            marks=marks or (),
            shared=shared,
        )

    if not ruling.cycle:
        mover = 1 - board.turn
        king = board.king_squares[board.turn]
        checks = [Arrow(a, king, "check") for a in sorted(board.attackers(king, mover))]
        last = board.move_stack[-1] if board.move_stack else None
        moved = [Arrow(last.from_square, last.to_square, "move")] if last else []
        title = f"Ply {ruling.ply}: {_reason_name(ruling.reason, letters)}"
        caption = f"{_side(board.turn)} to move" + (
            ", in check by " + ", ".join(_threat_text(board, a.tail, a.head) for a in checks)
            if checks
            else ""
        )
        if last is not None and ruling.reason in (Reason.CHECKMATE, Reason.STALEMATE):
            caption += f"; the last move {last.iccs()}"
        picture = draw(board, moved + checks, last, _in_check(board))
        return [Panel(title, caption, picture)]
    start = cycle_start(board, ruling)
    steps, times = shown_steps(start, cycle_steps(board, ruling))
    first_ply = ruling.ply - len(ruling.cycle)
    # The plies after which the start position stands again (none for a forbidden run, 参考图8).
    again, replayed = [], start.copy()
    for ply, move in enumerate(ruling.cycle, first_ply + 1):
        replayed.push(move)
        if replayed.zobrist_hash() == start.zobrist_hash():
            again.append(str(ply))
    if again:
        title = f"Ply {first_ply}: the position that repeats"
        caption = f"{_side(start.turn)} to move; the position stands again after ply " + ", ".join(
            again
        )
    else:
        title = f"Ply {first_ply}: the position before the moves ruled"
        caption = f"{_side(start.turn)} to move"
    if times > 1:
        caption += f"; the {len(steps)} moves below were played {times} times"
    # The pieces chased on every move (AXF verdicts: ids of their squares at the start), followed
    # as they move, so that every picture rings them.
    chased = [
        sq
        for verdict in ruling.verdicts
        for piece_id in verdict.chased
        if (sq := _square_of(piece_id)) is not None
    ]
    hunted = [Mark(sq, "chase") for sq in chased]
    panels = [Panel(title, caption, draw(start, marks=_in_check(start) + hunted))]
    work = start
    for index, step in enumerate(steps):
        number = first_ply + index + 1
        move_text = f"{step.move.iccs()} {to_wxf(work, step.move)}"
        if not letters:
            move_text += f" {to_chinese(work, step.move)}"
        work = work.copy()
        work.push(step.move)
        chased = [step.move.to_square if sq == step.move.from_square else sq for sq in chased]
        english = LABEL_NAMES.get(step.label, "")
        parts = [english or step.label if letters else f"{step.label} {english}".strip()]
        for kind, threats in (("checks", step.checks), ("chases", step.chases)):
            if threats:
                found = ", ".join(_threat_text(work, t.attacker, t.victim) for t in threats)
                parts.append(f"{kind} {found}")
        parts += _label_parts(work, step)
        offender = ruling.offender is not None and step.color == ruling.offender
        title = f"Ply {number}: {_side(step.color)} {move_text}"
        marks = step_marks(step) + [Mark(sq, "chase") for sq in chased]
        picture = draw(work, step_arrows(step), step.move, marks)
        panels.append(Panel(title, " · ".join(parts), picture, offender))
    return panels


def _square_of(piece_id: str) -> int | None:
    """The square of an AXF verdict's piece id (``'R@h0'``), or None for one not of that form."""
    name = piece_id.partition("@")[2]
    if len(name) != 2 or name[0] not in FILE_NAMES or not name[1].isdigit():
        return None
    return FILE_NAMES.index(name[0]) + 9 * int(name[1])


def _label_parts(work: Board, step: CycleStep) -> list[str]:
    """Caption words for what a CXA label draws: the mating line, the block, the pair."""
    parts = []
    if step.label == "杀" and step.line:
        parts.append("threatens mate: " + " ".join(m.iccs() for m in step.line))
    elif step.label == "拦" and step.line:
        blocked = step.line[0]
        checker = work.piece_at(blocked.from_square)
        name = PIECE_NAMES[checker.piece_type] if checker else "?"
        parts.append(f"stands in the way of {name} {blocked.iccs()}")
    if step.pair is not None:
        offered = _threat_text(work, step.pair[0], step.pair[1]).replace(" → ", " for ")
        parts.append(f"offers {offered}")
    return parts


def _side(color: Color | None) -> str:
    return "Nobody" if color is None else ("Red" if color == RED else "Black")


def _reason_name(reason: Reason, letters: bool) -> str:
    """``perpetual chase 长捉``; without the Chinese with ``letters``."""
    name = REASON_NAMES[reason]
    return name.rsplit(" ", 1)[0] if letters else name


def ruling_title(ruling: Ruling, letters: bool = False) -> str:
    """``Perpetual chase 长捉: Red loses, 0-1 (art.15, AXF rules, ply 8)``; without the Chinese
    with ``letters``."""
    name = _reason_name(ruling.reason, letters)
    who = "drawn" if ruling.offender is None else f"{_side(ruling.offender)} loses"
    article = f"{ruling.article}, " if ruling.article else ""
    return (
        f"{name[0].upper()}{name[1:]}: {who}, {ruling.result} "
        f"({article}{ruling.rules.upper()} rules, ply {ruling.ply})"
    )


def _text_width(text: str, font_size: float) -> float:
    """An estimate: CJK characters are square, Latin ones a little over half as wide."""
    return sum(font_size if ord(c) > 0x2E7F else font_size * 0.52 for c in text)


def wrap(text: str, width: float, font_size: float) -> list[str]:
    """``text`` broken into lines of at most ``width`` user units (estimated) at spaces."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and _text_width(candidate, font_size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def _text_lines(
    lines: list[str], x: float, y: float, size: float, css_class: str, extra: str = ""
) -> tuple[list[str], float]:
    out = [
        f'<text class="{css_class}" x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}"{extra}>'
    ]
    for index, line in enumerate(lines):
        dy = f' dy="{_num(size * 1.3)}"' if index else ""
        out.append(f'<tspan x="{_num(x)}"{dy}>{_escape(line)}</tspan>')
    out.append("</text>")
    return out, y + size * 1.3 * max(len(lines), 1)


def ruling(
    board: Board,
    ruling: Ruling,
    *,
    columns: int = 3,
    coordinates: str | None = "iccs",
    letters: bool = False,
    flipped: bool = False,
    size: int | None = None,
) -> str:
    """One SVG image of ``ruling`` for the game's ``board`` at the ruling: a title (result,
    reason, offender, article), the panels of :func:`ruling_panels` in a grid of ``columns``,
    each with its title and caption (the offender's moves framed in red), and the explanation.
    """
    panels = ruling_panels(
        board, ruling, coordinates=coordinates, letters=letters, flipped=flipped, shared=True
    )
    columns = max(1, min(columns, len(panels)))
    gap, pad = 20, 20
    width = pad * 2 + columns * BOARD_WIDTH + (columns - 1) * gap
    ink = COLORS["lines"]
    body = [
        definitions(coordinates, flipped, letters),
        '<rect class="background" width="100%" height="100%" fill="#fffaf0"/>',
    ]
    title, y = _text_lines(
        wrap(ruling_title(ruling, letters), width - 2 * pad, 20),
        pad,
        pad + 20,
        20,
        "title",
        f' font-weight="bold" fill="{ink}"',
    )
    body += title
    y += 10
    caption_size = 13
    for row_start in range(0, len(panels), columns):
        row = panels[row_start : row_start + columns]
        # The boards of a row stand on one line, below the row's longest title.
        titles = [wrap(panel.title, BOARD_WIDTH, 14) for panel in row]
        board_y = y + 14 * 1.3 * max(len(lines) for lines in titles) + 4
        heights = []
        for column, (panel, lines) in enumerate(zip(row, titles, strict=True)):
            x = pad + column * (BOARD_WIDTH + gap)
            texts, _below = _text_lines(
                lines, x, y + 14, 14, "panel-title", f' font-weight="bold" fill="{ink}"'
            )
            inner = panel.svg[panel.svg.index(">") + 1 : -len("</svg>")]
            frame = (
                f'<rect class="offender" x="{x - 4}" y="{_num(board_y - 4)}" '
                f'width="{BOARD_WIDTH + 8}" height="{BOARD_HEIGHT + 8}" fill="none" '
                f'stroke="{COLORS["red"]}" stroke-width="3"/>'
                if panel.offender
                else ""
            )
            captions, end = _text_lines(
                wrap(panel.caption, BOARD_WIDTH, caption_size),
                x,
                board_y + BOARD_HEIGHT + caption_size + 6,
                caption_size,
                "caption",
                f' fill="{ink}"',
            )
            body += [
                f'<g class="panel{" offender" if panel.offender else ""}">',
                *texts,
                frame,
                f'<g transform="translate({x},{_num(board_y)})">{inner}</g>',
                *captions,
                "</g>",
            ]
            heights.append(end)
        y = max(heights) + gap
    explanation, y = _text_lines(
        wrap(ruling.explain(), width - 2 * pad, 14),
        pad,
        y + 6,
        14,
        "explanation",
        f' fill="{ink}"',
    )
    body += explanation
    return _root(width, y + pad, size, letters, body)


def notebook_picture(position: Board) -> str:
    """A board as a notebook shows it (``Board._repr_svg_()``): 360 pixels, the last move as an
    arrow."""
    lastmove = position.move_stack[-1] if position.move_stack else None
    return board(position, lastmove=lastmove, size=360)

