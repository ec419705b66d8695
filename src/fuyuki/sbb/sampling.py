"""Determinization: whole engine games consistent with what one seat knows.

A bot that searches needs complete games to play forward, but it may only know what its
own view shows. :class:`Sampler` reads **one seat's view** (``game.view(seat)``) and,
optionally, that seat's own event history (``game.visible_events(seat)``) and builds fresh
:class:`fuyuki.sbb.game.Game` objects whose hidden parts are drawn at random among those
the seat cannot rule out:

- the face-down masters and servants of the other seats;
- the other seats' hands (their sizes are public);
- the order and content of the three decks (their sizes are public).

What the seat knows and the sampler respects:

- its own hand, master, servant, bid and open decision;
- every face-up card, the three discards, the revealed bids, gems, the parent, the round;
- the drafts (``view["me"]["seen"]``): a seat that picked *after* this seat in a draft
  kept a card of the pack this seat passed on; one that picked *before* it kept a card
  that was not in the pack this seat received. This holds for as long as the drafted card
  may still be in that seat's hands. With the event history the sampler follows every
  replacement and swap seat by seat; from the view alone it uses the draft only while no
  master (servant) has ever been replaced or swapped, which the deck sizes tell;
- with the event history, the servants a swap showed to this seat (``swap_cards``);
- with a ``draft_policy`` (how the others pick), their hidden drafted cards drawn as those
  drafts would have gone under it, for as long as each seat still holds what it drafted.

Every sampled game shows the seat exactly its real view (a test checks it), except that
during sealed bids nobody has locked a bid yet: the search treats the bids as simultaneous.

The sampled game stands at the seat's open decision, ready for ``pending()``/``submit()``.
The decisions the sampler can rebuild the rule stack for are listed in :data:`SUPPORTED`
(drafts, the extra gem, the sealed bid, 宝石魔術, とりかえっこプリーズ); for a decision taken in
the middle of an effect (強運, 身代わり, つばめ返し) it raises :class:`Unsupported`.

Usage::

    from fuyuki.sbb.sampling import Sampler
    sampler = Sampler(game.view(seat), rules=game.rules, events=game.visible_events(seat))
    world = sampler.sample(random.Random(1))     # a new quiet Game
    world.pending()                               # the seat's decision is open in it

The sampler never receives the real game: only the view, the visible events and the rules.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any, Iterable

from fuyuki.core.errors import FuyukiError
from fuyuki.core.protocol import Decision
from fuyuki.core.record import Record
from fuyuki.sbb.battle import battle_steps, bid_colours
from fuyuki.sbb.cards import NO_CARD, card_table
from fuyuki.sbb.game import Game
from fuyuki.sbb.rounds import AFTER_BATTLES, AFTER_EVENTS, event_done, event_steps
from fuyuki.sbb.rules import Rules
from fuyuki.sbb.setup import deal_steps, draft_order
from fuyuki.sbb.state import BOTTOM, Op, State

#: a hidden seat to fill and the cards it may hold (None: any), as card ids read from the view
NamedSlot = tuple[int, "frozenset[str] | None"]
#: the same with the cards as CardTable ints (what a sample fills)
Slot = tuple[int, "frozenset[int] | None"]
#: an opponent's draft pick: (kind, the pack it picked from) -> the chance of each card
DraftPolicy = Callable[[str, "tuple[str, ...]"], "dict[str, float]"]
#: a draft as one seat saw it: the pack it passed on, then each later picker in turn, and the
#: pack it received, then each earlier picker from the nearest back; a picker is
#: ``(seat, None)`` if its card is hidden, ``(seat, card)`` if known
DraftChain = tuple["tuple[str, ...]", "list[tuple[int, str | None]]",
                   "tuple[str, ...]", "list[tuple[int, str | None]]"]
SUPPORTED = ("draft_master", "draft_servant", "place_gem", "bid", "jewel", "swap")
_TABLE_PHASES = ("reveal", "battle", "events")   # bids lie on the table, not yet discarded


class Unsupported(FuyukiError):
    """The sampler cannot rebuild the rule stack for this decision."""


class SamplingError(FuyukiError):
    """The view is inconsistent with the rules (a bug somewhere: never expected)."""


def _rules_for(view: dict[str, Any]) -> Rules:
    from fuyuki.sbb.game import default_rules

    options = tuple(view.get("options") or ())
    if view.get("edition", "final") == "final" and not view.get("mode") and not options:
        return default_rules()
    return Rules.preset(view["edition"], view.get("mode"), options)


class Sampler:
    """Builds games consistent with ``view`` (one seat's view). Build once per decision,
    then call :meth:`sample` as often as wanted (each call is cheap)."""

    def __init__(self, view: dict[str, Any], rules: Rules | None = None,
                 events: Iterable[Any] | None = None,
                 draft_policy: DraftPolicy | None = None) -> None:
        if view.get("seat") is None or "me" not in view:
            raise SamplingError("a seat's view is needed (not a spectator's)")
        self.view = view
        self.rules = rules or _rules_for(view)
        #: how the others pick in a draft: (kind, pack) -> the chance of each card of the
        #: pack; with it the hidden drafted cards are drawn as those drafts would have gone
        #: (:meth:`_draft_assign`), without it uniformly among the cards the draft allows
        self.draft_policy = draft_policy
        #: per kind, the draft as this seat saw it (:meth:`_draft_chain`), or None
        self.chains: dict[str, DraftChain | None] = {}
        try:
            self._read(view, events)
        except KeyError as e:
            raise SamplingError(f"the view names a card these rules do not have: {e}") from None

    def _read(self, view: dict[str, Any], events: Iterable[Any] | None) -> None:
        cs = self.rules.cards
        self.n: int = view["players"]
        self.me: int = view["seat"]
        n, me = self.n, self.me
        mine = view["me"]
        self.decision_json = mine.get("decision")
        self.phase = view["phase"]
        seats = view["seats"]
        self.parent0: int = (view["parent"] - max(view["round"] - 1, 0)) % n

        # ---- what happened to each seat's master and servant (with the event history)
        prov = self._provenance(events) if events is not None else None
        known_private: dict[tuple[int, str], str] = {}
        if events is not None:
            for e in events:
                d = e.data
                if e.kind == "swap":
                    a, b = (d["seat"], "servant"), (d["target"], "servant")
                    ca, cb = known_private.pop(a, None), known_private.pop(b, None)
                    if ca:
                        known_private[b] = ca
                    if cb:
                        known_private[a] = cb
                elif e.kind == "swap_cards":
                    known_private[(d["seat"], "servant")] = d["now_seat"]
                    known_private[(d["target"], "servant")] = d["now_target"]
                elif e.kind == "lost":
                    known_private.pop((d["seat"], d["what"]), None)

        # ---- masters and servants: slots to fill and decks
        self.slots: dict[str, list[NamedSlot]] = {}
        self.pools: dict[str, list[str]] = {}
        self.fixed: dict[str, dict[int, str]] = {}
        for what in ("master", "servant"):
            everyone = list(self.rules.masters if what == "master" else self.rules.servants)
            if what == "master" and self.phase == "draft_master":
                # hollow: the set-aside masters join the deck after the master draft
                everyone = [m for m in everyone if m not in self.rules.set_aside]
            drafted = self.phase != "draft_" + what and not (
                self.phase == "draft_master" and what == "servant")
            fixed: dict[int, str] = {}
            known = Counter(view["discards"][what])
            pack: tuple[str, ...] = ()
            if self.phase == "draft_" + what and self.decision_json:
                pack = tuple(self.decision_json["options"])
                known.update(pack)
            for p in seats:
                i = p["seat"]
                card = None
                if i == me:
                    card = mine[what]
                elif p[what]:
                    card = p[what]
                elif (i, what) in known_private and not p[what + "_up"]:
                    card = known_private[(i, what)]
                if card:
                    fixed[i] = card
                    known[card] += 1
            unknown = Counter(everyone)
            unknown.subtract(known)
            if any(v < 0 for v in unknown.values()):
                raise SamplingError(f"more {what} cards are known than exist: {dict(known)}")
            pool = sorted(unknown.elements())
            holders = self._holders(what, drafted, fixed)
            constraint = self._draft_constraint(what, holders, prov, pool, view, everyone)
            self.slots[what] = [(i, constraint.get(i)) for i in holders]
            deck_size = view["decks"][what]
            if len(pool) != len(holders) + deck_size:
                raise SamplingError(
                    f"{what}: {len(pool)} unknown cards for {len(holders)} hidden seats and "
                    f"a deck of {deck_size}")
            self.pools[what] = pool
            self.fixed[what] = fixed

        # ---- action cards
        full: list[str] = []
        for land in view["lands"]:
            full.extend(cs.actions_of(cs.lands[land["id"]].colour))
        self.event_cards = [e for e in self.rules.events if e in cs.events]
        full.extend(self.event_cards)
        known = Counter(mine["hand"])
        known.update(view["discards"]["action"])
        self.table_bids = [p["bid"] for p in seats] if self.phase in _TABLE_PHASES + ("draw",) \
            else [None] * n
        if self.phase in _TABLE_PHASES:
            known.update(b for b in self.table_bids if b)
        unknown = Counter(full)
        unknown.subtract(known)
        if any(v < 0 for v in unknown.values()):
            raise SamplingError(f"more action cards are known than exist: {dict(known)}")
        self.action_pool = sorted(unknown.elements())
        self.hand_sizes = [0 if p["seat"] == me else p["hand_size"] for p in seats]
        if len(self.action_pool) != sum(self.hand_sizes) + view["decks"]["action"]:
            raise SamplingError(
                f"action cards: {len(self.action_pool)} unknown for hands {self.hand_sizes} "
                f"and a deck of {view['decks']['action']}")
        self.luck_cards = tuple(e for e in self.event_cards if cs.events[e].kind == "luck")
        if self.decision_json is None:
            raise Unsupported("the seat has no open decision")
        if self.decision_json["kind"] not in SUPPORTED:
            raise Unsupported(f"cannot rebuild the state for a {self.decision_json['kind']!r} "
                              "decision")
        self._number(view)

    def _number(self, view: dict[str, Any]) -> None:
        """The cards read from the view as the engine's ints (fuyuki.sbb.cards.CardTable),
        once, so that each sample only copies lists."""
        t = card_table(self.rules.cards)
        self.table = t
        ids = t.ids
        self.islots = {what: [(i, None if allowed is None else frozenset(t.ids_of(tuple(allowed))))
                              for i, allowed in slots] for what, slots in self.slots.items()}
        self.ipools = {what: t.ids_of(pool) for what, pool in self.pools.items()}
        self.ifixed = {what: {i: ids[c] for i, c in fixed.items()}
                       for what, fixed in self.fixed.items()}
        self.iaction_pool = t.ids_of(self.action_pool)
        self.itable_bids = [ids[b] if b else NO_CARD for b in self.table_bids]
        self.iluck_cards = tuple(t.ids_of(self.luck_cards))
        mine, discards = view["me"], view["discards"]
        self.ilands = [ids[land["id"]] for land in view["lands"]]
        self.iextra = ids[view["extra_gem"]] if view.get("extra_gem") else NO_CARD
        self.idiscards = {what: t.ids_of(discards[what]) for what in ("action", "master", "servant")}
        self.ihand = t.ids_of(mine["hand"])
        self.iseen = t.ids_of(mine["seen"])
    # ------------------------------------------------------------------ knowledge
    def _pick_index(self, what: str, seat: int) -> int:
        n = self.n
        if what == "master":
            return (seat - self.parent0) % n
        return ((self.parent0 - 1) - seat) % n

    def _holders(self, what: str, drafted: bool, fixed: dict[int, str]) -> list[int]:
        """Seats whose card of this kind is hidden from us."""
        if self.phase == "draft_" + what:
            k = self._pick_index(what, self.me)
            return [i for i in range(self.n) if i != self.me and i not in fixed
                    and self._pick_index(what, i) < k]
        if not drafted:
            return []
        return [i for i in range(self.n) if i not in fixed]

    @staticmethod
    def _provenance(events: Iterable[Any]) -> dict[tuple[int, str], int]:
        """For each (seat, kind): the seat whose drafted card it still is, or -1 (replaced)."""
        prov: dict[tuple[int, str], int] = {}
        for e in events:
            d = e.data
            if e.kind in ("draft_pass",):
                prov[(d["seat"], d["kind"])] = d["seat"]
            elif e.kind == "lost":
                prov[(d["seat"], d["what"])] = -1
            elif e.kind in ("new_master_up", "fetch", "fetch_back"):
                prov[(d["seat"], "master")] = -1
            elif e.kind == "swap":
                a, b = (d["seat"], "servant"), (d["target"], "servant")
                prov[a], prov[b] = prov.get(b, -1), prov.get(a, -1)
        return prov

    def _draft_constraint(self, what: str, holders: list[int],
                          prov: dict[tuple[int, str], int] | None, pool: list[str],
                          view: dict[str, Any], everyone: list[str]
                          ) -> dict[int, frozenset[str]]:
        """Allowed cards per hidden seat from what we saw in the draft (and, with a draft
        policy, the draft's chain in :attr:`chains`)."""
        seen = set(view["me"]["seen"])
        names = set(everyone)
        my_pack = seen & names
        if not my_pack or self.rules.deal != "draft":
            return {}
        if self.phase == "draft_" + what:
            pack = set(self.decision_json["options"]) if self.decision_json else my_pack
            return {i: frozenset(c for c in pool if c not in pack) for i in holders}
        if prov is None:
            # from the view alone: only while nobody's card of this kind was ever replaced
            # (a replacement draws from the deck) nor swapped (a swap card was played)
            total = len(everyone)
            pristine = not view["discards"][what] and view["decks"][what] == total - self.n
            if what == "servant":
                played = list(view["discards"]["action"]) + [p["bid"] for p in view["seats"]]
                if any(c and c in self.rules.cards.events and
                       self.rules.cards.events[c].kind == "swap" for c in played):
                    pristine = False
            if not pristine:
                return {}
        mine = view["me"][what]
        my_k = self._pick_index(what, self.me)
        later = frozenset(c for c in pool if c in my_pack and c != mine)
        earlier = frozenset(c for c in pool if c not in my_pack)
        out = {}
        for i in holders:
            owner = i if prov is None else prov.get((i, what), -1)
            if owner < 0 or owner == self.me:
                continue
            out[i] = later if self._pick_index(what, owner) > my_k else earlier
        self.chains[what] = self._draft_chain(what, prov, view, my_pack, mine, my_k)
        return out

    def _draft_chain(self, what: str, prov: dict[tuple[int, str], int] | None,
                     view: dict[str, Any], my_pack: set[str], mine: str, my_k: int
                     ) -> DraftChain | None:
        """The draft of ``what`` as this seat saw it, while every seat still holds the card
        it drafted (from the view alone: nothing replaced nor swapped; with the events: each
        seat's card its own)."""
        if self.draft_policy is None:
            return None
        n = self.n
        if prov is not None and any(prov.get((i, what), -1) != i for i in range(n)):
            return None
        by_index = sorted(range(n), key=lambda i: self._pick_index(what, i))
        known = {p["seat"]: p[what] for p in view["seats"] if p[what]}

        def picker(i: int) -> tuple[int, str | None]:
            return i, known.get(i)

        later = [picker(i) for i in by_index[my_k + 1:]]
        earlier = [picker(i) for i in reversed(by_index[:my_k])]
        passed = tuple(sorted(my_pack - {mine}))
        return passed, later, tuple(sorted(my_pack)), earlier

    # ------------------------------------------------------------------ sampling
    @staticmethod
    def _assign(rng: random.Random, slots: list[Slot],
                pool: list[int]) -> tuple[dict[int, int], list[int]]:
        """Give each slot a distinct card of ``pool`` within its allowed set; the rest of
        the pool is the deck (shuffled)."""
        for _ in range(50):
            left = pool.copy()
            rng.shuffle(left)
            got: dict[int, int] = {}
            order = sorted(slots, key=lambda s: (len(s[1]) if s[1] is not None else 1 << 30,
                                                 rng.random()))
            ok = True
            for seat, allowed in order:
                choices = [j for j, c in enumerate(left) if allowed is None or c in allowed]
                if not choices:
                    ok = False
                    break
                j = choices[0]     # ``left`` is shuffled: the first allowed is uniform
                got[seat] = left.pop(j)
            if ok:
                return got, left
        # a constraint we could not meet (should not happen): drop the constraints
        left = pool.copy()
        rng.shuffle(left)
        return {seat: left.pop() for seat, _ in slots}, left

    def _draft_assign(self, rng: random.Random, what: str, pool: list[int]) -> dict[int, int]:
        """The hidden drafted cards of ``what``, drawn as the draft would have gone under
        :attr:`draft_policy`: each later picker takes a card of the pack passed on to it by
        the policy's chances; each earlier picker took the card that, added to the pack it
        passed on, the policy makes likeliest (a card not in the pack this seat received,
        drawn in proportion to that chance). A picker whose card the view shows keeps it."""
        chain = self.chains[what]
        assert chain is not None and self.draft_policy is not None
        passed, later, received, earlier = chain
        t, policy = self.table, self.draft_policy
        names = t.names
        free = {names[c] for c in pool}
        got: dict[int, str] = {}
        pack = list(passed)
        for seat, card in later:
            if card is None:
                options = [c for c in pack if c in free]
                if not options:
                    break
                chance = policy(what, tuple(pack))
                card = rng.choices(options, weights=[chance[c] for c in options])[0]
                got[seat] = card
                free.discard(card)
            if card not in pack:
                break
            pack.remove(card)
        back = list(received)
        for seat, card in earlier:
            if card is None:
                options = sorted(c for c in free if c not in received)
                if not options:
                    break
                weights = [policy(what, tuple(back + [c]))[c] for c in options]
                card = rng.choices(options, weights=weights)[0]
                got[seat] = card
                free.discard(card)
            back.append(card)
        return {seat: t.ids[c] for seat, c in got.items()}

    def sample(self, rng: random.Random) -> Game:
        """A new quiet :class:`~fuyuki.sbb.game.Game` consistent with the view."""
        v, n, me, t = self.view, self.n, self.me, self.table
        s = State(n, random.Random(rng.getrandbits(64)))
        s.parent, s.round, s.pool, s.phase = v["parent"], v["round"], v["pool"], v["phase"]
        s.lands = list(self.ilands)
        s.extra_land = self.iextra
        s.gems_on = [land["gems"] for land in v["lands"]]
        seats = v["seats"]
        s.gems = [p["gems"] for p in seats]
        if self.rules.coins:
            s.coins = [p.get("coins", 0) for p in seats]
        for what in ("master", "servant"):
            slots, pool = self.islots[what], self.ipools[what]
            drafted: dict[int, int] = {}
            if self.chains.get(what):
                drafted = self._draft_assign(rng, what, pool)
                slots = [x for x in slots if x[0] not in drafted]
                pool = pool.copy()
                for c in drafted.values():
                    pool.remove(c)
            got, deck = self._assign(rng, slots, pool)
            got.update(drafted)
            cards = [NO_CARD] * n
            for i, c in self.ifixed[what].items():
                cards[i] = c
            for i, c in got.items():
                cards[i] = c
            if what == "master":
                s.master, s.mdeck, s.mdisc = cards, deck, list(self.idiscards["master"])
            else:
                s.servant, s.sdeck, s.sdisc = cards, deck, list(self.idiscards["servant"])
        s.m_up = [p["master_up"] for p in seats]
        s.s_up = [p["servant_up"] for p in seats]
        dark = []
        for p in seats:
            i = p["seat"]
            if i == me:
                dark.append(bool(v["me"]["dark"]))
            elif p["master_up"]:
                dark.append(bool(p["dark"]))
            else:
                m = t.masters[s.master[i]]   # (None: no master)
                dark.append(bool(m is not None and m.hooks.starts_dark(self.rules)
                                 and not v["discards"]["master"]))
        s.dark = dark
        pool = self.iaction_pool.copy()
        rng.shuffle(pool)
        hands = []
        at = 0
        for i in range(n):
            if i == me:
                hands.append(list(self.ihand))
            else:
                k = self.hand_sizes[i]
                hands.append(pool[at:at + k])
                at += k
        s.hand = hands
        s.adeck = pool[at:]
        s.adisc = list(self.idiscards["action"])
        s.seen[me] = list(self.iseen)
        s.bids = list(self.itable_bids)
        s.luck_cards = self.iluck_cards
        rec = Record("sbb", 0, {"players": n, "edition": self.rules.edition,
                                "mode": self.rules.mode, "options": list(self.rules.options),
                                "sampled": True})
        g = Game(self.rules, s, rec, True)
        self._stack_and_ask(g)
        return g

    def _stack_and_ask(self, g: Game) -> None:
        """Rebuild the rule stack and the open decisions at the seat's decision, from the
        engine's own step lists (fuyuki.sbb.setup.deal_steps, fuyuki.sbb.rounds)."""
        s, t = g.s, self.table
        d = self.decision_json
        kind, me, n = d["kind"], self.me, self.n
        decision = Decision(kind, tuple(d["options"]), dict(d.get("info") or {}))
        todo: list[Op] = []
        asks = {me: decision}
        if kind in ("draft_master", "draft_servant"):
            what = kind.removeprefix("draft_")
            order = draft_order(what, tuple((self.parent0 + i) % n for i in range(n)))
            cont: Op = ("draft_picked", what, order, self._pick_index(what, me),
                        tuple(t.ids_of(decision.options)))
            steps = deal_steps(self.rules)
            todo = steps[steps.index(("draft_start", what)) + 1:]
        elif kind == "place_gem":
            cont = ("place_extra",)
        elif kind == "bid":
            cont = ("reveal",)
            for i in range(n):
                if i != me and s.hand[i]:
                    asks[i] = Decision("bid", tuple(t.names_of(sorted(set(s.hand[i])))))
        elif kind == "jewel":
            li = s.lands.index(t.ids[decision.info["land"]])
            colours = bid_colours(g)
            cont = ("battle_fight", li, colours[t.colour[s.lands[li]]])
            todo = battle_steps(g, colours, li + 1) + list(AFTER_BATTLES)
        elif kind == "swap":
            cont = ("swap_do", me)
            steps = event_steps(g)
            at = next(k for k, op in enumerate(steps) if op[0] == "swap_ask" and op[1] == me)
            for op in steps[:at]:
                event_done(g, op)
            todo = steps[at + 1:] + list(AFTER_EVENTS)
        else:   # pragma: no cover - guarded in __init__
            raise Unsupported(kind)
        s.stack = [BOTTOM, *reversed(todo)]
        s.asking, s.answers, s.cont = asks, {}, cont


def redeal_hidden(s: State, seat: int, rng: random.Random) -> None:
    """Redeal, in the state ``s`` (a clone the caller owns), every card ``seat`` cannot see:
    the other seats' hands with the action deck, and their face-down masters and servants
    with the master and servant decks. Sizes and face-up cards stay as they are.

    Cruder than :class:`Sampler` (it starts from the full state and ignores the drafts):
    the OpenSpiel adapter falls back on it in the middle of an effect, and the adapters'
    leak test uses it to build a game the seat cannot tell from the real one."""
    others = [q for q in range(s.n) if q != seat]
    pool = [c for q in others for c in s.hand[q]] + s.adeck
    rng.shuffle(pool)
    at = 0
    for q in others:
        k = len(s.hand[q])
        s.hand[q] = pool[at:at + k]
        at += k
    s.adeck = pool[at:]
    for cards, ups, deck in ((s.master, s.m_up, s.mdeck), (s.servant, s.s_up, s.sdeck)):
        slots = [q for q in others if not ups[q] and cards[q]]
        pool = [cards[q] for q in slots] + deck
        rng.shuffle(pool)
        for i, q in enumerate(slots):
            cards[q] = pool[i]
        deck[:] = pool[len(slots):]
