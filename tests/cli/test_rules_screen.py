"""``fuyuki rules`` a screen at a time at a terminal, printed whole when piped, and its
Japanese lines broken by their rules at 80 columns: never inside a word such as
「衛宮士郎（魔力3）」 or the inline code ``fuyuki play``."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuyuki.cli.main import app
from fuyuki.cli.wrap import kept_whole, wrap
from fuyuki.rulebook import rules_text

runner = CliRunner()


def _run(args: list[str], tmp_path: Path, terminal: bool) -> tuple[str, str]:
    """``fuyuki ARGS`` with ``cat`` as the pager writing to a file: (what reached the
    terminal or pipe, what went through the pager)."""
    paged = tmp_path / "paged.txt"
    env = dict(os.environ, PAGER=f"cat > {paged}", COLUMNS="80", LINES="24", TERM="xterm",
               FUYUKI_LANG="")
    command = [sys.executable, "-m", "fuyuki", *args]
    if terminal:
        leader, follower = pty.openpty()
        proc = subprocess.Popen(command, stdin=follower, stdout=follower, stderr=follower,
                                env=env)
        os.close(follower)
        shown = b""
        while True:                 # read while it runs: a full terminal would block it
            try:
                chunk = os.read(leader, 65536)
            except OSError:         # the program ended and closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        os.close(leader)
        done = subprocess.CompletedProcess(command, proc.wait(timeout=120))
        out = shown.decode("utf-8", "replace")
    else:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
        out = done.stdout
    assert done.returncode == 0, out
    return out, paged.read_text("utf-8") if paged.exists() else ""


def test_rules_go_through_the_pager_at_a_terminal(tmp_path: Path) -> None:
    shown, paged = _run(["rules"], tmp_path, terminal=True)
    assert "目的" in paged and "目的" not in shown
    assert len(paged.splitlines()) > 100


def test_rules_piped_are_printed_whole_without_the_pager(tmp_path: Path) -> None:
    shown, paged = _run(["rules", "board", "--lang", "en"], tmp_path, terminal=False)
    assert paged == "" and "Goal" in shown and len(shown.splitlines()) > 40


@pytest.mark.parametrize("game", ["sbb", "board", "war"])
def test_rules_at_80_columns_never_break_inside_a_word_a_group_or_inline_code(game: str) -> None:
    result = runner.invoke(app, ["rules", game], env={"COLUMNS": "80", "FUYUKI_LANG": ""})
    assert result.exit_code == 0
    lines = [line.rstrip() for line in result.output.splitlines()]
    flat = re.sub(r"\n\s*", "", "\n".join(lines))
    source = rules_text(game, "ja")
    runs = set(re.findall(r"`([^`\n]{1,40})`", source))                 # inline code
    runs |= {g for g in re.findall(r"（[^（）\n|*`\[]{1,8}）", source)}   # short groups
    assert runs
    for run in runs:
        if run.replace(" ", "") in flat.replace(" ", ""):
            assert any(run in line for line in lines), f"broken inside: {run!r}"


def test_a_master_and_its_mana_stay_one_word() -> None:
    """Before, 「衛宮士郎（魔力⏎3）」: the table's header and value made two words."""
    result = runner.invoke(app, ["rules"], env={"COLUMNS": "80", "FUYUKI_LANG": ""})
    for name in ("衛宮士郎（魔力3）", "間桐慎二（魔力3）", "藤村大河（魔力3）"):
        assert name in result.output


def test_inline_code_and_short_groups_are_kept_whole_by_the_wrapper() -> None:
    text = "端末で遊ぶにはfuyuki play --tutorial、どの入力欄でも衛宮士郎（魔力3）と書きます。"
    for width in range(24, 50):
        with kept_whole(["fuyuki play --tutorial"]):
            lines = wrap(text, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        assert any("fuyuki play --tutorial" in line for line in lines), (width, lines)
        assert any("（魔力3）" in line for line in lines), (width, lines)
