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
