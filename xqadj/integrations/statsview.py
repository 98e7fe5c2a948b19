"""The statistics section of ``xqadj match --html``: tables and SVG charts, as HTML text.

Layer: integrations.

Pure: :func:`statistics_section` turns a :class:`StatisticsView` (what the match counted) into
an HTML fragment, with no I/O and no script, which the report places before the ruled games.
It holds, in order:

* each pairing's results: W/L/D and the score over **all** games, the pentanomial, and the Elo,
  nElo (95% error bars) and LOS over what they count (the complete pairs, or the games when
  they are not paired), saying which;
* the SPRT's state, and a chart of its LLR after each game with the two bounds;
* a chart of the Elo estimate after each game with its 95% error band;
* with three engines or more, the standings;
* how each engine's games ended, and the forfeit warnings (:mod:`.standings`).

The fragment is well-formed XML (charts included), so that a test can read it back.

>>> from xqadj.integrations.stats import Trinomial, Pentanomial
>>> view = StatisticsView([PairingView("A", "B", Trinomial(3, 1, 0), Pentanomial(draw=1, ww=1))],
...                       progress=[ProgressPoint(2, 0.0, 50.0), ProgressPoint(4, 190.8, 90.0)])
>>> fragment = statistics_section(view)
>>> fragment.startswith('<section id="statistics"') and 'data-chart="elo"' in fragment
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from xqadj.integrations.standings import (
    Endings,
    Standing,
    elo_sample,
    forfeit_warnings,
    standing_cells,
)
from xqadj.integrations.stats import (
    Pentanomial,
    Sprt,
    SprtState,
    Trinomial,
    elo_estimate,
    fixed,
    plus_minus,
)

__all__ = [
    "CHART_HEIGHT",
    "CHART_WIDTH",
    "PairingView",
    "ProgressPoint",
    "StatisticsView",
    "line_chart",
    "statistics_section",
]

CHART_WIDTH, CHART_HEIGHT = 640, 240
#: The plot area's margins inside the chart: left (for the y labels), right, top, bottom.
_LEFT, _RIGHT, _TOP, _BOTTOM = 56, 70, 14, 30


@dataclass(frozen=True)
class PairingView:
    """One pairing's counts, from ``first``'s side; ``pairs`` is None when games are single."""

    first: str
    second: str
    games: Trinomial
    pairs: Pentanomial | None = None


@dataclass(frozen=True)
class ProgressPoint:
    """The statistics after ``games`` finished games: the Elo estimate of the first engine
    against the second and its 95% error bar (each NaN or infinite when undefined), and the
    SPRT's LLR (None without an SPRT)."""

    games: int
    elo: float
    error: float
    llr: float | None = None


@dataclass(frozen=True)
class StatisticsView:
    """What the section shows."""

    pairings: Sequence[PairingView]
    sprt: Sprt | None = None
    sprt_state: SprtState | None = None
    #: One point per finished game, in order (charts; empty: no chart).
    progress: Sequence[ProgressPoint] = ()
    #: Standings (shown with three engines or more).
    standings: Sequence[Standing] = ()
    endings: Sequence[Endings] = ()
    #: Lines said about the whole match (how it stopped, …).
    notes: Sequence[str] = field(default_factory=tuple)


STYLE = """
#statistics table{border-collapse:collapse;margin:8px 0 14px;font-size:14px}
#statistics th,#statistics td{border:1px solid #dcc39a;padding:3px 8px;text-align:left}
#statistics td{white-space:nowrap}
#statistics td.prose{white-space:normal;min-width:14em}
#statistics td.n{text-align:right;font-variant-numeric:tabular-nums}
#statistics th{background:#f6e7c8}
#statistics .warning{color:#a00000;font-weight:600}
#statistics .chart{display:block;max-width:100%;height:auto;background:#fff;
border:1px solid #dcc39a;border-radius:6px;margin:6px 0 14px}
#statistics .tablewrap{overflow-x:auto}
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _table(
    header: Sequence[str], rows: Sequence[Sequence[str]], numeric: set[int], prose: int = -1
) -> str:
    """A table; the ``numeric`` columns aligned right, the ``prose`` column wrapped."""
    head = "".join(f"<th>{_e(cell)}</th>" for cell in header)
    kinds = {**{i: ' class="n"' for i in numeric}, prose: ' class="prose"'}
    body = "".join(
        "<tr>"
        + "".join(f"<td{kinds.get(i, '')}>{_e(cell)}</td>" for i, cell in enumerate(row))
        + "</tr>"
        for row in rows
    )
    return f'<div class="tablewrap"><table><tr>{head}</tr>{body}</table></div>'


def _pairing_row(pairing: PairingView) -> list[str]:
    games, pairs = pairing.games, pairing.pairs
    sample = elo_sample(games, pairs)
    estimate = elo_estimate(sample)
    if isinstance(sample, Pentanomial):
        basis = f"{sample.pairs} complete pairs"
        left = games.games - 2 * sample.pairs
        if left:
            basis += f" ({left} unpaired game{'s' if left > 1 else ''} left out)"
    else:
        basis = f"{games.games} games"
    return [
        f"{pairing.first} vs {pairing.second}",
        str(games.games),
        str(games.wins),
        str(games.losses),
        str(games.draws),
        f"{games.points:g} ({games.score * 100:.1f} %)",
        "[" + ", ".join(str(c) for c in pairs.counts()) + "]" if pairs is not None else "-",
        plus_minus(estimate.elo, estimate.error),
        plus_minus(estimate.nelo, estimate.nelo_error),
        fixed(estimate.los * 100) + (" %" if math.isfinite(estimate.los) else ""),
        basis + ("" if estimate.spread else ", all the same result: no error bar"),
    ]


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high]."""
    span = high - low
    if span <= 0:
        return [low]
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10) + 0.0)
        value += step
    return ticks


def _number(value: float) -> str:
    """A coordinate for SVG: two decimals, no -0."""
    return f"{value:.2f}".replace("-0.00", "0.00")


def line_chart(
    kind: str,
    title: str,
    points: Sequence[tuple[float, float]],
    band: Sequence[tuple[float, float, float]] = (),
    bounds: Sequence[tuple[float, str]] = (),
) -> str:
    """An SVG line chart of ``points`` (x, y): non-finite y values leave a gap; ``band`` is
    (x, low, high) drawn as a shaded area (its infinite parts left out); ``bounds`` are
    horizontal dashed lines (y, label).  The y range covers the line, the bounds and 0, and
    the band where it is finite, clipped to four times the line's own range so that the
    first games' huge error bars do not flatten the rest.

    The data are in attributes a program can read back: ``data-x``/``data-y`` on the chart
    give the ranges, and every line and area keeps its values in ``data-values``."""
    finite = [(x, y) for x, y in points if math.isfinite(y)]
    xs = [x for x, _ in points] or [0.0]
    x_low, x_high = 0.0, max(max(xs), 1.0)
    ys = [y for _, y in finite] + [value for value, _ in bounds] + [0.0]
    y_low, y_high = min(ys), max(ys)
    spread = max(y_high - y_low, 1.0)
    for _, low, high in band:
        if math.isfinite(low):
            y_low = min(y_low, max(low, y_low - 1.5 * spread))
        if math.isfinite(high):
            y_high = max(y_high, min(high, y_high + 1.5 * spread))
    pad = (y_high - y_low) * 0.06 or 1.0
    y_low, y_high = y_low - pad, y_high + pad
    plot_w = CHART_WIDTH - _LEFT - _RIGHT
    plot_h = CHART_HEIGHT - _TOP - _BOTTOM

    def px(x: float) -> float:
        return _LEFT + (x - x_low) / (x_high - x_low) * plot_w

    def py(y: float) -> float:
        # Clamped to the plot area (a band wider than the range is cut at its edges; no
        # clip-path, whose url() reference a self-contained page does not use).
        y = min(max(y, y_low), y_high)
        return _TOP + (y_high - y) / (y_high - y_low) * plot_h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" data-chart="{_e(kind)}" '
        f'viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" width="{CHART_WIDTH}" '
        f'height="{CHART_HEIGHT}" role="img" aria-label="{_e(title)}" '
        f'data-x="{_number(x_low)} {_number(x_high)}" data-y="{_number(y_low)} {_number(y_high)}" '
        f'font-family="system-ui,sans-serif" font-size="11">',
        f"<title>{_e(title)}</title>",
        f'<rect x="{_LEFT}" y="{_TOP}" width="{plot_w}" height="{plot_h}" fill="#fffdf8" '
        'stroke="#c8a064"/>',
    ]
    for tick in _ticks(y_low, y_high):
        y = py(tick)
        parts.append(
            f'<line x1="{_LEFT}" x2="{_LEFT + plot_w}" y1="{_number(y)}" y2="{_number(y)}" '
            'stroke="#eee2c8"/>'
            f'<text x="{_LEFT - 6}" y="{_number(y + 4)}" text-anchor="end">{tick:g}</text>'
        )
    for tick in _ticks(x_low, x_high):
        if tick != int(tick):
            continue
        x = px(tick)
        parts.append(
            f'<text x="{_number(x)}" y="{CHART_HEIGHT - _BOTTOM + 14}" '
            f'text-anchor="middle">{tick:g}</text>'
        )
    parts.append(
        f'<text x="{_LEFT + plot_w / 2:.0f}" y="{CHART_HEIGHT - 3}" text-anchor="middle">'
        "games</text>"
    )
    finite_band = [(x, lo, hi) for x, lo, hi in band if math.isfinite(lo) and math.isfinite(hi)]
    if finite_band:
        outline = [(px(x), py(hi)) for x, _, hi in finite_band] + [
            (px(x), py(lo)) for x, lo, _ in reversed(finite_band)
        ]
        values = " ".join(f"{x:g}:{lo:.4g}:{hi:.4g}" for x, lo, hi in finite_band)
        parts.append(
            f'<polygon class="band" fill="#c8a064" fill-opacity="0.3" stroke="none" '
            f'data-values="{values}" points="'
            + " ".join(f"{_number(x)},{_number(y)}" for x, y in outline)
            + '"/>'
        )
    for value, label in bounds:
        y = py(value)
        parts.append(
            f'<line class="bound" data-value="{value:.4g}" x1="{_LEFT}" x2="{_LEFT + plot_w}" '
            f'y1="{_number(y)}" y2="{_number(y)}" stroke="#c8102e" stroke-dasharray="6 4"/>'
            f'<text x="{_LEFT + plot_w + 4}" y="{_number(y + 4)}" fill="#c8102e">'
            f"{_e(label)}</text>"
        )
    segment: list[tuple[float, float]] = []
    segments = []
    for x, y in points:
        if math.isfinite(y):
            segment.append((x, y))
        elif segment:
            segments.append(segment)
            segment = []
    if segment:
        segments.append(segment)
    for run in segments:
        values = " ".join(f"{x:g}:{y:.4g}" for x, y in run)
        coordinates = " ".join(f"{_number(px(x))},{_number(py(y))}" for x, y in run)
        if len(run) == 1:
            x, y = run[0]
            parts.append(
                f'<circle class="value" data-values="{values}" cx="{_number(px(x))}" '
                f'cy="{_number(py(y))}" r="2.5" fill="#2b1d0e"/>'
            )
        else:
            parts.append(
                f'<polyline class="value" data-values="{values}" fill="none" '
                f'stroke="#2b1d0e" stroke-width="1.6" points="{coordinates}"/>'
            )
    parts.append("</svg>")
    return "".join(parts)


def _sprt_html(view: StatisticsView) -> str:
    sprt, state = view.sprt, view.sprt_state
    if sprt is None:
        return ""
    if state is None:
        text = "no game yet"
    else:
        verdict = f"{state.accepted} accepted" if state.accepted else "running, no decision yet"
        text = f"LLR {state.llr:.2f} (bounds {state.lower:.2f}, {state.upper:.2f}): {verdict}"
    parts = [f"<h3>SPRT ({_e(sprt.text())})</h3>", f'<p class="sprt">{_e(text)}</p>']
    points = [(float(p.games), p.llr) for p in view.progress if p.llr is not None]
    if points:
        parts.append(
            line_chart(
                "llr",
                "The SPRT's log-likelihood ratio after each game, with its bounds",
                points,
                bounds=[
                    (sprt.upper, f"H1 {sprt.upper:.2f}"),
                    (sprt.lower, f"H0 {sprt.lower:.2f}"),
                ],
            )
        )
    return "".join(parts)


def _elo_chart(view: StatisticsView) -> str:
    if not any(math.isfinite(p.elo) for p in view.progress):
        return ""
    first = view.pairings[0] if view.pairings else None
    who = f"{first.first} vs {first.second}" if first else "the first engine"
    return f"<h3>Elo of {_e(who)} after each game</h3>" + line_chart(
        "elo",
        f"Elo of {who} after each game, with its 95% error band",
        [(float(p.games), p.elo) for p in view.progress],
        band=[(float(p.games), p.elo - p.error, p.elo + p.error) for p in view.progress],
    )


def _standings_html(table: Sequence[Standing]) -> str:
    rows = [list(standing_cells(s)) for s in table]
    header = ["Rank", "Engine", "Games", "Score", "Elo vs field (95 %)", "Draws"]
    return "<h3>Standings</h3>" + _table(header, rows, {0, 2, 5})


def _counts(counter: dict[str, int]) -> str:
    return ", ".join(f"{n} {ending}" for ending, n in sorted(counter.items(), key=lambda i: -i[1]))


def _endings_html(table: Sequence[Endings]) -> str:
    rows = [
        [
            e.engine,
            str(e.games),
            _counts(e.wins) or "-",
            _counts(e.losses) or "-",
            _counts(e.draws) or "-",
            str(e.forfeits_lost),
        ]
        for e in table
    ]
    header = ["Engine", "Games", "Wins by", "Losses by", "Draws by", "Forfeits lost"]
    warnings = "".join(f'<p class="warning">{_e(w)}</p>' for w in forfeit_warnings(table))
    return "<h3>How the games ended</h3>" + _table(header, rows, {1, 5}, prose=4) + warnings


def statistics_section(view: StatisticsView) -> str:
    """The section, as an HTML fragment (see the module's documentation)."""
    parts = [f'<section id="statistics"><style>{STYLE}</style><h2>Statistics</h2>']
    parts += [f'<p class="note">{_e(note)}</p>' for note in view.notes]
    if view.pairings:
        header = [
            "Pairing",
            "Games",
            "W",
            "L",
            "D",
            "Points",
            "Ptnml(0-2)",
            "Elo (95 %)",
            "nElo (95 %)",
            "LOS",
            "Elo counts",
        ]
        parts.append(
            "<p>W, L, D and the points count every finished game; the Elo, nElo and LOS count "
            "what the last column says: the complete game pairs when games are paired.</p>"
        )
        rows = [_pairing_row(p) for p in view.pairings]
        parts.append(_table(header, rows, {1, 2, 3, 4}, prose=len(header) - 1))
    else:
        parts.append("<p>No game was finished.</p>")
    parts.append(_sprt_html(view))
    parts.append(_elo_chart(view))
    if len(view.standings) >= 3:
        parts.append(_standings_html(view.standings))
    if view.endings:
        parts.append(_endings_html(view.endings))
    parts.append("</section>")
    return "".join(parts)
