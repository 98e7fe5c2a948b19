"""Undermining a root (RULES.md §7.1; docs/rulings.md D-2): geometries that
``tests/test_axf_roots.py`` does not pin, each ruled by hand from the reading *a move that turns
a standing attack into a threat by taking away the victim's last root chases that victim, unless
every root the victim had stood behind the attacker on its line, aimed at it*.
"""

from __future__ import annotations

from test_axf_rules import DRAW, IDLE, assert_classes, assert_ruling, chase, fen, play


def test_root_from_the_side_pinned_by_the_move_chases() -> None:
    """The rook a6 attacks the knight c6 along rank 6; its only root is the rook e6 on the same
    rank, beyond the victim (not behind the attacker).  The red rook h2e2 pins e6 to its king e9
    (e6 may only move along the e-file, so its recapture on c6 is a fake root, art. 34): the
    knight is left without a root, a chase of c6 by a6 (§7.1: "pinning the protector ... count").
    The rook e2's own attack on e6 is an offer (e6 can take it back, art. 24).  Unpinning is
    idle: one chase, three idle moves, a draw."""
    start = fen("K d0 R a6 R h2 k e9 r e6 n c6 c i9")
    classes, ruling = play(start, "h2e2 i9i8 e2h2 i8i9")
    assert_classes(classes, [chase("a6>c6"), IDLE, IDLE, IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_rook_root_behind_the_attacker_along_a_file_blocked_is_no_chase() -> None:
    """The file version of test_axf_roots' rank case: the rook d3 attacks the cannon d6 up the
    d-file; the cannon's only root is the rook d0 behind d3 on the d-file, aimed at it.  The
    red knight f3d2 blocks d0: the cannon loses its root, and d3 is no longer attacked by d0: a
    defence, no chase."""
    start = fen("K e1 R d3 N f3 k f9 c d6 r d0")
    classes, ruling = play(start, "f3d2 f9f8 d2f3 f8f9")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_cannon_root_behind_the_attacker_not_aimed_at_it_chases() -> None:
    """Behind the attacker but *not aimed at it*: the red cannon c4 attacks the knight g4 over
    the screen e4 (a black pawn); the knight's only root is the black cannon a4, behind c4 with
    nothing between (so it does not attack c4), which recaptures over the same screen once c4
    has gone to g4.  The red knight a2b4 puts a second screen between a4 and g4: the knight is
    left without a root.  The root was not aimed at the attacker, so the block defends nothing:
    a chase of g4 by c4."""
    start = fen("K d0 C c4 N a2 k f9 c a4 p e4 n g4")
    classes, ruling = play(start, "a2b4 f9f8 b4a2 f8f9")
    assert_classes(classes, [chase("c4>g4"), IDLE, IDLE, IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_king_move_pinning_a_root_chases_with_the_attacker() -> None:
    """D-2: "nor which piece moves (a pawn or the king too: the chase is the attacker's)".  The
    rook c2 attacks the knight c5; its only root is the elephant e7.  The red king's d0e0 faces
    the black king over e7 alone, so the elephant may not leave the e-file (flying general):
    a fake root (art. 34), and the rook c2 chases the knight.  The king's step back unpins it:
    idle."""
    start = fen("K d0 R c2 k e9 b e7 n c5 r i9")
    classes, ruling = play(start, "d0e0 i9i8 e0d0 i8i9")
    assert_classes(classes, [chase("c2>c5"), IDLE, IDLE, IDLE])
    assert_ruling(ruling, DRAW, "repetition")
