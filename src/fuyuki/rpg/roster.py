"""Characters, pairs and rosters (TOML), validated on load.

A roster holds factions, 霊地 (sites) and pairs; a pair is a servant and its master. Stats are
rank letters (``"A+"``) or numbers; ranks become numbers through rules.toml [R-1]. A single
character sheet (for ``fuyuki war battle``) is a pair on its own: see :func:`load_pair_file`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fuyuki.core.data import Table, package_file, read_toml
from fuyuki.core.errors import DataError
from fuyuki.rpg.rules import STAT_ALIASES, STATS, Rules
from fuyuki.rpg.text import table_error

EFFECT_KINDS = ("base_rate", "win_rate", "concealment", "clairvoyance", "info", "rest")
#: the largest number a sheet may hold (Lv, a stat, a cost, mana, an effect, a count): far
#: beyond any the rules use; a larger one overflowed the bots' float arithmetic
MAX_NUMBER = 10**6


@dataclass(frozen=True)
class Effect:
    kind: str
    value: int = 0


@dataclass(frozen=True)
class Ability:
    """A skill or a 宝具: a name, a rank, a mana cost paid when it is used, and effects."""
    name: str
    rank: str
    rank_value: int
    cost: int
    effects: tuple[Effect, ...]
    np: bool = False

    def value_of(self, kind: str) -> int | None:
        for e in self.effects:
            if e.kind == kind:
                return e.value if kind not in ("concealment", "clairvoyance") else self.rank_value
        return None


@dataclass(frozen=True)
class Character:
    id: str
    name: str
    servant: bool
    stats: dict[str, int]
    lv: int = 0
    cls: str = ""
    abilities: tuple[Ability, ...] = ()

    def rank_of(self, kind: str) -> int:
        """The best rank among abilities with an effect of ``kind`` (0 if none)."""
        best = 0
        for a in self.abilities:
            if any(e.kind == kind for e in a.effects):
                best = max(best, a.rank_value)
        return best

    def total_of(self, kind: str) -> int:
        return sum(e.value for a in self.abilities for e in a.effects if e.kind == kind)


@dataclass(frozen=True)
class Pair:
    id: str
    faction: str
    servant: Character
    master: Character
    base: str | None = None
    craft_set: str = "normal"
    seals: int = 3
    mana: int | None = None        # starting 貯蔵魔力 (None: full)
    workshop: int = 0              # 工房: extra rest recovery
    items: tuple[tuple[str, int], ...] = ()   # 礼装 held at the start

    def max_mana(self, rules: Rules) -> int:
        return self.servant.lv + self.servant.stats["mgi"] + rules.mana["max_bonus"]


@dataclass(frozen=True)
class Site:
    id: str
    name: str
    grade: int                      # 休息 bonus on this 霊地 (seed: 10..50)


@dataclass
class Roster:
    name: dict[str, str]
    factions: dict[str, dict[str, str]]
    pairs: list[Pair]
    sites: dict[str, Site] = field(default_factory=dict)
    source: str = ""

    def pair(self, pid: str) -> Pair:
        for p in self.pairs:
            if p.id == pid:
                return p
        raise KeyError(pid)


# -- loading --------------------------------------------------------------------------------

def _stats(t: Table, rules: Rules, name: str = "stats") -> dict[str, int]:
    st = t.table(name)
    out: dict[str, int] = {}
    for k, v in st.data.items():
        key = STAT_ALIASES.get(k, k)
        if key not in STATS:
            raise table_error(st, k, "unknown_stat", stats=STATS)
        if key in out:
            raise table_error(st, k, "stat_twice")
        out[key] = _number(st, k, v, rules)
    for s in STATS:
        if s not in out:
            raise st.fail(s, "missing", "missing")
    return out


def _number(t: Table, key: str, v: Any, rules: Rules) -> int:
    if isinstance(v, bool):
        raise table_error(t, key, "rank_or_number", got=repr(v))
    if isinstance(v, int):
        if v < 0:
            raise t.fail(key, f"must be at least 0, not {v}", "low", lo=0, got=v)
        if v > MAX_NUMBER:
            raise t.fail(key, f"must be at most {MAX_NUMBER}, not {v}", "high", hi=MAX_NUMBER,
                         got=v)
        return v
    if isinstance(v, str):
        try:
            return rules.rank_value(v)
        except ValueError:
            raise table_error(t, key, "rank", got=repr(v), ranks=sorted(rules.ranks)) from None
    raise table_error(t, key, "rank_or_number", got=repr(v))


def _abilities(t: Table, name: str, rules: Rules, np: bool) -> list[Ability]:
    out = []
    if not t.has(name):
        return out
    for a in t.tables(name):
        a.check_keys(["name", "rank", "cost", "effects"])
        rank = a.data.get("rank", "-")
        if isinstance(rank, int) and not isinstance(rank, bool):
            rv, rank_text = rank, str(rank)
        elif rank == "-":
            rv, rank_text = 0, "-"
        else:
            rv, rank_text = _number(a, "rank", rank, rules), str(rank)
        effects = []
        if a.has("effects"):
            for e in a.tables("effects"):
                e.check_keys(["kind", "value"])
                effects.append(Effect(e.str("kind", choices=EFFECT_KINDS),
                                      e.int("value", 0, lo=-MAX_NUMBER, hi=MAX_NUMBER)))
        out.append(Ability(a.str("name"), rank_text, rv, a.int("cost", 0, lo=0, hi=MAX_NUMBER),
                           tuple(effects), np))
    return out


def _character(t: Table, cid: str, servant: bool, rules: Rules) -> Character:
    allowed = ["name", "stats", "lv", "class", "skills", "nps"]
    t.check_keys(allowed)
    abilities = _abilities(t, "skills", rules, False) + _abilities(t, "nps", rules, True)
    return Character(cid, t.str("name"), servant, _stats(t, rules), t.int("lv", 0, lo=0, hi=MAX_NUMBER),
                     t.str("class", ""), tuple(abilities))


def parse_pair(t: Table, rules: Rules, factions: dict | None = None,
               sites: dict | None = None) -> Pair:
    t.check_keys(["id", "faction", "base", "craft_set", "seals", "mana", "workshop", "items",
                  "servant", "master"])
    pid = t.str("id")
    if not pid or any(c.isspace() or c in "/:" for c in pid):
        raise table_error(t, "id", "pair_id")
    faction = t.str("faction", "none")
    if factions is not None and faction not in factions:
        raise table_error(t, "faction", "unknown_faction", got=repr(faction), known=sorted(factions))
    base = t.str("base", "") or None
    if base is not None and sites is not None and base not in sites:
        raise table_error(t, "base", "unknown_site", got=repr(base), known=sorted(sites))
    craft_set = t.str("craft_set", "normal")
    if craft_set not in rules.craft:
        raise table_error(t, "craft_set", "unknown_craft_set", got=repr(craft_set),
                          known=sorted(rules.craft))
    servant = _character(t.table("servant"), f"{pid}.servant", True, rules)
    if servant.lv < 1:
        raise table_error(t.table("servant"), "lv", "servant_lv")
    master = _character(t.table("master"), f"{pid}.master", False, rules)
    seals = t.int("seals", rules.seals["count"], lo=0, hi=rules.seals["count"])
    mana = t.data.get("mana")
    if mana is not None:
        mana = t.int("mana", lo=-MAX_NUMBER, hi=MAX_NUMBER)
    it = t.table("items", {})
    items = []
    for item_id in it.data:
        if item_id not in rules.items:
            raise table_error(it, item_id, "unknown_item", known=sorted(rules.items))
        items.append((item_id, it.int(item_id, lo=0, hi=MAX_NUMBER)))
    return Pair(pid, faction, servant, master, base, craft_set, seals, mana,
                t.int("workshop", 0, lo=0, hi=MAX_NUMBER), tuple(items))


def load_roster(path: str | Path | None, rules: Rules) -> Roster:
    p = Path(path) if path else package_file("fuyuki.rpg", "data", "roster.toml")
    return parse_roster(read_toml(p), str(p), rules)


def parse_roster(data: dict, source: str, rules: Rules) -> Roster:
    root = Table(data, source)
    root.check_keys(["roster", "faction", "site", "pair"])
    head = root.table("roster", {})
    name = head.text("name", {"ja": Path(source).stem, "en": Path(source).stem})
    factions: dict[str, dict[str, str]] = {}
    if root.has("faction"):
        for f in root.tables("faction"):
            f.check_keys(["id", "name"])
            fid = f.str("id")
            if fid in factions:
                raise table_error(f, "id", "defined_twice", got=repr(fid))
            factions[fid] = f.text("name")
    else:
        factions["none"] = {"ja": "無所属", "en": "none"}
    sites: dict[str, Site] = {}
    if root.has("site"):
        for s in root.tables("site"):
            s.check_keys(["id", "name", "grade"])
            sid = s.str("id")
            if sid in sites:
                raise table_error(s, "id", "defined_twice", got=repr(sid))
            sites[sid] = Site(sid, s.str("name"), s.int("grade", lo=0, hi=MAX_NUMBER))
    pairs = []
    seen: set[str] = set()
    for t in root.tables("pair"):
        pair = parse_pair(t, rules, factions, sites)
        if pair.id in seen:
            raise table_error(t, "id", "defined_twice", got=repr(pair.id))
        seen.add(pair.id)
        pairs.append(pair)
    if len(pairs) < 2:
        raise table_error(root, "pair", "two_pairs")
    return Roster(name, factions, pairs, sites, source)


def load_pair_file(path: str | Path, rules: Rules) -> Pair:
    """A single sheet: a TOML file whose top level is one pair (id, servant, master...)."""
    p = Path(path)
    data = read_toml(p)
    if "pair" in data and isinstance(data["pair"], dict):
        data = data["pair"]
    if "id" not in data:
        data = dict(data, id=p.stem.replace(" ", "_"))
    return parse_pair(Table(data, str(p)), rules)


def lookup_pair(roster: Roster, key: str) -> Pair:
    """A pair by id, or by its servant's or master's name."""
    for p in roster.pairs:
        if key in (p.id, p.servant.name, p.master.name):
            return p
    ids = ", ".join(p.id for p in roster.pairs)
    raise DataError(roster.source, key, f"no pair with this id or name (ids: {ids})", "no_pair",
                    ids=ids)
