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

from fuyuki.sbb.agents.heuristic import TYPICAL_TOTAL, HeuristicBot


def full_view(game, seat: int) -> dict[str, Any]:
    """``game.view(seat)`` with every seat's master, servant, darkness and 魔力 filled in from
    the engine's state. For the analysis bot only; never shown to a player."""
    view = game.view(seat)
    s = game.s
    for i, p in enumerate(view["seats"]):
        p["master"] = s.master[i] or None
        p["servant"] = s.servant[i] or None
        p["dark"] = s.dark[i]
        p["mana"] = game.mana(i) if s.master[i] else None
    return view


class FullStateHeuristicBot(HeuristicBot):
    """The heuristic bot, bidding with the opponents' real masters and servants in mind.

    Analysis only — it is given the full state and is never offered as an opponent.

    It differs from :class:`HeuristicBot` only where the plain bot has to guess an identity:

    - the plain bot rates an unknown opponent at ``TYPICAL_TOTAL`` (an average servant's power
      plus an average card); this one uses the opponents' real mean power plus the same
      average card, so that over all deals both estimates agree on average;
    - the plain bot counts its 宝具's effect as worth 1 whenever it has one; this one counts
      it 0 when no opponent could suffer it (ゴッドハンド against a plain destruction) and 0
      too when an opponent's アヴェンジャー would take its servant down with it;
    - its swaps and 宝石魔術 already read ``view["seats"]``, which now shows every card.
    """

    name = "heuristic-full-state"
    needs_view = True
    needs_full_state = True

    def _mean_power(self) -> float:
        powers = [sv.power for sv in self.cards.servants.values()]
        return sum(powers) / len(powers) if powers else 0.0

    def _effect_worth(self, sv, rivals: list[dict]) -> float:
        if sv is None or sv.effect.empty:
            return 0.0
        eff = sv.effect
        hurt = 0
        for p in rivals:
            rsv = self.cards.servants.get(p["servant"] or "")
            if rsv is None:
                continue
            if eff.destroy and rsv.retaliate:
                return 0.0
            if eff.destroy == ("servant",) and rsv.indestructible and not eff.sure_hit:
                continue
            hurt += 1
        return 1.0 if hurt or eff.pool_gems else 0.0

    def _typical_total(self, view) -> float:
        rivals = [p for p in view["seats"] if p["seat"] != view["seat"]]
        rival_power = sum(self._power_of(p) for p in rivals) / max(1, len(rivals))
        return TYPICAL_TOTAL - self._mean_power() + rival_power

    def _np_effect_worth(self, view, sv) -> float:
        return self._effect_worth(sv, [p for p in view["seats"] if p["seat"] != view["seat"]])
