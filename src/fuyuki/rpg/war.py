"""The war: turns of events, actions, コミュ and the mana check, with committed dice.

Seat ``i`` drives the ``i``-th pair of the roster. Every turn starts by publishing the
commitment of that turn's dice secret and ends by revealing it; every roll is labelled
``t<turn>/...`` (see :mod:`fuyuki.core.dice`). The engine does no I/O: the flow is a generator
driven by :class:`fuyuki.rpg.flow.Flow`; ``clone()`` replays the submissions.
"""

from __future__ import annotations

from typing import Any, Callable

from fuyuki.core.contract import EventLog, no_role
from fuyuki.core.dice import CommittedDice, WarDice, derive_secret
from fuyuki.core.events import Event
from fuyuki.core.outcome import outcome
from fuyuki.core.errors import FuyukiError
from fuyuki.core.protocol import Decision
from fuyuki.core.record import Record
from fuyuki.rpg.battle import Battle, BattleOutcome, Side, ask, snipe_allowed
from fuyuki.rpg.flow import Flow
from fuyuki.rpg.roster import Roster
from fuyuki.rpg.rules import Rules
from fuyuki.rpg.state import PHASES, PairState, Start
from fuyuki.rpg.text import texts


#: the option a pair's every decision offers while a 令呪 can give its servant +100 mana
SEAL_MANA = "seal_mana"


class War(EventLog):
    def __init__(self, roster: Roster, rules: Rules, seed: int | str, *,
                 max_turns: int | None = None, dice: Callable[[int], Any] | None = None,
                 gate: int | None = None, start: Start | None = None):
        """``dice(turn)`` gives a turn's dice: a :class:`fuyuki.core.dice.WarDice` (the GM's
        chain and the parties; by default one made from ``seed``) or fixed rolls (tests).
        ``gate``: a seat asked before every turn (a hosted war's GM opens each turn: the
        decision ``turn``, option ``start``); None: turns follow each other. ``start``: a war
        already under way (a later turn or phase, pairs out, wins...; refused when the rules
        cannot reach it)."""
        self.roster, self.rules, self.seed = roster, rules, seed
        self.max_turns = max_turns or rules.war["max_turns"]
        self.pairs = [PairState.new(p, i, rules) for i, p in enumerate(roster.pairs)]
        self.by_id = {p.id: p for p in self.pairs}
        self.events: list[Event] = []
        self.turn = 0
        self.battles = 0
        #: every battle fought: (label, the pair ids of side A and of side B, its outcome)
        self.fought: list[tuple[str, tuple[list[str], list[str]], BattleOutcome]] = []
        self.start = start
        self.first_phase = "events"
        if start is not None:
            self.battles = start.apply(self.pairs, rules, self.max_turns)
            self.turn, self.first_phase = start.turn - 1, start.phase
            out = [p for p in self.pairs if not p.alive]
            if out and self.end_reason():
                raise start.fail(start.key("out", out[-1].id), "over")
        self.dice: CommittedDice | None = None
        self.submissions: list[tuple[int, Any]] = []
        self._result: dict[str, Any] | None = None
        self._dice_factory = dice or WarDice(derive_secret(seed, "war"), self.max_turns)
        self.gate = gate
        #: the record's config of a war begun by :func:`fuyuki.rpg.war_record.start` (None: a
        #: war built here, whose dice or start no config names: it has no record)
        self.config: dict[str, Any] | None = None
        self.flow = Flow(self._run())

    # -- the protocol ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.flow.over

    @property
    def result(self) -> dict[str, Any] | None:
        return self._result

    def pending(self) -> dict[int, Decision]:
        return self.flow.pending()

    def submit(self, seat: int, choice: Any) -> None:
        option = self.flow.submit(seat, choice)
        self.submissions.append((seat, option))

    @property
    def record(self) -> Record:
        """``rpg-war``: the config it was started from and every submission."""
        if self.config is None:
            raise FuyukiError("this war was not started from a record's config "
                              "(fuyuki.rpg.war_record.start): it has no record")
        return Record("rpg-war", 0, dict(self.config), list(self.submissions))

    def roles(self) -> list[int | None]:
        """Every role :meth:`view` answers: each pair's seat, then ``None`` (a spectator)."""
        return [*range(len(self.pairs)), None]

    def seats(self) -> list[int]:
        return list(range(len(self.pairs)))

    def clone(self) -> "War":
        other = War(self.roster, self.rules, self.seed, max_turns=self.max_turns,
                    dice=self._dice_factory, gate=self.gate, start=self.start)
        other.config = self.config
        for seat, choice in self.submissions:
            other.submit(seat, choice)
        return other

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know: its own sheet, public facts, sheets it learned, its events.
        Never the dice secret of the running turn, never another pair's hidden sheet."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < len(self.pairs)):
            raise no_role(seat)
        me = self.pairs[seat] if seat is not None else None
        pairs = []
        for p in self.pairs:
            entry = {"id": p.id, "seat": p.seat, "servant": p.servant.name, "class": p.servant.cls,
                     "master": p.master.name, "faction": p.pair.faction, "alive": p.alive,
                     "allied": bool(me and p.id in me.allies)}
            if me is not None and (p is me or p.id in me.known):
                entry["sheet"] = p.sheet()
            pairs.append(entry)
        out: dict[str, Any] = {"turn": self.turn, "seat": seat, "pairs": pairs,
                               "events": self._events_json(seat),
                               "over": self.over, "result": self._result}
        if me is not None:
            out["me"] = me.sheet() | {"max_mana": me.max_mana(self.rules),
                                      "allies": sorted(me.allies), "known": sorted(me.known),
                                      "alive": me.alive, "charges": me.charges}
            d = self.pending().get(seat)
            out["decision"] = d.to_json() if d else None
        return out

    def _events_json(self, seat: int | None) -> list[dict[str, Any]]:
        cache = self.__dict__.setdefault("_json_cache", [])
        for e in self.events[len(cache):]:
            cache.append(e.to_json())
        return [j for e, j in zip(self.events, cache) if e.visible_to(seat)]

    # -- helpers ----------------------------------------------------------------------------
    def ev(self, _kind: str, to: tuple[int, ...] | None = None, **data: Any) -> None:
        self.events.append(Event(_kind, data, to))

    def roll(self, label: str, faces: int) -> int:
        assert self.dice is not None
        lab = f"t{self.turn}/{label}"
        value = self.dice.roll(lab, faces)
        self.ev("roll", label=lab, faces=faces, value=value)
        return value

    def decide(self, asks: dict[int, Decision],
               again: Callable[[int], Decision] | None = None):
        """Ask every seat of ``asks`` at once (``answers = yield from self.decide(...)``).
        令呪 for +100 mana 「任意のタイミング」 (seed): each decision of a pair offers
        ``seal_mana`` while the pair holds a 令呪 and its servant is below the maximum;
        taking it spends the 令呪 and asks the decision again (rebuilt by ``again(seat)`` when
        its options depend on the 令呪 held)."""
        answers: dict[int, Any] = {}
        todo = dict(asks)
        while todo:
            got = yield {seat: self.with_seal(seat, d) for seat, d in todo.items()}
            todo = {}
            for seat, choice in got.items():
                if choice == SEAL_MANA and SEAL_MANA not in asks[seat].options:
                    self.seal_mana(self.pairs[seat])
                    asks[seat] = again(seat) if again else asks[seat]
                    todo[seat] = asks[seat]
                else:
                    answers[seat] = choice
        return answers

    def ask(self, seat: int, kind: str, options: list[Any], **info: Any):
        """Ask one pair (``choice = yield from self.ask(...)``), with ``seal_mana`` offered."""
        answers = yield from self.decide({seat: Decision(kind, tuple(options), info)})
        return answers[seat]

    def with_seal(self, seat: int, d: Decision) -> Decision:
        ps = self.pairs[seat] if 0 <= seat < len(self.pairs) else None
        if ps is None or not self.can_seal_mana(ps) or d.kind == "mana":
            return d
        return Decision(d.kind, d.options + (SEAL_MANA,), d.info)

    def can_seal_mana(self, ps: PairState) -> bool:
        return ps.alive and ps.seals > 0 and ps.mana < ps.max_mana(self.rules)

    def seal_mana(self, ps: PairState) -> None:
        """A 令呪 spent on +100 mana (seed 令呪 4; stops at the maximum)."""
        before = ps.mana
        ps.seals -= 1
        ps.gain(self.rules.seals["mana"], self.rules)
        self.ev("mana_seal", (ps.seat,), who=ps.label, before=before, after=ps.mana, seals=ps.seals)

    def alive(self) -> list[PairState]:
        return [p for p in self.pairs if p.alive]

    def enemies(self, a: PairState, b: PairState) -> bool:
        if a is b or b.id in a.allies:
            return False
        return a.pair.faction != b.pair.faction or a.pair.faction == "none"

    def check(self, ps: PairState, what: str, rate: int, label: str, good_if_success: bool = True,
              to: tuple[int, ...] | None = None):
        """A % check (d100 <= rate) with talisman re-rolls offered to ``ps`` when it goes
        against it. Returns success. ``to``: who may read the check (the roll itself is public)."""
        faces = self.rules.actions["check_die"]
        value = self.roll(label, faces)
        success = value <= rate
        self.ev("check", to, what=what, rate=rate, value=value, success=success, faces=faces)
        n = 0
        while success != good_if_success and ps.alive:
            talismans = [i for i in self.set_items(ps) if i.kind == "reroll" and ps.item_count(i.id)]
            if not ps.charges and not talismans:
                break
            opts = ["keep"] + (["reroll"] if ps.charges else []) + [f"use:{i.id}" for i in talismans]
            choice = yield from self.ask(ps.seat, "reroll", opts, what=what, rate=rate, value=value)
            if choice == "keep":
                break
            if choice.startswith("use:"):
                item = self.rules.items[choice[4:]]
                ps.use_item(item.id)
                ps.charges += item.value
            else:
                item = None
            ps.charges -= 1
            n += 1
            self.ev("reroll", to, who=ps.label,
                    item=(item.name if item else {"ja": "護符", "en": "talisman"}))
            value = self.roll(f"{label}/reroll{n}", faces)
            success = value <= rate
            self.ev("check", to, what=what, rate=rate, value=value, success=success, faces=faces)
        return success

    def set_items(self, ps: PairState):
        return self.rules.craft[ps.pair.craft_set]

    def rest_amount(self, ps: PairState) -> tuple[int, dict[str, Any]]:
        a = self.rules.actions
        magic = ps.master.stats["mgi"] if ps.supply else 0   # a cut supply gives nothing
        site = self.roster.sites.get(ps.pair.base) if ps.pair.base else None
        grade = site.grade if site else 0
        workshop = ps.pair.workshop + ps.servant.total_of("rest") + ps.master.total_of("rest")
        amount = magic * a["rest_per_magic"] + grade + workshop
        return amount, {"magic": magic, "k": a["rest_per_magic"], "site": site.name if site else "",
                        "grade": grade, "workshop": workshop}

    def pick(self, ps: PairState, cands: list[PairState], label: str) -> tuple[PairState | None, int]:
        if not cands:
            return None, 0
        if len(cands) == 1:
            return cands[0], 1
        v = self.roll(label, len(cands))
        return cands[v - 1], v

    # -- battle -----------------------------------------------------------------------------
    def fight(self, attacker: PairState, defender: PairState, snipe: bool = False,
              surprise: bool = False):
        self.battles += 1
        a_side = [attacker]
        b_side = [defender]
        if self.rules.actions["allies_defend"]:
            for p in self.pairs:
                if p.alive and p.id in defender.allies and p is not attacker \
                        and p.id not in attacker.allies:
                    b_side.append(p)
        sides = (Side(a_side), Side(b_side))
        if snipe:
            ok = [snipe_allowed(attacker.servant, sides[1])]
            if not ok[0][0]:
                self.ev("snipe_denied", eye=ok[0][1], hide=ok[0][2])
                snipe = False
        battle = Battle(self.rules, self.dice, self.events.append, sides,
                        label=f"t{self.turn}/b{self.battles}", attacker=0, snipe=snipe,
                        surprise=surprise or self.rules.actions["attack_is_surprise"])
        outcome: BattleOutcome = yield from battle.run()
        self.fought.append((battle.label, ([p.id for p in a_side], [p.id for p in b_side]), outcome))
        for pid in outcome.out:
            self.ev("out", who=self.by_id[pid].label, reason="defeated")
        return outcome

    # -- the war ------------------------------------------------------------------------------
    def _run(self):
        self.ev("war_start", roster=self.roster.name, n=len(self.pairs),
                pairs=[{"servant": p.servant.name, "master": p.master.name, "lv": p.servant.lv,
                        "faction": self.roster.factions.get(p.pair.faction, p.pair.faction)}
                       for p in self.pairs])
        if self.start is not None:
            self.ev("start_state", turn=self.turn + 1, phase=self.first_phase,
                    phase_name=texts(f"war.phase_{self.first_phase}"), battles=self.battles)
            for p in self.pairs:
                out = texts(f"war.out_note_{p.out_reason}") if not p.alive else {"ja": "", "en": ""}
                self.ev("start_pair", None if not p.alive else (p.seat,), who=p.label,
                        mana=p.mana, max=p.max_mana(self.rules), seals=p.seals,
                        items=self.items_text(p), out=out, wins=p.wins, losses=p.losses)
        reason = None
        while self.turn < self.max_turns:
            if self.gate is not None:
                yield from ask(self.gate, "turn", ["start"], turn=self.turn + 1)
            self.turn += 1
            before, self.dice = self.dice, self._dice_factory(self.turn)
            if hasattr(self.dice, "follow"):
                self.dice.follow(before)            # chained to the turn before
            self.ev("dice_commit", scope=f"t{self.turn}", turn=self.turn,
                    sha=getattr(self.dice, "commitment", "-"),
                    **(self.dice.published() if hasattr(self.dice, "published") else {}))
            self.ev("turn_start", turn=self.turn)
            yield from self.phases()
            self.ev("dice_reveal", scope=f"t{self.turn}", turn=self.turn,
                    secret=getattr(self.dice, "secret", b"").hex(),
                    seal=self.dice.seal().hex() if hasattr(self.dice, "seal") else "-")
            reason = self.end_reason()
            if reason:
                break
        self.finish(reason or "limit")

    def phases(self):
        """The phases of a turn (seed): the morning and afternoon events, the actions, コミュ,
        the mana check. A war started later skips, in its first turn, the phases before its
        start."""
        first = PHASES.index(self.first_phase)
        self.first_phase = "events"
        if first <= PHASES.index("action"):
            for p in self.pairs:
                p.rested = False
        if first <= PHASES.index("events"):
            for slot in ("morning", "afternoon"):
                for ps in self.pairs:
                    if ps.alive:
                        yield from self.random_event(ps, slot)
        if first <= PHASES.index("action"):
            self.ev("h_action")
            yield from self.actions()
        if first <= PHASES.index("comm"):
            self.ev("h_comm")
            yield from self.comm()
        self.ev("h_mana")
        yield from self.mana_check()

    def items_text(self, ps: PairState) -> dict[str, str]:
        """The items a pair holds, as text in both languages ("魔宝石×2、…")."""
        out = {}
        for lang, sep in (("ja", "、"), ("en", ", ")):
            parts = [f"{self.rules.items[k].name[lang]}×{n}" for k, n in sorted(ps.items.items())]
            out[lang] = sep.join(parts) or "-"
        return out

    def end_reason(self) -> str | None:
        alive = self.alive()
        if not alive:
            return "none"
        if self.rules.war["factions_end"] and len(self.roster.factions) > 1 \
                and len({p.pair.faction for p in alive}) == 1:
            return "faction"
        if len(alive) == 1:
            return "last"
        return None

    def finish(self, reason: str) -> None:
        alive = self.alive()
        ranking = sorted(self.pairs, key=lambda p: (not p.alive, -p.wins, p.losses, -p.mana, p.seat))
        rows = [{"who": p.label, "id": p.id,
                 "faction": self.roster.factions.get(p.pair.faction, p.pair.faction),
                 "alive": p.alive, "wins": p.wins, "losses": p.losses, "mana": p.mana,
                 "seals": p.seals} for p in ranking if p.alive]
        faction = None
        if reason == "faction":
            faction = self.roster.factions.get(alive[0].pair.faction)
        winners = sorted(p.seat for p in alive) if reason in ("faction", "last") else []
        places = [winners] if winners else []
        places += [[p.seat] for p in ranking if p.seat not in winners]
        self._result = outcome(winners, reason, places, self.turn, turns=self.turn,
                               faction=alive[0].pair.faction if reason == "faction" else None,
                               survivors=[p.id for p in alive])
        self.ev("war_end", reason=reason, turns=self.turn, faction=faction,
                who=alive[0].label if len(alive) == 1 else "", ranking=rows)

    # 1. random events
    def random_event(self, ps: PairState, slot: str):
        r = self.rules
        die = r.war["event_die"]
        short = "am" if slot == "morning" else "pm"
        value = self.roll(f"{short}/{ps.id}", die)
        index = value % die
        entry = (r.morning if slot == "morning" else r.afternoon)[index]
        eff = entry["effect"]
        self.ev("event", slot=slot, who=ps.label, value=value, index=index, text=entry["text"])
        base = f"{short}/{ps.id}"
        if eff in ("good", "bad"):
            table = r.good if eff == "good" else r.bad
            v = self.roll(f"{base}/{eff}", len(table))
            row = table[v - 1]
            self.ev(eff, value=v, text=row["text"])
            self.apply_good_bad(ps, row)
        elif eff == "friendly":
            cands = [p for p in self.alive() if p is not ps and not self.enemies(ps, p)]
            target, _ = self.pick(ps, cands, f"{base}/who")
            if target:
                self.ev("event_target", target=target.label)
        elif eff in ("meet", "hostile"):
            cands = [p for p in self.alive() if self.enemies(ps, p)]
            target, _ = self.pick(ps, cands, f"{base}/who")
            if target:
                self.ev("event_target", target=target.label)
                if slot == "afternoon":
                    if eff == "meet":
                        yield from self.contact(ps, target)
                    else:
                        yield from self.offer_fight(target, ps, "hostile")
        elif eff == "nearby":
            cands = [p for p in self.alive() if p is not ps and p.pair.faction == entry["faction"]]
            target, _ = self.pick(ps, cands, f"{base}/who")
            if target:
                self.ev("event_target", target=target.label)
                if slot == "afternoon" and self.enemies(ps, target):
                    yield from self.offer_fight(ps, target, "nearby")

    def offer_fight(self, attacker: PairState, defender: PairState, why: str):
        """Ask ``attacker``'s player whether to attack ``defender`` (an event brought them
        together, ``why``); fight if so."""
        opts = ["attack", "ignore"] + (["surprise"] if self.rules.actions["surprise_attack"] else [])
        choice = yield from self.ask(attacker.seat, "engage", opts, target=defender.id, why=why)
        if choice in ("attack", "surprise"):
            self.ev("engage", who=attacker.label, target=defender.label)
            yield from self.fight(attacker, defender, surprise=choice == "surprise")
        else:
            self.ev("no_engage")

    def apply_good_bad(self, ps: PairState, row: dict[str, Any]) -> None:
        r = self.rules
        if row["kind"] == "mana":
            before = ps.mana
            ps.gain(row["value"], r)
            self.ev("mana_change", to=(ps.seat,), before=before, after=ps.mana)
        elif row["kind"] == "item":
            item = self.set_items(ps)[row["value"]]
            ps.add_item(item.id)
            self.ev("item_gain", to=(ps.seat,), item=item.name)
        elif row["kind"] == "lose_item":
            for item in self.set_items(ps):
                if ps.item_count(item.id):
                    ps.use_item(item.id)
                    self.ev("item_lose", to=(ps.seat,), item=item.name)
                    break
            else:
                self.ev("item_none", to=(ps.seat,))

    def contact(self, a: PairState, b: PairState):
        """Both decide, sealed, to talk or to fight; a fight if either wants one."""
        answers = yield from self.decide({
            a.seat: Decision("contact", ("talk", "fight"), {"target": b.id}),
            b.seat: Decision("contact", ("talk", "fight"), {"target": a.id})})
        if answers[a.seat] == "fight" or answers[b.seat] == "fight":
            att, dfn = (a, b) if answers[a.seat] == "fight" else (b, a)
            self.ev("engage", who=att.label, target=dfn.label)
            yield from self.fight(att, dfn)
        else:
            self.ev("contact_peace")

    # 2. actions
    def action_options(self, ps: PairState) -> list[str]:
        others = [p for p in self.alive() if p is not ps]
        opts = [f"info:{p.id}" for p in others]
        opts += [f"craft:{i.id}" for i in self.set_items(ps)]
        opts += ["rest", "soul", "soul_full"]
        opts += [f"attack:{p.id}" for p in others if p.id not in ps.allies]
        if self.rules.actions["surprise_attack"]:
            opts += [f"surprise:{p.id}" for p in others if p.id not in ps.allies]
        if ps.servant.rank_of("clairvoyance"):
            opts += [f"snipe:{p.id}" for p in others if p.id not in ps.allies]
        opts += [f"contact:{p.id}" for p in others] + ["contact:random", "other"]
        return opts

    def actions(self):
        alive = self.alive()
        answers = yield from self.decide({ps.seat: Decision("action", tuple(self.action_options(ps)),
                                                            {"pair": ps.id}) for ps in alive})
        for ps in alive:
            if not ps.alive:
                self.ev("act_skip", who=ps.label)
                continue
            yield from self.do_action(ps, answers[ps.seat])

    def do_action(self, ps: PairState, choice: str):
        r = self.rules
        kind, _, arg = choice.partition(":")
        target = self.by_id.get(arg)
        if target is not None and not target.alive:
            self.ev("act_skip", who=ps.label)
            return
        base = f"act/{ps.id}"
        me = (ps.seat,)                 # what a pair does alone is its own business
        if kind == "info":
            mods = []
            for i in self.set_items(ps):
                if i.kind == "info" and ps.item_count(i.id):
                    mods.append([i.name, i.value * ps.item_count(i.id)])
            for c in (ps.servant, ps.master):
                for a in c.abilities:
                    v = a.value_of("info")
                    if v:
                        mods.append([{"ja": a.name, "en": a.name}, v])
            rate = r.actions["info_base"] + sum(v for _, v in mods)
            self.ev("act_info", me, who=ps.label, target=target.label, base=r.actions["info_base"],
                    mods=mods, rate=rate)
            ok = yield from self.check(ps, "info", rate, base, to=me)
            if ok:
                ps.known.add(target.id)
                self.ev("info_ok", to=(ps.seat,), target=target.label, sheet=target.sheet())
            else:
                for i in self.set_items(ps):
                    if i.kind == "info" and ps.item_count(i.id):
                        ps.items.pop(i.id)
                        self.ev("familiar_lost", to=(ps.seat,), item=i.name)
        elif kind == "craft":
            item = r.items[arg]
            magic = ps.master.stats["mgi"]
            rate = magic * r.actions["craft_per_magic"]
            self.ev("act_craft", me, who=ps.label, item=item.name, magic=magic,
                    k=r.actions["craft_per_magic"], rate=rate)
            ok = yield from self.check(ps, "craft", rate, base, to=me)
            if ok:
                ps.add_item(item.id)
                self.ev("craft_ok", to=(ps.seat,), item=item.name, count=ps.item_count(item.id))
        elif kind == "rest":
            ps.rested = True
            amount, parts = self.rest_amount(ps)
            self.ev("act_rest", me, who=ps.label, amount=amount, **parts)
        elif kind in ("soul", "soul_full"):
            yield from self.soul_eating(ps, full=(kind == "soul_full"))
        elif kind in ("attack", "snipe", "surprise"):
            self.ev("act_" + kind, who=ps.label, target=target.label)
            yield from self.fight(ps, target, snipe=kind == "snipe", surprise=kind == "surprise")
        elif kind == "contact":
            if arg == "random":
                cands = [p for p in self.alive() if p is not ps]
                target, v = self.pick(ps, cands, f"{base}/contact")
                if target is None:
                    self.ev("act_other", me, who=ps.label)
                    return
                self.ev("act_contact_random", who=ps.label, n=len(cands), value=v,
                        target=target.label)
            else:
                self.ev("act_contact", who=ps.label, target=target.label)
            yield from self.contact(ps, target)
        else:
            self.ev("act_other", me, who=ps.label)

    def soul_eating(self, ps: PairState, full: bool):
        r = self.rules
        gain = r.actions["soul_gain"]
        me = (ps.seat,)
        self.ev("act_soul", me, who=ps.label, full=full, gain=gain)
        detected = yield from self.check(ps, "soul_detect", r.actions["soul_detect"],
                                         f"act/{ps.id}", good_if_success=False, to=me)
        if detected:
            self.ev("soul_detected", who=ps.label)
            others = [p for p in self.alive() if self.enemies(p, ps)]
            answers = (yield from self.decide({p.seat: Decision("intervene", ("intervene", "ignore"),
                                                                {"target": ps.id}) for p in others})) \
                if others else {}
            for p in others:
                if answers[p.seat] != "intervene" or not p.alive or not ps.alive:
                    continue
                self.ev("soul_intervene", who=p.label)
                outcome = yield from self.fight(p, ps)
                if outcome.winner == 0:
                    self.ev("soul_fail")
                    return
        else:
            self.ev("soul_hidden", me)
        before = ps.mana
        if full:
            ps.mana = max(ps.mana, ps.max_mana(r))
        else:
            ps.gain(gain, r)
        self.ev("soul_ok", None if detected else me, before=before, after=ps.mana)

    # 3. コミュ
    def comm_decision(self, ps: PairState, alive: list[PairState]) -> Decision:
        opts = ["pass"] + [f"offer:{p.id}" for p in alive if p is not ps and p.id not in ps.allies]
        if ps.seals > 0:
            opts.append("order")
            opts += [f"give:{p.id}" for p in alive if p is not ps]
        # 「マスター側から供給を切らない限り」: a master without 令呪 may cut its supply
        if ps.supply and ps.seals == 0:
            opts.append("cut_supply")
        if not ps.supply:
            opts.append("resume_supply")
        return Decision("comm", tuple(opts), {"pair": ps.id})

    def comm(self):
        alive = self.alive()
        answers = yield from self.decide({ps.seat: self.comm_decision(ps, alive) for ps in alive},
                                         again=lambda seat: self.comm_decision(self.pairs[seat], alive))
        for ps in alive:
            choice = answers[ps.seat]
            if choice in ("cut_supply", "resume_supply"):
                ps.supply = choice == "resume_supply"
                self.ev("supply_resume" if ps.supply else "supply_cut", (ps.seat,), who=ps.label,
                        master=ps.master.name)
            elif choice == "order":
                ps.seals -= 1
                self.ev("order", who=ps.label, seals=ps.seals)
            elif choice.startswith("give:"):
                # 令呪 transfer by consent (seed); a master never holds more than the maximum
                target = self.by_id[choice[5:]]
                if not target.alive or ps.seals == 0:
                    continue
                reply = yield from self.ask(target.seat, "seal_gift", ["accept", "refuse"], giver=ps.id)
                full = target.seals >= self.rules.seals["count"]
                moved = reply == "accept" and not full
                if moved:
                    ps.seals -= 1
                    target.seals += 1
                self.ev("seal_gift", (ps.seat, target.seat), who=ps.label, target=target.label,
                        accepted=reply == "accept", moved=moved)
            elif choice.startswith("offer:"):
                target = self.by_id[choice[6:]]
                if not target.alive or target.id in ps.allies:
                    continue
                reply = yield from self.ask(target.seat, "alliance", ["accept", "refuse"], offer=ps.id)
                if reply == "accept":
                    ps.allies.add(target.id)
                    target.allies.add(ps.id)
                self.ev("offer", (ps.seat, target.seat), who=ps.label, target=target.label, accepted=reply == "accept")

    # 4. mana check
    def mana_check(self):
        r = self.rules
        for ps in self.alive():
            before = ps.mana
            if ps.rested:
                amount, _ = self.rest_amount(ps)
                ps.gain(amount, r)
                self.ev("mana_rest", (ps.seat,), who=ps.label, before=before, amount=amount, after=ps.mana,
                        max=ps.max_mana(r), penalty=r.shortage_penalty(ps.mana))
            else:
                magic = ps.master.stats["mgi"] if ps.supply else 0
                if not ps.supply:
                    self.ev("no_supply", (ps.seat,), who=ps.label, master=ps.master.name)
                ps.gain(magic, r)
                cost = 0
                if ps.seals == 0:
                    cost = ps.servant.lv // r.mana["no_seal_cost_divisor"]
                    ps.mana -= cost
                self.ev("mana_check", (ps.seat,), who=ps.label, before=before, magic=magic, cost=cost,
                        after=ps.mana, max=ps.max_mana(r), penalty=r.shortage_penalty(ps.mana))
            while True:
                items = [i for i in self.set_items(ps) if i.kind == "mana" and ps.item_count(i.id)]
                # asked when the servant is short (below 0) or holds a mana item; a 令呪 for
                # +100 is offered whenever it is below the maximum
                can_seal = self.can_seal_mana(ps)
                if not items and not (can_seal and ps.mana < 0):
                    break
                if ps.mana >= ps.max_mana(r):
                    break
                opts = ["done"] + (["seal"] if can_seal else []) + [f"item:{i.id}" for i in items]
                choice = yield from self.ask(ps.seat, "mana", opts, mana=ps.mana,
                                             max=ps.max_mana(r), vanish_at=r.mana["vanish_at"])
                if choice == "done":
                    break
                before = ps.mana
                if choice == "seal":
                    self.seal_mana(ps)
                else:
                    item = r.items[choice[5:]]
                    ps.use_item(item.id)
                    ps.gain(item.value, r)
                    self.ev("mana_item", (ps.seat,), who=ps.label, item=item.name, before=before, after=ps.mana)
        for ps in self.alive():
            if ps.mana <= r.mana["vanish_at"]:
                ps.alive = False
                ps.out_reason = "vanished"
                self.ev("vanish", who=ps.label, mana=ps.mana, limit=r.mana["vanish_at"])
