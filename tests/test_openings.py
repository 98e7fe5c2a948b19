"""Opening books (xqadj.integrations.openings): EPD/FEN lines, PGN games in three notations,
the older ``startpos|fen … moves`` lines, plies, order, start and seed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xqadj.board import STARTING_FEN, Board
from xqadj.integrations.openings import Opening, OpeningBook, OpeningsSpec, read_openings

MIDGAME = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"


def write(tmp_path: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def test_epd_lines_with_and_without_counters(tmp_path):
    path = write(
        tmp_path,
        "book.epd",
        "# a comment\n"
        f"{MIDGAME} - - 0 1\n"
        "\n"
        f"{MIDGAME}\n"
        f'{MIDGAME} - - id "central cannon";\n'
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n",
    )
    openings = read_openings(path)
    assert [o.fen for o in openings] == [MIDGAME] * 3 + [STARTING_FEN]
    assert all(o.moves == () for o in openings)


def test_older_lines_stay_readable(tmp_path):
    path = write(
        tmp_path,
        "book.txt",
        "startpos moves h2e2 h9g7\nfen " + MIDGAME + " moves h9g7\nstartpos\n",
    )
    openings = read_openings(path)
    assert openings == [
        Opening(STARTING_FEN, ("h2e2", "h9g7")),
        Opening(MIDGAME, ("h9g7",)),
        Opening(),
    ]
    assert read_openings(path, plies=1)[0].moves == ("h2e2",)
    assert [o.text() for o in openings][0] == "startpos moves h2e2 h9g7"
    assert openings[1].text() == f"fen {MIDGAME} moves h9g7"


PGN = """\
[Event "iccs"]
[Red "A"]
[Black "B"]

1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 1-0

[Event "chinese"]

1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1/2-1/2

[Event "wxf"]

1. C2=5 H8+7 2. H2+3 R9=8 0-1

[Event "dashed iccs from a fen"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1"]

1... H9-G7 2. H0-G2 *
"""


def test_pgn_games_in_every_notation(tmp_path):
    path = write(tmp_path, "book.pgn", PGN)
    openings = read_openings(path)
    assert [o.moves for o in openings[:3]] == [
        ("h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"),
        ("h2e2", "h9g7", "h0g2", "i9h9"),
        ("h2e2", "h9g7", "h0g2", "i9h9"),
    ]
    assert openings[3] == Opening(MIDGAME, ("h9g7", "h0g2"))
    assert [o.moves for o in read_openings(path, plies=2)] == [("h2e2", "h9g7")] * 3 + [
        ("h9g7", "h0g2")
    ]
    assert read_openings(path, plies=0)[0] == Opening()


def test_pgn_in_gb18030(tmp_path):
    path = write(tmp_path, "gb.pgn", "1. 炮二平五 马８进７ *\n", encoding="gb18030")
    assert read_openings(path)[0].moves == ("h2e2", "h9g7")


def test_pgn_read_by_format_whatever_the_name(tmp_path):
    path = write(tmp_path, "book.txt", PGN)
    assert len(read_openings(path, "pgn")) == 4


@pytest.mark.parametrize(
    "name,text,fmt,message",
    [
        ("bad.epd", "startpos\nnot-a-fen w\n", None, r"bad\.epd:2:"),
        ("bad.epd", "startpos moves h2e2 h2e2\n", None, r"bad\.epd:1:.*illegal"),
        ("bad.pgn", PGN + '\n[Event "x"]\n\n1. h2e2 h2e2 *\n', None, r"game 5 .*ply 2 \(h2e2\)"),
        ("bad.pgn", '[FEN "xyz w"]\n\n1. h2e2 *\n', None, r"game 1.*bad FEN"),
        ("bad.pgn", "1. 车一进十 *\n", None, r"game 1.*ply 1"),
        ("empty.epd", "# nothing\n\n", None, "no openings"),
        ("book.epd", "startpos\n", "xqf", "format"),
    ],
)
def test_bad_books_are_reported_with_their_place(tmp_path, name, text, fmt, message):
    path = write(tmp_path, name, text)
    with pytest.raises(ValueError, match=message):
        read_openings(path, fmt)


def test_missing_file(tmp_path):
    with pytest.raises(OSError):
        read_openings(tmp_path / "missing.epd")


def test_spec_parse():
    spec = OpeningsSpec.parse("file=b.pgn format=pgn order=random plies=8 start=3")
    assert spec == OpeningsSpec(Path("b.pgn"), "pgn", "random", 8, 3)
    assert OpeningsSpec.parse(["book.epd"]) == OpeningsSpec(Path("book.epd"))
    assert OpeningsSpec.parse("file=x.epd").order == "sequential"
    for bad, message in [
        ("format=pgn", "file="),
        ("file=x format=cbr", "format"),
        ("file=x order=shuffled", "order"),
        ("file=x plies=-1", "plies"),
        ("file=x plies=two", "whole number"),
        ("file=x start=0", "start"),
        ("file=x depth=3", "unknown"),
        ("file=x plies", "key=value"),
    ]:
        with pytest.raises(ValueError, match=message):
            OpeningsSpec.parse(bad)


def test_book_order_start_and_seed(tmp_path):
    lines = [f"startpos moves {m}" for m in ("h2e2", "b2e2", "c3c4", "g3g4", "b0c2", "h0g2")]
    path = write(tmp_path, "book.epd", "\n".join(lines) + "\n")
    sequential = OpeningsSpec(path, start=5).book()
    assert [sequential.opening(i).moves[0] for i in range(4)] == ["b0c2", "h0g2", "h2e2", "b2e2"]
    shuffled = [OpeningsSpec(path, order="random").book(seed=7) for _ in range(2)]
    first = [shuffled[0].opening(i) for i in range(6)]
    assert first == [shuffled[1].opening(i) for i in range(6)]  # same seed, same order
    assert sorted(o.moves for o in first) == sorted(o.moves for o in sequential.openings)
    orders = {
        tuple(OpeningsSpec(path, order="random").book(seed=s).opening(i).moves for i in range(6))
        for s in range(10)
    }
    assert len(orders) > 1  # the seed matters
    with pytest.raises(ValueError, match="start=7"):
        OpeningsSpec(path, start=7).book()


def test_empty_book_is_the_start_position():
    assert OpeningBook().opening(5) == Opening()


@given(st.lists(st.sampled_from(["h2e2", "h9g7", "h0g2", "i9h9", "b0c2"]), unique=True))
def test_opening_line_round_trips(moves):
    """An opening written as a line reads back the same (when its moves are legal)."""
    board = Board()
    legal = []
    for text in moves:
        move = board.parse_move(text) if text in {m.iccs() for m in board.legal_moves()} else None
        if move is None:
            break
        board.push(move)
        legal.append(text)
    opening = Opening(STARTING_FEN, tuple(legal))
    assert Opening.parse(opening.text()) == opening
