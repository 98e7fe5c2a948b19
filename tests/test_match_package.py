"""The seams of the match subpackage: a game job and its record cross a process boundary
(they pickle), and the director takes a runner's finished games in any order."""

from __future__ import annotations

import io
import pickle
from collections.abc import Sequence
from typing import Any

from test_integrations import D22_FEN, D22_MOVES

from xqadj.integrations.adjudication import DrawRule, ResignRule
from xqadj.integrations.engine import EngineSpec, SearchLimit
from xqadj.integrations.match import GameJob, GameRecord, Match, MatchConfig, Opening, Player
from xqadj.integrations.match.game import Finished, game_jobs
from xqadj.integrations.openings import OpeningBook
from xqadj.integrations.stats import Sprt
from xqadj.integrations.timecontrol import TimeControl
from xqadj.integrations.tournament import schedule
from xqadj.referee import Game


def config(**changes: Any) -> MatchConfig:
    """Two engines that are never started (the tests' runners play no engine)."""
    return MatchConfig([EngineSpec(["a"], name="A"), EngineSpec(["b"], name="B")], **changes)


def test_a_game_job_and_its_record_pickle() -> None:
    """What a runner on another process or machine is sent and sends back."""
    match_config = config(
        limit=SearchLimit(None, 3, None),
        rules="cxa",
        draw=DrawRule.parse("movenumber=30 movecount=8 score=10"),
        resign=ResignRule.parse("movecount=3 score=600"),
    )
    players = [Player(TimeControl.parse("40/60+0.5"), 50), Player(depth=7)]
    book = OpeningBook([Opening(D22_FEN, ("b3b2",))])
    games = schedule(2, rounds=1, games=2)
    jobs = game_jobs(match_config, games, book, players, round_offset=4)
    assert [job.number for job in jobs] == [5, 6]
    assert jobs[1].players == (players[1], players[0])  # the second game swaps the colours
    assert pickle.loads(pickle.dumps(jobs)) == jobs

    game = Game(D22_FEN)
    for move in D22_MOVES.split():
        game.push_iccs(move)
    assert game.ruling is not None
    record = GameRecord(1, "A", "B", Opening(D22_FEN), list(game.moves), ruling=game.ruling)
    record.result, record.termination = game.ruling.result, game.ruling.reason.value
    copy = pickle.loads(pickle.dumps(record))
    assert copy.pgn("e") == record.pgn("e")
    assert copy.ruling is not None and copy.ruling.explain() == game.ruling.explain()


class BackwardsRunner:
    """A runner that 'plays' every job at once and hands the records back last first: red
    wins every game."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = names
        self.stopped, self.signal = "", 0
        self.started = 0
        self.asked_to_stop = self.closed = False

    def start(self, games: int) -> None:
        self.started = games

    def play(self, jobs: Sequence[GameJob], finished: Finished) -> None:
        for job in reversed(jobs):
            red, black = (self.names[e] for e in (job.scheduled.red, job.scheduled.black))
            finished(job, GameRecord(job.number, red, black, job.opening, result="1-0"))

    def stop(self) -> None:
        self.asked_to_stop = True

    def interrupted(self, interrupt: KeyboardInterrupt) -> None:
        self.stopped = "interrupted"

    def close(self) -> None:
        self.closed = True


def test_the_director_takes_finished_games_in_any_order() -> None:
    """Red wins every game and the colours alternate, so each engine wins half of them; the
    records come back in the schedule's order, whatever order they were finished in."""
    out = io.StringIO()
    runner = BackwardsRunner(["A", "B"])
    match = Match(config(games=4), out, runner)
    result = match.run()
    assert runner.started == 4 and runner.closed
    assert [record.number for record in result.records] == [1, 2, 3, 4]
    assert [record.red for record in result.records] == ["A", "B", "A", "B"]
    assert result.scores("A") == 2 and result.scores("B") == 2
    assert match.tally.tally.pentanomial(0, 1).counts() == (0, 0, 2, 0, 0)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("game 4/4: B vs A: 1-0") and lines[0].endswith("(1/4 played)")
    assert lines[-1].endswith("score A 2 - 2 B (4/4 played)")


def test_the_director_stops_the_runner_when_the_sprt_decides() -> None:
    """Ten game pairs that A wins both games of: the SPRT accepts H1 and the director asks
    the runner to stop."""
    out = io.StringIO()

    class AWins(BackwardsRunner):
        def play(self, jobs: Sequence[GameJob], finished: Finished) -> None:
            for job in jobs:
                if self.asked_to_stop:
                    return
                a_red = job.scheduled.red == 0
                red, black = ("A", "B") if a_red else ("B", "A")
                result = "1-0" if a_red else "0-1"
                finished(job, GameRecord(job.number, red, black, job.opening, result=result))

    runner = AWins(["A", "B"])
    sprt = Sprt.parse("elo0=0 elo1=10")
    result = Match(config(games=200, sprt=sprt), out, runner).run()
    assert runner.asked_to_stop
    assert result.decision is not None and result.decision.accepted == "H1"
    assert 0 < len(result.records) < 200
    assert "SPRT: H1 accepted" in out.getvalue()
