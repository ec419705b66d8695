"""Ctrl-C at a prompt ends a game saying how it goes on: a war saved with --save goes on with
``war new --resume FILE``; the other games, which cannot be continued from the middle, say
where their record is and the command that deals the same game again."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from fuyuki.cli.main import app

runner = CliRunner()


ANSWERS: list[str] = []      # what is typed at the prompts before Ctrl-C


@pytest.fixture(autouse=True)
def ctrl_c_after_the_answers(monkeypatch) -> None:
    def interrupt(self, prompt: str = "", **kw) -> str:
        if ANSWERS:
            return ANSWERS.pop(0)
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "input", interrupt)


def run(*args: str):
    result = runner.invoke(app, list(args), env={"FUYUKI_LANG": ""})
    assert result.exit_code == 130, result.output
    return result.output


def test_a_war_saved_says_how_to_resume_it_and_resumes(tmp_path: Path) -> None:
    save = tmp_path / "war.json"
    out = run("war", "new", "--seed", "1", "--save", str(save))     # nothing decided yet
    assert "（中断しました）" in out and not save.exists()
    assert f"始め直すには：\n  fuyuki war new --seed 1 --save {save}" in out
    ANSWERS[:] = ["1"] * 6
    out = run("war", "new", "--seed", "1", "--save", str(save))
    assert f"fuyuki war new --resume {save}" in out and save.is_file()
    en = run("war", "new", "--resume", str(save), "--lang", "en")
    assert f"To go on:\n  fuyuki war new --resume {save}" in en


def test_a_war_not_saved_says_to_save_it_next_time() -> None:
    out = run("war", "new", "--seed", "1")
    assert "--save" in out and "fuyuki war new --resume" in out


def test_servant_big_battle_names_its_record_and_the_same_deal(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    out = run("play", "--players", "3", "--seed", "5", "--save", str(save))
    assert f"fuyuki replay {save}" in out and save.is_file()
    assert "対局を途中から続ける機能はありません" in out
    assert "fuyuki play --players 3 --seed 5" in out       # the same deal, without --save
    en = run("play", "--seed", "5", "--lang", "en")
    assert "A game cannot be continued from the middle" in en
    assert "fuyuki play --lang en --seed 5" in en and "--save FILE" in en


def test_the_board_game_says_the_same_game_again() -> None:
    out = run("board", "play", "--players", "2", "--seed", "4")
    assert "fuyuki board play --players 2 --seed 4" in out
    assert "次からは --save" in out
