"""Servant Big Battle commands: ``play``, ``replay``, ``judge``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console

from fuyuki.core.errors import FuyukiError, IllegalAction
from fuyuki.core.protocol import check_choice
from fuyuki.core.record import Record

LANG_HELP = "ja (default) or en"


def _rules(edition: str, mode: Optional[str], options: list[str], cards: Optional[Path]):
    from fuyuki.sbb.rules import Rules

    return Rules.preset(edition, mode, tuple(options or ()), str(cards) if cards else None)


def _fail(console: Console, exc: Exception) -> None:
    console.print(f"[bold red]error:[/] {exc}")
    raise typer.Exit(2)


def _check_lang(lang: str) -> str:
    if lang not in ("ja", "en"):
        raise typer.BadParameter("--lang must be ja or en")
    return lang


class Terminal:
    """A human at the terminal, seeing only their own view."""

    def __init__(self, console: Console, game, seat: int, lang: str) -> None:
        self.console, self.game, self.seat, self.lang = console, game, seat, lang

    def choose(self, decision) -> Any:
        from fuyuki.cli.sbb_screen import status
        from fuyuki.sbb.text import option_name, t

        view = self.game.view(self.seat)
        cards = self.game.rules.cards
        if decision.kind in ("bid", "place_gem", "draft_master", "draft_servant"):
            self.console.print(status(view, cards, self.lang))
        kind_name = t(self.lang, f"decision.{decision.kind}")
        self.console.print(f"[bold cyan]{t(self.lang, 'ui.decision', kind_name=kind_name)}[/]")
        for i, opt in enumerate(decision.options, 1):
            self.console.print(f"  {i}. {option_name(opt, self.lang, cards)}  [dim]{opt}[/]"
                               f"{describe(opt, decision.kind, cards, self.lang)}")
        while True:
            try:
                raw = self.console.input(f"{t(self.lang, 'ui.prompt')} > ").strip()
            except EOFError:
                self.console.print("\n(EOF)")
                raise typer.Exit(1)
            try:
                if raw.isdigit() and 1 <= int(raw) <= len(decision.options) and (
                        decision.kind not in ("swap", "tsubame")):
                    return decision.options[int(raw) - 1]
                names = {option_name(o, self.lang, cards): o for o in decision.options}
                if raw in names:
                    return names[raw]
                if decision.kind in ("swap", "tsubame") and raw.isdigit():
                    idx = int(raw)
                    if 1 <= idx <= len(decision.options):
                        return decision.options[idx - 1]
                return check_choice(decision, raw)
            except IllegalAction as exc:
                self.console.print(f"[red]{t(self.lang, 'ui.bad_input', reason=exc)}[/]")


def describe(option: Any, kind: str, cards, lang: str) -> str:
    """The card text shown next to a draft option."""
    from fuyuki.sbb.text import t

    if kind == "draft_master" and option in cards.masters:
        m = cards.masters[option]
        return f"\n       {t(lang, 'ui.mana')}{m.mana} 《{m.ability_name['ja']}》 {m.text[lang]}"
    if kind == "draft_servant" and option in cards.servants:
        sv = cards.servants[option]
        return (f"\n       {t(lang, 'ui.power')}{sv.power} 《{sv.np_name['ja']}》 {sv.text[lang]}")
    return ""


def run_game(game, players: list, console: Console, lang: str, watch: int | None) -> None:
    """Drive a game to its end, printing the events ``watch`` may see (None: public)."""
    from fuyuki.sbb.text import render

    shown = 0

    def flush() -> None:
        nonlocal shown
        events = game.visible_events(watch, shown)
        shown = len(game.events)
        for e in events:
            style = "bold" if e.kind in ("round", "reveal", "game_over") else ""
            console.print(render(e, lang, you=watch), style=style, highlight=False)

    flush()
    while not game.over:
        pending = game.pending()
        for seat in sorted(pending, key=lambda s: isinstance(players[s], Terminal)):
            d = pending[seat]
            agent = players[seat]
            if isinstance(agent, Terminal):
                flush()
                choice = d.options[0] if len(d.options) == 1 else agent.choose(d)
            else:
                view = game.view(seat) if getattr(agent, "needs_view", True) else None
                choice = agent.choose(view, d)
            game.submit(seat, choice)
        flush()


def register(app: typer.Typer) -> None:
    @app.command()
    def play(
        players: int = typer.Option(4, "--players", "-p", help="3..5"),
        seed: Optional[int] = typer.Option(None, help="random seed (default: random)"),
        bots: str = typer.Option("heuristic", help="random | heuristic | hard (easy/normal/hard)"),
        save: Optional[Path] = typer.Option(None, help="write the game record (JSON) here"),
        bots_only: bool = typer.Option(False, "--bots-only", help="every seat a bot; print the game"),
        seat: int = typer.Option(0, help="your seat"),
        lang: str = typer.Option("ja", help=LANG_HELP),
        edition: str = typer.Option("final", help="final | v1.1 | v1.0"),
        mode: Optional[str] = typer.Option(None, help="fate | ubw | hf | hollow | big_battle"),
        option: list[str] = typer.Option([], "--option", help="tie_dice | land_modifiers | no_berserker_penalty"),
        cards: Optional[Path] = typer.Option(None, help="your own card file (TOML)"),
    ) -> None:
        """Play Servant Big Battle in the terminal: you against bots."""
        from fuyuki.sbb import new_game
        from fuyuki.sbb.agents import make_bot
        from fuyuki.sbb.text import seat_name, t

        console = Console(highlight=False)
        _check_lang(lang)
        try:
            rules = _rules(edition, mode, option, cards)
            rules.check_players(players)
            game = new_game(players, seed, rules)
            seats: list = [make_bot(bots, game.record.seed * 10 + i, rules)
                           for i in range(players)]
        except FuyukiError as exc:
            _fail(console, exc)
        if cards:
            game.record.config["cards"] = str(cards)
        watch: int | None = None
        if not bots_only:
            if not 0 <= seat < players:
                _fail(console, FuyukiError(f"--seat must be between 0 and {players - 1}"))
            seats[seat] = Terminal(console, game, seat, lang)
            watch = seat
        console.print(f"[bold]Fate/servant big battel[/]  seed={game.record.seed}  "
                      f"{rules.edition}/{rules.mode}")
        try:
            run_game(game, seats, console, lang, watch)
        except KeyboardInterrupt:
            console.print("\n(interrupted)")
            raise typer.Exit(130)
        finally:
            if save:
                game.record.save(save)
                console.print(t(lang, "ui.saved", path=save))
        result = game.result or {}
        names = "、".join(seat_name(w, lang, watch) for w in result.get("winners", []))
        key = "ui.draw_game" if result.get("draw") else "ui.winner"
        console.print(f"[bold green]{t(lang, key, winners=names)}[/]")

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
            game = replay_record(Record.load(file))
        except FuyukiError as exc:
            _fail(console, exc)
        from fuyuki.sbb.text import render

        for e in game.visible_events(seat):
            console.print(render(e, lang, you=seat))
        if not game.over:
            console.print("[yellow](the record ends before the game's end)[/]")

    @app.command()
    def judge(
        scenario: Path = typer.Argument(..., help="a scenario TOML file"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
        lang: str = typer.Option("ja", help=LANG_HELP),
        cards: Optional[Path] = typer.Option(None, help="your own card file (TOML)"),
        edition: Optional[str] = typer.Option(None, help="override the scenario's edition"),
        mode: Optional[str] = typer.Option(None, help="override the scenario's mode"),
        option: list[str] = typer.Option([], "--option", help="override the scenario's options"),
    ) -> None:
        """Resolve one round of a scenario and explain every step."""
        from fuyuki.sbb.judge import judge as run_judge

        console = Console(highlight=False)
        _check_lang(lang)
        try:
            verdict = run_judge(scenario, lang, str(cards) if cards else None, edition, mode,
                                tuple(option) or None)
        except FuyukiError as exc:
            _fail(console, exc)
        if as_json:
            print(json.dumps(verdict.result, ensure_ascii=False, indent=1))
            return
        for line in verdict.log:
            console.print(line)
        console.print(verdict_summary(verdict.result, lang))


def verdict_summary(result: dict, lang: str) -> str:
    from fuyuki.sbb.text import card_name, seat_name, t

    lines = ["", t(lang, "ui.status") + ":"]
    lands = "  ".join(f"{card_name(k, lang)}◆{v}" for k, v in result["lands"].items())
    lines.append(f"  {t(lang, 'ui.lands')}: {lands}  {t(lang, 'ui.pool')}: {result['pool']}  "
                 f"{t(lang, 'ui.parent')}→{seat_name(result['next_parent'], lang)}")
    for i, s in enumerate(result["seats"]):
        lost = [w for w in ("master", "servant") if s[f"{w}_lost"]]
        lines.append(f"  {seat_name(i, lang)}: {t(lang, 'ui.gems')} {s['gems']}  "
                     f"{card_name(s['master'], lang)}／{card_name(s['servant'], lang)}  "
                     f"{t(lang, 'ui.hand')} {s['hand_size']}"
                     + (f"  lost: {', '.join(lost)}" if lost else ""))
    if result["game_over"]:
        names = "、".join(seat_name(w, lang) for w in result["winners"])
        lines.append(t(lang, "ui.winner" if len(result["winners"]) == 1 else "ui.draw_game",
                       winners=names))
    return "\n".join(lines)


def replay_record(record: Record):
    """Rebuild a game from its record (seed + submissions)."""
    from fuyuki.sbb import new_game
    from fuyuki.sbb.rules import Rules

    if record.game != "sbb":
        raise FuyukiError(f"not a Servant Big Battle record (game = {record.game!r})")
    cfg = record.config
    rules = Rules.preset(cfg.get("edition", "final"), cfg.get("mode"), tuple(cfg.get("options", ())),
                         cfg.get("cards"))
    game = new_game(int(cfg.get("players", 4)), record.seed, rules)
    for i, (seat, choice) in enumerate(record.submissions):
        try:
            game.submit(seat, choice)
        except IllegalAction as exc:
            raise FuyukiError(f"record submission {i} ({seat}, {choice!r}) is illegal: {exc}") from None
    return game
