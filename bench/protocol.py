"""Benchmark the line protocol as a GUI drives it: the real games through one process.

For every ply of every game in /work/shared/games (2,516 master games, 221,678 plies) the GUI sends
the whole game so far, ``position startpos moves …`` (the line it sends its engine), and nothing
else; ``ucinewgame`` comes between games.  Each command is followed by ``isready``; its latency is
the time from writing the command to reading ``readyok``, so it includes everything the command
printed and the pipe round trip.  Prints the total time, the median and 99th-percentile latency,
the child's peak memory (VmHWM) and the start-up time to ``uciok`` (median of fresh starts),
against the targets: p99 < 1 ms, start-up < 300 ms.

Real games run on after a third occurrence (over-the-board arbiters rule only on a claim), so a
ruling may fall mid-game; the GUI then keeps sending longer lines, which are followed past the
ruling (PROTOCOL.md, ``position``).  Both are counted.

    python bench/protocol.py [--games DIR] [--limit N] [--starts 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.games import DEFAULT_GAMES_DIR, load_games  # noqa: E402

P99_TARGET_MS = 1.0
STARTUP_TARGET_MS = 300.0


def command(name: str) -> list[str]:
    if name == "python-m":
        return [sys.executable, "-m", "xqadj"]
    script = Path(sys.executable).parent / "xqadj"
    return [str(script)]


def spawn(argv: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=str(ROOT), bufsize=0
    )


def startup_ms(argv: list[str], runs: int) -> list[float]:
    """Milliseconds from spawning a fresh process to reading its ``uciok``, once per run."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        child = spawn(argv)
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(b"uci\n")
        while child.stdout.readline().rstrip(b"\r\n") != b"uciok":
            pass
        times.append((time.perf_counter() - started) * 1000)
        child.stdin.write(b"quit\n")
        child.stdin.close()
        if child.wait(timeout=30) != 0:
            raise SystemExit("xqadj exited with a non-zero status")
    return times


def vm_kib(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return -1


def ok(good: bool) -> str:
    return "ok" if good else "MISSED"


def percentile(sorted_values: list[float], fraction: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


@dataclass
class Result:
    total_s: float
    commands: int
    median_ms: float
    p99_ms: float
    max_ms: float
    peak_kib: int
    rulings: int
    reasons: dict[str, int]
    games_with_ruling: int
    past_ruling: int
    other_errors: int
    exit: int
    over_1ms: int


def run_games(argv: list[str], games: list[list[str]]) -> Result:
    child = spawn(argv)
    assert child.stdin is not None and child.stdout is not None
    stdin, stdout = child.stdin, child.stdout

    def ask(line: bytes) -> tuple[float, list[bytes]]:
        started = time.perf_counter_ns()
        stdin.write(line + b"\nisready\n")
        out = []
        while (got := stdout.readline()) != b"readyok\n":
            if not got:
                raise SystemExit("xqadj ended unexpectedly")
            out.append(got)
        return (time.perf_counter_ns() - started) / 1e6, out

    latencies: list[float] = []
    rulings = past_ruling = other_errors = 0
    reasons: dict[str, int] = {}
    games_with_ruling = 0
    started = time.perf_counter()
    for moves in games:
        ask(b"ucinewgame")
        ruled = False
        for ply in range(1, len(moves) + 1):
            line = ("position startpos moves " + " ".join(moves[:ply])).encode()
            elapsed, out = ask(line)
            latencies.append(elapsed)
            past_ruling += ruled and not out
            for raw in out:
                text = raw.decode()
                if text.startswith("ruling "):
                    rulings += 1
                    ruled = True
                    reason = text.split()[4]
                    reasons[reason] = reasons.get(reason, 0) + 1
                elif text.startswith("error "):
                    other_errors += 1
        games_with_ruling += ruled
    total = time.perf_counter() - started
    peak_kib = vm_kib(child.pid, "VmHWM")
    stdin.write(b"quit\n")
    stdin.close()
    status = child.wait(timeout=30)
    latencies.sort()
    return Result(
        total_s=total,
        commands=len(latencies),
        median_ms=statistics.median(latencies),
        p99_ms=percentile(latencies, 0.99),
        max_ms=latencies[-1],
        peak_kib=peak_kib,
        rulings=rulings,
        reasons=reasons,
        games_with_ruling=games_with_ruling,
        past_ruling=past_ruling,
        other_errors=other_errors,
        exit=status,
        over_1ms=sum(1 for value in latencies if value > 1.0),
    )


def transport_floor(argv: list[str], count: int) -> tuple[float, float]:
    """Median and p99 (ms) of ``isready`` alone: the pipe round trip with no work to do, measured
    on the same machine under the same load, to read the command latencies against."""
    child = spawn(argv)
    assert child.stdin is not None and child.stdout is not None
    times = []
    for _ in range(count):
        started = time.perf_counter_ns()
        child.stdin.write(b"isready\n")
        if child.stdout.readline() != b"readyok\n":
            raise SystemExit("xqadj did not answer readyok")
        times.append((time.perf_counter_ns() - started) / 1e6)
    child.stdin.write(b"quit\n")
    child.stdin.close()
    child.wait(timeout=30)
    times.sort()
    return statistics.median(times), percentile(times, 0.99)


def in_process(games: list[list[str]]) -> tuple[float, float, dict[str, float]]:
    """The same commands through an in-process Session (no pipes, no process): median and p99
    of the handling time alone, and the p99 by kind of command, to tell the two costs apart."""
    from xqadj.protocol import Session

    session = Session()
    by_kind: dict[str, list[float]] = {"plain": [], "ruling": [], "past-ruling": []}
    for moves in games:
        session.handle("ucinewgame")
        ruled = False
        for ply in range(1, len(moves) + 1):
            line = "position startpos moves " + " ".join(moves[:ply])
            started = time.perf_counter_ns()
            out = session.handle(line)
            elapsed = (time.perf_counter_ns() - started) / 1e6
            kind = "ruling" if out else "past-ruling" if ruled else "plain"
            ruled = ruled or bool(out)
            by_kind[kind].append(elapsed)
    everything = sorted(v for values in by_kind.values() for v in values)
    p99_by_kind = {k: percentile(sorted(v), 0.99) for k, v in by_kind.items() if v}
    return statistics.median(everything), percentile(everything, 0.99), p99_by_kind


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=Path, default=DEFAULT_GAMES_DIR)
    parser.add_argument("--limit", type=int, default=0, help="only the first N games (0: all)")
    parser.add_argument("--starts", type=int, default=10, help="fresh starts to time")
    args = parser.parse_args()

    games = load_games(args.games)
    if args.limit:
        games = games[: args.limit]
    plies = sum(len(g) for g in games)
    print(f"xqadj protocol benchmark: {len(games):,} games, {plies:,} plies from {args.games}")
    print(f"python {sys.version.split()[0]}, one process (python -m xqadj), pipes; {load()}")

    result = run_games(command("python-m"), games)
    print("\nGUI-style `position startpos moves ...` line per ply, then isready/readyok:")
    print(f"  commands            {result.commands:,}")
    print(
        f"  total time          {result.total_s:.2f} s "
        f"({result.commands / result.total_s:,.0f} commands/s, round trip included)"
    )
    print(f"  latency median      {result.median_ms:.3f} ms")
    print(
        f"  latency p99         {result.p99_ms:.3f} ms   "
        f"(target < {P99_TARGET_MS:g} ms: {ok(result.p99_ms < P99_TARGET_MS)})"
    )
    print(f"  latency max         {result.max_ms:.3f} ms")
    print(f"  peak memory (VmHWM) {result.peak_kib / 1024:.1f} MiB")
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(result.reasons.items()))
    print(
        f"  rulings             {result.rulings} in {result.games_with_ruling} games "
        f"({reasons or 'none'})"
    )
    print(f"  past a ruling       {result.past_ruling} (lines followed after the game's ruling)")
    print(f"  other errors        {result.other_errors}")
    print(f"  exit status         {result.exit}")
    print(
        f"  commands over 1 ms  {result.over_1ms:,} "
        f"({100 * result.over_1ms / result.commands:.2f} %)"
    )
    floor_median, floor_p99 = transport_floor(command("python-m"), 20_000)
    print(
        f"  transport floor: `isready` alone, 20,000 round trips: median {floor_median:.3f} ms, "
        f"p99 {floor_p99:.3f} ms"
    )
    median, p99, by_kind = in_process(games)
    kinds = ", ".join(f"{k} {v:.3f} ms" for k, v in by_kind.items())
    print(
        f"  for comparison, the same commands in-process (Session.handle alone, no pipes): "
        f"median {median:.3f} ms, p99 {p99:.3f} ms; p99 by kind: {kinds}"
    )
    print(f"  {load()} after the run")

    print(f"\nstart-up to uciok, {args.starts} fresh starts each:")
    for name in ("python-m", "console-script"):
        argv = command(name)
        if name == "console-script" and not Path(argv[0]).exists():
            print(f"  {name:15}     (not installed)")
            continue
        times = startup_ms(argv, args.starts)
        median = statistics.median(times)
        print(
            f"  {name:15} median {median:.1f} ms, min {min(times):.1f}, max {max(times):.1f}   "
            f"(target < {STARTUP_TARGET_MS:g} ms: {ok(median < STARTUP_TARGET_MS)})"
        )

    print(
        "\npeer comparison: none exists for this protocol (no other adjudicator speaks it), so "
        "there is no peer to compare with."
    )
    failed = result.other_errors or result.exit
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
