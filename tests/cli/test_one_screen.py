"""Every decision on one 80×24 screen (issue 48 item 5): scripted games of the three games,
in both languages, at 80 columns, with piped answers (bots in the other seats); between two
prompts at most 23 lines, so that the prompt line makes the 24th. In Japanese mode, the
line answering a bad choice, and the rest of what the player reads, hold no English
sentence."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
from rich.text import Text
from typer.testing import CliRunner

from fuyuki.cli.main import app
from fuyuki.cli.screen import SCREEN_LINES
from tests.cli.english import english_runs

runner = CliRunner()
#: the prompts: a choice, and the war's note after a コミュ
PROMPT = re.compile(r"(?:番号か名前（\? でヘルプ）|Number or name \(\? for help\)"
                    r"|コミュのメモ（任意、ログにのみ記録）|communication note \(optional, only logged\)) > ")

GAMES = {
    "sbb": (["play", "--seed", "7"], 80),
    "sbb tutorial": (["play", "--seed", "40", "--tutorial"], 80),
    "board": (["board", "play", "--seed", "2", "--players", "3"], 400),
    "board tutorial 5 camps": (["board", "play", "--seed", "4", "--players", "5", "--tutorial"],
                               600),
    "war": (["war", "new", "--seed", "1", "--turns", "3"], 300),
    "war tutorial": (["war", "new", "--seed", "3", "--turns", "3", "--tutorial"], 300),
    # the one-battle calculator, a person deciding for both sides
    "war battle": (["war", "battle", "red-saber", "black-lancer", "--seed", "1", "--human", "AB",
                    "--attacker", "A"], 40),
}


def _screens(args: list[str], lang: str, answers: str) -> tuple[str, list[list[str]]]:
    r = runner.invoke(app, [*args, "--lang", lang], input=answers,
                      env={"COLUMNS": "80", "LINES": "24", "FUYUKI_LANG": ""})
    assert r.exit_code == 0, r.output[-3000:]
    chunks = PROMPT.split(r.output)
    return r.output, [chunk.split("\n") for chunk in chunks[1:-1]]


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("game", list(GAMES))
def test_at_most_24_lines_from_one_prompt_to_the_next(game: str, lang: str) -> None:
    args, n = GAMES[game]
    output, screens = _screens(args, lang, "1\n" * n)
    assert len(screens) >= 8, output[-2000:]
    for screen in screens:
        # the answer typed at the prompt ends that line: the chunk's first piece belongs to it
        assert len(screen) - 1 <= SCREEN_LINES - 1, "\n".join(screen)
        assert all(cell_len(line) <= 80 for line in screen[1:]), "\n".join(screen)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_bad_answer_and_the_screens_in_japanese_hold_no_english_sentence(game: str) -> None:
    args, n = GAMES[game]
    output, screens = _screens(args, "ja", "zzz\n" + "1\n" * n)
    assert screens
    bad = [line for line in output.splitlines() if "の番号か名前を入力してください" in line]
    assert bad and not english_runs("\n".join(bad), words=2)
    assert not english_runs(output, words=3), english_runs(output, words=3)


def test_the_war_tutorial_explains_each_new_kind_of_decision_once() -> None:
    output, _ = _screens(GAMES["war tutorial"][0], "ja", "1\n" * 300)
    lessons = [line for line in output.splitlines() if line.startswith("【チュートリアル】")]
    assert len(lessons) >= 3 and len(lessons) == len(set(lessons)), lessons
    assert any(line.startswith("【チュートリアル】このターンの行動を選びます") for line in lessons)
    plain, _ = _screens(GAMES["war"][0], "ja", "1\n" * 300)
    assert "チュートリアル" not in plain


# ------------------------------------------------------------------ the screen's parts
def test_what_befell_the_player_is_kept_first_when_the_lines_do_not_fit() -> None:
    from rich.console import Console

    from fuyuki.cli.screen import MINE, OUTCOME, Since, fit

    since = [Since(f"outcome {i}", OUTCOME) for i in range(10)]
    since[2:2] = [Since("セイバー HP 19（−10）", MINE)]
    since[8:8] = [Since("セイバー HP 9（−10）", MINE)]
    console = Console(width=80, record=True)
    for line in fit(console, "ja", since, 5):
        console.print(line)
    shown = console.export_text()
    assert "HP 19" in shown and "HP 9" in shown and "（ほか8件：log で全記録）" in shown
    assert shown.count("\n") == 5 and "outcome 9" in shown     # then the latest others


def test_log_at_a_prompt_shows_the_whole_log_and_asks_again(monkeypatch) -> None:
    from rich.console import Console

    from fuyuki.cli.screen import Decider, Frame, Since

    console = Console(width=80, record=True)
    answers = iter(["log", "2"])
    monkeypatch.setattr(console, "input", lambda prompt="": next(answers))
    decider = Decider(console, "en")
    decider.log = [f"event {i}" for i in range(40)]
    index = decider.decide(Frame(since=[Since("event 39")], prompt=[Text("Choose")]),
                           [["a"], ["b"]], lambda: None)
    shown = console.export_text()
    assert index == 1 and all(f"event {i}\n" in shown for i in range(40))
    assert "Enter a number" not in shown


def test_the_jewel_prompt_shows_the_battle_totals_so_far() -> None:
    from fuyuki.cli.sbb_screen import battle_totals
    from fuyuki.core.events import Event
    from fuyuki.sbb import new_game

    game = new_game(4, 3)
    cards = game.rules.cards
    view = game.view(0)
    servants = list(cards.servants)[:2]
    view["seats"][0]["servant"], view["seats"][1]["servant"] = servants
    events = [Event("reveal", {"bids": ["red-sortie-2", "red-sortie-3", None, None]}),
              Event("battle", {"land": view["lands"][0]["id"], "seats": [0, 1]})]
    line, = battle_totals(events, view, cards, "ja")
    powers = [cards.servants[s].power for s in servants]
    assert "出撃2 + " in line and f"= {2 + powers[0]}" in line and f"= {3 + powers[1]}" in line
    assert "宝石魔術と技・土地の修正の前" in line


def test_a_board_player_knocked_out_is_told_and_may_stop_or_watch() -> None:
    args = ["board", "play", "--seed", "1", "--players", "5"]
    watched = runner.invoke(app, args, input="1\n" * 600, env={"COLUMNS": "80"}).output
    out = "あなたの陣営は脱落しました。"
    assert out in watched and "1. 残りを要約で観戦する  2. ここで終わる" in watched
    before, after = watched.split(out)
    assert "セイバー陣営は脱落した。" in before[-300:]
    assert "勝者：" in after and "《攻撃》" in after           # watched, condensed: outcomes
    assert "引いた" not in after                              # not the steps
    asked = len(PROMPT.findall(before))
    stopped = runner.invoke(app, args, input="1\n" * asked + "2\n", env={"COLUMNS": "80"})
    assert stopped.exit_code == 0
    rest = stopped.output.split(out)[1]
    assert "（観戦をやめました）" in rest and "《攻撃》" not in rest
