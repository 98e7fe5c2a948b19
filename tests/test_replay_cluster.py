"""``xqadj replay --cluster``: a real Dask ``LocalCluster`` of 2 worker processes rules the same
games, in the same order, as one process; a worker killed mid-run loses nothing; a chunk cut
inside a game's comment reads as the whole file does.  Also ``--csv`` and the message without
Dask."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import skip_or_fail
from test_replay import REPO, _without_time, game_files, run

from xqadj.integrations.replay import Options, Outcome, replay_paths

try:
    from dask.distributed import Client, LocalCluster
except ImportError:  # pragma: no cover - dask is in the test extra
    Client = LocalCluster = None


def _outcomes(paths: list[str], **kwargs: Any) -> list[Outcome]:
    _, outcomes = replay_paths(paths, Options(), **kwargs)
    return list(outcomes)


@pytest.fixture(scope="module")
def serial() -> list[Outcome]:
    return _outcomes([str(p) for p in game_files()], chunk_bytes=None)


def test_cluster_rules_the_master_games_as_one_process(
    scheduler: tuple[str, Any], serial: list[Outcome]
) -> None:
    address, _ = scheduler
    on_cluster = _outcomes([str(p) for p in game_files()], cluster=address, chunk_bytes=100_000)
    assert len(on_cluster) == 2516
    assert on_cluster == serial


def test_a_worker_killed_mid_run_loses_nothing(
    scheduler: tuple[str, Any], serial: list[Outcome]
) -> None:
    address, client = scheduler
    summary, outcomes = replay_paths(
        [str(p) for p in game_files()], Options(), cluster=address, chunk_bytes=32_000
    )
    got = [next(outcomes)]
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    os.kill(victim, signal.SIGKILL)  # mid-run: the first results are in, most are not
    got.extend(outcomes)
    assert got == serial
    assert summary.games == 2516 and summary.skipped == 0


def test_a_chunk_cut_inside_a_comment_on_the_cluster(
    scheduler: tuple[str, Any], tmp_path: Path
) -> None:
    address, _ = scheduler
    comment = "\n".join(f"{n}. h2e2 h9g7 ( [see {n}] ;" for n in range(30))
    games = [
        f'[Event "g{n}"]\n\n1. h2e2 h9g7 {{{comment}\n}} 2. h0g2 i9h9 3. i0h0 *\n\n'
        for n in range(12)
    ]
    path = tmp_path / "comments.pgn"
    path.write_text("".join(games), encoding="utf-8")
    # Cuts every 700 bytes fall inside the 1.3 KB comments.
    on_cluster = _outcomes([str(path)], cluster=address, chunk_bytes=700)
    assert on_cluster == _outcomes([str(path)], chunk_bytes=None)
    assert [o.index for o in on_cluster] == list(range(1, 13))
    assert all(o.error is None and o.plies == 5 for o in on_cluster)


def test_cli_cluster_local_2_output_is_the_jobs_1_output() -> None:
    files = game_files()
    serial = run(*files)
    clustered = run("--cluster", "local:2", *files)
    assert clustered.returncode == serial.returncode == 0, clustered.stderr
    assert _without_time(clustered.stdout) == _without_time(serial.stdout)
    assert clustered.stderr == ""  # no Dask warnings or logs on the user's terminal


def test_cluster_without_dask_says_how_to_install_it() -> None:
    hide_dask = (
        "import sys; sys.modules['dask'] = None; sys.modules['dask.distributed'] = None; "
        "from xqadj.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", hide_dask, "replay", "--cluster", "local:2", str(game_files()[0])],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
    )
    assert result.returncode == 2
    assert "pip install 'xqadj[cluster]'" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_csv_one_row_per_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "x"]\n\n1. h2e2 h9g7 2. a0a5 *\n', encoding="utf-8")
    table = tmp_path / "out.csv"
    result = run("--csv", table, *game_files(), bad, tmp_path / "missing.pgn")
    assert result.returncode == 1
    with table.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2516 + 2
    statuses = [row["status"] for row in rows]
    assert statuses.count("ruled") == 236 and statuses.count("not-ruled") == 2280
    assert rows[-2]["status"] == "skipped" and rows[-2]["error"] == "IllegalMoveError"
    assert rows[-2]["error_ply"] == "3" and rows[-2]["move"] == "a0a5"
    assert rows[-1]["status"] == "file-skipped" and rows[-1]["error"] == "UnreadableFile"
    hu51 = rows[50]
    assert (hu51["index"], hu51["reason"], hu51["ruling_ply"], hu51["offender"]) == (
        "51",
        "perpetual-chase",
        "82",
        "red",
    )
    assert len(hu51["cycle"].split()) >= 4
    # The text output is the same as without --csv.
    assert "skipped 1 (IllegalMoveError 1); files skipped 1 (UnreadableFile 1)" in result.stdout


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("options", [["--jobs", "2"], ["--cluster", "local:2"]])
def test_ctrl_c_stops_quietly_and_leaves_no_process(tmp_path: Path, options: list[str]) -> None:
    """Before, under --cluster every Dask worker printed a traceback of its own."""
    if "--cluster" in options and LocalCluster is None:
        skip_or_fail("dask[distributed] is not installed")
    big = tmp_path / "big.pgn"
    big.write_text("".join(p.read_text(encoding="utf-8") for p in game_files()) * 3)
    command = [sys.executable, "-m", "xqadj", "replay", *options, str(big)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=env,
        text=True,
        start_new_session=True,
    ) as process:
        assert process.stdout is not None
        assert process.stdout.readline()  # the run is under way
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
        _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130
    assert stderr == "xqadj replay: interrupted\n"
    for _ in range(100):
        if not _group_alive(process.pid):
            break
        subprocess.run(["sleep", "0.1"])
    assert not _group_alive(process.pid), "a worker process was left running"


#: Runs a command as a child subreaper (so that the processes it orphans are reparented here,
#: not to PID 1), reads two lines of its output and closes it as `| head -2` does, waits for it,
#: and prints what was reparented: each orphan's pid, state and command line.
_SUBREAPER = r"""
import ctypes, json, os, subprocess, sys, time
if ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
    sys.exit(3)
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
process.stdout.readline(), process.stdout.readline()
process.stdout.close()
stderr = process.stderr.read().decode()
status = process.wait()

def orphans():
    found = []
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as handle:
            for pid in handle.read().split():
                try:
                    with open(f"/proc/{pid}/stat") as stat:
                        state = stat.read().rsplit(")", 1)[1].split()[0]
                    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                        command = cmdline.read().replace(b"\0", b" ").decode()
                except OSError:
                    continue
                found.append([int(pid), state, command])
    return found

deadline = time.monotonic() + 20
while any(state != "Z" for _, state, _ in orphans()) and time.monotonic() < deadline:
    time.sleep(0.1)
left = orphans()
for pid, _, _ in left:
    try:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    except OSError:
        pass
print(json.dumps({"status": status, "stderr": stderr, "orphans": left}))
"""


def test_cluster_local_piped_to_head_leaves_no_process_and_prints_no_traceback() -> None:
    """Before: every `replay --cluster local:N` run left a defunct `python3` (multiprocessing's
    resource tracker) reparented to PID 1, and `| head` printed a Dask worker's heartbeat
    traceback in 2 of 10 runs (so this runs it three times)."""
    if LocalCluster is None:
        skip_or_fail("dask[distributed] is not installed")
    files = [str(p) for p in game_files()]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "xqadj", "replay", "--cluster", "local:2", *files]
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", _SUBREAPER, *command],
            capture_output=True,
            text=True,
            env=env,
            cwd=REPO,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert report["orphans"] == []
        assert report["status"] == 141
        assert report["stderr"] == ""
