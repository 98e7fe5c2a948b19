"""A scripted UCI/UCCI engine for the integration tests.

It answers the handshake of either protocol and plays, at ply N of the game (the number of moves
in the last ``position`` line), the N-th move of ``--script``; past its end it plays its first
legal move.  Faults on demand: ``--crash-at N`` exits, ``--hang-at N`` never answers,
``--illegal-at N`` plays a1a9, all at ply N.  ``--log FILE`` appends every line it receives.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from xqadj.board import STARTING_FEN, Board, Move  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", default="")
    parser.add_argument("--notation", default="iccs")
    parser.add_argument("--crash-at", type=int, default=-1)
    parser.add_argument("--hang-at", type=int, default=-1)
    parser.add_argument("--illegal-at", type=int, default=-1)
    parser.add_argument("--log")
    args = parser.parse_args()
    script = args.script.split()
    fairy = args.notation == "fairy"
    board, ply = Board(), 0
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    for line in sys.stdin:
        line = line.strip()
        if log:
            log.write(line + "\n")
            log.flush()
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0] in ("uci", "ucci"):
            print("id name scripted")
            print("id author xqadj tests")
            print("uciok" if tokens[0] == "uci" else "ucciok")
        elif tokens[0] == "isready":
            print("readyok")
        elif tokens[0] == "position":
            moves = tokens[tokens.index("moves") + 1 :] if "moves" in tokens else []
            head = tokens[1 : tokens.index("moves")] if "moves" in tokens else tokens[1:]
            board = Board(STARTING_FEN if head == ["startpos"] else " ".join(head[1:]))
            for text in moves:
                board.push(Move.from_fairy(text) if fairy else Move.from_iccs(text))
            ply = len(moves)
        elif tokens[0] == "go":
            if ply == args.crash_at:
                sys.exit(3)
            if ply == args.hang_at:
                time.sleep(3600)
            if ply == args.illegal_at:
                reply = "a1a9"
            elif ply < len(script):
                reply = script[ply]
            else:
                legal = board.legal_moves()
                reply = (legal[0].fairy() if fairy else legal[0].iccs()) if legal else "(none)"
            print(f"bestmove {reply}")
        elif tokens[0] == "quit":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
