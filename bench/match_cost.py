"""Benchmark the cost of ``xqadj match`` itself, a move, against a minimal relay.

Two scripted fake engines (``tests/engines/fake_engine.py --script-file``: each answers ``go``
at once with the next move of a game fixed in advance, so that their own cost is a few
microseconds and flat) play the same games twice:

* through a **minimal relay**: one thread, two pipes, ``position startpos moves …`` kept as a
  growing byte string, written with ``go`` in one write, read up to ``bestmove``,
  ``ucinewgame`` and ``isready`` between games; no referee, no clock, no file;
* through **``xqadj match``** (a subprocess, as a user runs it: ``--move-limit 0 --max-plies
  N``, so that every game is N plies long; the game is chosen so that no rule ends it).

and, in-process, the referee alone (each move parsed and pushed to xqadj's ``Game``: the
work of the match that the relay does not do).  For the relay and the match, the time from the
end of the first game to the end of the last, divided by the moves played in between (so that
starting the engines is left out), the fastest of ``--repeat`` runs (3) of each, interleaved,
at short games (166 plies, a typical engine game) and long ones (2,000 plies).  Targets (issue
18): the match's cost a move flat in the game's length, and within 2× the relay's.  On a
loaded machine the figures swing by 2× or more from run to run: compare them within one run.

    python bench/match_cost.py [--short 166] [--long 2000] [--short-games 12] [--long-games 3]
        [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqadj.board import Move  # noqa: E402
from xqadj.referee import Game  # noqa: E402

ENGINE = ROOT / "tests" / "engines" / "fake_engine.py"
#: The issue's figures before the fix (µs a move): match at 166 and 2,000 plies, the relay.
ISSUE_FIGURES = {"match_short": 240, "match_long": 1180, "relay": 47}


def long_game(plies: int, seed: int = 1) -> list[str]:
    """``plies`` random moves from the start that no rule ends (no third repetition, no mate,
    no stalemate; the move limit off), captures avoided so that the pieces stay mobile."""
    chooser = random.Random(seed)
    game = Game(move_limit=0)
    while game.ply < plies:
        board = game.board
        moves = board.legal_moves()
        chooser.shuffle(moves)
        moves.sort(key=lambda move: board.piece_at(move.to_square) is not None)
        for move in moves:
            if game.push(move) is None:
                break
            game.pop()
        else:
            raise SystemExit(f"seed {seed}: no move without a ruling at ply {game.ply}")
    return [move.iccs() for move in game.moves]


class Relay:
    """Two engines and one thread between them: bytes, one write a move."""

    def __init__(self, command: list[str]) -> None:
        self.engines = [
            subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
            for _ in range(2)
        ]
        self.readers = [io.BufferedReader(engine.stdout) for engine in self.engines]  # type: ignore[arg-type]
        for number in range(2):
            self.ask(number, b"uci\n", b"uciok")
            self.ask(number, b"isready\n", b"readyok")

    def ask(self, number: int, commands: bytes, answer: bytes) -> bytes:
        stdin = self.engines[number].stdin
        assert stdin is not None
        os.write(stdin.fileno(), commands)
        while True:
            line = self.readers[number].readline()
            if not line:
                raise SystemExit("an engine exited")
            if line.startswith(answer):
                return line

    def play(self, plies: int, red: int) -> None:
        for number in range(2):
            self.ask(number, b"ucinewgame\nisready\n", b"readyok")
        position = b"position startpos"
        for ply in range(plies):
            line = self.ask((red + ply) % 2, position + b"\ngo movetime 100\n", b"bestmove")
            position += (b" moves " if ply == 0 else b" ") + line.split()[1]

    def close(self) -> None:
        for engine in self.engines:
            assert engine.stdin is not None
            engine.stdin.write(b"quit\n")
            engine.stdin.close()
            engine.wait()


def relay_us(command: list[str], plies: int, games: int) -> float:
    relay = Relay(command)
    try:
        relay.play(plies, 0)
        started = time.perf_counter()
        for number in range(1, games):
            relay.play(plies, number % 2)
        return (time.perf_counter() - started) / (plies * (games - 1)) * 1e6
    finally:
        relay.close()


def match_us(command: list[str], plies: int, games: int) -> float:
    cmd = " ".join(command)
    argv = [sys.executable, "-m", "xqadj", "match"]
    argv += ["--engine", f"cmd={cmd}", "name=A", "--engine", f"cmd={cmd}", "name=B"]
    argv += ["--games", str(games), "--move-limit", "0", "--max-plies", str(plies)]
    argv += ["--movetime", "100"]
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, cwd=str(ROOT))
    assert child.stdout is not None
    ends = []
    for line in child.stdout:
        if line.startswith("game "):
            ends.append(time.perf_counter())
            if f"({plies} plies)" not in line:
                raise SystemExit(f"a game did not last {plies} plies: {line.strip()}")
    if child.wait() != 0 or len(ends) != games:
        raise SystemExit(f"xqadj match failed ({len(ends)} of {games} games)")
    return (ends[-1] - ends[0]) / (plies * (games - 1)) * 1e6


def referee_us(moves: list[str], plies: int, repeat: int) -> float:
    """What the match does a move that a relay does not: parse the engine's move and follow it
    with xqadj's referee (legality, repetition, mate and stalemate), in-process."""
    best = math.inf
    for _ in range(max(repeat, 3)):
        game = Game(move_limit=0)
        started = time.perf_counter()
        for text in moves[:plies]:
            game.push(Move.from_iccs(text))
        best = min(best, (time.perf_counter() - started) / plies * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", type=int, default=166, help="plies of a short game")
    parser.add_argument("--long", type=int, default=2000, help="plies of a long game")
    parser.add_argument("--short-games", type=int, default=12)
    parser.add_argument("--long-games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the fastest kept")
    args = parser.parse_args()
    if min(args.short_games, args.long_games) < 2:
        parser.error("play at least 2 games of each length (the first one is not timed)")
    moves = long_game(max(args.short, args.long))
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "game.txt"
        script.write_text(" ".join(moves) + "\n", encoding="utf-8")
        command = [sys.executable, str(ENGINE), "--script-file", str(script)]
        rows = []
        for plies, games in ((args.short, args.short_games), (args.long, args.long_games)):
            # Interleaved and the fastest of each kept: the machine's load only adds time.
            relays, matches = [], []
            for _ in range(args.repeat):
                relays.append(relay_us(command, plies, games))
                matches.append(match_us(command, plies, games))
            rows.append(
                (plies, games, min(relays), min(matches), referee_us(moves, plies, args.repeat))
            )
    print(
        f"{'games':>14}  {'relay µs/move':>13}  {'match µs/move':>13}  {'match/relay':>11}  "
        f"{'referee µs/move':>15}  {'(match-referee)/relay':>21}"
    )
    for plies, games, relay, match, referee in rows:
        print(
            f"{games:>3} × {plies:>5} ply  {relay:>13.0f}  {match:>13.0f}  {match / relay:>10.2f}×"
            f"  {referee:>15.0f}  {(match - referee) / relay:>20.2f}×"
        )
    short, long = rows[0][3], rows[1][3]
    worst = max(row[3] / row[2] for row in rows)
    print(
        f"match long/short: {long / short:.2f} (target: flat, about 1); worst match/relay: "
        f"{worst:.2f}× (target: within 2×)"
    )
    print(
        "referee: parsing each move and following it with xqadj's Game in-process, the work "
        "a relay does not do"
    )
    print(
        f"issue 18's figures before the fix: match {ISSUE_FIGURES['match_short']} and "
        f"{ISSUE_FIGURES['match_long']} µs a move, relay {ISSUE_FIGURES['relay']} µs"
    )


if __name__ == "__main__":
    main()
