"""Benchmark: ``xqadj replay`` on a 50 MB PGN: games/s, peak memory, time to the first result.

Usage::

    python bench/replay.py [--copies 31] [--peer-games 100] [--games-dir DIR]

Builds a PGN of at least 50 MB in a temporary directory (the master games of ``--games-dir``
concatenated ``--copies`` times; not kept), then runs ``python -m xqadj replay`` on it with
``--jobs 1``, ``--jobs 2`` and ``--cluster local:2`` (a Dask LocalCluster of 2 worker
processes), output to a file.  Each run happens under a small wrapper process, so that its peak
memory is the largest resident set (``ru_maxrss``) of the replay process and its descendants
(workers included), that run's alone.  ``first`` is the time from start to the first result
line on stdout (start-up included).

The peer: pyffish (Fairy-Stockfish's bindings) following a sample of the same games, spread
over the corpus, with the moves already parsed and converted before timing (it has no PGN
reader and no repetition rulings: per ply a legality check with ``legal_moves`` and the next FEN
with ``get_fen``, and a dictionary of positions, as ``bench/follow.py`` does).  It is much
slower, so it follows a sample only; its games/s are on that sample.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from games import DEFAULT_GAMES_DIR  # noqa: E402

#: Runs a command, copies its stdout to a file, and prints its wall time, the time to its first
#: stdout line and the peak RSS of its process tree, as JSON.
WRAPPER = r"""
import json, resource, subprocess, sys, time
out_path, command = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
first = None
with open(out_path, "wb") as out:
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    line = process.stdout.readline()
    first = time.perf_counter() - start
    out.write(line)
    for block in iter(lambda: process.stdout.read(1 << 16), b""):
        out.write(block)
    code = process.wait()
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = usage.ru_utime + usage.ru_stime
figures = {"seconds": seconds, "first": first, "peak_kib": usage.ru_maxrss, "cpu": cpu}
print(json.dumps({**figures, "code": code}))
"""

#: Follows a sample of the master games with pyffish and prints the number of games and plies.
PEER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from follow import follow_pyffish, sample
from games import load_games
from xqadj import Move
games = sample(load_games(sys.argv[2]), int(sys.argv[3]))
fairy = [[Move.from_iccs(m).fairy() for m in g] for g in games]
start = time.perf_counter()
follow_pyffish(fairy)
seconds = time.perf_counter() - start
print(json.dumps({"games": len(fairy), "plies": sum(map(len, fairy)), "seconds": seconds}))
"""


def build(games_dir: Path, copies: int, target: Path) -> int:
    """Concatenate the master PGN files ``copies`` times into ``target``; its size."""
    sources = [p.read_bytes() for p in sorted(games_dir.glob("*.pgn"))]
    if not sources:
        raise SystemExit(f"no *.pgn files in {games_dir}")
    with target.open("wb") as out:
        for _ in range(copies):
            for data in sources:
                out.write(data)
                if not data.endswith(b"\n"):
                    out.write(b"\n")
    return target.stat().st_size


def measure(command: Sequence[str], out_path: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-c", WRAPPER, str(out_path), *command],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        check=True,
    )
    figures: dict[str, float] = json.loads(result.stdout.splitlines()[-1])
    return figures


def games_in_summary(out_path: Path) -> int:
    with out_path.open("rb") as handle:
        handle.seek(max(0, out_path.stat().st_size - 4096))
        last = handle.read().decode("utf-8", "replace").strip().splitlines()[-1]
    if not last.startswith("summary: "):
        raise SystemExit(f"no summary line at the end of {out_path}: {last!r}")
    return int(last.split()[1])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games-dir", type=Path, default=DEFAULT_GAMES_DIR)
    parser.add_argument(
        "--copies", type=int, default=31, help="copies of the master games (default 31: 54 MB)"
    )
    parser.add_argument(
        "--peer-games", type=int, default=100, help="games in pyffish's sample (default 100)"
    )
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="xqadj-bench-replay-") as tmp:
        big = Path(tmp) / "big.pgn"
        size = build(args.games_dir, args.copies, big)
        print(
            f"file: {size / 1e6:.1f} MB ({size / 2**20:.1f} MiB), {args.copies} copies of "
            f"{args.games_dir}"
        )
        print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        rows: list[tuple[str, int, float, float, float, float]] = []
        for label, options in (
            ("xqadj --jobs 1", ["--jobs", "1"]),
            ("xqadj --jobs 2", ["--jobs", "2"]),
            ("xqadj --cluster local:2", ["--cluster", "local:2"]),
        ):
            out_path = Path(tmp) / "out.txt"
            command = [sys.executable, "-m", "xqadj", "replay", *options, str(big)]
            figures = measure(command, out_path)
            if figures["code"] not in (0, 1):
                raise SystemExit(f"{label}: exit status {figures['code']}")
            games = games_in_summary(out_path)
            rows.append(
                (
                    label,
                    games,
                    figures["seconds"],
                    figures["cpu"],
                    figures["first"],
                    figures["peak_kib"],
                )
            )
            print(f"  {label}: done in {figures['seconds']:.1f} s", flush=True)

        peer_out = Path(tmp) / "peer.txt"
        peer_command = [
            sys.executable,
            "-c",
            PEER,
            str(REPO / "bench"),
            str(args.games_dir),
            str(args.peer_games),
        ]
        peer = measure(peer_command, peer_out)
        sampled = json.loads(peer_out.read_text().splitlines()[-1])

    header = (
        f"{'run':<26}{'games':>8}{'seconds':>9}{'games/s':>9}{'CPU s':>8}{'games/CPU s':>13}"
        f"{'first':>8}{'peak RSS':>10}"
    )
    print()
    print(header)
    print("-" * len(header))
    for label, games, seconds, cpu, first, peak_kib in rows:
        print(
            f"{label:<26}{games:>8,}{seconds:>9.1f}{games / seconds:>9,.0f}{cpu:>8.1f}"
            f"{games / cpu:>13,.0f}{first:>7.2f}s{peak_kib / 1024:>7.0f} MB"
        )
    rate = sampled["games"] / sampled["seconds"]
    print(
        f"{'pyffish (sample)':<26}{sampled['games']:>8,}{sampled['seconds']:>9.1f}{rate:>9,.1f}"
        f"{peer['cpu']:>8.1f}{sampled['games'] / peer['cpu']:>13,.1f}{'-':>8}"
        f"{peer['peak_kib'] / 1024:>7.0f} MB"
    )
    print()
    print(
        f"pyffish followed a sample of {sampled['games']} games ({sampled['plies']:,} plies) "
        "spread over the master games, moves pre-parsed; no file reading, no rulings."
    )
    print("peak RSS = the largest resident set of the run's processes (workers included)")
    print("CPU s = user + system time of all the run's processes (start-up included)")
    print(f"load average after: {os.getloadavg()[0]:.2f} (other jobs share the cores)")
    print(f"machine: {os.cpu_count()} cores; started {time.strftime('%Y-%m-%d %H:%M:%S')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
