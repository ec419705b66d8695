"""Small statistics for win rates: the Wilson score interval and the two-proportion z-test."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` successes in ``n`` trials (95 % by default).
    ``(0.0, 1.0)`` when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def normal_sf(x: float) -> float:
    """P(Z > x) for a standard normal Z."""
    return 0.5 * math.erfc(x / math.sqrt(2))


def two_proportion(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """The pooled two-proportion z-test of k1/n1 against k2/n2: ``(z, two-sided p)``.
    ``(0.0, 1.0)`` when a sample is empty or the pooled rate is 0 or 1."""
    if n1 <= 0 or n2 <= 0:
        return 0.0, 1.0
    p1, p2 = k1 / n1, k2 / n2
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0, 1.0
    z = (p2 - p1) / se
    return z, min(1.0, 2 * normal_sf(abs(z)))


def int_mean(values: list[int]) -> float:
    """The mean of integers as :func:`statistics.mean` gives it (an int when exact, else the
    correctly rounded float; 0.0 for none) without its exact fractions, which cost about
    0.3 µs a value."""
    if not values:
        return 0.0
    total, n = sum(values), len(values)
    return total // n if total % n == 0 else total / n


def quantile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile of already sorted values, linear interpolation (numpy's default)."""
    if not sorted_values:
        return 0.0
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def flag(lo: float, hi: float, share: float) -> str:
    """``"high"`` if the interval lies wholly above ``share``, ``"low"`` wholly below."""
    if lo > share:
        return "high"
    if hi < share:
        return "low"
    return ""
