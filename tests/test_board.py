"""Tests of the rules core, :mod:`xqadj.board`.

Fairy-Stockfish (``pyffish``) is the reference for move generation: perft counts, legal move
lists, check, checkmate and stalemate are cross-checked against it.  pyffish writes ranks 1-10
(``Move.fairy()``) and wants a full FEN (``<placement> w|b - - 0 1``).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable

import pyffish
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from support import make_fen, sq

from xqadj.board import (
    BLACK,
    FILE_NAMES,
    REACHABLE,
    RED,
    STARTING_FEN,
    Board,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    Piece,
    XqadjError,
    perft,
    square_name,
)

VARIANT = "xiangqi"


# --- helpers ------------------------------------------------------------------------------


def ffen(fen: str) -> str:
    """Our FEN (``<placement> w|b``) as the full FEN pyffish wants."""
    placement, side = fen.split()[:2]
    return f"{placement} {'b' if side == 'b' else 'w'} - - 0 1"


def targets(board: Board, origin: str) -> set[str]:
    """ICCS names of the squares the piece on ``origin`` can legally move to."""
    return {
        (FILE_NAMES[m.to_square % 9] + str(m.to_square // 9))
        for m in board.legal_moves()
        if m.from_square == sq(origin)
    }


def pseudo_targets(board: Board, origin: str) -> set[str]:
    return {
        (FILE_NAMES[m.to_square % 9] + str(m.to_square // 9))
        for m in board.pseudo_legal_moves()
        if m.from_square == sq(origin)
    }


def ffish_perft(fen: str, depth: int, moves: tuple[str, ...] = ()) -> int:
    """Perft by recursion over ``pyffish.legal_moves`` with the move list."""
    legal = pyffish.legal_moves(VARIANT, fen, list(moves))
    if depth == 1:
        return len(legal)
    return sum(ffish_perft(fen, depth - 1, (*moves, m)) for m in legal)


def ffish_legal(board: Board) -> list[str]:
    return sorted(pyffish.legal_moves(VARIANT, ffen(board.fen()), []))


def snapshot(board: Board) -> tuple[object, ...]:
    """Everything push/pop must restore."""
    return (
        board.squares[:],
        board.turn,
        board.king_squares[:],
        board.zobrist_hash(),
        board.repetition_count(),
        board.fen(),
        board.position_hashes_since_capture(),
        board.plies_since_capture(),
        board.move_stack[:],
    )


# --- positions ----------------------------------------------------------------------------

#: Perft 1-3 of positions from real games and composed endgames.  Every number was computed
#: with Fairy-Stockfish (pyffish 0.0.90); ``test_perft_table_matches_pyffish`` recomputes them.
PERFT_POSITIONS = {
    # Liu Dahua games file, game 2001 of the corpus after 35 plies (Black to move).
    "game_2000_ply35": (
        "2bak2n1/4a4/1c2b4/4R1p1p/2p6/1N7/2P1P1r1P/2C1B4/9/2BAKA3 b",
        (29, 834, 24721),
    ),
    # Corpus game 1501 after 60 plies: a middle game with both rooks' files open.
    "game_1500_ply60": (
        "4kab2/4a4/4b4/p6Rp/2n1p4/9/r8/3C5/4AN3/2BAK4 w",
        (42, 1236, 47167),
    ),
    # Corpus game 101 after 30 plies: four cannons and two knights each side.
    "game_100_ply30": (
        "2bakab2/9/2n5n/p1p1p3C/6p2/2P1c3P/P5c1N/C3B4/4A4/1N2KAB2 w",
        (21, 684, 16153),
    ),
    # The longest game of the corpus (198 plies), 10 plies before its end: a sparse endgame.
    "longest_game_endgame": (
        "3a1aC2/2P1k4/9/9/9/6c2/4p4/9/4K4/2p2A3 w",
        (13, 258, 3961),
    ),
    # Facing kings: the black knight on e5 is pinned by the flying general, and the black
    # cannon on d7 (screened by the red pawn on d6) keeps the red king off the d-file.
    "facing_kings": (
        "4k4/8r/3c5/3P5/4n4/9/9/9/R8/4K4 w",
        (22, 645, 12461),
    ),
    # Four cannons with screens on the e- and c-files.
    "cannons": (
        "2bak4/4a4/4c4/2c6/4p4/2P3p2/9/1C2C4/4A4/4K4 w",
        (28, 809, 22158),
    ),
    # Red in check from the black cannon on e7 over the red knight on e5.
    "in_check": (
        "3a1a3/4k4/4c4/9/4N4/9/2r6/3p5/4K4/3A1A3 w",
        (9, 235, 1746),
    ),
}

#: Starting points for random play: the opening and sparse endings where checks, mates and
#: stalemates are common.
RANDOM_PLAY_STARTS = [
    STARTING_FEN,
    PERFT_POSITIONS["facing_kings"][0],
    PERFT_POSITIONS["cannons"][0],
    PERFT_POSITIONS["longest_game_endgame"][0],
    "3ak4/4a4/4b4/9/9/9/9/9/4C4/3K1R3 w",  # rook and cannon against the defenders
    make_fen({"d9": "k", "c7": "P", "e7": "P", "e0": "K", "a0": "R"}),
    make_fen({"e9": "k", "d9": "a", "c2": "P", "f0": "K", "h4": "N"}),
]


# --- perft --------------------------------------------------------------------------------


@pytest.mark.parametrize(("depth", "expected"), [(1, 44), (2, 1920), (3, 79666)])
def test_perft_start(depth: int, expected: int) -> None:
    assert perft(Board(), depth) == expected


@pytest.mark.slow
def test_perft_start_depth_4() -> None:
    board = Board()
    assert perft(board, 4) == 3290240
    assert board.fen() == STARTING_FEN and board.ply == 0


@pytest.mark.parametrize("name", sorted(PERFT_POSITIONS))
def test_perft_positions(name: str) -> None:
    fen, expected = PERFT_POSITIONS[name]
    board = Board(fen)
    assert tuple(perft(board, d) for d in (1, 2, 3)) == expected
    assert board.fen() == fen


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PERFT_POSITIONS))
def test_perft_table_matches_pyffish(name: str) -> None:
    fen, expected = PERFT_POSITIONS[name]
    assert pyffish.validate_fen(ffen(fen), VARIANT) == pyffish.FEN_OK
    assert tuple(ffish_perft(ffen(fen), d) for d in (1, 2, 3)) == expected


def test_start_position_matches_pyffish() -> None:
    assert ffen(STARTING_FEN) == pyffish.start_fen(VARIANT)
    assert sorted(m.fairy() for m in Board().legal_moves()) == ffish_legal(Board())


# --- FEN ----------------------------------------------------------------------------------


def test_fen_round_trip_start() -> None:
    board = Board()
    assert board.fen() == STARTING_FEN
    assert Board(board.fen()).fen() == STARTING_FEN
    assert board.board_fen() == STARTING_FEN.split()[0]


@pytest.mark.parametrize("name", sorted(PERFT_POSITIONS))
def test_fen_round_trip_positions(name: str) -> None:
    fen = PERFT_POSITIONS[name][0]
    assert Board(fen).fen() == fen


def test_fen_side_to_move() -> None:
    placement = STARTING_FEN.split()[0]
    assert Board(placement + " w").turn == RED
    assert Board(placement + " b").turn == BLACK
    red = Board(placement + " r")  # 'r' is accepted for Red
    assert red.turn == RED
    assert red.fen() == STARTING_FEN  # and written back as 'w'
    assert Board(placement).turn == RED  # no side field: Red


def test_fen_h_e_aliases() -> None:
    placement = STARTING_FEN.split()[0]
    aliased = placement.replace("N", "H").replace("n", "h").replace("B", "E").replace("b", "e")
    assert aliased != placement
    assert Board(aliased + " w").fen() == STARTING_FEN


def test_fen_trailing_fields_ignored() -> None:
    assert Board(STARTING_FEN + " - - 0 1").fen() == STARTING_FEN
    board = Board(PERFT_POSITIONS["game_2000_ply35"][0] + " - - 12 40 extra")
    assert board.fen() == PERFT_POSITIONS["game_2000_ply35"][0]


def test_fen_pawns_behind_start_rank_accepted() -> None:
    # Deliberately allowed (rulebook diagrams put pawns there); see board._reachable.
    board = Board(make_fen({"e0": "K", "d9": "k", "b1": "P", "c8": "p"}))
    assert board.fen() == make_fen({"e0": "K", "d9": "k", "b1": "P", "c8": "p"})


START_ROWS = STARTING_FEN.split()[0].split("/")


def _start_with(rank: int, row: str, side: str = "w") -> str:
    rows = START_ROWS[:]
    rows[9 - rank] = row
    return "/".join(rows) + " " + side


BAD_FENS = [
    # bad row length: too short, too long by digits, too long by a piece after 9 files
    (_start_with(0, "RNBAKABN"), r"rank 0 .* 8 files, expected 9"),
    (_start_with(4, "46"), r"rank 4 .* 10 files, expected 9"),
    (_start_with(4, "54"), None),  # 9 files: fine
    (_start_with(5, "9p"), r"rank 5 .*files, expected 9"),
    (_start_with(5, "8pp"), r"rank 5 .*files, expected 9"),
    # unknown letter
    (_start_with(4, "4x4"), r"unknown piece letter 'x'"),
    (_start_with(4, "4Z4"), r"unknown piece letter 'Z'"),
    # wrong number of ranks
    ("/".join(START_ROWS[:9]) + " w", r"expected 10 ranks.*got 9"),
    ("/".join([*START_ROWS, "9"]) + " w", r"expected 10 ranks.*got 11"),
    ("", r"empty FEN"),
    # missing king
    (make_fen({"d9": "k", "a0": "R"}), r"missing red king"),
    (make_fen({"e0": "K", "a9": "r"}), r"missing black king"),
    # two kings of a colour
    (make_fen({"d0": "K", "f1": "K", "d9": "k"}), r"too many pieces: 2 x red king"),
    (make_fen({"e0": "K", "d9": "k", "f8": "k"}), r"too many pieces: 2 x black king"),
    # king outside the palace
    (make_fen({"e3": "K", "d9": "k"}), r"red king on e3, a square it can never reach"),
    (make_fen({"e0": "K", "c9": "k"}), r"black king on c9, a square it can never reach"),
    # advisor / elephant on a square it can never reach
    (make_fen({"e0": "K", "d9": "k", "d1": "A"}), r"red advisor on d1"),
    (make_fen({"e0": "K", "d9": "k", "e8": "a", "d8": "a"}), r"black advisor on d8"),
    (make_fen({"e0": "K", "d9": "k", "c5": "B"}), r"red elephant on c5"),
    (make_fen({"e0": "K", "d9": "k", "b0": "B"}), r"red elephant on b0"),
    (make_fen({"e0": "K", "d9": "k", "e5": "b"}), r"black elephant on e5"),
    # too many pieces of a kind
    (make_fen({"e0": "K", "d9": "k", "a0": "R", "a1": "R", "a2": "R"}), r"3 x red rook, at most 2"),
    (make_fen({"e0": "K", "d9": "k", "a6": "c", "b6": "c", "c6": "c"}), r"3 x black cannon"),
    (
        make_fen({"e0": "K", "d9": "k", **{f"{f}5": "P" for f in "abcdef"}}),
        r"6 x red pawn, at most 5",
    ),
    (make_fen({"e0": "K", "d9": "k", "a5": "N", "b5": "N", "c5": "N"}), r"3 x red knight"),
    (make_fen({"e0": "K", "d9": "k", "d0": "A", "f0": "A", "e1": "A"}), r"3 x red advisor"),
    # bad side-to-move field
    (STARTING_FEN.split()[0] + " x", r"side to move must be 'w', 'r' or 'b', got 'x'"),
    (STARTING_FEN.split()[0] + " W", r"side to move must be"),
    (STARTING_FEN.split()[0] + " red", r"side to move must be"),
    # the side not to move is in check
    (make_fen({"e0": "K", "d9": "k", "d5": "R"}, "w"), r"side not to move \(black\) is in check"),
    (make_fen({"e0": "K", "d9": "k", "e5": "r"}, "b"), r"side not to move \(red\) is in check"),
    # ... including the flying general: kings facing on an open file
    (make_fen({"e0": "K", "e9": "k"}, "w"), r"side not to move \(black\) is in check"),
    (make_fen({"d2": "K", "d7": "k"}, "b"), r"side not to move \(red\) is in check"),
]


@pytest.mark.parametrize(("fen", "message"), BAD_FENS)
def test_fen_errors(fen: str, message: str | None) -> None:
    if message is None:
        Board(fen)
        return
    with pytest.raises(InvalidFenError, match=message):
        Board(fen)


def test_fen_error_classes() -> None:
    assert issubclass(InvalidFenError, XqadjError)
    assert issubclass(XqadjError, ValueError)


def test_fen_side_to_move_may_be_in_check() -> None:
    board = Board(make_fen({"e0": "K", "d9": "k", "d5": "R"}, "b"))
    assert board.is_check()


def test_set_fen_error_leaves_board_unchanged() -> None:
    board = Board()
    board.push_iccs("h2e2")
    before = snapshot(board)
    with pytest.raises(InvalidFenError):
        board.set_fen(make_fen({"e0": "K", "e9": "k"}))
    assert snapshot(board) == before


# --- moves --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("iccs", "fairy", "from_square", "to_square"),
    [
        ("h2e2", "h3e3", 25, 22),
        ("a0a9", "a1a10", 0, 81),
        ("i9i0", "i10i1", 89, 8),
        ("b9c7", "b10c8", 82, 65),
        ("e0e1", "e1e2", 4, 13),
    ],
)
def test_move_notations(iccs: str, fairy: str, from_square: int, to_square: int) -> None:
    move = Move.from_iccs(iccs)
    assert move == Move(from_square, to_square)
    assert move.iccs() == iccs and str(move) == iccs
    assert move.fairy() == fairy
    assert Move.from_fairy(fairy) == move
    assert Move.from_iccs(iccs.upper()) == move  # case-insensitive
    assert Move.from_fairy(fairy.upper()) == move
    assert repr(move) == f"Move.from_iccs({iccs!r})"


def test_every_move_round_trips() -> None:
    for f in range(90):
        for t in range(90):
            if f == t:
                continue
            move = Move(f, t)
            assert Move.from_iccs(move.iccs()) == move
            assert Move.from_fairy(move.fairy()) == move


@pytest.mark.parametrize(
    "text", ["", "h2", "h2e", "h2e2x", "j2e2", "h2e-1", "h10e2", "e2e2", " h2e2", "h2 e2", "??"]
)
def test_invalid_iccs(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="not an ICCS move"):
        Move.from_iccs(text)
    with pytest.raises(InvalidMoveError):
        Board().push_iccs(text)


@pytest.mark.parametrize("text", ["", "h0e0", "a11a1", "e2e2", "h3e3 ", "h3-e3"])
def test_invalid_fairy(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="ranks 1-10"):
        Move.from_fairy(text)


@pytest.mark.parametrize(
    "text",
    [
        "a0a5",  # rook through its own pawn
        "h9g7",  # Black's move with Red to move
        "e1e2",  # empty square
        "e3e5",  # pawn two steps
        "e3d3",  # uncrossed pawn sideways
        "h0h2",  # knight moving like a rook
        "b2b7",  # cannon capture without a screen
        "e0e2",  # king two steps
        "d0e2",  # advisor off its diagonal
    ],
)
def test_illegal_moves(text: str) -> None:
    board = Board()
    before = snapshot(board)
    with pytest.raises(IllegalMoveError, match=re.escape(text)):
        board.push_iccs(text)
    assert snapshot(board) == before
    assert not board.is_legal(Move.from_iccs(text))


def test_failed_push_leaves_board_unchanged_mid_game() -> None:
    board = Board()
    for text in ("h2e2", "h9g7", "h0g2", "i9h9"):
        board.push_iccs(text)
    before = snapshot(board)
    for bad in ("e2e9", "g2g4", "zz", "e6e5", "h9h0"):
        with pytest.raises(XqadjError):
            board.push_iccs(bad)
        assert snapshot(board) == before


def test_parse_move_fairy() -> None:
    board = Board()
    assert board.parse_move("h3e3", notation="fairy") == Move.from_iccs("h2e2")
    with pytest.raises(IllegalMoveError):
        board.parse_move("h2e2", notation="fairy")  # ranks 1-10: h2 is an empty square
    with pytest.raises(InvalidMoveError):
        board.parse_move("h0e0", notation="fairy")


def test_move_error_classes() -> None:
    assert issubclass(InvalidMoveError, XqadjError)
    assert issubclass(IllegalMoveError, XqadjError)
    assert not issubclass(IllegalMoveError, InvalidMoveError)


def test_pop_empty_raises() -> None:
    with pytest.raises(IndexError):
        Board().pop()


# --- rules --------------------------------------------------------------------------------


def test_flying_general_pins_the_only_blocker() -> None:
    board = Board(make_fen({"e0": "K", "e9": "k", "e4": "N", "a9": "r"}))
    assert targets(board, "e4") == set()  # every knight move opens the e-file
    assert pseudo_targets(board, "e4") == {"d6", "f6", "c5", "g5", "c3", "g3", "d2", "f2"}
    with pytest.raises(IllegalMoveError):
        board.push_iccs("e4d6")
    assert targets(board, "e0") == {"d0", "f0", "e1"}
    # What legal-move generation sees after the knight moves: the kings attack each other.
    move = Move.from_iccs("e4d6")
    captured = board._make(move)
    assert board.is_in_check(RED) and board.is_in_check(BLACK)
    assert board.attackers(sq("e0"), BLACK) == [sq("e9")]
    assert board.attackers(sq("e9"), RED) == [sq("e0")]
    board._unmake(move, captured)


def test_king_may_not_step_onto_an_open_file_facing_the_other_king() -> None:
    board = Board(make_fen({"d0": "K", "e9": "k"}))
    assert targets(board, "d0") == {"d1"}  # e0 would face the black king
    blocked = Board(make_fen({"d0": "K", "e9": "k", "e5": "p"}))
    assert targets(blocked, "d0") == {"d1", "e0"}


def test_flying_general_applies_to_black_too() -> None:
    board = Board(make_fen({"e0": "K", "e9": "k", "e6": "n"}, "b"))
    assert targets(board, "e6") == set()
    assert targets(board, "e9") == {"d9", "f9", "e8"}
    board = Board(make_fen({"e0": "K", "d9": "k"}, "b"))
    assert targets(board, "d9") == {"d8"}  # e9 faces the red king


def test_elephant_eye() -> None:
    board = Board(make_fen({"c0": "B", "d1": "N", "e0": "K", "d9": "k"}))
    assert targets(board, "c0") == {"a2"}  # the eye d1 is blocked
    enemy_eye = Board(make_fen({"c0": "B", "b1": "p", "e0": "K", "d9": "k"}))
    assert targets(enemy_eye, "c0") == {"e2"}  # an enemy piece blocks the eye too
    free = Board(make_fen({"c0": "B", "e0": "K", "d9": "k"}))
    assert targets(free, "c0") == {"a2", "e2"}


def test_elephant_cannot_cross_the_river() -> None:
    red = Board(make_fen({"c4": "B", "e0": "K", "d9": "k"}))
    assert targets(red, "c4") == {"a2", "e2"}
    assert pseudo_targets(red, "c4") == {"a2", "e2"}
    black = Board(make_fen({"g5": "b", "e0": "K", "d9": "k"}, "b"))
    assert targets(black, "g5") == {"e7", "i7"}
    with pytest.raises(IllegalMoveError):
        black.push_iccs("g5e3")


def test_knight_leg() -> None:
    board = Board(make_fen({"e4": "N", "e5": "P", "e0": "K", "d9": "k"}))
    assert targets(board, "e4") == {"c5", "g5", "c3", "g3", "d2", "f2"}  # e5 blocks d6, f6
    board = Board(make_fen({"e4": "N", "e5": "P", "d4": "p", "e0": "K", "d9": "k"}))
    assert targets(board, "e4") == {"g5", "g3", "d2", "f2"}  # the black pawn on d4 blocks c5, c3
    board = Board(make_fen({"e4": "N", "e5": "P", "d4": "p", "e3": "P", "e0": "K", "d9": "k"}))
    assert targets(board, "e4") == {"g5", "g3"}


def test_cannon_needs_exactly_one_screen_to_capture() -> None:
    pieces = {"b2": "C", "b5": "p", "b7": "r", "b9": "n", "h2": "r", "e0": "K", "d9": "k"}
    board = Board(make_fen(pieces))
    assert targets(board, "b2") == {
        "b0", "b1", "b3", "b4",  # moves like a rook
        "b7",  # captures over exactly one screen (b5), not b5 itself nor b9 behind two
        "a2", "c2", "d2", "e2", "f2", "g2",  # not h2: no screen on rank 2, nor i2
    }  # fmt: skip
    assert not board.is_legal(Move.from_iccs("b2b5"))
    assert not board.is_legal(Move.from_iccs("b2b9"))
    assert not board.is_legal(Move.from_iccs("b2h2"))
    board.push_iccs("b2b7")
    assert board.captured_by(0) != 0


def test_pawn_moves() -> None:
    pieces = {"e3": "P", "a5": "P", "i9": "P", "c6": "p", "g4": "p", "d0": "K", "f9": "k"}
    red = Board(make_fen(pieces, "w"))
    assert targets(red, "e3") == {"e4"}  # uncrossed: forward only
    assert targets(red, "a5") == {"a6", "b5"}  # crossed: sideways too, never back
    assert targets(red, "i9") == {"h9"}  # last rank: sideways only
    black = Board(make_fen(pieces, "b"))
    assert targets(black, "c6") == {"c5"}
    assert targets(black, "g4") == {"g3", "f4", "h4"}


def test_palace_limits() -> None:
    king = Board(make_fen({"e1": "K", "d9": "k", "d5": "P"}))
    assert targets(king, "e1") == {"d1", "f1", "e0", "e2"}
    corner = Board(make_fen({"d2": "K", "f9": "k"}))
    assert targets(corner, "d2") == {"d1", "e2"}  # not c2 nor d3
    advisor = Board(make_fen({"e0": "K", "e1": "A", "d9": "k"}))
    assert targets(advisor, "e1") == {"d0", "f0", "d2", "f2"}
    advisor = Board(make_fen({"e0": "K", "d2": "A", "f9": "k"}))
    assert targets(advisor, "d2") == {"e1"}
    black = Board(make_fen({"d0": "K", "f7": "k", "e8": "a"}, "b"))
    assert targets(black, "f7") == {"e7", "f8"}
    assert targets(black, "e8") == {"d9", "f9", "d7"}


def test_checkmate() -> None:
    # The rook checks down the d-file; e9 faces the red king (flying general): mate.
    board = Board(make_fen({"d9": "k", "d5": "R", "e0": "K"}, "b"))
    assert board.is_check()
    assert board.legal_moves() == []
    assert not board.has_legal_move()
    assert board.is_checkmate()
    assert not board.is_stalemate()
    fen = ffen(board.fen())
    assert pyffish.legal_moves(VARIANT, fen, []) == []
    assert pyffish.gives_check(VARIANT, fen, [])
    assert pyffish.game_result(VARIANT, fen, []) == -pyffish.VALUE_MATE


def test_check_but_not_mate() -> None:
    board = Board(make_fen({"d9": "k", "d5": "R", "f0": "K"}, "b"))
    assert board.is_check()
    assert not board.is_checkmate()
    assert targets(board, "d9") == {"e9"}


def test_stalemate_kunbi() -> None:
    # 困毙: Black is not in check but every king move is attacked (d8 by the pawn, e9 by the
    # flying general); the side without a legal move loses.
    board = Board(make_fen({"d9": "k", "c8": "P", "e0": "K"}, "b"))
    assert not board.is_check()
    assert board.legal_moves() == []
    assert board.is_stalemate()
    assert not board.is_checkmate()
    fen = ffen(board.fen())
    assert pyffish.legal_moves(VARIANT, fen, []) == []
    assert not pyffish.gives_check(VARIANT, fen, [])
    assert pyffish.game_result(VARIANT, fen, []) == -pyffish.VALUE_MATE


def test_stalemate_reached_by_a_move() -> None:
    board = Board(make_fen({"d9": "k", "c7": "P", "e0": "K"}))
    assert not board.is_stalemate()
    board.push_iccs("c7c8")
    assert board.is_stalemate()
    board.pop()
    assert not board.is_stalemate() and board.turn == RED


def test_stalemate_after_the_last_moved_piece_is_captured() -> None:
    # Regression: the mate probe asks the side's last-moved piece for a move first; here that
    # cannon has just been taken, and the red rook now on its square must not be mistaken for a
    # black piece that can move.  The rook holds rank 8, the flying general holds e9.
    board = Board(make_fen({"f9": "k", "c5": "c", "c0": "R", "e0": "K"}, "b"))
    board.push_iccs("c5c8")
    board.push_iccs("c0c8")
    assert not board.is_check()
    assert board.legal_moves() == []
    assert not board.has_legal_move()
    assert board.is_stalemate()


def test_gives_check() -> None:
    board = Board(make_fen({"d9": "k", "a5": "R", "f0": "K"}))
    assert board.gives_check(Move.from_iccs("a5d5"))
    assert board.gives_check(Move.from_iccs("a5a9"))
    assert not board.gives_check(Move.from_iccs("a5a6"))
    assert board.fen() == make_fen({"d9": "k", "a5": "R", "f0": "K"})


def test_attackers_only_along_real_moves() -> None:
    # Regression: the step tables for elephants, advisors and kings were used in reverse from
    # squares those pieces can never stand on, so an elephant "attacked" across the river.
    board = Board(make_fen({"c4": "B", "d2": "A", "e1": "K", "d9": "k"}))
    assert board.attackers(sq("a6"), RED) == []
    assert board.attackers(sq("e6"), RED) == []
    assert board.attackers(sq("a2"), RED) == [sq("c4")]
    assert board.attackers(sq("c3"), RED) == []  # not by the advisor on d2
    assert board.attackers(sq("e3"), RED) == []  # neither by the king on e1 nor the advisor
    assert sorted(board.attackers(sq("e2"), RED)) == sorted([sq("c4"), sq("e1")])
    black = Board(make_fen({"g5": "b", "f7": "a", "d8": "k", "e0": "K"}, "b"))
    assert black.attackers(sq("e3"), BLACK) == []
    assert black.attackers(sq("e6"), BLACK) == []
    assert black.attackers(sq("c8"), BLACK) == []  # not by the king on d8
    assert black.attackers(sq("e7"), BLACK) == [sq("g5")]
    assert black.attackers(sq("e8"), BLACK) == [sq("f7"), sq("d8")]


def test_flying_general_attack_is_on_the_king_only() -> None:
    board = Board(make_fen({"e0": "K", "d9": "k", "e6": "r"}))
    assert board.is_check()
    assert board.attackers(sq("e0"), BLACK) == [sq("e6")]
    assert board.attackers(sq("e6"), RED) == []  # the red king cannot capture up the file
    assert targets(board, "e0") == {"f0"}  # e1 is on the rook's file, d0 faces the king


# --- repetition ---------------------------------------------------------------------------

SHUFFLE = ["h0g2", "h9g7", "g2h0", "g7h9"]


def test_repetition_count_along_a_shuffle() -> None:
    board = Board()
    assert board.repetition_count() == 1
    counts = []
    for text in SHUFFLE * 2:
        board.push_iccs(text)
        counts.append(board.repetition_count())
    assert counts == [1, 1, 1, 2, 2, 2, 2, 3]
    assert board.fen() == STARTING_FEN
    hashes = board.position_hashes_since_capture()
    assert len(hashes) == 9
    assert hashes.count(board.zobrist_hash()) == 3
    assert board.plies_since_capture() == 8


def test_capture_resets_history() -> None:
    board = Board()
    for text in SHUFFLE:
        board.push_iccs(text)
    assert board.repetition_count() == 2
    board.push_iccs("h2e2")
    board.push_iccs("h9g7")
    board.push_iccs("e2e6")  # the cannon captures the pawn on e6 over the e3 screen
    assert board.captured_by(board.ply - 1) != 0
    assert board.repetition_count() == 1
    assert board.position_hashes_since_capture() == [board.zobrist_hash()]
    assert board.plies_since_capture() == 0
    for text in ["g7h9", "e6e5", "h9g7", "e5e6"]:  # back to the position after the capture
        board.push_iccs(text)
    assert board.repetition_count() == 2
    assert board.plies_since_capture() == 4
    assert len(board.position_hashes_since_capture()) == 5


def test_pop_restores_counts_exactly() -> None:
    board = Board()
    line = [*SHUFFLE, *SHUFFLE, "h2e2", "h9g7", "e2e6", "g7h9", "e6e5", "h9g7", "e5e6", "g7h9"]
    snapshots = [snapshot(board)]
    for text in line:
        board.push_iccs(text)
        snapshots.append(snapshot(board))
    for expected in reversed(snapshots[:-1]):
        board.pop()
        assert snapshot(board) == expected
    assert board.ply == 0


@pytest.mark.parametrize("make", [copy.copy, copy.deepcopy], ids=["copy", "deepcopy"])
def test_the_copy_module_makes_independent_boards(make: Callable[[Board], Board]) -> None:
    """Before: ``copy.copy`` shared the squares and the move stack, so popping the copy moved
    the original (python-chess's ``Board.__copy__`` is its ``copy()`` too)."""
    board = Board()
    for text in ["h2e2", "h9g7", "h0g2"]:
        board.push_iccs(text)
    before = snapshot(board)
    other = make(board)
    other.pop()
    other.push_iccs("b0c2")
    assert snapshot(board) == before
    assert board.move_stack[-1] == Move.from_iccs("h0g2")


def test_copy_is_independent() -> None:
    # Regression: copies shared the closed history segments, so popping a copy back past a
    # capture corrupted the original's repetition counts.
    board = Board()
    for text in ["h0g2", "h9g7", "g2h0", "g7h9", "h2e2", "h9g7", "e2e6"]:
        board.push_iccs(text)
    snapshots = []
    probe = Board()
    for text in ["h0g2", "h9g7", "g2h0", "g7h9", "h2e2", "h9g7", "e2e6"]:
        snapshots.append(snapshot(probe))
        probe.push_iccs(text)
    copy = board.copy()
    assert snapshot(copy) == snapshot(board)
    while copy.ply:
        copy.pop()
    assert snapshot(copy) == snapshot(Board())
    for expected in reversed(snapshots):
        board.pop()
        assert snapshot(board) == expected


# --- random play (hypothesis) -------------------------------------------------------------

PROPERTY_SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def random_play(data: st.DataObject, max_plies: int = 120) -> Board:
    """A board reached by random legal play from one of ``RANDOM_PLAY_STARTS``."""
    board = Board(data.draw(st.sampled_from(RANDOM_PLAY_STARTS), label="start"))
    plies = data.draw(st.integers(0, max_plies), label="plies")
    for _ in range(plies):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(moves[data.draw(st.integers(0, len(moves) - 1))])
    return board


@PROPERTY_SETTINGS
@given(st.data())
def test_property_fen_round_trip(data: st.DataObject) -> None:
    board = random_play(data)
    fen = board.fen()
    again = Board(fen)
    assert again.fen() == fen
    assert again.squares == board.squares
    assert again.turn == board.turn
    assert again.king_squares == board.king_squares
    assert again.zobrist_hash() == board.zobrist_hash()
    assert again.repetition_count() == 1


@PROPERTY_SETTINGS
@given(st.data())
def test_property_push_pop_restores_everything(data: st.DataObject) -> None:
    board = Board(data.draw(st.sampled_from(RANDOM_PLAY_STARTS), label="start"))
    plies = data.draw(st.integers(0, 120), label="plies")
    snapshots = [snapshot(board)]
    for _ in range(plies):
        moves = board.legal_moves()
        if not moves:
            break
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        board.push(move)
        snapshots.append(snapshot(board))
        if data.draw(st.booleans(), label="pop now"):  # interleave pops and pushes
            assert board.pop() == move
            assert snapshot(board) == snapshots[-2]
            board.push(move)
            assert snapshot(board) == snapshots[-1]
    for expected in reversed(snapshots[:-1]):
        board.pop()
        assert snapshot(board) == expected


@PROPERTY_SETTINGS
@given(st.data())
def test_property_zobrist_is_incremental(data: st.DataObject) -> None:
    board = Board(data.draw(st.sampled_from(RANDOM_PLAY_STARTS), label="start"))
    for _ in range(data.draw(st.integers(0, 120), label="plies")):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(moves[data.draw(st.integers(0, len(moves) - 1))])
        assert board.zobrist_hash() == board._compute_hash()
    assert board.zobrist_hash() == Board(board.fen()).zobrist_hash()
    counts: dict[int, int] = {}
    for h in board.position_hashes_since_capture():
        counts[h] = counts.get(h, 0) + 1
    assert board.repetition_count() == counts[board.zobrist_hash()]


@settings(PROPERTY_SETTINGS, max_examples=400)
@given(st.data())
def test_property_matches_pyffish(data: st.DataObject) -> None:
    board = random_play(data, max_plies=150)
    fen = ffen(board.fen())
    ours = sorted(m.fairy() for m in board.legal_moves())
    theirs = sorted(pyffish.legal_moves(VARIANT, fen, []))
    assert ours == theirs
    check = pyffish.gives_check(VARIANT, fen, [])
    assert board.is_check() == check
    assert board.is_checkmate() == (check and not theirs)
    assert board.is_stalemate() == (not check and not theirs)
    assert board.has_legal_move() == bool(theirs)
    if not theirs:  # checkmate and stalemate both lose for the side to move
        assert pyffish.game_result(VARIANT, fen, []) == -pyffish.VALUE_MATE
    if ours:  # one move's check status against pyffish
        move = board.legal_moves()[data.draw(st.integers(0, len(ours) - 1), label="move")]
        assert board.gives_check(move) == pyffish.gives_check(VARIANT, fen, [move.fairy()])


@PROPERTY_SETTINGS
@given(st.data())
def test_property_is_legal_matches_legal_moves(data: st.DataObject) -> None:
    board = random_play(data)
    legal = set(board.legal_moves())
    pseudo = set(board.pseudo_legal_moves())
    assert legal <= pseudo
    own = [s for s in range(90) if (p := board.piece_at(s)) is not None and p.color == board.turn]
    for f in own:
        for t in range(90):
            if f != t:
                move = Move(f, t)
                assert board.is_legal(move) == (move in legal)
                assert board.is_pseudo_legal(move) == (move in pseudo)


@PROPERTY_SETTINGS
@given(st.data())
def test_property_attackers_match_move_generation(data: st.DataObject) -> None:
    board = random_play(data)
    for by in (RED, BLACK):
        saved = board.turn
        board.turn = by
        try:
            origins: dict[int, set[int]] = {}
            for move in board.pseudo_legal_moves():
                origins.setdefault(move.to_square, set()).add(move.from_square)
        finally:
            board.turn = saved
        for target in range(90):
            piece = board.piece_at(target)
            if piece is None or piece.color == by:
                continue
            expected = set(origins.get(target, ()))
            if target == board.king_squares[1 - by]:
                king = board.king_squares[by]
                if king % 9 == target % 9 and all(
                    not board.squares[s] for s in range(min(king, target) + 9, max(king, target), 9)
                ):
                    expected.add(king)  # the flying general
            found = board.attackers(target, by)
            assert len(found) == len(set(found))
            assert set(found) == expected
            assert board.is_attacked(target, by) == bool(expected)
        assert board.is_in_check(1 - by) == bool(board.attackers(board.king_squares[1 - by], by))


@PROPERTY_SETTINGS
@given(st.data())
def test_property_capture_targets_match_move_generation(data: st.DataObject) -> None:
    """capture_targets() (the chase classifier's attack scan) lists exactly the squares that
    the pseudo-legal moves of the piece capture on, for the pieces of both sides."""
    board = random_play(data)
    for origin in range(90):
        if board.squares[origin]:
            moves = board.piece_moves(origin)
            captures = {m.to_square for m in moves if board.squares[m.to_square]}
            assert sorted(board.capture_targets(origin)) == sorted(captures), (board.fen(), origin)
    assert board.capture_targets(next(s for s in range(90) if not board.squares[s])) == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_has_legal_move_agrees_with_move_generation_along_a_game(data: st.DataObject) -> None:
    """has_legal_move() keeps per-side witness moves between calls (a cache of hints): along
    random play, with takebacks, it must always equal ``bool(legal_moves())``."""
    start = data.draw(
        st.sampled_from(
            [
                STARTING_FEN,
                "4k4/9/9/9/9/9/9/9/4A4/3K1R3 w",  # sparse: few pieces, few moves
                "3k5/4a4/4P4/9/9/9/9/9/9/4K4 b",
                "3ak4/4a4/9/9/9/9/9/2n6/4A4/3AK4 w",
            ]
        )
    )
    board = Board(start)
    for _ in range(data.draw(st.integers(10, 80))):
        legal = board.legal_moves()
        assert board.has_legal_move() == bool(legal), board.fen()
        if not legal:
            break
        if board.move_stack and data.draw(st.integers(0, 5)) == 0:
            board.pop()
            continue
        board.push(legal[data.draw(st.integers(0, len(legal) - 1))])


#: Pieces a random position in check is built from: attackers of every kind for both sides,
#: so that checks by a rook, cannon (with screens of either colour), knight, pawn and the
#: facing king, double checks and mates all turn up.
_SPARSE_PIECES = "RRCCNNPPAB" + "rrccnnppab"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.data())
def test_property_check_answers_on_random_positions(data: st.DataObject) -> None:
    """has_legal_move() in check only tries the moves that could answer it (the king's, a
    capture of the checker, a block, a cannon screen moved away): on random sparse positions
    in check it must agree with full move generation and with pyffish."""
    red_king = data.draw(st.sampled_from(["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"]))
    black_king = data.draw(st.sampled_from(["d9", "e9", "f9", "d8", "e8", "f8", "d7", "e7", "f7"]))
    placed = {red_king: "K", black_king: "k"}
    count = data.draw(st.integers(2, 10), label="pieces")
    for letter in data.draw(st.permutations(_SPARSE_PIECES))[:count]:
        piece = Piece.from_symbol(letter)
        where = sorted(REACHABLE[piece.piece_type, piece.color])
        placed.setdefault(square_name(data.draw(st.sampled_from(where))), letter)
    try:
        board = Board(make_fen(placed, data.draw(st.sampled_from("wb"), label="side")))
    except InvalidFenError:
        assume(False)  # the side not to move is in check
        raise
    assume(board.is_check())
    legal = board.legal_moves()
    event("mate" if not legal else "in check")
    assert board.has_legal_move() == bool(legal), board.fen()
    # The probe's shortlist (white box): every legal answer to the check must be on it.
    assert set(legal) <= set(board._check_answers()), board.fen()
    theirs = pyffish.legal_moves(VARIANT, ffen(board.fen()), [])
    assert sorted(m.fairy() for m in legal) == sorted(theirs)
