"""A rule-of-thumb player: go for the weakest enemy master, defend with the smallest expected
damage, plot for 宝具, keep the servant between the enemy and its master.

It reads only its own view (positions, HP, its own hand and plotted cards) and the public
content pack (abilities, cards): no hidden information of other seats.
"""

from __future__ import annotations

from typing import Any

from fuyuki.core import rng
from fuyuki.core.protocol import Decision

from fuyuki.board.content import Pack, default_pack, load_pack

# how much a card is worth keeping (low: plotted, paid or discarded first)
CARD_RANK = {"supply": 0, "dash": 1, "foresight": 2, "healing": 3, "ward": 4, "reinforce": 5,
             "jewel": 6}
SPELL = "令呪"
HOLD_ROUNDS = 4   # a camp with a 山門 holds its gate this many rounds
DIRS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def _dist(a, b) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


class HeuristicBot:
    def __init__(self, seed: int = 0, seat: int = 0):
        self.rng = rng.stream(seed, f"board-heuristic-bot-{seat}")
        self._pack: Pack | None = None
        self.intent: str | None = None
        self._grudge: dict[Any, float] = {}

    # ------------------------------------------------------------------ view helpers
    def pack(self, view: dict[str, Any]) -> Pack:
        if self._pack is None:
            self._pack = load_pack(view["pack"]) if view.get("pack") else default_pack()
        return self._pack

    def _chars(self, view):
        return {c["id"]: c for c in view["chars"]}

    def _mine(self, view):
        return [c for c in view["chars"] if c["alive"] and c["camp"] == view["seat"]]

    def _enemies(self, view):
        return [c for c in view["chars"] if c["alive"] and c["camp"] != view["seat"]]

    def _tiebreak(self, camp: Any) -> float:
        """A fixed random preference between enemy camps for this game, to break ties between
        equally good targets: without it every bot picked the lowest seat's characters (the
        view lists them in seat order) and the first seats won far less."""
        if camp not in self._grudge:
            self._grudge[camp] = self.rng.random()
        return self._grudge[camp]

    def _card_rank(self, view, kid: str) -> int:
        for h in view.get("hand", []) + view.get("plotted", []):
            if h["id"] == kid:
                return CARD_RANK.get(h["card"], 3)
        return 3

    def _reach(self, view, ch) -> int:
        pack = self.pack(view)
        camp = view["camps"][view["seat"]]
        r = ch["skills"].get("reach", 0)
        for aid in ch["abilities"]:
            a = pack.abilities[aid]
            if a.timing != "attack":
                continue
            have = len(view.get("hand", [])) if a.kind == "magecraft" else camp["plotted_count"]
            if have >= a.cost:
                r = max(r, a.range)
        if ch["skills"].get("magus"):
            for h in view.get("hand", []):
                if pack.cards[h["card"]].effect == "magic_attack":
                    r = max(r, pack.cards[h["card"]].range)
        return r

    def _goal(self, view):
        """The enemy to go for: the weakest reachable master, else the nearest enemy."""
        mine = self._mine(view)
        if not mine:
            return None
        me = next((c for c in mine if c["role"] == "servant"), mine[0])
        enemies = [e for e in self._enemies(view) if e["camp"] is not None]
        if not enemies:
            enemies = self._enemies(view)
        if not enemies:
            return None
        def score(e):
            d = _dist(me["pos"], e["pos"])
            return (d * 4 + e["hp"] // 3 - (6 if e["role"] == "master" else 0),
                    self._tiebreak(e["camp"]))
        return min(enemies, key=score)

    def _expected_attack(self, d: Decision) -> float:
        i = d.info
        return i.get("value", 0) + 3.5 * i.get("dice", 0) + i.get("at", 0) + i.get("bonus", 0)

    # ------------------------------------------------------------------ choose
    def choose(self, view: dict[str, Any], decision: Decision) -> Any:
        handler = getattr(self, "_" + decision.kind, None)
        choice = handler(view, decision) if handler else None
        if choice is None or choice not in decision.options:
            opts = [o for o in decision.options if o != SPELL]
            choice = opts[0] if opts else decision.options[0]
        return choice

    def _pre_spell(self, view, decision) -> str | None:
        """Decide whether to use a 令呪 now (the decision offers it)."""
        if SPELL not in decision.options:
            return None
        seat = view["seat"]
        camp = view["camps"][seat]
        mine = self._mine(view)
        master = next((c for c in mine if c["role"] == "master"), None)
        servants = [c for c in mine if c["role"] == "servant"]
        if master is None:
            return None
        threats = [e for e in self._enemies(view) if e["role"] == "servant" and e["camp"] is not None
                   and _dist(e["pos"], master["pos"]) <= 1]
        far = [s for s in servants if s["pos"] != master["pos"] and not s["skills"].get("gatekeeper")]
        if threats and far and not any(s["pos"] == master["pos"] for s in servants):
            self.intent = f"summon:{far[0]['id']}"
            return SPELL
        if camp["spells"] >= 2 and len(view.get("hand", [])) == 0 and decision.kind == "plot":
            self.intent = "mana"
            return SPELL
        return None

    def _spell(self, view, decision):
        want, self.intent = self.intent, None
        return want if want in decision.options else "cancel"

    def _plot(self, view, decision):
        s = self._pre_spell(view, decision)
        if s:
            return s
        cards = [o for o in decision.options if o not in ("pass", SPELL)]
        if not cards:
            return "pass"
        return min(cards, key=lambda k: self._card_rank(view, k))

    def _unit(self, view, decision):
        return "together"

    def _group(self, view, decision):
        s = self._pre_spell(view, decision)
        if s:
            return s
        return [o for o in decision.options if o != SPELL][0]

    def _in_reach(self, view, group_key: str) -> bool:
        mine = self._mine(view)
        if group_key.startswith("alone:"):
            mine = [c for c in mine if c["id"] == group_key[6:]]
        else:
            mine = [c for c in mine if not c["alone"]]
        for c in mine:
            r = self._reach(view, c)
            if any(_dist(c["pos"], e["pos"]) <= r for e in self._enemies(view)):
                return True
        return False

    def _part(self, view, decision):
        opts = decision.options
        key = decision.info.get("group", "together")
        if "battle" in opts and self._in_reach(view, key):
            return "battle"
        for p in ("action", "move", "battle"):
            if p in opts:
                return p
        return "end"

    def _action(self, view, decision):
        opts = decision.options
        for o in opts:
            if o.startswith("recontract:"):
                return o
        mine = self._mine(view)
        hurt = sorted((c for c in mine if c["hp"] < c["max_hp"]),
                      key=lambda c: c["hp"] / c["max_hp"])
        if hurt and hurt[0]["hp"] / hurt[0]["max_hp"] < 0.6:
            for o in opts:   # a healing 特殊能力 (a 結界 is not what a hurt camp needs)
                if o.startswith("ability:") and \
                        self.pack(view).abilities[o.split(":")[1]].effect == "heal":
                    return o
            for o in opts:
                if o.startswith("card:") and self._card_effect(view, o[5:]) == "heal":
                    return o
        for o in opts:
            if o.startswith("card:") and self._card_effect(view, o[5:]) == "draw":
                return o
        master = next((c for c in mine if c["role"] == "master"), None)
        if master and master["hp"] <= master["max_hp"] // 3 and f"first_aid:{master['id']}" in opts:
            return f"first_aid:{master['id']}"
        return "concentrate"

    def _card_effect(self, view, kid):
        for h in view.get("hand", []):
            if h["id"] == kid:
                return self.pack(view).cards[h["card"]].effect
        return None

    def _heal_target(self, view, decision):
        chars = self._chars(view)
        return min(decision.options, key=lambda c: chars[c]["hp"] / chars[c]["max_hp"])

    def _step_toward(self, view, pos, goal) -> str | None:
        best, bd = None, _dist(pos, goal)
        for d, (dr, dc) in DIRS.items():
            p = (pos[0] + dr, pos[1] + dc)
            if 0 <= p[0] < view["map"]["height"] and 0 <= p[1] < view["map"]["width"]:
                if _dist(p, goal) < bd:
                    best, bd = d, _dist(p, goal)
        return best

    def _dash(self, view, decision):
        goal = self._goal(view)
        if goal is None:
            return None
        chars = self._chars(view)
        for o in decision.options:
            cid, d = o.split(":")
            if chars[cid]["role"] == "servant" and self._step_toward(view, chars[cid]["pos"], goal["pos"]) == d:
                return o
        return None

    def _move(self, view, decision):
        key = decision.info.get("group", "together")
        if self._in_reach(view, key):
            return "skip"
        goal = self._goal(view)
        mine = [c for c in self._mine(view) if (c["alone"] if key != "together" else not c["alone"])]
        if key.startswith("alone:"):
            mine = [c for c in mine if c["id"] == key[6:]]
        if goal is None or not mine:
            return "skip"
        # a camp with a gatekeeper (山門) holds its ground next to it until enemies come near
        keeper = next((c for c in self._mine(view) if c["skills"].get("gatekeeper")), None)
        if (keeper is not None and key == "together" and view["round"] <= HOLD_ROUNDS
                and all(c["pos"] == keeper["pos"] for c in mine)):
            near = [e for e in self._enemies(view) if _dist(e["pos"], keeper["pos"]) <= 2]
            if not near:
                return "skip"
        lead = next((c for c in mine if c["role"] == "servant" and not c["skills"].get("gatekeeper")),
                    mine[0])
        d = self._step_toward(view, lead["pos"], goal["pos"])
        camp = view["camps"][view["seat"]]
        if d is None or f"move:{d}" not in decision.options:
            if camp["territory"] is None:
                for o in decision.options:
                    if o.startswith("build:"):
                        return o
            return "skip"
        return f"move:{d}"

    def _battle(self, view, decision):
        chars = self._chars(view)
        fights = [o for o in decision.options if o.startswith("fight:")]
        fights.sort(key=lambda o: chars[o[6:]]["role"] != "servant")
        for o in fights:
            c = chars[o[6:]]
            if c["role"] == "servant" or c["hp"] > c["max_hp"] // 2:
                return o
        return "done"

    def _target(self, view, decision):
        chars = self._chars(view)
        opts = [o for o in decision.options if o != "done"]
        if "done" in decision.options:
            # more targets only for a means that hits them all
            pack = self.pack(view)
            att = chars[decision.info["attacker"]]
            spread = any(pack.abilities[a].spread for a in att["abilities"])
            if not spread:
                return "done"
        def score(cid):
            c = chars[cid]
            return (c["camp"] is None, c["role"] != "master", c["hp"], self._tiebreak(c["camp"]))
        return min(opts, key=score)

    def _aim(self, view, decision):
        return self._target(view, Decision("target", tuple(decision.options), decision.info))

    def _preempt(self, view, decision):
        return "counter"

    def _means(self, view, decision):
        pack = self.pack(view)
        chars = self._chars(view)
        att = chars[decision.info["attacker"]]
        best, bv = None, -1.0
        for o in decision.options:
            if o == "cancel":
                continue
            if o == "normal":
                v = att["at"] + att["boost_at"] + 3.5
                cost = 0
            elif o.startswith("ability:"):
                a = pack.abilities[o[8:]]
                v = (a.value + 3.5 * a.dice) * a.attacks
                cost = a.cost * 1.5
            else:
                h = next(h for h in view["hand"] if h["id"] == o[5:])
                c = pack.cards[h["card"]]
                v = c.value + 3.5 * c.dice
                cost = 2
            score = v - cost
            if score > bv:
                best, bv = o, score
        return best or "cancel"

    def _pay(self, view, decision):
        return min(decision.options, key=lambda k: self._card_rank(view, k))

    def _boost(self, view, decision):
        cards = [o for o in decision.options if o != "none"]
        return cards[0] if cards else "none"

    def _cover(self, view, decision):
        chars = self._chars(view)
        covered = chars[decision.info["char"]]
        if covered["role"] != "master":
            return "none"
        for o in decision.options:
            if o.startswith("cover:"):
                c = chars[o[6:]]
                if c["role"] == "servant" and c["hp"] > c["max_hp"] * 0.3:
                    return o
        return "none"

    def _defence(self, view, decision):
        pack = self.pack(view)
        chars = self._chars(view)
        me = chars[decision.info["char"]]
        e = self._expected_attack(decision)
        camp = view["camps"][view["seat"]]
        terr = camp["territory"]
        tdf = 0
        if terr and terr["done"] and terr["pos"] == me["pos"]:
            tdf = pack.rules["territory_df"] + me["skills"].get("territory", 0)
        df = me["df"] + me["boost_df"] + tdf
        target = pack.rules["evade_target"]

        def p_evade(bonus):
            need = target - me["skills"].get("evade", 0) - bonus
            return min(1.0, max(0.0, (7 - need) / 6))

        best, bv = None, float("inf")
        for o in decision.options:
            if o == SPELL:
                continue
            if o.startswith("offset:"):
                a = pack.abilities[o[7:]]
                v = a.value + 3.5 * a.dice
                score = max(0.0, e - v) + a.cost * 1.5 - max(0.0, v - e) * 0.5
            else:
                kind, _, kid = o.partition("+")
                bonus = pack.cards[self._card_type(view, kid)].value if kid else 0
                if kind == "guard":
                    score = max(0.0, e - df - bonus)
                else:
                    score = (1 - p_evade(bonus)) * e
                if kid:
                    score += 1.5
            if score < bv:
                best, bv = o, score
        return best

    def _card_type(self, view, kid):
        for h in view.get("hand", []):
            if h["id"] == kid:
                return h["card"]
        return "ward"

    def _spell_window(self, view, decision):
        """★強化★ when it turns a 通常攻撃 into a kill on a master, or saves a guarding servant."""
        if SPELL not in decision.options:
            return "pass"
        chars = self._chars(view)
        info = decision.info
        seat = view["seat"]
        att = chars.get(info.get("attacker"))
        boost = self.pack(view).rules["spell_boost"]
        if att is None:
            return "pass"
        base = info.get("value", 0) + 3.5 * info.get("dice", 0) + info.get("bonus", 0)
        if att["camp"] == seat and att["role"] == "servant" and info.get("add_at"):
            e = base + att["at"] + att["boost_at"]
            for cid, kind in info.get("defences", []):
                d = chars[cid]
                if d["role"] == "master" and d["camp"] is not None and kind == "guard":
                    if e - d["df"] < d["hp"] <= e + boost - d["df"]:
                        self.intent = f"boost_at:{att['id']}"
                        return SPELL
        if att["camp"] != seat:
            e = base + ((att["at"] + att["boost_at"]) if info.get("add_at") else 0)
            for cid, kind in info.get("defences", []):
                d = chars[cid]
                if (d["camp"] == seat and d["role"] == "servant" and kind == "guard"
                        and e - d["df"] - d["boost_df"] >= d["hp"] > e - d["df"] - d["boost_df"] - boost):
                    self.intent = f"boost_df:{cid}"
                    return SPELL
        return "pass"

    def _order(self, view, decision):
        chars = self._chars(view)
        # the sturdier character defends first
        return max(decision.options, key=lambda c: chars[c]["hp"])

    def _discard(self, view, decision):
        return min(decision.options, key=lambda k: self._card_rank(view, k))
