"""``xqadj match`` and ``xqadj proxy``, driven as a user would, against Debian's Fairy-Stockfish
(UCI with ranks 1-10, UCCI with ranks 0-9) and a scripted engine for the rulings and faults."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from xqadj.board import Board
from xqadj.integrations.engine import EngineSpec
from xqadj.integrations.match import Opening

SCRIPTED = Path(__file__).resolve().parent / "engines" / "fake_engine.py"
# AXF/WXF diagram 22: Red's cannon chases Black's rook; Red loses at ply 8 (0-1, art. 15).
D22_FEN = "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w"
D22_MOVES = "b3b2 f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2"


def xqadj(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xqadj", *args], capture_output=True, text=True, timeout=timeout
    )


def scripted(name: str, *extra: str, proto: str = "uci") -> list[str]:
    command = shlex.join([sys.executable, str(SCRIPTED), *extra])
    return [f"cmd={command}", f"proto={proto}", f"name={name}"]


def pgn_games(path: Path) -> list[dict[str, str]]:
    games = []
    # A game starts at its first tag, after a blank line or at the top of the file.
    text = path.read_text(encoding="utf-8")
    for block in re.split(r"\n\s*\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]', block, re.M))
        tags["movetext"] = block.split("\n\n", 1)[1]
        games.append(tags)
    return games


# -- engine settings ----------------------------------------------------------------------------


def test_engine_spec_parses_cutechess_style_settings() -> None:
    spec = EngineSpec.parse(
        ["cmd=/usr/games/fairy-stockfish -x", "proto=ucci", "name=FS", "option.Hash=16"]
    )
    assert spec.command == ["/usr/games/fairy-stockfish", "-x"]
    assert (spec.protocol, spec.notation, spec.name, spec.options) == (
        "ucci",
        "iccs",
        "FS",
        {"Hash": "16"},
    )
    assert EngineSpec.parse("cmd=engine").name == "engine"


@pytest.mark.parametrize(
    "settings, message",
    [
        (["proto=uci"], "needs cmd"),
        (["cmd=x", "proto=xboard"], "proto must be"),
        (["cmd=x", "notation=wxf"], "notation must be"),
        (["cmd=x", "proto=ucci", "notation=fairy"], "UCCI engines use iccs"),
        (["cmd=x", "colour=red"], "unknown engine setting"),
        (["cmd"], "not key=value"),
    ],
)
def test_engine_spec_errors(settings: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        EngineSpec.parse(settings)


def test_opening_lines() -> None:
    assert Opening.parse("startpos moves h2e2 h9g7").moves == ("h2e2", "h9g7")
    assert Opening.parse(f"fen {D22_FEN}").fen == D22_FEN
    with pytest.raises(ValueError):
        Opening.parse("fen")
    with pytest.raises(ValueError):
        Opening.parse("startpos moves h2e9")


# -- match with the real engine ----------------------------------------------------------------


def test_match_uci_against_ucci_fairy_stockfish(fairy_stockfish: str, tmp_path: Path) -> None:
    pgn = tmp_path / "match.pgn"
    result = xqadj(
        "match",
        "--engine",
        f"cmd={fairy_stockfish}",
        "proto=uci",
        "notation=fairy",
        "name=FS-uci",
        "--engine",
        f"cmd={fairy_stockfish}",
        "proto=ucci",
        "name=FS-ucci",
        "--games",
        "2",
        "--depth",
        "3",
        "--pgn",
        str(pgn),
    )
    assert result.returncode == 0, result.stderr
    progress = [line for line in result.stdout.splitlines() if line.startswith("game ")]
    assert len(progress) == 2
    assert "score FS-uci" in progress[-1]
    games = pgn_games(pgn)
    assert [(g["Red"], g["Black"]) for g in games] == [("FS-uci", "FS-ucci"), ("FS-ucci", "FS-uci")]
    for game in games:
        assert game["Result"] in ("1-0", "0-1", "1/2-1/2")
        assert game["Termination"] in (
            "checkmate",
            "stalemate",
            "perpetual-check",
            "perpetual-chase",
            "repetition",
            "move-limit",
            "max-plies",
        )
        assert game["movetext"].rstrip().endswith(game["Result"])
        assert "{" in game["movetext"]  # the explanation
        # Nobody forfeited: both protocols and both notations were understood.
        assert "forfeit" not in game["Termination"]
    final = result.stdout.strip().splitlines()[-1]
    scores = re.match(r"final: FS-uci ([\d.]+) - ([\d.]+) FS-ucci over 2 games", final)
    assert scores and float(scores[1]) + float(scores[2]) == 2


def test_match_with_concurrency_and_nodes(fairy_stockfish: str, tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("# two openings\nstartpos moves h2e2 h9g7\nstartpos moves b0c2\n")
    result = xqadj(
        "match",
        "--engine",
        f"cmd={fairy_stockfish}",
        "proto=ucci",
        "name=A",
        "--engine",
        f"cmd={fairy_stockfish}",
        "proto=ucci",
        "name=B",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--nodes",
        "300",
        "--openings",
        str(openings),
        "--pgn",
        str(tmp_path / "m.pgn"),
    )
    assert result.returncode == 0, result.stderr
    games = pgn_games(tmp_path / "m.pgn")
    assert sorted(int(g["Round"]) for g in games) == [1, 2, 3, 4]
    for game in games:
        first = game["movetext"].split()[:3]
        assert first[1] in ("h2e2", "b0c2")  # each game starts with its opening


# -- rulings and forfeits with the scripted engine --------------------------------------------


def test_match_ends_at_the_ruling_and_alternates_colours(tmp_path: Path) -> None:
    openings = tmp_path / "d22.txt"
    openings.write_text(f"fen {D22_FEN}\n")
    result = xqadj(
        "match",
        "--engine",
        *scripted("A", "--script", D22_MOVES),
        "--engine",
        *scripted("B", "--script", D22_MOVES, proto="ucci"),
        "--games",
        "2",
        "--openings",
        str(openings),
        "--pgn",
        str(tmp_path / "m.pgn"),
    )
    assert result.returncode == 0, result.stderr
    games = pgn_games(tmp_path / "m.pgn")
    for game, red in zip(games, ("A", "B"), strict=True):
        assert game["Red"] == red
        assert (game["Result"], game["Termination"]) == ("0-1", "perpetual-chase")
        assert (game["SetUp"], game["FEN"]) == ("1", f"{D22_FEN} - - 0 1")
        assert "perpetual chase" in game["movetext"] and "art.15" in game["movetext"]
    assert "final: A 1 - 1 B over 2 games" in result.stdout


@pytest.mark.parametrize(
    "fault, termination",
    [
        (["--crash-at", "0"], "forfeit (crash)"),
        (["--hang-at", "0"], "forfeit (timeout)"),
        (["--illegal-at", "0"], "forfeit (illegal-move)"),
    ],
)
def test_faulty_engine_forfeits_and_the_match_goes_on(
    tmp_path: Path, fault: list[str], termination: str
) -> None:
    result = xqadj(
        "match",
        "--engine",
        *scripted("Faulty", *fault),
        "--engine",
        *scripted("Good"),
        "--games",
        "2",
        "--movetime",
        "200",
        "--max-plies",
        "10",
        "--pgn",
        str(tmp_path / "m.pgn"),
    )
    assert result.returncode == 0, result.stderr
    first, second = pgn_games(tmp_path / "m.pgn")
    # Game 1: Faulty is Red and fails on its first move.
    assert (first["Red"], first["Result"], first["Termination"]) == ("Faulty", "0-1", termination)
    # Game 2: Faulty (restarted) is Black; it fails at ply 0 only as Red, so the game is played.
    assert second["Black"] == "Faulty" and "forfeit" not in second["Termination"]
    assert second["Termination"] == "max-plies"


def test_match_usage_errors() -> None:
    result = xqadj("match", "--engine", "cmd=x")
    assert result.returncode == 2 and "at least twice" in result.stderr
    result = xqadj("match", "--engine", "proto=uci", "--engine", "cmd=x")
    assert result.returncode == 2 and "needs cmd" in result.stderr


# -- proxy ------------------------------------------------------------------------------------


def spawn_proxy(*command: str) -> pexpect.spawn:
    child = pexpect.spawn(
        sys.executable, ["-m", "xqadj", "proxy", "--", *command], encoding="utf-8", timeout=30
    )
    child.setecho(False)
    return child


def test_proxy_passes_ucci_through_and_reports_the_ruling(fairy_stockfish: str) -> None:
    child = spawn_proxy(fairy_stockfish)
    child.sendline("ucci")
    child.expect("ucciok")
    child.sendline(f"position fen {D22_FEN} moves {D22_MOVES.rsplit(' ', 1)[0]}")
    child.sendline("go depth 2")
    child.expect(r"bestmove (\w+)")
    played = child.match.group(1)
    assert re.fullmatch(r"[a-i]\d[a-i]\d", played)
    ruling = (
        r"info string xqadj ruling result 0-1 reason perpetual-chase ply 8 "
        r"offender red article art\.15.*\n.*info string xqadj The position occurred for the "
        "third time"
    )
    if played == D22_MOVES.split()[-1]:
        # The engine's own move completed the third occurrence: ruled before its bestmove.
        assert re.search(ruling, child.before), child.before
    child.sendline(f"position fen {D22_FEN} moves {D22_MOVES}")
    child.sendline("go depth 1")  # a GUI sends a position line with its go
    if played != D22_MOVES.split()[-1]:
        child.expect(ruling)
    child.sendline("isready")
    child.expect("readyok")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_proxy_with_uci_fairy_notation(fairy_stockfish: str) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "xqadj", "proxy", "--notation", "fairy", "--", fairy_stockfish],
        encoding="utf-8",
        timeout=30,
    )
    child.sendline("uci")
    child.expect("uciok")
    child.sendline("setoption name UCI_Variant value xiangqi")
    moves = " ".join(f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}" for m in D22_MOVES.split())
    child.sendline(f"position fen {D22_FEN} moves {moves}")
    child.sendline("go depth 1")  # a GUI sends a position line with its go
    child.expect(
        r"info string xqadj ruling result 0-1 reason perpetual-chase ply 8 .* cycle "
        r"b4b3 f3f4"
    )
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_proxy_sends_banmoves_to_a_ucci_engine(tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    child = spawn_proxy(sys.executable, str(SCRIPTED), "--log", str(log))
    child.sendline("ucci")
    child.expect("ucciok")
    # Start one ply into D22's cycle, so that Red's b3b2 completes the third occurrence of the
    # start position, with Red as the perpetual chaser: b3b2 loses by rule and is banned.
    board = Board(D22_FEN)
    board.push_iccs("b3b2")
    cycle = "f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2"
    child.sendline(f"position fen {board.fen()} moves {cycle}")
    child.sendline("banmoves a0a1")  # the GUI's own list is merged, not lost
    child.sendline("go depth 1")
    child.expect("bestmove")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    received = log.read_text().splitlines()
    go = received.index("go depth 1")
    assert received[go - 1].split()[0] == "banmoves"
    assert set(received[go - 1].split()[1:]) == {"a0a1", "b3b2"}


# -- the CXA profile through the integrations ---------------------------------------------------

# CXA 2020 图7: Red's cannon threatens mate on every move (长杀), forbidden under CXA: 0-1 at ply 8.
# Under AXF the same cycle is Black's perpetual chase of the cannon (art. 18): 1-0.
F07_FEN = "2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w"
F07_MOVES = "i0h0 i8h8 h0i0 h8i8 i0h0 i8h8 h0i0 h8i8"


@pytest.mark.parametrize(
    "rules, result, termination",
    [("cxa", "0-1", "perpetual-kill"), ("axf", "1-0", "perpetual-chase")],
)
def test_match_rules_option(tmp_path: Path, rules: str, result: str, termination: str) -> None:
    game = scripted_match(tmp_path, F07_FEN, F07_MOVES, "--rules", rules)
    assert (game["Result"], game["Termination"]) == (result, termination)


def scripted_match(tmp_path: Path, fen: str, moves: str, *options: str) -> dict[str, str]:
    """One game between two scripted engines that both play ``moves`` from ``fen``: its PGN
    tags, and its move text under ``movetext``."""
    openings = tmp_path / "opening.txt"
    openings.write_text(f"fen {fen}\n")
    run = xqadj(
        "match",
        "--engine",
        *scripted("A", "--script", moves),
        "--engine",
        *scripted("B", "--script", moves),
        "--games",
        "1",
        "--openings",
        str(openings),
        *options,
        "--pgn",
        str(tmp_path / "m.pgn"),
    )
    assert run.returncode == 0, run.stderr
    [game] = pgn_games(tmp_path / "m.pgn")
    return game


def test_proxy_rules_cxa(tmp_path: Path) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "xqadj", "proxy", "--rules", "cxa", "--", sys.executable, str(SCRIPTED)],
        encoding="utf-8",
        timeout=30,
    )
    child.sendline("ucci")
    child.expect("ucciok")
    child.sendline(f"position fen {F07_FEN} moves {F07_MOVES}")
    child.sendline("go depth 1")  # a GUI sends a position line with its go
    child.expect(
        r"info string xqadj ruling result 0-1 reason perpetual-kill ply 8 offender red "
        r"article CXA-24\.10"
    )
    child.expect(r"info string xqadj Under the CXA rules")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_replay_rules_cxa(tmp_path: Path) -> None:
    lines = tmp_path / "games.txt"
    lines.write_text(f"{F07_FEN} | {F07_MOVES}\n")
    for rules, expected in (
        ("cxa", "ruling 0-1 perpetual-kill ply 8 offender red CXA-24.10"),
        ("axf", "ruling 1-0 perpetual-chase ply 8 offender black art.18"),
    ):
        run = xqadj("replay", "--rules", rules, str(lines))
        assert run.returncode == 0, run.stderr
        assert expected in run.stdout


#: 参考图8: red's rook plays nine forbidden moves in a row (ply 17) before the third occurrence
#: (ply 21).
R08_FEN = "2R6/3ka4/3a5/9/9/4p4/8c/4B1r2/4A4/3A1KB2 w"
R08_MOVES = (
    "c9c8 d8d9 c8c9 d9d8 c9i9 i3h3 i9h9 h3i3 h9i9 i3h3 i9h9 h3i3 h9h3 i3i0 h3h0 i0i3 h0h3 "
    "i3i0 h3h0 i0i3 h0h3"
)


@pytest.mark.parametrize(("flag", "ply"), [([], 21), (["--forbidden-run"], 17)])
def test_forbidden_run_option_in_match_and_replay(
    tmp_path: Path, flag: list[str], ply: int
) -> None:
    lines = tmp_path / "games.txt"
    lines.write_text(f"{R08_FEN} | {R08_MOVES}\n")
    run = xqadj("replay", "--rules", "cxa", *flag, str(lines))
    assert run.returncode == 0, run.stderr
    assert f"ruling 0-1 perpetual-chase ply {ply} offender red" in run.stdout
    game = scripted_match(tmp_path, R08_FEN, R08_MOVES, "--rules", "cxa", *flag)
    assert (game["Result"], game["Termination"]) == ("0-1", "perpetual-chase")
    played = re.findall(r"\b[a-i]\d[a-i]\d\b", re.sub(r"\{[^}]*\}", "", game["movetext"]))
    assert len(played) == ply


def test_forbidden_run_option_in_proxy() -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "xqadj", "proxy", "--rules", "cxa", "--forbidden-run", "--", sys.executable]
        + [str(SCRIPTED)],
        encoding="utf-8",
        timeout=30,
    )
    child.sendline("ucci")
    child.expect("ucciok")
    moves = " ".join(R08_MOVES.split()[:17])
    child.sendline(f"position fen {R08_FEN} moves {moves}")
    child.sendline("go depth 1")  # a GUI sends a position line with its go
    child.expect(r"info string xqadj ruling result 0-1 reason perpetual-chase ply 17 offender red")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_timeout_option_bounds_a_depth_limited_search(tmp_path: Path) -> None:
    """With --depth there is no clock to go by: --timeout says when a silent engine forfeits."""
    run = xqadj(
        "match",
        "--engine",
        *scripted("Hangs", "--hang-at", "0"),
        "--engine",
        *scripted("Good"),
        "--games",
        "1",
        "--depth",
        "3",
        "--timeout",
        "1",
        "--pgn",
        str(tmp_path / "m.pgn"),
        timeout=50,  # a hang guard, below the 60 s default that --timeout replaces
    )
    assert run.returncode == 0, run.stderr
    [game] = pgn_games(tmp_path / "m.pgn")
    assert (game["Red"], game["Result"], game["Termination"]) == (
        "Hangs",
        "0-1",
        "forfeit (timeout)",
    )
    assert "within 1.0 s" in " ".join(game["movetext"].split())
