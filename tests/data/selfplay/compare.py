"""Rule every game of the self-play corpus with xqadj and with pyffish; write ``judgements.tsv``.

Usage (from the repository root)::

    python tests/data/selfplay/compare.py [--games FILE] [--out FILE]

For each game of ``games.txt`` (see ``generate.py``): xqadj's first ruling (:class:`Game`, AXF
rules, no move limit) and Fairy-Stockfish's (xiangqi with its 50-move rule off, :data:`VARIANT`:
``pyffish.is_optional_game_end`` after every ply,
and ``pyffish.game_result`` where the side to move has no legal move), each as
``<result> <reason> ply <n>`` (pyffish gives no reason: ``fs``) or ``none``.  Rows where the two
agree are marked ``agree``; the others need a judgement by hand, from the rules, written in the
``judgement`` column: the script keeps the judgement of a row whose game and rulings did not
change, and writes ``TO JUDGE`` for a new disagreement (``tests/test_selfplay.py`` fails on it).
A summary of the counts is printed.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))  # the repository, for `import xqadj`

import pyffish  # noqa: E402

from xqadj.board import STARTING_FEN, Board, Move  # noqa: E402
from xqadj.referee import Game  # noqa: E402

#: Fairy-Stockfish's xiangqi with its 50-move rule (an optional game end after 100 plies
#: without a capture) turned off: xqadj's move limit is off by default (docs/rulings.md D-10),
#: and with the rule on, pyffish ends 90 of the 600 games before the game's own end.
VARIANT = "xiangqi-nomovelimit"
VARIANT_CONFIG = f"[{VARIANT}:xiangqi]\nnMoveRule = 0\n"
pyffish.load_variant_config(VARIANT_CONFIG)
COLUMNS = ("game", "plies", "end", "xqadj", "pyffish", "status", "judgement")
TO_JUDGE = "TO JUDGE"


def read_corpus(path: Path) -> list[tuple[int, str, list[str]]]:
    """``(number, end, moves)`` of each game: the number and the end from its comment line."""
    games: list[tuple[int, str, list[str]]] = []
    comment = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# game "):
            comment = line
        elif line and not line.startswith("#"):
            start, _, moves = line.partition("|")
            if start.strip() != "startpos" or not comment:
                raise ValueError(f"{path}: unexpected line {line[:60]!r}")
            number = int(comment.split()[2].rstrip(":"))
            end = comment.rsplit(", ", 1)[1]
            games.append((number, end, moves.split()))
            comment = ""
    return games


def xqadj_ruling(moves: list[str]) -> str:
    """xqadj's first ruling, ``'<result> <reason> ply <n>'``, or ``'none'``."""
    game = Game()
    for text in moves:
        ruling = game.push_iccs(text)
        if ruling is not None:
            return f"{ruling.result} {ruling.reason.value} ply {ruling.ply}"
    return "none"


def _result(value: int, red_to_move: bool) -> str:
    if value == pyffish.VALUE_DRAW:
        return "1/2-1/2"
    return "1-0" if (value > 0) == red_to_move else "0-1"


def pyffish_ruling(moves: list[str], first_ply: int = 1) -> str:
    """Fairy-Stockfish's first game end at or after ``first_ply``, as ``'<result> fs ply <n>'``,
    or ``'none'``: an optional game end (repetition rules) or a game result (no legal move)."""
    start = pyffish.start_fen("xiangqi")
    fairy = [Move.from_iccs(m).fairy() for m in moves]
    board = Board(STARTING_FEN)
    for text in moves[: first_ply - 1]:
        board.push_iccs(text)
    for ply in range(first_ply, len(fairy) + 1):
        board.push_iccs(moves[ply - 1])
        red_to_move = ply % 2 == 0
        ended, value = pyffish.is_optional_game_end(VARIANT, start, fairy[:ply])
        if ended:
            return f"{_result(value, red_to_move)} fs ply {ply}"
        if not board.has_legal_move():
            value = pyffish.game_result(VARIANT, start, fairy[:ply])
            return f"{_result(value, red_to_move)} fs ply {ply}"
    return "none"


def fifty_move_end(moves: list[str], ruling: str) -> bool:
    """Whether 100 plies without a capture pass before xqadj's ruling (or the game's end)."""
    last = int(ruling.split()[-1]) if ruling != "none" else len(moves)
    board = Board()
    for text in moves[:last]:
        board.push_iccs(text)
        if board.plies_since_capture() >= 100:
            return True
    return False


def same(ours: str, theirs: str) -> bool:
    """Whether the two rulings give the same result at the same ply."""
    if ours == "none" or theirs == "none":
        return ours == theirs
    return ours.split()[0] == theirs.split()[0] and ours.split()[-1] == theirs.split()[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=Path, default=HERE / "games.txt")
    parser.add_argument("--out", type=Path, default=HERE / "judgements.tsv")
    args = parser.parse_args(argv)

    previous: dict[str, dict[str, str]] = {}
    if args.out.exists():
        with args.out.open(encoding="utf-8", newline="") as handle:
            previous = {row["game"]: row for row in csv.DictReader(handle, delimiter="\t")}
    rows = []
    counts: Counter[str] = Counter()
    for number, end, moves in read_corpus(args.games):
        ours, theirs = xqadj_ruling(moves), pyffish_ruling(moves)
        status = "agree" if same(ours, theirs) else "disagree"
        judgement = ""
        if status == "disagree":
            old = previous.get(str(number))
            kept = old and (old["xqadj"], old["pyffish"], old["plies"]) == (
                ours,
                theirs,
                str(len(moves)),
            )
            judgement = old["judgement"] if kept and old else TO_JUDGE
        rows.append(
            {
                "game": str(number),
                "plies": str(len(moves)),
                "end": end,
                "xqadj": ours,
                "pyffish": theirs,
                "status": status,
                "judgement": judgement,
            }
        )
        counts[f"end: {end.split(' (')[0]}"] += 1
        if fifty_move_end(moves, ours):
            counts["FS's 50-move rule would end the game first"] += 1
        counts[f"{status}"] += 1
        if end == "third occurrence":
            counts[f"cycles {status}"] += 1
    with args.out.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, COLUMNS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    for key, value in sorted(counts.items()):
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
