"""``xqadj show``: draw a position, or the ruling its moves end in, as SVG.

Layer: integrations.
"""

from __future__ import annotations

import argparse
import sys

from xqadj import svg
from xqadj.board import STARTING_FEN, XqadjError
from xqadj.integrations.arguments import picture_coordinates
from xqadj.referee import Game, GameOverError

DESCRIPTION = """\
Draw a position as SVG: FEN (quoted) or `startpos`, then optionally `moves` and moves in ICCS
(h2e2), WXF (C2=5) or Chinese (炮二平五) notation, as `xqadj replay` reads them.
When the moves end in a ruling (perpetual check or chase, repetition, checkmate, ...), the
ruling is drawn: the position at the first occurrence of the repeated position, each move of
the cycle with its checks and chases as arrows, its label, the offender, the article and the
explanation. The SVG goes to stdout, or to the file of --svg."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``show`` subcommand's arguments; its function is :func:`main`."""
    from xqadj.integrations.arguments import add_picture_arguments, add_rules_arguments

    # Optional for argparse, so that a missing position is said as such (argparse named the
    # optional moves as missing too); main() reports it.
    parser.add_argument(
        "position", nargs="?", metavar="FEN|startpos", help="the start position (quote a FEN)"
    )
    parser.add_argument(
        "moves",
        nargs="*",
        metavar="moves MOVE",
        help="the word `moves` (may be left out), then moves in ICCS (h2e2), WXF (C2=5) or "
        "Chinese (炮二平五) notation",
    )
    parser.set_defaults(show_parser=parser)
    add_rules_arguments(parser)
    parser.add_argument("--svg", metavar="FILE", help="write the SVG to FILE (default: stdout)")
    add_picture_arguments(parser)
    parser.add_argument(
        "--size", type=_positive, metavar="PX", help="width in pixels (default: scalable)"
    )


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number of pixels, got {text!r}")
    return value


#: What follows a FEN's board when the shell has split an unquoted FEN into words.
_FEN_FIELDS = frozenset({"w", "b", "r", "-"})
QUOTE_HINT = 'quote the FEN: xqadj show "<FEN> w" moves ...'


def render(args: argparse.Namespace) -> str:
    """The SVG for parsed ``show`` arguments; raises :class:`XqadjError` for a bad position or
    move, saying which."""
    from xqadj.integrations.replay import parse_move

    position = args.position.strip()
    fen = STARTING_FEN if position == "startpos" else position.removeprefix("fen ")
    moves = list(args.moves)
    if moves and moves[0] in _FEN_FIELDS and position != "startpos":
        raise XqadjError(f"the FEN was split into words by the shell; {QUOTE_HINT}")
    if moves and moves[0] == "moves":
        moves = moves[1:]
    try:
        game = Game(fen, rules=args.rules, forbidden_run=args.forbidden_run)
    except XqadjError as error:
        raise XqadjError(f"{error} ({QUOTE_HINT}, or startpos)") from error
    for ply, text in enumerate(moves, 1):
        try:
            game.push(parse_move(game.board, text))
        except GameOverError as error:
            raise XqadjError(
                f"move {ply} {text!r} comes after the ruling ({game.ruling}); give the moves up "
                "to the ruling to draw it"
            ) from error
        except XqadjError as error:
            raise XqadjError(f"move {ply} {text!r}: {error}") from error
    coordinates = picture_coordinates(args)
    if game.ruling is not None:
        return svg.ruling(
            game.board,
            game.ruling,
            coordinates=coordinates,
            letters=args.letters,
            flipped=args.flip,
            size=args.size,
        )
    board = game.board
    return svg.board(
        board,
        lastmove=board.move_stack[-1] if board.move_stack else None,
        coordinates=coordinates,
        letters=args.letters,
        flipped=args.flip,
        size=args.size,
    )


def main(args: argparse.Namespace) -> int:
    """Run ``xqadj show``; returns the exit status: 0, or 2 after one ``xqadj show:`` error line
    for a bad position, move or output file."""
    if args.position is None:
        args.show_parser.error("give the position to draw: a FEN in quotes, or startpos")
    try:
        text = render(args) + "\n"
    except XqadjError as error:
        print(f"xqadj show: {error}", file=sys.stderr)
        return 2
    if args.svg:
        try:
            with open(args.svg, "w", encoding="utf-8", newline="\n") as out:
                out.write(text)
        except OSError as error:
            print(f"xqadj show: cannot write {args.svg}: {error.strerror}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0
