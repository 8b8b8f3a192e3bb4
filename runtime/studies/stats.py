"""Confidence intervals and two-sample tests for balance studies, from integer tallies.

Everything here works on exact integer counts (successes and trials, or count, sum and sum of
squares), so a tally can be added up in any order, by any number of workers, and give
bit-identical figures.

- a proportion's 95% interval is Wilson's score interval (good near 0 and 1, never outside them);
- a mean's is the Student t interval, mean ± t(0.975, n-1) · s/√n;
- two proportions are compared by the two-sided two-proportion z-test (pooled standard error),
  their difference's interval is the unpooled Wald interval;
- two means are compared by Welch's t-test (unequal variances, Welch-Satterthwaite degrees of
  freedom), their difference's interval is Welch's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

__all__ = [
    "LEVEL",
    "Comparison",
    "Mean",
    "Proportion",
    "compare_means",
    "compare_proportions",
    "t_cdf",
    "t_quantile",
]

#: The confidence level of every interval and the significance level (1 - LEVEL) of every test.
LEVEL = 0.95
_Z = NormalDist().inv_cdf(0.5 + LEVEL / 2)  # 1.959963984540054


@dataclass(frozen=True)
class Proportion:
    """``k`` successes in ``n`` trials."""

    k: int
    n: int

    @property
    def value(self) -> float | None:
        """k / n, or None when there were no trials."""
        return self.k / self.n if self.n else None

    def interval(self) -> tuple[float, float] | None:
        """Wilson's 95% score interval, or None when n = 0."""
        if not self.n:
            return None
        n, p, z = self.n, self.k / self.n, _Z
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        low = 0.0 if self.k == 0 else max(0.0, centre - half)
        high = 1.0 if self.k == self.n else min(1.0, centre + half)
        return low, high


@dataclass(frozen=True)
class Mean:
    """``n`` integer observations given by their sum and sum of squares."""

    n: int
    total: int
    squares: int

    @property
    def value(self) -> float | None:
        """The sample mean, or None when n = 0."""
        return self.total / self.n if self.n else None

    @property
    def variance(self) -> float | None:
        """The sample variance (n - 1 in the denominator), or None when n < 2."""
        if self.n < 2:
            return None
        # exact in integers, then one division: no cancellation error
        return (self.n * self.squares - self.total * self.total) / (self.n * (self.n - 1))

    def interval(self) -> tuple[float, float] | None:
        """The Student t 95% interval of the mean, or None when n < 2."""
        var = self.variance
        if var is None:
            return None
        mean = self.total / self.n
        half = t_quantile(0.5 + LEVEL / 2, self.n - 1) * math.sqrt(var / self.n)
        return mean - half, mean + half


@dataclass(frozen=True)
class Comparison:
    """Figure B minus figure A, its 95% interval and the two-sided p-value of the test."""

    diff: float | None
    low: float | None
    high: float | None
    p: float | None
    test: str  # "z" (two-proportion z-test) or "welch" (Welch's t-test)

    @property
    def significant(self) -> bool:
        """True when the test rejects "no difference" at the 5% level."""
        return self.p is not None and self.p < 1 - LEVEL


def compare_proportions(a: Proportion, b: Proportion) -> Comparison:
    """b - a with the two-proportion z-test (pooled) and the unpooled Wald interval."""
    if not a.n or not b.n:
        return Comparison(None, None, None, None, "z")
    pa, pb = a.k / a.n, b.k / b.n
    diff = pb - pa
    se = math.sqrt(pa * (1 - pa) / a.n + pb * (1 - pb) / b.n)
    pooled = (a.k + b.k) / (a.n + b.n)
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n))
    p = 1.0 if se0 == 0 else 2 * (1 - NormalDist().cdf(abs(diff) / se0))
    return Comparison(diff, diff - _Z * se, diff + _Z * se, p, "z")


def compare_means(a: Mean, b: Mean) -> Comparison:
    """b - a with Welch's t-test and Welch's interval."""
    va, vb = a.variance, b.variance
    if va is None or vb is None:
        diff = None if a.value is None or b.value is None else b.value - a.value
        return Comparison(diff, None, None, None, "welch")
    assert a.value is not None and b.value is not None
    diff = b.value - a.value
    sa, sb = va / a.n, vb / b.n
    se = math.sqrt(sa + sb)
    if se == 0:
        return Comparison(diff, diff, diff, 1.0 if diff == 0 else 0.0, "welch")
    df = (sa + sb) ** 2 / (sa * sa / (a.n - 1) + sb * sb / (b.n - 1))
    t = diff / se
    p = 2 * (1 - t_cdf(abs(t), df))
    half = t_quantile(0.5 + LEVEL / 2, df) * se
    return Comparison(diff, diff - half, diff + half, min(1.0, p), "welch")


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` (> 0, not necessarily whole) degrees of freedom."""
    x = df / (df + t * t)
    tail = 0.5 * _betainc(df / 2, 0.5, x)
    return 1 - tail if t > 0 else tail


def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile (0 < q < 1) of Student's t with ``df`` degrees of freedom."""
    if df > 1e7:
        return NormalDist().inv_cdf(q)
    lo, hi = -1e3, 1e3
    for _ in range(200):  # bisection: t_cdf is monotone; 200 halvings reach float precision
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b) (continued fraction, Lentz)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    ln_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(ln_front)
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def _betacf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        num = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
        d = 1 + num * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + num / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
        d = 1 + num * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + num / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1) < 3e-16:
            break
    return h
