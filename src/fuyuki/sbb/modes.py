"""Play modes (seed 000 §モードプレイ): fate, ubw, hf, hollow, big_battle.

A mode is a TOML file in ``data/modes/`` whose every difference is a value: cards removed,
cards set aside while dealing, masters whose ability kind changes, power overrides, 慎二
ignored, 桜 starting dark, coins and unlimited gems, and edition values it replaces
(``[rules]``). :func:`apply_mode` turns those values into a new :class:`Rules`; the engine
reads the values and never tests a mode's or a card's name. A mode combines with any edition.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

from fuyuki.core.data import Table, package_file, read_toml
from fuyuki.core.errors import DataError
from fuyuki.sbb.abilities import ABILITIES, make_ability
from fuyuki.sbb.cards import MASTER_ABILITIES

if TYPE_CHECKING:
    from fuyuki.sbb.rules import Rules

DATA = "fuyuki.sbb"
STANDARD = "standard"

MODE_KEYS = (
    "id", "name", "text", "remove_masters", "remove_servants", "fetch_ignored",
    "master_abilities", "blades_as", "blades_vs", "start_dark", "set_aside", "power_override",
    "coins", "unlimited_gems", "rules",
)
# edition values a mode may replace, with how each is read
RULES_KEYS: dict[str, Callable[[Table, str], Any]] = {
    "players": lambda t, k: tuple(_ints(t, k, lo=1)),
    "deck_out": lambda t, k: t.str(k, choices=("reshuffle", "end")),
    "end_timing": lambda t, k: t.str(k, choices=("round", "immediate")),
    "victory_gems": lambda t, k: t.int(k, lo=0),
    "vessel_ends_game": lambda t, k: t.bool(k),
    "round_cap": lambda t, k: t.int(k, lo=1),
    "gem_pool": lambda t, k: t.int(k, lo=0),
    "draft_pack": lambda t, k: t.int(k, lo=1),
    "servant_loss_gems": lambda t, k: t.int(k, lo=-1),
}


def modes() -> list[str]:
    """The modes shipped with the game (``standard`` = no mode is not among them)."""
    folder = package_file(DATA, "data", "modes")
    return sorted(p.stem for p in folder.glob("*.toml"))


def _ints(t: Table, key: str, lo: int) -> list[int]:
    values = t.list(key)
    for i, v in enumerate(values):
        if not isinstance(v, int) or isinstance(v, bool) or v < lo:
            raise t.fail(f"{key}[{i}]", f"must be a whole number >= {lo}, not {v!r}")
    return values


def _ids(t: Table, key: str) -> tuple[str, ...]:
    values = t.list(key, [])
    for i, v in enumerate(values):
        if not isinstance(v, str):
            raise t.fail(f"{key}[{i}]", f"must be a card id (a string), not {v!r}")
    return tuple(values)


def mode_values(name: str) -> dict[str, Any]:
    """The validated values of the mode ``name`` (a DataError names file, key and reason)."""
    known = modes()
    if name not in known:
        raise DataError("--mode", "mode", f"unknown mode {name!r} (known: {[STANDARD] + known})",
                        "choice", allowed=" | ".join([STANDARD] + known), got=repr(name))
    p = package_file(DATA, "data", "modes", f"{name}.toml")
    t = Table(read_toml(p), str(p))
    t.check_keys(MODE_KEYS)
    if t.str("id") != name:
        raise t.fail("id", f"must be the file's name {name!r}")
    v: dict[str, Any] = {
        "file": str(p),
        "name": t.text("name"),
        "remove_masters": _ids(t, "remove_masters"),
        "remove_servants": _ids(t, "remove_servants"),
        "fetch_ignored": t.bool("fetch_ignored", False),
        "blades_as": t.str("blades_as", ""),
        "blades_vs": _ids(t, "blades_vs"),
        "start_dark": t.bool("start_dark", False),
        "set_aside": _ids(t, "set_aside"),
        "coins": t.bool("coins", False),
        "unlimited_gems": t.bool("unlimited_gems", False),
    }
    abilities = t.table("master_abilities", {})
    v["master_abilities"] = {}
    for mid in abilities.data:
        # a kind, or { kind = "...", name = {ja, en}, text = {ja, en} } (what players read)
        if isinstance(abilities.data[mid], str):
            at = Table({"kind": abilities.data[mid]}, abilities.file, abilities.where(mid))
        else:
            at = abilities.table(mid)
            at.check_keys(("kind", "name", "text"))
        kind = at.str("kind", choices=MASTER_ABILITIES)
        if MASTER_ABILITIES[kind]:
            raise at.fail("kind", f"the ability {kind!r} needs parameters "
                          f"{list(MASTER_ABILITIES[kind])}; a mode can only give a "
                          "master an ability without parameters")
        v["master_abilities"][mid] = (kind, at.text("name", None), at.text("text", None))
    for k, _, _ in v["master_abilities"].values():
        if ABILITIES[k].needs_mode == "blades_as" and not v["blades_as"]:
            raise t.fail("blades_as", f"missing: the ability {k!r} needs the servant "
                         "whose 宝具 effect it uses")
    powers = t.table("power_override", {})
    v["power_override"] = {sid: powers.int(sid, lo=-10, hi=20) for sid in powers.data}
    rt = t.table("rules", {})
    rt.check_keys(RULES_KEYS)
    v["rules"] = {k: RULES_KEYS[k](rt, k) for k in rt.data}
    return v


def apply_mode(rules: "Rules", mode: str | None) -> "Rules":
    """``rules`` changed by the mode ``mode`` (``standard``: unchanged)."""
    if mode in (None, STANDARD):
        return rules
    v = mode_values(mode)
    file = v["file"]
    cs = rules.cards
    masters = tuple(m for m in rules.masters if m not in v["remove_masters"])
    servants = tuple(s for s in rules.servants if s not in v["remove_servants"])
    set_aside = tuple(m for m in v["set_aside"] if m in masters)
    changed = {}
    for mid, (kind, name, text) in v["master_abilities"].items():
        m = cs.masters.get(mid)
        if m is not None:
            changed[mid] = replace(m, ability=kind, params={}, hooks=make_ability(kind, {}),
                                   ability_name=name or m.ability_name, text=text or m.text)
    if changed:
        if any(m.hooks.needs_mode == "blades_as" for m in changed.values()):
            if v["blades_as"] not in cs.servants:
                raise DataError(file, "blades_as", f"no servant with id {v['blades_as']!r} in "
                                f"the card file {cs.source}")
        cs = replace(cs, masters={**cs.masters, **changed})
    powers = {sid: p for sid, p in v["power_override"].items() if sid in cs.servants}
    new = replace(
        rules,
        cards=cs,
        mode=mode,
        masters=masters,
        servants=servants,
        set_aside=set_aside,
        fetch_ignored=v["fetch_ignored"],
        shirou_blades_vs=v["blades_vs"],
        blades_as=v["blades_as"],
        start_dark=v["start_dark"],
        power_override={**rules.power_override, **powers},
        coins=v["coins"],
        unlimited_gems=v["unlimited_gems"],
        **v["rules"],
    )
    return new


def shortage(rules: "Rules", n: int) -> str | None:
    """Why ``n`` players cannot be dealt these rules' masters and servants (or None)."""
    lands = len(rules.cards.lands) - (1 if n == 3 else 0)  # 3 players: one land is removed
    if lands < 1:
        return f"only {len(rules.cards.lands)} land(s) in the card file"
    at_deal = len([m for m in rules.masters if m not in rules.set_aside])
    if n > at_deal:
        aside = f" ({len(rules.set_aside)} set aside while dealing)" if rules.set_aside else ""
        return f"only {at_deal} masters can be dealt{aside}"
    if n > len(rules.servants):
        return f"only {len(rules.servants)} servants"
    return None


def player_limit_reason(rules: "Rules", n: int) -> str:
    """Why ``n`` players may not play ``rules``, in words."""
    why = shortage(rules, n)
    if why:
        return why
    if rules.mode != STANDARD:
        try:
            fixed = mode_values(rules.mode)["rules"].get("players")
        except DataError:
            fixed = None
        if fixed:
            return f"the mode is played by {' or '.join(map(str, fixed))} players"
    counts = ", ".join(map(str, rules.players))
    return f"the edition {rules.edition!r} is played by {counts} players"


def check_card(rules: "Rules", kind: str, card: str, file: str, key: str,
               error: type[DataError] = DataError) -> None:
    """An ``error`` (a DataError; ScenarioError for the judge) when a scenario or a fixed
    setup uses a ``kind`` ("master"/"servant") card these rules leave out, saying whether the
    edition or the mode removed it."""
    pool = rules.masters if kind == "master" else rules.servants
    if card in pool:
        return
    known = rules.cards.masters if kind == "master" else rules.cards.servants
    if card not in known:
        raise error(file, key, f"no {kind} with id {card!r} (known: {list(known)})")
    if rules.mode != STANDARD:
        removed = mode_values(rules.mode)["remove_masters" if kind == "master"
                                          else "remove_servants"]
        if card in removed:
            raise error(file, key, f"the mode {rules.mode!r} removes the {kind} {card!r}")
    raise error(file, key, f"the edition {rules.edition!r} has no {kind} {card!r}")
