"""A misbehaving UCI/UCCI engine for the ``xqadj match`` fault tests.

It answers the handshake of either protocol and plays its first legal move (``(none)``, or
UCCI's ``nobestmove`` with ``--nobestmove``, when it has none).  Faults:

* ``--pidfile FILE``: append its pid to FILE at start (to check that no engine survives);
* ``--stderr TEXT``: write TEXT to stderr at start;
* ``--exit-at-start N``: write to stderr and exit with status N before any handshake;
* ``--no-handshake``: never answer ``uci``/``ucci`` (it hangs in the handshake);
* ``--think S``: sleep S seconds before each ``bestmove`` (a game in progress for Ctrl-C);
* ``--hang-at N``: at ply N, never answer ``go`` (and ignore SIGTERM);
* ``--flood N``: before each ``bestmove``, print N ``info`` lines;
* ``--double-bestmove``: answer each ``go`` with its move and then a second, different
  ``bestmove`` (a legal move of the position *after* its move's reply, if any: a GUI that takes
  it as the answer to the next position plays a plausible but wrong move);
* ``--nobestmove``: answer every ``go`` with UCCI's ``nobestmove``;
* ``--illegal-at N``: at ply N, play a1a9 (illegal);
* ``--log FILE``: append every line it receives.
"""

import argparse
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from xqadj.board import STARTING_FEN, Board, Move  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pidfile")
    parser.add_argument("--stderr")
    parser.add_argument("--exit-at-start", type=int)
    parser.add_argument("--no-handshake", action="store_true")
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--hang-at", type=int, default=-1)
    parser.add_argument("--flood", type=int, default=0)
    parser.add_argument("--double-bestmove", action="store_true")
    parser.add_argument("--nobestmove", action="store_true")
    parser.add_argument("--illegal-at", type=int, default=-1)
    parser.add_argument("--log")
    args = parser.parse_args()
    if args.pidfile:
        with open(args.pidfile, "a", encoding="utf-8") as pids:
            pids.write(f"{os.getpid()}\n")
    if args.stderr:
        print(args.stderr, file=sys.stderr, flush=True)
    if args.exit_at_start is not None:
        print("match_engine: cannot find my weights file", file=sys.stderr, flush=True)
        sys.exit(args.exit_at_start)
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    board, ply = Board(), 0
    for line in sys.stdin:
        line = line.strip()
        if log:
            log.write(line + "\n")
            log.flush()
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0] in ("uci", "ucci"):
            if args.no_handshake:
                continue
            print("id name match_engine")
            print("uciok" if tokens[0] == "uci" else "ucciok")
        elif tokens[0] == "isready":
            print("readyok")
        elif tokens[0] == "position":
            moves = tokens[tokens.index("moves") + 1 :] if "moves" in tokens else []
            head = tokens[1 : tokens.index("moves")] if "moves" in tokens else tokens[1:]
            board = Board(STARTING_FEN if head == ["startpos"] else " ".join(head[1:]))
            for text in moves:
                board.push(Move.from_iccs(text))
            ply = len(moves)
        elif tokens[0] == "go":
            if ply == args.hang_at:
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                time.sleep(3600)
            time.sleep(args.think)
            for index in range(args.flood):
                print(f"info depth {index % 64} score cp {index % 100} pv " + "h2e2 " * 20)
            legal = board.legal_moves()
            if args.nobestmove:
                print("nobestmove")
            elif ply == args.illegal_at:
                print("bestmove a1a9")
            elif not legal:
                print("bestmove (none)")
            else:
                print(f"bestmove {legal[0].iccs()}")
                if args.double_bestmove:
                    board.push(legal[0])
                    replies = board.legal_moves()
                    second = None
                    if replies:
                        board.push(replies[0])
                        after = board.legal_moves()
                        second = after[-1] if after else None
                    print(f"bestmove {second.iccs() if second else legal[-1].iccs()}")
        elif tokens[0] == "quit":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
