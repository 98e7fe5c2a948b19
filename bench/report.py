"""Benchmark: the HTML report of the master games, its size and how fast Chromium lays it out.

Usage::

    python bench/report.py [--games-dir DIR] [--repeat K] [--browser PATH] [--keep DIR]

The games of ``shared/games`` are ruled (AXF, as ``xqadj replay --html`` does) and the report is
made twice from the same cards, side by side:

``shared``
    the report as ``xqadj replay --html`` writes it: the board's background (wood, lines,
    river, coordinates) and each piece's face drawn once in the page, every picture referring
    to them (``<use>``);
``full``
    every board drawn in full, as the report did before (``Drawing(shared=False)``).

Printed for each: the page's size, the time to render it in Python, and the time headless
Chromium takes to parse, style and lay it out (``performance.now()`` at the end of the body,
after a forced layout; best of ``--repeat`` loads) and its whole run (start, load, exit).  No
target is asserted; the issue asks for "a few MB" (the full page was 15 MB).
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repo, for `import xqadj`
sys.path.insert(0, str(ROOT / "tests"))  # Chromium's flags, as the tests run it

from cdp import run_browser  # noqa: E402

from xqadj.integrations import replay, report  # noqa: E402

DEFAULT_GAMES = ROOT.parent / "shared" / "games"
#: The page's width as the report is laid out for (three boards a row at 1280 px).
WINDOW = "--window-size=1280,1000"
#: Added at the end of the body: lay the page out, note the time, and replace the page by the
#: figure, so that --dump-dom prints a line rather than the whole page.
PROBE = """<script>
document.body.getBoundingClientRect();
void document.body.offsetHeight;
const laidOut = performance.now();
document.documentElement.innerHTML = '<body><pre id="t">' + laidOut + '</pre></body>';
</script>"""


def load_time(browser: str, page: Path) -> tuple[float, float]:
    """(layout ms, whole run s) for one load of ``page`` in a fresh headless Chromium."""
    probe = page.with_name(page.stem + "-probe.html")
    probe.write_text(
        page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8"
    )
    started = time.perf_counter()
    out = run_browser(browser, probe, WINDOW, "--dump-dom", timeout=300)
    whole = time.perf_counter() - started
    found = re.search(r'<pre id="t">([\d.]+)</pre>', out)
    if not found:
        raise SystemExit(f"bench/report.py: the probe did not run in {page.name}")
    return float(found.group(1)), whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games-dir", type=Path, default=DEFAULT_GAMES)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--browser", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--keep", type=Path, help="write the two pages to DIR and keep them")
    args = parser.parse_args()
    summary, outcomes = replay.replay_paths([str(args.games_dir)])
    cards = replay.replay_cards(list(outcomes))
    print(f"{len(cards)} ruled games from {args.games_dir}")
    folder = args.keep or Path(tempfile.mkdtemp(prefix="xqadj-report-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{'page':8} {'size':>9} {'render':>9} {'layout (best)':>14} {'chromium run':>13}")
    for name, drawing in (("shared", report.Drawing()), ("full", report.Drawing(shared=False))):
        started = time.perf_counter()
        page = report.render("xqadj replay: rulings", [summary.text(0.0)], cards, drawing=drawing)
        rendered = time.perf_counter() - started
        path = folder / f"{name}.html"
        report.write(path, page)
        runs = [load_time(args.browser, path) for _ in range(args.repeat)]
        layout = min(ms for ms, _ in runs)
        whole = min(s for _, s in runs)
        size = path.stat().st_size / 1e6
        print(f"{name:8} {size:7.2f}MB {rendered:8.2f}s {layout:11.0f} ms {whole:11.2f} s")
    if args.keep is None:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
