"""Benchmark: the time the CXA profile takes to rule a cycle, over the rulebook's diagrams.

Usage::

    python bench/cxa.py [--cases PATH] [--repeat K] [--games] [--cpu] [--compare]
    python bench/cxa.py --count ID [--setup-only]

Every line of ``tests/data/cxa-cases.tsv`` is played through ``Game(fen, rules='cxa')`` up to the
move before its ruling; the push of the last move (the third occurrence: classify every move of
the cycle and rule) is timed, with the profile's position memo emptied first so that nothing
learnt from an earlier line or repeat helps.  Each line is timed ``--repeat`` times and its best
time kept (the machine's noise is one-sided).  Printed: the median and the worst over the lines,
and the slowest lines.  Target (issue 20): worst under 50 ms, for the rulebook's lines and for
the real games' rulings alike.  The CXA profile
(``xqadj.rules.cxa``) is imported with ``xqadj``, before timing.

The first line says which form of the rules runs: ``compiled`` (the mypyc extensions an install
builds, xqadj/_native.py) or ``source`` (``XQADJ_PURE=1``, or a pure install).  ``--compare``
runs the benchmark twice in the same run, compiled then source, each in its own process.

With ``--games``, the real games of ``shared/games`` are followed too under the CXA rules, and
every repetition ruling in them is timed the same way: their count, median and worst.

On a loaded machine the clock is noisy (two runs of one line may differ by a third); instruction
counts are steady.  ``--count ID`` rules the line ``ID`` once to warm up (imports, tables), sets
it up again with the memo emptied and rules it once more, printing nothing; ``--setup-only``
stops before that last ruling.  Run both under ``valgrind --tool=cachegrind --cache-sim=no``
with ``PYTHONHASHSEED=0``: the difference of the two ``I refs`` is the instructions of one cold
ruling (docs/cxa.md "Speed").
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo, for `import xqadj`

from xqadj import _native  # noqa: E402
from xqadj.board import STARTING_FEN  # noqa: E402
from xqadj.referee import Game, Reason  # noqa: E402
from xqadj.rules.cxa import search  # noqa: E402

DEFAULT_CASES = Path(__file__).resolve().parents[1] / "tests" / "data" / "cxa-cases.tsv"
#: The reasons of a repetition ruling (a cycle judged), 长杀 included.
REPETITION = {
    Reason.REPETITION,
    Reason.PERPETUAL_CHECK,
    Reason.PERPETUAL_CHASE,
    Reason.PERPETUAL_KILL,
}
#: The worst time to rule a cycle that the profile aims at (issue 20).
TARGET_MS = 50


#: The clock: wall time by default; ``--cpu`` takes the process's CPU time, which other
#: processes on a shared machine disturb less.
_CLOCK = time.perf_counter


def time_case(fen: str, moves: list[str], repeat: int) -> tuple[float, str]:
    """Best time (seconds) to push the ruling move, and the ruling."""
    best, ruling_text = float("inf"), ""
    for _ in range(repeat):
        game = Game(fen, rules="cxa")
        for text in moves[:-1]:
            game.push_iccs(text)
        search._MEMO.clear()
        start = _CLOCK()
        ruling = game.push_iccs(moves[-1])
        elapsed = _CLOCK() - start
        best = min(best, elapsed)
        ruling_text = f"{ruling.result} {''.join(ruling.labels)}" if ruling else "no ruling"
    return best, ruling_text


def count_case(path: Path, case_id: str, setup_only: bool) -> int:
    """Rule the line ``case_id`` once cold after a warm-up (see the module's docstring)."""
    with path.open(encoding="utf-8", newline="") as handle:
        cases = {case["id"]: case for case in csv.DictReader(handle, delimiter="\t")}
    if case_id not in cases:
        print(f"no line {case_id!r} in {path}", file=sys.stderr)
        return 2
    case = cases[case_id]
    moves = case["moves"].split()
    for warm_up in (True, False):
        game = Game(case["fen"], rules="cxa")
        for text in moves[:-1]:
            game.push_iccs(text)
        search._MEMO.clear()
        if warm_up or not setup_only:
            game.push_iccs(moves[-1])
    return 0


def bench_cases(path: Path, repeat: int) -> None:
    with path.open(encoding="utf-8", newline="") as handle:
        cases = list(csv.DictReader(handle, delimiter="\t"))
    rows = []
    for case in cases:
        seconds, ruling = time_case(case["fen"], case["moves"].split(), repeat)
        rows.append((seconds, case["id"], ruling))
    times = [seconds for seconds, _, _ in rows]
    print(f"CXA cases: {len(rows)} lines, best of {repeat} per line (cold memo)")
    print(
        f"  time to rule a cycle: median {statistics.median(times) * 1000:.1f} ms, "
        f"worst {max(times) * 1000:.1f} ms (target: worst < {TARGET_MS} ms)"
    )
    print("  slowest:")
    for seconds, case_id, ruling in sorted(rows, reverse=True)[:5]:
        print(f"    {seconds * 1000:6.1f} ms  {case_id:14s} {ruling}")


def bench_games(repeat: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from games import load_games

    ruled = []  # the moves of each game up to its repetition ruling
    for moves in load_games():
        game = Game(rules="cxa")
        for ply, text in enumerate(moves, 1):
            ruling = game.push_iccs(text)
            if ruling is not None:
                if ruling.reason in REPETITION:
                    ruled.append(moves[:ply])
                break
    if not ruled:
        print("real games: no repetition ruling")
        return
    times = [time_case(STARTING_FEN, moves, repeat)[0] for moves in ruled]
    print(
        f"real games: {len(times)} repetition rulings, best of {repeat} each: median "
        f"{statistics.median(times) * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms "
        f"(target: worst < {TARGET_MS} ms)"
    )
    slowest = sorted(zip(times, range(len(times)), strict=True), reverse=True)[:3]
    print("  slowest: " + ", ".join(f"{t * 1000:.1f} ms (ruling {i + 1})" for t, i in slowest))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--games", action="store_true", help="also time the real games")
    parser.add_argument(
        "--cpu", action="store_true", help="time with the process's CPU time, not wall time"
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="run compiled, then from the sources (XQADJ_PURE=1), each in its own process",
    )
    parser.add_argument(
        "--count", metavar="ID", help="rule one line cold, for an instruction count (see above)"
    )
    parser.add_argument(
        "--setup-only", action="store_true", help="with --count, stop before the cold ruling"
    )
    args = parser.parse_args(argv)
    if args.count:
        return count_case(args.cases, args.count, args.setup_only)
    if args.compare:
        rest = [arg for arg in (sys.argv[1:] if argv is None else argv) if arg != "--compare"]
        for pure in ("", "1"):
            env = {**os.environ, "XQADJ_PURE": pure}
            subprocess.run([sys.executable, __file__, *rest], env=env, check=True)
            sys.stdout.flush()
        return 0
    print(f"rules: {_native.form()}")
    if args.cpu:
        global _CLOCK
        _CLOCK = time.process_time
    bench_cases(args.cases, args.repeat)
    if args.games:
        bench_games(args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
