"""A battle, exactly as seed 002's steps 1–7.

The battle is a generator: it *yields* the open decisions (``{seat: Decision}``) and receives
the answers (``{seat: choice}``); it rolls through a ``dice`` object (``roll(label, faces)``) and
reports everything through ``emit(Event)``. It does no I/O. :class:`fuyuki.rpg.flow.Flow` turns
it into the engine protocol (``pending`` / ``submit`` / ``view``); the war runs battles with
``yield from``.

Sides are 0 ("A") and 1 ("B"). ``attacker`` is the side that attacked (the other one is the
defender), or None. The rate R is computed for the side with initiative.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable, Generator

from fuyuki.core.events import Event
from fuyuki.core.protocol import Decision
from fuyuki.rpg.roster import Ability, Character
from fuyuki.rpg.rules import Rules
from fuyuki.rpg.state import PairState

Asks = dict[int, Decision]
Answers = dict[int, Any]
Gen = Generator[Asks, Answers, Any]


def ask(seat: int, kind: str, options: list[Any], **info: Any) -> Gen:
    """Ask one seat; ``choice = yield from ask(...)``."""
    answers = yield {seat: Decision(kind, tuple(options), info)}
    return answers[seat]


@dataclass
class Side:
    pairs: list[PairState]

    @property
    def seat(self) -> int:
        return self.pairs[0].seat

    @property
    def name(self) -> str:
        return "・".join(p.label for p in self.pairs)

    def characters(self) -> list[tuple[Character, PairState]]:
        out = []
        for p in self.pairs:
            out.append((p.servant, p))
            out.append((p.master, p))
        return out


@dataclass
class Fighter:
    char: Character
    ps: PairState
    role: str                      # "main", "sub", "other"
    boosts: int = 0                # 令呪 +10 taken

    @property
    def servant(self) -> bool:
        return self.char.servant


@dataclass
class BattleOutcome:
    winner: int
    loser: int
    initiative: int
    rate: int
    roll: int
    advantages: tuple[int, int]
    retreated: list[str] = field(default_factory=list)
    out: list[str] = field(default_factory=list)


def snipe_allowed(sniper: Character, target: Side) -> tuple[bool, int, int]:
    """Sniping needs 千里眼 on the sniper and no concealment of rank >= it on the target."""
    eye = sniper.rank_of("clairvoyance")
    hide = max((c.rank_of("concealment") for c, _ in target.characters()), default=0)
    return eye > 0 and hide < eye, eye, hide


class Battle:
    """One battle. Create it, then drive :meth:`run` (a generator)."""

    def __init__(self, rules: Rules, dice: Any, emit: Callable[[Event], None],
                 sides: tuple[Side, Side], *, label: str = "b", attacker: int | None = None,
                 surprise: bool = False, snipe: bool = False,
                 lineups: tuple[str | None, str | None] = (None, None)):
        self.rules, self.dice, self.emit = rules, dice, emit
        self.sides = sides
        self.label = label
        self.attacker = attacker
        self.surprise = surprise
        self.snipe = snipe
        self.lineups = lineups
        self.fighters: list[list[Fighter]] = [[], []]
        self.used: list[list[tuple[Fighter, Ability]]] = [[], []]
        self.bonus: list[list[tuple[str, str, int]]] = [[], []]   # (kind, name, value)
        self.halving_over = False

    # -- helpers ------------------------------------------------------------------------
    def roll(self, name: str, faces: int) -> int:
        lab = f"{self.label}/{name}"
        value = self.dice.roll(lab, faces)
        self.emit(Event("roll", {"label": lab, "faces": faces, "value": value}))
        return value

    def ev(self, _kind: str, **data: Any) -> None:
        self.emit(Event(_kind, data))

    def fighter_stats(self, f: Fighter, side: int, extra: int = 0,
                      mana: int | None = None) -> tuple[list[tuple[str, list[int]]], list[int]]:
        """The steps of one character's stats [R-16]: base → shortage → 令呪 → non-servant →
        halve; never below 0. ``extra``: 令呪 +10 not taken yet, counted as if taken; ``mana``:
        the servant's mana as if it were that."""
        r = self.rules
        order = r.stat_order
        vals = [f.char.stats[s] for s in order]
        steps: list[tuple[str, list[int]]] = [("base", list(vals))]
        if f.servant:
            pen = r.shortage_penalty(f.ps.mana if mana is None else mana)
            if pen:
                vals = [max(0, v - pen) for v in vals]
                steps.append(("shortage", list(vals)))
        if f.boosts + extra:
            vals = [v + r.seals["stat_boost"] * (f.boosts + extra) for v in vals]
            steps.append(("seal", list(vals)))
        # 「相手陣営にサーヴァントが存在する場合」: every servant of the other side taking part
        # counts, in メイン, サブ or その他 (an ally joining with its servant as その他 too)
        opp_servant = any(o.servant for o in self.fighters[1 - side])
        if not f.servant and opp_servant:
            vals = [max(0, v - r.battle["nonservant_penalty"]) for v in vals]
            steps.append(("nonservant", list(vals)))
        if f.role == "sub" and not self.halving_over:
            vals = [r.halve(v) for v in vals]
            steps.append(("half", list(vals)))
        return steps, vals

    def totals(self, side: int, boost: Fighter | None = None,
               mana: tuple[Fighter, int] | None = None) -> list[int]:
        """The side's totals; with ``boost``, as if that fighter took one more 令呪 +10; with
        ``mana`` (a fighter, its mana), as if that servant had that mana."""
        tot = [0] * 6
        for f in self.fighters[side]:
            if f.role in ("main", "sub"):
                _, vals = self.fighter_stats(f, side, 1 if f is boost else 0,
                                             mana[1] if mana and mana[0] is f else None)
                tot = [a + b for a, b in zip(tot, vals)]
        return tot

    def emit_totals(self, side: int) -> None:
        rows = []
        for f in self.fighters[side]:
            if f.role in ("main", "sub"):
                steps, vals = self.fighter_stats(f, side)
                rows.append({"name": f.char.name, "role": f.role, "steps": steps})
        self.ev("totals", side=side, rows=rows, totals=self.totals(side),
                halved=not self.halving_over)

    def participants(self, side: int) -> list[Fighter]:
        return self.fighters[side]

    def stat_index(self, stat: str) -> int:
        return self.rules.stat_order.index(stat)

    def public_info(self) -> dict[str, Any]:
        return {"sides": [s.name for s in self.sides],
                "totals": [self.totals(0), self.totals(1)] if self.fighters[0] else None,
                "stats": list(self.rules.stat_order)}

    # -- the steps ------------------------------------------------------------------------
    def run(self) -> Gen:
        r = self.rules
        self.ev("battle_start", label=self.label, sides=[s.name for s in self.sides],
                attacker=self.attacker, snipe=self.snipe, surprise=self.surprise)
        yield from self.step_lineup()
        yield from self.step_prepare()
        base = [self.base_rate(0), self.base_rate(1)]
        for side in (0, 1):
            self.emit_totals(side)
        init = yield from self.step_initiative()
        other = 1 - init
        results = yield from self.step_compare(init)
        yield from self.step_declare(init)
        # step 5: the rate, for the initiative side
        adv = sum(1 for c in results if c["res"][init] == "adv")
        dis = sum(1 for c in results if c["res"][init] == "dis")
        draw = 3 - adv - dis
        table = r.table_rate(adv, draw, dis)
        diffs = [(c["tot"][init] - c["tot"][other]) for c in results]
        factor = r.battle["diff_percent_per_point"]
        diff = sum(diffs) * factor
        bonus_own = sum(v for _, _, v in self.bonus[init])
        bonus_other = sum(v for _, _, v in self.bonus[other])
        raw = base[init] - base[other] + table + diff + bonus_own - bonus_other
        rate = max(r.battle["clamp_min"], min(r.battle["clamp_max"], raw))
        self.ev("rate", side=init, adv=adv, draw=draw, dis=dis, table=table, diffs=diffs,
                factor=factor, diff=diff, base_own=base[init], base_other=base[other],
                bonus_own=bonus_own, bonus_other=bonus_other, raw=raw, rate=rate,
                bonuses=[[list(b) for b in self.bonus[0]], [list(b) for b in self.bonus[1]]])
        value = self.roll("win", r.battle["win_die"])
        success = value <= rate
        winner = init if success else other
        loser = 1 - winner
        self.ev("win", side=init, rate=rate, value=value, success=success, winner=winner,
                faces=r.battle["win_die"])
        for p in self.sides[winner].pairs:
            p.wins += 1
        for p in self.sides[loser].pairs:
            p.losses += 1
        self.step_mana()
        advs = (sum(1 for c in results if c["res"][0] == "adv"),
                sum(1 for c in results if c["res"][1] == "adv"))
        outcome = BattleOutcome(winner, loser, init, rate, value, advs)
        yield from self.step_retreat(loser, advs[loser], outcome)
        self.ev("battle_end", winner=winner, out=outcome.out, retreated=outcome.retreated)
        return outcome

    # step 1
    def step_lineup(self) -> Gen:
        asks: Asks = {}
        options: list[list[str]] = [[], []]
        names: dict[str, str] = {}
        for i, side in enumerate(self.sides):
            chars = side.characters()
            for c, _ in chars:
                names[c.id] = c.name
            if self.snipe:
                if i == self.attacker:
                    opts = [f"-|{c.id}" for c, _ in chars
                            if c.servant and snipe_allowed(c, self.sides[1 - i])[0]]
                else:
                    opts = [f"-|{c.id}" for c, _ in chars]
            else:
                opts = [f"{a.id}|{b.id}" for a, _ in chars for b, _ in chars if a.id != b.id]
            options[i] = opts
        for i in (0, 1):
            given = self.lineups[i]
            if given is None:
                asks[self.sides[i].seat] = Decision("lineup", tuple(options[i]),
                                                    {"side": i, "names": names, "snipe": self.snipe})
        answers: Answers = (yield asks) if asks else {}
        for i, side in enumerate(self.sides):
            choice = self.lineups[i] if self.lineups[i] is not None else answers[side.seat]
            if choice not in options[i]:
                from fuyuki.core.errors import IllegalAction
                raise IllegalAction("bad_lineup", f"lineup {choice!r} is not one of {options[i]}")
            main_id, sub_id = choice.split("|")
            for c, ps in side.characters():
                role = "main" if c.id == main_id else "sub" if c.id == sub_id else "other"
                self.fighters[i].append(Fighter(c, ps, role))
            self.fighters[i].sort(key=lambda f: ("main", "sub", "other").index(f.role))
            self.ev("lineup", side=i,
                    main=next((f.char.name for f in self.fighters[i] if f.role == "main"), None),
                    sub=next(f.char.name for f in self.fighters[i] if f.role == "sub"),
                    others=[f.char.name for f in self.fighters[i] if f.role == "other"])

    # step 2: abilities that apply now, and 令呪 used now (+10 stats, +100 mana)
    def step_prepare(self) -> Gen:
        r = self.rules
        first = self.attacker if self.attacker is not None else 0
        turn, passes = first, 0
        while passes < 2:
            side = self.sides[turn]
            opts: list[str] = ["pass"]
            for f in self.fighters[turn]:
                if f.servant and f.ps.seals > 0:
                    if f.role in ("main", "sub"):   # +10 as often as 令呪 last (no limit)
                        opts.append(f"boost:{f.char.id}")
                    opts.append(f"mana:{f.char.id}")
            if len(opts) == 1:
                choice = "pass"
            else:
                choice = yield from ask(side.seat, "prepare", opts, side=turn,
                                        names={f.char.id: f.char.name for f in self.fighters[turn]},
                                        **self.public_info(), **self.prepare_info(turn, opts))
            if choice == "pass":
                passes += 1
            else:
                passes = 0
                kind, cid = choice.split(":", 1)
                f = next(x for x in self.fighters[turn] if x.char.id == cid)
                f.ps.seals -= 1
                if kind == "boost":
                    f.boosts += 1
                    self.ev("seal_boost", side=turn, who=f.char.name, value=r.seals["stat_boost"],
                            seals=f.ps.seals)
                else:
                    before = f.ps.mana
                    f.ps.gain(r.seals["mana"], r)
                    self.ev("seal_mana", side=turn, who=f.char.name, before=before,
                            after=f.ps.mana, seals=f.ps.seals)
            turn = 1 - turn

    def prepare_info(self, side: int, options: list[str]) -> dict[str, Any]:
        """What the 令呪 of step 2 are weighed against, computed without a roll or an event:
        each side's 基礎勝率 (``base``: it does not change in step 2, so it is the one step 5
        uses), and per option what it would change (``effects``: the +10 or the +100, the
        servant's mana after it, the side's totals after it — a servant out of a mana shortage
        loses its penalty); ``seal_rate``: a 令呪's win rate in step 5 (main, sub)."""
        r = self.rules
        effects: dict[str, dict[str, Any]] = {}
        for opt in options:
            kind, _, cid = opt.partition(":")
            f = next((x for x in self.fighters[side] if x.char.id == cid), None)
            if f is None:
                continue
            if kind == "boost":
                effects[opt] = {"value": r.seals["stat_boost"],
                                "totals": self.totals(side, boost=f)}
            elif kind == "mana":
                probe = copy.copy(f.ps)          # the gain's own rule, on a copy
                probe.gain(r.seals["mana"], r)
                effects[opt] = {"value": r.seals["mana"], "mana": [f.ps.mana, probe.mana],
                                "totals": self.totals(side, mana=(f, probe.mana))}
        return {"base": [self.base_parts(0)[0], self.base_parts(1)[0]], "effects": effects,
                "seal_rate": [r.seals["rate_main"], r.seals["rate_sub"]]}

    def base_parts(self, side: int) -> tuple[int, list[list[Any]], list[tuple[Fighter, Ability]]]:
        """The side's 基礎勝率: its total, its parts ``[who, ability, value]`` and the abilities
        it uses."""
        total, parts, used = 0, [], []
        for f in self.fighters[side]:
            for a in f.char.abilities:
                v = a.value_of("base_rate")
                if v is not None:
                    total += v
                    parts.append([f.char.name, a.name, v])
                    used.append((f, a))
        return total, parts, used

    def base_rate(self, side: int) -> int:
        total, parts, used = self.base_parts(side)
        self.used[side] += used
        self.ev("base_rate", side=side, value=total, parts=parts)
        return total

    # step 3
    def step_initiative(self) -> Gen:
        agi = self.stat_index("agi")
        tots = [self.totals(0)[agi], self.totals(1)[agi]]
        exc = []
        for i in (0, 1):
            why = None
            for f in self.fighters[i]:
                for a in f.char.abilities:
                    if a.value_of("concealment") is not None:
                        why = why or a.name
            if self.surprise and self.attacker == i:
                why = why or "surprise"
            exc.append(why)
        die = None
        if bool(exc[0]) != bool(exc[1]):
            init, reason = (0 if exc[0] else 1), "exception"
        elif tots[0] != tots[1]:
            init, reason = (0 if tots[0] > tots[1] else 1), "agi"
        elif self.attacker is not None:
            init, reason = 1 - self.attacker, "defender"
        else:
            die = self.roll("initiative", self.rules.battle["tie_without_defender_die"])
            init, reason = (0 if die == 1 else 1), "die"
        self.ev("initiative", agi=tots, exceptions=exc, side=init, reason=reason, die=die)
        if False:
            yield {}
        return init

    # step 4
    def compare(self, n: int, by: Any, stat: str, die: int | None = None) -> dict[str, Any]:
        i = self.stat_index(stat)
        tot = (self.totals(0)[i], self.totals(1)[i])
        if tot[0] > tot[1]:
            res = ("adv", "dis")
        elif tot[0] < tot[1]:
            res = ("dis", "adv")
        else:
            res = ("draw", "draw")
        c = {"n": n, "by": by, "stat": stat, "tot": tot, "res": res, "die": die,
             "halved": self.snipe and not self.halving_over}
        self.ev("compare", n=n, by=by, stat=stat, a=tot[0], b=tot[1], res=list(res), die=die,
                halved=c["halved"], snipe=self.snipe)
        return c

    def after_compare(self, c: dict[str, Any]) -> None:
        """Sniping: once the target (the defender) wins a comparison, halving ends."""
        if self.snipe and not self.halving_over and c["res"][1 - self.attacker] == "adv":
            self.halving_over = True
            self.ev("halving_over", side=1 - self.attacker)
            for side in (0, 1):
                self.emit_totals(side)

    def step_compare(self, init: int) -> Gen:
        other = 1 - init
        order = list(self.rules.stat_order)
        stat1 = yield from ask(self.sides[init].seat, "pick_stat", order, side=init, n=1,
                               **self.public_info())
        c1 = self.compare(1, init, stat1)
        self.after_compare(c1)
        rest = [s for s in order if s != stat1]
        stat2 = yield from ask(self.sides[other].seat, "pick_stat", rest, side=other, n=2,
                               **self.public_info())
        c2 = self.compare(2, other, stat2)
        self.after_compare(c2)
        four = [s for s in order if s not in (stat1, stat2)]
        halving_before = self.halving_over
        draws = 0
        die = self.roll("random_stat", self.rules.battle["random_stat_die"])
        c3 = self.compare(3, "random", four[die - 1], die)
        # 令呪: re-draw the random stat; the side that lost it first, then alternately
        turn = 1 if c3["res"][0] == "adv" else 0 if c3["res"][1] == "adv" else other
        passes = 0
        while passes < 2:
            pairs = [p for p in self.sides[turn].pairs if p.seals > 0]
            if not pairs:
                passes += 1
                turn = 1 - turn
                continue
            opts = ["pass"] + [f"redraw:{p.id}" for p in pairs]
            choice = yield from ask(self.sides[turn].seat, "redraw", opts, side=turn,
                                    stat=c3["stat"], res=list(c3["res"]), four=four,
                                    **self.public_info())
            if choice == "pass":
                passes += 1
            else:
                passes = 0
                p = next(x for x in pairs if f"redraw:{x.id}" == choice)
                p.seals -= 1
                draws += 1
                self.ev("seal_redraw", side=turn, who=p.master.name, seals=p.seals)
                self.halving_over = halving_before
                die = self.roll(f"random_stat_redraw{draws}", self.rules.battle["random_stat_die"])
                c3 = self.compare(3, "random", four[die - 1], die)
            turn = 1 - turn
        self.after_compare(c3)
        return [c1, c2, c3]

    # step 5: bonuses, alternately from the initiative side until both pass
    def step_declare(self, init: int) -> Gen:
        r = self.rules
        turn, passes = init, 0
        while passes < 2:
            opts: list[str] = ["pass"]
            names: dict[str, str] = {}
            for f in self.fighters[turn]:
                names[f.char.id] = f.char.name
                if f.servant and f.role in ("main", "sub") and f.ps.seals > 0:
                    opts.append(f"seal:{f.char.id}")
                for k, a in enumerate(f.char.abilities):
                    used = any(u is f and ua is a for u, ua in self.used[turn])
                    if a.value_of("win_rate") is not None and not used:
                        opts.append(f"ability:{f.char.id}:{k}")
                        names[f"{f.char.id}:{k}"] = a.name
            for p in self.sides[turn].pairs:
                for item_id in sorted(p.items):
                    item = r.items.get(item_id)
                    if item and item.kind == "win_rate" and p.items[item_id] > 0:
                        opts.append(f"item:{p.id}:{item_id}")
            if len(opts) == 1:
                choice = "pass"
            else:
                choice = yield from ask(self.sides[turn].seat, "declare", opts, side=turn,
                                        names=names, bonus=[sum(v for *_, v in self.bonus[0]),
                                                            sum(v for *_, v in self.bonus[1])],
                                        initiative=init, **self.public_info())
            if choice == "pass":
                passes += 1
            else:
                passes = 0
                parts = choice.split(":")
                if parts[0] == "seal":
                    f = next(x for x in self.fighters[turn] if x.char.id == parts[1])
                    f.ps.seals -= 1
                    v = r.seals["rate_main"] if f.role == "main" else r.seals["rate_sub"]
                    self.bonus[turn].append(("seal", f.char.name, v))
                    self.ev("declare", side=turn, kind="seal", who=f.char.name, name="令呪",
                            value=v, seals=f.ps.seals, role=f.role)
                elif parts[0] == "ability":
                    f = next(x for x in self.fighters[turn] if x.char.id == parts[1])
                    a = f.char.abilities[int(parts[2])]
                    v = a.value_of("win_rate") or 0
                    self.used[turn].append((f, a))
                    self.bonus[turn].append(("ability", a.name, v))
                    self.ev("declare", side=turn, kind="ability", who=f.char.name, name=a.name,
                            value=v, cost=a.cost)
                else:
                    p = next(x for x in self.sides[turn].pairs if x.id == parts[1])
                    item = r.items[parts[2]]
                    p.use_item(item.id)
                    self.bonus[turn].append(("item", item.name["ja"], item.value))
                    self.ev("declare", side=turn, kind="item", who=p.master.name,
                            name=item.name["ja"], item=item.id, value=item.value)
            turn = 1 - turn

    # step 6
    def step_mana(self) -> None:
        r = self.rules
        for side in (0, 1):
            for f in self.fighters[side]:
                costs = [a.cost for u, a in self.used[side] if u is f]
                if not f.servant or (f.role == "other" and not costs):
                    continue
                lv_cost = f.char.lv // r.mana["battle_cost_divisor"]
                extra = sum(costs)
                no_seal = f.char.lv // r.mana["no_seal_cost_divisor"] if f.ps.seals == 0 else 0
                before = f.ps.mana
                f.ps.mana -= lv_cost + extra + no_seal
                self.ev("mana_cost", side=side, who=f.char.name, lv=f.char.lv, lv_cost=lv_cost,
                        extra=extra, no_seal=no_seal, before=before, after=f.ps.mana,
                        penalty=r.shortage_penalty(f.ps.mana))

    def mana_units(self, p: PairState) -> int:
        """How many times ``p``'s servant can pay 100 mana for a 令呪 [R-19]: without limit
        (even into the vanishing line; the end-of-turn check then applies), or, with the
        variant ``retreat.mana_above_vanish``, only while it stays above that line."""
        r = self.rules
        per = r.retreat["mana_per_seal"]
        if not r.retreat["mana_above_vanish"]:
            return r.retreat["seals"]
        return max(0, (p.mana - r.mana["vanish_at"] - 1) // per)

    # step 7
    def step_retreat(self, loser: int, advantages: int, outcome: BattleOutcome) -> Gen:
        r = self.rules
        cost = max(0, r.retreat["seals"] - advantages)
        side = self.sides[loser]
        self.ev("retreat_cost", side=loser, advantages=advantages, cost=cost,
                base=r.retreat["seals"])
        joint = True
        if len(side.pairs) > 1 and cost > 0:
            answers = yield {p.seat: Decision("abandon", ("together", "abandon"),
                                              {"side": loser, "cost": cost})
                             for p in side.pairs}
            marks = {p.label: answers[p.seat] for p in side.pairs}   # shown to people
            joint = all(v == "together" for v in marks.values())
            self.ev("abandon", side=loser, choices=marks, joint=joint)
        groups = [side.pairs] if joint else [[p] for p in side.pairs]
        for group in groups:
            if cost == 0:
                for p in group:
                    outcome.retreated.append(p.id)
                self.ev("retreat", side=loser, who=[p.label for p in group], seals=0, mana=0,
                        cost=0, paid=[])
                continue
            pool = sum(p.seals for p in group)
            units = sum(self.mana_units(p) for p in group)
            opts = ["stay"] + [f"pay:{k}" for k in range(min(cost, pool) + 1) if cost - k <= units]
            choice = yield from ask(group[0].seat, "retreat", opts, side=loser, cost=cost,
                                    seals=pool, mana=[p.mana for p in group],
                                    mana_per_seal=r.retreat["mana_per_seal"], mana_units=units,
                                    who=[p.label for p in group])
            if choice == "stay":
                for p in group:
                    if r.retreat["loser_out"]:
                        p.alive = False
                        p.out_reason = "defeated"
                        outcome.out.append(p.id)
                self.ev("no_retreat", side=loser, who=[p.label for p in group],
                        out=r.retreat["loser_out"])
                continue
            k = int(choice.split(":")[1])
            paid = []
            for _ in range(k):          # 令呪 from the pair holding the most
                p = max(group, key=lambda x: x.seals)
                p.seals -= 1
                paid.append(["seal", p.label, 1])
            for _ in range(cost - k):   # 100 mana from the servant holding the most
                p = max(group, key=lambda x: (self.mana_units(x) > 0, x.mana))
                before = p.mana
                p.mana -= r.retreat["mana_per_seal"]
                paid.append(["mana", p.label, r.retreat["mana_per_seal"], before, p.mana])
            for p in group:
                outcome.retreated.append(p.id)
            self.ev("retreat", side=loser, who=[p.label for p in group], seals=k,
                    mana=(cost - k) * r.retreat["mana_per_seal"], cost=cost, paid=paid)
