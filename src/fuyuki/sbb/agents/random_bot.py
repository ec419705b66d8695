"""The uniform random bot: any legal choice, equally likely."""

from __future__ import annotations

from typing import Any

from fuyuki.core.protocol import Decision

_MASK = (1 << 64) - 1


class RandomBot:
    """Uniform over the legal options, from a SplitMix64 stream of its own seed.

    SplitMix64 rather than :class:`random.Random`: seeding a Mersenne Twister costs more than
    a whole decision, and simulations make four bots a game. With 64-bit draws the modulo
    bias over a handful of options is below 1e-17."""

    name = "random"
    needs_view = False

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def _next(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def choose(self, view: dict[str, Any] | None, decision: Decision) -> Any:
        options = decision.options
        if len(options) == 1:
            return options[0]
        return options[self._next() % len(options)]
