"""The rules core: squares, pieces, moves, positions, legal moves and repetition history.

Layer: core (imports the standard library only; no I/O).

Squares are numbered ``rank * 9 + file``: files a–i are 0–8 from Red's left, ranks 0–9 from
Red's side, so ``a0`` is 0 and ``i9`` is 89.  This is the ICCS coordinate system.

The core imports no I/O and keeps every per-move update incremental: :meth:`Board.push`
updates the placement, the Zobrist hash and the count of the current position since the last
capture in O(1).

>>> board = Board()
>>> board.push_iccs("h2e2")
Move.from_iccs('h2e2')
>>> board.fen()
'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b'
>>> len(board.legal_moves())
45
>>> board.pop()
Move.from_iccs('h2e2')
>>> board.repetition_count()
1
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Final, NamedTuple

Color = int
RED: Final[Color] = 0
BLACK: Final[Color] = 1
COLOR_NAMES: Final = ("red", "black")

PieceType = int
KING: Final[PieceType] = 1
ADVISOR: Final[PieceType] = 2
ELEPHANT: Final[PieceType] = 3
KNIGHT: Final[PieceType] = 4
ROOK: Final[PieceType] = 5
CANNON: Final[PieceType] = 6
PAWN: Final[PieceType] = 7
PIECE_TYPES: Final = (KING, ADVISOR, ELEPHANT, KNIGHT, ROOK, CANNON, PAWN)
PIECE_SYMBOLS: Final = ".kabnrcp"
PIECE_NAMES: Final = ("", "king", "advisor", "elephant", "knight", "rook", "cannon", "pawn")
#: How many pieces of each type a side starts with; more is an impossible position.
MAX_PIECES: Final = {KING: 1, ADVISOR: 2, ELEPHANT: 2, KNIGHT: 2, ROOK: 2, CANNON: 2, PAWN: 5}

# A square holds 0 (empty) or a piece code: the piece type, plus 8 for Black.
EMPTY: Final = 0
BLACK_BIT: Final = 8

FILE_NAMES: Final = "abcdefghi"
SQUARES: Final = range(90)
STARTING_FEN: Final = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"


def square(file: int, rank: int) -> int:
    """The square on ``file`` (0–8, a–i) and ``rank`` (0–9 from Red's side)."""
    return rank * 9 + file


def square_file(sq: int) -> int:
    return sq % 9


def square_rank(sq: int) -> int:
    return sq // 9


def square_name(sq: int) -> str:
    """ICCS name of a square: ``square_name(0) == 'a0'``."""
    return FILE_NAMES[sq % 9] + str(sq // 9)


def piece_code(piece_type: PieceType, color: Color) -> int:
    return piece_type | (BLACK_BIT if color == BLACK else 0)


def code_type(code: int) -> PieceType:
    return code & 7


def code_color(code: int) -> Color:
    return BLACK if code & BLACK_BIT else RED


class Piece(NamedTuple):
    """A piece type with its colour; ``Piece.from_symbol('R')`` is a red rook."""

    piece_type: PieceType
    color: Color

    def symbol(self) -> str:
        """FEN letter: uppercase for Red."""
        letter = PIECE_SYMBOLS[self.piece_type]
        return letter.upper() if self.color == RED else letter

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """Parse a FEN letter; ``H``/``E`` are accepted as aliases of ``N``/``B``."""
        letter = _SYMBOL_ALIASES.get(symbol.lower(), symbol.lower())
        index = PIECE_SYMBOLS.find(letter)
        if index <= 0 or len(symbol) != 1:
            raise InvalidFenError(f"unknown piece letter {symbol!r}")
        return cls(index, RED if symbol.isupper() else BLACK)

    def __str__(self) -> str:
        return self.symbol()


_SYMBOL_ALIASES: Final = {"h": "n", "e": "b"}

#: The FEN letter of each piece code.
SYMBOL_BY_CODE: Final[dict[int, str]] = {
    piece_code(t, c): Piece(t, c).symbol() for t in PIECE_TYPES for c in (RED, BLACK)
}


# --- errors -------------------------------------------------------------------------------


class XqadjError(ValueError):
    """Base class of every error xqadj raises for bad input."""


class InvalidFenError(XqadjError):
    """A FEN that cannot be parsed or describes an impossible position."""


class InvalidMoveError(XqadjError):
    """A move string that is not a move in the expected notation."""


class IllegalMoveError(XqadjError):
    """A well-formed move that is not legal in the position."""


# --- moves --------------------------------------------------------------------------------


class Move(NamedTuple):
    """A move from one square to another.  Moves are cached: compare them with ``==``."""

    from_square: int
    to_square: int

    def iccs(self) -> str:
        """ICCS notation, ranks 0–9: ``'h2e2'``."""
        return square_name(self.from_square) + square_name(self.to_square)

    def fairy(self) -> str:
        """Fairy-Stockfish UCI notation, ranks 1–10: ``'h3e3'``."""
        f, t = self.from_square, self.to_square
        return f"{FILE_NAMES[f % 9]}{f // 9 + 1}{FILE_NAMES[t % 9]}{t // 9 + 1}"

    @staticmethod
    def from_iccs(text: str) -> Move:
        """Parse ICCS (``'h2e2'``, case-insensitive); raises :class:`InvalidMoveError`."""
        move = _ICCS_MOVES.get(text) or _ICCS_MOVES.get(text.lower())
        if move is None:
            raise InvalidMoveError(f"not an ICCS move: {text!r}")
        return move

    @staticmethod
    def from_fairy(text: str) -> Move:
        """Parse Fairy-Stockfish UCI notation with ranks 1–10 (``'h3e3'``)."""
        move = _FAIRY_MOVES.get(text) or _FAIRY_MOVES.get(text.lower())
        if move is None:
            raise InvalidMoveError(f"not a move with ranks 1-10: {text!r}")
        return move

    def __repr__(self) -> str:
        return f"Move.from_iccs({self.iccs()!r})"

    def __str__(self) -> str:
        return self.iccs()


_ALL_MOVES: Final = [[Move(f, t) for t in SQUARES] for f in SQUARES]
_ICCS_NAMES: Final = [FILE_NAMES[sq % 9] + str(sq // 9) for sq in SQUARES]
_FAIRY_NAMES: Final = [FILE_NAMES[sq % 9] + str(sq // 9 + 1) for sq in SQUARES]
_ICCS_MOVES: Final = {
    _ICCS_NAMES[f] + _ICCS_NAMES[t]: _ALL_MOVES[f][t] for f in SQUARES for t in SQUARES if f != t
}
_FAIRY_MOVES: Final = {
    _FAIRY_NAMES[f] + _FAIRY_NAMES[t]: _ALL_MOVES[f][t] for f in SQUARES for t in SQUARES if f != t
}

# --- geometry tables, computed once at import ---------------------------------------------

_NORTH, _SOUTH, _EAST, _WEST = 0, 1, 2, 3


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 9 and 0 <= rank < 10


def _in_palace(file: int, rank: int, color: Color) -> bool:
    return 3 <= file <= 5 and (0 <= rank <= 2 if color == RED else 7 <= rank <= 9)


def _own_half(rank: int, color: Color) -> bool:
    return rank <= 4 if color == RED else rank >= 5


def _build_rays() -> list[tuple[tuple[int, ...], ...]]:
    rays: list[tuple[tuple[int, ...], ...]] = []
    for sq in SQUARES:
        f, r = sq % 9, sq // 9
        rays.append(
            (
                tuple(square(f, rr) for rr in range(r + 1, 10)),
                tuple(square(f, rr) for rr in range(r - 1, -1, -1)),
                tuple(square(ff, r) for ff in range(f + 1, 9)),
                tuple(square(ff, r) for ff in range(f - 1, -1, -1)),
            )
        )
    return rays


#: ``RAYS[sq][direction]``: the squares from ``sq`` outwards, nearest first.
RAYS: Final = _build_rays()
#: ``RAY_MASKS[sq][direction]``: the same squares as a bit mask (bit ``s`` for square ``s``).
#: Directions 0 (north) and 2 (east) run towards higher squares, 1 and 3 towards lower ones.
RAY_MASKS: Final = [tuple(sum(1 << s for s in ray) for ray in rays) for rays in RAYS]

_KNIGHT_JUMPS: Final = (
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
)


def _build_knight() -> tuple[list[tuple[tuple[int, int], ...]], list[tuple[tuple[int, int], ...]]]:
    """Knight moves ``(target, leg)`` from each square, and attacks ``(origin, leg)`` onto it."""
    moves: list[list[tuple[int, int]]] = [[] for _ in SQUARES]
    attacks: list[list[tuple[int, int]]] = [[] for _ in SQUARES]
    for sq in SQUARES:
        f, r = sq % 9, sq // 9
        for df, dr, lf, lr in _KNIGHT_JUMPS:
            if _on_board(f + df, r + dr):
                target, leg = square(f + df, r + dr), square(f + lf, r + lr)
                moves[sq].append((target, leg))
                attacks[target].append((sq, leg))
    return [tuple(m) for m in moves], [tuple(a) for a in attacks]


KNIGHT_MOVES, KNIGHT_ATTACKS = _build_knight()


_StepTables = tuple[
    list[tuple[int, ...]],
    list[tuple[int, ...]],
    list[tuple[tuple[int, int], ...]],
    list[tuple[int, ...]],
]


def _build_steps(color: Color) -> _StepTables:
    kings, advisors, elephants, pawns = [], [], [], []
    for sq in SQUARES:
        f, r = sq % 9, sq // 9
        king = [
            square(f + df, r + dr)
            for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0))
            if _in_palace(f + df, r + dr, color)
        ]
        advisor = [
            square(f + df, r + dr)
            for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1))
            if _in_palace(f + df, r + dr, color)
        ]
        elephant = [
            (square(f + df, r + dr), square(f + df // 2, r + dr // 2))
            for df, dr in ((2, 2), (2, -2), (-2, 2), (-2, -2))
            if _on_board(f + df, r + dr) and _own_half(r + dr, color)
        ]
        forward = 1 if color == RED else -1
        pawn = []
        if _on_board(f, r + forward):
            pawn.append(square(f, r + forward))
        if not _own_half(r, color):
            pawn += [square(f + df, r) for df in (1, -1) if _on_board(f + df, r)]
        kings.append(tuple(king))
        advisors.append(tuple(advisor))
        elephants.append(tuple(elephant))
        pawns.append(tuple(pawn))
    return kings, advisors, elephants, pawns


_STEPS: Final = (_build_steps(RED), _build_steps(BLACK))
#: ``KING_MOVES[color][sq]`` and friends: the step targets of each piece type.
KING_MOVES: Final = (_STEPS[RED][0], _STEPS[BLACK][0])
ADVISOR_MOVES: Final = (_STEPS[RED][1], _STEPS[BLACK][1])
ELEPHANT_MOVES: Final = (_STEPS[RED][2], _STEPS[BLACK][2])
PAWN_MOVES: Final = (_STEPS[RED][3], _STEPS[BLACK][3])


def _pawn_attackers(color: Color) -> list[tuple[int, ...]]:
    """``result[sq]``: the squares from which a pawn of ``color`` attacks ``sq``."""
    table: list[list[int]] = [[] for _ in SQUARES]
    for sq in SQUARES:
        for target in PAWN_MOVES[color][sq]:
            table[target].append(sq)
    return [tuple(t) for t in table]


PAWN_ATTACKERS: Final = (_pawn_attackers(RED), _pawn_attackers(BLACK))


def _reachable(piece_type: PieceType, color: Color) -> frozenset[int]:
    """Squares a piece of this type can ever stand on (for FEN validation).

    Pawns are allowed anywhere: the rulebook's own diagrams put pawns behind their start rank.
    """
    out = set()
    for sq in SQUARES:
        f, r = sq % 9, sq // 9
        rr = r if color == RED else 9 - r
        if piece_type == KING:
            ok = _in_palace(f, r, color)
        elif piece_type == ADVISOR:
            ok = _in_palace(f, r, color) and (f + rr) % 2 == 1
        elif piece_type == ELEPHANT:
            ok = (f, rr) in {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}
        else:
            ok = True
        if ok:
            out.add(sq)
    return frozenset(out)


REACHABLE: Final = {(pt, c): _reachable(pt, c) for pt in PIECE_TYPES for c in (RED, BLACK)}


_MoveTables = tuple[list[tuple[int, ...] | None], list[int], list[list[int]], list[list[bool]]]


def _move_tables() -> _MoveTables:
    """Per ``from * 90 + to``: the squares strictly between on a rank or file (None if not on
    one), the knight's leg (-1 if not a knight jump), per colour the elephant's eye (-1 if not an
    elephant move), and per colour whether the king/advisor/pawn step exists (by piece type)."""
    between: list[tuple[int, ...] | None] = [None] * 8100
    knight_leg = [-1] * 8100
    elephant_eye = [[-1] * 8100, [-1] * 8100]
    for f in SQUARES:
        for ray in RAYS[f]:
            for i, t in enumerate(ray):
                between[f * 90 + t] = ray[:i]
        for t, leg in KNIGHT_MOVES[f]:
            knight_leg[f * 90 + t] = leg
        for color in (RED, BLACK):
            for t, eye in ELEPHANT_MOVES[color][f]:
                elephant_eye[color][f * 90 + t] = eye
    steps = []
    for color in (RED, BLACK):
        table = [False] * (8 * 8100)
        for piece_type, moves in ((KING, KING_MOVES), (ADVISOR, ADVISOR_MOVES), (PAWN, PAWN_MOVES)):
            for f in SQUARES:
                for t in moves[color][f]:
                    table[piece_type * 8100 + f * 90 + t] = True
        steps.append(table)
    return between, knight_leg, elephant_eye, steps


BETWEEN, KNIGHT_LEG, ELEPHANT_EYE, _STEP_OK = _move_tables()


def _shield_table() -> list[bytes]:
    """``SHIELD[king][sq]``: 1 where a piece on ``sq`` may shield ``king`` (its file and rank, and
    the four knight-leg squares diagonally next to it), or, arriving there, may become a cannon
    screen against it.  A move between two squares that read 0 never exposes that king."""
    table = []
    for king in SQUARES:
        kf, kr = king % 9, king // 9
        table.append(
            bytes(
                1 if (f == kf or r == kr or (abs(f - kf) == 1 and abs(r - kr) == 1)) else 0
                for r in range(10)
                for f in range(9)
            )
        )
    return table


SHIELD: Final = _shield_table()


def _check_landing_table() -> list[list[bytes]]:
    """``CHECK_LANDING[piece_type][king][sq]``: 1 where a piece of that type landing on ``sq``
    may check ``king``: on its file or rank (directly, or as a new cannon mount), or a knight's
    or pawn's attacking square.  With ``SHIELD`` for the square left, this tells which moves
    may give check."""
    lines = [
        bytearray(1 if sq % 9 == king % 9 or sq // 9 == king // 9 else 0 for sq in SQUARES)
        for king in SQUARES
    ]
    knight, pawn = [bytearray(row) for row in lines], [bytearray(row) for row in lines]
    for king in SQUARES:
        for origin, _leg in KNIGHT_ATTACKS[king]:
            knight[king][origin] = 1
        for color in (RED, BLACK):
            for origin in PAWN_ATTACKERS[color][king]:
                pawn[king][origin] = 1
    line_table = [bytes(row) for row in lines]
    table = [line_table] * 8  # the other piece types check only along lines
    table[KNIGHT] = [bytes(row) for row in knight]
    table[PAWN] = [bytes(row) for row in pawn]
    return table


CHECK_LANDING: Final = _check_landing_table()


def _zobrist_keys() -> tuple[list[list[int]], int]:
    rng = random.Random(0x58514144)  # fixed seed: hashes are stable across runs
    table = [[0] * 90 for _ in range(16)]
    for code in range(16):
        if code & 7:
            table[code] = [rng.getrandbits(64) for _ in SQUARES]
    return table, rng.getrandbits(64)


ZOBRIST, ZOBRIST_BLACK_TO_MOVE = _zobrist_keys()


# --- the board ----------------------------------------------------------------------------


#: Per colour, the pawns' starting squares on the files i, a, e, c, g: the order in which
#: has_legal_move() looks for a pawn step to keep as its witness.
_LASTING_PAWNS: Final = tuple(
    tuple(square(file, 3 if color == RED else 6) for file in (8, 0, 4, 2, 6))
    for color in (RED, BLACK)
)

_SQUARES_DOWNWARDS: Final = SQUARES[::-1]

#: A quiet move that proved a side could move: from, to, the piece, the squares it needs empty.
_Witness = tuple[int, int, int, int]


class _Undo(NamedTuple):
    move: Move
    captured: int
    hash_before: int
    counts_before: dict[int, int] | None  # the history of the segment a capture closed
    checked_before: bool | None  # the cached is_check() of the position before the move


class Board:
    """A xiangqi position with its move stack and the repetition history since the last capture.

    >>> board = Board("3k5/9/9/9/9/9/9/9/4R4/4K4 w")
    >>> board.push_iccs("e1d1")
    Move.from_iccs('e1d1')
    >>> board.is_check()
    True
    >>> board.legal_moves()  # d8 is still on the rook's file; e9 would face the red king
    []
    >>> board.is_checkmate()
    True
    """

    def __init__(self, fen: str | None = STARTING_FEN) -> None:
        self.squares: list[int] = [EMPTY] * 90
        self.turn: Color = RED
        self.king_squares = [-1, -1]
        self.move_stack: list[Move] = []
        self._undo: list[_Undo] = []
        self._hash = 0
        self._counts: dict[int, int] = {}
        self._capture_plies: list[int] = []  # ply count after each capture, for O(1) clocks
        self._checked: bool | None = None  # is_check() of the current position, None = unknown
        self._occupied = 0  # bit ``s`` set when square ``s`` holds a piece
        # Per colour, a move that recently proved the side can move: has_legal_move() tries it
        # first.  Only a hint: it is checked again before use.
        self._witness: list[_Witness | None] = [None, None]
        self._in_check_witness: list[Move | None] = [None, None]
        if fen is not None:
            self.set_fen(fen)

    # -- FEN ---------------------------------------------------------------------------------

    def set_fen(self, fen: str) -> None:
        """Set up a position from FEN and clear the history.

        On error the board is left unchanged.
        """
        self._load(*_parse_fen(fen))

    def _load(self, squares: list[int], turn: Color) -> None:
        """Set up a validated placement with an empty history."""
        self.squares = squares
        self._occupied = sum(1 << sq for sq in SQUARES if squares[sq])
        self.turn = turn
        self.king_squares = [
            squares.index(piece_code(KING, RED)),
            squares.index(piece_code(KING, BLACK)),
        ]
        self.move_stack = []
        self._undo = []
        self._capture_plies = []
        self._checked = None
        self._hash = self._compute_hash()
        self._counts = {self._hash: 1}

    def board_fen(self) -> str:
        """The placement part of the FEN."""
        squares = self.squares
        rows = []
        for rank in range(9, -1, -1):
            row, empty = "", 0
            for code in squares[rank * 9 : rank * 9 + 9]:
                if code == EMPTY:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += SYMBOL_BY_CODE[code]
            rows.append(row + (str(empty) if empty else ""))
        return "/".join(rows)

    def fen(self) -> str:
        """FEN with placement and side to move (``w`` for Red, ``b`` for Black)."""
        return f"{self.board_fen()} {'w' if self.turn == RED else 'b'}"

    def copy(self) -> Board:
        """An independent copy, with the move stack and history."""
        board = Board(None)
        board.squares = self.squares[:]
        board._occupied = self._occupied
        board.turn = self.turn
        board.king_squares = self.king_squares[:]
        board.move_stack = self.move_stack[:]
        # The closed history segments are mutated again by pop(): give the copy its own.
        board._undo = [
            u if u.counts_before is None else u._replace(counts_before=dict(u.counts_before))
            for u in self._undo
        ]
        board._hash = self._hash
        board._counts = dict(self._counts)
        board._capture_plies = self._capture_plies[:]
        board._checked = self._checked
        return board

    def __copy__(self) -> Board:
        """``copy.copy(board)`` is :meth:`copy`: a shallow copy would share the squares and the
        move stack, so that pushing on one board moved the other."""
        return self.copy()

    def _compute_hash(self) -> int:
        h = ZOBRIST_BLACK_TO_MOVE if self.turn == BLACK else 0
        for sq, code in enumerate(self.squares):
            if code:
                h ^= ZOBRIST[code][sq]
        return h

    # -- queries -----------------------------------------------------------------------------

    def piece_at(self, sq: int) -> Piece | None:
        code = self.squares[sq]
        return Piece(code & 7, code_color(code)) if code else None

    def zobrist_hash(self) -> int:
        """64-bit Zobrist hash of placement and side to move."""
        return self._hash

    def repetition_count(self) -> int:
        """How many times the current position has occurred since the last capture (≥ 1)."""
        return self._counts[self._hash]

    @property
    def ply(self) -> int:
        """Number of moves pushed since the position was set up."""
        return len(self.move_stack)

    def plies_since_capture(self) -> int:
        """Number of moves since the last capture (or since set-up)."""
        return len(self.move_stack) - (self._capture_plies[-1] if self._capture_plies else 0)

    def position_hashes_since_capture(self) -> list[int]:
        """Hashes of the positions since the last capture, oldest first, current last."""
        hashes = [self._hash]
        for undo in reversed(self._undo):
            if undo.captured:
                break
            hashes.append(undo.hash_before)
        hashes.reverse()
        return hashes

    # -- attacks -----------------------------------------------------------------------------

    def is_attacked(self, sq: int, by: Color) -> bool:
        """Whether a piece of colour ``by`` could capture on ``sq`` (pseudo-legally).

        The enemy king's flying-general attack along an open file counts.
        """
        return bool(self.attackers(sq, by, first_only=True))

    def attackers(self, sq: int, by: Color, first_only: bool = False) -> list[int]:
        """Squares of the pieces of colour ``by`` that attack ``sq`` pseudo-legally.

        A king attacks by a palace step, and the other king along an open file (flying general).
        """
        squares = self.squares
        black = BLACK_BIT if by == BLACK else 0
        rook, cannon, king = ROOK | black, CANNON | black, KING | black
        # A king captures along an open file only the other king (the flying-general rule).
        flying = squares[sq] & 7 == KING
        found: list[int] = []
        for direction, ray in enumerate(RAYS[sq]):
            screen = False
            for s in ray:
                code = squares[s]
                if not code:
                    continue
                if not screen:
                    if code == rook or (flying and code == king and direction < 2):
                        found.append(s)
                        if first_only:
                            return found
                    screen = True
                else:
                    if code == cannon:
                        found.append(s)
                        if first_only:
                            return found
                    break
        knight = KNIGHT | black
        for origin, leg in KNIGHT_ATTACKS[sq]:
            if squares[origin] == knight and not squares[leg]:
                found.append(origin)
                if first_only:
                    return found
        pawn = PAWN | black
        for origin in PAWN_ATTACKERS[by][sq]:
            if squares[origin] == pawn:
                found.append(origin)
                if first_only:
                    return found
        # Step tables are symmetric only on the squares the piece can stand on.
        king_steps = KING_MOVES[by][sq] if sq in REACHABLE[KING, by] else ()
        advisor = ADVISOR | black
        for origin in ADVISOR_MOVES[by][sq] if sq in REACHABLE[ADVISOR, by] else ():
            if squares[origin] == advisor:
                found.append(origin)
                if first_only:
                    return found
        for origin in king_steps:
            if squares[origin] == king and origin not in found:
                found.append(origin)
                if first_only:
                    return found
        elephant = ELEPHANT | black
        for origin, eye in ELEPHANT_MOVES[by][sq] if sq in REACHABLE[ELEPHANT, by] else ():
            if squares[origin] == elephant and not squares[eye]:
                found.append(origin)
                if first_only:
                    return found
        return found

    def is_in_check(self, color: Color) -> bool:
        """Whether ``color``'s king is attacked (including by the facing enemy king)."""
        squares = self.squares
        ksq = self.king_squares[color]
        black = 0 if color == BLACK else BLACK_BIT  # the enemy's colour bit
        rook, cannon = ROOK | black, CANNON | black
        occupied = self._occupied
        north, south, east, west = RAY_MASKS[ksq]
        # Along each line the nearest piece may be a rook (or, on the file, the other king)
        # and the second nearest a cannon.
        blockers = occupied & north
        if blockers:
            first = blockers & -blockers
            code = squares[first.bit_length() - 1]
            if code == rook or code == KING | black:
                return True
            blockers ^= first
            if blockers and squares[(blockers & -blockers).bit_length() - 1] == cannon:
                return True
        blockers = occupied & south
        if blockers:
            first_sq = blockers.bit_length() - 1
            code = squares[first_sq]
            if code == rook or code == KING | black:
                return True
            blockers ^= 1 << first_sq
            if blockers and squares[blockers.bit_length() - 1] == cannon:
                return True
        blockers = occupied & east
        if blockers:
            first = blockers & -blockers
            if squares[first.bit_length() - 1] == rook:
                return True
            blockers ^= first
            if blockers and squares[(blockers & -blockers).bit_length() - 1] == cannon:
                return True
        blockers = occupied & west
        if blockers:
            first_sq = blockers.bit_length() - 1
            if squares[first_sq] == rook:
                return True
            blockers ^= 1 << first_sq
            if blockers and squares[blockers.bit_length() - 1] == cannon:
                return True
        knight = KNIGHT | black
        for origin, leg in KNIGHT_ATTACKS[ksq]:
            if squares[origin] == knight and not squares[leg]:
                return True
        pawn = PAWN | black
        for origin in PAWN_ATTACKERS[1 - color][ksq]:
            if squares[origin] == pawn:
                return True
        return False

    def is_check(self) -> bool:
        """Whether the side to move is in check."""
        checked = self._checked
        if checked is None:
            checked = self._checked = self.is_in_check(self.turn)
        return checked

    def gives_check(self, move: Move) -> bool:
        """Whether ``move`` (legal) checks the opponent."""
        self.push(move)
        try:
            return self.is_check()
        finally:
            self.pop()

    # -- move generation ---------------------------------------------------------------------

    @contextmanager
    def passed_turn(self) -> Iterator[None]:
        """The other side to move, as if the side to move had passed; restored on exit.

        For what-if tests ("what could the opponent do now?"); no move is recorded.
        """
        self.turn ^= 1
        self._hash ^= ZOBRIST_BLACK_TO_MOVE
        checked = self._checked
        self._checked = None
        try:
            yield
        finally:
            self.turn ^= 1
            self._hash ^= ZOBRIST_BLACK_TO_MOVE
            self._checked = checked

    @contextmanager
    def without_piece(self, sq: int) -> Iterator[None]:
        """The piece on ``sq`` (not a king) taken off the board, hash included; restored on exit.

        For what-if tests ("what if this piece were not there?"); no move is recorded.
        """
        code = self.squares[sq]
        checked = self._checked
        self._set_square(sq, EMPTY)
        self._hash ^= ZOBRIST[code][sq]
        self._checked = None
        try:
            yield
        finally:
            self._set_square(sq, code)
            self._hash ^= ZOBRIST[code][sq]
            self._checked = checked

    def capture_targets(self, sq: int) -> list[int]:
        """Squares of the enemy pieces (the king included) that the piece on ``sq`` could
        capture, pseudo-legally.  The flying general's "capture" of the other king is not one.

        >>> board = Board("5k3/9/4r4/9/4c4/9/9/9/4C4/3K5 w")
        >>> [square_name(sq) for sq in board.capture_targets(13)]  # the cannon on e1
        ['e7']
        """
        squares = self.squares
        code = squares[sq]
        if not code:
            return []
        enemy = (code & BLACK_BIT) ^ BLACK_BIT
        kind = code & 7
        found: list[int] = []
        if kind == ROOK or kind == CANNON:
            for ray in RAYS[sq]:
                screened = kind == ROOK  # a rook takes the first piece, a cannon the second
                for s in ray:
                    target = squares[s]
                    if target:
                        if screened:
                            if (target & BLACK_BIT) == enemy:
                                found.append(s)
                            break
                        screened = True
            return found
        if kind == KNIGHT:
            for s, leg in KNIGHT_MOVES[sq]:
                target = squares[s]
                if target and (target & BLACK_BIT) == enemy and not squares[leg]:
                    found.append(s)
            return found
        for s in _step_targets(squares, sq, kind, code_color(code)):
            target = squares[s]
            if target and (target & BLACK_BIT) == enemy:
                found.append(s)
        return found

    def piece_moves(self, sq: int) -> Iterator[Move]:
        """The pseudo-legal moves of the piece on ``sq`` (whichever side it belongs to)."""
        code = self.squares[sq]
        if code:
            color = code_color(code)
            yield from self._piece_moves(sq, code, color, BLACK_BIT if color == BLACK else 0)

    def pseudo_legal_moves(self) -> Iterator[Move]:
        """Moves that follow the pieces' movement rules, ignoring king safety."""
        squares = self.squares
        color = self.turn
        own = BLACK_BIT if color == BLACK else 0
        for sq in SQUARES:
            code = squares[sq]
            if not code or (code & BLACK_BIT) != own:
                continue
            yield from self._piece_moves(sq, code, color, own)

    def _piece_moves(self, sq: int, code: int, color: Color, own: int) -> Iterator[Move]:
        squares = self.squares
        moves = _ALL_MOVES[sq]
        kind = code & 7
        if kind == ROOK or kind == CANNON:
            for ray in RAYS[sq]:
                screen = False
                for s in ray:
                    target = squares[s]
                    if not screen:
                        if not target:
                            yield moves[s]
                            continue
                        if kind == ROOK:
                            if (target & BLACK_BIT) != own:
                                yield moves[s]
                            break
                        screen = True
                    elif target:
                        if (target & BLACK_BIT) != own:
                            yield moves[s]
                        break
        elif kind == KNIGHT:
            for target_sq, leg in KNIGHT_MOVES[sq]:
                target = squares[target_sq]
                if not squares[leg] and (not target or (target & BLACK_BIT) != own):
                    yield moves[target_sq]
        else:
            for t in _step_targets(squares, sq, kind, color):
                target = squares[t]
                if not target or (target & BLACK_BIT) != own:
                    yield moves[t]

    def legal_moves(self) -> list[Move]:
        """All legal moves of the side to move."""
        return list(self._legal_move_iter())

    def has_legal_move(self) -> bool:
        """Whether the side to move has a legal move (cheap: called after every move)."""
        color = self.turn
        checked = self._checked
        if checked is None:
            checked = self._checked = self.is_in_check(color)
        if checked:
            # In check: the move that answered the last check, then the moves that may answer it.
            answer = self._in_check_witness[color]
            if answer is not None and self.is_pseudo_legal(answer):
                captured = self._make(answer)
                safe = not self.is_in_check(color)
                self._unmake(answer, captured)
                if safe:
                    return True
            for move in self._legal_move_iter(self._check_answers()):
                self._in_check_witness[color] = move
                return True
            return False
        # Out of check, a move between squares that shield nothing is legal.  Try the move that
        # proved it last time (a hint, checked again), then a pawn on its starting square, the
        # side's last-moved piece, any pawn, any piece; the move found becomes the new hint.
        near = SHIELD[self.king_squares[color]]
        squares = self.squares
        witness = self._witness[color]
        if witness is not None:
            f, t, code, needs_empty = witness
            if squares[f] == code and not (near[f] or near[t] or self._occupied & needs_empty):
                return True
        own = BLACK_BIT if color == BLACK else 0
        # A pawn still on its starting square, edge files first, makes the most lasting
        # witness: in the master games an edge pawn stays there 130-225 plies on average.
        pawn = PAWN | own
        step = 9 if color == RED else -9
        for sq in _LASTING_PAWNS[color]:
            if squares[sq] == pawn and not near[sq]:
                ahead = sq + step
                if not (squares[ahead] or near[ahead]):
                    self._witness[color] = (sq, ahead, pawn, 1 << ahead)
                    return True
        stack = self.move_stack
        if len(stack) >= 2:
            # The side's last-moved piece (most often the witness itself) can usually move on,
            # unless it has just been captured.
            last = stack[-2].to_square
            code = squares[last]
            if code and (code & BLACK_BIT) == own and not near[last]:
                for move in self._piece_moves(last, code, color, own):
                    if not (near[move.to_square] or squares[move.to_square]):
                        self._witness[color] = self._quiet_witness(move)
                        return True
        # Any other quiet pawn step (pawns move least), the least advanced pawns first, then
        # any quiet move.
        for sq in SQUARES if color == RED else _SQUARES_DOWNWARDS:
            if squares[sq] == pawn and not near[sq]:
                for move in self._piece_moves(sq, pawn, color, own):
                    if not (near[move.to_square] or squares[move.to_square]):
                        self._witness[color] = self._quiet_witness(move)
                        return True
        for sq in SQUARES:
            code = squares[sq]
            if code and (code & BLACK_BIT) == own and not near[sq]:
                for move in self._piece_moves(sq, code, color, own):
                    if not near[move.to_square]:
                        self._witness[color] = self._quiet_witness(move)
                        return True
        return any(True for _ in self._legal_move_iter())

    def _check_answers(self) -> Iterator[Move]:
        """Pseudo-legal moves that may answer the check on the side to move, most likely first:
        every legal move is among them.  Against a single checker a move other than the king's
        must capture it, block its line or its knight's leg, or (against a cannon) add a second
        screen or take its own screen away; against a double check, all moves are tried."""
        color = self.turn
        squares = self.squares
        king = self.king_squares[color]
        own = BLACK_BIT if color == BLACK else 0
        yield from self._piece_moves(king, squares[king], color, own)
        checkers = self.attackers(king, 1 - color)
        if len(checkers) != 1:
            yield from self.pseudo_legal_moves()
            return
        checker = checkers[0]
        for origin in self.attackers(checker, color):
            if origin != king:
                yield _ALL_MOVES[origin][checker]
        kind = squares[checker] & 7
        if kind == KNIGHT:
            blocks: tuple[int, ...] = (KNIGHT_LEG[checker * 90 + king],)
        elif kind == PAWN:
            return
        else:  # a rook, a cannon, or the other king along the file
            blocks = BETWEEN[checker * 90 + king] or ()
        for sq in blocks:
            if not squares[sq]:
                for origin in self._quiet_movers(sq, color):
                    yield _ALL_MOVES[origin][sq]
            elif (squares[sq] & BLACK_BIT) == own:  # the cannon's screen, if it is ours
                for move in self._piece_moves(sq, squares[sq], color, own):
                    if move.to_square not in blocks:
                        yield move

    def _quiet_movers(self, sq: int, color: Color) -> list[int]:
        """Squares of ``color``'s pieces other than the king that can move to the empty ``sq``:
        the pieces that could capture there, except that a cannon moves like a rook."""
        squares = self.squares
        cannon = CANNON | (BLACK_BIT if color == BLACK else 0)
        movers = [o for o in self.attackers(sq, color) if squares[o] & 7 not in (CANNON, KING)]
        for ray in RAYS[sq]:
            for s in ray:
                if squares[s]:
                    if squares[s] == cannon:
                        movers.append(s)
                    break
        return movers

    def _quiet_witness(self, move: Move) -> _Witness | None:
        """A move kept as a witness that its side can move: from, to, the piece, and the squares
        that must stay empty for it to stay pseudo-legal, as a bit mask (None for a capture,
        whose target may go away)."""
        f, t = move
        if self.squares[t]:
            return None
        code = self.squares[f]
        kind = code & 7
        index = f * 90 + t
        if kind == ROOK or kind == CANNON:
            needs: tuple[int, ...] = (*(BETWEEN[index] or ()), t)
        elif kind == KNIGHT:
            needs = (KNIGHT_LEG[index], t)
        elif kind == ELEPHANT:
            needs = (ELEPHANT_EYE[code_color(code)][index], t)
        else:
            needs = (t,)
        return (f, t, code, sum(1 << sq for sq in needs))

    def _legal_move_iter(self, moves: Iterable[Move] | None = None) -> Iterator[Move]:
        """The legal ones among ``moves`` (by default all pseudo-legal moves)."""
        color = self.turn
        for move in self.pseudo_legal_moves() if moves is None else moves:
            captured = self._make(move)
            safe = not self.is_in_check(color)
            self._unmake(move, captured)
            if safe:
                yield move

    def is_pseudo_legal(self, move: Move) -> bool:
        """Whether ``move`` follows its piece's movement rule (king safety not checked)."""
        code = self.squares[move.from_square]
        own = BLACK_BIT if self.turn == BLACK else 0
        if not code or (code & BLACK_BIT) != own:
            return False
        squares = self.squares
        f, t = move
        target = squares[t]
        if target and (target & BLACK_BIT) == own:
            return False
        kind = code & 7
        index = f * 90 + t
        if kind == ROOK or kind == CANNON:
            between = BETWEEN[index]
            if between is None:
                return False
            screens = 0
            for sq in between:
                if squares[sq]:
                    screens += 1
            return screens == 0 if kind == ROOK or not target else screens == 1
        if kind == KNIGHT:
            leg = KNIGHT_LEG[index]
            return leg >= 0 and not squares[leg]
        if kind == ELEPHANT:
            eye = ELEPHANT_EYE[self.turn][index]
            return eye >= 0 and not squares[eye]
        return _STEP_OK[self.turn][kind * 8100 + index]

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal: pseudo-legal and not leaving the own king attacked."""
        if not self.is_pseudo_legal(move):
            return False
        color = self.turn
        f, t = move
        shield = SHIELD[self.king_squares[color]]
        if not (shield[f] or shield[t]) and not self.is_check():
            return True  # the moved piece shields nothing and lands on no line to the king
        captured = self._make(move)
        safe = not self.is_in_check(color)
        self._unmake(move, captured)
        return safe

    def is_checkmate(self) -> bool:
        """The side to move is in check and has no legal move."""
        return self.is_check() and not self.has_legal_move()

    def is_stalemate(self) -> bool:
        """The side to move is not in check and has no legal move (困毙: it loses)."""
        return not self.is_check() and not self.has_legal_move()

    # -- making moves ------------------------------------------------------------------------

    def _make(self, move: Move) -> int:
        """Move the pieces only (no hash, history or turn); returns the captured code."""
        squares = self.squares
        f, t = move
        code = squares[f]
        captured = squares[t]
        squares[t] = code
        squares[f] = EMPTY
        self._occupied = (self._occupied | (1 << t)) ^ (1 << f)
        if code & 7 == KING:
            self.king_squares[code_color(code)] = t
        return captured

    def _unmake(self, move: Move, captured: int) -> None:
        squares = self.squares
        f, t = move
        code = squares[t]
        squares[f] = code
        squares[t] = captured
        self._occupied ^= (1 << f) if captured else (1 << f) | (1 << t)
        if code & 7 == KING:
            self.king_squares[code_color(code)] = f

    def _set_square(self, sq: int, code: int) -> None:
        """Put ``code`` (or EMPTY) on ``sq`` directly, keeping the occupancy in step; for
        what-if probes that must be undone by the caller.  Kings must not be moved this way."""
        self.squares[sq] = code
        if code:
            self._occupied |= 1 << sq
        else:
            self._occupied &= ~(1 << sq)

    def push(self, move: Move) -> None:
        """Make a move (assumed legal; see :meth:`push_iccs` for a checked push)."""
        squares = self.squares
        f, t = move
        code = squares[f]
        captured = squares[t]
        h = self._hash
        new_hash = h ^ ZOBRIST[code][f] ^ ZOBRIST[code][t] ^ ZOBRIST_BLACK_TO_MOVE
        if captured:
            new_hash ^= ZOBRIST[captured][t]
        squares[t] = code
        squares[f] = EMPTY
        self._occupied = (self._occupied | (1 << t)) ^ (1 << f)
        if code & 7 == KING:
            self.king_squares[code_color(code)] = t
        self.turn ^= 1
        self._hash = new_hash
        checked = self._checked
        enemy_king = self.king_squares[self.turn]
        # A move that uncovers no line or knight leg to the enemy king and lands where it cannot
        # check cannot give check; otherwise find out when asked.
        if SHIELD[enemy_king][f] or CHECK_LANDING[code & 7][enemy_king][t]:
            self._checked = None
        else:
            self._checked = False
        if captured:
            # A capture makes every earlier position unreachable: start a new history segment.
            self._undo.append(_Undo(move, captured, h, self._counts, checked))
            self._counts = {new_hash: 1}
            self._capture_plies.append(len(self.move_stack) + 1)
        else:
            self._undo.append(_Undo(move, captured, h, None, checked))
            counts = self._counts
            counts[new_hash] = counts.get(new_hash, 0) + 1
        self.move_stack.append(move)

    def pop(self) -> Move:
        """Unmake the last move and return it; raises ``IndexError`` on an empty stack."""
        undo = self._undo.pop()
        self.move_stack.pop()
        move = undo.move
        if undo.counts_before is not None:
            self._counts = undo.counts_before
            self._capture_plies.pop()
        else:
            counts = self._counts
            n = counts[self._hash] - 1
            if n:
                counts[self._hash] = n
            else:
                del counts[self._hash]
        self._unmake(move, undo.captured)
        self.turn ^= 1
        self._hash = undo.hash_before
        self._checked = undo.checked_before
        return move

    def captured_by(self, index: int) -> int:
        """Piece code captured by the move at ``move_stack[index]`` (0 if none)."""
        return self._undo[index].captured

    def parse_move(self, text: str, notation: str = "iccs") -> Move:
        """Parse a move (``'iccs'`` ranks 0–9 or ``'fairy'`` ranks 1–10) and check it is legal.

        Raises :class:`InvalidMoveError` for bad syntax, :class:`IllegalMoveError` otherwise.
        """
        move = Move.from_fairy(text) if notation == "fairy" else Move.from_iccs(text)
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {text} in {self.fen()}")
        return move

    def push_iccs(self, text: str) -> Move:
        """Parse, check and make an ICCS move; returns it.  The board is unchanged on error."""
        move = self.parse_move(text)
        self.push(move)
        return move

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    def _repr_svg_(self) -> str | None:
        """The board as an SVG picture, for notebooks (:func:`xqadj.svg.board`); None (the text
        form is shown) when no picture maker is set (:func:`set_picture_maker`)."""
        return None if _picture_maker is None else _picture_maker(self)

    def __str__(self) -> str:
        rows = []
        for rank in range(9, -1, -1):
            cells = []
            for file in range(9):
                piece = self.piece_at(rank * 9 + file)
                cells.append(piece.symbol() if piece else ".")
            rows.append(f"{rank} " + " ".join(cells))
        rows.append("  " + " ".join(FILE_NAMES))
        return "\n".join(rows)


def _step_targets(squares: list[int], sq: int, kind: int, color: Color) -> Iterable[int]:
    """Where a king, advisor, elephant (eye free) or pawn of ``color`` on ``sq`` may step,
    whatever stands there."""
    if kind == ELEPHANT:
        return [t for t, eye in ELEPHANT_MOVES[color][sq] if not squares[eye]]
    if kind == PAWN:
        return PAWN_MOVES[color][sq]
    if kind == ADVISOR:
        return ADVISOR_MOVES[color][sq]
    return KING_MOVES[color][sq]


def _parse_fen(fen: str) -> tuple[list[int], Color]:
    if not isinstance(fen, str):
        raise InvalidFenError("FEN must be a string")
    fields = fen.split()
    if not fields:
        raise InvalidFenError("empty FEN")
    rows = fields[0].split("/")
    if len(rows) != 10:
        raise InvalidFenError(f"expected 10 ranks separated by '/', got {len(rows)}")
    squares = [EMPTY] * 90
    counts: dict[tuple[PieceType, Color], int] = {}
    for row_index, row in enumerate(rows):
        rank = 9 - row_index
        file = 0
        for ch in row:
            if ch in "0123456789":
                file += int(ch)
            else:
                piece = Piece.from_symbol(ch)
                if file > 8:
                    raise InvalidFenError(f"rank {rank} ({row!r}) has over 9 files, expected 9")
                sq = square(file, rank)
                if sq not in REACHABLE[piece]:
                    name = f"{COLOR_NAMES[piece.color]} {PIECE_NAMES[piece.piece_type]}"
                    raise InvalidFenError(
                        f"{name} on {square_name(sq)}, a square it can never reach"
                    )
                squares[sq] = piece_code(piece.piece_type, piece.color)
                counts[piece] = counts.get(piece, 0) + 1
                file += 1
        if file != 9:
            raise InvalidFenError(f"rank {rank} ({row!r}) has {file} files, expected 9")
    for color in (RED, BLACK):
        for piece_type in PIECE_TYPES:
            n = counts.get((piece_type, color), 0)
            name = f"{COLOR_NAMES[color]} {PIECE_NAMES[piece_type]}"
            if piece_type == KING and n == 0:
                raise InvalidFenError(f"missing {name}")
            if n > MAX_PIECES[piece_type]:
                raise InvalidFenError(
                    f"too many pieces: {n} x {name}, at most {MAX_PIECES[piece_type]}"
                )
    side = fields[1] if len(fields) > 1 else "w"
    if side not in ("w", "r", "b"):
        raise InvalidFenError(f"side to move must be 'w', 'r' or 'b', got {side!r}")
    turn = BLACK if side == "b" else RED
    probe = Board(None)
    probe._load(squares, turn)
    if probe.is_in_check(1 - turn):
        raise InvalidFenError(f"the side not to move ({COLOR_NAMES[1 - turn]}) is in check")
    return squares, turn


def perft(board: Board, depth: int) -> int:
    """Count the leaf nodes of the legal move tree to ``depth`` plies.

    >>> perft(Board(), 2)
    1920
    """
    if depth == 0:
        return 1
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


#: Draws a board for :meth:`Board._repr_svg_`.  The core imports no presentation code (a layer
#: imports only downwards): the package (``xqadj/__init__.py``) sets it, to a function that loads
#: :mod:`xqadj.svg` on its first call.
_picture_maker: Callable[[Board], str] | None = None


def set_picture_maker(maker: Callable[[Board], str] | None) -> None:
    """Set what :meth:`Board._repr_svg_` draws a board with (None: no picture)."""
    global _picture_maker
    _picture_maker = maker
