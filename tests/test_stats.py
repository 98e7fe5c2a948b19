"""xqadj.integrations.stats against the published figures of fastchess, and its invariants.

Expected values: fastchess' own unit tests, ``app/tests/elo_test.cpp`` (Elo, nElo, their 95%
error bars and LOS, trinomial and pentanomial) and ``app/tests/sprt_test.cpp`` (the LLR of the
generalised SPRT, normalized and logistic models), in the Disservin/fastchess repository.  In
those files ``Stats(w, l, d)`` is wins, losses, draws and ``Stats(ll, ld, wl, dd, wd, ww)`` the
six pair kinds (``app/src/matchmaking/stats.hpp``); WL and DD both make one point a pair, the
middle pentanomial bucket here.  fastchess rounds to 0.01 (``Approx(...).epsilon(0.01)`` is a
1% relative tolerance); the checks below use the same tolerance.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xqadj.integrations.stats import (
    MODELS,
    Pentanomial,
    Sprt,
    Trinomial,
    elo_estimate,
    elo_to_score,
    llr,
    pair_bucket,
    score_to_elo,
)


def fastchess_trinomial(wins: int, losses: int, draws: int) -> Trinomial:
    return Trinomial(wins=wins, draws=draws, losses=losses)


def fastchess_pentanomial(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> Pentanomial:
    return Pentanomial(ll=ll, ld=ld, draw=wl + dd, wd=wd, ww=ww)


# fastchess app/tests/elo_test.cpp, "EloWDL 1..3": (stats, nElo, nElo error, Elo, Elo error, LOS)
WDL_CASES = [
    ((76, 89, 123), -20.76, 40.13, None, None, "15.53 %"),
    ((136, 96, 111), 49.77, 36.77, 40.70, 30.43, "99.60 %"),
    ((34, 356, 0), -508.44, 34.48, None, None, None),
]
# fastchess app/tests/elo_test.cpp, "EloPentanomial 1..3"
PENTA_CASES = [
    ((34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, 27.65, "100.00 %"),
    ((332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, 10.33, "5.05 %"),
    ((7895, 8757, 5485, 200, 568, 9999), -19.01, 2.65, -21.04, 2.95, None),
]


@pytest.mark.parametrize("counts,nelo,nelo_error,elo,error,los", WDL_CASES)
def test_trinomial_elo_matches_fastchess(counts, nelo, nelo_error, elo, error, los):
    estimate = elo_estimate(fastchess_trinomial(*counts))
    assert estimate.nelo == pytest.approx(nelo, rel=0.01)
    assert estimate.nelo_error == pytest.approx(nelo_error, rel=0.01)
    if elo is not None:
        assert estimate.elo == pytest.approx(elo, rel=0.01)
        assert estimate.error == pytest.approx(error, rel=0.01)
    if los is not None:
        assert f"{estimate.los * 100:.2f} %" == los


@pytest.mark.parametrize("counts,nelo,nelo_error,elo,error,los", PENTA_CASES)
def test_pentanomial_elo_matches_fastchess(counts, nelo, nelo_error, elo, error, los):
    estimate = elo_estimate(fastchess_pentanomial(*counts))
    assert estimate.nelo == pytest.approx(nelo, rel=0.01)
    assert estimate.nelo_error == pytest.approx(nelo_error, rel=0.01)
    assert estimate.elo == pytest.approx(elo, rel=0.01)
    assert estimate.error == pytest.approx(error, rel=0.01)
    if los is not None:
        assert f"{estimate.los * 100:.2f} %" == los


# fastchess app/tests/sprt_test.cpp (alpha = beta = 0.05 throughout).
TRINOMIAL_LLR = [
    ((36433, 36027, 68692), 0, 2, "normalized", 0.92),  # "normalized trinomial 1"
    ((10871, 10650, 20431), -1.75, 0.25, "normalized", 2.30),  # "normalized trinomial 2"
    ((21404, 21184, 40708), 0.5, 2.5, "logistic", -1.57),  # "logistic trinomial 1"
    ((57433, 57030, 106593), 0, 2, "logistic", -2.59),  # "logistic trinomial 2"
]
PENTANOMIAL_LLR = [
    ((365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),  # "normalized penta. 1"
    ((127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),  # "... 2"
    ((223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),  # "logistic penta. 1"
    ((871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),  # "logistic penta. 2"
]
# fastchess' "normalized trinomial 3" and "normalized pentanomial 3" (every game the same
# result) are left out: there the maximum-likelihood distributions sit at the regularized
# buckets' poles, and fastchess' value (2.97, 2.94) reflects its root finder's 1e-7 stopping
# width, not the maximum; xqadj solves to full precision (see test_degenerate_llr below).


@pytest.mark.parametrize("counts,elo0,elo1,model,expected", TRINOMIAL_LLR)
def test_trinomial_llr_matches_fastchess(counts, elo0, elo1, model, expected):
    assert llr(fastchess_trinomial(*counts), elo0, elo1, model) == pytest.approx(expected, rel=0.01)


@pytest.mark.parametrize("counts,elo0,elo1,model,expected", PENTANOMIAL_LLR)
def test_pentanomial_llr_matches_fastchess(counts, elo0, elo1, model, expected):
    assert llr(fastchess_pentanomial(*counts), elo0, elo1, model) == pytest.approx(
        expected, rel=0.01
    )


def test_degenerate_llr():
    """104 pairs all won 2-0, normalized SPRT [0, 5]: the H0 distribution (t-value 0) must
    put half its mass on LL to keep the mean at ½, the H1 one a little less; the LLR is then
    104·ln(p1(WW)/p0(WW)) ≈ 104·ln(0.51016/0.49999) = 2.095 (computed by hand from the MLEs;
    fastchess prints 2.94 for it, see above)."""
    value = llr(Pentanomial(ww=104), 0, 5, "normalized")
    assert value == pytest.approx(104 * math.log(0.5101593 / 0.4999856), rel=1e-4)
    # All draws favour H0 (Elo 0) over H1 (Elo 5): a negative LLR.
    assert llr(Trinomial(draws=16700), 0, 5, "normalized") < 0


def test_sprt_bounds_and_decision():
    sprt = Sprt(elo0=0, elo1=5)
    # ln(0.05/0.95) and ln(0.95/0.05), as fastchess and cutechess print them: (-2.94, 2.94).
    assert (round(sprt.lower, 2), round(sprt.upper, 2)) == (-2.94, 2.94)
    assert sprt.state(Pentanomial()).accepted is None
    assert sprt.state(Pentanomial()).llr == 0
    # "normalized pentanomial 2" with bounds [-1.75, 0.25]: LLR 3.01 > 2.94, H1.
    state = Sprt(elo0=-1.75, elo1=0.25).state(
        fastchess_pentanomial(127, 4883, 10311, 401, 5150, 104)
    )
    assert state.accepted == "H1"
    assert "H1 accepted" in state.text()
    # "logistic pentanomial 2": LLR -4.98 < -2.94, H0.
    state = Sprt(0, 2, model="logistic").state(
        fastchess_pentanomial(871, 26175, 55003, 980, 26678, 821)
    )
    assert state.accepted == "H0"
    wide = Sprt(elo0=0, elo1=2, alpha=0.001, beta=0.2)
    assert wide.lower == pytest.approx(math.log(0.2 / 0.999))
    assert wide.upper == pytest.approx(math.log(0.8 / 0.001))


def test_sprt_parse():
    sprt = Sprt.parse("elo0=0 elo1=10 alpha=0.1 beta=0.2 model=logistic")
    assert sprt == Sprt(0, 10, 0.1, 0.2, "logistic")
    assert Sprt.parse(["elo0=-1", "elo1=3"]) == Sprt(-1, 3, 0.05, 0.05, "normalized")
    for bad, message in [
        ("elo0=5 elo1=0", "below"),
        ("elo0=0", "needs elo0"),
        ("elo0=0 elo1=5 alpha=1.5", "alpha"),
        ("elo0=0 elo1=5 alpha=0.6 beta=0.5", r"alpha \+ beta"),
        ("elo0=0 elo1=5 model=bayesian", "model"),
        ("elo0=0 elo1=x", "number"),
        ("elo0=0 elo1=nan", "finite"),
        ("elo0=0 elo1=5 gamma=1", "unknown"),
        ("elo0", "key=value"),
    ]:
        with pytest.raises(ValueError, match=message):
            Sprt.parse(bad)


def test_score_and_pairs():
    assert score_to_elo(0.5) == 0
    assert score_to_elo(0) == -math.inf and score_to_elo(1) == math.inf
    assert elo_to_score(score_to_elo(0.3)) == pytest.approx(0.3)
    assert [pair_bucket(a, b) for a, b in [(0, 0), (0, 0.5), (1, 0), (0.5, 1), (1, 1)]] == [
        0,
        1,
        2,
        3,
        4,
    ]
    with pytest.raises(ValueError):
        pair_bucket(1, 1.5)
    with pytest.raises(ValueError):
        Trinomial().add(0.25)
    pairs = Pentanomial().add(1, 0).add(0.5, 0.5).add(1, 0.5).add(0, 0)
    assert pairs.counts() == (1, 0, 2, 1, 0)
    assert pairs.score == pytest.approx((0 + 0.5 + 0.5 + 0.75) / 4)
    empty = elo_estimate(Trinomial())
    assert (empty.score, empty.elo, empty.samples, empty.los) == (0.5, 0.0, 0, 0.5)
    clean_sweep = elo_estimate(Trinomial(wins=10))
    assert clean_sweep.elo == math.inf and clean_sweep.los == 1.0


# What fastchess prints for samples without spread (std::fixed of inf and 0/0), and what we do.
DEGENERATE = [
    (Trinomial(wins=10), "Elo: n/a, nElo: n/a, LOS: 100.00 %"),
    (Trinomial(losses=3), "Elo: n/a, nElo: n/a, LOS: 0.00 %"),
    (Trinomial(draws=6), "Elo: 0.00 +/- n/a, nElo: n/a, LOS: n/a"),
    (Pentanomial(ww=2), "Elo: n/a, nElo: n/a, LOS: 100.00 %"),
    (Pentanomial(draw=5), "Elo: 0.00 +/- n/a, nElo: n/a, LOS: n/a"),
    (Pentanomial(wd=4), "Elo: 190.85 +/- n/a, nElo: n/a, LOS: 100.00 %"),
]


@pytest.mark.parametrize("result,text", DEGENERATE)
def test_degenerate_samples_print_n_a_not_inf_or_zero_error(result, text):
    """A clean sweep, or any sample whose games (pairs) all had the same result, has no error
    bar: fastchess prints ``inf``/``nan`` there and xqadj printed ``nElo: inf +/- 0.00``, an
    error of zero that reads as certainty.  Both now print n/a, and the estimate says why."""
    estimate = elo_estimate(result)
    assert estimate.text() == text
    assert not estimate.spread
    assert "inf" not in estimate.text() and "nan" not in estimate.text()


@given(st.tuples(*[st.integers(0, 60)] * 3).map(lambda c: Trinomial(*c)))
def test_printed_statistics_never_show_inf_or_nan(result):
    text = elo_estimate(result).text()
    assert "inf" not in text and "nan" not in text
    if elo_estimate(result).spread:
        assert "n/a" not in text.split("nElo")[1]  # with spread, nElo and LOS are numbers


counts3 = st.tuples(*[st.integers(0, 200)] * 3)
counts5 = st.tuples(*[st.integers(0, 100)] * 5)
bounds = st.tuples(st.floats(-30, 20), st.floats(1, 30)).map(lambda b: (b[0], b[0] + b[1]))


@given(counts5, bounds, st.sampled_from(MODELS))
def test_llr_symmetric_under_swapping_engines(counts, elo_bounds, model):
    """The same pairs seen from the other engine, with the bounds negated: the same LLR."""
    elo0, elo1 = elo_bounds
    result = Pentanomial(*counts)
    assert llr(result.flipped(), -elo0, -elo1, model) == pytest.approx(
        llr(result, elo0, elo1, model), rel=1e-6, abs=1e-6
    )


@given(st.one_of(counts3.map(lambda c: Trinomial(*c)), counts5.map(lambda c: Pentanomial(*c))))
def test_elo_symmetric_under_swapping_engines(result):
    if not result.counts() or sum(result.counts()) == 0:
        return
    mine, theirs = elo_estimate(result), elo_estimate(result.flipped())
    assert theirs.score == pytest.approx(1 - mine.score)
    if math.isfinite(mine.elo):
        assert theirs.elo == pytest.approx(-mine.elo, abs=1e-9)
    if mine.spread:  # without spread nElo is ±inf or undefined (NaN), on both sides
        assert theirs.nelo == pytest.approx(-mine.nelo, abs=1e-9)
    else:
        assert not theirs.spread
    if math.isnan(mine.los):  # no spread at a score of ½: undefined from either side
        assert math.isnan(theirs.los)
    else:
        assert theirs.los == pytest.approx(1 - mine.los, abs=1e-12)


@given(counts3, bounds, st.sampled_from(MODELS))
def test_llr_grows_with_wins(counts, elo_bounds, model):
    """One more win never makes H1 less likely."""
    elo0, elo1 = elo_bounds
    wins, draws, losses = counts
    before = llr(Trinomial(wins, draws, losses), elo0, elo1, model)
    after = llr(Trinomial(wins + 1, draws, losses), elo0, elo1, model)
    assert after >= before - 1e-9


@given(counts5, st.integers(0, 3), bounds, st.sampled_from(MODELS))
def test_llr_grows_with_better_pairs(counts, bucket, elo_bounds, model):
    """A pair moved one bucket up (half a point more) never makes H1 less likely."""
    if counts[bucket] == 0:
        return
    better = list(counts)
    better[bucket] -= 1
    better[bucket + 1] += 1
    elo0, elo1 = elo_bounds
    before = llr(Pentanomial(*counts), elo0, elo1, model)
    assert llr(Pentanomial(*better), elo0, elo1, model) >= before - 1e-9


@given(st.tuples(*[st.integers(1, 50)] * 5), st.integers(2, 5), bounds, st.sampled_from(MODELS))
def test_llr_scales_with_sample_size(counts, factor, elo_bounds, model):
    """The same proportions over k times the pairs: k times the LLR, error bars ~1/sqrt(k)."""
    elo0, elo1 = elo_bounds
    base, scaled = Pentanomial(*counts), Pentanomial(*(c * factor for c in counts))
    assert llr(scaled, elo0, elo1, model) == pytest.approx(
        factor * llr(base, elo0, elo1, model), rel=1e-6, abs=1e-6
    )
    assert elo_estimate(scaled).nelo_error == pytest.approx(
        elo_estimate(base).nelo_error / math.sqrt(factor)
    )


@given(counts5)
def test_pairs_and_games_give_the_same_score(counts):
    """The pentanomial score is the score of the games inside the pairs."""
    pairs = Pentanomial(*counts)
    games = Trinomial()
    for bucket, count in enumerate(counts):
        # One representative pair per bucket: LL, LD, WL, WD, WW.
        first, second = [(0, 0), (0, 0.5), (1, 0), (1, 0.5), (1, 1)][bucket]
        for _ in range(count):
            games = games.add(first).add(second)
    assert pairs.score == pytest.approx(games.score)
