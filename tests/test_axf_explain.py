"""Why each move of an AXF cycle has its label: the reason recorded by the classification
(:class:`xqadj.rules.ruling.AttackReason`, :class:`~xqadj.rules.ruling.FakeRoot`,
:class:`~xqadj.rules.ruling.SideReason`) and the words :meth:`Ruling.explain` gives it, with the
article, on the rulebook's own diagrams (``tests/data/axf-cases.tsv``) or, where no diagram has
the reason, on a position built for it.  One test per reason.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from support import make_fen, sq

from xqadj import Game
from xqadj.board import Board, Move, square_name
from xqadj.referee import cycle_steps
from xqadj.rules.axf import classify_move
from xqadj.rules.ruling import (
    LEVEL_CHASE,
    LEVEL_NONE,
    Attack,
    AttackReason,
    FakeRoot,
    MoveClass,
    Ruling,
    SideReason,
)

CASES = Path(__file__).resolve().parent / "data" / "axf-cases.tsv"
_CASES = {
    case["id"]: case
    for case in csv.DictReader(CASES.open(encoding="utf-8", newline=""), delimiter="\t")
}


def ruled(case_id: str) -> tuple[Game, Ruling]:
    case = _CASES[case_id]
    game = Game(case["fen"])
    ruling = None
    for text in case["moves"].split():
        ruling = game.push_iccs(text)
    assert ruling is not None
    return game, ruling


def attack(cls: MoveClass, attacker: str, victim: str) -> Attack:
    """The one attack of ``cls`` from ``attacker`` on ``victim`` (squares after the move)."""
    [found] = [
        a
        for a in cls.attacks
        if (square_name(a.attacker), square_name(a.victim)) == (attacker, victim)
    ]
    return found


def move_text(ruling: Ruling, index: int) -> str:
    """The explanation's words for cycle move ``index``: from its name to the next move's."""
    text = ruling.explain()
    start = text.index(f"{ruling.cycle[index].iccs()} (")
    following = [
        text.find(f"; {m.iccs()} (", start) for m in ruling.cycle if m != ruling.cycle[index]
    ]
    end = re.compile(r"\. (Red|Black) ").search(text, start)
    assert end is not None
    ends = [e for e in following if e > 0] + [end.start()]
    return text[start : min(ends)]


# -- chases ---------------------------------------------------------------------------------


def test_unprotected_victim() -> None:
    """D83, Red's second move: the rook attacks a cannon that no piece protects (art. 18)."""
    _, ruling = ruled("WXF-D083")
    cls = ruling.classifications[2]
    assert attack(cls, "d4", "d5").reason is AttackReason.UNPROTECTED
    assert attack(cls, "d4", "d5").roots == ()
    assert move_text(ruling, 2) == (
        "g4d4 (车三平六) red chase 捉 (the rook d4 attacks the cannon d5, which has no root "
        "(无根子): a chase, art. 18)"
    )


def test_fake_root_pinned() -> None:
    """D83, Red's first move: the cannon's only root, the elephant, is pinned (art. 34)."""
    _, ruling = ruled("WXF-D083")
    found = attack(ruling.classifications[0], "g4", "g5")
    assert found.reason is AttackReason.FAKE_ROOT
    assert [(square_name(r.square), r.fake) for r in found.roots] == [("e7", FakeRoot.PINNED)]
    assert (
        "the rook g4 attacks the cannon g5, protected only by a fake root (假根: the elephant e7 "
        "cannot recapture without exposing its king: it is pinned): a chase, art. 34"
    ) in move_text(ruling, 0)


def test_fake_root_king_facing_the_other_king() -> None:
    """FS-30: the knight's only root is its king, which would face the other king."""
    _, ruling = ruled("FS-30")
    found = attack(ruling.classifications[3], "d3", "d0")
    assert found.reason is AttackReason.FAKE_ROOT
    assert [(square_name(r.square), r.fake) for r in found.roots] == [
        ("e0", FakeRoot.FLYING_GENERAL)
    ]
    assert "the king e0 cannot recapture without facing the other king, the flying general" in (
        move_text(ruling, 3)
    )


def test_fake_root_pinned_by_the_flying_general() -> None:
    """A built position: the knight's root is the advisor between the two kings."""
    fen = make_fen({"e0": "K", "e1": "A", "d2": "N", "i0": "R", "e9": "k", "a3": "r"}, "b")
    found = attack(classify_move(Board(fen), Move.from_iccs("a3a2")), "a2", "d2")
    assert found.reason is AttackReason.FAKE_ROOT
    assert [(square_name(r.square), r.fake) for r in found.roots] == [
        ("e1", FakeRoot.FLYING_GENERAL)
    ]
    ruling = play(fen, "a3a2 i0i1 a2a3 i1i0")
    assert "the advisor e1 cannot recapture without leaving the kings facing" in ruling.explain()


def test_fake_root_king_stepping_into_an_attack() -> None:
    """A built position: the knight's root is its king, which would recapture into the
    attack of a crossed pawn."""
    fen = make_fen({"e1": "K", "d1": "N", "i0": "R", "f9": "k", "c8": "r", "c1": "p"}, "b")
    found = attack(classify_move(Board(fen), Move.from_iccs("c8d8")), "d8", "d1")
    assert found.reason is AttackReason.FAKE_ROOT
    assert [(square_name(r.square), r.fake) for r in found.roots] == [
        ("e1", FakeRoot.KING_ATTACKED)
    ]
    ruling = play(fen, "c8d8 i0i1 d8c8 i1i0")
    assert "the king e1 cannot recapture without stepping into an attack" in ruling.explain()


def test_rook_attacked_by_a_cannon_is_chased_even_when_protected() -> None:
    """D22: the cannon chases the rook although the rook is protected (art. 15)."""
    _, ruling = ruled("WXF-D022")
    assert attack(ruling.classifications[0], "b2", "f2").reason is AttackReason.STRONGER_VICTIM
    assert move_text(ruling, 0) == (
        "b3b2 (炮八退一) red chase 捉 (the cannon b2 attacks the rook f2: a rook attacked by a "
        "cannon is chased even when protected, art. 15)"
    )


def test_rook_attacked_by_a_knight_is_chased_even_when_protected() -> None:
    _, ruling = ruled("WXF-D094")
    assert attack(ruling.classifications[0], "h1", "f0").reason is AttackReason.STRONGER_VICTIM
    assert "a rook attacked by a knight is chased even when protected, art. 20" in move_text(
        ruling, 0
    )


def test_same_type_that_cannot_take_back() -> None:
    """D53: a cannon attacks a cannon that has no mount to take back with (art. 24)."""
    _, ruling = ruled("WXF-D053")
    assert attack(ruling.classifications[1], "c4", "c9").reason is AttackReason.CANNOT_TAKE_BACK
    assert (
        "the cannon c4 attacks the cannon c9, which cannot take back and has no real root: not "
        "an exchange offer but a chase, art. 24"
    ) in move_text(ruling, 1)


def test_root_taken_away() -> None:
    """FS-24: the knight's move pins the rook that protected the knight d2, which the rook d3
    already attacked: the standing attack is a chase now (RULES.md §7.1)."""
    _, ruling = ruled("FS-24")
    found = attack(ruling.classifications[0], "d3", "d2")
    assert found.reason is AttackReason.ROOT_TAKEN
    assert [square_name(r.square) for r in found.roots] == ["e2"]
    assert (
        "the rook d3 already attacked the knight d2, and the move took away its last root, the "
        "rook e2: a chase, RULES.md §7.1 (D105)"
    ) in move_text(ruling, 0)


# -- no chases ------------------------------------------------------------------------------


def test_protected_victim() -> None:
    """D29 (the issue's example): a rook attacking a protected cannon is idle, and says why."""
    _, ruling = ruled("WXF-D029")
    found = attack(ruling.classifications[0], "h2", "h1")
    assert found.reason is AttackReason.PROTECTED and not found.chases
    assert [square_name(r.square) for r in found.roots] == ["g1"]
    assert move_text(ruling, 0) == (
        "i2h2 (车一平二) red idle 闲 (the rook h2 attacks the cannon h1, protected (有根子) by "
        "the rook g1: no chase, art. 17)"
    )


def test_exchange_offer() -> None:
    """D101: a rook attacking a rook that can take back is an offer (art. 24)."""
    _, ruling = ruled("WXF-D101")
    assert attack(ruling.classifications[1], "b3", "a3").reason is AttackReason.OFFER
    assert (
        "the rook b3 attacks the rook a3, which can take back: an exchange offer (兑), no chase, "
        "art. 24"
    ) in move_text(ruling, 1)


def test_pinned_attacker() -> None:
    """D4: Black's cannon attacks Red's cannon but may not capture it (its king would be
    exposed)."""
    _, ruling = ruled("WXF-D004")
    assert attack(ruling.classifications[0], "e8", "e0").reason is AttackReason.PINNED_ATTACKER
    assert (
        "the cannon e8 attacks the cannon e0 but cannot capture it without exposing its own "
        "king: no chase, RULES.md §2.4"
    ) in move_text(ruling, 0)


def test_standing_threat() -> None:
    """D106 (图106): the rook's threat on the cannon stood before its move."""
    _, ruling = ruled("WXF-D106")
    assert attack(ruling.classifications[2], "h0", "h3").reason is AttackReason.STANDING
    assert (
        "the rook h0 threatened the cannon h3 before the move too: a standing threat the move "
        "did not create, no chase, 图110"
    ) in move_text(ruling, 2)


def test_defence_of_a_root_behind_the_attacker() -> None:
    """D40: Black's advisor takes away the knight's root behind the rook, aimed at it."""
    _, ruling = ruled("WXF-D040")
    found = attack(ruling.classifications[0], "f8", "g8")
    assert found.reason is AttackReason.DEFENCE
    assert [square_name(r.square) for r in found.roots] == ["b8"]
    assert (
        "which stood behind the attacker aimed at it: a defence, no chase, RULES.md §7.1 "
        "(art. 19, D39–41)"
    ) in move_text(ruling, 0)


def test_king_and_pawn_may_chase() -> None:
    """D67 (art. 28) and D70 (art. 29)."""
    _, ruling = ruled("WXF-D067")
    assert attack(ruling.classifications[1], "f1", "f0").reason is AttackReason.EXEMPT_CHASER
    assert "the king f1 attacks the cannon f0: a king may chase, art. 28" in move_text(ruling, 1)
    _, ruling = ruled("WXF-D070")
    assert attack(ruling.classifications[0], "g6", "g7").reason is AttackReason.EXEMPT_CHASER
    assert "the pawn g6 attacks the knight g7: a pawn may chase, art. 29" in move_text(ruling, 0)


def test_uncrossed_pawn_is_no_victim() -> None:
    """D22, Black's reply: its rook attacks pawns that have not crossed the river (art. 25)."""
    _, ruling = ruled("WXF-D022")
    assert attack(ruling.classifications[1], "f3", "e3").reason is AttackReason.EXEMPT_VICTIM
    assert (
        "the rook f3 attacks the pawn e3, a pawn that has not crossed the river: attacking it "
        "is no chase, art. 25"
    ) in move_text(ruling, 1)


def test_check_names_the_checking_piece() -> None:
    _, ruling = ruled("WXF-D001")
    assert attack(ruling.classifications[0], "h9", "f9").reason is AttackReason.CHECK
    assert move_text(ruling, 0) == (
        "h8h9 (车二进一) red check 将 (the rook h9 attacks the king: a check)"
    )


def test_discovered_attack_says_so() -> None:
    """D59: the elephant's move uncovers the cannon's attack on a crossed pawn."""
    _, ruling = ruled("WXF-D059")
    assert "the cannon i0, uncovered by the move, attacks the pawn i4" in move_text(ruling, 0)


def test_move_that_attacks_nothing_new() -> None:
    _, ruling = ruled("WXF-D029")
    assert move_text(ruling, 1) == "h1i1 (炮８平９) black idle 闲 (it creates no attack)"


# -- the verdict line of the cycle -----------------------------------------------------------


def test_same_piece_on_every_move() -> None:
    _, ruling = ruled("WXF-D022")
    red = ruling.verdicts[0]
    assert (red.level, red.why) == (LEVEL_CHASE, SideReason.SAME_PIECE)
    assert red.chasers == ("C@b3",)
    assert (
        "Red chases the same piece on every move (perpetual chase, 长捉): the black rook that "
        "stood on f2 when the cycle began;"
    ) in ruling.explain()


def test_several_pieces_chasing_one_in_turn() -> None:
    """D82: two pieces take turns chasing one (art. 33)."""
    _, ruling = ruled("WXF-D082")
    red = ruling.verdicts[0]
    assert red.why is SideReason.SAME_PIECE and len(red.chasers) == 2
    assert (
        "by the red cannon that stood on e4 when the cycle began and the red knight that stood "
        "on c3 when the cycle began in turn (art. 33)"
    ) in ruling.explain()


def test_different_pieces_in_turn() -> None:
    """D26 (the issue's example): a cannon chasing two rooks in turn breaks no rule (art. 32)."""
    _, ruling = ruled("WXF-D026")
    red = ruling.verdicts[0]
    assert (red.level, red.why) == (LEVEL_NONE, SideReason.DIFFERENT_PIECES)
    assert red.targets == ("r@a0", "r@i0")
    assert (
        "Red breaks no rule (允许着法): it chases on every move, but no one piece on every move "
        "(the black rook that stood on a0 when the cycle began and the black rook that stood on "
        "i0 when the cycle began in turn), and chasing different pieces in turn is allowed "
        "(art. 32)"
    ) in ruling.explain()


def test_checks_and_chases_mixed() -> None:
    _, ruling = ruled("WXF-D037")
    black = ruling.verdicts[1]
    assert black.why is SideReason.CHECKS_AND_CHASES
    assert "(one check one chase, 一将一捉, art. 12)" in ruling.explain()


def test_an_idle_move_breaks_the_perpetual() -> None:
    """D14: one check one idle (art. 13)."""
    _, ruling = ruled("WXF-D014")
    assert ruling.verdicts[0].why is SideReason.IDLE_MOVE
    assert (
        "Red breaks no rule (允许着法): c9c8 (车七退一) neither checks nor chases (闲), and one "
        "idle move breaks a perpetual check or chase (art. 13; D19)"
    ) in ruling.explain()
    assert "Black breaks no rule (允许着法): none of its moves checks or chases (art. 5)" in (
        ruling.explain()
    )


def test_every_move_checks() -> None:
    _, ruling = ruled("WXF-D001")
    assert ruling.verdicts[0].why is SideReason.EVERY_MOVE_CHECKS
    assert "Red checks on every move (perpetual check, 长将, art. 6)" in ruling.explain()


# -- every case, every notation -----------------------------------------------------------------


def test_every_case_gives_a_reason_for_every_chase() -> None:
    """On every rulebook line, the victims are exactly the attacks whose reason chases, and
    every move names its Chinese notation in the explanation."""
    for case_id in _CASES:
        _, ruling = ruled(case_id)
        text = ruling.explain()
        for index, cls in enumerate(ruling.classifications):
            assert cls.victims == tuple(a.threat for a in cls.attacks if a.chases), case_id
            assert bool(cls.check) == any(a.reason is AttackReason.CHECK for a in cls.attacks), (
                case_id
            )
            assert f"{cls.move.iccs()} ({ruling.move_names[index]})" in text, case_id


def test_fairy_notation_writes_ranks_1_to_10() -> None:
    _, ruling = ruled("WXF-D022")
    text = ruling.explain("fairy")
    assert text.startswith(
        "The position occurred for the third time at ply 8 (循环三次). Cycle, played twice: "
        "b4b3 (炮八退一) red chase 捉 (the cannon b3 attacks the rook f3:"
    )
    assert "the black rook that stood on f3 when the cycle began" in text
    named = re.findall(r"(?<![A-Za-z0-9])(?:[a-i](?:10|[0-9])){1,2}(?![A-Za-z0-9])", text)
    assert "b3b2" not in named and "b4b3" in named


def test_a_cxa_explanation_is_rewritten_for_fairy() -> None:
    game = Game(_CASES["WXF-D022"]["fen"], rules="cxa")
    ruling = None
    for text in _CASES["WXF-D022"]["moves"].split():
        ruling = game.push_iccs(text)
    assert ruling is not None and ruling.explanation
    iccs, fairy = ruling.explain(), ruling.explain("fairy")
    assert "b3b2 (炮八退一)" in iccs and "b4b3 (炮八退一)" in fairy and "b3b2" not in fairy
    assert "CXA-26.9.2" in fairy  # the article is no square


def test_cycle_steps_carry_the_reasons() -> None:
    """The pictures' data: each step's attacks, with the victim squares and the reasons."""
    game, ruling = ruled("WXF-D022")
    steps = cycle_steps(game.board, ruling)
    assert [s.attacks for s in steps] == [c.attacks for c in ruling.classifications]
    first = steps[0].attacks[0]
    assert (first.attacker, first.victim, first.reason) == (
        sq("b2"),
        sq("f2"),
        AttackReason.STRONGER_VICTIM,
    )


def play(fen: str, cycle: str) -> Ruling:
    game = Game(fen)
    ruling = None
    for text in cycle.split() * 2:
        ruling = game.push_iccs(text)
    assert ruling is not None
    return ruling
