"""Bots. Every bot sees only ``game.view(seat)`` and its own decision.

Levels: ``easy`` = random, ``normal`` = heuristic, ``hard`` (information-set search).
"""

from __future__ import annotations

from typing import Any

LEVELS = {"easy": "random", "normal": "heuristic"}


def bot_names() -> list[str]:
    names = ["random", "heuristic"]
    try:
        from fuyuki.sbb.agents import hard  # noqa: F401
        names.append("hard")
    except ImportError:
        pass
    return names


def make_bot(name: str, seed: int = 0, rules: Any = None, **kwargs: Any):
    """A bot by name or level (easy/normal/hard). Pass the game's ``rules`` when they are not
    the default final edition (a user's cards, options): the bots that reason about cards
    read them there."""
    name = LEVELS.get(name, name)
    if name == "random":
        from fuyuki.sbb.agents.random_bot import RandomBot
        return RandomBot(seed)
    if name == "heuristic":
        from fuyuki.sbb.agents.heuristic import HeuristicBot
        return HeuristicBot(seed, cards=rules.cards if rules is not None else None)
    if name == "hard":
        from fuyuki.sbb.agents.hard import HardBot
        return HardBot(seed, rules=rules, **kwargs)
    from fuyuki.core.errors import FuyukiError
    raise FuyukiError(f"unknown bot {name!r} (known: {bot_names()} or easy/normal/hard)")
