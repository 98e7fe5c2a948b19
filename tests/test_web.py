"""xqadj in the browser (``web/``): the build, the module in Node, the page in headless Chromium.

The build (``npm --prefix web ci && npm --prefix web run build``, as the README says) runs once
per session; it needs node, npm and the npm registry (Debian's nodejs and npm are installed when
missing and the tests run as root), and a missing one fails under CI=true
(``skip_or_fail``).  Then:

* every rulebook case of ``tests/data/axf-cases.tsv`` (AXF) and ``cxa-cases.tsv`` (CXA, with and
  without the forbidden run) is ruled through ``web/dist/xqadj.mjs`` in Node three ways (one
  ``position`` line, growing ``position`` lines, ``move`` by ``move``; ``tests/web/cases.mjs``)
  and must give exactly what the Python package gives natively: the rulings, the status, the
  banned moves, the explanation, the picture (compared by its SHA-256) and the error after the
  ruling;
* the page, served from ``web/dist`` on 127.0.0.1, is opened in headless Chromium (driven over
  the DevTools protocol, ``tests/cdp.py``) at a phone's width, from a shared link and from typed
  input: it rules diagram 22, shows the ruling text and a board, fits 390 px without sideways
  scrolling, puts a bad move's error beside the game field; a screenshot is decoded and must
  show the board and both sides' pieces; every request the page made stayed in its folder; and,
  loaded once, it rules again with its server gone (the service worker's cache).
"""

from __future__ import annotations

import csv
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from cdp import Browser, serve_folder
from support import apt_install, skip_or_fail
from test_report_browser import chromium, near, read_png, rgb  # noqa: F401 - a fixture

from xqadj import svg
from xqadj.protocol import Session

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
DIST = WEB / "dist"
DATA = ROOT / "tests" / "data"
D22_FEN = "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w"
D22_MOVES = "b3b2 f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2"
D22_PIECES = sum(c.isalpha() for c in D22_FEN.split()[0])
D22_TITLE = "Perpetual chase 长捉: Red loses, 0-1 (art.15, AXF rules, ply 8)"


def _run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, **kwargs)


#: Held while web/dist is built: the test processes of a parallel run (pytest-xdist) share the
#: folder, and two builds at once delete each other's files.
BUILD_LOCK = ROOT / "web" / ".build.lock"
#: In web/dist: the parallel run (xdist's ``testrun_uid``) that built it, so that the other
#: processes of the same run use that build instead of building again.
BUILT_BY = DIST / ".built-by"


@pytest.fixture(scope="session")
def dist(testrun_uid: str) -> Path:
    """web/dist, built as the README says (the wheel with this interpreter's pip), once a run."""
    with BUILD_LOCK.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not (BUILT_BY.is_file() and BUILT_BY.read_text() == testrun_uid):
            _build()
            BUILT_BY.write_text(testrun_uid)
    return DIST


def _build() -> None:
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        report = apt_install("nodejs", "npm")
        for tool in missing:
            if shutil.which(tool) is None:
                skip_or_fail(f"{tool} is needed to build and test web/ and is missing ({report})")
    env = dict(os.environ, PYTHON=sys.executable)
    installed = _run(["npm", "--prefix", "web", "ci", "--no-audit", "--no-fund"], env=env)
    if installed.returncode != 0:
        skip_or_fail(f"npm ci failed (the npm registry is needed): {installed.stderr[-800:]}")
    built = _run(["npm", "--prefix", "web", "run", "build"], env=env)
    assert built.returncode == 0, built.stderr[-2000:]


def test_the_build_holds_everything_the_page_loads(dist: Path) -> None:
    manifest = json.loads((dist / "xqadj.json").read_text())
    assert (dist / manifest["wheel"]).is_file()
    for name in ("index.html", "page.mjs", "xqadj.mjs", "xqadj.d.ts", "sw.js"):
        assert (dist / name).is_file(), name
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        assert (dist / "pyodide" / name).is_file(), name
    package = json.loads((WEB / "package.json").read_text())
    assert manifest["pyodide"] == package["dependencies"]["pyodide"]
    # The service worker caches exactly the files of the build.
    worker = (dist / "sw.js").read_text()
    assert "__FILES__" not in worker and manifest["wheel"] in worker


# -- the module in Node: every rulebook case as the Python package rules it ----------------------


def _cases() -> list[dict[str, Any]]:
    cases = []
    for name, variants in (
        ("axf-cases.tsv", [{"rules": "axf"}]),
        ("cxa-cases.tsv", [{"rules": "cxa"}, {"rules": "cxa", "forbiddenRun": True}]),
    ):
        with open(DATA / name, encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle, delimiter="\t"))
        for options in variants:
            for row in rows:
                cases.append(
                    {"id": row["id"], "fen": row["fen"], "moves": row["moves"], "options": options}
                )
    return cases


def _ruling(answer: list[str]) -> dict[str, Any] | None:
    """The fields of the ``ruling`` line among a command's answer (the module's shape)."""
    line = next((text for text in answer if text.startswith("ruling ")), None)
    if line is None:
        return None
    head, _, cycle = line.partition(" cycle")
    words = head.split()[1:]
    fields: dict[str, Any] = dict(zip(words[::2], words[1::2], strict=True))
    fields["ply"] = int(fields["ply"])
    fields["cycle"] = cycle.split()
    return fields


def _native(case: dict[str, Any]) -> dict[str, Any]:
    """What tests/web/cases.mjs does, with the Python package itself."""
    options = case["options"]
    session = Session()
    session.handle(f"setoption name Rules value {options['rules']}")
    run = "true" if options.get("forbiddenRun") else "false"
    session.handle(f"setoption name ForbiddenRun value {run}")
    moves = case["moves"].split()
    start = f"position fen {case['fen']}"
    whole = _ruling(session.handle(f"{start} moves {' '.join(moves)}"))
    game = session.game
    ruling = game.ruling
    explanation = None if ruling is None else ruling.explain()
    if ruling is not None:
        board = game.board.copy()
        while board.ply > ruling.ply:
            board.pop()
        picture = svg.ruling(board, ruling)
    else:
        last = game.board.move_stack[-1] if game.board.move_stack else None
        picture = svg.board(game.board, lastmove=last)
    words = session.handle("status")[0].split()
    status = {
        "ply": int(words[2]),
        "occurrences": int(words[4]),
        "result": words[6],
        "reason": words[8],
        "fen": " ".join(words[10:]),
    }
    session.handle("ucinewgame")
    growing = []
    for k in range(1, len(moves) + 1):
        found = _ruling(session.handle(f"{start} moves {' '.join(moves[:k])}"))
        if found:
            growing.append([k, found])
    session.handle("ucinewgame")
    by_move = _ruling(session.handle(start))
    banned = None
    after = None
    for move in moves:
        if by_move:
            break
        banned = session.handle("banmoves")[0].split()[1:]
        by_move = _ruling(session.handle(f"move {move}"))
    if by_move and moves:
        after = session.handle(f"move {moves[0]}")[0].split()[1]
    return {
        "id": case["id"],
        "whole": whole,
        "explanation": explanation,
        "picture": hashlib.sha256(picture.encode()).hexdigest(),
        "status": status,
        "growing": growing,
        "byMove": by_move,
        "banned": banned,
        "after": after,
    }


def test_every_rulebook_case_rules_in_node_as_in_python(dist: Path, tmp_path: Path) -> None:
    cases = _cases()
    assert len(cases) > 200
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases), encoding="utf-8")
    done = _run(["node", "tests/web/cases.mjs", str(dist / "xqadj.mjs"), str(path)], timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout)
    assert len(got) == len(cases)
    ruled = 0
    for case, result in zip(cases, got, strict=True):
        expected = _native(case)
        assert result == expected, (case["id"], case["options"])
        ruled += result["whole"] is not None
    # The cases are rulings: nearly all of them rule (the others check that a line does not).
    assert ruled > 0.8 * len(cases)


def test_bad_input_through_the_module_is_the_protocols_error(dist: Path, tmp_path: Path) -> None:
    script = tmp_path / "errors.mjs"
    script.write_text(
        f"""
import {{ loadArbiter, readGame, XqadjError }} from {json.dumps((dist / "xqadj.mjs").as_uri())};
const seen = {{}};
try {{ await loadArbiter({{ rules: "fide" }}); }}
catch (e) {{ seen.rules = [e instanceof XqadjError, e.message]; }}
const arbiter = await loadArbiter();
arbiter.position(null, "h2e2");
try {{ arbiter.move("h9h0"); }} catch (e) {{ seen.illegal = [e.code, e.details]; }}
seen.status = arbiter.status();
try {{ arbiter.move("h9g7 h0g2"); }} catch (e) {{ seen.two = e.code; }}
try {{ arbiter.newGame("9/9/9 w"); }} catch (e) {{ seen.fen = e.code; }}
seen.after = arbiter.status();
const reading = await readGame("h2e2 h9h0", {{ fen: "startpos" }});
seen.game = reading.summary.errors;
seen.bad = (await readGame("", {{ fen: "9/9 w", moveLimit: "x" }})).summary.errors;
process.stdout.write(JSON.stringify(seen));
""",
        encoding="utf-8",
    )
    done = _run(["node", str(script)], timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout)
    assert seen["rules"] == [True, "bad-value Rules fide: expected one of axf, cxa"]
    assert seen["illegal"][0] == "illegal-move" and seen["illegal"][1].startswith("h9h0 index 0")
    assert seen["status"]["ply"] == 1  # the illegal move changed nothing
    assert seen["two"] == "bad-move"
    assert seen["fen"] == "bad-fen"
    assert seen["after"]["ply"] == 1  # nor did the bad FEN
    assert seen["game"]["game"].startswith("ply 2, move 'h9h0': illegal move h9h0")
    assert set(seen["bad"]) == {"fen", "limit"}
    assert seen["bad"]["limit"] == "move limit: not an integer: 'x'"
    assert seen["bad"]["fen"].startswith("bad FEN '9/9 w'")


# -- the page in Chromium ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def page(dist: Path, chromium: str) -> Iterator[tuple[Browser, str, list[str]]]:  # noqa: F811
    with serve_folder(dist) as (base, asked):
        browser = Browser(chromium, timeout=240)
        try:
            browser.page(
                "Emulation.setDeviceMetricsOverride",
                {"width": 390, "height": 900, "deviceScaleFactor": 1, "mobile": True},
            )
            yield browser, base, asked
        finally:
            browser.close()


READY = "document.body && document.body.dataset.ready"
TEXT = "document.getElementById('result').innerText"


def _assert_d22_ruled(browser: Browser) -> None:
    text = browser.evaluate(TEXT)
    assert D22_TITLE in text
    assert "ruling result 0-1 reason perpetual-chase ply 8 offender red article art.15" in text
    assert "Red chases the same piece on every move" in text
    pieces = browser.evaluate("document.querySelectorAll('#board svg .piece').length")
    assert pieces >= D22_PIECES * 5  # the ruling's panels: the start and the cycle's moves
    assert browser.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def test_the_page_rules_diagram_22_from_a_link(
    page: tuple[Browser, str, list[str]], tmp_path: Path
) -> None:
    browser, base, asked = page
    link = f"index.html?fen={quote(D22_FEN)}&moves={quote(D22_MOVES)}&rules=axf"
    browser.navigate(base + link)
    assert browser.wait_for(READY) == "true"
    _assert_d22_ruled(browser)
    # The page's own share link is the same game.
    share = browser.evaluate("document.getElementById('share').getAttribute('href')")
    assert "rules=axf" in share and quote(D22_FEN, safe="").replace("%20", "+") in share
    # Stepping back shows a plain board, forward again the ruling.
    browser.evaluate("document.getElementById('back').click()")
    assert browser.evaluate("document.getElementById('ply').textContent") == "ply 7 / 8"
    assert browser.evaluate("document.querySelectorAll('#board svg .piece').length") == D22_PIECES
    browser.evaluate("document.activeElement.blur()")
    for kind in ("keyDown", "keyUp"):  # the arrow key, pressed
        browser.page(
            "Input.dispatchKeyEvent",
            {"type": kind, "key": "ArrowRight", "code": "ArrowRight", "windowsVirtualKeyCode": 39},
        )
    assert browser.evaluate("document.getElementById('ply').textContent") == "ply 8 / 8"
    # A screenshot of the board, decoded: the wood and both sides' ink are there.
    browser.evaluate("document.getElementById('board').scrollIntoView()")
    shot = tmp_path / "page-390.png"
    browser.screenshot(shot)
    width, height, pixels = read_png(shot)
    assert width == 390 and height == 900
    counts = {
        name: sum(1 for p in pixels if near(p, rgb(svg.COLORS[name])))
        for name in ("board", "red", "black")
    }
    assert counts["board"] > len(pixels) // 10, counts
    assert min(counts["red"], counts["black"]) > 200, counts
    _assert_stayed_home(browser, base, asked)


def test_the_page_rules_typed_input_and_puts_errors_beside_the_field(
    page: tuple[Browser, str, list[str]],
) -> None:
    browser, base, asked = page
    browser.navigate(base + "index.html")
    assert browser.wait_for(READY) == "true"
    assert browser.evaluate("document.getElementById('result').hidden") is True
    browser.evaluate("document.getElementById('fen').focus()")
    browser.page("Input.insertText", {"text": D22_FEN})
    browser.evaluate("document.getElementById('game').focus()")
    browser.page("Input.insertText", {"text": D22_MOVES})
    browser.wait_for("document.getElementById('ruling').dataset.result === '0-1'")
    _assert_d22_ruled(browser)
    # Moves retyped with an illegal second move (the black rook onto its own cannon): the error
    # stands beside the game field, and the ruling stays on the page.
    browser.evaluate("document.getElementById('game').select()")
    browser.page("Input.insertText", {"text": "b3b2 f2f1"})
    error = browser.wait_for(
        "!document.getElementById('game-error').hidden && "
        "document.getElementById('game-error').textContent",
        timeout=60,
    )
    assert error.startswith("ply 2, move 'f2f1': illegal move f2f1")
    assert browser.evaluate("document.getElementById('game').getAttribute('aria-invalid')") == (
        "true"
    )
    assert browser.evaluate("document.getElementById('fen-error').hidden") is True
    assert D22_TITLE in browser.evaluate(TEXT)
    _assert_stayed_home(browser, base, asked)


def _assert_stayed_home(browser: Browser, base: str, asked: list[str]) -> None:
    """Every request the page made was for a file of its own folder."""
    requests = browser.requests()
    assert any(url.endswith("pyodide.asm.wasm") for url in requests)
    for url in requests:
        assert url.startswith(base) or url.startswith("data:"), url
    for path in asked:
        target = (DIST / urlsplit(path).path.lstrip("/")).resolve()
        assert target == DIST.resolve() or DIST.resolve() in target.parents, path


# -- xqadj.integrations.web in CPython: what the page and the module call ------------------------


def test_read_game_reads_what_replay_reads_and_stops_at_the_ruling() -> None:
    from xqadj.integrations.web import read_game

    pgn = f'[Event "d22"]\n[FEN "{D22_FEN}"]\n1. {D22_MOVES} a0a1 *\n'
    summary = json.loads(read_game(pgn).summary())
    assert summary["errors"] == {} and summary["event"] == "d22"
    assert summary["ruling"]["title"] == D22_TITLE
    assert summary["ruling"]["cycle"] == D22_MOVES.split()
    assert summary["unread"] == 1 and len(summary["moves"]) == 8
    # The same start typed in the field agrees with the tag; another one is refused there.
    assert json.loads(read_game(pgn, D22_FEN).summary())["errors"] == {}
    other = json.loads(read_game(pgn, "startpos").summary())["errors"]
    assert list(other) == ["fen"]
    # A `FEN | moves` line, and Chinese and WXF moves from the start.
    line = json.loads(read_game(f"{D22_FEN} | {D22_MOVES}").summary())
    assert line["ruling"]["ply"] == 8
    chinese = json.loads(read_game("炮二平五 马８进７").summary())
    wxf = json.loads(read_game("C2=5 H8+7").summary())
    assert chinese["moves"] == wxf["moves"] == ["h2e2", "h9g7"]
    assert (chinese["notation"], wxf["notation"]) == ("chinese", "wxf")


def test_read_game_errors_name_their_field() -> None:
    from xqadj.integrations.web import read_game

    def errors(*args: Any, **kwargs: Any) -> dict[str, str]:
        found: dict[str, str] = json.loads(read_game(*args, **kwargs).summary())["errors"]
        return found

    assert errors("h2e2", "9/9 w")["fen"].startswith("bad FEN '9/9 w'")
    assert errors("h2e2", move_limit="-3") == {"limit": "move limit: must be 0 or more: -3"}
    assert errors("h2e2", rules="fide") == {
        "rules": "unknown rules 'fide': expected one of axf, cxa"
    }
    assert errors("h2e2 z9z9")["game"].startswith("ply 2, move 'z9z9': ")
    assert errors('[FEN "x"]\nh2e2')["game"].startswith("bad FEN 'x'")
    assert list(errors("{ never closed\nh2e2")) == ["game"]


def test_read_game_pictures_the_ruling_at_its_ply_and_boards_elsewhere() -> None:
    from xqadj.integrations.web import read_game

    reading = read_game(D22_MOVES, D22_FEN)
    ruling_picture, before = reading.picture(8), reading.picture(7)
    assert ruling_picture.count('class="piece') > before.count('class="piece')  # one per panel
    assert 'class="arrow chase"' in ruling_picture and 'class="arrow chase"' not in before
    assert reading.picture(99) == ruling_picture  # clamped to the game
    assert reading.picture(-1) == reading.picture(0)
    # On a phone the panels stand one under the other: a narrower, taller picture.
    box = r'viewBox="0 0 ([\d.]+) ([\d.]+)"'
    wide, tall = (re.search(box, reading.picture(8, columns)) for columns in (3, 1))
    assert wide and tall
    assert float(tall[1]) < float(wide[1]) and float(tall[2]) > float(wide[2])


def test_arbiter_pictures_the_ruling_after_moves_played_on() -> None:
    from xqadj.integrations.web import Arbiter

    arbiter = Arbiter()
    assert arbiter.send(f"position fen {D22_FEN} moves {D22_MOVES}").startswith("ruling ")
    at_ruling = arbiter.picture()
    assert "perpetual chase" in str(arbiter.explain())
    # A client that did not know of the ruling plays on: the picture is still the ruling's.
    assert arbiter.send(f"position fen {D22_FEN} moves {D22_MOVES} b3b2") == ""
    assert arbiter.send("status").startswith("status ply 9 ")
    assert arbiter.picture() == at_ruling
    assert arbiter.new_game("") == "" and arbiter.explain() is None


def test_the_page_works_offline_once_loaded(dist: Path, chromium: str) -> None:  # noqa: F811
    """Loaded once, the page rules again with its server gone: the service worker's cache."""
    link = f"index.html?fen={quote(D22_FEN)}&moves={quote(D22_MOVES)}&rules=axf"
    browser = Browser(chromium, timeout=240)
    try:
        with serve_folder(dist) as (base, _):
            browser.navigate(base + link)
            assert browser.wait_for(READY) == "true"
            # The worker has cached every file and controls the page.
            browser.evaluate("navigator.serviceWorker.ready.then(() => true)")
            browser.wait_for("!!navigator.serviceWorker.controller")
        browser.navigate(base + link)  # the server has stopped: nothing answers on its port
        assert browser.wait_for(READY, timeout=120) == "true"
        _assert_d22_ruled(browser)
    finally:
        browser.close()
