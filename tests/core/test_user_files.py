"""Every command refuses a bad file with one line on standard error — the file, the key, what
is wrong, in the user's language — and exit status 2: never a traceback, never a game played
to be lost at the end (issue 16 item 4)."""

import json

import pytest
from typer.testing import CliRunner

from fuyuki.cli.main import app
from fuyuki.core.data import package_file

runner = CliRunner()
SCENARIO = package_file("fuyuki.sbb", "data").parents[3] / "tests" / "sbb" / "scenarios" / \
    "final" / "case1_np_beats_sorties.toml"


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def one_error_line(res, *words):
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    lines = res.output.strip().splitlines()
    assert len(lines) == 1, res.output
    for w in words:
        assert w in lines[0], lines[0]
    assert "Traceback" not in res.output


@pytest.fixture
def files(tmp_path):
    (tmp_path / "binary.toml").write_bytes(b"\x00\x01\x02players = 3")
    (tmp_path / "latin1.toml").write_bytes("players = 3 # é".encode("latin-1"))
    (tmp_path / "adir.toml").mkdir()
    (tmp_path / "plain").write_text("x")
    return tmp_path


@pytest.mark.parametrize("command", [
    ["judge", "{f}"], ["play", "--cards", "{f}", "--bots-only"], ["replay", "{f}"],
    ["board", "replay", "{f}"], ["war", "battle", "{f}", "red-saber"],
    ["war", "new", "--roster", "{f}", "--auto"], ["war", "new", "--resume", "{f}"],
    ["war", "verify", "{f}"], ["play", "--edition", "{f}", "--bots-only"],
])
@pytest.mark.parametrize("name, words", [
    ("binary.toml", ["binary"]), ("latin1.toml", ["UTF-8"]), ("adir.toml", ["directory"]),
    ("plain/x.toml", ["not a directory"]), ("missing.toml", ["no such file"]),
])
def test_unreadable_files_are_one_line_and_status_2(files, command, name, words):
    args = [a.replace("{f}", str(files / name)) for a in command] + ["--lang", "en"]
    one_error_line(run(*args), *words)


@pytest.mark.parametrize("name, words", [
    ("plain", ["rules.toml", "not a directory"]), ("adir.toml", ["rules.toml", "no such file"]),
])
def test_a_board_pack_that_is_not_one(files, name, words):
    one_error_line(run("board", "play", "--bots-only", "--pack", files / name, "--lang", "en"),
                   *words)


def test_errors_are_in_the_users_language(files):
    one_error_line(run("judge", files / "latin1.toml"), "エラー", "UTF-8のテキストではありません")
    one_error_line(run("judge", files / "latin1.toml", "--lang", "en"), "error", "not UTF-8 text")


def test_rich_markup_in_a_file_is_shown_as_text(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('players = 3\npool = 1\n[lands]\nemiya = "[/]"\n', "utf-8")
    one_error_line(run("judge", p, "--lang", "en"), "lands.emiya", "'[/]'")
    p.write_text('players = 3\npool = 1\n[lands]\nemiya = "[bold]x[/bold]"\n', "utf-8")
    one_error_line(run("judge", p, "--lang", "en"), "'[bold]x[/bold]'")


@pytest.mark.parametrize("field, value, key", [
    ("seed", "x", "seed"), ("seed", 1.5, "seed"), ("seed", None, "seed"),
    ("config", [], "config"), ("submissions", {}, "submissions"),
    ("submissions", [[None, "x"]], "submissions[0][0]"), ("game", 3, "game"),
])
def test_saves_with_fields_of_the_wrong_type(tmp_path, field, value, key):
    for command, game in ((["replay"], "sbb"), (["board", "replay"], "board"),
                          (["war", "new", "--resume"], "rpg-war")):
        data = {"game": game, "seed": 1, "config": {}, "submissions": []}
        data[field] = value
        p = tmp_path / "save.json"
        p.write_text(json.dumps(data), "utf-8")
        one_error_line(run(*command, p, "--lang", "en"), key)


@pytest.mark.parametrize("config, key", [
    ({"players": "4"}, "config.players"), ({"options": [3]}, "config.options[0]"),
    ({"edition": 1}, "config.edition"), ({"mode": ["x"]}, "config.mode"),
    ({"players": 9}, "config.players"), ({"edition": "v9"}, "config.edition"),
])
def test_sbb_save_config_is_checked(tmp_path, config, key):
    p = tmp_path / "save.json"
    p.write_text(json.dumps({"game": "sbb", "seed": 1, "config": config, "submissions": []}))
    one_error_line(run("replay", p, "--lang", "en"), key)


@pytest.mark.parametrize("config, key", [
    ({"humans": [1]}, "config.humans[0]"), ({"max_turns": "3"}, "config.max_turns"),
    ({"notes": [["x"]]}, "config.notes[0]"), ({"roster_toml": 5}, "config.roster_toml"),
    ({"seed_text": True}, "config.seed_text"),
])
def test_war_save_config_is_checked(tmp_path, config, key):
    roster = package_file("fuyuki.rpg", "data", "roster.toml")
    cfg = {"roster_toml": roster.read_text("utf-8"), "roster_path": str(roster),
           "seed_text": "s", "humans": [], "max_turns": 2, "notes": []} | config
    p = tmp_path / "save.json"
    p.write_text(json.dumps({"game": "rpg-war", "seed": 0, "config": cfg, "submissions": []}))
    one_error_line(run("war", "new", "--resume", p, "--lang", "en"), key)


@pytest.mark.parametrize("command", [
    ["play", "--bots-only", "--save", "{d}/no/such/dir/g.json"],
    ["play", "--bots-only", "--save", "{d}"],
    ["board", "play", "--bots-only", "--save", "{d}/no/g.json"],
    ["war", "new", "--auto", "--turns", "1", "--log", "{d}/no/w.log"],
    ["war", "new", "--auto", "--turns", "1", "--save", "{d}"],
    ["war", "battle", "red-saber", "black-lancer", "--log", "{d}/no/b.log"],
    ["simulate", "-n", "2", "--out", "{d}/file.txt", "--no-progress"],
])
def test_output_paths_are_checked_before_the_game(tmp_path, command):
    (tmp_path / "file.txt").write_text("x")
    res = run(*[a.replace("{d}", str(tmp_path)) for a in command], "--lang", "en")
    one_error_line(res, "--")     # the option is named; nothing was played or printed before


def test_board_replay_of_an_unfinished_game(tmp_path):
    save = tmp_path / "g.json"
    assert run("board", "play", "--bots-only", "--seed", "1", "--save", save).exit_code == 0
    data = json.loads(save.read_text("utf-8"))
    data["submissions"] = data["submissions"][:15]
    save.write_text(json.dumps(data), "utf-8")
    res = run("board", "replay", save, "--lang", "en")
    assert res.exit_code == 0, res.output
    assert "stops before its end" in res.output


def test_board_simulate_with_too_many_players():
    one_error_line(run("board", "simulate", "--players", "6", "--games", "1", "--lang", "en"),
                   "--players", "2 to 5")


def test_unicode_digits_are_not_card_values(tmp_path):
    from fuyuki.sbb.cards import parse_action

    assert parse_action("red-np-²") is None and parse_action("red-np-１") is None
    p = tmp_path / "s.toml"
    p.write_text(SCENARIO.read_text("utf-8").replace('bid = "red-np-1"', 'bid = "red-np-²"', 1))
    one_error_line(run("judge", p, "--lang", "en"), "seat[0].bid", "red-np-²")


def test_markup_in_a_card_files_names_is_printed_as_text(tmp_path):
    """A card named "[/]衛宮[bold]" in a user's card file: play, judge and simulate show the
    name as written (rich would crash on "[/]" or swallow "[bold]")."""
    cards = tmp_path / "cards.toml"
    text = (package_file("fuyuki.sbb", "data") / "cards.toml").read_text("utf-8")
    cards.write_text(text.replace('name = { ja = "衛宮士郎", en = "Emiya Shirou" }',
                                  'name = { ja = "[/]衛宮[bold]", en = "[/]Emiya" }'), "utf-8")
    scenario = SCENARIO.parent / "shirou_substitute_saves_servant.toml"
    for args in (["judge", scenario], ["simulate", "-n", "10", "--no-progress", "--workers", "1"],
                 ["play", "--bots-only", "--seed", "2"]):
        res = run(*args, "--cards", cards, "--lang", "en")
        assert res.exit_code == 0, res.output
        assert "Traceback" not in res.output
    assert "[/]衛宮[bold]" in run("judge", scenario, "--cards", cards).output
