"""Seeded random streams.

Every random draw of a game comes from a stream derived from the game's seed and a name,
so that adding a new kind of draw never shifts the others, and so that the derivation is
the same on every machine and Python version (no ``hash()``).

Two kinds of stream, by *RNG version* (a game's record keeps its version in its config, so
that a saved game replays with the stream it was played with):

- version 1: :class:`random.Random` (a Mersenne Twister) seeded with :func:`derive_seed`;
- version 2: :class:`Stream`, xoshiro128** on four 32-bit words of the same SHA-256 —
  the same numbers on every machine, and cheap to seed, to copy and to draw from in the
  compiled build (seeding a Mersenne Twister and shuffling through its methods cost a
  Servant Big Battle game a tenth of its time).
"""

from __future__ import annotations

import copyreg
import hashlib
import importlib
import random
from typing import Any, Final, Sequence, TypeVar

from mypy_extensions import i64


_T = TypeVar("_T")
_MASK: Final[i64] = 0xFFFFFFFF
#: the RNG versions a game may be played with (see the module's docstring)
RNG_VERSIONS: Final = (1, 2)


def _builtin_hash(modules: tuple[str, ...], name: str, fallback: Any) -> Any:
    """CPython's own implementation of the hash ``name`` (what hashlib falls back on without
    OpenSSL), else hashlib's: the same digests, on a far shorter code path. A game's seeds are
    hashed between games, with the caches cold, where OpenSSL's SHA-256 takes about twice as
    long (4.5 µs against 2.3 µs in a loop of random-bot games; SHAKE-256 5.7 against 3.7)."""
    for module in modules:
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            pass
    return fallback


_SHA256: Final[Any] = _builtin_hash(("_sha256", "_sha2"), "sha256", hashlib.sha256)
_SHAKE256: Final[Any] = _builtin_hash(("_sha3",), "shake_256", hashlib.shake_256)


def _digest(seed: int | str, name: str) -> bytes:
    """The SHA-256 of ``seed`` and a stream ``name``: every stream's seed comes from it."""
    digest: bytes = _SHA256(f"{seed}\x1f{name}".encode()).digest()
    return digest


def _word(digest: bytes, i: i64) -> i64:
    """The big-endian 32-bit word at ``digest[i:i + 4]`` (``int.from_bytes`` of it): four
    native byte reads in the compiled build, not a slice and a generic call."""
    return (digest[i] << 24) | (digest[i + 1] << 16) | (digest[i + 2] << 8) | digest[i + 3]


def derive_seed(seed: int | str, name: str) -> int:
    """A 64-bit integer derived from ``seed`` and a stream ``name`` (SHA-256)."""
    return int.from_bytes(_digest(seed, name)[:8], "big")


def derive_seeds(seed: int | str, name: str, count: int) -> list[int]:
    """``count`` 64-bit integers derived from ``seed`` and ``name`` with one SHAKE-256 digest
    (cheaper than ``count`` calls of :func:`derive_seed` when many are needed at once)."""
    digest: bytes = _SHAKE256(f"{seed}\x1f{name}".encode()).digest(8 * count)
    # each 8 bytes big-endian, as two native 32-bit words (not a slice and a generic call)
    return [(int(_word(digest, 8 * i)) << 32) | int(_word(digest, 8 * i + 4))
            for i in range(count)]


class Stream:
    """RNG version 2: xoshiro128** (Blackman and Vigna), 32-bit outputs, its state four
    32-bit words (:func:`stream` seeds one). Draws are unbiased (rejection sampling on the
    high bits). Its methods are the part of :class:`random.Random` the engines use.
    (Not open to interpreted subclasses: a compiled method then calls another natively.)"""

    __slots__ = ("a", "b", "c", "d")
    # i64: native machine words in the compiled build (no value here passes 2**41)
    a: i64
    b: i64
    c: i64
    d: i64

    def __init__(self, a: i64, b: i64, c: i64, d: i64) -> None:
        self.a, self.b, self.c, self.d = a, b, c, d
        if not (a or b or c or d):   # the one state it never leaves
            self.d = 1

    def next32(self) -> i64:
        """The next 32-bit output."""
        a, b, c, d = self.a, self.b, self.c, self.d
        x = ((b << 2) + b) & _MASK                   # b * 5, rotated by 7, times 9
        x = ((x << 7) | (x >> 25)) & _MASK
        out = ((x << 3) + x) & _MASK
        t = (b << 9) & _MASK
        c ^= a
        d ^= b
        b ^= c
        a ^= d
        c ^= t
        self.a, self.b, self.c = a, b, c
        self.d = ((d << 11) | (d >> 21)) & _MASK
        return out

    def below(self, n: i64) -> i64:
        """A uniform integer in ``[0, n)`` (0 < n <= 2**32)."""
        shift: i64 = 32          # 32 less the bits of n - 1 (int.bit_length is a generic call
        m = n - 1           # in the compiled build)
        while m:
            m >>= 1
            shift -= 1
        x = self.next32() >> shift
        while x >= n:
            x = self.next32() >> shift
        return x

    def randrange(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"empty range for randrange({n})")
        return self.below(n)

    def randint(self, a: int, b: int) -> int:
        return a + self.randrange(b - a + 1)

    def choice(self, seq: Sequence[_T]) -> _T:
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        hi, lo = int(self.next32() >> 5), int(self.next32() >> 6)
        return (hi * 67108864.0 + lo) / 9007199254740992.0

    def getrandbits(self, k: int) -> int:
        """``k`` random bits (0 <= k <= 32)."""
        return self.next32() >> (32 - k) if k else 0

    def shuffle(self, cards: list[Any]) -> None:
        """Fisher–Yates, in place (a list: a generic sequence costs a generic call an item)."""
        i: i64 = len(cards) - 1   # (a native index: a range's is a tagged int when compiled)
        while i > 0:
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
            i -= 1

    def getstate(self) -> tuple[int, int, int, int]:
        return (int(self.a), int(self.b), int(self.c), int(self.d))

    def setstate(self, state: tuple[int, int, int, int]) -> None:
        self.a, self.b, self.c, self.d = state

    def copy(self) -> "Stream":
        return Stream(self.a, self.b, self.c, self.d)


def _reduce_stream(s: Stream) -> tuple[type[Stream], tuple[int, int, int, int]]:
    return Stream, s.getstate()


copyreg.pickle(Stream, _reduce_stream)   # copy and pickle through __init__ (see fuyuki._build)

#: a stream of either version
Rng = random.Random | Stream


def stream(seed: int | str, name: str, version: int = 1) -> Rng:
    """A fresh stream of RNG ``version`` for the named stream of ``seed``."""
    if version == 2:
        digest = _digest(seed, name)
        return Stream(_word(digest, 0), _word(digest, 4), _word(digest, 8), _word(digest, 12))
    if version != 1:
        raise ValueError(f"unknown RNG version {version!r} (known: {list(RNG_VERSIONS)})")
    return random.Random(derive_seed(seed, name))


def copy_stream(rng: Rng) -> Rng:
    """An independent copy of ``rng`` in the same state."""
    if isinstance(rng, Stream):
        return rng.copy()
    other = random.Random()
    other.setstate(rng.getstate())
    return other


def shuffle(rng: Rng, cards: list[Any]) -> None:
    """Shuffle ``cards`` in place. A version-1 stream makes exactly the draws and the result
    of ``rng.shuffle(cards)`` (CPython's Fisher–Yates over ``getrandbits``, rejection-sampled,
    so unbiased), as a loop the compiled build runs natively instead of the standard
    library's pure-Python one."""
    if isinstance(rng, Stream):
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
