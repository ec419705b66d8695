"""``fuyuki simulate`` checks what it is asked before any game is played (an output directory
it cannot write in, a number of games below 1), and its tables show every master and servant:
a row for each, or a line saying why one has none."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fuyuki.cli.main import app

runner = CliRunner()


@pytest.fixture
def no_game_played(monkeypatch):
    def played(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr("fuyuki.sim.runner.simulate", played)


@pytest.mark.parametrize("args", [["--out", "/proc/nope"], ["--out", "/proc/nope/deeper"],
                                  ["--games", "0"], ["--games", "-5"]], ids=" ".join)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_bad_output_or_count_is_refused_before_any_game(args, lang, no_game_played) -> None:
    res = runner.invoke(app, ["simulate", "--no-progress", "--lang", lang, "-n", "3", *args])
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.output
    assert lines[0].startswith("エラー：" if lang == "ja" else "error: ")


def test_an_output_directory_tried_is_not_left_behind(tmp_path) -> None:
    from fuyuki.cli.outputs import writable_dir

    writable_dir(tmp_path / "a" / "b", "--out")
    assert list(tmp_path.iterdir()) == []


def _report(*args: str) -> tuple[dict, str]:
    res = runner.invoke(app, ["simulate", "-n", "8", "-w", "1", "--gap-games", "0",
                              "--no-progress", "--seed", "1", *args])
    assert res.exit_code == 0, res.output
    js = runner.invoke(app, ["simulate", "-n", "8", "-w", "1", "--gap-games", "0",
                             "--no-progress", "--seed", "1", "--json", *args])
    return json.loads(js.stdout), res.output


@pytest.mark.parametrize("mode", [[], ["--mode", "fate"], ["--mode", "hollow"]],
                         ids=["standard", "fate", "hollow"])
def test_every_master_and_servant_has_a_row_or_a_reason(mode: list[str]) -> None:
    from fuyuki.sim.config import SimConfig

    report, text = _report(*mode)
    cards = SimConfig(mode=mode[1] if mode else None, bots=("random",)).rules().cards
    for section, every in (("masters", cards.masters), ("servants", cards.servants)):
        rows = {r["id"] for r in report[section]}
        absent = {c["id"]: c["why"] for c in report["absent"][section]}
        assert rows | set(absent) == set(every) and not rows & set(absent)
        for card in every.values():
            assert card.name["ja"] in text, card.name["ja"]
    if mode:
        assert "この版・モードにないカード（表にない）：" in text
        assert "not_in_rules" in {c["why"] for c in report["absent"]["masters"]}


def test_a_card_no_bot_drafted_shows_a_row_saying_so() -> None:
    report, text = _report()
    never = [c for c in report["absent"]["masters"] + report["absent"]["servants"]
             if c["why"] == "not_drafted"]
    assert never, "eight games in which every card was drafted: pick another seed"
    assert "ドラフトで選ばれず" in text
