"""Benchmark: follow real games with adjudication on, beside the core alone and pyffish.

Usage::

    python bench/adjudicate.py [--games-dir DIR] [--peer-games N] [--repeat K]

What each row measures, per ply:

``core``
    ``Board.push_iccs(move)`` + ``Board.repetition_count()``: parse, legality check, make the
    move, update hash and history (the work of ``bench/follow.py``).
``adjudication``
    ``Game.push_iccs(move)``: the same, plus the checkmate/stalemate probe, the repetition
    check, and (only when a position occurs a third time) classifying the cycle and ruling.
``pyffish``
    ``pyffish.is_optional_game_end('xiangqi', start, moves_so_far)`` after every ply: how
    Fairy-Stockfish is asked whether a game has ended by a repetition rule (it replays the game
    from the start on every call, which is how its API works).

Every game is cut at its first ruling (where ``Game`` stops accepting moves), so all rows follow
the same plies.  The core and adjudication rows take the best of ``--repeat`` passes over all
2,516 games, taking turns; pyffish follows ``--peer-games`` games spread over the corpus, and
xqadj is timed on that sample too for the ratio.  Targets (issue 3): adjudication costs at
most 1.5x the core, and runs at least 100x pyffish's throughput.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo, for `import xqadj`

import pyffish  # noqa: E402
from games import DEFAULT_GAMES_DIR, load_games  # noqa: E402

from xqadj import Board, Game, Move  # noqa: E402

Games = Sequence[Sequence[str]]


def cut_at_rulings(games: Games) -> tuple[list[list[str]], int]:
    """The games cut after their first ruling, and how many were ruled."""
    cut, ruled = [], 0
    for moves in games:
        game = Game()
        kept: list[str] = []
        for text in moves:
            kept.append(text)
            if game.push_iccs(text) is not None:
                ruled += 1
                break
        cut.append(kept)
    return cut, ruled


def run_core(games: Games) -> None:
    for moves in games:
        board = Board()
        for text in moves:
            board.push_iccs(text)
            board.repetition_count()


def run_adjudication(games: Games) -> None:
    for moves in games:
        game = Game()
        for text in moves:
            game.push_iccs(text)


def run_pyffish(games: Games) -> None:
    start = pyffish.start_fen("xiangqi")
    for moves in games:
        played: list[str] = []
        for text in moves:
            played.append(Move.from_iccs(text).fairy())
            pyffish.is_optional_game_end("xiangqi", start, played)


Runner = Callable[[Games], None]


def best_times(runners: Sequence[Runner], games: Games, repeat: int) -> list[float]:
    """The best time of each runner over ``repeat`` rounds.  The runners take turns within each
    round, so a slow spell of the machine (another job, frequency scaling) hits them alike
    instead of skewing the ratio between them."""
    best = [float("inf")] * len(runners)
    for _ in range(repeat):
        for index, runner in enumerate(runners):
            started = time.perf_counter()
            runner(games)
            best[index] = min(best[index], time.perf_counter() - started)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games-dir", type=Path, default=DEFAULT_GAMES_DIR)
    parser.add_argument("--peer-games", type=int, default=40, help="games for pyffish")
    parser.add_argument("--repeat", type=int, default=3, help="passes; the best is kept")
    args = parser.parse_args(argv)

    games, ruled = cut_at_rulings(load_games(args.games_dir))
    plies = sum(map(len, games))
    step = max(1, len(games) // max(1, args.peer_games))
    sample = games[::step][: args.peer_games]
    sample_plies = sum(map(len, sample))
    print(f"{len(games):,} games, {plies:,} plies ({ruled} cut at their ruling)")

    core, adjudication = best_times([run_core, run_adjudication], games, args.repeat)
    (sample_adjudication,) = best_times([run_adjudication], sample, max(args.repeat, 5))
    (peer,) = best_times([run_pyffish], sample, 1)

    rows = [
        ("core (Board.push_iccs)", len(games), plies, core),
        ("adjudication (Game.push_iccs)", len(games), plies, adjudication),
        ("adjudication, peer sample", len(sample), sample_plies, sample_adjudication),
        ("pyffish is_optional_game_end", len(sample), sample_plies, peer),
    ]
    print(f"\n{'row':32} {'games':>6} {'plies':>9} {'seconds':>8} {'plies/s':>10}")
    for label, n_games, n_plies, seconds in rows:
        print(f"{label:32} {n_games:>6,} {n_plies:>9,} {seconds:>8.3f} {n_plies / seconds:>10,.0f}")
    cost = adjudication / core
    speedup = (sample_plies / sample_adjudication) / (sample_plies / peer)
    print(f"\nadjudication cost / core cost: {cost:.2f}x (target <= 1.5x): "
          f"{'met' if cost <= 1.5 else 'NOT met'}")  # fmt: skip
    print(f"adjudication throughput / pyffish: {speedup:,.0f}x (target >= 100x): "
          f"{'met' if speedup >= 100 else 'NOT met'}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
