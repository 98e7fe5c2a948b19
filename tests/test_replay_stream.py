"""``xqadj replay`` streams: its memory does not grow with the size of the file (issue 13).

Before, the whole file was read, decoded and split into lines before the first game was ruled: a
40 MB file took well over 150 MB.  The file here is mostly long comments, so that reading is the
work and the test stays fast; the peak resident set of the replay process is measured by a
wrapper process (``ru_maxrss`` of its children)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_replay import REPO

WRAPPER = r"""
import json, resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"code": code, "peak_kib": peak}))
"""


def peak_mib(*args: str | Path) -> float:
    command = [sys.executable, "-m", "xqadj", "replay", *map(str, args)]
    result = subprocess.run(
        [sys.executable, "-c", WRAPPER, *command],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=300,
        check=True,
    )
    figures = json.loads(result.stdout)
    assert figures["code"] == 0
    return float(figures["peak_kib"]) / 1024


def write_games(path: Path, games: int) -> None:
    comment_line = "a long comment line, as annotated databases have them, " * 2 + "\n"
    game = '[Event "annotated"]\n\n1. h2e2 {' + comment_line * 20_000 + "} h9g7 2. h0g2 i9h9 *\n\n"
    with path.open("w", encoding="utf-8") as out:
        for _ in range(games):
            out.write(game)


def test_memory_stays_flat_whatever_the_size_of_the_file(tmp_path: Path) -> None:
    small, big = tmp_path / "small.pgn", tmp_path / "big.pgn"
    write_games(small, 1)
    write_games(big, 20)
    assert big.stat().st_size > 40_000_000
    small_peak, big_peak = peak_mib(small), peak_mib("--json", big)
    # The interpreter and the library take about 20-30 MB; the file adds next to nothing.
    assert big_peak < small_peak + 15, (small_peak, big_peak)
    assert big_peak < 80, big_peak
