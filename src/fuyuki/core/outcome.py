"""The result of a finished game: one shape for every engine (docs/records.md).

``game.result`` is ``None`` while a game runs; when it is over it is a JSON-ready dict with at
least these keys, whatever the game::

    winners  list[int]        the seats that won ([] when nobody did)
    draw     bool             not exactly one winner
    reason   str              why the game ended (a key of the game's message catalog)
    ranking  list[list[int]]  every seat once, best place first; a place may hold several
    rounds   int              rounds (turns) played

and any keys of its own (Servant Big Battle: ``gems``; the board: ``winner``, ``camp``; the
RPG war: ``survivors``, ``faction``, ``turns``). The server, ``replay`` and the simulators read
only the keys above when they treat games alike. A game's record (seed, config, ordered
submissions) is :class:`fuyuki.core.record.Record`.
"""

from __future__ import annotations

from typing import Any

from fuyuki.core.errors import DataError

KEYS = ("winners", "draw", "reason", "ranking", "rounds")


def outcome(winners: list[int], reason: str, ranking: list[list[int]], rounds: int,
            **extra: Any) -> dict[str, Any]:
    """A result in the shared shape (``extra``: the game's own keys)."""
    return {"winners": list(winners), "draw": len(winners) != 1, "reason": reason,
            "ranking": [list(p) for p in ranking], "rounds": rounds, **extra}


def check_result(result: Any, seats: int, source: str = "result") -> dict[str, Any]:
    """``result`` has the shared shape for a game of ``seats`` seats; DataError names the key."""
    if not isinstance(result, dict):
        raise DataError(source, "-", "a result is an object")
    for key in KEYS:
        if key not in result:
            raise DataError(source, key, "missing")
    winners, ranking = result["winners"], result["ranking"]
    if not isinstance(winners, list) or not all(type(s) is int and 0 <= s < seats for s in winners):
        raise DataError(source, "winners", f"must be a list of seats 0 to {seats - 1}")
    if result["draw"] is not (len(winners) != 1):
        raise DataError(source, "draw", "must be true exactly when there is not one winner")
    if not isinstance(result["reason"], str) or not result["reason"]:
        raise DataError(source, "reason", "must be a non-empty text")
    if type(result["rounds"]) is not int or result["rounds"] < 0:
        raise DataError(source, "rounds", "must be a whole number")
    flat = [s for place in ranking for s in place] if isinstance(ranking, list) and \
        all(isinstance(p, list) and p for p in ranking) else None
    if flat is None or sorted(flat) != list(range(seats)):
        raise DataError(source, "ranking", "must list every seat once, in non-empty places")
    if winners and sorted(ranking[0]) != sorted(winners):
        raise DataError(source, "ranking", "the winners hold the first place")
    return result
