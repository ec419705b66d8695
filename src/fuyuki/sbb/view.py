"""What a seat may see (§8). The only door through which information leaves the engine.

Public: lands and their gems, every player's gems (and coins), face-up masters and servants
(and whether 桜 is dark), hand sizes, deck and discard sizes and the discards' cards, every
revealed bid, who has locked a bid, the parent, the land of this round's extra gem. Private
to a seat: its hand, its own face-down master and servant, the cards that passed through its
hands in the drafts, its own bid before the reveal, its open decision.

:class:`Seen` is a compact door for bots that read a view at every decision (the heuristic
bot): part of ``view(seat)`` in typed fields, built by :func:`build_seen` straight from the
state without the view's dicts. :func:`seen_of_view` reads the same fields from a view, and a
test checks that the two agree on every seat of many games — so a :class:`Seen` holds
nothing that ``view(seat)`` does not show. ``build_seen`` gives its cards as the game's card
ints (the same cards, numbered by its :class:`~fuyuki.sbb.cards.CardTable`; their names are
made only if read), so that a bot need not turn the names back into ints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fuyuki.sbb.cards import CardTable
from fuyuki.sbb.state import falses, zeros

if TYPE_CHECKING:
    from fuyuki.sbb.game import Game


def bids_revealed(phase: str) -> bool:
    """Whether the round's bids are face up in ``phase`` (after the reveal)."""
    return phase not in ("bid", "gems", "draft_master", "draft_servant", "setup")


def build_view(g: "Game", seat: int | None) -> dict[str, Any]:
    s, names = g.s, g.t.names
    revealed = bids_revealed(s.phase)
    players = []
    for i in range(s.n):
        p: dict[str, Any] = {
            "seat": i,
            "gems": s.gems[i],
            "hand_size": len(s.hand[i]),
            "master": names[s.master[i]] if s.m_up[i] else None,
            "servant": names[s.servant[i]] if s.s_up[i] else None,
            "master_up": s.m_up[i],
            "servant_up": s.s_up[i],
            "dark": s.dark[i] if s.m_up[i] else None,
            "mana": g.mana(i) if s.m_up[i] else None,
            "bid": (names[s.bids[i]] if s.bids[i] else None) if revealed else None,
            "locked": (s.phase == "bid" and i in s.answers),
        }
        if g.rules.coins:
            p["coins"] = s.coins[i]
        players.append(p)
    view: dict[str, Any] = {
        "game": "sbb",
        "seat": seat,
        "players": s.n,
        "edition": g.rules.edition,
        "mode": g.rules.mode,
        "options": list(g.rules.options),
        "round": s.round,
        "parent": s.parent,
        "phase": s.phase,
        "pool": s.pool,
        "lands": [{"id": names[land], "gems": s.gems_on[i]} for i, land in enumerate(s.lands)],
        "extra_gem": names[s.extra_land] or None,   # this round's, once the parent placed it
        "seats": players,
        "decks": {"action": len(s.adeck), "master": len(s.mdeck), "servant": len(s.sdeck)},
        "discards": {"action": [names[c] for c in s.adisc], "master": [names[c] for c in s.mdisc],
                     "servant": [names[c] for c in s.sdisc]},
        "luck_possible": g.luck_possible(),
        "over": s.over,
        "result": s.result,
        "log_size": len(s.log),
    }
    if seat is not None:
        me: dict[str, Any] = {
            "hand": [names[c] for c in sorted(s.hand[seat])],
            "master": names[s.master[seat]] or None,
            "servant": names[s.servant[seat]] or None,
            "dark": s.dark[seat],
            "mana": g.mana(seat) if s.master[seat] else None,
            "seen": [names[c] for c in s.seen[seat]],
            "bid": ((names[s.bids[seat]] if s.bids[seat] else None) if revealed
                    else s.answers.get(seat) if s.phase == "bid" else None),
        }
        decision = s.asking.get(seat) if seat not in s.answers else None
        me["decision"] = decision.to_json() if decision else None
        view["me"] = me
    return view


SEEN_FIELDS = (
    "seat", "edition", "mode",
    "lands", "land_gems",            # view["lands"][k]["id"], ["gems"]
    "gems", "hand_size", "master", "servant", "dark", "bid",   # view["seats"][i][...]
    "deck_action",                   # view["decks"]["action"]
    "disc_action", "disc_servant",   # view["discards"]["action"], ["servant"]
    "hand", "my_master", "my_servant", "my_dark")   # view["me"]["hand"], ...
#: the cards of ``SEEN_FIELDS`` again as ints of ``table`` (0: none — a face-down card, no
#: bid, or a card the table lacks): the lands, each seat's master, servant and bid, the
#: action and servant discards, the hand, my master and servant
SEEN_INTS = ("table", "land_ids", "master_ids", "servant_ids", "bid_ids", "disc_action_ids",
             "disc_servant_ids", "hand_ids", "my_master_id", "my_servant_id")


def _names_of(table: CardTable | None, cards: list[int]) -> list[str]:
    """The card ids of the ints ``cards`` of ``table`` (a :class:`Seen`'s lazily named
    cards: a Seen with no table was given its names)."""
    assert table is not None, "a Seen without a card table holds its names"
    names = table.names
    return [names[c] for c in cards]


class Seen:
    """What the heuristic bot reads of ``view(seat)``: each field of ``SEEN_FIELDS`` is a key
    of the view (a seat's ``None`` — a face-down card, no bid — is ``""``, an unknown darkness
    ``False``); those of ``SEEN_INTS`` are its cards again as the ints of ``table``, a
    :class:`~fuyuki.sbb.cards.CardTable` (:func:`build_seen`: the game's;
    :func:`seen_of_view`: the one it is given, if any — without one they are empty, and
    :func:`seen_in_table` gives the Seen in a table). Equality compares ``SEEN_FIELDS``.

    Built from the game (:func:`build_seen`), a Seen holds the ints only: the names of
    ``lands``, ``master``, ``servant``, ``bid``, ``disc_action``, ``disc_servant`` and ``hand``
    are made from them when first read (properties; a bot that reads ints never makes
    them — seven lists of names built and freed at every decision otherwise).

    A plain class, not a dataclass: a dataclass's ``__init__`` is generated at run time and
    is not compiled."""

    __slots__ = ("seat", "edition", "mode", "land_gems", "gems", "hand_size", "dark",
                 "deck_action", "my_master", "my_servant", "my_dark") + SEEN_INTS + (
        "_lands", "_master", "_servant", "_bid", "_disc_action", "_disc_servant", "_hand")

    def __init__(self, seat: int, edition: str, mode: str, table: CardTable | None,
                 land_ids: list[int], land_gems: list[int], gems: list[int],
                 hand_size: list[int], master_ids: list[int], servant_ids: list[int],
                 dark: list[bool], bid_ids: list[int], deck_action: int,
                 disc_action_ids: list[int], disc_servant_ids: list[int], hand_ids: list[int],
                 my_master: str, my_servant: str, my_dark: bool, my_master_id: int,
                 my_servant_id: int) -> None:
        self.seat = seat
        self.edition = edition
        self.mode = mode
        self.table = table
        self.land_ids = land_ids
        self.land_gems = land_gems
        self.gems = gems
        self.hand_size = hand_size
        self.master_ids = master_ids
        self.servant_ids = servant_ids
        self.dark = dark
        self.bid_ids = bid_ids
        self.deck_action = deck_action
        self.disc_action_ids = disc_action_ids
        self.disc_servant_ids = disc_servant_ids
        self.hand_ids = hand_ids
        self.my_master = my_master
        self.my_servant = my_servant
        self.my_dark = my_dark
        self.my_master_id = my_master_id
        self.my_servant_id = my_servant_id
        # the names, made from the ints when first read (None: not yet)
        self._lands: list[str] | None = None
        self._master: list[str] | None = None
        self._servant: list[str] | None = None
        self._bid: list[str] | None = None
        self._disc_action: list[str] | None = None
        self._disc_servant: list[str] | None = None
        self._hand: list[str] | None = None

    @property
    def lands(self) -> list[str]:
        if self._lands is None:
            self._lands = _names_of(self.table, self.land_ids)
        return self._lands

    @lands.setter
    def lands(self, value: list[str]) -> None:
        self._lands = value

    @property
    def master(self) -> list[str]:
        if self._master is None:
            self._master = _names_of(self.table, self.master_ids)
        return self._master

    @master.setter
    def master(self, value: list[str]) -> None:
        self._master = value

    @property
    def servant(self) -> list[str]:
        if self._servant is None:
            self._servant = _names_of(self.table, self.servant_ids)
        return self._servant

    @servant.setter
    def servant(self, value: list[str]) -> None:
        self._servant = value

    @property
    def bid(self) -> list[str]:
        if self._bid is None:
            self._bid = _names_of(self.table, self.bid_ids)
        return self._bid

    @bid.setter
    def bid(self, value: list[str]) -> None:
        self._bid = value

    @property
    def disc_action(self) -> list[str]:
        if self._disc_action is None:
            self._disc_action = _names_of(self.table, self.disc_action_ids)
        return self._disc_action

    @disc_action.setter
    def disc_action(self, value: list[str]) -> None:
        self._disc_action = value

    @property
    def disc_servant(self) -> list[str]:
        if self._disc_servant is None:
            self._disc_servant = _names_of(self.table, self.disc_servant_ids)
        return self._disc_servant

    @disc_servant.setter
    def disc_servant(self, value: list[str]) -> None:
        self._disc_servant = value

    @property
    def hand(self) -> list[str]:
        if self._hand is None:
            self._hand = _names_of(self.table, self.hand_ids)
        return self._hand

    @hand.setter
    def hand(self, value: list[str]) -> None:
        self._hand = value

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in SEEN_FIELDS}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seen) and self.as_dict() == other.as_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Seen({self.as_dict()!r})"


def _ids_of(table: CardTable | None, cards: list[str]) -> list[int]:
    """The ints of ``table`` of the card ids ``cards`` (0 for a card it lacks; none without
    a table)."""
    if table is None:
        return []
    ids = table.ids
    return [ids.get(card, 0) for card in cards]


def _named_seen(seat: int, edition: str, mode: str, table: CardTable | None,
                lands: list[str], land_gems: list[int], gems: list[int], hand_size: list[int],
                master: list[str], servant: list[str], dark: list[bool], bid: list[str],
                deck_action: int, disc_action: list[str], disc_servant: list[str],
                hand: list[str], my_master: str, my_servant: str, my_dark: bool) -> Seen:
    """A :class:`Seen` of the given names, their ints those of ``table`` (empty without
    one)."""
    ids = table.ids if table is not None else {}
    seen = Seen(seat, edition, mode, table, _ids_of(table, lands), land_gems, gems, hand_size,
                _ids_of(table, master), _ids_of(table, servant), dark, _ids_of(table, bid),
                deck_action, _ids_of(table, disc_action), _ids_of(table, disc_servant),
                _ids_of(table, hand), my_master, my_servant, my_dark,
                ids.get(my_master, 0), ids.get(my_servant, 0))
    seen.lands, seen.master, seen.servant, seen.bid = lands, master, servant, bid
    seen.disc_action, seen.disc_servant, seen.hand = disc_action, disc_servant, hand
    return seen


def seen_of_view(view: dict[str, Any], table: CardTable | None = None) -> Seen:
    """The :class:`Seen` of a view (``view["me"]`` needs only its hand, master, servant and
    darkness: the hard bot's belief rates a seat's bids from such a partial view), its
    cards also as the ints of ``table`` if one is given."""
    seats = view["seats"]
    me = view["me"]
    return _named_seen(
        view["seat"], view["edition"], view["mode"], table,
        [land["id"] for land in view["lands"]], [land["gems"] for land in view["lands"]],
        [p["gems"] for p in seats], [p["hand_size"] for p in seats],
        [p["master"] or "" for p in seats], [p["servant"] or "" for p in seats],
        [bool(p["dark"]) for p in seats], [p["bid"] or "" for p in seats],
        view["decks"]["action"], list(view["discards"]["action"]),
        list(view["discards"]["servant"]),
        list(me["hand"]), me["master"] or "", me["servant"] or "", bool(me["dark"]))


def seen_in_table(seen: Seen, table: CardTable) -> Seen:
    """``seen`` with its cards as the ints of ``table`` (itself if they are already: a Seen
    of another table, or of none, is read again by its names)."""
    if seen.table is table:
        return seen
    return _named_seen(
        seen.seat, seen.edition, seen.mode, table, seen.lands, seen.land_gems, seen.gems,
        seen.hand_size, seen.master, seen.servant, seen.dark, seen.bid, seen.deck_action,
        seen.disc_action, seen.disc_servant, seen.hand, seen.my_master, seen.my_servant,
        seen.my_dark)


def _sorted_hand(cards: list[int]) -> list[int]:
    """``sorted(cards)`` for the few cards of a hand: an insertion sort of a copy, compiled to
    native compares (``sorted`` sets up a general sort of boxed objects for them)."""
    out = cards.copy()
    for i in range(1, len(out)):
        c = out[i]
        j = i
        while j > 0 and out[j - 1] > c:
            out[j] = out[j - 1]
            j -= 1
        out[j] = c
    return out


def _face_up(cards: list[int], up: list[bool]) -> list[int]:
    """Each card of ``cards`` where ``up`` says it is face up, else 0 (a copy with the
    face-down ones cleared: no list grown item by item)."""
    out = cards.copy()
    for i in range(len(out)):
        if not up[i]:
            out[i] = 0
    return out


def build_seen(g: "Game", seat: int) -> Seen:
    """``seen_of_view(build_view(g, seat), g.t)`` without building the view (and the names
    of its cards made only when read)."""
    s = g.s
    revealed = bids_revealed(s.phase)
    n = s.n
    m_up, dark = s.m_up, s.dark
    master, servant = s.master, s.servant
    names = g.t.names
    dark_up = falses(n)   # (a master's darkness shows when it is face up)
    for i in range(n):
        if dark[i] and m_up[i]:
            dark_up[i] = True
    return Seen(
        seat, g.rules.edition, g.rules.mode, g.t,
        s.lands.copy(), s.gems_on.copy(), s.gems.copy(), [len(h) for h in s.hand],
        _face_up(master, m_up), _face_up(servant, s.s_up), dark_up,
        s.bids.copy() if revealed else zeros(n),
        len(s.adeck), s.adisc.copy(), s.sdisc.copy(), _sorted_hand(s.hand[seat]),
        names[master[seat]], names[servant[seat]], bool(dark[seat]),
        master[seat], servant[seat])
