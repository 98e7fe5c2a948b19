"""The tally of a match: results by pairing, the score, the statistics, the SPRT.

Every game's result by pairing (:class:`xqadj.integrations.tournament.Tally`), the score line,
the statistics block (:mod:`xqadj.integrations.stats`: Elo, pentanomial pairs; with
:mod:`xqadj.integrations.standings`: what each figure counts, the standings, the terminations),
the SPRT, the log of finished games that ``--results`` writes, and the statistics after each
game that ``--html`` charts (:mod:`xqadj.integrations.statsview`).

Layer: integrations.  Inside :mod:`xqadj.integrations.match` it imports only :mod:`.record`
and :mod:`.schedule` (none of the modules that play games).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xqadj.integrations.match.record import GameRecord
from xqadj.integrations.match.schedule import PlayedGame
from xqadj.integrations.standings import (
    Endings,
    Outcome,
    Standing,
    elo_sample,
    forfeit_warnings,
    pairing_lines,
    standings,
    standings_lines,
    termination_lines,
    terminations,
)
from xqadj.integrations.stats import Pentanomial, Sprt, SprtState, Trinomial, elo_estimate
from xqadj.integrations.statsview import PairingView, ProgressPoint, StatisticsView
from xqadj.integrations.tournament import ScheduledGame, Tally

__all__ = ["MatchTally"]


class MatchTally:
    """The results so far of a match between ``names``: :meth:`add` each finished game (or
    :meth:`add_played` one from the PGN file ``--resume`` reads)."""

    def __init__(
        self, names: Sequence[str], games_per_encounter: int, sprt: Sprt | None = None
    ) -> None:
        self.names = tuple(names)
        self.games_per_encounter = games_per_encounter
        self.sprt = sprt
        self.tally = Tally(len(self.names), games_per_encounter)
        #: The SPRT's state when it accepted a hypothesis, else None.
        self.decision: SprtState | None = None
        #: Every finished game, for ``--results``.
        self.game_log: list[dict[str, Any]] = []
        #: Games finished (those taken from the PGN file included).
        self.done = 0
        #: The first pairing's Elo and the SPRT's LLR after each game played (not resumed),
        #: for the charts of ``--html``.
        self.progress: list[ProgressPoint] = []
        #: The SPRT's state after the last game added, computed once a game.
        self._state: SprtState | None = None

    @property
    def played(self) -> int:
        return self.tally.played

    def add_played(self, scheduled: ScheduledGame, found: PlayedGame) -> None:
        """Count a game the PGN file already holds (``--resume``)."""
        self.tally.add(scheduled, found.result)
        self.game_log.append(
            {
                "number": scheduled.number,
                "round": scheduled.round,
                "red": found.red,
                "black": found.black,
                "result": found.result,
                "termination": found.termination,
                "from_pgn": True,
            }
        )
        self.done += 1
        self._state = None

    def add(self, scheduled: ScheduledGame, record: GameRecord) -> None:
        """Count a game just played."""
        self.tally.add(scheduled, record.result)
        self.game_log.append(
            {
                "number": scheduled.number,
                "round": scheduled.round,
                "red": record.red,
                "black": record.black,
                "result": record.result,
                "termination": record.termination,
                "plies": len(record.moves),
                "opening": record.opening.text(),
                "comment": record.comment,
            }
        )
        self.done += 1
        self._state = self.sprt_state()
        paired = self.games_per_encounter == 2
        games = self.tally.trinomial(0, 1)
        estimate = elo_estimate(elo_sample(games, self.tally.pentanomial(0, 1) if paired else None))
        llr = None if self._state is None else self._state.llr
        self.progress.append(ProgressPoint(self.done, estimate.elo, estimate.error, llr))

    def decide(self) -> SprtState | None:
        """The SPRT's state if it has just accepted a hypothesis (it is then kept as
        :attr:`decision`), else None."""
        if self.sprt is None or self.decision is not None:
            return None
        state = self._state or self.sprt.state(self.sprt_sample())
        if state.accepted is None:
            return None
        self.decision = state
        return state

    def sprt_sample(self) -> Trinomial | Pentanomial:
        """The first engine's results against the second, in pairs when games are paired
        (the bayesian model, cutechess-cli's, takes games)."""
        if self.games_per_encounter == 2 and (self.sprt is None or self.sprt.model != "bayesian"):
            return self.tally.pentanomial(0, 1)
        return self.tally.trinomial(0, 1)

    def sprt_state(self) -> SprtState | None:
        """The SPRT now (its decision once it has one), or None without ``--sprt``."""
        if self.sprt is None:
            return None
        return self.decision or self.sprt.state(self.sprt_sample())

    def score_line(self) -> str:
        """``score A 3 - 2 B`` for two engines, else ``A 3, B 2.5, C 0.5``."""
        points = [self.tally.total(i).points for i in range(len(self.names))]
        if len(self.names) == 2:
            return f"score {self.names[0]} {points[0]:g} - {points[1]:g} {self.names[1]}"
        return ", ".join(f"{name} {p:g}" for name, p in zip(self.names, points, strict=True))

    def pairings(self) -> list[tuple[int, int]]:
        """The engine pairs that have played, first engine first."""
        return [
            (a, b)
            for a in range(len(self.names))
            for b in range(a + 1, len(self.names))
            if self.tally.trinomial(a, b).games
        ]

    def statistics(self, final: bool = False) -> list[str]:
        """The statistics block: each pairing, saying what W/L/D and the Elo count
        (:func:`~xqadj.integrations.standings.pairing_lines`), the SPRT, with three engines or
        more the standings; ``final`` adds how each engine's games ended and the forfeit
        warnings."""
        paired = self.games_per_encounter == 2
        lines = []
        for a, b in self.pairings():
            pairs = self.tally.pentanomial(a, b) if paired else None
            lines += pairing_lines(self.names[a], self.names[b], self.tally.trinomial(a, b), pairs)
        state = self.sprt_state()
        if self.sprt is not None and state is not None:
            lines.append(f"  SPRT ({self.sprt.text()}): {state.text()}")
        if len(self.names) >= 3:
            lines += standings_lines(self.standings())
        if final:
            endings = self.endings()
            lines += termination_lines(endings)
            lines += forfeit_warnings(endings)
        return lines

    def standings(self) -> list[Standing]:
        """Every engine's place against the field."""
        return standings(self.names, [self.tally.total(i) for i in range(len(self.names))])

    def endings(self) -> list[Endings]:
        """How each engine's games ended (a resumed game's by its PGN ``Termination``)."""
        outcomes = [
            Outcome(g["red"], g["black"], g["result"], g.get("termination", ""))
            for g in self.game_log
        ]
        return terminations(self.names, outcomes)

    def view(self) -> StatisticsView:
        """What ``--html`` shows of the statistics (:mod:`xqadj.integrations.statsview`)."""
        paired = self.games_per_encounter == 2
        return StatisticsView(
            [
                PairingView(
                    self.names[a],
                    self.names[b],
                    self.tally.trinomial(a, b),
                    self.tally.pentanomial(a, b) if paired else None,
                )
                for a, b in self.pairings()
            ],
            self.sprt,
            self.sprt_state(),
            list(self.progress) if len(self.names) == 2 else [],
            self.standings(),
            self.endings(),
        )
