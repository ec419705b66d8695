"""The engine's one table of rule steps (fuyuki.sbb.steps): the stack runs every step by a
direct call, and the table and the dispatch list the same steps."""

import re
from pathlib import Path

from fuyuki.sbb import game, steps


def _dispatched(function: str) -> list[str]:
    """The step names ``function`` of steps.py compares ``name`` with."""
    source = (Path(steps.__file__).parent / "steps.py").read_text("utf-8")
    body = source.split(f"\ndef {function}(")[1].split("\ndef ")[0].split("\nclass ")[0]
    return re.findall(r'name == "(\w+)"', body)


def test_dispatch_and_table_list_the_same_steps():
    dispatched = _dispatched("call")
    assert len(dispatched) == len(set(dispatched))
    assert set(dispatched) == set(steps.STEPS)


def test_go_on_calls_directly_only_steps_that_take_answers():
    """go_on's direct calls are steps whose last parameter is the answers (the others go
    through call), as their definitions say."""
    direct = _dispatched("go_on")
    assert len(direct) == len(set(direct)) and direct
    sources = "".join(p.read_text("utf-8") for p in Path(steps.__file__).parent.glob("*.py"))
    for name in direct:
        head = re.search(rf"\ndef step_{name}\((.*?)\) -> None:", sources, re.S)
        assert head is not None, name
        assert head.group(1).rstrip().endswith(": Answers"), name


def test_each_step_is_its_modules_step_function():
    for name, fn in steps.STEPS.items():
        assert fn.__name__ == "step_" + name


def test_the_game_runs_its_stack_through_the_table():
    assert len(game.RUNNER) == 1 and isinstance(game.RUNNER[0], steps.Steps)


def test_the_stack_keeps_its_bottom_step_and_never_runs_it():
    """state.BOTTOM stays the stack's first entry at every decision, after the end and in a
    clone; the game still ends (run stops above it, end_game keeps it)."""
    from fuyuki.sbb import new_game
    from fuyuki.sbb.agents import make_bot
    from fuyuki.sbb.state import BOTTOM

    for seed in range(20):
        g = new_game(4, seed)
        bots = [make_bot("random", seed * 4 + k) for k in range(4)]
        while not g.over:
            assert g.s.stack[0] == BOTTOM and BOTTOM not in g.s.stack[1:]
            assert g.clone().s.stack == g.s.stack
            for seat, d in g.pending().items():
                g.submit(seat, bots[seat].choose(g.view(seat), d))
        assert g.s.stack == [BOTTOM]
