"""``xqadj replay`` must not lose games silently (issue 10): a broken game is reported with its
place and the games after it are still read; malformed tags, other encodings and a killed worker
process are reported, never swallowed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from support import skip_or_fail
from test_replay import DATA, REPO, game_files, games_of, records, run

from xqadj.integrations.gamefiles import Chunk, read_games

EXAMPLES = REPO / "examples"


def _master_text() -> str:
    return "".join(path.read_text(encoding="utf-8") for path in game_files())


def _outcomes_without_place(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in o.items() if k not in ("file",)} for o in games_of(objects)]


def test_unclosed_comment_is_reported_and_the_games_after_it_are_read(tmp_path: Path) -> None:
    """Before: the `{` in game 2 swallowed every game after it, exit status 0, no message."""
    text = game_files()[0].read_text(encoding="utf-8")
    games = text.split("\n[Event ")
    assert len(games) == 1391
    # An opening brace in game 2's move text that is never closed.
    games[1] = games[1].replace(" 3. ", " 3. {a note that never ends ", 1)
    broken = tmp_path / "broken.pgn"
    broken.write_text("\n[Event ".join(games), encoding="utf-8")
    clean = tmp_path / "clean.pgn"
    clean.write_text(text, encoding="utf-8")

    result = run("--json", broken)
    assert result.returncode == 1
    objects = records(result.stdout)
    got = games_of(objects)
    assert len(got) == 1391 and objects[-1]["games"] == 1391 and objects[-1]["skipped"] == 1
    second = got[1]
    assert second["type"] == "error" and second["index"] == 2 and second["line"] == 7
    assert second["error"] == "MalformedRecord"
    assert "unclosed '{' comment" in second["message"] and "line 11" in second["message"]
    assert f"{broken}#2 [Yinli Cup Champion 1995] (HU RongHua vs XU TianHong) (line 7)" in (
        result.stderr
    )
    # Every other game is read and ruled exactly as in the file without the brace.
    expected = games_of(records(run("--json", clean).stdout))
    assert _outcomes_without_place(got[:1] + got[2:]) == _outcomes_without_place(
        expected[:1] + expected[2:]
    )


def test_unclosed_variation_is_reported_and_cut_at_the_next_tag_line(tmp_path: Path) -> None:
    path = tmp_path / "variation.pgn"
    path.write_text(
        '[Event "one"]\n\n1. h2e2 h9g7 (1... b9c7 2. h0g2\n\n[Event "two"]\n\n1. h2e2 h9g7 *\n',
        encoding="utf-8",
    )
    result = run("--json", path)
    assert result.returncode == 1
    one, two = games_of(records(result.stdout))
    assert one["type"] == "error" and "unclosed '(' variation" in one["message"]
    assert "line 3" in one["message"]
    assert two["type"] == "game" and two["event"] == "two" and two["plies"] == 2


def test_fen_tag_without_its_closing_quote_is_an_error_for_that_game(tmp_path: Path) -> None:
    """Before: the tag was ignored and the game was followed from the standard position."""
    path = tmp_path / "fen.pgn"
    path.write_text(
        '[Event "broken fen"]\n'
        '[FEN "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w]\n\n'
        "1. h2e2 h9g7 *\n\n"
        '[Event "after it"]\n\n1. h2e2 h9g7 *\n',
        encoding="utf-8",
    )
    result = run("--json", path)
    assert result.returncode == 1
    broken, after = games_of(records(result.stdout))
    assert broken["type"] == "error" and broken["error"] == "MalformedRecord"
    assert "malformed tag" in broken["message"] and "line 2" in broken["message"]
    assert after["type"] == "game" and after["plies"] == 2
    assert f"{path}#1 [broken fen] (line 1): malformed tag" in result.stderr


def _chinese_games(path: Path) -> list[dict[str, Any]]:
    result = run("--json", path)
    assert result.returncode == 0, result.stderr
    return _outcomes_without_place(records(result.stdout))


def test_utf16_and_utf32_files_with_a_bom_are_decoded(tmp_path: Path) -> None:
    """Before: a UTF-16 file was decoded as GB18030 and no game was found in it."""
    text = (DATA / "chinese.pgn").read_text(encoding="utf-8")
    expected = _chinese_games(DATA / "chinese.pgn")
    assert len(expected) == 3
    for codec, bom in [
        ("utf-16-le", b"\xff\xfe"),
        ("utf-16-be", b"\xfe\xff"),
        ("utf-32-le", b"\xff\xfe\x00\x00"),
        ("utf-8", b"\xef\xbb\xbf"),
    ]:
        path = tmp_path / f"chinese-{codec}.pgn"
        path.write_bytes(bom + text.replace("\n", "\r\n").encode(codec))
        assert _chinese_games(path) == expected, codec


def test_utf16_without_a_bom_is_decoded_and_binary_data_refused_by_name(tmp_path: Path) -> None:
    text = (DATA / "chinese.pgn").read_text(encoding="utf-8")
    path = tmp_path / "chinese-nobom.pgn"
    path.write_bytes(text.encode("utf-16-le"))
    assert _chinese_games(path) == _chinese_games(DATA / "chinese.pgn")
    junk = tmp_path / "junk.pgn"
    junk.write_bytes((DATA / "master-hu51.xqf").read_bytes())
    result = run(junk)
    assert result.returncode == 1
    assert f"{junk}: not a text file" in result.stderr
    assert "file skipped" in result.stderr and "Traceback" not in result.stderr


def test_a_line_in_no_known_encoding_is_an_error_for_its_game(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pgn"
    path.write_bytes(
        b'[Event "bad bytes"]\n[Red "\xff\xfe\xff"]\n\n1. h2e2 h9g7 *\n\n'
        + '[Event "gb"]\n[Red "胡荣华"]\n\n1. h2e2 h9g7 *\n'.encode("gb18030")
    )
    result = run("--json", path)
    assert result.returncode == 1
    bad, good = games_of(records(result.stdout))
    assert bad["type"] == "error" and "line 2" in bad["message"]
    assert "neither UTF-8 nor GB18030" in bad["message"]
    assert good["type"] == "game" and good["red"] == "胡荣华"


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        found.extend(int(c) for c in children)
    return found


def test_a_killed_worker_loses_no_game(tmp_path: Path) -> None:
    """First a traceback (BrokenProcessPool) and the games after it were lost; then every chunk
    in flight was reported lost, also the healthy worker's (issue 22: about 1,500 games).  Now
    the chunks in flight are ruled again, each in a process of its own."""
    big = tmp_path / "big.pgn"
    big.write_text(_master_text() * 2, encoding="utf-8")
    env = {**os.environ, "PYTHONUTF8": "1", "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "xqadj", "replay", "--json", "--jobs", "2", str(big)]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO, env=env, text=True
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        errors: list[str] = []
        # stderr is drained on the side: the lost games fill more than a pipe's buffer.
        drain = threading.Thread(target=lambda: errors.append(process.stderr.read()))  # type: ignore[union-attr]
        drain.start()
        first = process.stdout.readline()
        assert json.loads(first)["index"] == 1
        workers: list[int] = []
        deadline = time.monotonic() + 30
        while not workers and time.monotonic() < deadline:
            workers = _children(process.pid)
        assert workers, "no worker process found"
        os.kill(workers[0], signal.SIGKILL)
        stdout = first + process.stdout.read()
        assert process.wait(timeout=300) == 0
        drain.join(timeout=60)
        stderr = errors[0]
    assert stderr == ""
    objects = records(stdout)
    games = games_of(objects)
    assert [g["index"] for g in games] == list(range(1, 5033))
    assert all(g["type"] == "game" for g in games)
    # The file is the master games twice: each game is ruled as its copy is.
    first, second = games[:2516], games[2516:]
    assert [g["ruling"] for g in first] == [g["ruling"] for g in second]
    assert objects[-1]["ruled"] == 2 * sum(g["ruling"] is not None for g in first)


def test_reading_the_library_way_reports_the_same_problems(tmp_path: Path) -> None:
    path = tmp_path / "lib.pgn"
    path.write_text('[Event "a"]\n1. h2e2 {open\n[Event "b"]\n1. h2e2 *\n', encoding="utf-8")
    first, second = read_games(path)
    assert first.problem is not None and "unclosed '{' comment" in first.problem
    assert second.problem is None and second.moves == ("h2e2",) and second.line == 3


def test_jobs_workers_leave_ctrl_c_to_the_parent() -> None:
    """Ctrl-C reaches the whole process group; a ``--jobs`` worker waiting for its next chunk
    printed a KeyboardInterrupt traceback of its own (two of two tries by hand). The workers now
    ignore SIGINT, as ``--cluster local`` workers do, and the parent stops the run."""
    from xqadj.integrations.replay import _LocalPool

    pool = _LocalPool(2)
    try:
        handlers = {pool.pool.submit(signal.getsignal, signal.SIGINT).result() for _ in range(4)}
    finally:
        pool.pool.shutdown(wait=True)
    assert handlers == {signal.SIG_IGN}


# -- issue 22: line ends, Big5, missing folders, the files extra ------------------------------


def test_cr_only_line_endings_are_read_game_by_game(tmp_path: Path) -> None:
    """Before: a PGN with old Mac OS line ends (CR alone) was one malformed game."""
    sample = EXAMPLES / "games" / "hu-ronghua-64.pgn"
    expected = _outcomes_without_place(records(run("--json", sample).stdout))
    text = sample.read_text(encoding="utf-8")
    old_mac = tmp_path / "old-mac.pgn"
    old_mac.write_bytes(text.replace("\n", "\r").encode("utf-8"))
    for args in (["--jobs", "1"], ["--jobs", "2", "--chunk-size", "4096"]):
        result = run("--json", *args, old_mac)
        assert result.returncode == 0, result.stderr
        assert _outcomes_without_place(records(result.stdout)) == expected, args
    assert len(expected) == 64
    # Each game starts at its line: line numbers count CR line ends.
    lines = records(run("--json", "--jobs", "2", "--chunk-size", "4096", old_mac).stdout)
    starts = [i + 1 for i, line in enumerate(text.split("\n")) if line.startswith("[Event")]
    assert [g["line"] for g in games_of(lines)] == starts


def _big5_text() -> str:
    text = (DATA / "chinese.pgn").read_text(encoding="utf-8")
    # Big5 has the traditional forms only.
    return text.translate(str.maketrans("马车进帅将后", "馬車進帥將後"))


def test_big5_files_are_detected_or_named_with_encoding(tmp_path: Path) -> None:
    """Before: a Big5 file was read as GB18030, its moves garbled and every game skipped."""
    expected = _chinese_games(DATA / "chinese.pgn")
    path = tmp_path / "big5.pgn"
    path.write_bytes(_big5_text().replace("HU RongHua", "胡榮華").encode("big5"))
    for args in ([], ["--encoding", "big5"]):
        result = run("--json", *args, path)
        assert result.returncode == 0, result.stderr
        games = _outcomes_without_place(records(result.stdout))
        assert [g["ruling"] for g in games] == [g["ruling"] for g in expected], args
        assert games[0]["red"] == "胡榮華" and games[0]["notation"] == "chinese"
    # Named wrongly, the lines that do not decode are each game's error, saying which encoding.
    result = run("--json", "--encoding", "utf-8", path)
    assert result.returncode == 1
    assert "is not UTF-8 text" in games_of(records(result.stdout))[0]["message"]
    # A GB18030 file is still read as GB18030.
    gb = tmp_path / "gb.pgn"
    gb.write_bytes((DATA / "chinese.pgn").read_text(encoding="utf-8").encode("gb18030"))
    assert _chinese_games(gb) == expected


def test_a_missing_or_empty_folder_is_named_as_such(tmp_path: Path) -> None:
    """Before: 'unknown format (extension ''); use --format' for a folder that is not there."""
    result = run(tmp_path / "no-such-games")
    assert result.returncode == 1
    assert f"{tmp_path / 'no-such-games'}: no such folder (file skipped)" in result.stderr
    result = run(tmp_path / "missing.pgn")
    assert f"{tmp_path / 'missing.pgn'}: cannot read: no such file (file skipped)" in result.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.md").write_text("no games here\n", encoding="utf-8")
    result = run(empty)
    assert result.returncode == 1
    assert f"no game files in {empty} " in result.stderr
    assert "Traceback" not in result.stderr


def test_without_cchess_the_hint_is_the_readmes_install_command() -> None:
    """Before: the hint said 'pip install cchess', the README 'pip install -e .[files]'."""
    code = (
        "import sys; sys.modules['cchess'] = None\n"
        "from xqadj.cli import main\n"
        f"sys.exit(main(['replay', {str(DATA / 'wxf-d022.xqf')!r}]))\n"
    )
    env = {**os.environ, "PYTHONUTF8": "1", "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 1
    assert "needs the files extra (cchess): pip install -e '.[files]'" in result.stderr
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "pip install -e '.[files]'" in readme


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (["--json"], "the output (stdout)"),
        ([], "the output (stdout)"),
        (["--csv", "/dev/full"], "--csv /dev/full"),
    ],
)
def test_a_full_disk_is_one_error_line_naming_the_file(args: list[str], where: str) -> None:
    """Before: a Python traceback (OSError: [Errno 28] No space left on device)."""
    if not Path("/dev/full").exists():
        skip_or_fail("/dev/full is needed to simulate a full disk")
    env = {**os.environ, "PYTHONUTF8": "1", "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "xqadj", "replay", *args, str(EXAMPLES / "games")]
    full_stdout = "--csv" not in args
    with open("/dev/full" if full_stdout else os.devnull, "w") as out:
        result = subprocess.run(
            command, stdout=out, stderr=subprocess.PIPE, text=True, env=env, timeout=120
        )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"xqadj replay: cannot write {where}: No space left on device"
    ]


def test_a_chunk_that_kills_every_worker_loses_only_its_own_games() -> None:
    """A chunk whose worker dies each time it is ruled (a game that exhausts memory) is
    reported game by game as ``WorkerDied``; every other chunk in flight with it is ruled."""
    import support

    from xqadj.integrations.gamefiles import plan_chunks
    from xqadj.integrations.replay import Options, _LocalPool, _plan, _rule_in_order

    sample = str(EXAMPLES / "games" / "hu-ronghua-64.pgn")
    chunks = list(plan_chunks(sample, sample, "pgn", 4096))
    assert len(chunks) > 4
    support.POISONED_CHUNK_START = chunks[2].start
    pool = _LocalPool(2, support.rule_chunk_or_die)
    try:
        steps = list(_rule_in_order(_plan([sample], None, 4096), Options(), pool))
    finally:
        pool.close()
        support.POISONED_CHUNK_START = None
    serial = list(_rule_in_order(_plan([sample], None, 4096), Options(), None))
    assert len(steps) == len(serial) == len(chunks)
    for (step, outcomes), (_, expected) in zip(steps, serial, strict=True):
        expected = list(expected)
        assert isinstance(step.item, Chunk)
        if step.item.start == chunks[2].start:
            assert [o.index for o in outcomes] == [o.index for o in expected]
            assert {o.error.kind for o in outcomes if o.error} == {"WorkerDied"}
            assert all(o.error is not None for o in outcomes)
        else:
            assert list(outcomes) == expected
