"""Reading a file in chunks (byte ranges cut at game boundaries) gives the very games that reading
it whole gives: same records, same line numbers, same problems, whatever the cut, the comments,
the variations or the encoding.  This is what makes ``--jobs`` and ``--cluster`` output the same
as one process's."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xqadj.integrations.gamefiles import GameRecord, plan_chunks, read_chunk, read_games
from xqadj.integrations.replay import Options, replay_paths, rule_game, rule_games

FEN = "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w"
FRAGMENTS = [
    '[Event "a"]',
    '[Red "胡荣华"] [Black "b"]',
    f'[FEN "{FEN}"]',
    '[FEN "rnbakab',  # no closing quote
    "",
    "   ",
    "1. h2e2 h9g7 2. h0g2",
    "1. 炮二平五 马８进７",
    "3. i0h0 {a comment",
    "that goes on 1. h2e2 [not a tag]",
    '  [Event "inside a comment?"]',
    "} 4. b0c2",
    "(1... b9c7 2. h0g2",
    ") i9h9",
    "1-0",
    "*",
    "=====",
    "% an escape line",
    "; a rest-of-line comment {",
    "b3b2 f2f3 b2b3 f3f2",
]


def chunked(path: Path, chunk_bytes: int) -> list[GameRecord]:
    """The games of every chunk, renumbered as replay_paths renumbers them."""
    records: list[GameRecord] = []
    for chunk in plan_chunks(str(path), str(path), "pgn", chunk_bytes):
        base = len(records)
        records.extend(replace(r, index=base + r.index) for r in read_chunk(chunk))
    return records


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=40),
    chunk_bytes=st.integers(1, 120),
    codec=st.sampled_from(["utf-8", "gb18030", "utf-16", "utf-8-sig"]),
    newline=st.sampled_from(["\n", "\r\n"]),
)
def test_chunks_read_the_same_games_as_the_whole_file(
    tmp_path: Path, lines: list[str], chunk_bytes: int, codec: str, newline: str
) -> None:
    path = tmp_path / "games.pgn"
    path.write_bytes(newline.join(lines).encode(codec))
    whole = list(read_games(path))
    assert chunked(path, chunk_bytes) == whole


def test_a_chunk_boundary_inside_a_comment(tmp_path: Path) -> None:
    """The cut falls in a long comment whose lines look like move text and brackets: the chunk
    starts at the next game's tag line, not inside the comment."""
    comment = "\n".join(f"{n}. h2e2 h9g7 [see game {n}] (a) ;" for n in range(1, 40))
    text = (
        '[Event "one"]\n\n1. h2e2 h9g7 {' + comment + "\n} 2. h0g2 *\n\n"
        '[Event "two"]\n\n1. b2e2 b9c7 *\n'
    )
    path = tmp_path / "comment.pgn"
    path.write_text(text, encoding="utf-8")
    inside = text.index("20. h2e2")
    chunks = list(plan_chunks(str(path), str(path), "pgn", inside))
    assert [c.start for c in chunks] == [0, text.index('[Event "two"]')]
    assert chunks[1].first_line == text[: chunks[1].start].count("\n") + 1
    one, two = chunked(path, inside)
    assert one.moves == ("h2e2", "h9g7", "h0g2") and one.problem is None
    assert two.moves == ("b2e2", "b9c7") and two.index == 2 and two.line == 44
    assert [one, two] == list(read_games(path))


def test_replay_paths_in_chunks_equals_one_pass(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_text(
        "".join(f'[Event "g{n}"]\n\n1. h2e2 h9g7 {{note\n}} 2. h0g2 *\n\n' for n in range(50)),
        encoding="utf-8",
    )
    _, whole = replay_paths([str(path)], chunk_bytes=None)
    _, pieces = replay_paths([str(path)], chunk_bytes=100)
    one, many = list(whole), list(pieces)
    assert [o.index for o in many] == list(range(1, 51))
    assert one == many


def test_rule_games_api() -> None:
    outcomes = list(
        rule_games(
            [
                ("startpos", "h2e2 h9g7"),
                (FEN, ["b3b2", "f2f3", "b2b3", "f3f2", "b3b2", "f2f3", "b2b3", "f3f2"]),
                {"fen": None, "moves": "C2=5 H8+7", "red": "A"},
                ("startpos", "a0a5"),
            ],
            Options(explain=True),
        )
    )
    assert [o.index for o in outcomes] == [1, 2, 3, 4]
    quiet, chase, wxf, bad = outcomes
    assert quiet.ruling is None and quiet.plies == 2
    assert chase.ruling is not None and chase.ruling.reason == "perpetual-chase"
    assert chase.ruling.explanation
    assert wxf.notation == "wxf" and wxf.red == "A" and wxf.error is None
    assert bad.error is not None and bad.error.kind == "IllegalMoveError"
    assert bad.to_json()["type"] == "error"
    assert rule_game(("startpos", "")).to_json()["plies"] == 0


LINE_FRAGMENTS = [
    "startpos | h2e2 h9g7",
    f"{FEN} | b3b2 f2f3",
    "# a comment",
    "",
    "just words",
    "startpos | 炮二平五 马８进７  # trailing comment",
]


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(st.sampled_from(LINE_FRAGMENTS), min_size=1, max_size=30),
    chunk_bytes=st.integers(1, 80),
    codec=st.sampled_from(["utf-8", "utf-16"]),
)
def test_line_files_in_chunks_read_as_a_whole(
    tmp_path: Path, lines: list[str], chunk_bytes: int, codec: str
) -> None:
    path = tmp_path / "games.txt"
    path.write_bytes("\n".join(lines).encode(codec))
    whole = list(read_games(path))
    records: list[GameRecord] = []
    for chunk in plan_chunks(str(path), str(path), "lines", chunk_bytes):
        base = len(records)
        records.extend(replace(r, index=base + r.index) for r in read_chunk(chunk))
    assert records == whole
