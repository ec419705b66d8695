"""The heuristic bot: plays sensibly from its own view only.

It values lands by their gems, bids 宝具 when it expects a battle it can win, protects a
lead (聖杯出現 when ahead), and uses its abilities (宝石魔術 when it turns a battle,
強運 against an effect aimed at it, 身代わり, つばめ返し on the richest victim). Its numbers
are the bot's judgement, not rules.
"""

from __future__ import annotations

import math
import random
from typing import Any

from fuyuki.core.protocol import Decision
from fuyuki.sbb.cards import CardSet, card_value, parse_action

MASTER_PREF = {"illya": 9, "zouken": 8, "bazett": 8, "kirei": 7, "rin": 6, "sakura": 6,
               "kuzuki": 5, "taiga": 4, "shinji": 3, "shirou": 3}
SERVANT_PREF = {"gilgamesh": 10, "saber": 9, "berserker": 8, "lancer": 7, "rider": 7,
                "caster": 6, "archer": 4, "true_assassin": 4, "assassin": 3, "avenger": 2}
TYPICAL_TOTAL = 4.8   # an unknown opponent's power + card


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


class HeuristicBot:
    name = "heuristic"
    needs_view = True

    def __init__(self, seed: int = 0, cards: CardSet | None = None) -> None:
        self.rng = random.Random(seed)
        self._cards = cards

    @property
    def cards(self) -> CardSet:
        if self._cards is None:
            from fuyuki.sbb.game import default_rules
            self._cards = default_rules().cards
        return self._cards

    def choose(self, view: dict[str, Any], decision: Decision) -> Any:
        opts = decision.options
        if len(opts) == 1:
            return opts[0]
        handler = getattr(self, "_" + decision.kind, None)
        if handler is None:
            return self.rng.choice(opts)
        return handler(view, decision)

    # ------------------------------------------------------------ drafts and gems
    def _draft_master(self, view, d: Decision):
        return max(d.options, key=lambda c: (MASTER_PREF.get(c, 5), c))

    def _draft_servant(self, view, d: Decision):
        def value(c: str) -> float:
            if c in SERVANT_PREF:
                return SERVANT_PREF[c]
            sv = self.cards.servants.get(c)
            return sv.power * 2 if sv else 0
        return max(d.options, key=lambda c: (value(c), c))

    def _place_gem(self, view, d: Decision):
        hand = view["me"]["hand"]
        best, best_score = d.options[0], -1.0
        for land in view["lands"]:
            if land["id"] not in d.options:
                continue
            colour = self.cards.lands[land["id"]].colour
            mine = [parse_action(c) for c in hand]
            top = max((a.value for a in mine if a and a.colour == colour and a.kind == "sortie"),
                      default=0)
            score = top * 2 + land["gems"] * 0.1 + self.rng.random() * 0.01
            if score > best_score:
                best, best_score = land["id"], score
        return best

    # ------------------------------------------------------------ the bid
    def _my_power(self, view) -> int:
        return self._power_of(view["me"], unknown=1)

    def _power_of(self, p: dict[str, Any], unknown: int = 0) -> int:
        """The power of the servant a seat's view entry ``p`` shows (``unknown`` if none),
        with the dark master's bonus."""
        sv = self.cards.servants.get(p["servant"] or "")
        power = sv.power if sv else unknown
        if p["dark"]:
            m = self.cards.masters.get(p["master"] or "")
            power += int(m.params.get("power", 0)) if m else 0
        return power

    def _bid(self, view, d: Decision):
        me = view["me"]
        n = view["players"]
        gems = [p["gems"] for p in view["seats"]]
        seat = view["seat"]
        lead = gems[seat] - max(g for i, g in enumerate(gems) if i != seat)
        power = self._my_power(view)
        sv = self.cards.servants.get(me["servant"] or "")
        typical = self._typical_total(view)
        effect_worth = self._np_effect_worth(view, sv)
        land_gems = {self.cards.lands[l["id"]].colour: l["gems"] for l in view["lands"]}
        max_gems = max(land_gems.values()) or 1
        scores: dict[str, float] = {}
        for card in d.options:
            a = parse_action(card)
            if a is None:
                scores[card] = self._event_score(view, card, lead)
                continue
            g = land_gems.get(a.colour, 0)
            # chance that someone else bids on this land: more gems, more rivals
            q = min(0.85, (0.15 + 0.55 * g / max_gems) * (n - 1) / 3)
            total = power + a.value
            if a.kind == "sortie":
                p_win = _sigmoid((total - typical) / 1.2) * 0.75
                ev = g * ((1 - q) + q * p_win)
            else:
                if sv is not None and sv.np_as_sortie_vs_np:
                    p_win = 0.7  # beats 出撃 with つばめ返し, loses to any 宝具
                    effect = 0.5
                else:
                    p_win = 0.6 + 0.4 * _sigmoid((total - typical) / 1.2)
                    effect = effect_worth
                ev = q * (g * p_win + effect)
            ev -= 0.12 * a.value          # keep strong cards for later
            scores[card] = ev + self.rng.random() * 0.05
        return max(scores, key=lambda c: scores[c])

    def _typical_total(self, view) -> float:
        """What an opponent's total is guessed to be (identities are hidden)."""
        return TYPICAL_TOTAL

    def _np_effect_worth(self, view, sv) -> float:
        """What resolving my 宝具 is worth beyond the gems."""
        return 0.0 if sv is None or sv.effect.empty else 1.0

    def _event_score(self, view, card: str, lead: int) -> float:
        ev = self.cards.events.get(card)
        kind = ev.kind if ev else ""
        if kind == "grail":
            return 50.0 if lead >= 2 else -5.0
        if kind == "swap":
            me = view["me"]
            mine = SERVANT_PREF.get(me["servant"] or "", 5)
            best = max((SERVANT_PREF.get(p["servant"], 5) for p in view["seats"]
                        if p["servant"] and p["seat"] != view["seat"]), default=0)
            return 1.5 if best - mine >= 4 else -3.0
        return -4.0  # 強運: keep it for a reaction

    # ------------------------------------------------------------ abilities
    def _luck(self, view, d: Decision):
        if "use" in d.options and view["seat"] in d.info.get("targets", ()):
            return "use"
        return "decline"

    def _substitute(self, view, d: Decision):
        sv = self.cards.servants.get(view["me"]["servant"] or "")
        return "yes" if sv is not None and SERVANT_PREF.get(sv.id, 5) >= 4 else "no"

    def _tsubame(self, view, d: Decision):
        return max(d.options, key=lambda s: (view["seats"][s]["gems"], -s))

    def _swap(self, view, d: Decision):
        def value(s: int) -> float:
            p = view["seats"][s]
            return SERVANT_PREF.get(p["servant"], 5) if p["servant"] else 5.0
        return max(d.options, key=lambda s: (value(s), -s))

    def _jewel(self, view, d: Decision):
        """Discard the smallest card that lifts my total to the best opposing total."""
        seat = view["seat"]
        my_bid = view["seats"][seat]["bid"]
        a = parse_action(my_bid) if my_bid else None
        if a is None:
            return "pass"
        rivals = []
        for p in view["seats"]:
            b = parse_action(p["bid"]) if p["bid"] else None
            if p["seat"] != seat and b and b.colour == a.colour:
                rivals.append((p, b))
        if any(b.kind != a.kind for _, b in rivals):
            return "pass"   # a mixed battle is decided by the kinds, not the totals
        mine = self._my_power(view) + a.value
        best = 0
        for p, b in rivals:
            sv = self.cards.servants.get(p["servant"] or "")
            best = max(best, (sv.power if sv else 2) + (2 if p["dark"] else 0) + b.value)
        need = best + 1 - mine if a.kind == "sortie" else best + 1 - mine
        if need <= 0:
            return "pass"
        usable = sorted((c for c in d.options if c != "pass" and card_value(c) >= need),
                        key=card_value)
        return usable[0] if usable else "pass"
