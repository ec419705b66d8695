"""Bots for the board game: they see only their own view and decision."""

from fuyuki.board.agents.heuristic import HeuristicBot
from fuyuki.board.agents.random_bot import RandomBot

__all__ = ["HeuristicBot", "RandomBot", "make_bot"]


def make_bot(kind: str, seed: int, seat: int):
    if kind == "random":
        return RandomBot(seed, seat)
    if kind == "heuristic":
        return HeuristicBot(seed, seat)
    raise ValueError(f"unknown bot kind {kind!r} (random, heuristic)")
