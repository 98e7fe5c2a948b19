"""The records of a match: a finished game, the match's outcome, the error at its start.

One finished game (:class:`GameRecord`, with its PGN text), the outcome of a whole match
(:class:`MatchResult`) and the error that stops a match before it starts (:class:`MatchError`).
The bottom of :mod:`xqadj.integrations.match`: it imports nothing else of the subpackage, and
everything in it pickles (a game played on another process or machine comes back as a
:class:`GameRecord`).

Layer: integrations.
"""

from __future__ import annotations

import datetime
import textwrap
from dataclasses import dataclass, field

from xqadj.board import BLACK, RED, STARTING_FEN, Board, Move
from xqadj.integrations.openings import Opening
from xqadj.integrations.stats import SprtState
from xqadj.integrations.timecontrol import TimeControl, pgn_time_control
from xqadj.integrations.tournament import MATCH_GAME_TAG
from xqadj.referee import Ruling

__all__ = ["PGN_LINE", "GameRecord", "MatchError", "MatchResult"]

#: The longest PGN line written (the PGN standard's export format says 79 characters).
PGN_LINE = 79


def _tag_value(value: str) -> str:
    """A PGN tag value: one line, with backslash and double quote escaped (PGN 8.1.1)."""
    value = " ".join(value.split())
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> list[str]:
    """A ``{…}`` comment as PGN tokens (see :func:`_comment_words`)."""
    words = _comment_words(text)
    if words:
        words[0] = "{" + words[0]
        words[-1] += "}"
    return words


def _comment_words(text: str) -> list[str]:
    """The words of a ``{…}`` comment: no brace inside (a ``}`` would end it early), none
    longer than a PGN line."""
    text = text.replace("{", "(").replace("}", ")")
    words: list[str] = []
    for word in text.split():
        words.extend(textwrap.wrap(word, PGN_LINE - 2, break_long_words=True) or [word])
    return words


#: What no move-text line may begin with: in PGN a line beginning with ``[`` is a tag pair
#: (``--resume`` and ``xqadj replay`` would start a new game there) and one beginning with
#: ``%`` an escape line that readers skip (PGN standard 6 and 8.1).
_LINE_STARTS = ("[", "%")
#: The stand-in for such a character when a line cannot start otherwise: its full-width form,
#: which reads the same and is neither a tag nor an escape.
_FULL_WIDTH = {"[": "\uff3b", "%": "\uff05"}


def _move_text_lines(tokens: list[str]) -> list[str]:
    """``tokens`` joined into lines of at most :data:`PGN_LINE` characters, none beginning with
    ``[`` or ``%``.

    Lines are filled greedily.  A token that would begin a line with ``[`` or ``%`` (a word of
    a comment quoting an engine's ``[error] …``) takes the words before it along to its new
    line, as few as give the line a safe first word and fit; when none do (a run of such words
    longer than a line), its first character is written in full width (``［``, ``％``):
    the only change to the text, made only there.

    >>> lines = _move_text_lines(["1.", "h2e2", "{Forfeit:", "x" * 58, "[error]", "boom}", "1-0"])
    >>> [line.replace("x" * 58, "x…x") for line in lines]
    ['1. h2e2 {Forfeit:', 'x…x [error] boom} 1-0']
    >>> [line[:4] for line in _move_text_lines(["{" + "[a]" * 20, "[b]" * 20 + "}"])]
    ['{[a]', '［b][']
    """
    lines: list[list[str]] = []
    line: list[str] = []
    width = 0
    for token in tokens:
        if line and width + 1 + len(token) > PGN_LINE:
            carried: list[str] = []
            if token.startswith(_LINE_STARTS):
                carried_width = len(token)
                # line[:keep] stays (never empty); line[keep:] goes on with the token.
                for keep in range(len(line) - 1, 0, -1):
                    carried_width += 1 + len(line[keep])
                    if carried_width > PGN_LINE:
                        break
                    if not line[keep].startswith(_LINE_STARTS):
                        carried, line = line[keep:], line[:keep]
                        break
            lines.append(line)
            line = [*carried, token]
            width = len(" ".join(line))
        else:
            width += len(token) + (1 if line else 0)
            line.append(token)
    lines.append(line)
    for words in lines:
        if words[0].startswith(_LINE_STARTS):
            words[0] = _FULL_WIDTH[words[0][0]] + words[0][1:]
    return [" ".join(words) for words in lines]


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
    rules: str = "axf"
    move_limit: int = 0
    forbidden_run: bool = False
    #: The game's number in the match's schedule (the ``[MatchGame]`` tag ``--resume`` reads).
    match_game: int | None = None
    #: Red's and black's time controls (None: no clock), for the ``TimeControl`` tags.
    time_controls: tuple[TimeControl | None, TimeControl | None] = (None, None)
    #: A comment for each move, "" for none (``book`` for the opening's moves, on clocks
    #: ``score/depth time [%clk …]``).
    move_comments: list[str] = field(default_factory=list)
    #: The match's own tags (``MatchId``, ``MatchBook``, ``MatchSeed``, ``MatchOpening``):
    #: what ``--resume`` checks a game of the PGN against.
    match_tags: tuple[tuple[str, str], ...] = ()
    #: Not a result: the engine that could not be restarted, so this game was not played.
    lost_engine: str = ""
    #: A ``--log`` file that could not be written while this game was played
    #: (``"FILE: reason"``): the match stops after it.
    write_error: str = ""

    def score_for(self, name: str) -> float:
        if self.result == "1/2-1/2":
            return 0.5
        if self.result == "1-0":
            return 1.0 if name == self.red else 0.0
        if self.result == "0-1":
            return 1.0 if name == self.black else 0.0
        return 0.0

    def headers(self, event: str) -> list[tuple[str, str]]:
        """The PGN tags, ``Game`` first as the xqbase PGN standard asks."""
        headers = [
            ("Game", "Chinese Chess"),
            ("Event", event),
            ("Site", "xqadj match"),
            ("Date", datetime.date.today().strftime("%Y.%m.%d")),
            ("Round", str(self.number)),
            ("Red", self.red),
            ("Black", self.black),
            ("Result", self.result),
        ]
        headers += pgn_time_control(*self.time_controls)
        if self.opening.fen != STARTING_FEN:
            headers += [("SetUp", "1"), ("FEN", f"{self.opening.fen} - - 0 1")]
        headers += [
            ("Format", "ICCS"),
            ("Termination", self.termination),
            ("Rules", self.rules),
            ("MoveLimit", str(self.move_limit)),
        ]
        if self.forbidden_run:
            headers.append(("ForbiddenRun", "1"))
        if self.match_game is not None:
            headers.append((MATCH_GAME_TAG, str(self.match_game)))
        headers += self.match_tags
        return headers

    def pgn(self, event: str, comments: bool = True) -> str:
        """The game in PGN: tags, then ICCS moves, the comment and the result, in lines of at
        most 79 characters, none of which begins with ``[`` or ``%`` (see
        :func:`_move_text_lines`)."""
        lines = [f'[{key} "{_tag_value(value)}"]' for key, value in self.headers(event)]
        turn = Board(self.opening.fen).turn
        number = 1
        tokens = []
        for index, move in enumerate(self.moves):
            if turn == RED:
                tokens.append(f"{number}.")
            elif index == 0:
                tokens.append(f"{number}...")
            tokens.append(move.iccs())
            if comments and index < len(self.move_comments) and self.move_comments[index]:
                # A move's comment is short: one token, so that a line never splits it.
                tokens.append("{" + " ".join(_comment_words(self.move_comments[index])) + "}")
            if turn == BLACK:
                number += 1
            turn ^= 1
        if comments and self.comment:
            tokens.extend(_comment(self.comment))
        tokens.append(self.result)
        return "\n".join(lines) + "\n\n" + "\n".join(_move_text_lines(tokens)) + "\n"


class MatchError(Exception):
    """The match cannot start (an engine that does not start, a PGN file that cannot be
    written)."""


@dataclass
class MatchResult:
    """The finished games in order, and why the match ended early, if it did."""

    records: list[GameRecord]
    #: "" (all games played), "interrupted" (Ctrl-C / SIGTERM), "output closed" (EPIPE),
    #: "write error" (the PGN, a ``--log`` or the ``--results`` file could not be written) or
    #: "engine lost" (an engine could not be restarted and no game without it was left).
    stopped: str = ""
    #: The games of this match: finished ones plus those not played.
    planned: int = 0
    #: The signal that stopped the match (SIGINT or SIGTERM), if one did.
    signal: int = 0
    #: The SPRT when it stopped the match (its ``accepted`` says which hypothesis), else None.
    decision: SprtState | None = None
    #: Games taken from the PGN with ``--resume``.
    resumed: int = 0
    #: What went wrong, one line each (a file that could not be written, an engine that
    #: could not be restarted): printed on stderr at the end.
    problems: list[str] = field(default_factory=list)
    #: Engines that could not be restarted (their remaining games were not played).
    lost: list[str] = field(default_factory=list)

    def scores(self, name: str) -> float:
        return sum(r.score_for(name) for r in self.records)
