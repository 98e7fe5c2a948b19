"""WXF (``C2=5``) and Chinese (``炮二平五``) move notation, both ways.

Layer: core (imports the board only).

Both notations describe a move from the mover's point of view:

* the **piece** (WXF letters ``K A E H R C P``; on input ``B`` and ``N`` are accepted for the
  elephant and the horse, in either case);
* the **file of origin**, numbered 1–9 from the mover's right: for Red file ``i`` is 1 and
  ``a`` is 9, for Black file ``a`` is 1 and ``i`` is 9;
* the **direction**: ``+``/进 forward, ``-``/退 backward, ``=``/平 sideways (``.`` is accepted
  for ``=`` on input);
* the **target**: for the king, rook, cannon and pawn moving along their file, the number of
  ranks moved; otherwise (sideways moves, and every move of the advisor, elephant and horse)
  the number of the destination file.

In Chinese, Red writes files and steps with the numerals 一…九 and Black with the full-width
digits １…９ (as ``cchess`` and most Chinese software do); on input any of 一…九, 1–9 and
１…９ is accepted for either side.  The piece names are 帅仕相马车炮兵 for Red and 将士象马车炮卒
for Black; on input the traditional and alternative characters 帥將 傌馬碼 俥車砗 砲包 進 後 are
accepted, and a name of either colour may be used for either side.

**Tandem pieces.**  When two or more horses, rooks, cannons or pawns of the mover stand on the
file of the moving piece, the file is replaced by the piece's position on it, counted from the
mover's front, written before the piece:

* two pieces: ``+R`` ``-R`` / 前车 后车;
* three pawns: ``+P`` ``2P`` ``-P`` / 前兵 中兵 后兵;
* four pawns: ``+P`` ``2P`` ``3P`` ``-P`` / 前兵 二兵 三兵 后兵;
* five pawns: ``+P`` ``2P`` ``3P`` ``4P`` ``-P`` / 前兵 二兵 三兵 四兵 后兵.

(Black writes the Chinese ordinals ２ ３ ４ in full-width digits, as ``cchess`` does.)  When
pawns are in tandem on **two files**, the position alone is ambiguous, so the pawn's letter or
name is replaced by its file number: ``+7=6`` / 前七平六 is the front pawn of file 7, ``2P`` on
a file of three becomes ``27`` / 中七.  Advisors and elephants are never written in tandem form:
two of them on one file can never both reach the same square in the same direction, so the file
number is always unambiguous (as on Chinese score sheets and in ``cchess``).

On input the position prefixes are read leniently: ``+``/``-``/前/后 always mean front and rear;
an ordinal ``1``–``5`` (一…五) counts from the front, so ``1P`` is ``+P``; ``=``, ``.`` and
中 mean the middle of three; the WXF suffix form ``R+=6`` (used by Fairy-Stockfish) is read as
``+R=6``.  A string that fits more than one legal move raises :class:`AmbiguousMoveError`.

>>> board = Board()
>>> to_wxf(board, Move.from_iccs('h2e2')), to_chinese(board, Move.from_iccs('h2e2'))
('C2=5', '炮二平五')
>>> parse_chinese(board, '马二进三')
Move.from_iccs('h0g2')
>>> board.push(parse_wxf(board, 'C2=5'))
>>> to_wxf(board, Move.from_iccs('h9g7')), to_chinese(board, Move.from_iccs('h9g7'))
('H8+7', '马８进７')
>>> parse_chinese(board, '马2进3')
Move.from_iccs('b9c7')
"""

from __future__ import annotations

from typing import NamedTuple

from xqadj.board import (
    ADVISOR,
    BLACK,
    BLACK_BIT,
    CANNON,
    ELEPHANT,
    KING,
    KNIGHT,
    PAWN,
    RED,
    ROOK,
    Board,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    PieceType,
)

__all__ = ["AmbiguousMoveError", "parse_chinese", "parse_wxf", "to_chinese", "to_wxf"]


class AmbiguousMoveError(InvalidMoveError):
    """A move in WXF or Chinese notation that more than one legal move fits."""


# --- what a move looks like from the mover's side --------------------------------------------

#: Pieces whose forward and backward moves are written as a number of ranks.
_STRAIGHT = frozenset({KING, ROOK, CANNON, PAWN})
#: Pieces that are written by their position on the file when two or more share it.
_TANDEM = frozenset({KNIGHT, ROOK, CANNON, PAWN})
#: Pieces that never move sideways.
_DIAGONAL = frozenset({ADVISOR, ELEPHANT, KNIGHT})


class _Facts(NamedTuple):
    """A legal move described the way both notations see it."""

    piece_type: PieceType
    file_number: int  # origin file, 1–9 from the mover's right
    place: int  # 0 for the frontmost of the mover's pieces of this type on the origin file
    column: int  # how many of the mover's pieces of this type stand on the origin file
    by_position: bool  # written with a position prefix instead of the file (tandem)
    by_file: bool  # pawn on one of several tandem files: the file number replaces the letter
    direction: int  # +1 forward, -1 backward, 0 sideways
    target: int  # ranks moved, or the destination file number


_FRONT, _MIDDLE, _REAR = -1, -2, -3  # position markers; positive values are 1-based ordinals


class _Spec(NamedTuple):
    """A parsed move string: what the legal move must look like."""

    piece_type: PieceType
    file_number: int | None  # origin file, if given
    position: int | None  # _FRONT, _MIDDLE, _REAR or an ordinal from the front, if given
    direction: int
    target: int


def _file_number(file: int, color: Color) -> int:
    return 9 - file if color == RED else file + 1


def _column(squares: list[int], file: int, code: int, color: Color) -> list[int]:
    """Ranks of the pieces ``code`` on ``file``, from the front of ``color`` to the rear."""
    ranks = [rank for rank in range(10) if squares[rank * 9 + file] == code]
    return ranks[::-1] if color == RED else ranks


def _tandem_pawn_files(squares: list[int], color: Color) -> int:
    """How many files hold two or more pawns of ``color``."""
    code = PAWN | (BLACK_BIT if color == BLACK else 0)
    files = 0
    for file in range(9):
        if sum(1 for rank in range(10) if squares[rank * 9 + file] == code) >= 2:
            files += 1
    return files


def _facts(squares: list[int], move: Move, tandem_pawn_files: int) -> _Facts:
    code = squares[move.from_square]
    piece_type = code & 7
    color = BLACK if code & BLACK_BIT else RED
    from_file, from_rank = move.from_square % 9, move.from_square // 9
    to_file, to_rank = move.to_square % 9, move.to_square // 9
    column = _column(squares, from_file, code, color)
    forward = to_rank - from_rank if color == RED else from_rank - to_rank
    direction = (forward > 0) - (forward < 0)
    if piece_type in _STRAIGHT and forward:
        target = abs(forward)
    else:
        target = _file_number(to_file, color)
    by_position = piece_type in _TANDEM and len(column) >= 2
    return _Facts(
        piece_type=piece_type,
        file_number=_file_number(from_file, color),
        place=column.index(from_rank),
        column=len(column),
        by_position=by_position,
        by_file=by_position and piece_type == PAWN and tandem_pawn_files >= 2,
        direction=direction,
        target=target,
    )


def _describe(board: Board, move: Move) -> _Facts:
    """The facts of ``move``, which must be legal."""
    if not board.is_legal(move):
        raise IllegalMoveError(f"illegal move {move.iccs()} in {board.fen()}")
    squares = board.squares
    return _facts(squares, move, _tandem_pawn_files(squares, board.turn))


def _position_matches(position: int, index: int, column: int) -> bool:
    if column < 2:
        return False
    if position == _FRONT:
        return index == 0
    if position == _REAR:
        return index == column - 1
    if position == _MIDDLE:
        return column == 3 and index == 1
    return index == position - 1


def _matches(facts: _Facts, spec: _Spec) -> bool:
    if (facts.piece_type, facts.direction, facts.target) != (
        spec.piece_type,
        spec.direction,
        spec.target,
    ):
        return False
    if spec.file_number is not None and spec.file_number != facts.file_number:
        return False
    return spec.position is None or _position_matches(spec.position, facts.place, facts.column)


def _resolve(board: Board, spec: _Spec, text: str) -> Move:
    """The one legal move that fits ``spec``."""
    if spec.direction == 0 and spec.piece_type in _DIAGONAL:
        raise InvalidMoveError(f"{text!r}: advisors, elephants and horses never move sideways")
    squares = board.squares
    tandem_pawn_files = _tandem_pawn_files(squares, board.turn)
    found = [
        move
        for move in board.legal_moves()
        if squares[move.from_square] & 7 == spec.piece_type
        and _matches(_facts(squares, move, tandem_pawn_files), spec)
    ]
    if not found:
        raise IllegalMoveError(f"no legal move {text!r} in {board.fen()}")
    if len(found) > 1:
        moves = ", ".join(move.iccs() for move in found)
        raise AmbiguousMoveError(f"{text!r} is ambiguous in {board.fen()}: {moves}")
    return found[0]


# --- WXF ----------------------------------------------------------------------------------

_WXF_LETTERS = ".KAEHRCP"  # indexed by piece type
_WXF_PIECES: dict[str, PieceType] = {
    "K": KING,
    "A": ADVISOR,
    "E": ELEPHANT,
    "B": ELEPHANT,
    "H": KNIGHT,
    "N": KNIGHT,
    "R": ROOK,
    "C": CANNON,
    "P": PAWN,
}
_WXF_DIRECTIONS = {"+": 1, "-": -1, "=": 0, ".": 0}
_WXF_DIGITS = "123456789"


def _wxf_position(facts: _Facts) -> str:
    if facts.place == 0:
        return "+"
    if facts.place == facts.column - 1:
        return "-"
    return str(facts.place + 1)


def to_wxf(board: Board, move: Move) -> str:
    """The WXF notation of a legal ``move`` of the side to move.

    Raises :class:`~xqadj.board.IllegalMoveError` if the move is not legal.

    >>> board = Board()
    >>> to_wxf(board, Move.from_iccs('h2e2'))
    'C2=5'
    >>> to_wxf(board, Move.from_iccs('b0c2')), to_wxf(board, Move.from_iccs('g0e2'))
    ('H8+7', 'E3+5')
    >>> board.push_iccs('b2e2')
    Move.from_iccs('b2e2')
    >>> to_wxf(board, Move.from_iccs('h9g7')), to_wxf(board, Move.from_iccs('a9a7'))
    ('H8+7', 'R1+2')

    Two rooks on a file are front and rear; pawns in tandem on two files carry the file:

    >>> rooks = Board('3k5/9/9/9/9/9/9/4R4/9/4RK3 w')
    >>> to_wxf(rooks, Move.from_iccs('e2f2')), to_wxf(rooks, Move.from_iccs('e0e1'))
    ('+R=4', '-R+1')
    >>> pawns = Board('3k5/9/9/2P1P4/2P1P4/9/9/9/9/5K3 w')
    >>> to_wxf(pawns, Move.from_iccs('e6d6')), to_wxf(pawns, Move.from_iccs('c5b5'))
    ('+5=6', '-7=8')
    """
    facts = _describe(board, move)
    letter = str(facts.file_number) if facts.by_file else _WXF_LETTERS[facts.piece_type]
    if facts.by_position:
        piece = _wxf_position(facts) + letter
    else:
        piece = letter + str(facts.file_number)
    operator = "=" if facts.direction == 0 else "+" if facts.direction > 0 else "-"
    return f"{piece}{operator}{facts.target}"


def _parse_wxf(text: str) -> _Spec:
    body = text.strip()
    if len(body) != 4:
        raise InvalidMoveError(f"not a WXF move (expected 4 characters): {text!r}")
    first, second, operator, target = body[0], body[1], body[2], body[3]
    file_number: int | None = None
    position: int | None = None
    piece = _WXF_PIECES.get(first.upper())
    if piece is not None:
        if second in _WXF_DIGITS:
            file_number = int(second)
        elif second in "+-":  # the suffix form R+=6
            position = _FRONT if second == "+" else _REAR
        else:
            raise InvalidMoveError(f"not a WXF move (bad file {second!r}): {text!r}")
    else:
        if first in "+-=.":
            position = {"+": _FRONT, "-": _REAR}.get(first, _MIDDLE)
        elif first in "12345":
            position = int(first)
        else:
            raise InvalidMoveError(f"not a WXF move (bad piece {first!r}): {text!r}")
        piece = _WXF_PIECES.get(second.upper())
        if piece is None:
            if second not in _WXF_DIGITS:
                raise InvalidMoveError(f"not a WXF move (bad piece {second!r}): {text!r}")
            piece, file_number = PAWN, int(second)
    if operator not in _WXF_DIRECTIONS:
        raise InvalidMoveError(f"not a WXF move (bad direction {operator!r}): {text!r}")
    if target not in _WXF_DIGITS:
        raise InvalidMoveError(f"not a WXF move (bad target {target!r}): {text!r}")
    return _Spec(piece, file_number, position, _WXF_DIRECTIONS[operator], int(target))


def parse_wxf(board: Board, text: str) -> Move:
    """Parse a move in WXF notation and check that it is legal.

    Raises :class:`~xqadj.board.InvalidMoveError` for a string that is not WXF,
    :class:`AmbiguousMoveError` (a subclass) if several legal moves fit it and
    :class:`~xqadj.board.IllegalMoveError` if none does.

    >>> board = Board()
    >>> parse_wxf(board, 'C2=5'), parse_wxf(board, 'c2.5'), parse_wxf(board, 'N8+7')
    (Move.from_iccs('h2e2'), Move.from_iccs('h2e2'), Move.from_iccs('b0c2'))
    >>> parse_wxf(board, 'R1+2')
    Move.from_iccs('i0i2')
    >>> parse_wxf(Board('4k4/9/9/9/9/9/9/9/9/3K5 w'), 'K6+2')
    Traceback (most recent call last):
    ...
    xqadj.board.IllegalMoveError: no legal move 'K6+2' in 4k4/9/9/9/9/9/9/9/9/3K5 w
    >>> parse_wxf(board, 'H2=3')
    Traceback (most recent call last):
    ...
    xqadj.board.InvalidMoveError: 'H2=3': advisors, elephants and horses never move sideways
    >>> rooks = Board('3k5/9/9/9/9/9/9/4R4/9/4RK3 w')
    >>> parse_wxf(rooks, '+R=4'), parse_wxf(rooks, 'R-+1')
    (Move.from_iccs('e2f2'), Move.from_iccs('e0e1'))
    >>> parse_wxf(rooks, 'R5=6')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xqadj.notation.AmbiguousMoveError: 'R5=6' is ambiguous in ...: e0d0, e2d2
    """
    return _resolve(board, _parse_wxf(text), text)


# --- Chinese ------------------------------------------------------------------------------

_RED_NAMES = " 帅仕相马车炮兵"  # indexed by piece type
_BLACK_NAMES = " 将士象马车炮卒"
_RED_NUMERALS = "一二三四五六七八九"
_BLACK_NUMERALS = "１２３４５６７８９"  # full-width digits
_CHINESE_PIECES: dict[str, PieceType] = {
    **{name: KING for name in "帅帥将將"},
    **{name: ADVISOR for name in "仕士"},
    **{name: ELEPHANT for name in "相象"},
    **{name: KNIGHT for name in "马馬傌碼"},
    **{name: ROOK for name in "车車俥砗"},
    **{name: CANNON for name in "炮砲包"},
    **{name: PAWN for name in "兵卒"},
}
_CHINESE_DIRECTIONS = {"进": 1, "進": 1, "退": -1, "平": 0}
_CHINESE_POSITIONS = {"前": _FRONT, "中": _MIDDLE, "后": _REAR, "後": _REAR}
_NUMERALS: dict[str, int] = {
    **{ch: i + 1 for i, ch in enumerate(_RED_NUMERALS)},
    **{ch: i + 1 for i, ch in enumerate(_BLACK_NUMERALS)},
    **{ch: i + 1 for i, ch in enumerate("123456789")},
}


def _chinese_position(facts: _Facts, numerals: str) -> str:
    if facts.place == 0:
        return "前"
    if facts.place == facts.column - 1:
        return "后"
    if facts.column == 3:
        return "中"
    return numerals[facts.place]


def to_chinese(board: Board, move: Move) -> str:
    """The Chinese notation of a legal ``move`` of the side to move.

    Red writes numbers as 一…九, Black as full-width digits.  Raises
    :class:`~xqadj.board.IllegalMoveError` if the move is not legal.

    >>> board = Board()
    >>> to_chinese(board, Move.from_iccs('h2e2')), to_chinese(board, Move.from_iccs('c0e2'))
    ('炮二平五', '相七进五')
    >>> board.push_iccs('h2e2')
    Move.from_iccs('h2e2')
    >>> to_chinese(board, Move.from_iccs('h9g7')), to_chinese(board, Move.from_iccs('a9a8'))
    ('马８进７', '车１进１')

    Three pawns on a file are front, middle and rear; on two tandem files the file is written:

    >>> pawns = Board('3k5/9/9/4P4/4P4/4P4/9/9/9/5K3 w')
    >>> to_chinese(pawns, Move.from_iccs('e6d6')), to_chinese(pawns, Move.from_iccs('e5f5'))
    ('前兵平六', '中兵平四')
    >>> pawns = Board('3k5/9/9/2P1P4/2P1P4/9/9/9/9/5K3 w')
    >>> to_chinese(pawns, Move.from_iccs('e6d6')), to_chinese(pawns, Move.from_iccs('c5b5'))
    ('前五平六', '后七平八')
    """
    facts = _describe(board, move)
    color = board.turn
    numerals = _RED_NUMERALS if color == RED else _BLACK_NUMERALS
    names = _RED_NAMES if color == RED else _BLACK_NAMES
    name = numerals[facts.file_number - 1] if facts.by_file else names[facts.piece_type]
    if facts.by_position:
        piece = _chinese_position(facts, numerals) + name
    else:
        piece = name + numerals[facts.file_number - 1]
    operator = "平" if facts.direction == 0 else "进" if facts.direction > 0 else "退"
    return f"{piece}{operator}{numerals[facts.target - 1]}"


def _parse_chinese(text: str) -> _Spec:
    body = "".join(text.split())
    if len(body) != 4:
        raise InvalidMoveError(f"not a Chinese move (expected 4 characters): {text!r}")
    first, second, operator, target = body[0], body[1], body[2], body[3]
    file_number: int | None = None
    position: int | None = None
    piece = _CHINESE_PIECES.get(first)
    if piece is not None:
        file_number = _NUMERALS.get(second)
        if file_number is None:
            raise InvalidMoveError(f"not a Chinese move (bad file {second!r}): {text!r}")
    else:
        position = _CHINESE_POSITIONS.get(first)
        if position is None:
            position = _NUMERALS.get(first)
            if position is None or position > 5:
                raise InvalidMoveError(f"not a Chinese move (bad piece {first!r}): {text!r}")
        piece = _CHINESE_PIECES.get(second)
        if piece is None:
            file_number = _NUMERALS.get(second)
            if file_number is None:
                raise InvalidMoveError(f"not a Chinese move (bad piece {second!r}): {text!r}")
            piece = PAWN
    direction = _CHINESE_DIRECTIONS.get(operator)
    if direction is None:
        raise InvalidMoveError(f"not a Chinese move (bad direction {operator!r}): {text!r}")
    steps = _NUMERALS.get(target)
    if steps is None:
        raise InvalidMoveError(f"not a Chinese move (bad target {target!r}): {text!r}")
    return _Spec(piece, file_number, position, direction, steps)


def parse_chinese(board: Board, text: str) -> Move:
    """Parse a move in Chinese notation and check that it is legal.

    Raises :class:`~xqadj.board.InvalidMoveError` for a string that is not a Chinese move,
    :class:`AmbiguousMoveError` (a subclass) if several legal moves fit it and
    :class:`~xqadj.board.IllegalMoveError` if none does.

    >>> board = Board()
    >>> parse_chinese(board, '炮二平五'), parse_chinese(board, '傌８進７')
    (Move.from_iccs('h2e2'), Move.from_iccs('b0c2'))
    >>> board.push_iccs('h2e2')
    Move.from_iccs('h2e2')
    >>> parse_chinese(board, '马8进7'), parse_chinese(board, '砲８平５')
    (Move.from_iccs('h9g7'), Move.from_iccs('h7e7'))
    >>> pawns = Board('3k5/9/9/4P4/4P4/4P4/9/9/9/5K3 w')
    >>> parse_chinese(pawns, '中兵平六'), parse_chinese(pawns, '一兵进一')
    (Move.from_iccs('e5d5'), Move.from_iccs('e6e7'))
    >>> parse_chinese(pawns, '兵五平六')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xqadj.notation.AmbiguousMoveError: '兵五平六' is ambiguous in ...: e5d5, e6d6
    """
    return _resolve(board, _parse_chinese(text), text)
