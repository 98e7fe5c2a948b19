"""A fake UCI/UCCI engine for the tournament tests: it thinks as long as it is told, reports a
score, and logs what it is sent.

It answers ``uci`` and ``ucci`` (announcing ``option usemillisec`` with ``--usemillisec``), and
to ``go`` it waits ``--think`` milliseconds (``--think-at PLY:MS`` for one ply of the game;
a ``stop`` cuts the wait short), prints ``info depth 1 score cp S`` (``--score S``;
``--score-at PLY:S`` for one ply; ``--no-score`` for none), then ``bestmove`` with a legal move:
the ``--script`` move for that ply (the number of moves in the last ``position``), else the first
legal one, or a random one with ``--seed``.  ``--log FILE`` appends every line received.
``--deaf-after N`` answers only the first N ``isready`` (then it hangs before a search).
``--name NAME`` is its ``id name``; ``--fairy`` reads and writes moves with ranks 1-10 (as
Fairy-Stockfish's UCI does); ``--bare-score`` writes UCCI's ``score S`` without ``cp``.


Faults for the long-run tests: ``--share F`` thinks F times its own time left (``wtime`` or
``btime`` of the ``go``), measured from when it read the ``go``, and says when it answered
(``info string sent T``, T on the monotonic clock); ``--crash-at PLY`` exits at
that ply's ``go``; ``--orphan-crash-at PLY`` starts a child that keeps its stdout open, then
exits (the pipe stays open: only the process's exit tells the crash); ``--once FILE`` starts
only if FILE does not exist, and creates it (a second start fails: an engine that cannot be
restarted).
"""

from __future__ import annotations

import argparse
import os
import random
import select
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from xqadj.board import STARTING_FEN, Board, Move, XqadjError  # noqa: E402


def pairs(values: list[str]) -> dict[int, int]:
    result = {}
    for value in values:
        ply, _, amount = value.partition(":")
        result[int(ply)] = int(amount)
    return result


class Input:
    """stdin read line by line without Python's buffering, so that select() can wait on it."""

    def __init__(self) -> None:
        self.buffer = b""

    def line(self, timeout: float | None = None) -> str | None:
        """The next line; "" at end of input; None if none came within ``timeout``."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buffer:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([0], [], [], wait)
            if not ready:
                return None
            chunk = os.read(0, 4096)
            if not chunk:
                if self.buffer:
                    line, self.buffer = self.buffer, b""
                    return line.decode()
                return ""
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode().strip() or " "


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--think", type=int, default=0)
    parser.add_argument("--think-at", action="append", default=[])
    parser.add_argument("--score", type=int, default=0)
    parser.add_argument("--score-at", action="append", default=[])
    parser.add_argument("--no-score", action="store_true")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--usemillisec", action="store_true")
    parser.add_argument("--log")
    parser.add_argument("--script", default="")
    parser.add_argument("--deaf-after", type=int, default=-1)
    parser.add_argument("--name", default="tourney-fake")
    parser.add_argument("--fairy", action="store_true")
    parser.add_argument("--bare-score", action="store_true")
    parser.add_argument("--share", type=float)
    parser.add_argument("--crash-at", type=int, default=-1)
    parser.add_argument("--orphan-crash-at", type=int, default=-1)
    parser.add_argument("--once")
    args = parser.parse_args()
    if args.once:
        if os.path.exists(args.once):
            sys.stderr.write("tourney-fake: started once already\n")
            sys.exit(4)
        Path(args.once).touch()
    readies = 0
    script = args.script.split()
    think_at, score_at = pairs(args.think_at), pairs(args.score_at)
    chooser = random.Random(args.seed) if args.seed is not None else None
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    board, ply = Board(), 0
    source = Input()
    quitting = False

    def say(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    while True:
        line = source.line()
        if line == "" or line is None:
            break
        line = line.strip()
        if log:
            log.write(line + "\n")
            log.flush()
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0] in ("uci", "ucci"):
            say(f"id name {args.name}")
            if args.usemillisec and tokens[0] == "ucci":
                say("option usemillisec type check default false")
            say("uciok" if tokens[0] == "uci" else "ucciok")
        elif tokens[0] == "isready":
            readies += 1
            if args.deaf_after < 0 or readies <= args.deaf_after:
                say("readyok")
        elif tokens[0] == "position":
            moves = tokens[tokens.index("moves") + 1 :] if "moves" in tokens else []
            head = tokens[1 : tokens.index("moves")] if "moves" in tokens else tokens[1:]
            board = Board(STARTING_FEN if head == ["startpos"] else " ".join(head[1:]))
            for text in moves:
                try:
                    board.push(Move.from_fairy(text) if args.fairy else Move.from_iccs(text))
                except XqadjError:  # as Fairy-Stockfish does: the moves stop at a bad one
                    break
            ply = len(moves)
        elif tokens[0] == "go":
            read_go = time.monotonic()
            if ply == args.crash_at:
                os._exit(3)
            if ply == args.orphan_crash_at:
                subprocess.Popen(["sleep", "600"], stdout=sys.stdout.fileno())
                os._exit(3)
            # The move is chosen before the wait, so that the answer leaves at the deadline.
            legal = board.legal_moves()
            think = think_at.get(ply, args.think) / 1000
            if args.share is not None:
                values = dict(zip(tokens[1::2], tokens[2::2], strict=False))
                own = values.get("wtime" if board.turn == 0 else "btime", "0")
                think = args.share * int(own) / 1000
            deadline = read_go + think
            while True:  # think, but listen for stop (and isready) meanwhile
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                pending = source.line(remaining)
                if pending is None:
                    break
                if log and pending.strip():
                    log.write(pending.strip() + "\n")
                    log.flush()
                if pending == "" or pending.strip() == "quit":
                    quitting = True
                    break
                if pending.strip() == "stop":
                    break
                if pending.strip() == "isready":
                    say("readyok")
            if not args.no_score:
                unit = "" if args.bare_score else "cp "
                say(f"info depth 1 score {unit}{score_at.get(ply, args.score)} pv")
            if args.share is not None:
                # When it answered, on the machine's monotonic clock (the one xqadj reads).
                say(f"info string sent {time.monotonic():.6f}")
            if ply < len(script):
                say(f"bestmove {script[ply]}")
            elif not legal:
                say("bestmove (none)")
            else:
                move = chooser.choice(legal) if chooser else legal[0]
                say(f"bestmove {move.fairy() if args.fairy else move.iccs()}")
            if quitting:
                break
        elif tokens[0] == "quit":
            break


if __name__ == "__main__":
    main()
