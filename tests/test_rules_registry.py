"""Issue 15's promise: a third rules profile is one new module and one line in
:data:`xqadj.rules.PROFILE_MODULES`; ``Game(rules=...)``, the protocol's ``Rules`` option and the
command line's ``--rules`` then all accept it with no other change.

The profile here rules every repetition a draw (a league's house rule).  Its module is put in
``sys.modules`` and its line in the registry for the test only.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from types import MappingProxyType

import pytest
from support import make_fen

import xqadj.rules
from xqadj.board import Board, Move
from xqadj.cli import build_parser
from xqadj.protocol import Session
from xqadj.referee import Game
from xqadj.rules.base import StepLabel, Watch
from xqadj.rules.ruling import Reason, Ruling

MODULE = "xqadj_test_house_rules"

#: Red's rook checks the black king on every move: perpetual check under AXF and CXA.
START = make_fen({"e0": "K", "h8": "R", "f9": "k"})
CYCLE = "h8h9 f9f8 h9h8 f8f9".split() * 2


class HouseRules:
    """Every repetition is a draw."""

    name = "house"
    title = "house rules: every repetition is a draw"
    options: frozenset[str] = frozenset()

    def judge_cycle(self, board: Board, length: int) -> Ruling:
        return Ruling(
            "1/2-1/2",
            Reason.REPETITION,
            board.ply,
            cycle=tuple(board.move_stack[-length:]),
            rules=self.name,
            explanation="House rules: every repetition is a draw.",
        )

    def label_move(
        self, board: Board, move: Move, ruling: Ruling | None = None, index: int = 0
    ) -> StepLabel:
        return StepLabel("闲")

    def watchers(self, forbidden_run: bool = False) -> tuple[Watch, ...]:
        return ()


@pytest.fixture
def house_rules(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    module = types.ModuleType(MODULE)
    module.PROFILE = HouseRules()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, MODULE, module)
    registry = {**xqadj.rules.PROFILE_MODULES, "house": MODULE}  # the one line
    monkeypatch.setattr(xqadj.rules, "PROFILE_MODULES", MappingProxyType(registry))
    yield "house"


def test_game_accepts_the_new_profile(house_rules: str) -> None:
    game = Game(START, rules=house_rules)
    rulings = [game.push_iccs(text) for text in CYCLE]
    ruling = rulings[-1]
    assert ruling is not None and rulings[:-1] == [None] * 7
    assert (ruling.result, ruling.reason, ruling.rules) == ("1/2-1/2", Reason.REPETITION, "house")
    axf = Game(START)
    assert [axf.push_iccs(text) for text in CYCLE][-1].result == "0-1"  # type: ignore[union-attr]


def test_protocol_rules_option_accepts_the_new_profile(house_rules: str) -> None:
    session = Session()
    handshake = session.handle("uci")
    assert any(line.startswith("option name Rules") and "var house" in line for line in handshake)
    assert session.handle(f"setoption name Rules value {house_rules}") == []
    out = session.handle(f"position fen {START} moves {' '.join(CYCLE)}")
    assert any(line.startswith("ruling result 1/2-1/2 reason repetition") for line in out), out


@pytest.mark.parametrize("command", ["match", "proxy", "replay", "show"])
def test_command_line_rules_accepts_the_new_profile(house_rules: str, command: str) -> None:
    required = {
        "match": ["--engine", "cmd=a", "--engine", "cmd=b"],
        "proxy": ["--", "engine"],
        "replay": ["game.pgn"],
        "show": ["startpos"],
    }[command]
    args = build_parser().parse_args([command, "--rules", house_rules, *required])
    assert args.rules == house_rules
