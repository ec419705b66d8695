"""Program players for the Grail War RPG, by level: ``random`` (any legal option), ``simple``
(a cautious, partly random game), ``odds`` (decisions weighed by the battle table; the
program). :func:`program` makes the one the doors use: the pairs nobody drives in a war and
the GM's "let the program answer"."""

from __future__ import annotations

from typing import Any

from fuyuki.rpg.agents.odds import OddsAgent
from fuyuki.rpg.agents.random_agent import RandomAgent
from fuyuki.rpg.agents.simple import SimpleAgent

__all__ = ["LEVELS", "PROGRAM", "OddsAgent", "RandomAgent", "SimpleAgent", "make_agent", "program"]

#: every program level, weakest first
LEVELS: dict[str, type] = {"random": RandomAgent, "simple": SimpleAgent, "odds": OddsAgent}
#: the level the doors use
PROGRAM = "odds"


def make_agent(level: str, seed: int | str, seat: int) -> Any:
    """A program player of ``level`` for ``seat``, its randomness drawn from ``seed``."""
    if level not in LEVELS:
        raise ValueError(f"unknown program level {level!r} ({', '.join(LEVELS)})")
    return LEVELS[level](seed, seat)


def program(seed: int | str, seat: int) -> Any:
    """The program's player for ``seat`` (the level :data:`PROGRAM`)."""
    return make_agent(PROGRAM, seed, seat)
