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
    a = "saber"                    # a sheet of [sheets], an inline pair table, or a list
    b = "archer"                   #   of them (allied pairs)
    b_set = { mana = -40, seals = 1, items = { charm = 2 } }   # state overrides

    [sheets.saber]
    servant = { name = "...", lv = 60, stats = { str = 50, ... } }
    master = { name = "...", stats = { ... } }

A scripted answer goes to the next decision of its seat where it is a legal option; a decision
in between is answered ``"pass"`` when that is legal;
anything else is an error naming the case and the decision.
"""

from __future__ import annotations

import copy
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
             "output", "output_en", "a", "b", "brief", "error", "a_set", "b_set", "a1_set", "a2_set",
             "b1_set", "b2_set"]


@dataclass
class CaseRun:
    name: str
    game: BattleGame
    dice: FixedDice
    text: dict[str, str]


def _pair_dicts(case: Table, key: str, sheets: dict[str, Any]) -> list[dict[str, Any]]:
    raw = case.data.get(key)
    if isinstance(raw, (dict, str)):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        raise case.fail(key, "a pair table, a sheet name, or a list of them is required")
    out = []
    for i, d in enumerate(raw):
        if isinstance(d, str):
            if d not in sheets:
                raise case.fail(key, f"no sheet named {d!r} in [sheets] (known: {sorted(sheets)})")
            d = sheets[d]
        if not isinstance(d, dict):
            raise case.fail(f"{key}[{i}]", "must be a pair table or a sheet name")
        d = copy.deepcopy(d)
        name = f"{key}{i + 1}_set" if len(raw) > 1 else f"{key}_set"
        over = case.data.get(name, {})
        if not isinstance(over, dict):
            raise case.fail(name, "must be a table of the state to set")
        d.update(copy.deepcopy(over))
        d["id"] = f"{key}{i + 1}"
        out.append(d)
    return out


def run_case(case: Table, rules: Rules, sheets: dict[str, Any] | None = None) -> CaseRun:
    case.check_keys(CASE_KEYS)
    sheets = sheets or {}
    name = case.str("name")
    att = case.str("attacker", "", choices=["", "A", "B"])
    attacker = {"": None, "A": 0, "B": 1}[att]
    lineup = case.list("lineup", ["servant|master", "servant|master"])
    dice = FixedDice(case.list("rolls", []))
    sides = []
    for key in ("a", "b"):
        pairs = []
        for i, d in enumerate(_pair_dicts(case, key, sheets)):
            where = case.where(f"{key}[{i}]")
            pairs.append(parse_pair(Table(d, case.file, where, ScenarioError), rules))
        sides.append(pairs)
    a, b = sides

    seats: dict[str, int] = {}
    for i, _ in enumerate(a):
        seats[f"A{i + 1}"] = i
    for i, _ in enumerate(b):
        seats[f"B{i + 1}"] = len(a) + i
    seats["A"], seats["B"] = 0, len(a)
    try:
        game = BattleGame(rules, (a, b), lambda: dice, attacker=attacker,
                          surprise=case.bool("surprise", False), snipe=case.bool("snipe", False),
                          lineups=(lineup[0] or None, lineup[1] or None))
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


def load_cases(path: str | Path) -> tuple[list[Table], dict[str, Any]]:
    """The cases of a file and its named ``[sheets]``."""
    p = Path(path)
    root = Table(read_toml(p, ScenarioError), str(p), "", ScenarioError)
    root.check_keys(["case", "sheets"])
    sheets = root.table("sheets", {}).data
    return root.tables("case"), sheets
