"""xqadj.integrations.standings: the pairing block, the standings of a tournament, the
terminations per engine and the forfeit warning, checked against counts done by hand and with
independently written formulas."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xqadj.integrations.standings import (
    FORFEIT_WARNING_SHARE,
    Outcome,
    forfeit_kind,
    forfeit_warnings,
    pairing_lines,
    standings,
    standings_lines,
    termination_lines,
    terminations,
)
from xqadj.integrations.stats import Pentanomial, Trinomial
from xqadj.integrations.tournament import Tally, schedule


def test_pairing_lines_say_what_they_count() -> None:
    """W/L/D count all 5 games; the Elo counts only the 2 complete pairs, and says so."""
    lines = pairing_lines("A", "B", Trinomial(3, 1, 1), Pentanomial(ld=1, ww=1))
    assert lines[0].startswith("Results of A vs B, all 5 games: 3 wins, 1 losses, 1 draws")
    assert lines[1] == (
        "  Elo from the 2 complete pairs (4 games; 1 game unpaired, left out):"
    )
    assert lines[3] == "  Ptnml(0-2): [0, 1, 0, 0, 1]"
    unpaired = pairing_lines("A", "B", Trinomial(1, 1, 1), None)
    assert unpaired[1] == "  Elo from the 3 games:" and len(unpaired) == 3
    no_pair_yet = pairing_lines("A", "B", Trinomial(1, 0, 0), Pentanomial())
    assert no_pair_yet[1] == (
        "  Elo from the 1 game (no complete pair yet), all the same result: no error bar:"
    )


def test_a_clean_sweep_prints_no_infinite_elo() -> None:
    lines = pairing_lines("A", "B", Trinomial(wins=4), Pentanomial(ww=2))
    assert lines[2] == "  Elo: n/a, nElo: n/a, LOS: 100.00 %"
    assert "no error bar" in lines[1]


def _round_robin_tally(results: dict[tuple[int, int], list[str]]) -> tuple[Tally, int]:
    """A three-engine round-robin, two rounds of pairs: the game results by pairing."""
    games = schedule(3, "round-robin", rounds=2, games=2)
    tally = Tally(3, 2)
    seen: dict[tuple[int, int], int] = {}
    for game in games:
        key = (min(game.red, game.black), max(game.red, game.black))
        index = seen.get(key, 0)
        seen[key] = index + 1
        tally.add(game, results[key][index])
    return tally, len(games)


def test_standings_of_a_round_robin() -> None:
    # Results in schedule order; each pairing plays A-B, B-A, A-B, B-A (lower engine red first).
    tally, played = _round_robin_tally(
        {
            (0, 1): ["1-0", "1/2-1/2", "1/2-1/2", "0-1"],  # A 3, B 1
            (0, 2): ["1/2-1/2", "1-0", "1/2-1/2", "1/2-1/2"],  # A 1.5, C 2.5
            (1, 2): ["0-1", "1/2-1/2", "1/2-1/2", "1/2-1/2"],  # B 1.5, C 2.5
        }
    )
    names = ["A", "B", "C"]
    table = standings(names, [tally.total(i) for i in range(3)])
    points = {s.engine: s.games.points for s in table}
    assert points == {"A": 4.5, "B": 2.5, "C": 5.0}
    assert sum(points.values()) == played  # every game hands out one point
    assert [(s.rank, s.engine) for s in table] == [(1, "C"), (2, "A"), (3, "B")]
    for s in table:
        # The logistic Elo of the score, written out independently.
        score = s.games.points / s.games.games
        assert s.estimate.elo == pytest.approx(-400 * math.log10(1 / score - 1))
    lines = standings_lines(table)
    assert lines[1].split() == ["Rank", "Engine", "Games", "Score", "Elo", "vs", "field", "Draws"]
    assert lines[2].split()[:4] == ["1", "C", "8", "5"]
    assert "(62.5 %)" in lines[2]


def test_equal_scores_share_a_rank_and_idle_engines_come_last() -> None:
    table = standings(
        ["A", "B", "C", "D"], [Trinomial(1, 0, 1), Trinomial(), Trinomial(0, 2, 0), Trinomial(2)]
    )
    assert [(s.rank, s.engine) for s in table] == [(1, "D"), (2, "A"), (2, "C"), (4, "B")]
    assert standings_lines(table)[-1].split()[:3] == ["4", "B", "0"]


@given(st.lists(st.tuples(*[st.integers(0, 20)] * 3), min_size=2, max_size=6))
def test_standings_are_ordered_by_score(counts: list[tuple[int, int, int]]) -> None:
    totals = [Trinomial(*c) for c in counts]
    table = standings([f"E{i}" for i in range(len(totals))], totals)
    played = [s for s in table if s.games.games]
    assert all(a.games.score >= b.games.score for a, b in pairwise(played))
    assert all(a.rank <= b.rank for a, b in pairwise(table))
    assert sorted(s.engine for s in table) == sorted(f"E{i}" for i in range(len(totals)))


GAMES = [
    Outcome("A", "B", "1-0", "checkmate"),
    Outcome("B", "A", "1-0", "time forfeit"),
    Outcome("A", "C", "0-1", "forfeit (crash)"),
    Outcome("C", "A", "1/2-1/2", "repetition"),
    Outcome("B", "C", "0-1", "perpetual-chase"),
    Outcome("C", "B", "1-0", "forfeit (illegal-move)"),
    Outcome("A", "B", "*", ""),  # unfinished: not counted
    Outcome("A", "X", "1-0", "checkmate"),  # not an engine of this match
    Outcome("B", "A", "1/2-1/2", ""),  # resumed from a PGN without a Termination tag
]


def test_terminations_per_engine() -> None:
    a, b, c = terminations(["A", "B", "C"], GAMES)
    assert (dict(a.wins), dict(a.losses), dict(a.draws)) == (
        {"checkmate": 1},
        {"time": 1, "crash": 1},
        {"repetition": 1, "earlier (resumed)": 1},
    )
    assert (a.games, a.forfeits_lost, a.forfeits_won) == (5, 2, 0)
    assert dict(b.wins) == {"time": 1} and dict(b.losses) == {
        "checkmate": 1,
        "perpetual-chase": 1,
        "illegal-move": 1,
    }
    assert (b.forfeits_lost, b.forfeits_won) == (1, 1)
    assert dict(c.wins) == {"crash": 1, "perpetual-chase": 1, "illegal-move": 1}
    assert (c.forfeits_lost, c.forfeits_won) == (0, 2)
    # Every decided game is one engine's win and another's loss.
    assert sum(sum(e.wins.values()) for e in (a, b, c)) == sum(
        sum(e.losses.values()) for e in (a, b, c)
    )
    lines = termination_lines([a, b, c])
    assert lines[1] == (
        "  A (5 games): wins 1 checkmate; losses 1 time, 1 crash; "
        "draws 1 repetition, 1 earlier (resumed)"
    )


def test_forfeit_kinds() -> None:
    assert [forfeit_kind(t) for t in ["time forfeit", "forfeit (timeout)", "adjudication", ""]] == [
        "time",
        "timeout",
        None,
        None,
    ]


def test_a_warning_when_forfeits_are_a_large_share() -> None:
    """200 games of which 30 lost on time by B: both engines' results are a tenth or more
    forfeits, so both get the warning; at 19 of 200 (9.5 %) neither does."""

    def games(forfeits: int) -> list[Outcome]:
        played = [Outcome("A", "B", "1-0", "time forfeit")] * forfeits
        return played + [Outcome("B", "A", "1/2-1/2", "repetition")] * (200 - forfeits)

    warned = forfeit_warnings(terminations(["A", "B"], games(30)))
    assert len(warned) == 2
    assert warned[1] == (
        "warning: 30 of the 200 games of B (15 %) ended by forfeit (30 lost by B: 30 time): "
        "its score and Elo measure these failures, not only its play"
    )
    assert "30 won by its opponents' forfeit" in warned[0]
    assert forfeit_warnings(terminations(["A", "B"], games(19))) == []
    assert forfeit_warnings(terminations(["A", "B"], games(20))) != []  # exactly the threshold
    assert FORFEIT_WARNING_SHARE == 20 / 200
    assert forfeit_warnings(terminations(["A", "B"], games(19)), threshold=0.05) != []
