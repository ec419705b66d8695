"""RNG versions (fuyuki.core.rng): a new game plays with version 2 and says so in its record;
a record replays with the version it names — version 1 when it names none (the records made
before version 2)."""

from __future__ import annotations

import json

import pytest

from fuyuki.core import contract
from fuyuki.core.errors import DataError
from fuyuki.core.record import Record
from fuyuki.sbb import new_game, setup_overrides
from fuyuki.sbb.agents import make_bot, play_out
from fuyuki.sbb.game import RNG_VERSION


def _played(rng: int):
    g = new_game(4, 11, rng=rng)
    play_out(g, [make_bot("random", 11 * 4 + k) for k in range(4)])
    return g


def test_a_new_game_plays_with_rng_version_2_and_records_it():
    assert RNG_VERSION == 2
    assert new_game(4, 1).record.config["rng"] == 2
    assert "rng" not in new_game(4, 1, rng=1).record.config   # a version-1 record, as before


def test_the_versions_deal_different_games_from_one_seed():
    a, b = new_game(4, 1, rng=1), new_game(4, 1, rng=2)
    assert a.s.hand != b.s.hand or a.s.adeck != b.s.adeck


@pytest.mark.parametrize("rng", [1, 2])
def test_a_record_replays_with_the_rng_version_it_names(rng: int):
    g = _played(rng)
    record = Record.from_json(g.record.to_json())   # as a save file holds it
    for again in (setup_overrides.replay(record), contract.replay(record)):
        assert again.result == g.result
        assert [e.to_json() for e in again.events] == [e.to_json() for e in g.events]


def test_a_save_naming_an_unknown_rng_version_is_refused_by_name():
    g = _played(2)
    config = dict(g.record.config, rng=3)
    with pytest.raises(DataError, match=r"rng.*must be at most 2, not 3"):
        contract.replay(Record("sbb", g.record.seed, config, list(g.record.submissions)), "x.json")


def test_an_unknown_rng_version_is_refused_in_the_players_language(tmp_path):
    from typer.testing import CliRunner

    from fuyuki.cli.main import app

    g = _played(2)
    data = g.record.to_json()
    data["config"]["rng"] = 3
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    ja = CliRunner().invoke(app, ["replay", str(path), "--lang", "ja"])
    en = CliRunner().invoke(app, ["replay", str(path), "--lang", "en"])
    assert ja.exit_code == en.exit_code == 2
    assert "config.rng：2以下でなければなりません（3）" in ja.output
    assert "config.rng: must be at most 2, not 3" in en.output and "Traceback" not in en.output
