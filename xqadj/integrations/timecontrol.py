"""Time controls and chess clocks for ``xqadj match``, in cutechess-cli's conventions.

Layer: integrations.

A time control is written as cutechess-cli and fastchess take it, in seconds:

``tc=MOVES/TIME+INC``
    ``MOVES`` moves in ``TIME`` seconds, then the same again (``40/60+0.6``: 40 moves in a
    minute, 0.6 s added after each move).  ``TIME`` may also be ``M:SS`` or ``H:MM:SS``.
``tc=TIME+INC``, ``tc=TIME``
    The whole game in ``TIME`` seconds (``10+0.1``, ``300``).
``st=SECONDS``
    A fixed time for every move (``st=0.5``); unused time is not kept.

Each side has its own :class:`Clock`, possibly with its own control.  The clock runs from the
``go`` sent to the engine to its ``bestmove``; an engine whose move took longer than its time
left (or than ``st``) plus its ``timemargin`` loses on time.  A move within the margin leaves a
clock at zero.  Then the increment is added and, at the end of a ``MOVES`` period, ``TIME``
again.  The increment is also given before the first move, as cutechess-cli and fastchess
give it: ``10+0.1`` starts at 10.1 s.

The search command says what is on the clocks.  UCI (red is UCI's white: red's clock as
``wtime``, black's as ``btime``; ``movestogo`` is the side to move's)::

    go wtime 60000 btime 60600 winc 600 binc 600 movestogo 39      # tc=40/60+0.6
    go movetime 500                                                # st=0.5

UCCI (the specification, section 5.10: ``go time T [movestogo N | increment I] [opptime OT
[oppmovestogo ON | oppincrement OI]]``), where the time is in seconds unless the engine
announced ``option usemillisec`` and was sent ``setoption usemillisec true``, then in
milliseconds.  UCCI has no fixed time a move: ``st`` is sent as a one-move period
(``go time 500 movestogo 1``); nor both a period and an increment: the period is sent.  In
seconds, times are rounded down (a clock is never overstated)::

    go time 60000 increment 600 opptime 60600 oppincrement 600     # milliseconds
    go time 59 increment 0 opptime 60 oppincrement 0               # seconds

>>> control = TimeControl.parse("40/60+0.6")
>>> control.moves, control.time_ms, control.increment_ms, control.text()
(40, 60000, 600, '40/60+0.6')
>>> red, black = Clock(control), Clock(control)
>>> red.punch(600)
True
>>> uci_go(red, black, red_to_move=False)
'go wtime 60600 btime 60600 winc 600 binc 600 movestogo 40'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = [
    "NO_CLOCK",
    "Clock",
    "TimeControl",
    "format_seconds",
    "move_comment",
    "pgn_time_control",
    "uci_go",
    "ucci_go",
]

#: cutechess-cli's ``tc=`` values for no clock at all.
NO_CLOCK = ("inf", "infinite")

_TC = re.compile(r"^(?:(\d+)/)?([0-9:.]+)(?:\+([0-9.]+))?$")


def _seconds(text: str, what: str) -> float:
    """``SS[.s]``, ``M:SS[.s]`` or ``H:MM:SS[.s]`` as seconds."""
    parts = text.split(":")
    if len(parts) > 3 or not all(parts):
        raise ValueError(f"{what} {text!r} is not seconds, M:SS or H:MM:SS")
    try:
        values = [float(part) for part in parts]
    except ValueError:
        raise ValueError(f"{what} {text!r} is not seconds, M:SS or H:MM:SS") from None
    seconds = 0.0
    for value in values:
        seconds = seconds * 60 + value
    if not math.isfinite(seconds):
        raise ValueError(f"{what} {text!r} is not a finite time")
    return seconds


def _ms(seconds: float) -> int:
    return int(round(seconds * 1000))


def format_seconds(ms: int) -> str:
    """Milliseconds as the shortest decimal seconds: ``60000`` → ``'60'``, ``600`` → ``'0.6'``."""
    return f"{ms / 1000:.3f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class TimeControl:
    """A time control: ``moves`` in ``time_ms`` (0 moves: the whole game) plus
    ``increment_ms`` a move, or a fixed ``movetime_ms`` a move (``st``)."""

    moves: int = 0
    time_ms: int = 0
    increment_ms: int = 0
    movetime_ms: int | None = None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """A ``tc=`` value: ``MOVES/TIME+INC``, ``TIME+INC`` or ``TIME`` (seconds)."""
        match = _TC.match(text.strip())
        if not match:
            raise ValueError(f"time control {text!r} is not MOVES/TIME+INC or TIME+INC")
        moves_text, time_text, increment_text = match.groups()
        moves = int(moves_text) if moves_text else 0
        if moves_text and moves < 1:
            raise ValueError(f"time control {text!r}: MOVES must be at least 1")
        time_ms = _ms(_seconds(time_text, "time"))
        increment_ms = _ms(_seconds(increment_text, "increment")) if increment_text else 0
        if time_ms <= 0:
            raise ValueError(f"time control {text!r}: TIME must be above 0")
        return cls(moves, time_ms, increment_ms)

    @classmethod
    def fixed(cls, text: str) -> TimeControl:
        """An ``st=`` value: seconds a move."""
        movetime_ms = _ms(_seconds(text, "st"))
        if movetime_ms <= 0:
            raise ValueError(f"st={text}: the time a move must be above 0")
        return cls(movetime_ms=movetime_ms)

    def text(self) -> str:
        """The control as cutechess-cli writes it: ``40/60+0.6``, ``10+0.1``, ``0.5/move``."""
        if self.movetime_ms is not None:
            return f"{format_seconds(self.movetime_ms)}/move"
        text = format_seconds(self.time_ms)
        if self.moves:
            text = f"{self.moves}/{text}"
        if self.increment_ms:
            text += f"+{format_seconds(self.increment_ms)}"
        return text


def pgn_time_control(red: TimeControl | None, black: TimeControl | None) -> list[tuple[str, str]]:
    """The PGN tags for the sides' controls: one ``TimeControl`` when they are the same, else
    ``RedTimeControl`` and ``BlackTimeControl`` (as cutechess' ``White``/``BlackTimeControl``);
    none when neither side has a clock."""
    if red is None and black is None:
        return []
    if red == black:
        assert red is not None
        return [("TimeControl", red.text())]
    return [
        ("RedTimeControl", red.text() if red else "-"),
        ("BlackTimeControl", black.text() if black else "-"),
    ]


class Clock:
    """One side's clock under ``control``, with ``margin_ms`` of grace beyond it."""

    def __init__(self, control: TimeControl, margin_ms: int = 0) -> None:
        if margin_ms < 0:
            raise ValueError("timemargin must be at least 0")
        self.control = control
        self.margin_ms = margin_ms
        # The increment is given for the first move too, as cutechess-cli and fastchess give
        # it: ``1+0.01`` starts at 1010 ms, so that both tools' clocks and ours agree.
        self.remaining_ms = control.time_ms + control.increment_ms
        #: Moves left in the current period, or None for a whole-game or fixed-time control.
        self.moves_to_go: int | None = control.moves or None
        #: Milliseconds the last move took.
        self.last_ms = 0

    @property
    def fixed(self) -> bool:
        return self.control.movetime_ms is not None

    def allowed_ms(self) -> int:
        """How long the next move may take without losing: the time left (or ``st``) plus
        the margin."""
        if self.control.movetime_ms is not None:
            return self.control.movetime_ms + self.margin_ms
        return self.remaining_ms + self.margin_ms

    def punch(self, spent_ms: int) -> bool:
        """Stop the clock after a move that took ``spent_ms``; False if the flag fell (the
        move came too late), and then the clock is left as it was."""
        if spent_ms < 0:
            raise ValueError("a move cannot take negative time")
        self.last_ms = spent_ms
        if spent_ms > self.allowed_ms():
            return False
        if self.control.movetime_ms is not None:
            return True
        self.remaining_ms = max(0, self.remaining_ms - spent_ms) + self.control.increment_ms
        if self.moves_to_go is not None:
            self.moves_to_go -= 1
            if self.moves_to_go == 0:
                self.remaining_ms += self.control.time_ms
                self.moves_to_go = self.control.moves
        return True


def uci_go(red: Clock | None, black: Clock | None, red_to_move: bool) -> str:
    """The UCI search command for the side to move (red is UCI's white), which must have a
    clock; the opponent's is left out when it has none or a fixed time a move."""
    own = red if red_to_move else black
    if own is None:
        raise ValueError("the side to move has no clock")
    if own.control.movetime_ms is not None:
        return f"go movetime {own.control.movetime_ms}"
    parts = ["go"]
    for prefix, clock in (("w", red), ("b", black)):
        if clock is not None and not clock.fixed:
            parts += [f"{prefix}time", str(clock.remaining_ms)]
    for prefix, clock in (("w", red), ("b", black)):
        if clock is not None and not clock.fixed:
            parts += [f"{prefix}inc", str(clock.control.increment_ms)]
    if own.moves_to_go is not None:
        parts += ["movestogo", str(own.moves_to_go)]
    return " ".join(parts)


def ucci_go(own: Clock, opponent: Clock | None, milliseconds: bool) -> str:
    """The UCCI search command (``time`` in milliseconds when the engine took
    ``usemillisec``, else whole seconds rounded down)."""

    def unit(ms: int) -> str:
        return str(ms if milliseconds else ms // 1000)

    if own.control.movetime_ms is not None:
        return f"go time {unit(own.control.movetime_ms)} movestogo 1"
    parts = ["go", "time", unit(own.remaining_ms)]
    if own.moves_to_go is not None:
        parts += ["movestogo", str(own.moves_to_go)]
    else:
        parts += ["increment", unit(own.control.increment_ms)]
    if opponent is not None and not opponent.fixed:
        parts += ["opptime", unit(opponent.remaining_ms)]
        if opponent.moves_to_go is not None:
            parts += ["oppmovestogo", str(opponent.moves_to_go)]
        else:
            parts += ["oppincrement", unit(opponent.control.increment_ms)]
    return " ".join(parts)


def _clock_text(ms: int) -> str:
    tenths = ms // 100
    hours, rest = divmod(tenths, 36000)
    minutes, rest = divmod(rest, 600)
    return f"{hours}:{minutes:02d}:{rest // 10:02d}.{rest % 10}"


def move_comment(
    spent_ms: int,
    remaining_ms: int | None = None,
    score: str | None = None,
    depth: int | None = None,
) -> str:
    """A move's PGN comment, as cutechess-cli writes it (``score/depth time``) with the clock
    after the move in the ``[%clk H:MM:SS.s]`` form that GUIs read (no clock with ``st``).

    >>> move_comment(1234, 58766, "+0.45", 12)
    '+0.45/12 1.234s [%clk 0:00:58.7]'
    >>> move_comment(500)
    '0.500s'
    """
    parts = []
    if score is not None:
        parts.append(f"{score}/{depth}" if depth is not None else score)
    parts.append(f"{spent_ms / 1000:.3f}s")
    if remaining_ms is not None:
        parts.append(f"[%clk {_clock_text(remaining_ms)}]")
    return " ".join(parts)
