"""What the structural fuzz (tests/core/test_fuzz_commands.py) found, one test each: the
input it made, shrunk to the point, and the one line it must end in."""

from __future__ import annotations

import re

import pytest

from fuyuki.core.data import package_file
from fuyuki.rpg.roster import MAX_NUMBER
from tests.core.fuzz import ROOT
from tests.core.test_deep_files import run
from tests.core.test_user_files import one_error_line

ROSTER = package_file("fuyuki.rpg", "data", "roster.toml")


HUGE = "1" + "0" * 400


@pytest.mark.parametrize("pattern, value, key", [
    (r"lv = \d+", f"lv = {HUGE}", "lv"), (r"lv = \d+", f"lv = {MAX_NUMBER + 1}", "lv"),
    (r'"筋力" = \d+', f'"筋力" = {HUGE}', "筋力"),
    (r"\[\[pair\]\]\n", f"[[pair]]\nmana = -{HUGE}\n", "mana"),
])
def test_a_roster_number_beyond_any_rule_is_refused_before_the_war(tmp_path, pattern, value,
                                                                      key):
    """A servant of Lv 10^400 made the bots' float arithmetic overflow mid-war."""
    text, n = re.subn(pattern, value, ROSTER.read_text("utf-8"), count=1)
    assert n == 1
    p = tmp_path / "roster.toml"
    p.write_text(text, "utf-8")
    one_error_line(run("war", "new", "--roster", p, "--auto", "--turns", "1", "--lang", "en"),
                   "roster.toml", key)


@pytest.mark.parametrize("value", ["1.5", "[1]", '"x"'])
def test_a_battle_cases_state_override_that_is_not_a_table(tmp_path, value):
    """``a_set = 1.5`` in an RPG battle case was a TypeError (the cases are read by the suite
    through fuyuki.rpg.cases)."""
    from fuyuki.core.errors import ScenarioError
    from fuyuki.rpg.cases import load_cases, run_case
    from fuyuki.rpg.rules import default_rules

    text = (ROOT / "tests" / "rpg" / "cases" / "retreat.toml").read_text("utf-8")
    p = tmp_path / "case.toml"
    p.write_text(text.replace('b = "b_hidden"\n', f'b = "b_hidden"\na_set = {value}\n', 1),
                 "utf-8")
    cases, sheets = load_cases(p)
    with pytest.raises(ScenarioError) as exc:
        run_case(cases[0], default_rules(), sheets)
    assert exc.value.key == "case[0].a_set"


@pytest.mark.parametrize("line, key", [("pending_info = 1979-05-27", "expect.pending_info"),
                                       ("options_include = 1.5", "expect.options_include"),
                                       ('options_exclude = "x"', "expect.options_exclude")])
def test_a_board_scenarios_expectation_of_the_wrong_type(tmp_path, line, key):
    """A date or a number where the board judge's [expect] wants a table or a list was an
    AttributeError / TypeError after the scenario ran."""
    text = (ROOT / "tests" / "board" / "scenarios" / "ability_caladbolg.toml").read_text("utf-8")
    assert "[expect]\n" in text
    p = tmp_path / "s.toml"
    p.write_text(text.replace("[expect]\n", f"[expect]\n{line}\n", 1), "utf-8")
    one_error_line(run("judge", p, "--lang", "en"), "s.toml", key)
