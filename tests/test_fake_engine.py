"""The tests' one fake engine (tests/engines/fake_engine.py) does what its docstring says: every
flag is documented, the example runs as described, and one read loop serves UCI and UCCI."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from xqadj.board import Board

ENGINE = Path(__file__).resolve().parent / "engines" / "fake_engine.py"


def load() -> object:
    spec = importlib.util.spec_from_file_location("fake_engine", ENGINE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def talk(*flags: str, lines: list[str]) -> subprocess.CompletedProcess[str]:
    """The engine's answers to ``lines`` (then the end of its input)."""
    return subprocess.run(
        [sys.executable, str(ENGINE), *flags],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_every_flag_is_documented() -> None:
    module = load()
    documented = set(re.findall(r"``(--[a-z-]+)", module.__doc__ or ""))
    flags = {
        option
        for action in module.parser()._actions  # type: ignore[attr-defined]
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }
    assert flags - documented == set(), "flags missing from the docstring"
    assert documented - flags == set(), "documented flags it does not have"


def test_the_docstring_example() -> None:
    """Two script moves, then its first legal move, and status 3 at ply 5."""
    example = (load().__doc__ or "").split("python tests/engines/fake_engine.py ")[-1]
    flags = example.split("\n")[0].replace(" --log /tmp/in.txt", "")
    assert flags == '--script "h2e2 h9g7" --crash-at 5'
    # Its own moves make the game; each answer is checked against the position it was asked.
    board, lines = Board(), ["uci", "isready"]
    expected = []
    for ply in range(5):
        move = "h2e2 h9g7".split()[ply] if ply < 2 else board.legal_moves()[0].iccs()
        expected.append(f"bestmove {move}")
        board.push_iccs(move)
    moves = [line.split()[1] for line in expected]
    for ply in range(6):
        lines += [f"position startpos moves {' '.join(moves[:ply])}".rstrip(), "go depth 1"]
    run = talk("--script", "h2e2 h9g7", "--crash-at", "5", lines=lines)
    assert [line for line in run.stdout.splitlines() if line.startswith("bestmove")] == expected
    assert run.returncode == 3


@pytest.mark.parametrize(("hello", "ok"), [("uci", "uciok"), ("ucci", "ucciok")])
def test_one_read_loop_for_both_protocols(hello: str, ok: str) -> None:
    run = talk(
        "--name",
        "Fake 1",
        "--ponder",
        "--move-at",
        "1:h9g7:b0c2",
        lines=[hello, "position startpos moves h2e2", "go ponder", "ponderhit", "quit", "go"],
    )
    option = "option Ponder" if hello == "ucci" else "option name Ponder"
    assert run.stdout.splitlines() == [
        "id name Fake 1",
        "id author xqadj tests",
        f"{option} type check default false",
        ok,
        "bestmove h9g7 ponder b0c2",
    ]
    assert run.returncode == 0
