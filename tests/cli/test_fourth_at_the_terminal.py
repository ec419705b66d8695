"""The fourth game (tests/fourth/engine.py, sealed bids) at the terminal through the same
loop and screen as the three games (fuyuki.cli.loop), with a renderer of a few lines: piped
answers, one 80×24 screen a decision, numbers or names, one line for a bad answer, the end."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from fuyuki.cli.loop import play
from fuyuki.cli.screen import SCREEN_LINES
from fuyuki.core.protocol import Decision

engine = pytest.importorskip("tests.fourth.engine")


class SealedBidText:
    """The renderer: a line of state, a line an event, the question with the prize."""

    def state(self, view: dict[str, Any]) -> list[Any]:
        return [Text(f"Round {view['round']}/{view['rounds']}  score {view['score']}  "
                     f"hand {view['hand']}")]

    def event(self, event) -> str | None:
        d = event.data
        if event.kind == "reveal":
            who = "nobody" if d["winner"] is None else f"P{d['winner']}"
            return f"bids {d['bids']}: {who} takes {d['prize']}"
        return f"prize {d['prize']}" if event.kind == "prize" else None

    def question(self, decision: Decision, view: dict[str, Any]) -> str:
        return f"Bid for the prize of {decision.info['prize']}"

    def option(self, decision: Decision, option: Any) -> str:
        return f"card {option}"

    def help(self, decision: Decision) -> str:
        return "The highest bid nobody matched takes the prize."

    def end(self, result: dict[str, Any]) -> str:
        return f"Over: won by {result['winners']}"


def _play(answers: str, players: int = 3) -> str:
    game = engine.SealedBid(5, {"players": players})
    console = Console(file=io.StringIO(), width=80, force_terminal=False)
    lines = iter(answers.splitlines())

    def typed(prompt: str = "") -> str:
        console.file.write(prompt)
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    console.input = typed     # type: ignore[method-assign]
    bots = {s: (lambda view, d: d.options[0]) for s in range(1, players)}
    play(game, 0, SealedBidText(), console, "en", bots)
    assert game.over
    return console.file.getvalue()


def test_the_fourth_game_plays_to_its_end_one_screen_a_decision() -> None:
    out = _play("1\n" * 10)
    chunks = re.split(r"Number or name \(\? for help\) > ", out)
    assert len(chunks) == 6                      # a hand of 5: five decisions
    for chunk in chunks[1:-1]:
        assert chunk.count("\n") <= SCREEN_LINES - 1
        assert "Since your last choice:" in chunk and "bids [" in chunk
    assert "Over: won by" in chunks[-1]


def test_a_name_works_and_a_bad_answer_gets_one_line() -> None:
    game = engine.SealedBid(5, {"players": 3})
    first = game.hands[0][-1]
    out = _play(f"zzz\ncard {first}\n" + "1\n" * 10)
    assert out.count("Enter a number from 1 to 5 or a name (? for help)") == 1
    assert f"card {first}" in out and "zzz" not in out
