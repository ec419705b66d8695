"""The war's judge (``fuyuki judge FILE`` for a file with ``game = "war"``).

A scenario (TOML, format in docs/judge.md) gives a war's state — its pairs with their sheets,
mana, 令呪, items, who is out, the turn and phase it starts at — the dice by roll label, the
pairs' answers to their decisions, and optionally the expected result. The judge runs the real
engine (:class:`fuyuki.rpg.war.War`) from that state and explains every step with the war's
own ja/en text, the dice and the answers between them.

Nothing is left to chance or guessed: a roll with no die given, a die never rolled, an answer
never asked for or not legal when asked, a decision with no answer and no way to decline, and a
state the rules cannot reach are each a ScenarioError naming the file and the key.
"""

from __future__ import annotations

import copy
import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fuyuki.core.data import Table, read_toml
from fuyuki.core.errors import DataError, FuyukiError, ScenarioError
from fuyuki.core.events import Event
from fuyuki.core.protocol import Decision
from fuyuki.rpg.options import option_label
from fuyuki.rpg.roster import parse_roster
from fuyuki.rpg.rules import Rules, default_rules
from fuyuki.rpg.state import PHASES, Start
from fuyuki.rpg.text import Renderer, scenario_error, t, table_error
from fuyuki.rpg.war import War

TOP_KEYS = ["game", "rule", "pins", "turn", "phase", "battles", "turns", "max_turns", "roster",
            "faction", "site", "pair", "dice", "choices", "expect"]
#: the keys of a [[pair]] that are war state, not roster
STATE_KEYS = ["out", "wins", "losses", "known", "allies", "supply", "charges", "rested"]
EXPECT_KEYS = ["events", "no_events", "over", "reason", "winners", "turn", "pair", "battle",
               "event"]
PAIR_RESULT_KEYS = ["alive", "out", "mana", "max_mana", "seals", "items", "wins", "losses",
                    "known", "allies", "supply", "charges"]
BATTLE_KEYS = ["label", "sides", "winner", "initiative", "initiative_reason", "rate", "raw",
               "table", "diff", "result", "bonus", "base", "totals_a", "totals_b", "stats",
               "roll", "retreat_cost", "retreated", "out", "halving_over"]
#: how a decision nobody scripted is answered: its way to decline (an unscripted action is
#: その他, a free action with no rule effect); other decisions need an answer
DECLINE = {"action": "other", "comm": "pass", "mana": "done", "reroll": "keep",
           "engage": "ignore", "intervene": "ignore", "contact": "talk", "prepare": "pass",
           "declare": "pass", "redraw": "pass", "alliance": "refuse", "seal_gift": "refuse"}


fail = table_error


@dataclass
class Judged:
    war: War
    log: list[str]
    result: dict[str, Any]
    failures: list[str]


class LabelledDice:
    """The scenario's dice: a value for each roll label (``*`` and ``?`` match as in file
    names; an exact label comes first). A roll with no value is an error naming its label."""

    def __init__(self, table: Table):
        self.table = table
        self.values: dict[str, int] = {}
        for label, value in table.data.items():
            if type(value) is not int or value < 1:
                raise fail(table, f'"{label}"', "die_value", got=repr(value))
            self.values[label] = value
        self.used: dict[str, int] = {}          # label rolled -> value
        self.matched: set[str] = set()          # keys of the table that gave a value
        self.commitment, self.secret = "-", b""

    def roll(self, label: str, faces: int) -> int:
        key = label if label in self.values else next(
            (k for k in self.values if any(c in k for c in "*?[") and fnmatch.fnmatchcase(label, k)),
            None)
        if key is None:
            raise fail(self.table, f'"{label}"', "die_missing", label=label, faces=faces)
        value = self.values[key]
        if value > faces:
            raise fail(self.table, f'"{key}"', "die_faces", value=value, label=label, faces=faces)
        self.matched.add(key)
        self.used[label] = value
        return value

    def check_all_used(self) -> None:
        for key in self.values:
            if key not in self.matched:
                raise fail(self.table, f'"{key}"', "die_unused", rolls=list(self.used) or "-")


class Script:
    """The pairs' answers: ``[choices.<pair>]`` with a list of answers per decision kind,
    used in order."""

    def __init__(self, table: Table, war: War):
        self.table, self.war = table, war
        self.queues: dict[tuple[str, str], list[Any]] = {}
        self.next: dict[tuple[str, str], int] = {}
        for pid in table.data:
            if pid not in war.by_id:
                raise fail(table, pid, "no_pair", pid=pid, pairs=sorted(war.by_id))
            if not war.by_id[pid].alive:
                raise fail(table, pid, "out_decides")
            pt = table.table(pid)
            for kind in pt.data:
                self.queues[(pid, kind)] = [str(x) for x in pt.list(kind)]
                self.next[(pid, kind)] = 0

    def answer(self, seat: int, d: Decision) -> tuple[Any, bool]:
        """The answer to ``d`` and whether the scenario gave it."""
        ps = self.war.pairs[seat]
        key = (ps.id, d.kind)
        queue = self.queues.get(key, [])
        i = self.next.get(key, 0)
        where = f"{ps.id}.{d.kind}"
        if i < len(queue):
            self.next[key] = i + 1
            want = self.resolve(ps.id, d, queue[i])
            for o in d.options:
                if str(o) == want:
                    return o, True
            raise fail(self.table, f"{where}[{i}]", "answer_illegal", answer=repr(queue[i]),
                       legal=[str(o) for o in d.options])
        if d.kind in DECLINE and DECLINE[d.kind] in d.options:
            return DECLINE[d.kind], False
        raise fail(self.table, where, "no_answer", pid=ps.id, kind=d.kind, n=i + 1,
                   legal=[str(o) for o in d.options])

    @staticmethod
    def resolve(pid: str, d: Decision, text: str) -> str:
        """A lineup may name characters as "servant"/"master" (the deciding pair's), by id
        ("B.servant") or by name."""
        if d.kind != "lineup":
            return text
        names = {v: k for k, v in d.info.get("names", {}).items()}
        parts = []
        for part in text.split("|"):
            part = part.strip()
            if part in ("servant", "master"):
                part = f"{pid}.{part}"
            parts.append(names.get(part, part))
        return "|".join(parts)

    def check_all_used(self) -> None:
        for (pid, kind), queue in self.queues.items():
            i = self.next[(pid, kind)]
            if i < len(queue):
                raise fail(self.table, f"{pid}.{kind}[{i}]", "answer_unused",
                           answer=repr(queue[i]), n=i, kind=kind, pid=pid)


def load(path: str | Path, rules: Rules | None = None) -> tuple[War, Table, LabelledDice, int]:
    """The war a scenario describes, its file table, its dice and the last turn to play."""
    rules = rules or default_rules()
    p = str(path)
    top = Table(read_toml(path, ScenarioError), p, error=ScenarioError)
    top.check_keys(TOP_KEYS)
    if top.str("game") != "war":
        raise fail(top, "game", "game")
    if not isinstance(top.data.get("rule"), dict):
        top.str("rule")
    else:
        top.text("rule")
    top.str("pins")
    roster_data: dict[str, Any] = {k: copy.deepcopy(top.data[k])
                                   for k in ("roster", "faction", "site", "pair") if top.has(k)}
    states: dict[str, dict[str, Any]] = {}
    where: dict[str, str] = {"turn": "turn", "phase": "phase", "battles": "battles"}
    for i, pt in enumerate(top.tables("pair")):
        sid = pt.data.get("id")
        state = {}
        for key in STATE_KEYS:
            if pt.has(key):
                state[key] = _state_value(pt, key)
                roster_data["pair"][i].pop(key)
        if isinstance(sid, str):
            states[sid] = state
            where[sid] = pt.key
    try:
        roster = parse_roster(roster_data, p, rules)
    except ScenarioError:
        raise
    except DataError as exc:
        raise ScenarioError(p, exc.key, exc.reason, exc.code, **exc.params) from None
    turn = top.int("turn", 1, lo=1)
    start = Start(turn=turn, phase=top.str("phase", "events", choices=PHASES),
                  battles=top.int("battles", lo=0) if top.has("battles") else None,
                  pairs=states, source=p, where=where)
    max_turns = top.int("max_turns", rules.war["max_turns"], lo=1)
    turns = top.int("turns", 1, lo=1)
    dice = LabelledDice(top.table("dice", {}))
    war = War(roster, rules, 0, max_turns=max_turns, dice=lambda _turn: dice,
              gate=len(roster.pairs), start=start)
    return war, top, dice, turn + turns - 1


def _state_value(pt: Table, key: str) -> Any:
    if key in ("wins", "losses", "charges"):
        return pt.int(key, lo=0)
    if key in ("supply", "rested"):
        return pt.bool(key)
    if key == "out":
        return pt.str(key, choices=["defeated", "vanished"])
    return pt.list_of(key, str)


def judge(path: str | Path, lang: str = "ja") -> Judged:
    """Run the scenario and explain it in ``lang``; ``.failures`` lists unmet expectations."""
    war, top, dice, last = load(path)
    script = Script(top.table("choices", {}), war)
    expect = top.table("expect", {})
    _check_expect(expect, war)
    marks: list[tuple[int, int, Decision, Any, bool]] = []
    gate = war.gate
    try:
        while not war.over:
            pending = war.pending()
            if gate in pending:
                if pending[gate].info["turn"] > last:
                    break
                war.submit(gate, "start")
                continue
            for seat, d in sorted(pending.items()):
                choice, given = script.answer(seat, d)
                marks.append((len(war.events), seat, d, choice, given))
                war.submit(seat, choice)
    except FuyukiError as exc:
        if isinstance(exc, ScenarioError):
            raise
        raise ScenarioError(str(path), "choices", str(exc)) from None
    dice.check_all_used()
    script.check_all_used()
    result = _result(war, dice)
    failures = [t(lang, "judge.failure", file=str(path), what=f)
                for f in _failures(expect, war, result, lang)]
    log = _explain(war, top, marks, lang, last)
    log.append(t(lang, "judge.failed", n=len(failures)) if failures else t(lang, "judge.met"))
    result["log"] = log
    result["failures"] = failures
    return Judged(war, log, result, failures)


# -- the explanation ------------------------------------------------------------------------------

def _explain(war: War, top: Table, marks: list[tuple[int, int, Decision, Any, bool]], lang: str,
             last: int) -> list[str]:
    out = []
    rule = top.data["rule"]
    out.append(t(lang, "judge.rule", rule=rule if isinstance(rule, str) else rule[lang]))
    out.append(t(lang, "judge.pins", pins=top.data["pins"]))
    names: dict[str, str] = {}
    for p in war.pairs:
        names[p.id] = p.label
        names[p.servant.id] = p.servant.name
        names[p.master.id] = p.master.name
    r = Renderer(lang)
    at = 0
    for i, ev in enumerate(war.events + [Event("_end", {})]):
        while at < len(marks) and marks[at][0] <= i:
            _, seat, d, choice, given = marks[at]
            at += 1
            label = option_label(lang, d, choice, names)
            kind = t(lang, f"kind.{d.kind}")
            out.append(t(lang, "judge.choice" if given else "judge.choice_default",
                         who=war.pairs[seat].label, kind=kind if not kind.startswith("kind.")
                         else d.kind, label=label))
        if ev.kind == "roll":
            out.append(t(lang, "judge.roll", label=ev.data["label"], faces=ev.data["faces"],
                         value=ev.data["value"]))
        elif ev.kind.startswith("dice") or ev.kind == "_end":
            continue
        else:
            out += r.lines([ev])
    if not war.over:
        out.append(t(lang, "judge.stopped", turn=last))
    out.append(t(lang, "judge.state"))
    for p in war.pairs:
        note = "" if p.alive else t(lang, f"war.out_note_{p.out_reason}")
        items = war.items_text(p)[lang]
        out.append(t(lang, "judge.pair", who=p.label, mana=p.mana, max=p.max_mana(war.rules),
                     seals=p.seals, items=items, wins=p.wins, losses=p.losses, out=note))
    return out


# -- the result and the expectations ------------------------------------------------------------

def _result(war: War, dice: LabelledDice) -> dict[str, Any]:
    pairs = {}
    for p in war.pairs:
        pairs[p.id] = {"alive": p.alive, "out": p.out_reason or "", "mana": p.mana,
                       "max_mana": p.max_mana(war.rules), "seals": p.seals,
                       "items": dict(sorted(p.items.items())), "wins": p.wins,
                       "losses": p.losses, "known": sorted(p.known), "allies": sorted(p.allies),
                       "supply": p.supply, "charges": p.charges}
    end = war.result
    return {"turn": war.turn, "over": war.over,
            "reason": end["reason"] if end else None,
            "winners": [war.pairs[s].id for s in end["winners"]] if end else [],
            "pairs": pairs, "battles": _battles(war), "dice": dict(dice.used),
            "events": [e.kind for e in war.events]}


def _battles(war: War) -> list[dict[str, Any]]:
    """Each battle's numbers, read from its events."""
    out = []
    spans: list[list[Event]] = []
    span: list[Event] | None = None
    for e in war.events:
        if e.kind == "battle_start":
            span = []
            spans.append(span)
        if span is not None:
            span.append(e)
        if e.kind == "battle_end":
            span = None
    for (label, sides, outcome), evs in zip(war.fought, spans):
        def last(kind: str, **match: Any) -> dict[str, Any]:
            found = [e.data for e in evs if e.kind == kind
                     and all(e.data.get(k) == v for k, v in match.items())]
            return found[-1] if found else {}
        rate, cost = last("rate"), last("retreat_cost")
        init = last("initiative")
        out.append({
            "label": label, "sides": [list(sides[0]), list(sides[1])],
            "winner": "AB"[outcome.winner], "initiative": "AB"[outcome.initiative],
            "initiative_reason": init.get("reason"),
            "rate": rate.get("rate"), "raw": rate.get("raw"), "table": rate.get("table"),
            "diff": rate.get("diff"),
            "result": [rate.get("adv"), rate.get("draw"), rate.get("dis")],
            "bonus": [rate.get("bonus_own"), rate.get("bonus_other")],
            "base": [rate.get("base_own"), rate.get("base_other")],
            "totals_a": last("totals", side=0).get("totals"),
            "totals_b": last("totals", side=1).get("totals"),
            "stats": [[e.data["stat"], e.data["a"], e.data["b"]] for e in evs if e.kind == "compare"],
            "roll": outcome.roll, "retreat_cost": cost.get("cost"),
            "retreated": list(outcome.retreated), "out": list(outcome.out),
            "halving_over": any(e.kind == "halving_over" for e in evs)})
    return out


def _event_kinds() -> set[str]:
    from fuyuki.core.i18n import keys

    t("ja", "chain")        # registers the catalog
    kinds = {k.removeprefix("rpg.war.") for k in keys("en") if k.startswith("rpg.war.")}
    kinds |= {n[3:] for n in dir(Renderer) if n.startswith("ev_")}
    return kinds | {"base_rate", "roll", "war_start", "turn_start", "war_end", "seal_gift"}


def _check_expect(ex: Table, war: War) -> None:
    """Every key of ``[expect]`` is one the judge's result has (a typo is an error, never an
    expectation silently met)."""
    ex.check_keys(EXPECT_KEYS)
    kinds = _event_kinds()
    for name in ("events", "no_events"):
        for i, kind in enumerate(ex.list_of(name, str, [])):
            if kind not in kinds:
                raise fail(ex, f"{name}[{i}]", "event_kind", kind=repr(kind))
    if ex.has("reason"):
        ex.str("reason", choices=["faction", "last", "limit", "none"])
    if ex.has("over"):
        ex.bool("over")
    if ex.has("turn"):
        ex.int("turn", lo=1)
    for pid in ex.list_of("winners", str, []):
        if pid not in war.by_id:
            raise fail(ex, "winners", "no_pair", pid=pid, pairs=sorted(war.by_id))
    pt = ex.table("pair", {})
    for pid in pt.data:
        if pid not in war.by_id:
            raise fail(pt, pid, "no_pair", pid=pid, pairs=sorted(war.by_id))
        pt.table(pid).check_keys(PAIR_RESULT_KEYS)
    if ex.has("battle"):
        for bt in ex.tables("battle"):
            bt.check_keys(BATTLE_KEYS)
    if ex.has("event"):
        for et in ex.tables("event"):
            kind = et.str("kind")
            if kind not in kinds:
                raise fail(et, "kind", "event_kind", kind=repr(kind))


def _same(got: Any, want: Any) -> bool:
    """``got`` (the engine's value) is what the file wrote: a text in either language, a list
    item by item (a set in sorted order), true/false only as such."""
    if isinstance(got, dict) and "ja" in got and isinstance(want, str):
        return want in (got["ja"], got.get("en"))
    if isinstance(got, (list, tuple, set)) and isinstance(want, list):
        items = sorted(got) if isinstance(got, set) else list(got)
        return len(items) == len(want) and all(_same(g, w) for g, w in zip(items, want))
    if isinstance(got, bool) or isinstance(want, bool):
        return got is want
    return bool(got == want)


def _failures(ex: Table, war: War, result: dict[str, Any], lang: str) -> list[str]:
    out: list[str] = []

    def differ(key: str, got: Any, want: Any) -> None:
        if not _same(got, want):
            out.append(t(lang, "judge.differ", what=f"expect.{key}", got=_show(got),
                         want=_show(want)))

    kinds = result["events"]
    if ex.has("events"):
        it = iter(kinds)
        for kind in ex.data["events"]:
            if not any(k == kind for k in it):
                out.append(t(lang, "judge.no_event", kind=kind))
                break
    for kind in ex.data.get("no_events", []):
        if kind in kinds:
            out.append(t(lang, "judge.unexpected_event", kind=kind))
    for key in ("over", "reason", "winners", "turn"):
        if key in ex.data:
            differ(key, result[key], ex.data[key])
    for pid, want in ex.data.get("pair", {}).items():
        for key, value in want.items():
            differ(f"pair.{pid}.{key}", result["pairs"][pid][key], value)
    for i, want in enumerate(ex.data.get("battle", [])):
        if i >= len(result["battles"]):
            out.append(t(lang, "judge.no_battle", i=i, n=i + 1, fought=len(result["battles"])))
            continue
        for key, value in want.items():
            differ(f"battle[{i}].{key}", result["battles"][i][key], value)
    events = war.events
    pos = 0
    for i, want in enumerate(ex.data.get("event", [])):
        fields = {k: v for k, v in want.items() if k != "kind"}
        same_kind = [e for e in events if e.kind == want["kind"]]
        for name in fields:
            if same_kind and not any(name in e.data for e in same_kind):
                raise scenario_error(ex.file, f"expect.event[{i}].{name}", "event_field",
                                     name=name, kind=want["kind"], fields=sorted(same_kind[0].data))
        for j in range(pos, len(events)):
            e = events[j]
            if e.kind == want["kind"] and all(_same(e.data.get(k), v) for k, v in fields.items()):
                pos = j + 1
                break
        else:
            out.append(t(lang, "judge.no_match", i=i, kind=want["kind"],
                         fields=", ".join(f"{k}={_show(v)}" for k, v in fields.items())))
    return out


def _show(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
