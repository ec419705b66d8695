"""A uniform random player."""

from __future__ import annotations

from typing import Any

from fuyuki.core import rng
from fuyuki.core.protocol import Decision


class RandomBot:
    def __init__(self, seed: int = 0, seat: int = 0):
        self.rng = rng.stream(seed, f"board-random-bot-{seat}")

    def choose(self, view: dict[str, Any], decision: Decision) -> Any:
        return self.rng.choice(decision.options)
