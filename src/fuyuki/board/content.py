"""The content pack: map, camps, characters, abilities (魔術 / 宝具), skills, action deck and
rules constants, read from TOML and validated (errors name the file, the key and the reason).

A pack is a directory holding ``rules.toml``, ``map.toml``, ``skills.toml``, ``camps.toml`` and
``cards.toml``; :func:`load_pack` reads the default one shipped in ``fuyuki/board/data``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fuyuki.core.data import Table, package_file, read_toml
from fuyuki.core.errors import DataError

TIMINGS_ABILITY = ("attack", "action")
#: what an ability does, and the part of the turn it is used in: a means of 《攻撃》, or a
#: 特殊能力 of the action part (seed: 「アクションフェイズに実行できる【スキル】【魔術】【宝具】」)
ABILITY_EFFECTS = {"attack": "attack", "heal": "action", "barrier": "action"}
#: 魔術 (cost from the hand), 宝具 (cost only from plotted cards), スキル (no cost)
ABILITY_KINDS = ("magecraft", "np", "skill")
TURN_ORDERS = ("fixed", "rotate", "snake")
CARD_EFFECTS = {
    "heal": "action", "draw": "action", "dash": "action", "attack_bonus": "attack",
    "df_bonus": "defence", "evade_bonus": "defence", "magic_attack": "magic",
}


@dataclass(frozen=True)
class Ability:
    id: str
    name: str
    kind: str          # magecraft | np | skill
    timing: str        # attack | action
    effect: str        # attack | heal | barrier (結界)
    cost: int
    range: int
    value: int
    dice: int
    attacks: int
    spread: bool
    text: dict[str, str]


@dataclass(frozen=True)
class CardType:
    id: str
    name: str
    count: int
    timing: str
    effect: str
    value: int
    dice: int
    range: int
    text: dict[str, str]


@dataclass(frozen=True)
class CharDef:
    id: str
    name: str
    short: str
    role: str          # master | servant
    hp: int
    at: int
    df: int
    ch: int
    hand_limit: int
    skills: dict[str, int]
    abilities: tuple[str, ...]
    by_camps: dict[int, dict[str, int]] = field(default_factory=dict)   # camp count → stats

    def for_camps(self, camps: int) -> "CharDef":
        """This character as it plays in a game of ``camps`` camps: ``by_camps`` in camps.toml
        may set other HP/AT/DF/CH/hand limits for a camp count [R-8]."""
        changes = self.by_camps.get(camps)
        return replace(self, **changes) if changes else self


@dataclass(frozen=True)
class CampDef:
    id: str
    name: dict[str, str]
    start: tuple[int, int]
    master: str
    servants: tuple[str, ...]


@dataclass(frozen=True)
class Pack:
    directory: str
    width: int
    height: int
    areas: tuple[tuple[str, ...], ...]
    rules: dict[str, Any]
    skills: dict[str, dict[str, Any]]
    camps: dict[str, CampDef]
    chars: dict[str, CharDef]
    abilities: dict[str, Ability]
    cards: dict[str, CardType]
    deck: tuple[str, ...] = field(default=())   # card type of each card instance k00, k01...
    short_areas: dict[str, str] = field(default_factory=dict)   # map.toml [short]

    def area_name(self, pos: tuple[int, int]) -> str:
        return self.areas[pos[0]][pos[1]]

    def short_area(self, name: str) -> str:
        """An area's name as the terminal map shows it (map.toml ``short``, else the name)."""
        return self.short_areas.get(name, name)


def default_dir() -> Path:
    return package_file("fuyuki.board", "data")


SEAT_BONUSES = ("plotted",)


def seat_bonus(t: Table) -> dict[str, list[int]]:
    """[R-7] ``[seat_bonus]``: for each kind, a list by seat (turn order) of what that seat's
    camp gets at the start on top of the rest (missing seats: 0)."""
    t.check_keys(list(SEAT_BONUSES))
    out: dict[str, list[int]] = {}
    for kind in SEAT_BONUSES:
        values = t.list(kind, [])
        for i, v in enumerate(values):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 20:
                raise t.fail(f"{kind}[{i}]", f"must be a whole number 0 to 20, not {v!r}")
        out[kind] = list(values)
    return out


STAT_LIMITS = {"hp": (1, 999), "at": (0, 99), "df": (0, 99), "ch": (0, 10), "hand_limit": (0, 30)}
MASTER_ONLY = ("ch", "hand_limit")


def _stat(t: Table, name: str) -> int:
    """A character's stat ``name`` from ``t``, within its limits."""
    return t.int(name, lo=STAT_LIMITS[name][0], hi=STAT_LIMITS[name][1])


def stats_by_camps(t: Table, role: str) -> dict[int, dict[str, int]]:
    """[R-8] ``by_camps``: a character's stats that differ in a game of that many camps, e.g.
    ``[chars.saber.by_camps.5]`` ``hp = 25``: keys are camp counts (2 or more), values the stats
    (hp, at, df; ch and hand_limit for masters) that replace the character's own."""
    out: dict[int, dict[str, int]] = {}
    allowed = [s for s in STAT_LIMITS if role == "master" or s not in MASTER_ONLY]
    for key in t.data:
        if not key.isdigit() or int(key) < 2:
            raise t.fail(key, "must be a number of camps (2 or more)")
        st = t.table(key)
        st.check_keys(allowed)
        out[int(key)] = {s: _stat(st, s) for s in allowed if st.has(s)}
    return out


def load_pack(directory: str | Path | None = None) -> Pack:
    d = Path(directory) if directory is not None else default_dir()

    def table(name: str) -> Table:
        path = d / name
        return Table(read_toml(path), str(path))

    rules_t = table("rules.toml")
    rules_t.check_keys(["start_hand", "draw_per_turn", "command_spells", "evade_target",
                        "spell_mana_draw", "spell_boost", "revive_hp", "max_rounds", "default_camps",
                        "turn_order", "seat_bonus", "territory"])
    terr = rules_t.table("territory")
    terr.check_keys(["df_bonus", "heal"])
    rules = {
        "start_hand": rules_t.int("start_hand", lo=0, hi=20),
        "draw_per_turn": rules_t.int("draw_per_turn", lo=0, hi=5),
        "command_spells": rules_t.int("command_spells", lo=0, hi=10),
        "evade_target": rules_t.int("evade_target", lo=1, hi=12),
        "spell_mana_draw": rules_t.int("spell_mana_draw", lo=0, hi=20),
        "spell_boost": rules_t.int("spell_boost", lo=0, hi=50),
        "revive_hp": rules_t.int("revive_hp", lo=1, hi=999),
        "max_rounds": rules_t.int("max_rounds", lo=1, hi=1000),
        "default_camps": rules_t.list_of("default_camps", str),
        "turn_order": rules_t.str("turn_order", "fixed", choices=TURN_ORDERS),
        "seat_bonus": seat_bonus(rules_t.table("seat_bonus", {})),
        "territory_df": terr.int("df_bonus", lo=0, hi=20),
        "territory_heal": terr.int("heal", lo=0, hi=20),
    }

    map_t = table("map.toml")
    map_t.check_keys(["width", "height", "rows", "short"])
    width, height = map_t.int("width", lo=1, hi=20), map_t.int("height", lo=1, hi=20)
    rows = map_t.list("rows")
    if len(rows) != height:
        raise map_t.fail("rows", f"must have {height} rows, not {len(rows)}")
    areas: list[tuple[str, ...]] = []
    where: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != width or not all(isinstance(x, str) for x in row):
            raise map_t.fail(f"rows[{r}]", f"must be a list of {width} area names")
        for c, name in enumerate(row):
            if name in where:
                raise map_t.fail(f"rows[{r}][{c}]", f"area name {name!r} used twice")
            where[name] = (r, c)
        areas.append(tuple(row))

    short_t = map_t.table("short", {})
    short_areas: dict[str, str] = {}
    for name in short_t.data:
        if name not in where:
            raise short_t.fail(name, "no area of that name on the map")
        short_areas[name] = short_t.str(name)
        if not short_areas[name].strip():
            raise short_t.fail(name, "must not be empty")

    skills_t = table("skills.toml")
    skills: dict[str, dict[str, Any]] = {}
    for key in skills_t.data:
        s = skills_t.table(key)
        s.check_keys(["name", "text"])
        skills[key] = {"name": s.str("name"), "text": s.text("text")}

    cards_t = table("cards.toml")
    cards_t.check_keys(["cards"])
    ct = cards_t.table("cards")
    cards: dict[str, CardType] = {}
    for cid in ct.data:
        c = ct.table(cid)
        c.check_keys(["name", "count", "timing", "effect", "value", "dice", "range", "text"])
        effect = c.str("effect", choices=CARD_EFFECTS)
        timing = c.str("timing", choices=sorted(set(CARD_EFFECTS.values())))
        if CARD_EFFECTS[effect] != timing:
            raise c.fail("timing", f"effect {effect!r} needs timing {CARD_EFFECTS[effect]!r}")
        cards[cid] = CardType(cid, c.str("name"), c.int("count", lo=0, hi=60), timing, effect,
                              c.int("value", 0, lo=0, hi=99), c.int("dice", 0, lo=0, hi=6),
                              c.int("range", 0, lo=0, hi=20), c.text("text"))
    deck = tuple(cid for cid, c in cards.items() for _ in range(c.count))
    if not deck:
        raise cards_t.fail("cards", "the deck is empty")

    camps_t = table("camps.toml")
    camps_t.check_keys(["camps", "chars", "abilities"])
    at = camps_t.table("abilities")
    abilities: dict[str, Ability] = {}
    for aid in at.data:
        a = at.table(aid)
        a.check_keys(["name", "kind", "timing", "effect", "cost", "range", "value", "dice",
                      "attacks", "spread", "text"])
        abilities[aid] = Ability(
            aid, a.str("name"), a.str("kind", choices=ABILITY_KINDS),
            a.str("timing", choices=TIMINGS_ABILITY), a.str("effect", choices=ABILITY_EFFECTS),
            a.int("cost", lo=0, hi=10), a.int("range", lo=0, hi=20), a.int("value", lo=0, hi=99),
            a.int("dice", 0, lo=0, hi=6), a.int("attacks", 1, lo=1, hi=9),
            a.bool("spread", False), a.text("text"))
        ab = abilities[aid]
        if ABILITY_EFFECTS[ab.effect] != ab.timing:
            raise a.fail("timing", "heal and barrier abilities are used in the action part (timing"
                                   " = \"action\"), attack abilities in a 《攻撃》 (timing = \"attack\")")
        if ab.kind == "skill" and ab.cost:
            raise a.fail("cost", "a skill costs no card (cost = 0)")
    cht = camps_t.table("chars")
    chars: dict[str, CharDef] = {}
    for cid in cht.data:
        c = cht.table(cid)
        c.check_keys(["name", "short", "role", "hp", "at", "df", "ch", "hand_limit", "skills",
                      "abilities", "by_camps"])
        role = c.str("role", choices=["master", "servant"])
        sk = c.table("skills", {})
        sk_values: dict[str, int] = {}
        for k in sk.data:
            if k not in skills:
                raise sk.fail(k, f"unknown skill (known: {sorted(skills)})")
            sk_values[k] = sk.int(k, lo=0, hi=20)
        abl = c.list_of("abilities", str, [])
        for i, aid in enumerate(abl):
            if aid not in abilities:
                raise c.fail(f"abilities[{i}]", f"unknown ability {aid!r}")
        is_master = role == "master"
        chars[cid] = CharDef(
            cid, c.str("name"), c.str("short", c.str("name")), role, _stat(c, "hp"),
            _stat(c, "at"), _stat(c, "df"),
            _stat(c, "ch") if is_master else c.int("ch", 0, lo=0, hi=0),
            _stat(c, "hand_limit") if is_master else 0,
            sk_values, tuple(abl), stats_by_camps(c.table("by_camps", {}), role))
    cpt = camps_t.table("camps")
    camps: dict[str, CampDef] = {}
    used: set[str] = set()
    for kid in cpt.data:
        c = cpt.table(kid)
        c.check_keys(["name", "start", "master", "servants"])
        start = c.str("start")
        if start not in where:
            raise c.fail("start", f"no area named {start!r} on the map")
        master = c.str("master")
        if master not in chars or chars[master].role != "master":
            raise c.fail("master", f"{master!r} is not a master in [chars]")
        servants = c.list_of("servants", str)
        if not servants:
            raise c.fail("servants", "a camp starts with at least one servant")
        for i, s in enumerate(servants):
            if s not in chars or chars[s].role != "servant":
                raise c.fail(f"servants[{i}]", f"{s!r} is not a servant in [chars]")
        for ch in [master, *servants]:
            if ch in used:
                raise c.fail("servants", f"{ch!r} already belongs to another camp")
            used.add(ch)
        camps[kid] = CampDef(kid, c.text("name"), where[start], master, tuple(servants))
    for cid, cd in chars.items():
        for n in cd.by_camps:
            if n > len(camps):
                raise cht.table(cid).table("by_camps").fail(
                    str(n), f"the pack has only {len(camps)} camps")
    for i, k in enumerate(rules["default_camps"]):
        if k not in camps:
            raise rules_t.fail(f"default_camps[{i}]", f"unknown camp {k!r}")
    return Pack(str(d), width, height, tuple(areas), rules, skills, camps, chars, abilities,
                cards, deck, short_areas)


_DEFAULT: Pack | None = None


def default_pack() -> Pack:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_pack()
    return _DEFAULT


def check_camp_ids(pack: Pack, camps: list[str], source: str = "camps") -> None:
    for i, k in enumerate(camps):
        if k not in pack.camps:
            raise DataError(source, f"[{i}]", f"unknown camp {k!r} (known: {sorted(pack.camps)})",
                            "choice", allowed=" | ".join(sorted(pack.camps)), got=repr(k))
    if len(set(camps)) != len(camps):
        twice = next(k for k in camps if camps.count(k) > 1)
        raise DataError(source, "-", "a camp may be chosen once", "chosen_twice", got=repr(twice))
