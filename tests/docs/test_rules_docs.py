"""The players' rules documents: shipped, complete, and every [R-n] of the code listed; no
link in docs/ or the README points outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fuyuki.rulebook import GAMES, rules_text, summary

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "fuyuki"
DOCS = ROOT / "docs"
# A game's [R-n] decisions are listed in its engine document and its players' rules.
DECISION_DOCS = {"sbb": ("sbb.md", "sbb"), "board": ("board.md", "board"),
                 "rpg": ("rpg.md", "war")}
R_TAG = re.compile(r"\[R-(\d+)")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_docs_rules_and_the_shipped_copy_agree(game: str, lang: str) -> None:
    assert (DOCS / "rules" / f"{game}.{lang}.md").read_text("utf-8") == rules_text(game, lang)


@pytest.mark.parametrize("game", GAMES)
def test_rules_in_both_languages_have_the_same_sections(game: str) -> None:
    heads = {lang: re.findall(r"^#+ ", rules_text(game, lang), re.M) for lang in ("ja", "en")}
    assert heads["ja"] == heads["en"] and len(heads["ja"]) >= 6


def _tags_in_code() -> dict[str, set[int]]:
    found: dict[str, set[int]] = {g: set() for g in DECISION_DOCS}
    for path in SRC.rglob("*"):
        if path.suffix not in (".py", ".toml") or path.parts[len(SRC.parts)] not in found:
            continue
        found[path.parts[len(SRC.parts)]] |= {int(n) for n in R_TAG.findall(path.read_text("utf-8"))}
    return found


def test_every_r_tag_in_the_code_is_listed_in_the_docs() -> None:
    tags = _tags_in_code()
    assert tags["sbb"] and tags["board"] and tags["rpg"]
    for game, (engine_doc, rules_doc) in DECISION_DOCS.items():
        listed = set()
        for path in [DOCS / engine_doc, *(DOCS / "rules").glob(f"{rules_doc}.*.md")]:
            listed |= {int(n) for n in re.findall(r"\[R-(\d+)\]", path.read_text("utf-8"))}
        assert tags[game] <= listed, f"{game}: unlisted decisions {sorted(tags[game] - listed)}"


LINK = re.compile(r"\]\(([^)\s]+)\)")


def _markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def test_no_link_in_the_docs_points_outside_the_repository() -> None:
    bad = []
    for path in _markdown_files():
        text = path.read_text("utf-8")
        if re.search(r"shared/design|/seeds/|/work/", text):
            bad.append(f"{path.name}: names a file outside the repository")
        for target in LINK.findall(text):
            if target.startswith("#"):
                continue
            if re.match(r"[a-z]+:", target):
                bad.append(f"{path.name}: {target} (outside the repository)")
                continue
            file = (path.parent / target.split("#")[0]).resolve()
            if not file.is_relative_to(ROOT) or not file.exists():
                bad.append(f"{path.name}: {target} (no such file in the repository)")
    assert not bad, bad


def test_rules_command_shows_the_rules_in_each_language() -> None:
    from typer.testing import CliRunner

    from fuyuki.cli.main import app

    runner = CliRunner()
    ja = runner.invoke(app, ["rules", "sbb", "--raw"])
    en = runner.invoke(app, ["rules", "board", "--lang", "en", "--raw"])
    assert ja.exit_code == 0 and "GEMを12個" in ja.output
    assert en.exit_code == 0 and "The last camp with a living master wins" in en.output
    assert runner.invoke(app, ["rules", "chess"]).exit_code == 2


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_each_game_has_a_goal_and_a_five_line_summary_that_fits_80_columns(game, lang) -> None:
    from rich.cells import cell_len

    goal, five = summary(game, lang)
    assert goal and cell_len(goal) < 100
    assert [line[:2] for line in five] == ["1.", "2.", "3.", "4.", "5."]
    assert all(cell_len(line) <= 80 for line in five), five


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_rules_in_the_terminal_wrap_and_never_cut_a_cell(game, lang) -> None:
    """Tables become lists at the terminal: a table cell would end in "…"."""
    from rich.console import Console
    from rich.markdown import Markdown

    from fuyuki.cli.rules_commands import tables_as_lists

    text = rules_text(game, lang)
    shown = tables_as_lists(text, lang)
    assert not any(line.startswith("|") for line in shown.splitlines())
    console = Console(width=80, record=True, file=open("/dev/null", "w"))
    console.print(Markdown(shown))
    out = console.export_text()
    assert "…" not in out
    rows = [line for line in text.splitlines() if line.startswith("|")]
    cells = [row.split("|")[1].replace("**", "") for i, row in enumerate(rows)
             if not set(row) <= set("|-: ") and not (i + 1 < len(rows)
                                                      and set(rows[i + 1]) <= set("|-: "))]
    flat = re.sub(r"\s", "", out)
    assert all(re.sub(r"\s", "", cell) in flat for cell in cells)   # every row is still there
