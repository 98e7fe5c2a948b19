"""Benchmark: a web GUI following games through ``web/xqadj.mjs``, beside the Python figures.

Usage::

    npm --prefix web ci && npm --prefix web run build     # web/dist, once
    python bench/web.py [--games-dir DIR] [--games N] [--chromium PATH]

Every row follows the same real games (the first ``--games`` of ``/work/shared/games``), one
move at a time, as a GUI reports moves to the arbiter, until each game's first ruling; a row
counts plies per second over the whole run.

``python Game.push``
    ``Game.push_iccs(move)`` in CPython: the referee alone.
``python protocol``
    ``Arbiter.send("move <m>")`` (``xqadj.integrations.web``, the protocol's ``Session``) in
    CPython: what the module calls for every move, without the WebAssembly.
``node module``
    ``arbiter.move(m)`` through ``web/dist/xqadj.mjs`` in Node (Pyodide).
``chromium module``
    The same in headless Chromium, on the page served from ``web/dist`` (loaded with the page's
    own ``import('./xqadj.mjs')``).

It also prints the times to load: the module in Node (``loadArbiter``), and in Chromium the
page opened from a shared link of AXF diagram 22 until its ruling is on the page (the
``data-first-ruling-ms`` the page records, from the start of navigation).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repo, for `import xqadj`
sys.path.insert(0, str(ROOT / "tests"))  # the DevTools driver

from cdp import Browser, serve_folder  # noqa: E402
from games import DEFAULT_GAMES_DIR, load_games  # noqa: E402

from xqadj.integrations.web import Arbiter  # noqa: E402
from xqadj.referee import Game  # noqa: E402

DIST = ROOT / "web" / "dist"
D22 = (
    "fen="
    + quote("1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w")
    + "&moves="
    + quote("b3b2 f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2")
    + "&rules=axf"
)

#: Follows the games with the module; the same text runs in Node and in the page.
FOLLOW_JS = """
async function follow(xqadj, games) {
  const started = performance.now();
  const arbiter = await xqadj.loadArbiter({ rules: "axf" });
  const loaded = performance.now();
  let plies = 0;
  for (const game of games) {
    arbiter.newGame();
    for (const move of game) {
      plies += 1;
      if (arbiter.move(move)) break;
    }
  }
  return { plies, load: loaded - started, seconds: (performance.now() - loaded) / 1000 };
}
"""


def python_rows(games: list[list[str]]) -> list[tuple[str, int, float]]:
    rows = []
    started = time.perf_counter()
    plies = 0
    for moves in games:
        game = Game()
        for move in moves:
            plies += 1
            if game.push_iccs(move) is not None:
                break
    rows.append(("python Game.push", plies, time.perf_counter() - started))
    started = time.perf_counter()
    plies = 0
    arbiter = Arbiter()
    for moves in games:
        arbiter.new_game()
        for move in moves:
            plies += 1
            if arbiter.send(f"move {move}").startswith("ruling"):
                break
    rows.append(("python protocol", plies, time.perf_counter() - started))
    return rows


def node_row(games: list[list[str]]) -> tuple[tuple[str, int, float], float]:
    script = (
        FOLLOW_JS
        + f"const xqadj = await import({json.dumps((DIST / 'xqadj.mjs').as_uri())});\n"
        + "const games = JSON.parse(require_games());\n"
        + "process.stdout.write(JSON.stringify(await follow(xqadj, games)));\n"
    )
    script = script.replace(
        "require_games()",
        "(await import('node:fs')).readFileSync(0, 'utf8')",
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(games),
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout)
    return ("node module", result["plies"], result["seconds"]), result["load"]


def chromium_row(games: list[list[str]], executable: str) -> tuple[tuple[str, int, float], float]:
    with serve_folder(DIST) as (base, _):
        browser = Browser(executable, timeout=300)
        try:
            browser.navigate(f"{base}index.html?{D22}")
            browser.wait_for("document.body && document.body.dataset.ready === 'true'")
            first = float(browser.evaluate("document.body.dataset.firstRulingMs"))
            module = json.dumps(base + "xqadj.mjs")
            expression = (
                f"{FOLLOW_JS.strip()}\nimport({module}).then((m) => follow(m, {json.dumps(games)}))"
            )
            result = browser.evaluate(expression)
        finally:
            browser.close()
    return ("chromium module", result["plies"], result["seconds"]), first


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games-dir", default=str(DEFAULT_GAMES_DIR))
    parser.add_argument("--games", type=int, default=300, help="games to follow (default 300)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = parser.parse_args()
    if not (DIST / "xqadj.mjs").is_file():
        print("bench/web.py: build web/dist first (npm --prefix web run build)", file=sys.stderr)
        return 2
    games = load_games(args.games_dir)[: args.games]
    rows = python_rows(games)
    node, node_load = node_row(games)
    chromium, first_ruling = chromium_row(games, args.chromium)
    rows += [node, chromium]
    print(f"{len(games)} games, each followed to its first ruling, one move at a time")
    header = f"{'row':<18} {'plies':>8} {'seconds':>8} {'plies/s':>10} {'us/ply':>8}"
    print(header)
    print("-" * len(header))
    for name, plies, seconds in rows:
        print(
            f"{name:<18} {plies:>8} {seconds:>8.3f} {plies / seconds:>10.0f} "
            f"{1e6 * seconds / plies:>8.1f}"
        )
    print(f"node: loadArbiter {node_load / 1000:.2f} s")
    print(f"chromium: page from a link to its first ruling {first_ruling / 1000:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
