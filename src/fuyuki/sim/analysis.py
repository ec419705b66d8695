"""The analysis-only heuristic bot that is given the full state — a measuring device.

:class:`FullStateHeuristicBot` is the heuristic bot with every master and servant on the
table shown to it (face down or not): the simulator hands it :func:`full_view` instead of
``game.view(seat)``. Comparing its win rate with the plain heuristic bot's, on the same seeds
and seats, measures what hiding your identity is worth to the players who cannot see it.

It breaks the rule that a bot sees only its own view, on purpose and only here: it is
**never offered as an opponent** (not in ``make_bot``, not in the CLI's ``--bots``, not in any
front end) and lives in the simulator package, not in ``fuyuki.sbb.agents``.
"""

from __future__ import annotations

from typing import Any

from fuyuki.sbb.agents.heuristic import HeuristicBot


def full_view(game, seat: int) -> dict[str, Any]:
    """``game.view(seat)`` with every seat's master, servant, darkness and 魔力 filled in from
    the engine's state. For the analysis bot only; never shown to a player."""
    view = game.view(seat)
    s, names = game.s, game.t.names
    for i, p in enumerate(view["seats"]):
        p["master"] = names[s.master[i]] or None
        p["servant"] = names[s.servant[i]] or None
        p["dark"] = s.dark[i]
        p["mana"] = game.mana(i) if s.master[i] else None
    return view


class FullStateHeuristicBot(HeuristicBot):
    """The heuristic bot, bidding with the opponents' real masters and servants in mind.

    Analysis only — it is given the full state and is never offered as an opponent.

    Its code is the plain bot's: that bot rates each rival by the servant its view shows
    (face up: its power; face down: the mean power of the servants it cannot see) and counts
    its 宝具's effect as worthless against a visible アヴェンジャー. Given :func:`full_view`,
    every servant is visible, so it reads every rival's real power and every アヴェンジャー;
    its swaps and 宝石魔術 read ``view["seats"]`` too.
    """

    name = "heuristic-full-state"
    needs_view = True
    needs_full_state = True
