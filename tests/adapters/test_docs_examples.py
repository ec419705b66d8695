"""The code blocks of docs/adapters.md run (with fewer episodes)."""

import pytest

pytest.importorskip("numpy")   # the rl extra
pytest.importorskip("pettingzoo")   # the rl extra
pytest.importorskip("pyspiel")   # the rl extra

import re
from pathlib import Path


DOC = Path(__file__).resolve().parents[2] / "docs" / "adapters.md"


def blocks():
    text = DOC.read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


@pytest.mark.parametrize("index", range(len(blocks())))
def test_doc_example_runs(index, capsys):
    code = blocks()[index]
    code = re.sub(r"EPISODES = \d+", "EPISODES = 2", code)
    if "ISMCTSBot(" in code:
        assert "max_simulations=50" in code and "while not state.is_terminal():" in code
    code = code.replace("max_simulations=50", "max_simulations=3")
    code = code.replace("while not state.is_terminal():\n    state.apply_action(int(bot.step(state)))",
                        "for _ in range(5):\n    state.apply_action(int(bot.step(state)))")
    exec(compile(code, f"{DOC.name}[{index}]", "exec"), {"__name__": "docs_example"})
