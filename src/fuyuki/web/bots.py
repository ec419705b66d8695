"""Bots at the tables: the worker process where slow bots (search) think off the event loop.

A bot sees only its seat's view and decision, in the worker as on the loop.
"""

from __future__ import annotations

from typing import Any

_POOL: list = []


def pool():
    """One worker process for the slow bots (spawned on first use)."""
    if not _POOL:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        _POOL.append(ProcessPoolExecutor(max_workers=1,
                                         mp_context=multiprocessing.get_context("spawn")))
    return _POOL[0]


def shutdown_pool() -> None:
    while _POOL:
        _POOL.pop().shutdown(wait=False, cancel_futures=True)


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot of ``seat`` at a table of seed ``seed``."""
    return (seed * 31 + seat) % 2**31


def think(game: str, name: str, seed: int, seat: int, config: dict[str, Any], seconds: float,
          view: dict, decision: dict) -> Any:
    """A slow bot's answer, computed in the worker process from the seat's view only."""
    from fuyuki.core.protocol import Decision
    from fuyuki.web.games import adapter

    bot = adapter(game).make_bot(name, seed, seat, config, seconds=seconds)
    d = Decision(decision["kind"], tuple(decision["options"]), decision["info"])
    return bot.choose(view, d)
