"""The card set: masters, servants, lands, action cards and events, loaded from TOML.

Action card ids are ``<colour>-<kind>-<value>`` (``red-np-3``); events are their own ids
(``luck``). :class:`CardSet` holds the cards as loaded; :class:`CardTable` (one per card set,
:func:`card_table`) numbers every card id with a small int and holds each card's facts in
lists indexed by that int: the engine's state holds only these ints, and card ids (strings)
exist only at the doors (options, answers, views, events, records).
"""

from __future__ import annotations

import copyreg
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Final

from mypy_extensions import mypyc_attr

from fuyuki.core.data import Table, package_file, read_toml
from fuyuki.core.errors import DataError
from fuyuki.sbb.abilities import ABILITIES, Ability, make_ability

#: every master ability kind and the parameters a card gives it (the registry's view)
MASTER_ABILITIES = {kind: cls.params for kind, cls in ABILITIES.items()}
FETCH_TRIGGERS = ("master_destroyed", "master_lost", "servant_destroyed")
EFFECT_KEYS = ("destroy", "cancel", "sure_hit", "pool_gems", "needs_faceup_keyword")
PASSIVE_KEYS = ("indestructible", "hand_penalty", "retaliate", "tsubame", "np_as_sortie_vs_np")
EVENT_KINDS = ("luck", "swap", "grail")
#: the lands' and action cards' colours (a colour's int: its index here)
COLOURS: Final[tuple[str, ...]] = ("red", "blue", "green", "yellow", "purple")
N_COLOURS: Final[int] = len(COLOURS)


@dataclass(frozen=True, slots=True)
class Master:
    id: str
    name: dict[str, str]
    mana: int
    ability: str
    params: dict[str, Any]
    ability_name: dict[str, str]
    text: dict[str, str]
    #: the ability's entry of fuyuki.sbb.abilities, made from ``ability`` and ``params``
    hooks: Ability = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Effect:
    destroy: tuple[str, ...] = ()
    cancel: bool = False
    sure_hit: bool = False
    pool_gems: int = 0
    needs_faceup_keyword: str = ""

    @property
    def empty(self) -> bool:
        return not (self.destroy or self.cancel or self.pool_gems)


@dataclass(frozen=True, slots=True)
class Servant:
    id: str
    name: dict[str, str]
    power: int
    np_name: dict[str, str]
    keyword: str
    auto: bool
    effect: Effect
    indestructible: bool = False
    hand_penalty: int = 0
    retaliate: bool = False
    tsubame: bool = False
    np_as_sortie_vs_np: bool = False
    text: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Land:
    id: str
    name: dict[str, str]
    colour: str
    mod_servant: str
    mod_bonus: int


@dataclass(frozen=True, slots=True)
class EventCard:
    id: str
    kind: str
    name: dict[str, str]
    text: dict[str, str]


@dataclass(frozen=True, slots=True)
class Action:
    """An action card: ``colour`` and ``kind`` ("sortie" or "np") and ``value``."""

    id: str
    colour: str
    kind: str
    value: int


def _reduce_frozen(card: Any) -> tuple[Any, ...]:
    return type(card), tuple(getattr(card, f.name) for f in fields(card))


# Pickle and copy the frozen cards through __init__: a mypyc-compiled frozen dataclass cannot
# be restored attribute by attribute (its __setattr__ raises FrozenInstanceError).
for _cls in (Master, Effect, Servant, Land, EventCard, Action):
    copyreg.pickle(_cls, _reduce_frozen)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: picklable, copyable (see _build)
@dataclass
class CardSet:
    masters: dict[str, Master]
    servants: dict[str, Servant]
    lands: dict[str, Land]
    events: dict[str, EventCard]
    sortie_values: tuple[int, ...]
    np_values: tuple[int, ...]
    action_names: dict[str, dict[str, str]]
    source: str = ""
    _actions: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)

    def actions_of(self, colour: str) -> list[str]:
        """The action card ids of a colour (a new list each call; the ids are cached)."""
        ids = self._actions.get(colour)
        if ids is None:
            ids = self._actions[colour] = tuple(
                [f"{colour}-sortie-{v}" for v in self.sortie_values]
                + [f"{colour}-np-{v}" for v in self.np_values])
        return list(ids)

    def action_deck(self, lands: list[str], events: tuple[str, ...]) -> list[str]:
        """The action deck for ``lands`` in play: each land colour's cards and the events of
        ``events`` this card set has (unshuffled)."""
        deck: list[str] = []
        for land in lands:
            deck.extend(self.actions_of(self.lands[land].colour))
        deck.extend(e for e in events if e in self.events)
        return deck

    def luck_cards(self, deck: list[str]) -> tuple[str, ...]:
        """The 強運 (reaction) cards of a deck."""
        return tuple(c for c in deck if c in self.events and self.events[c].kind == "luck")


_ACTION_CACHE: dict[str, Action | None] = {}


def parse_action(card: str) -> Action | None:
    """The action card ``card`` parsed (``None`` for an event id). Cached: ids are few."""
    try:
        return _ACTION_CACHE[card]
    except KeyError:
        pass
    parts = card.split("-")
    result = None
    if len(parts) == 3 and parts[1] in ("sortie", "np") and parts[2].isascii() \
            and parts[2].isdigit():  # not "²" nor "１": int() would refuse or misread them
        result = Action(card, parts[0], parts[1], int(parts[2]))
    _ACTION_CACHE[card] = result
    return result


def card_value(card: str) -> int:
    a = parse_action(card)
    return a.value if a else 0


#: the int of "no card" (an empty master or servant seat, no bid): the id "" sorts first
NO_CARD: Final = 0
#: what a card id names (:attr:`CardTable.kind`; Final: constants in the compiled build, not
#: a look-up in the module's dict at every use)
NONE: Final = 0
MASTER: Final = 1
SERVANT: Final = 2
LAND: Final = 3
ACTION: Final = 4
EVENT: Final = 5
#: ``fetched`` of a master ability: the seat's own master comes back face up (偽臣の書)
SELF = -1


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: picklable, copyable (see _build)
class CardTable:
    """Every card of a card set numbered with a small int, and its facts by that int.

    The ints follow the ids' string order (``""``, no card, is 0), so that sorting ints sorts
    the ids: a hand shown sorted, a decision's options sorted, stay exactly as they were when
    the state held strings. The one table the doors map through (:meth:`name`, :meth:`id`).
    """

    def __init__(self, cs: CardSet) -> None:
        ids = {""} | set(cs.masters) | set(cs.servants) | set(cs.lands) | set(cs.events)
        for land in cs.lands.values():
            ids.update(cs.actions_of(land.colour))
        #: the card id (string) of each int
        self.names: list[str] = sorted(ids)
        #: the int of each card id
        self.ids: dict[str, int] = {c: i for i, c in enumerate(self.names)}
        size = len(self.names)
        #: NONE, MASTER, SERVANT, LAND, ACTION or EVENT
        self.kind = [NONE] * size
        #: an action's or a land's colour: its index in COLOURS (-1: none)
        self.colour = [-1] * size
        #: an action card is a 宝具 (np) card
        self.np = [False] * size
        #: an action card's value
        self.value = [0] * size
        #: an event's kind ("luck", "swap", "grail"; "" for other cards)
        self.event = [""] * size
        #: the lands' ints in the card file's order
        self.land_ids = [self.ids[cid] for cid in cs.lands]
        #: the action cards of each land's colour (CardSet.actions_of), by the colour's index
        self.actions: dict[int, list[int]] = {
            COLOURS.index(land.colour): [self.ids[c] for c in cs.actions_of(land.colour)]
            for land in cs.lands.values()}
        #: ids_in's ints of each tuple, by the tuple's id (the tuple kept: its id stays its own)
        self._ids_cache: dict[int, tuple[tuple[str, ...], list[int]]] = {}
        #: each action deck made, by its lands: the rules' events it was made with, the deck
        self._decks: dict[tuple[int, ...], tuple[tuple[str, ...], list[int]]] = {}
        #: what a reader derives once from this table, under the reader's name (the heuristic
        #: bot's rating facts: fuyuki.sbb.agents.heuristic.card_facts)
        self.derived: dict[str, Any] = {}
        #: each master's, servant's and land's record by its int (None: a card of another
        #: kind; lists, not int-keyed dicts: indexed natively in the compiled build)
        self.masters: list[Master | None] = [None] * size
        self.servants: list[Servant | None] = [None] * size
        self.lands: list[Land | None] = [None] * size
        for cid, m in cs.masters.items():
            self.kind[self.ids[cid]] = MASTER
            self.masters[self.ids[cid]] = m
        for cid, sv in cs.servants.items():
            self.kind[self.ids[cid]] = SERVANT
            self.servants[self.ids[cid]] = sv
        for cid, land in cs.lands.items():
            i = self.ids[cid]
            self.kind[i] = LAND
            self.colour[i] = COLOURS.index(land.colour)
            self.lands[i] = land
        for cid, ev in cs.events.items():
            self.kind[self.ids[cid]] = EVENT
            self.event[self.ids[cid]] = ev.kind
        for i, cid in enumerate(self.names):
            a = parse_action(cid)
            if a is not None:
                self.kind[i] = ACTION
                self.colour[i] = COLOURS.index(a.colour)
                self.np[i] = a.kind == "np"
                self.value[i] = a.value

    def id(self, card: str) -> int:
        """The int of the card id ``card`` (KeyError if this card set has none)."""
        return self.ids[card]

    def name(self, card: int) -> str:
        """The card id of ``card`` ("" for NO_CARD)."""
        return self.names[card]

    def name_or_none(self, card: int) -> str | None:
        """The card id of ``card``, ``None`` for NO_CARD (an empty bid)."""
        return self.names[card] if card else None

    def names_of(self, cards: list[int]) -> list[str]:
        """The card ids of the ints ``cards``."""
        names = self.names
        return [names[c] for c in cards]

    def names_in(self, cards: tuple[int, ...]) -> tuple[str, ...]:
        """The card ids of the ints ``cards`` (a tuple: a pack, a decision's options)."""
        names = self.names
        return tuple(names[c] for c in cards)   # (compiled: one tuple, filled in place)

    def names_tuple(self, cards: list[int]) -> tuple[str, ...]:
        """:meth:`names_in` for a list of ints (a decision's options)."""
        names = self.names
        return tuple(names[c] for c in cards)   # (compiled: one tuple, filled in place)

    def ids_of(self, cards: list[str] | tuple[str, ...]) -> list[int]:
        """The ints of the card ids ``cards``."""
        ids = self.ids
        return [ids[c] for c in cards]

    def ids_in(self, cards: tuple[str, ...]) -> list[int]:
        """:meth:`ids_of` for a tuple the rules hold (their masters, servants, events): the
        ints are cached, a new list is returned."""
        got = self._ids_cache.get(id(cards))   # by the tuple itself: not hashed again each game
        if got is None or got[0] is not cards:
            if len(self._ids_cache) >= 64:   # many rules' tuples seen: forget the older ones
                self._ids_cache.clear()
            got = self._ids_cache[id(cards)] = (cards, self.ids_of(cards))
        return got[1].copy()

    def action_deck(self, lands: list[int], events: tuple[str, ...]) -> list[int]:
        """:meth:`CardSet.action_deck` as ints: each land's colour's action cards, then the
        events of ``events`` this card set has (unshuffled). Made once for given lands and
        events (the same rules' tuple): a new list is returned."""
        key = tuple(lands)
        got = self._decks.get(key)
        if got is not None and got[0] is events:
            return got[1].copy()
        deck: list[int] = []
        for land in lands:
            deck.extend(self.actions[self.colour[land]])
        for name in events:
            e = self.ids.get(name, NO_CARD)
            if self.kind[e] == EVENT:
                deck.append(e)
        self._decks[key] = (events, deck)
        return deck.copy()


_TABLES: dict[int, tuple[CardSet, CardTable]] = {}


def card_table(cs: CardSet) -> CardTable:
    """The :class:`CardTable` of ``cs``, built once and cached (a card set is never changed:
    a mode or an edition that changes a card makes a new card set)."""
    got = _TABLES.get(id(cs))
    if got is not None and got[0] is cs:
        return got[1]
    if len(_TABLES) >= 64:   # many card sets were loaded: forget the older ones
        _TABLES.clear()
    table = CardTable(cs)
    _TABLES[id(cs)] = (cs, table)
    return table


def default_cards_path() -> Path:
    return package_file("fuyuki.sbb", "data", "cards.toml")


def load_cards(path: str | Path | None = None) -> CardSet:
    """Load and validate a card file (default: the built-in cards)."""
    p = Path(path) if path else default_cards_path()
    data = read_toml(p)
    root = Table(data, str(p))
    root.check_keys(["master", "servant", "land", "actions", "event"])
    masters: dict[str, Master] = {}
    for t in root.tables("master"):
        t.check_keys(["id", "name", "mana", "ability", "ability_name", "text"])
        ab = t.table("ability")
        kind = ab.str("kind", choices=MASTER_ABILITIES)
        ab.check_keys(("kind",) + MASTER_ABILITIES[kind])
        params = {k: v for k, v in ab.data.items() if k != "kind"}
        for k in MASTER_ABILITIES[kind]:
            if k not in params:
                raise ab.fail(k, f"missing (ability {kind!r} needs {list(MASTER_ABILITIES[kind])})")
        if kind == "fetch_master":
            ab.str("card")
            ab.str("trigger", choices=FETCH_TRIGGERS)
        for k in ("mana", "power", "victory", "gems", "bonus"):
            if k in params:
                ab.int(k, lo=0, hi=100)
        m = Master(t.str("id"), t.text("name"), t.int("mana", lo=0, hi=20), kind, params,
                   t.text("ability_name", {"ja": "", "en": ""}), t.text("text", {"ja": "", "en": ""}),
                   make_ability(kind, params))
        if m.id in masters:
            raise t.fail("id", f"duplicate master id {m.id!r}")
        masters[m.id] = m
    servants: dict[str, Servant] = {}
    for t in root.tables("servant"):
        t.check_keys(["id", "name", "power", "np", "effect", "passive", "text"])
        np = t.table("np")
        np.check_keys(["name", "keyword", "auto"])
        eff = t.table("effect", {})
        eff.check_keys(EFFECT_KEYS)
        destroy = eff.list("destroy", [])
        for i, d in enumerate(destroy):
            if d not in ("servant", "master"):
                raise eff.fail(f"destroy[{i}]", f"must be 'servant' or 'master', not {d!r}")
        effect = Effect(tuple(destroy), eff.bool("cancel", False), eff.bool("sure_hit", False),
                        eff.int("pool_gems", 0, lo=0, hi=100), eff.str("needs_faceup_keyword", ""))
        pas = t.table("passive", {})
        pas.check_keys(PASSIVE_KEYS)
        s = Servant(
            t.str("id"), t.text("name"), t.int("power", lo=-10, hi=20), np.text("name"),
            np.str("keyword", ""), np.bool("auto", False), effect,
            pas.bool("indestructible", False), pas.int("hand_penalty", 0, lo=0, hi=20),
            pas.bool("retaliate", False), pas.bool("tsubame", False),
            pas.bool("np_as_sortie_vs_np", False), t.text("text", {"ja": "", "en": ""}),
        )
        if s.id in servants:
            raise t.fail("id", f"duplicate servant id {s.id!r}")
        servants[s.id] = s
    lands: dict[str, Land] = {}
    for t in root.tables("land"):
        t.check_keys(["id", "name", "colour", "modifier"])
        mod = t.table("modifier", {})
        mod.check_keys(["servant", "bonus"])
        land = Land(t.str("id"), t.text("name"), t.str("colour", choices=COLOURS),
                    mod.str("servant", ""), mod.int("bonus", 0, lo=-20, hi=20))
        if land.id in lands:
            raise t.fail("id", f"duplicate land id {land.id!r}")
        if any(other.colour == land.colour for other in lands.values()):
            raise t.fail("colour", f"two lands have the colour {land.colour!r}")
        lands[land.id] = land
    acts = root.table("actions")
    acts.check_keys(["sortie", "np", "sortie_name", "np_name"])
    sortie = acts.list("sortie")
    np_values = acts.list("np")
    for name, values in (("sortie", sortie), ("np", np_values)):
        for i, v in enumerate(values):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 99:
                raise acts.fail(f"{name}[{i}]", f"must be a whole number 0 to 99, not {v!r}")
    events: dict[str, EventCard] = {}
    for t in root.tables("event") if root.has("event") else []:
        t.check_keys(["id", "kind", "name", "text"])
        e = EventCard(t.str("id"), t.str("kind", choices=EVENT_KINDS), t.text("name"),
                      t.text("text", {"ja": "", "en": ""}))
        if e.id in events:
            raise t.fail("id", f"duplicate event id {e.id!r}")
        events[e.id] = e
    ids: dict[str, str] = {}
    for kind, group in (("master", masters), ("servant", servants), ("land", lands),
                        ("event", events)):
        for cid in group:
            if cid in ids:
                raise DataError(str(p), f"{kind}.{cid}", f"the id {cid!r} is also a {ids[cid]} id")
            if parse_action(cid) is not None:
                raise DataError(str(p), f"{kind}.{cid}", "ids of the form colour-kind-value "
                                "are action card ids")
            ids[cid] = kind
    cs = CardSet(masters, servants, lands, events, tuple(sortie), tuple(np_values),
                 {"sortie": acts.text("sortie_name", {"ja": "出撃", "en": "Sortie"}),
                  "np": acts.text("np_name", {"ja": "宝具", "en": "Noble Phantasm"})}, str(p))
    for i, m in enumerate(cs.masters.values()):
        if m.ability == "fetch_master" and m.params["card"] not in cs.masters:
            raise DataError(str(p), f"master[{i}].ability.card",
                            f"no master with id {m.params['card']!r}")
    for i, land in enumerate(cs.lands.values()):
        if land.mod_servant and land.mod_servant not in cs.servants:
            raise DataError(str(p), f"land[{i}].modifier.servant",
                            f"no servant with id {land.mod_servant!r}")
    return cs
