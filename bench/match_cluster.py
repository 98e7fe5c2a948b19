"""Benchmark: one fixed-depth Fairy-Stockfish match played here and on a Dask cluster.

Usage::

    python bench/match_cluster.py [--games 16] [--depth 6] [--max-plies 80] [--engine PATH]

Plays the same match (Fairy-Stockfish against itself, UCI against UCCI, one thread and 16 MB of
hash each, every move searched to ``--depth``, the games stopped after ``--max-plies`` plies)
twice with ``python -m xqadj match``: with ``--concurrency 2`` in this process, and with
``--cluster local:2`` (a Dask LocalCluster of 2 worker processes, one game at a time on each:
two games at once too).  For each it prints the games per minute over the whole run (start-up
of the engines, and of the cluster, included), the games per minute from the first finished
game to the last (the steady rate), and the wall time.  The games are the same ones in both
runs (same schedule and openings); an engine's moves can differ, as an engine kept from game to
game (the local runner's) searches from its own history and one started for each pair (on a
worker) does not.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run(engine: str, games: int, depth: int, max_plies: int, runner: list[str]) -> dict[str, float]:
    """Play the match; its wall time, and the times of the first and the last game line."""
    with tempfile.TemporaryDirectory() as folder:
        command = [
            sys.executable,
            "-m",
            "xqadj",
            "match",
            *("--engine", f"cmd={engine}", "proto=uci", "notation=fairy", "name=FS-uci"),
            *("--engine", f"cmd={engine}", "proto=ucci", "name=FS-ucci"),
            *("--each", "option.Threads=1", "option.Hash=16"),
            *("--depth", str(depth), "--games", str(games), "--max-plies", str(max_plies)),
            *("--pgn", str(Path(folder) / "m.pgn")),
            *runner,
        ]
        start = time.perf_counter()
        stamps = []
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=REPO)
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("game "):
                stamps.append(time.perf_counter() - start)
        code = process.wait()
        seconds = time.perf_counter() - start
    if code != 0 or len(stamps) != games:
        raise SystemExit(f"{' '.join(runner)}: exit status {code}, {len(stamps)} games")
    return {"seconds": seconds, "first": stamps[0], "last": stamps[-1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--max-plies", type=int, default=80)
    parser.add_argument(
        "--engine", default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
    )
    args = parser.parse_args()
    print(
        f"{args.games} games of Fairy-Stockfish (UCI vs UCCI) at depth {args.depth}, "
        f"at most {args.max_plies} plies each"
    )
    print(f"{'runner':<28}{'games/min':>10}{'steady':>10}{'seconds':>10}")
    for label, runner in (
        ("local, --concurrency 2", ["--concurrency", "2"]),
        ("--cluster local:2", ["--cluster", "local:2"]),
    ):
        figures = run(args.engine, args.games, args.depth, args.max_plies, runner)
        overall = args.games / figures["seconds"] * 60
        span = figures["last"] - figures["first"]
        steady = (args.games - 1) / span * 60 if span > 0 else float("nan")
        print(f"{label:<28}{overall:>10.1f}{steady:>10.1f}{figures['seconds']:>10.1f}")


if __name__ == "__main__":
    main()
