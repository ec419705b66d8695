"""Setup (§3): lands, decks, the first parent, the master and servant drafts (or the v1.x
random deal), the opening hands."""

from __future__ import annotations

from typing import Final

from fuyuki.core.protocol import Decision
from fuyuki.core.rng import shuffle
from fuyuki.sbb.game import Answers, Game, has_card, only
from fuyuki.sbb.rules import Rules
from fuyuki.sbb.state import Op, zeros

#: the data keys of the setup's and the drafts' events, logged compactly (Game.log)
SETUP: Final[tuple[str, ...]] = ("players", "lands", "parent", "pool")
DRAFT_START: Final[tuple[str, ...]] = ("kind", "first", "size", "direction")
DRAFT_KEPT: Final[tuple[str, ...]] = ("kind", "seat", "card", "pack")
DRAFT_PASS: Final[tuple[str, ...]] = ("kind", "seat", "left")


def step_setup(g: Game) -> None:
    s, r, t = g.s, g.rules, g.t
    lands = t.land_ids.copy()
    if s.n == 3:
        removed = s.rng.choice(lands)
        lands.remove(removed)
        g.emit("land_removed", land=t.names[removed])
    s.lands = lands
    s.gems_on = zeros(len(lands))
    s.pool = r.gem_pool
    deck = t.action_deck(lands, r.events)
    s.luck_cards = tuple([c for c in deck if t.event[c] == "luck"])
    shuffle(s.rng, deck)
    s.adeck = deck
    s.mdeck = t.ids_in(r.masters)
    if r.set_aside:
        aside = t.ids_in(r.set_aside)
        s.mdeck = [m for m in s.mdeck if m not in aside]
    shuffle(s.rng, s.mdeck)
    s.sdeck = t.ids_in(r.servants)
    shuffle(s.rng, s.sdeck)
    s.parent = s.rng.randrange(s.n)
    if r.coins:
        s.coins = [1] * s.n
    g.log(("setup", None, SETUP, s.n, t.names_of(lands), s.parent, s.pool))
    g.then_all(deal_steps(r))


def deal_steps(r: Rules) -> list[Op]:
    """The setup's steps after the decks are made, to the first round: the drafts (or the
    v1.x deal), the set-aside masters back, the opening hands. (fuyuki.sbb.sampling rebuilds
    a game in the middle of a draft from them.)"""
    aside = [("return_set_aside",)] if r.set_aside else []
    if r.deal == "draft":
        return [("draft_start", "master"), *aside, ("draft_start", "servant"), ("deal",),
                ("round_start",)]
    return [("deal_random",), *aside, ("deal",), ("round_start",)]


def step_return_set_aside(g: Game) -> None:
    s = g.s
    s.mdeck.extend(g.t.ids_in(g.rules.set_aside))
    shuffle(s.rng, s.mdeck)
    g.emit("set_aside_returned", cards=list(g.rules.set_aside))


def step_deal_random(g: Game, seats: tuple[int, ...] | None = None) -> None:
    """v1.x: one master and one servant to each seat (``seats``: from the parent to the left,
    default all)."""
    s = g.s
    for seat in s.order() if seats is None else seats:
        s.master[seat] = g.draw_card("master")
        s.servant[seat] = g.draw_card("servant")
        g.emit("dealt", to=only(seat), seat=seat, master=g.t.names[s.master[seat]],
               servant=g.t.names[s.servant[seat]])
    start_dark_masters(g)


def start_dark_masters(g: Game) -> None:
    if g.rules.start_dark:
        s = g.s
        for seat in range(s.n):
            if g.ab(seat).starts_dark(g.rules):
                s.dark[seat] = True


def draft_order(kind: str, seats: tuple[int, ...]) -> tuple[int, ...]:
    """Who picks when, given the drafting ``seats`` from the parent to the left: the master
    pack starts with the first and goes left; the servant pack starts at the parent's right
    (the last of them) and goes right."""
    if kind == "master":
        return seats
    return seats[::-1]   # the last, then on to the right: every seat in reverse


def step_draft_start(g: Game, kind: str, seats: tuple[int, ...] | None = None) -> None:
    """A draft (§3) among ``seats`` (from the parent to the left; default all)."""
    s = g.s
    seats = s.order() if seats is None else seats
    if not seats:
        if kind == "master":
            start_dark_masters(g)
        return
    order = draft_order(kind, seats)
    deck = s.mdeck if kind == "master" else s.sdeck
    size = g.rules.draft_pack if s.n < 7 else max(g.rules.draft_pack, 7)
    pack = [deck.pop() for _ in range(min(size, len(deck)))]
    s.phase = "draft_master" if kind == "master" else "draft_servant"
    if g.logs("draft_start"):
        g.log(("draft_start", None, DRAFT_START, kind, order[0], len(pack),
               "left" if kind == "master" else "right"))
    g.then(("draft_pick", kind, order, 0, tuple(pack)))


def step_draft_pick(g: Game, kind: str, order: tuple[int, ...], i: int,
                    pack: tuple[int, ...]) -> None:
    s = g.s
    seat = order[i]
    seen = s.seen[seat]
    for c in pack:
        if not has_card(seen, c):
            seen.append(c)
    # (not an f-string: building the string costs more than the choice; the kinds are these two)
    decision = "draft_master" if kind == "master" else "draft_servant"
    g.ask({seat: Decision(decision, g.t.names_in(pack))}, ("draft_picked", kind, order, i, pack))


def step_draft_picked(g: Game, kind: str, order: tuple[int, ...], i: int, pack: tuple[int, ...],
                      answers: Answers) -> None:
    s, names = g.s, g.t.names
    seat = order[i]
    kept = answers[seat]
    card = g.t.ids[kept]
    if kind == "master":
        s.master[seat] = card
    else:
        s.servant[seat] = card
    if g.logs("draft_kept"):
        g.log(("draft_kept", only(seat), DRAFT_KEPT, kind, seat, kept, [names[c] for c in pack]))
    if g.logs("draft_pass"):
        g.log(("draft_pass", None, DRAFT_PASS, kind, seat, len(pack) - 1))
    rest = tuple(c for c in pack if c != card)
    if i + 1 < len(order) and rest:
        g.then(("draft_pick", kind, order, i + 1, rest))
    else:
        deck = s.mdeck if kind == "master" else s.sdeck
        deck.extend(rest)
        shuffle(s.rng, deck)
        if kind == "master":
            start_dark_masters(g)


def step_deal(g: Game) -> None:
    s, names = g.s, g.t.names
    drawn: dict[int, list[str]] = {}   # the ids of the cards each seat drew, by seat: made
    shown = g.logs_draws()             # only when the draws are written
    for _ in range(g.rules.opening_hand):
        for seat in s.order():
            card = g.take_action_card(seat)
            if card and shown:
                drawn.setdefault(seat, []).append(names[card])
    if shown:
        g.log_draws(list(drawn), list(drawn.values()))
