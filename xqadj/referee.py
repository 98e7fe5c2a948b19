"""The referee: a game ruled as it is played, under a rules profile (AXF/WXF by default).

A game ends at checkmate, stalemate, a forbidden or drawn repetition, or the move limit.

Layer: referee.  It imports the core and the rules profiles, these only through the registry
and interface of :mod:`xqadj.rules` (:func:`~xqadj.rules.get_profile`); it tracks repetitions and
asks the game's profile to judge a cycle.  The ruling types (:class:`Ruling`, :class:`Reason`, …)
live in :mod:`xqadj.rules.ruling` and are re-exported here.

The hot path (:meth:`Game.push`) costs a move, a hash update, a dictionary lookup and a cheap
mate/stalemate probe.  Moves are classified only when a position occurs for the third time.

>>> game = Game("c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w")
>>> for text in "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8".split():
...     game.push_iccs(text)
>>> ruling = game.push_iccs("f8f9")
>>> ruling.result, ruling.reason.value, ruling.ply, ruling.article
('0-1', 'perpetual-check', 8, 'art.6')
"""

from __future__ import annotations

from dataclasses import dataclass

from xqadj.board import STARTING_FEN, Board, Color, IllegalMoveError, Move
from xqadj.rules import PROFILES, Watch, get_profile
from xqadj.rules.ruling import (
    LEVEL_CHASE,
    LEVEL_CHECK,
    LEVEL_NONE,
    Attack,
    AttackReason,
    FakeRoot,
    MoveClass,
    Reason,
    Root,
    Ruling,
    SideReason,
    SideVerdict,
    Threat,
    result_for_loser,
)

__all__ = [
    "LEVEL_CHASE",
    "LEVEL_CHECK",
    "LEVEL_NONE",
    "RULE_SETS",
    "Attack",
    "AttackReason",
    "CycleStep",
    "Game",
    "FakeRoot",
    "GameOverError",
    "MoveClass",
    "Reason",
    "Root",
    "Ruling",
    "SideReason",
    "SideVerdict",
    "Threat",
    "cycle_start",
    "cycle_steps",
]

#: The names of the rules profiles (:data:`xqadj.rules.PROFILES`): ``axf`` (AXF/WXF, the
#: default) and ``cxa`` (Chinese Xiangqi Association 2020).
RULE_SETS: tuple[str, ...] = tuple(PROFILES)


class Game:
    """A game followed move by move, ruled as it goes.

    ``move_limit`` is the natural move limit in moves (pairs of plies) without a capture,
    0 for none.  ``forbidden_run`` turns on, under the CXA rules only, the ruling of a
    non-repeating run of forbidden moves (参考图8; :class:`xqadj.rules.cxa.ForbiddenRunWatch`): it
    classifies every move as it is played, so it is off by default.  :attr:`ruling` is set by
    the move that ends the game; further moves raise :class:`GameOverError` until :meth:`pop`
    reopens the game.
    """

    def __init__(
        self,
        fen: str = STARTING_FEN,
        rules: str = "axf",
        move_limit: int = 0,
        forbidden_run: bool = False,
    ) -> None:
        profile = get_profile(rules)  # ValueError naming the profiles for an unknown one
        if move_limit < 0:
            raise ValueError("move_limit must be 0 (off) or positive")
        self.board = Board(fen)
        # The usual start needs no formatting (it is already in the normal form fen() gives).
        self.start_fen = STARTING_FEN if fen == STARTING_FEN else self.board.fen()
        self.rules = rules
        self._move_limit = move_limit
        self._forbidden_run = forbidden_run
        self._profile = profile
        # The profile's rulings beyond repetitions and mates (CXA: the forbidden run), looked
        # for after every move, like the move limit, when any is on.
        self._watchers: tuple[Watch, ...] = profile.watchers(forbidden_run=forbidden_run)
        self._other_rules = bool(move_limit or self._watchers)
        self.ruling: Ruling | None = self._rule_static()

    @property
    def move_limit(self) -> int:
        """The natural move limit in moves (0: none); fixed when the game is made."""
        return self._move_limit

    @property
    def forbidden_run(self) -> bool:
        """Whether the non-repeating forbidden run is ruled; fixed when the game is made."""
        return self._forbidden_run

    @property
    def ply(self) -> int:
        return self.board.ply

    @property
    def moves(self) -> list[Move]:
        return self.board.move_stack

    def push(self, move: Move) -> Ruling | None:
        """Make a legal move and return the ruling it causes, if any.

        Raises :class:`IllegalMoveError` (board unchanged) for an illegal move and
        :class:`GameOverError` once the game has a ruling.
        """
        if self.ruling is not None:
            raise GameOverError(f"the game is over: {self.ruling}")
        board = self.board
        if not board.is_legal(move):
            raise IllegalMoveError(f"illegal move {move.iccs()} in {board.fen()}")
        board.push(move)
        if board.repetition_count() >= 3:
            self.ruling = self._rule_repetition()
        elif self._other_rules or not board.has_legal_move():
            # _rule_static() probes for a legal move itself: with other rules on, probe once.
            self.ruling = self._rule_static()
        return self.ruling

    def push_iccs(self, text: str) -> Ruling | None:
        """Push a move in ICCS notation (``'h2e2'``); see :meth:`push`."""
        return self.push(Move.from_iccs(text))

    def push_text(self, text: str, notation: str = "iccs") -> Ruling | None:
        """Push a move given as ``'iccs'`` (ranks 0–9) or ``'fairy'`` (ranks 1–10) text."""
        move = Move.from_fairy(text) if notation == "fairy" else Move.from_iccs(text)
        return self.push(move)

    def pop(self) -> Move:
        """Take back the last move; this reopens a finished game."""
        move = self.board.pop()
        # Moves are refused after a ruling, so the position before the last move had none.
        self.ruling = None
        return move

    # -- rulings -------------------------------------------------------------------------------

    def _rule_static(self) -> Ruling | None:
        """Checkmate, stalemate, the move limit and the forbidden run: the rulings that are not
        repetitions."""
        board = self.board
        if not board.has_legal_move():
            loser = board.turn
            reason = Reason.CHECKMATE if board.is_check() else Reason.STALEMATE
            article = "art.1" if reason is Reason.CHECKMATE else "art.2"
            return Ruling(result_for_loser(loser), reason, board.ply, loser, article)
        if board.move_stack:
            for watch in self._watchers:
                ruling = watch.check(board)
                if ruling is not None:
                    return ruling
        if self.move_limit and board.plies_since_capture() >= 2 * self.move_limit:
            return Ruling("1/2-1/2", Reason.MOVE_LIMIT, board.ply, None, "move-limit")
        return None

    def _rule_repetition(self) -> Ruling:
        board = self.board
        hashes = board.position_hashes_since_capture()
        first = hashes.index(board.zobrist_hash())
        length = len(hashes) - 1 - first
        return self._profile.judge_cycle(board, length)

    def banned_moves(self) -> list[Move]:
        """Legal moves that would make the side to move lose by rule at once."""
        if self.ruling is not None:
            return []
        board = self.board
        mover = board.turn
        banned = []
        for move in board.legal_moves():
            board.push(move)
            try:
                rulings: list[Ruling | None]
                if board.repetition_count() >= 3:
                    rulings = [self._rule_repetition()]
                else:
                    rulings = [watch.check(board) for watch in self._watchers]
                if any(r is not None and r.offender == mover for r in rulings):
                    banned.append(move)
            finally:
                board.pop()
        return banned


class GameOverError(IllegalMoveError):
    """A move was pushed after the game's ruling."""


# -- a ruling, move by move, for pictures and reports -------------------------------------------


@dataclass(frozen=True)
class CycleStep:
    """One move of a ruling's cycle, as the rules saw it: what a picture of the ruling draws.

    ``checks`` and ``chases`` are :class:`~xqadj.rules.ruling.Threat` pairs of squares *after* the
    move: the pieces giving check with the king they attack, and the chases the move makes
    (AXF: the classification's victims; CXA: for a 捉, each piece that takes part in winning
    material with the most valuable piece it wins).  ``label`` is the rulebook's word for the
    move: 将 捉 闲 under AXF (a move that checks and chases is 将 there and counts as both), the
    profile's label (将 杀 捉 兑 献 拦 跟 闲) under CXA.  ``pair`` and ``line`` are the profile's
    (:class:`xqadj.rules.base.StepLabel`): under CXA the pair a 兑 offers, the mating line a 杀
    threatens, the check a 拦 stands in the way of.
    """

    move: Move
    color: Color
    label: str
    checks: tuple[Threat, ...] = ()
    chases: tuple[Threat, ...] = ()
    #: AXF only (empty under CXA): the classification's :attr:`~xqadj.rules.ruling.MoveClass.
    #: attacks`, each with its :class:`~xqadj.rules.ruling.AttackReason` (why it is a chase, a
    #: check or neither) and the roots it names: what a caption or a mark can say of the move.
    attacks: tuple[Attack, ...] = ()
    pair: tuple[int, int] | None = None
    line: tuple[Move, ...] = ()


def cycle_start(board: Board, ruling: Ruling) -> Board:
    """A copy of ``board`` (the game's board when ``ruling`` fell) taken back to the start of
    the ruling's cycle: for a repetition, the first occurrence of the repeated position.  For a
    ruling without a cycle (checkmate, stalemate, move limit) the copy is the final position."""
    start = board.copy()
    for _ in ruling.cycle:
        start.pop()
    return start


def cycle_steps(board: Board, ruling: Ruling) -> list[CycleStep]:
    """Each move of ``ruling``'s cycle with its label, checks and chases (:class:`CycleStep`),
    for the game's ``board`` at the ruling.  The AXF classifications are the ruling's own; a
    CXA ruling keeps only labels, so its moves are classified again (the same deterministic
    look-ahead, :func:`xqadj.rules.cxa.classify_move`) for the pieces each 捉 wins."""
    work = cycle_start(board, ruling)
    steps = []
    profile = get_profile(ruling.rules)
    for index, move in enumerate(ruling.cycle):
        mover = work.turn
        named = profile.label_move(work, move, ruling, index)
        work.push(move)
        king = work.king_squares[work.turn]
        checks = tuple(Threat(attacker, king) for attacker in sorted(work.attackers(king, mover)))
        steps.append(
            CycleStep(
                move,
                mover,
                named.label,
                checks,
                named.chases,
                attacks=named.attacks,
                pair=named.pair,
                line=named.line,
            )
        )
    return steps
