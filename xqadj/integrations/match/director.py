"""The director of a match: game jobs out to a runner, finished games into the tally.

It names the engines, makes the schedule and the game jobs, hands them to a runner
(:class:`.local.LocalRunner`, or :class:`.cluster.ClusterRunner` with ``--cluster``), and
takes every finished game as it comes, in any order: it tallies it (:mod:`.tally`), appends
it to the PGN file and prints its line (:mod:`.outputs`), and stops the match when the SPRT is
decided.

Layer: integrations.  Inside :mod:`xqadj.integrations.match` it imports only the modules
below it: :mod:`.record`, :mod:`.schedule`, :mod:`.options`, :mod:`.game`, :mod:`.tally`,
:mod:`.outputs`, :mod:`.local` and :mod:`.cluster`.
"""

from __future__ import annotations

import sys
from typing import TextIO

from xqadj.integrations.match.cluster import ClusterRunner
from xqadj.integrations.match.game import GameJob, Runner, game_jobs
from xqadj.integrations.match.local import LocalRunner
from xqadj.integrations.match.options import MatchConfig, Player
from xqadj.integrations.match.outputs import PgnFile, progress_line, sprt_line
from xqadj.integrations.match.record import GameRecord, MatchResult
from xqadj.integrations.match.schedule import default_schedule, resume_point
from xqadj.integrations.match.tally import MatchTally
from xqadj.integrations.openings import OpeningBook

__all__ = ["Match", "run_match"]


class Match:
    """A match between engines: :meth:`run` plays it.  :meth:`stop` (any thread) stops it as
    Ctrl-C does.  The ``runner`` plays the games (default: a :class:`.LocalRunner`, with
    ``concurrency`` workers, each with its own set of engines, all started before the first
    game)."""

    def __init__(
        self, config: MatchConfig, out: TextIO = sys.stdout, runner: Runner | None = None
    ) -> None:
        self.config = config
        self.out = out
        if len(config.engines) < 2:
            raise ValueError("a match needs two engines or more")
        seen: set[str] = set()
        for spec in config.engines:
            base, count = spec.name, 1
            while spec.name in seen:
                count += 1
                spec.name = f"{base} ({count})"
            seen.add(spec.name)
        self.names = tuple(spec.name for spec in config.engines)
        self.players = list(config.players) or [Player() for _ in config.engines]
        self.schedule = list(
            config.schedule if config.schedule is not None else default_schedule(config.games)
        )
        self.book = config.book or OpeningBook(config.openings)
        self.tally = MatchTally(self.names, config.games_per_encounter, config.sprt)
        if runner is None:
            runner = (
                LocalRunner(config)
                if config.cluster is None
                else ClusterRunner(config, config.cluster)
            )
        self.runner: Runner = runner
        self._pgn: PgnFile | None = None
        self._records: dict[int, GameRecord] = {}

    def stop(self) -> None:
        """Stop the match: start no more games and end those in progress unscored."""
        self.runner.stop()

    def run(self) -> MatchResult:
        config = self.config
        runner = self.runner
        result = MatchResult([], "", len(self.schedule))
        jobs: list[GameJob] = []
        try:
            start = resume_point(self.schedule, self.names, config.pgn, config.resume)
            by_number = {game.number: game for game in self.schedule}
            for number, found in sorted(start.played.items()):
                self.tally.add_played(by_number[number], found)
            result.resumed = len(start.played)
            jobs = game_jobs(config, start.remaining, self.book, self.players, start.round_offset)
            if jobs:
                runner.start(len(jobs))
            if config.pgn is not None:
                self._pgn = PgnFile(config.pgn, config.event, config.pgn_comments)
            runner.play(jobs, self._finished)
        except KeyboardInterrupt as interrupt:  # while the engines were starting
            runner.interrupted(interrupt)
        finally:
            runner.close()
            if self._pgn is not None:
                self._pgn.close()
        result.stopped, result.signal = runner.stopped, runner.signal
        # In the schedule's order, whatever order they finished in.
        result.records = [
            self._records[job.scheduled.number]
            for job in jobs
            if job.scheduled.number in self._records
        ]
        result.decision = self.tally.decision
        return result

    def _finished(self, job: GameJob, record: GameRecord) -> None:
        """Take a finished game: the runner calls this for one game at a time."""
        config = self.config
        scheduled = job.scheduled
        self._records[scheduled.number] = record
        if self._pgn is not None:
            self._pgn.write(record)
        self.tally.add(scheduled, record)
        total = len(self.schedule)
        print(progress_line(scheduled, record, total, self.tally), file=self.out, flush=True)
        state = self.tally.decide()
        if state is not None:
            print(sprt_line(state, self.tally.done), file=self.out, flush=True)
            self.stop()
        # The final block follows the last game, or a decided SPRT: it is not printed twice.
        last = self.tally.done == total or self.tally.decision is not None
        if config.rating_interval and self.tally.done % config.rating_interval == 0 and not last:
            for line in self.tally.statistics():
                print(line, file=self.out, flush=True)

    def score_line(self) -> str:
        """``score A 3 - 2 B`` for two engines, else ``A 3, B 2.5, C 0.5``."""
        return self.tally.score_line()

    def statistics(self, final: bool = False) -> list[str]:
        """The statistics block (see :meth:`.MatchTally.statistics`)."""
        return self.tally.statistics(final)


def run_match(config: MatchConfig, out: TextIO = sys.stdout) -> MatchResult:
    """Play the match; progress lines go to ``out``.  Raises :class:`.MatchError` when it
    cannot start.  A Ctrl-C while it runs ends it early (``MatchResult.stopped``), not with an
    exception."""
    return Match(config, out).run()
