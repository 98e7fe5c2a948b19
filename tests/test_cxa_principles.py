"""The five principles of the CXA look-ahead 捉 (``shared/rules/CXA.md`` §5.6, issues 12 and
20), each on positions built for the test, not taken from the rulebook's diagrams: the case file
(``test_cxa.py``) shows that the principles keep the book's rulings; these show that they are
what the classifier does on boards nobody tuned it for.

* P1, causality (因果关系): a move that parries the opponent's attack creates no 捉 from a
  capture it neither makes, joins nor uncovers; after a move that did not attack, taking away the
  opponent's defence is 断根 (捉); king and pawn moves are 捉 when other pieces gain by them.
* P2, the line ends when its material is won: a capture the opponent could make anyway is its
  own chase, not netted against the line (neither against a 将军得子 nor as an even 各吃各子).
* P3, a crossed pawn's value floats in every exchange the line counts, also against the piece a
  capture abandons (做根子).
* P4, a same-type capture is an offer (兑) only when the move lined the pieces up or the
  capturer can be taken back: a rook taking an undefended rook wins it; and a parry is not
  credited with a capture through what lifting it off the board hands the opponent (a
  capture that wins on its own, which P2 leaves out).
* P5, 26.5 for every form of 24.3: what the chaser loses before its first capture is the
  price, what it loses after it is 各吃各子; an even result counts at the end of checks too.

Also pinned here: the principal target of a chase is a piece that stood, not one the opponent
threw in along the line (26.9), and a search that runs out of nodes keeps a gain it proved.
Where a test failed before issue 12 or 20, its docstring says what the classifier answered then.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from support import FILE_NAMES, make_fen, sq

from xqadj.board import CANNON, Board, Move, square_name
from xqadj.referee import Game
from xqadj.rules import cxa
from xqadj.rules.cxa import search


def label_after(fen: str, moves: str) -> cxa.MoveLabel:
    """The label of the last of ``moves`` (ICCS), played from ``fen`` after the others: the
    moves before it are the history the label may depend on (P1 looks at the move before)."""
    board = Board(fen)
    *history, last = moves.split()
    for text in history:
        board.push_iccs(text)
    return cxa.classify_move(board, Move.from_iccs(last))


def lines(label: cxa.MoveLabel) -> list[str]:
    return [" ".join(m.iccs() for m in gain.line) for gain in label.gains]


# -- P1: causality -------------------------------------------------------------------------------

#: Black's rook has just come to a5 and attacks the red cannon on a2 (unprotected: a chase).  Red's
#: knight on g4 could always take the black cannon on f6, but black answered that by taking the
#: cannon on a2 (an even 各吃各子).  Red's cannon steps to b2, out of the rook's reach.
PARRY = make_fen(
    {"e9": "k", "f6": "c", "b5": "r", "g4": "N", "a2": "C", "d0": "K"},
    "b",
)
#: The same position after red's move (rook on a5, black king on e9), reached by a black king
#: move instead: the rook has stood on a5 all along.
IDLE = make_fen(
    {"e8": "k", "f6": "c", "a5": "r", "g4": "N", "a2": "C", "d0": "K"},
    "b",
)


def test_p1_a_parry_creates_no_chase_from_a_capture_it_takes_no_part_in() -> None:
    """P1.1 (CXA.md §5.6; 2011 29.2 "'捉'产生于刚走的这着棋"; 参考图37): black's 车２平１ chases
    the cannon, red's 炮九平八 parries the chase.  The parry is what now makes 马三退四 (taking
    the cannon on f6) pay, but the cannon on b2 takes no part in that capture: it stood before,
    and only lost black's counter-chance.  The move is defence: 闲.  (Before issue 12 also 闲,
    by the exemption of a piece escaping capture, which ruled the next test's move 闲 too.)"""
    label = label_after(PARRY, "b5a5 a2b2")
    assert label.label == "闲"
    assert "parries" in label.note


def test_p1_after_a_move_that_did_not_attack_taking_away_a_defence_is_a_chase() -> None:
    """P1.3 (CXA.md §5.6; 参考图28 退士断根捉马, 参考图20): the same move in the same position, but
    black's move before it was a king move, no attack.  Then 炮九平八 takes away black's
    defence of the cannon on f6 (the counter-capture on a2) and creates the knight's chase:
    断根, 捉.  (Before issue 12 both were 闲: the old exemption of a piece stepping out of
    capture did not ask what the opponent's last move had done.)"""
    board = Board(IDLE)
    board.push_iccs("e8e9")
    parried = Board(PARRY)
    parried.push_iccs("b5a5")
    assert board.fen() == parried.fen()  # one position, two histories
    label = cxa.classify_move(board, Move.from_iccs("a2b2"))
    assert label.label == "捉"
    assert [square_name(g.target) for g in label.gains] == ["f6"]
    assert lines(label)[0].startswith("g4f6")


def test_p1_a_parry_the_moved_piece_takes_part_in_is_a_chase() -> None:
    """P1.2 (CXA.md §5.6; 图11 炮八平九 steps out of a chase and still pins a root): the parry
    chases when the moved piece takes part.  Here the cannon steps out of the rook's reach to
    f2, behind the black pawn on f5, and so attacks the cannon on f6 as the knight takes it: the
    knight's capture is joint with the moved cannon (联合捉), a 捉 although it parries.  (Before
    issue 12: 兑, the cannons facing each other.)"""
    fen = make_fen(
        {"e9": "k", "f6": "c", "b5": "r", "f5": "p", "g4": "N", "a2": "C", "d0": "K"},
        "b",
    )
    label = label_after(fen, "b5a5 a2f2")
    assert label.label == "捉"
    assert label.gains and all(g.joint for g in label.gains)
    assert all(sq("f2") in g.helpers for g in label.gains)


@pytest.mark.parametrize(("piece", "expected"), [("P", "捉"), ("C", "闲")])
def test_p1_a_pawn_that_steps_out_of_a_chase_chases_with_what_it_frees(
    piece: str, expected: str
) -> None:
    """P1.4 (CXA.md §5.6; 26.1.1 "走动帅(将)、兵(卒)后，其他子产生新的'捉'，按'捉'处理"; 图16
    将６退１ "避抽后…判捉"): black's rook comes behind the red piece on a5 and chases it; the
    piece steps aside to b5, and the knight's capture of the cannon on h7 now pays.  A crossed
    pawn's move is judged as 26.1.1 says: the knight gains a new chase, 捉.  A cannon in the same
    place parries, and its move is 闲 (P1.1).  (Before issue 12 both were 闲.)"""
    fen = make_fen({"f9": "k", "h7": "c", "b3": "r", "a5": piece, "g5": "N", "e0": "K"}, "b")
    label = label_after(fen, "b3a3 a5b5")
    assert label.label == expected
    if expected == "捉":
        assert [square_name(g.target) for g in label.gains] == ["h7"]


# -- P2: the line ends when its material is won -------------------------------------------------

#: Red's knight goes b4-c6: next it checks from e7 (马七进五 … 将) and, the king having to move,
#: takes the black cannon on g6 (将军得子, 24.3).  Black's rook on i5 can take the red knight on
#: i2 whatever red does: black's own chase.
FORK = make_fen(
    {"f9": "k", "g6": "c", "i5": "r", "b4": "N", "i2": "N", "e1": "A", "e0": "K"},
)


def test_p2_the_opponents_own_capture_is_not_netted_against_winning_material_by_checks() -> None:
    """P2 (CXA.md §5.6; 24.3 "从下一着开始运用将军或连续'将军'得子"): the line 马七进五, 将 moves,
    马五进三 wins the cannon and ends there.  Black's 车１退３ taking the knight on i2 is no
    answer to it (it is black's own chase, open before red's move and after it), so it is not
    netted: red's move is a 捉 of the cannon.  (Before issue 12 the knight for the cannon made
    an even trade at the end of checks, no gain: 闲.)"""
    board = Board(FORK)
    with board.passed_turn():  # black's capture is there, and wins the knight
        assert Move(sq("i5"), sq("i2")) in board.legal_moves()
        assert (sq("i5"), sq("i2"), board.squares[sq("i2")]) in search._winning_captures(board)
    label = cxa.classify_move(board, Move.from_iccs("b4c6"))
    assert label.label == "捉"
    (gain,) = label.gains
    assert gain.how == "checks"
    assert square_name(gain.target) == "g6"
    assert gain.value == search.STRONG


def test_p2_a_defence_against_the_line_itself_is_still_netted() -> None:
    """P2 keeps the opponent's defences against the line: here a root on the target's square.
    A black knight on h8 guards the cannon on g6 and takes the red knight back there, so the
    line wins a cannon for a knight: no gain, no 捉."""
    fen = make_fen(
        {"f9": "k", "g6": "c", "h8": "n", "b4": "N", "e1": "A", "e0": "K"},
    )
    label = label_after(fen, "b4c6")
    assert label.label != "捉"


def test_p2_the_opponents_own_capture_makes_no_even_trade_chase_for_the_defender() -> None:
    """P2, the other half (CXA.md §5.6: "netting it must neither cancel a 将军得子 nor turn into
    an 'even 各吃各子' chase for the defender").  A master game (Liu Dahua, game 325): red's
    车六平五 chases the elephant on e7 (by checks); black's 将５平４ steps off the e-file.  Black's
    rook could take the elephant on g4 before and after; netting red's own capture of the
    elephant on e7 made it an even 各吃各子 after the king move (and a loss before it, while
    that capture came with check), so a "new" chase.  Red's capture is red's chase, not an
    answer: the black king's move is 闲.  (Before issue 12: 捉.)"""
    label = label_after("4k4/9/4b4/9/9/r5B2/9/3R5/6p2/4KA3 w", "d2e2 e9d9")
    assert label.label == "闲"


# -- P3: floating pawn value ---------------------------------------------------------------------


def test_p3_a_pawn_won_against_an_abandoned_advisor_is_no_gain() -> None:
    """P3 (CXA.md §5.6; 2011 25.3 "过河兵(卒)价值浮动，一兵换取数子或一子换取数兵均不算得子";
    26.5 做根子捉子): red's knight leaves c2 and opens the rook's file to the crossed black pawn
    on c3.  But the rook on c1 is the only root of the advisor on e1, which black's rook on e5
    attacks: 车七进二 takes a pawn and abandons the advisor (车５进４ takes it).  A pawn won
    against an advisor lost in the same exchange is no gain, also when the advisor is one the
    capture abandoned, not the capturer taken back: 闲.  (Before issue 12: 捉, the pawn counted
    as a knight against the advisor's small unit.)"""
    fen = make_fen({"e9": "k", "e5": "r", "c3": "p", "c2": "N", "c1": "R", "e1": "A", "d0": "K"})
    label = cxa.classify_move(Board(fen), Move.from_iccs("c2a1"))
    assert label.label == "闲"


def test_p3_the_tally_floats_a_pawn_against_an_abandoned_piece() -> None:
    """P3 on the tally itself: a crossed pawn taken, an advisor lost to a capture of something
    that had not moved in the line (a 各吃各子 counter) scores 0, not 98; a pawn taken and a
    knight lost that way is still an even 各吃各子 (26.5 "价值相当…按捉", 图22)."""
    pawn = search._Tally().after(Move(sq("c1"), sq("c3")), 7 | 8, True)  # a black pawn on c3
    assert pawn.score() == search.STRONG
    advisor = pawn.after(Move(sq("e5"), sq("e1")), 2, False)
    assert (advisor.counter, advisor.recaptured) == (True, False)
    assert advisor.score() == 0
    knight = pawn.after(Move(sq("e5"), sq("b2")), 4, False)
    assert knight.score() == search.EVEN_TRADE


# -- P4: a parry's part in a gain; a same-type capture that wins ----------------------------------

#: Two black rooks on rank 8 protect each other; red's rook on a4 faces the one on a8, and each
#: could take the other.  Red's cannon comes to h8, between them: the rook on a8 loses its root.
ROOT_CUT = make_fen({"e9": "k", "a8": "r", "i8": "r", "a4": "R", "h2": "C", "d0": "K"})


def test_p4_a_rook_taking_an_undefended_rook_wins_it() -> None:
    """P4 (CXA.md §5.6): a capture of a piece of the same type is an offer to exchange (兑,
    24.4) only when the capturer can be taken back without loss, or when the move itself lined
    the two pieces up.  炮二进六 (h2-h8) cuts the root of the black rook on a8 (断根, P1.3): the
    rook 车九进四 takes can no longer be taken back, so it is won, a 捉 of the rook, although
    the black rook could take red's first.  (Before P4: 献, the rooks counted as offering an
    exchange.)"""
    label = cxa.classify_move(Board(ROOT_CUT), Move.from_iccs("h2h8"))
    assert label.label == "捉"
    (gain,) = label.gains
    assert square_name(gain.target) == "a8"
    assert gain.line[0] == Move.from_iccs("a4a8")
    assert gain.value >= 2 * search.STRONG


def test_p4_the_opponents_rook_taking_an_undefended_rook_is_its_own_chase() -> None:
    """P4 with P2: the black rook on a8 taking the undefended red rook on a4 wins it on its own,
    so it is black's own chase, no answer to red's lines (and no 'offer' that a line may net, as
    when P1's parry test lifts a piece off the board and leaves a rook undefended).  (Before P4
    the set of black's winning captures was empty: same-type captures were all offers.)"""
    board = Board(ROOT_CUT)
    with board.passed_turn():
        found = search._winning_captures(board)
    assert {(square_name(o), square_name(t)) for o, t, _code in found} == {("a8", "a4")}


@pytest.mark.parametrize(
    ("pieces", "move"),
    [({"b4": "R"}, "b4a4"), ({"a4": "R", "a6": "N"}, "a6c5")],
    ids=["the rook comes", "the knight steps out of the line"],
)
def test_p4_a_rook_the_move_lines_up_is_still_an_offer(pieces: dict[str, str], move: str) -> None:
    """P4's other half: when the moved piece's own role is to line up two pieces of a type so
    that the opponent may take first at no loss, the move is 兑 (图2 车９平８), even if the
    capture could not be taken back.  Here the red rook comes to a4, or a knight leaves the
    file between, and the red rook faces the undefended black rook on a8: an offer, no 捉."""
    fen = make_fen({"e9": "k", "a8": "r", "d0": "K", **pieces})
    label = cxa.classify_move(Board(fen), Move.from_iccs(move))
    assert label.label == "兑"


# -- P4: the lift (how a parry is judged) --------------------------------------------------------


class Lift(NamedTuple):
    """A parry whose label turns on P1's lift: ``moves`` are the opponent's attack and the
    parry; ``squares`` name the parrying piece where it lands, the piece the lift leaves
    undefended, the opponent's piece that takes it, and the capture the parry lets pay."""

    pieces: dict[str, str]
    moves: tuple[str, str]
    squares: dict[str, str]


#: Black's rook comes from c5 to a5 and forks the red knight on a2 and the red cannon on a6
#: (neither protected).  Red's knight on g4 attacks the black cannon on h6, but after the fork
#: black answers 马三进二 by taking the knight or the cannon (各吃各子).  Red's knight steps to
#: b4: out of the rook's reach, and the root of the cannon on a6 (a rook for a cannon if black
#: takes it).  Red's king has both advisors and the elephant on e2 (no mate in the air); the
#: crossed pawns on c7 (red) and b0 (black) give the rook's retreat and the knight's return a
#: target, for the cycle.
ROOT_FORK = Lift(
    {
        "e9": "k", "d9": "a", "f9": "a", "c5": "r", "h6": "c", "b0": "p",
        "e0": "K", "d0": "A", "f0": "A", "e2": "B", "g4": "N", "a2": "N", "a6": "C", "c7": "P",
    },
    ("c5a5", "a2b4"),
    {"parry": "b4", "left": "a6", "taker": "a5", "capture": "g4h6"},
)  # fmt: skip
#: The black cannon on c6 stands between the black rook on c9 (rooted by the knight on a8) and
#: the red rook on c2.  It steps to e6 and, over the pawn on e5, attacks the red knight on e3
#: (unprotected); the two rooks now face each other.  Red's knight jumps into the file, to c4:
#: out of the cannon's reach, the rooks screened, and rooted by its own rook.  Red's knight on
#: h4 attacks the cannon on g6, but after 炮３平５ black answers 马二进三 by taking the knight
#: on e3 (or the red rook).
ROOK_SCREEN = Lift(
    {
        "e9": "k", "d7": "a", "e8": "a", "c9": "r", "a8": "n", "c6": "c", "g6": "c", "e5": "p",
        "e0": "K", "e1": "A", "d0": "A", "h4": "N", "e3": "N", "c2": "R",
    },
    ("c6e6", "e3c4"),
    {"parry": "c4", "left": "c2", "taker": "c9", "capture": "h4g6"},
)  # fmt: skip


def _oriented(lift: Lift, files: bool, sides: bool) -> tuple[str, Lift]:
    """``lift`` mirrored left to right (``files``) and/or with the colours swapped and the
    board turned over (``sides``: black parries red's attack), and its FEN with the attacker to
    move."""

    def square(name: str) -> str:
        file, rank = name[0], int(name[1])
        if files:
            file = FILE_NAMES[8 - FILE_NAMES.index(file)]
        return f"{file}{9 - rank if sides else rank}"

    def move(text: str) -> str:
        return square(text[:2]) + square(text[2:])

    pieces = {square(s): p.swapcase() if sides else p for s, p in lift.pieces.items()}
    squares = {k: move(v) if len(v) == 4 else square(v) for k, v in lift.squares.items()}
    attack, parry = (move(m) for m in lift.moves)
    return make_fen(pieces, "w" if sides else "b"), Lift(pieces, (attack, parry), squares)


#: (files, sides) for :func:`_oriented`, and their test ids.
ORIENTATIONS = {
    "as-built": (False, False),
    "mirrored": (True, False),
    "colours-swapped": (False, True),
    "mirrored-colours-swapped": (True, True),
}
LIFTS = pytest.mark.parametrize(
    ("lift", "files", "sides"),
    [(lift, *flags) for lift in (ROOT_FORK, ROOK_SCREEN) for flags in ORIENTATIONS.values()],
    ids=[f"{name}-{o}" for name in ("fork", "screen") for o in ORIENTATIONS],
)


@LIFTS
def test_p4_a_parry_is_not_credited_with_a_capture_the_lift_hands_the_opponent(
    lift: Lift, files: bool, sides: bool
) -> None:
    """P4 (CXA.md §5.6: lifting the moved piece off the board "must not hand the opponent an
    answer that P2 would discard anyway (a capture of a piece the lift left undefended)"), with
    P1.1.  The opponent's move attacks; the parry is what makes a knight's capture of a cannon
    pay (ROOT_FORK 马三进二, ROOK_SCREEN 马二进三), but the parrying knight takes no part in that
    capture: it only roots (ROOT_FORK) or screens (ROOK_SCREEN) a piece of its own, so that
    the opponent's counter-capture no longer pays.  P1 asks "does it take part?" by lifting the
    knight and searching the capture's line again: with the knight gone, the cannon on a6
    (ROOT_FORK) or the rook on c2 (ROOK_SCREEN) hangs, and the opponent's rook taking it wins
    on its own: the opponent's own chase (P2), no answer to the line.  The gain stands without
    the knight: the parry is 闲.

    The naive reading nets the capture that the lift hands the opponent: without the knight the
    gain shrinks (ROOT_FORK: a cannon for a cannon, an even trade; ROOK_SCREEN: a rook lost for
    a cannon, no gain at all), the knight is credited with taking part, and the parry is
    labelled 捉.  Both shapes give 捉 when the lifted probe of ``labels._takes_part`` is built
    with ``counters=False`` (nothing left out of the line); ROOK_SCREEN, where a rook takes a
    rook, also gave 捉 before P4 (a same-type capture was never the opponent's own chase, so
    P2 did not leave it out).  Mirrored left to right and with the colours swapped, the
    same."""
    fen, oriented = _oriented(lift, files, sides)
    attack, parry = oriented.moves
    assert label_after(fen, attack).label == "捉"  # the attack that the next move parries
    label = label_after(fen, f"{attack} {parry}")
    assert label.label == "闲"
    assert not label.gains
    assert "parries" in label.note


@LIFTS
def test_p4_the_lift_decides_the_parry(lift: Lift, files: bool, sides: bool) -> None:
    """The positions of the test above have the shape that makes the label depend on the lift
    alone: after the parry the capture is a new gain of a whole cannon (with no attack before
    it, the same move in the same position is a 捉: 断根, P1.3), and the capture's line does
    not name the knight; with the knight lifted, the opponent's capture of the piece it leaves
    undefended wins on its own (so P2 leaves it out, and the gain stands), and netting that
    capture, as the naive reading does, would leave less than the gain, which P1 reads as the
    knight taking part."""
    fen, oriented = _oriented(lift, files, sides)
    attack, parry = oriented.moves
    capture = Move.from_iccs(oriented.squares["capture"])
    knight, left, taker = (sq(oriented.squares[k]) for k in ("parry", "left", "taker"))

    board = Board(fen)
    board.push_iccs(attack)
    no_history = Board(board.fen())  # the same position, with no attack before the move
    label = cxa.classify_move(no_history, Move.from_iccs(parry))
    assert label.label == "捉"
    (gain,) = label.gains
    assert gain.line == (capture,)
    assert gain.value == search.STRONG

    board.push_iccs(parry)
    with board.passed_turn(), board.without_piece(knight):
        with board.passed_turn():  # the opponent, to move, takes what the lift left undefended
            own = search._winning_captures(board)
        assert (taker, left, board.squares[left]) in own
        lifted = search._Prober(board, strict=True)
        lifted.prepare()
        kept, _check = lifted.line(capture)
        assert kept.score == gain.value
        naive = search._Prober(board, strict=True, counters=False)
        naive.prepare()
        netted, _check = naive.line(capture)
        assert netted.moves[:1] == (Move(taker, left),)
        assert netted.score < gain.value


#: Black's rook comes from i7 to d7 and attacks the red knight on d3 (unprotected).  The black
#: knight on b8 attacks the red cannon on a6 (unprotected); red's knight on g4 attacks the
#: black cannon on h6, but after 车９平４ black answers 马三进二 by taking the knight or the
#: cannon.  Red's knight steps to b4: out of the rook's reach, and the root of the cannon on a6
#: (a knight takes the cannon, the knight on b4 takes back: even).
ROOT_TIE = Lift(
    {
        "e9": "k", "e8": "a", "f9": "a", "i7": "r", "h6": "c", "b8": "n",
        "e0": "K", "e1": "A", "d0": "A", "g4": "N", "d3": "N", "a6": "C",
    },
    ("i7d7", "d3b4"),
    {"parry": "b4", "left": "a6", "taker": "b8", "capture": "g4h6"},
)  # fmt: skip


@pytest.mark.parametrize(("files", "sides"), ORIENTATIONS.values(), ids=ORIENTATIONS)
def test_p4_a_parry_that_roots_a_piece_taken_at_even_is_not_credited(
    files: bool, sides: bool
) -> None:
    """P4 (CXA.md §5.6: "That the moved piece also defends another of its own pieces … is not
    taking part"), where the piece the parry roots may be taken at an even trade.  马六进八
    (d3-b4) parries the rook's attack and roots the cannon on a6; after it, 马三进二 (g4-h6)
    wins the cannon on h6 whatever black does.  The lift says the knight takes no part: without
    it, 马２进１ (b8-a6) wins the cannon on its own (P2), and the gain stands.  But black's
    马２进１ followed by the knight's recapture on a6 scores the same as black standing still,
    the look-ahead shows that reply on a tie (so that a line names every piece that takes part,
    参考图50), and P1 read the knight's recapture as a capture "of the line": 捉, where P4 says
    闲.  Taking back a bystander the opponent took is defending it, not taking part
    (``labels._bystander_retakes``; found by the lift tests above, docs/cxa.md under P4)."""
    fen, oriented = _oriented(ROOT_TIE, files, sides)
    attack, parry = oriented.moves
    board = Board(fen)
    board.push_iccs(attack)
    knight, left = sq(oriented.squares["parry"]), sq(oriented.squares["left"])
    board.push_iccs(parry)
    with board.passed_turn(), board.without_piece(knight):
        with board.passed_turn():
            own = search._winning_captures(board)
        assert (sq(oriented.squares["taker"]), left, board.squares[left]) in own
    board.pop()
    label = cxa.classify_move(board, Move.from_iccs(parry))
    assert label.label == "闲"


def test_p4_a_cycle_whose_parry_is_idle() -> None:
    """ROOT_FORK as a cycle under the CXA rules: 车３平１ (the fork, 捉), 马九进八 (the parry, 闲),
    车１平３ (the rook goes back and attacks the crossed pawn on c7, 捉), 马八退九 (the knight
    goes back and attacks the crossed pawn on b0, 捉), twice.  Black chases on every move (长捉)
    and red does not: black must vary, 1-0.  Read naively (the parry 捉, see above), red would
    chase on every move too, and the cycle would be a draw (both sides forbidden: '1/2-1/2',
    捉 on all eight moves)."""
    fen = make_fen(ROOT_FORK.pieces, "b")
    assert rule_cycle(fen, "c5a5 a2b4 a5c5 b4a2") == ("1-0", "捉闲捉捉捉闲捉捉")


# -- P5: 26.5 for winning material by checks ------------------------------------------------------

#: Red's crossed pawn on e5 screens the e-file; the black king on e8 defends the knight on e9.
#: Red's rook comes to e2: next, the pawn steps aside with a discovered check, the king must
#: leave the file, and the rook takes the knight (将军抽吃).  Whichever side the pawn steps to,
#: black takes it back afterwards (the pawn on d6, the knight on h4).
DISCOVERED = make_fen({"e8": "k", "e9": "n", "h4": "n", "d6": "p", "e5": "P", "a2": "R", "d0": "K"})


def test_p5_winning_by_checks_stays_a_chase_when_the_checking_pawn_is_taken_back() -> None:
    """P5 (CXA.md §5.6; 26.5 "完整互吃后价值相当或得子者，按捉" for every form of 24.3): 车九平五
    (a2-e2) threatens 兵五平四/六 (discovered check), the king steps aside, 车五进七 takes the
    knight.  Black then takes the pawn that gave the check: lost after red's first capture and
    not the capturer, it is each side taking a piece (各吃各子), a knight for a floating pawn,
    an even result, still a 捉; its target is the knight the line wins.  (Before P5: 闲, the
    even trade did not count at the end of checks.)"""
    label = cxa.classify_move(Board(DISCOVERED), Move.from_iccs("a2e2"))
    assert label.label == "捉"
    assert label.gains
    for gain in label.gains:
        assert gain.how == "checks"
        assert square_name(gain.target) == "e9"
        assert gain.value == search.EVEN_TRADE


def test_p5_what_is_given_up_before_the_first_capture_is_its_price() -> None:
    """P5 on the tally: a pawn lost before the side's first capture is the price of the gain,
    and a knight won for it is no gain (图24 送兵换马); the same pawn lost after the knight was
    won is the opponent taking one of the side's pieces (各吃各子): an even result, a gain."""
    pawn = 7  # a red pawn (the side probed is red), taken on e5 (crossed)
    knight = 4 | 8  # a black knight
    price = search._Tally().after(Move(sq("d6"), sq("e5")), pawn, False)
    price = price.after(Move(sq("e2"), sq("e9")), knight, True)
    assert (price.counter, price.score()) == (False, 0)
    after = search._Tally().after(Move(sq("e2"), sq("e9")), knight, True)
    after = after.after(Move(sq("d6"), sq("e5")), pawn, False)
    assert (after.counter, after.score()) == (True, search.EVEN_TRADE)


# -- master games whose ruling P4 or P5 changed (docs/cxa.md) ------------------------------------


def rule_cycle(fen: str, cycle: str) -> tuple[str, str]:
    """The ruling when ``cycle`` (ICCS) is played twice from ``fen`` under the CXA rules: the
    result and the side's labels, first cycle first."""
    game = Game(fen, rules="cxa")
    ruling = None
    for text in f"{cycle} {cycle}".split():
        assert ruling is None, "ruled before the cycle was played twice"
        ruling = game.push_iccs(text)
    assert ruling is not None
    return ruling.result, "".join(ruling.labels)


def test_p4_master_game_a_cannon_that_cannot_be_taken_back_is_won() -> None:
    """Hu Ronghua's games #325 (China Team Championship 1999), plies 57-65.  Red's cannon comes
    back to b9 (兑: it faces the black cannon on b2 over the red cannon on b5); black's 马３进１
    (c1-a0) takes the knight out of the red knight's reach (which answered 炮２退７ by taking
    it) and roots the cannon: 炮２退７ now wins a cannon that cannot be taken back (P4), a 捉
    on both of black's moves: 长捉, black must vary.  (Before P4: the cannons counted as
    offering an exchange, black 闲捉闲捉, a draw.)"""
    fen = "1Cbak1b2/4a4/6n1c/8p/1C7/2P3p2/P3P3P/Nc7/2nKN4/2BA1AB2 b"
    assert rule_cycle(fen, "c1a0 b9a9 a0c1 a9b9") == ("1-0", "捉闲捉兑捉闲捉兑")


def test_p5_master_game_an_even_trade_by_checks_is_a_chase() -> None:
    """Hu Ronghua's games #747 (Jin Jiao Cup 1989), plies 87-95.  Red's 马七退八 (c8-b6) gives
    the two cannons a battery: 炮九平六 checks, black's rook takes the rear cannon (the price
    of the line: lost before red's first capture), the knight takes the rook, an advisor takes
    the front cannon (lost after it: 各吃各子).  A rook for two cannons, one of them a price:
    an even result after red's capture, still a 捉 (P5).  Red 将捉将捉 against black's 闲: red
    must vary.  (Before P5: an even trade did not count at the end of checks, a draw.)"""
    fen = "3k1ab2/4a4/C3b4/1N7/c2C4p/2P6/3r2p2/9/4A4/2B1KAB2 b"
    assert rule_cycle(fen, "d9e9 b6c8 e9d9 c8b6") == ("0-1", "闲将闲捉闲将闲捉")


# -- the principal target (26.9) ------------------------------------------------------------------


def test_the_target_of_a_chase_is_not_a_piece_thrown_in_along_the_line() -> None:
    """26.9 ranks a chase by the piece it is "of": the piece the line wins.  In the IDLE
    position the knight's capture of the cannon on f6 is answered by the black rook's checks
    (车１平４ into the king's reach at the end of the searched line), and red's king takes the
    rook.  The chase is of the cannon, not of the rook thrown in, which would make it a "捉车"
    (heavy) in the mutual-chase hierarchy.  (Before issue 12 the target was the rook.)"""
    board = Board(IDLE)
    board.push_iccs("e8e9")
    label = cxa.classify_move(board, Move.from_iccs("a2b2"))
    (gain,) = label.gains
    taken = {square_name(m.to_square) for m in gain.line[::2][1:]}
    assert "d0" in taken  # the line's last capture: the king takes the rook thrown in
    assert gain.target_code & 7 == CANNON
    assert square_name(gain.target) == "f6"


# -- the node budget ------------------------------------------------------------------------------

#: A position met in a master game (Liu Dahua), black to move: its rook has just come to i6.
BUDGET = "3akc1RC/4a4/4b4/p3P3r/6b2/6B2/P8/4B4/4A4/3AK4 b"


def test_a_search_that_runs_out_keeps_the_gain_it_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    """Running out of nodes never makes a chase (docs/cxa.md), but it must not unmake a real
    one either.  Black's 车１平５ (i6-e6) takes the crossed pawn, and red's best answer, two
    rook checks and the cannon taking what black interposes, leaves an even 各吃各子 (a pawn
    for the cannon, P3 and P5): a gain of :data:`search.EVEN_TRADE` whose exact search needs
    more than :data:`search.LINE_NODES` nodes.  The null window had shown a gain; the line
    keeps it, proved again with the mate tests on a budget of its own.  (Before issue 12 the
    line was dropped: no gain.  Before P5 the advisor interposed against the second check,
    having moved in the line, did not count as taken in a 各吃各子, and the gain was 98.)"""
    first = Move.from_iccs("i6e6")
    search._MEMO.clear()
    board = Board(BUDGET)
    prober = search._Prober(board, moved=sq("i6"), strict=True)
    prober.prepare()
    found, _check = prober.line(first, alpha=0)
    assert found.score >= 1
    (gain,) = [
        g for g in search._Prober(board, moved=sq("i6"), strict=True).gains() if g.line[0] == first
    ]
    assert gain.bounded  # a lower bound, told as such in the explanation

    default = search.LINE_NODES
    monkeypatch.setattr(search, "LINE_NODES", 100_000)
    search._MEMO.clear()
    exact = search._Prober(board, moved=sq("i6"), strict=True)
    exact.prepare()
    value, _check = exact.line(first, alpha=0)
    assert value.score == search.EVEN_TRADE  # the gain is real
    assert 100_000 - exact.budget.left > default  # and its exact search needs more nodes
