"""Any game of the engine contract (:mod:`fuyuki.core.contract`) at the terminal, through the
shared screen (:mod:`fuyuki.cli.screen`): one player's seat, bots in the others. A game gives
a :class:`Renderer` of a few lines — its state, an event, its question, an option — and the
loop does the rest: what happened since the player's last decision, the 80×24 screen, numbers
or names, ``?`` and ``log``, the end."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol

from rich.console import Console, RenderableType
from rich.text import Text

from fuyuki.cli.pager import page
from fuyuki.cli.screen import MINE, OUTCOME, Decider, Frame, Since
from fuyuki.core.events import Event
from fuyuki.core.protocol import Decision

Bot = Callable[[dict[str, Any], Decision], Any]


class Renderer(Protocol):
    def state(self, view: dict[str, Any]) -> list[RenderableType]:
        """The state a decision is about, in a few lines."""

    def event(self, event: Event) -> str | None:
        """One line for ``event`` (None: not shown)."""

    def question(self, decision: Decision, view: dict[str, Any]) -> str:
        """The question of ``decision`` with the numbers it needs."""

    def option(self, decision: Decision, option: Any) -> str:
        """An option's label."""

    def help(self, decision: Decision) -> str:
        """What ``decision`` is about (``?``)."""

    def end(self, result: dict[str, Any]) -> str:
        """The end of the game in a line."""


def play(engine: Any, seat: int, renderer: Renderer, console: Console, lang: str,
         bots: Mapping[int, Bot]) -> None:
    """Play ``engine`` to its end: ``seat`` at the terminal, every other seat by its bot."""
    decider = Decider(console, lang)
    seen, since = 0, []

    def read_events() -> None:
        nonlocal seen
        for event in engine.events_for(seat, seen):
            line = renderer.event(event)
            if line:
                decider.log.append(line)
                since.append(Since(line, MINE if event.data.get("seat") == seat else OUTCOME))
        seen = engine.step

    while not engine.over:
        read_events()
        pending = engine.pending()
        for s in sorted(pending, key=lambda s: s == seat):     # the bots first
            decision = engine.pending().get(s)
            if decision is None:
                continue
            if s != seat:
                engine.submit(s, bots[s](engine.view(s), decision))
                continue
            read_events()
            view = engine.view(seat)
            labels = [renderer.option(decision, o) for o in decision.options]
            prompt: list[RenderableType] = [
                Text(renderer.question(decision, view), style="bold cyan")]
            prompt += [Text(f"  {i}. {label}") for i, label in enumerate(labels, 1)]
            frame = Frame(renderer.state(view), list(since), prompt)
            since.clear()
            index = decider.decide(
                frame, [[label, str(o)] for label, o in zip(labels, decision.options)],
                lambda: page(console, Text(renderer.help(decision))))
            engine.submit(seat, decision.options[index])
    read_events()
    for line in since:
        console.print(Text(f"  {line.text}"))
    console.print(Text(renderer.end(engine.result), style="bold green"))
