"""``xqadj replay``, driven as a user drives it: ``python -m xqadj replay ...`` in a subprocess.

Real games (the 2,516 master games of ``shared/games``), the XQF/CBR/CBF/Chinese PGN samples of
``tests/data/replay`` (how they were made: its README), the rulebook cases as ``FEN | moves``
lines, bad files and bad games, and the JSON Lines schema.
"""

from __future__ import annotations

import csv
import json
import os
import pty
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from support import skip_or_fail

from xqadj.referee import Game

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "replay"
SHARED = REPO.parent / "shared"
GAMES_DIR = SHARED / "games"
CASES_FILES = [REPO / "tests" / "data" / "axf-cases.tsv", SHARED / "cases" / "axf-cases.tsv"]
WXF_D022_FEN = "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w"
REASONS = {
    "checkmate",
    "stalemate",
    "perpetual-check",
    "perpetual-chase",
    "perpetual-kill",
    "repetition",
    "move-limit",
}


def run(*args: str | Path, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONUTF8": "1", "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "xqadj", "replay", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=env,
        timeout=300,
    )


def records(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines()]


def games_of(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [o for o in objects if o["type"] in ("game", "error") and o.get("scope") != "file"]


def summary_of(objects: list[dict[str, Any]]) -> dict[str, Any]:
    assert objects[-1]["type"] == "summary"
    assert sum(o["type"] == "summary" for o in objects) == 1
    return objects[-1]


def cases() -> list[dict[str, str]]:
    for path in CASES_FILES:
        if path.exists():
            with path.open(encoding="utf-8", newline="") as handle:
                return list(csv.DictReader(handle, delimiter="\t"))
    skip_or_fail("axf-cases.tsv not found")


def game_files() -> list[Path]:
    files = sorted(GAMES_DIR.glob("*.pgn"))
    if not files:
        skip_or_fail(f"no real games in {GAMES_DIR}")
    return files


# -- the real games ----------------------------------------------------------------------------


def library_rulings(files: list[Path]) -> list[tuple[str, str, int] | None]:
    """Each game's first ruling, following it with Game directly (its own PGN reading)."""
    out: list[tuple[str, str, int] | None] = []
    for path in files:
        games: list[list[str]] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("["):
                if not games or games[-1]:
                    games.append([])
            else:
                games[-1].extend(t for t in line.split() if not t.endswith("."))
        for moves in games:
            game = Game()
            ruling = None
            for move in moves:
                ruling = game.push_iccs(move)
                if ruling:
                    break
            out.append(None if ruling is None else (ruling.result, ruling.reason.value, ruling.ply))
    return out


@pytest.fixture(scope="module")
def real_json() -> subprocess.CompletedProcess[str]:
    return run("--json", *game_files())


@pytest.mark.slow
def test_real_games_all_read_and_ruled_as_the_library_rules(
    real_json: subprocess.CompletedProcess[str],
) -> None:
    assert real_json.returncode == 0, real_json.stderr
    assert real_json.stderr == ""
    objects = records(real_json.stdout)
    summary = summary_of(objects)
    games = games_of(objects)
    assert len(games) == summary["games"] == 2516
    assert summary["skipped"] == summary["files_skipped"] == 0
    assert summary["files"] == 2
    expected = library_rulings(game_files())
    got = [
        None if (r := g["ruling"]) is None else (r["result"], r["reason"], r["ply"]) for g in games
    ]
    assert got == expected
    ruled = sum(r is not None for r in expected)
    assert summary["ruled"] == ruled
    assert summary["not_ruled"] == 2516 - ruled
    assert sum(summary["by_reason"].values()) == ruled
    # The fast path: a few seconds in one process (bound loose for busy CI machines).
    assert summary["seconds"] < 30
    # Indexes count games within each file; every game starts from the standard position.
    by_file: dict[str, list[int]] = {}
    for g in games:
        by_file.setdefault(g["file"], []).append(g["index"])
        assert g["notation"] == "iccs" and g["start_fen"].startswith("rnbakabnr/")
    assert [len(v) for v in by_file.values()] == [1391, 1125]
    assert all(v == list(range(1, len(v) + 1)) for v in by_file.values())


def _without_time(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    return lines[:-1] + [re.sub(r"; [0-9.]+ s$", "", lines[-1])]


@pytest.mark.slow
def test_jobs_2_output_equals_jobs_1(real_json: subprocess.CompletedProcess[str]) -> None:
    files = game_files()
    parallel_json = run("--json", "--jobs", "2", *files)
    assert parallel_json.returncode == 0
    one, two = records(real_json.stdout), records(parallel_json.stdout)
    assert one[:-1] == two[:-1]
    for summary in (one[-1], two[-1]):
        del summary["seconds"], summary["jobs"]
    assert one[-1] == two[-1]

    serial = run(*files)
    parallel = run("-j", "2", "--progress", *files)
    assert serial.returncode == parallel.returncode == 0
    assert _without_time(serial.stdout) == _without_time(parallel.stdout)
    assert len(serial.stdout.splitlines()) == 2517
    assert serial.stderr == ""  # no progress bar when stderr is not a terminal
    # --progress forces the bar (drawn once the run has lasted half a second), cleared at the end.
    if parallel.stderr:
        assert "] 2516 games 100%" in parallel.stderr
        assert parallel.stderr.endswith("\x1b[K")
    last = serial.stdout.splitlines()[-1]
    assert re.fullmatch(
        r"summary: 2516 games read from 2 files; ruled (\d+) \(.*\); not ruled (\d+); "
        r"skipped 0; [0-9.]+ s",
        last,
    ), last


def _drain(fd: int, into: bytearray) -> None:
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:  # the terminal closed
            return
        if not data:
            return
        into.extend(data)


def test_text_lines_and_progress_bar_on_a_terminal() -> None:
    """stdout to a pipe, stderr to a terminal: the bar is drawn on stderr, then cleared."""
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONUTF8": "1", "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "xqadj", "replay", *map(str, game_files())]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=slave, cwd=REPO, env=env) as p:
        os.close(slave)
        drawn = bytearray()
        reader = threading.Thread(target=_drain, args=(master, drawn))
        reader.start()
        stdout = p.stdout.read().decode("utf-8") if p.stdout else ""
        assert p.wait(timeout=300) == 0
        reader.join(timeout=10)
    os.close(master)
    bar = drawn.decode("utf-8", "replace")
    assert "] 2516 games 100%" in bar and bar.endswith("\r\x1b[K")
    lines = stdout.splitlines()
    assert lines[0].endswith(
        "Hu_Ronghua_1391_UCI_games.pgn#1 [China Team Championship 1998] "
        "(HU RongHua vs XU TianHong): none (65 plies)"
    )
    assert lines[50].endswith(
        "Hu_Ronghua_1391_UCI_games.pgn#51 [5 Ram Cup Xiangqi Championship 1985] "
        "(LIU DaHua vs HU RongHua): ruling 0-1 perpetual-chase ply 82 offender red art.15"
    )


# -- the XQF, CBR, CBF and Chinese PGN samples -------------------------------------------------


def sample(name: str, *options: str) -> dict[str, Any]:
    result = run("--json", *options, DATA / name)
    assert result.returncode == 0, result.stderr
    objects = records(result.stdout)
    (game,) = games_of(objects)
    assert game["type"] == "game"
    return game


def test_xqf_encrypted_rulebook_case_perpetual_chase() -> None:
    game = sample("wxf-d022.xqf")
    assert game["start_fen"] == WXF_D022_FEN
    names = (game["event"], game["red"], game["black"])
    assert names == ("AXF/WXF rulebook 象棋比赛规则", "红方", "黑方")  # GB18030 in the file
    assert game["plies"] == 8  # the main line; the variation is not followed
    assert game["ruling"] == {
        "result": "0-1",
        "reason": "perpetual-chase",
        "ply": 8,
        "offender": "red",
        "article": "art.15",
        "cycle": "b3b2 f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2".split(),
    }


def test_xqf_plain_master_game() -> None:
    game = sample("master-hu51.xqf")
    assert (game["red"], game["black"]) == ("LIU DaHua", "HU RongHua")
    assert game["plies"] == 132
    ruling = game["ruling"]
    assert (ruling["result"], ruling["reason"], ruling["ply"], ruling["offender"]) == (
        "0-1",
        "perpetual-chase",
        82,
        "red",
    )


def test_cbr_rulebook_case_perpetual_check() -> None:
    game = sample("wxf-d001.cbr", "--explain")
    assert game["start_fen"] == "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w"
    ruling = game["ruling"]
    assert (ruling["result"], ruling["reason"], ruling["ply"], ruling["article"]) == (
        "0-1",
        "perpetual-check",
        8,
        "art.6",
    )
    assert "长将" in ruling["explanation"]


def test_cbr_master_game() -> None:
    game = sample("master-liu1125.cbr")
    assert (game["event"], game["red"], game["black"]) == (
        "2014 China Xiangqi League 2014",
        "ZHAO XinXin",
        "LIU DaHua",
    )
    assert game["plies"] == 147
    assert (game["ruling"]["result"], game["ruling"]["reason"], game["ruling"]["ply"]) == (
        "0-1",
        "perpetual-check",
        140,
    )


def test_cbf_rulebook_case_draw() -> None:
    game = sample("wxf-d004.cbf")
    assert game["event"] == "AXF/WXF rulebook diagram 4"
    assert (game["ruling"]["result"], game["ruling"]["reason"], game["ruling"]["ply"]) == (
        "1/2-1/2",
        "repetition",
        9,
    )
    assert game["ruling"]["offender"] is None


def _chinese_expectations(games: list[dict[str, Any]]) -> None:
    assert [g["notation"] for g in games] == ["chinese"] * 3
    first, second, third = games
    assert first["ruling"] is None and first["plies"] == 65
    assert (second["ruling"]["result"], second["ruling"]["reason"], second["ruling"]["ply"]) == (
        "1-0",
        "perpetual-check",
        118,
    )
    assert second["ruling"]["offender"] == "black"
    assert third["start_fen"] == "2bak4/4a4/4b4/2p5p/6p2/2Pp5/4P4/2N4C1/2CrA4/3AK4 w"
    assert (third["ruling"]["result"], third["ruling"]["reason"], third["ruling"]["ply"]) == (
        "0-1",
        "perpetual-chase",
        9,
    )


def test_chinese_pgn_utf8_and_gb18030(tmp_path: Path) -> None:
    result = run("--json", DATA / "chinese.pgn")
    assert result.returncode == 0, result.stderr
    _chinese_expectations(games_of(records(result.stdout)))
    # The same games as most Chinese software saves them: GB18030.
    legacy = tmp_path / "chinese-gb.pgn"
    legacy.write_bytes((DATA / "chinese.pgn").read_text(encoding="utf-8").encode("gb18030"))
    result = run("--json", legacy)
    assert result.returncode == 0, result.stderr
    _chinese_expectations(games_of(records(result.stdout)))


def test_pgn_wxf_notation_comments_and_variations(tmp_path: Path) -> None:
    path = tmp_path / "annotated.pgn"
    path.write_text(
        f'[Event "WXF notation"]\n[FEN "{WXF_D022_FEN}"]\n\n'
        "1. C8-1 {the chase begins} R6-1 (1... R6+2 $2) 2. C8+1! R6+1 ; a comment\n"
        "3. C8-1 R6-1 4. C8+1 R6+1 1-0\n\n"
        "[Event \"ICCS with dashes\"]\n\n1. H2-E2 H9-G7 2. h0g2 *\n",
        encoding="utf-8",
    )
    result = run("--json", path)
    assert result.returncode == 0, result.stderr
    wxf, iccs = games_of(records(result.stdout))
    assert wxf["notation"] == "wxf" and wxf["start_fen"] == WXF_D022_FEN
    assert (wxf["ruling"]["result"], wxf["ruling"]["reason"], wxf["ruling"]["ply"]) == (
        "0-1",
        "perpetual-chase",
        8,
    )
    assert iccs["notation"] == "iccs" and iccs["plies"] == 3 and iccs["ruling"] is None


def test_pgn_as_cchess_saves_it(tmp_path: Path) -> None:
    """cchess's Game.save_to: one Chinese move per line, a full FEN, a line of '=' at the end."""
    import cchess  # type: ignore[import-untyped]

    saved = [tmp_path / "d022.pgn", tmp_path / "liu1125.pgn"]
    cchess.read_from_xqf(str(DATA / "wxf-d022.xqf")).save_to(str(saved[0]))
    cchess.read_from_cbr(str(DATA / "master-liu1125.cbr")).save_to(str(saved[1]))
    both = tmp_path / "both.pgn"
    both.write_text("".join(p.read_text(encoding="utf-8") for p in saved), encoding="utf-8")
    result = run("--json", both)
    assert result.returncode == 0, result.stderr
    first, second = games_of(records(result.stdout))
    assert first["start_fen"] == WXF_D022_FEN and first["notation"] == "chinese"
    assert (first["ruling"]["reason"], first["ruling"]["ply"]) == ("perpetual-chase", 8)
    assert second["plies"] == 147
    assert (second["ruling"]["reason"], second["ruling"]["ply"]) == ("perpetual-check", 140)


# -- FEN | moves lines -------------------------------------------------------------------------


def test_lines_one_rulebook_case_per_line(tmp_path: Path) -> None:
    rows = cases()
    path = tmp_path / "cases.lines"
    text = ["# one rulebook case per line: <FEN> | <moves>", ""]
    for row in rows:
        text.append(f"# {row['id']}")
        text.append(f"{row['fen']} | {row['moves']}")
    text.append("startpos | h2e2 h9g7  # a comment after the moves")
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    result = run("--json", path)
    assert result.returncode == 0, result.stderr
    games = games_of(records(result.stdout))
    assert len(games) == len(rows) + 1
    for row, game in zip(rows, games, strict=False):
        assert game["type"] == "game", (row["id"], game)
        assert game["ruling"] is not None, row["id"]
        assert (game["ruling"]["result"], game["ruling"]["ply"]) == (
            row["result"],
            int(row["ruling_ply"]),
        ), row["id"]
    assert games[-1]["ruling"] is None and games[-1]["plies"] == 2
    assert games[0]["line"] == 4  # comments and blank lines count, and are skipped


def test_tsv_case_table_read_directly() -> None:
    path = next((p for p in CASES_FILES if p.exists()), None)
    if path is None:
        skip_or_fail("axf-cases.tsv not found")
    rows = cases()
    result = run("--json", path)
    assert result.returncode == 0, result.stderr
    games = games_of(records(result.stdout))
    assert [g["event"] for g in games] == [row["id"] for row in rows]
    for row, game in zip(rows, games, strict=True):
        assert (game["ruling"]["result"], game["ruling"]["ply"]) == (
            row["result"],
            int(row["ruling_ply"]),
        ), row["id"]


def test_move_limit_passes_through(tmp_path: Path) -> None:
    path = tmp_path / "quiet.txt"
    path.write_text("startpos | h2e2 h9g7 h0g2 i9h9 i0h0\n", encoding="utf-8")
    game = games_of(records(run("--json", "--move-limit", "2", path).stdout))[0]
    assert (game["ruling"]["result"], game["ruling"]["reason"], game["ruling"]["ply"]) == (
        "1/2-1/2",
        "move-limit",
        4,
    )
    assert games_of(records(run("--json", "--rules", "axf", path).stdout))[0]["ruling"] is None


# -- bad files and bad games -------------------------------------------------------------------


def test_bad_files_and_games_are_skipped_and_the_run_goes_on(tmp_path: Path) -> None:
    pgn = tmp_path / "mixed.pgn"
    pgn.write_text(
        '[Event "good"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n'
        '[Event "illegal"]\n[Red "A"]\n[Black "B"]\n\n1. h2e2 h9g7 2. h2h9 *\n\n'
        '[Event "bad fen"]\n[FEN "rnbakabnr/9/9 w"]\n\n1. h2e2 *\n\n'
        '[Event "malformed"]\n\n1. h2e2 x9y9 *\n\n'
        '[Event "good again"]\n\n1. 炮二平五 马８进７ *\n',
        encoding="utf-8",
    )
    lines = tmp_path / "mixed.txt"
    lines.write_text("startpos | h2e2\njust some words\nstartpos | h2e2 h2e2\n", encoding="utf-8")
    corrupt = tmp_path / "corrupt.xqf"
    corrupt.write_bytes(b"not an XQF file at all" * 10)
    truncated = tmp_path / "truncated.cbr"
    truncated.write_bytes((DATA / "wxf-d001.cbr").read_bytes()[:1000])
    unknown = tmp_path / "notes.doc"
    unknown.write_text("hello", encoding="utf-8")
    missing = tmp_path / "missing.pgn"
    result = run(pgn, lines, corrupt, truncated, unknown, missing, DATA / "wxf-d022.xqf")
    assert result.returncode == 1
    out, err = result.stdout.splitlines(), result.stderr
    # Every good game is still there, in order.
    assert f"{pgn}#1 [good]: none (3 plies)" in out
    assert f"{pgn}#5 [good again]: none (2 plies)" in out
    assert f"{lines}#1: none (1 ply)" in out
    assert any("wxf-d022.xqf#1" in line and "perpetual-chase ply 8" in line for line in out)
    # Each bad one is named with its place on stderr (and stdout says it was skipped).
    assert f"{pgn}#2 [illegal] (A vs B) (line 5): ply 3, move 'h2h9': illegal move h2h9" in err
    assert f"{pgn}#3 [bad fen] (line 11): ply 0: bad FEN 'rnbakabnr/9/9 w'" in err
    assert f"{pgn}#4 [malformed] (line 16): ply 2, move 'x9y9': not an ICCS move" in err
    assert f"{lines}#2 (line 2): malformed line" in err
    assert f"{lines}#3 (line 3): ply 2, move 'h2e2': illegal move h2e2" in err
    assert f"{corrupt}: corrupt XQF file" in err or f"{corrupt}: not a XQF file" in err
    assert f"{unknown}: unknown format" in err
    assert f"{missing}: cannot read" in err
    assert err.count("(game skipped)") == 5
    assert f"{pgn}#2 [illegal] (A vs B): skipped: ply 3, move 'h2h9'" in result.stdout
    summary = out[-1]
    assert summary.startswith(
        "summary: 9 games read from 7 files; ruled 1 (perpetual-chase 1); not ruled 3; "
        "skipped 5 (IllegalMoveError 2, InvalidFenError 1, InvalidMoveError 1, "
        "MalformedRecord 1); files skipped 4 ("
    )
    # The truncated CBR is read by cchess as far as it goes: a file error or a shorter game.
    assert str(truncated) in result.stdout


def test_bad_game_in_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.lines"
    path.write_text("startpos | h2e2 h9g7 h2h9\n", encoding="utf-8")
    result = run("--json", path, tmp_path / "nowhere.cbr")
    assert result.returncode == 1
    game_error, file_error, summary = records(result.stdout)
    assert game_error == {
        "type": "error",
        "scope": "game",
        "file": str(path),
        "index": 1,
        "line": 1,
        "event": None,
        "red": None,
        "black": None,
        "ply": 3,
        "move": "h2h9",
        "error": "IllegalMoveError",
        "message": game_error["message"],
    }
    assert "h2h9" in game_error["message"]
    assert file_error["scope"] == "file" and file_error["index"] is None
    assert file_error["error"] == "UnreadableFile" and file_error["ply"] is None
    assert (summary["games"], summary["skipped"], summary["files_skipped"]) == (1, 1, 1)
    assert "bad.lines#1 (line 1): ply 3, move 'h2h9'" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--jobs", "-1", "x.pgn"],
        ["--jobs", "two", "x.pgn"],
        ["--format", "doc", "x.pgn"],
        ["--rules", "no-such-rules", "x.pgn"],
        ["--move-limit", "-5", "x.pgn"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert "usage:" in result.stderr and result.stdout == ""


def test_format_override_and_directories(tmp_path: Path) -> None:
    odd = tmp_path / "games.dat"
    odd.write_text(f"{WXF_D022_FEN} | b3b2 f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2\n", encoding="utf-8")
    result = run("--json", "--format", "lines", odd)
    assert result.returncode == 0, result.stderr
    (game,) = games_of(records(result.stdout))
    assert game["ruling"]["reason"] == "perpetual-chase"
    # A directory stands for its game files, sorted; other files are left alone.
    result = run("--json", DATA)
    assert result.returncode == 0, result.stderr
    names = [Path(g["file"]).name for g in games_of(records(result.stdout))]
    assert names == [
        "chinese.pgn",
        "chinese.pgn",
        "chinese.pgn",
        "master-hu51.xqf",
        "master-liu1125.cbr",
        "wxf-d001.cbr",
        "wxf-d004.cbf",
        "wxf-d022.xqf",
    ]


# -- the JSON schema ---------------------------------------------------------------------------

OPTIONAL_STR = (str, type(None))
OPTIONAL_INT = (int, type(None))


def check_schema(obj: dict[str, Any]) -> None:
    where = {"file": str, "index": OPTIONAL_INT, "line": OPTIONAL_INT}
    names = {"event": OPTIONAL_STR, "red": OPTIONAL_STR, "black": OPTIONAL_STR}
    if obj["type"] == "game":
        fields: dict[str, Any] = {
            "type": str,
            **where,
            **names,
            "notation": OPTIONAL_STR,
            "start_fen": str,
            "plies": int,
            "ruling": (dict, type(None)),
        }
        assert obj["notation"] in ("iccs", "chinese", "wxf", None)
        ruling = obj["ruling"]
        if ruling is not None:
            assert set(ruling) - {"explanation"} == {
                "result",
                "reason",
                "ply",
                "offender",
                "article",
                "cycle",
            }
            assert ruling["result"] in ("1-0", "0-1", "1/2-1/2")
            assert ruling["reason"] in REASONS
            assert isinstance(ruling["ply"], int) and isinstance(ruling["article"], str)
            assert ruling["offender"] in ("red", "black", None)
            assert (ruling["offender"] is None) == (ruling["result"] == "1/2-1/2")
            assert all(isinstance(m, str) and len(m) == 4 for m in ruling["cycle"])
    elif obj["type"] == "error":
        fields = {
            "type": str,
            "scope": str,
            **where,
            **names,
            "ply": OPTIONAL_INT,
            "move": OPTIONAL_STR,
            "error": str,
            "message": str,
        }
        assert obj["scope"] in ("game", "file")
    else:
        assert obj["type"] == "summary"
        fields = {
            "type": str,
            "files": int,
            "files_skipped": int,
            "games": int,
            "ruled": int,
            "by_reason": dict,
            "not_ruled": int,
            "skipped": int,
            "skipped_by_error": dict,
            "files_skipped_by_error": dict,
            "seconds": (float, int),
            "jobs": int,
            "cluster": OPTIONAL_STR,
            "rules": str,
            "move_limit": int,
            "forbidden_run": bool,
        }
        assert set(obj["by_reason"]) == REASONS
        assert obj["games"] == obj["ruled"] + obj["not_ruled"] + obj["skipped"]
        assert obj["ruled"] == sum(obj["by_reason"].values())
        assert obj["skipped"] == sum(obj["skipped_by_error"].values())
        assert obj["files_skipped"] == sum(obj["files_skipped_by_error"].values())
    assert set(obj) == set(fields), obj
    for key, kind in fields.items():
        assert isinstance(obj[key], kind), (key, obj)


def test_json_schema(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pgn"
    bad.write_text("1. h2e2 h9g7 2. h2h9\n", encoding="utf-8")
    result = run("--json", "--explain", DATA, bad, tmp_path / "absent.xqf")
    assert result.returncode == 1
    objects = records(result.stdout)
    for obj in objects:
        check_schema(obj)
    assert {o["type"] for o in objects} == {"game", "error", "summary"}
    summary = summary_of(objects)
    assert (summary["games"], summary["skipped"], summary["files_skipped"]) == (9, 1, 1)
    assert summary["files"] == 8 and summary["rules"] == "axf" and summary["move_limit"] == 0
