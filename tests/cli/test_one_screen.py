"""Every decision on one 80×24 screen (issue 48 item 5): scripted games of the three games,
in both languages, at 80 columns, with piped answers (bots in the other seats); between two
prompts at most 23 lines, so that the prompt line makes the 24th. In Japanese mode, the
line answering a bad choice, and the rest of what the player reads, hold no English
sentence."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
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
    "war tutorial": (["war", "new", "--seed", "2", "--turns", "3", "--tutorial"], 300),
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
