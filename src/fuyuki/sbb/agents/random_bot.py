"""The uniform random bot: any legal choice, equally likely."""

from __future__ import annotations

import random
from typing import Any

from fuyuki.core.protocol import Decision


class RandomBot:
    name = "random"
    needs_view = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any] | None, decision: Decision) -> Any:
        options = decision.options
        return options[0] if len(options) == 1 else self.rng.choice(options)
