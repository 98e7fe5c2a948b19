"""``xqadj match``: play games between two engines, refereed by xqadj.

Each game starts from the start position or an opening (one ``fen <FEN> [moves …]`` or
``startpos [moves …]`` a line), colours alternate, and xqadj follows every ply: the game ends at
its ruling (perpetual check, perpetual chase, repetition draw), at checkmate or stalemate, or at
the move limit.  An engine that crashes, hangs or plays an illegal move loses that game by
forfeit and is restarted; the match goes on.  Results go to a PGN file with ``[Result]``,
``[Termination]`` and the ruling's explanation as a comment.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from xqadj.board import BLACK, RED, STARTING_FEN, Board, Move, XqadjError
from xqadj.cli import add_rules_arguments
from xqadj.engine import Engine, EngineError, EngineSpec, SearchLimit
from xqadj.referee import Game, Ruling


@dataclass(frozen=True)
class Opening:
    fen: str = STARTING_FEN
    moves: tuple[str, ...] = ()

    @classmethod
    def parse(cls, line: str) -> Opening:
        """``startpos [moves …]`` or ``fen <FEN> [moves …]`` (ICCS moves), checked for legality."""
        tokens = line.split()
        head, moves = tokens, []
        if "moves" in tokens:
            split = tokens.index("moves")
            head, moves = tokens[:split], tokens[split + 1 :]
        if head == ["startpos"]:
            fen = STARTING_FEN
        elif head[:1] == ["fen"] and len(head) > 1:
            fen = Board(" ".join(head[1:])).fen()
        else:
            raise ValueError(f"expected 'startpos' or 'fen <FEN>', got {line.strip()!r}")
        board = Board(fen)
        for text in moves:
            board.push_iccs(text)
        return cls(fen, tuple(moves))


def read_openings(path: Path) -> list[Opening]:
    openings = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            openings.append(Opening.parse(line))
        except (ValueError, XqadjError) as error:
            raise ValueError(f"{path}:{number}: {error}") from None
    if not openings:
        raise ValueError(f"{path}: no openings")
    return openings


@dataclass
class GameRecord:
    """One finished game of the match."""

    number: int
    red: str
    black: str
    opening: Opening
    moves: list[Move] = field(default_factory=list)
    result: str = "*"
    termination: str = ""
    comment: str = ""
    ruling: Ruling | None = None

    def score_for(self, name: str) -> float:
        if self.result == "1/2-1/2":
            return 0.5
        if self.result == "1-0":
            return 1.0 if name == self.red else 0.0
        if self.result == "0-1":
            return 1.0 if name == self.black else 0.0
        return 0.0

    def pgn(self, event: str) -> str:
        today = datetime.date.today().strftime("%Y.%m.%d")
        headers = [
            ("Event", event),
            ("Site", "xqadj match"),
            ("Date", today),
            ("Round", str(self.number)),
            ("Red", self.red),
            ("Black", self.black),
            ("Result", self.result),
            ("Termination", self.termination),
            ("Format", "ICCS"),
        ]
        if self.opening.fen != STARTING_FEN:
            headers.append(("FEN", self.opening.fen))
        lines = [f'[{key} "{value}"]' for key, value in headers]
        turn = Board(self.opening.fen).turn
        number = 1
        tokens = []
        for index, move in enumerate(self.moves):
            if turn == RED:
                tokens.append(f"{number}.")
            elif index == 0:
                tokens.append(f"{number}...")
            tokens.append(move.iccs())
            if turn == BLACK:
                number += 1
            turn ^= 1
        if self.comment:
            tokens.append("{" + self.comment.replace("}", ")") + "}")
        tokens.append(self.result)
        text, line = [], ""
        for token in tokens:
            if len(line) + len(token) + 1 > 79:
                text.append(line)
                line = token
            else:
                line = f"{line} {token}" if line else token
        text.append(line)
        return "\n".join(lines) + "\n\n" + "\n".join(text) + "\n"


class EngineSlot:
    """One engine kept alive across games, restarted after a failure."""

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        self.engine: Engine | None = None

    def get(self) -> Engine:
        if self.engine is None or not self.engine.alive:
            self.engine = Engine(self.spec)
        return self.engine

    def reset(self) -> None:
        if self.engine is not None:
            self.engine.kill()
        self.engine = None

    def close(self) -> None:
        if self.engine is not None:
            self.engine.quit()
        self.engine = None


def play_game(
    number: int,
    opening: Opening,
    red: EngineSlot,
    black: EngineSlot,
    limit: SearchLimit,
    move_limit: int,
    max_plies: int,
    rules: str = "axf",
    forbidden_run: bool = False,
) -> GameRecord:
    """Play one game; never raises for an engine failure (the engine forfeits)."""
    record = GameRecord(number, red.spec.name, black.spec.name, opening)
    game = Game(opening.fen, rules=rules, move_limit=move_limit, forbidden_run=forbidden_run)
    for text in opening.moves:
        game.push_iccs(text)
    slots = {RED: red, BLACK: black}
    for slot in (red, black):
        try:
            slot.get().new_game()
        except EngineError as error:
            slot.reset()
            return _forfeit(record, game, 0 if slot is red else 1, error.kind, str(error))
    while game.ruling is None:
        if game.ply - len(opening.moves) >= max_plies:
            record.moves = list(game.moves)
            record.result, record.termination = "1/2-1/2", "max-plies"
            record.comment = f"Stopped after {max_plies} plies without a ruling."
            return record
        side = game.board.turn
        slot = slots[side]
        try:
            engine = slot.get()
            banned = game.banned_moves() if engine.spec.protocol == "ucci" else None
            reply = engine.best_move(opening.fen, list(game.moves), limit, banned)
        except EngineError as error:
            slot.reset()
            return _forfeit(record, game, side, error.kind, str(error))
        if reply is None:
            return _forfeit(
                record,
                game,
                side,
                "no-move",
                f"{slot.spec.name} returned no move with legal moves on the board",
            )
        try:
            move = engine.parse_move(reply)
            game.push(move)
        except XqadjError:
            return _forfeit(
                record,
                game,
                side,
                "illegal-move",
                f"{slot.spec.name} played {reply}, illegal in {game.board.fen()}",
            )
    ruling = game.ruling
    record.moves = list(game.moves)
    record.result, record.termination = ruling.result, ruling.reason.value
    record.ruling = ruling
    record.comment = ruling.explain()
    return record


def _forfeit(record: GameRecord, game: Game, loser: int, kind: str, detail: str) -> GameRecord:
    record.moves = list(game.moves)
    record.result = "0-1" if loser == RED else "1-0"
    record.termination = f"forfeit ({kind})"
    record.comment = f"Forfeit: {detail}"
    return record


@dataclass
class MatchConfig:
    engines: tuple[EngineSpec, EngineSpec]
    games: int = 2
    concurrency: int = 1
    openings: list[Opening] = field(default_factory=lambda: [Opening()])
    limit: SearchLimit = field(default_factory=SearchLimit)
    move_limit: int = 60
    max_plies: int = 600
    pgn: Path | None = None
    event: str = "xqadj match"
    rules: str = "axf"
    forbidden_run: bool = False


def run_match(config: MatchConfig, out: TextIO = sys.stdout) -> list[GameRecord]:
    """Play the match and return the games in order; progress lines go to ``out``."""
    first, second = config.engines
    if first.name == second.name:
        second.name += " (2)"
    lock = threading.Lock()
    scores = {first.name: 0.0, second.name: 0.0}
    records: list[GameRecord | None] = [None] * config.games
    pgn = config.pgn.open("w", encoding="utf-8") if config.pgn else None
    local = threading.local()
    slots_made: list[EngineSlot] = []

    def slots() -> tuple[EngineSlot, EngineSlot]:
        if not hasattr(local, "slots"):
            pair = (EngineSlot(first), EngineSlot(second))
            with lock:
                slots_made.extend(pair)
            local.slots = pair
        return local.slots  # type: ignore[no-any-return]

    done = 0

    def play(index: int) -> None:
        nonlocal done
        a, b = slots()
        # Colours alternate; each opening is played twice in a row, once with each colour.
        red, black = (a, b) if index % 2 == 0 else (b, a)
        opening = config.openings[(index // 2) % len(config.openings)]
        record = play_game(
            index + 1,
            opening,
            red,
            black,
            config.limit,
            config.move_limit,
            config.max_plies,
            config.rules,
            config.forbidden_run,
        )
        with lock:
            records[index] = record
            scores[first.name] += record.score_for(first.name)
            scores[second.name] += record.score_for(second.name)
            done += 1
            print(
                f"game {record.number}/{config.games}: {record.red} vs {record.black}: "
                f"{record.result} {record.termination} ({len(record.moves)} plies) | "
                f"score {first.name} {scores[first.name]:g} - {scores[second.name]:g} "
                f"{second.name} ({done}/{config.games} played)",
                file=out,
                flush=True,
            )
            if pgn is not None:
                pgn.write(record.pgn(config.event) + "\n")
                pgn.flush()

    try:
        with ThreadPoolExecutor(max_workers=max(1, config.concurrency)) as pool:
            for future in [pool.submit(play, i) for i in range(config.games)]:
                future.result()
    finally:
        for slot in slots_made:
            slot.close()
        if pgn is not None:
            pgn.close()
    return [r for r in records if r is not None]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        action="append",
        nargs="+",
        required=True,
        metavar="KEY=VALUE",
        help="an engine, given twice: cmd=<command line> [proto=uci|ucci] "
        "[notation=iccs|fairy] [name=<name>] [option.<Name>=<value> ...]",
    )
    parser.add_argument("--games", type=int, default=2, help="games to play (default 2)")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    parser.add_argument(
        "--openings",
        type=Path,
        help="file of openings, one a line: "
        "'startpos [moves ...]' or 'fen <FEN> [moves ...]' (ICCS)",
    )
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--movetime", type=int, help="milliseconds per move (default 100)")
    limit.add_argument("--depth", type=int, help="search depth per move")
    limit.add_argument("--nodes", type=int, help="nodes per move")
    parser.add_argument(
        "--timeout",
        type=float,
        help="seconds after which a silent engine forfeits: beyond --movetime (default 5), or "
        "per move with --depth/--nodes (default 60)",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--move-limit",
        type=int,
        default=60,
        help="natural move limit in moves without a capture, 0 = off (default 60)",
    )
    parser.add_argument(
        "--max-plies",
        type=int,
        default=600,
        help="stop a game as a draw after this many plies (default 600)",
    )
    parser.add_argument("--pgn", type=Path, help="write the games to this PGN file")
    parser.add_argument("--event", default="xqadj match", help="the PGN Event tag")
    parser.add_argument(
        "--html", type=Path, help="write an HTML report: each ruled game drawn (xqadj.report)"
    )


def main(args: argparse.Namespace) -> int:
    if len(args.engine) != 2:
        print("xqadj match: give --engine exactly twice", file=sys.stderr)
        return 2
    try:
        engines = (EngineSpec.parse(args.engine[0]), EngineSpec.parse(args.engine[1]))
        openings = read_openings(args.openings) if args.openings else [Opening()]
    except (ValueError, OSError) as error:
        print(f"xqadj match: {error}", file=sys.stderr)
        return 2
    if args.games < 1 or args.concurrency < 1 or args.move_limit < 0:
        print(
            "xqadj match: --games and --concurrency must be at least 1, --move-limit at least 0",
            file=sys.stderr,
        )
        return 2
    limit = SearchLimit(args.movetime, args.depth, args.nodes)
    if args.timeout is not None:
        limit.grace = limit.search_timeout = args.timeout
    if limit.movetime is None and limit.depth is None and limit.nodes is None:
        limit.movetime = 100
    config = MatchConfig(
        engines,
        args.games,
        args.concurrency,
        openings,
        limit,
        args.move_limit,
        args.max_plies,
        args.pgn,
        args.event,
        args.rules,
        args.forbidden_run,
    )
    records = run_match(config)
    first, second = engines
    a = sum(r.score_for(first.name) for r in records)
    b = sum(r.score_for(second.name) for r in records)
    final = f"final: {first.name} {a:g} - {b:g} {second.name} over {len(records)} games"
    print(final)
    if args.html:
        from xqadj.report import write_match_report

        try:
            write_match_report(args.html, records, [final])
        except OSError as error:
            print(f"xqadj match: cannot write the report: {error}", file=sys.stderr)
            return 2
    return 0
