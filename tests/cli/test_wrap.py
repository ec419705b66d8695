"""Japanese line breaking in the terminal (禁則処理): fuyuki.cli.wrap."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console

from fuyuki.cli.wrap import NO_END, NO_START, Paragraph, wrap

TEXT = "自分のサーヴァントが破壊または契約解除されたとき、すぐに手札上限までアクションカードを引く。"


def test_no_line_begins_with_closing_punctuation_or_ends_with_an_opening_one() -> None:
    for width in range(12, 60):      # 12: the longest run that must not break, （1d6+16）。
        lines = wrap(TEXT + "「宝具」（1d6+16）。", width)
        assert "".join(lines) == TEXT + "「宝具」（1d6+16）。"
        assert all(cell_len(line) <= width for line in lines)
        assert not any(line[0] in NO_START for line in lines[1:])
        assert not any(line[-1] in NO_END for line in lines)


def test_an_ascii_run_is_never_split() -> None:
    lines = wrap("攻撃力は1d6+16で、相手のDFを引きます。", 12)
    assert any("1d6+16" in line for line in lines)


@given(st.text(alphabet="あいうえおかきくけこ。、「」（）ー1d6+ ", max_size=80),
       st.integers(min_value=4, max_value=40))
def test_wrapping_keeps_every_character_and_the_width(text: str, width: int) -> None:
    lines = wrap(text, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(cell_len(line) <= width for line in lines)


@pytest.mark.parametrize("width", range(4, 9))
def test_what_moves_to_the_next_line_never_makes_it_too_long(width: int) -> None:
    """「、、 may not break and may not follow the 1 on its line: moved on whole it would not
    fit (found by hypothesis: the line was 6 columns at width 5)."""
    lines = wrap("1 1「、、", width)
    assert "".join(lines).replace(" ", "") == "11「、、"
    assert all(cell_len(line) <= width for line in lines)


def test_a_run_longer_than_a_line_is_broken_at_the_width_not_cut() -> None:
    """rich cuts a line longer than the width: ``no_berserker_penalty`` lost its l."""
    run = "tie_dice|land_modifiers|no_berserker_penalty"
    lines = wrap(f"遊び方、{run}でオプション。", 20)
    assert "".join(lines) == f"遊び方、{run}でオプション。"
    assert all(cell_len(line) <= 20 for line in lines)
    assert not any(line[0] in NO_START for line in lines)


@pytest.mark.parametrize("indent", [0, 5])
def test_paragraph_draws_japanese_by_the_rules_and_english_by_rich(indent: int) -> None:
    console = Console(width=40, record=True, file=open("/dev/null", "w"))
    console.print(Paragraph(TEXT, indent=indent))
    lines = console.export_text().splitlines()
    assert all(line.startswith(" " * indent) and line[indent] not in NO_START for line in lines)
    console = Console(width=40, record=True, file=open("/dev/null", "w"))
    console.print(Paragraph("When a servant is destroyed, draw up to your hand limit.", indent=2))
    assert console.export_text().splitlines()[1].startswith("  ")


@pytest.mark.parametrize("game", ["sbb", "board", "war"])
@pytest.mark.parametrize("width", [80, 52, 41])
def test_fuyuki_rules_breaks_japanese_lines_by_the_rules(game: str, width: int) -> None:
    """Before, rich broke the Markdown of ``fuyuki rules`` anywhere: 13 lines at 80 columns
    began with 。 or 、 or ）."""
    import re

    from typer.testing import CliRunner

    from fuyuki.cli.main import app
    from fuyuki.rulebook import rules_text

    result = CliRunner().invoke(app, ["rules", game], env={"COLUMNS": str(width)})
    assert result.exit_code == 0
    lines = [line.rstrip() for line in result.output.splitlines()]
    assert len(lines) > 40
    assert all(cell_len(line) <= width for line in lines)
    assert not any(line.lstrip()[:1] in NO_START for line in lines if line.strip())
    assert not any(line[-1:] in NO_END for line in lines)
    flat = re.sub(r"\s", "", result.output)        # nothing lost: every sentence is there
    for sentence in re.findall(r"[^\s|*#。]{6,}。", rules_text(game, "ja")):
        plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", sentence)   # a link shows its text
        assert plain.replace("`", "") in flat


def test_install_leaves_text_without_japanese_to_rich() -> None:
    import rich.text

    from fuyuki.cli.wrap import install

    install()
    assert rich.text.divide_line.kinsoku        # rich still reads the name that is replaced
    console = Console(width=20, record=True, file=open("/dev/null", "w"))
    console.print("see https://example.org/a/very/long/address/indeed")
    lines = console.export_text().splitlines()
    assert len(lines) > 2 and all(cell_len(line) <= 20 for line in lines)    # rich folds it
    console = Console(width=20, record=True, file=open("/dev/null", "w"))
    console.print(TEXT)
    assert not any(line[0] in NO_START for line in console.export_text().splitlines())
