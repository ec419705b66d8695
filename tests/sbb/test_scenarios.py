"""Every scenario file under tests/sbb/scenarios runs through the judge and must give the
result its ``[expect]`` table states: the event kinds in order (a subsequence), and the
listed values of lands, pool, next parent, seats, game end and winners."""

from pathlib import Path

import pytest

from fuyuki.core.data import read_toml
from fuyuki.sbb.judge import judge

ROOT = Path(__file__).parent / "scenarios"
FILES = sorted(p for p in ROOT.rglob("*.toml"))


def _subsequence(wanted: list[str], kinds: list[str]) -> bool:
    it = iter(kinds)
    return all(any(k == w for k in it) for w in wanted)


def check(path: Path) -> None:
    expect = read_toml(path).get("expect", {})
    verdict = judge(path, "en")
    res = verdict.result
    kinds = [e.kind for e in verdict.game.events]
    if "events" in expect:
        assert _subsequence(expect["events"], kinds), f"events {expect['events']} not in {kinds}\n" + "\n".join(verdict.log)
    for kind in expect.get("no_events", []):
        assert kind not in kinds, f"unexpected event {kind}\n" + "\n".join(verdict.log)
    for key in ("pool", "next_parent", "game_over", "winners"):
        if key in expect:
            assert res[key] == expect[key], f"{key}: {res[key]} != {expect[key]}\n" + "\n".join(verdict.log)
    for land, gems in expect.get("lands", {}).items():
        assert res["lands"][land] == gems, f"land {land}: {res['lands'][land]} != {gems}\n" + "\n".join(verdict.log)
    for seat, values in expect.get("seat", {}).items():
        got = res["seats"][int(seat)]
        for key, value in values.items():
            if key == "revealed":
                assert sorted(got[key]) == sorted(value), f"seat {seat} {key}: {got[key]} != {value}\n" + "\n".join(verdict.log)
            else:
                assert got[key] == value, f"seat {seat} {key}: {got[key]} != {value}\n" + "\n".join(verdict.log)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario(path):
    check(path)


def test_every_scenario_states_an_expectation():
    for path in FILES:
        if path.name == "example.toml":
            continue
        assert read_toml(path).get("expect"), f"{path} has no [expect]"
