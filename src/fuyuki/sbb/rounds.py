"""A round (§4): gems, sealed bids, the reveal, events after the battles, the draw step and
the round's end. The battles themselves are in :mod:`fuyuki.sbb.battle`."""

from __future__ import annotations

from typing import Final

from fuyuki.core.protocol import Decision
from fuyuki.sbb.battle import battle_steps, bid_colours
from fuyuki.sbb.cards import NO_CARD, CardTable
from fuyuki.sbb.game import ROUND_START, Answers, Game, flip, remove_card
from fuyuki.sbb.state import Op, falses, insert_unique, zeros

#: a round's steps after its events (§4.2 discard, §4.4 draw, §4.5 end): the engine schedules
#: them at the reveal, and fuyuki.sbb.sampling rebuilds a game in the middle of a round with them
AFTER_EVENTS: Final[tuple[Op, ...]] = (("cleanup",), ("draw_step",), ("round_end",))
#: the data keys of the round's most frequent events (Game.log)
ROUND: Final[tuple[str, ...]] = ("round", "parent")
GEMS_PLACED: Final[tuple[str, ...]] = ("gems",)
EXTRA_GEM: Final[tuple[str, ...]] = ("seat", "land")
REVEAL: Final[tuple[str, ...]] = ("bids",)
#: the round's steps without arguments, made once (see fuyuki.sbb.game.ROUND_START)
PLACE_EXTRA: Final[Op] = ("place_extra",)
BIDS_OPEN: Final[Op] = ("bids_open",)
REVEAL_STEP: Final[Op] = ("reveal",)
#: a round's steps after its battles
AFTER_BATTLES: Final[tuple[Op, ...]] = (("events_resolve",),) + AFTER_EVENTS


def step_round_start(g: Game) -> None:
    s, r = g.s, g.rules
    if s.round >= r.round_cap:
        g.end_game("round_cap")
        return
    s.round += 1
    s.phase = "gems"
    s.extra_land = NO_CARD
    s.bids = zeros(s.n)   # NO_CARD: no bid
    s.lost_master = falses(s.n)
    s.lost_servant = falses(s.n)
    g.log(("round", None, ROUND, s.round, s.parent))
    if s.pool <= 0 and not r.unlimited_gems:
        g.end_game("pool_empty")
        return
    for li in range(len(s.lands)):
        if s.pool > 0 or r.unlimited_gems:
            s.gems_on[li] = s.gems_on[li] + 1
            s.pool -= 0 if r.unlimited_gems else 1  # 聖杯大戦争: the pool never runs out
    if g.logs("gems_placed"):
        g.log(("gems_placed", None, GEMS_PLACED, list(s.gems_on)))
    if s.pool > 0 or r.unlimited_gems:
        g.ask({s.parent: g.gem_decision()}, PLACE_EXTRA)
    else:
        g.then(BIDS_OPEN)


def step_place_extra(g: Game, answers: Answers) -> None:
    s = g.s
    land = answers[s.parent]
    s.extra_land = g.t.ids[land]
    li = s.lands.index(s.extra_land)
    s.gems_on[li] = s.gems_on[li] + 1
    s.pool -= 0 if g.rules.unlimited_gems else 1
    if g.logs("extra_gem"):
        g.log(("extra_gem", None, EXTRA_GEM, s.parent, land))
    g.then(BIDS_OPEN)


def step_bids_open(g: Game) -> None:
    s, t = g.s, g.t
    s.phase = "bid"
    asks = {seat: Decision("bid", bid_options(t, s.hand[seat]))
            for seat in range(s.n) if s.hand[seat]}
    if asks:
        g.ask(asks, REVEAL_STEP)
    else:
        g.then(("reveal", {}))


def bid_options(t: CardTable, hand: list[int]) -> tuple[str, ...]:
    """A bid's options: the ids of the hand's cards, each once, in order. A hand the engine
    dealt is in order already (Game.take_action_card): its ids as they are, unless a card
    repeats; one put in another way (a scenario, a sampled world) is sorted here."""
    for i in range(1, len(hand)):
        if hand[i] <= hand[i - 1]:
            return t.names_tuple(sorted_unique(hand))
    return t.names_tuple(hand)


def sorted_unique(cards: list[int]) -> list[int]:
    """``sorted(set(cards))`` for a hand (a few ints), by :func:`insert_unique`."""
    out: list[int] = []
    for c in cards:
        insert_unique(out, c)
    return out


def step_reveal(g: Game, answers: Answers) -> None:
    s, t = g.s, g.t
    s.phase = "reveal"
    for seat, name in answers.items():
        card = t.ids[name]
        remove_card(s.hand[seat], card)
        s.bids[seat] = card
    if g.logs("reveal"):
        g.log(("reveal", None, REVEAL, [t.names[c] if c else None for c in s.bids]))
    # every master and servant of a player in any battle turns face up, before any battle:
    # battle by battle in the order of their first bidders from the parent, each from the
    # parent to the left
    colours, colour = bid_colours(g), t.colour
    for first in s.order():
        c = colour[s.bids[first]]
        if c >= 0:
            seats = colours[c]
            if len(seats) >= 2 and seats[0] == first:
                for seat in seats:
                    flip(g, seat, "master")
                    flip(g, seat, "servant")
    steps = battle_steps(g, colours)
    steps.extend(AFTER_BATTLES)
    g.then_all(steps)


def step_events_resolve(g: Game) -> None:
    g.then_all(event_steps(g))


def event_steps(g: Game) -> list[Op]:
    """The steps that resolve the events bid this round, in the order they run: effects that
    happen at the same time resolve from the parent to the left (§5)."""
    s, event = g.s, g.t.event
    steps: list[Op] = []
    for seat in s.order():
        kind = event[s.bids[seat]]
        if kind:
            if kind == "swap":
                steps.append(("swap_ask", seat, tuple(s.seats_from(seat)[1:])))
            elif kind == "grail":
                steps.append(("grail", seat))
    return steps


def event_done(g: Game, op: Op) -> None:
    """What the event step ``op``, run earlier in the round, left in the state — for a game
    rebuilt in the middle of the events (fuyuki.sbb.sampling): 聖杯出現's flag."""
    if op[0] == "grail":
        g.s.grail = True


def step_swap_ask(g: Game, seat: int, targets: tuple[int, ...]) -> None:
    g.s.phase = "events"
    g.ask({seat: Decision("swap", targets)}, ("swap_do", seat))


def step_swap_do(g: Game, seat: int, answers: Answers) -> None:
    s = g.s
    other = answers[seat]
    s.servant[seat], s.servant[other] = s.servant[other], s.servant[seat]
    s.s_up[seat], s.s_up[other] = s.s_up[other], s.s_up[seat]
    g.emit("swap", seat=seat, target=other)
    g.emit("swap_cards", to=(seat, other), seat=seat, target=other,
           now_seat=g.t.names[s.servant[seat]], now_target=g.t.names[s.servant[other]])


def step_grail(g: Game, seat: int) -> None:
    g.s.grail = True
    g.emit("grail", seat=seat)


def step_cleanup(g: Game) -> None:
    s = g.s
    for seat in range(s.n):
        bid = s.bids[seat]
        if bid:
            s.adisc.append(bid)


def step_draw_step(g: Game) -> None:
    s, r, names = g.s, g.rules, g.t.names
    s.phase = "draw"
    seats: list[int] = []   # who drew, and (in cards) the id of the card each drew: made
    cards: list[list[str]] = []   # only when the draws are written
    shown = g.logs_draws()
    for seat in s.order():
        if s.over:
            break
        size = len(s.hand[seat])
        if r.draw_rule == "one":
            draw = True
        elif not s.m_up[seat]:
            draw = size <= r.facedown_draw_max
        else:
            draw = size < g.mana(seat)
        if draw:
            card = g.take_action_card(seat)
            if card and shown:
                seats.append(seat)
                cards.append([names[card]])
    g.log_draws(seats, cards)


def step_round_end(g: Game) -> None:
    s, r = g.s, g.rules
    if s.over:
        return
    if g.check_end():
        return
    if not r.coins:
        if s.grail:
            g.end_game("grail")
            return
    s.parent = (s.parent + 1) % s.n
    if g.pause_at_round_end:
        s.phase = "paused"
        return
    g.then(ROUND_START)
