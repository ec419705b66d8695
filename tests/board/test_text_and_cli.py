"""ja/en texts and the `fuyuki board` commands."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from fuyuki import board
from fuyuki.board.agents import RandomBot
from fuyuki.board.text import Texts, register
from fuyuki.cli.main import app
from fuyuki.core import i18n

runner = CliRunner()


def test_catalogs_have_the_same_keys() -> None:
    register()
    ja = {k for k in i18n.keys("ja") if k.startswith("board.")}
    en = {k for k in i18n.keys("en") if k.startswith("board.")}
    assert ja and ja == en


def test_every_event_and_option_renders_in_both_languages() -> None:
    for seed in range(4):
        g = board.new_game(players=4, seed=seed)
        bots = [RandomBot(seed, s) for s in range(4)]
        seen_kinds = set()
        while not g.over:
            (seat, d), = g.pending().items()
            for lang in ("ja", "en"):
                v = g.view(seat)
                tx = Texts(g.pack, v, lang)
                assert "{" not in tx.prompt(d.to_json())
                assert not tx.prompt(d.to_json()).startswith("board.")
                for o in d.options:
                    label = tx.option(d.kind, o)
                    assert label and "{" not in label and not label.startswith("board.")
            g.submit(seat, bots[seat].choose(g.view(seat), d))
        for lang in ("ja", "en"):
            v = g.view(None, since=0)
            tx = Texts(g.pack, v, lang)
            for ev in v["recent_events"]:
                seen_kinds.add(ev["kind"])
                line = tx.event(ev)
                assert "{" not in line and not line.startswith(ev["kind"] + " "), line
                assert "board." not in line, line


def test_bots_only_plays_a_whole_game_and_saves(tmp_path: Path) -> None:
    rec = tmp_path / "g.json"
    r = runner.invoke(app, ["board", "play", "--bots-only", "--seed", "2", "--lang", "en",
                            "--save", str(rec)])
    assert r.exit_code == 0, r.output
    assert "Winner" in r.output or "Draw" in r.output
    assert "《攻撃》" in r.output and "attack value" in r.output
    assert rec.exists()
    r2 = runner.invoke(app, ["board", "replay", str(rec), "--lang", "ja"])
    assert r2.exit_code == 0, r2.output
    assert "勝者" in r2.output or "引き分け" in r2.output


def test_bots_only_japanese_random_bots() -> None:
    r = runner.invoke(app, ["board", "play", "--bots-only", "--seed", "3", "--bots", "random",
                            "--players", "3"])
    assert r.exit_code == 0, r.output
    assert "柳洞寺" in r.output and "アインツ城" in r.output   # the map, short names


def test_interactive_play_reads_choices() -> None:
    # seat 0 answers "1" to everything (the first option) until the game ends
    r = runner.invoke(app, ["board", "play", "--seed", "1", "--players", "2", "--lang", "en"],
                      input="1\n" * 3000)
    assert r.exit_code == 0, r.output[-2000:]
    assert "Number or name (? for help)" in r.output
    assert "Hand" in r.output


ONES = "1\n" * 3000


def _mixed(seed: int) -> str:
    return "\n".join(random.Random(seed).choices("1223", k=3000)) + "\n"


@pytest.mark.parametrize("lang,players,answers,flags", [
    ("ja", 5, ONES, []), ("en", 4, ONES, []), ("ja", 5, _mixed(9), []),
    ("ja", 4, _mixed(5), ["--tutorial"]),
])
def test_at_80x24_the_map_the_camps_and_the_prompt_fit_one_screen(
        lang: str, players: int, answers: str, flags: list[str]) -> None:
    """Whenever the state is drawn before a choice, it and the prompt fit 24 lines of 80
    columns (the characters' AT/DF and the cards' texts come with ``?``); the outcomes since
    the last choice take the room that is left."""
    marker = "（? でヘルプ） >" if lang == "ja" else "(? for help) >"
    r = runner.invoke(app, ["board", "play", "--seed", "4", "--players", str(players),
                            "--lang", lang, *flags], input=answers)
    assert r.exit_code == 0, r.output[-2000:]
    # the runner does not echo the Enter after a prompt: what follows starts a new line
    lines = r.output.replace(marker + " ", marker + "\n").splitlines()
    assert all(cell_len(line) <= 80 for line in lines), max(lines, key=cell_len)
    first = "柳洞寺" if lang == "ja" else "Ryuudou Tmpl."      # the map's first area
    starts = [i for i, line in enumerate(lines) if line.startswith(first)]
    assert len(starts) >= 5
    for i in starts[:-1]:          # the last one is the end of the game: no prompt follows
        end = next(j for j in range(i, len(lines)) if marker in lines[j])
        assert end - i + 1 <= 24, "\n".join(lines[i:end + 1])


def test_tutorial_explains_each_decision_and_event_kind_once() -> None:
    answers = _mixed(9)
    r = runner.invoke(app, ["board", "play", "--seed", "4", "--tutorial"], input=answers)
    assert r.exit_code == 0, r.output[-2000:]
    lessons = [line.strip() for line in r.output.splitlines() if "【チュートリアル】" in line]
    assert len(lessons) == len(set(lessons)) >= 10           # each one once
    for first_words in ("【チュートリアル】仕込み", "【チュートリアル】《攻撃》です",
                        "【チュートリアル】HPが0以下", "【チュートリアル】行動フェイズは"):
        assert sum(x.startswith(first_words) for x in lessons) == 1, first_words
    plain = runner.invoke(app, ["board", "play", "--seed", "4"], input=answers)
    assert "チュートリアル" not in plain.output
    assert plain.output.count("仕込み：手札から1枚まで") == 1   # explained once even so


def test_tutorial_territory_lesson_reads_its_numbers_from_the_rules() -> None:
    from fuyuki.board.content import load_pack
    from fuyuki.cli.board_commands import Teacher

    game = board.new_game(players=2, seed=1)
    register()
    texts = Texts(game.pack, game.view(0), "en")
    lesson = Teacher(tutorial=True).event("territory_done", texts)
    rules = load_pack().rules
    assert lesson is not None
    assert f"DF +{rules['territory_df']}" in lesson.plain
    assert f"heal {rules['territory_heal']} HP" in lesson.plain
    assert Teacher(tutorial=False).event("territory_done", texts) is None


def test_help_shows_every_characters_at_df_and_the_cards_texts() -> None:
    r = runner.invoke(app, ["board", "play", "--seed", "4", "--players", "4"],
                      input="?\n" + "1\n" * 3000)
    assert r.exit_code == 0, r.output[-2000:]
    help_part = r.output.split("ヘルプ：", 1)[0].rsplit("> ", 1)[1]
    assert "AT 7 DF 5" in help_part and "キャラクター" in help_part
    assert "「" in help_part and "手札:" in help_part


def test_bad_options_exit_2() -> None:
    r = runner.invoke(app, ["board", "play", "--bots-only", "--camps", "saber,lancer",
                            "--players", "2"])
    assert r.exit_code == 2
    assert "lancer" in r.output
    r = runner.invoke(app, ["board", "replay", "/nonexistent.json"])
    assert r.exit_code == 2


def test_simulate_prints_camp_and_seat_shares_with_intervals() -> None:
    r = runner.invoke(app, ["board", "simulate", "--games", "6", "--players", "5", "--lang", "en",
                            "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "Win rate" in r.output and "95% interval" in r.output
    assert "Win share by seat" in r.output
    for camp in ("Saber's camp", "Archer's camp", "Rider's camp", "Berserker's camp",
                 "Caster's camp"):
        assert re.search(re.escape(camp) + r"\s*│\s*6 │\s*\d+ │\s*\d+\.\d% │\s*\d+\.\d%–\d+\.\d%",
                         r.output), camp
    seats = re.findall(r"│ ([1-5])\s*│\s*6 │\s*\d+ │\s*\d+\.\d% │\s*\d+\.\d%–\d+\.\d%", r.output)
    assert seats == ["1", "2", "3", "4", "5"]
    assert "A draw is a win for nobody" in r.output
    ja = runner.invoke(app, ["board", "simulate", "--games", "2", "--no-progress"])
    assert ja.exit_code == 0 and "95%区間" in ja.output and "席" in ja.output


@pytest.mark.parametrize("players", ["1", "6"])
def test_simulate_players_outside_2_to_5_is_a_one_line_error(players: str) -> None:
    r = runner.invoke(app, ["board", "simulate", "--games", "2", "--players", players])
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [
        f"エラー：--players：players：2〜5でなければなりません（{players}）"]


def test_camp_lines_list_a_stray_once_on_its_own_line_and_the_dead_as_dead() -> None:
    from fuyuki.cli.board_commands import camp_lines

    game = board.new_game(players=2, seed=1, camps=["rider", "saber"])
    register()
    view = game.view(0)
    for ch in view["chars"]:
        if ch["id"] == "shinji":
            ch["alive"], ch["hp"] = False, 0
        if ch["id"] == "rider":
            ch["stray"] = True
    lines = camp_lines(view, Texts(game.pack, view, "ja")).plain.splitlines()
    assert lines[0].startswith("ライダー陣営") and "慎二死亡" in lines[0] and "ライダー" not in lines[0][6:]
    assert lines[-1] == "はぐれ: ●ライダー25/25"
    assert sum("ライダー25/25" in line for line in lines) == 1


def test_hp_is_never_shown_below_0() -> None:
    """A blow beyond the last HP reads HP 0 (issue 50: "HP -10/23" was shown)."""
    game = board.new_game(players=2, seed=1, camps=["rider", "saber"])
    view = game.view(None)
    for lang, want in (("ja", "HP 0（−10）"), ("en", "HP 0 (−10)")):
        line = Texts(game.pack, view, lang).event(
            {"kind": "damage", "data": {"char": "shinji", "amount": 10, "hp": -9, "cause": "attack"}})
        assert want in line and "-9" not in line, line


def test_the_terminal_map_and_camps_show_a_barrier_and_the_tutorial_teaches_it() -> None:
    """結界 (seed 003 「陣地・結界」): the terminal map marks the barrier's area with 結 and the
    camp's line names it, as for a 陣地; --tutorial explains it when it is first raised."""
    from rich.console import Console

    from fuyuki.cli.board_commands import Teacher, map_table

    game = board.new_game(players=2, seed=1)
    register()
    view = game.view(0)
    pos = next(c["pos"] for c in view["chars"] if c["camp"] == 1)
    view["camps"][1]["barrier"] = {"pos": pos, "ability": "x"}
    texts = Texts(game.pack, view, "ja")
    console = Console(width=80, record=True)
    console.print(map_table(view, texts))
    area = texts.area(view["map"]["areas"][pos[0]][pos[1]], short=True)
    assert f"{area}結" in console.export_text()
    for kind in ("barrier_built", "barrier_hits"):
        lesson = Teacher(tutorial=True).event(kind, texts)
        assert lesson is not None and "結界" in lesson.plain
