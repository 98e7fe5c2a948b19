"""The CXA profile's forbidden-run watch (参考图8).

A non-repeating run of forbidden moves by one piece is ruled as a cycle would be.

Layer: rules (the CXA profile).
"""

from __future__ import annotations

from itertools import pairwise

from xqadj.board import (
    Board,
)
from xqadj.rules.cxa.judge import _judge_span
from xqadj.rules.cxa.labels import ATTACKING, _Classifier
from xqadj.rules.cxa.search import _MEMO_LIMIT
from xqadj.rules.ruling import Ruling

# -- the non-repeating forbidden run (参考图8) ------------------------------------------------

#: A side that plays this many forbidden moves (将, 杀, 捉) in a row ...
RUN_MOVES = 9
#: ... by one piece landing on at least this many different squares is judged as if it had
#: repeated ("在三个或三个以上点上，连续以禁止着法达九个回合"; docs/cxa.md).
RUN_SQUARES = 3


class ForbiddenRunWatch:
    """The rule of 参考图8, off by default (``Game(..., forbidden_run=True)``): a side whose last
    :data:`RUN_MOVES` moves are all made by one piece, all forbidden, and land on
    :data:`RUN_SQUARES` or more squares is judged, with the other side's moves in between, as
    a cycle would be (:func:`decide`).

    It is ruled only when that side is the one that must vary; otherwise play goes on.  The
    one-piece test comes first and costs nothing; only a run that passes it is classified
    (with look-ahead, each (position, move) once).  The rule does not exist under the AXF
    rules, where the watch is not used.
    """

    def __init__(self) -> None:
        self._classifier = _Classifier()

    def check(self, board: Board) -> Ruling | None:
        """The ruling the last move causes, if it completes a forbidden run."""
        span = 2 * RUN_MOVES - 1
        if len(board.move_stack) < span:
            return None
        if len(self._classifier.memo) > _MEMO_LIMIT:
            self._classifier.memo.clear()
        stack = board.move_stack
        run = stack[-span::2]
        # One piece, followed as it moves ("走子…在三个或三个以上点上"): each move starts where
        # the one before ended.  Checked first, as it costs no classification.
        if any(later.from_square != earlier.to_square for earlier, later in pairwise(run)):
            return None
        landings = {move.to_square for move in run}
        if len(landings) < RUN_SQUARES:
            return None
        work = board.copy()
        for index in range(span):
            move = work.pop()
            if index % 2:
                continue  # the other side's move: judged with the run, not part of it
            if self._classifier.classify(work, move).label not in ATTACKING:
                return None  # newest first, so an allowed move ends the search at once
        ruling = _judge_span(
            board,
            span,
            self._classifier,
            f"a side played {RUN_MOVES} forbidden moves in a row on {len(landings)} squares "
            f"by ply {board.ply} (参考图8)",
            heading="Run",
        )
        return ruling if ruling.offender == 1 - board.turn else None
