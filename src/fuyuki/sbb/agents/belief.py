"""What the hard bot learns from the others' bids: a weight for each sampled world.

The bot sees only its views, one per decision it is asked. It keeps its own history: at
each sealed bid it records its view (public table, hand sizes, the action discard). At the
next bid the discard has grown by what was played in between; the round's bids are
discarded last, one per seat that held cards, in seat order — the bot checks that its own
bid stands where it should, and otherwise reads nothing from that round. So it knows, for
the last round, which card each other seat bid and the table it bid on.

A sampled world gives every other seat a hand (and master and servant). The seat's hand at
that bid is taken as its hand in the world plus the card it bid; the **likelihood** of the
bid is how the opponent policy (the heuristic bot) would have rated that card among that
hand on that table: a softmax of its bid scores (temperature ``TEMPERATURE``), mixed with a
uniform floor (``FLOOR``) so that no world is ruled out by a player who bids otherwise. A
world's weight is the product over the seats observed. The bid search averages each option
over the worlds with these weights — importance sampling: a particle belief whose particles
are the sampled worlds.
"""

from __future__ import annotations

import math
from typing import Any

from fuyuki.core.protocol import Decision
from fuyuki.sbb.agents.heuristic import HeuristicBot
from fuyuki.sbb.cards import card_value, parse_action
from fuyuki.sbb.view import seen_of_view

TEMPERATURE = 0.2   # in the heuristic's score units (about gems)
FLOOR = 0.05        # the share of a bid explained as "any card of the hand"
DRAFT_TEMPERATURE = 0.2  # the same for a draft pick, in the heuristic's preference units


class BidHistory:
    """The bot's record of the others' last bids, read from its own views."""

    def __init__(self) -> None:
        self._last: dict[str, Any] | None = None   # the view at my previous bid
        self._my_bid: Any = None
        #: the last round's observed bids: seat -> card, and the table they were bid on
        self.bids: dict[int, str] = {}
        self.table: dict[str, Any] | None = None
        #: my own bid of that round, and the cards discarded in it before the bids (宝石魔術's
        #: card, 強運)
        self.mine: Any = None
        self.between: list[str] = []

    def observe(self, view: dict[str, Any]) -> None:
        """Call at each of my bid decisions, before bidding (then :meth:`bid`)."""
        last = self._last
        self.bids, self.table, self.mine, self.between = {}, None, None, []
        if last is not None and view["round"] == last["round"] + 1:
            before = last["discards"]["action"]
            now = view["discards"]["action"]
            bidders = [p["seat"] for p in last["seats"] if p["hand_size"] > 0]
            if now[:len(before)] == before and len(now) - len(before) >= len(bidders):
                cards = now[len(now) - len(bidders):]
                got = dict(zip(bidders, cards))
                if got.get(last["seat"]) == self._my_bid:
                    self.mine = got.pop(last["seat"])
                    self.bids, self.table = got, last
                    self.between = now[len(before):len(now) - len(bidders)]
        self._last = view
        self._my_bid = None

    def bid(self, card: Any) -> None:
        """Record my own bid of the round just observed."""
        self._my_bid = card


class LuckHistory:
    """What the others' silence at 強運 tells. An effect aimed at some seats is offered to
    every seat at once for 強運 (so nobody learns who holds it); a heuristic bot plays it
    whenever the effect is aimed at it. So when an effect resolves and no 強運 reaches the
    action discard, none of its targets held one then. The bot records each of its own 強運
    decisions (:meth:`offered`: the targets and their hand sizes, and the 強運 cards already
    discarded) and confirms it at its next decision (:meth:`observe`) if no 強運 was
    discarded in between; a seat's latest confirmed hand size and round are kept.

    A world's **weight** (:meth:`weight`), in that round and the next: a seat known to have
    held no 強運 may hold one only among the cards it drew since — of its ``h`` cards, the
    ``k`` more it holds than then (effects come after the bids, so until the next round's
    bids it only draws); a world that gives it a 強運 counts ``FLOOR + (1 - FLOOR) * k / h``
    (the chance, hands being exchangeable, that the card is one of the new ones; the floor
    for a player who does not play 強運 like the heuristic bot). Later rounds' bids mix old
    and new cards: the record is dropped."""

    def __init__(self, luck_cards: frozenset[str]) -> None:
        self.luck_cards = luck_cards
        self._pending: tuple[dict[int, tuple[int, int]], int] | None = None
        #: seat -> (its hand size, the round) when it was last seen to hold no 強運
        self.without: dict[int, tuple[int, int]] = {}

    def _discarded(self, view: dict[str, Any]) -> int:
        return sum(1 for c in view["discards"]["action"] if c in self.luck_cards)

    def observe(self, view: dict[str, Any]) -> None:
        """Call at each of my decisions, first: confirms the last 強運 offer I saw."""
        if self._pending is not None:
            targets, discarded = self._pending
            self._pending = None
            if self._discarded(view) == discarded:
                self.without.update(targets)

    def offered(self, view: dict[str, Any], info: dict[str, Any]) -> None:
        """Call at each of my 強運 decisions (after :meth:`observe`)."""
        me = view["seat"]
        self._pending = ({t: (view["seats"][t]["hand_size"], view["round"])
                          for t in info.get("targets", ()) if t != me}, self._discarded(view))

    def weight(self, world: Any, view: dict[str, Any]) -> float:
        """The weight of the sampled game ``world`` at my ``view``."""
        w = 1.0
        for seat, (then, round_then) in self.without.items():
            if view["round"] > round_then + 1:
                continue
            now = view["seats"][seat]["hand_size"]
            drawn = max(0, now - then)
            if drawn < now and world.holds_luck(seat):
                w *= FLOOR + (1 - FLOOR) * drawn / now
        return w


class JewelHistory:
    """What a face-up 凛's use or non-use of 宝石魔術 tells of her hand. 宝石魔術 is offered to
    its master's seat in every contested battle after the reveal, with every action card of
    its hand (so 凛 is face up then, and the card, if one is discarded, reaches the action
    discard before the round's bids). A heuristic bot discards the card that buys the best
    outcome of its battle, or passes when none is worth it; which cards would have been worth
    it is worked out from the table of that bid alone (the revealed bids, masters and
    servants, the land's gems), not from the hand. So a pass says the hand then held no such
    card, and a use says it held none rated above the card discarded.

    :meth:`observe` (at each of my bids, after the :class:`BidHistory` it is given observed
    the same view) reads the last round from that history: for a seat whose master is now
    a face-up 宝石魔術 master and whose action bid met another of its colour, the card values
    the heuristic bot would have discarded instead (``forbidden``) and how many of the
    cards it holds now it held then (its hand then less its bid, less the card discarded;
    the rest it drew since). A round with a 強運 discarded (someone's hand shrank unseen)
    or more than one card is read as nothing.

    A world's **weight** (:meth:`weight`, at the bids that follow): of the ``h`` cards the
    world gives the seat, ``m`` forbidden, ``o`` old — the old ones any ``o`` of the ``h``,
    hands being exchangeable — the chance that none of the forbidden is old,
    ``C(h − m, o) / C(h, o)``, mixed with the floor (``FLOOR``) for a player who does not
    use 宝石魔術 like the heuristic bot."""

    def __init__(self, policy: HeuristicBot, luck_cards: frozenset[str],
                 bids: BidHistory) -> None:
        self.policy = policy
        self.luck_cards = luck_cards
        cards = policy.cards
        self.masters = frozenset(k for k, m in cards.masters.items() if m.hooks.kind == "jewel")
        colour = next(iter(cards.lands.values())).colour
        #: a card of each value (宝石魔術 counts only a card's value)
        self.by_value = {card_value(c): c for c in cards.actions_of(colour)}
        self.bids = bids
        #: seat -> (the forbidden values, how many of its cards are old, the round of my bid)
        self.records: dict[int, tuple[frozenset[int], int, int]] = {}

    def observe(self, view: dict[str, Any]) -> None:
        """Call at each of my bid decisions, before bidding, after ``self.bids`` observed
        ``view``."""
        h = self.bids
        self.records = {}
        table = h.table
        if table is None or len(h.between) > 1 or any(c in self.luck_cards for c in h.between):
            return
        bids = dict(h.bids)
        bids[view["seat"]] = h.mine
        for seat in h.bids:
            record = self._record(view, table, bids, seat, h.between)
            if record is not None:
                self.records[seat] = record

    def _record(self, view: dict[str, Any], table: dict[str, Any], bids: dict[int, str],
                seat: int, between: list[str]) -> tuple[frozenset[int], int, int] | None:
        now = view["seats"][seat]
        a = parse_action(bids[seat])
        if now["master"] not in self.masters or not now["servant"] or a is None:
            return None
        parts = sorted(i for i, c in bids.items()
                       if c and (b := parse_action(c)) is not None and b.colour == a.colour)
        if len(parts) < 2:
            return None
        used = between[0] if between else None
        old = table["seats"][seat]["hand_size"] - 1 - (used is not None)
        if old <= 0:
            return None
        seats = [dict(p) for p in table["seats"]]
        for i in parts:
            shown = view["seats"][i]
            seats[i].update(master=shown["master"], servant=shown["servant"], dark=shown["dark"])
        for i, p in enumerate(seats):
            p["bid"] = bids.get(i)
        before = dict(table, seat=seat, seats=seats,
                      me={"hand": [], "master": now["master"], "servant": now["servant"],
                          "dark": now["dark"]})
        seen = seen_of_view(before)
        forbidden = set()
        for v, card in self.by_value.items():
            if used is None:
                options: tuple[str, ...] = ("pass", card)
            elif v == card_value(used):
                continue
            else:
                options = ("pass",) + tuple(sorted({used, card}, key=card_value))
            if self.policy.choose(seen, Decision("jewel", options, {})) == card:
                forbidden.add(v)
        if not forbidden:
            return None
        return frozenset(forbidden), old, view["round"]

    def weight(self, world: Any, view: dict[str, Any]) -> float:
        """The weight of the sampled game ``world`` at my ``view``."""
        w = 1.0
        t = world.t
        for seat, (forbidden, old, round_then) in self.records.items():
            if view["round"] != round_then:
                continue
            hand = world.s.hand[seat]
            m = sum(1 for c in hand if t.colour[c] >= 0 and t.value[c] in forbidden)
            if m:
                h = len(hand)
                o = min(old, h)
                w *= FLOOR + (1 - FLOOR) * math.comb(h - m, o) / math.comb(h, o)
        return w


def shares(scores: dict[str, float], temperature: float = TEMPERATURE) -> dict[str, float]:
    """The chance of each option from the opponent policy's scores of them: a softmax
    (``temperature``) mixed with a uniform floor (``FLOOR``)."""
    top = max(scores.values())
    ex = {k: math.exp((v - top) / temperature) for k, v in scores.items()}
    total = sum(ex.values())
    return {k: (1 - FLOOR) * e / total + FLOOR / len(ex) for k, e in ex.items()}


def bid_likelihood(policy: HeuristicBot, table: dict[str, Any], seat: int,
                   seen: dict[str, Any], card: str) -> float:
    """How likely ``seat`` was to bid ``card`` on ``table`` (a view of that bid), its hand
    then being ``seen["hand"]`` plus ``card``, its master and servant those of ``seen`` (a
    world's view of that seat)."""
    hand = sorted(set(seen["hand"]) | {card})
    view = dict(table)
    view["seat"] = seat
    view["me"] = {"hand": hand, "master": seen["master"], "servant": seen["servant"],
                  "dark": seen["dark"]}
    return shares(policy.bid_scores(view, hand))[card]


def place_likelihood(policy: HeuristicBot, view: dict[str, Any], seat: int,
                     seen: dict[str, Any], land: str) -> float:
    """How likely the parent ``seat`` was to put the round's extra gem on ``land``, its hand,
    master and servant those of ``seen`` (a world's view of that seat), on the table of
    ``view`` as it was before the extra gem (``view["extra_gem"]`` taken off its land): a
    softmax of the heuristic bot's value of each land (:meth:`HeuristicBot.place_scores`),
    with the same temperature and floor as a bid."""
    before = dict(view)
    before["seat"] = seat
    before["lands"] = [{"id": x["id"], "gems": x["gems"] - (x["id"] == land)}
                       for x in view["lands"]]
    before["me"] = {"hand": sorted(seen["hand"]), "master": seen["master"],
                    "servant": seen["servant"], "dark": seen["dark"]}
    options = [x["id"] for x in view["lands"]]
    if not seen["hand"]:
        return 1.0 / len(options)
    return shares(policy.place_scores(seen_of_view(before), options))[land]


def draft_policy(policy: HeuristicBot):
    """The opponent policy's draft picks as chances (for :class:`fuyuki.sbb.sampling.Sampler`):
    a softmax of the heuristic bot's preferences among the pack (``DRAFT_TEMPERATURE``) with
    the floor — the heuristic bot itself takes the first of the best."""
    def chances(kind: str, pack: tuple[str, ...]) -> dict[str, float]:
        if kind == "master":
            return shares({c: policy.master_value(c) for c in pack}, DRAFT_TEMPERATURE)
        return shares({c: policy.servant_value(c) for c in pack}, DRAFT_TEMPERATURE)
    return chances
