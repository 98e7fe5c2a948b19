"""Soak: 1,000,000 plies of real master games through one ``python -m xqadj`` process.

The 2,516 games of ``/work/shared/games`` (221,678 plies) are played one after another, over and
over, with ``ucinewgame`` between games and ``move`` commands of several plies each; every other
pass is played in fairy notation.  Each game is cut at its ruling (the in-process referee says where
it falls, so no line is refused), and the process must print exactly the ruling line and final
status line that an in-process :class:`~xqadj.protocol.Session` prints.  Commands are written in
blocks through a pipe, with an ``isready`` sync after each block; the child's RSS
(``/proc/<pid>/status`` VmRSS) is sampled about every 50,000 plies and must stay flat: the last
sample may exceed the one taken after the first 100,000 plies by less than 20 MiB.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from xqadj.protocol import Session

ROOT = Path(__file__).resolve().parents[1]
XQADJ = [sys.executable, "-m", "xqadj"]
TOTAL_PLIES = 1_000_000
PLIES_PER_LINE = 8
GAMES_PER_BLOCK = 25
SAMPLE_EVERY = 50_000
WARM_UP = 100_000
MAX_GROWTH_KIB = 20 * 1024
TIMEOUT = 120.0

sys.path.insert(0, str(ROOT))
try:
    from bench.games import load_games
except ImportError:  # pragma: no cover - bench/games.py is part of the project
    load_games = None  # type: ignore[assignment]


def games_dir() -> Path | None:
    for path in (ROOT.parent / "shared" / "games", Path("/work/shared/games")):
        if path.is_dir() and any(path.glob("*.pgn")):
            return path
    return None


@dataclass
class PlannedGame:
    """A game cut at its ruling, in one notation, with the output it must produce."""

    lines: list[str]  # the commands: ucinewgame, move …, status
    expected: list[str]  # every output line of those commands
    plies: int


def plan(games: list[list[str]], notation: str) -> list[PlannedGame]:
    """Follow every game in-process to know where it ends and what must be printed."""
    session = Session()
    session.handle(f"setoption name Notation value {notation}")
    planned = []
    for moves in games:
        session.handle("ucinewgame")
        played: list[str] = []
        expected: list[str] = []
        for text in moves:
            move = session._format(session.game.board.parse_move(text))
            out = session.handle(f"move {move}")
            assert not any(line.startswith("error") for line in out), out
            played.append(move)
            expected += out
            if session.game.ruling is not None:
                break
        lines = ["ucinewgame"]
        lines += [
            f"move {' '.join(played[i : i + PLIES_PER_LINE])}"
            for i in range(0, len(played), PLIES_PER_LINE)
        ]
        lines.append("status")
        expected += session.handle("status")
        planned.append(PlannedGame(lines, expected, len(played)))
    return planned


def rss_kib(pid: int, key: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {key} for {pid}")


@pytest.mark.slow
def test_one_million_plies_through_one_process() -> None:
    directory = games_dir()
    if directory is None or load_games is None:
        pytest.skip("the shared games are not available")
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc to read the child's memory")
    games = load_games(directory)
    plans = {"iccs": plan(games, "iccs"), "fairy": plan(games, "fairy")}

    popen = subprocess.Popen(
        XQADJ, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(ROOT)
    )
    assert popen.stdin is not None and popen.stdout is not None
    lines: queue.Queue[bytes | None] = queue.Queue()

    def reader() -> None:
        assert popen.stdout is not None
        for line in popen.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=reader, daemon=True).start()

    def send(text: str) -> None:
        assert popen.stdin is not None
        popen.stdin.write(text.encode())

    def collect() -> list[str]:
        """Everything printed up to the readyok of the last isready."""
        send("isready\n")
        popen.stdin.flush()  # type: ignore[union-attr]
        out: list[str] = []
        while True:
            try:
                raw = lines.get(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError("the process stopped answering") from None
            assert raw is not None, "the process ended early"
            line = raw.decode().rstrip("\n")
            if line == "readyok":
                return out
            out.append(line)

    started = time.perf_counter()
    plies = commands = rulings = 0
    samples: list[tuple[int, int]] = []  # (plies, RSS KiB)
    next_sample = SAMPLE_EVERY
    rss_after_warm_up: int | None = None
    game_index = 0
    notation = "iccs"
    try:
        while plies < TOTAL_PLIES:
            block = []
            for _ in range(GAMES_PER_BLOCK):
                pass_number, index = divmod(game_index, len(games))
                wanted = "fairy" if pass_number % 2 else "iccs"
                if wanted != notation:
                    send(f"setoption name Notation value {wanted}\n")
                    notation = wanted
                game = plans[notation][index]
                send("".join(line + "\n" for line in game.lines))
                commands += len(game.lines)
                block.append(game)
                game_index += 1
            out = collect()
            assert out == [line for game in block for line in game.expected], (
                f"output differs in the block ending with game {game_index}"
            )
            plies += sum(game.plies for game in block)
            rulings += sum(line.startswith("ruling ") for line in out)
            if plies >= next_sample:
                samples.append((plies, rss_kib(popen.pid)))
                next_sample += SAMPLE_EVERY
            if rss_after_warm_up is None and plies >= WARM_UP:
                rss_after_warm_up = rss_kib(popen.pid)
        final_rss = rss_kib(popen.pid)
        peak = rss_kib(popen.pid, "VmHWM")
        send("quit\n")
        popen.stdin.close()
        assert popen.wait(timeout=TIMEOUT) == 0
    finally:
        if popen.poll() is None:
            popen.kill()
            popen.wait()
    elapsed = time.perf_counter() - started
    assert rss_after_warm_up is not None
    growth = final_rss - rss_after_warm_up
    print(
        f"\nsoak: {plies:,} plies, {game_index:,} games, {commands:,} commands, {rulings} rulings "
        f"in {elapsed:.1f} s ({plies / elapsed:,.0f} plies/s); RSS after {WARM_UP:,} plies "
        f"{rss_after_warm_up / 1024:.1f} MiB, final {final_rss / 1024:.1f} MiB "
        f"(growth {growth / 1024:+.2f} MiB), peak {peak / 1024:.1f} MiB; samples (plies: MiB): "
        + ", ".join(f"{p // 1000}k: {r / 1024:.1f}" for p, r in samples)
    )
    assert growth < MAX_GROWTH_KIB, f"RSS grew by {growth} KiB: {samples}"
