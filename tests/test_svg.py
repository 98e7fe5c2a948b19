"""Pictures of boards and rulings (xqadj.svg), the referee's cycle steps they are drawn from, and
``xqadj show``; the browser test is tests/test_report_browser.py."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xqadj import svg
from xqadj.board import RED, Board, Move, square_name
from xqadj.cli import main as cli_main
from xqadj.referee import Game, Reason, Ruling, cycle_start, cycle_steps
from xqadj.rules.axf import classify_move

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[1]
D22_FEN = "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w"
D22_MOVES = "b3b2 f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2".split()
CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff]")


def parse(text: str) -> ET.Element:
    """The SVG as XML: this fails on a picture that is not well-formed."""
    return ET.fromstring(text)


def pieces(root: ET.Element) -> dict[str, str]:
    """``{square: FEN letter}`` as drawn."""
    return {
        g.get("data-square", ""): g.get("data-piece", "")
        for g in root.iter(f"{SVG}g")
        if "piece" in (g.get("class") or "").split()
    }


def arrows(root: ET.Element) -> list[tuple[str, str, str]]:
    return [
        (g.get("data-kind", ""), g.get("data-from", ""), g.get("data-to", ""))
        for g in root.iter(f"{SVG}g")
        if "arrow" in (g.get("class") or "").split()
    ]


def marks(root: ET.Element) -> list[tuple[str, str]]:
    """``(kind, square)`` of each ring drawn, in order."""
    return [
        (c.get("data-kind", ""), c.get("data-square", ""))
        for c in root.iter(f"{SVG}circle")
        if "mark" in (c.get("class") or "").split()
    ]


def translate(root: ET.Element, square: str) -> tuple[float, float]:
    for g in root.iter(f"{SVG}g"):
        if g.get("data-square") == square and "piece" in (g.get("class") or ""):
            x, y = re.findall(r"[-\d.]+", g.get("transform", ""))
            return float(x), float(y)
    raise AssertionError(f"no piece drawn on {square}")


def ruled(fen: str, moves: list[str], rules: str = "axf") -> tuple[Game, Ruling]:
    game = Game(fen, rules=rules)
    ruling = None
    for text in moves:
        ruling = game.push_iccs(text)
    assert ruling is not None
    return game, ruling


# -- the board ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        D22_FEN,
        "3k5/9/9/9/9/9/9/9/9/R3K4 b",
    ],
)
@pytest.mark.parametrize("flipped", [False, True])
def test_every_piece_is_drawn_on_its_square(fen: str, flipped: bool) -> None:
    board = Board(fen)
    root = parse(svg.board(board, flipped=flipped))
    expected = {
        square_name(sq): piece.symbol()
        for sq in range(90)
        if (piece := board.piece_at(sq)) is not None
    }
    assert pieces(root) == expected


def test_red_is_at_the_bottom_unless_flipped() -> None:
    board = Board()
    plain, flipped = parse(svg.board(board)), parse(svg.board(board, flipped=True))
    # a0 (Red's rook) bottom left; flipped, top right.  e9 (Black's king) top centre / bottom.
    assert translate(plain, "a0") == (svg.MARGIN, svg.MARGIN + 9 * svg.CELL)
    assert translate(flipped, "a0") == (svg.MARGIN + 8 * svg.CELL, svg.MARGIN)
    assert translate(plain, "e9")[1] < translate(plain, "e0")[1]
    assert translate(flipped, "e9")[1] > translate(flipped, "e0")[1]


def test_pieces_carry_the_traditional_characters_in_the_sides_colours() -> None:
    root = parse(svg.board(Board()))
    seen = {}
    for g in root.iter(f"{SVG}g"):
        if "piece" in (g.get("class") or "").split():
            text = g.find(f"{SVG}text")
            assert text is not None
            seen[g.get("data-piece")] = (text.text, text.get("fill"))
    assert seen["K"] == ("帥", svg.COLORS["red"]) and seen["k"] == ("將", svg.COLORS["black"])
    assert {seen[p][0] for p in "KABNRCP"} == set("帥仕相傌俥炮兵")
    assert {seen[p][0] for p in "kabnrcp"} == set("將士象馬車砲卒")


def test_letters_draw_no_cjk_text_at_all() -> None:
    """The font-independent fallback: nothing that needs a CJK font, not even the river."""
    text = svg.board(Board(), letters=True)
    assert not CJK.search(text)
    root = parse(text)
    letters = {
        g.get("data-piece"): g.find(f"{SVG}text").text  # type: ignore[union-attr]
        for g in root.iter(f"{SVG}g")
        if "piece" in (g.get("class") or "").split()
    }
    assert letters["N"] == letters["n"] == "H" and letters["B"] == "E" and letters["K"] == "K"
    # The CJK drawing does use CJK, so the test above can fail.
    assert CJK.search(svg.board(Board()))


def test_coordinates() -> None:
    iccs = parse(svg.board(Board(None)))
    labels = [t.text for t in iccs.iter(f"{SVG}text") if t.text]
    assert all(labels.count(f) == 2 for f in "abcdefghi")
    assert all(labels.count(str(r)) == 2 for r in range(10))
    chinese = svg.board(Board(None), coordinates="chinese")
    for numeral in "一二三四五六七八九123456789":
        assert f">{numeral}</text>" in chinese
    none = parse(svg.board(Board(None), coordinates=None))
    assert not [t for t in none.iter(f"{SVG}text") if t.text and t.text in "abcdefghi"]
    with pytest.raises(ValueError):
        svg.board(Board(), coordinates="wxf")


def test_chinese_coordinates_follow_each_side() -> None:
    """Red's 一 is file i (Red's right), Black's 1 is file a (Black's right)."""
    root = parse(svg.board(Board(None), coordinates="chinese"))
    where = {t.text: (float(t.get("x", 0)), float(t.get("y", 0))) for t in root.iter(f"{SVG}text")}
    assert where["一"][0] == svg.MARGIN + 8 * svg.CELL and where["一"][1] > svg.BOARD_HEIGHT / 2
    assert where["1"][0] == svg.MARGIN and where["1"][1] < svg.BOARD_HEIGHT / 2
    flipped = parse(svg.board(Board(None), coordinates="chinese", flipped=True))
    where = {
        t.text: (float(t.get("x", 0)), float(t.get("y", 0))) for t in flipped.iter(f"{SVG}text")
    }
    assert where["一"][0] == svg.MARGIN and where["一"][1] < svg.BOARD_HEIGHT / 2


def test_arrows_and_highlights() -> None:
    board = Board()
    move = Move.from_iccs("h2e2")
    text = svg.board(
        board,
        arrows=[svg.Arrow(move.from_square, move.to_square), (0, 9), svg.Arrow(1, 2, "chase")],
        squares=[40],
        lastmove=move,
    )
    root = parse(text)
    assert arrows(root) == [("move", "h2", "e2"), ("move", "a0", "a1"), ("chase", "b0", "c0")]
    highlighted = {r.get("data-square") for r in root.iter(f"{SVG}rect") if r.get("data-square")}
    assert highlighted == {"h2", "e2", "e4"}


def test_size_sets_width_and_height() -> None:
    root = parse(svg.board(Board(), size=300))
    assert root.get("width") == "300"
    assert root.get("height") == str(round(300 * svg.BOARD_HEIGHT / svg.BOARD_WIDTH))
    assert parse(svg.board(Board())).get("width") is None


def test_piece_alone() -> None:
    root = parse(svg.piece(Board().piece_at(0), size=40))  # type: ignore[arg-type]
    assert pieces(root) == {"": "R"}


def test_board_repr_svg_for_notebooks() -> None:
    board = Board()
    board.push_iccs("h2e2")
    root = parse(board._repr_svg_())
    assert len(pieces(root)) == 32
    highlighted = {r.get("data-square") for r in root.iter(f"{SVG}rect") if r.get("data-square")}
    assert highlighted == {"h2", "e2"}


def test_the_core_does_not_import_the_drawing_code() -> None:
    code = "import sys, xqadj; xqadj.Board(); print('xqadj.svg' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr


@settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.data())
def test_property_any_position_is_drawn_and_flipping_turns_it_half_round(
    data: st.DataObject,
) -> None:
    """For positions of random play: the picture has exactly the board's pieces, and the
    flipped picture puts each one at the point opposite through the board's centre."""
    board = Board()
    for _ in range(data.draw(st.integers(0, 80), label="plies")):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(moves[data.draw(st.integers(0, len(moves) - 1))])
    last = board.move_stack[-1] if board.move_stack else None
    plain = parse(svg.board(board, lastmove=last))
    flipped = parse(svg.board(board, flipped=True, coordinates="chinese"))
    expected = {
        square_name(sq): piece.symbol()
        for sq in range(90)
        if (piece := board.piece_at(sq)) is not None
    }
    assert pieces(plain) == pieces(flipped) == expected
    for square in expected:
        x, y = translate(plain, square)
        assert translate(flipped, square) == (svg.BOARD_WIDTH - x, svg.BOARD_HEIGHT - y)


# -- the referee's cycle steps -------------------------------------------------------------------


def axf_cases() -> list[dict[str, str]]:
    with open(ROOT / "tests" / "data" / "axf-cases.tsv", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def test_cycle_start_is_the_first_occurrence_of_the_repeated_position() -> None:
    game, ruling = ruled(D22_FEN, D22_MOVES)
    start = cycle_start(game.board, ruling)
    assert start.fen() == Board(D22_FEN).fen() and start.ply == 0
    assert start.zobrist_hash() == game.board.zobrist_hash()
    assert game.board.ply == 8  # a copy: the game's board is left as it was


def test_cycle_steps_of_every_rulebook_case_agree_with_the_classification() -> None:
    """Each step's chases are the classification's victims (squares after the move) and its
    checks the pieces that attack the king after the move, which is a check exactly when the
    classification says so."""
    cases = [c for c in axf_cases() if c.get("moves")]
    assert len(cases) > 100
    for case in cases:
        game = Game(case["fen"])
        ruling = None
        for text in case["moves"].split():
            ruling = game.push_iccs(text)
            if ruling is not None:
                break
        if ruling is None or not ruling.cycle:
            continue
        steps = cycle_steps(game.board, ruling)
        work = cycle_start(game.board, ruling)
        assert [s.move for s in steps] == list(ruling.cycle)
        for step in steps:
            expected = classify_move(work, step.move)
            assert step.color == work.turn
            work.push(step.move)
            assert step.chases == expected.victims, case
            assert bool(step.checks) == expected.check, case
            king = work.king_squares[work.turn]
            assert all(t.victim == king and work.piece_at(t.attacker) for t in step.checks)
            assert step.label == ("将" if expected.check else "捉" if expected.victims else "闲")


def test_cycle_steps_under_cxa_carry_the_rulings_labels() -> None:
    game, ruling = ruled(D22_FEN, D22_MOVES, rules="cxa")
    steps = cycle_steps(game.board, ruling)
    assert tuple(s.label for s in steps) == ruling.labels
    # Red's cannon chases the rook (b2 → f2, b3 → f3): the pieces the look-ahead wins.
    red = [(square_name(t.attacker), square_name(t.victim)) for t in steps[0].chases]
    assert red == [("b2", "f2")]


# -- the ruling drawn --------------------------------------------------------------------------


def test_ruling_picture_of_d22() -> None:
    game, ruling = ruled(D22_FEN, D22_MOVES)
    text = svg.ruling(game.board, ruling)
    root = parse(text)
    # The cycle is the same four moves played twice: drawn once, after the start position.
    assert arrows(root) == [
        ("move", "b3", "b2"),
        ("chase", "b2", "f2"),
        ("move", "f2", "f3"),
        ("move", "b2", "b3"),
        ("chase", "b3", "f3"),
        ("move", "f3", "f2"),
    ]
    panels = [g for g in root.iter(f"{SVG}g") if "panel" in (g.get("class") or "").split()]
    assert len(panels) == 5
    assert [("offender" in (g.get("class") or "")) for g in panels] == [
        False, True, False, True, False
    ]  # fmt: skip
    words = " ".join(t.text or "" for t in root.iter(f"{SVG}tspan"))
    assert "Perpetual chase 长捉: Red loses, 0-1 (art.15, AXF rules, ply 8)" in words
    assert "炮八退一" in words and "捉 chase" in words and "闲 idle" in words
    assert "perpetual-chase (art.15)" in words  # the explanation


def test_ruling_picture_of_a_mixed_cycle_draws_every_move() -> None:
    """A cycle whose halves differ is drawn move by move, all of it."""
    game = Game("3k5/9/9/9/9/9/9/9/9/R4K3 w")
    moves = "a0a1 d9e9 a1a0 e9d9 a0b0 d9e9 b0a0 e9d9".split()
    ruling = None
    for text in moves:
        ruling = game.push_iccs(text)
        if ruling:
            break
    assert ruling is not None
    start = cycle_start(game.board, ruling)
    shown, times = svg.shown_steps(start, cycle_steps(game.board, ruling))
    assert (len(shown), times) == (len(ruling.cycle), 1)


def test_ruling_without_a_cycle_draws_the_final_position_with_its_checks() -> None:
    """A checkmate: the mating move as an arrow, the check, and a ring on the mated king."""
    game, ruling = ruled("3k5/1R7/9/9/9/9/9/9/9/R3K4 w", ["a0a9"])
    assert ruling.reason is Reason.CHECKMATE and ruling.offender != RED
    root = parse(svg.ruling(game.board, ruling))
    assert arrows(root) == [("move", "a0", "a9"), ("check", "a9", "d9")]
    assert marks(root) == [("check", "d9")]


def test_a_ruling_with_letters_keeps_cjk_to_its_explanation() -> None:
    game, ruling = ruled(D22_FEN, D22_MOVES)
    root = parse(svg.ruling(game.board, ruling, letters=True, coordinates="chinese"))
    outside = [
        "".join(element.itertext())
        for element in root
        if element.tag == f"{SVG}text" and element.get("class") != "explanation"
    ] + ["".join(g.itertext()) for g in root.iter(f"{SVG}g")]
    assert outside and not any(CJK.search(text) for text in outside)
    explanation = [e for e in root if e.get("class") == "explanation"]
    assert len(explanation) == 1 and "长捉" in "".join(explanation[0].itertext())


# -- marks and arrows that hide nothing -----------------------------------------------------------


def panel_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "panel" in (g.get("class") or "").split()]


def test_rings_on_the_chased_piece_on_every_panel() -> None:
    """D22: Red's cannon chases the rook on f2/f3; the rook is ringed on each picture, where it
    stands, also on Black's moves (it is the piece ruled chased on every move)."""
    game, ruling = ruled(D22_FEN, D22_MOVES)
    root = parse(svg.ruling(game.board, ruling))
    assert [marks(panel) for panel in panel_groups(root)] == [
        [("chase", "f2")],
        [("chase", "f2")],
        [("chase", "f3")],
        [("chase", "f3")],
        [("chase", "f2")],
    ]


def test_rings_on_the_checked_king() -> None:
    """WXF diagram 1: Red's rook checks on every move, and Black's king chases it back with a
    cannon's help: each picture after a check rings Black's king where it stands, and every
    picture the rook, chased on every one of Black's moves."""
    game, ruling = ruled(
        "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w", "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9".split()
    )
    root = parse(svg.ruling(game.board, ruling))
    rings = [marks(panel) for panel in panel_groups(root)]
    assert rings == [
        [("chase", "h8")],
        [("check", "f9"), ("chase", "h9")],
        [("chase", "h9")],
        [("check", "f8"), ("chase", "h8")],
        [("chase", "h8")],
    ]


def head_points(root: ET.Element) -> list[tuple[ET.Element, list[tuple[float, float]]]]:
    found = []
    for g in root.iter(f"{SVG}g"):
        if "arrow-head" in (g.get("class") or "").split():
            for polygon in g.iter(f"{SVG}polygon"):
                numbers = [float(n) for n in re.findall(r"[-\d.]+", polygon.get("points", ""))]
                found.append((g, list(zip(numbers[::2], numbers[1::2], strict=True))))
    return found


def centre(square: str, flipped: bool = False) -> tuple[float, float]:
    sq = "abcdefghi".index(square[0]) + 9 * int(square[1])
    return svg._point(sq, flipped)


def test_arrows_end_at_the_edge_of_the_disc_and_pass_under_the_pieces() -> None:
    """D22's chase b2 → f2 passes under the cannon's screen on e2: the shaft is drawn before
    the pieces, the head after them, its tip on the edge of the rook's disc and no point of it
    over the screen's character."""
    game, ruling = ruled(D22_FEN, D22_MOVES)
    position = cycle_start(game.board, ruling)
    position.push(ruling.cycle[0])
    text = svg.board(position, arrows=[svg.Arrow(Move.from_iccs("b2f2").from_square, 23, "chase")])
    root = parse(text)
    order = [
        (g.get("class") or "").split()[0] for g in root if g.tag in (f"{SVG}g", f"{SVG}use")
    ]
    assert order.index("arrow") < order.index("piece") < order.index("arrow-head")
    ((group, points),) = head_points(root)
    assert (group.get("data-from"), group.get("data-to")) == ("b2", "f2")
    tip = points[0]
    fx, fy = centre("f2")
    assert abs(((tip[0] - fx) ** 2 + (tip[1] - fy) ** 2) ** 0.5 - (svg.DISC + 1)) < 0.2
    ex, ey = centre("e2")  # the screen
    assert all(((x - ex) ** 2 + (y - ey) ** 2) ** 0.5 >= svg.CELL / 4 for x, y in points)
    line = next(root.iter(f"{SVG}line"))
    bx, _ = centre("b2")
    assert float(line.get("x1", 0)) - bx >= svg.DISC  # it starts off the cannon's disc


@settings(
    max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.data())
def test_property_no_arrow_head_covers_a_character(data: st.DataObject) -> None:
    """For positions of random play with every legal move drawn as an arrow: no point of a
    head comes within a quarter of a line's spacing of a piece's centre (where its character
    is), and a head ending on a piece has its tip on the edge of the disc."""
    board = Board()
    for _ in range(data.draw(st.integers(0, 60), label="plies")):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(moves[data.draw(st.integers(0, len(moves) - 1))])
    flipped = data.draw(st.booleans(), label="flipped")
    moves = board.legal_moves()
    root = parse(
        svg.board(
            board, arrows=[(m.from_square, m.to_square) for m in moves], flipped=flipped
        )
    )
    pieces_at = [
        svg._point(sq, flipped) for sq in range(90) if board.piece_at(sq) is not None
    ]
    heads = head_points(root)
    assert len(heads) == len(moves)
    for group, points in heads:
        for x, y in points:
            assert all(
                ((x - px) ** 2 + (y - py) ** 2) ** 0.5 >= svg.CELL / 4 - 0.1
                for px, py in pieces_at
            ), group.attrib
        hx, hy = centre(group.get("data-to", ""), flipped)
        tip = ((points[0][0] - hx) ** 2 + (points[0][1] - hy) ** 2) ** 0.5
        if any((px, py) == (hx, hy) for px, py in pieces_at):
            assert tip >= svg.DISC


def cxa_case(case_id: str) -> tuple[Game, Ruling]:
    with open(ROOT / "tests" / "data" / "cxa-cases.tsv", encoding="utf-8") as handle:
        row = next(r for r in csv.DictReader(handle, delimiter="\t") if r["id"] == case_id)
    game = Game(row["fen"], rules="cxa")
    ruling = None
    for text in row["moves"].split():
        ruling = game.push_iccs(text)
        if ruling is not None:
            break
    assert ruling is not None
    return game, ruling


def test_cxa_kill_steps_carry_a_mating_line_and_block_steps_the_blocked_check() -> None:
    """CXA 图7 (杀拦杀拦): each 杀 carries a line of checks that mates when played after the move
    with Black passing; each 拦 the check of Red's that the moved piece stands in the way of:
    legal without the blocker, not with it."""
    game, ruling = cxa_case("CXA20-F07")
    work = cycle_start(game.board, ruling)
    labels = []
    for step in cycle_steps(game.board, ruling):
        labels.append(step.label)
        work.push(step.move)
        if step.label == "杀":
            with work.passed_turn():  # the line is the mover's, played as if Black passed
                line = work.copy()
            for index, move in enumerate(step.line):
                assert line.is_legal(move), (step.move.iccs(), move.iccs())
                if index % 2 == 0:
                    assert line.gives_check(move)
                line.push(move)
            assert step.line and not line.has_legal_move()
        elif step.label == "拦":
            (blocked,) = step.line  # Red's, who is to move after Black's 拦
            assert not work.is_legal(blocked)
            with work.without_piece(step.move.to_square):
                assert work.is_legal(blocked) and work.gives_check(blocked)
    assert labels == list("杀拦杀拦杀拦杀拦")


def test_cxa_exchange_steps_carry_the_pair() -> None:
    """CXA 图29 (兑杀兑杀…): each 兑 pairs the rook moved with Black's rook facing it."""
    game, ruling = cxa_case("CXA20-F29")
    work = cycle_start(game.board, ruling)
    pairs = 0
    for step in cycle_steps(game.board, ruling):
        work.push(step.move)
        if step.label == "兑":
            assert step.pair is not None
            mine, theirs = (work.piece_at(sq) for sq in step.pair)
            assert mine is not None and theirs is not None
            assert step.pair[0] == step.move.to_square
            assert mine.piece_type == theirs.piece_type and mine.color != theirs.color
            pairs += 1
        else:
            assert step.pair is None
    assert pairs == 6


def test_cxa_pictures_draw_the_kill_line_the_block_and_the_pair() -> None:
    game, ruling = cxa_case("CXA20-F07")
    root = parse(svg.ruling(game.board, ruling))
    panels = panel_groups(root)
    kinds = [sorted({kind for kind, *_ in arrows(panel)}) for panel in panels]
    assert kinds[1] == ["kill", "move"] and kinds[2] == ["block", "move"]
    assert ("block", "h8") in marks(panels[2])  # the rook that stands in the way
    blocked = [a for a in arrows(panels[2]) if a[0] == "block"]
    assert blocked == [("block", "h0", "h9")]
    game, ruling = cxa_case("CXA20-F29")
    root = parse(svg.ruling(game.board, ruling))
    exchange = [
        (a, marks(panel))
        for panel in panel_groups(root)
        for a in arrows(panel)
        if a[0] == "exchange"
    ]
    assert exchange and all(
        {("exchange", a[1]), ("exchange", a[2])} <= set(rings) for a, rings in exchange
    )
    for group in root.iter(f"{SVG}g"):
        if (group.get("class") or "") == "arrow-head exchange":
            assert len(list(group.iter(f"{SVG}polygon"))) == 2  # a head at both ends


def test_a_ruling_picture_draws_the_board_once() -> None:
    """The ruling's boards refer to one set of definitions: the grid and each piece's face
    are drawn once, whatever the number of panels."""
    game, ruling = ruled(D22_FEN, D22_MOVES)
    text = svg.ruling(game.board, ruling)
    assert text.count('class="lines"') == 1 and text.count("<defs>") == 1
    root = parse(text)
    assert len(panel_groups(root)) == 5
    uses = [u.get("href") for u in root.iter(f"{SVG}use")]
    assert uses.count("#xq-board-iccs") == 5
    assert text.count("炮") == 1 + text.count("炮八")  # one face; the rest are move names


# -- xqadj show ----------------------------------------------------------------------------------


README_COMMAND = ["show", D22_FEN, "moves", *D22_MOVES]


def test_readme_picture_is_what_the_command_makes_today(tmp_path: Path) -> None:
    out = tmp_path / "d022.svg"
    assert cli_main([*README_COMMAND, "--svg", str(out)]) == 0
    committed = ROOT / "docs" / "images" / "d022.svg"
    assert committed.read_bytes() == out.read_bytes(), (
        "docs/images/d022.svg is stale: run the command in the README section "
        "'Pictures of rulings' again"
    )
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/images/d022.svg" in readme


def test_show_prints_the_position_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["show", "startpos", "moves", "h2e2"]) == 0
    root = parse(capsys.readouterr().out)
    assert len(pieces(root)) == 32 and pieces(root)["e2"] == "C"
    assert cli_main(["show", f"fen {D22_FEN}", "--size", "200"]) == 0
    root = parse(capsys.readouterr().out)
    assert pieces(root)["b3"] == "C" and root.get("width") == "200"
    assert cli_main(["show", "startpos", "h2e2", "--letters", "--flip"]) == 0
    assert not CJK.search(capsys.readouterr().out)


def test_show_draws_a_cxa_ruling(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main([*README_COMMAND, "--rules", "cxa"]) == 0
    text = capsys.readouterr().out
    assert "CXA rules" in text and "CXA-26.9.2" in text
    assert ("chase", "f1", "f4") in arrows(parse(text))  # under CXA Black chases too


@pytest.mark.parametrize(
    "args, message",
    [
        (["show", "startpos", "moves", "h2h8"], "move 1 'h2h8': illegal move h2h8"),
        (["show", "not a fen"], "expected 10 ranks"),
        (["show", "startpos", "zz"], "move 1 'zz'"),
        (
            [*README_COMMAND, "b2b3"],
            "move 9 'b2b3' comes after the ruling (0-1 perpetual-chase at ply 8)",
        ),
    ],
)
def test_show_reports_bad_input_in_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    out = tmp_path / "x.svg"
    done = subprocess.run(
        [sys.executable, "-m", "xqadj", *args, "--svg", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.startswith("xqadj show: ")  # which command complains, as the others say
    assert len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_show_refuses_a_size_that_is_not_positive() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "xqadj", "show", "startpos", "--size", "0"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and not done.stdout
    assert "argument --size: expected a positive number of pixels, got '0'" in done.stderr


def test_show_says_when_it_cannot_write_the_file(tmp_path: Path) -> None:
    out = tmp_path / "missing" / "x.svg"
    done = subprocess.run(
        [sys.executable, "-m", "xqadj", "show", "startpos", "--svg", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr == f"xqadj show: cannot write {out}: No such file or directory\n"
