"""xqadj: the rules arbiter for xiangqi.

The package is layered, each layer usable alone:

* :mod:`xqadj.board` — positions, FEN, legal moves, make/unmake, Zobrist hash and the
  repetition history (no I/O);
* :mod:`xqadj.notation` — WXF (``C2=5``) and Chinese (``炮二平五``) move notation;
* :mod:`xqadj.classify` — what a move is under the AXF/WXF rules: check, chase (with victims)
  or other;
* :mod:`xqadj.referee` — a game that rules checkmate, stalemate, perpetual check, perpetual
  chase, repetition draws and the move limit (:class:`Game`, :class:`Ruling`);
* :mod:`xqadj.cxa` — the Chinese rules (CXA 2020) as a second profile, ``Game(rules="cxa")``;
* :mod:`xqadj.protocol` — the line protocol served by the ``xqadj`` command;
* :mod:`xqadj.engine`, :mod:`xqadj.match`, :mod:`xqadj.proxy`, :mod:`xqadj.replay` — the
  integrations: driving engines, engine matches, the GUI proxy, game files.
"""

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
)
from xqadj.notation import AmbiguousMoveError, parse_chinese, parse_wxf, to_chinese, to_wxf
from xqadj.referee import Game, GameOverError, Reason, Ruling

__version__ = "0.1.0"

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
