"""Servant Big Battle in the contract's registry: a game started from a record's seed and config
(:func:`start`, registered as ``sbb`` in :data:`fuyuki.core.contract.BUILTIN`).

The config: ``players``, ``edition`` (a preset's name or an edition file), ``mode``,
``options``, ``cards`` (a card file), ``rng`` (the RNG version; 1 when absent: the records made
before version 2) and ``setup`` (the simulator's fixed pairings and deal,
:mod:`fuyuki.sbb.setup_overrides`). Every wrong key is a DataError naming ``config.<key>`` of
the record's ``source``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fuyuki.core.data import Table
from fuyuki.core.errors import DataError
from fuyuki.core.rng import RNG_VERSIONS
from fuyuki.sbb.game import Game


def start(seed: int, config: dict[str, Any], source: str) -> Game:
    """A new game of the record's seed and ``config``, run to its first decision."""
    from fuyuki.sbb import new_game, setup_overrides
    from fuyuki.sbb.rules import Rules

    cfg = Table(config, source, "config")
    cfg.check_keys(["players", "edition", "mode", "options", "cards", "rng", "setup"])
    options = cfg.list("options", [])
    for i, opt in enumerate(options):
        if not isinstance(opt, str):
            raise cfg.fail(f"options[{i}]", f"must be an option name, not {opt!r}")
    mode = cfg.get("mode", (str, type(None)), None)
    cards = cfg.str("cards", "") or None
    try:
        rules = (Rules.preset(cfg.str("edition", "final"), mode, tuple(options), cards) if cards
                 else _preset(cfg.str("edition", "final"), mode, tuple(options)))
    except DataError as exc:
        if exc.file.startswith("--"):  # a name the record gives, not an option typed
            raise cfg.fail(exc.key, exc.reason) from None
        raise
    players = cfg.int("players", 4)
    try:
        rules.check_players(players)
    except DataError as exc:
        raise cfg.fail("players", exc.reason) from None
    rng = cfg.int("rng", 1, lo=min(RNG_VERSIONS), hi=max(RNG_VERSIONS))
    if not cfg.has("setup"):
        return new_game(players, seed, rules, rng=rng)
    setup = cfg.table("setup")
    setup.check_keys(["assign", "fixed"])
    assign = setup.get("assign", (str, type(None)), None)
    fx = setup.table("fixed", {})
    fixed: dict[int, tuple[str, str]] = {}
    for key in fx.data:
        pair = fx.list(key)
        if not key.isdigit() or len(pair) != 2 or not all(isinstance(c, str) for c in pair):
            raise fx.fail(key, "must be a seat: [master, servant]")
        fixed[int(key)] = (pair[0], pair[1])
    try:
        return setup_overrides.new_game(players, seed, rules, fixed=fixed, assign=assign, rng=rng)
    except DataError as exc:
        raise cfg.fail("setup", f"{exc.key}: {exc.reason}") from None


@lru_cache(maxsize=32)
def _preset(edition: str, mode: str | None, options: tuple[str, ...]) -> Any:
    """A preset's rules, read from its files once (a server starts a game per table; a game
    never changes its rules, so games share them, as clones already do)."""
    from fuyuki.sbb.rules import Rules

    return Rules.preset(edition, mode, options)
