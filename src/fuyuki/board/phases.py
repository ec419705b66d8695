"""The phases of a camp's turn (seed 003 「ターンの流れ」)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuyuki.board import combat
from fuyuki.board.game import DIRS, Flow

if TYPE_CHECKING:
    from fuyuki.board.game import Game
    from fuyuki.board.state import Char


def turn(g: "Game", seat: int) -> Flow:
    g.turn_seat = seat
    g.attacks = 0
    camp = g.camps[seat]
    g.emit("turn", seat=seat, round=g.round)
    draw_phase(g, seat)
    yield from plot_phase(g, seat)
    if camp.out:
        return
    yield from unit_phase(g, seat)
    yield from action_phase(g, seat)
    if not camp.out:
        yield from end_phase(g, seat)
    for ch in g.chars.values():
        ch.boost_at = ch.boost_df = 0


def draw_phase(g: "Game", seat: int) -> None:
    """Draw 1; your 陣地 [準備中] completes, destroying a completed 陣地 already in its area;
    your completed 陣地 heals your characters in it [R-6]; your 結界 hurts the others in it."""
    g.phase = "draw"
    camp = g.camps[seat]
    g._draw(seat, g.pack.rules["draw_per_turn"])
    t = camp.territory
    if t is not None and not t["done"]:
        for other in g.camps:
            ot = other.territory
            if other is not camp and ot is not None and ot["done"] and ot["pos"] == t["pos"]:
                other.territory = None
                g.emit("territory_destroyed", seat=other.seat, area=g.area(ot["pos"]))
        t["done"] = True
        g.emit("territory_done", seat=seat, area=g.area(t["pos"]))
    heal = g.pack.rules["territory_heal"]
    if t is not None and t["done"] and heal:
        for ch in g.live_chars(seat):
            if ch.pos == t["pos"] and ch.hp < ch.max_hp:
                g.heal(ch, heal)
    barrier_phase(g, seat)


def barrier_phase(g: "Game", seat: int) -> None:
    """[R-9] A camp's 結界 deals its ability's value to every character of the other camps
    (はぐれ too) in its area at that camp's draw phase."""
    b = g.camps[seat].barrier
    if b is None:
        return
    hit = [c for c in g.live_chars() if c.camp != seat and c.pos == b["pos"]]
    if not hit:
        return
    g.emit("barrier_hits", seat=seat, area=g.area(b["pos"]), chars=[c.id for c in hit])
    value = g.pack.abilities[b["ability"]].value
    for c in hit:
        g.damage(c, value, "barrier")
    g.check_end()


def plot_phase(g: "Game", seat: int) -> Flow:
    """Plot up to one card face down; at most CH cards stay plotted [R-5]."""
    g.phase = "plot"
    camp = g.camps[seat]

    def options() -> list[str]:
        if len(camp.plotted) >= camp.ch:
            return ["pass"]
        return ["pass"] + sorted(camp.hand)

    choice = yield from g._ask(seat, "plot", options, spells=True,
                               plotted=len(camp.plotted), limit=camp.ch)
    if choice != "pass":
        camp.hand.remove(choice)
        camp.plotted.append(choice)
        g.emit("plot", seat=seat, count=len(camp.plotted))
        g.emit("plotted", to=(seat,), seat=seat, type=g.card_type(choice))


def unit_phase(g: "Game", seat: int) -> Flow:
    """Each character with 単独行動 may start or stop acting alone."""
    g.phase = "unit"
    for ch in g.live_chars(seat):
        if not ch.skill("solo"):
            continue
        choice = yield from g._ask(seat, "unit", ["together", "alone"], spells=True,
                                   char=ch.id, alone=ch.alone)
        if (choice == "alone") != ch.alone:
            ch.alone = choice == "alone"
            g.emit("solo", char=ch.id, alone=ch.alone)


def groups(g: "Game", seat: int) -> dict[str, list["Char"]]:
    live = g.live_chars(seat)
    out: dict[str, list[Char]] = {}
    together = [c for c in live if not c.alone]
    if together:
        out["together"] = together
    for c in live:
        if c.alone:
            out[f"alone:{c.id}"] = [c]
    return out


def action_phase(g: "Game", seat: int, done: set[str] | None = None) -> Flow:
    """One action phase per group (the characters acting together; each one acting alone),
    in the order the camp chooses (``done``: the groups that have had theirs — a game resumed
    in mid-phase, :mod:`fuyuki.board.agents.belief`)."""
    g.phase = "action"
    done = set() if done is None else done
    camp = g.camps[seat]
    while not camp.out:
        left = {k: v for k, v in groups(g, seat).items() if k not in done}
        if not left:
            return
        key = yield from g._ask(seat, "group", sorted(left), spells=True)
        done.add(key)
        yield from group_phase(g, seat, key)


def members(g: "Game", seat: int, key: str) -> list["Char"]:
    if key == "together":
        return [c for c in g.live_chars(seat) if not c.alone]
    cid = key.split(":", 1)[1]
    c = g.chars[cid]
    return [c] if c.alive and c.camp == seat else []


def group_phase(g: "Game", seat: int, key: str, parts: list[str] | None = None) -> Flow:
    """The three parts (action / move or build / battle) in any order, each at most once
    (``parts``: the ones left, in a game resumed in mid-phase)."""
    parts = ["action", "move", "battle"] if parts is None else parts
    while parts and not g.camps[seat].out and members(g, seat, key):
        part = yield from g._ask(seat, "part", parts + ["end"], spells=True, group=key)
        if part == "end":
            return
        parts.remove(part)
        g.emit("part", seat=seat, group=key, part=part)
        if part == "action":
            yield from action_part(g, seat, key)
        elif part == "move":
            yield from move_part(g, seat, key)
        else:
            yield from battle_part(g, seat, key)


# ---------------------------------------------------------------- action part
def action_options(g: "Game", seat: int, key: str) -> list[str]:
    camp = g.camps[seat]
    ms = members(g, seat, key)
    opts = ["concentrate"]
    opts += [f"first_aid:{c.id}" for c in g.live_chars(seat) if c.hp < c.max_hp]
    for m in ms:
        for aid in m.abilities:
            a = g.pack.abilities[aid]
            if a.timing != "action":
                continue
            if len(ability_pool(g, seat, a.kind)) < a.cost:
                continue
            if a.effect == "barrier" or heal_targets(g, seat, [m], a.range):
                opts.append(f"ability:{aid}:{m.id}")
    for kid in sorted(camp.hand):
        card = g.card(kid)
        if card.timing != "action":
            continue
        if card.effect == "heal" and not heal_targets(g, seat, ms, card.range):
            continue
        if card.effect == "dash" and not dash_lands(g, ms):
            continue
        opts.append(f"card:{kid}")
    master = g.master(seat)
    if master in ms:
        for s in g.chars.values():
            if s.alive and s.role == "servant" and s.camp is None and s.pos == master.pos:
                opts.append(f"recontract:{s.id}")
    return opts + ["skip"]


def ability_pool(g: "Game", seat: int, kind: str) -> list[str]:
    """Where an ability's cost is paid from: a 魔術 from the hand, a 宝具 only from the
    plotted cards (seed), a skill from nothing (its cost is 0)."""
    camp = g.camps[seat]
    return camp.hand if kind == "magecraft" else camp.plotted if kind == "np" else []


def heal_targets(g: "Game", seat: int, users: list["Char"], rng_: int) -> list[str]:
    return [c.id for c in g.live_chars(seat) if c.hp < c.max_hp
            and any(g.dist(u.pos, c.pos) <= rng_ for u in users)]


def dash_lands(g: "Game", ms: list["Char"]) -> dict[str, dict[str, list[int]]]:
    """A ダッシュ's options, each one member stepping one way: ``{"<id>:<way>": {id: area}}``."""
    out = {}
    for c in ms:
        for d in DIRS:
            p = landing(g, c, d)
            if p is not None:
                out[f"{c.id}:{d}"] = {c.id: list(p)}
    return out


def action_part(g: "Game", seat: int, key: str) -> Flow:
    """One of 精神集中 / 応急手当 / 特殊能力 / 再契約."""
    choice = yield from g._ask(seat, "action", lambda: action_options(g, seat, key), group=key)
    kind, _, rest = choice.partition(":")
    g.emit("action", seat=seat, action=kind)
    if kind == "concentrate":
        g._draw(seat, 1)
    elif kind == "first_aid":
        g.heal(g.chars[rest], 1)
    elif kind == "ability":
        aid, cid = rest.split(":")
        a = g.pack.abilities[aid]
        user = g.chars[cid]
        if a.effect == "barrier":
            g.emit("ability", seat=seat, char=cid, ability=aid)
            yield from g._pay(seat, "hand" if a.kind == "magecraft" else "plotted", a.cost, aid)
            raise_barrier(g, seat, user, aid)
            return
        target = yield from g._ask(seat, "heal_target", heal_targets(g, seat, [user], a.range),
                                   ability=aid)
        g.emit("ability", seat=seat, char=cid, ability=aid)
        yield from g._pay(seat, "hand" if a.kind == "magecraft" else "plotted", a.cost, aid)
        g.heal(g.chars[target], a.value)
    elif kind == "card":
        card = g.card(rest)
        ms = members(g, seat, key)
        if card.effect == "heal":
            target = yield from g._ask(seat, "heal_target", heal_targets(g, seat, ms, card.range),
                                       card=card.id)
            g._discard(seat, rest, "play")
            g.heal(g.chars[target], card.value)
        elif card.effect == "draw":
            g._discard(seat, rest, "play")
            g._draw(seat, card.value)
        elif card.effect == "dash":
            lands = dash_lands(g, ms)
            pick = yield from g._ask(seat, "dash", list(lands), card=card.id, lands=lands)
            g._discard(seat, rest, "play")
            cid, d = pick.split(":")
            step(g, g.chars[cid], d)
    elif kind == "recontract":
        stray = g.chars[rest]
        a, b = g.roll("recontract", f"{rest}.1"), g.roll("recontract", f"{rest}.2")
        ok = a == b
        g.emit("recontract", seat=seat, char=rest, dice=[a, b], ok=ok)
        if ok:
            stray.camp = seat
            stray.alone = False


def raise_barrier(g: "Game", seat: int, user: "Char", aid: str) -> None:
    """[R-9] A 結界 where ``user`` stands; the camp's previous 結界 goes (one per camp)."""
    camp = g.camps[seat]
    destroy_barrier(g, seat)
    camp.barrier = {"pos": user.pos, "ability": aid}
    g.emit("barrier_built", seat=seat, char=user.id, area=g.area(user.pos))


def destroy_barrier(g: "Game", seat: int) -> None:
    camp = g.camps[seat]
    if camp.barrier is not None:
        g.emit("barrier_destroyed", seat=seat, area=g.area(camp.barrier["pos"]))
        camp.barrier = None


def landing(g: "Game", ch: "Char", d: str) -> tuple[int, int] | None:
    """The area ``ch`` steps to going ``d``; None where it stays: at the map's edge, or a
    門番 (山門: it never leaves its gate)."""
    dr, dc = DIRS[d]
    r, c = ch.pos[0] + dr, ch.pos[1] + dc
    if ch.skill("gatekeeper") or not (0 <= r < g.pack.height and 0 <= c < g.pack.width):
        return None
    return r, c


def step(g: "Game", ch: "Char", d: str) -> bool:
    pos = landing(g, ch, d)
    if pos is None:
        return False
    ch.pos = pos
    g.emit("moved", char=ch.id, pos=list(pos), area=g.area(pos))
    return True


# ---------------------------------------------------------------- move or build
def move_lands(g: "Game", seat: int, key: str) -> dict[str, dict[str, list[int]]]:
    """Each way the group may go, with where each member that moves lands:
    ``{"move:<way>": {id: area}}`` (a way none of them can go is no option)."""
    ms = members(g, seat, key)
    out = {}
    for d in DIRS:
        lands = {c.id: list(p) for c in ms if (p := landing(g, c, d)) is not None}
        if lands:
            out[f"move:{d}"] = lands
    return out


def move_part(g: "Game", seat: int, key: str) -> Flow:
    """Everyone in the group steps one area the same way (one that cannot, stays), or one
    member builds a 陣地 [準備中] where it stands. The decision's ``lands`` names where each
    member lands for every way (the pages show those areas)."""
    lands = move_lands(g, seat, key)
    opts = [*lands, *(f"build:{c.id}" for c in members(g, seat, key)), "skip"]
    choice = yield from g._ask(seat, "move", opts, group=key, lands=lands)
    kind, _, rest = choice.partition(":")
    if kind == "move":
        for c in members(g, seat, key):
            step(g, c, rest)
    elif kind == "build":
        camp = g.camps[seat]
        old = camp.territory
        if old is not None:
            g.emit("territory_destroyed", seat=seat, area=g.area(old["pos"]))
        destroy_barrier(g, seat)     # seed: 「既存の自陣営の陣地・結界があればこれを破壊」
        pos = g.chars[rest].pos
        camp.territory = {"pos": pos, "done": False}
        g.emit("territory_built", seat=seat, char=rest, area=g.area(pos))


# ---------------------------------------------------------------- battle
def battle_part(g: "Game", seat: int, key: str, fought: set[str] | None = None) -> Flow:
    """The master and one servant of the group may each start a 《戦闘》 (``fought``: those
    that have, in a game resumed in mid-part)."""
    fought = set() if fought is None else fought
    servant_used = any(g.chars[c].role == "servant" for c in fought)
    while not g.camps[seat].out:
        opts = []
        for c in members(g, seat, key):
            if c.id in fought or (c.role == "servant" and servant_used):
                continue
            if combat.targets_in_reach(g, c):
                opts.append(f"fight:{c.id}")
        if not opts:
            return
        choice = yield from g._ask(seat, "battle", opts + ["done"], group=key)
        if choice == "done":
            return
        cid = choice.split(":", 1)[1]
        fought.add(cid)
        if g.chars[cid].role == "servant":
            servant_used = True
        yield from combat.battle(g, g.chars[cid])


# ---------------------------------------------------------------- end
def end_phase(g: "Game", seat: int) -> Flow:
    """Discard down to the hand limit."""
    g.phase = "end"
    camp = g.camps[seat]
    while len(camp.hand) > camp.hand_limit:
        kid = yield from g._ask(seat, "discard", sorted(camp.hand),
                                over=len(camp.hand) - camp.hand_limit)
        g._discard(seat, kid, "hand_limit")
