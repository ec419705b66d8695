"""Seeded random streams.

Every random draw of a game comes from a stream derived from the game's seed and a name,
so that adding a new kind of draw never shifts the others, and so that the derivation is
the same on every machine and Python version (no ``hash()``).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any


def derive_seed(seed: int | str, name: str) -> int:
    """A 64-bit integer derived from ``seed`` and a stream ``name`` (SHA-256)."""
    digest = hashlib.sha256(f"{seed}\x1f{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def derive_seeds(seed: int | str, name: str, count: int) -> list[int]:
    """``count`` 64-bit integers derived from ``seed`` and ``name`` with one SHAKE-256 digest
    (cheaper than ``count`` calls of :func:`derive_seed` when many are needed at once)."""
    digest = hashlib.shake_256(f"{seed}\x1f{name}".encode()).digest(8 * count)
    return [int.from_bytes(digest[8 * i:8 * i + 8], "big") for i in range(count)]


def stream(seed: int | str, name: str) -> random.Random:
    """A fresh :class:`random.Random` for the named stream of ``seed``."""
    return random.Random(derive_seed(seed, name))


def copy_stream(rng: random.Random) -> random.Random:
    """An independent copy of ``rng`` in the same state (cheap: the state is a tuple)."""
    other = random.Random()
    other.setstate(rng.getstate())
    return other


def shuffle(rng: random.Random, cards: list[Any]) -> None:
    """Shuffle ``cards`` in place with exactly the draws and the result of
    ``rng.shuffle(cards)`` (CPython's Fisher–Yates over ``getrandbits``, rejection-sampled,
    so unbiased), as a loop the compiled build runs natively instead of the standard
    library's pure-Python one."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
