"""A plain program player for the pairs nobody drives: it reads only its own view and its own
decision, and plays a cautious, readable game (rest when low, fight the known weak, keep
令呪 for retreats)."""

from __future__ import annotations

import random
from typing import Any

from fuyuki.core import rng
from fuyuki.core.protocol import Decision


class SimpleAgent:
    def __init__(self, seed: int | str, seat: int, aggression: float = 0.45):
        self.rand: random.Random = rng.stream(seed, f"rpg-agent/{seat}")
        self.seat = seat
        self.aggression = aggression

    def choose(self, view: dict[str, Any], decision: Decision) -> Any:
        fn = getattr(self, "on_" + decision.kind, None)
        if fn is not None:
            choice = fn(view, decision)
            if choice in decision.options:
                return choice
        return "pass" if "pass" in decision.options else decision.options[0]

    # -- helpers ----------------------------------------------------------------------------
    def me(self, view: dict[str, Any]) -> dict[str, Any]:
        return view.get("me") or {}

    def _side(self, decision: Decision) -> int:
        return int(decision.info.get("side", 0))

    # -- battle -----------------------------------------------------------------------------
    def on_lineup(self, view, d: Decision):
        # main: a servant, ours first; sub: another servant, else our master
        names = d.info.get("names", {})
        best, score = d.options[0], -1
        for opt in d.options:
            main, sub = opt.split("|")
            s = (2 if main.endswith(".servant") else 0) + (1 if sub.endswith(".servant") else 0)
            if main == "-":
                s = 1 if sub.endswith(".servant") else 0
            if s > score:
                best, score = opt, s
        del names
        return best

    def on_prepare(self, view, d: Decision):
        me = self.me(view)
        if me and me.get("mana", 0) <= -20:
            for o in d.options:
                if o.startswith("mana:"):
                    return o
        return "pass"

    def on_pick_stat(self, view, d: Decision):
        side = self._side(d)
        totals = d.info.get("totals")
        order = d.info.get("stats")
        if not totals or not order:
            return self.rand.choice(d.options)
        own, other = totals[side], totals[1 - side]
        return max(d.options, key=lambda s: own[order.index(s)] - other[order.index(s)])

    def on_redraw(self, view, d: Decision):
        side = self._side(d)
        if d.info.get("res", ["", ""])[side] == "dis":
            me = self.me(view)
            seals = me.get("seals", 3) if me else 3
            if seals >= 3 and self.rand.random() < 0.5:
                return next(o for o in d.options if o != "pass")
        return "pass"

    def on_declare(self, view, d: Decision):
        me = self.me(view)
        mana = me.get("mana", 100) if me else 100
        for o in d.options:
            if o.startswith("item:"):
                return o
        for o in d.options:
            if o.startswith("ability:") and mana > 60:
                return o
        return "pass"

    def on_retreat(self, view, d: Decision):
        cost = d.info.get("cost", 0)
        mana = min(d.info.get("mana", [0])) if d.info.get("mana") else 0
        per = d.info.get("mana_per_seal", 100)
        pays = [o for o in d.options if o.startswith("pay:")]
        if not pays:
            return "stay"
        # pay with mana while the servant stays above -60, the rest with seals
        by_mana = max(0, min(cost, (mana + 60) // per))
        k = cost - by_mana
        want = f"pay:{k}"
        return want if want in pays else pays[-1]

    def on_abandon(self, view, d: Decision):
        return "together"

    # -- war --------------------------------------------------------------------------------
    def _targets(self, view, prefix: str, options) -> list[str]:
        me = self.me(view)
        myfac = me.get("faction")
        allies = set(me.get("allies", []))
        enemies = {p["id"] for p in view["pairs"] if p["alive"] and p["faction"] != myfac
                   and p["id"] not in allies}
        return [o for o in options if o.startswith(prefix) and o.split(":", 1)[1] in enemies]

    def on_action(self, view, d: Decision):
        me = self.me(view)
        mana, cap = me.get("mana", 0), me.get("max_mana", 1)
        if mana < 0.45 * cap:
            if mana < 0 and self.rand.random() < 0.3:
                return "soul"
            return "rest"
        attacks = self._targets(view, "attack:", d.options)
        infos = [o for o in self._targets(view, "info:", d.options)
                 if o.split(":", 1)[1] not in set(me.get("known", []))]
        x = self.rand.random()
        if x < 0.12:
            return self.rand.choice([o for o in d.options if o.startswith("craft:")])
        if x < 0.25 and infos:
            return self.rand.choice(infos)
        if x < 0.25 + self.aggression and attacks:
            known = [o for o in attacks if o.split(":", 1)[1] in set(me.get("known", []))]
            pool = known or attacks
            target = self.rand.choice(pool)
            snipe = "snipe:" + target.split(":", 1)[1]
            return snipe if snipe in d.options and self.rand.random() < 0.5 else target
        return "rest" if mana < cap else self.rand.choice(["other", "contact:random"])

    def on_engage(self, view, d: Decision):
        me = self.me(view)
        ok = me.get("mana", 0) > 0.6 * me.get("max_mana", 1)
        return "attack" if ok and self.rand.random() < self.aggression else "ignore"

    def on_contact(self, view, d: Decision):
        me = self.me(view)
        target = next((p for p in view["pairs"] if p["id"] == d.info.get("target")), None)
        hostile = target is not None and target["faction"] != me.get("faction")
        ok = me.get("mana", 0) > 0.6 * me.get("max_mana", 1)
        return "fight" if hostile and ok and self.rand.random() < self.aggression else "talk"

    def on_intervene(self, view, d: Decision):
        me = self.me(view)
        ok = me.get("mana", 0) > 0.7 * me.get("max_mana", 1)
        return "intervene" if ok and self.rand.random() < 0.3 else "ignore"

    def on_comm(self, view, d: Decision):
        me = self.me(view)
        friends = [o for o in d.options if o.startswith("offer:") and any(
            p["id"] == o[6:] and p["faction"] == me.get("faction") for p in view["pairs"])]
        if friends and self.rand.random() < 0.1:
            return self.rand.choice(friends)
        return "pass"

    def on_seal_gift(self, view, d: Decision):
        return "accept"

    def on_alliance(self, view, d: Decision):
        me = self.me(view)
        offer = next((p for p in view["pairs"] if p["id"] == d.info.get("offer")), None)
        return "accept" if offer and offer["faction"] == me.get("faction") else "refuse"

    def on_mana(self, view, d: Decision):
        mana, cap = d.info.get("mana", 0), d.info.get("max", 1)
        for o in d.options:
            if o.startswith("item:") and mana < cap - 20:
                return o
        if "seal" in d.options and mana <= d.info.get("vanish_at", -100) + 20:
            return "seal"
        return "done"

    def on_reroll(self, view, d: Decision):
        return next((o for o in d.options if o != "keep"), "keep")
