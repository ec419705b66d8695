"""Rule scenarios as data (BCDice style): a setup, fixed dice, the submissions, the exact
expected state. ``python tests/board/scenario.py FILE`` shows where a scenario stops (to write one)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from fuyuki.core.data import read_toml
from fuyuki.core.errors import IllegalAction, ScenarioError

from fuyuki import board

HERE = Path(__file__).parent / "scenarios"


def load(path: Path) -> dict[str, Any]:
    data = read_toml(path, ScenarioError)
    for key in ("rule", "camps", "steps"):
        if key not in data:
            raise ScenarioError(str(path), key, "missing")
    return data


def start(data: dict[str, Any]) -> "board.Game":
    setup = {"start_hand": 0, "clear_deck": True, **data.get("setup", {})}
    return board.new_game(players=len(data["camps"]), seed=data.get("seed", 0),
                          camps=data["camps"], setup=setup, dice=data.get("dice", []))


def run(data: dict[str, Any], path: str = "<scenario>") -> "board.Game":
    g = start(data)
    for i, step in enumerate(data["steps"]):
        seat, choice = step
        pend = g.pending()
        if seat not in pend:
            raise AssertionError(f"{path}: step {i} {step}: pending is "
                                 f"{ {s: (d.kind, d.options) for s, d in pend.items()} }")
        try:
            g.submit(seat, choice)
        except IllegalAction as exc:
            raise AssertionError(f"{path}: step {i} {step}: {exc}") from None
    return g


def check(g: "board.Game", expect: dict[str, Any], path: str) -> None:
    for cid, spec in expect.get("chars", {}).items():
        ch = g.chars[cid]
        for k, v in spec.items():
            got = {"pos": g.area(ch.pos), "camp": -1 if ch.camp is None else ch.camp}.get(
                k, getattr(ch, k, None))
            assert got == v, f"{path}: chars.{cid}.{k}: expected {v!r}, got {got!r}"
    for seat, spec in expect.get("camps", {}).items():
        camp = g.camps[int(seat)]
        for k, v in spec.items():
            if k in ("hand", "plotted"):
                got: Any = len(getattr(camp, k))
            elif k == "territory":
                got = "none" if camp.territory is None else g.area(camp.territory["pos"])
            elif k == "territory_done":
                got = bool(camp.territory and camp.territory["done"])
            else:
                got = getattr(camp, k)
            assert got == v, f"{path}: camps.{seat}.{k}: expected {v!r}, got {got!r}"
    kinds = [e.kind for e in g.events]
    want = expect.get("events", [])
    it = iter(kinds)
    missing = [k for k in want if k not in it]
    assert not missing, f"{path}: events {want} not in order in {kinds}"
    for k in expect.get("no_events", []):
        assert k not in kinds, f"{path}: event {k!r} should not happen"
    for k, v in expect.get("event_data", {}).items():
        evs = [e.data for e in g.events if e.kind == k]
        assert evs, f"{path}: no {k!r} event"
        for field, value in v.items():
            got = [e.get(field) for e in evs]
            assert value in got, f"{path}: {k}.{field}: {value!r} not in {got!r}"
    pend = g.pending()
    if "pending" in expect:
        got = next(iter(pend.values())).kind if pend else "none"
        assert got == expect["pending"], f"{path}: pending {got!r}, expected {expect['pending']!r}"
    for k, v in expect.get("pending_info", {}).items():
        got = next(iter(pend.values())).info.get(k) if pend else None
        assert got == v, f"{path}: pending info {k}: {got!r}, expected {v!r}"
    opts = [o for d in pend.values() for o in d.options]
    for o in expect.get("options_include", []):
        assert o in opts, f"{path}: option {o!r} missing from {opts}"
    for o in expect.get("options_exclude", []):
        assert o not in opts, f"{path}: option {o!r} should not be offered ({opts})"
    if "winner" in expect:
        assert g.result is not None, f"{path}: the game is not over"
        w = g.result["winner"]
        assert (-1 if w is None else w) == expect["winner"], f"{path}: winner {w}"
    if "dice_left" in expect:
        assert len(g._fixed_dice or []) == expect["dice_left"], f"{path}: dice left {g._fixed_dice}"


if __name__ == "__main__":
    p = Path(sys.argv[1])
    d = load(p)
    g = run(d, str(p))
    from fuyuki.board.text import Texts
    v = g.view(None, since=0)
    tx = Texts(g.pack, v, "en")
    for e in g.events:
        print(" ", e.kind, e.data if e.kind not in ("turn",) else "", e.to or "")
    for s, dec in g.pending().items():
        print("PENDING seat", s, dec.kind, dec.options, dec.info)
    print("dice left", g._fixed_dice)
    for c in g.chars.values():
        print(c.id, c.hp, c.alive, c.camp, g.area(c.pos))
