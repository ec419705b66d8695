"""BCDice-style battle cases (tests/rpg/cases/*.toml): state in, fixed rolls, exact text out.

Every case must use all of its fixed rolls and all of its scripted answers; ``expect`` pins
the numbers (computed by hand from the seed's rules), ``output`` / ``output_en`` pin the text.
"""

from pathlib import Path

import pytest

from fuyuki.core.errors import ScenarioError
from fuyuki.rpg.cases import load_cases, run_case
from fuyuki.rpg.rules import default_rules

CASES_DIR = Path(__file__).parent / "cases"


def _all_cases():
    out = []
    for path in sorted(CASES_DIR.glob("*.toml")):
        cases, sheets = load_cases(path)
        for case in cases:
            out.append(pytest.param(case, sheets, id=f"{path.stem}:{case.data.get('name')}"))
    return out


def _last(events, kind, **match):
    found = [e for e in events if e.kind == kind and all(e.data.get(k) == v for k, v in match.items())]
    assert found, f"no {kind} event"
    return found[-1].data


def check_expect(run, expect):
    g = run.game
    ev = g.events
    side = {"A": 0, "B": 1}
    for key, want in expect.items():
        if key == "winner":
            assert g.result.winner == side[want], key
        elif key == "initiative":
            assert _last(ev, "initiative")["side"] == side[want], key
        elif key == "initiative_reason":
            assert _last(ev, "initiative")["reason"] == want, key
        elif key in ("rate", "raw", "table", "diff"):
            assert _last(ev, "rate")[key] == want, key
        elif key == "result":
            r = _last(ev, "rate")
            assert [r["adv"], r["draw"], r["dis"]] == want, key
        elif key == "bonus":
            r = _last(ev, "rate")
            assert [r["bonus_own"], r["bonus_other"]] == want, key
        elif key == "base":
            r = _last(ev, "rate")
            assert [r["base_own"], r["base_other"]] == want, key
        elif key in ("totals_a", "totals_b"):
            assert _last(ev, "totals", side=side[key[-1].upper()])["totals"] == want, key
        elif key == "stats":
            got = [[e.data["stat"], e.data["a"], e.data["b"]] for e in ev if e.kind == "compare"]
            assert got == want, key
        elif key.startswith("mana_") or key.startswith("seals_"):
            attr, who = key.split("_")
            ps = next(p for p in g.states if p.id == who)
            assert getattr(ps, attr) == want, key
        elif key.startswith("items_"):
            ps = next(p for p in g.states if p.id == key[6:])
            assert ps.items == want, key
        elif key == "out":
            assert g.result.out == want, key
        elif key == "retreated":
            assert g.result.retreated == want, key
        elif key == "retreat_cost":
            assert _last(ev, "retreat_cost")["cost"] == want, key
        elif key == "halving_over":
            assert any(e.kind == "halving_over" for e in ev) == want, key
        elif key == "roll":
            assert g.result.roll == want, key
        else:
            raise AssertionError(f"unknown expect key {key}")


@pytest.mark.parametrize("case,sheets", _all_cases())
def test_battle_case(case, sheets):
    rules = default_rules()
    error = case.data.get("error")
    if error:
        with pytest.raises(ScenarioError) as info:
            run_case(case, rules, sheets)
        assert error in str(info.value)
        return
    run = run_case(case, rules, sheets)
    run.dice.check_all_used()
    check_expect(run, case.data.get("expect", {}))
    if "output" in case.data:
        assert run.text["ja"] == case.data["output"].strip("\n")
    if "output_en" in case.data:
        assert run.text["en"] == case.data["output_en"].strip("\n")
