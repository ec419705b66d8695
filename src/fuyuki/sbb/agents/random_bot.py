"""The uniform random bot: any legal choice, equally likely."""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from fuyuki.core.protocol import Decision

_MASK32 = 0xFFFFFFFF


def _mix64(seed: int) -> int:
    """SplitMix64's finaliser: spreads any seed (small, adjacent ones too) over 64 bits."""
    z = (seed + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: picklable, copyable (see _build)
class RandomBot:
    """Uniform over the legal options, from a xorshift32 stream of its own seed.

    Not :class:`random.Random`: seeding a Mersenne Twister costs more than a whole decision,
    and simulations make four bots a game. xorshift32 stays within small integers (cheap in
    Python, native in the compiled build); a pick among ``k`` options takes the high bits of
    ``x * k`` and is off uniform by at most ``k / 2**32``."""

    name = "random"
    needs_view = False

    def __init__(self, seed: int = 0) -> None:
        z = _mix64(seed & 0xFFFFFFFFFFFFFFFF)
        self.state = ((z ^ (z >> 32)) & _MASK32) or 0x9E3779B9  # never 0 (a fixed point)

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
        return options[(self._next() * len(options)) >> 32]
