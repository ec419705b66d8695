"""Rules: an edition's values, a mode's changes and the options, over a card set.

Everything that differs between editions, modes and options is a value here, read from
``data/editions/*.toml`` (and ``data/modes/*.toml``); the engine reads these values and never
tests an edition's or a card's name.
"""

from __future__ import annotations

import copyreg
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from fuyuki.core.data import Table, package_file, read_toml
from fuyuki.core.errors import DataError
from fuyuki.sbb.abilities import make_ability
from fuyuki.sbb.cards import FETCH_TRIGGERS, CardSet, load_cards

OPTIONS = ("tie_dice", "land_modifiers", "no_berserker_penalty")
DATA = "fuyuki.sbb"


@dataclass(frozen=True)
class Rules:
    cards: CardSet
    edition: str = "final"
    mode: str = "standard"
    options: tuple[str, ...] = ()
    players: tuple[int, ...] = (3, 4, 5)
    gem_pool: int = 50
    deal: str = "draft"
    draft_pack: int = 6
    opening_hand: int = 3
    draw_rule: str = "mana"
    facedown_draw_max: int = 2
    hand_limit: bool = True
    hand_size: int = 5           # the hand limit of every master when hand_limit is false (v1.x)
    servant_loss_gems: int = 1
    events: tuple[str, ...] = ("luck", "swap", "grail")
    deck_out: str = "reshuffle"
    end_timing: str = "round"
    victory_gems: int = 12       # 0: no gem-count victory (v1.x: most gems wins at the end)
    vessel_ends_game: bool = False
    round_cap: int = 500
    land_modifiers: bool = False
    auto_np: frozenset[str] = frozenset({"berserker", "avenger"})
    tsubame: bool = True
    fetch_trigger: str = "master_destroyed"
    masters: tuple[str, ...] = ()
    servants: tuple[str, ...] = ()
    tie_dice: bool = False
    berserker_penalty: bool = True
    # mode values (data/modes/*.toml)
    fetch_ignored: bool = False
    shirou_blades_vs: tuple[str, ...] = ()   # servant or master ids his 無限の剣製 answers
    blades_as: str = ""          # the servant whose 宝具 effect "infinite_blades" uses
    start_dark: bool = False
    set_aside: tuple[str, ...] = ()
    power_override: dict[str, int] = field(default_factory=dict)
    coins: bool = False
    unlimited_gems: bool = False
    #: derived by load_rules: no seat with fewer gems can meet a victory condition (the end
    #: check's fast path; 0 = no fast path)
    lowest_target: int = 0

    @staticmethod
    def preset(edition: str = "final", mode: str | None = None, options: tuple[str, ...] = (),
               cards: str | Path | None = None) -> "Rules":
        return load_rules(edition, mode, options, cards)

    def lowest_victory_target(self) -> int:
        """The fewest gems that can meet a victory condition (0 when no gem count wins)."""
        targets = [m.hooks.victory_target(self) for m in self.cards.masters.values()]
        return min([t for t in targets + [self.victory_gems] if t > 0] or [0])

    def check_players(self, n: int) -> None:
        """A DataError saying why ``n`` players cannot play these rules (nothing if they can)."""
        if n in self.players:
            return
        what = f"the edition {self.edition!r}"
        if self.mode != "standard":
            what += f" with the mode {self.mode!r}"
        from fuyuki.sbb.modes import player_limit_reason

        reason = player_limit_reason(self, n)
        raise DataError("--players", "players", f"{n} players cannot play {what}: {reason} "
                        f"(allowed: {list(self.players)})", "players_allowed", n=n,
                        allowed=" | ".join(map(str, self.players)))


def _reduce_rules(rules: Rules) -> tuple[Any, ...]:
    return Rules, tuple(getattr(rules, f.name) for f in fields(rules))


# Pickle and copy the rules through __init__: compiled, a frozen dataclass cannot be restored
# attribute by attribute (see fuyuki.sbb.cards).
copyreg.pickle(Rules, _reduce_rules)


_EDITION_KEYS = {
    "id", "name", "players", "gem_pool", "deal", "draft_pack", "opening_hand", "draw_rule",
    "facedown_draw_max", "hand_limit", "servant_loss_gems", "events", "deck_out", "end_timing",
    "victory_gems", "vessel_ends_game", "round_cap", "land_modifiers", "auto_np", "tsubame",
    "fetch_trigger", "masters", "servants", "hand_size", "card_params",
}


def editions() -> list[str]:
    folder = package_file(DATA, "data", "editions")
    return sorted(p.stem for p in folder.glob("*.toml"))


def _edition_values(name: str) -> dict[str, Any]:
    """An edition's values: a built-in edition by name, or a user's edition file (a name
    ending in .toml, the same schema as ``data/editions/*.toml``)."""
    if name.endswith(".toml"):
        p = Path(name)
    elif name not in editions():
        raise DataError("--edition", "edition", f"unknown edition {name!r} (known: {editions()} "
                        "or a file NAME.toml)", "choice",
                        allowed=" | ".join(editions()) + " | NAME.toml", got=repr(name))
    else:
        p = package_file(DATA, "data", "editions", f"{name}.toml")
    t = Table(read_toml(p), str(p))
    t.check_keys(_EDITION_KEYS)
    v = dict(
        edition=t.str("id"),
        players=tuple(t.list_of("players", int, lo=1, hi=9)),
        gem_pool=t.int("gem_pool", lo=0, hi=10_000),
        deal=t.str("deal", choices=("draft", "random")),
        draft_pack=t.int("draft_pack", lo=1, hi=20),
        opening_hand=t.int("opening_hand", lo=0, hi=30),
        draw_rule=t.str("draw_rule", choices=("mana", "one")),
        facedown_draw_max=t.int("facedown_draw_max", lo=0, hi=30),
        hand_limit=t.bool("hand_limit"),
        hand_size=t.int("hand_size", 5, lo=0, hi=30),
        servant_loss_gems=t.int("servant_loss_gems", lo=-1, hi=100),
        events=tuple(t.list_of("events", str)),
        deck_out=t.str("deck_out", choices=("reshuffle", "end")),
        end_timing=t.str("end_timing", choices=("round", "immediate")),
        victory_gems=t.int("victory_gems", lo=0, hi=10_000),
        vessel_ends_game=t.bool("vessel_ends_game"),
        round_cap=t.int("round_cap", lo=1, hi=10_000),
        land_modifiers=t.bool("land_modifiers"),
        auto_np=frozenset(t.list_of("auto_np", str)),
        tsubame=t.bool("tsubame"),
        fetch_trigger=t.str("fetch_trigger", choices=FETCH_TRIGGERS),
        masters=tuple(t.list_of("masters", str)),
        servants=tuple(t.list_of("servants", str)),
    )
    if not v["players"]:
        raise t.fail("players", "must list at least one player count")
    params = t.table("card_params", {})
    v["card_params"] = {cid: {k: params.table(cid).int(k) for k in params.table(cid).data}
                        for cid in params.data}
    return v


def _apply_card_params(cs: CardSet, card_params: dict[str, Any]) -> CardSet:
    """An edition's values for named cards' ability parameters (イリヤ's 7 gems in v1.x).
    A card or a parameter the card set does not have is left alone."""
    masters = dict(cs.masters)
    for cid, params in card_params.items():
        m = masters.get(cid)
        if m is None:
            continue
        new = {k: params.get(k, v) for k, v in m.params.items()}
        masters[cid] = replace(m, params=new, hooks=make_ability(m.ability, new))
    return replace(cs, masters=masters)


def load_rules(edition: str = "final", mode: str | None = None, options: tuple[str, ...] = (),
               cards: str | Path | None = None) -> Rules:
    """The rules of ``edition`` with ``mode`` and ``options``, over the built-in cards or a
    user's card file. Every unknown name or impossible combination is a DataError."""
    cs = load_cards(cards)
    values = _edition_values(edition)
    card_params = values.pop("card_params")
    if card_params:
        cs = _apply_card_params(cs, card_params)
    for key in ("masters", "servants"):
        pool = cs.masters if key == "masters" else cs.servants
        ids = values[key]
        if cards is not None:
            # a user's card file: every card of its kind plays, in the file's order
            ids = tuple(pool)
        for cid in ids:
            if cid not in pool:
                raise DataError(cs.source, key, f"the edition {edition!r} needs a card {cid!r} "
                                "that the card file does not have")
        values[key] = ids
    if cards is not None:
        # a servant of the user's own (an id the edition does not list) follows its np.auto
        known = set(_edition_values(edition)["servants"])
        values["auto_np"] = frozenset(
            {sid for sid in values["auto_np"] if sid in cs.servants}
            | {sid for sid, sv in cs.servants.items() if sv.auto and sid not in known})
    if cards is not None:
        # a user's card file: every event whose kind the edition has plays (two 強運 may be
        # two ids of kind "luck"); the edition lists the built-in events by id
        builtin = load_cards(None).events
        kinds = {builtin[e].kind for e in values["events"] if e in builtin}
        values["events"] = tuple(e for e, ev in cs.events.items() if ev.kind in kinds)
    for ev in values["events"]:
        if ev not in cs.events:
            values["events"] = tuple(e for e in values["events"] if e in cs.events)
    rules = Rules(cards=cs, **values)
    for opt in options:
        if opt not in OPTIONS:
            raise DataError("--option", "option", f"unknown option {opt!r} (known: {list(OPTIONS)})",
                            "choice", allowed=" | ".join(OPTIONS), got=repr(opt))
    rules = replace(
        rules,
        options=tuple(options),
        tie_dice="tie_dice" in options,
        land_modifiers=rules.land_modifiers or "land_modifiers" in options,
        berserker_penalty="no_berserker_penalty" not in options,
    )
    from fuyuki.sbb.modes import apply_mode, shortage

    rules = apply_mode(rules, mode)
    # a player count the cards cannot deal (a small card file, a mode) is not allowed
    players = tuple(n for n in rules.players if shortage(rules, n) is None)
    if not players:
        raise DataError(cs.source, "master", f"these cards cannot be dealt to "
                        f"{min(rules.players)} players: {shortage(rules, min(rules.players))}")
    return replace(rules, players=players, lowest_target=rules.lowest_victory_target())
