"""The statistics against known values."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuyuki.sim.stats import flag, int_mean, quantile, two_proportion, wilson


@pytest.mark.parametrize("wins,n,lo,hi", [
    # Wilson score intervals, z = 1.96 (textbook values: Newcombe 1998, table I)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (5, 10, 0.2366, 0.7634),
])
def test_wilson_interval_known_values(wins, n, lo, hi):
    a, b = wilson(wins, n)
    assert a == pytest.approx(lo, abs=1e-4)
    assert b == pytest.approx(hi, abs=1e-4)


def test_wilson_interval_of_no_games_is_everything():
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_interval_is_symmetric_and_contains_the_rate():
    lo, hi = wilson(30, 100)
    lo2, hi2 = wilson(70, 100)
    assert lo < 0.30 < hi
    assert lo == pytest.approx(1 - hi2) and hi == pytest.approx(1 - lo2)


def test_two_proportion_test_known_values():
    # 45/100 against 60/100: pooled p = .525, se = sqrt(.525 * .475 * .02) = .070622
    z, p = two_proportion(45, 100, 60, 100)
    assert z == pytest.approx(0.15 / math.sqrt(0.525 * 0.475 * 0.02), rel=1e-9)
    assert z == pytest.approx(2.1240, abs=1e-4)
    assert p == pytest.approx(0.03367, abs=1e-4)
    # the sign follows the change, the p-value does not
    z2, p2 = two_proportion(60, 100, 45, 100)
    assert z2 == pytest.approx(-z) and p2 == pytest.approx(p)


def test_two_proportion_test_degenerate_cases():
    assert two_proportion(0, 0, 3, 10) == (0.0, 1.0)
    assert two_proportion(0, 10, 0, 10) == (0.0, 1.0)
    assert two_proportion(10, 10, 10, 10) == (0.0, 1.0)
    z, p = two_proportion(50, 100, 50, 100)
    assert z == 0 and p == pytest.approx(1.0)


def test_quantile_interpolates_like_numpy():
    values = [1, 2, 3, 4, 10]
    assert quantile(values, 0.5) == 3
    assert quantile(values, 0.9) == pytest.approx(7.6)
    assert quantile([4], 0.9) == 4
    assert quantile([], 0.5) == 0.0


def test_flag_only_when_the_whole_interval_is_on_one_side():
    assert flag(0.30, 0.40, 0.25) == "high"
    assert flag(0.10, 0.20, 0.25) == "low"
    assert flag(0.20, 0.30, 0.25) == ""


@given(st.lists(st.integers(min_value=0, max_value=10**6), max_size=400))
def test_int_mean_is_what_statistics_mean_gives_type_included(values):
    from statistics import mean
    want = mean(values) if values else 0.0
    got = int_mean(values)
    assert got == want and type(got) is type(want)
