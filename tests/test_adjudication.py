"""Draw and resign adjudication from engine scores (xqadj.integrations.adjudication)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xqadj.integrations.adjudication import (
    MATE_SCORE,
    Adjudicator,
    DrawRule,
    ResignRule,
    SearchInfo,
    parse_info,
    parse_score,
)


def run(adjudicator: Adjudicator, scores, irreversible=()):
    """Feed scores ply by ply (red first); the first adjudication and its ply."""
    for ply, score in enumerate(scores, 1):
        verdict = adjudicator.after_move(ply, score, ply in irreversible)
        if verdict is not None:
            return ply, verdict
    return None


def test_parse_score():
    assert parse_score([]) is None
    assert parse_score(["info depth 3 seldepth 5 score cp 40 nodes 100 pv h2e2"]) == 40
    assert parse_score(["info score cp 5", "info currmove h2e2", "info string hi"]) == 5
    assert parse_score(["info depth 4 score cp 12 lowerbound"]) == 12
    assert parse_score(["info depth 9 score mate 2"]) == MATE_SCORE
    assert parse_score(["info score", "info score cp x", "info score wdl 1 2 3"]) is None
    assert parse_score(["bestmove h2e2", "info score cp 9"]) == 9


def test_parse_info():
    from xqadj.integrations.adjudication import SearchInfo, parse_info

    assert parse_info([]) == SearchInfo()
    assert parse_info(["info depth 12 score cp 45 pv h2e2", "info currmove b0c2"]) == (
        SearchInfo(45, "+0.45", 12)
    )
    assert parse_info(["info score mate -3"]) == SearchInfo(-MATE_SCORE, "-M3", None)
    assert parse_info(["info depth x score cp 0"]) == SearchInfo(0, "+0.00", None)


def test_ucci_score_without_cp_is_a_score():
    """UCCI's ``info … score N`` (ElephantEye, Fairy-Stockfish under ucci) has no ``cp``."""
    assert parse_score(["info depth 8 score -250 pv h2e2"]) == -250
    assert parse_info(["info depth 5 score 37 nodes 9", "info currmove h2e2"]) == SearchInfo(
        37, "+0.37", 5
    )
    assert parse_info(["info score +8"]) == SearchInfo(8, "+0.08", None)
    assert parse_score(["info score x", "info score -"]) is None


def test_draw_needs_quiet_scores_from_both_sides():
    rule = DrawRule(movenumber=0, movecount=3, score=20)
    ply, verdict = run(Adjudicator(rule, None), [10, -20, 5, 0, 19, -7, 300])
    assert ply == 6 and verdict.result == "1/2-1/2" and "within 20 cp" in verdict.reason
    # One score out of range starts the count again.
    assert run(Adjudicator(rule, None), [10, -21, 5, 0, 19, -7]) is None
    # So does a capture or a pawn move, and a move without a score.
    assert run(Adjudicator(rule, None), [0] * 6, irreversible={4}) is None
    assert run(Adjudicator(rule, None), [0, 0, None, 0, 0, 0]) is None


def test_draw_waits_for_the_move_number():
    rule = DrawRule(movenumber=10, movecount=1, score=0)
    ply, verdict = run(Adjudicator(rule, None), [0] * 30)
    assert ply == 19  # move 10 is plies 19 and 20; its first ply completes the count
    assert verdict.result == "1/2-1/2"


def test_resign_one_sided():
    rule = ResignRule(movecount=3, score=500)
    # Black (even plies) keeps seeing -500 or worse: black loses after its third such move.
    ply, verdict = run(Adjudicator(None, rule), [100, -500, 600, -900, 700, -MATE_SCORE])
    assert ply == 6 and verdict.result == "1-0" and "black's score" in verdict.reason
    # Red resigns in the same way.
    ply, verdict = run(Adjudicator(None, rule), [-600, 0, -600, 0, -600])
    assert ply == 5 and verdict.result == "0-1"
    # A better score in between breaks the count.
    assert run(Adjudicator(None, rule), [-600, 0, -499, 0, -600, 0, -600]) is None


def test_resign_two_sided_needs_the_winner_to_agree():
    rule = ResignRule(movecount=2, score=300, twosided=True)
    assert run(Adjudicator(None, rule), [-400, 0, -400, 0, -400]) is None
    ply, verdict = run(Adjudicator(None, rule), [-400, 350, -400, 350, -400])
    # Red's second losing move comes after black had one winning move: not yet; after black's
    # second winning move, red's third losing move resigns.
    assert ply == 5 and verdict.result == "0-1"


def test_red_moved_overrides_the_ply_parity():
    """A game from a FEN with black to move: its first ply is black's."""
    rule = ResignRule(movecount=1, score=100)
    verdict = Adjudicator(None, rule).after_move(1, -200, False, red_moved=False)
    assert verdict is not None and verdict.result == "1-0"


@pytest.mark.parametrize(
    "cls,text,message",
    [
        (DrawRule, "movecount=3", "needs score"),
        (DrawRule, "score=10", "needs movecount"),
        (DrawRule, "movecount=0 score=10", "at least 1"),
        (DrawRule, "movecount=2 score=-1", "at least 0"),
        (DrawRule, "movecount=2 score=ten", "whole number"),
        (DrawRule, "movecount=2 score=1 plies=3", "unknown --draw"),
        (ResignRule, "movecount=3 score=0", "at least 1"),
        (ResignRule, "movecount=3 score=600 twosided=yes", "twosided"),
        (ResignRule, "movecount", "key=value"),
    ],
)
def test_bad_rules(cls, text, message):
    with pytest.raises(ValueError, match=message):
        cls.parse(text)


def test_parse_rules():
    assert DrawRule.parse("movenumber=40 movecount=8 score=10") == DrawRule(40, 8, 10)
    assert DrawRule.parse(["movecount=8", "score=10"]).movenumber == 0
    assert ResignRule.parse("movecount=3 score=600 twosided=true") == ResignRule(3, 600, True)


scores = st.lists(st.one_of(st.none(), st.integers(-2000, 2000)), max_size=80)


@given(scores, st.integers(1, 5), st.integers(1, 800))
def test_resign_symmetry(sequence, movecount, threshold):
    """Swapping the colours (negating nothing: each score is from its mover's side) swaps the
    loser: the same scores one ply later, with a neutral first move, give the other result."""
    rule = ResignRule(movecount, threshold)
    first = run(Adjudicator(None, rule), sequence)
    second = run(Adjudicator(None, rule), [0, *sequence])
    if first is None:
        assert second is None
    else:
        assert second is not None and second[0] == first[0] + 1
        assert {first[1].result, second[1].result} == {"1-0", "0-1"}


@given(scores, st.integers(1, 5), st.integers(0, 300))
def test_draw_only_after_enough_quiet_plies(sequence, movecount, threshold):
    rule = DrawRule(0, movecount, threshold)
    verdict = run(Adjudicator(rule, None), sequence)
    if verdict is not None:
        ply, _ = verdict
        window = sequence[ply - 2 * movecount : ply]
        assert len(window) == 2 * movecount
        assert all(s is not None and abs(s) <= threshold for s in window)
