"""Match statistics: score, Elo with error bars, likelihood of superiority and the SPRT.

Layer: integrations.

The formulas are those of the chess engine testing tools, so that a xiangqi engine developer
reads the same figures as from fastchess, cutechess-cli or fishtest:

* the **score** is (wins + draws/2) / games, and the **Elo difference** is the logistic
  ``-400·log10(1/score - 1)``;
* the **95% error bars** come from the variance of one game's result (*trinomial*: win, draw,
  loss) or of one game pair's result (*pentanomial*: the five sums 0, ½, 1, 1½, 2 of a pair of
  games played from the same opening with the colours swapped, which removes most of the
  opening's bias): the score ± 1.96 standard errors, turned into Elo, half the width;
* **normalized Elo** (nElo) is the score's distance from ½ in standard deviations of one game
  (a pair counts as two games), times 800/ln 10;
* the **likelihood of superiority** (LOS) is the probability, under the normal approximation,
  that the true score is above ½;
* the **generalised SPRT** (GSPRT) computes the log-likelihood ratio of H1 (Elo = elo1) against
  H0 (Elo = elo0) with the maximum-likelihood distributions of the results under each
  hypothesis (M. Van den Bergh, "Comments on Normalized Elo", section 4.1, for the normalized
  model; "support_MLE_multinomial", proposition 1.1, for the logistic one), after replacing
  empty buckets by 0.001 as fishtest's ``LLRcalc.regularize`` does.  The test stops when the
  LLR leaves the interval (ln(β/(1-α)), ln((1-β)/α)).

>>> result = Pentanomial(ll=1, ld=2, draw=10, wd=5, ww=2)
>>> result.pairs, result.score
(20, 0.5625)
>>> round(elo_estimate(result).elo, 2)
43.66
>>> sprt = Sprt(elo0=0, elo1=10)
>>> round(sprt.lower, 3), round(sprt.upper, 3)
(-2.944, 2.944)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xqadj.integrations.settings import parse_key_values

__all__ = [
    "CI95_Z",
    "MODELS",
    "NELO_PER_T",
    "SPRT_MODELS",
    "EloEstimate",
    "Pentanomial",
    "Sprt",
    "SprtState",
    "Trinomial",
    "elo_estimate",
    "elo_to_score",
    "fixed",
    "llr",
    "llr_bayes_elo",
    "pair_bucket",
    "plus_minus",
    "score_to_elo",
]

#: The two-sided 95% quantile of the normal distribution (fastchess' ``CI95ZSCORE``).
CI95_Z = 1.959963984540054
#: Normalized Elo per unit of t-value (score distance from ½ in standard deviations).
NELO_PER_T = 800 / math.log(10)
#: The Elo models of the generalised SPRT, for games or pairs: normalized Elo (fishtest's
#: default) or logistic Elo.
MODELS = ("normalized", "logistic")
#: The models ``--sprt`` accepts: those, or BayesElo on the games' wins, draws and losses
#: (cutechess-cli's SPRT, fastchess's ``model=bayesian``).
SPRT_MODELS = (*MODELS, "bayesian")
#: The settings of ``--sprt``.
SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model")
#: What an empty bucket counts as in the SPRT (fishtest ``LLRcalc.regularize``, fastchess).
REGULARIZE = 1e-3


def score_to_elo(score: float) -> float:
    """The logistic Elo difference of an expected ``score``; ±inf at 0 and 1.

    >>> round(score_to_elo(0.75), 2), score_to_elo(0.5)
    (190.85, 0.0)
    """
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no -0.0 at score ½


def elo_to_score(elo: float) -> float:
    """The expected score of a logistic Elo difference (the inverse of :func:`score_to_elo`)."""
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class Trinomial:
    """Wins, draws and losses of one engine, game by game."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def score(self) -> float:
        """Points per game (½ before any game)."""
        return self.points / self.games if self.games else 0.5

    def counts(self) -> tuple[int, int, int]:
        """Losses, draws, wins: the frequencies of the results 0, ½, 1."""
        return self.losses, self.draws, self.wins

    def add(self, points: float) -> Trinomial:
        """These results and one more game worth ``points`` (0, 0.5 or 1)."""
        if points == 1:
            return Trinomial(self.wins + 1, self.draws, self.losses)
        if points == 0.5:
            return Trinomial(self.wins, self.draws + 1, self.losses)
        if points == 0:
            return Trinomial(self.wins, self.draws, self.losses + 1)
        raise ValueError(f"a game is worth 0, 0.5 or 1 point, not {points!r}")

    def flipped(self) -> Trinomial:
        """The same games seen from the opponent."""
        return Trinomial(self.losses, self.draws, self.wins)


def pair_bucket(first: float, second: float) -> int:
    """The pentanomial bucket (0–4) of a game pair worth ``first`` + ``second`` points.

    >>> pair_bucket(1, 0), pair_bucket(0.5, 0.5), pair_bucket(1, 0.5)
    (2, 2, 3)
    """
    total = first + second
    bucket = int(round(total * 2))
    if not 0 <= bucket <= 4 or bucket / 2 != total:
        raise ValueError(f"a game pair is worth 0 to 2 points in half points, not {total!r}")
    return bucket


@dataclass(frozen=True)
class Pentanomial:
    """Game pairs by their sum for one engine: 0 (``ll``), ½ (``ld``: a loss and a draw), 1
    (``draw``: two draws or a win and a loss), 1½ (``wd``) and 2 (``ww``) points."""

    ll: int = 0
    ld: int = 0
    draw: int = 0
    wd: int = 0
    ww: int = 0

    @property
    def pairs(self) -> int:
        return self.ll + self.ld + self.draw + self.wd + self.ww

    @property
    def score(self) -> float:
        """Points per game (½ before any pair)."""
        if not self.pairs:
            return 0.5
        return (0.25 * self.ld + 0.5 * self.draw + 0.75 * self.wd + self.ww) / self.pairs

    def counts(self) -> tuple[int, int, int, int, int]:
        """The frequencies of the pair scores 0, ¼, ½, ¾, 1 (points per game)."""
        return self.ll, self.ld, self.draw, self.wd, self.ww

    def add(self, first: float, second: float) -> Pentanomial:
        """These pairs and one more, whose games were worth ``first`` and ``second`` points."""
        counts = list(self.counts())
        counts[pair_bucket(first, second)] += 1
        return Pentanomial(*counts)

    def flipped(self) -> Pentanomial:
        """The same pairs seen from the opponent."""
        return Pentanomial(self.ww, self.wd, self.draw, self.ld, self.ll)


@dataclass(frozen=True)
class EloEstimate:
    """An Elo estimate from a trinomial or pentanomial sample."""

    score: float
    #: Logistic Elo difference and its 95% error bar (half the interval's width).
    elo: float
    error: float
    #: Normalized Elo and its 95% error bar.
    nelo: float
    nelo_error: float
    #: Likelihood of superiority, 0 to 1.
    los: float
    #: Games (trinomial) or game pairs (pentanomial) behind the estimate.
    samples: int

    @property
    def spread(self) -> bool:
        """Whether the samples differ: with every game (or pair) the same result there is no
        variance to measure, hence no error bar, and no nElo at a score of ½."""
        return self.samples > 0 and math.isfinite(self.nelo_error)

    def text(self) -> str:
        """``Elo: 12.34 +/- 5.67, nElo: 15.00 +/- 6.80, LOS: 99.12 %`` (fastchess' style).

        A value that is not a finite number (a clean sweep's Elo, an error bar without spread)
        prints as ``n/a``, where fastchess prints ``inf`` or ``nan``:

        >>> elo_estimate(Trinomial(wins=4)).text()
        'Elo: n/a, nElo: n/a, LOS: 100.00 %'
        >>> elo_estimate(Trinomial(draws=4)).text()
        'Elo: 0.00 +/- n/a, nElo: n/a, LOS: n/a'
        """
        los = fixed(self.los * 100) + (" %" if math.isfinite(self.los) else "")
        return (
            f"Elo: {plus_minus(self.elo, self.error)}, "
            f"nElo: {plus_minus(self.nelo, self.nelo_error)}, LOS: {los}"
        )


def fixed(value: float, digits: int = 2) -> str:
    """``value`` with ``digits`` decimals, or ``n/a`` when it is not a finite number.

    >>> fixed(3.14159), fixed(math.inf), fixed(math.nan)
    ('3.14', 'n/a', 'n/a')
    """
    return f"{value:.{digits}f}" if math.isfinite(value) else "n/a"


def plus_minus(value: float, error: float, digits: int = 2) -> str:
    """``12.34 +/- 5.67``; ``12.34 +/- n/a`` when the error bar is undefined; ``n/a`` when
    the value itself is (its error bar then means nothing).

    >>> plus_minus(12.3456, 5.678), plus_minus(0.0, math.nan), plus_minus(math.inf, 0.0)
    ('12.35 +/- 5.68', '0.00 +/- n/a', 'n/a')
    """
    if not math.isfinite(value):
        return "n/a"
    return f"{value:.{digits}f} +/- {fixed(error, digits)}"


def _mean_variance(values: Sequence[float], probs: Sequence[float]) -> tuple[float, float]:
    mean = sum(p * a for a, p in zip(values, probs, strict=True))
    variance = sum(p * (a - mean) ** 2 for a, p in zip(values, probs, strict=True))
    return mean, variance


def _values(size: int) -> list[float]:
    """The scores per game of the buckets: 0, ½, 1 (trinomial) or 0, ¼, ½, ¾, 1 (pentanomial)."""
    return [i / (size - 1) for i in range(size)]


def elo_estimate(result: Trinomial | Pentanomial) -> EloEstimate:
    """The score, Elo, nElo with 95% error bars and LOS of ``result``, as fastchess computes
    them (``EloWDL`` and ``EloPentanomial``).

    >>> elo_estimate(Trinomial(wins=136, draws=111, losses=96)).text()
    'Elo: 40.70 +/- 30.43, nElo: 49.77 +/- 36.77, LOS: 99.60 %'
    """
    counts = result.counts()
    samples = sum(counts)
    if samples == 0:
        return EloEstimate(0.5, 0.0, math.inf, 0.0, math.inf, 0.5, 0)
    values = _values(len(counts))
    score, variance = _mean_variance(values, [c / samples for c in counts])
    # A pair's score is the mean of two games: its variance is half a game's.
    games_per_sample = 1 if len(counts) == 3 else 2
    game_sigma = math.sqrt(variance * games_per_sample)
    standard_error = math.sqrt(variance / samples)
    low, high = score - CI95_Z * standard_error, score + CI95_Z * standard_error
    elo = score_to_elo(score)
    if game_sigma > 0:
        # A bound past 0 or 1 (few games, nearly all won) has no Elo: the bar is infinite.
        error = (score_to_elo(high) - score_to_elo(low)) / 2
        nelo = (score - 0.5) / game_sigma * NELO_PER_T
        nelo_error = CI95_Z * standard_error / game_sigma * NELO_PER_T
        los = 0.5 * (1 + math.erf((score - 0.5) / math.sqrt(2 * variance / samples)))
    else:
        # Every sample the same result: no spread, so no error bar (NaN, as fastchess' 0/0),
        # a nElo only in the limit (±inf, or undefined at ½) and a LOS only away from ½.
        error = nelo_error = math.nan
        nelo = math.nan if score == 0.5 else math.copysign(math.inf, score - 0.5)
        los = math.nan if score == 0.5 else float(score > 0.5)
    return EloEstimate(score, elo, error, nelo, nelo_error, los, samples)


# -- the generalised SPRT -----------------------------------------------------------------------


def _solve_decreasing(function: Callable[[float], float], low: float, high: float) -> float:
    """The root of a function decreasing on the open interval (low, high), where it goes from
    +inf to -inf, by bisection to the last representable float."""
    for _ in range(400):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if function(middle) > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _secular(probs: Sequence[float], shifts: Sequence[float]) -> float:
    """Solve the secular equation ``sum p_i·a_i / (1 + x·a_i) = 0`` for x (the shifts a_i take
    both signs; the left side decreases in x between the poles -1/max a and -1/min a)."""
    largest, smallest = max(shifts), min(shifts)
    if not smallest < 0 < largest:
        raise ValueError("the secular equation needs shifts of both signs")

    def side(x: float) -> float:
        return sum(p * a / (1 + x * a) for p, a in zip(probs, shifts, strict=True))

    return _solve_decreasing(side, -1 / largest, -1 / smallest)


def _mle_expected(values: Sequence[float], probs: Sequence[float], score: float) -> list[float]:
    """The distribution on ``values`` with expectation ``score`` nearest (in likelihood) to the
    empirical ``probs`` (Van den Bergh, support_MLE_multinomial, proposition 1.1)."""
    shifts = [a - score for a in values]
    x = _secular(probs, shifts)
    return [p / (1 + x * a) for p, a in zip(probs, shifts, strict=True)]


def _mle_t_value(values: Sequence[float], probs: Sequence[float], t: float) -> list[float]:
    """The distribution on ``values`` with t-value (mean - ½)/sigma equal to ``t`` nearest to
    the empirical ``probs`` (Van den Bergh, normalized_elo_practical, section 4.1): a fixed
    point iteration from the uniform distribution."""
    size = len(values)
    estimate = [1 / size] * size
    for _ in range(1000):
        mean, variance = _mean_variance(values, estimate)
        sigma = math.sqrt(variance)
        shifts = [a - 0.5 - t * sigma * (1 + ((a - mean) / sigma) ** 2) / 2 for a in values]
        x = _secular(probs, shifts)
        updated = [p / (1 + x * a) for p, a in zip(probs, shifts, strict=True)]
        change = max(abs(u - e) for u, e in zip(updated, estimate, strict=True))
        estimate = updated
        if change < 1e-12:
            break
    return estimate


def llr(
    result: Trinomial | Pentanomial, elo0: float, elo1: float, model: str = "normalized"
) -> float:
    """The generalised log-likelihood ratio of H1 (Elo = ``elo1``) against H0 (Elo = ``elo0``).

    ``model`` says what the bounds mean: ``normalized`` Elo (fishtest's ``LLR_normalized``:
    the statistic is the t-value, and a pair counts as two games, so t = nElo·√2 / (800/ln 10)
    for a pentanomial sample) or ``logistic`` Elo (``LLR_logistic``: the statistic is the
    expected score), or ``bayesian`` (cutechess-cli's BayesElo SPRT on games, see
    :func:`llr_bayes_elo`).  0 before any game.
    """
    if model not in SPRT_MODELS:
        raise ValueError(f"model must be normalized, logistic or bayesian, got {model!r}")
    if model == "bayesian":
        if not isinstance(result, Trinomial):
            raise ValueError("the bayesian model takes games (wins, draws, losses), not pairs")
        return llr_bayes_elo(result, elo0, elo1)
    counts = result.counts()
    if sum(counts) == 0:
        return 0.0
    regularized = [c if c else REGULARIZE for c in counts]
    total = sum(regularized)
    probs = [c / total for c in regularized]
    values = _values(len(counts))
    if model == "normalized":
        scale = math.sqrt(2) if len(counts) == 5 else 1.0
        t0, t1 = (elo * scale / NELO_PER_T for elo in (elo0, elo1))
        p0 = _mle_t_value(values, probs, t0)
        p1 = _mle_t_value(values, probs, t1)
    else:
        p0 = _mle_expected(values, probs, elo_to_score(elo0))
        p1 = _mle_expected(values, probs, elo_to_score(elo1))
    return total * sum(
        p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1, strict=True)
    )


def _softplus(z: float) -> float:
    """ln(1 + e^z), without overflow for a large ``z``."""
    return z + math.log1p(math.exp(-z)) if z > 0 else math.log1p(math.exp(z))


def _bayes_log_probabilities(bayes_elo: float, draw_elo: float) -> tuple[float, float, float]:
    """Natural logarithms of the win, draw and loss probabilities of the BayesElo model (Rémi
    Coulom's bayeselo: a logistic curve shifted by ``draw_elo`` either way), up to the same
    constant in the draw's, ln(10^(draw_elo/200) − 1), which cancels in a ratio.  With
    A = 10^((draw_elo − b)/400) and B = 10^((draw_elo + b)/400): P(win) = 1/(1 + A),
    P(loss) = 1/(1 + B), P(draw) = 1 − P(win) − P(loss) = (AB − 1)/((1 + A)(1 + B)), and AB does
    not depend on b.  Written so, no difference of nearly equal numbers is taken: at a very high
    draw rate, 1 − P(win) − P(loss) in floating point reaches 0 or below (cutechess-cli then
    prints ``nan``), while the model's value is finite."""
    ln10_400 = math.log(10) / 400
    log_a = (draw_elo - bayes_elo) * ln10_400
    log_b = (draw_elo + bayes_elo) * ln10_400
    log_win, log_loss = -_softplus(log_a), -_softplus(log_b)
    return log_win, log_win + log_loss, log_loss


def llr_bayes_elo(result: Trinomial, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 against H0 as cutechess-cli computes it (its
    ``Sprt::status``): the draw Elo is estimated from the sample, the bounds ``elo0`` and
    ``elo1`` (logistic Elo) are turned into BayesElo by the model's scale at that draw Elo, and
    the ratio is that of the trinomial likelihoods.  0 until there is at least one win, one
    draw and one loss (cutechess-cli's rule).  Computed in logarithms
    (:func:`_bayes_log_probabilities`): the same value as cutechess-cli's, and a finite one
    where its floating point gives ``nan`` (a draw rate near 1).

    A published cutechess-cli run (``-sprt elo0=0 elo1=10``, 187 wins, 123 losses, 255 draws)
    printed ``SPRT: llr 2.97``:

    >>> round(llr_bayes_elo(Trinomial(wins=187, draws=255, losses=123), 0, 10), 2)
    2.97

    Where cutechess-cli's 1 − P(win) − P(loss) is below 0 in floating point (its LLR ``nan``,
    its SPRT never deciding), the model's value:

    >>> round(llr_bayes_elo(Trinomial(wins=1, draws=1009, losses=1), 10, 30), 2)
    -29418.52
    """
    wins, draws, losses = result.wins, result.draws, result.losses
    if wins <= 0 or draws <= 0 or losses <= 0:
        return 0.0
    games = wins + draws + losses
    p_win, p_loss = wins / games, losses / games
    draw_elo = 200 * math.log10((1 - p_loss) / p_loss * (1 - p_win) / p_win)
    x = 10 ** (-draw_elo / 400)
    scale = 4 * x / (1 + x) ** 2
    w0, d0, l0 = _bayes_log_probabilities(elo0 / scale, draw_elo)
    w1, d1, l1 = _bayes_log_probabilities(elo1 / scale, draw_elo)
    return wins * (w1 - w0) + draws * (d1 - d0) + losses * (l1 - l0)


@dataclass(frozen=True)
class SprtState:
    """Where a running SPRT stands."""

    llr: float
    lower: float
    upper: float
    #: ``"H1"`` (LLR at or above the upper bound), ``"H0"`` (at or below the lower), or None.
    accepted: str | None

    def text(self) -> str:
        """``LLR: 1.23 (-2.94, 2.94)`` and, once decided, the accepted hypothesis."""
        line = f"LLR: {self.llr:.2f} ({self.lower:.2f}, {self.upper:.2f})"
        if self.accepted:
            line += f" - {self.accepted} accepted"
        return line


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: Elo = ``elo0`` against H1: Elo = ``elo1``,
    with false positive rate ``alpha`` and false negative rate ``beta``.

    ``Sprt.parse("elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized")`` reads the
    ``--sprt`` form (every key but elo0 and elo1 optional; alpha and beta 0.05, model
    normalized by default, as fastchess).
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT: elo0 ({self.elo0:g}) must be below elo1 ({self.elo1:g})")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 1:
                raise ValueError(f"SPRT: {name} must be between 0 and 1, got {value:g}")
        if self.alpha + self.beta >= 1:
            raise ValueError("SPRT: alpha + beta must be below 1")
        if self.model not in SPRT_MODELS:
            raise ValueError(
                f"SPRT: model must be normalized, logistic or bayesian, got {self.model!r}"
            )

    @classmethod
    def parse(cls, tokens: Sequence[str] | str) -> Sprt:
        if isinstance(tokens, str):
            tokens = tokens.split()
        values = parse_key_values(tokens, "SPRT", SPRT_KEYS, "elo0, elo1, alpha, beta or model")
        model = values.pop("model", "normalized").lower()
        numbers: dict[str, float] = {}
        for key, value in values.items():
            try:
                numbers[key] = float(value)
            except ValueError:
                raise ValueError(f"SPRT: {key} must be a number, got {value!r}") from None
            if not math.isfinite(numbers[key]):
                raise ValueError(f"SPRT: {key} must be finite, got {value!r}")
        if "elo0" not in numbers or "elo1" not in numbers:
            raise ValueError("SPRT needs elo0=… and elo1=…")
        return cls(
            numbers["elo0"],
            numbers["elo1"],
            numbers.get("alpha", 0.05),
            numbers.get("beta", 0.05),
            model,
        )

    @property
    def lower(self) -> float:
        """ln(β/(1-α)): at or below it, H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """ln((1-β)/α): at or above it, H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def state(self, result: Trinomial | Pentanomial) -> SprtState:
        value = llr(result, self.elo0, self.elo1, self.model)
        accepted = "H1" if value >= self.upper else "H0" if value <= self.lower else None
        return SprtState(value, self.lower, self.upper, accepted)

    def text(self) -> str:
        """``elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized``."""
        return (
            f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g} "
            f"model={self.model}"
        )
