"""《戦闘》 and 《攻撃》 (seed 003), with 庇う, the defence order, 相殺 and 《刹那の時間》."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fuyuki.board.game import Flow

if TYPE_CHECKING:
    from fuyuki.board.game import Game
    from fuyuki.board.state import Char


@dataclass(frozen=True)
class Means:
    key: str            # normal | ability:<id> | card:<instance>
    kind: str           # normal | magecraft | np | card
    label: str          # public name: normal | ability id | card type
    range: int
    value: int
    dice: int
    attacks: int
    spread: bool
    cost: int
    pool: str | None    # hand | plotted | None
    add_at: bool
    magic: bool         # a 魔術 (対魔力 applies)


def means_list(g: "Game", ch: "Char") -> list[Means]:
    """The means of attack ``ch`` can pay for now."""
    out = [Means("normal", "normal", "normal", ch.skill("reach"), 0, 1, 1, False, 0, None, True,
                 False)]
    if ch.camp is None:
        return out
    camp = g.camps[ch.camp]
    for aid in ch.abilities:
        a = g.pack.abilities[aid]
        if a.timing != "attack":
            continue
        pool = "hand" if a.kind == "magecraft" else "plotted"
        if len(camp.hand if pool == "hand" else camp.plotted) < a.cost:
            continue
        out.append(Means(f"ability:{aid}", a.kind, aid, a.range, a.value, a.dice, a.attacks,
                         a.spread, a.cost, pool, False, a.kind == "magecraft"))
    if ch.skill("magus"):
        for kid in sorted(camp.hand):
            c = g.card(kid)
            if c.effect == "magic_attack":
                out.append(Means(f"card:{kid}", "card", c.id, c.range, c.value, c.dice, 1, False,
                                 0, None, False, True))
    return out


def enemies(g: "Game", ch: "Char") -> list["Char"]:
    return [c for c in g.chars.values() if c.alive and c is not ch
            and (c.camp is None or c.camp != ch.camp)]


def targets_in_reach(g: "Game", ch: "Char") -> list[str]:
    reach = max(m.range for m in means_list(g, ch))
    return [c.id for c in enemies(g, ch) if g.dist(ch.pos, c.pos) <= reach]


def defence_order(g: "Game", att: "Char", chars: list["Char"]) -> Flow:
    """By distance to the attacker, then turn order from the attacker; an owner orders its own
    tied characters."""
    def key(c: "Char") -> tuple[int, int]:
        return g.dist(att.pos, c.pos), g.turn_rank(att.camp, c.camp)

    ordered = sorted(dict.fromkeys(chars), key=lambda c: (key(c), list(g.chars).index(c.id)))
    out: list[Char] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and key(ordered[j]) == key(ordered[i]):
            j += 1
        tie = ordered[i:j]
        owner = tie[0].camp
        while len(tie) > 1 and owner is not None:
            first = yield from g._ask(owner, "order", [c.id for c in tie], attacker=att.id)
            pick = g.chars[first]
            out.append(pick)
            tie.remove(pick)
        out.extend(tie)
        i = j
    return out


def battle(g: "Game", att: "Char") -> Flow:
    """《戦闘》: choose targets, 先制 check, then the attacker's 《攻撃》."""
    seat = att.camp
    assert seat is not None
    means = means_list(g, att)
    reach = max(m.range for m in means)
    most = max((len(g.chars) if m.spread else m.attacks) for m in means)

    def candidates(chosen: list[str]) -> list[str]:
        return [c.id for c in enemies(g, att)
                if g.dist(att.pos, c.pos) <= reach and c.id not in chosen]

    targets: list[str] = []
    first = yield from g._ask(seat, "target", candidates([]), attacker=att.id)
    targets.append(first)
    while len(targets) < most and candidates(targets):
        more = yield from g._ask(seat, "target", candidates(targets) + ["done"],
                                 attacker=att.id, chosen=list(targets))
        if more == "done":
            break
        targets.append(more)
    g.emit("battle", attacker=att.id, targets=list(targets))

    lv = att.skill("preempt")
    faster = [g.chars[t] for t in targets
              if g.chars[t].skill("preempt") > lv and g.chars[t].camp is not None]
    if faster:
        order = yield from defence_order(g, att, faster)
        for t in order:
            if not att.alive or not t.alive or t.camp is None:
                continue
            if not any(g.dist(t.pos, att.pos) <= m.range for m in means_list(g, t)):
                continue
            c = yield from g._ask(t.camp, "preempt", ["counter", "pass"], char=t.id,
                                  attacker=att.id)
            if c == "counter":
                g.emit("preempt", char=t.id, attacker=att.id)
                yield from attack(g, t, [att])
    if not att.alive or att.camp != seat:
        g.emit("battle_cancelled", attacker=att.id)
        return
    live = [g.chars[t] for t in targets if g.chars[t].alive and g.chars[t].camp != seat]
    if not live:
        g.emit("battle_cancelled", attacker=att.id)
        return
    yield from attack(g, att, live)


def defence_options(g: "Game", d: "Char", att: "Char", m: Means, offset_taken: bool) -> list[str]:
    camp = g.camps[d.camp]  # type: ignore[index]
    opts = ["guard", "evade"]
    for kid in sorted(camp.hand):
        e = g.card(kid).effect
        if e == "df_bonus":
            opts.append(f"guard+{kid}")
        elif e == "evade_bonus":
            opts.append(f"evade+{kid}")
    if m.kind == "np" and not offset_taken:
        for aid in d.abilities:
            a = g.pack.abilities[aid]
            if (a.kind == "np" and a.effect == "attack" and a.range >= g.dist(d.pos, att.pos)
                    and len(camp.plotted) >= a.cost):
                opts.append(f"offset:{aid}")
    return opts


def die_name(what: str, j: int, of: int) -> str:
    """The last part of a roll label: ``attack1``; ``attack1.2`` for the second of several."""
    return what if of == 1 else f"{what}.{j + 1}"


def territory_df(g: "Game", d: "Char") -> int:
    if d.camp is None:
        return 0
    t = g.camps[d.camp].territory
    if t is not None and t["done"] and t["pos"] == d.pos:
        return g.pack.rules["territory_df"] + d.skill("territory")
    return 0


def attack(g: "Game", att: "Char", targets: list["Char"]) -> Flow:
    """《攻撃》: means and costs; 庇う; defences in order, paid; 令呪 window; 《刹那の時間》:
    dice and damage one attack at a time."""
    seat = att.camp
    assert seat is not None

    def usable() -> list[Means]:
        return [m for m in means_list(g, att)
                if any(t.alive and g.dist(att.pos, t.pos) <= m.range for t in targets)]

    key = yield from g._ask(seat, "means", lambda: [m.key for m in usable()] + ["cancel"],
                            attacker=att.id, targets=[t.id for t in targets])
    if key == "cancel":
        g.emit("attack_cancelled", attacker=att.id)
        return
    g.attacks += 1
    label = f"a{g.attacks}"          # roll labels: r<round>/t<turn>/a<n>/<character>/<die>
    m = next(x for x in usable() if x.key == key)
    in_range = [t for t in targets if t.alive and g.dist(att.pos, t.pos) <= m.range]
    instances: list[list[Char]] = []
    if m.spread:
        instances = [list(in_range) for _ in range(m.attacks)]
    else:
        for i in range(m.attacks):
            tid = yield from g._ask(seat, "aim", [t.id for t in in_range], attacker=att.id,
                                    means=m.label, attack=i + 1, of=m.attacks)
            instances.append([g.chars[tid]])
    if m.kind == "card":
        g._discard(seat, m.key.split(":", 1)[1], "magic")
    elif m.cost:
        yield from g._pay(seat, m.pool or "hand", m.cost, m.label)
    bonus = 0
    camp = g.camps[seat]
    boosts = [k for k in sorted(camp.hand) if g.card(k).effect == "attack_bonus"]
    if boosts:
        b = yield from g._ask(seat, "boost", boosts + ["none"], attacker=att.id, means=m.label)
        if b != "none":
            bonus = g.card(b).value
            g._discard(seat, b, "attack_bonus")
    g.emit("attack", attacker=att.id, means=m.label, kind=m.kind,
           targets=[[d.id for d in inst] for inst in instances], bonus=bonus)

    # 庇う: an ally in the same area, acting together, takes the attack instead
    for inst in instances:
        for i, d in enumerate(list(inst)):
            if d.camp is None or not d.alive:
                continue
            covers = [c for c in g.live_chars(d.camp) if c is not d and c is not att
                      and c.pos == d.pos and c not in inst
                      and (c.skill("cover") or (not c.alone and not d.alone))]
            if not covers:
                continue
            ch = yield from g._ask(d.camp, "cover", ["none"] + [f"cover:{c.id}" for c in covers],
                                   char=d.id, attacker=att.id, means=m.label)
            if ch != "none":
                inst[i] = g.chars[ch.split(":", 1)[1]]
                g.emit("cover", char=inst[i].id, covered=d.id)

    # defences, chosen in public, in the defence order, costs paid at once
    plans: list[list[tuple[Char, dict[str, Any]]]] = []
    for idx, inst in enumerate(instances):
        order = yield from defence_order(g, att, inst)
        offset_taken = False
        plan: list[tuple[Char, dict[str, Any]]] = []
        for d in order:
            if d.camp is None:
                spec: dict[str, Any] = {"kind": "guard", "bonus": 0}
            else:
                c = yield from g._ask(
                    d.camp, "defence",
                    lambda d=d, offset_taken=offset_taken: defence_options(g, d, att, m,
                                                                           offset_taken),
                    char=d.id, attacker=att.id, means=m.label, means_kind=m.kind,
                    value=m.value, dice=m.dice,
                    at=(att.at + att.boost_at) if m.add_at else 0, bonus=bonus,
                    attack=idx + 1, of=len(instances))
                if c.startswith("offset:"):
                    aid = c.split(":", 1)[1]
                    spec = {"kind": "offset", "ability": aid, "bonus": 0}
                    yield from g._pay(d.camp, "plotted", g.pack.abilities[aid].cost, aid)
                    offset_taken = True
                else:
                    kind, _, kid = c.partition("+")
                    spec = {"kind": kind, "bonus": 0}
                    if kid:
                        spec["bonus"] = g.card(kid).value
                        g._discard(d.camp, kid, "defence")
            g.emit("defence", char=d.id, attack=idx + 1, choice=spec["kind"],
                   ability=spec.get("ability"), bonus=spec["bonus"])
            plan.append((d, spec))
        plans.append(plan)

    # 令呪 may still be used, by the camps involved, in turn order from the attacker
    involved = sorted({seat, *(d.camp for p in plans for d, _ in p if d.camp is not None)},
                      key=lambda s: g.turn_rank(seat, s))
    for s in involved:
        if not g.camps[s].out:
            yield from g._ask(s, "spell_window", ["pass"], spells=True, attacker=att.id,
                              means=m.label, means_kind=m.kind, value=m.value, dice=m.dice,
                              add_at=m.add_at, bonus=bonus,
                              defences=[[d.id, spec["kind"]] for p in plans for d, spec in p])

    # 《刹那の時間》
    g.instant = True
    g.emit("instant_begin")
    everyone = list(dict.fromkeys(d for p in plans for d, _ in p))
    R = g.pack.rules
    for idx, plan in enumerate(plans):
        if not att.alive or not any(d.alive for d in everyone):
            break
        dice = [g.roll(label, att.id, die_name(f"attack{idx + 1}", j, m.dice))
                for j in range(m.dice)]
        at = (att.at + att.boost_at) if m.add_at else 0
        atk = m.value + sum(dice) + at + bonus
        g.emit("attack_roll", attacker=att.id, means=m.label, attack=idx + 1, dice=dice,
               base=m.value, at=at, bonus=bonus, value=atk)
        for d, spec in plan:
            if not d.alive:
                continue
            if g.dist(att.pos, d.pos) > m.range:
                g.emit("out_of_reach", char=d.id)
                continue
            back = 0
            info: dict[str, Any] = {}
            if spec["kind"] == "guard":
                df = d.df + d.boost_df + spec["bonus"] + territory_df(g, d)
                dmg = max(0, atk - df)
                info = {"df": df}
            elif spec["kind"] == "evade":
                r = g.roll(label, d.id, f"evade{idx + 1}")
                total = r + d.skill("evade") + spec["bonus"]
                ok = total >= R["evade_target"]
                dmg = 0 if ok else atk
                info = {"die": r, "total": total, "ok": ok}
            else:
                a = g.pack.abilities[spec["ability"]]
                rolls = [g.roll(label, d.id, die_name(f"offset{idx + 1}", j, a.dice))
                         for j in range(a.dice)]
                v = a.value + sum(rolls)
                dmg = max(0, atk - v)
                back = max(0, v - atk)
                info = {"dice": rolls, "value": v, "back": back}
            if m.magic and dmg > 0 and d.skill("magic_resist"):
                info["resist"] = d.skill("magic_resist")
                dmg = max(0, dmg - d.skill("magic_resist"))
            g.emit("hit", char=d.id, attack=idx + 1, choice=spec["kind"], attack_value=atk,
                   damage=dmg, **info)
            g.damage(d, dmg, "attack")
            if spec["kind"] == "offset":
                atk = max(0, atk - info["value"])
                g.damage(att, back, "offset")
                if not att.alive:
                    break
    g.instant = False
    g.emit("instant_end")
    g.check_end()
