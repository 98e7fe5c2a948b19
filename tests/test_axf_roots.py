"""Undermining a root (RULES.md §7.1; docs/rulings.md D-2): when a move turns a standing attack
into a threat by taking away the victim's last root.

The reading: *such a move chases that victim, unless every root the victim had stood behind the
attacker on its line, aimed at it* (a rook with nothing between it and the attacker, a cannon
with one screen).  A root behind the attacker recaptures only because the capture empties the
attacker's square, and taking it away also ends its attack on the mover's piece: a defence.  A
root acting from the side is the victim's own protection, and taking it away chases, whichever
piece moves and however the root is lost (its line blocked, its mount taken away, a second
screen added).

The appendix's Example of Perpetual Chase (D105) and the rulebook's D39-41, D61, D62 and
Fairy-Stockfish's FS-22/23 (in the case file, ``tests/test_axf_cases.py``) fix the reading; the
positions below pin each geometry on its own.  Each test that asserts a chase from the side
failed under the previous reading (docs/rulings.md's old D-2: "moving away the mount of the
enemy cannon that protected the victim chases nothing"), and each test of a root behind the
attacker that is blocked or doubled failed under it too (the old reading counted every blocked
root); the helpers are those of ``tests/test_axf_rules.py``.
"""

from __future__ import annotations

from test_axf_rules import (
    BLACK_WINS,
    DRAW,
    IDLE,
    assert_classes,
    assert_ruling,
    chase,
    check,
    fen,
    play,
)

from xqadj.board import Board, Move

# --- the appendix example (D105) -------------------------------------------------------------

#: The appendix's "Example of Perpetual Chase" (taken to be 图105, RULES.md §2.1), position as
#: transcribed by orange-xiangqi (tests.jai, "Addition illustrations. Perpetual Chase"), the
#: source of the case file's diagram positions.  It is not in the shared case file.
D105_FEN = "2ca1k3/4a4/b3b4/2P5P/6p2/1c7/9/B7N/2nR5/2BAK4 w"
D105_CYCLE = "c6b6 e7c5 b6c6 c5e7"


def test_d105_appendix_example_of_perpetual_chase() -> None:
    """Appendix (RULES.md §2.6): "Red keeps moving its Pawn to keep the Black Knight
    'unprotected'.  This constitutes the Red Rook perpetually chasing the unprotected Black
    Knight."  The red rook d1 attacks the knight c1 throughout; the knight's only root is the
    black cannon c9, on the knight's file (from the side of the rook's rank 1), whose only screen
    is the red pawn c6.  兵七平八 (c6b6) takes the screen away; the elephant comes to c5 (a screen
    again); 兵八平七 (b6c6) makes two screens.  Each pawn move leaves the knight without a root:
    Red loses.  The rook holds the knight's leg (the knight cannot take it), which does not stop it
    from chasing: the rule D-4 of the old reading, a rook held by a knight chases nothing, would
    have drawn this too."""
    board = Board(D105_FEN)
    assert not board.is_legal(Move.from_iccs("d1d2"))  # the rook d1 is held: Nc1 would check e0
    classes, ruling = play(D105_FEN, D105_CYCLE)
    assert_classes(classes, [chase("d1>c1"), IDLE, chase("d1>c1"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")
    assert ruling.article == "art.23"  # a rook chasing a knight


# --- roots from the side: taking them away chases -------------------------------------------


def test_cannon_root_from_the_side_along_a_file() -> None:
    """D105's geometry on a bare board: the rook a4 attacks the crossed pawn d4 along rank 4; its
    root is the cannon d9 on the d-file, mounted on the red pawn d6.  d6c6 takes the mount away
    (the old reading's exemption: "moving a cannon mount away chases nothing"); the advisor
    steps to d7 (a mount again); c6d6 adds a second screen.  Both pawn moves chase d4."""
    start = fen("K e0 R a4 P d6 k f9 a e8 c d9 p d4")
    classes, ruling = play(start, "d6c6 e8d7 c6d6 d7e8")
    assert_classes(classes, [chase("a4>d4"), IDLE, chase("a4>d4"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_cannon_root_from_the_side_along_a_rank() -> None:
    """The cannon e0 attacks the knight e6 up the e-file (mount: the advisor e1); the knight's
    root is the cannon i6 on rank 6, mounted on the red rook h6.  h6h7 takes the mount away: a
    chase of e6 by the cannon e0.  h7h6 attacks e6 and i6 with the rook (neither has a root: the
    rook leaving h6 to capture unmounts i6).  Red chases e6 on every move and loses (the old
    reading: h6h7 idle, a draw)."""
    start = fen("K d0 A e1 C e0 k e9 n e6 R h6 c i6")
    classes, ruling = play(start, "h6h7 e9e8 h7h6 e8e9")
    assert_classes(classes, [chase("e0>e6"), IDLE, chase("h6>e6", "h6>i6"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_cannon_root_from_the_side_taken_away_with_check() -> None:
    """The same with h6h9, which also checks: a check is answered before any capture, but the
    unmounted cannon i6 cannot recapture on e6 after the check is answered either (D-11 does not
    restore a root the move took away); check and chase (D-5), then a chase: Red loses.
    (Fairy-Stockfish counts no root a move takes away, and draws: tests/test_pyffish_diff.py,
    category B.)"""
    start = fen("K d0 A e1 C e0 k e9 n e6 R h6 c i6")
    classes, ruling = play(start, "h6h9 e9e8 h9h6 e8e9")
    assert_classes(classes, [check("e0>e6"), IDLE, chase("h6>e6", "h6>i6"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_rook_root_from_the_side_blocked() -> None:
    """A rook root from the side: the rook a4 attacks the crossed pawn d4; its root is the rook
    d9 down the d-file.  The red pawn c6 steps in front of it (d6): a chase; stepping back gives
    the root back and chases nothing (one chase, one idle: a draw).  The victim shuttling between
    two rooted squares (test_axf_rules.test_d105_blocking_a_root_is_a_chase) makes it perpetual."""
    start = fen("K e0 R a4 P c6 k f9 r d9 p d4")
    classes, ruling = play(start, "c6d6 f9f8 d6c6 f8f9")
    assert_classes(classes, [chase("a4>d4"), IDLE, IDLE, IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_one_move_taking_away_a_root_behind_and_a_root_from_the_side_chases() -> None:
    """ "Unless *every* root the victim had stood behind the attacker": the knight e4 has two
    roots against the rook d4, the cannon a4 behind the rook (mounted on the elephant c4, aimed
    at d4) and the rook e0 below it on the e-file.  The elephant's c4e2 unmounts the first and
    blocks the second: a chase (the old reading exempted it as an unmounting).  The rook's new
    attack on the cannon a4 is on a protected cannon (the rook a9 roots it)."""
    start = fen("K d1 B c4 R d4 k f9 c a4 r a9 n e4 r e0")
    classes, ruling = play(start, "c4e2 f9f8 e2c4 f8f9")
    assert_classes(classes, [chase("d4>e4"), IDLE, IDLE, IDLE])
    assert_ruling(ruling, DRAW, "repetition")


# --- roots behind the attacker, aimed at it: taking them away is a defence ------------------


def test_rook_root_behind_the_attacker_blocked_is_no_chase() -> None:
    """The rook c4 attacks the knight f4; the knight's only root is the rook a4 behind c4 on rank
    4 and aimed at it (it recaptures through the square c4 empties).  The red knight a2b4 blocks
    it: the knight f4 loses its root, and c4 is no longer attacked: a defence, no chase (the old
    reading counted every blocked root)."""
    start = fen("K d0 k f9 R c4 r a4 n f4 N a2")
    classes, ruling = play(start, "a2b4 f9f8 b4a2 f8f9")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_cannon_root_behind_the_attacker_unmounted_is_no_chase() -> None:
    """D61's geometry: the knight g4's root is the cannon a4 behind the rook d4, mounted on the red
    knight c4 and so aimed at d4.  c4b2 takes the mount away: no chase (the rook's new attack on
    the cannon a4 is on a protected cannon, rooted by the rook a9)."""
    start = fen("K d0 k f9 R d4 c a4 r a9 N b2 n g4")
    classes, ruling = play(start, "b2c4 f9f8 c4b2 f8f9")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_cannon_root_behind_the_attacker_with_a_second_screen_is_no_chase() -> None:
    """The cannon a4 behind the rook d4 is mounted on the pawn b4; the red knight adds a second
    screen (d2c4), so a4 no longer recaptures on g4, nor attacks d4: no chase (the old reading:
    a chase, as a blocked root)."""
    start = fen("K d0 k f9 R d4 P b4 N d2 c a4 n g4")
    classes, ruling = play(start, "d2c4 f9f8 c4d2 f8f9")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")
