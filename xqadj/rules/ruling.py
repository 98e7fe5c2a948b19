"""What a rules profile hands to the referee: a :class:`Ruling` and the types it carries.

A ruling carries its :class:`Reason`, the per-side :class:`SideVerdict` and the AXF
classification types (:class:`Threat`, :class:`MoveClass`).

Layer: rules (shared by every profile; imports the core only).  :mod:`xqadj.referee` re-exports
these names, where the library has always offered them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from xqadj.board import COLOR_NAMES, PIECE_NAMES, RED, Board, Color, Move, Piece, square_name


class Threat(NamedTuple):
    """A capture the mover threatens: ``attacker`` and ``victim`` are squares after the move."""

    attacker: int
    victim: int

    def describe(self, board: Board) -> str:
        """``'cannon b2 attacks rook f2'``, for the board after the move."""
        attacker, victim = board.piece_at(self.attacker), board.piece_at(self.victim)
        if attacker is None or victim is None:
            return f"{square_name(self.attacker)} attacks {square_name(self.victim)}"
        return (
            f"{PIECE_NAMES[attacker.piece_type]} {square_name(self.attacker)} attacks "
            f"{PIECE_NAMES[victim.piece_type]} {square_name(self.victim)}"
        )


class MoveClass(NamedTuple):
    """What a move is under the AXF/WXF rules.

    ``check``: the move attacks the enemy king.  ``victims``: the chases the move creates.  A
    move can be both: it then counts towards perpetual check and towards perpetual chase
    (docs/rulings.md, D-5); :attr:`kind` names it by the heavier, ``'check'``.
    """

    move: Move
    check: bool
    victims: tuple[Threat, ...]

    @property
    def kind(self) -> str:
        """``'check'``, ``'chase'`` or ``'other'``."""
        if self.check:
            return "check"
        return "chase" if self.victims else "other"


class Reason(StrEnum):
    """Why a game ended."""

    #: The side to move is in check and has no legal move.
    CHECKMATE = "checkmate"
    #: The side to move has no legal move and is not in check (困毙): it loses (art. 2).
    STALEMATE = "stalemate"
    #: A side checked on every move of the cycle (长将, art. 6, 8).
    PERPETUAL_CHECK = "perpetual-check"
    #: A side chased the same piece on every move of the cycle (长捉, art. 15–37); under the
    #: CXA rules also a cycle of chases mixed with checks or mate threats (一将一捉, 一杀一捉).
    PERPETUAL_CHASE = "perpetual-chase"
    #: CXA rules only: a side threatened mate on every move, or mixed checks and mate threats
    #: (长杀, 一将一杀; CXA 24.10, 24.13).  The AXF rules allow both.
    PERPETUAL_KILL = "perpetual-kill"
    #: The position occurred a third time and neither side, or both, broke a rule (art. 5, 7).
    REPETITION = "repetition"
    #: The natural move limit was reached without a capture.
    MOVE_LIMIT = "move-limit"

    def __str__(self) -> str:
        return self.value


#: Violation levels of a side's moves in a cycle; the higher level loses, equal levels draw.
LEVEL_NONE, LEVEL_CHASE, LEVEL_CHECK = 0, 1, 2


@dataclass(frozen=True)
class SideVerdict:
    """How one side's moves in the cycle are judged."""

    color: Color
    level: int
    #: Ids (``'R@h0'``: type and square at the cycle's start) of the pieces chased on every move.
    chased: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ruling:
    """The end of a game, with everything needed to explain it."""

    result: str  # "1-0", "0-1" or "1/2-1/2"
    reason: Reason
    ply: int  # number of moves from the start position when the ruling fell
    offender: Color | None = None  # the losing side, None for a draw
    article: str = ""
    cycle: tuple[Move, ...] = ()
    #: One entry per move of the cycle, in order: what the rules make of it.
    classifications: tuple[MoveClass, ...] = ()
    verdicts: tuple[SideVerdict, ...] = ()
    #: Readable description of each victim, parallel to ``classifications``.
    notes: tuple[str, ...] = field(default=(), compare=False)
    start_turn: Color = RED
    #: The rules profile that made the ruling: ``axf`` or ``cxa``.
    rules: str = "axf"
    #: Per move of the cycle, the rulebook's label in the profile's vocabulary (CXA: 将 杀 捉 兑
    #: 献 拦 跟 闲); empty for AXF, whose classifications say it.
    labels: tuple[str, ...] = ()
    #: A profile's own explanation of a repetition ruling; explain() returns it when set.
    explanation: str = field(default="", compare=False)

    @property
    def winner(self) -> Color | None:
        return None if self.offender is None else 1 - self.offender

    def explain(self) -> str:
        """One readable paragraph (English, with the Chinese terms)."""
        if self.explanation:
            return self.explanation
        if self.reason is Reason.CHECKMATE:
            return (
                f"{_side(self.offender)} is checkmated (将死) at ply {self.ply}; "
                f"result {self.result}."
            )
        if self.reason is Reason.STALEMATE:
            return (
                f"{_side(self.offender)} has no legal move (困毙) at ply {self.ply} and loses "
                f"(art. 2); result {self.result}."
            )
        if self.reason is Reason.MOVE_LIMIT:
            return (
                f"The natural move limit (自然限着) was reached at ply {self.ply} without a "
                f"capture; result {self.result}."
            )
        moves = []
        for index, (cls, note) in enumerate(zip(self.classifications, self.notes, strict=True)):
            color = self.start_turn if index % 2 == 0 else 1 - self.start_turn
            label = {"check": "check 将", "chase": "chase 捉", "other": "idle 闲"}[cls.kind]
            moves.append(f"{cls.move.iccs()} ({COLOR_NAMES[color]}: {label}{note})")
        sides = []
        for verdict in self.verdicts:
            what = {
                LEVEL_CHECK: "checks on every move (perpetual check, 长将)",
                LEVEL_CHASE: "chases the same piece on every move (perpetual chase, 长捉): "
                + ", ".join(_describe_id(i) for i in verdict.chased),
                LEVEL_NONE: "breaks no rule (允许着法)",
            }[verdict.level]
            sides.append(f"{_side(verdict.color)} {what}")
        if self.offender is None:
            outcome = "so the game is drawn (作和)"
        else:
            loser = COLOR_NAMES[self.offender]
            outcome = f"so {loser} must vary and, not varying, loses (不变作负)"
        return (
            f"The position occurred for the third time at ply {self.ply} (循环三次). "
            f"Cycle: {'; '.join(moves)}. {'; '.join(sides)}, {outcome}: "
            f"{self.reason.value} ({self.article}), result {self.result}."
        )

    def __str__(self) -> str:
        return f"{self.result} {self.reason.value} at ply {self.ply}"


def _describe_id(piece_id: str) -> str:
    """``'C@c3'`` → ``'the red cannon that stood on c3 when the cycle began'``."""
    piece = Piece.from_symbol(piece_id[0])
    return (
        f"the {COLOR_NAMES[piece.color]} {PIECE_NAMES[piece.piece_type]} that stood on "
        f"{piece_id[2:]} when the cycle began"
    )


def _side(color: Color | None) -> str:
    return "Nobody" if color is None else COLOR_NAMES[color].capitalize()


def result_for_loser(loser: Color) -> str:
    return "0-1" if loser == RED else "1-0"
