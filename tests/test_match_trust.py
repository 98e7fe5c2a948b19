"""``xqadj match`` on a long run must never be silently wrong (issue 18): ``--resume`` checks
the PGN's games against the schedule, the clock charges the time the ``bestmove`` was read,
a file that cannot be written stops the match cleanly, ``--results`` is current after every
game and never replaces a device or a symlink, an engine that cannot be restarted stops the
match instead of forfeiting every game left, and a crash is seen when the process dies even
if a child still holds its pipe.

The fake engine is ``engines/fake_engine.py`` (its ``--share``, ``--crash-at``,
``--orphan-crash-at`` and ``--once`` faults are for these tests).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_integrations import pgn_games

from xqadj.integrations.engine import Engine
from xqadj.integrations.match import add_arguments
from xqadj.integrations.match.director import Match
from xqadj.integrations.match.options import configure
from xqadj.integrations.match.record import MatchError
from xqadj.integrations.match.schedule import PlayedGame, read_pgn_games, resume_point
from xqadj.integrations.tournament import schedule

ENGINE = Path(__file__).resolve().parent / "engines" / "fake_engine.py"
#: A bound for a match that must end by itself: reaching it means xqadj hung (not a speed test).
HANG_GUARD = 120


def engine(name: str, *options: str, extra: tuple[str, ...] = ()) -> list[str]:
    command = shlex.join([sys.executable, str(ENGINE), "--score", "0", *options])
    return ["--engine", f"cmd={command}", f"name={name}", *extra]


def match(*args: str, fsize: int | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:  # in the child: files it writes may not grow past fsize bytes
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run(
        [sys.executable, "-m", "xqadj", "match", *args],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        preexec_fn=limit,
    )


def plain_match(*options: str, fsize: int | None = None) -> subprocess.CompletedProcess[str]:
    """A match of A and B, the fake engine as it is (its first legal move, at once)."""
    return match(*engine("A"), *engine("B"), *options, fsize=fsize)


def finished_games(pgn: Path) -> list[int]:
    """The ``[MatchGame]`` numbers of the PGN's games, checking each was written to its end."""
    games = read_pgn_games(pgn.read_bytes())
    assert all(game.complete for game in games)
    return [int(game.tags["MatchGame"]) for game in games]


# -- resume ---------------------------------------------------------------------------------------


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "book.epd"
    path.write_text("\n".join(f"startpos moves {m}" for m in ("h2e2", "b2e2", "c3c4", "h0g2")))
    return path


def book_match(pgn: Path, book: Path, seed: str, *more: str) -> subprocess.CompletedProcess[str]:
    return plain_match(
        "--openings",
        f"file={book}",
        "order=random",
        "--seed",
        seed,
        "--rounds",
        "3",
        "--max-plies",
        "2",
        "--pgn",
        str(pgn),
        *more,
    )


def cut_after(pgn: Path, games: int) -> None:
    """Keep the PGN's first ``games`` games, as if the match had been killed then."""
    found = read_pgn_games(pgn.read_bytes())
    pgn.write_bytes(pgn.read_bytes()[: found[games].offset])


def test_resume_refuses_another_seed(tmp_path: Path, book: Path) -> None:
    pgn = tmp_path / "m.pgn"
    assert book_match(pgn, book, "1").returncode == 0
    cut_after(pgn, 2)
    run = book_match(pgn, book, "2", "--resume")
    assert run.returncode == 1, run.stdout
    assert "was played with --seed 1, but this match has --seed 2" in run.stderr
    assert finished_games(pgn) == [1, 2]  # untouched
    # The same seed goes on.
    run = book_match(pgn, book, "1", "--resume")
    assert run.returncode == 0, run.stderr
    assert finished_games(pgn) == [1, 2, 3, 4, 5, 6]


def test_resume_refuses_another_book(tmp_path: Path, book: Path) -> None:
    pgn = tmp_path / "m.pgn"
    assert book_match(pgn, book, "1").returncode == 0
    cut_after(pgn, 2)
    book.write_text(book.read_text().replace("c3c4", "g3g4"))
    run = book_match(pgn, book, "1", "--resume")
    assert run.returncode == 1
    assert "(game 1) was played with another opening book" in run.stderr


def test_resume_refuses_a_pgn_that_also_holds_another_matchs_games(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    first = ["--games", "2", "--max-plies", "2", "--pgn", str(pgn)]
    assert plain_match(*first).returncode == 0
    # Another match (longer games) appended to the same file, then stopped after a game.
    second = ["--games", "2", "--max-plies", "4", "--pgn", str(pgn)]
    assert plain_match(*second).returncode == 0
    cut_after(pgn, 3)
    run = plain_match(*second, "--resume")
    assert run.returncode == 1
    assert "(game 1) was played with other settings" in run.stderr
    assert "Traceback" not in run.stderr


def test_resume_refuses_games_it_cannot_check(tmp_path: Path) -> None:
    """A game without the match's tags (another tool's, an older xqadj's) is refused."""
    pgn = tmp_path / "m.pgn"
    options = ["--games", "2", "--max-plies", "2", "--pgn", str(pgn)]
    assert plain_match(*options).returncode == 0
    text = pgn.read_text()
    pgn.write_text("\n".join(line for line in text.splitlines() if "MatchId" not in line) + "\n")
    run = plain_match(*options, "--resume")
    assert run.returncode == 1 and "no [MatchGame] and [MatchId] tags" in run.stderr


def test_a_half_written_last_game_is_cut_off_and_played_again(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    options = ["--games", "4", "--max-plies", "6", "--pgn", str(pgn)]
    assert plain_match(*options).returncode == 0
    whole = pgn.read_bytes()
    pgn.write_bytes(whole[: len(whole) - 20])  # killed while writing game 4's moves
    run = plain_match(*options, "--resume")
    assert run.returncode == 0, run.stderr
    assert "only half written: it is cut off the file and played again" in run.stdout
    assert [line.split(":")[0] for line in run.stdout.splitlines() if line.startswith("game ")] == [
        "game 4/4"
    ]
    assert finished_games(pgn) == [1, 2, 3, 4]
    assert pgn.read_bytes() == whole  # the same games (the fake engine is deterministic)


def test_a_pgn_cut_anywhere_holds_exactly_the_games_written_to_their_end(tmp_path: Path) -> None:
    """Wherever a kill or a full disk cut the file, a game counts as finished only if its
    result and the newline after it were written, and only the last game can be unfinished."""
    pgn = tmp_path / "m.pgn"
    assert plain_match("--games", "3", "--max-plies", "3", "--pgn", str(pgn)).returncode == 0
    assert_cut_anywhere(pgn.read_bytes(), 3)


def assert_cut_anywhere(data: bytes, count: int) -> None:
    """``data`` holds ``count`` finished games; cut anywhere, it holds exactly those written to
    their end, and at most one game more, unfinished."""
    whole = read_pgn_games(data)
    assert len(whole) == count and all(game.complete for game in whole)
    ends = []
    for index, game in enumerate(whole):
        stop = whole[index + 1].offset if index + 1 < len(whole) else len(data)
        text = data[game.offset : stop].rstrip()
        ends.append(game.offset + len(text) + 1)  # the result and its newline
    for cut in range(len(data) + 1):
        games = read_pgn_games(data[:cut])
        finished = sum(end <= cut for end in ends)
        assert [game.complete for game in games[:finished]] == [True] * finished, cut
        assert not any(game.complete for game in games[finished:]), cut
        assert len(games) - finished <= 1, cut


#: Two games as older xqadj wrote them: comment lines that begin with ``[`` (an engine's stderr
#: quoted in a forfeit comment), one of them the last line of the file.
BRACKET_LINES = r"""[Game "Chinese Chess"]
[Round "1"]
[Red "A"]
[Black "B"]
[Result "0-1"]
[MatchGame "1"]
[MatchId "x"]

1. h2e2 h9g7 {Forfeit: A exited (exit status 3) while waiting for 'bestmove'; its
[error] [Event "x"] [error] [error] [error] [error] [error] [error] [error] [error]
[error] boom} 0-1

[Game "Chinese Chess"]
[Round "2"]
[Red "B"]
[Black "A"]
[Result "1-0"]
[MatchGame "2"]
[MatchId "x"]

1. h2e2 {Forfeit: A exited (exit status 3) while waiting for 'bestmove'; its stderr:
[error] boom} 1-0
"""


def test_brackets_beginning_a_line_of_move_text_are_text(tmp_path: Path) -> None:
    """A line of move text beginning with ``[`` is no tag cut short: both games are finished,
    and --resume takes them."""
    data = BRACKET_LINES.encode()
    found = read_pgn_games(data)
    assert [game.offset for game in found] == [0, data.index(b'[Game "', 1)]
    assert [game.complete for game in found] == [True, True]
    assert [game.tags["MatchGame"] for game in found] == ["1", "2"]
    pgn = tmp_path / "m.pgn"
    pgn.write_bytes(data)
    start = resume_point(schedule(2, rounds=2), ["A", "B"], pgn, resume=True)
    assert sorted(start.played) == [1, 2] and start.cut is None
    assert [game.number for game in start.remaining] == [3, 4]
    assert_cut_anywhere(data, 2)


@pytest.mark.parametrize(
    "tail",
    [
        '\n[Game "Chinese Chess"]\n[Round "3"]\n[Red "A',
        '\n[Game "Chinese Chess"]\n',
        "\n[Ga",
        "\n[",
    ],
)
def test_a_tag_cut_short_at_the_end_is_a_half_written_game(tail: str, tmp_path: Path) -> None:
    """A tag cut short where the data ends, after the games: a third game begun, cut off."""
    pgn = tmp_path / "m.pgn"
    pgn.write_text(BRACKET_LINES + tail)
    start = resume_point(schedule(2, rounds=2), ["A", "B"], pgn, resume=True)
    assert sorted(start.played) == [1, 2]
    assert start.cut == len(BRACKET_LINES) + 1
    assert start.notes and "(line 24) was only half written" in start.notes[0]


def test_a_game_cut_on_a_bracket_line_of_its_comment_is_half_written(tmp_path: Path) -> None:
    """Cut in the middle of a comment line that begins with ``[``: that game is the half-written
    one (cut off and played again), not the one before it."""
    pgn = tmp_path / "m.pgn"
    pgn.write_text(BRACKET_LINES[: BRACKET_LINES.rindex("[error] boom") + len("[error] b")])
    start = resume_point(schedule(2, rounds=2), ["A", "B"], pgn, resume=True)
    assert sorted(start.played) == [1]
    assert start.cut == BRACKET_LINES.index('[Game "', 1)


def test_a_forfeit_comment_quoting_brackets_is_resumed(tmp_path: Path) -> None:
    """An engine's stderr of ``[error]`` words, quoted in its forfeit comment, used to begin a
    comment line: --resume then read a tag cut short there and refused the file.  Now no line
    of move text begins with ``[``, and --resume plays only the games left."""
    pgn = tmp_path / "m.pgn"
    noise = " ".join(["[error]"] * 15)
    options = [
        *engine("A", "--stderr", noise, "--crash-at", "2"),
        *engine("B"),
        "--games",
        "4",
        "--max-plies",
        "4",
        "--pgn",
        str(pgn),
    ]
    assert match(*options).returncode == 0
    text = pgn.read_text()
    assert "its stderr: [error] [error]" in " ".join(text.split())
    tag = re.compile(r'\[\w+ "(?:[^"\\]|\\.)*"\]')
    starts = [line for line in text.splitlines() if line.startswith(("[", "%"))]
    assert all(tag.fullmatch(line) for line in starts), starts
    whole = pgn.read_bytes()
    cut_after(pgn, 2)
    run = match(*options, "--resume")
    assert run.returncode == 0, run.stderr
    played = [line.split(":")[0] for line in run.stdout.splitlines() if line.startswith("game ")]
    assert played == ["game 3/4", "game 4/4"]
    assert finished_games(pgn) == [1, 2, 3, 4]
    assert pgn.read_bytes() == whole  # the same games (the fake engine is deterministic)


def test_an_incomplete_game_inside_the_file_is_refused(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    options = ["--games", "3", "--max-plies", "2", "--pgn", str(pgn)]
    assert plain_match(*options).returncode == 0
    found = read_pgn_games(pgn.read_bytes())
    data = pgn.read_bytes()
    # Game 2 lost its last 20 bytes (an editor, a bad copy), game 3 follows it.
    pgn.write_bytes(data[: found[2].offset - 22] + b"\n\n" + data[found[2].offset :])
    run = plain_match(*options, "--resume")
    assert run.returncode == 1 and "is incomplete" in run.stderr


#: Games 1 and 4 of a match between A and 'B "the second"' (escaped in the tags), a comment with
#: brackets and quotes in the first game's move text.
TWO_GAMES = r"""[Game "Chinese Chess"]
[Round "1"]
[Red "A"]
[Black "B \"the second\""]
[Result "1-0"]
[MatchGame "1"]
[MatchId "x"]

1. h2e2 h9g7 {a comment [with] "quotes"} 1-0

[Game "Chinese Chess"]
[Round "4"]
[Red "B \"the second\""]
[Black "A"]
[Result "0-1"]
[MatchGame "4"]
[MatchId "x"]

1. h2e2 0-1
"""


def test_resume_reads_the_games_of_the_pgn_and_leaves_the_others(tmp_path: Path) -> None:
    """The games the PGN holds by their [MatchGame] number, with their tags unescaped, are left
    out of the schedule; another colour order or a number the schedule does not reach is
    refused, naming the game."""
    pgn = tmp_path / "m.pgn"
    pgn.write_text(TWO_GAMES)
    games = schedule(2, rounds=3)
    names = ["A", 'B "the second"']
    start = resume_point(games, names, pgn, resume=True)
    assert [game.number for game in start.remaining] == [2, 3, 5, 6]
    assert start.played == {
        1: PlayedGame(1, "A", 'B "the second"', "1-0", 1),
        4: PlayedGame(4, 'B "the second"', "A", "0-1", 4),
    }
    assert (start.round_offset, start.cut) == (0, None)
    swapped = r'\(game 1\) is A vs B "the second", but this match schedules B "the second" vs A'
    with pytest.raises(MatchError, match=swapped):
        resume_point(games, names[::-1], pgn, resume=True)
    with pytest.raises(MatchError, match=r"\(game 4\): this match schedules only 2 games"):
        resume_point(games[:2], names, pgn, resume=True)
    pgn.write_text("")
    assert resume_point(games, names, pgn, resume=True).remaining == games
    assert resume_point(games, names, tmp_path / "none.pgn", resume=True).remaining == games


# -- the clock ------------------------------------------------------------------------------------


def test_the_clock_stops_when_bestmove_is_read_not_when_the_game_thread_wakes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game thread is made to wake 300 ms after each ``bestmove`` was read (as under
    load); engines that answer at half their time left (from their third move on, less than
    300 ms spare; at least 200 ms) must still never lose on time: what counts is when the line
    was read."""
    original = Engine.read_until

    def late(self: Engine, *prefixes: str, timeout: float) -> tuple[str, list[str]]:
        answer = original(self, *prefixes, timeout=timeout)
        if "bestmove" in prefixes:
            time.sleep(0.3)
        return answer

    monkeypatch.setattr(Engine, "read_until", late)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(
        [
            *engine("A", "--share", "0.5"),
            *engine("B", "--share", "0.5"),
            "--tc",
            "1+0.2",
            "--games",
            "2",
            "--max-plies",
            "12",
            "--pgn",
            str(tmp_path / "m.pgn"),
        ]
    )
    config, _ = configure(args)
    out = tmp_path / "out.txt"
    with out.open("w") as lines:
        result = Match(config, lines).run()
    assert [r.termination for r in result.records] == ["max-plies", "max-plies"], out.read_text()


# -- write errors ---------------------------------------------------------------------------------


def test_a_full_pgn_stops_the_match_cleanly(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    run = plain_match(
        "--games",
        "8",
        "--max-plies",
        "10",
        "--pgn",
        str(pgn),
        fsize=1500,  # room for two games, not three
    )
    assert run.returncode == 74, run.stderr
    kept = finished_games(pgn)
    assert 1 <= len(kept) < 8
    assert f"cannot write --pgn {pgn}: File too large" in run.stderr
    assert f"write error; {len(kept)} finished games kept" in run.stderr
    # The final statistics and line, counting the games in the PGN and no other.
    assert "Results of A vs B" in run.stdout
    final = run.stdout.strip().splitlines()[-1]
    assert final.startswith("final:") and f"over {len(kept)} games (write error:" in final
    assert "Traceback" not in run.stderr


def test_a_log_file_that_cannot_be_written_stops_the_match(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    run = plain_match(
        "--games",
        "20",
        "--max-plies",
        "10",
        "--log",
        str(logs),
        fsize=3000,
    )
    assert run.returncode == 74, run.stderr
    assert f"cannot write --log {logs}/" in run.stderr and "File too large" in run.stderr
    final = run.stdout.strip().splitlines()[-1]
    assert final.startswith("final:") and "(write error:" in final


def test_results_that_cannot_be_written_are_an_error_and_leave_no_part_file(
    tmp_path: Path,
) -> None:
    results = tmp_path / "r.json"
    run = plain_match(
        "--games",
        "30",
        "--max-plies",
        "2",
        "--results",
        str(results),
        fsize=4000,
    )
    assert run.returncode == 74, run.stderr
    assert f"cannot write --results {results}: File too large" in run.stderr
    assert not (tmp_path / "r.json.part").exists()
    # The last results that could be written are whole.
    document = json.loads(results.read_text())
    assert 0 < document["played"] < 30


# -- --results during the match, and files that are not regular -----------------------------------


def test_results_are_current_after_every_game(tmp_path: Path) -> None:
    results = tmp_path / "r.json"
    command = [sys.executable, "-m", "xqadj", "match", *engine("A", "--think", "100")]
    command += [*engine("B"), "--games", "6", "--max-plies", "4", "--results", str(results)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("game 2/6"):
                break
        process.kill()  # kill -9 after the second game
        process.wait(HANG_GUARD)
    finally:
        process.kill()
    document = json.loads(results.read_text())
    assert document["played"] >= 2 and len(document["games"]) == document["played"]


def test_results_through_a_symlink_keep_the_link(tmp_path: Path) -> None:
    target, link = tmp_path / "target.json", tmp_path / "link.json"
    target.write_text("{}")
    link.symlink_to(target)
    devnull = tmp_path / "null.json"
    devnull.symlink_to(os.devnull)
    for path in (link, devnull):
        run = plain_match("--max-plies", "2", "--results", str(path))
        assert run.returncode == 0, run.stderr
        assert path.is_symlink()
    assert json.loads(target.read_text())["played"] == 2
    assert Path(os.devnull).is_char_device()


def test_pgn_to_a_pipe_is_written_not_read(tmp_path: Path) -> None:
    run = plain_match("--max-plies", "2", "--pgn", "/dev/stdout")
    assert run.returncode == 0, run.stderr
    assert run.stdout.count('[Game "Chinese Chess"]') == 2
    run = plain_match("--pgn", "/dev/stdout", "--resume")
    assert run.returncode == 1 and "not a regular file" in run.stderr


# -- engines that cannot be restarted, crashes ----------------------------------------------------


def test_an_engine_that_cannot_be_restarted_stops_the_match(tmp_path: Path) -> None:
    pgn, results = tmp_path / "m.pgn", tmp_path / "r.json"
    once = tmp_path / "started"
    run = match(
        *engine("A", "--once", str(once), "--crash-at", "2"),
        *engine("B"),
        "--games",
        "10",
        "--max-plies",
        "6",
        "--pgn",
        str(pgn),
        "--results",
        str(results),
    )
    assert run.returncode == 3, run.stderr
    assert "A cannot be restarted" in run.stderr and "the match stops" in run.stderr
    # The crash was a result; the games after it were not played, so not counted.
    assert finished_games(pgn) == [1]
    assert run.stdout.strip().splitlines()[-1] == (
        "final: A 0 - 1 B over 1 games (engine lost: 9 not played)"
    )
    document = json.loads(results.read_text())
    assert document["played"] == 1 and document["stopped"] == "engine lost"


def test_a_tournament_drops_an_engine_that_cannot_be_restarted(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    once = tmp_path / "started"
    run = match(
        *engine("A", "--once", str(once), "--crash-at", "2"),
        *engine("B"),
        *engine("C"),
        "--rounds",
        "2",
        "--max-plies",
        "4",
        "--pgn",
        str(pgn),
    )
    assert run.returncode == 3, run.stderr
    assert "A is dropped" in run.stderr
    games = pgn_games(pgn)
    # A's first game (its crash) counts; every B-C game is played; no other game of A.
    assert sum("A" in (g["Red"], g["Black"]) for g in games) == 1
    assert sum({g["Red"], g["Black"]} == {"B", "C"} for g in games) == 4


def test_a_crash_behind_a_child_holding_the_pipe_is_a_crash(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    run = match(
        *engine("A", "--orphan-crash-at", "2"),
        *engine("B"),
        "--games",
        "1",
        "--timeout",
        "60",
        "--max-plies",
        "6",
        "--pgn",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    (game,) = pgn_games(pgn)
    assert game["Termination"] == "forfeit (crash)", game["movetext"]


# -- the real engine ------------------------------------------------------------------------------


def test_fairy_stockfish_resume_is_checked_and_results_go_through_a_link(
    fairy_stockfish: str, tmp_path: Path
) -> None:
    pgn, target, link = tmp_path / "m.pgn", tmp_path / "r.json", tmp_path / "link.json"
    link.symlink_to(target)

    def run(hash_mb: int, *more: str) -> subprocess.CompletedProcess[str]:
        return match(
            "--engine",
            f"cmd={fairy_stockfish}",
            "name=FS1",
            "--engine",
            f"cmd={fairy_stockfish}",
            "name=FS2",
            "--each",
            "notation=fairy",
            "depth=2",
            "option.Threads=1",
            f"option.Hash={hash_mb}",
            "--games",
            "4",
            "--max-plies",
            "10",
            "--pgn",
            str(pgn),
            "--results",
            str(link),
            *more,
        )

    first = run(16)
    assert first.returncode == 0, first.stderr
    cut_after(pgn, 2)
    refused = run(32, "--resume")
    assert refused.returncode == 1 and "was played with other settings" in refused.stderr
    resumed = run(16, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert finished_games(pgn) == [1, 2, 3, 4]
    assert link.is_symlink() and json.loads(target.read_text())["resumed"] == 2


def test_games_are_played_with_a_short_thread_switch_interval(monkeypatch) -> None:
    """Where an engine's bestmove is stamped when a game's thread reads it (its stdout on a
    pipe), with the interpreter's 5 ms switch interval that thread could wait that long or more
    for the GIL behind the other games' threads, and the clock charged the engine for it.  The
    local runner plays with SWITCH_INTERVAL and restores the interval after."""
    from xqadj.integrations.engine import EngineSpec
    from xqadj.integrations.match import local
    from xqadj.integrations.match.game import SWITCH_INTERVAL
    from xqadj.integrations.match.options import MatchConfig

    seen: list[float] = []

    def fake_play_job(job, engines, stop):  # noqa: ANN001, ANN202 - the runner's callee
        seen.append(sys.getswitchinterval())
        return None  # as a game cut short: nothing is scored

    monkeypatch.setattr(local, "play_job", fake_play_job)
    before = sys.getswitchinterval()
    assert before > SWITCH_INTERVAL  # the interpreter's default, 5 ms
    runner = local.LocalRunner(MatchConfig([EngineSpec("a"), EngineSpec("b")]))
    runner._free.put(())
    runner.play(["first game", "second game"], lambda job, record: None)  # type: ignore[list-item]
    assert seen == [SWITCH_INTERVAL] * 2
    assert sys.getswitchinterval() == before


def test_the_switch_interval_is_restored_when_the_last_game_ends() -> None:
    """A Dask worker plays several pairs at once: the first to end must not restore the
    interval under the others' games, and the last restores it."""
    from xqadj.integrations.match.game import SWITCH_INTERVAL, short_switch_interval

    before = sys.getswitchinterval()
    first, second = short_switch_interval(), short_switch_interval()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert sys.getswitchinterval() == SWITCH_INTERVAL
    second.__exit__(None, None, None)
    assert sys.getswitchinterval() == before
