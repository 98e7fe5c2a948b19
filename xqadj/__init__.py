"""xqadj: the rules arbiter for xiangqi.

Layer: package, the front door: it re-exports the core and the referee, and gives the core its
notebook picture from :mod:`xqadj.svg` (loaded on first use).  The package is layered,
each layer importing only itself and the layers below it (``docs/architecture.md``):

* core: :mod:`xqadj.board` — positions, FEN, legal moves, make/unmake, Zobrist hash and the
  repetition history (no I/O); :mod:`xqadj.notation` — WXF (``C2=5``) and Chinese
  (``炮二平五``) move notation;
* rules: :mod:`xqadj.rules` — the rules profiles by name, :mod:`xqadj.rules.axf` (AXF/WXF, the
  default) and :mod:`xqadj.rules.cxa` (CXA 2020, ``Game(rules="cxa")``);
* referee: :mod:`xqadj.referee` — a game that rules checkmate, stalemate, perpetual check,
  perpetual chase, repetition draws and the move limit (:class:`Game`, :class:`Ruling`);
* protocol: :mod:`xqadj.protocol` — the line protocol served by the ``xqadj`` command;
* presentation: :mod:`xqadj.svg` — pictures of positions and rulings;
* integrations: :mod:`xqadj.integrations` — driving engines, engine matches, the GUI proxy,
  game files, reports;
* command line: :mod:`xqadj.cli`.
"""

# First: chooses between the compiled modules and their sources before either is imported.
from xqadj import _native  # noqa: F401  (isort keeps it first: "xqadj" sorts before "xqadj.x")
from xqadj.board import (
    BLACK,
    RED,
    STARTING_FEN,
    Board,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    Piece,
    XqadjError,
    perft,
    set_picture_maker,
)
from xqadj.notation import AmbiguousMoveError, parse_chinese, parse_wxf, to_chinese, to_wxf
from xqadj.referee import Game, GameOverError, Reason, Ruling

__version__ = "0.1.0"


def _notebook_picture(board: Board) -> str:
    """Board._repr_svg_'s picture.  The core cannot import the pictures (they sit above it), so
    the package hands it this; the pictures load on the first call, not with the package."""
    from xqadj import svg

    return svg.notebook_picture(board)


set_picture_maker(_notebook_picture)

__all__ = [
    "AmbiguousMoveError",
    "BLACK",
    "Game",
    "GameOverError",
    "Reason",
    "Ruling",
    "parse_chinese",
    "parse_wxf",
    "to_chinese",
    "to_wxf",
    "RED",
    "STARTING_FEN",
    "Board",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "Move",
    "Piece",
    "XqadjError",
    "perft",
    "__version__",
]
