"""Worlds consistent with one seat's view: the hard bot's belief about what it cannot see.

A seat sees the board (characters, 陣地, 結界, 令呪 left), its own hand and plotted cards, the
discard pile, and of every other camp only how many cards it holds and has plotted. A *world*
is a full game state that shows exactly that view: the cards the seat cannot see (the other
camps' hands and plotted cards, the deck) are the deck's cards minus the seat's own and the
discard pile, dealt at random — every deal that matches the counts is equally likely — and the
world's dice are fresh. :func:`sample_world` reads the view and nothing else.

The world is a :class:`~fuyuki.board.game.Game` whose turn procedure is resumed at the view's
open decision (:func:`resume`): the same decision with the same options, so an option can be
submitted in the world and played on.
"""

from __future__ import annotations

from typing import Any

from fuyuki.board import phases
from fuyuki.board.content import Pack
from fuyuki.board.game import Flow, Game, _GameOver


def world_config(view: dict[str, Any]) -> dict[str, Any]:
    """The config of a game with the view's camps in the view's seats."""
    config: dict[str, Any] = {"players": view["players"], "camps": [c["id"] for c in view["camps"]]}
    if view.get("pack"):
        config["pack"] = view["pack"]
    return config


def unseen_cards(view: dict[str, Any], pack: Pack) -> list[str]:
    """The card instances the seat cannot place: every card of the deck but its own hand and
    plotted cards and, type by type, the cards in the discard pile."""
    own = {h["id"] for h in view.get("hand", [])} | {p["id"] for p in view.get("plotted", [])}
    left = [f"k{i:02d}" for i in range(len(pack.deck)) if f"k{i:02d}" not in own]
    by_type: dict[str, list[str]] = {}
    for kid in left:
        by_type.setdefault(pack.deck[int(kid[1:])], []).append(kid)
    discarded = set()
    for ctype in view["discard"]:
        discarded.add(by_type[ctype].pop())
    return [k for k in left if k not in discarded]


def discard_ids(view: dict[str, Any], pack: Pack, unseen: list[str]) -> list[str]:
    """Card instances standing for the discard pile, in its order (the ids the seat cannot
    tell apart: any instance of the type not held by the seat or unseen)."""
    own = {h["id"] for h in view.get("hand", [])} | {p["id"] for p in view.get("plotted", [])}
    free: dict[str, list[str]] = {}
    for i in range(len(pack.deck)):
        kid = f"k{i:02d}"
        if kid not in own and kid not in unseen:
            free.setdefault(pack.deck[i], []).append(kid)
    return [free[ctype].pop() for ctype in view["discard"]]


def sample_world(view: dict[str, Any], seed: int, rng: Any) -> Game:
    """A game state consistent with ``view`` (a seat's): the unseen cards dealt with ``rng``,
    the dice of the stream of ``seed``; the turn procedure resumed at the view's decision."""
    g = Game(seed, world_config(view))
    pack = g.pack
    seat = view["seat"]
    for c in view["chars"]:
        ch = g.chars[c["id"]]
        ch.camp, ch.hp, ch.max_hp, ch.at, ch.df = c["camp"], c["hp"], c["max_hp"], c["at"], c["df"]
        ch.skills = dict(c["skills"])
        ch.pos = (c["pos"][0], c["pos"][1])
        ch.alive, ch.alone, ch.revives = c["alive"], c["alone"], c["revives"]
        ch.boost_at, ch.boost_df = c["boost_at"], c["boost_df"]
    unseen = unseen_cards(view, pack)
    g.discard = discard_ids(view, pack, unseen)
    rng.shuffle(unseen)
    g.out_order = []
    for c, camp in zip(view["camps"], g.camps):
        camp.ch, camp.hand_limit, camp.spells, camp.out = c["ch"], c["hand_limit"], c["spells"], c["out"]
        t, b = c["territory"], c["barrier"]
        camp.territory = None if t is None else {"pos": (t["pos"][0], t["pos"][1]), "done": t["done"]}
        camp.barrier = None if b is None else {"pos": (b["pos"][0], b["pos"][1]), "ability": b["ability"]}
        if camp.out:
            g.out_order.append(camp.seat)
        if camp.seat == seat:
            camp.hand = [h["id"] for h in view["hand"]]
            camp.plotted = [p["id"] for p in view["plotted"]]
        else:
            camp.hand = [unseen.pop() for _ in range(c["hand_count"])]
            camp.plotted = [unseen.pop() for _ in range(c["plotted_count"])]
    g.deck = unseen
    g.round, g.turn_seat, g.phase, g.instant = view["round"], view["turn"], view["phase"], view["instant"]
    g.events, g._seen, g._json, g.rolls, g.submissions = [], {}, {}, [], []
    g.result = None
    g._gen = resume(g, view)
    g._advance(None, first=True)
    return g


# ---------------------------------------------------------------- resuming the turn
def this_turn(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The view's events since the current turn began (as far as the view's recent events
    reach back)."""
    events = view["recent_events"]
    start = max((i for i, e in enumerate(events) if e["kind"] == "turn"), default=-1)
    return events[start + 1:]


def parts_done(view: dict[str, Any], group: str) -> list[str]:
    """The parts ``group`` has played this turn (its ``part`` events)."""
    return [e["data"]["part"] for e in this_turn(view)
            if e["kind"] == "part" and e["data"]["group"] == group]


def groups_done(view: dict[str, Any]) -> set[str]:
    return {e["data"]["group"] for e in this_turn(view) if e["kind"] == "part"}


def fought(view: dict[str, Any], group: str) -> list[str]:
    """The characters that started a 《戦闘》 in ``group``'s battle part so far."""
    events = this_turn(view)
    start = max((i for i, e in enumerate(events) if e["kind"] == "part"
                 and e["data"]["group"] == group and e["data"]["part"] == "battle"), default=-1)
    return [e["data"]["attacker"] for e in events[start + 1:] if e["kind"] == "battle"]


RESUMABLE = ("part", "move", "battle")


def resume(g: Game, view: dict[str, Any]) -> Flow:
    """The turn procedure from the view's decision on (one of :data:`RESUMABLE`, in the
    seat's own turn), then the following turns as the game plays them."""
    seat = view["seat"]
    d = view["decision"]
    key = d["info"].get("group", "together")
    try:
        if d["kind"] == "part":
            left = [o for o in d["options"] if o in ("action", "move", "battle")]
        else:
            done = parts_done(view, key)
            left = [p for p in ("action", "move", "battle") if p not in done]
            if d["kind"] == "move":
                yield from phases.move_part(g, seat, key)
            else:
                yield from phases.battle_part(g, seat, key, set(fought(view, key)))
        yield from phases.group_phase(g, seat, key, left)
        yield from phases.action_phase(g, seat, groups_done(view) | {key})
        if not g.camps[seat].out:
            yield from phases.end_phase(g, seat)
        for ch in g.chars.values():
            ch.boost_at = ch.boost_df = 0
    except _GameOver:
        return
    order = g.round_order(g.round)
    later = [s for s in order[order.index(seat) + 1:] if not g.camps[s].out]
    if later:
        g.turn_seat = later[0]
    else:
        g.round += 1
        g.turn_seat = next(s for s in g.round_order(g.round) if not g.camps[s].out)
    yield from g._run()
