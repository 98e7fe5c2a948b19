"""Benchmark: follow real games ply by ply, checking legality and counting repetitions.

Usage::

    python bench/follow.py [--games-dir DIR] [--peer-games N]

Every engine does the same work per ply: check that the recorded move is legal, make it, and
count how often the new position has occurred since the last capture.  What each row measures:

``xqadj``
    ``Board.push_iccs(move)`` (parse, legality check, make the move, incremental Zobrist hash
    and repetition history) then ``Board.repetition_count()``.  One row over all games (one
    pass), one over the peer sample (mean of repeated passes totalling at least 0.5 s); the
    ratio column compares with the latter, on the same games.
``pyffish``
    Fairy-Stockfish is stateless: each call sets a position up from a FEN plus a move list.
    Per ply: ``move in pyffish.legal_moves('xiangqi', fen, [])``, then
    ``fen = pyffish.get_fen('xiangqi', fen, [move])``; the repetition count is a dict keyed by
    the placement and side-to-move fields, cleared when the piece count drops (a capture).
    Moves are converted to pyffish's ranks 1-10 before timing starts.
``pyffish movelist``
    Legality only, the other natural way: ``move in pyffish.legal_moves('xiangqi', start,
    moves_so_far)`` with the growing move list (no repetition count, so a lower bound on the
    cost of the same work; each call replays the game so far).
``cchess``
    ``cchess.ChessBoard``: ``board.is_checked_move(from, to)`` (raises on a move its piece
    cannot make; True if it leaves the mover's king attacked), then ``board.move_iccs(move)``
    (which builds a ``cchess.Move`` with check/checkmate flags), ``board.next_turn()``, and a
    dict of ``board.zhash()`` cleared when the move captured (``Move.captured``).

The peers are much slower, so they follow a sample of ``--peer-games`` games spread evenly over
the corpus.  A last column counts the plies at which a position occurred for the third time (or
more): it must agree between engines that count repetitions, as a check that they did the work.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo, for `import xqadj`

import cchess  # noqa: E402
import pyffish  # noqa: E402
from games import DEFAULT_GAMES_DIR, load_games  # noqa: E402

from xqadj import Board, Move  # noqa: E402

TARGET_PLIES_PER_SECOND = 50_000
VARIANT = "xiangqi"

Games = Sequence[Sequence[str]]
#: A runner follows the games and returns the number of plies at which a position occurred for
#: the third time or more (``None`` if it does not count repetitions).
Runner = Callable[[Games], int | None]


def follow_xqadj(games: Games) -> int:
    threefold = 0
    for game in games:
        board = Board()
        for move in game:
            board.push_iccs(move)
            if board.repetition_count() >= 3:
                threefold += 1
    return threefold


def _pieces(fen: str) -> int:
    placement = fen.split(" ", 1)[0]
    return sum(ch.isalpha() for ch in placement)


def follow_pyffish(games: Games) -> int:
    """``games`` in pyffish notation (ranks 1-10)."""
    start = pyffish.start_fen(VARIANT)
    threefold = 0
    for game in games:
        fen = start
        pieces = _pieces(fen)
        counts = {fen.rsplit(" ", 4)[0]: 1}
        for move in game:
            if move not in pyffish.legal_moves(VARIANT, fen, []):
                raise ValueError(f"pyffish: illegal {move} in {fen}")
            fen = pyffish.get_fen(VARIANT, fen, [move])
            now = _pieces(fen)
            if now != pieces:
                pieces = now
                counts.clear()
            key = fen.rsplit(" ", 4)[0]  # placement and side to move
            n = counts[key] = counts.get(key, 0) + 1
            if n >= 3:
                threefold += 1
    return threefold


def follow_pyffish_movelist(games: Games) -> None:
    """``games`` in pyffish notation; legality only."""
    start = pyffish.start_fen(VARIANT)
    for game in games:
        played: list[str] = []
        for move in game:
            if move not in pyffish.legal_moves(VARIANT, start, played):
                raise ValueError(f"pyffish: illegal {move} after {played}")
            played.append(move)


def follow_cchess(games: Games) -> int:
    threefold = 0
    for game in games:
        board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
        counts = {board.zhash(): 1}
        for move in game:
            pos_from, pos_to = cchess.iccs2pos(move)
            if board.is_checked_move(pos_from, pos_to):  # raises CChessException if invalid
                raise ValueError(f"cchess: {move} leaves the king in check")
            made = board.move_iccs(move)
            if made is None:
                raise ValueError(f"cchess: illegal {move}")
            board.next_turn()
            if made.captured:
                counts.clear()
            key = board.zhash()
            n = counts[key] = counts.get(key, 0) + 1
            if n >= 3:
                threefold += 1
    return threefold


def sample(games: Games, n: int) -> list[Sequence[str]]:
    """``n`` games spread evenly over ``games`` (all of them if ``n`` is larger)."""
    if n >= len(games):
        return list(games)
    step = len(games) / n
    return [games[int(i * step)] for i in range(n)]


def timed(runner: Runner, games: Games) -> tuple[float, int | None]:
    start = time.perf_counter()
    threefold = runner(games)
    return time.perf_counter() - start, threefold


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games-dir",
        type=Path,
        default=DEFAULT_GAMES_DIR,
        help=f"directory of *.pgn files with ICCS moves (default: {DEFAULT_GAMES_DIR})",
    )
    parser.add_argument(
        "--peer-games",
        type=int,
        default=60,
        help="games followed by pyffish and cchess, spread over the corpus (default: 60, "
        "about 30 s for the peers together)",
    )
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    games = load_games(args.games_dir)
    load_seconds = time.perf_counter() - t0
    total_plies = sum(len(g) for g in games)
    print(
        f"loaded {len(games):,} games, {total_plies:,} plies from {args.games_dir} "
        f"in {load_seconds:.2f} s"
    )

    peer = sample(games, args.peer_games)
    peer_plies = sum(len(g) for g in peer)
    # Notation conversion for pyffish is done before timing: it is not the peer's work.
    peer_fairy = [[Move.from_iccs(m).fairy() for m in g] for g in peer]

    rows: list[tuple[str, int, int, float, int | None]] = []
    seconds, threefold = timed(follow_xqadj, games)
    rows.append(("xqadj", len(games), total_plies, seconds, threefold))
    # The sample takes xqadj a few hundredths of a second: average repeated passes.
    passes, seconds = 0, 0.0
    while seconds < 0.5:
        elapsed, threefold = timed(follow_xqadj, peer)
        passes, seconds = passes + 1, seconds + elapsed
    rows.append(("xqadj (peer sample)", len(peer), peer_plies, seconds / passes, threefold))
    reference = peer_plies / (seconds / passes)
    for name, runner, moves in (
        ("pyffish", follow_pyffish, peer_fairy),
        ("pyffish movelist", follow_pyffish_movelist, peer_fairy),
        ("cchess", follow_cchess, peer),
    ):
        seconds, threefold = timed(runner, moves)
        rows.append((name, len(peer), peer_plies, seconds, threefold))

    header = f"{'engine':<22}{'games':>7}{'plies':>10}{'seconds':>10}{'plies/s':>12}"
    header += f"{'ratio':>10}{'3-fold':>8}"
    print()
    print(header)
    print("-" * len(header))
    for name, n_games, plies, seconds, threefold in rows:
        rate = plies / seconds
        three = "-" if threefold is None else str(threefold)
        print(
            f"{name:<22}{n_games:>7,}{plies:>10,}{seconds:>10.2f}{rate:>12,.0f}"
            f"{rate / reference:>10.4f}{three:>8}"
        )
    print()
    print("ratio  = plies/s divided by xqadj's plies/s on the same peer sample")
    print(
        "3-fold = plies at which the position occurred a third time or more since the last capture"
    )
    xqadj_rate = rows[0][2] / rows[0][3]
    verdict = "met" if xqadj_rate >= TARGET_PLIES_PER_SECOND else "NOT met"
    print(
        f"target: xqadj >= {TARGET_PLIES_PER_SECOND:,} plies/s over all games: "
        f"{xqadj_rate:,.0f} plies/s, {verdict}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
