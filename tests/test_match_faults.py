"""``xqadj match`` against hostile engines and users: Ctrl-C, hangs behind wrapper scripts,
engines that do not start, floods, lies, an existing PGN file, UCCI's own ``go``, PGN as
xiangqi readers take it, and bad arguments.

The fake engine (``engines/fake_engine.py``) appends its pid to a file, so each test checks
that no engine process is left running; the ``pids`` fixture kills any that is (so a failing
test leaves nothing behind either).
"""

from __future__ import annotations

import itertools
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_integrations import D22_FEN, D22_MOVES, SCRIPTED, pgn_games

from xqadj.board import Board, Move
from xqadj.integrations.engine import KEPT_INFO_LINES, Engine, EngineSpec, SearchLimit
from xqadj.integrations.match import GameRecord, Opening

ENGINES = Path(__file__).resolve().parent / "engines"
FAKE = ENGINES / "fake_engine.py"
WRAPPER = ENGINES / "match_wrapper.sh"
#: A bound for a match that must end by itself: reaching it means xqadj hung (not a speed test).
HANG_GUARD = 120


def is_running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.fixture
def pids(tmp_path: Path) -> Iterator[Path]:
    """The file the fake engines append their pids to; kills leftovers at the end."""
    path = tmp_path / "pids"
    path.touch()
    yield path
    for pid in read_pids(path):
        if is_running(pid):
            os.kill(pid, signal.SIGKILL)


def read_pids(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()]


def assert_no_engine_left(path: Path) -> None:
    started = read_pids(path)
    assert started, "no engine was started"
    # The engines were killed or quit before xqadj exited; a killed process can take a moment
    # to leave the process table.
    for _ in range(100):
        left = [pid for pid in started if is_running(pid)]
        if not left:
            return
        time.sleep(0.05)
    raise AssertionError(f"engines still running: {left}")


def fake(name: str, pids: Path, *options: str, proto: str = "uci") -> list[str]:
    command = shlex.join([sys.executable, str(FAKE), "--pidfile", str(pids), *options])
    return [f"cmd={command}", f"proto={proto}", f"name={name}"]


def wrapped(name: str, pids: Path, *options: str) -> list[str]:
    command = shlex.join([str(WRAPPER), sys.executable, str(pids), *options])
    return [f"cmd={command}", f"name={name}"]


def two_fakes(pids: Path, *options: str) -> list[str]:
    """``--engine`` A and ``--engine`` B, the fake engine with ``options`` for both."""
    return ["--engine", *fake("A", pids, *options), "--engine", *fake("B", pids, *options)]


def match_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "xqadj", "match", *args]


def run_match(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        match_command(*args), capture_output=True, text=True, timeout=HANG_GUARD
    )


# -- Ctrl-C -------------------------------------------------------------------------------------


def wait_for_games(pgn: Path, count: int, process: subprocess.Popen[str]) -> None:
    for _ in range(HANG_GUARD * 20):
        if pgn.exists() and pgn.read_text().count("[Event ") >= count:
            return
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError(f"{pgn} never had {count} games")


@pytest.mark.parametrize(
    "target, concurrency", [("xqadj", "1"), ("process group", "1"), ("process group", "3")]
)
def test_ctrl_c_stops_the_match_and_keeps_the_finished_games(
    tmp_path: Path, pids: Path, target: str, concurrency: str
) -> None:
    pgn = tmp_path / "m.pgn"
    process = subprocess.Popen(
        match_command(
            *two_fakes(pids, "--think", "200"),
            "--games",
            "20",
            "--concurrency",
            concurrency,
            "--max-plies",
            "6",
            "--pgn",
            str(pgn),
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Its own group, as a shell gives a foreground job: the terminal's Ctrl-C goes to
        # the whole group.
        start_new_session=True,
    )
    try:
        wait_for_games(pgn, 1, process)
        if target == "xqadj":
            os.kill(process.pid, signal.SIGINT)
        else:
            os.killpg(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=HANG_GUARD)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted" in stderr
    games = pgn_games(pgn)
    played = [line for line in stdout.splitlines() if line.startswith("game ")]
    # Queued games were not started: far fewer than 20 games.
    assert 1 <= len(games) == len(played) < 20
    for game in games:
        # Only finished games, none scored because of the interrupt.
        assert game["Termination"] == "max-plies", game
        assert game["movetext"].rstrip().endswith("1/2-1/2")
    final = stdout.strip().splitlines()[-1]
    assert re.fullmatch(
        rf"final: A [\d.]+ - [\d.]+ B over {len(games)} games "
        rf"\(interrupted: {20 - len(games)} not played\)",
        final,
    ), final
    assert_no_engine_left(pids)


def test_sigterm_stops_the_match_too(tmp_path: Path, pids: Path) -> None:
    pgn = tmp_path / "m.pgn"
    process = subprocess.Popen(
        match_command(
            *two_fakes(pids, "--think", "200"),
            "--games",
            "20",
            "--max-plies",
            "6",
            "--pgn",
            str(pgn),
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_games(pgn, 1, process)
        process.terminate()
        stdout, stderr = process.communicate(timeout=HANG_GUARD)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 143, stderr
    assert "final: A" in stdout and "Traceback" not in stderr
    assert all(g["Termination"] == "max-plies" for g in pgn_games(pgn))
    assert_no_engine_left(pids)


# -- hangs, handshakes and engines that do not start --------------------------------------------


def test_hung_engine_behind_a_wrapper_script_is_killed_with_its_children(
    tmp_path: Path, pids: Path
) -> None:
    run = run_match(
        "--engine",
        *wrapped("Hangs", pids, "--hang-at", "0", "--ignore-term"),
        "--engine",
        *fake("Good", pids),
        "--games",
        "2",
        "--max-plies",
        "4",
        "--timeout",
        "1",
        "--pgn",
        str(tmp_path / "m.pgn"),
    )
    assert run.returncode == 0, run.stderr
    first, second = pgn_games(tmp_path / "m.pgn")
    assert (first["Red"], first["Termination"]) == ("Hangs", "forfeit (timeout)")
    # Restarted behind its wrapper for game 2, where it is Black and plays.
    assert (second["Black"], second["Termination"]) == ("Hangs", "max-plies")
    # Two shells and two engines for "Hangs", one engine for "Good".
    assert len(read_pids(pids)) == 5
    assert_no_engine_left(pids)


def test_engine_that_hangs_in_the_handshake_is_killed(tmp_path: Path, pids: Path) -> None:
    run = run_match(
        "--engine",
        *fake("Mute", pids, "--no-handshake", "--stderr", "loading 7 GB of tables"),
        "--engine",
        *fake("Good", pids),
        "--handshake-timeout",
        "1",
        "--pgn",
        str(tmp_path / "m.pgn"),
    )
    assert run.returncode == 1
    message = run.stderr.strip().splitlines()[-1]
    assert "'Mute' did not start" in message and "no 'uciok' within 1.0 s" in message
    assert "its stderr: loading 7 GB of tables" in message
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "m.pgn").exists() or not pgn_games(tmp_path / "m.pgn")
    assert_no_engine_left(pids)


@pytest.mark.parametrize(
    "engine, shown",
    [
        (["cmd=/nonexistent/engine", "name=Ghost"], "No such file or directory"),
        (None, "cannot find my weights file"),
    ],
)
def test_engine_that_cannot_start_is_an_error_before_the_match(
    tmp_path: Path, pids: Path, engine: list[str] | None, shown: str
) -> None:
    if engine is None:
        engine = fake("Ghost", pids, "--exit-at-start", "3")
    run = run_match(
        "--engine",
        *fake("Good", pids),  # started first, and must not be left running
        "--engine",
        *engine,
        "--pgn",
        str(tmp_path / "m.pgn"),
    )
    assert run.returncode == 1, run.stdout
    assert "'Ghost' did not start" in run.stderr and shown in run.stderr
    assert "Traceback" not in run.stderr and "game " not in run.stdout
    assert_no_engine_left(pids)


def test_log_dir_keeps_each_engine_instances_traffic_and_stderr(
    tmp_path: Path, pids: Path
) -> None:
    logs = tmp_path / "logs"
    run = run_match(
        "--engine",
        *fake("A", pids, "--stderr", "hello from A's stderr", "--illegal-at", "0"),
        "--engine",
        *fake("B", pids),
        "--games",
        "2",
        "--max-plies",
        "2",
        "--log",
        str(logs),
    )
    assert run.returncode == 0, run.stderr
    # A is restarted after its illegal move: two instances, two files.
    assert sorted(p.name for p in logs.iterdir()) == ["A-1.log", "A-2.log", "B-1.log"]
    first = (logs / "A-1.log").read_text().splitlines()
    texts = [line.split(" ", 1)[1] for line in first]
    assert texts[0] == "> uci"
    assert "< uciok" in texts and "! hello from A's stderr" in texts
    assert "< bestmove a1a9" in texts
    assert texts[-1].startswith("# ended")


# -- floods and lies ------------------------------------------------------------------------------


def test_an_info_flood_keeps_memory_bounded(pids: Path) -> None:
    """200,000 info lines (about 30 MB) before one bestmove: xqadj keeps the last few only."""
    spec = EngineSpec.parse(fake("Flood", pids, "--flood", "200000"))
    tracemalloc.start()
    try:
        with Engine(spec) as engine:
            baseline = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            reply = engine.best_move(Board().fen(), [], SearchLimit(depth=1, search_timeout=300))
            peak = tracemalloc.get_traced_memory()[1] - baseline
            assert reply == Board().legal_moves()[0].iccs()
            assert len(engine.recent_info) == KEPT_INFO_LINES
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000, f"{peak:,} bytes held while the engine flooded"
    assert_no_engine_left(pids)


def test_a_second_bestmove_is_not_played_as_the_next_answer(tmp_path: Path, pids: Path) -> None:
    """The liar sends, after its move, a second bestmove that is legal in the position it will
    be asked next: taken as that answer, it would change the game without any forfeit."""
    run = run_match(
        "--engine",
        *fake("Liar", pids, "--double-bestmove"),
        "--engine",
        *fake("Honest", pids),
        "--games",
        "2",
        "--max-plies",
        "12",
        "--pgn",
        str(tmp_path / "m.pgn"),
    )
    assert run.returncode == 0, run.stderr
    games = pgn_games(tmp_path / "m.pgn")
    assert len(games) == 2
    for game in games:
        assert game["Termination"] == "max-plies"
        board = Board()
        for text in re.findall(r"\b[a-i]\d[a-i]\d\b", game["movetext"]):
            # Both engines play their first legal move; the liar's second word never counts.
            assert text == board.legal_moves()[0].iccs(), (game["Red"], text)
            board.push(Move.from_iccs(text))
        assert board.ply == 12
    assert_no_engine_left(pids)


def test_engine_is_restarted_after_an_illegal_move(tmp_path: Path, pids: Path) -> None:
    run = run_match(
        "--engine",
        *fake("Faulty", pids, "--illegal-at", "0"),
        "--engine",
        *fake("Good", pids),
        "--games",
        "2",
        "--max-plies",
        "4",
        "--pgn",
        str(tmp_path / "m.pgn"),
    )
    assert run.returncode == 0, run.stderr
    first, second = pgn_games(tmp_path / "m.pgn")
    assert first["Termination"] == "forfeit (illegal-move)"
    assert second["Termination"] == "max-plies"
    assert len(read_pids(pids)) == 3  # Faulty twice, Good once
    assert_no_engine_left(pids)


# -- the PGN file ---------------------------------------------------------------------------------


def test_pgn_is_appended_to_and_rounds_go_on(tmp_path: Path, pids: Path) -> None:
    pgn = tmp_path / "m.pgn"
    # A game of the user's own, without the blank line after it.
    pgn.write_text('[Game "Chinese Chess"]\n[Event "mine"]\n[Round "1"]\n\n1. h2e2 *')
    for _ in range(2):
        run = run_match(
            *two_fakes(pids),
            "--games",
            "2",
            "--max-plies",
            "2",
            "--pgn",
            str(pgn),
        )
        assert run.returncode == 0, run.stderr
    games = pgn_games(pgn)
    assert [g["Round"] for g in games] == ["1", "2", "3", "4", "5"]
    assert games[0]["Event"] == "mine" and games[0]["movetext"].strip() == "1. h2e2 *"
    assert_no_engine_left(pids)


def scripted(name: str, *extra: str, proto: str = "uci") -> list[str]:
    command = shlex.join([sys.executable, str(SCRIPTED), *extra])
    return [f"cmd={command}", f"proto={proto}", f"name={name}"]


def test_pgn_as_xiangqi_readers_take_it(tmp_path: Path) -> None:
    openings = tmp_path / "d22.txt"
    openings.write_text(f"fen {D22_FEN}\n")
    options = [
        "--engine",
        # Plays a1a9 at ply 1, so only as Black: in game 2.
        *scripted("Red}Team", "--script", D22_MOVES, "--illegal-at", "1"),
        "--engine",
        *scripted("Other", "--script", D22_MOVES, proto="ucci"),
        "--games",
        "2",
        "--openings",
        str(openings),
        "--event",
        'The "big" \\ match',
        "--rules",
        "cxa",
        "--move-limit",
        "50",
    ]
    run = run_match(*options, "--pgn", str(tmp_path / "m.pgn"))
    assert run.returncode == 0, run.stderr
    text = (tmp_path / "m.pgn").read_text()
    assert text.startswith('[Game "Chinese Chess"]\n[Event "The \\"big\\" \\\\ match"]\n')
    assert max(len(line) for line in text.splitlines()) <= 79
    first, second = pgn_games(tmp_path / "m.pgn")
    for game in (first, second):
        assert (game["SetUp"], game["FEN"]) == ("1", f"{D22_FEN} - - 0 1")
        assert (game["Rules"], game["MoveLimit"], game["Format"]) == ("cxa", "50", "ICCS")
        comments = re.findall(r"\{([^}]*)\}", game["movetext"])
        assert len(comments) == 1 and "{" not in comments[0]
        # Nothing is left of the comment outside its braces: no '}' inside it ended it early.
        outside = re.sub(r"\{[^}]*\}", "", game["movetext"]).split()
        assert all(re.fullmatch(r"\d+\.|[a-i]\d[a-i]\d|1-0|0-1|1/2-1/2", t) for t in outside)
    assert (first["Red"], first["Termination"]) == ("Red}Team", "perpetual-chase")
    assert (second["Black"], second["Termination"]) == ("Red}Team", "forfeit (illegal-move)")
    assert "{Forfeit: Red)Team played a1a9" in second["movetext"]

    # xqadj's own replay reads the games back, with the same ruling.
    replay = subprocess.run(
        [sys.executable, "-m", "xqadj", "replay", "--rules", "cxa", str(tmp_path / "m.pgn")],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )
    assert replay.returncode == 0, replay.stderr
    assert "ruling 0-1 perpetual-chase ply 8 offender red" in replay.stdout

    # cchess reads the first game of a file, and takes no comment: --no-pgn-comments.
    cchess = pytest.importorskip("cchess")
    bare = tmp_path / "bare.pgn"
    run = run_match(*options, "--games", "1", "--no-pgn-comments", "--pgn", str(bare))
    assert run.returncode == 0, run.stderr
    assert "{" not in bare.read_text()
    game = cchess.read_from_pgn(str(bare))
    assert game.info["game"] == "Chinese Chess" and game.info["rules"] == "cxa"
    assert game.init_board.to_fen() == D22_FEN
    assert game.dump_iccs_moves() == [D22_MOVES.split()]


#: The full-width forms the PGN writer puts at a line's start for ``[`` and ``%`` when no
#: line break keeps them off it.
FULL_WIDTH = str.maketrans({"\uff3b": "[", "\uff05": "%"})


def move_text_lines(pgn: str) -> list[str]:
    return pgn.split("\n\n", 1)[1].splitlines()


def game_comment(pgn: str) -> str:
    """The game's comment (its last ``{…}``), its line breaks read as spaces."""
    return " ".join(re.findall(r"\{([^}]*)\}", pgn.split("\n\n", 1)[1])[-1].split())


def forfeit_record(comment: str) -> GameRecord:
    moves = [Move.from_iccs(move) for move in ("h2e2", "h9g7", "h0g2")]
    return GameRecord(1, "A", "B", Opening(), moves, "0-1", "forfeit (crash)", comment)


@pytest.mark.parametrize("lead", range(1, 78))
def test_no_move_text_line_begins_with_a_bracket_or_a_percent_sign(lead: int) -> None:
    """In PGN a line beginning with ``[`` is a tag pair and one beginning with ``%`` an escape
    line that readers skip: wherever the comment's words fall, such a word takes the word
    before it along to the next line, and the comment's text is kept as it is."""
    comment = f"Forfeit: {'x' * lead} its stderr: [error] printf %d [warn] 50% done"
    pgn = forfeit_record(comment).pgn("e")
    lines = move_text_lines(pgn)
    assert all(len(line) <= 79 for line in lines), lines
    assert not [line for line in lines if line.startswith(("[", "%"))], lines
    assert game_comment(pgn) == comment
    assert " ".join(lines).endswith("done} 0-1")


@given(st.lists(st.text("[%]ab(", min_size=1, max_size=40), min_size=1, max_size=30))
def test_comment_lines_never_begin_as_a_tag_or_an_escape(words: list[str]) -> None:
    """Any comment: lines of at most 79 characters, none beginning with ``[`` or ``%``; the
    text read back is the comment's, but for a full-width ``［`` or ``％`` beginning a line
    where no line break could avoid it (a run of such words longer than a line); and a
    comment without two such words in a row, none longer than 30, comes back as it is."""
    comment = " ".join(words)
    pgn = forfeit_record(comment).pgn("e")
    lines = move_text_lines(pgn)
    assert all(len(line) <= 79 and not line.startswith(("[", "%")) for line in lines), lines
    assert game_comment(pgn).translate(FULL_WIDTH) == comment
    changed = [line for line in lines if line.startswith(("\uff3b", "\uff05"))]
    assert sum(map("\n".join(lines).count, "\uff3b\uff05")) == len(changed)
    lone = all(
        not (word.startswith(("[", "%")) and before.startswith(("[", "%")))
        for before, word in itertools.pairwise(words)
    )
    if lone and max(map(len, words)) <= 30:
        assert not changed, lines


def test_a_match_pgn_quoting_brackets_reads_back_in_replay(tmp_path: Path, pids: Path) -> None:
    """A forfeit comment quoting an engine's stderr (runs of ``[error]`` and ``%s`` words, each
    longer than a line) has no line that begins with ``[`` or ``%``, and ``xqadj replay`` reads
    every game of the file, each with all its moves (it skips a line beginning with ``%``: the
    comment's end on such a line was lost, and its game with it)."""
    pgn = tmp_path / "m.pgn"
    noise = " ".join(["[error]"] * 15 + ["%s"] * 40)
    run = run_match(
        "--engine",
        *fake("A", pids, "--stderr", noise, "--crash-at", "2"),
        "--engine",
        *fake("B", pids),
        "--games",
        "2",
        "--max-plies",
        "4",
        "--pgn",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    text = pgn.read_text()
    assert f"its stderr: {noise}}}" in " ".join(text.split()).translate(FULL_WIDTH)
    tag = re.compile(r'\[\w+ "(?:[^"\\]|\\.)*"\]')
    starts = [line for line in text.splitlines() if line.startswith(("[", "%"))]
    assert starts and all(tag.fullmatch(line) for line in starts), starts
    assert max(len(line) for line in text.splitlines()) <= 79
    replay = subprocess.run(
        [sys.executable, "-m", "xqadj", "replay", str(pgn)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )
    assert replay.returncode == 0, replay.stderr
    assert re.findall(r"\((\d+) plies\)", replay.stdout) == ["2", "4"], replay.stdout
    assert "2 games read from 1 file" in replay.stdout and "skipped 0" in replay.stdout
    assert_no_engine_left(pids)


# -- UCCI -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "limit, go",
    [
        (["--movetime", "300"], "go time 300 movestogo 1"),
        (["--depth", "2"], "go depth 2"),
        (["--nodes", "500"], "go nodes 500"),
    ],
)
def test_ucci_engines_get_ucci_go(tmp_path: Path, pids: Path, limit: list[str], go: str) -> None:
    log = tmp_path / "ucci.log"
    run = run_match(
        "--engine",
        *fake("U", pids, "--log", str(log), proto="ucci"),
        "--engine",
        *fake("V", pids, proto="ucci"),
        "--games",
        "1",
        "--max-plies",
        "2",
        *limit,
    )
    assert run.returncode == 0, run.stderr
    received = [line for line in log.read_text().splitlines() if line.startswith("go")]
    assert received == [go]


def test_ucci_time_in_seconds_for_an_old_engine() -> None:
    limit = SearchLimit(movetime=1500)
    assert limit.go("ucci", "s") == "go time 2 movestogo 1"
    assert limit.go("ucci", "ms") == "go time 1500 movestogo 1"
    assert limit.go("uci") == "go movetime 1500"
    assert EngineSpec.parse("cmd=x proto=ucci timeunit=s").time_unit == "s"


def test_nobestmove_is_understood(tmp_path: Path, pids: Path) -> None:
    run = run_match(
        "--engine",
        *fake("Nothing", pids, "--nobestmove", proto="ucci"),
        "--engine",
        *fake("Good", pids, proto="ucci"),
        "--games",
        "1",
        "--timeout",
        "30",
        "--pgn",
        str(tmp_path / "m.pgn"),
    )
    assert run.returncode == 0, run.stderr
    [game] = pgn_games(tmp_path / "m.pgn")
    # Not a 30 s time-out: nobestmove with legal moves on the board is a loss (no move).
    assert (game["Result"], game["Termination"]) == ("0-1", "forfeit (no-move)")
    assert "returned no move with legal moves on the board" in game["movetext"]


# -- bad arguments --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, message",
    [
        (
            ["--pgn", "/nonexistent/folder/m.pgn"],
            "--pgn /nonexistent/folder/m.pgn: no folder '/nonexistent/folder'",
        ),
        (["--movetime", "-5"], "--movetime must be at least 1, got -5"),
        (
            ["--openings", "/nonexistent/o.txt"],
            "--openings /nonexistent/o.txt: No such file or directory",
        ),
        (["--log", "/proc/xqadj-logs"], "--log /proc/xqadj-logs: No such file or directory"),
        (["--depth", "0"], "--depth must be at least 1, got 0"),
        (["--timeout", "-1"], "--timeout must be more than 0 seconds, got -1"),
        (["--handshake-timeout", "0"], "--handshake-timeout must be more than 0 seconds, got 0"),
    ],
)
def test_bad_arguments_get_a_clear_message(
    pids: Path, options: list[str], message: str
) -> None:
    run = run_match(*two_fakes(pids), *options)
    assert run.returncode == 2
    assert run.stderr.strip() == f"xqadj match: {message}"
    assert read_pids(pids) == []  # no engine was started


def test_output_piped_into_head_stops_the_match_quietly(tmp_path: Path, pids: Path) -> None:
    process = subprocess.Popen(
        match_command(
            *two_fakes(pids),
            "--games",
            "50",
            "--max-plies",
            "2",
            "--pgn",
            str(tmp_path / "m.pgn"),
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()  # what `head -1` reads before it exits
        process.stdout.close()
        stderr = process.stderr.read()
        process.wait(HANG_GUARD)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert first.startswith("game 1/50")
    assert "Traceback" not in stderr and "Exception ignored" not in stderr
    assert process.returncode == 141
    assert "output closed" in stderr
    assert 1 <= len(pgn_games(tmp_path / "m.pgn")) < 50
    assert_no_engine_left(pids)
