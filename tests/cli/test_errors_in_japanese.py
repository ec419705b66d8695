"""A mistake in Japanese mode is answered in Japanese: scripted runs of the errors issue 48
lists (and their neighbours) fail on an English sentence in the error line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuyuki.cli.main import app
from tests.cli.english import english_runs

runner = CliRunner()
SHEETS = Path(__file__).resolve().parents[2] / "src" / "fuyuki" / "rpg" / "data" / "sheets"
SABER, ASSASSIN = str(SHEETS / "saber.toml"), str(SHEETS / "assassin.toml")


def _english_in_the_error(args: list[str]) -> None:
    result = runner.invoke(app, args, input="", env={"FUYUKI_LANG": ""})
    assert result.exit_code == 2, result.output
    line = result.output.strip().splitlines()[-1]
    assert line.startswith("エラー："), line
    assert not english_runs(line, words=2), line


@pytest.mark.parametrize("args", [
    ["play", "--seed", "abc"], ["play", "--lang", "xx"], ["board", "play", "--nope"],
    ["war", "new", "--turns", "x"], ["war", "new", "--human", "nobody"], ["rules", "xx"],
    ["simulate", "--games", "0"], ["simulate", "--games", "-3"],
    ["simulate", "--games", "2", "--out", "/proc/nope"], ["simulate", "--bots", "foo"],
    ["simulate", "--players", "9"], ["simulate", "--bots", "random,heuristic"],
    ["simulate", "--fix", "x"], ["simulate", "--fix", "7=sakura+saber"],
    ["simulate", "--assign", "zz"], ["simulate", "--compare", "zz"],
    ["simulate", "--seconds-per-round", "0"], ["simulate", "--bot-iterations", "0"],
], ids=" ".join)
def test_an_error_in_japanese_mode_has_no_english_sentence(args: list[str]) -> None:
    _english_in_the_error(args)


@pytest.mark.parametrize("args", [
    ["play", "--players", "9"], ["play", "--bots", "foo"], ["play", "--edition", "foo"],
    ["play", "--mode", "foo"], ["play", "--option", "foo"],
    ["play", "--bots", "hard", "--bot-iterations", "0"], ["simulate", "--fix", "0=foo+saber"],
    ["play", "--seat", "7"], ["board", "play", "--players", "9"],
    ["board", "play", "--bots", "foo"], ["board", "play", "--seat", "9"],
    ["board", "play", "--camps", "foo,saber"], ["board", "play", "--camps", "saber,saber"],
    ["war", "new", "--turns", "0"], ["war", "battle", SABER, ASSASSIN, "--attacker", "X"],
    ["war", "battle", SABER, ASSASSIN, "--lineup-a", "foo"],
    ["war", "battle", SABER, ASSASSIN, "--lineup-a", "foo|bar"],
    ["board", "simulate", "--games", "0"],
], ids=" ".join)
def test_a_rules_bots_or_seat_error_in_japanese_mode(args: list[str]) -> None:
    """The errors raised by the rules, the bots and the seat checks carry their codes."""
    _english_in_the_error(args)
