"""The engine's one table of rule steps (fuyuki.sbb.steps): the stack runs every step by a
direct call, and the table and the dispatch list the same steps."""

import re
from pathlib import Path

from fuyuki.sbb import game, steps


def test_dispatch_and_table_list_the_same_steps():
    source = (Path(steps.__file__).parent / "steps.py").read_text("utf-8")
    dispatched = re.findall(r'name == "(\w+)"', source)
    assert len(dispatched) == len(set(dispatched))
    assert set(dispatched) == set(steps.STEPS)


def test_each_step_is_its_modules_step_function():
    for name, fn in steps.STEPS.items():
        assert fn.__name__ == "step_" + name


def test_the_game_runs_its_stack_through_the_table():
    assert game.RUNNER == [steps.run]
