"""Bots. Every bot sees only ``game.view(seat)`` and its own decision.

Levels: ``easy`` = random, ``normal`` = heuristic, ``hard`` (information-set search); ``net``
(a policy network distilled from the hard bot's search: milliseconds a decision).
"""

from __future__ import annotations

from typing import Any

# imported once here, not in make_bot: an import statement in a function costs ~8,000
# instructions at each call (CPython looks up a missing ``__path__`` on the module)
from fuyuki.sbb.agents.heuristic import HeuristicBot
from fuyuki.sbb.agents.random_bot import RandomBot

LEVELS = {"easy": "random", "normal": "heuristic"}


def bot_names() -> list[str]:
    names = ["random", "heuristic"]
    try:
        from fuyuki.sbb.agents import hard  # noqa: F401
        names.append("hard")
    except ImportError:
        pass
    try:
        import numpy  # noqa: F401
        names.append("net")
    except ImportError:
        pass
    return names


def make_bot(name: str, seed: int = 0, rules: Any = None, iterations: int | None = None,
             **kwargs: Any):
    """A bot by name or level (easy/normal/hard). Pass the game's ``rules`` when they are not
    the default final edition (a user's cards, options): the bots that reason about cards
    read them there. ``iterations``: the hard bot's search budget as a count of iterations —
    the same seed then plays the same game on any machine (its default budget is time); the
    other bots do not search and ignore it."""
    name = LEVELS.get(name, name)
    if iterations is not None and (type(iterations) is not int or iterations < 1):
        from fuyuki.core.errors import DataError
        raise DataError("--bot-iterations", "iterations", f"must be 1 or more, not {iterations!r}",
                        "low", lo=1, got=repr(iterations))
    if name == "random":
        return RandomBot(seed)
    if name == "heuristic":
        return HeuristicBot(seed, cards=rules.cards if rules is not None else None)
    if name == "hard":
        from fuyuki.sbb.agents.hard import HardBot
        if iterations is not None:
            kwargs["iterations"] = iterations
        return HardBot(seed, rules=rules, **kwargs)
    if name == "net":
        from fuyuki.sbb.agents.net import NetBot
        return NetBot(seed, rules=rules, **kwargs)
    from fuyuki.core.errors import DataError
    raise DataError("--bots", "bots", f"unknown bot {name!r} (known: {bot_names()} or "
                    "easy/normal/hard)", "choice",
                    allowed=" | ".join(dict.fromkeys(bot_names() + ["easy", "normal", "hard"])),
                    got=repr(name))


def play_out(game, bots, *, limit: int | None = None, visit=None) -> int:
    """Play ``game`` to its end, each seat's decisions answered by ``bots[seat]`` from that
    seat's own view (built only for bots that read one); return how many decisions were
    answered. ``visit(game, seat, decision)`` runs before each answer. Past ``limit``
    decisions a FuyukiError says the game did not end."""
    if visit is None and hasattr(game, "play_bots"):
        return game.play_bots(bots, limit or 0)
    decisions = 0
    while not game.over:
        for seat, d in game.pending().items():
            if visit is not None:
                visit(game, seat, d)
            b = bots[seat]
            game.submit(seat, b.choose(game.view(seat) if b.needs_view else None, d))
            decisions += 1
        if limit is not None and decisions >= limit:
            from fuyuki.core.errors import FuyukiError
            raise FuyukiError(f"the game did not end within {limit} decisions")
    return decisions
