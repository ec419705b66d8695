"""Servant Big Battle commands: ``play``, ``replay``, ``judge``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console

from fuyuki.cli.files import (fail, game_judge, sbb_rules, sbb_save, scenario, scenario_game,
                              seat_option)
from fuyuki.core.errors import DataError, FuyukiError
from fuyuki.core.load import check_output, unfinished_line

LANG_HELP = "ja (default) or en"


def _check_lang(lang: str) -> str:
    if lang not in ("ja", "en"):
        raise typer.BadParameter("--lang must be ja or en")
    return lang


# Decisions that show the whole state above them (the others are asked mid-round, under
# what happened since: the bids and the battle they are about).
STATE_KINDS = ("bid", "place_gem")
# Events a tutorial explains the first time they happen.
TAUGHT_EVENTS = ("uncontested", "misfire", "case1", "case2_win", "case2_tie", "case3_win",
                 "case3_split", "lost", "draws")
# Events left out of "since your last decision" (steps, not outcomes; still in the log).
QUIET_EVENTS = ("draft_pass", "coin", "reshuffle", "gems_placed", "swap_cards")


def rank(event, seat: int) -> int:
    """How much a player needs ``event`` on their screen (:class:`fuyuki.cli.screen.Since`)."""
    from fuyuki.cli.screen import MINE, OUTCOME, STEP
    from fuyuki.cli.sbb_screen import SUMMARY_KINDS

    if seat in (event.data.get("seat"), event.data.get("target")) and event.kind != "draw":
        return MINE
    return OUTCOME if event.kind in SUMMARY_KINDS + ("reveal", "totals") else STEP


class Terminal:
    """A human at the terminal, seeing only their own view, deciding through the shared
    screen (:mod:`fuyuki.cli.screen`): the state, what happened since their last decision
    and the prompt on one 80×24 screen."""

    def __init__(self, console: Console, game, seat: int, lang: str,
                 tutorial: bool = False) -> None:
        from fuyuki.cli.screen import Decider

        self.console, self.game, self.seat, self.lang = console, game, seat, lang
        self.tutorial = tutorial
        self.decider = Decider(console, lang)
        self.taught: set[str] = set()
        self.explained: set[str] = set()  # opponents' cards whose text has been shown
        self.since: list = []           # Since lines of what happened since the last decision
        self.lessons: list[str] = []    # tutorial notes waiting for the next screen

    def teach(self, key: str) -> None:
        """In a tutorial, explain ``key`` the first time it comes up (on the next screen)."""
        from fuyuki.sbb.text import t

        if self.tutorial and key not in self.taught:
            self.taught.add(key)
            space = "" if self.lang == "ja" else " "   # Japanese wraps anywhere, not at a space
            self.lessons.append(f"{t(self.lang, 'tutorial.head')}{space}"
                                f"{t(self.lang, f'tutorial.{key}')}")

    def saw(self, event) -> None:
        from fuyuki.cli.screen import Since
        from fuyuki.cli.sbb_screen import card_text
        from fuyuki.sbb.text import render

        cards = self.game.rules.cards
        line = render(event, self.lang, you=self.seat, cards=cards)
        self.decider.log.append(line)
        if event.kind not in QUIET_EVENTS:
            self.since.append(Since(line, rank(event, self.seat)))
        if event.kind == "flip" and event.data.get("seat") != self.seat:
            card = event.data["card"]
            if card not in self.explained:   # an opponent's card, the first time it shows
                self.explained.add(card)
                text = card_text(card, cards, self.lang)
                self.decider.log.append(f"  {text}")
                self.since.append(Since(f"  {text}"))
        if event.kind in TAUGHT_EVENTS:
            self.teach(event.kind)

    def state(self, decision) -> list:
        from fuyuki.cli.sbb_screen import status

        if decision.kind not in STATE_KINDS:
            return []
        return [status(self.game.view(self.seat), self.game.rules.cards, self.lang,
                       self.game.rules.victory_gems)]

    def auto(self, decision) -> Any:
        """A decision with one option is taken for the player, and said so on the next
        screen when it matters."""
        from fuyuki.cli.screen import MINE, Since
        from fuyuki.cli.sbb_screen import option_label
        from fuyuki.sbb.text import t

        option = decision.options[0]
        if decision.kind in STATE_KINDS:
            label = option_label(option, decision.kind, self.game.view(self.seat),
                                 self.game.rules.cards, self.lang)
            line = t(self.lang, "screen.auto", option=label)
            self.decider.log.append(line)
            self.since.append(Since(line, MINE))
        return option

    def choose(self, decision) -> Any:
        from rich.text import Text

        from fuyuki.cli.screen import Frame
        from fuyuki.cli.sbb_screen import (battle_totals, card_text, help_screen, indented,
                                           option_label, option_names)
        from fuyuki.sbb.text import t

        self.teach(decision.kind)
        view = self.game.view(self.seat)
        cards = self.game.rules.cards
        kind_name = t(self.lang, f"decision.{decision.kind}")
        notes = [indented(lesson, style="bold yellow", indent=0) for lesson in self.lessons]
        prompt: list = []
        if decision.kind == "jewel":
            prompt += [Text(line) for line in battle_totals(self.game.events, view, cards,
                                                            self.lang)]
        prompt.append(Text(t(self.lang, "ui.decision", kind_name=kind_name), style="bold cyan"))
        draft = decision.kind in ("draft_master", "draft_servant")
        for i, opt in enumerate(decision.options, 1):
            label = option_label(opt, decision.kind, view, cards, self.lang)
            if draft:     # a card of the draft with what it does, on as few lines as it takes
                prompt.append(indented(f"{i}. {label} {card_text(opt, cards, self.lang)}",
                                       indent=5))
            else:
                prompt.append(Text(f"  {i}. {label}"))
        frame = Frame(self.state(decision), self.since, prompt, notes)
        self.since, self.lessons = [], []
        index = self.decider.decide(
            frame, [option_names(o, cards) for o in decision.options],
            lambda: page(self.console, help_screen(decision, view, cards, self.lang)))
        return decision.options[index]

    def rest(self) -> None:
        """What happened after the last decision, whole, and the notes due (the game has
        ended)."""
        from fuyuki.cli.sbb_screen import indented

        for line in self.since:
            self.console.print(f"  {line.text}", highlight=False, markup=False)
        for lesson in self.lessons:
            self.console.print(indented(lesson, style="bold yellow", indent=0))
        self.since, self.lessons = [], []
        self.decider.rest()


def page(console: Console, renderable) -> None:
    from fuyuki.cli.pager import page as paged

    paged(console, renderable)


def run_game(game, players: list, console: Console, lang: str, watch: int | None) -> None:
    """Drive a game to its end. With a player at the terminal, what they may see goes to
    their screen (the events since their last decision, condensed); with bots only, every
    event ``watch`` may see is printed (None: public)."""
    from fuyuki.sbb.text import render

    shown = 0
    humans = [p for p in players if isinstance(p, Terminal)]

    def flush() -> None:
        nonlocal shown
        events = game.visible_events(watch, shown)
        shown = len(game.events)
        for e in events:
            if humans:
                for human in humans:
                    human.saw(e)
                continue
            style = "bold" if e.kind in ("round", "reveal", "game_over") else ""
            console.print(render(e, lang, you=watch, cards=game.rules.cards), style=style,
                          highlight=False, markup=False)

    flush()
    while not game.over:
        pending = game.pending()
        for seat in sorted(pending, key=lambda s: isinstance(players[s], Terminal)):
            d = pending[seat]
            agent = players[seat]
            if isinstance(agent, Terminal):
                flush()
                choice = agent.auto(d) if len(d.options) == 1 else agent.choose(d)
            else:
                view = game.view(seat) if getattr(agent, "needs_view", True) else None
                choice = agent.choose(view, d)
            game.submit(seat, choice)
        flush()
    for human in humans:
        human.rest()


def show_end(console: Console, game, lang: str, watch: int | None) -> None:
    from fuyuki.cli.sbb_screen import end_screen

    if game.over:
        console.print(end_screen(game.result, game.view(watch), game.rules.cards, lang, watch))


def register(app: typer.Typer) -> None:
    @app.command()
    def play(
        players: int = typer.Option(4, "--players", "-p", help="3..5"),
        seed: Optional[int] = typer.Option(None, help="random seed (default: random)"),
        bots: str = typer.Option("heuristic", help="random | heuristic | hard | net (easy/normal/hard)"),
        save: Optional[Path] = typer.Option(None, help="write the game record (JSON) here"),
        bots_only: bool = typer.Option(False, "--bots-only", help="every seat a bot; print the game"),
        seat: int = typer.Option(0, help="your seat"),
        lang: str = typer.Option("ja", help=LANG_HELP),
        edition: str = typer.Option("final", help="final | v1.1 | v1.0"),
        mode: Optional[str] = typer.Option(None, help="fate | ubw | hf | hollow | big_battle"),
        option: list[str] = typer.Option([], "--option", help="tie_dice | land_modifiers | no_berserker_penalty"),
        cards: Optional[Path] = typer.Option(None, help="your own card file (TOML)"),
        tutorial: bool = typer.Option(False, "--tutorial",
                                      help="explain each new decision and battle case once"),
        bot_iterations: Optional[int] = typer.Option(
            None, "--bot-iterations", help="--bots hard: search this many iterations per "
            "decision, so that the same --seed plays the same game (default: about 1 s each)"),
    ) -> None:
        """Play Servant Big Battle in the terminal: you against bots."""
        from fuyuki.sbb import new_game
        from fuyuki.sbb.agents import make_bot
        from fuyuki.cli.prompt import interrupted
        from fuyuki.sbb.text import t

        console = Console(highlight=False)
        _check_lang(lang)
        try:
            if save:
                check_output(save, "--save")
            rules = sbb_rules(edition, mode, tuple(option), cards)
            rules.check_players(players)
            game = new_game(players, seed, rules)
            seats: list = [make_bot(bots, game.record.seed * 10 + i, rules, bot_iterations)
                           for i in range(players)]
        except FuyukiError as exc:
            fail(exc, lang)
        if cards:
            game.record.config["cards"] = str(cards)
        watch: int | None = None
        if not bots_only:
            if not 0 <= seat < players:
                fail(DataError("--seat", "seat", f"must be between 0 and {players - 1}", "between",
                               lo=0, hi=players - 1, got=seat), lang)
            seats[seat] = Terminal(console, game, seat, lang, tutorial)
            watch = seat
        console.print(f"[bold]{t(lang, 'screen.title')}[/]  seed={game.record.seed}  "
                      f"{rules.edition}/{rules.mode}")
        if watch is not None:
            from fuyuki.cli.opening import show_opening
            show_opening(console, "sbb", lang)
        try:
            run_game(game, seats, console, lang, watch)
        except KeyboardInterrupt:
            interrupted(console, lang)
        finally:
            if save:
                game.record.save(save)
                console.print(t(lang, "ui.saved", path=save), markup=False)
        show_end(console, game, lang, watch)

    @app.command()
    def replay(
        file: Path = typer.Argument(..., help="a record saved with play --save"),
        lang: str = typer.Option("ja", help=LANG_HELP),
        seat: Optional[int] = typer.Option(None, help="show what this seat saw (default: public)"),
    ) -> None:
        """Replay a saved game and print it."""
        console = Console(highlight=False)
        _check_lang(lang)

        try:
            game = sbb_save(file, lang)
            seat_option(seat, game.players)
        except FuyukiError as exc:
            fail(exc, lang)
        from fuyuki.sbb.text import render

        for e in game.visible_events(seat):
            console.print(render(e, lang, you=seat, cards=game.rules.cards), markup=False)
        if not game.over:
            console.print(unfinished_line(lang), style="yellow", markup=False)
        show_end(console, game, lang, seat)

    @app.command()
    def judge(
        file: Path = typer.Argument(..., metavar="SCENARIO", help="a scenario TOML file"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
        lang: str = typer.Option("ja", help=LANG_HELP),
        cards: Optional[Path] = typer.Option(None, help="your own card file (TOML)"),
        edition: Optional[str] = typer.Option(None, help="override the scenario's edition"),
        mode: Optional[str] = typer.Option(None, help="override the scenario's mode"),
        option: list[str] = typer.Option([], "--option", help="override the scenario's options"),
    ) -> None:
        """Resolve a scenario and explain every step: a Servant Big Battle round, or a board
        game or RPG war situation (the file's ``game = "board"`` / ``game = "war"``)."""
        console = Console(highlight=False)
        _check_lang(lang)
        try:
            game = scenario_game(file)
            if game != "sbb":
                if cards or edition or mode or option:
                    raise DataError(str(file), "game", "--cards, --edition, --mode and --option "
                                    "are for a Servant Big Battle scenario", "choice",
                                    allowed="sbb", got=repr(game))
                judged = game_judge(game, file, lang)
        except FuyukiError as exc:
            fail(exc, lang)
        if game != "sbb":
            if as_json:
                print(json.dumps(judged.result, ensure_ascii=False, indent=1))
            else:
                for line in judged.log:
                    console.print(line, markup=False)
            for line in judged.failures:
                typer.echo(line, err=True)
            raise typer.Exit(1 if judged.failures else 0)
        try:
            verdict = scenario(file, lang, str(cards) if cards else None, edition, mode,
                               tuple(option) or None)
        except FuyukiError as exc:
            fail(exc, lang)
        if as_json:
            print(json.dumps(verdict.result, ensure_ascii=False, indent=1))
            return
        for line in verdict.log:
            console.print(line, markup=False)
        console.print(verdict_summary(verdict.result, lang, verdict.game.rules.cards), markup=False)


def verdict_summary(result: dict, lang: str, cards=None) -> str:
    from fuyuki.sbb.text import card_name, colon, seat_name, sep, t

    c = colon(lang)
    lines = ["", t(lang, "ui.status") + c.rstrip()]
    lands = "  ".join(f"{card_name(k, lang, cards)}◆{v}" for k, v in result["lands"].items())
    lines.append(f"  {t(lang, 'ui.lands')}{c}{lands}  {t(lang, 'ui.pool')}{c}{result['pool']}  "
                 f"{t(lang, 'ui.parent')}→{seat_name(result['next_parent'], lang)}")
    for i, s in enumerate(result["seats"]):
        lost = [t(lang, f"what.{w}") for w in ("master", "servant") if s[f"{w}_lost"]]
        lines.append(f"  {seat_name(i, lang)}{c}{t(lang, 'ui.gems')} {s['gems']}  "
                     f"{card_name(s['master'], lang, cards)} / {card_name(s['servant'], lang, cards)}  "
                     f"{t(lang, 'ui.hand')} {s['hand_size']}"
                     + (f"  {t(lang, 'ui.lost')}{c}{sep(lang).join(lost)}" if lost else ""))
    if result["game_over"]:
        names = sep(lang).join(seat_name(w, lang) for w in result["winners"])
        lines.append(t(lang, "ui.winner" if len(result["winners"]) == 1 else "ui.draw_game",
                       winners=names))
    return "\n".join(lines)
