"""``xqadj match``: play engine matches and tournaments, refereed by xqadj.

Layer: integrations.

Two engines or more (``--engine`` once each, ``--each`` for shared settings) play a schedule
(:mod:`~xqadj.integrations.tournament`: head-to-head, ``--tournament gauntlet`` or
``round-robin``, ``--rounds``, ``--games 1|2``), each encounter from the next opening of the
book (:mod:`~xqadj.integrations.openings`), on clocks or with fixed limits
(:mod:`~xqadj.integrations.timecontrol`). xqadj follows every ply: the game ends at its ruling
(perpetual check, perpetual chase, repetition draw), at checkmate or stalemate, at the move
limit, or, when asked, at a draw or resign adjudication from the engines' scores
(:mod:`~xqadj.integrations.adjudication`), which never comes before a ruling. An engine that
overruns its clock loses on time; one that crashes, hangs, plays an illegal move or has no move
loses that game by forfeit and is restarted; the match goes on. Results are appended to a PGN
file (the xqbase PGN form: ``[Game "Chinese Chess"]`` first) with ``[Result]``,
``[Termination]``, the ruling's explanation as a comment and, on clocks, a ``{score/depth time
[%clk …]}`` comment after each move. The running statistics (:mod:`~xqadj.integrations.stats`)
follow the games; ``--sprt`` stops the match when its test is decided; ``--results`` writes
every game and the statistics as JSON; ``--resume`` goes on with a match whose PGN holds its
first games.

Every engine (one set per concurrent game) is started before the first game, so an engine
that cannot start is an error before the match.  Ctrl-C (or SIGTERM) stops the match: queued
games are not started, games in progress are dropped unscored, every engine is killed, and the
finished games stay in the PGN; the summary line is printed and the exit status is 130 (143 for
SIGTERM).  ``--cluster local[:N]|tcp://HOST:PORT`` plays the game pairs on the workers of a
Dask cluster instead (:mod:`.cluster`); this process still tallies and writes everything.

The subpackage, each module importing only those before it in this list:

* :mod:`.record` — a finished game (:class:`GameRecord`, its PGN), :class:`MatchResult`,
  :class:`MatchError`;
* :mod:`.schedule` — the games to play, and for ``--resume`` those already played;
* :mod:`.options` — the ``match`` arguments and the :class:`MatchConfig` they make;
* :mod:`.game` — playing one game (:func:`play_game`, :func:`~.game.play_job` on a
  picklable :class:`~.game.GameJob`) and what a runner is (:class:`~.game.Runner`);
* :mod:`.tally` — results, statistics and the SPRT (:class:`~.tally.MatchTally`);
* :mod:`.outputs` — the PGN file, the printed lines, ``--results``, ``--html``;
* :mod:`.local` — the local runner: a thread pool, ``--concurrency``, Ctrl-C;
* :mod:`.cluster` — the Dask runner of ``--cluster``: game pairs played on the workers;
* :mod:`.director` — :class:`Match`: jobs to a runner, finished games to the tally and the
  outputs;
* :mod:`.command` — :func:`main`, the command;
* this package — what the command line and callers use.
"""

from __future__ import annotations

from xqadj.integrations.match.command import main
from xqadj.integrations.match.director import Match, run_match
from xqadj.integrations.match.game import EngineSlot, GameJob, Runner, play_game, play_job
from xqadj.integrations.match.options import MatchConfig, Player, add_arguments
from xqadj.integrations.match.record import GameRecord, MatchError, MatchResult
from xqadj.integrations.openings import Opening, read_openings

__all__ = [
    "EngineSlot",
    "GameJob",
    "GameRecord",
    "Match",
    "MatchConfig",
    "MatchError",
    "MatchResult",
    "Opening",
    "Player",
    "Runner",
    "add_arguments",
    "main",
    "play_game",
    "play_job",
    "read_openings",
    "run_match",
]
