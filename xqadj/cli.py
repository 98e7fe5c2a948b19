"""The ``xqadj`` command: serve the protocol (the default), or run one of the subcommands.

Layer: command line (the top).  It may import every layer below; nothing imports it.  The
arguments the subcommands share live in :mod:`xqadj.integrations.arguments`.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import resources

from xqadj import __version__, _native
from xqadj.board import STARTING_FEN, XqadjError
from xqadj.notation import to_chinese, to_wxf
from xqadj.referee import Game

DESCRIPTION = """\
xqadj, the rules arbiter for xiangqi. With no command it serves the xqadj line protocol on
stdin/stdout (see protocol/PROTOCOL.md): a GUI or match manager sends `position ... moves ...`
and reads `ruling ...` lines."""


def _demo(args: argparse.Namespace) -> int:
    """Follow the bundled rulebook game and print its ruling."""
    text = resources.files("xqadj").joinpath("examples/wxf-d022.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("#"):
            print(line[2:])
            continue
        if not line.strip():
            continue
        head, _, moves = line.partition(" moves ")
        fen = head.removeprefix("fen ").strip() if head.startswith("fen ") else STARTING_FEN
        game = Game(fen)
        print(f"\nstart: {game.board.fen()}")
        print(game.board)
        for ply, move_text in enumerate(moves.split(), 1):
            label = _label(game, move_text)
            ruling = game.push_iccs(move_text)
            print(f"{ply:3}. {move_text} {label}")
            if ruling:
                print(
                    f"\nruling: {ruling.result} {ruling.reason.value} at ply {ruling.ply} "
                    f"({ruling.article})"
                )
                print(ruling.explain())
                break
        else:
            print("\nno ruling")
    return 0


def _label(game: Game, move_text: str) -> str:
    """The move in WXF and Chinese notation, for people."""
    move = game.board.parse_move(move_text)
    return f"{to_wxf(game.board, move)} {to_chinese(game.board, move)}"


def _serve(args: argparse.Namespace) -> int:
    from xqadj.protocol import serve

    return serve()


def build_parser() -> argparse.ArgumentParser:
    from xqadj.integrations import match as match_module
    from xqadj.integrations import proxy as proxy_module
    from xqadj.integrations import replay as replay_module
    from xqadj.integrations import show as show_module

    parser = argparse.ArgumentParser(prog="xqadj", description=DESCRIPTION)
    parser.add_argument(
        "--version", action="version", version=f"xqadj {__version__} ({_native.form()})"
    )
    parser.set_defaults(func=_serve)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    serve = commands.add_parser(
        "serve",
        help="serve the line protocol on stdin/stdout (default)",
        description="Serve the xqadj line protocol on stdin/stdout, as plain `xqadj` does: "
        "send `position ... moves ...` lines, read `ruling ...` lines (protocol/PROTOCOL.md).",
    )
    serve.set_defaults(func=_serve)
    demo = commands.add_parser(
        "demo",
        help="follow a bundled rulebook game and show its ruling",
        description="Follow a bundled rulebook game (WXF-D022, a perpetual chase) move by move "
        "and print its ruling with the explanation.",
    )
    demo.set_defaults(func=_demo)
    match = commands.add_parser(
        "match",
        help="play matches and tournaments between engines, refereed by xqadj",
        description="Play games between two UCI/UCCI engines or more (head-to-head, gauntlet, "
        "round-robin), on clocks or fixed limits, from an opening book; xqadj ends each game at "
        "its ruling, checkmate, stalemate or the move limit, and forfeits a crashed, hung, "
        "illegal-moving or late engine. Statistics, the SPRT, adjudication, --results and "
        "--resume as in cutechess-cli and fastchess.",
    )
    match_module.add_arguments(match)
    match.set_defaults(func=match_module.main)
    proxy = commands.add_parser(
        "proxy",
        help="stand between a GUI and an engine, adding rulings and banmoves",
        description="Run an engine behind xqadj: every line passes through both ways; rulings "
        "are shown to the GUI as 'info string xqadj ruling ...'; a UCCI engine is sent the "
        "banned moves before each 'go'. Usage: xqadj proxy [options] -- <engine command>",
    )
    proxy_module.add_arguments(proxy)
    proxy.set_defaults(func=proxy_module.main)
    replay = commands.add_parser(
        "replay",
        help="follow the games of PGN/XQF/CBR/CBF/line files and print their first rulings",
        description=replay_module.DESCRIPTION,
    )
    replay_module.add_arguments(replay)
    replay.set_defaults(func=replay_module.main)
    show = commands.add_parser(
        "show",
        help="draw a position, or the ruling its moves end in, as SVG",
        description=show_module.DESCRIPTION,
    )
    show_module.add_arguments(show)
    show.set_defaults(func=show_module.main)
    for command in (serve, demo, match, proxy, replay, show):
        command.set_defaults(command_parser=command)
    return parser


def main(argv: list[str] | None = None) -> int:
    if not (sys.argv[1:] if argv is None else argv):
        # The protocol server, as GUIs start it: skip loading the subcommands (start-up time).
        return _serve(argparse.Namespace())
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # A mistyped option after a subcommand: that subcommand's usage, not the top level's.
        command_parser: argparse.ArgumentParser = getattr(args, "command_parser", parser)
        command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        status = int(args.func(args))
        sys.stdout.flush()  # here, where a reader that went away can still be caught
        return status
    except BrokenPipeError:
        # The reader went away (`xqadj demo | head`): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except XqadjError as error:
        print(f"xqadj: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
