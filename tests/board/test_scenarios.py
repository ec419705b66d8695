"""Every rule scenario in tests/board/scenarios: setup, fixed dice, submissions, exact result."""

from pathlib import Path

import pytest

from tests.board.scenario import HERE, check, load, run

FILES = sorted(HERE.glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_rule_scenario(path: Path) -> None:
    data = load(path)
    g = run(data, path.name)
    check(g, data.get("expect", {}), path.name)


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 20
