"""Every line of the AXF/WXF rulebook case file, through the library API.

``tests/data/axf-cases.tsv`` (sources in ``tests/data/README.md``): from the diagram's position,
the listed moves are played one by one; no ruling may fall before ``ruling_ply``, and at
``ruling_ply`` the ruling must be the listed result.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from xqadj import Game, Reason

CASES = Path(__file__).resolve().parent / "data" / "axf-cases.tsv"


def load_cases() -> list[dict[str, str]]:
    with CASES.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.mark.parametrize("case", load_cases(), ids=lambda case: case["id"])
def test_rulebook_case(case: dict[str, str]) -> None:
    game = Game(case["fen"])
    moves = case["moves"].split()
    ruling_ply = int(case["ruling_ply"])
    assert len(moves) == ruling_ply, "a case line ends at its ruling"
    for ply, text in enumerate(moves, 1):
        ruling = game.push_iccs(text)
        if ply < ruling_ply:
            assert ruling is None, f"ruled {ruling} at ply {ply}, before ply {ruling_ply}"
    assert ruling is not None, "no ruling at the ruling ply"
    assert (ruling.ply, ruling.result) == (ruling_ply, case["result"])
    if ruling.result == "1/2-1/2":
        assert ruling.reason is Reason.REPETITION and ruling.offender is None
    else:
        assert ruling.reason in (Reason.PERPETUAL_CHECK, Reason.PERPETUAL_CHASE)
        assert ruling.offender == (0 if ruling.result == "0-1" else 1)
    explanation = ruling.explain()
    assert ruling.result in explanation and ruling.reason.value in explanation
    assert len(ruling.classifications) == len(ruling.cycle) > 0


def test_the_case_file_is_the_shared_one() -> None:
    """The copy must not drift from the project's case file, where that is present."""
    shared = Path(__file__).resolve().parents[2] / "shared" / "cases" / "axf-cases.tsv"
    if shared.exists():
        assert shared.read_text(encoding="utf-8") == CASES.read_text(encoding="utf-8")
    assert len(load_cases()) == 141
