"""Every text of the command line in the user's language: ``--help`` and the parser's own
messages, in Japanese (the default) and English (``--lang en`` anywhere on the line, or
``FUYUKI_LANG=en``)."""

from __future__ import annotations

import pytest
import typer
from rich.cells import cell_len
from typer.testing import CliRunner

from fuyuki.cli.helptexts import catalog, commands, param_key
from fuyuki.cli.main import app
from tests.cli.english import english_runs

runner = CliRunner()
COMMANDS = [key for key, _ in commands(typer.main.get_command(app))]


def run(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, list(args), env=env or {"FUYUKI_LANG": ""})


def _help(key: str, lang: str) -> str:
    path = [] if key == "fuyuki" else key.split()
    result = run(*path, "--help", "--lang", lang)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_english_run_finder_finds_what_it_must() -> None:
    assert english_runs("エラー：Show this message and exit.") == ["Show this message and exit."]
    assert english_runs("--seed N  乱数の種  [既定：4]") == []
    assert english_runs("fuyuki war new --human red-saber  1組を動かす") == []
    assert english_runs("unknown bot 'foo'", words=2) == ["unknown bot"]


# ------------------------------------------------------------------ help
def test_every_command_and_option_has_a_japanese_help() -> None:
    texts = catalog("ja")
    root = typer.main.get_command(app)
    missing = []
    for key, command in commands(root):
        own = texts.get(key, {})
        if "help" not in own:
            missing.append(key)
        if key != "fuyuki" and "short" not in own:
            missing.append(f"{key} (short)")
        missing += [f"{key} {param_key(p)}" for p in command.params if param_key(p) not in own]
    assert not missing, f"no Japanese help in cli/help.ja.toml for: {missing}"


@pytest.mark.parametrize("key", COMMANDS)
def test_japanese_help_has_no_english_sentence_left(key: str) -> None:
    text = _help(key, "ja")
    assert "使い方：" in text and "Usage" not in text
    assert not english_runs(text), english_runs(text)


@pytest.mark.parametrize("key", COMMANDS)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_help_fits_80_columns_and_shows_a_flag_without_a_type(key: str, lang: str) -> None:
    text = _help(key, lang)
    assert all(cell_len(line) <= 80 for line in text.splitlines())
    assert "<bool>" not in text and "<int>" not in text and "<str>" not in text
    assert "╭" not in text                      # no boxes: plain lines, short


def test_the_tutorial_flag_is_shown_as_a_flag_in_a_short_help() -> None:
    for lang in ("ja", "en"):
        text = _help("play", lang)
        line = next(x for x in text.splitlines() if "--tutorial" in x)
        assert line.split()[0] == "--tutorial" and line.split()[1] not in ("BOOL", "<bool>")
        assert len(text.splitlines()) <= 24


@pytest.mark.parametrize("args", [[], ["--help"]])
def test_fuyuki_alone_and_its_help_say_where_to_start(args: list[str]) -> None:
    for lang, env in (("ja", {"FUYUKI_LANG": ""}), ("en", {"FUYUKI_LANG": "en"})):
        result = run(*args, env=env)
        assert result.exit_code == 0
        for start in ("fuyuki play --tutorial", "fuyuki rules", "fuyuki board play --tutorial",
                      "fuyuki war new --tutorial"):
            assert start in result.output, (lang, start)
        assert ("はじめは" if lang == "ja" else "Where to start") in result.output
        assert len(result.output.splitlines()) <= 40


def test_the_language_comes_from_lang_anywhere_then_fuyuki_lang_then_japanese() -> None:
    assert "Usage: " in run("--lang", "en", "play", "--help").output
    assert "Usage: " in run("play", "--help", "--lang=en").output
    assert "Usage: " in run("play", "--help", env={"FUYUKI_LANG": "en"}).output
    assert "使い方：" in run("play", "--help", "--lang", "ja", env={"FUYUKI_LANG": "en"}).output
    assert "使い方：" in run("play", "--help", env={"LANG": "en_US.UTF-8", "FUYUKI_LANG": ""}).output


def test_fuyuki_lang_is_the_default_language_of_the_games() -> None:
    result = run("play", "--seed", "3", env={"FUYUKI_LANG": "en"})
    assert "Goal: " in result.output and "目的" not in result.output
    assert "目的：" in run("--lang", "ja", "play", "--seed", "3",
                          env={"FUYUKI_LANG": "en"}).output


# ------------------------------------------------------------------ the parser's errors
PARSER_ERRORS = [
    (["play", "--seed", "abc"], "--seed には整数を指定してください（'abc'）",
     "--seed must be a whole number, not 'abc'"),
    (["play", "--lang", "xx"], "--lang は ja か en です（'xx'）", "--lang is ja or en (not 'xx')"),
    (["play", "--nope"], "--nope というオプションはありません", "no such option: --nope"),
    (["play", "--seed"], "--seed には値が要ります", "--seed needs a value"),
    (["play", "--bots-only=yes"], "--bots-only は値をとりません", "--bots-only takes no value"),
    (["replay"], "引数 FILE がありません", "missing argument FILE"),
    (["print"], "--out を指定してください", "missing option --out"),
    (["nocmd"], "nocmd というコマンドはありません", "no such command: nocmd"),
    (["play", "extra"], "余分な引数があります（extra）", "unexpected extra arguments: extra"),
    (["serve", "--port", "0"], "--port は 1 以上です（'0'）", "--port must be 1 or more, not '0'"),
    (["serve", "--bot-delay", "x"], "--bot-delay には数を指定してください",
     "--bot-delay must be a number"),
]


@pytest.mark.parametrize("args,ja,en", PARSER_ERRORS, ids=[" ".join(a) for a, _, _ in PARSER_ERRORS])
def test_a_command_line_mistake_is_one_line_in_the_users_language(args, ja, en) -> None:
    for lang, expected in (("ja", ja), ("en", en)):
        env = {"FUYUKI_LANG": lang}
        result = run(*args, env=env) if lang == "ja" or "--lang" in args else \
            run("--lang", "en", *args, env=env)
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1, result.output
        assert expected in lines[0], (lang, lines[0])
        assert "--help" in lines[0]
        if lang == "ja":
            assert lines[0].startswith("エラー：") and not english_runs(lines[0], words=2), lines[0]
        else:
            assert lines[0].startswith("error: ")
