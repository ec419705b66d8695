"""Japanese line breaking in the terminal (禁則処理): fuyuki.cli.wrap."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console

from fuyuki.cli.wrap import NO_END, NO_START, Paragraph, _joined, wrap

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
    for line in lines:     # longer than the width only if nothing in it may break
        assert cell_len(line) <= width or all(_joined(a, b) for a, b in zip(line, line[1:]))


@pytest.mark.parametrize("indent", [0, 5])
def test_paragraph_draws_japanese_by_the_rules_and_english_by_rich(indent: int) -> None:
    console = Console(width=40, record=True, file=open("/dev/null", "w"))
    console.print(Paragraph(TEXT, indent=indent))
    lines = console.export_text().splitlines()
    assert all(line.startswith(" " * indent) and line[indent] not in NO_START for line in lines)
    console = Console(width=40, record=True, file=open("/dev/null", "w"))
    console.print(Paragraph("When a servant is destroyed, draw up to your hand limit.", indent=2))
    assert console.export_text().splitlines()[1].startswith("  ")
