"""An instant UCI engine for benchmarks and tests: it plays a game read from a file, move by move.

``python tests/engines/instant_engine.py GAME_FILE``: the file holds one game's moves (ICCS, white
space between them).  To ``go`` it answers at once ``bestmove`` with the game's move at the
current ply (the number of moves of the last ``position startpos moves …`` line: the
start position only), so that its own cost per move
is a few microseconds and flat in the game's length: what a benchmark of the software between
two engines needs.  Past the end of the game it answers ``bestmove (none)``.  It imports
nothing from xqadj and checks nothing.
"""

from __future__ import annotations

import sys


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as source:
        game = source.read().split()
    ply = 0
    out = sys.stdout
    for line in sys.stdin:
        if line.startswith("position"):
            # "position startpos moves m1 … mN": N moves; without "moves", none.  Counting
            # spaces is C speed: no list of N tokens is built.
            ply = line.count(" ") - 2 if " moves " in line else 0
        elif line.startswith("go"):
            out.write(f"bestmove {game[ply] if ply < len(game) else '(none)'}\n")
            out.flush()
        elif line.startswith("isready"):
            out.write("readyok\n")
            out.flush()
        elif line.strip() == "uci":
            out.write("id name instant\nuciok\n")
            out.flush()
        elif line.startswith("quit"):
            break


if __name__ == "__main__":
    main()
