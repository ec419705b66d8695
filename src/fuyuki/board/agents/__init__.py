"""Bots for the board game: they see only their own view and decision."""

from typing import Any

from fuyuki.board.agents.heuristic import HeuristicBot
from fuyuki.board.agents.random_bot import RandomBot

__all__ = ["HeuristicBot", "RandomBot", "make_bot"]


def make_bot(kind: str, seed: int, seat: int, **budget: Any):
    """A bot by kind; ``budget`` (``iterations`` or ``seconds``) is the hard bot's search
    budget a decision (the others do not search and ignore it)."""
    if kind == "random":
        return RandomBot(seed, seat)
    if kind == "heuristic":
        return HeuristicBot(seed, seat)
    if kind == "hard":
        from fuyuki.board.agents.hard import HardBot

        return HardBot(seed, seat, **budget)
    raise ValueError(f"unknown bot kind {kind!r} (random, heuristic, hard)")
