"""The weakest program level: any legal option, uniformly (a floor for the ladder)."""

from __future__ import annotations

import random
from typing import Any

from fuyuki.core import rng
from fuyuki.core.protocol import Decision


class RandomAgent:
    def __init__(self, seed: int | str, seat: int):
        self.rand: random.Random = rng.stream(seed, f"rpg-agent/{seat}")

    def choose(self, view: dict[str, Any], decision: Decision) -> Any:
        return self.rand.choice(decision.options)
