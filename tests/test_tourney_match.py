"""``xqadj match`` as a tournament tool: clocks and loss on time, UCI and UCCI clock commands,
schedules, opening books, statistics, the SPRT stopping the match, adjudication after the
rulings, ``--results`` and ``--resume``.

The fake engine (``engines/fake_engine.py``) thinks as long as it is told, reports the score
it is told (0 unless told) and logs the lines it receives, so that each clock and format rule
is checked on the lines the engines were sent and on the PGN written.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from test_integrations import D22_FEN, D22_MOVES, pgn_games

from xqadj.integrations.match.schedule import read_pgn_games
from xqadj.integrations.openings import OpeningsSpec

ENGINE = Path(__file__).resolve().parent / "engines" / "fake_engine.py"
#: A bound for a match that must end by itself: reaching it means xqadj hung (not a speed test).
HANG_GUARD = 120


def engine(name: str, *options: str, proto: str = "uci", extra: tuple[str, ...] = ()) -> list[str]:
    command = shlex.join([sys.executable, str(ENGINE), "--score", "0", *options])
    return ["--engine", f"cmd={command}", f"proto={proto}", f"name={name}", *extra]


def match(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xqadj", "match", *args],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )


def go_lines(log: Path) -> list[str]:
    return [line for line in log.read_text().splitlines() if line.startswith("go")]


def numbers(line: str) -> dict[str, int]:
    tokens = line.split()
    return {key: int(value) for key, value in zip(tokens[1::2], tokens[2::2], strict=False)}


# -- clocks ---------------------------------------------------------------------------------------


def test_uci_clocks_are_sent_and_kept(tmp_path: Path) -> None:
    red_log, black_log = tmp_path / "a.log", tmp_path / "b.log"
    pgn = tmp_path / "m.pgn"
    run = match(
        *engine("A", "--think", "30", "--score", "25", "--log", str(red_log)),
        *engine("B", "--think", "30", "--log", str(black_log)),
        "--tc",
        "10+0.1",
        "--games",
        "1",
        "--max-plies",
        "6",
        "--pgn",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    reds = [numbers(line) for line in go_lines(red_log)]
    blacks = [numbers(line) for line in go_lines(black_log)]
    # The increment is given for the first move too (cutechess-cli, fastchess): 10 s + 0.1 s.
    assert go_lines(red_log)[0] == "go wtime 10100 btime 10100 winc 100 binc 100"
    assert len(reds) == len(blacks) == 3
    # Each move costs red its thinking time and gains it 100 ms: its clock goes down a little
    # (it thinks 30 ms, plus the pipes), never below what a 30 ms move leaves, never above 10 s.
    for before, after in zip(reds, reds[1:], strict=False):
        assert 10100 - 2000 < after["wtime"] <= before["wtime"] + 100 - 30
    # Black sees red's clock as red left it.
    for red_go, black_go in zip(reds, blacks, strict=True):
        assert black_go["wtime"] < red_go["wtime"] + 100
        assert black_go["winc"] == black_go["binc"] == 100
    (game,) = pgn_games(pgn)
    assert game["TimeControl"] == "10+0.1"
    comments = re.findall(r"\{([^}]*)\}", game["movetext"])
    assert len(comments) == 7  # six moves and the final comment
    assert re.fullmatch(r"\+0\.25/1 0\.\d{3}s \[%clk 0:00:(09|10)\.\d\]", comments[0])
    assert re.fullmatch(r"\+0\.00/1 0\.\d{3}s \[%clk 0:00:(09|10)\.\d\]", comments[1])


def test_moves_per_period_and_depth_with_the_clock(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    run = match(
        *engine("A", "--log", str(log), extra=("tc=2/5", "depth=7")),
        *engine("B"),
        "--tc",
        "10+0.1",
        "--games",
        "1",
        "--max-plies",
        "6",
        "--pgn",
        str(tmp_path / "m.pgn"),
    )
    assert run.returncode == 0, run.stderr
    lines = go_lines(log)
    assert lines[0] == "go wtime 5000 btime 10100 winc 0 binc 100 movestogo 2 depth 7"
    assert numbers(lines[1])["movestogo"] == 1
    # After two moves the period starts again: 5 s more, 2 moves to go.
    assert numbers(lines[2])["movestogo"] == 2 and numbers(lines[2])["wtime"] > 9000
    (game,) = pgn_games(tmp_path / "m.pgn")
    assert (game["RedTimeControl"], game["BlackTimeControl"]) == ("2/5", "10+0.1")


def test_fixed_time_a_move(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    run = match(
        *engine("A", "--log", str(log)),
        *engine("B"),
        "--each",
        "st=0.25",
        "--games",
        "1",
        "--max-plies",
        "4",
        "--pgn",
        str(tmp_path / "m.pgn"),
    )
    assert run.returncode == 0, run.stderr
    assert set(go_lines(log)) == {"go movetime 250"}
    (game,) = pgn_games(tmp_path / "m.pgn")
    assert game["TimeControl"] == "0.25/move"
    # A fixed time a move has no clock to show.
    assert "%clk" not in game["movetext"] and re.search(
        r"\{\+0\.00/1 0\.\d{3}s\}", game["movetext"]
    )


@pytest.mark.parametrize(
    "control, think, margin, lost_at",
    [
        (["st=0.2"], "600", "0", {1}),  # a 600 ms move with 200 ms a move
        (["st=0.2"], "600", "1000", None),  # ... is on time with a 1 s margin
        # 200 ms moves on 0.5 s: the third (ply 5) overruns; the second (ply 3) would only if
        # the pipes took 50 ms a move on a loaded machine.
        (["tc=0.5+0"], "200", "0", {3, 5}),
    ],
)
def test_loss_on_time(
    tmp_path: Path, control: list[str], think: str, margin: str, lost_at: set[int] | None
) -> None:
    pgn = tmp_path / "m.pgn"
    run = match(
        *engine("Slow", "--think", think, extra=(*control, f"timemargin={margin}")),
        *engine("Fast", extra=("st=5",)),
        "--games",
        "2",
        "--max-plies",
        "8",
        "--pgn",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    first, second = pgn_games(pgn)
    if lost_at is None:
        assert first["Termination"] == second["Termination"] == "max-plies"
        return
    # Slow is red in game 1: it loses on time at ply lost_at.
    assert (first["Result"], first["Termination"]) == ("0-1", "time forfeit")
    # (The comment may wrap: its wording decides where.)
    assert "Slow lost on time" in " ".join(first["movetext"].split())
    assert len(re.findall(r"\b[a-i]\d[a-i]\d\b", first["movetext"])) + 1 in lost_at
    # It was told to stop and plays the next game with the same clock rules: black now.
    assert (second["Result"], second["Termination"]) == ("1-0", "time forfeit")
    assert "final: Slow 0 - 2 Fast over 2 games" in run.stdout


def test_an_engine_that_never_answers_loses_on_time_not_by_hanging(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    run = match(
        *engine("Sleeper", "--think-at", "0:600000"),
        *engine("Awake"),
        "--tc",
        "0.3+0",
        "--games",
        "1",
        "--pgn",
        str(pgn),
        "--max-plies",
        "4",
    )
    assert run.returncode == 0, run.stderr
    (game,) = pgn_games(pgn)
    assert (game["Result"], game["Termination"]) == ("0-1", "time forfeit")
    assert "no move within 0.300 s" in game["movetext"]


def test_a_hang_before_the_search_is_no_loss_on_time(tmp_path: Path) -> None:
    """An engine that stops answering isready hangs before its clock starts: it forfeits as a
    hung engine (after the handshake time-out), it does not lose on time."""
    pgn = tmp_path / "m.pgn"
    run = match(
        *engine("Deaf", "--deaf-after", "2"),
        *engine("B"),
        "--tc",
        "0.3+0",
        "--handshake-timeout",
        "1",
        "--games",
        "1",
        "--pgn",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    (game,) = pgn_games(pgn)
    assert (game["Result"], game["Termination"]) == ("0-1", "forfeit (timeout)")
    assert "readyok" in game["movetext"]


@pytest.mark.parametrize(
    "options, first_go",
    [
        # The UCCI specification's own example: milliseconds once usemillisec is on.
        (["--usemillisec"], "go time 300000 increment 0 opptime 300000 oppincrement 0"),
        # An old engine whose unit is the second (timeunit=s): whole seconds.
        ([], "go time 300 increment 0 opptime 300 oppincrement 0"),
    ],
)
def test_ucci_clocks(tmp_path: Path, options: list[str], first_go: str) -> None:
    log = tmp_path / "u.log"
    unit = () if options else ("timeunit=s",)
    run = match(
        *engine("U", "--log", str(log), *options, proto="ucci", extra=unit),
        *engine("B"),
        "--tc",
        "300",
        "--games",
        "1",
        "--max-plies",
        "4",
    )
    assert run.returncode == 0, run.stderr
    lines = go_lines(log)
    assert lines[0] == first_go
    if options:
        assert "setoption usemillisec true" in log.read_text()


# -- schedules ------------------------------------------------------------------------------------


def test_gauntlet_and_round_robin(tmp_path: Path) -> None:
    players = [*engine("A"), *engine("B"), *engine("C")]
    common = ["--max-plies", "2", "--rounds", "1"]
    run = match(*players, *common, "--tournament", "gauntlet", "--pgn", str(tmp_path / "g.pgn"))
    assert run.returncode == 0, run.stderr
    games = pgn_games(tmp_path / "g.pgn")
    assert [(g["Red"], g["Black"]) for g in games] == [
        ("A", "B"),
        ("B", "A"),
        ("A", "C"),
        ("C", "A"),
    ]
    assert [g["MatchGame"] for g in games] == ["1", "2", "3", "4"]
    assert run.stdout.strip().splitlines()[-1] == "final: A 2, B 1, C 1 over 4 games"
    run = match(*players, *common, "--games", "1", "--pgn", str(tmp_path / "r.pgn"))
    assert run.returncode == 0, run.stderr
    games = pgn_games(tmp_path / "r.pgn")
    assert [(g["Red"], g["Black"]) for g in games] == [("A", "B"), ("A", "C"), ("B", "C")]


def test_openings_book_order_and_pairs(tmp_path: Path) -> None:
    book = tmp_path / "book.pgn"
    book.write_text(
        "1. 炮二平五 马８进７ 2. 马二进三 *\n\n1. C8=5 H2+3 *\n\n"
        "1. c3c4 g6g5 *\n\n1. h0g2 h9g7 *\n",
        encoding="utf-8",
    )
    pgn = tmp_path / "m.pgn"
    run = match(
        *engine("A"),
        *engine("B"),
        "--openings",
        f"file={book}",
        "plies=2",
        "order=random",
        "--seed",
        "5",
        "--rounds",
        "3",
        "--max-plies",
        "2",
        "--pgn",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    expected = OpeningsSpec.parse([f"file={book}", "plies=2", "order=random"]).book(seed=5)
    games = pgn_games(pgn)
    assert len(games) == 6
    for index, game in enumerate(games):
        opening = expected.opening(index // 2)  # both games of a pair: one opening
        moves = re.findall(r"\b[a-i]\d[a-i]\d\b", game["movetext"])
        assert tuple(moves[:2]) == opening.moves
        assert "{book}" not in game["movetext"]  # no clocks, no move comments


# -- statistics and the SPRT ----------------------------------------------------------------------


def test_sprt_accepts_h1_and_stops_the_match(tmp_path: Path) -> None:
    """A believes it is winning, B that it is lost: B resigns at its first move, whichever its
    colour, so every pair is 2-0 for A; [0, 10] accepts H1 after 74 such pairs (LLR 2.95 >
    ln 19 = 2.94: 73 pairs give 2.91)."""
    results = tmp_path / "r.json"
    run = match(
        *engine("A", "--score", "1000"),
        *engine("B", "--score", "-1000"),
        "--resign",
        "movecount=1",
        "score=500",
        "--rounds",
        "1000",
        "--sprt",
        "elo0=0",
        "elo1=10",
        "--ratinginterval",
        "50",
        "--results",
        str(results),
    )
    assert run.returncode == 0, run.stderr
    assert "SPRT: H1 accepted (LLR: 2.95 (-2.94, 2.94) - H1 accepted) after 148 games" in run.stdout
    assert "Ptnml(0-2): [0, 0, 0, 0, 25]" in run.stdout  # the report every 50 games
    assert run.stdout.strip().splitlines()[-1] == (
        "final: A 148 - 0 B over 148 games (SPRT: H1 accepted)"
    )
    document = json.loads(results.read_text())
    assert document["sprt"]["accepted"] == "H1" and document["played"] == 148
    assert document["statistics"][0]["pentanomial"] == [0, 0, 0, 0, 74]
    assert document["games"][0]["termination"] == "adjudication"
    assert document["games"][0]["plies"] in (1, 2)


def test_sprt_accepts_h0(tmp_path: Path) -> None:
    run = match(
        *engine("A", "--score", "-1000"),
        *engine("B", "--score", "1000"),
        "--resign",
        "movecount=1",
        "score=500",
        "--rounds",
        "1000",
        "--sprt",
        "elo0=0",
        "elo1=10",
        "model=logistic",
    )
    assert run.returncode == 0, run.stderr
    assert "H0 accepted" in run.stdout
    final = run.stdout.strip().splitlines()[-1]
    played = int(re.search(r"over (\d+) games", final).group(1))
    assert final.endswith("(SPRT: H0 accepted)") and played < 2000


def test_statistics_block(tmp_path: Path) -> None:
    run = match(
        *engine("A", "--score", "1000"),
        *engine("B", "--score", "-1000"),
        "--resign",
        "movecount=1",
        "score=500",
        "--rounds",
        "2",
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    # A clean sweep: no finite Elo, no error bar (it printed "Elo: inf +/- inf, nElo: inf +/-
    # 0.00"); the block says what W/L/D and the Elo count.
    assert lines[-8:] == [
        "Results of A vs B, all 4 games: 4 wins, 0 losses, 0 draws, 4 points (100.0 %)",
        "  Elo from the 2 complete pairs (4 games), all the same result: no error bar:",
        "  Elo: n/a, nElo: n/a, LOS: 100.00 %",
        "  Ptnml(0-2): [0, 0, 0, 0, 2]",
        "How the games ended, per engine:",
        "  A (4 games): wins 4 adjudication; losses none; draws none",
        "  B (4 games): wins none; losses 4 adjudication; draws none",
        "final: A 4 - 0 B over 4 games",
    ]


def test_the_final_block_is_printed_once(tmp_path: Path) -> None:
    """--ratinginterval 2 over 4 games: a block after game 2, and after game 4 only the final
    one (it was printed twice, the interval's and the final)."""
    run = match(
        *engine("A", "--seed", "1"),
        *engine("B", "--seed", "2"),
        "--games",
        "4",
        "--ratinginterval",
        "2",
        "--max-plies",
        "20",
        "--movetime",
        "5",
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert sum(line.startswith("Results of A vs B") for line in lines) == 2
    assert lines.index("How the games ended, per engine:") > max(
        i for i, line in enumerate(lines) if line.startswith("game 4/4")
    )
    blocks = [i for i, line in enumerate(lines) if line.startswith("Results of")]
    assert lines[blocks[0] - 1].startswith("game 2/4") and lines[blocks[1] - 1].startswith(
        "game 4/4"
    )


def test_standings_terminations_and_forfeit_warning_with_three_engines(tmp_path: Path) -> None:
    """C plays an illegal move at ply 1, so it forfeits every game it plays black: 4 of its 8
    games, well over the warning's tenth.  The standings rank all three; the terminations say
    how each engine's games ended."""
    bad = shlex.join([sys.executable, str(ENGINE), "--illegal-at", "1"])
    html, results = tmp_path / "m.html", tmp_path / "r.json"
    run = match(
        *engine("A", "--seed", "1"),
        *engine("B", "--seed", "2"),
        "--engine",
        f"cmd={bad}",
        "name=C",
        "--results",
        str(results),
        "--rounds",
        "2",
        "--max-plies",
        "20",
        "--movetime",
        "5",
        "--html",
        str(html),
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    start = lines.index("Standings (all games, Elo of the score against the field):")
    header, *rows = lines[start + 1 : start + 5]
    assert header.split()[:4] == ["Rank", "Engine", "Games", "Score"]
    table = {row.split()[1]: row.split() for row in rows}
    assert set(table) == {"A", "B", "C"} and all(row[2] == "8" for row in table.values())
    assert table["C"][0] == "3"  # C loses 4 games by forfeit and draws at most the rest
    endings = lines[lines.index("How the games ended, per engine:") + 1 :]
    c_line = next(line for line in endings if line.startswith("  C (8 games)"))
    assert "losses 4 illegal-move" in c_line
    warning = next(line for line in lines if line.startswith("warning:") and " of C " in line)
    assert warning.startswith("warning: 4 of the 8 games of C (50 %) ended by forfeit")
    page = html.read_text()
    assert '<section id="statistics">' in page and "<h3>Standings</h3>" in page
    assert page.index('id="statistics"') < page.index("<main>")  # before the games
    assert "4 of the 8 games of C" in page
    document = json.loads(results.read_text())
    assert [(p["rank"], p["engine"]) for p in document["standings"]][-1] == (3, "C")
    assert document["terminations"]["C"]["losses"]["illegal-move"] == 4
    assert document["terminations"]["C"]["forfeits_lost"] == 4
    assert any(" of C " in warning for warning in document["warnings"])
    assert {s["elo_from"] for s in document["statistics"]} == {"pairs"}
    assert all(s["elo_samples"] == 2 for s in document["statistics"])  # 2 pairs a pairing


def test_html_statistics_with_the_sprt_chart(tmp_path: Path) -> None:
    html = tmp_path / "m.html"
    run = match(
        *engine("A", "--score", "1000"),
        *engine("B", "--score", "-1000"),
        "--resign",
        "movecount=1",
        "score=500",
        "--rounds",
        "1000",
        "--sprt",
        "elo0=0",
        "elo1=10",
        "--html",
        str(html),
    )
    assert run.returncode == 0, run.stderr
    page = html.read_text()
    section = page[page.index('<section id="statistics">') : page.index("</section>") + 10]
    assert 'data-chart="llr"' in section and 'class="bound"' in section
    assert "LLR 2.95 (bounds -2.94, 2.94): H1 accepted" in section
    # The LLR was drawn after each of the 148 games.
    values = re.search(r'data-chart="llr".*?class="value"[^>]*data-values="([^"]*)"', section)
    assert values is not None and len(values.group(1).split()) == 148
    assert section.index("<h2>Statistics</h2>") < page.index("</main>")


# -- adjudication ---------------------------------------------------------------------------------


def test_rulings_come_before_adjudication(tmp_path: Path) -> None:
    """In the rulebook's perpetual chase (ruled at ply 8), black says it is lost from its
    first move: with movecount=4 its fourth move, ply 8, would resign it; the ruling, a loss
    for red, comes first.  With movecount=3, black resigns at ply 6, before any ruling."""
    openings = tmp_path / "d22.txt"
    openings.write_text(f"fen {D22_FEN}\n")
    for movecount, result, termination in [
        ("4", "0-1", "perpetual-chase"),
        ("3", "1-0", "adjudication"),
    ]:
        pgn = tmp_path / f"m{movecount}.pgn"
        run = match(
            *engine("R", "--script", D22_MOVES, "--score", "0"),
            *engine("B", "--script", D22_MOVES, "--score", "-900"),
            "--openings",
            str(openings),
            "--games",
            "1",
            "--resign",
            f"movecount={movecount}",
            "score=600",
            "--pgn",
            str(pgn),
        )
        assert run.returncode == 0, run.stderr
        (game,) = pgn_games(pgn)
        assert (game["Result"], game["Termination"]) == (result, termination)


def test_draw_adjudication(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    run = match(
        *engine("A", "--seed", "1"),
        *engine("B", "--seed", "2"),
        "--draw",
        "movenumber=3",
        "movecount=2",
        "score=5",
        "--games",
        "1",
        "--pgn",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    (game,) = pgn_games(pgn)
    assert (game["Result"], game["Termination"]) == ("1/2-1/2", "adjudication")
    # Move 3 is plies 5 and 6, unless a capture or pawn move restarted the count.
    plies = len(re.findall(r"\b[a-i]\d[a-i]\d\b", game["movetext"]))
    assert plies >= 5
    assert "Adjudicated draw: both scores within 5 cp for 2 moves each." in " ".join(
        game["movetext"].split()
    )


# -- resume ---------------------------------------------------------------------------------------


def test_resume_goes_on_from_the_pgn(tmp_path: Path) -> None:
    pgn, results = tmp_path / "m.pgn", tmp_path / "r.json"
    players = [*engine("A", "--score", "1000"), *engine("B", "--score", "-1000")]
    options = ["--resign", "movecount=2", "score=500", "--rounds", "3", "--pgn", str(pgn)]
    run = match(*players, *options)
    assert run.returncode == 0, run.stderr
    complete = pgn.read_text()
    # As if the match had been stopped after games 1, 2 and 4 (4 finished before 3).
    blocks = re.split(r"(?m)^(?=\[Game )", complete)[1:]
    pgn.write_text(blocks[0] + blocks[1] + blocks[3])
    run = match(*players, *options, "--resume", "--results", str(results))
    assert run.returncode == 0, run.stderr
    played = {int(g.tags["MatchGame"]): g for g in read_pgn_games(pgn.read_bytes())}
    assert sorted(played) == [1, 2, 3, 4, 5, 6]
    assert all(game.complete for game in played.values())
    assert [line.split(":")[0] for line in run.stdout.splitlines() if line.startswith("game ")] == [
        "game 3/6",
        "game 5/6",
        "game 6/6",
    ]
    assert run.stdout.strip().splitlines()[-1] == (
        f"final: A 6 - 0 B over 6 games (3 of them from {pgn})"
    )
    document = json.loads(results.read_text())
    assert [g["number"] for g in document["games"]] == [1, 2, 3, 4, 5, 6]
    assert [bool(g.get("from_pgn")) for g in document["games"]] == [1, 1, 0, 1, 0, 0]
    assert document["statistics"][0]["pentanomial"] == [0, 0, 0, 0, 3]
    # The Round tags go on as they were.
    assert [played[number].tags["Round"] for number in sorted(played)] == list("123456")
    # Nothing left to play: the match ends at once.
    run = match(*players, *options, "--resume")
    assert run.returncode == 0 and "over 6 games (6 of them" in run.stdout


def test_resume_refuses_another_match(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    run = match(*engine("A"), *engine("B"), "--games", "2", "--max-plies", "2", "--pgn", str(pgn))
    assert run.returncode == 0, run.stderr
    run = match(*engine("A"), *engine("C"), "--games", "2", "--resume", "--pgn", str(pgn))
    assert run.returncode == 1
    assert "not the same match" in run.stderr and "Traceback" not in run.stderr


def test_resumed_games_count_under_their_own_termination(tmp_path: Path) -> None:
    """A game taken from the PGN by --resume counts in the terminations and the forfeit warning
    by its [Termination], as a game played now does.  In the rulebook's perpetual chase, A
    thinks for ever at ply 2: as red it loses on time, as black it wins by the ruling."""
    openings, pgn, results = tmp_path / "d22.txt", tmp_path / "m.pgn", tmp_path / "r.json"
    openings.write_text(f"fen {D22_FEN}\n")
    players = [
        *engine("A", "--script", D22_MOVES, "--think-at", "2:600000"),
        *engine("B", "--script", D22_MOVES),
    ]
    options = ["--openings", str(openings), "--rounds", "2", "--tc", "2+0", "--pgn", str(pgn)]
    run = match(*players, *options)
    assert run.returncode == 0, run.stderr
    assert [(g["Result"], g["Termination"]) for g in pgn_games(pgn)] == [
        ("0-1", "time forfeit"),
        ("0-1", "perpetual-chase"),
    ] * 2
    ended = "  A (4 games): wins 2 perpetual-chase; losses 2 time; draws none"
    assert ended in run.stdout.splitlines()
    # Stopped after the first pair: the second is played again, the first read back.
    blocks = re.split(r"(?m)^(?=\[Game )", pgn.read_text())[1:]
    pgn.write_text(blocks[0] + blocks[1])
    run = match(*players, *options, "--resume", "--results", str(results))
    assert run.returncode == 0, run.stderr
    assert "over 4 games (2 of them from" in run.stdout
    assert ended in run.stdout.splitlines()
    assert "warning: 2 of the 4 games of A (50 %) ended by forfeit (2 lost by A: 2 time)" in (
        run.stdout
    )
    document = json.loads(results.read_text())
    assert [(g["termination"], bool(g.get("from_pgn"))) for g in document["games"]] == [
        ("time forfeit", True),
        ("perpetual-chase", True),
        ("time forfeit", False),
        ("perpetual-chase", False),
    ]
    assert document["terminations"]["A"]["losses"] == {"time": 2}


# -- bad arguments --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, message",
    [
        (["--tc", "fast"], "engine 1: time control 'fast' is not MOVES/TIME+INC or TIME+INC"),
        (["--rounds", "2", "--games", "3"], "--games must be 1 or 2 with --rounds"),
        (["--rounds", "0"], "--rounds must be at least 1"),
        (["--resume"], "--resume needs the --pgn file of the match to go on with"),
        (["--sprt", "elo0=5", "elo1=0"], "SPRT: elo0 (5) must be below elo1 (0)"),
        (["--draw", "movecount=2"], "--draw needs score=…"),
        (["--resign", "movecount=2", "score=0"], "--resign score must be at least 1, got 0"),
        (
            ["--openings", "file=x.epd", "order=any"],
            "openings order must be sequential or random, got 'any'",
        ),
        (
            ["--openings", "file=/nonexistent/b.epd"],
            "--openings /nonexistent/b.epd: No such file or directory",
        ),
        (["--ratinginterval", "-1"], "--ratinginterval must be at least 0"),
        (
            ["--each", "speed=3"],
            "unknown --each setting 'speed': expected cmd, args, dir, name, proto, notation, tc, "
            "st, timemargin, depth, nodes, timeunit or option.<Name>",
        ),
    ],
)
def test_bad_arguments(options: list[str], message: str) -> None:
    run = match(*engine("A"), *engine("B"), *options)
    assert run.returncode == 2
    assert run.stderr.strip() == f"xqadj match: {message}"


def test_sprt_needs_two_engines() -> None:
    run = match(*engine("A"), *engine("B"), *engine("C"), "--sprt", "elo0=0", "elo1=5")
    assert run.returncode == 2 and "--sprt needs exactly two engines" in run.stderr


# -- the real engine ------------------------------------------------------------------------------


def test_fairy_stockfish_on_short_clocks_uci_and_ucci(fairy_stockfish: str, tmp_path: Path) -> None:
    pgn, results = tmp_path / "m.pgn", tmp_path / "r.json"
    run = match(
        "--engine",
        f"cmd={fairy_stockfish}",
        "proto=uci",
        "notation=fairy",
        "name=FS-uci",
        "--engine",
        f"cmd={fairy_stockfish}",
        "proto=ucci",
        "name=FS-ucci",
        "--each",
        "option.Threads=1",
        "option.Hash=16",
        "timemargin=200",
        "--tc",
        "4+0.1",
        "--games",
        "2",
        "--max-plies",
        "24",
        "--pgn",
        str(pgn),
        "--results",
        str(results),
    )
    assert run.returncode == 0, run.stderr
    games = pgn_games(pgn)
    assert len(games) == 2
    for game in games:
        assert game["TimeControl"] == "4+0.1"
        assert game["Termination"] != "time forfeit", game["movetext"]
        # Every engine move has its score, depth, time and clock.
        comments = re.findall(r"\{([^}]*)\}", game["movetext"])
        assert (
            sum(
                bool(re.fullmatch(r"[+-](\d+\.\d\d|M\d+)/\d+ \d+\.\d{3}s \[%clk [\d:.]+\]", c))
                for c in comments
            )
            >= 20
        )
    document = json.loads(results.read_text())
    assert document["played"] == 2 and document["statistics"][0]["games"] == 2
