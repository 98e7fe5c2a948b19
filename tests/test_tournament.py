"""Engine settings, schedules and the tally (xqadj.integrations.tournament)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xqadj.integrations.stats import Pentanomial, Trinomial
from xqadj.integrations.timecontrol import TimeControl
from xqadj.integrations.tournament import (
    EngineConfig,
    ScheduledGame,
    Tally,
    engine_configs,
    game_points,
    parse_settings,
    schedule,
)


def test_engine_settings():
    (first, second) = engine_configs(
        [
            ["cmd=/usr/games/fairy-stockfish", "name=FS", "option.Hash=32", "depth=3"],
            ["cmd=./eng --fast", "args=-x 'a b'", "dir=/tmp", "proto=ucci", "st=0.5"],
        ],
        each=["tc=10+0.1", "timemargin=50", "option.Threads=1"],
    )
    assert first == EngineConfig(
        "FS",
        ("/usr/games/fairy-stockfish",),
        time_control=TimeControl.parse("10+0.1"),
        timemargin_ms=50,
        depth=3,
        options={"Threads": "1", "Hash": "32"},
    )
    assert first.limits_text() == "tc=10+0.1 depth=3"
    assert second.command == ("./eng", "--fast", "-x", "a b")
    assert second.name == "eng" and second.protocol == "ucci"
    assert second.directory == Path("/tmp")
    # The engine's own st= replaces the shared tc=; both in one engine's settings clash.
    assert second.time_control == TimeControl.fixed("0.5")
    assert second.limits_text() == "st=0.5" and second.timemargin_ms == 50
    with pytest.raises(ValueError, match="engine 2: .*tc= or st="):
        engine_configs([["cmd=a"], ["cmd=b", "st=1", "tc=10"]])


def test_each_is_overridden_by_the_engine():
    configs = engine_configs([["cmd=a", "tc=5+0.05"], ["cmd=b"]], each=["tc=10+0.1", "depth=4"])
    assert [c.time_control.text() for c in configs] == ["5+0.05", "10+0.1"]
    assert [c.depth for c in configs] == [4, 4]


def test_names_are_made_unique():
    names = [c.name for c in engine_configs([["cmd=x"], ["cmd=x"], ["cmd=y", "name=x"]])]
    assert names == ["x", "x (2)", "x (3)"]


@pytest.mark.parametrize(
    "engines,each,message",
    [
        ([["cmd=a"]], [], "at least 2"),
        ([["name=a"], ["cmd=b"]], [], "engine 1: an engine needs cmd"),
        ([["cmd=a", "proto=xboard"], ["cmd=b"]], [], "proto"),
        ([["cmd=a", "notation=wxf"], ["cmd=b"]], [], "notation"),
        ([["cmd=a", "proto=ucci", "notation=fairy"], ["cmd=b"]], [], "UCCI"),
        ([["cmd=a", "depth=0"], ["cmd=b"]], [], "depth must be at least 1"),
        ([["cmd=a", "nodes=many"], ["cmd=b"]], [], "whole number"),
        ([["cmd=a", "timemargin=-5"], ["cmd=b"]], [], "timemargin"),
        ([["cmd=a", "tc=fast"], ["cmd=b"]], [], "time control"),
        ([["cmd=a", "ponder"], ["cmd=b"]], [], "key=value"),
        ([["cmd=a", "hash=1"], ["cmd=b"]], [], "unknown engine setting 'hash'"),
        ([["cmd=a"], ["cmd=b"]], ["speed=1"], "unknown --each setting"),
        ([["cmd=a", "option.=1"], ["cmd=b"]], [], "needs a name"),
        ([["cmd=a", "cmd="], ["cmd=b"]], [], "needs cmd"),
    ],
)
def test_bad_settings(engines, each, message):
    with pytest.raises(ValueError, match=message):
        engine_configs(engines, each)


def test_parse_settings_keeps_options():
    assert parse_settings(["option.Skill Level=3", "cmd=x y"]) == {
        "option.Skill Level": "3",
        "cmd": "x y",
    }


def test_head_to_head_pairs():
    games = schedule(2, rounds=3)
    assert [(g.red, g.black) for g in games] == [(0, 1), (1, 0)] * 3
    assert [g.encounter for g in games] == [0, 0, 1, 1, 2, 2]
    assert [g.opening for g in games] == [0, 0, 1, 1, 2, 2]
    assert [g.leg for g in games] == [1, 2] * 3
    assert [g.number for g in games] == [1, 2, 3, 4, 5, 6]


def test_one_game_an_encounter_alternates_colours_by_round():
    games = schedule(2, rounds=4, games=1)
    assert [(g.red, g.black) for g in games] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert [g.opening for g in games] == [0, 1, 2, 3]


def test_gauntlet():
    games = schedule(4, "gauntlet", rounds=2)
    assert len(games) == 2 * 3 * 2
    assert all(0 in (g.red, g.black) for g in games)
    assert [(g.red, g.black) for g in games[:6]] == [(0, 1), (1, 0), (0, 2), (2, 0), (0, 3), (3, 0)]


def test_round_robin():
    games = schedule(4, "round-robin", rounds=1, games=2)
    pairings = Counter(frozenset((g.red, g.black)) for g in games)
    assert len(pairings) == 6 and set(pairings.values()) == {2}
    assert {g.round for g in games} == {1}


def test_limit_cuts_the_schedule():
    games = schedule(2, rounds=10, limit=5)
    assert len(games) == 5 and games[-1].leg == 1


@pytest.mark.parametrize(
    "args,message",
    [
        ((1,), "two engines"),
        ((2, "swiss"), "gauntlet or round-robin"),
        ((2, "gauntlet", 1, 3), "1 or 2"),
        ((2, "gauntlet", 0), "rounds"),
    ],
)
def test_bad_schedules(args, message):
    with pytest.raises(ValueError, match=message):
        schedule(*args)


@given(st.integers(2, 6), st.sampled_from(["gauntlet", "round-robin"]), st.integers(1, 4))
def test_every_encounter_is_played_with_both_colours(engines, tournament, rounds):
    """With --games 2, each encounter is two consecutive games, one opening, colours swapped;
    every engine has red as often as black."""
    games = schedule(engines, tournament, rounds, 2)
    by_encounter: dict[int, list[ScheduledGame]] = {}
    for game in games:
        by_encounter.setdefault(game.encounter, []).append(game)
    for pair in by_encounter.values():
        first, second = pair
        assert second.number == first.number + 1
        assert (first.red, first.black) == (second.black, second.red)
        assert first.opening == second.opening
    reds = Counter(g.red for g in games)
    blacks = Counter(g.black for g in games)
    assert reds == blacks
    assert [g.opening for g in games[::2]] == list(range(len(games) // 2))


def test_game_points():
    assert [game_points(r, True) for r in ("1-0", "0-1", "1/2-1/2", "*")] == [1, 0, 0.5, None]
    assert [game_points(r, False) for r in ("1-0", "0-1", "1/2-1/2")] == [0, 1, 0.5]


def test_tally_pairs_and_games():
    games = schedule(2, rounds=3)
    tally = Tally(2)
    # Round 1: engine 0 wins with red, draws with black: a 1.5 pair for engine 0.
    # Round 2: engine 1 wins both.  Round 3: only the first game is over.
    for game, result in zip(games, ["1-0", "1/2-1/2", "0-1", "1-0", "1-0"], strict=False):
        tally.add(game, result)
    assert tally.played == 5
    assert tally.trinomial(0, 1) == Trinomial(wins=2, draws=1, losses=2)
    assert tally.trinomial(1, 0) == Trinomial(wins=2, draws=1, losses=2)
    assert tally.pentanomial(0, 1) == Pentanomial(ll=1, wd=1)
    assert tally.pentanomial(1, 0) == Pentanomial(ww=1, ld=1)
    tally.add(games[5], "*")  # unfinished: not counted, the pair stays open
    assert tally.played == 5 and tally.pentanomial(0, 1).pairs == 2
    assert tally.total(0) == Trinomial(2, 1, 2)


def test_tally_without_pairs():
    tally = Tally(3, games_per_encounter=1)
    for game in schedule(3, rounds=2, games=1):
        tally.add(game, "1-0")
    assert tally.pentanomial(0, 1).pairs == 0
    assert tally.total(0).games == 4
    assert sum(tally.total(e).points for e in range(3)) == 6
