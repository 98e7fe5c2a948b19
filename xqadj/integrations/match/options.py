"""The options of a match: the ``xqadj match`` arguments and the configuration they make.

The command line's ``xqadj match`` arguments (:func:`add_arguments`, :func:`check_arguments`),
and what they make (:func:`configure`): a :class:`MatchConfig`, with a :class:`Player` for how
each engine searches.

An engine developer's cutechess-cli or fastchess command line runs as it is: every option of
both tools is in one table, :data:`SPELLINGS` (and every ``-engine``/``-each`` setting in
:data:`ENGINE_SPELLINGS`), which says what xqadj does with it: the same as one of its own
options, accepted and translated, ignored with a warning, or refused with the reason.  The
README's table is checked against them.

Layer: integrations.  Inside :mod:`xqadj.integrations.match` it imports only
:mod:`.schedule`.
"""

from __future__ import annotations

import argparse
import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xqadj.integrations.adjudication import DrawRule, ResignRule
from xqadj.integrations.arguments import add_picture_arguments, add_rules_arguments
from xqadj.integrations.cluster import ClusterError, address_argument, check_available
from xqadj.integrations.engine import EngineSpec, SearchLimit
from xqadj.integrations.match.schedule import plan
from xqadj.integrations.openings import Opening, OpeningBook, OpeningsSpec
from xqadj.integrations.stats import Sprt
from xqadj.integrations.timecontrol import TimeControl
from xqadj.integrations.tournament import TOURNAMENTS, EngineConfig, ScheduledGame, engine_configs

__all__ = [
    "ENGINE_SPELLINGS",
    "HANDLINGS",
    "SPELLINGS",
    "MatchConfig",
    "Player",
    "Spelling",
    "add_arguments",
    "check_arguments",
    "configure",
]

#: What xqadj does with another tool's spelling.
HANDLINGS = ("same", "accepted", "ignored", "refused")


@dataclass(frozen=True)
class Spelling:
    """One option (or engine setting) of cutechess-cli or fastchess and what ``xqadj match``
    does with it: ``same`` as the xqadj option ``meaning`` names, ``accepted`` (translated as
    ``meaning`` says), ``ignored`` with a warning (``meaning`` is the warning's reason) or
    ``refused`` (``meaning`` is the reason given)."""

    spelling: str
    #: ``cutechess-cli``, ``fastchess`` or ``both``.
    tools: str
    handling: str
    meaning: str
    #: How many values it takes on the command line (argparse's nargs), for options that are
    #: not an xqadj option's alias.
    nargs: str | int | None = "*"


#: Every command-line option of cutechess-cli and fastchess.
SPELLINGS: tuple[Spelling, ...] = (
    Spelling("-engine", "both", "same", "--engine"),
    Spelling("-each", "both", "same", "--each"),
    Spelling("-concurrency", "both", "same", "--concurrency"),
    Spelling("-force-concurrency", "fastchess", "same", "--concurrency"),
    Spelling(
        "-rounds",
        "both",
        "accepted",
        "--rounds; without -games or -repeat, one game an encounter, as both tools play",
        1,
    ),
    Spelling(
        "-games",
        "both",
        "accepted",
        "games an encounter, as --games; with -rounds R and N above 2 (cutechess-cli, two "
        "engines), the R×N games of the match, paired",
        1,
    ),
    Spelling(
        "-repeat",
        "both",
        "accepted",
        "-repeat and -repeat 2: --repeat, fastchess's -games 2 (each opening with both "
        "colours, a game pair an encounter); -repeat 1: --games 1; other counts are refused",
        "?",
    ),
    Spelling("-tournament", "both", "same", "--tournament (roundrobin is round-robin)"),
    Spelling(
        "-openings",
        "both",
        "accepted",
        "--openings; cutechess-cli's policy= is ignored with a warning (xqadj: one opening "
        "an encounter)",
        "+",
    ),
    Spelling("-srand", "both", "same", "--seed"),
    Spelling(
        "-sprt",
        "both",
        "same",
        "--sprt (without model=, fastchess's normalized SPRT on the pairs; cutechess-cli's "
        "BayesElo SPRT on the games is model=bayesian)",
    ),
    Spelling("-ratinginterval", "both", "same", "--ratinginterval"),
    Spelling("-draw", "both", "same", "--draw"),
    Spelling("-resign", "both", "same", "--resign"),
    Spelling("-event", "both", "same", "--event"),
    Spelling(
        "-pgnout",
        "both",
        "accepted",
        "--pgn FILE, from cutechess-cli's FILE [min] [fi] or fastchess's file=FILE [...]; fi "
        "is what xqadj does anyway, min and fastchess's other keys are ignored with a warning",
        "+",
    ),
    Spelling(
        "-epdout",
        "both",
        "accepted",
        "the end position of each game, a FEN line, appended to FILE (fastchess: file=FILE)",
        "+",
    ),
    Spelling(
        "-maxmoves",
        "both",
        "accepted",
        "--max-plies 2N (a draw after N moves each; xqadj counts them after the opening)",
        1,
    ),
    Spelling(
        "-recover",
        "both",
        "accepted",
        "what xqadj always does: a crashed or hung engine forfeits the game and is restarted",
        0,
    ),
    Spelling(
        "-variant",
        "both",
        "accepted",
        "xiangqi only (any other variant is refused)",
        1,
    ),
    Spelling(
        "-wait",
        "both",
        "ignored",
        "xqadj starts the next game at once (each search begins with isready)",
        1,
    ),
    Spelling("-debug", "cutechess-cli", "ignored", "use --log DIR for the engines' traffic"),
    Spelling("-log", "fastchess", "ignored", "use --log DIR for the engines' traffic"),
    Spelling("-site", "both", "ignored", 'the Site tag is always "xqadj match"', 1),
    Spelling("-livepgnout", "cutechess-cli", "ignored", "the --pgn file is written game by game"),
    Spelling("-resultformat", "cutechess-cli", "ignored", "xqadj has one result format", 1),
    Spelling(
        "-outcomeinterval",
        "cutechess-cli",
        "ignored",
        "a progress line follows every game",
        1,
    ),
    Spelling("-scoreinterval", "fastchess", "ignored", "a progress line follows every game", 1),
    Spelling(
        "-report",
        "fastchess",
        "ignored",
        "xqadj reports the pentanomial whenever games are paired",
    ),
    Spelling("-output", "fastchess", "ignored", "xqadj has one output format"),
    Spelling("-autosaveinterval", "fastchess", "ignored", "use --results FILE and --resume", 1),
    Spelling("-crc32", "fastchess", "ignored", "xqadj writes no checksums"),
    Spelling("-use-affinity", "fastchess", "ignored", "xqadj pins no engine to a CPU"),
    Spelling("-show-latency", "fastchess", "ignored", "xqadj does not measure latency", 0),
    Spelling("-testEnv", "fastchess", "ignored", "no such environment here", 0),
    Spelling(
        "-noswap",
        "both",
        "refused",
        "colours always alternate (a game pair plays its opening with both colours)",
        0,
    ),
    Spelling("-reverse", "both", "refused", "the first engine plays red first, always", 0),
    Spelling("-seeds", "both", "refused", "xqadj has no knockout seeding", 1),
    Spelling("-tb", "both", "refused", "there are no xiangqi tablebases to adjudicate with"),
    Spelling("-tbpieces", "both", "refused", "there are no xiangqi tablebases"),
    Spelling("-tbignore50", "cutechess-cli", "refused", "there are no xiangqi tablebases", 0),
    Spelling("-tbadjudicate", "fastchess", "refused", "there are no xiangqi tablebases"),
    Spelling("-config", "fastchess", "refused", "use --resume and --results FILE"),
    Spelling("-quick", "fastchess", "refused", "give -engine twice, -openings and -each tc="),
    Spelling("-engines", "cutechess-cli", "refused", "xqadj has no engines.json", 0),
    Spelling("-help", "both", "refused", "see xqadj match --help", 0),
    Spelling("-version", "both", "refused", "see xqadj --version", 0),
)

#: Every ``-engine``/``-each`` setting of cutechess-cli and fastchess (``option.<Name>``
#: aside, which all three take).
ENGINE_SPELLINGS: tuple[Spelling, ...] = (
    Spelling("cmd=", "both", "same", "cmd="),
    Spelling("name=", "both", "same", "name="),
    Spelling("dir=", "both", "same", "dir="),
    Spelling("args=", "fastchess", "same", "args= (split like a shell line)"),
    Spelling(
        "arg=", "cutechess-cli", "accepted", "one argument each, appended to the command", None
    ),
    Spelling(
        "proto=",
        "both",
        "accepted",
        "uci, or xqadj's ucci; xboard and cecp are refused (xqadj speaks no WinBoard)",
        None,
    ),
    Spelling("tc=", "both", "same", "tc="),
    Spelling(
        "tc=inf",
        "cutechess-cli",
        "accepted",
        "no clock: the engine's depth=/nodes= or the match's --movetime/--depth/--nodes limits it",
        None,
    ),
    Spelling("st=", "both", "same", "st="),
    Spelling("timemargin=", "both", "same", "timemargin="),
    Spelling("depth=", "both", "same", "depth="),
    Spelling("nodes=", "both", "same", "nodes="),
    Spelling("plies=", "fastchess", "accepted", "depth=", None),
    Spelling(
        "restart=",
        "both",
        "ignored",
        "an engine is restarted after a failure only (as restart=auto)",
        None,
    ),
    Spelling("trust", "cutechess-cli", "ignored", "a result is always xqadj's own", None),
    Spelling("ponder", "cutechess-cli", "ignored", "xqadj's engines do not ponder", None),
    Spelling("stderr=", "cutechess-cli", "ignored", "use --log DIR", None),
    Spelling("whitepov", "cutechess-cli", "refused", "scores are read from the mover's side", None),
    Spelling(
        "initstr=", "cutechess-cli", "refused", "xqadj sends no init string: use option.", None
    ),
    Spelling(
        "conf=",
        "cutechess-cli",
        "refused",
        "xqadj has no engines.json: give cmd= and the settings",
        None,
    ),
    Spelling("book=", "cutechess-cli", "refused", "no opening books: use --openings", None),
    Spelling("bookdepth=", "cutechess-cli", "refused", "no opening books: use --openings", None),
)


def _aliases(option: str) -> list[str]:
    """The other tools' spellings that are the same as xqadj's ``option``."""
    return [
        s.spelling for s in SPELLINGS if s.handling == "same" and s.meaning.split()[0] == option
    ]


def _dest(spelling: str) -> str:
    return "compat_" + spelling.lstrip("-").replace("-", "_")


def _tournament(text: str) -> str:
    """``--tournament``'s value; fastchess writes ``roundrobin``."""
    value = {"roundrobin": "round-robin"}.get(text.lower(), text.lower())
    if value not in TOURNAMENTS:
        raise argparse.ArgumentTypeError(
            f"expected gauntlet or round-robin (roundrobin), got {text!r}"
        )
    return value


def _engine_tokens(tokens: Sequence[str], notes: list[str]) -> list[str]:
    """An ``-engine``/``-each`` token list in xqadj's settings: cutechess-cli's ``arg=``
    (one argument each) joined into ``args=``, fastchess's ``plies=`` as ``depth=``, ignored
    settings dropped with a warning, refused ones a ValueError."""
    by_key = {s.spelling.rstrip("="): s for s in ENGINE_SPELLINGS}
    out: list[str] = []
    arguments: list[str] = []
    for token in tokens:
        key, sep, value = token.partition("=")
        spelling = by_key.get(key)
        if spelling is None or spelling.handling == "same" or key in ("tc", "proto"):
            out.append(token)
        elif key == "arg":
            arguments.append(value)
        elif key == "plies":
            out.append(f"depth={value}")
        elif spelling.handling == "ignored":
            notes.append(f"warning: engine setting {token!r} is ignored: {spelling.meaning}")
        else:
            raise ValueError(f"engine setting {token!r} is not supported: {spelling.meaning}")
    if arguments:
        joined = shlex.join(arguments)
        for at, token in enumerate(out):
            if token.startswith("args="):  # fastchess's args= and cutechess-cli's arg= both
                out[at] = f"{token} {joined}"
                break
        else:
            out.append(f"args={joined}")
    return out


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
    #: Print the statistics every this many games (0: at the end only; the final block is
    #: printed once, by the command, after the last game).
    rating_interval: int = 0
    draw: DrawRule | None = None
    resign: ResignRule | None = None
    #: Go on with the match whose first games the PGN file holds.
    resume: bool = False
    #: Write every game and the statistics here as JSON, after every game and at the end.
    results: Path | None = None
    #: Play the games on this Dask cluster (``local[:N]`` or a scheduler's address), not here.
    cluster: str | None = None
    #: Append each game's end position here as a FEN line (``-epdout``).
    epd_out: Path | None = None
    #: The seed that shuffled the book (``--seed``, or the one drawn), None for none.
    seed: int | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        *_aliases("--engine"),
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
        *_aliases("--each"),
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
        *_aliases("--tournament"),
        type=_tournament,
        default="round-robin",
        help="with three engines or more: the first against each other one (gauntlet) or "
        "everyone against everyone (round-robin, the default)",
    )
    parser.add_argument(
        "--rounds",
        *_aliases("--rounds"),
        type=int,
        help="rounds to play: each pairing plays one encounter a round",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=2,
        help="games an encounter: 2 (the default: each opening with both colours, a game "
        "pair) or 1; without --rounds, a number above 2 is the games of a two-engine match",
    )
    parser.add_argument("--repeat", action="store_true", help="the same as --games 2")
    parser.add_argument(
        "--concurrency",
        *_aliases("--concurrency"),
        type=int,
        default=1,
        help="games at once (default 1); with --cluster, games at once on each worker",
    )
    parser.add_argument(
        "--cluster",
        type=address_argument,
        metavar="ADDRESS",
        help="play the game pairs on a Dask cluster: tcp://HOST:8786 for a running scheduler, "
        "local[:N] to start N local worker processes (needs pip install 'xqadj[cluster]')",
    )
    parser.add_argument(
        "--openings",
        nargs="+",
        metavar="KEY=VALUE",
        help="file=F [format=epd|pgn] [order=sequential|random] [plies=N] [start=K], or a "
        "file alone: EPD/FEN lines, 'startpos|fen <FEN> [moves ...]' lines, or PGN games",
    )
    parser.add_argument(
        "--seed",
        *_aliases("--seed"),
        type=int,
        help="the seed for --openings order=random (default: a random one)",
    )
    parser.add_argument(
        "--sprt",
        *_aliases("--sprt"),
        nargs="+",
        metavar="KEY=VALUE",
        help="elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=normalized|logistic|bayesian]: "
        "stop the match when the SPRT on the game pairs (bayesian: on the games, as "
        "cutechess-cli) accepts H0 or H1 (two engines)",
    )
    parser.add_argument(
        "--ratinginterval",
        *_aliases("--ratinginterval"),
        type=int,
        default=0,
        metavar="N",
        help="print the statistics every N games (default 0: at the end only)",
    )
    parser.add_argument(
        "--draw",
        *_aliases("--draw"),
        nargs="+",
        metavar="KEY=VALUE",
        help="movenumber=N movecount=C score=S: adjudicate a draw when both engines' scores "
        "stay within S cp for C moves each, from move N on",
    )
    parser.add_argument(
        "--resign",
        *_aliases("--resign"),
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
    parser.add_argument(
        "--event", *_aliases("--event"), default="xqadj match", help="the PGN Event tag"
    )
    parser.add_argument(
        "--log",
        type=Path,
        metavar="DIR",
        help="write each engine instance's traffic both ways and its stderr to DIR/NAME-N.log",
    )
    parser.add_argument(
        "--html",
        type=Path,
        help="write an HTML report: the statistics with charts, then each ruled game drawn",
    )
    add_picture_arguments(parser, " (--html's boards)")
    compat = parser.add_argument_group(
        "cutechess-cli and fastchess spellings",
        "their options besides the ones above (-engine, -each, -rounds, -srand, …): see the "
        "README's table",
    )
    for spelling in SPELLINGS:
        if spelling.handling != "same":
            help_text = f"{spelling.handling}: {spelling.meaning}"
            if spelling.nargs == 0:
                compat.add_argument(
                    spelling.spelling,
                    dest=_dest(spelling.spelling),
                    action="store_const",
                    const=[],
                    default=None,
                    help=help_text,
                )
            else:
                compat.add_argument(
                    spelling.spelling,
                    dest=_dest(spelling.spelling),
                    metavar="ARG",
                    nargs=spelling.nargs,
                    const="2" if spelling.nargs == "?" else None,
                    default=None,
                    help=help_text,
                )


def _whole(spelling: str, text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{spelling} must be a whole number, got {text!r}") from None
    if value < least:
        raise ValueError(f"{spelling} must be at least {least}, got {value}")
    return value


def _file_value(spelling: str, tokens: Sequence[str]) -> tuple[str, list[str]]:
    """cutechess-cli's ``FILE [flags]`` or fastchess's ``file=FILE [key=value ...]``: the
    file and the rest."""
    if tokens[0].startswith("file="):
        rest = list(tokens[1:])
        return tokens[0][len("file=") :], rest
    if any(token.startswith("file=") for token in tokens):
        raise ValueError(f"{spelling}: file=FILE comes first")
    return tokens[0], list(tokens[1:])


def _apply_spellings(args: argparse.Namespace) -> None:
    """Turn the other tools' spellings that are not an xqadj option's alias into xqadj's
    options (see :data:`SPELLINGS`); warnings go to ``args._compat_notes``.  Raises
    ValueError for a refused option or a bad value."""
    if getattr(args, "_compat_notes", None) is not None:
        return  # applied already (check_arguments may be called again)
    notes: list[str] = []
    args._compat_notes = notes
    given: dict[str, list[str]] = {}
    for spelling in SPELLINGS:
        value = (
            getattr(args, _dest(spelling.spelling), None) if spelling.handling != "same" else None
        )
        if value is not None:
            given[spelling.spelling] = value if isinstance(value, list) else [value]
    for spelling in SPELLINGS:
        if spelling.spelling not in given:
            continue
        if spelling.handling == "refused":
            raise ValueError(f"{spelling.spelling} is not supported: {spelling.meaning}")
        if spelling.handling == "ignored":
            notes.append(f"warning: {spelling.spelling} is ignored: {spelling.meaning}")

    def one(spelling: str) -> str:
        return given[spelling][0]

    if "-variant" in given and one("-variant").lower() != "xiangqi":
        raise ValueError(f"-variant {one('-variant')}: xqadj plays xiangqi only")
    if "-maxmoves" in given:
        args.max_plies = 2 * _whole("-maxmoves", one("-maxmoves"), 1)
    if "-rounds" in given:
        if args.rounds is not None:
            raise ValueError("give --rounds or -rounds, not both")
        args.rounds = _whole("-rounds", one("-rounds"), 1)
        if "-games" not in given and "-repeat" not in given and not args.repeat:
            args.games = 1  # both tools play one game an encounter by default
    if "-games" in given:
        games = _whole("-games", one("-games"), 1)
        if args.rounds is not None and games > 2:
            # cutechess-cli's -rounds R -games N: R×N games a pairing.
            if len(args.engine) != 2:
                raise ValueError(
                    "-games above 2 with -rounds needs two engines (an encounter is one game "
                    "or a game pair)"
                )
            games, args.rounds = args.rounds * games, None
        args.games = games
    if "-repeat" in given:
        times = one("-repeat")
        if times == "2":
            args.repeat = True
        elif times == "1":
            args.games = 1
        else:
            raise ValueError(
                f"-repeat {times}: xqadj plays an opening once (-repeat 1) or with both "
                "colours (-repeat)"
            )
    if "-openings" in given:
        if args.openings:
            raise ValueError("give --openings or -openings, not both")
        tokens = []
        for token in given["-openings"]:
            if token.startswith("policy="):
                if token != "policy=encounter":
                    notes.append(
                        f"warning: -openings {token} is ignored: xqadj plays one opening an "
                        "encounter (policy=encounter)"
                    )
                continue
            tokens.append(token)
        args.openings = tokens
    if "-pgnout" in given:
        if args.pgn is not None:
            raise ValueError("give --pgn or -pgnout, not both")
        name, rest = _file_value("-pgnout", given["-pgnout"])
        args.pgn = Path(name)
        extra = [token for token in rest if token != "fi"]  # fi: finished games only, ours too
        if extra:
            notes.append(f"warning: -pgnout {' '.join(extra)} is ignored: xqadj writes its own PGN")
    args.epdout = None
    if "-epdout" in given:
        name, rest = _file_value("-epdout", given["-epdout"])
        args.epdout = Path(name)
        if rest:
            notes.append(f"warning: -epdout {' '.join(rest)} is ignored")


def check_arguments(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments, or None.  The other tools' spellings are turned
    into xqadj's options here first (:data:`SPELLINGS`)."""
    try:
        _apply_spellings(args)
    except ValueError as error:
        return str(error)
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
    outputs = [("--pgn", args.pgn), ("--results", args.results), ("--html", args.html)]
    for option, path in [*outputs, ("-epdout", args.epdout)]:
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
    notes: list[str] = list(getattr(args, "_compat_notes", []))
    args._option = "--engine"
    each = list(args.each) + ([f"tc={args.tc}"] if args.tc else [])
    engines = [_engine_tokens(tokens, notes) for tokens in args.engine]
    configs = engine_configs(engines, _engine_tokens(each, notes))
    for number, engine_config in enumerate(configs, 1):
        if engine_config.protocol == "ucci" and engine_config.time_control is not None:
            if engine_config.depth is not None or engine_config.nodes is not None:
                # UCCI 3.0, "go": depth N, nodes N or time T [...], one of them: a clock and
                # a depth cannot both be sent, and dropping one silently would change the match.
                raise ValueError(
                    f"engine {number}: a UCCI engine takes a clock (tc=, st=) or depth=/nodes=, "
                    "not both (UCCI's go has one limit)"
                )
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
    if args.cluster is not None:
        try:
            check_available()
        except ClusterError as error:
            raise ValueError(str(error)) from None
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
        cluster=args.cluster,
        epd_out=getattr(args, "epdout", None),
        seed=seed,
    )
    return config, notes
