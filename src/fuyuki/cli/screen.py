"""The decision screen every game shares at the terminal: one layout, one loop.

At each decision a game hands a :class:`Frame`: the state the decision is about, what
happened since the player's last decision (already condensed by the game: outcomes, not
steps) and the prompt with its numbers and options. :class:`Decider` draws it so that the
frame and the input line fit one 80×24 screen: the state and the prompt are drawn whole; the
lines since the last decision fill the room left, the ones the game marked as the player's
own first, and the rest is counted in a line pointing to ``log``. Between two decisions
nothing else is printed: every event line goes to the log, which ``log`` pages whole. ``?``
pages the decision's help; a bad answer gets one line (:mod:`fuyuki.cli.prompt`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from rich.console import Console, Group, RenderableType
from rich.text import Text

from fuyuki.cli.pager import page
from fuyuki.cli.wrap import Paragraph
from fuyuki.cli.prompt import HELP_WORDS, end_of_input, match, normalize, t

SCREEN_LINES = 24
LOG_WORDS = frozenset({"log", "l", "ログ", "ろぐ"})


@dataclass
class Since:
    """A line of what happened since the player's last decision, with its ``rank``: MINE (it
    concerns the player: damage to their characters, their losses), OUTCOME (a battle's
    result, a death) or STEP. When they do not all fit, the higher ranks are kept first."""

    text: str
    rank: int = 0


STEP, OUTCOME, MINE = 0, 1, 2


@dataclass
class Frame:
    """One decision's screen: the ``state``, the lines ``since`` the last decision, the
    ``notes`` of a tutorial (drawn above the prompt when they fit; else one line says ``?``
    shows them) and the ``prompt`` (the question, its numbers, the options)."""

    state: list[RenderableType] = field(default_factory=list)
    since: list[Since] = field(default_factory=list)
    prompt: list[RenderableType] = field(default_factory=list)
    notes: list[RenderableType] = field(default_factory=list)


def lines_of(console: Console, parts: Sequence[RenderableType]) -> int:
    """How many terminal lines ``parts`` take at the console's width."""
    return sum(len(console.render_lines(p, console.options, pad=False)) for p in parts)


def fit(console: Console, lang: str, since: list[Since], room: int) -> list[RenderableType]:
    """The lines of ``since`` that fit ``room`` terminal lines, in their order: all of them if
    they fit; else the higher ranks first (the latest of a rank first), and one line saying
    how many more the log holds."""
    rows = [(s, Group(*(Paragraph(line, indent=2) for line in s.text.split("\n"))))
            for s in since]
    height = {id(s): lines_of(console, [row]) for s, row in rows}
    if sum(height.values()) <= room:
        return [row for _, row in rows]
    keep: set[int] = set()
    left = room - 1                                   # the "n more" line
    for s, _ in sorted(reversed(rows), key=lambda r: -r[0].rank):
        if height[id(s)] <= left:
            keep.add(id(s))
            left -= height[id(s)]
    shown = [row for s, row in rows if id(s) in keep]
    more = len(rows) - len(shown)
    return shown + [Text(f"  {t(lang, 'screen.more', n=more)}", style="dim")]


class Decider:
    """The decision loop of one player at the terminal: draws frames, reads answers, keeps
    the whole log of what the player saw (``log`` pages it)."""

    def __init__(self, console: Console, lang: str) -> None:
        self.console, self.lang = console, lang
        self.log: list[str] = []
        self.waiting: list[RenderableType] = []    # tutorial notes not drawn yet

    def draw(self, frame: Frame) -> list[RenderableType]:
        """The frame on one screen: the state, the lines since the last decision that fit,
        the tutorial's notes that fit (the others wait for the next screens; ``?`` shows them
        now), the prompt (the input line is the last of the 24). Returns the notes left
        waiting."""
        c = self.console
        used = lines_of(c, frame.state) + lines_of(c, frame.prompt) + 1
        waiting = self.waiting + frame.notes
        notes: list[RenderableType] = []
        floor = used + (2 if frame.since else 0)
        for i, note in enumerate(waiting):
            rest = 1 if i + 1 < len(waiting) else 0     # the line saying more are waiting
            if floor + lines_of(c, notes + [note]) + rest > SCREEN_LINES:
                break
            notes.append(note)
        self.waiting = waiting[len(notes):]
        if self.waiting:
            notes.append(Text(t(self.lang, "screen.notes"), style="yellow"))
        used += lines_of(c, notes)
        shown: list[RenderableType] = []
        if frame.since:
            room = SCREEN_LINES - used - 1            # the heading
            shown = fit(c, self.lang, frame.since, room) if room >= 2 else \
                [Text(f"  {t(self.lang, 'screen.more', n=len(frame.since))}", style="dim")]
        for part in frame.state:
            c.print(part)
        if shown:
            c.print(Text(t(self.lang, "screen.since"), style="bold"))
            for line in shown:
                c.print(line)
        for part in notes + frame.prompt:
            c.print(part)
        return self.waiting

    def rest(self) -> None:
        """Print the notes still waiting (the game has ended)."""
        for note in self.waiting:
            self.console.print(note)
        self.waiting = []

    def show_log(self) -> None:
        page(self.console, Text("\n".join(self.log) or t(self.lang, "screen.empty_log")))

    def ask(self, names: Sequence[Sequence[str]], show_help: Callable[[], None]) -> int:
        """Read until the answer names an option (its number or a name); ``?`` shows the
        help, ``log`` the whole log; anything else gets one line."""
        c, lang = self.console, self.lang
        while True:
            try:
                raw = c.input(f"{t(lang, 'prompt.ask')} > ")
            except EOFError:
                end_of_input(c, lang)
            key = normalize(raw)
            if key in HELP_WORDS:
                show_help()
                continue
            found = match(raw, names)
            if found is not None:
                return found
            if key in LOG_WORDS:
                self.show_log()
                continue
            c.print(f"[red]{t(lang, 'prompt.bad', n=len(names))}[/]")

    def decide(self, frame: Frame, names: Sequence[Sequence[str]],
               show_help: Callable[[], None]) -> int:
        left_out = self.draw(frame)
        if not left_out:
            return self.ask(names, show_help)

        def notes_and_help() -> None:
            page(self.console, Group(*left_out))
            self.waiting = []
            show_help()

        return self.ask(names, notes_and_help)
