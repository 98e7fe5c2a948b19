"""What a tester reads after a match: pairings, standings, how the games ended.

Layer: integrations.

Pure functions over the tally: the statistics block of each pairing, the standings of a
tournament, and how every engine's games ended, with a warning when forfeits weigh.

**What the figures count.**  W/L/D and the score count *every* finished game.  With game
pairs (``--games 2``) the Elo, its error bar, LOS and the SPRT count only the *complete
pairs* (the pentanomial), so a game whose partner is not finished (a match stopped in the
middle of a pair) is in the W/L/D but not in the Elo; the lines say so.

**Standings** (three engines or more): each engine's games against the whole field, ranked by
score (points per game, so that a gauntlet's first engine, who plays more, is compared
fairly); the Elo is the logistic Elo of that score against the field, with its 95% error bar
from the engine's games (trinomial), as cutechess-cli ranks a tournament.  Equal scores share
a rank.

**Terminations**: for each engine, its wins, losses and draws by how the game ended (the PGN
``Termination``: a ruling's reason, ``adjudication``, ``max-plies``, or a forfeit: ``time``,
``crash``, ``timeout``, ``illegal-move``, ``no-move``…).  A forfeit measures an engine's
failures, not its play: when forfeits are :data:`FORFEIT_WARNING_SHARE` (10%) or more of an
engine's games, a warning says that its Elo measures them too.

>>> from xqadj.integrations.stats import Trinomial, Pentanomial
>>> for line in pairing_lines("A", "B", Trinomial(3, 1, 1), Pentanomial(draw=1, ww=1)):
...     print(line)
Results of A vs B, all 5 games: 3 wins, 1 losses, 1 draws, 3.5 points (70.0 %)
  Elo from the 2 complete pairs (4 games; 1 game unpaired, left out):
  Elo: 190.85 +/- n/a, nElo: 245.67 +/- 340.48, LOS: 92.14 %
  Ptnml(0-2): [0, 0, 1, 0, 1]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from xqadj.integrations.stats import (
    EloEstimate,
    Pentanomial,
    Trinomial,
    elo_estimate,
    plus_minus,
)

__all__ = [
    "FORFEIT_WARNING_SHARE",
    "Endings",
    "Outcome",
    "Standing",
    "elo_sample",
    "forfeit_kind",
    "forfeit_warnings",
    "pairing_lines",
    "standing_cells",
    "standings",
    "standings_lines",
    "terminations",
    "termination_lines",
]

#: An engine whose games ended by a forfeit this often (or more) gets a warning: its Elo then
#: measures its crashes, hangs and time losses as much as its play.  One game in ten: above
#: the rate at which a sound engine at a sane time control forfeits, below the share at which
#: the forfeits alone move the Elo by tens of points.
FORFEIT_WARNING_SHARE = 0.10

#: What a game counts as when its termination is not known (a resumed game whose PGN has no
#: ``Termination`` tag).
UNKNOWN_ENDING = "earlier (resumed)"


def elo_sample(games: Trinomial, pairs: Pentanomial | None) -> Trinomial | Pentanomial:
    """What a pairing's Elo counts: its complete ``pairs`` when games are paired and one is
    complete, else its ``games``.

    >>> elo_sample(Trinomial(1, 0, 0), Pentanomial()), elo_sample(Trinomial(2), Pentanomial(ww=1))
    (Trinomial(wins=1, draws=0, losses=0), Pentanomial(ll=0, ld=0, draw=0, wd=0, ww=1))
    """
    return pairs if pairs is not None and pairs.pairs else games


def pairing_lines(
    first: str,
    second: str,
    games: Trinomial,
    pairs: Pentanomial | None,
) -> list[str]:
    """The statistics block of one pairing, from ``first``'s side: W/L/D over all games, then
    the Elo over what it counts (the complete ``pairs``, or, when games are not paired
    (``pairs`` None) or no pair is complete yet, the games), then the pentanomial."""
    lines = [
        f"Results of {first} vs {second}, all {games.games} games: {games.wins} wins, "
        f"{games.losses} losses, {games.draws} draws, {games.points:g} points "
        f"({games.score * 100:.1f} %)"
    ]
    sample = elo_sample(games, pairs)
    if isinstance(sample, Pentanomial):
        in_pairs = 2 * sample.pairs
        plural = "" if sample.pairs == 1 else "s"
        basis = f"the {sample.pairs} complete pair{plural} ({in_pairs} games"
        left = games.games - in_pairs
        if left:
            basis += f"; {left} game{'s' if left > 1 else ''} unpaired, left out"
        basis += ")"
    else:
        basis = f"the {games.games} game{'' if games.games == 1 else 's'}"
        if pairs is not None:
            basis += " (no complete pair yet)"
    estimate = elo_estimate(sample)
    note = "" if estimate.spread else ", all the same result: no error bar"
    lines.append(f"  Elo from {basis}{note}:")
    lines.append(f"  {estimate.text()}")
    if pairs is not None:
        lines.append(f"  Ptnml(0-2): [{', '.join(str(c) for c in pairs.counts())}]")
    return lines


# -- standings ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One engine's place in the tournament."""

    rank: int
    engine: str
    #: Its games against the whole field, from its side.
    games: Trinomial
    #: The Elo of its score against the field (trinomial).
    estimate: EloEstimate


def standings(names: Sequence[str], totals: Sequence[Trinomial]) -> list[Standing]:
    """The engines ranked by score (best first; equal scores share a rank, then by name);
    ``totals[i]`` is engine ``i``'s games against everyone (``Tally.total(i)``).  Engines
    without a game come last, unranked by score.

    >>> table = standings(["A", "B", "C"], [Trinomial(1, 2, 1), Trinomial(2, 1, 1),
    ...                                      Trinomial(1, 1, 2)])
    >>> [(s.rank, s.engine, s.games.points) for s in table]
    [(1, 'B', 2.5), (2, 'A', 2.0), (3, 'C', 1.5)]
    """
    if len(names) != len(totals):
        raise ValueError("one total per engine")
    order = sorted(
        range(len(names)),
        key=lambda i: (totals[i].games == 0, -totals[i].score, names[i]),
    )
    table: list[Standing] = []
    for place, index in enumerate(order, 1):
        games = totals[index]
        rank = place
        if table:
            before = table[-1].games
            if before.games and games.games and before.score == games.score:
                rank = table[-1].rank
        table.append(Standing(rank, names[index], games, elo_estimate(games)))
    return table


def standing_cells(standing: Standing) -> tuple[str, ...]:
    """One engine's row of the standings, as text: rank, engine, games, score, Elo against the
    field with its 95% error bar, draws (the text table and the HTML report show the same)."""
    games = standing.games
    return (
        str(standing.rank),
        standing.engine,
        str(games.games),
        f"{games.points:g} ({games.score * 100:.1f} %)",
        plus_minus(standing.estimate.elo, standing.estimate.error, 1),
        f"{games.draws} ({games.draws / games.games * 100:.1f} %)" if games.games else "0",
    )


def standings_lines(table: Sequence[Standing]) -> list[str]:
    """The standings as a text table (``Elo`` against the field, 95% error bar)."""
    header = ("Rank", "Engine", "Games", "Score", "Elo vs field", "Draws")
    rows = [standing_cells(s) for s in table]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    right = {0, 2}  # numbers in the rank and games columns line up on the right

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.rjust(width) if i in right else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return ["Standings (all games, Elo of the score against the field):", line(header)] + [
        line(row) for row in rows
    ]


# -- terminations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One finished game as the terminations read it: who played which colour, the result and
    the PGN ``Termination`` ("" when unknown: a resumed game whose PGN has none)."""

    red: str
    black: str
    result: str
    termination: str = ""


def forfeit_kind(termination: str) -> str | None:
    """What an engine forfeited by (``time``, ``crash``, ``timeout``, …), or None when the
    game did not end by a forfeit.

    >>> forfeit_kind("time forfeit"), forfeit_kind("forfeit (crash)"), forfeit_kind("checkmate")
    ('time', 'crash', None)
    """
    if termination == "time forfeit":
        return "time"
    if termination.startswith("forfeit (") and termination.endswith(")"):
        return termination[len("forfeit (") : -1]
    if termination == "forfeit":
        return "forfeit"
    return None


def _ending(termination: str) -> str:
    return forfeit_kind(termination) or termination or UNKNOWN_ENDING


@dataclass
class Endings:
    """How one engine's games ended: counts of each ending among its wins, losses and draws
    (a forfeit counts by its kind: ``time``, ``crash``, …)."""

    engine: str
    wins: Counter[str] = field(default_factory=Counter)
    losses: Counter[str] = field(default_factory=Counter)
    draws: Counter[str] = field(default_factory=Counter)
    #: The kinds of forfeit it lost by (``time``, ``crash``, …), and the games it won by its
    #: opponent's forfeit.
    forfeited: Counter[str] = field(default_factory=Counter)
    forfeits_won: int = 0

    @property
    def forfeits_lost(self) -> int:
        return sum(self.forfeited.values())

    @property
    def games(self) -> int:
        return sum(self.wins.values()) + sum(self.losses.values()) + sum(self.draws.values())

    @property
    def forfeit_share(self) -> float:
        """The share of its games that ended by a forfeit, either side's."""
        return (self.forfeits_lost + self.forfeits_won) / self.games if self.games else 0.0


def terminations(names: Sequence[str], outcomes: Iterable[Outcome]) -> list[Endings]:
    """Each engine's :class:`Endings`, in the order of ``names`` (games of engines not in
    ``names``, and unfinished ``*`` games, are left out).

    >>> found = terminations(["A", "B"], [Outcome("A", "B", "1-0", "checkmate"),
    ...                                   Outcome("B", "A", "1-0", "time forfeit")])
    >>> found[0].wins, found[0].losses, found[0].forfeits_lost
    (Counter({'checkmate': 1}), Counter({'time': 1}), 1)
    """
    table = {name: Endings(name) for name in names}
    for outcome in outcomes:
        red, black = table.get(outcome.red), table.get(outcome.black)
        if red is None or black is None:
            continue
        ending = _ending(outcome.termination)
        forfeit = forfeit_kind(outcome.termination) is not None
        if outcome.result == "1/2-1/2":  # no forfeit draws: a forfeit always has a loser
            red.draws[ending] += 1
            black.draws[ending] += 1
            continue
        if outcome.result == "1-0":
            winner, loser = red, black
        elif outcome.result == "0-1":
            winner, loser = black, red
        else:
            continue
        winner.wins[ending] += 1
        loser.losses[ending] += 1
        if forfeit:
            loser.forfeited[ending] += 1
            winner.forfeits_won += 1
    return [table[name] for name in names]


def _counts(counter: Counter[str]) -> str:
    if not counter:
        return "none"
    return ", ".join(f"{count} {ending}" for ending, count in counter.most_common())


def termination_lines(table: Sequence[Endings]) -> list[str]:
    """``Endings of A (10 games): wins 3 checkmate; losses 2 time; draws 5 repetition``."""
    lines = ["How the games ended, per engine:"]
    for endings in table:
        lines.append(
            f"  {endings.engine} ({endings.games} games): wins {_counts(endings.wins)}; "
            f"losses {_counts(endings.losses)}; draws {_counts(endings.draws)}"
        )
    return lines


def forfeit_warnings(
    table: Sequence[Endings], threshold: float = FORFEIT_WARNING_SHARE
) -> list[str]:
    """A warning for every engine whose games ended by forfeit (its own or its opponent's) at
    least ``threshold`` of the time: its results measure those failures, not only its play.

    >>> endings = terminations(["A", "B"], [Outcome("A", "B", "1-0", "forfeit (crash)"),
    ...                                     Outcome("B", "A", "1/2-1/2", "repetition")])
    >>> forfeit_warnings(endings)[1].split(": its")[0]
    'warning: 1 of the 2 games of B (50 %) ended by forfeit (1 lost by B: 1 crash)'
    """
    warnings = []
    for endings in table:
        share = endings.forfeit_share
        if endings.games == 0 or share < threshold or share == 0:
            continue
        forfeits = endings.forfeits_lost + endings.forfeits_won
        parts = []
        if endings.forfeits_lost:
            parts.append(
                f"{endings.forfeits_lost} lost by {endings.engine}: {_counts(endings.forfeited)}"
            )
        if endings.forfeits_won:
            parts.append(f"{endings.forfeits_won} won by its opponents' forfeit")
        warnings.append(
            f"warning: {forfeits} of the {endings.games} games of {endings.engine} "
            f"({math.floor(share * 100 + 0.5)} %) ended by forfeit ({'; '.join(parts)}): "
            "its score and Elo measure these failures, not only its play"
        )
    return warnings
