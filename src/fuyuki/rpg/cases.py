"""BCDice-style battle cases: state in, fixed rolls, exact text out.

A case file is TOML with ``[[case]]`` entries::

    [[case]]
    name = "worked example 1"
    attacker = "A"                 # optional: "A" or "B" (the other side defends)
    lineup = ["servant|master", "servant|master"]
    choices = ["A:str", "B:mgi"]   # answers in the order asked; "A2:..." = A's second pair
    rolls = [4, 72]                # the fixed dice, in order; all must be used
    expect = { winner = "A", rate = 72 }
    output = '''...exact text...'''
    [case.a]                       # a pair (or [[case.a]] for allied pairs)
    servant = { name = "...", lv = 60, stats = { str = 50, ... } }
    master = { name = "...", stats = { ... } }
    [case.b] ...

A scripted answer goes to the next decision of its seat where it is a legal option; a decision
in between is answered ``"pass"`` when that is legal;
anything else is an error naming the case and the decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fuyuki.core.data import Table, read_toml
from fuyuki.core.dice import FixedDice
from fuyuki.core.errors import ScenarioError
from fuyuki.rpg.battle_game import BattleGame
from fuyuki.rpg.roster import parse_pair
from fuyuki.rpg.rules import Rules
from fuyuki.rpg.text import Renderer

CASE_KEYS = ["name", "attacker", "surprise", "snipe", "lineup", "choices", "rolls", "expect",
             "output", "output_en", "a", "b", "brief"]


@dataclass
class CaseRun:
    name: str
    game: BattleGame
    dice: FixedDice
    text: dict[str, str]


def _pairs(case: Table, key: str, rules: Rules) -> list:
    raw = case.data.get(key)
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        raise case.fail(key, "a pair table (or a list of pair tables) is required")
    out = []
    for i, d in enumerate(raw):
        d = dict(d)
        d.setdefault("id", f"{key}{i + 1}")
        out.append(parse_pair(Table(d, case.file, case.where(f"{key}[{i}]"), ScenarioError), rules))
    return out


def run_case(case: Table, rules: Rules) -> CaseRun:
    case.check_keys(CASE_KEYS)
    name = case.str("name")
    att = case.str("attacker", "", choices=["", "A", "B"])
    attacker = {"": None, "A": 0, "B": 1}[att]
    lineup = case.list("lineup", ["servant|master", "servant|master"])
    dice = FixedDice(case.list("rolls", []))
    items: dict[str, dict[str, int]] = {}
    for key in ("a", "b"):
        raw = case.data[key]
        for i, d in enumerate(raw if isinstance(raw, list) else [raw]):
            if "items" in d:
                items[f"{key}{i + 1}"] = dict(d["items"])

    def setup(states: list) -> None:
        for ps in states:
            for item, n in items.get(ps.id, {}).items():
                if item not in rules.items:
                    raise case.fail("items", f"unknown item {item!r}")
                ps.add_item(item, n)

    # items are not a pair key: strip them before parsing
    for key in ("a", "b"):
        raw = case.data[key]
        for d in (raw if isinstance(raw, list) else [raw]):
            d.pop("items", None)
    a, b = _pairs(case, "a", rules), _pairs(case, "b", rules)
    seats: dict[str, int] = {}
    for i, _ in enumerate(a):
        seats[f"A{i + 1}"] = i
    for i, _ in enumerate(b):
        seats[f"B{i + 1}"] = len(a) + i
    seats["A"], seats["B"] = 0, len(a)
    try:
        game = BattleGame(rules, (a, b), lambda: dice, attacker=attacker,
                          surprise=case.bool("surprise", False), snipe=case.bool("snipe", False),
                          lineups=(lineup[0] or None, lineup[1] or None), setup=setup)
    except Exception as exc:  # noqa: BLE001 - any rules error is a case error
        raise ScenarioError(case.file, case.key, f"{name}: {exc}") from None
    script = [str(x) for x in case.list("choices", [])]
    guard = 0
    while not game.over:
        guard += 1
        if guard > 1000:
            raise ScenarioError(case.file, case.key, f"{name}: the battle does not end")
        pending = game.pending()
        for seat in sorted(pending):
            dec = pending[seat]
            head, _, answer = script[0].partition(":") if script else ("", "", "")
            if script and seats.get(head) == seat and \
                    (answer in [str(o) for o in dec.options] or "pass" not in dec.options):
                choice = answer
                script.pop(0)
            elif "pass" in dec.options:
                choice = "pass"
            else:
                raise ScenarioError(case.file, case.key,
                                    f"{name}: no scripted answer for seat {seat} {dec.kind} "
                                    f"(options {list(dec.options)}; next scripted: "
                                    f"{script[0] if script else 'none'})")
            try:
                game.submit(seat, choice)
            except Exception as exc:  # noqa: BLE001
                raise ScenarioError(case.file, case.key, f"{name}: {exc}") from None
    if script:
        raise ScenarioError(case.file, case.key, f"{name}: scripted answers left unused: {script}")
    brief = case.bool("brief", False)
    text = {lang: Renderer(lang, brief=brief).text(game.events) for lang in ("ja", "en")}
    return CaseRun(name, game, dice, text)


def load_cases(path: str | Path) -> list[Table]:
    p = Path(path)
    root = Table(read_toml(p, ScenarioError), str(p), "", ScenarioError)
    return root.tables("case")
