"""Issue 47 item 5, the doors that still broke in the commands: a file nested hundreds of
levels deep (every TOML and JSON a command reads), a save holding a lone surrogate, a replay's
``--seat`` out of range, a board save whose ``setup`` is not a table — each one line on
standard error and status 2, never a traceback."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from fuyuki.cli.main import app
from fuyuki.core.data import package_file
from fuyuki.core.load import MAX_DEPTH
from tests.core.test_user_files import SCENARIO, one_error_line

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


DEEP_TOML = {
    "arrays": "a = " + "[" * 600 + "]" * 600 + "\n",
    "inline_tables": "a = " + "{ b = " * 600 + "1" + " }" * 600 + "\n",
    "just_too_deep": "players = 3\na = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n",
}

#: every command that reads a TOML file; {f}: the file ({d}: a board pack's directory)
TOML_COMMANDS = {
    "judge": ["judge", "{f}"],
    "cards": ["judge", SCENARIO, "--cards", "{f}"],
    "edition": ["play", "--edition", "{f}", "--bots-only"],
    "board_pack": ["board", "play", "--bots-only", "--pack", "{d}"],
    "rpg_sheet": ["war", "battle", "{f}", "{f}"],
    "roster": ["war", "new", "--roster", "{f}", "--auto"],
    "battle_roster": ["war", "battle", "red-saber", "black-lancer", "--roster", "{f}"],
}


@pytest.mark.parametrize("nesting", list(DEEP_TOML))
@pytest.mark.parametrize("command", list(TOML_COMMANDS))
def test_a_deeply_nested_toml_file_is_one_line_and_status_2(tmp_path, command, nesting):
    pack = tmp_path / "pack"
    shutil.copytree(package_file("fuyuki.board", "data"), pack)
    f = pack / "rules.toml" if command == "board_pack" else tmp_path / "deep.toml"
    f.write_text(DEEP_TOML[nesting], "utf-8")
    args = [str(a).replace("{f}", str(f)).replace("{d}", str(pack))
            for a in TOML_COMMANDS[command]]
    one_error_line(run(*args, "--lang", "en"), f.name, f"nested deeper than {MAX_DEPTH} levels")


def test_the_deep_file_error_is_in_japanese_too(tmp_path):
    f = tmp_path / "deep.toml"
    f.write_text(DEEP_TOML["arrays"], "utf-8")
    one_error_line(run("judge", f), "エラー", f"入れ子が{MAX_DEPTH}段を超えています")


def _save(tmp_path, game: str, config: dict, submissions) -> str:
    p = tmp_path / "save.json"
    p.write_text(json.dumps({"game": game, "seed": 1, "config": config,
                             "submissions": submissions}), "utf-8")
    return str(p)


@pytest.mark.parametrize("command, game", [(["replay"], "sbb"), (["board", "replay"], "board"),
                                           (["war", "new", "--resume"], "rpg-war")])
@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 900, 100000])
def test_a_deeply_nested_save_is_one_line_and_status_2(tmp_path, command, game, depth):
    p = _save(tmp_path, game, {}, "DEEP")
    text = open(p, encoding="utf-8").read().replace('"DEEP"', "[" * depth + "]" * depth)
    open(p, "w", encoding="utf-8").write(text)
    one_error_line(run(*command, p, "--lang", "en"), "save.json", "nested deeper than")


def test_a_war_save_note_with_a_lone_surrogate_is_refused_before_the_war_prints_it(tmp_path):
    """JSON may escape half a UTF-16 pair ("\\udc00"): no such character can be printed or
    written as UTF-8 (the war printed the note and crashed), so the save is refused where it
    is read, naming the key."""
    roster = package_file("fuyuki.rpg", "data", "roster.toml")
    p = _save(tmp_path, "rpg-war", {"roster_toml": roster.read_text("utf-8"),
                                    "roster_path": str(roster), "seed_text": "s", "humans": [],
                                    "max_turns": 1, "notes": [[0, "GM", "NOTE"]]}, [])
    text = open(p, encoding="utf-8").read().replace("NOTE", "\\udc00")
    open(p, "w", encoding="utf-8").write(text)
    one_error_line(run("war", "new", "--resume", p, "--auto", "--lang", "en"), "config",
                   "surrogate")


@pytest.fixture(scope="module")
def saves(tmp_path_factory):
    d = tmp_path_factory.mktemp("saves")
    assert run("play", "--bots-only", "--seed", "1", "--save", d / "sbb.json").exit_code == 0
    assert run("board", "play", "--bots-only", "--seed", "1", "--players", "3",
               "--save", d / "board.json").exit_code == 0
    return d


@pytest.mark.parametrize("command, save, seats", [(["replay"], "sbb.json", 4),
                                                  (["board", "replay"], "board.json", 3)])
@pytest.mark.parametrize("seat", ["9", "-1", "4", "3"])
def test_a_replays_seat_is_one_of_the_games_seats(saves, command, save, seats, seat):
    res = run(*command, saves / save, "--seat", seat, "--lang", "en")
    if 0 <= int(seat) < seats:
        assert res.exit_code == 0 and res.exception is None, res.output
    else:
        one_error_line(res, "--seat", f"0 to {seats - 1}, not {seat}")


@pytest.mark.parametrize("setup, key", [
    ("x", "config.setup"), ({"camps": "x"}, "config.setup.camps"),
    ({"chars": []}, "config.setup.chars"), ({"camps": {"0": "x"}}, "config.setup.camps.0"),
    ({"chars": {"saber": "x"}}, "config.setup.chars.saber"),
])
def test_a_board_save_whose_setup_is_not_a_table(saves, tmp_path, setup, key):
    data = json.loads((saves / "board.json").read_text("utf-8"))
    data["config"]["setup"] = setup
    p = tmp_path / "b.json"
    p.write_text(json.dumps(data), "utf-8")
    one_error_line(run("board", "replay", p, "--lang", "en"), key)
