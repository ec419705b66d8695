"""Seeded streams (fuyuki.core.rng)."""

import random

from hypothesis import given, strategies as st

from fuyuki.core.rng import derive_seed, derive_seeds, shuffle


@given(seed=st.integers(0, 2**64), size=st.integers(0, 80))
def test_shuffle_draws_and_orders_exactly_like_random_shuffle(seed, size):
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert ours.getstate() == theirs.getstate()  # the same draws were taken


def test_derive_seeds_are_distinct_64_bit_and_depend_on_name_and_seed():
    seeds = derive_seeds(7, "bots", 8)
    assert len(set(seeds)) == 8 and all(0 <= s < 2**64 for s in seeds)
    assert derive_seeds(7, "bots", 8) == seeds
    assert derive_seeds(7, "bots", 3) == seeds[:3]
    assert derive_seeds(8, "bots", 8) != seeds and derive_seeds(7, "other", 8) != seeds
    assert derive_seed(7, "bots") not in seeds
