"""The uniform random bot: any legal choice, equally likely."""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import i64, mypyc_attr

from fuyuki.core.protocol import Decision, NativeBot

_MASK32: Final = 0xFFFFFFFF   # Final: a constant in the compiled build, not a global look-up


def _mul64(hi: i64, lo: i64, m: tuple[i64, i64, i64, i64]) -> tuple[i64, i64]:
    """``(hi, lo) * m`` modulo 2**64, as 32-bit halves; ``m`` as four 16-bit limbs, lowest
    first. Every product is of two 16-bit limbs, so no sum passes 2**35: native i64 arithmetic
    in the compiled build that never overflows (a 64-bit product would)."""
    a0, a1, a2, a3 = lo & 0xFFFF, lo >> 16, hi & 0xFFFF, hi >> 16
    b0, b1, b2, b3 = m
    r0 = a0 * b0
    r1 = a0 * b1 + a1 * b0 + (r0 >> 16)
    r2 = a0 * b2 + a1 * b1 + a2 * b0 + (r1 >> 16)
    r3 = a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0 + (r2 >> 16)
    return (r2 & 0xFFFF) | ((r3 & 0xFFFF) << 16), (r0 & 0xFFFF) | ((r1 & 0xFFFF) << 16)


def _xorshift64(hi: i64, lo: i64, k: i64) -> tuple[i64, i64]:
    """``z ^ (z >> k)`` for 0 < k < 32, as 32-bit halves."""
    return hi ^ (hi >> k), lo ^ (((lo >> k) | (hi << (32 - k))) & _MASK32)


def _mix64(seed: int) -> tuple[i64, i64]:
    """SplitMix64's finaliser: spreads any seed (small, adjacent ones too) over 64 bits,
    given as its high and low 32-bit halves. Computed on the halves: the same value as the
    64-bit formula (tested), in native i64 arithmetic in the compiled build (no Python long
    at any step)."""
    hi: i64 = (seed >> 32) & _MASK32
    lo: i64 = (seed & _MASK32) + 0x7F4A7C15                 # + 0x9E3779B97F4A7C15
    hi = (hi + 0x9E3779B9 + (lo >> 32)) & _MASK32
    lo &= _MASK32
    hi, lo = _xorshift64(hi, lo, 30)
    hi, lo = _mul64(hi, lo, (0xE5B9, 0x1CE4, 0x476D, 0xBF58))   # 0xBF58476D1CE4E5B9
    hi, lo = _xorshift64(hi, lo, 27)
    hi, lo = _mul64(hi, lo, (0x11EB, 0x1331, 0x49BB, 0x94D0))   # 0x94D049BB133111EB
    return _xorshift64(hi, lo, 31)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: picklable, copyable (see _build)
class RandomBot(NativeBot):
    """Uniform over the legal options, from a xorshift32 stream of its own seed.

    Not :class:`random.Random`: seeding a Mersenne Twister costs more than a whole decision,
    and simulations make four bots a game. xorshift32 stays within small integers (cheap in
    Python, native in the compiled build); a pick among ``k`` options takes the high bits of
    ``x * k`` and is off uniform by at most ``k / 2**32``."""

    name = "random"
    needs_view = False

    def __init__(self, seed: int = 0) -> None:
        hi, lo = _mix64(seed)
        self.state = int(hi ^ lo) or 0x9E3779B9   # z ^ (z >> 32), 32 bits; never 0 (a fixed point)

    def _next(self) -> int:
        x = self.state
        x ^= (x << 13) & _MASK32
        x ^= x >> 17
        x ^= (x << 5) & _MASK32
        self.state = x
        return x

    def choose(self, view: dict[str, Any] | None, decision: Decision) -> Any:
        options = decision.options
        if len(options) == 1:
            return options[0]
        # (x * k) >> 32 in two halves: no product reaches 2**30 (a Python long when compiled)
        x, k = self._next(), len(options)
        return options[((x >> 16) * k + (((x & 0xFFFF) * k) >> 16)) >> 16]
