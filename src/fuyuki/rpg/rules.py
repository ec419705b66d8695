"""The rule numbers of the war (rules.toml, events.toml), validated on load."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fuyuki.core.data import Table, package_file, read_toml
from fuyuki.core.errors import DataError

STATS = ("str", "end", "agi", "mgi", "luk", "np")
STAT_ALIASES = {
    "筋力": "str", "耐久": "end", "敏捷": "agi", "魔力": "mgi", "幸運": "luk", "宝具": "np",
    "筋": "str", "耐": "end", "敏": "agi", "魔": "mgi", "幸": "luk", "宝": "np",
}
EVENT_EFFECTS = ("good", "bad", "friendly", "meet", "nearby", "hostile", "none", "npc")
GOOD_BAD_KINDS = ("mana", "item", "lose_item", "seal")
ITEM_KINDS = ("mana", "info", "win_rate", "reroll")


@dataclass(frozen=True)
class Item:
    id: str
    name: dict[str, str]
    kind: str
    value: int


@dataclass
class Rules:
    ranks: dict[str, int]
    rank_plus: int
    rank_minus: int
    stat_order: tuple[str, ...]
    battle: dict[str, Any]
    table: dict[tuple[int, int, int], int]
    seals: dict[str, int]
    retreat: dict[str, Any]
    mana: dict[str, int]
    actions: dict[str, Any]
    war: dict[str, Any]
    craft: dict[str, tuple[Item, ...]]
    morning: tuple[dict[str, Any], ...] = ()
    afternoon: tuple[dict[str, Any], ...] = ()
    good: tuple[dict[str, Any], ...] = ()
    bad: tuple[dict[str, Any], ...] = ()
    source: str = ""
    items: dict[str, Item] = field(default_factory=dict)

    # -- derived helpers ------------------------------------------------------------
    def rank_value(self, text: str) -> int:
        """``"A+"`` -> 55 with the default table; raises ValueError on a bad rank."""
        t = text.strip().replace("＋", "+").replace("−", "-").replace("－", "-").replace("ー", "-")
        m = re.fullmatch(r"([A-Z]+)(\+*|-*)", t.upper())
        if not m or m.group(1) not in self.ranks:
            raise ValueError(f"not a rank: {text!r} (known: {sorted(self.ranks)} with + or -)")
        mods = m.group(2)
        value = self.ranks[m.group(1)]
        value += self.rank_plus * mods.count("+") + self.rank_minus * mods.count("-")
        return value

    def halve(self, value: int) -> int:
        d = self.battle["sub_divisor"]
        if self.battle["sub_rounding"] == "down":
            return value // d
        return -((-value) // d)

    def table_rate(self, adv: int, draw: int, dis: int) -> int:
        return self.table[(adv, draw, dis)]

    def shortage_penalty(self, mana: int) -> int:
        return self.mana["shortage_penalty"] * (max(0, -mana) // self.mana["shortage_step"])


def _ints(t: Table, names: list[str]) -> dict[str, int]:
    return {n: t.int(n) for n in names}


def load_rules(rules_path: str | Path | None = None,
               events_path: str | Path | None = None) -> Rules:
    rp = Path(rules_path) if rules_path else package_file("fuyuki.rpg", "data", "rules.toml")
    ep = Path(events_path) if events_path else package_file("fuyuki.rpg", "data", "events.toml")
    f = str(rp)
    root = Table(read_toml(rp), f)
    rk = root.table("ranks")
    ranks = {k: rk.int(k) for k in rk.data if k not in ("plus", "minus")}
    if not ranks:
        raise rk.fail("-", "no ranks defined")
    order = tuple(root.table("stats").list("order"))
    if sorted(order) != sorted(STATS):
        raise root.table("stats").fail("order", f"must list each of {list(STATS)} once")
    b = root.table("battle")
    battle = _ints(b, ["sub_divisor", "nonservant_penalty", "diff_percent_per_point",
                       "random_stat_die", "tie_without_defender_die", "clamp_min", "clamp_max",
                       "win_die"])
    if battle["sub_divisor"] < 1:
        raise b.fail("sub_divisor", "must be at least 1")
    if battle["random_stat_die"] != 4:
        raise b.fail("random_stat_die", "the random comparison draws one of four stats: must be 4")
    battle["sub_rounding"] = b.str("sub_rounding", choices=["down", "up"])
    table: dict[tuple[int, int, int], int] = {}
    for row in b.tables("table"):
        res = row.list("result")
        if len(res) != 3 or not all(isinstance(x, int) and x >= 0 for x in res) or sum(res) != 3:
            raise row.fail("result", "must be [advantages, draws, disadvantages] adding up to 3")
        key = (res[0], res[1], res[2])
        if key in table:
            raise row.fail("result", f"{list(key)} defined twice")
        table[key] = row.int("rate")
    for a in range(4):
        for d in range(4 - a):
            key = (a, d, 3 - a - d)
            if key not in table:
                raise b.fail("table", f"missing the row for {list(key)}")
            mirror = (3 - a - d, d, a)
            if table[key] + table[mirror] != 100:
                raise b.fail("table", f"not symmetric: {list(key)} + {list(mirror)} != 100")
    s = root.table("seals")
    seals = _ints(s, ["count", "rate_main", "rate_sub", "stat_boost", "mana"])
    r = root.table("retreat")
    retreat = {"seals": r.int("seals", lo=0), "mana_per_seal": r.int("mana_per_seal", lo=1),
               "loser_out": r.bool("loser_out"), "mana_above_vanish": r.bool("mana_above_vanish")}
    m = root.table("mana")
    mana = _ints(m, ["battle_cost_divisor", "no_seal_cost_divisor", "max_bonus", "shortage_step",
                     "shortage_penalty", "vanish_at"])
    if mana["shortage_step"] < 1:
        raise m.fail("shortage_step", "must be at least 1")
    a = root.table("actions")
    actions: dict[str, Any] = _ints(a, ["info_base", "craft_per_magic", "rest_per_magic",
                                        "soul_gain", "soul_detect", "check_die"])
    actions["attack_is_surprise"] = a.bool("attack_is_surprise")
    actions["allies_defend"] = a.bool("allies_defend")
    actions["surprise_attack"] = a.bool("surprise_attack")
    w = root.table("war")
    war = {"max_turns": w.int("max_turns", lo=1), "factions_end": w.bool("factions_end"),
           "event_die": w.int("event_die", lo=1)}
    craft: dict[str, tuple[Item, ...]] = {}
    items: dict[str, Item] = {}
    c = root.table("craft")
    for set_name in c.data:
        lst = []
        for it in c.tables(set_name):
            it.check_keys(["id", "name", "kind", "value"])
            item = Item(it.str("id"), it.text("name"), it.str("kind", choices=ITEM_KINDS),
                        it.int("value"))
            if item.id in items:
                raise it.fail("id", f"item {item.id!r} defined twice")
            items[item.id] = item
            lst.append(item)
        kinds = sorted(i.kind for i in lst)
        if kinds != sorted(ITEM_KINDS):
            raise c.fail(set_name, f"a craft set has one item of each kind {list(ITEM_KINDS)}")
        craft[set_name] = tuple(sorted(lst, key=lambda i: ITEM_KINDS.index(i.kind)))
    if "normal" not in craft:
        raise c.fail("normal", "missing")
    rules = Rules(ranks, rk.int("plus"), rk.int("minus"), order, battle, table, seals, retreat,
                  mana, actions, war, craft, source=f, items=items)
    _load_events(rules, ep)
    return rules


def _load_events(rules: Rules, path: Path) -> None:
    f = str(path)
    root = Table(read_toml(path), f)
    die = rules.war["event_die"]
    for slot in ("morning", "afternoon"):
        rows = []
        for row in root.tables(slot):
            eff = row.str("effect", choices=EVENT_EFFECTS)
            entry = {"effect": eff, "text": row.text("text")}
            if eff == "nearby":
                entry["faction"] = row.str("faction")
            rows.append(entry)
        if len(rows) != die:
            raise root.fail(slot, f"must have {die} rows (one per face, 10 reads as 0)")
        setattr(rules, slot, tuple(rows))
    for name in ("good", "bad"):
        rows = []
        for row in root.tables(name):
            rows.append({"kind": row.str("kind", choices=GOOD_BAD_KINDS),
                         "value": row.int("value"), "text": row.text("text")})
        if not rows:
            raise root.fail(name, "must have at least one row")
        for i, e in enumerate(rows):
            if e["kind"] == "item" and not 0 <= e["value"] < len(ITEM_KINDS):
                raise DataError(f, f"{name}[{i}].value", "an item index is 0..3")
        setattr(rules, name, tuple(rows))


_default: Rules | None = None


def default_rules() -> Rules:
    global _default
    if _default is None:
        _default = load_rules()
    return _default
