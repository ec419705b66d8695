"""Turns a rules generator (yield asks, receive answers) into the engine protocol.

A generator yields ``{seat: Decision}`` — every open decision at once — and receives
``{seat: choice}`` when every seat asked has answered. :class:`Flow` keeps the open decisions,
checks each submission against its decision (an illegal one changes nothing) and resumes the
generator when all answers are in.
"""

from __future__ import annotations

from typing import Any, Generator

from fuyuki.core.errors import IllegalAction
from fuyuki.core.protocol import Decision, check_choice


class Flow:
    def __init__(self, gen: Generator[dict[int, Decision], dict[int, Any], Any]):
        self._gen = gen
        self._asks: dict[int, Decision] = {}
        self._answers: dict[int, Any] = {}
        self.over = False
        self.value: Any = None
        self._advance(None)

    def _advance(self, answers: dict[int, Any] | None) -> None:
        try:
            asks = next(self._gen) if answers is None else self._gen.send(answers)
            while not asks:
                asks = self._gen.send({})
            self._asks = asks
        except StopIteration as stop:
            self.over = True
            self.value = stop.value
            self._asks = {}

    def pending(self) -> dict[int, Decision]:
        return {s: d for s, d in self._asks.items() if s not in self._answers}

    def submit(self, seat: int, choice: Any) -> Any:
        if self.over:
            raise IllegalAction("game_over", "the game is over")
        if seat not in self._asks or seat in self._answers:
            raise IllegalAction("not_your_turn", f"seat {seat} has no open decision", seat=seat)
        option = check_choice(self._asks[seat], choice)
        self._answers[seat] = option
        if len(self._answers) == len(self._asks):
            answers, self._answers = self._answers, {}
            self._advance(answers)
        return option
