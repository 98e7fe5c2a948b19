"""Time controls, clocks and the UCI/UCCI search commands (xqadj.integrations.timecontrol)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xqadj.integrations.timecontrol import (
    Clock,
    TimeControl,
    format_seconds,
    move_comment,
    pgn_time_control,
    ucci_go,
    uci_go,
)


@pytest.mark.parametrize(
    "text,moves,time_ms,increment_ms,canonical",
    [
        ("40/60+0.6", 40, 60000, 600, "40/60+0.6"),  # cutechess-cli's example
        ("10+0.1", 0, 10000, 100, "10+0.1"),  # fastchess' usual SPRT control
        ("300", 0, 300000, 0, "300"),
        ("40/300", 40, 300000, 0, "40/300"),
        ("1:30+1", 0, 90000, 1000, "90+1"),
        ("40/1:00:00", 40, 3600000, 0, "40/3600"),
        ("0.5+0.05", 0, 500, 50, "0.5+0.05"),
    ],
)
def test_parse(text, moves, time_ms, increment_ms, canonical):
    control = TimeControl.parse(text)
    assert (control.moves, control.time_ms, control.increment_ms) == (moves, time_ms, increment_ms)
    assert control.movetime_ms is None
    assert control.text() == canonical
    assert TimeControl.parse(control.text()) == control


@pytest.mark.parametrize(
    "text", ["", "abc", "0", "40/0+1", "0/60", "60+", "60+x", "/60", "1:2:3:4", "60++1", "inf+1"]
)
def test_parse_rejects(text):
    with pytest.raises(ValueError):
        TimeControl.parse(text)


def test_fixed_time():
    control = TimeControl.fixed("0.5")
    assert control.movetime_ms == 500 and control.text() == "0.5/move"
    for bad in ("0", "-1", "x", ""):
        with pytest.raises(ValueError):
            TimeControl.fixed(bad)


def test_clock_sudden_death_with_increment():
    clock = Clock(TimeControl.parse("10+0.1"))
    assert clock.allowed_ms() == 10100  # the increment is given for the first move too
    assert clock.punch(2500)
    assert clock.remaining_ms == 7700 and clock.moves_to_go is None and clock.last_ms == 2500


def test_clock_repeating_period():
    """40 moves in 60 s: after the 40th move the clock gets 60 s more; left-over time stays."""
    clock = Clock(TimeControl.parse("40/60"))
    for _ in range(39):
        assert clock.punch(1000)
    assert clock.moves_to_go == 1 and clock.remaining_ms == 21000
    assert clock.punch(1000)
    assert clock.moves_to_go == 40 and clock.remaining_ms == 80000


def test_flag_falls_beyond_the_margin_only():
    clock = Clock(TimeControl.parse("1+0"), margin_ms=50)
    assert clock.allowed_ms() == 1050
    assert not clock.punch(1051)
    assert clock.remaining_ms == 1000  # left as it was: the game is over
    assert clock.punch(1050)  # within the margin: on time, the clock shows zero
    assert clock.remaining_ms == 0
    assert not Clock(TimeControl.parse("1")).punch(1001)


def test_fixed_time_clock():
    clock = Clock(TimeControl.fixed("0.2"), margin_ms=10)
    assert clock.allowed_ms() == 210
    assert clock.punch(210) and clock.punch(5)  # unused time is not kept
    assert clock.allowed_ms() == 210
    assert not clock.punch(211)


def test_first_move_gets_the_increment_as_cutechess_and_fastchess_give_it():
    """``1+0.01``: the first move may take 1010 ms (both tools start the clock at time plus
    increment); a move of 1011 ms loses, and the increment comes again after every move."""
    assert Clock(TimeControl.parse("1+0.01")).allowed_ms() == 1010
    assert Clock(TimeControl.parse("1+0.01")).punch(1010)
    assert not Clock(TimeControl.parse("1+0.01")).punch(1011)
    clock = Clock(TimeControl.parse("1+0.01"))
    assert clock.punch(10) and clock.remaining_ms == 1010
    assert Clock(TimeControl.parse("40/60")).allowed_ms() == 60000  # no increment, no change


def test_margin_must_not_be_negative():
    with pytest.raises(ValueError):
        Clock(TimeControl.parse("10"), margin_ms=-1)


def test_uci_go():
    red = Clock(TimeControl.parse("10+0.1"))
    black = Clock(TimeControl.parse("10+0.1"))
    assert red.punch(1000)
    assert uci_go(red, black, red_to_move=False) == "go wtime 9200 btime 10100 winc 100 binc 100"
    periods = Clock(TimeControl.parse("40/60")), Clock(TimeControl.parse("40/60"))
    assert periods[0].punch(500)
    assert uci_go(*periods, red_to_move=True) == (
        "go wtime 59500 btime 60000 winc 0 binc 0 movestogo 39"
    )
    assert uci_go(*periods, red_to_move=False).endswith("movestogo 40")
    fixed = Clock(TimeControl.fixed("0.25"))
    assert uci_go(fixed, black, red_to_move=True) == "go movetime 250"
    # The opponent on a fixed time a move has no clock to report.
    assert uci_go(fixed, black, red_to_move=False) == "go btime 10100 binc 100"
    assert uci_go(None, black, red_to_move=False) == "go btime 10100 binc 100"
    with pytest.raises(ValueError):
        uci_go(None, black, red_to_move=True)


def test_ucci_go_milliseconds_and_seconds():
    own = Clock(TimeControl.parse("300+0"))
    opponent = Clock(TimeControl.parse("300+0"))
    assert own.punch(5000)
    # The UCCI specification's own example: "go time 300000 increment 0" (5 minutes, ms).
    assert ucci_go(opponent, None, milliseconds=True) == "go time 300000 increment 0"
    assert ucci_go(own, opponent, milliseconds=True) == (
        "go time 295000 increment 0 opptime 300000 oppincrement 0"
    )
    assert ucci_go(own, opponent, milliseconds=False) == (
        "go time 295 increment 0 opptime 300 oppincrement 0"
    )
    sub_second = Clock(TimeControl.parse("0.9+0.5"))
    assert ucci_go(sub_second, None, milliseconds=False) == "go time 1 increment 0"


def test_ucci_go_periods_and_fixed_time():
    own = Clock(TimeControl.parse("40/120+1"))
    opponent = Clock(TimeControl.parse("30/60"))
    # A period wins over an increment: UCCI takes one or the other.
    assert ucci_go(own, opponent, milliseconds=True) == (
        "go time 121000 movestogo 40 opptime 60000 oppmovestogo 30"
    )
    fixed = Clock(TimeControl.fixed("2"))
    assert ucci_go(fixed, opponent, milliseconds=True) == "go time 2000 movestogo 1"
    assert ucci_go(fixed, opponent, milliseconds=False) == "go time 2 movestogo 1"
    assert ucci_go(opponent, fixed, milliseconds=True) == "go time 60000 movestogo 30"


def test_pgn_tags():
    tc = TimeControl.parse("40/60+0.6")
    assert pgn_time_control(tc, tc) == [("TimeControl", "40/60+0.6")]
    assert pgn_time_control(tc, TimeControl.fixed("1")) == [
        ("RedTimeControl", "40/60+0.6"),
        ("BlackTimeControl", "1/move"),
    ]
    assert pgn_time_control(None, None) == []
    assert pgn_time_control(tc, None) == [
        ("RedTimeControl", "40/60+0.6"),
        ("BlackTimeControl", "-"),
    ]


def test_move_comment():
    assert move_comment(1234, 58766, "+0.45", 12) == "+0.45/12 1.234s [%clk 0:00:58.7]"
    assert move_comment(61, 3_723_400) == "0.061s [%clk 1:02:03.4]"
    assert move_comment(500, None, "-M2") == "-M2 0.500s"


@given(st.integers(1, 100), st.integers(1, 10**6), st.integers(0, 10**5))
def test_text_round_trips(moves, time_ms, increment_ms):
    control = TimeControl(moves, time_ms, increment_ms)
    assert TimeControl.parse(control.text()) == control
    assert format_seconds(time_ms) != ""


@given(
    st.integers(1, 60),
    st.integers(1000, 10**6),
    st.integers(0, 5000),
    st.lists(st.integers(0, 3000), min_size=1, max_size=200),
)
def test_clock_accounting(moves, time_ms, increment_ms, spent):
    """While the flag stands, the clock shows the time given (the first period, the
    increments, the periods completed) minus the time used, and never less than zero."""
    control = TimeControl(moves, time_ms, increment_ms)
    clock = Clock(control)
    given_ms, used_ms = time_ms + increment_ms, 0
    for count, spent_ms in enumerate(spent, 1):
        allowed = clock.allowed_ms()
        if not clock.punch(spent_ms):
            assert spent_ms > allowed
            return
        used_ms += spent_ms
        given_ms += increment_ms + (time_ms if count % moves == 0 else 0)
        assert clock.remaining_ms == given_ms - used_ms >= 0
        assert clock.moves_to_go == moves - count % moves
