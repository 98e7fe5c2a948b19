"""The HTML reports of the master games and of the rulebook cases, loaded in a real browser.

Headless Chromium (Debian's ``chromium``; installed here when missing, as root, with a CJK font,
``fonts-wqy-zenhei``; a failure under CI=true, never a silent skip) renders each report:

* a screenshot, decoded here, must show the board's wood, the red and black ink of the pieces,
  their discs and the arrows' colours (not a blank or unstyled page), at a desktop and at a
  phone's width;
* a probe script, added to a copy of the page and read back with ``--dump-dom``, reports every
  arrow element of every picture (its kind, squares and rendered size), which must be exactly the
  move, the checks (attackers of the king) and the chases (:func:`xqadj.rules.axf.classify_move`)
  of each cycle move, computed here without xqadj.svg, and every ring (the king in check, the
  chased pieces); it draws every piece character in the font the page's pieces use and compares
  it with the box of a character no font has (a control that must come out as a box), so a
  missing CJK font fails; it checks that a phone-wide window needs no sideways scrolling, and
  that at 1280 px the boards are large and a row's boards stand on one line whatever their
  titles.  A report of the CXA rulebook cases checks the CXA marks (the 杀 line, the 拦 check,
  the 兑 pair) against :func:`xqadj.referee.cycle_steps`.  The probe prints how long the page
  took to lay out (no assertion: speed is shown, not tested).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from cdp import run_browser
from support import apt_install, skip_or_fail

from xqadj import svg
from xqadj.board import FILE_NAMES, Board, square_name
from xqadj.integrations import replay, report
from xqadj.referee import cycle_start, cycle_steps
from xqadj.rules.axf import classify_move

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT.parent / "shared" / "games"
CASES = ROOT / "tests" / "data" / "axf-cases.tsv"
CXA_CASES = ROOT / "tests" / "data" / "cxa-cases.tsv"
BROWSERS = ("chromium", "chromium-browser")
#: Every character a picture draws in the CJK font.
CHARACTERS = "帥仕相傌俥炮兵將士象馬車砲卒楚河漢界将捉闲杀拦兑"


def _has_cjk_font() -> bool:
    """Whether fontconfig knows a Chinese font (by its files when fc-list is not installed)."""
    if shutil.which("fc-list"):
        found = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True)
        return bool(found.stdout.strip())
    names = ("wqy", "NotoSansCJK", "NotoSerifCJK", "SourceHan")
    fonts = Path("/usr/share/fonts")
    return fonts.is_dir() and any(p.name.startswith(names) for p in fonts.rglob("*"))


@pytest.fixture(scope="session")
def chromium() -> str:
    """The browser's path, with a CJK font installed beside it."""
    browser = next(filter(None, map(shutil.which, BROWSERS)), None)
    if browser is None:
        outcome = apt_install("chromium")
        browser = next(filter(None, map(shutil.which, BROWSERS)), None)
        if browser is None:
            skip_or_fail(f"Chromium is needed and missing ({outcome})")
    if not _has_cjk_font():
        outcome = apt_install("fonts-wqy-zenhei", "fontconfig")
        if not _has_cjk_font():
            skip_or_fail(f"a CJK font is needed and missing ({outcome})")
    assert browser is not None
    return browser


# -- PNG ---------------------------------------------------------------------------------------


def read_png(path: Path) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Width, height and RGB pixels of an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium
    writes), decoded with zlib alone."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, [], b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, color_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and color_type in (2, 6) and interlace == 0
    channels = 3 if color_type == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows: list[bytearray] = []
    previous = bytearray(stride)
    offset = 0
    for _ in range(height):
        kind, line = raw[offset], bytearray(raw[offset + 1 : offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        previous = line
    pixels = [(row[i], row[i + 1], row[i + 2]) for row in rows for i in range(0, stride, channels)]
    return width, height, pixels


def rgb(color: str) -> tuple[int, int, int]:
    red, green, blue = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return red, green, blue


def over_board(color: str, opacity: float = 0.8) -> tuple[int, int, int]:
    """``color`` drawn with ``opacity`` on the board's wood, as the arrows are."""
    top, wood = rgb(color), rgb(svg.COLORS["board"])
    red, green, blue = (
        round(a * opacity + b * (1 - opacity)) for a, b in zip(top, wood, strict=True)
    )
    return red, green, blue


def near(pixel: tuple[int, int, int], target: tuple[int, int, int], tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, target, strict=True))


# -- the reports ---------------------------------------------------------------------------------


def make_report(paths: list[Path], out: Path, rules: str = "axf") -> dict[str, report.Card]:
    """The report of ``paths`` (ruled with replay's API), and its cards by source."""
    options = replay.Options(rules)
    summary, outcomes = replay.replay_paths([str(p) for p in paths], options)
    kept = list(outcomes)
    cards = replay.replay_cards(kept, options)
    assert len(cards) == summary.ruled > 0
    report.write(out, report.render("xqadj replay: rulings", [summary.text(0.0)], cards))
    return {card.source: card for card in cards}


@pytest.fixture(scope="module", params=["master-games", "rulebook-cases"])
def built(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Path, dict[str, report.Card]]]:
    if request.param == "master-games":
        if not GAMES.is_dir():
            skip_or_fail(f"the master games are missing: {GAMES}")
        paths = [GAMES]
    else:
        paths = [CASES]
    out = tmp_path_factory.mktemp("report") / f"{request.param}.html"
    yield out, make_report(paths, out)


PROBE = """
<script>
(function () {
  const result = {cards: [], glyphs: {}, overflow: 0};
  document.querySelectorAll("article.card").forEach(function (card) {
    const panels = [];
    card.querySelectorAll("figure.panel").forEach(function (figure) {
      const arrows = [];
      // An arrow is its shaft (a line: one side of its box may be 0) and its head.
      const heads = {};
      figure.querySelectorAll("g.arrow-head").forEach(function (head) {
        const box = head.getBoundingClientRect();
        heads[head.dataset.kind + head.dataset.from + head.dataset.to] =
          box.width > 0 && box.height > 0;
      });
      figure.querySelectorAll("g.arrow").forEach(function (arrow) {
        const box = arrow.getBoundingClientRect();
        const key = arrow.dataset.kind + arrow.dataset.from + arrow.dataset.to;
        arrows.push([arrow.dataset.kind, arrow.dataset.from, arrow.dataset.to,
                     (box.width > 0 || box.height > 0) && heads[key] === true]);
      });
      const marks = [];
      figure.querySelectorAll("circle.mark").forEach(function (mark) {
        const box = mark.getBoundingClientRect();
        marks.push([mark.dataset.kind, mark.dataset.square, box.width > 0 && box.height > 0]);
      });
      const board = figure.querySelector("svg").getBoundingClientRect();
      const title = figure.querySelector("figcaption.title").getBoundingClientRect();
      panels.push({arrows: arrows, marks: marks, pieces: figure.querySelectorAll(".piece").length,
                   board: [board.left, board.top, board.width], titleTop: title.top});
    });
    result.cards.push({source: card.querySelector("h3").textContent, panels: panels});
  });
  result.laidOut = performance.now();
  const text = document.querySelector(".piece-face text");
  const family = getComputedStyle(text).fontFamily;
  function draw(character) {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const context = canvas.getContext("2d");
    context.fillStyle = "#fff";
    context.fillRect(0, 0, 64, 64);
    context.fillStyle = "#000";
    context.font = "48px " + family;
    context.textAlign = "center";
    context.textBaseline = "middle";
    context.fillText(character, 32, 32);
    const data = context.getImageData(0, 0, 64, 64).data;
    let bits = "", ink = 0;
    for (let i = 0; i < data.length; i += 4) {
      const on = data[i] < 128 ? 1 : 0;
      ink += on;
      bits += on;
    }
    return {ink: ink, bits: bits};
  }
  const box = draw("\\u0378"), control = draw("\\u{10FFFD}");
  result.family = family;
  result.controlIsBox = control.bits === box.bits && box.ink > 0;
  for (const character of CHARACTERS) {
    const drawn = draw(character);
    result.glyphs[character] = {ink: drawn.ink, box: drawn.bits === box.bits, bits: drawn.bits};
  }
  result.overflow = document.documentElement.scrollWidth - window.innerWidth;
  document.body.innerHTML = "";
  const pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(result);
  document.body.appendChild(pre);
})();
</script>
"""


def probe(
    browser: str, page: Path, width: int, env: dict[str, str] | None = None
) -> dict[str, object]:
    html = page.read_text(encoding="utf-8")
    copy = page.with_name(page.stem + "-probe.html")
    script = PROBE.replace("CHARACTERS", json.dumps(CHARACTERS))
    copy.write_text(html.replace("</body>", script + "</body>"), encoding="utf-8")
    dom = run_browser(browser, copy, "--dump-dom", f"--window-size={width},900", env=env)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, "the probe did not run"
    text = found.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
    data: dict[str, object] = json.loads(text.replace("&amp;", "&"))
    return data


def expected_panels(card: report.Card) -> list[list[tuple[str, str, str]]]:
    """The arrows each picture must have, from the rules alone: for each cycle move, the move,
    the pieces that attack the king after it, and classify_move's chases; for a ruling without
    a cycle, the last move (the mating move of a checkmate) and the checks against the king
    that lost."""
    board, ruling = card.board, card.ruling
    if not ruling.cycle:
        king = board.king_squares[board.turn]
        last = board.move_stack[-1]
        return [
            sorted(
                [("move", square_name(last.from_square), square_name(last.to_square))]
                + [
                    ("check", square_name(a), square_name(king))
                    for a in board.attackers(king, 1 - board.turn)
                ]
            )
        ]
    work = board.copy()
    for _ in ruling.cycle:
        work.pop()
    panels: list[list[tuple[str, str, str]]] = [[]]
    for move in ruling.cycle:
        mover = work.turn
        chases = classify_move(work, move).victims
        work.push(move)
        king = work.king_squares[work.turn]
        arrows = [("move", square_name(move.from_square), square_name(move.to_square))]
        arrows += [
            ("check", square_name(a), square_name(king)) for a in work.attackers(king, mover)
        ]
        arrows += [("chase", square_name(t.attacker), square_name(t.victim)) for t in chases]
        panels.append(sorted(arrows))
    return panels


def expected_marks(card: report.Card) -> list[list[tuple[str, str]]]:
    """The rings each picture must have, from the rules alone: the king of the side to move
    when it is in check; after each cycle move, classify_move's chased pieces; on every picture,
    the pieces the ruling found chased on every move (``'R@h0'``: where they stood when the
    cycle began), followed as they move."""
    board, ruling = card.board, card.ruling

    def king(position: Board) -> set[tuple[str, str]]:
        if not position.is_check():
            return set()
        return {("check", square_name(position.king_squares[position.turn]))}

    if not ruling.cycle:
        return [sorted(king(board))]
    hunted = [
        FILE_NAMES.index(piece_id[2]) + 9 * int(piece_id[3])
        for verdict in ruling.verdicts
        for piece_id in verdict.chased
    ]
    work = board.copy()
    for _ in ruling.cycle:
        work.pop()
    panels = [sorted(king(work) | {("chase", square_name(sq)) for sq in hunted})]
    for move in ruling.cycle:
        chases = classify_move(work, move).victims
        work.push(move)
        hunted = [move.to_square if sq == move.from_square else sq for sq in hunted]
        rings = king(work) | {("chase", square_name(t.victim)) for t in chases}
        panels.append(sorted(rings | {("chase", square_name(sq)) for sq in hunted}))
    return panels


def test_arrows_glyphs_and_phone_width(
    chromium: str, built: tuple[Path, dict[str, report.Card]]
) -> None:
    page, by_source = built
    data = probe(chromium, page, 390)
    # The fonts: the control character is a box, no piece character is, and all differ.
    assert data["controlIsBox"], "the glyph probe cannot tell a box: it proves nothing"
    glyphs = data["glyphs"]
    assert isinstance(glyphs, dict)
    boxes = [c for c, g in glyphs.items() if g["box"] or g["ink"] == 0]
    assert not boxes, f"drawn as empty boxes in {data['family']}: {''.join(boxes)}"
    assert len({g["bits"] for g in glyphs.values()}) == len(CHARACTERS)
    # A phone-wide window needs no sideways scrolling.
    assert data["overflow"] == 0
    # Every ruled game has its card, each picture its arrows, where the rules say.
    cards = data["cards"]
    assert isinstance(cards, list)
    assert sorted(c["source"] for c in cards) == sorted(by_source)
    for shown in cards:
        card = by_source[shown["source"]]
        expected = expected_panels(card)
        panels = shown["panels"]
        cycle = card.ruling.cycle
        drawn = len(panels) - 1
        pieces = sum(1 for sq in range(90) if card.board.piece_at(sq) is not None)
        if cycle and drawn != len(cycle):
            # Drawn once: the same moves played twice from the same position.
            assert 2 * drawn == len(cycle) and cycle[:drawn] == cycle[drawn:]
        rings = expected_marks(card)
        for index, panel in enumerate(panels):
            arrows = sorted((kind, a, b) for kind, a, b, _ in panel["arrows"])
            assert arrows == expected[index], (shown["source"], index)
            assert all(visible for *_, visible in panel["arrows"])
            assert sorted((kind, sq) for kind, sq, _ in panel["marks"]) == rings[index], (
                shown["source"],
                index,
            )
            assert all(visible for *_, visible in panel["marks"])
            # A cycle since the last capture takes nothing: every picture has all the pieces.
            assert panel["pieces"] == pieces, (shown["source"], index)


def test_boards_are_large_and_rows_stand_on_one_line_at_1280(
    chromium: str, built: tuple[Path, dict[str, report.Card]]
) -> None:
    """At 1280 px a board is wide enough to read a file at a glance (not the 220 px panels of
    old), and titles of one line or two do not shift the boards of a row."""
    page, _ = built
    data = probe(chromium, page, 1280)
    cards = data["cards"]
    assert isinstance(cards, list)
    rows = 0
    for card in cards:
        by_row: dict[float, list[float]] = {}
        for panel in card["panels"]:
            left, top, width = panel["board"]
            assert width >= 360, (card["source"], width)
            by_row.setdefault(round(panel["titleTop"]), []).append(top)
        for tops in by_row.values():
            assert max(tops) - min(tops) < 1, (card["source"], tops)
            rows += len(tops) > 1
    assert rows > 0  # rows of several boards were compared
    print(f"\n{page.name}: {page.stat().st_size / 1e6:.2f} MB, laid out {data['laidOut']:.0f} ms")


@pytest.fixture(scope="module")
def cxa_built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, report.Card]]:
    out = tmp_path_factory.mktemp("report") / "cxa-cases.html"
    return out, make_report([CXA_CASES], out, rules="cxa")


def test_cxa_marks_follow_the_labels(
    chromium: str, cxa_built: tuple[Path, dict[str, report.Card]]
) -> None:
    """Under CXA, each cycle move's picture draws what its label names, as the referee's cycle
    steps give it: the threatening side's moves of a 杀's mating line, the check a 拦 stands in
    the way of (its blocker ringed), the pair of a 兑 (both ringed); the report holds each
    kind somewhere."""
    page, by_source = cxa_built
    data = probe(chromium, page, 1280)
    cards = data["cards"]
    assert isinstance(cards, list)
    seen: set[str] = set()
    for shown in cards:
        card = by_source[shown["source"]]
        if not card.ruling.cycle:
            continue
        start = cycle_start(card.board, card.ruling)
        steps = cycle_steps(card.board, card.ruling)
        shown_steps, _times = svg.shown_steps(start, steps)
        for step, panel in zip(shown_steps, shown["panels"][1:], strict=True):
            arrows = {(kind, a, b) for kind, a, b, _ in panel["arrows"]}
            rings = {(kind, sq) for kind, sq, _ in panel["marks"]}
            extra = {a for a in arrows if a[0] in ("kill", "block", "exchange")}
            expected: set[tuple[str, str, str]] = set()
            if step.label == "杀":
                assert step.line, (shown["source"], step)
                expected |= {
                    ("kill", square_name(m.from_square), square_name(m.to_square))
                    for m in step.line[::2]
                }
            if step.label == "拦":
                blocked = step.line[0]
                expected.add(
                    ("block", square_name(blocked.from_square), square_name(blocked.to_square))
                )
                assert ("block", square_name(step.move.to_square)) in rings
            if step.label == "兑" and step.pair is not None:
                mine, theirs = map(square_name, step.pair)
                expected.add(("exchange", mine, theirs))
                assert {("exchange", mine), ("exchange", theirs)} <= rings
            assert extra == expected, (shown["source"], step.move.iccs(), step.label)
            seen |= {kind for kind, *_ in extra}
    assert seen == {"kill", "block", "exchange"}


# A phone's window is taller, in CSS pixels, than it is wide; the header (summary, legend,
# index) takes more of its height, so the first move's picture needs a longer look.
@pytest.mark.parametrize(("width", "height"), [(1200, 1200), (390, 1800)])
def test_screenshot_shows_boards_and_pieces(
    chromium: str,
    built: tuple[Path, dict[str, report.Card]],
    width: int,
    height: int,
    tmp_path: Path,
) -> None:
    page, _ = built
    shot = tmp_path / f"{page.stem}-{width}.png"
    run_browser(chromium, page, f"--screenshot={shot}", f"--window-size={width},{height}")
    got_width, got_height, pixels = read_png(shot)
    assert (got_width, got_height) == (width, height)
    targets = {name: rgb(svg.COLORS[name]) for name in ("board", "red", "black", "disc")}
    targets["move arrow"] = over_board(svg.COLORS["move"])
    counts = {name: sum(1 for p in pixels if near(p, target)) for name, target in targets.items()}
    # The board's wood covers a good part of the window, and there is ink of both sides, the
    # discs and a move arrow: a drawn report, not a blank or unstyled page.
    assert counts["board"] > len(pixels) // 10, counts
    assert min(counts["red"], counts["black"], counts["disc"]) > 500, counts
    assert counts["move arrow"] > 50, counts
    assert len(set(pixels[::7])) > 500  # many colours: pictures, not a flat page


def test_the_glyph_probe_sees_boxes_without_a_cjk_font(chromium: str, tmp_path: Path) -> None:
    """The same probe in a browser that sees only Latin fonts (DejaVu, Liberation; no CJK):
    the pieces come out as boxes, so the check above can fail."""
    dejavu = [
        d
        for d in Path("/usr/share/fonts").rglob("*")
        if d.is_dir() and d.name.startswith(("dejavu", "liberation"))
    ]
    if not dejavu:
        skip_or_fail("no DejaVu or Liberation fonts (Chromium's dependencies) to test with")
    config = tmp_path / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        + "".join(f"<dir>{d}</dir>" for d in dejavu)
        + f"<cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>",
        encoding="utf-8",
    )
    games = tmp_path / "d22.txt"
    games.write_text(
        "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w | "
        "b3b2 f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2\n",
        encoding="utf-8",
    )
    page = tmp_path / "d22.html"
    make_report([games], page)
    data = probe(chromium, page, 390, env=dict(os.environ, FONTCONFIG_FILE=str(config)))
    glyphs = data["glyphs"]
    assert isinstance(glyphs, dict) and data["controlIsBox"]
    assert all(g["box"] for g in glyphs.values()), "without a CJK font every character is a box"
