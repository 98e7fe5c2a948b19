"""``xqadj match --cluster``: game pairs played on a real Dask ``LocalCluster`` of 2 worker
processes.  The same games are scheduled and scored as in a local match; a worker killed
mid-match loses no game and none is counted twice; a worker that cannot start an engine is left
out; the SPRT's stop and Ctrl-C leave no engine and no worker running; Fairy-Stockfish at a fixed
depth plays the same games on the cluster as here.

The fake engine (``engines/fake_engine.py``) plays the first legal move, so that a game
depends on its opening and colours only, wherever it is played."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from support import skip_or_fail
from test_integrations import pgn_games

from xqadj.board import STARTING_FEN
from xqadj.integrations.engine import EngineSpec, SearchLimit
from xqadj.integrations.match import Match, MatchConfig, MatchError, Opening
from xqadj.integrations.match.cluster import ClusterRunner, pairs, play_pair
from xqadj.integrations.match.game import SWITCH_INTERVAL, game_jobs

try:
    from dask.distributed import Client, LocalCluster
except ImportError:  # pragma: no cover - dask is in the test extra
    Client = LocalCluster = None

REPO = Path(__file__).resolve().parents[1]
ENGINE = Path(__file__).resolve().parent / "engines" / "fake_engine.py"
#: A bound for a match that must end by itself: reaching it means xqadj hung (not a speed test).
HANG_GUARD = 180
OPENINGS = [
    Opening(STARTING_FEN, ("h2e2", "h9g7")),
    Opening(STARTING_FEN, ("b2e2", "b9c7")),
    Opening(STARTING_FEN, ("c3c4", "c6c5")),
]


def fake(name: str, *options: str) -> EngineSpec:
    return EngineSpec([sys.executable, str(ENGINE), "--score", "0", *options], name=name)


def config(pgn: Path, games: int = 6, **changes: Any) -> MatchConfig:
    engines = changes.pop("engines", None) or [fake("A"), fake("B")]
    return MatchConfig(
        engines,
        games=games,
        openings=OPENINGS,
        limit=changes.pop("limit", SearchLimit(None, 1, None)),
        max_plies=changes.pop("max_plies", 10),
        pgn=pgn,
        **changes,
    )


def games_by_round(pgn: Path) -> dict[str, dict[str, str]]:
    """The PGN's games by their Round tag, without the tags that say when they were played."""
    games = {}
    for game in pgn_games(pgn):
        for tag in ("Date", "Time"):
            game.pop(tag, None)
        assert game["Round"] not in games, f"game {game['Round']} written twice"
        games[game["Round"]] = game
    return games


def test_the_same_games_as_a_local_match_and_resume(
    scheduler: tuple[str, Any], tmp_path: Path
) -> None:
    address, _ = scheduler
    local_pgn, cluster_pgn = tmp_path / "local.pgn", tmp_path / "cluster.pgn"
    here = Match(config(local_pgn), io.StringIO()).run()
    out, err = io.StringIO(), io.StringIO()
    cluster_config = config(cluster_pgn)
    runner = ClusterRunner(cluster_config, address, err)
    there = Match(cluster_config, out, runner).run()
    assert len(runner.workers) == 2 and err.getvalue() == ""
    assert [r.number for r in there.records] == [r.number for r in here.records]
    assert [r.number for r in here.records] == [1, 2, 3, 4, 5, 6]
    assert [(r.red, r.black, r.result) for r in there.records] == [
        (r.red, r.black, r.result) for r in here.records
    ]
    expected = games_by_round(local_pgn)
    assert games_by_round(cluster_pgn) == expected
    assert len({game["movetext"] for game in expected.values()}) > 1  # the openings differ
    assert sum(line.startswith("game ") for line in out.getvalue().splitlines()) == 6

    # --resume on the cluster: the games the PGN lacks are played, the others kept.
    # The file is in the order the games finished: keep games 1, 2 and 4 by their number.
    blocks = re.split(r"(?m)^(?=\[Game )", cluster_pgn.read_text(encoding="utf-8"))[1:]
    kept = [b for b in blocks if re.search(r'^\[MatchGame "[124]"\]', b, re.M)]
    assert len(kept) == 3
    cluster_pgn.write_text("".join(kept), encoding="utf-8")
    resumed_config = config(cluster_pgn, resume=True)
    out = io.StringIO()
    resumed = Match(resumed_config, out, ClusterRunner(resumed_config, address, err)).run()
    assert resumed.resumed == 3
    assert sorted(r.number for r in resumed.records) == [3, 5, 6]
    assert games_by_round(cluster_pgn) == expected


def test_a_worker_that_cannot_start_an_engine_is_left_out(
    scheduler: tuple[str, Any], tmp_path: Path
) -> None:
    """The engine command fails on one worker only (the engine's parent is that worker)."""
    address, client = scheduler
    pids = client.run(os.getpid)
    victim_address = sorted(pids)[0]
    victim = pids[victim_address]
    engine = shlex.join([sys.executable, str(ENGINE)])
    picky = f'[ "$PPID" = {victim} ] && exit 3; exec {engine}'
    engines = [EngineSpec(["sh", "-c", picky], name="A"), fake("B")]
    match_config = config(tmp_path / "m.pgn", games=4, engines=engines)
    err = io.StringIO()
    runner = ClusterRunner(match_config, address, err)
    result = Match(match_config, io.StringIO(), runner).run()
    assert runner.workers == set(pids) - {victim_address}
    assert list(runner.left_out) == [victim_address]
    assert err.getvalue().startswith(f"xqadj match: worker {victim_address} left out: ")
    assert "engine 'A' did not start" in err.getvalue()
    assert [r.number for r in result.records] == [1, 2, 3, 4]
    assert not any("forfeit" in r.termination for r in result.records)

    # No worker can: the match stops before its first game.
    engines = [EngineSpec(["sh", "-c", "exit 3"], name="A"), fake("B")]
    match_config = config(tmp_path / "none.pgn", games=4, engines=engines)
    with pytest.raises(MatchError, match="no worker of the cluster at .* can start every engine"):
        Match(match_config, io.StringIO(), ClusterRunner(match_config, address, err)).run()


def test_a_worker_killed_mid_match_loses_no_game(
    scheduler: tuple[str, Any], tmp_path: Path
) -> None:
    address, client = scheduler
    pgn = tmp_path / "m.pgn"
    thinking = [fake("A", "--think", "40"), fake("B", "--think", "40")]
    match_config = config(pgn, games=8, engines=thinking, max_plies=12)
    killed: list[int] = []

    class KillAtFirstGame(io.StringIO):
        """Kills a worker that is playing a pair when the first game is in."""

        def write(self, text: str) -> int:
            if text.startswith("game ") and not killed:
                processing = client.processing()
                busy = [worker for worker, keys in processing.items() if keys]
                pids = client.run(os.getpid, workers=busy)
                killed.append(pids[busy[0]])
                os.kill(killed[0], signal.SIGKILL)
            return super().write(text)

    out = KillAtFirstGame()
    match = Match(match_config, out, ClusterRunner(match_config, address, io.StringIO()))
    result = match.run()
    assert killed and killed[0] not in client.run(os.getpid).values()
    assert [r.number for r in result.records] == list(range(1, 9))
    assert match.tally.done == 8
    lines = out.getvalue().splitlines()
    assert sum(line.startswith("game ") for line in lines) == 8  # none reported twice
    assert sorted(int(g["MatchGame"]) for g in pgn_games(pgn)) == list(range(1, 9))


def test_a_worker_plays_a_pair_with_the_short_switch_interval(
    scheduler: tuple[str, Any], tmp_path: Path
) -> None:
    """The worker playing a pair lowers its thread switch interval as the local runner does
    (where a game's thread stamps the time a move is charged), and restores it after."""
    address, client = scheduler
    # The cluster is shared with the tests before: a pair they stopped may still be ending on a
    # worker, its interval still lowered.  Wait for the workers to be idle first.
    deadline = time.monotonic() + HANG_GUARD
    before = client.run(sys.getswitchinterval)
    while not all(i > SWITCH_INTERVAL for i in before.values()) and time.monotonic() < deadline:
        time.sleep(0.1)
        before = client.run(sys.getswitchinterval)
    assert all(interval > SWITCH_INTERVAL for interval in before.values()), before
    log = tmp_path / "A.log"
    # A never answers a go: the pair is in play until the match is stopped.
    engines = [fake("A", "--hang-at", "any", "--log", str(log)), fake("B")]
    limit = SearchLimit(None, 1, None, search_timeout=HANG_GUARD)
    match_config = config(tmp_path / "m.pgn", games=2, engines=engines, limit=limit)
    match = Match(match_config, io.StringIO(), ClusterRunner(match_config, address))
    results: list[Any] = []
    playing = threading.Thread(target=lambda: results.append(match.run()))
    playing.start()
    try:
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline and playing.is_alive():
            if log.exists() and any(line.startswith("go ") for line in log.read_text().split("\n")):
                break
            time.sleep(0.1)
        during = client.run(sys.getswitchinterval)
    finally:
        match.stop()
        playing.join(HANG_GUARD)
    assert results and results[0].records == []  # stopped in its first game: none scored
    assert sorted(during.values()) == [SWITCH_INTERVAL, max(before.values())]
    # Restored once the pair has returned on its worker.
    deadline = time.monotonic() + HANG_GUARD
    while client.run(sys.getswitchinterval) != before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.run(sys.getswitchinterval) == before


def test_pairs_keep_the_games_of_an_encounter_together(tmp_path: Path) -> None:
    """A task is a game pair; one game where --resume left one of its pair, or with --games 1."""
    match_config = config(tmp_path / "m.pgn", games=5)
    match = Match(match_config, io.StringIO())
    jobs = game_jobs(match_config, match.schedule, match.book, match.players, 0)
    assert [[j.scheduled.number for j in pair] for pair in pairs(jobs)] == [[1, 2], [3, 4], [5]]
    assert [[j.scheduled.number for j in pair] for pair in pairs(jobs[1:])] == [[2], [3, 4], [5]]


@pytest.mark.parametrize(
    "options, message",
    [
        (["--cluster", "local:0"], "local:N needs N of 1 or more, got 'local:0'"),
        (["--cluster", "nowhere"], "not a cluster address: 'nowhere'"),
    ],
)
def test_bad_cluster_addresses(options: list[str], message: str) -> None:
    engine = shlex.join([sys.executable, str(ENGINE)])
    command = ["match", "--engine", f"cmd={engine}", "--engine", f"cmd={engine}", *options]
    run = subprocess.run(
        [sys.executable, "-m", "xqadj", *command], capture_output=True, text=True, cwd=REPO
    )
    assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr


def test_cluster_without_dask_says_how_to_install_it() -> None:
    hide_dask = (
        "import sys; sys.modules['dask'] = None; sys.modules['dask.distributed'] = None; "
        "from xqadj.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    engine = shlex.join([sys.executable, str(ENGINE)])
    command = ["match", "--engine", f"cmd={engine}", "--engine", f"cmd={engine}"]
    run = subprocess.run(
        [sys.executable, "-c", hide_dask, *command, "--cluster", "local:2"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert run.returncode == 2
    assert run.stderr == (
        "xqadj match: --cluster needs Dask distributed: pip install 'xqadj[cluster]'\n"
    )
    assert run.stdout == ""


# -- the command: the SPRT's stop and Ctrl-C leave nothing running --------------------------------


def _engine_processes(marker: str) -> list[int]:
    """The processes whose command line holds ``marker`` (this test's engines' log path)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if marker in command:
            found.append(int(entry.name))
    return found


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _gone(check: Any) -> bool:
    """Whether ``check()`` turns false within a few seconds (processes being reaped)."""
    for _ in range(100):
        if not check():
            return True
        time.sleep(0.1)
    return False


def _match_command(tmp_path: Path, *options: str, think: int = 0) -> list[str]:
    """A and B on ``local:2``, logging to ``tmp_path``; A believes it wins, B that it loses."""

    def engine(name: str, score: int) -> list[str]:
        log = tmp_path / f"{name}.log"
        settings = ["--log", str(log), "--score", str(score), "--think", str(think)]
        command = shlex.join([sys.executable, str(ENGINE), *settings])
        return ["--engine", f"cmd={command}", f"name={name}"]

    return [sys.executable, "-m", "xqadj", "match", *options, "--cluster", "local:2"] + [
        *engine("A", 1000),
        *engine("B", -1000),
    ]


def test_sprt_stop_on_the_cluster_leaves_nothing_running(tmp_path: Path) -> None:
    if LocalCluster is None:
        skip_or_fail("dask[distributed] is not installed")
    command = _match_command(
        tmp_path,
        *("--resign", "movecount=1", "score=500", "--rounds", "1000"),
        *("--sprt", "elo0=0", "elo1=50", "model=logistic", "--pgn", str(tmp_path / "m.pgn")),
    )
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        text=True,
        start_new_session=True,
    ) as process:
        stdout, stderr = process.communicate(timeout=HANG_GUARD)
    assert process.returncode == 0, stderr
    # B resigns at once: every pair is 2-0 for A, and 23 pairs decide (as in a local match).
    assert "SPRT: H1 accepted (LLR: 3.07 (-2.94, 2.94) - H1 accepted) after 46 games" in stdout
    played = int(re.search(r"over (\d+) games", stdout.splitlines()[-1]).group(1))
    # The queued pairs were cancelled: only the (at most 4) pairs under way could finish.
    assert 46 <= played <= 46 + 8
    assert len(pgn_games(tmp_path / "m.pgn")) == played
    assert _gone(lambda: _engine_processes(str(tmp_path))), "an engine was left running"
    assert _gone(lambda: _group_alive(process.pid)), "a worker process was left running"


def test_ctrl_c_on_the_cluster_leaves_nothing_running(tmp_path: Path) -> None:
    if LocalCluster is None:
        skip_or_fail("dask[distributed] is not installed")
    # Engines that think 3 s a move (within the 5 s grace): games in progress at the Ctrl-C.
    command = _match_command(tmp_path, "--games", "8", "--concurrency", "2", think=3000)
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        text=True,
        start_new_session=True,
    ) as process:
        # Wait until both workers' games have sent a first `go`.
        deadline = time.monotonic() + HANG_GUARD
        logs = [tmp_path / "A.log", tmp_path / "B.log"]
        while time.monotonic() < deadline:
            text = "".join(log.read_text() for log in logs if log.exists())
            if text.count("go ") >= 2 or process.poll() is not None:
                break
            time.sleep(0.1)
        assert process.poll() is None
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
        stdout, stderr = process.communicate(timeout=HANG_GUARD)
    assert process.returncode == 130, stderr
    assert stderr.splitlines()[-1] == "xqadj match: interrupted; 0 finished games kept"
    assert "Traceback" not in stderr
    assert _gone(lambda: _engine_processes(str(tmp_path))), "an engine was left running"
    assert _gone(lambda: _group_alive(process.pid)), "a worker process was left running"


#: A bound for the workers to notice that a match is gone (reaching it means they did not).
ORPHAN_BOUND = 60


def _wait_for_two_games(process: subprocess.Popen[str], tmp_path: Path) -> None:
    """Wait until two games (each worker's first) have sent their first `go`."""
    deadline = time.monotonic() + HANG_GUARD
    logs = [tmp_path / "A.log", tmp_path / "B.log"]
    while time.monotonic() < deadline:
        text = "".join(log.read_text() for log in logs if log.exists())
        if text.count("go ") >= 2 or process.poll() is not None:
            break
        time.sleep(0.1)
    assert process.poll() is None, process.communicate()[1]


def _kill_engines(tmp_path: Path) -> None:
    for pid in _engine_processes(str(tmp_path)):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (ended, not reaped yet)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _workers_idle(client: Any) -> bool:
    """Whether no worker runs a task: none is processing one for the scheduler, and no thread
    of a worker plays on one that the scheduler has forgotten (Dask's ``cancelled`` state)."""

    def executing(dask_worker: Any) -> int:
        return len(dask_worker.state.executing) + len(dask_worker.state.long_running)

    return not any(client.processing().values()) and not any(client.run(executing).values())


def test_a_killed_client_leaves_no_game_playing_on_the_cluster(
    scheduler: tuple[str, Any], tmp_path: Path
) -> None:
    """SIGKILL the match client while both workers play a pair: nothing tells the workers, but
    the scheduler drops the dead client's tasks, and each pair, seeing its task no longer
    wanted, kills its engines.  A second match on the same cluster then plays normally."""
    address, client = scheduler
    pids = tmp_path / "pids"
    # Engines that think 20 s a move: a pair left alone would play on for many minutes.
    command = _match_command(
        tmp_path, "--games", "8", "--depth", "1", "--timeout", "600", think=20000
    )
    command[command.index("local:2")] = address
    command = [
        part.replace("--think", f"--pidfile {shlex.quote(str(pids))} --think") for part in command
    ]
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            _wait_for_two_games(process, tmp_path)
            assert sum(1 for keys in client.processing().values() if keys) == 2
            assert _engine_processes(str(tmp_path))
            process.kill()
            process.communicate(timeout=HANG_GUARD)
            # A bound for the pairs to notice (not a speed test: they do within a second).
            deadline = time.monotonic() + ORPHAN_BOUND
            while time.monotonic() < deadline:
                if not _engine_processes(str(tmp_path)) and _workers_idle(client):
                    break
                time.sleep(0.2)
            assert not _engine_processes(str(tmp_path)), "an engine was left running"
            assert _workers_idle(client), "a worker still plays a pair of the dead match"
            # Every engine the pid file knows of (the handshakes' too) has ended.
            assert not [pid for pid in map(int, pids.read_text().split()) if _running(pid)]
        finally:
            _kill_engines(tmp_path)  # orphans would play on into the next tests

    # The same cluster plays the next match as if nothing had happened.
    match_config = config(tmp_path / "next.pgn", games=4)
    runner = ClusterRunner(match_config, address, io.StringIO())
    result = Match(match_config, io.StringIO(), runner).run()
    assert len(runner.workers) == 2
    assert [r.number for r in result.records] == [1, 2, 3, 4]
    assert not any("forfeit" in r.termination for r in result.records)


def test_a_worker_that_loses_its_scheduler_kills_its_engines(tmp_path: Path) -> None:
    """The scheduler goes (the worker's nanny stays): the worker closes, and the pair it plays
    kills its engines, here ones that quit neither at ``quit`` nor at the end of their input,
    which the worker's end would leave running for good."""
    if LocalCluster is None:
        skip_or_fail("dask[distributed] is not installed")
    marker = str(tmp_path)
    log = tmp_path / "A.log"
    stubborn = ["--ignore-quit", "--think", "20000", "--log", str(log)]
    engines = (fake("A", *stubborn), fake("B", "--ignore-quit", "--log", marker + "/B.log"))
    match_config = config(tmp_path / "m.pgn", games=2, engines=list(engines))
    match = Match(match_config, io.StringIO())
    jobs = game_jobs(match_config, match.schedule, match.book, match.players, 0)
    cluster = LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    client = Client(cluster)
    try:
        client.submit(play_pair, "m", tuple(jobs), engines, 10.0, pure=False)
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            if log.exists() and "go " in log.read_text():
                break
            time.sleep(0.1)
        assert "go " in log.read_text() and _engine_processes(marker)
        cluster.sync(cluster.scheduler.close)
        # A bound for the pair to notice (not a speed test: it does within a second).
        deadline = time.monotonic() + ORPHAN_BOUND
        while _engine_processes(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _engine_processes(marker), "an engine was left running"
    finally:
        _kill_engines(tmp_path)
        with contextlib.suppress(Exception):
            client.close(timeout=10)
        with contextlib.suppress(Exception):
            cluster.close(timeout=10)


def test_fairy_stockfish_at_a_fixed_depth_on_the_cluster(
    scheduler: tuple[str, Any], fairy_stockfish: str, tmp_path: Path
) -> None:
    """The same games scheduled, each played to its end on a worker.  Not the same moves in
    every game: an engine kept from game to game (here) searches from its own history, one
    started for the pair (on a worker) does not."""
    address, _ = scheduler
    options = {"Threads": "1", "Hash": "16"}
    engines = [
        EngineSpec([fairy_stockfish], notation="fairy", name="FS-1", options=options),
        EngineSpec([fairy_stockfish], protocol="ucci", name="FS-2", options=options),
    ]
    depth = SearchLimit(None, 4)
    local_pgn, cluster_pgn = tmp_path / "local.pgn", tmp_path / "cluster.pgn"
    Match(config(local_pgn, games=4, engines=engines, limit=depth), io.StringIO()).run()
    cluster_config = config(cluster_pgn, games=4, engines=engines, limit=depth)
    there = Match(cluster_config, io.StringIO(), ClusterRunner(cluster_config, address)).run()
    assert [r.number for r in there.records] == [1, 2, 3, 4]
    assert not any("forfeit" in r.termination for r in there.records)
    assert all(len(r.moves) > 2 for r in there.records)  # the engines played past the book

    def scheduled(pgn: Path) -> dict[str, tuple[str, ...]]:
        """Each game's number, engines, colours and opening (its first two plies)."""
        return {
            number: (g["MatchGame"], g["Red"], g["Black"], *g["movetext"].split()[:3])
            for number, g in games_by_round(pgn).items()
        }

    assert scheduled(cluster_pgn) == scheduled(local_pgn)
