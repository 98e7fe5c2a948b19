"""The options of a match: the ``xqadj match`` arguments and the configuration they make.

The command line's ``xqadj match`` arguments (:func:`add_arguments`, :func:`check_arguments`),
and what they make (:func:`configure`): a :class:`MatchConfig`, with a :class:`Player` for how
each engine searches.

Layer: integrations.  Inside :mod:`xqadj.integrations.match` it imports only
:mod:`.schedule`.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xqadj.integrations.adjudication import DrawRule, ResignRule
from xqadj.integrations.arguments import add_rules_arguments
from xqadj.integrations.engine import EngineSpec, SearchLimit
from xqadj.integrations.match.schedule import plan
from xqadj.integrations.openings import Opening, OpeningBook, OpeningsSpec
from xqadj.integrations.stats import Sprt
from xqadj.integrations.timecontrol import TimeControl
from xqadj.integrations.tournament import TOURNAMENTS, EngineConfig, ScheduledGame, engine_configs

__all__ = ["MatchConfig", "Player", "add_arguments", "check_arguments", "configure"]


@dataclass(frozen=True)
class Player:
    """How one engine searches: on a clock (``tc``) or a fixed time a move (``st``), with
    ``timemargin_ms`` of grace, and/or to a depth or a node count.  With none of them, the
    match's own :class:`~xqadj.integrations.engine.SearchLimit` (``--movetime``/``--depth``/
    ``--nodes``)."""

    time_control: TimeControl | None = None
    timemargin_ms: int = 0
    depth: int | None = None
    nodes: int | None = None

    @classmethod
    def of(cls, config: EngineConfig) -> Player:
        return cls(config.time_control, config.timemargin_ms, config.depth, config.nodes)


@dataclass
class MatchConfig:
    #: The engines, two or more.
    engines: Sequence[EngineSpec]
    #: With no ``schedule``: the games of a two-engine match, colours alternating.
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
    #: Seconds for an engine's handshake (and for each ``isready``).
    handshake_timeout: float = 10.0
    #: A folder for one traffic-and-stderr log per engine instance.
    log_dir: Path | None = None
    #: Write the explanation as a ``{comment}`` (cchess's PGN reader takes no comment).
    pgn_comments: bool = True
    #: How each engine searches (default: ``limit`` for all).
    players: Sequence[Player] = ()
    #: The games to play (default: ``games`` games of engines 0 and 1, in pairs).
    schedule: Sequence[ScheduledGame] | None = None
    #: The opening book (default: ``openings``, in order).
    book: OpeningBook | None = None
    #: 2: each encounter is a game pair (pentanomial statistics); 1: single games.
    games_per_encounter: int = 2
    sprt: Sprt | None = None
    #: Print the statistics every this many games (0: at the end only).
    rating_interval: int = 0
    draw: DrawRule | None = None
    resign: ResignRule | None = None
    #: Go on with the match whose first games the PGN file holds.
    resume: bool = False
    #: Write every game and the statistics here as JSON, after every game and at the end.
    results: Path | None = None
    #: The seed that shuffled the book (``--seed``, or the one drawn), None for none.
    seed: int | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        action="append",
        nargs="+",
        required=True,
        metavar="KEY=VALUE",
        help="an engine, once for each (two or more): cmd=<command line> [args=<arguments>] "
        "[dir=<folder>] [name=<name>] [proto=uci|ucci] [notation=iccs|fairy] "
        "[tc=MOVES/TIME+INC | st=SECONDS] [timemargin=MS] [depth=N] [nodes=N] "
        "[timeunit=ms|s] [option.<Name>=<value> ...]",
    )
    parser.add_argument(
        "--each",
        action="extend",
        nargs="+",
        default=[],
        metavar="KEY=VALUE",
        help="settings for every engine, as --engine takes them (an engine's own win)",
    )
    parser.add_argument(
        "--tc",
        metavar="MOVES/TIME+INC",
        help="a clock for every engine, in seconds (40/60+0.6, 10+0.1): --each tc=…",
    )
    parser.add_argument(
        "--tournament",
        choices=TOURNAMENTS,
        default="round-robin",
        help="with three engines or more: the first against each other one (gauntlet) or "
        "everyone against everyone (round-robin, the default)",
    )
    parser.add_argument(
        "--rounds", type=int, help="rounds to play: each pairing plays one encounter a round"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=2,
        help="games an encounter: 2 (the default: each opening with both colours, a game "
        "pair) or 1; without --rounds, a number above 2 is the games of a two-engine match",
    )
    parser.add_argument("--repeat", action="store_true", help="the same as --games 2")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    parser.add_argument(
        "--openings",
        nargs="+",
        metavar="KEY=VALUE",
        help="file=F [format=epd|pgn] [order=sequential|random] [plies=N] [start=K], or a "
        "file alone: EPD/FEN lines, 'startpos|fen <FEN> [moves ...]' lines, or PGN games",
    )
    parser.add_argument(
        "--seed", type=int, help="the seed for --openings order=random (default: a random one)"
    )
    parser.add_argument(
        "--sprt",
        nargs="+",
        metavar="KEY=VALUE",
        help="elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=normalized|logistic]: stop the "
        "match when the SPRT on the game pairs accepts H0 or H1 (two engines)",
    )
    parser.add_argument(
        "--ratinginterval",
        type=int,
        default=0,
        metavar="N",
        help="print the statistics every N games (default 0: at the end only)",
    )
    parser.add_argument(
        "--draw",
        nargs="+",
        metavar="KEY=VALUE",
        help="movenumber=N movecount=C score=S: adjudicate a draw when both engines' scores "
        "stay within S cp for C moves each, from move N on",
    )
    parser.add_argument(
        "--resign",
        nargs="+",
        metavar="KEY=VALUE",
        help="movecount=C score=S [twosided=true]: adjudicate a loss for an engine whose score "
        "stays S cp or more below zero for C of its moves",
    )
    parser.add_argument(
        "--results",
        type=Path,
        metavar="FILE",
        help="write every game and the statistics as JSON, after every game and at the end",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on with the match whose first games the --pgn file holds (same options; "
        "every game of the file is checked against the schedule)",
    )
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument(
        "--movetime",
        type=int,
        help="milliseconds per move (default 100; UCCI engines get 'go time MS movestogo 1')",
    )
    limit.add_argument("--depth", type=int, help="search depth per move")
    limit.add_argument("--nodes", type=int, help="nodes per move")
    parser.add_argument(
        "--timeout",
        type=float,
        help="seconds after which a silent engine forfeits: beyond --movetime (default 5), or "
        "per move with --depth/--nodes (default 60); an engine on a clock (tc=, st=) is bound "
        "by its clock and timemargin= instead",
    )
    parser.add_argument(
        "--handshake-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds an engine has to answer uci/ucci and isready before it is killed "
        "(default 10)",
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
    parser.add_argument(
        "--pgn",
        type=Path,
        help="append the games to this PGN file (an existing file is kept; rounds go on counting)",
    )
    parser.add_argument(
        "--no-pgn-comments",
        dest="pgn_comments",
        action="store_false",
        help="write no {comment} in the PGN (for readers such as cchess that take none)",
    )
    parser.add_argument("--event", default="xqadj match", help="the PGN Event tag")
    parser.add_argument(
        "--log",
        type=Path,
        metavar="DIR",
        help="write each engine instance's traffic both ways and its stderr to DIR/NAME-N.log",
    )
    parser.add_argument(
        "--html",
        type=Path,
        help="write an HTML report: each ruled game drawn (xqadj.integrations.report)",
    )


def check_arguments(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments, or None."""
    if len(args.engine) < 2:
        return "give --engine at least twice"
    if args.games < 1 or args.concurrency < 1:
        return "--games and --concurrency must be at least 1"
    if args.rounds is not None and args.rounds < 1:
        return "--rounds must be at least 1"
    if args.rounds is not None and args.games not in (1, 2):
        return "--games must be 1 or 2 with --rounds"
    if args.games > 2 and len(args.engine) > 2:
        return "--games must be 1 or 2 with more than two engines (give --rounds)"
    if args.ratinginterval < 0:
        return "--ratinginterval must be at least 0"
    if args.sprt is not None and len(args.engine) != 2:
        return "--sprt needs exactly two engines"
    if args.resume and args.pgn is None:
        return "--resume needs the --pgn file of the match to go on with"
    if args.move_limit < 0:
        return "--move-limit must be at least 0"
    if args.max_plies < 1:
        return "--max-plies must be at least 1"
    for option in ("movetime", "depth", "nodes"):
        value = getattr(args, option)
        if value is not None and value < 1:
            return f"--{option} must be at least 1, got {value}"
    if args.timeout is not None and not args.timeout > 0:
        return f"--timeout must be more than 0 seconds, got {args.timeout:g}"
    if not args.handshake_timeout > 0:
        return f"--handshake-timeout must be more than 0 seconds, got {args.handshake_timeout:g}"
    # Every output file is checked before the first game, not found unwritable after the last.
    for option, path in (("--pgn", args.pgn), ("--results", args.results), ("--html", args.html)):
        if path is None:
            continue
        folder = path.parent
        if path.is_dir():
            return f"{option} {path}: is a folder"
        if not folder.is_dir():
            return f"{option} {path}: no folder {str(folder)!r}"
        target = path if path.exists() else folder
        if not os.access(target, os.W_OK):
            return f"{option} {path}: {'file' if path.exists() else 'folder'} is not writable"
    return None


def configure(args: argparse.Namespace) -> tuple[MatchConfig, list[str]]:
    """The match the arguments ask for, and notes for the user; raises ValueError (or
    OSError, with ``args._option`` naming the option at fault)."""
    notes = []
    args._option = "--engine"
    each = list(args.each) + ([f"tc={args.tc}"] if args.tc else [])
    configs = engine_configs(args.engine, each)
    games, games_per_encounter = plan(
        len(configs), args.tournament, args.rounds, args.games, args.repeat
    )
    args._option = "--openings"
    book = OpeningBook()
    seed = None
    if args.openings:
        spec = OpeningsSpec.parse(args.openings)
        seed = args.seed if spec.order == "random" else None
        if spec.order == "random" and seed is None:
            seed = int.from_bytes(os.urandom(4), "big") >> 1
            notes.append(f"openings shuffled with --seed {seed} (give it to --resume this match)")
        book = spec.book(seed)
    args._option = "--sprt"
    sprt = Sprt.parse(args.sprt) if args.sprt else None
    args._option = "--draw"
    draw = DrawRule.parse(args.draw) if args.draw else None
    args._option = "--resign"
    resign = ResignRule.parse(args.resign) if args.resign else None
    args._option = "--log"
    if args.log is not None:
        args.log.mkdir(parents=True, exist_ok=True)
    limit = SearchLimit(args.movetime, args.depth, args.nodes)
    if args.timeout is not None:
        limit.grace = limit.search_timeout = args.timeout
    if limit.movetime is None and limit.depth is None and limit.nodes is None:
        limit.movetime = 100
    config = MatchConfig(
        [c.spec() for c in configs],
        len(games),
        args.concurrency,
        book.openings,
        limit,
        args.move_limit,
        args.max_plies,
        args.pgn,
        args.event,
        args.rules,
        args.forbidden_run,
        args.handshake_timeout,
        args.log,
        args.pgn_comments,
        players=[Player.of(c) for c in configs],
        schedule=games,
        book=book,
        games_per_encounter=games_per_encounter,
        sprt=sprt,
        rating_interval=args.ratinginterval,
        draw=draw,
        resign=resign,
        resume=args.resume,
        results=args.results,
        seed=seed,
    )
    return config, notes
