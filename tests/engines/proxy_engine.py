"""A fake UCI/UCCI engine for the proxy tests (tests/test_proxy_faults.py).

It answers the handshake of either protocol with ``id name <--name>`` and plays, for a search of
the position with N moves, the move ``--script`` gives for ply N (``ply:move`` pairs, e.g.
``7:f3f2``), else its first legal move, in ``--notation`` (``iccs`` or ``fairy``).  ``go ponder``
waits for ``ponderhit`` (then answers as for the position plus the ponder move) or ``stop``
(then answers ``--stop-move`` or its first legal move).  ``bestmove … ponder <--ponder-move>``
when given.

Faults on demand: ``--crash-at-go`` exits with status 3 at the first ``go``;
``--ignore-quit`` never quits, neither at ``quit`` nor at the end of its input (it must be
killed); ``--flood`` writes ``info`` lines forever after ``uci``.  ``--log FILE`` appends every
line received; ``--pid-file FILE`` records its process id.
"""

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from xqadj.board import STARTING_FEN, Board, Move  # noqa: E402


def parse_position(tokens: list[str], fairy: bool) -> tuple[Board, int]:
    moves = tokens[tokens.index("moves") + 1 :] if "moves" in tokens else []
    head = tokens[1 : tokens.index("moves")] if "moves" in tokens else tokens[1:]
    board = Board(STARTING_FEN if head == ["startpos"] else " ".join(head[1:]))
    for text in moves:
        board.push(Move.from_fairy(text) if fairy else Move.from_iccs(text))
    return board, len(moves)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="proxy-test-engine")
    parser.add_argument("--notation", default="iccs")
    parser.add_argument("--script", default="", help="ply:move pairs")
    parser.add_argument("--ponder-move", default="")
    parser.add_argument("--stop-move", default="")
    parser.add_argument("--crash-at-go", action="store_true")
    parser.add_argument("--ignore-quit", action="store_true")
    parser.add_argument("--flood", action="store_true")
    parser.add_argument("--log")
    parser.add_argument("--pid-file")
    args = parser.parse_args()
    if args.pid_file:
        Path(args.pid_file).write_text(str(os.getpid()))
    fairy = args.notation == "fairy"
    script = dict(pair.split(":") for pair in args.script.split())
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
    board, ply = Board(), 0
    pondering = False

    def fmt(move: Move) -> str:
        return move.fairy() if fairy else move.iccs()

    def answer(board: Board, ply: int, fallback: str = "") -> str:
        reply = script.get(str(ply)) or fallback
        if not reply:
            legal = board.legal_moves()
            reply = fmt(legal[0]) if legal else "(none)"
        suffix = f" ponder {args.ponder_move}" if args.ponder_move else ""
        return f"bestmove {reply}{suffix}"

    for line in sys.stdin:
        line = line.strip()
        if log:
            log.write(line + "\n")
            log.flush()
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        if command in ("uci", "ucci"):
            print(f"id name {args.name}")
            print("id author xqadj tests")
            print("uciok" if command == "uci" else "ucciok")
            sys.stdout.flush()
            if args.flood:
                while True:
                    print("info depth 1 score cp 0 nodes 1 pv " + "h2e2 " * 50)
        elif command == "isready":
            print("readyok")
        elif command == "position":
            board, ply = parse_position(tokens, fairy)
        elif command == "go":
            if args.crash_at_go:
                sys.exit(3)
            if "ponder" in tokens:
                pondering = True
            else:
                print(answer(board, ply))
        elif command == "ponderhit" and pondering:
            pondering = False
            print(answer(board, ply))
        elif command == "stop" and pondering:
            pondering = False
            print(answer(board, ply, args.stop_move))
        elif command == "quit" and not args.ignore_quit:
            break
        sys.stdout.flush()
    while args.ignore_quit:  # a hung engine: only a signal ends it
        time.sleep(3600)


if __name__ == "__main__":
    main()
