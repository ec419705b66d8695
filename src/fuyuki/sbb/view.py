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
nothing that ``view(seat)`` does not show. ``build_seen`` also gives the hand, the action
discard and the lands as the game's card ints (the same cards, numbered by its
:class:`~fuyuki.sbb.cards.CardTable`), so that a bot need not turn the names back into ints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fuyuki.sbb.cards import CardTable

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
#: the same cards as ints of ``table`` (build_seen; empty from a view): the hand, the action
#: discard, the lands
SEEN_INTS = ("table", "hand_ids", "disc_action_ids", "land_ids")


class Seen:
    """What the heuristic bot reads of ``view(seat)``: each field of ``SEEN_FIELDS`` is a key
    of the view (a seat's ``None`` — a face-down card, no bid — is ``""``, an unknown darkness
    ``False``); those of ``SEEN_INTS`` are ``hand``, ``disc_action`` and ``lands`` again as
    the card ints of ``table``, the game's :class:`~fuyuki.sbb.cards.CardTable`
    (:func:`build_seen`; from a view, :func:`seen_of_view`, ``table`` is ``None`` and they are
    empty). Equality compares ``SEEN_FIELDS``.

    A plain class, not a dataclass: a dataclass's ``__init__`` is generated at run time and
    is not compiled."""

    __slots__ = SEEN_FIELDS + SEEN_INTS

    def __init__(self, seat: int, edition: str, mode: str, lands: list[str],
                 land_gems: list[int], gems: list[int], hand_size: list[int],
                 master: list[str], servant: list[str], dark: list[bool], bid: list[str],
                 deck_action: int, disc_action: list[str], disc_servant: list[str],
                 hand: list[str], my_master: str, my_servant: str, my_dark: bool,
                 table: CardTable | None, hand_ids: list[int], disc_action_ids: list[int],
                 land_ids: list[int]) -> None:
        self.seat = seat
        self.edition = edition
        self.mode = mode
        self.lands = lands
        self.land_gems = land_gems
        self.gems = gems
        self.hand_size = hand_size
        self.master = master
        self.servant = servant
        self.dark = dark
        self.bid = bid
        self.deck_action = deck_action
        self.disc_action = disc_action
        self.disc_servant = disc_servant
        self.hand = hand
        self.my_master = my_master
        self.my_servant = my_servant
        self.my_dark = my_dark
        self.table = table
        self.hand_ids = hand_ids
        self.disc_action_ids = disc_action_ids
        self.land_ids = land_ids

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in SEEN_FIELDS}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seen) and self.as_dict() == other.as_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Seen({self.as_dict()!r})"


def seen_of_view(view: dict[str, Any]) -> Seen:
    """The :class:`Seen` of a view (``view["me"]`` needs only its hand, master, servant and
    darkness: the hard bot's belief rates a seat's bids from such a partial view)."""
    seats = view["seats"]
    me = view["me"]
    return Seen(
        view["seat"], view["edition"], view["mode"],
        [land["id"] for land in view["lands"]], [land["gems"] for land in view["lands"]],
        [p["gems"] for p in seats], [p["hand_size"] for p in seats],
        [p["master"] or "" for p in seats], [p["servant"] or "" for p in seats],
        [bool(p["dark"]) for p in seats], [p["bid"] or "" for p in seats],
        view["decks"]["action"], list(view["discards"]["action"]),
        list(view["discards"]["servant"]),
        list(me["hand"]), me["master"] or "", me["servant"] or "", bool(me["dark"]),
        None, [], [], [])


def build_seen(g: "Game", seat: int) -> Seen:
    """``seen_of_view(build_view(g, seat))`` without building the view, with the ints of the
    hand, the action discard and the lands."""
    s, names = g.s, g.t.names
    revealed = bids_revealed(s.phase)
    n = s.n
    m_up, s_up = s.m_up, s.s_up
    hand = sorted(s.hand[seat])
    return Seen(
        seat, g.rules.edition, g.rules.mode,
        [names[land] for land in s.lands], s.gems_on.copy(), s.gems.copy(),
        [len(h) for h in s.hand],
        [names[s.master[i]] if m_up[i] else "" for i in range(n)],
        [names[s.servant[i]] if s_up[i] else "" for i in range(n)],
        [bool(s.dark[i]) and m_up[i] for i in range(n)],
        [names[s.bids[i]] if revealed else "" for i in range(n)],
        len(s.adeck), [names[c] for c in s.adisc], [names[c] for c in s.sdisc],
        [names[c] for c in hand], names[s.master[seat]],
        names[s.servant[seat]], bool(s.dark[seat]),
        g.t, hand, s.adisc.copy(), s.lands.copy())
