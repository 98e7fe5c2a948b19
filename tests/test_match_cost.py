"""The match's own cost a move does not grow with the game: counted, not timed.

A game of a few hundred plies between two scripted fake engines (tests/engines/fake_engine.py),
with the calls that cost per move counted: formatting a move for the ``position`` command, and
the writes to the engines (each a round trip's start).  Before issue 18's fix the whole move
list was formatted again before every ``go`` (plies²/2 formattings) and every move took three
writes and two round trips (``isready`` answered before the position was sent).  The times
themselves are bench/match_cost.py's business."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from bench.match_cost import long_game
from xqadj.board import Move
from xqadj.integrations.engine import Engine, EngineSpec, SearchLimit
from xqadj.integrations.match import EngineSlot, Opening, play_game

ENGINE = Path(__file__).resolve().parent / "engines" / "fake_engine.py"
PLIES = 300


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cost") / "game.txt"
    path.write_text(" ".join(long_game(PLIES)), encoding="utf-8")
    return path


def test_a_moves_cost_is_flat_in_the_games_length(
    script: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: Counter[str] = Counter()
    iccs, send = Move.iccs, Engine.send

    def counted_iccs(move: Move) -> str:
        calls["iccs"] += 1
        return iccs(move)

    def counted_send(engine: Engine, line: str, *more: str) -> None:
        calls["write"] += 1
        calls["lines"] += 1 + len(more)
        send(engine, line, *more)

    command = [sys.executable, str(ENGINE), "--script-file", str(script)]
    red, black = (
        EngineSlot(EngineSpec(command, name="A")),
        EngineSlot(EngineSpec(command, name="B")),
    )
    try:
        red.get(), black.get()
        monkeypatch.setattr(Move, "iccs", counted_iccs)
        monkeypatch.setattr(Engine, "send", counted_send)
        record = play_game(1, Opening(), red, black, SearchLimit(100), 0, PLIES)
        monkeypatch.undo()
    finally:
        red.close()
        black.close()
    assert record is not None and (record.termination, len(record.moves)) == ("max-plies", PLIES)
    assert [m.iccs() for m in record.moves] == script.read_text().split()
    # Each move is formatted once for the position text (once a notation in use).
    assert calls["iccs"] <= PLIES + 10, calls
    # One write a move (isready, position and go together) plus each engine's ucinewgame.
    assert calls["write"] <= PLIES + 4, calls
    assert calls["lines"] >= 3 * PLIES  # the same commands as before, fewer writes
