"""Benchmark: false losses on time under load, the kernel's stamp against the read time.

Usage::

    python bench/clock_share.py [--games 300] [--share 0.9] [--tc 0.3+0.1] [--concurrency 4]
                                [--burners 2] [--compare]

Two fake engines (``tests/engines/fake_engine.py --share F``) each answer every ``go`` after
F times their own time left, measured from when they read the ``go``: never late by their own
watch.  ``--burners`` processes spin on the CPU meanwhile, and the games run ``--concurrency``
at once, so that the game threads wake up late.  The match runs once, or twice on the same
settings with ``--compare``:

``kernel stamp``
    xqadj as it is on Linux: a search is charged from just before the ``go`` is written to
    the kernel's stamp of the engine's write that held the ``bestmove`` (the engine's stdout
    is a socket, :mod:`xqadj.integrations.engineio`).
``read time``
    the fallback where there is no such socket (``XQADJ_ENGINE_OUTPUT=pipe``): the engine's
    stdout is a pipe, read by the game thread, and the ``bestmove`` is stamped when that
    thread reads it (the way it was before issue 18, without the reader thread it had since).

The fake engine says when it wrote its answer (``info string sent T``, on the machine's
monotonic clock, the one xqadj reads), so that each move's true time (``go`` written to
``bestmove`` written) is known.  Each row prints the moves, the losses on time, the false ones
among them (the true time was within the time the engine had: the late charge was xqadj's),
and what xqadj charged beyond the true time (median, 99th percentile and worst, ms).  Losses
that are not false are the engines' own: a fake engine starved of CPU answers late.  The two
rows run one after the other: on a machine shared with other work their load differs, so
compare them over several runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import shlex
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xqadj.integrations.engine import Engine  # noqa: E402
from xqadj.integrations.engineio import OUTPUT_ENV, socket_available  # noqa: E402
from xqadj.integrations.match import add_arguments, game  # noqa: E402
from xqadj.integrations.match.director import Match  # noqa: E402
from xqadj.integrations.match.options import configure  # noqa: E402

FAKE = Path(__file__).resolve().parents[1] / "tests" / "engines" / "fake_engine.py"


def burn() -> None:
    while True:
        pass


@contextlib.contextmanager
def output(kind: str) -> Iterator[None]:
    """Engines started meanwhile read through ``kind`` (``socket`` or ``pipe``)."""
    before = os.environ.get(OUTPUT_ENV)
    os.environ[OUTPUT_ENV] = kind
    try:
        yield
    finally:
        if before is None:
            del os.environ[OUTPUT_ENV]
        else:
            os.environ[OUTPUT_ENV] = before


class Watch:
    """Each move's true time and charge, and each loss on time with the true time of the
    move that lost, from wrappers around the engine and the game."""

    def __init__(self) -> None:
        self.extra_ms: list[float] = []
        self.losses = 0
        self.false_losses = 0
        self._local = threading.local()

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        send, best_move, forfeit = Engine.send, Engine.best_move, game._time_forfeit
        local = self._local

        def timed_send(engine: Engine, *lines: str) -> None:
            # isready, position and go go in one write; stamped before it, as xqadj does
            if any(line.startswith("go") for line in lines):
                local.go = time.monotonic()
            send(engine, *lines)

        def timed_best_move(engine: Engine, *args: Any, **kwargs: Any) -> str | None:
            local.true_ms = None
            try:
                return best_move(engine, *args, **kwargs)
            finally:
                for line in engine.last_info:
                    if line.startswith("info string sent "):
                        local.true_ms = (float(line.split()[-1]) - local.go) * 1000
                if local.true_ms is not None:
                    self.extra_ms.append(engine.last_search_ms - local.true_ms)

        def counted_forfeit(*args: Any) -> Any:
            overrun = args[-1]
            self.losses += 1
            true_ms = getattr(local, "true_ms", None)
            if overrun is not None and true_ms is not None and true_ms <= overrun[1]:
                self.false_losses += 1
            return forfeit(*args)

        Engine.send = timed_send  # type: ignore[method-assign]
        Engine.best_move = timed_best_move  # type: ignore[method-assign]
        game._time_forfeit = counted_forfeit
        try:
            yield
        finally:
            Engine.send, Engine.best_move = send, best_move  # type: ignore[method-assign]
            game._time_forfeit = forfeit


def run(options: argparse.Namespace, watch: Watch) -> tuple[int, float]:
    """Moves, seconds."""
    command = shlex.join([sys.executable, str(FAKE), "--share", str(options.share)])
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(
        [
            "--engine",
            f"cmd={command}",
            "name=A",
            "--engine",
            f"cmd={command}",
            "name=B",
            "--tc",
            options.tc,
            "--games",
            str(options.games),
            "--max-plies",
            str(options.plies),
            "--concurrency",
            str(options.concurrency),
        ]
    )
    config, _ = configure(args)
    start = time.monotonic()
    with watch.watching():
        result = Match(config, io.StringIO()).run()
    seconds = time.monotonic() - start
    return sum(len(r.moves) for r in result.records), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--share", type=float, default=0.9)
    parser.add_argument("--tc", default="0.3+0.1")
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--burners", type=int, default=2)
    parser.add_argument(
        "--compare", action="store_true", help="also run on pipes, stamped at the read"
    )
    options = parser.parse_args()
    if not socket_available():
        parser.error("no stamped socket here (not Linux?): only the read time can be measured")
    burners = [multiprocessing.Process(target=burn, daemon=True) for _ in range(options.burners)]
    for process in burners:
        process.start()
    try:
        print(
            f"{options.games} games of {options.plies} plies, each engine answering at "
            f"{options.share:.0%} of its time left, tc {options.tc}, concurrency "
            f"{options.concurrency}, {options.burners} CPU burners"
        )
        print(
            f"{'clock stopped by':<16} {'moves':>6} {'losses':>7} {'false':>6} "
            f"{'charged beyond the true time, ms: median':>41} {'p99':>6} {'worst':>6} {'s':>6}"
        )
        rows = [("kernel stamp", output("socket"))]
        if options.compare:
            rows.append(("read time", output("pipe")))
        for label, clock in rows:
            watch = Watch()
            with clock:
                moves, seconds = run(options, watch)
            extra = sorted(watch.extra_ms) or [0.0]
            p99 = extra[min(len(extra) - 1, int(len(extra) * 0.99))]
            print(
                f"{label:<16} {moves:>6} {watch.losses:>7} {watch.false_losses:>6} "
                f"{statistics.median(extra):>41.1f} {p99:>6.1f} {extra[-1]:>6.1f} {seconds:>6.1f}"
            )
    finally:
        for process in burners:
            process.kill()


if __name__ == "__main__":
    main()
