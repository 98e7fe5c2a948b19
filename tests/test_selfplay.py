"""The self-play corpus (``tests/data/selfplay/``): Fairy-Stockfish against itself from master
openings, ruled by xqadj and checked against the recorded judgement of every game.

``games.txt`` holds the games (``generate.py``), ``judgements.tsv`` the rulings
(``compare.py``): for each game, xqadj's first ruling and Fairy-Stockfish's (pyffish), and where
they disagree, the ruling the rules give, judged by hand, with the reasons.  Each game is a test:

* where the two referees agree, xqadj must still rule as recorded (so must pyffish);
* where they disagree, xqadj must rule as the judgement says (a judgement that found xqadj wrong
  was a bug to fix, not a line to record), and pyffish as recorded: if Fairy-Stockfish changes
  its reading, the test says so and the line is judged again.

pyffish (xiangqi with its 50-move rule off, as ``compare.py`` asks it) is asked only at the
recorded ply and the ply before, not after every ply as ``compare.py`` does, to keep the run
short.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pyffish
import pytest

from xqadj import Game
from xqadj.board import Board, Move

HERE = Path(__file__).resolve().parent / "data" / "selfplay"
GAMES = HERE / "games.txt"
JUDGEMENTS = HERE / "judgements.tsv"
#: Fairy-Stockfish's xiangqi with its 50-move rule off, as compare.py asks it (xqadj's move limit
#: is off by default, docs/rulings.md D-10).
VARIANT = "xiangqi-nomovelimit"
pyffish.load_variant_config(f"[{VARIANT}:xiangqi]\nnMoveRule = 0\n")
TO_JUDGE = "TO JUDGE"
RULING = re.compile(
    r"none|(1-0|0-1|1/2-1/2) (perpetual-check|perpetual-chase|repetition|checkmate|stalemate) "
    r"ply \d+"
)


def read_corpus() -> dict[int, list[str]]:
    """Game number → ICCS moves (every game starts from the standard position)."""
    games: dict[int, list[str]] = {}
    number = None
    for line in GAMES.read_text(encoding="utf-8").splitlines():
        if line.startswith("# game "):
            number = int(line.split()[2].rstrip(":"))
        elif line and not line.startswith("#"):
            start, _, moves = line.partition("|")
            assert start.strip() == "startpos" and number is not None, line[:60]
            games[number] = moves.split()
            number = None
    return games


def read_judgements() -> list[dict[str, str]]:
    with JUDGEMENTS.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


CORPUS = read_corpus()
ROWS = read_judgements()
DISAGREEMENTS = [row for row in ROWS if row["status"] == "disagree"]


def xqadj_ruling(moves: list[str]) -> str:
    game = Game()
    for text in moves:
        ruling = game.push_iccs(text)
        if ruling is not None:
            return f"{ruling.result} {ruling.reason.value} ply {ruling.ply}"
    return "none"


def same(ours: str, theirs: str) -> bool:
    """Whether xqadj's and pyffish's rulings give the same result at the same ply."""
    if "none" in (ours, theirs):
        return ours == theirs
    return ours.split()[0] == theirs.split()[0] and ours.split()[-1] == theirs.split()[-1]


def expected(row: dict[str, str]) -> str:
    """The ruling xqadj must give: the agreed one, or the one the judgement gives (its text
    starts with the ruling, then a colon and the reasons)."""
    if row["status"] == "agree":
        return row["xqadj"]
    return row["judgement"].split(":", 1)[0].strip()


def test_corpus_and_judgements_match() -> None:
    assert len(CORPUS) >= 200
    assert [int(row["game"]) for row in ROWS] == sorted(CORPUS)
    for row in ROWS:
        assert int(row["plies"]) == len(CORPUS[int(row["game"])])
        assert row["status"] in ("agree", "disagree")
    # The corpus is of use only if it has cycles to rule, decisive and drawn.
    cycles = [row for row in ROWS if row["end"] == "third occurrence"]
    assert len(cycles) >= 50
    assert any(row["xqadj"].startswith("1/2-1/2") for row in cycles)
    assert any("perpetual" in row["xqadj"] for row in cycles)


def test_every_disagreement_is_judged() -> None:
    """A disagreement carries the ruling the rules give, a colon and the reasons."""
    for row in DISAGREEMENTS:
        judgement = row["judgement"]
        assert ":" in judgement and TO_JUDGE not in judgement, f"judge game {row['game']}"
        ruling, reasons = judgement.split(":", 1)
        assert RULING.fullmatch(ruling.strip()), f"game {row['game']}: {ruling!r} is no ruling"
        assert len(reasons.split()) >= 12, f"game {row['game']}: say why, from the rules"
    for row in ROWS:
        if row["status"] == "agree":
            assert same(row["xqadj"], row["pyffish"]) and not row["judgement"], row


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"game-{row['game']}")
def test_xqadj_rules_the_game_as_judged(row: dict[str, str]) -> None:
    assert xqadj_ruling(CORPUS[int(row["game"])]) == expected(row)


def _pyffish_end(moves: list[str], ply: int) -> str | None:
    """pyffish's verdict after ``ply`` moves: a result, or None if the game goes on."""
    start = pyffish.start_fen("xiangqi")
    fairy = [Move.from_iccs(m).fairy() for m in moves[:ply]]
    red_to_move = ply % 2 == 0
    ended, value = pyffish.is_optional_game_end(VARIANT, start, fairy)
    if not ended:
        board = Board()
        for text in moves[:ply]:
            board.push_iccs(text)
        if board.has_legal_move():
            return None
        value = pyffish.game_result(VARIANT, start, fairy)
    if value == pyffish.VALUE_DRAW:
        return "1/2-1/2"
    return "1-0" if (value > 0) == red_to_move else "0-1"


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"game-{row['game']}")
def test_pyffish_rules_the_game_as_recorded(row: dict[str, str]) -> None:
    moves = CORPUS[int(row["game"])]
    if row["pyffish"] == "none":
        assert _pyffish_end(moves, len(moves)) is None
        return
    result, _, _, ply = row["pyffish"].split()
    assert _pyffish_end(moves, int(ply)) == result
    assert _pyffish_end(moves, int(ply) - 1) is None
