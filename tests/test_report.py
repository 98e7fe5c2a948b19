"""The HTML report (xqadj.integrations.report) and the ``--html`` options of ``xqadj replay`` and
``xqadj match``; tests/test_report_browser.py loads reports in a real browser."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

from xqadj.integrations import report
from xqadj.referee import Game, Reason, Ruling

ROOT = Path(__file__).resolve().parents[1]
SCRIPTED = ROOT / "tests" / "engines" / "fake_engine.py"
D22_FEN = "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w"
D22_MOVES = "b3b2 f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2"
# WXF diagram 1: Red's rook checks on every move and loses (art. 6).
D01_FEN = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w"
D01_MOVES = "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9"


def xqadj(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xqadj", *args], capture_output=True, text=True, timeout=300
    )


def ruled(fen: str, moves: str) -> tuple[Game, Ruling]:
    game = Game(fen)
    ruling = None
    for text in moves.split():
        ruling = game.push_iccs(text)
    assert ruling is not None
    return game, ruling


def cards(page: str) -> list[dict[str, str]]:
    return [
        dict(re.findall(r'data-(\w+)="([^"]*)"', tag))
        for tag in re.findall(r'<article class="card"[^>]*>', page)
    ]


def assert_self_contained(page: str) -> None:
    """Nothing is fetched: no script, no link, no src, no url(), no address but the SVG
    namespace."""
    assert page.startswith("<!DOCTYPE html>")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    for needle in ("<script", "<link", " src=", "url(", "@import"):
        assert needle not in page
    addresses = set(re.findall(r"https?://[^\s\"'<>]+", page))
    assert addresses <= {"http://www.w3.org/2000/svg"}


def test_cards_are_sorted_by_reason_and_names_are_escaped() -> None:
    chase_game, chase = ruled(D22_FEN, D22_MOVES)
    check_game, check = ruled(D01_FEN, D01_MOVES)
    page = report.render(
        "Two <games>",
        ["summary & more"],
        [
            report.Card("d22", chase_game.board, chase, red="<b>Red & co</b>", black="B"),
            report.Card("d01", check_game.board, check),
        ],
    )
    assert_self_contained(page)
    assert [c["reason"] for c in cards(page)] == ["perpetual-check", "perpetual-chase"]
    assert "&lt;b&gt;Red &amp; co&lt;/b&gt;" in page and "<b>Red" not in page
    assert "<title>Two &lt;games&gt;</title>" in page and "summary &amp; more" in page
    assert page.index('id="perpetual-check"') < page.index('id="perpetual-chase"')
    # The pictures are the rulings': D22's two chases; D01's two checks, each answered by a
    # king move that uncovers a cannon's attack on the rook (a chase, drawn too).
    assert page.count('class="arrow chase"') == 4 and page.count('class="arrow check"') == 2
    assert "every move (perpetual check, 长将, art. 6)" in page  # the explanation


def test_header_index_sections_and_boards_drawn_once() -> None:
    """The header names xqadj's version, the date and the rules profile; the index links to
    every card; a caller's pre-rendered sections come before the games; the board's grid and
    the pieces' faces are drawn once for the whole page, every picture refers to them."""
    from datetime import UTC, datetime

    from xqadj import __version__

    chase_game, chase = ruled(D22_FEN, D22_MOVES)
    check_game, check = ruled(D01_FEN, D01_MOVES)
    made = [
        report.Card("d22 & co", chase_game.board, chase),
        report.Card("d01", check_game.board, check),
    ]
    page = report.render(
        "Two",
        ["summary"],
        made,
        rules="axf",
        sections=['<section id="statistics"><h2>Statistics</h2></section>'],
        made=datetime(2026, 1, 2, 3, 4, tzinfo=UTC),
    )
    assert_self_contained(page)
    assert f"xqadj {__version__} · 2026-01-02 03:04 UTC · rules: axf" in page
    anchors = re.findall(r'<li><a href="#([\w-]+)">([^<]*)</a>', page)
    ids = re.findall(r'<article class="card" id="([\w-]+)"', page)
    assert [a for a, _ in anchors] == ids and len(set(ids)) == 2
    assert [name for _, name in anchors] == ["d01", "d22 &amp; co"]  # in the cards' order
    assert page.index('id="statistics"') < page.index("<main>")
    assert page.index("</header>") < page.index('id="statistics"')
    # One grid and one face per piece for the whole page; ten pictures (five a game) use them.
    assert page.count('class="lines"') == 1 and page.count('id="xq-R"') == 1
    assert page.count('<use href="#xq-board-iccs"/>') == 10
    assert page.count('class="piece"') > 10 * 10
    # Without a rules name, the cards' profiles are named.
    assert "rules: axf</p>" in report.render("One", [], made[:1])


def test_an_empty_report_says_so() -> None:
    page = report.render("Nothing", ["summary: 0 games"], [])
    assert_self_contained(page)
    assert "No game was ruled." in page and not cards(page)


def test_replay_html_has_a_card_per_ruled_game(tmp_path: Path) -> None:
    out = tmp_path / "replay.html"
    done = xqadj("replay", str(ROOT / "tests" / "data" / "replay"), "--html", str(out))
    assert done.returncode == 0, done.stderr
    ruled_lines = [line for line in done.stdout.splitlines() if ": ruling " in line]
    page = out.read_text(encoding="utf-8")
    assert_self_contained(page)
    found = cards(page)
    assert len(found) == len(ruled_lines) == 7  # one is an XQF file, read through cchess
    order = [r.value for r in report.REASON_ORDER]
    assert [c["reason"] for c in found] == sorted((c["reason"] for c in found), key=order.index)
    summary = done.stdout.splitlines()[-1]
    assert summary.startswith("summary:") and summary in page
    for line in ruled_lines:
        source, _, rest = line.partition(": ruling ")
        result, reason = rest.split()[:2]
        assert f"<h3>{source.replace('&', '&amp;')}</h3>" in page
        assert any(c["reason"] == reason and c["result"] == result for c in found)


def test_replay_html_draws_as_show_does(tmp_path: Path) -> None:
    """``--letters``, ``--flip`` and ``--coordinates`` reach the report's boards, as ``show``
    takes them, and ``--rules`` its header."""
    games = tmp_path / "d22.txt"
    games.write_text(f"{D22_FEN} | {D22_MOVES}\n", encoding="utf-8")
    out = tmp_path / "replay.html"
    done = xqadj(
        "replay",
        str(games),
        "--html",
        str(out),
        "--letters",
        "--flip",
        "--coordinates",
        "chinese",
        "--rules",
        "cxa",
    )
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert 'id="xq-board-chinese-f-l"' in page and 'href="#xq-board-chinese-f-l"' in page
    assert 'href="#xq-R-l"' in page and 'href="#xq-R"' not in page
    assert "rules: cxa</p>" in page
    defs = page[page.index("<defs>") : page.index("</defs>")]
    assert not re.search(r"[\u4e00-\u9fff]", defs)  # letters and WXF digits only
    # Flipped: Red's rook on a0 (its rook on b1 here) is drawn at the top.
    rook = re.search(r'data-square="b1" data-piece="R" x="([\d.]+)" y="([\d.]+)"', page)
    assert rook and float(rook.group(2)) < 100


def test_replay_html_that_cannot_be_written_is_one_error_line(tmp_path: Path) -> None:
    out = tmp_path / "missing" / "replay.html"
    done = xqadj("replay", str(ROOT / "tests" / "data" / "replay"), "--html", str(out))
    assert done.returncode == 2
    assert done.stderr.startswith("xqadj replay: cannot write the report:")
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    assert done.stdout == ""  # refused before the first game, not after the whole run


def scripted(name: str, *extra: str, proto: str = "uci") -> list[str]:
    command = shlex.join([sys.executable, str(SCRIPTED), *extra])
    return [f"cmd={command}", f"proto={proto}", f"name={name}"]


def test_match_html_draws_each_ruled_game(tmp_path: Path) -> None:
    openings = tmp_path / "d22.txt"
    openings.write_text(f"fen {D22_FEN}\n")
    out = tmp_path / "match.html"
    done = xqadj(
        "match",
        "--engine",
        *scripted("A", "--script", D22_MOVES),
        "--engine",
        *scripted("B", "--script", D22_MOVES, proto="ucci"),
        "--games",
        "2",
        "--openings",
        str(openings),
        "--html",
        str(out),
        "--letters",
        "--coordinates",
        "none",
    )
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert_self_contained(page)
    assert 'href="#xq-board-none-l"' in page and 'href="#xq-C-l"' in page
    assert [(c["reason"], c["offender"]) for c in cards(page)] == [("perpetual-chase", "red")] * 2
    assert "final: A 1 - 1 B over 2 games" in page
    assert '<span class="red">A</span>' in page and '<span class="red">B</span>' in page
    # Each game is D22: two chase arrows (the four moves are drawn once).
    assert page.count('class="arrow chase"') == 4


def test_match_cards_skip_games_without_a_ruling() -> None:
    from xqadj.integrations.match import GameRecord, Opening

    game, ruling = ruled(D22_FEN, D22_MOVES)
    drawn = GameRecord(1, "A", "B", Opening(D22_FEN), list(game.moves), ruling.result)
    drawn.ruling = ruling
    forfeit = GameRecord(2, "B", "A", Opening(), [], "1-0", "forfeit (crash)")
    made = report.match_cards([drawn, forfeit])
    assert len(made) == 1 and made[0].ruling.reason is Reason.PERPETUAL_CHASE
    assert made[0].board.fen() == game.board.fen() and made[0].source == "game 1"
