"""The terminal commands: play, replay, judge (through typer's runner, as a user runs them)."""

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from fuyuki.cli.main import app

runner = CliRunner()
SCEN = Path(__file__).parent / "scenarios"


def test_play_bots_only_prints_whole_game_and_exits_0(tmp_path):
    r = runner.invoke(app, ["play", "--bots-only", "--seed", "5", "--save", str(tmp_path / "g.json")])
    assert r.exit_code == 0, r.output
    assert "ゲーム終了" in r.output and "勝者" in r.output
    rec = json.loads((tmp_path / "g.json").read_text())
    assert rec["seed"] == 5 and rec["submissions"]


def test_play_bots_only_in_english_three_and_five_players():
    for n in (3, 5):
        r = runner.invoke(app, ["play", "--bots-only", "--seed", "6", "--players", str(n), "--lang", "en",
                                "--bots", "random"])
        assert r.exit_code == 0, r.output
        assert "Game over" in r.output


def test_replay_prints_the_same_game(tmp_path):
    runner.invoke(app, ["play", "--bots-only", "--seed", "7", "--save", str(tmp_path / "g.json"), "--lang", "en"])
    r = runner.invoke(app, ["replay", str(tmp_path / "g.json"), "--lang", "en"])
    assert r.exit_code == 0 and "Game over" in r.output


def test_replay_bad_file_exits_2(tmp_path):
    (tmp_path / "bad.json").write_text("{")
    r = runner.invoke(app, ["replay", str(tmp_path / "bad.json"), "--lang", "en"])
    assert r.exit_code == 2 and "not valid JSON" in r.output


def test_human_plays_with_bad_input_reprompted():
    """A human at seat 0 answers every prompt with option 1 after one bad answer."""
    answers = "zzz\n" + "1\n" * 400
    r = runner.invoke(app, ["play", "--seed", "8", "--bots", "random", "--lang", "en"], input=answers)
    assert re.search(r"Enter a number from 1 to \d+ or a name \(\? for help\)", r.output)
    assert "zzz" not in r.output.replace("answers", "")
    assert "Choose a master (draft)" in r.output and "You: " in r.output
    assert r.exit_code in (0, 1)   # 1: input ran out before the end


def test_judge_text_and_json():
    path = SCEN / "final" / "case1_np_beats_sorties.toml"
    r = runner.invoke(app, ["judge", str(path), "--lang", "en"])
    assert r.exit_code == 0 and "Case 1" in r.output
    r = runner.invoke(app, ["judge", str(path), "--json"])
    data = json.loads(r.output)
    assert set(data) == {"lands", "pool", "next_parent", "seats", "game_over", "winners", "log"}
    assert set(data["seats"][0]) == {"gems", "master", "servant", "master_lost", "servant_lost", "dark",
                                     "revealed", "hand_size"}
    assert data["seats"][0]["gems"] == 5


def test_judge_invalid_scenario_exits_2_naming_the_key():
    r = runner.invoke(app, ["judge", str(Path(__file__).parent / "bad" / "unknown_master.toml")])
    assert r.exit_code == 2
    assert "seat[0].master" in r.output and "lancelot" in r.output


def test_judge_missing_file_exits_2(tmp_path):
    r = runner.invoke(app, ["judge", str(tmp_path / "none.toml")])
    assert r.exit_code == 2 and "ファイルがありません" in r.output      # ja by default
    r = runner.invoke(app, ["judge", str(tmp_path / "none.toml"), "--lang", "en"])
    assert r.exit_code == 2 and "no such file" in r.output


def test_judge_mode_flag_overrides_and_refuses_removed_card():
    """fate removes 桜: a scenario using her under --mode fate is refused, naming the key."""
    path = SCEN / "final" / "sakura_dark_power_plus_two.toml"
    r = runner.invoke(app, ["judge", str(path), "--mode", "fate"])
    assert r.exit_code == 2
    assert "seat[0].master" in r.output and "removes the master 'sakura'" in r.output


def test_play_refuses_impossible_player_count():
    r = runner.invoke(app, ["play", "--bots-only", "--mode", "big_battle", "--players", "4"])
    assert r.exit_code == 2 and "7" in r.output


def test_screen_marks_hidden_cards_and_parent_in_english():
    """Rich markup must not swallow the bracketed markers ([hidden], [parent])."""
    r = runner.invoke(app, ["play", "--seed", "8", "--bots", "random", "--lang", "en"],
                      input="1\n" * 30)
    assert "[hidden]" in r.output and "[parent]" in r.output


def test_ctrl_c_saves_and_exits_130(tmp_path, monkeypatch):
    from fuyuki.cli import sbb_commands

    def interrupt(self, decision):
        raise KeyboardInterrupt
    monkeypatch.setattr(sbb_commands.Terminal, "choose", interrupt)
    r = runner.invoke(app, ["play", "--seed", "3", "--save", str(tmp_path / "g.json")])
    assert r.exit_code == 130 and "（中断しました）" in r.output
    assert json.loads((tmp_path / "g.json").read_text())["seed"] == 3


def test_hard_bots_with_an_iteration_budget_replay_the_same_game():
    """--bots hard with the same --seed and --bot-iterations plays the same game every run
    (the default time budget depends on the machine)."""
    args = ["play", "--bots", "hard", "--bots-only", "--seed", "3", "--players", "3",
            "--bot-iterations", "8", "--lang", "en"]
    first, second = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "Winner" in first.output and first.output == second.output
    bad = runner.invoke(app, args[:-4] + ["--bot-iterations", "0", "--lang", "en"])
    assert bad.exit_code == 2 and "--bot-iterations" in bad.output


def test_judge_sends_a_scenario_to_its_games_judge_by_its_game_key(tmp_path):
    """`fuyuki judge FILE`: ``game = "board"`` / ``"war"`` goes to that game's judge; another
    game, or Servant Big Battle's options on another game's scenario, is one line, exit 2."""
    board = Path(__file__).parents[1] / "board" / "scenarios" / "move_edge_stays.toml"
    r = runner.invoke(app, ["judge", str(board), "--lang", "en"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["judge", str(board), "--edition", "v1.0"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    assert "sbb" in r.output and "Traceback" not in r.output
    other = tmp_path / "chess.toml"
    other.write_text('game = "chess"\n', encoding="utf-8")
    for lang, words in (("ja", "どれか"), ("en", "must be one of")):
        r = runner.invoke(app, ["judge", str(other), "--lang", lang])
        assert r.exit_code == 2 and words in r.output and "'chess'" in r.output, r.output
