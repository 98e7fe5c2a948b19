"""The director of a match: game jobs out to a runner, finished games into the tally.

It names the engines, makes the schedule and the game jobs, hands them to a runner
(:class:`.local.LocalRunner`, or :class:`.cluster.ClusterRunner` with ``--cluster``), and
takes every finished game as it comes, in any order: it appends it to the PGN file, tallies
it (:mod:`.tally`), prints its line and rewrites ``--results`` (:mod:`.outputs`), and stops the
match when the SPRT is decided.

It also stops the match, as Ctrl-C does (the games in progress dropped, the finished ones
kept), when a file cannot be written (the PGN, a ``--log`` file, ``--results``: stopped
``write error``; a game whose PGN write failed is cut off the file and not counted), and when an
engine cannot be restarted and no game without it is left (stopped ``engine lost``; in a
tournament of three or more engines the others play on, that engine's games not played).  A game
not played for a lost engine is never a result: not in the PGN, the tally or the SPRT.

Layer: integrations.  Inside :mod:`xqadj.integrations.match` it imports only the modules
below it: :mod:`.record`, :mod:`.schedule`, :mod:`.options`, :mod:`.game`, :mod:`.tally`,
:mod:`.outputs`, :mod:`.local` and :mod:`.cluster`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TextIO

from xqadj.board import Board
from xqadj.integrations.match.cluster import ClusterRunner
from xqadj.integrations.match.game import (
    GameJob,
    Runner,
    game_jobs,
    match_tags,
    opening_hash,
)
from xqadj.integrations.match.local import LocalRunner
from xqadj.integrations.match.options import MatchConfig, Player
from xqadj.integrations.match.outputs import (
    PgnFile,
    progress_line,
    results_document,
    sprt_line,
    write_results,
)
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
        self._jobs: list[GameJob] = []
        #: Why the director stopped the match ("write error", "engine lost"), or "".
        self._why = ""
        self._result = MatchResult([], "", len(self.schedule))

    def stop(self) -> None:
        """Stop the match: start no more games and end those in progress unscored."""
        self.runner.stop()

    def run(self) -> MatchResult:
        config = self.config
        runner = self.runner
        result = self._result
        jobs: list[GameJob] = []
        try:
            tags = dict(match_tags(config, self.book))
            start = resume_point(
                self.schedule,
                self.names,
                config.pgn,
                config.resume,
                tags,
                lambda game: opening_hash(self.book.opening(game.opening)),
            )
            by_number = {game.number: game for game in self.schedule}
            for number, found in sorted(start.played.items()):
                self.tally.add_played(by_number[number], found)
            result.resumed = len(start.played)
            jobs = self._jobs = game_jobs(
                config, start.remaining, self.book, self.players, start.round_offset
            )
            if start.cut is not None and config.pgn is not None:
                os.truncate(config.pgn, start.cut)
            for note in start.notes:
                print(f"xqadj match: {note}", file=self.out, flush=True)
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
        result.stopped, result.signal = runner.stopped or self._why, runner.signal
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
        if record.lost_engine:
            self._lost(record)
            return
        if self._pgn is not None:
            try:
                self._pgn.write(record)
            except BrokenPipeError:  # --pgn /dev/stdout into `head`: the output closed
                raise
            except OSError as error:
                # Not in the PGN, so not counted: a --resume plays it again.
                self._stop_writing(
                    f"--pgn {config.pgn}: {error.strerror}; game {scheduled.number} not kept"
                )
                return
        if config.epd_out is not None:
            try:
                _append_end_position(config.epd_out, record)
            except OSError as error:  # the game is kept: the PGN has it
                self._stop_writing(f"-epdout {config.epd_out}: {error.strerror}")
        self._records[scheduled.number] = record
        self.tally.add(scheduled, record)
        if config.results is not None:  # current before the game's line is printed
            try:
                write_results(config.results, self.results_document())
            except OSError as error:
                self._stop_writing(f"--results {config.results}: {error.strerror}")
        total = len(self.schedule)
        print(progress_line(scheduled, record, total, self.tally), file=self.out, flush=True)
        if record.write_error:
            self._stop_writing(f"--log {record.write_error}")
        state = self.tally.decide()
        if state is not None:
            print(sprt_line(state, self.tally.done), file=self.out, flush=True)
            self.stop()
        # The final block follows the last game, or a decided SPRT: it is not printed twice.
        last = self.tally.done == total or self.tally.decision is not None
        if config.rating_interval and self.tally.done % config.rating_interval == 0 and not last:
            for line in self.tally.statistics():
                print(line, file=self.out, flush=True)

    def results_document(self) -> dict[str, object]:
        """What ``--results`` holds now."""
        return results_document(
            self.config, self.players, len(self.schedule), self.tally, self._result
        )

    def _stop_writing(self, problem: str) -> None:
        """A file could not be written: stop the match as Ctrl-C does."""
        problem = f"cannot write {problem}"
        if problem not in self._result.problems:  # the same file failing again
            self._result.problems.append(problem)
        self._why = self._why or "write error"
        self.stop()

    def _lost(self, record: GameRecord) -> None:
        """An engine cannot be restarted: drop it, and stop the match when every game left
        needs it (or another lost one)."""
        name = record.lost_engine
        result = self._result
        if name in result.lost:
            return
        result.lost.append(name)
        left = [
            job
            for job in self._jobs
            if job.scheduled.number not in self._records
            and self.names[job.scheduled.red] not in result.lost
            and self.names[job.scheduled.black] not in result.lost
        ]
        if left:
            what = f"{name} is dropped: its games are not played, {len(left)} others go on"
        else:
            what = "the match stops"
            self._why = self._why or "engine lost"
            self.stop()
        problem = f"{record.comment}; {what}"
        result.problems.append(problem)
        print(f"xqadj match: {problem}", file=sys.stderr, flush=True)

    def score_line(self) -> str:
        """``score A 3 - 2 B`` for two engines, else ``A 3, B 2.5, C 0.5``."""
        return self.tally.score_line()

    def statistics(self, final: bool = False) -> list[str]:
        """The statistics block (see :meth:`.MatchTally.statistics`)."""
        return self.tally.statistics(final)


def _append_end_position(path: Path, record: GameRecord) -> None:
    """``-epdout FILE`` (cutechess-cli, fastchess): the game's end position as a FEN line."""
    board = Board(record.opening.fen)
    for move in record.moves:
        board.push(move)
    with path.open("a", encoding="utf-8") as out:
        out.write(board.fen() + "\n")


def run_match(config: MatchConfig, out: TextIO = sys.stdout) -> MatchResult:
    """Play the match; progress lines go to ``out``.  Raises :class:`.MatchError` when it
    cannot start.  A Ctrl-C while it runs ends it early (``MatchResult.stopped``), not with an
    exception."""
    return Match(config, out).run()
