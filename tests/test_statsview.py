"""The statistics section of ``match --html`` (xqadj.integrations.statsview): its tables, and
its charts read back from the SVG and checked against the values they draw."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from xqadj.integrations.standings import Outcome, standings, terminations
from xqadj.integrations.stats import Pentanomial, Sprt, Trinomial, elo_estimate
from xqadj.integrations.statsview import (
    CHART_HEIGHT,
    PairingView,
    ProgressPoint,
    StatisticsView,
    line_chart,
    statistics_section,
)

SVG = "{http://www.w3.org/2000/svg}"


def parse(fragment: str) -> ET.Element:
    return ET.fromstring(fragment)  # well-formed XML, charts included


def chart(root: ET.Element, kind: str) -> ET.Element:
    found = [e for e in root.iter(f"{SVG}svg") if e.get("data-chart") == kind]
    assert len(found) == 1, f"one {kind} chart"
    return found[0]


def to_values(svg: ET.Element, points: str) -> list[tuple[float, float]]:
    """Pixel coordinates back to data, from the ranges the chart states (an independent
    inverse of its mapping: the plot area is the chart's first <rect>)."""
    x_low, x_high = map(float, svg.get("data-x", "").split())
    y_low, y_high = map(float, svg.get("data-y", "").split())
    area = svg.find(f"{SVG}rect")
    assert area is not None
    left, top = float(area.get("x", "")), float(area.get("y", ""))
    width, height = float(area.get("width", "")), float(area.get("height", ""))
    values = []
    for pair in points.split():
        x, y = map(float, pair.split(","))
        values.append(
            (
                x_low + (x - left) / width * (x_high - x_low),
                y_high - (y - top) / height * (y_high - y_low),
            )
        )
    return values


def sprt_run() -> tuple[Sprt, list[ProgressPoint], Pentanomial, Trinomial]:
    """A match of paired games, A winning one pair in three and drawing the rest, with the
    statistics after every game as the match computes them."""
    sprt = Sprt(0, 10)
    pairs, games, progress = Pentanomial(), Trinomial(), []
    for number in range(1, 61):
        points = 1.0 if number % 6 in (1, 2) else 0.5
        games = games.add(points)
        if number % 2 == 0:
            pairs = pairs.add(points, points)
        estimate = elo_estimate(pairs if pairs.pairs else games)
        progress.append(ProgressPoint(number, estimate.elo, estimate.error, sprt.state(pairs).llr))
    return sprt, progress, pairs, games


def test_the_llr_chart_draws_the_llr_between_its_bounds() -> None:
    sprt, progress, pairs, games = sprt_run()
    view = StatisticsView([PairingView("A", "B", games, pairs)], sprt, sprt.state(pairs), progress)
    root = parse(statistics_section(view))
    svg = chart(root, "llr")
    bounds = sorted(
        float(line.get("data-value", ""))
        for line in svg.iter(f"{SVG}line")
        if line.get("class") == "bound"
    )
    assert bounds == [round(sprt.lower, 3), round(sprt.upper, 3)]
    (line,) = [e for e in svg.iter(f"{SVG}polyline") if e.get("class") == "value"]
    drawn = to_values(svg, line.get("points", ""))
    assert len(drawn) == len(progress)
    for (x, y), point in zip(drawn, progress, strict=True):
        assert math.isclose(x, point.games, abs_tol=0.05)
        assert point.llr is not None and math.isclose(y, point.llr, abs_tol=0.05)
    text = "".join(root.itertext())
    assert f"LLR {sprt.state(pairs).llr:.2f} (bounds -2.94, 2.94)" in text


def test_the_elo_chart_has_its_error_band_and_a_gap_where_elo_is_undefined() -> None:
    _, progress, pairs, games = sprt_run()
    # The first pair was won twice: no finite Elo until the first draw (game 3).
    assert not math.isfinite(progress[1].elo) and math.isfinite(progress[-1].elo)
    root = parse(
        statistics_section(StatisticsView([PairingView("A", "B", games, pairs)], progress=progress))
    )
    svg = chart(root, "elo")
    (line,) = [e for e in svg.iter(f"{SVG}polyline") if e.get("class") == "value"]
    finite = [p for p in progress if math.isfinite(p.elo)]
    drawn = to_values(svg, line.get("points", ""))
    assert [round(x) for x, _ in drawn] == [p.games for p in finite]
    y_low, y_high = map(float, svg.get("data-y", "").split())
    for (_, y), point in zip(drawn, finite, strict=True):
        assert math.isclose(y, point.elo, abs_tol=(y_high - y_low) / CHART_HEIGHT)
    (band,) = [e for e in svg.iter(f"{SVG}polygon") if e.get("class") == "band"]
    for value in band.get("data-values", "").split():
        games_done, low, high = map(float, value.split(":"))
        point = progress[int(games_done) - 1]
        assert math.isclose(low, point.elo - point.error, rel_tol=1e-3)
        assert math.isclose(high, point.elo + point.error, rel_tol=1e-3)
    assert not any(e.get("data-chart") == "llr" for e in root.iter(f"{SVG}svg"))  # no SPRT


def test_the_tables_say_what_they_count_and_print_no_inf() -> None:
    view = StatisticsView(
        [PairingView("A", "B", Trinomial(wins=5), Pentanomial(ww=2))],
        endings=terminations(["A", "B"], [Outcome("A", "B", "1-0", "forfeit (crash)")] * 5),
    )
    fragment = statistics_section(view)
    root = parse(fragment)
    cells = [td.text for td in root.iter("td")]
    assert cells[:5] == ["A vs B", "5", "5", "0", "0"]
    assert (
        "2 complete pairs (1 unpaired game left out), all the same result: no error bar"
        in cells
    )
    assert "inf" not in fragment and "nan" not in fragment.replace("nano", "")
    warnings = [p.text or "" for p in root.iter("p") if p.get("class") == "warning"]
    assert len(warnings) == 2 and "5 lost by B: 5 crash" in warnings[1]


def test_standings_only_with_three_engines_or_more() -> None:
    names = ["A", "B", "C"]
    totals = [Trinomial(2, 1, 1), Trinomial(1, 1, 2), Trinomial(1, 2, 1)]
    root = parse(statistics_section(StatisticsView([], standings=standings(names, totals))))
    headings = [h.text for h in root.iter("h3")]
    assert "Standings" in headings
    rows = [[td.text for td in tr.iter("td")] for tr in root.iter("tr")][1:]
    assert [row[1] for row in rows] == ["A", "C", "B"]
    two = standings(names[:2], totals[:2])
    assert "Standings" not in statistics_section(StatisticsView([], standings=two))


def test_a_chart_of_one_point_and_of_nothing() -> None:
    one = ET.fromstring(line_chart("x", "one", [(1.0, 5.0)]))
    assert [c.get("class") for c in one.iter(f"{SVG}circle")] == ["value"]
    empty = ET.fromstring(line_chart("x", "none", [(1.0, math.inf)]))
    assert not list(empty.iter(f"{SVG}polyline")) and not list(empty.iter(f"{SVG}circle"))
