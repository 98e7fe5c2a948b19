"""Draw and resign adjudication from the engines' scores, as cutechess-cli does it.

Layer: integrations.

These are optional shortcuts for long tests, never rules: the referee's rulings (checkmate,
stalemate, perpetual check or chase, repetition, the move limit) are taken first, and an
adjudication is only looked at after a move that drew no ruling.

``--draw movenumber=N movecount=C score=S``
    A draw once at least N full moves have been played and both engines' scores have stayed
    within S centipawns of zero for C consecutive moves each (2·C plies).  A capture or a pawn
    move starts the count again (cutechess-cli's rule: they change the game for good).
``--resign movecount=C score=S [twosided=true]``
    A loss for an engine whose score has been at least S centipawns below zero for C
    consecutive moves of its own; with ``twosided=true`` only if its opponent's score has been
    at least S above zero for its last C moves too.

A score is the last ``info … score cp N`` or ``score mate N`` (UCCI: ``score N``) an engine
sent before its ``bestmove``, from its own side (``mate N`` counts as ±100000).  A move
without a score breaks every count.

>>> draw = DrawRule.parse("movenumber=1 movecount=2 score=10")
>>> watch = Adjudicator(draw, None)
>>> [watch.after_move(ply, score, False) for ply, score in enumerate([5, -3, 0], 1)]
[None, None, None]
>>> watch.after_move(4, 2, False).reason
'adjudicated draw: both scores within 10 cp for 2 moves each'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xqadj.integrations.settings import parse_key_values

__all__ = [
    "MATE_SCORE",
    "Adjudication",
    "Adjudicator",
    "DrawRule",
    "ResignRule",
    "SearchInfo",
    "parse_info",
    "parse_score",
]

#: What ``score mate N`` counts as, in centipawns.
MATE_SCORE = 100_000


@dataclass(frozen=True)
class SearchInfo:
    """What an engine last said of its search: its score (centipawns, mate as
    ±:data:`MATE_SCORE`), the score as the PGN comment shows it (``+0.45``, ``-M3``), and the
    depth, each None when not said."""

    score: int | None = None
    score_text: str | None = None
    depth: int | None = None


def parse_info(lines: Iterable[str]) -> SearchInfo:
    """The last score (with the depth of its line, if any) of a search's ``info`` lines.

    >>> parse_info(["info depth 7 seldepth 9 score cp -45 nodes 100 pv h9g7"])
    SearchInfo(score=-45, score_text='-0.45', depth=7)

    A UCCI engine (ElephantEye, Fairy-Stockfish under ``ucci``) writes ``score N``, no
    ``cp``:

    >>> parse_info(["info depth 9 score 120 pv h2e2"])
    SearchInfo(score=120, score_text='+1.20', depth=9)
    """
    found = SearchInfo()
    for line in lines:
        tokens = line.split()
        if tokens[:1] != ["info"] or "score" not in tokens:
            continue
        at = tokens.index("score")
        kind, value = tokens[at + 1 : at + 2], tokens[at + 2 : at + 3]
        if kind and kind[0].lstrip("+-").isdigit():
            # UCCI's `info … score N` has no unit word: N is in centipawns (UCCI 3.0, "info").
            kind, value = ["cp"], kind
        if not kind or not value or kind[0] not in ("cp", "mate"):
            continue
        try:
            number = int(value[0])
        except ValueError:
            continue
        depth = None
        if "depth" in tokens[:at]:
            depth_text = tokens[tokens.index("depth") + 1]
            depth = int(depth_text) if depth_text.isdigit() else None
        if kind == ["cp"]:
            found = SearchInfo(number, f"{number / 100:+.2f}", depth)
        else:
            sign = "-" if number < 0 else "+"
            found = SearchInfo(
                -MATE_SCORE if number < 0 else MATE_SCORE, f"{sign}M{abs(number)}", depth
            )
    return found


def parse_score(lines: Iterable[str]) -> int | None:
    """The score of the last ``info`` line that has one, in centipawns from the engine's side
    (``mate N``: ±:data:`MATE_SCORE`), or None.  ``lowerbound``/``upperbound`` scores count.

    >>> parse_score(["info depth 1 score cp 12", "info depth 2 score cp -30 pv h2e2"])
    -30
    >>> parse_score(["info depth 9 score mate -3"]), parse_score(["info nodes 5"])
    (-100000, None)
    """
    return parse_info(lines).score


def _settings(tokens: Sequence[str] | str, keys: Sequence[str], what: str) -> dict[str, str]:
    if isinstance(tokens, str):
        tokens = tokens.split()
    return parse_key_values(tokens, what, keys, ", ".join(keys))


def _number(values: dict[str, str], key: str, what: str, least: int, default: int | None) -> int:
    if key not in values:
        if default is None:
            raise ValueError(f"{what} needs {key}=…")
        return default
    try:
        number = int(values[key])
    except ValueError:
        raise ValueError(f"{what} {key} must be a whole number, got {values[key]!r}") from None
    if number < least:
        raise ValueError(f"{what} {key} must be at least {least}, got {number}")
    return number


@dataclass(frozen=True)
class DrawRule:
    """``--draw movenumber=N movecount=C score=S``."""

    movenumber: int
    movecount: int
    score: int

    @classmethod
    def parse(cls, tokens: Sequence[str] | str) -> DrawRule:
        values = _settings(tokens, ("movenumber", "movecount", "score"), "--draw")
        return cls(
            _number(values, "movenumber", "--draw", 0, 0),
            _number(values, "movecount", "--draw", 1, None),
            _number(values, "score", "--draw", 0, None),
        )


@dataclass(frozen=True)
class ResignRule:
    """``--resign movecount=C score=S [twosided=true|false]``."""

    movecount: int
    score: int
    twosided: bool = False

    @classmethod
    def parse(cls, tokens: Sequence[str] | str) -> ResignRule:
        values = _settings(tokens, ("movecount", "score", "twosided"), "--resign")
        twosided = values.get("twosided", "false").lower()
        if twosided not in ("true", "false"):
            raise ValueError(f"--resign twosided must be true or false, got {twosided!r}")
        return cls(
            _number(values, "movecount", "--resign", 1, None),
            _number(values, "score", "--resign", 1, None),
            twosided == "true",
        )


@dataclass(frozen=True)
class Adjudication:
    """An adjudicated result (``1-0``, ``0-1`` or ``1/2-1/2``) and why."""

    result: str
    reason: str


class Adjudicator:
    """Watches one game's scores, move by move, for ``draw`` and ``resign``."""

    def __init__(self, draw: DrawRule | None, resign: ResignRule | None) -> None:
        self.draw = draw
        self.resign = resign
        self._quiet_plies = 0
        #: Per side (0: the side that moved first in the game, 1: the other): consecutive own
        #: moves losing by the resign score, and winning by it.
        self._losing = [0, 0]
        self._winning = [0, 0]

    def after_move(
        self, ply: int, score: int | None, irreversible: bool, red_moved: bool | None = None
    ) -> Adjudication | None:
        """Take the move just played: ``ply`` (1-based, counted from the game's start), the
        mover's ``score`` (None if it gave none), ``irreversible`` (a capture or pawn move).
        ``red_moved`` says who moved (default: red on odd plies); the result names red first.
        """
        if red_moved is None:
            red_moved = ply % 2 == 1
        side = 0 if red_moved else 1
        if self.resign is not None:
            rule = self.resign
            losing = score is not None and score <= -rule.score
            winning = score is not None and score >= rule.score
            self._losing[side] = self._losing[side] + 1 if losing else 0
            self._winning[side] = self._winning[side] + 1 if winning else 0
            if self._losing[side] >= rule.movecount and (
                not rule.twosided or self._winning[1 - side] >= rule.movecount
            ):
                loser = "red" if red_moved else "black"
                return Adjudication(
                    "0-1" if red_moved else "1-0",
                    f"adjudicated resignation: {loser}'s score at or below -{rule.score} cp "
                    f"for {rule.movecount} moves",
                )
        if self.draw is not None:
            rule_d = self.draw
            quiet = score is not None and abs(score) <= rule_d.score and not irreversible
            self._quiet_plies = self._quiet_plies + 1 if quiet else 0
            full_moves = (ply + 1) // 2
            if full_moves >= rule_d.movenumber and self._quiet_plies >= 2 * rule_d.movecount:
                return Adjudication(
                    "1/2-1/2",
                    f"adjudicated draw: both scores within {rule_d.score} cp for "
                    f"{rule_d.movecount} moves each",
                )
        return None
