"""Rulings on positions from the 2,516 master games, checked by hand against the rulebook.

The games in ../shared/games are not ground truth (masters played on after repetitions), so these
are the cases a review found worth pinning: each cycle is the one a real game played twice.
"""

from __future__ import annotations

import pytest

from xqadj import Game


def rule(fen: str, cycle: str) -> tuple[str, str, list[str]]:
    game = Game(fen)
    ruling = None
    for text in f"{cycle} {cycle}".split():
        assert ruling is None, "ruled before the cycle was played twice"
        ruling = game.push_iccs(text)
    assert ruling is not None
    return ruling.result, ruling.reason.value, [c.kind for c in ruling.classifications]


@pytest.mark.parametrize(
    "fen, cycle, kinds",
    [
        # Game 180: Red's cannon checks on e4/d4 while the knight's attack on the advisor stands.
        ("4ka3/4a4/4b1N2/9/3r5/4C4/9/9/5K3/9 b", "e9d9 e4d4 d9e9 d4e4", ["other", "check"]),
        # Game 686: Black's cannon checks from f5; the knight's attack on f2 stands.
        ("4k4/9/9/9/5c3/4N4/3n5/4BA3/9/4K4 b", "f5e5 e0f0 e5f5 f0e0", ["chase", "other"]),
        # Game 753: Red's cannon checks from f6; the knight's attack on f7 stands.
        ("4k4/4a4/4ba3/4C4/6N2/9/9/9/9/3K5 b", "e9f9 e6f6 f9e9 f6e6", ["other", "check"]),
    ],
)
def test_a_check_does_not_make_the_roots_of_standing_attacks_fake(
    fen: str, cycle: str, kinds: list[str]
) -> None:
    """One check and one chase is allowed (art. 12): the check must not also count as a chase
    of a piece whose root can recapture once the check is answered (docs/rulings.md D-11)."""
    result, reason, classified = rule(fen, cycle)
    assert (result, reason) == ("1/2-1/2", "repetition")
    assert classified[:2] == kinds
    assert "check" in classified and "chase" in classified


def test_a_check_that_unmounts_a_cannon_root_from_the_side_also_chases() -> None:
    """Liu Dahua's games #346 (Lv Qin vs Liu Dahua, Kun Hua Cup 1984), plies 73-80, the one cycle
    of the master games whose classification the reading of RULES.md §7.1 changed (no ruling
    changed).  The red cannon i9 attacks the advisor f9 over the elephant g9 all along.  With the
    king on e8 the advisor's only root is the black cannon f0, mounted on the red rook f5, on
    the advisor's file, from the side of the cannon's rank 9.  f5e5 checks and takes the mount
    away: a chase too (docs/rulings.md D-2; the old reading, "moving away the mount of the enemy
    cannon chases nothing", made it a check only).  Red checks on every move all the same, and
    loses by perpetual check."""
    fen = "5ab1C/5k3/9/p5p1p/4R1n2/9/P1r1C1P1P/3K5/9/3A1cB2 w"
    game = Game(fen)
    ruling = None
    for text in "e5f5 f8e8 f5e5 e8f8 e5f5 f8e8 f5e5 e8f8".split():
        assert ruling is None
        ruling = game.push_iccs(text)
    assert ruling is not None
    assert (ruling.result, ruling.reason.value) == ("0-1", "perpetual-check")
    unmounting = ruling.classifications[2]
    assert unmounting.move.iccs() == "f5e5" and unmounting.check
    assert [t.describe(game.board) for t in unmounting.victims] == ["cannon i9 attacks advisor f9"]
