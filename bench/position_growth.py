"""Benchmark the cost of one growing ``position`` line as the game gets long.

A GUI sends the whole game after every ply: ``position fen <FEN> moves <every move so far>``.
The adjudicator must process only the new move, so the cost of a line should stay flat as the
game grows.  This follows a 12,000-ply game (quiet moves that never repeat a position three
times: rooks, knights and cannons wandering, generated with a fixed seed) one growing line per
ply, and prints the median cost of a line around ply 1,000 and around ply 12,000:

* ``Session.handle`` in-process (the protocol's own work);
* the real process, ``python -m xqadj``, through pipes (write the line and ``isready``, read
  ``readyok``): this adds the transport, which copies the line (about 5 bytes a ply);
* the peer figure, in the same run: what formatting the whole move list on every line costs
  (the work the protocol did per line before, ``[m.iccs() for m in moves]``).

    python bench/position_growth.py [--plies 12000] [--window 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqadj.board import Board, Move  # noqa: E402
from xqadj.protocol import Session  # noqa: E402

START = "2bakab2/9/1cn2r3/4p4/9/9/4P4/1CN2R3/9/2BAKAB2 w"


def long_game(plies: int, seed: int = 10) -> list[Move]:
    """Quiet moves, never a check, never a third occurrence: a game as long as wanted."""
    rng = random.Random(seed)
    board = Board(START)
    moves: list[Move] = []
    while len(moves) < plies:
        candidates = [m for m in board.legal_moves() if not board.squares[m.to_square]]
        rng.shuffle(candidates)
        for move in candidates:
            board.push(move)
            if board.repetition_count() < 3 and not board.is_check() and board.has_legal_move():
                moves.append(move)
                break
            board.pop()
        else:
            raise SystemExit(f"the walk got stuck at ply {len(moves)}")
    return moves


def lines(texts: list[str]) -> list[str]:
    head = f"position fen {START} moves"
    return [f"{head} {' '.join(texts[:ply])}" for ply in range(1, len(texts) + 1)]


def in_process(all_lines: list[str]) -> list[float]:
    session = Session()
    costs = []
    for line in all_lines:
        started = time.perf_counter()
        out = session.handle(line)
        costs.append(time.perf_counter() - started)
        if out:
            raise SystemExit(f"unexpected output: {out[:1]}")
    return costs


def through_process(all_lines: list[str]) -> list[float]:
    child = subprocess.Popen(
        [sys.executable, "-m", "xqadj"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=str(ROOT),
        bufsize=0,
    )
    assert child.stdin is not None and child.stdout is not None
    costs = []
    for line in all_lines:
        data = (line + "\nisready\n").encode()
        started = time.perf_counter()
        child.stdin.write(data)
        reply = child.stdout.readline()
        costs.append(time.perf_counter() - started)
        if reply != b"readyok\n":
            raise SystemExit(f"unexpected output: {reply[:80]!r}")
    child.stdin.write(b"quit\n")
    child.stdin.close()
    child.wait(timeout=60)
    return costs


def reformat_whole_list(moves: list[Move]) -> list[float]:
    """The peer: the old per-line work, formatting the whole list to compare it."""
    costs = []
    for ply in range(1, len(moves) + 1):
        started = time.perf_counter()
        [move.iccs() for move in moves[:ply]]
        costs.append(time.perf_counter() - started)
    return costs


def median_us(costs: list[float], around: int, window: int) -> float:
    low = max(0, around - window)
    return statistics.median(costs[low:around]) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=12_000)
    parser.add_argument("--window", type=int, default=200, help="lines per median")
    args = parser.parse_args()
    started = time.perf_counter()
    moves = long_game(args.plies)
    texts = [move.iccs() for move in moves]
    all_lines = lines(texts)
    print(
        f"{args.plies} plies generated in {time.perf_counter() - started:.1f} s; "
        f"the last line is {len(all_lines[-1]):,} bytes"
    )
    short = min(1000, args.plies)
    rows = [
        ("Session.handle (in-process)", in_process(all_lines)),
        ("python -m xqadj (pipes, + isready)", through_process(all_lines)),
        ("peer: reformat the whole list", reformat_whole_list(moves)),
    ]
    print(f"median cost of one line, microseconds ({args.window} lines before the ply):")
    print(f"{'':38} {'ply ' + str(short):>12} {'ply ' + str(args.plies):>12} {'ratio':>7}")
    for name, costs in rows:
        early = median_us(costs, short, args.window)
        late = median_us(costs, args.plies, args.window)
        print(f"{name:38} {early:12.1f} {late:12.1f} {late / early:7.2f}")


if __name__ == "__main__":
    main()
