"""Generate the self-play corpus of this directory: Fairy-Stockfish against itself.

Usage (from the repository root, with xqadj installed and Debian's ``fairy-stockfish``)::

    python tests/data/selfplay/generate.py [--seed 20261201] [--games 600] [--max-plies 400]
        [--engine /usr/games/fairy-stockfish] [--games-dir ../shared/games] [--out FILE]

Each game starts from a master game's opening, of one of three kinds in turn (game numbers 1,
4, 7, ...; 2, 5, 8, ...; 3, 6, 9, ...): the first 10-20 plies of a game drawn from
``shared/games``; its first 40-80 plies, where the pieces are fewer and engines that cannot make
progress repeat; or the plies up to 2-8 plies before the first position that occurs twice in a
master game that has one (where masters shuffled, often chasing).  From there Fairy-Stockfish
plays both sides (one thread, ``ucinewgame`` before each game) at a fixed depth drawn from 4-8
for the game.  In half the games (numbers 1-3, 7-9, ...) the players know the rules (``UCI_Variant
xiangqi``: they avoid a repetition Fairy-Stockfish rules lost); in the other half they play
``xiangqi-free`` (``free-variant.ini``: every repetition a draw, no move limit), so they repeat
checks and chases that the rules forbid, which gives the referees decisive cycles to rule.

A game stops at the first position that occurs for the third time (where xqadj and
Fairy-Stockfish both rule), when the side to move has no legal move (checkmate or stalemate),
or after ``--max-plies`` engine moves.  The stop is found with the
board core only (:class:`xqadj.board.Board`: legality, hashes, repetition counts), never with
the classifier or the referee, so the corpus does not move when the rules code does.

The output (``games.txt``) is a line file that ``xqadj replay`` reads: a ``#`` comment per game
(its number, the master game and plies it opened with, the players' variant and depth, how it
stopped) followed by
``startpos | <ICCS moves>``.  With the same seed, engine build and master games, the output is
the same: the draws of the random generator are fixed, and a single-threaded fixed-depth
search after ``ucinewgame`` is deterministic.  ``--max-seconds`` stops a run early (the header
says so); the committed corpus was not cut.

``compare.py`` beside this file rules every game with xqadj and with pyffish and writes
``judgements.tsv``; ``tests/test_selfplay.py`` checks the rulings against it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))  # the repository, for `import xqadj`

from xqadj.board import STARTING_FEN, Board  # noqa: E402
from xqadj.integrations.engine import Engine, EngineSpec, SearchLimit  # noqa: E402
from xqadj.integrations.replay import read_games  # noqa: E402

DEFAULT_GAMES_DIR = HERE.parents[3] / "shared" / "games"
DEFAULT_ENGINE = "/usr/games/fairy-stockfish"
OPENING_PLIES = (10, 20)
MIDDLEGAME_PLIES = (40, 80)
DEPTHS = (4, 5, 6, 7, 8)


def load_master_games(games_dir: Path) -> list[tuple[str, list[str]]]:
    """``(label, ICCS moves)`` of every game of every ``*.pgn`` in ``games_dir``, sorted by file
    name, in file order; the label is ``<file>#<number>``."""
    games = []
    for path in sorted(games_dir.glob("*.pgn")):
        for record in read_games(path):
            games.append((f"{path.name}#{record.index}", list(record.moves)))
    if not games:
        raise SystemExit(f"no games in {games_dir}")
    return games


def first_repeat(moves: list[str]) -> int:
    """The ply at which a position first occurs for the second time in a game, or 0."""
    board = Board()
    for ply, text in enumerate(moves, 1):
        board.push_iccs(text)
        if board.repetition_count() >= 2:
            return ply
    return 0


def opening(moves: list[str], plies: int) -> list[str]:
    """The first ``plies`` moves, cut before a position occurs for the third time (the master
    game's own repetitions must not end the self-play game before it starts)."""
    board = Board()
    kept: list[str] = []
    for text in moves[:plies]:
        board.push_iccs(text)
        if board.repetition_count() >= 3 or not board.has_legal_move():
            break
        kept.append(text)
    return kept


def play_game(
    engine: Engine, prefix: list[str], depth: int, max_plies: int
) -> tuple[list[str], str]:
    """Play from the opening ``prefix`` until a third occurrence, no legal move or the cap;
    return the whole game's moves and why it stopped."""
    board = Board()
    for text in prefix:
        board.push_iccs(text)
    engine.new_game()
    limit = SearchLimit(depth=depth, search_timeout=120.0)
    for _ in range(max_plies):
        if not board.has_legal_move():
            return [m.iccs() for m in board.move_stack], "no legal move"
        text = engine.best_move(STARTING_FEN, board.move_stack, limit)
        if text is None:
            raise RuntimeError(f"the engine has no move in {board.fen()}, which has legal moves")
        move = engine.parse_move(text)
        if not board.is_legal(move):
            raise RuntimeError(f"the engine played the illegal move {text} in {board.fen()}")
        board.push(move)
        if board.repetition_count() >= 3:
            return [m.iccs() for m in board.move_stack], "third occurrence"
    if not board.has_legal_move():
        return [m.iccs() for m in board.move_stack], "no legal move"
    return [m.iccs() for m in board.move_stack], f"cap ({max_plies} engine plies)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--max-plies", type=int, default=400, help="engine plies a game")
    parser.add_argument("--max-seconds", type=float, default=0, help="stop early (0: never)")
    parser.add_argument("--engine", default=DEFAULT_ENGINE)
    parser.add_argument("--games-dir", type=Path, default=DEFAULT_GAMES_DIR)
    parser.add_argument("--out", type=Path, default=HERE / "games.txt")
    args = parser.parse_args(argv)

    masters = load_master_games(args.games_dir)
    repeating = [(label, moves, ply) for label, moves in masters if (ply := first_repeat(moves))]
    rng = random.Random(args.seed)
    options = {"Threads": "1", "Hash": "16"}
    ruled = EngineSpec([args.engine], "uci", "fairy", "FS", {**options, "UCI_Variant": "xiangqi"})
    free = EngineSpec(
        [args.engine],
        "uci",
        "fairy",
        "FS-free",
        {**options, "VariantPath": str(HERE / "free-variant.ini"), "UCI_Variant": "xiangqi-free"},
    )
    started = time.monotonic()
    lines: list[str] = []
    played = 0
    with Engine(ruled) as ruled_engine, Engine(free) as free_engine:
        for number in range(1, args.games + 1):
            if args.max_seconds and time.monotonic() - started > args.max_seconds:
                break
            label, master = masters[rng.randrange(len(masters))]
            kind = (number - 1) % 3
            if kind == 2:
                label, master, twice = repeating[rng.randrange(len(repeating))]
                plies = max(1, twice - rng.randint(2, 8))
            else:
                low, high = OPENING_PLIES if kind == 0 else MIDDLEGAME_PLIES
                plies = rng.randint(low, high)
            prefix = opening(master, plies)
            depth = rng.choice(DEPTHS)
            knows_rules = (number - 1) // 3 % 2 == 0
            engine = ruled_engine if knows_rules else free_engine
            moves, end = play_game(engine, prefix, depth, args.max_plies)
            lines.append(
                f"# game {number}: {label} first {len(prefix)} plies, "
                f"{'xiangqi' if knows_rules else 'xiangqi-free'} depth {depth}, "
                f"{len(moves)} plies, {end}"
            )
            lines.append("startpos | " + " ".join(moves))
            played = number
            print(f"game {number}: {len(moves)} plies, {end}", file=sys.stderr, flush=True)
        engine_name = ruled_engine.id_name
    cut = played < args.games
    header = [
        "# Self-play corpus of xqadj (tests/data/selfplay/README.md): Fairy-Stockfish against",
        f"# itself. Written by generate.py --seed {args.seed} --games {args.games} "
        f"--max-plies {args.max_plies}; engine: {engine_name}.",
        f"# {played} games" + (" (stopped early by --max-seconds)" if cut else "") + ".",
    ]
    args.out.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    print(f"{played} games in {time.monotonic() - started:.0f} s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
