"""The interface a rules profile provides (:class:`Profile`) and that of its watchers.

A watcher (:class:`Watch`) is a ruling a profile may look for on every move.

Layer: rules (imports the core and :mod:`xqadj.rules.ruling` only).  A profile is a module
under :mod:`xqadj.rules` with a ``PROFILE`` object of this shape, listed once in
:data:`xqadj.rules.PROFILES`; the referee, the protocol's ``Rules`` option and the command
line's ``--rules`` all read that registry.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from xqadj.board import Board, Move
from xqadj.rules.ruling import Attack, Ruling, Threat


class StepLabel(NamedTuple):
    """A move as a profile names it: the rulebook's ``label`` (AXF: 将 捉 闲; CXA: 将 杀 捉 兑 献
    拦 跟 闲) and the ``chases`` it makes, as (attacker, victim) squares after the move; AXF also
    gives the ``attacks`` with their reasons (:attr:`~xqadj.rules.ruling.MoveClass.attacks`).

    What a picture draws beside them (CXA only; empty for AXF): ``pair``, for 兑, the squares
    after the move of the piece offered and of the opponent's piece of the same type facing it;
    ``line``, for 杀, the mating line threatened (checks and replies, played from the position
    after the move as if the opponent passed), for 拦, the one opponent's checking move that
    the moved piece stands in the way of."""

    label: str
    chases: tuple[Threat, ...] = ()
    attacks: tuple[Attack, ...] = ()
    pair: tuple[int, int] | None = None
    line: tuple[Move, ...] = ()


class Watch(Protocol):
    """A ruling looked for after every move, beside repetitions and mates (CXA: the forbidden
    run).  It may keep state across moves; it must not change the board."""

    def check(self, board: Board) -> Ruling | None:
        """The ruling the board's last move causes, if any."""
        ...


class Profile(Protocol):
    """A rules profile: what the referee asks of it.

    ``name`` is the registry key (``Rules`` / ``--rules`` value); ``title`` a short description
    for help texts; ``options`` the names of the :class:`xqadj.referee.Game` options beyond the
    common ones that the profile honours (``forbidden_run``).
    """

    name: str
    title: str
    options: frozenset[str]

    def judge_cycle(self, board: Board, length: int) -> Ruling:
        """Rule the last ``length`` moves of ``board``'s move stack, which bring its position
        back for the third time.  :meth:`Ruling.explain` returns the ruling's ``explanation``
        when set, else builds one from the AXF ``classifications`` (their ``attacks``),
        ``verdicts`` and ``move_names``: a profile sets one or the other."""
        ...

    def label_move(
        self, board: Board, move: Move, ruling: Ruling | None = None, index: int = 0
    ) -> StepLabel:
        """Name the legal ``move`` of ``board``'s side to move (board unchanged); when it is
        move ``index`` of ``ruling``'s cycle, as that ruling saw it."""
        ...

    def watchers(self, forbidden_run: bool = False) -> tuple[Watch, ...]:
        """Fresh watchers for one game with these options; none for most profiles."""
        ...
