"""The AXF/WXF repetition rules, article by article, on positions built for the purpose.

Every test sets up a legal position (:func:`fen` writes it from a piece list, so no rank is
miscounted), plays a four-move cycle twice, so that the start position occurs for the third time
at ply 8 (ply 9 when a first move leaves the start and the cycle begins after it), and asserts:

* the classification of each move of the cycle (check / chase / other, and the chase's victims as
  ``"attacker>victim"`` squares after the move), through :func:`xqadj.rules.axf.classify_move`, and
  that the referee's own classifications agree;
* that no ruling falls before the third occurrence, and the ruling that falls there.

Article numbers are those of the AXF "Detail Rules" (RULES.md §2.6), "Dn" its diagrams, "图n" the
WXF 2018 §36 examples of the seed text; the "Hard cases" are RULES.md §7's list.  Where the
library's answer differed from the rule text, the test asserted the rule text (as a strict
xfail until the library was fixed).
"""

from __future__ import annotations

from collections.abc import Iterable

from support import make_fen

from xqadj.board import BLACK, RED, Board, Move, square_name
from xqadj.referee import Game, Reason, Ruling
from xqadj.rules.axf import classify_move
from xqadj.rules.ruling import MoveClass

DRAW, RED_WINS, BLACK_WINS = "1/2-1/2", "1-0", "0-1"
CHECK, CHASE, OTHER = "check", "chase", "other"
IDLE: tuple[str, frozenset[str]] = (OTHER, frozenset())

# --- helpers ------------------------------------------------------------------------------


def fen(spec: str, side: str = "w") -> str:
    """FEN from ``"K e0 R h8 k f9"``: a piece letter (upper case Red) and its ICCS square."""
    tokens = spec.split()
    pieces: dict[str, str] = {}
    for letter, name in zip(tokens[::2], tokens[1::2], strict=True):
        assert name not in pieces, f"two pieces on {name}"
        pieces[name] = letter
    return make_fen(pieces, side)


def victims(cls: MoveClass) -> frozenset[str]:
    return frozenset(f"{square_name(t.attacker)}>{square_name(t.victim)}" for t in cls.victims)


def chase(*pairs: str) -> tuple[str, frozenset[str]]:
    return (CHASE, frozenset(pairs))


def check(*pairs: str) -> tuple[str, frozenset[str]]:
    return (CHECK, frozenset(pairs))


def play(
    start: str, cycle: str, lead: Iterable[str] = (), reps: int = 2
) -> tuple[list[MoveClass], Ruling]:
    """Play ``lead`` then ``cycle`` ``reps`` times; return the classes of the first pass of the
    cycle and the ruling, which must fall on the last move and not before."""
    lead, moves = list(lead), cycle.split()
    sequence = lead + moves * reps
    board, game = Board(start), Game(start)
    classes: list[MoveClass] = []
    ruling = None
    for ply, text in enumerate(sequence, 1):
        move = Move.from_iccs(text)
        assert board.is_legal(move), f"{text} is illegal in {board.fen()}"
        if len(lead) < ply <= len(lead) + len(moves):
            classes.append(classify_move(board, move))
        board.push(move)
        assert ruling is None, f"ruled {ruling} before ply {len(sequence)}"
        ruling = game.push_iccs(text)
    assert ruling is not None, f"no ruling at ply {len(sequence)}"
    assert ruling.ply == len(sequence)
    # The referee classifies the cycle the same way as classify_move does move by move.
    assert [c.kind for c in ruling.classifications[: len(moves)]] == [c.kind for c in classes]
    return classes, ruling


def assert_classes(
    classes: list[MoveClass], expected: list[tuple[str, frozenset[str] | None]]
) -> None:
    got = [(c.kind, victims(c)) for c in classes]
    for index, ((kind, want), (got_kind, got_victims)) in enumerate(
        zip(expected, got, strict=True), 1
    ):
        assert got_kind == kind, f"move {index}: {got}"
        if want is not None:
            assert got_victims == want, f"move {index}: {got}"


def assert_ruling(ruling: Ruling, result: str, reason: str) -> None:
    assert (ruling.result, ruling.reason) == (result, Reason(reason)), ruling.explain()
    if result == DRAW:
        assert ruling.offender is None
    else:
        assert ruling.offender == (RED if result == BLACK_WINS else BLACK)
    text = ruling.explain()
    assert result in text and text.strip()


def mates(board: Board) -> set[str]:
    """The moves that mate at once, for the side to move."""
    found = set()
    for move in board.legal_moves():
        board.push(move)
        if board.is_checkmate():
            found.add(move.iccs())
        board.pop()
    return found


def mate_threats(board: Board) -> set[str]:
    """The mates in one the side that just moved would have if its opponent passed."""
    return mates(Board(f"{board.board_fen()} {'b' if board.turn == RED else 'w'}"))


def positions(start: str, cycle: str) -> list[Board]:
    """The boards after each move of one pass of ``cycle``."""
    board, out = Board(start), []
    for text in cycle.split():
        board.push_iccs(text)
        out.append(board.copy())
    return out


# --- art. 6–8: checks --------------------------------------------------------------------


def test_art6_perpetual_check_by_one_rook_loses() -> None:
    """Art. 6 (D1–3): the side that checks perpetually, with one piece or several, loses."""
    classes, ruling = play(fen("K e0 R h8 k f9"), "h8h9 f9f8 h9h8 f8f9")
    assert_classes(classes, [check(), IDLE, check(), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-check")


def test_art7_mutual_perpetual_check_is_a_draw() -> None:
    """Art. 7 (D4): both sides check on every move ("resolve check and check back"): draw.

    Red's cannon checks through Black's rook; the rook blocks on e6 with a double check (rook and
    cannon e8 through it); Red's cannon blocks and uncovers the rook f0; the rook returns to block,
    uncovering the cannon e8's check through Red's cannon."""
    classes, ruling = play(fen("k f7 r f6 c e8 C e3 K e1 R f0"), "e3f3 f6e6 f3e3 e6f6")
    assert [c.kind for c in classes] == [CHECK] * 4
    assert_ruling(ruling, DRAW, "repetition")


def test_art8_two_checks_against_one_check_back_loses() -> None:
    """Art. 8 (D5; Li: 二照一还照，长照者作负): Red checks twice (cannon, then the rook by
    discovery: several pieces, art. 6), Black checks back once: Red checks perpetually and loses."""
    classes, ruling = play(fen("k f7 r f6 C e3 K e1 R f0"), "e3f3 f6e6 f3e3 e6f6")
    assert_classes(classes, [check(), check(), check(), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-check")


# --- art. 9–14: mate threats, and checks mixed with other moves ---------------------------


def test_art9_perpetual_mate_threat_is_a_draw() -> None:
    """Art. 9 (D6–9): perpetually threatening mate is allowed, even when the other side can only
    move its king away.  Each rook move threatens mate in one; each king step parries it."""
    start, cycle = fen("a d9 a e8 k d7 b g5 R f8 R e1 K f0"), "f8f6 d7d8 f6f8 d8d7"
    after = positions(start, cycle)
    assert "f6d6" in mate_threats(after[0]) and "e1d1" in mate_threats(after[2])
    assert not mates(after[1]) and not mates(after[3])  # the king steps parry
    classes, ruling = play(start, cycle)
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_art10_resolve_kill_and_kill_back_is_a_draw() -> None:
    """Art. 10 (D10): "resolve threatening to checkmate and threatening to checkmate back": draw.

    Red's knight blocks the black rook's mating line on rank 4 and, by cutting the rook's way to
    e4, makes Rd1-e1 mate; Black's rook steps to rank 6, where it can interpose and threatens
    Ra6-f6 mate; the knight blocks rank 6 on d6 and renews the threat; and so on."""
    start, cycle = fen("c d7 k e7 N d6 r a4 K f2 R d1"), "d6c4 a4a6 c4d6 a6a4"
    board = Board(start)
    assert not mates(board) and "a4f4" in mate_threats(board)  # Black threatens
    for index, after in enumerate(positions(start, cycle), 1):
        assert mate_threats(after), f"move {index} threatens mate"
        assert not mates(after), f"move {index} parries the threat against it"
    classes, ruling = play(start, cycle)
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_art11_one_check_one_kill_is_a_draw() -> None:
    """Art. 11 [R] (D11–12, 一将一杀): a check, then a mate threat (Rc6-d6 mate): draw."""
    start, cycle = fen("k d9 a f9 P f8 a f7 R c6 K f1"), "c6c9 d9d8 c9c6 d8d9"
    assert "c6d6" in mate_threats(positions(start, cycle)[2])
    classes, ruling = play(start, cycle)
    assert_classes(classes, [check(), IDLE, IDLE, IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_art12_one_check_one_chase_is_a_draw() -> None:
    """Art. 12 (D13): "one check one chase" is a draw: the rook checks from f4, then attacks the
    unprotected knight a7 from a4, and so on."""
    classes, ruling = play(fen("K d0 k f9 n a7 R a4"), "a4f4 f9e9 f4a4 e9f9")
    assert_classes(classes, [check(), IDLE, chase("a4>a7"), IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_art13_one_check_one_idle_is_a_draw() -> None:
    """Art. 13 (D14–16): "one check one idle" is a draw."""
    classes, ruling = play(fen("K d0 k f9 R a4"), "a4f4 f9e9 f4a4 e9f9")
    assert_classes(classes, [check(), IDLE, IDLE, IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_art14_knight_alternately_checks_and_chases_a_rook_is_a_draw() -> None:
    """Art. 14 [R] (D17, "alternate check and chase"): a knight that checks from e7 and attacks
    the rook i7 from g6, in turn, is not perpetual: draw."""
    classes, ruling = play(fen("K e0 k d9 N g6 r i7"), "g6e7 d9d8 e7g6 d8d9")
    assert_classes(classes, [check(), IDLE, chase("g6>i7"), IDLE])
    assert_ruling(ruling, DRAW, "repetition")


# --- art. 15–18: cannons and rooks ---------------------------------------------------------


def test_art15_cannon_chases_protected_rook() -> None:
    """Art. 15 (D18–25): a cannon may not perpetually chase a rook, even a protected one (the
    rooks a7/a6 are protected by the rook a9)."""
    classes, ruling = play(fen("K e0 k f9 r a9 r a7 p c7 p c6 C e6"), "e6e7 a7a6 e7e6 a6a7")
    assert_classes(classes, [chase("e7>a7"), IDLE, chase("e6>a6"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art15_rook_replies_attacking_two_pieces_do_not_excuse_the_cannon() -> None:
    """Art. 15: "... or both of the rook's reacting moves are attacking an unprotected piece":
    the rook's flights attack the pawns d6 and c7 in turn (one piece chasing two, art. 32), the
    cannon still chases the one rook: Red loses."""
    classes, ruling = play(fen("K e0 k f9 r a7 P c7 P d6 C e6"), "e6e7 a7a6 e7e6 a6a7")
    assert_classes(classes, [chase("e7>a7"), chase("a6>d6"), chase("e6>a6"), chase("a7>c7")])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art16_one_cannon_chasing_two_rooks_is_a_draw() -> None:
    """Art. 16 (D26–28): one cannon chasing two rooks in turn is a draw."""
    classes, ruling = play(fen("K e0 k f9 r a7 r a6 p c7 p c6 C e6"), "e6e7 f9f8 e7e6 f8f9")
    assert_classes(classes, [chase("e7>a7"), IDLE, chase("e6>a6"), IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_art17_rook_chases_protected_cannon_is_allowed() -> None:
    """Art. 17 (D29–31): a rook may perpetually attack a protected cannon (root: the rook a9)."""
    classes, ruling = play(fen("K e0 k f9 r a9 c a7 R e6"), "e6e7 a7a6 e7e6 a6a7")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_art17_cannon_protected_on_one_square_only_is_allowed() -> None:
    """Art. 17: "If the cannon is protected in one move and not in another, this chase is still
    allowed": the elephant c9 protects a7, not a6."""
    classes, ruling = play(fen("K e0 k f9 b c9 c a7 R e6"), "e6e7 a7a6 e7e6 a6a7")
    assert_classes(classes, [IDLE, IDLE, chase("e6>a6"), IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_art18_rook_chases_unprotected_cannon_loses() -> None:
    """Art. 18 (D32–38): a rook may not perpetually chase an unprotected cannon."""
    classes, ruling = play(fen("K e0 k f9 c a7 R e6"), "e6e7 a7a6 e7e6 a6a7")
    assert_classes(classes, [chase("e7>a7"), IDLE, chase("e6>a6"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art18_cannon_checking_back_does_not_excuse_the_rook() -> None:
    """Art. 18: "... even if the cannon ... has a check": the cannon flees to e5 with check (the
    advisor e1 its mount), the rook blocks on e3 attacking it again: Red still loses."""
    classes, ruling = play(fen("K e0 A e1 k f9 c c5 R e3"), "e3c3 c5e5 c3e3 e5c5")
    assert_classes(classes, [chase("c3>c5"), check(), chase("e3>e5"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


# --- art. 19–24 ----------------------------------------------------------------------------


def test_art19_rook_pinned_by_knight_cannot_be_chased() -> None:
    """Art. 19 (D39–41): a rook that cannot move because of the enemy knight (d8 holds the leg of
    the knight c8 aimed at the king e9) may not be perpetually chased.  Black's advisor shuttles;
    Red's cannon move uncovers the rook i8 (a rook that cannot take back: a chase, not an offer),
    and the cannon's return attacks d8 through the advisor.  The held rook's attack on the knight
    c8 stands; the advisor leaving e8 takes away the knight's only root, the cannon h8 behind the
    rook on rank 8 and aimed at it through e8: a defence, not a chase (docs/rulings.md D-2)."""
    start = fen("k e9 a e8 a f9 b g9 r d8 N c8 C h8 R i8 K e0 B e2", "b")
    classes, ruling = play(start, "e8d9 h8h9 d9e8 h9h8")
    assert_classes(classes, [IDLE, chase("i8>d8"), IDLE, chase("h8>d8")])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art19_free_rook_attacked_by_rook_is_an_offer() -> None:
    """Art. 19/24, the negative: without the knight the rook d8 can take back, so the discovered
    rook attack is an offer (兑) and Red chases on one move of two: draw."""
    start = fen("k e9 a e8 a f9 b g9 r d8 C h8 R i8 K e0 B e2", "b")
    classes, ruling = play(start, "e8d9 h8h9 d9e8 h9h8")
    assert_classes(classes, [IDLE, IDLE, IDLE, chase("h8>d8")])
    assert_ruling(ruling, DRAW, "repetition")


def test_art20_knight_chases_protected_rook_loses() -> None:
    """Art. 20–22 [R] (D42–44: a knight chasing a rook loses): the rooks b6/b5 are protected by
    the rook b9, and a knight may not chase a rook even so."""
    classes, ruling = play(fen("K e0 k f9 r b9 r b6 N c3 P e5"), "c3d5 b6b5 d5c3 b5b6")
    assert_classes(classes, [chase("d5>b6"), IDLE, chase("c3>b5"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art21_two_pieces_chasing_one_rook_lose() -> None:
    """Art. 20–22 [R] (D45–47, "two-to-one chase"): the knight becomes the cannon's mount on a4
    (the cannon a0 attacks a7), then attacks d7 itself: two pieces chase one rook.  The rook's
    flight back to a7 attacks the cannon a0 once: Red loses."""
    classes, ruling = play(fen("K e0 k f9 r a7 C a0 N b6"), "b6a4 a7d7 a4b6 d7a7")
    assert_classes(classes, [chase("a0>a7"), IDLE, chase("b6>d7"), chase("a7>a0")])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art22_mutual_perpetual_chase_is_a_draw() -> None:
    """Art. 20–22 [R] (D48; WXF 图108, Li 乙3): both sides chase perpetually: draw.  Each side's
    knight is, in turn, the mount of one of its two cannons aimed at the same enemy knight (the
    position is symmetric under a half turn with the colours swapped)."""
    start = fen("K d0 k f9 N c5 C c1 C h7 n c7 n g4 c g8 c b2 N g2")
    classes, ruling = play(start, "c5d7 g4f2 d7c5 f2g4")
    assert_classes(classes, [chase("h7>c7"), chase("b2>g2"), chase("c1>c7"), chase("g8>g2")])
    assert_ruling(ruling, DRAW, "repetition")
    assert all(verdict.level == 1 for verdict in ruling.verdicts)


def test_art23_rook_chases_knight_that_chases_back_once_loses() -> None:
    """Art. 23 (D49–50): a rook chasing a knight that chases back only once must vary."""
    classes, ruling = play(fen("K e0 k f9 n c7 R e6"), "e6e7 c7a6 e7e6 a6c7")
    assert_classes(classes, [chase("e7>c7"), IDLE, chase("e6>a6"), chase("c7>e6")])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art24_rook_attacking_rook_is_an_offer() -> None:
    """Art. 24 (D51–52): rook against rook, each able to take the other: perpetual offer, draw."""
    classes, ruling = play(fen("K e0 k f9 r a7 R e6"), "e6e7 a7a6 e7e6 a6a7")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_art24_knight_chases_lame_knight_loses() -> None:
    """Art. 24 (D55): a knight attacking a knight that cannot take back (its leg is blocked: by
    the pawn f3 from f4, by the king d2 from d3) chases it: Red loses."""
    classes, ruling = play(fen("k f7 n f4 P f3 K d2 N e1"), "e1g2 f4d3 g2e1 d3f4")
    assert_classes(classes, [chase("g2>f4"), IDLE, chase("e1>d3"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art24_knight_attacking_free_knight_is_an_offer() -> None:
    """Art. 24, the negative: the same knights with free legs can take each other: offers, draw."""
    classes, ruling = play(fen("k f7 n f4 K d0 N e1"), "e1g2 f4d3 g2e1 d3f4")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_art24_cannon_chases_pinned_cannon_loses() -> None:
    """Art. 24 (D53–54): the cannon e6/e5 is pinned to the e-file by the rook e0 and cannot take
    back along its rank, so the cannon attacking it (through the pawns c6/c5) chases it."""
    start = fen("K d0 R e0 k e9 c e6 p c6 p c5 C a5")
    classes, ruling = play(start, "a5a6 e6e5 a6a5 e5e6")
    assert_classes(classes, [chase("a6>e6"), IDLE, chase("a5>e5"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art24_cannon_attacking_free_cannon_is_an_offer() -> None:
    """Art. 24, the negative: unpinned, the cannon can take back: offers, draw."""
    classes, ruling = play(fen("K d0 k e9 c e6 p c6 p c5 C a5"), "a5a6 e6e5 a6a5 e5e6")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


# --- art. 25–27: cannon mounts, pawns, confined rooks ---------------------------------------


def test_art25_mount_moving_chases_unprotected_knight() -> None:
    """Art. 25 (D56–58): a cannon attacking an unprotected knight chases it "even if only the
    cannon mount moves": Black's cannon blocks as a second screen, Red's pawn steps off the file
    (leaving one screen), Black's cannon steps off, Red's pawn comes back as the one screen.  The
    pawn's moves open the cannon's attack, so they chase (D71–75): Red loses."""
    classes, ruling = play(fen("K e0 k f9 C a9 c a6 P a5 n a3"), "a5b5 a6b6 b5a5 b6a6")
    assert_classes(classes, [chase("a9>a3"), IDLE, chase("a9>a3"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art25_crossed_pawn_can_be_chased() -> None:
    """Art. 25: a pawn that has crossed the river (a3, on Red's side) can be chased."""
    classes, ruling = play(fen("K e0 k f9 C a9 c a6 P a5 p a3"), "a5b5 a6b6 b5a5 b6a6")
    assert_classes(classes, [chase("a9>a3"), IDLE, chase("a9>a3"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art25_uncrossed_pawn_cannot_be_chased() -> None:
    """Art. 25 (D59 vs D60): "perpetually chasing a pawn that has NOT crossed the river is
    allowed": the same mechanism against the pawn a5 on Black's side is a draw."""
    classes, ruling = play(fen("K e0 k f9 C a9 c a8 P a7 p a5"), "a7b7 a8b8 b7a7 b8a8")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_art26_cannon_chases_protected_rook_by_moving_mount() -> None:
    """Art. 26 (D61–62): a cannon attacking a rook, protected or not (the knight b1 protects a3),
    chases it even when only the mount moves.  (Black's cannon leaving a6 uncovers the rook a3's
    attack on the cannon a9: one chase, not perpetual.)"""
    start = fen("K e0 k f9 C a9 c a6 P a5 r a3 n b1")
    classes, ruling = play(start, "a5b5 a6b6 b5a5 b6a6")
    assert_classes(classes, [chase("a9>a3"), chase("a3>a9"), chase("a9>a3"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art27_rook_chases_rook_confined_by_cannon_loses() -> None:
    """Art. 27 (D63–66): the rook f5/f6 cannot leave the f-file (the cannon f1 would check
    through the cannon f8), so a rook attacking it is no offer but a chase; and the confined
    rook's moves along its file chase nothing, not even the unprotected knight i6."""
    start = fen("K e0 k f9 c f8 C f1 r f5 R a6 N i6")
    classes, ruling = play(start, "a6a5 f5f6 a5a6 f6f5")
    assert_classes(classes, [chase("a5>f5"), IDLE, chase("a6>f6"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art27_confined_rook_protected_on_one_square_is_allowed() -> None:
    """Art. 27: "If one of the moves of the confined rook is protected, this rook can be
    perpetually chased": the knight g8 protects f6."""
    start = fen("K e0 k f9 c f8 C f1 r f5 R a6 n g8")
    classes, ruling = play(start, "a6a5 f5f6 a5a6 f6f5")
    assert_classes(classes, [chase("a5>f5"), IDLE, IDLE, IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_art27_unconfined_rook_offers_and_chases() -> None:
    """Art. 27, the negative: without the cannon f1 the rook is free: the red rook's attacks are
    offers, and the black rook's move to f6 does chase the knight i6: draw."""
    start = fen("K e0 k f9 c f8 r f5 R a6 N i6")
    classes, ruling = play(start, "a6a5 f5f6 a5a6 f6f5")
    assert_classes(classes, [IDLE, chase("f6>i6"), IDLE, IDLE])
    assert_ruling(ruling, DRAW, "repetition")


# --- art. 28–31: the king and pawn licence and its exceptions ------------------------------


def test_art28_king_may_chase() -> None:
    """Art. 28 (D67): the king may chase perpetually.  The first move leaves the start; the
    cycle begins after it, so the ruling falls at ply 9."""
    start = fen("K f1 k e9 a e8 c e0")
    classes, ruling = play(start, "e0d0 e1d1 d0e0 d1e1", lead=["f1e1"])
    assert_classes(classes, [IDLE] * 4)
    assert ruling.ply == 9
    assert_ruling(ruling, DRAW, "repetition")


def test_art28_king_with_knight_may_chase() -> None:
    """Art. 28 (D68): "the king can also work with another piece": the king attacks the crossed
    pawn on e0 and d0 in turn; the knight e2 joins on d0 when the king frees its leg e1.  One
    chase and one licensed king chase: draw."""
    classes, ruling = play(fen("K d1 N e2 k f9 p e0"), "d1e1 e0d0 e1d1 d0e0")
    assert_classes(classes, [IDLE, IDLE, chase("e2>d0"), IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_art29_pawn_may_chase() -> None:
    """Art. 29 (D69–70): a pawn may chase perpetually (the cannon d6/e6)."""
    classes, ruling = play(fen("K f0 k e9 P e5 c d6"), "e5d5 d6e6 d5e5 e6d6")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_art29_pawn_and_rook_chasing_in_turn_is_allowed() -> None:
    """Art. 29 / WXF general rule 3 (hard case 5): two pieces taking turns on one piece is
    allowed when one of them is a pawn: the pawn attacks e6, then steps aside and uncovers the
    rook e1's attack on e7 (that one counts)."""
    classes, ruling = play(fen("K d0 R e1 k e9 P f5 c e6"), "f5e5 e6e7 e5f5 e7e6")
    assert_classes(classes, [IDLE, IDLE, chase("e1>e7"), IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_art30_king_move_discovering_rook_chases_loses() -> None:
    """Art. 30–31 [R] (D71–75): a king move that opens a real chase by another piece breaks the
    licence: the king steps between the rooks' ranks, uncovering a2 on i2, then a1 on g1."""
    classes, ruling = play(fen("K d2 R a1 R a2 k f9 n i2"), "d2d1 i2g1 d1d2 g1i2")
    assert_classes(classes, [chase("a2>i2"), IDLE, chase("a1>g1"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art31_pawn_move_discovering_rook_chases_loses() -> None:
    """Art. 30–31 [R] (D71–75): a pawn stepping aside uncovers a rook on the fleeing cannon each
    time.  The cannon's flights attack the rooks a0 and b0 through the pawn (two pieces: no
    perpetual chase); Red loses."""
    classes, ruling = play(fen("K e0 k f9 R a0 R b0 P a5 c a7"), "a5b5 a7b7 b5a5 b7a7")
    assert_classes(classes, [chase("a0>a7"), chase("b7>b0"), chase("b0>b7"), chase("a7>a0")])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


# --- art. 32–40 ----------------------------------------------------------------------------


def test_art32_one_piece_chasing_two_is_a_draw() -> None:
    """Art. 32 (D76–79): one piece chasing two pieces in turn: draw."""
    classes, ruling = play(fen("K e0 k f9 n a7 n a6 R e6"), "e6e7 f9f8 e7e6 f8f9")
    assert_classes(classes, [chase("e7>a7"), IDLE, chase("e6>a6"), IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_art32_two_pieces_chasing_two_is_a_draw() -> None:
    """Art. 32 (D80): two pieces chasing two pieces in turn: the cannon a0 (the knight its mount)
    attacks a7, the knight attacks the lame knight d7: draw."""
    start = fen("K e0 k f9 n a7 n d7 p c7 C a0 N b6")
    classes, ruling = play(start, "b6a4 f9f8 a4b6 f8f9")
    assert_classes(classes, [chase("a0>a7"), IDLE, chase("b6>d7"), IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_art33_two_pieces_chasing_one_in_turn_loses() -> None:
    """Art. 33 (D81–82): two pieces may not take turns chasing one piece: the knight mounts the
    cannon a0 on a7, then attacks the knight itself on c8 (lame: c7 blocks its way back)."""
    classes, ruling = play(fen("K e0 k f9 n a7 p c7 C a0 N b6"), "b6a4 a7c8 a4b6 c8a7")
    assert_classes(classes, [chase("a0>a7"), IDLE, chase("b6>c8"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art34_chasing_piece_with_pinned_root_loses() -> None:
    """Art. 34 [R] (D83–85): a pinned protector is a fake root (假根): the rook e8, pinned to the
    e-file by the rook e1, cannot retake on b8/c8."""
    classes, ruling = play(fen("K d0 R e1 k e9 r e8 c b8 R c1"), "c1b1 b8c8 b1c1 c8b8")
    assert_classes(classes, [chase("b1>b8"), IDLE, chase("c1>c8"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art34_real_root_is_allowed() -> None:
    """Art. 34, the negative: without the pin the rook e8 is a real root (真根): draw."""
    classes, ruling = play(fen("K d0 k e9 r e8 c b8 R c1"), "c1b1 b8c8 b1c1 c8b8")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_art35_two_attackers_on_protected_piece_is_a_draw() -> None:
    """Art. 35 (D86–89): two pieces attacking a protected piece is not a perpetual chase: the
    rook a0 stands on the cannon's file, the rook e7/e6 attacks it anew, the rook a9 protects."""
    classes, ruling = play(fen("K e0 k f9 r a9 c a7 R e6 R a0"), "e6e7 a7a6 e7e6 a6a7")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_art36_chase_with_exchange_offer_is_still_chase() -> None:
    """Art. 36 (D90–93): a chase that is also an offer to exchange (the rook e7/e6, protected by
    the rook e1, stands on the file of the black rook e9) is still a chase."""
    classes, ruling = play(fen("K d0 k f9 c a7 R e6 R e1 r e9"), "e6e7 a7a6 e7e6 a6a7")
    assert_classes(classes, [chase("e7>a7"), IDLE, chase("e6>a6"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_art37_attacking_the_pinning_rook_with_a_knight_is_a_chase() -> None:
    """Art. 37 [R] (D94–96): Black's rook e9 and king d9 are pinned by Red's rook and cannon on
    rank 9; Black's knight perpetually attacks the pinning rook: a perpetual chase of a rook.
    (Red's rook, fleeing back to f9, attacks the knight f7 once.)  Black loses."""
    start = fen("k d9 r e9 R f9 C h9 n f7 K f0", "b")
    classes, ruling = play(start, "f7h8 f9g9 h8f7 g9f9")
    assert_classes(classes, [chase("h8>f9"), IDLE, chase("f7>g9"), chase("f9>f7")])
    assert_ruling(ruling, RED_WINS, "perpetual-chase")


def test_art38_threat_to_check_and_capture_is_a_draw() -> None:
    """Art. 38 (D97–98): perpetually threatening to "check and capture" is a draw.  The cannon's
    move to i8 threatens Rf8xe8 with discovered check, the move back to i9 threatens Ng9xh7 with
    discovered check; the king steps out of each line."""
    start = fen("K e0 C i9 N g9 R f8 k d8 a f9 a e8 c h7 b e7 n c7")
    for after, threat in zip(
        positions(start, "i9i8 d8d9 i8i9 d9d8")[::2], ("f8e8", "g9h7"), strict=True
    ):
        probe = Board(f"{after.board_fen()} w")
        move = probe.parse_move(threat)
        assert probe.squares[move.to_square] and probe.gives_check(move)
    classes, ruling = play(start, "i9i8 d8d9 i8i9 d9d8")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_art39_perpetual_cannon_offer_is_a_draw() -> None:
    """Art. 39 [R] (D99–100, perpetual offer): the cannon keeps offering itself to the black
    cannon (each can take the other through the pawn between): draw."""
    classes, ruling = play(fen("K e0 k f9 C a4 c e5 p c5 p c4"), "a4a5 e5e4 a5a4 e4e5")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_art40_perpetual_rook_sacrifice_is_a_draw() -> None:
    """Art. 40 (D101–104): perpetually offering a piece (the rook to the knight c7): draw."""
    classes, ruling = play(fen("K e0 k f9 n c7 R d5"), "d5b5 f9f8 b5d5 f8f9")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


# --- WXF 2018 §36 examples (seed text) -----------------------------------------------------


def test_fig106_rook_sliding_along_a_standing_attack_is_no_chase() -> None:
    """图106 (hard case 1): "红进退车似每着均捉黑炮，但黑炮既不逃避，亦无别子保护之。
    红车不算长捉炮": the rook slides along the cannon's file, the attack is a standing one."""
    classes, ruling = play(fen("K e0 k f9 R h0 c h4"), "h0h1 h4h3 h1h0 h3h4")
    assert_classes(classes, [IDLE] * 4)
    assert_ruling(ruling, DRAW, "repetition")


def test_fig107_chase_and_idle_on_both_sides_is_a_draw() -> None:
    """图107: 1.马七进六 车3进2 2.马六退七 车3退2 (c2d4 c6c4 d4c2 c4c6).  The knight to the river
    chases the rook; the rook into the elephant's mouth chases the knight and offers itself
    ("重判为捉"); the knight's retreat is idle ("红相捉黑车是前面车3进2所致，责任自负": the elephant
    a2's attack on c4 was caused by Black's move); the rook's retreat is idle (the knight c2 is
    protected by the rook i2).  "双方都是一捉一闲，没犯例，双方不变作和"."""
    classes, ruling = play(fen("K e0 k f9 N c2 r c6 B a2 R i2"), "c2d4 c6c4 d4c2 c4c6")
    assert_classes(classes, [chase("d4>c6"), chase("c4>d4"), IDLE, IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_fig109_kill_and_chase_is_graded_a_chase() -> None:
    """图109: 1.马三进二 象7退5 2.马二退三 象5进7 (g6h8 g5e7 h8g6 e7g5).  Each knight move threatens
    mate (Rg8-g9 mate, then Ng6xe7 mate) and chases the elephant (the rook g8 uncovered on g5, the
    knight itself on e7); each elephant move parries.
    "属长杀兼长捉黑方7路象，从重判'捉'…红不变作负"."""
    start, cycle = fen("k d9 N c8 R g8 C i8 N g6 b g5 K e0"), "g6h8 g5e7 h8g6 e7g5"
    after = positions(start, cycle)
    assert "g8g9" in mate_threats(after[0]) and "g6e7" in mate_threats(after[2])
    assert not mates(after[1]) and not mates(after[3])  # the elephant moves parry
    classes, ruling = play(start, cycle)
    assert_classes(classes, [chase("g8>g5"), IDLE, chase("g6>e7"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_fig110_standing_cannon_attack_is_ignored() -> None:
    """图110 (hard case 1): 1.车三退一 马5进6 2.车三进一 马6退5 (g8g7 e7f5 g7g8 f5e7).  The rook's
    retreat chases the knight, its advance is idle, although the cannon a2 attacks the rook a9
    all along ("在这循环过程中不予考虑"); both knight moves attack the rook: Black loses."""
    start = fen("K e0 k d9 R g8 n e7 r a9 p a6 C a2")
    classes, ruling = play(start, "g8g7 e7f5 g7g8 f5e7")
    assert_classes(classes, [chase("g7>e7"), chase("f5>g7"), IDLE, chase("e7>g8")])
    assert_ruling(ruling, RED_WINS, "perpetual-chase")


# --- hard cases (RULES.md §7) --------------------------------------------------------------
#
# The nine AXF items of RULES.md's "Hard cases" list (the tenth is the CXA look-ahead):
#  1. new vs standing attacks: test_hard1_*, test_fig106_*, test_fig110_*, test_art25_*;
#  2. protection semantics: test_hard2_*, test_art34_*, test_d105_*; undermined roots (D105,
#     D39-41, D61: docs/rulings.md D-2) in tests/test_axf_roots.py;
#  3. victim class: test_art15_*, test_art20_*, test_elephant_chases_protected_rook,
#     test_art25_crossed_pawn_can_be_chased / _uncrossed_pawn_cannot_be_chased;
#  4. same-type offers and their exceptions: test_art24_*, test_art27_*, test_art19_*;
#  5. multi-piece logic: test_art32_*, test_art33_*, test_art21_*, test_art29_pawn_and_rook_*;
#  6. mixed moves: test_check_that_also_chases_counts_as_chase, test_fig109_*, test_art12_*,
#     test_art14_*, test_art18_cannon_checking_back_*, test_perpetual_check_against_*;
#  7. exchange or offer combined with chase: test_art36_*;
#  8. the K/P licence and its exceptions: test_art28_*, test_art29_*, test_art30_*, test_art31_*;
#  9. adjudication timing: test_hard9_*, test_art28_king_may_chase (a cycle starting at ply 1).


def test_hard1_discovered_attack_counts() -> None:
    """Hard case 1: attacks created by the move include discovered ones (art. 30: the king's
    step uncovers the rooks) and screen changes (art. 25: the pawn mount); see those tests.
    Here a plain discovered attack: the knight leaves a4 and uncovers the rook a0 on a7 (a
    chase); it comes back and blocks the file, attacking nothing: one chase, one idle, a draw."""
    classes, ruling = play(fen("K e0 k f9 n a7 p c7 R a0 N a4"), "a4b6 a7c8 b6a4 c8a7")
    assert_classes(classes, [chase("a0>a7"), IDLE, IDLE, IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_hard2_king_recapture_facing_the_other_king_is_a_fake_root() -> None:
    """Hard case 2 (docs/rulings.md D-8): the advisor e8's only root is the king f8, and Kxe8
    would face the red king down the e-file once the rook has left e3: a fake root."""
    classes, ruling = play(fen("K e0 k f8 a e8 R d3"), "d3e3 e8d9 e3d3 d9e8")
    assert_classes(classes, [chase("e3>e8"), IDLE, chase("d3>d9"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_hard2_king_recapture_with_file_blocked_is_a_real_root() -> None:
    """Hard case 2, the negative: the advisor e1 blocks the file, Kxe8 is legal: a real root, so
    the rook attacks a protected advisor on e8 and chases only on d9: draw."""
    classes, ruling = play(fen("K e0 A e1 k f8 a e8 R d3"), "d3e3 e8d9 e3d3 d9e8")
    assert_classes(classes, [IDLE, IDLE, chase("d3>d9"), IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_hard2_king_recapturing_into_check_is_a_fake_root() -> None:
    """Hard case 2: after Rxe8 the rook e1 behind it (x-ray) would check a recapturing king."""
    classes, ruling = play(fen("K e0 R e1 k f8 a e8 R d3"), "d3e3 e8d9 e3d3 d9e8")
    assert_classes(classes, [chase("e3>e8"), IDLE, chase("d3>d9"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_hard2_cannon_losing_its_mount_by_the_capture_is_a_fake_root() -> None:
    """Hard case 2 (RULES.md §2.3, protection judged after the capture): the cannon i7 "protects"
    a7 only through the red rook e7, its mount, which the capture Rxa7 removes."""
    start = fen("K e0 k f9 b g9 c a7 R e6 c i7")
    classes, ruling = play(start, "e6e7 a7a6 e7e6 a6a7")
    assert_classes(classes, [chase("e7>a7"), IDLE, chase("e6>a6"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_hard2_cannon_gaining_its_mount_by_the_capture_is_a_real_root() -> None:
    """Hard case 2: with the pawn g7 and the red rook both between, the cannon i7 cannot take on
    a7 now, but after Rxa7 the pawn alone is its mount: a real root, so only a6 is chased."""
    start = fen("K e0 k f9 b g9 c a7 R e6 c i7 p g7")
    classes, ruling = play(start, "e6e7 a7a6 e7e6 a6a7")
    assert_classes(classes, [IDLE, IDLE, chase("e6>a6"), IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_hard2_xray_root_through_the_attacker_protects() -> None:
    """Hard case 2, x-ray protection: the rook i7 stands behind the red rook e7 and retakes on a7
    through the square the capture vacates."""
    classes, ruling = play(fen("K e0 k f9 c a7 R e6 r i7"), "e6e7 a7a6 e7e6 a6a7")
    assert_classes(classes, [IDLE, IDLE, chase("e6>a6"), IDLE])
    assert_ruling(ruling, DRAW, "repetition")


def test_d105_blocking_a_root_is_a_chase() -> None:
    """Appendix D105 (docs/rulings.md D-2), a rook root from the side: "Red keeps moving its pawn
    [here: cannon] to keep the Black Knight unprotected": the rooks c0 and a0 attack the knight on
    c7 and a6 along the files; its roots are the rooks i7 and i6 along the ranks; Red's cannon
    blocks rank 7, then rank 6.  Each block turns a standing attack into a chase: Red loses.
    (The appendix position itself is in tests/test_axf_roots.py.)"""
    start = fen("K d0 k f9 R a0 R c0 n c7 r i7 r i6 C e6 P e5")
    classes, ruling = play(start, "e6e7 c7a6 e7e6 a6c7")
    assert_classes(classes, [chase("c0>c7"), IDLE, chase("a0>a6"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_elephant_chases_protected_rook() -> None:
    """Hard case 3 (docs/rulings.md D-1): an elephant attacking a protected rook chases it.  The
    elephant shuttles between e2 (attacking c4) and g4 (the cannon i4's mount on c4): if the
    elephant's attack did not count, Red would chase on one move of two and draw."""
    classes, ruling = play(fen("K d0 k f9 r c4 r c9 B e2 C i4"), "e2g4 f9f8 g4e2 f8f9")
    assert_classes(classes, [chase("i4>c4"), IDLE, chase("e2>c4"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_check_that_also_chases_counts_as_chase() -> None:
    """Hard case 6 (docs/rulings.md D-5; 图109 从重): the knight checks from c8 and, as the cannon
    i8's new mount, uncovers an attack on the knight a8; back on a7 it leaves the king as the
    mount: check+chase, chase on the same knight is a perpetual chase."""
    classes, ruling = play(fen("n a8 C i8 N a7 k e7 K f0"), "a7c8 e7e8 c8a7 e8e7")
    assert_classes(classes, [check("i8>a8"), IDLE, chase("i8>a8"), IDLE])
    assert_ruling(ruling, BLACK_WINS, "perpetual-chase")


def test_perpetual_check_against_perpetual_chase_the_checker_loses() -> None:
    """Hard case 6 (Li 1982 乙2): Red checks on every move, Black's king steps uncover its cannons
    (mounts g9, g8) on the checking rook every time (a K move opening a chase counts): the
    checker loses."""
    start = fen("K e0 k f9 R b8 c i9 b g9 c i8 n g8")
    classes, ruling = play(start, "b8b9 f9f8 b9b8 f8f9")
    assert_classes(classes, [check(), chase("i9>b9"), check(), chase("i8>b8")])
    assert_ruling(ruling, BLACK_WINS, "perpetual-check")
    assert sorted(v.level for v in ruling.verdicts) == [1, 2]


def test_hard9_the_whole_stretch_since_the_first_occurrence_is_judged() -> None:
    """Hard case 9: the start position occurs at plies 0, 4 and 8, but Red varied in the second
    loop (a quiet rook move): not every move since the first occurrence checks, so a draw."""
    start = fen("K e0 R h8 k f9")
    board, game = Board(start), Game(start)
    sequence = "h8h9 f9f8 h9h8 f8f9 h8h7 f9f8 h7h8 f8f9".split()
    for ply, text in enumerate(sequence, 1):
        board.push_iccs(text)
        ruling = game.push_iccs(text)
        assert (ruling is None) == (ply < 8)
    assert board.repetition_count() == 3
    assert ruling is not None
    kinds = [c.kind for c in ruling.classifications]
    assert kinds == [CHECK, OTHER, CHECK, OTHER, OTHER, OTHER, CHECK, OTHER]
    assert_ruling(ruling, DRAW, "repetition")


def test_hard9_a_capture_resets_the_count() -> None:
    """Hard case 9: occurrences are counted since the last capture.  Rxa5 (ply 1) opens a new
    history; the idle cycle after it brings its position back at plies 5 and 9: ruled at 9."""
    start = fen("K e0 R a0 p a5 k f9 a d9")
    classes, ruling = play(start, "d9e8 a5a4 e8d9 a4a5", lead=["a0a5"])
    assert_classes(classes, [IDLE] * 4)
    assert ruling.ply == 9 and len(ruling.cycle) == 8
    assert_ruling(ruling, DRAW, "repetition")


def test_hard9_no_ruling_before_the_third_occurrence() -> None:
    """Hard case 9: the second occurrence (ply 4) is not ruled; the game goes on; taking back the
    ruling move reopens the game."""
    start = fen("K e0 R h8 k f9")
    game = Game(start)
    moves = "h8h9 f9f8 h9h8 f8f9".split()
    assert [game.push_iccs(m) for m in moves] == [None] * 4
    assert game.board.repetition_count() == 2
    results = [game.push_iccs(m) for m in moves]
    assert results[:3] == [None] * 3 and results[3] is not None
    game.pop()
    assert game.ruling is None and game.board.repetition_count() == 2


# --- other endings ---------------------------------------------------------------------------


def test_checkmate_is_ruled() -> None:
    """Art. 1: the rook mates on a9 (the pawn e7 guards e8)."""
    game = Game(fen("K d0 R a8 P e7 k e9"))
    ruling = game.push_iccs("a8a9")
    assert ruling is not None and ruling.reason is Reason.CHECKMATE
    assert (ruling.result, ruling.offender, ruling.ply) == (RED_WINS, BLACK, 1)
    assert RED_WINS in ruling.explain()


def test_stalemate_is_a_loss() -> None:
    """Art. 2 (困毙): the pawn's step to e7 leaves Black no legal move: Black loses."""
    game = Game(fen("K e0 R d0 R f0 P e6 k e9"))
    ruling = game.push_iccs("e6e7")
    assert ruling is not None and ruling.reason is Reason.STALEMATE
    assert (ruling.result, ruling.offender) == (RED_WINS, BLACK)
    assert not game.board.is_check()
    assert RED_WINS in ruling.explain()


def test_move_limit_draws_without_capture() -> None:
    """RULES.md §2.8 (docs/rulings.md D-10): ``Game(move_limit=3)`` draws after 3 moves (6 plies)
    without a capture, and not before."""
    game = Game(fen("K e0 R a0 k f9 r i9"), move_limit=3)
    moves = "a0a1 i9i8 a1a2 i8i7 a2a3 i7i6".split()
    rulings = [game.push_iccs(m) for m in moves]
    assert rulings[:5] == [None] * 5
    final = rulings[5]
    assert final is not None and final.reason is Reason.MOVE_LIMIT
    assert (final.result, final.offender, final.ply) == (DRAW, None, 6)
