"""What a match writes: the PGN file, the printed lines, ``--results`` and ``--html``.

The PGN file the games are appended to (:class:`PgnFile`), the lines it prints (a game's
progress line, the SPRT's decision, the final summary), the ``--results`` JSON
(:func:`results_document`, :func:`write_results`) and the ``--html`` report (:func:`write_html`,
drawn by :mod:`xqadj.integrations.report`, its statistics by
:mod:`xqadj.integrations.statsview`).

Layer: integrations.  Inside :mod:`xqadj.integrations.match` it imports only :mod:`.record`,
:mod:`.schedule`, :mod:`.options` and :mod:`.tally`.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xqadj.integrations.match.options import MatchConfig, Player
from xqadj.integrations.match.record import GameRecord, MatchResult
from xqadj.integrations.match.schedule import regular_file
from xqadj.integrations.match.tally import MatchTally
from xqadj.integrations.standings import elo_sample, forfeit_warnings
from xqadj.integrations.stats import Pentanomial, SprtState, elo_estimate
from xqadj.integrations.statsview import StatisticsView, statistics_section
from xqadj.integrations.tournament import ScheduledGame

if TYPE_CHECKING:
    from xqadj.integrations.report import Drawing

__all__ = [
    "PgnFile",
    "progress_line",
    "results_document",
    "sprt_line",
    "summary_line",
    "write_html",
    "write_results",
]


def _pgn_separator(path: Path) -> str:
    """What to write before appending a game to ``path``: the blank line that ends the last
    game, when the file's own last game lacks it."""
    with path.open("rb") as pgn:
        pgn.seek(0, os.SEEK_END)
        size = pgn.tell()
        pgn.seek(max(0, size - 2))
        tail = pgn.read()
    if not tail or tail == b"\n\n":
        return ""
    return "\n" if tail.endswith(b"\n") else "\n\n"


class PgnFile:
    """The PGN file of a match, opened to append (an earlier match's games stay).

    A path that is not a regular file (``/dev/stdout``, a pipe, ``/dev/null``) is written to
    only, never read back.  A game is written unbuffered, all of it or nothing: when a write
    fails (disk full, ``ulimit -f``), what was written of that game is cut off again (in a
    regular file) and the :class:`OSError` is raised, so the file ends with a whole game."""

    def __init__(self, path: Path, event: str, comments: bool = True) -> None:
        self.event, self.comments = event, comments
        self.path = path
        self.regular = regular_file(path)
        separator = _pgn_separator(path) if self.regular and path.exists() else ""
        self._file = path.open("ab", buffering=0)
        try:
            self._write(separator.encode())
        except OSError:
            self._file.close()
            raise

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = self._file.write(view)
            if not written:  # a non-blocking pipe that is full: never spin on it
                raise BlockingIOError(errno.EAGAIN, "the output would block")
            view = view[written:]

    def write(self, record: GameRecord) -> None:
        """Append one game; raises OSError, the file cut back to the games before."""
        data = (record.pgn(self.event, self.comments) + "\n").encode("utf-8")
        size = os.fstat(self._file.fileno()).st_size if self.regular else 0
        try:
            self._write(data)
        except OSError:
            if self.regular:
                with contextlib.suppress(OSError):
                    os.ftruncate(self._file.fileno(), size)
            raise

    def close(self) -> None:
        self._file.close()


def progress_line(
    scheduled: ScheduledGame, record: GameRecord, total: int, tally: MatchTally
) -> str:
    """The line printed after each game: its result, and the match's score so far."""
    return (
        f"game {scheduled.number}/{total}: {record.red} vs {record.black}: "
        f"{record.result} {record.termination} ({len(record.moves)} plies) | "
        f"{tally.score_line()} ({tally.done}/{total} played)"
    )


def sprt_line(state: SprtState, done: int) -> str:
    """The line printed when the SPRT stops the match."""
    return f"SPRT: {state.accepted} accepted ({state.text()}) after {done} games; the match stops"


def summary_line(tally: MatchTally, result: MatchResult, pgn: Path | None) -> str:
    """The final line: the score, the games, and why the match ended early if it did."""
    played = tally.played
    summary = f"final: {tally.score_line().removeprefix('score ')} over {played} games"
    if result.resumed:
        summary += f" ({result.resumed} of them from {pgn})"
    if result.decision is not None:
        summary += f" (SPRT: {result.decision.accepted} accepted)"
    elif result.stopped:
        summary += f" ({result.stopped}: {result.planned - played} not played)"
    elif result.lost:
        summary += f" ({', '.join(result.lost)} lost: {result.planned - played} not played)"
    return summary


def _finite(value: float) -> float | None:
    """A float for JSON (which has no infinity): None when infinite."""
    return round(value, 4) if math.isfinite(value) else None


def results_document(
    config: MatchConfig,
    players: Sequence[Player],
    scheduled: int,
    tally: MatchTally,
    result: MatchResult,
) -> dict[str, Any]:
    """What ``--results`` writes: the engines, the games and the statistics; ``scheduled`` is
    the number of games the match planned."""
    names = tally.names
    statistics = []
    for a, b in tally.pairings():
        games = tally.tally.trinomial(a, b)
        pairs = tally.tally.pentanomial(a, b)
        sample = elo_sample(games, pairs if config.games_per_encounter == 2 else None)
        from_pairs = isinstance(sample, Pentanomial)
        estimate = elo_estimate(sample)
        statistics.append(
            {
                "engines": [names[a], names[b]],
                "games": games.games,
                "wins": games.wins,
                "draws": games.draws,
                "losses": games.losses,
                "points": games.points,
                "score": _finite(games.score),
                "pentanomial": list(pairs.counts()) if config.games_per_encounter == 2 else None,
                "elo": _finite(estimate.elo),
                "elo_error": _finite(estimate.error),
                "nelo": _finite(estimate.nelo),
                "nelo_error": _finite(estimate.nelo_error),
                "los": _finite(estimate.los),
                # What the Elo, nElo and LOS count: the complete pairs, or the games.
                "elo_from": "pairs" if from_pairs else "games",
                "elo_samples": estimate.samples,
            }
        )
    endings = tally.endings()
    sprt = None
    if config.sprt is not None:
        state = result.decision or config.sprt.state(tally.sprt_sample())
        sprt = {
            "elo0": config.sprt.elo0,
            "elo1": config.sprt.elo1,
            "alpha": config.sprt.alpha,
            "beta": config.sprt.beta,
            "model": config.sprt.model,
            "llr": _finite(state.llr),
            "lower": _finite(state.lower),
            "upper": _finite(state.upper),
            "accepted": state.accepted,
        }
    return {
        "engines": [
            {
                "name": name,
                "command": spec.command,
                "protocol": spec.protocol,
                "tc": None if player.time_control is None else player.time_control.text(),
                "depth": player.depth,
                "nodes": player.nodes,
            }
            for name, spec, player in zip(names, config.engines, players, strict=True)
        ],
        "games_per_encounter": config.games_per_encounter,
        "scheduled": scheduled,
        "played": tally.played,
        "resumed": result.resumed,
        "stopped": result.stopped or None,
        "games": sorted(tally.game_log, key=lambda game: int(game["number"])),
        "statistics": statistics,
        "sprt": sprt,
        "standings": [
            {
                "rank": place.rank,
                "engine": place.engine,
                "games": place.games.games,
                "points": place.games.points,
                "draws": place.games.draws,
                "elo": _finite(place.estimate.elo),
                "elo_error": _finite(place.estimate.error),
            }
            for place in tally.standings()
        ],
        "terminations": {
            ending.engine: {
                "wins": dict(ending.wins),
                "losses": dict(ending.losses),
                "draws": dict(ending.draws),
                "forfeits_lost": ending.forfeits_lost,
                "forfeits_won": ending.forfeits_won,
            }
            for ending in endings
        },
        "warnings": forfeit_warnings(endings),
    }


def write_results(path: Path, document: dict[str, Any]) -> None:
    """Write the ``--results`` JSON; raises OSError.

    A regular file is replaced at once: the JSON goes to ``FILE.part`` next to it, renamed
    over it, so that a reader (or a ``kill -9``) never sees half a file; a ``.part`` left by a
    failed write is removed.  A symlink is followed: the file it points to is replaced, the
    link stays.  Any other path (``/dev/null``, ``/dev/stdout``, a pipe) is written in place,
    never replaced by a regular file."""
    text = json.dumps(document, indent=2) + "\n"
    target = Path(os.path.realpath(path))
    if not regular_file(target):
        with target.open("w", encoding="utf-8") as out:
            out.write(text)
        return
    temporary = target.with_name(target.name + ".part")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def write_html(
    path: Path,
    records: Sequence[GameRecord],
    lines: Sequence[str],
    view: StatisticsView | None = None,
    drawing: Drawing | None = None,
    rules: str | None = None,
) -> None:
    """The ``--html`` report of the match's games: the statistics of ``view`` first
    (:mod:`xqadj.integrations.statsview`), then the ruled games drawn as ``drawing`` says
    (``--letters``, ``--flip``, ``--coordinates``); raises OSError."""
    from xqadj.integrations.report import write_match_report

    sections = () if view is None else (statistics_section(view),)
    write_match_report(path, records, lines, drawing=drawing, rules=rules, sections=sections)
