"""The CXA 2020 rules profile (中国象棋协会《象棋竞赛规则》2020, "中规").

It classifies the moves of a repeated cycle as 将 杀 捉 兑 献 拦 跟 闲 and rules the cycle.

Specification: ``shared/rules/CXA.md`` (§0, §3.4, §3.5, §5.5); the decisions taken where the
rulebook is silent or out of reach, and the cases that pin them: ``docs/cxa.md``.  Everything
here runs only when a position occurs for the third time in a game played under ``rules='cxa'``
(:func:`~xqadj.rules.cxa.judge.judge_cycle`, called by :class:`xqadj.referee.Game` through
:data:`PROFILE`), or on every move with the forbidden-run watch on.

Layer: rules (the CXA profile).  The profile is split by concern, each module importing only the
ones before it: :mod:`~xqadj.rules.cxa.search` (the look-ahead: material, mate threats, gains,
and the options :data:`~xqadj.rules.cxa.search.MATE_CHECKS` …), :mod:`~xqadj.rules.cxa.labels`
(the move labels), :mod:`~xqadj.rules.cxa.judge` (the judgement of a cycle and its
explanation), :mod:`~xqadj.rules.cxa.watch` (the forbidden run, 参考图8).

A move *m* of side *S* from position *P* to *P′* (*O* is the opponent) is (:func:`classify_move`,
graded by the heaviest reading, 从重: 将 > 杀 > 捉 > 兑/献 > 闲):

* **将** (24.1): *S* gives check in *P′*.  A king move that answers a check is 闲 (26.1.3).
* **杀** (24.2): with *O* passing, *S* mates by an unbroken series of at most
  :data:`search.MATE_CHECKS` checks against every defence (:func:`threatens_mate`; the first check
  takes nothing, else the move is graded by that capture), and could not in *P*.
* **捉** (24.3): with *O* passing, *S* can win material that it could not win in *P*
  (:func:`labels._new_gains`; 从捉到捉 = 闲): by a direct capture, one the move uncovers, a joint
  capture, a series of checks from the next move on, or at the end of a full exchange, without
  being mated at once.  The look-ahead (:class:`search._Prober`) is a bounded alpha-beta search of
  captures and checks with real legal moves, both sides free to stop; material (2011 25.3): 车
  2, 马 = 炮 = 过河兵 1, 士 = 象 a small unit.  The licence of king and pawns (26.1) discounts
  what they win by themselves.  Five principles of CXA.md §5.6 shape it: **P1** a move
  that parries the attack of the opponent's preceding move creates no 捉 from a capture it
  neither makes, joins nor uncovers (:func:`labels._parry_gains`); **P2** a line ends when its
  material is won, and a capture the opponent could make anyway is no answer to it
  (:func:`search._winning_captures`); **P3** pawns traded against pieces are even in every exchange
  the line counts (:meth:`search._Tally.score`); **P4** a capture of a piece of the same type
  that may take back first is an offer (兑, 24.4), no chase, only when the move lined the two
  up or the capturer can be taken back: a rook taking an undefended rook wins it
  (:meth:`search._Prober.gains`); **P5** what the chaser loses before its first capture is the
  gain's price, what it loses after it is 各吃各子, and an even 各吃各子 counts at the end of
  checks as after a capture (:meth:`search._Tally.after`).
* else **闲** (24.8), reported as 兑 or 献 (24.4, 24.5) where that is clear.

The ruling (:func:`decide`; §3.4, 2011 第26条 棋例总则, 2020 24.9–24.14, 26.9): a side whose
every cycle move is 将, 杀 or 捉 plays a forbidden move (禁止着法, 24.13); one-sided perpetual
check loses whatever the other side does; one forbidden side loses; neither or both forbidden
is a draw, except that of two forbidden sides the one whose chases are all single-piece chases
of a rook or of an unprotected piece must vary against one with a joint chase or a chase of a
protected piece (26.9.2, 26.9.3).

Every search is bounded by nodes (:data:`search.LINE_NODES`, :data:`search.MATE_NODES`), never
by time, so a ruling is reproducible; running out of nodes never creates a 杀 or a 捉.

>>> from xqadj.referee import Game
>>> game = Game("2R2a3/4k4/3a5/9/8p/9/1p1rpn3/3CB4/4A4/2B1KA3 w", rules="cxa")
>>> for text in "c9c4 e8e9 c4c9 e9e8 c9c4 e8e9 c4c9".split():
...     _ = game.push_iccs(text)
>>> ruling = game.push_iccs("e9e8")
>>> ruling.result, "".join(ruling.labels), ruling.article
('1/2-1/2', '闲闲将闲闲闲将闲', 'CXA-24.14')
"""

from __future__ import annotations

from xqadj.board import Board, Move
from xqadj.rules.base import StepLabel, Watch
from xqadj.rules.cxa.judge import SideJudgement, decide, judge_cycle, judge_side
from xqadj.rules.cxa.labels import (
    ATTACKING,
    BLOCK,
    CHASE,
    CHECK,
    EXCHANGE,
    FOLLOW,
    IDLE,
    KILL,
    OFFER,
    MoveLabel,
    classify_move,
    mating_line,
)
from xqadj.rules.cxa.search import Gain, gains_of, mates_by_checks, piece_value, threatens_mate
from xqadj.rules.cxa.watch import ForbiddenRunWatch
from xqadj.rules.ruling import Ruling, Threat

__all__ = [
    "ATTACKING",
    "BLOCK",
    "CHASE",
    "CHECK",
    "EXCHANGE",
    "FOLLOW",
    "IDLE",
    "KILL",
    "OFFER",
    "PROFILE",
    "CxaProfile",
    "ForbiddenRunWatch",
    "Gain",
    "MoveLabel",
    "SideJudgement",
    "classify_move",
    "decide",
    "gains_of",
    "judge_cycle",
    "judge_side",
    "mates_by_checks",
    "mating_line",
    "piece_value",
    "threatens_mate",
]


class CxaProfile:
    """The CXA 2020 profile: its move labels, its judgement of a cycle and, with the
    ``forbidden_run`` option, the forbidden-run watch."""

    name = "cxa"
    title = "CXA 2020 rules (Chinese Xiangqi Association)"
    options = frozenset({"forbidden_run"})

    def judge_cycle(self, board: Board, length: int) -> Ruling:
        return judge_cycle(board, length)

    def label_move(
        self, board: Board, move: Move, ruling: Ruling | None = None, index: int = 0
    ) -> StepLabel:
        """将 杀 捉 兑 献 拦 跟 闲 (the ruling's label when it has one) with, for a 捉, each piece
        that takes part in winning material and the most valuable piece it wins.  A CXA ruling
        keeps only labels, so the move is classified again (the same deterministic
        look-ahead).  A 兑 carries the pair it offers, a 拦 the check it stands in the way of,
        a 杀 the mating line it threatens (:func:`mating_line`, found again here: the labels
        need only its existence)."""
        info = classify_move(board, move)
        label = info.label
        if ruling is not None and index < len(ruling.labels):
            label = ruling.labels[index]
        # Gain squares are those of the position after the move, which the look-ahead probes.
        chases = tuple(
            dict.fromkeys(
                Threat(capturer, gain.target) for gain in info.gains for capturer in gain.capturers
            )
        )
        line: tuple[Move, ...] = ()
        if label == KILL:
            board.push(move)
            try:
                with board.passed_turn():
                    line = mating_line(board)
            finally:
                board.pop()
        elif label == BLOCK and info.blocked is not None:
            line = (info.blocked,)
        pair = info.pair if label == EXCHANGE else None
        return StepLabel(label, chases, pair=pair, line=line)

    def watchers(self, forbidden_run: bool = False) -> tuple[Watch, ...]:
        return (ForbiddenRunWatch(),) if forbidden_run else ()


PROFILE = CxaProfile()
