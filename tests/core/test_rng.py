"""Seeded streams (fuyuki.core.rng)."""

import hashlib
import random

from hypothesis import given, strategies as st

import pytest

from fuyuki.core.rng import Stream, copy_stream, derive_seed, derive_seeds, shuffle, stream


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


@given(seed=st.one_of(st.integers(-(2**70), 2**70), st.text()), name=st.text(),
       count=st.integers(1, 20))
def test_derived_seeds_are_hashlibs_sha256_and_shake_256(seed, name, count):
    """The seeds come from CPython's own SHA-256 and SHAKE-256 where there are (cheaper with
    cold caches than OpenSSL's): the same digests as hashlib's."""
    data = f"{seed}\x1f{name}".encode()
    assert derive_seed(seed, name) == int.from_bytes(hashlib.sha256(data).digest()[:8], "big")
    shake = hashlib.shake_256(data).digest(8 * count)
    assert derive_seeds(seed, name, count) == [int.from_bytes(shake[8 * i:8 * i + 8], "big")
                                               for i in range(count)]


def test_seeds_are_hashed_by_cpythons_own_implementations_where_there_are():
    import importlib.util

    from fuyuki.core import rng

    own_sha256 = any(importlib.util.find_spec(m) for m in ("_sha256", "_sha2"))
    assert (rng._SHA256 is not hashlib.sha256) == own_sha256
    assert (rng._SHAKE256 is not hashlib.shake_256) == bool(importlib.util.find_spec("_sha3"))
    assert rng._builtin_hash(("no_such_module",), "sha256", hashlib.sha256) is hashlib.sha256


def _xoshiro128ss(state, count):
    """The reference xoshiro128** (Blackman and Vigna), written with plain multiplications."""
    s = list(state)
    out = []
    m = 0xFFFFFFFF
    rotl = lambda x, k: ((x << k) | (x >> (32 - k))) & m  # noqa: E731
    for _ in range(count):
        out.append(rotl((s[1] * 5) & m, 7) * 9 & m)
        t = (s[1] << 9) & m
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t  # noqa: E702
        s[3] = rotl(s[3], 11)
    return out


def test_version_2_stream_is_xoshiro128ss():
    assert Stream(1, 2, 3, 4).next32() == 11520      # rotl(2 * 5, 7) * 9
    assert Stream(0, 0, 0, 0).getstate() == (0, 0, 0, 1)   # never the all-zero state
    for seed in (0, 1, 7, "abc", 2**70):
        st = stream(seed, "sbb", 2)
        state = st.getstate()
        assert [st.next32() for _ in range(50)] == _xoshiro128ss(state, 50)


@given(seed=st.one_of(st.integers(-(2**70), 2**70), st.text()), name=st.text())
def test_version_2_stream_is_seeded_with_the_digests_four_big_endian_words(seed, name):
    digest = hashlib.sha256(f"{seed}\x1f{name}".encode()).digest()
    words = tuple(int.from_bytes(digest[i:i + 4], "big") for i in (0, 4, 8, 12))
    assert stream(seed, name, 2).getstate() == (words if any(words) else (0, 0, 0, 1))


@given(seed=st.integers(0, 2**64), n=st.integers(1, 2**32))
def test_version_2_draws_stay_in_range(seed, n):
    s = stream(seed, "x", 2)
    assert all(0 <= s.randrange(n) < n for _ in range(20))
    assert 1 <= s.randint(1, 6) <= 6 and 0 <= s.random() < 1


def test_version_2_draws_are_uniform():
    s = stream(3, "dice", 2)
    counts = [0] * 6
    for _ in range(60000):
        counts[s.randint(1, 6) - 1] += 1
    assert max(counts) - min(counts) < 600            # ~4.5 standard deviations


@given(seed=st.integers(0, 2**64), size=st.integers(0, 80))
def test_version_2_shuffle_is_a_permutation_and_copies_replay_it(seed, size):
    a = stream(seed, "deck", 2)
    b = copy_stream(a)
    x, y = list(range(size)), list(range(size))
    shuffle(a, x)
    b.shuffle(y)
    assert x == y and sorted(x) == list(range(size))
    assert a.getstate() == b.getstate()


def test_a_stream_of_each_version_and_no_other():
    assert isinstance(stream(1, "sbb"), random.Random)
    assert isinstance(stream(1, "sbb", 2), Stream)
    assert stream(1, "sbb", 2).getstate() == stream(1, "sbb", 2).getstate()
    assert stream(1, "sbb", 2).getstate() != stream(2, "sbb", 2).getstate()
    with pytest.raises(ValueError, match="unknown RNG version 3"):
        stream(1, "sbb", 3)
