"""Every rule scenario in tests/board/scenarios, run by the judge (fuyuki.board.judge): its
state, dice by label, choices, and every [expect] met."""

from pathlib import Path

import pytest

from fuyuki.board.judge import judge, load

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_rule_scenario(path: Path) -> None:
    judged = judge(path, "en")
    assert not judged.failures, "\n".join(judged.failures + judged.log)


def test_every_scenario_pins_a_seed_line_or_a_decision() -> None:
    for path in FILES:
        pins = load(path).data["pins"]
        assert "「" in pins or "[R-" in pins, path.name


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 60
