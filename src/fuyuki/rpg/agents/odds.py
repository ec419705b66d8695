"""The program: a player that weighs its decisions by the battle's own numbers. It reads only
its seat's view and decision, like :class:`SimpleAgent`, and the public rules. Each rule is a
method named for it:

- **allies first** (:meth:`on_comm`, :meth:`on_alliance`): every コミュ it offers an alliance to
  a pair of its faction it is not allied with, and accepts its faction's offers — an attacked
  pair's allies join its battle [R-3], so a faction allied throughout defends two servants
  strong;
- **a familiar first** (:meth:`familiar`): at full mana, without one, a familiar is crafted;
- **fight at the odds** (:meth:`win_chance`): a war's battle is started (attack, engage,
  contact, intervene) only against a pair whose sheet it has learned, when the win chance
  computed from the battle table, the stat differences, the 基礎勝率 and the declarable bonuses
  reaches :attr:`fight_at`; an unknown enemy is first looked up (情報収集); an attack is a
  不意討ち when initiative raises the chance;
- **picks by the table** (:meth:`on_pick_stat`): the first stat is the one that, against the
  other side's best reply and the random third, gives the highest expected rate; the second
  the one that leaves the first side the lowest;
- **no shortage in battle** (:meth:`on_prepare`): a 令呪 for +100 mana before a battle when the
  servant's shortage penalty is on and a 令呪 stays for a retreat;
- **a 令呪 where it tips the battle** (:meth:`on_declare`): +30 % (main) declared when the rate
  so far leaves the battle open (:attr:`seal_window`) and a 令呪 stays; abilities while the
  mana they cost keeps the servant out of a shortage; items always; no re-draw (a 令呪's +30 %
  is worth more than a new random stat);
- **retreat, keeping a 令呪** (:meth:`on_retreat`): pay with mana down to :attr:`mana_floor`,
  the rest with 令呪; never stay while paying is possible;
- **mana before vanishing** (:meth:`on_mana`): mana items while below the maximum, a 令呪 when
  the servant would vanish or its shortage penalty reaches :attr:`seal_shortage`.
"""

from __future__ import annotations

from typing import Any

from fuyuki.core.protocol import Decision
from fuyuki.rpg.agents.simple import SimpleAgent
from fuyuki.rpg.rules import Rules, default_rules


class OddsAgent(SimpleAgent):
    #: the least win chance for which it starts a battle
    fight_at = 0.6
    #: its own rate (0–100) between which a 令呪's +30 % is worth declaring
    seal_window = (25, 80)
    #: the mana a retreat's payment may leave the servant with
    mana_floor = -60
    #: the shortage penalty at the mana check from which a 令呪 buys +100 mana
    seal_shortage = 20

    def __init__(self, seed: int | str, seat: int, rules: Rules | None = None):
        super().__init__(seed, seat)
        self.rules = rules or default_rules()

    # -- the battle's numbers ---------------------------------------------------------------
    def rate(self, init: list[int], other: list[int], stats: tuple[str, ...], base: int = 0) -> int:
        """The initiative side's win rate (0–100) when ``stats`` are compared: the table of
        advantages, the stat differences and ``base`` (基礎勝率 and bonuses, its minus the
        other's)."""
        r, order = self.rules, self.rules.stat_order
        adv = dis = diff = 0
        for s in stats:
            i = order.index(s)
            d = init[i] - other[i]
            adv, dis, diff = adv + (d > 0), dis + (d < 0), diff + d
        raw = r.table_rate(adv, 3 - adv - dis, dis) + diff * r.battle["diff_percent_per_point"] + base
        return max(r.battle["clamp_min"], min(r.battle["clamp_max"], raw))

    def expected_rate(self, init: list[int], other: list[int], base: int = 0,
                      first: str | None = None) -> float:
        """The initiative side's expected rate: it picks the first stat (or ``first``), the
        other side the second that is worst for it, the third drawn from the other four."""
        order = tuple(self.rules.stat_order)
        best = -1.0
        for s1 in ([first] if first else order):
            worst = 101.0
            for s2 in order:
                if s2 == s1:
                    continue
                four = [s for s in order if s not in (s1, s2)]
                e = sum(self.rate(init, other, (s1, s2, s3), base) for s3 in four) / len(four)
                worst = min(worst, e)
            best = max(best, worst)
        return best

    def side_totals(self, sheet: dict[str, Any], boost: int = 0) -> list[int]:
        """A lone pair's totals: its servant as メイン (its shortage penalty, ``boost`` 令呪 +10),
        its master as サブ (the non-servant −10, halved)."""
        r = self.rules
        pen = r.shortage_penalty(int(sheet.get("mana", 0)))
        sv, ms = sheet["servant"]["stats"], sheet["master"]["stats"]
        main = [max(0, sv[s] - pen) + r.seals["stat_boost"] * boost for s in r.stat_order]
        sub = [r.halve(max(0, ms[s] - r.battle["nonservant_penalty"])) for s in r.stat_order]
        return [a + b for a, b in zip(main, sub)]

    @staticmethod
    def effect_sum(sheet: dict[str, Any], kind: str) -> int:
        return sum(v for c in (sheet["servant"], sheet["master"]) for a in c["abilities"]
                   for k, v in a["effects"] if k == kind)

    def win_chance(self, me: dict[str, Any], foe: dict[str, Any], attacker: bool,
                   surprise: bool = False) -> float:
        """The chance that ``me`` (a sheet) beats ``foe`` (a sheet it learned), each side a lone
        pair, both declaring their win-rate abilities."""
        mine, theirs = self.side_totals(me), self.side_totals(foe)
        base = (self.effect_sum(me, "base_rate") + self.effect_sum(me, "win_rate")
                - self.effect_sum(foe, "base_rate") - self.effect_sum(foe, "win_rate"))
        hide = [self.effect_sum(me, "concealment") > 0 or (attacker and surprise),
                self.effect_sum(foe, "concealment") > 0]
        agi = self.rules.stat_order.index("agi")
        if hide[0] != hide[1]:
            first = hide[0]
        elif mine[agi] != theirs[agi]:
            first = mine[agi] > theirs[agi]
        else:
            first = not attacker
        if first:
            return self.expected_rate(mine, theirs, base) / 100
        return 1 - self.expected_rate(theirs, mine, -base) / 100

    def _sheet(self, view: dict[str, Any], pid: Any) -> dict[str, Any] | None:
        p = next((x for x in view.get("pairs", []) if x["id"] == pid), None)
        return p.get("sheet") if p and p.get("alive", True) else None

    def _fit(self, view: dict[str, Any]) -> bool:
        me = self.me(view)
        return me.get("mana", 0) >= 0.5 * me.get("max_mana", 1) and me.get("seals", 0) > 0

    # -- the war ------------------------------------------------------------------------------
    def on_action(self, view, d: Decision):
        me = self.me(view)
        mana, cap = me.get("mana", 0), me.get("max_mana", 1)
        if mana < 0.45 * cap or me.get("seals", 0) == 0:
            return "rest"
        best, chance = None, self.fight_at
        for kind in ("attack", "surprise"):
            for o in self._targets(view, kind + ":", d.options):
                foe = self._sheet(view, o.split(":", 1)[1])
                if foe is not None:
                    c = self.win_chance(me, foe, attacker=True, surprise=kind == "surprise")
                    if c > chance:
                        best, chance = o, c
        if best is not None:
            return best
        familiar = self.familiar(me, d)
        if familiar and mana >= cap:
            return familiar
        unknown = [o for o in self._targets(view, "info:", d.options)
                   if o.split(":", 1)[1] not in set(me.get("known", []))]
        if unknown:
            return self.rand.choice(unknown)
        return "rest" if mana < cap else self.rand.choice([o for o in d.options if o.startswith("craft:")])

    def familiar(self, me: dict[str, Any], d: Decision) -> str | None:
        """**a familiar first**: the craft of a 情報収集 item when the pair holds none and its
        master crafts it at 50 % or better (it raises every later 情報収集; at full mana a rest
        would be wasted)."""
        rate = me.get("master", {}).get("stats", {}).get("mgi", 0) * self.rules.actions["craft_per_magic"]
        for item in self.rules.items.values():
            o = f"craft:{item.id}"
            if item.kind == "info" and o in d.options and not me.get("items", {}).get(item.id) and rate >= 50:
                return o
        return None

    def _fight_ok(self, view, target: Any, attacker: bool, surprise: bool = False) -> bool:
        foe = self._sheet(view, target)
        return foe is not None and self._fit(view) and \
            self.win_chance(self.me(view), foe, attacker, surprise) >= self.fight_at

    def on_engage(self, view, d: Decision):
        t = d.info.get("target")
        if "surprise" in d.options and self._fight_ok(view, t, True, True):
            return "surprise"
        return "attack" if self._fight_ok(view, t, True) else "ignore"

    def on_contact(self, view, d: Decision):
        return "fight" if self._fight_ok(view, d.info.get("target"), True) else "talk"

    def on_intervene(self, view, d: Decision):
        return "intervene" if self._fight_ok(view, d.info.get("target"), True) else "ignore"

    def on_comm(self, view, d: Decision):
        me = self.me(view)
        mates = [o for o in d.options if o.startswith("offer:") and any(
            p["id"] == o[6:] and p["faction"] == me.get("faction") for p in view["pairs"])]
        return mates[0] if mates else "pass"

    def on_mana(self, view, d: Decision):
        mana, cap = d.info.get("mana", 0), d.info.get("max", 1)
        for o in d.options:
            if o.startswith("item:") and mana < cap - 20:
                return o
        if "seal" in d.options and (mana <= d.info.get("vanish_at", -100)
                                    or self.rules.shortage_penalty(mana) >= self.seal_shortage):
            return "seal"
        return "done"

    # -- the battle ---------------------------------------------------------------------------
    def on_pick_stat(self, view, d: Decision):
        side = self._side(d)
        totals = d.info.get("totals")
        if not totals:
            return super().on_pick_stat(view, d)
        own, other = totals[side], totals[1 - side]
        if d.info.get("n") == 1:
            return max(d.options, key=lambda s: self.expected_rate(own, other, first=s))
        # the second pick: the first side's expected rate over the random third, lowest
        first = next(s for s in self.rules.stat_order if s not in d.options)
        def theirs(s2: str) -> float:
            four = [s for s in d.options if s != s2]
            return sum(self.rate(other, own, (first, s2, s3)) for s3 in four) / len(four)
        return min(d.options, key=theirs)

    def on_prepare(self, view, d: Decision):
        me = self.me(view)
        if me.get("seals", 0) < 2:
            return "pass"
        for o, eff in d.info.get("effects", {}).items():
            if o.startswith("mana:") and o in d.options and \
                    self.rules.shortage_penalty(eff["mana"][0]) > self.rules.shortage_penalty(eff["mana"][1]):
                return o
        return "pass"

    def on_redraw(self, view, d: Decision):
        return "pass"

    def current_rate(self, view, d: Decision) -> int | None:
        """Its own win rate as step 5 stands (the comparisons, 基礎勝率 and bonuses so far),
        read from the battle's public events; None when the view has none."""
        events = view.get("events") or []
        cmp: dict[int, dict[str, Any]] = {}
        base: dict[int, int] = {}
        for e in reversed(events):
            k, data = e["kind"], e["data"]
            if k == "battle_start":
                break
            if k == "compare" and data["n"] not in cmp:
                cmp[data["n"]] = data
            elif k == "base_rate" and data["side"] not in base:
                base[data["side"]] = data["value"]
        if len(cmp) < 3 or len(base) < 2:
            return None
        side, init = self._side(d), int(d.info.get("initiative", 0))
        res = [c["res"][init] for c in cmp.values()]
        adv, dis = res.count("adv"), res.count("dis")
        diff = sum((c["a"] - c["b"]) * (1 if init == 0 else -1) for c in cmp.values())
        bonus = d.info.get("bonus", [0, 0])
        r = self.rules
        raw = (base[init] - base[1 - init] + r.table_rate(adv, 3 - adv - dis, dis)
               + diff * r.battle["diff_percent_per_point"] + bonus[init] - bonus[1 - init])
        rate = max(r.battle["clamp_min"], min(r.battle["clamp_max"], raw))
        return rate if side == init else 100 - rate

    def on_declare(self, view, d: Decision):
        me = self.me(view)
        rate = self.current_rate(view, d)
        if rate is not None and not 0 < rate < 100:
            return "pass"                  # settled: a bonus would change nothing
        for o in d.options:
            if o.startswith("item:"):
                return o
        lv_cost = me.get("servant", {}).get("lv", 0) // self.rules.mana["battle_cost_divisor"]
        for o in d.options:
            if o.startswith("ability:"):
                _, cid, k = o.split(":")
                cost = self._ability_cost(me, cid, int(k))
                if me.get("mana", 0) - cost - lv_cost > -self.rules.mana["shortage_step"]:
                    return o
        seals = [o for o in d.options if o.startswith("seal:")]
        lo, hi = self.seal_window
        if seals and me.get("seals", 0) >= 2 and rate is not None and lo <= rate <= hi:
            return seals[0]
        return "pass"

    @staticmethod
    def _ability_cost(me: dict[str, Any], cid: str, k: int) -> int:
        for role in ("servant", "master"):
            c = me.get(role)
            if c and cid.endswith("." + role) and k < len(c["abilities"]):
                return int(c["abilities"][k]["cost"])
        return 0

    def on_retreat(self, view, d: Decision):
        cost = int(d.info.get("cost", 0))
        mana = min(d.info.get("mana") or [0])
        per = int(d.info.get("mana_per_seal", 100))
        pays = [o for o in d.options if o.startswith("pay:")]
        if not pays:
            return "stay"
        by_mana = max(0, min(cost, (mana - self.mana_floor) // per))
        want = f"pay:{cost - by_mana}"
        return want if want in pays else pays[-1]
