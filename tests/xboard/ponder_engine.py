"""A scripted UCCI engine that ponders, for the XBoard tests (tests/engines/scripted.py does not).

Like scripted.py, it plays ``script[n]`` at a ``position`` line with n moves; an entry
``MOVE:PONDER`` answers ``bestmove MOVE ponder PONDER``, after which UCI2WB sends it the position
after PONDER with ``go ponder``.  A ponder search is answered only at ``ponderhit`` (with the
script's move for that position) or ``stop``, as UCCI says.  ``--log FILE`` appends every line
it receives.
"""

import argparse
import sys


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", default="")
    parser.add_argument("--log")
    args = parser.parse_args()
    script = args.script.split()
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    ply = 0

    def answer() -> None:
        move, _, ponder = (script[ply] if ply < len(script) else "resign").partition(":")
        print(f"bestmove {move}" + (f" ponder {ponder}" if ponder else ""))

    for line in sys.stdin:
        line = line.strip()
        if log:
            log.write(line + "\n")
            log.flush()
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0] == "ucci":
            print("id name ponder-scripted")
            print("option Ponder type check default false")  # UCI2WB ponders only then
            print("ucciok")
        elif tokens[0] == "isready":
            print("readyok")
        elif tokens[0] == "position":
            ply = len(tokens) - tokens.index("moves") - 1 if "moves" in tokens else 0
        elif tokens[0] == "go" and tokens[1:2] != ["ponder"]:
            answer()
        elif tokens[0] in ("ponderhit", "stop"):
            answer()
        elif tokens[0] == "quit":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
