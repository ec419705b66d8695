"""Grail War Board commands: ``fuyuki board play``, ``replay``, ``simulate``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer
from rich.cells import cell_len
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from fuyuki.cli.files import board_save, fail, seat_option
from fuyuki.cli.wrap import Paragraph
from fuyuki.core.errors import DataError, FuyukiError
from fuyuki.core.i18n import pick
from fuyuki.core.load import check_output, unfinished_line
from fuyuki.core.protocol import Decision

COLORS = ["red", "cyan", "magenta", "yellow", "green", "blue"]

board_app = typer.Typer(help="Grail War Board (聖杯戦争BBS): play, replay, simulate.",
                        no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(board_app, name="board")


def _check_lang(lang: str) -> str:
    if lang not in ("ja", "en"):
        raise typer.BadParameter("--lang must be ja or en")
    return lang


BOTS = ("random", "heuristic")
PLAY_BOTS = (*BOTS, "hard")      # the hard bot searches: too slow for simulations


def bots_error(bots: str, allowed: tuple[str, ...] = BOTS) -> DataError:
    """``--bots`` names no board bot (of ``allowed``)."""
    return DataError("--bots", "bots", f"must be {' or '.join(allowed)}", "choice",
                     allowed=" | ".join(allowed), got=repr(bots))


def players_error(players: int, camps: int) -> None:
    """``--players`` outside 2 to the pack's number of camps: a DataError naming it."""
    if not 2 <= players <= camps:
        raise DataError("--players", "players", f"must be 2 to {camps} (the pack has {camps} "
                        "camps)", "between", lo=2, hi=camps, got=players)


def _color(seat: Any) -> str:
    return "white" if seat is None else COLORS[seat % len(COLORS)]


# ---------------------------------------------------------------------- screen
def hp_bar(hp: int, max_hp: int, width: int = 12) -> Text:
    filled = max(0, min(width, round(width * max(hp, 0) / max_hp))) if max_hp else 0
    ratio = hp / max_hp if max_hp else 0
    colour = "green" if ratio > 0.6 else "yellow" if ratio > 0.3 else "red"
    return Text("█" * filled, style=colour) + Text("░" * (width - filled), style="dim")


CELL = 14   # a map cell's columns: five cells and their gaps fit an 80-column terminal


def piece(ch: dict[str, Any]) -> Text:
    """A character on the map: ★ master / ● servant, two characters of its short name, HP."""
    tag = "★" if ch["role"] == "master" else "●"
    style = _color(ch["camp"]) + (" bold" if ch["role"] == "servant" else "")
    return Text(f"{tag}{ch['short'][:2]}{max(ch['hp'], 0)}", style=style)


def map_table(view: dict[str, Any], texts) -> Table:
    """The map in two lines a row (one when nobody stands in it): each area's short name with
    its 陣地 (◇ in preparation, ◆ complete) and 結界 (結), in the camp's colour, then the pieces
    there."""
    m = view["map"]
    table = Table(show_header=False, box=None, padding=(0, 1, 0, 0), expand=False)
    for _ in range(m["width"]):   # a crowded area folds onto more lines: never cut
        table.add_column(width=CELL, overflow="fold")
    terr: dict[tuple[int, int], list[dict[str, Any]]] = {}
    barriers: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for c in view["camps"]:
        if c["territory"]:
            terr.setdefault(tuple(c["territory"]["pos"]), []).append(c)
        if c.get("barrier"):
            barriers.setdefault(tuple(c["barrier"]["pos"]), []).append(c)
    for r in range(m["height"]):
        names, pieces = [], []
        for col in range(m["width"]):
            cell = Text(texts.area(m["areas"][r][col], short=True), style="dim")
            for camp in terr.get((r, col), []):
                cell.append("◆" if camp["territory"]["done"] else "◇", style=_color(camp["seat"]))
            for camp in barriers.get((r, col), []):
                cell.append("結", style=_color(camp["seat"]))
            names.append(cell)
            here = Text()
            for ch in view["chars"]:
                if ch["alive"] and tuple(ch["pos"]) == (r, col):
                    here.append_text(piece(ch))
            pieces.append(here)
        table.add_row(*names)
        if any(pieces):
            table.add_row(*pieces)
    return table


def chars_table(view: dict[str, Any], texts) -> Table:
    t = texts.t
    table = Table(title=t("ui.chars"), show_header=False, box=None, padding=(0, 1))
    for _ in range(5):
        table.add_column()
    for ch in view["chars"]:
        status = []
        if not ch["alive"]:
            status.append(t("ui.dead"))
        if ch["stray"] and ch["alive"]:
            status.append(t("ui.stray"))
        if ch["alone"]:
            status.append(t("ui.alone"))
        if ch["boost_at"]:
            status.append(f"AT+{ch['boost_at']}")
        if ch["boost_df"]:
            status.append(f"DF+{ch['boost_df']}")
        camp = texts.camp(ch["camp"]) if ch["camp"] is not None else ""
        stats = f"AT {ch['at']} DF {ch['df']}"
        table.add_row(Text(ch["name"], style=_color(ch["camp"])),
                      hp_bar(ch["hp"], ch["max_hp"]),
                      f"{max(ch['hp'], 0)}/{ch['max_hp']}", stats,
                      Text(" ".join(status) + ("  " + camp if camp else ""), style="dim"))
    return table


def _char_state(ch: dict[str, Any], t) -> str:
    """HP/max (or 死亡), 単独 and the ★強化★ boosts (strays are listed on their own line)."""
    if not ch["alive"]:
        return t("ui.dead")
    out = f"{max(ch['hp'], 0)}/{ch['max_hp']}"
    if ch["alone"]:
        out += f" {t('ui.alone')}"
    for stat in ("at", "df"):
        if ch[f"boost_{stat}"]:
            out += f" {stat.upper()}+{ch[f'boost_{stat}']}"
    return out


def camp_lines(view: dict[str, Any], texts) -> Text:
    """One line a camp: 令呪, hand, plotted, 陣地, and each of its characters' HP (dead ones
    marked); stray servants on a line of their own."""
    t = texts.t
    out = Text()
    areas = view["map"]["areas"]
    for c in view["camps"]:
        out.append(pick(c["name"], texts.lang),
                   style="bold " + _color(c["seat"]) + (" strike" if c["out"] else ""))
        gap = "" if texts.lang == "ja" else " "       # 令呪3 手札5 / 令呪 3 hand 5
        out.append(f" {t('ui.spells')}{gap}{c['spells']} {t('ui.hand')}{gap}{c['hand_count']} "
                   f"{t('ui.plotted')}{gap}{c['plotted_count']}/{c['ch']}", style="dim")
        if c["territory"]:
            r, col = c["territory"]["pos"]
            out.append(f" {'◆' if c['territory']['done'] else '◇'}{texts.area(areas[r][col], short=True)}",
                       style=_color(c["seat"]))
        if c.get("barrier"):
            r, col = c["barrier"]["pos"]
            out.append(f" 結{texts.area(areas[r][col], short=True)}", style=_color(c["seat"]))
        for ch in view["chars"]:
            if ch["camp"] == c["seat"] and not (ch["stray"] and ch["alive"]):
                out.append(" " + ("★" if ch["role"] == "master" else "●") + ch["short"],
                           style=_color(c["seat"]))
                out.append(_char_state(ch, t))
        out.append("\n")
    strays = [ch for ch in view["chars"] if ch["stray"] and ch["alive"]]
    if strays:
        out.append(t("ui.stray") + ":", style="bold")
        for ch in strays:
            out.append(f" ●{ch['short']}{_char_state(ch, t)}")
        out.append("\n")
    out.rstrip()
    return out


def _copies(items: list[dict[str, Any]]) -> dict[str, int]:
    """How many copies of each card type a list of card instances holds (in order seen)."""
    counts: dict[str, int] = {}
    for h in items:
        counts[h["card"]] = counts.get(h["card"], 0) + 1
    return counts


def hand_line(view: dict[str, Any], texts) -> Text:
    """Your hand and plotted cards by name (their texts: ``?``), and the deck, on one line."""
    t = texts.t
    out = Text()
    for label, items in ((t("ui.hand"), view.get("hand", [])),
                         (t("ui.plotted"), view.get("plotted", []))):
        names = [texts.pack.cards[c].name + (f"×{n}" if n > 1 else "")
                 for c, n in _copies(items).items()]
        out.append(f"{label}: ", style="bold")
        out.append(("・" if texts.lang == "ja" else ", ").join(names) or t("ui.none"))
        out.append("  ")
    out.append(t("ui.deck", deck=view["deck_count"], discard=len(view["discard"])), style="dim")
    return out


def hand_panel(view: dict[str, Any], texts) -> Panel:
    t = texts.t
    pack = texts.pack
    lines = Text()
    for label, items in ((t("ui.hand"), view.get("hand", [])),
                         (t("ui.plotted"), view.get("plotted", []))):
        lines.append(f"{label}: ", style="bold")
        if not items:
            lines.append(t("ui.none"), style="dim")
        for card, n in _copies(items).items():     # copies of a card: one line, "×3"
            c = pack.cards[card]
            lines.append(f"\n  「{c.name}」{f'×{n}' if n > 1 else ''} ", style="bold")
            lines.append(pick(c.text, texts.lang), style="dim")
        lines.append("\n")
    return Panel(lines, expand=False)


def screen(view: dict[str, Any], texts, with_hand: bool) -> Group:
    """The state in a few lines so that it and the prompt fit 80×24: the map, a line a camp,
    your cards. ``?`` at a prompt adds the characters' AT/DF and the cards' texts."""
    parts: list[Any] = [map_table(view, texts), camp_lines(view, texts)]
    if with_hand:
        parts.append(hand_line(view, texts))
    return Group(*parts)


def event_style(kind: str) -> str:
    return {"turn": "bold", "attack": "bold yellow", "battle": "bold", "death": "bold red",
            "game_over": "bold green", "spell": "bold magenta", "hit": "", "attack_roll": "cyan",
            "preempt": "bold cyan", "cover": "bold"}.get(kind, "dim" if kind in (
                "draw", "part", "plot", "card_used", "instant_begin", "instant_end") else "")


# What "since your last choice" keeps besides what befell the player's camp: outcomes.
SUMMARY_KINDS = ("attack", "hit", "damage", "death", "camp_out", "stray", "spell", "recontract",
                 "territory_done", "territory_destroyed", "revive")


def rank(ev: dict[str, Any], mine: set[str], seat: Optional[int]) -> int:
    """How much the player of ``seat`` (their characters: ``mine``) needs ``ev`` on their
    screen: what befell their camp first (every damage to it), then outcomes, then steps."""
    from fuyuki.cli.screen import MINE, OUTCOME, STEP

    d = ev["data"]
    if d.get("seat") == seat or mine & {d.get(k) for k in ("char", "attacker", "target")}:
        return MINE
    return OUTCOME if ev["kind"] in SUMMARY_KINDS else STEP


class Printer:
    """The events a seat may see, as they come, through ``view(seat, since=...)``: printed
    (bots only, a replay, a player who is out and watches condensed: outcomes only), or kept
    for the player's next screen (``since``: :mod:`fuyuki.cli.screen`) and their log."""

    def __init__(self, console: Console, game, seat: Optional[int], lang: str,
                 show_map_each_turn: bool, teacher: Optional[Teacher] = None,
                 decider=None):
        from fuyuki.board.text import Texts

        self.console, self.game, self.seat, self.lang = console, game, seat, lang
        self.teacher = teacher
        self.decider = decider
        self.condensed = False
        self.seen = 0
        self.maps = show_map_each_turn
        self._Texts = Texts
        self.since: list = []
        self.lessons: list[Any] = []

    def flush(self) -> dict[str, Any]:
        from fuyuki.cli.screen import OUTCOME, Since

        view = self.game.view(self.seat, since=self.seen)
        texts = self._Texts(self.game.pack, view, self.lang)
        mine = {ch["id"] for ch in view["chars"] if ch["camp"] == self.seat}
        for ev in view["recent_events"]:
            line = texts.event(ev)
            lesson = self.teacher.event(ev["kind"], texts) if self.teacher else None
            if self.decider is not None and not self.condensed:
                self.decider.log.append(line)
                r = rank(ev, mine, self.seat)
                if r >= OUTCOME or ev["kind"] == "turn":
                    self.since.append(Since(line.strip(), r))
                if lesson is not None:
                    self.lessons.append(lesson)
                continue
            if self.condensed and ev["kind"] not in SUMMARY_KINDS + ("turn", "game_over"):
                continue
            if ev["kind"] == "turn" and self.maps:
                self.console.print(screen(view, texts, with_hand=False))
            self.console.print(Text(line, style=event_style(ev["kind"])))
            if lesson is not None:
                self.console.print(lesson)
        self.seen = view["event_count"]
        return view

    def rest(self, last: int | None = None) -> None:
        """Print what happened since the last decision (its ``last`` lines) and the notes
        due: the game has ended, or the player is out."""
        since, lessons = self.take()
        for line in since[-last if last else 0:]:
            self.console.print(Text(f"  {line.text}"))
        for lesson in lessons:
            self.console.print(lesson)
        if self.decider is not None:
            self.decider.rest()

    def take(self) -> tuple[list, list]:
        """The lines since the last decision and the tutorial notes due, handed over once."""
        since, lessons = self.since, self.lessons
        self.since, self.lessons = [], []
        return since, lessons


# Decisions whose meaning a new player cannot guess: explained the first time they come up.
EXPLAINED = ("plot", "spell_window")
# Events a tutorial explains the first time they happen.
TAUGHT_EVENTS = ("attack", "death", "camp_out", "stray", "territory_built", "territory_done",
                 "barrier_built", "barrier_hits", "revive", "recontract", "spell")


class Teacher:
    """What a new player is told once: the decisions whose meaning nobody can guess, and with
    ``--tutorial`` every kind of decision and the first event of each kind above."""

    def __init__(self, tutorial: bool = False) -> None:
        self.tutorial = tutorial
        self.told: set[str] = set()

    def _first(self, key: str) -> bool:
        if key in self.told:
            return False
        self.told.add(key)
        return True

    def decision(self, kind: str, texts) -> Optional[Paragraph]:
        if not (self.tutorial or kind in EXPLAINED) or not self._first("decision." + kind):
            return None
        head = texts.t("tutorial.head") if self.tutorial else ""
        return Paragraph(head + texts.t(f"help.{kind}"), "yellow", 2)

    def event(self, kind: str, texts) -> Optional[Text]:
        if not self.tutorial or kind not in TAUGHT_EVENTS or not self._first("event." + kind):
            return None
        r = texts.pack.rules
        lesson = texts.t(f"tutorial.{kind}", df=r["territory_df"], heal=r["territory_heal"],
                         revive=r["revive_hp"], spells=r["command_spells"])
        return Text(texts.t("tutorial.head") + lesson, style="bold yellow")


def merged_options(decision: Decision, texts) -> list[tuple[str, Any]]:
    """(label, option) for each distinct label: two copies of one card are one choice."""
    seen: dict[str, Any] = {}
    for opt in decision.options:
        seen.setdefault(texts.option(decision.kind, opt), opt)
    return list(seen.items())


def option_lines(labels: list[str], width: int) -> list[Text]:
    """The numbered options packed side by side on as few lines as the width allows."""
    lines: list[Text] = []
    line = Text()
    for i, label in enumerate(labels, 1):
        item = f"{i}. {label}"
        if line and line.cell_len + 3 + cell_len(item) > width - 1:
            lines.append(line)
            line = Text()
        line.append(("   " if line else "  ") + item)
    return lines + [line] if line else lines


def board_help(decision: Decision, texts, options) -> Group:
    """The help of a decision: the characters with AT/DF, your cards with their texts, what
    the decision means and what each option does."""
    t = texts.t
    parts: list[Any] = [chars_table(texts.view, texts)]
    if "hand" in texts.view:
        parts.append(hand_panel(texts.view, texts))
    parts.append(Text(t("help.title", prompt=texts.prompt(decision.to_json())), style="bold cyan"))
    parts.append(Paragraph(t(f"help.{decision.kind}"), indent=2))
    for i, (label, opt) in enumerate(options, 1):
        parts.append(Text(f"  {i}. {label}", style="bold"))
        card = texts.card_type_of(str(opt))
        if card is not None:
            parts.append(Paragraph(pick(texts.pack.cards[card].text, texts.lang), "dim", 5))
    parts.append(Text(t("help.more"), style="dim"))
    return Group(*parts)


# Decisions drawn under the whole state (the map, the camps, your cards).
STATE_KINDS = ("plot", "group", "part", "defence", "means", "target", "battle", "move", "action")


def ask_human(console: Console, game, seat: int, lang: str, decision: Decision,
              teacher: Teacher | None = None, printer: Optional[Printer] = None) -> Any:
    """One decision on the shared screen (:mod:`fuyuki.cli.screen`): the state (for the
    choices of your own turn and battles), what happened since your last choice (all that
    befell your camp first) and the question with its options; read the answer."""
    from fuyuki.board.text import Texts
    from fuyuki.cli.pager import page
    from fuyuki.cli.screen import Decider, Frame

    view = game.view(seat)
    texts = Texts(game.pack, view, lang)
    since, lessons = printer.take() if printer is not None else ([], [])
    decider = printer.decider if printer is not None and printer.decider else Decider(console, lang)
    state: list[Any] = [screen(view, texts, with_hand=True)] if decision.kind in STATE_KINDS else []
    notes: list[Any] = list(lessons)
    prompt: list[Any] = [
        Text(texts.t("ui.your_turn", camp=texts.camp(seat)), style="bold " + _color(seat)),
        Text(texts.prompt(decision.to_json()), style="bold")]
    lesson = teacher.decision(decision.kind, texts) if teacher else None
    if lesson is not None:
        notes.append(lesson)
    options = merged_options(decision, texts)
    prompt += option_lines([label for label, _ in options], console.width)
    index = decider.decide(Frame(state, since, prompt, notes),
                           [[label, str(opt)] for label, opt in options],
                           lambda: page(console, board_help(decision, texts, options)))
    return options[index][1]


def knocked_out(console: Console, printer: Printer) -> bool:
    """Say the player is out; True when they watch the rest (condensed), False to stop."""
    from fuyuki.cli.prompt import t

    lang = printer.lang
    printer.rest(last=8)
    console.print(Text(t(lang, "screen.out"), style="bold red"))
    console.print(t(lang, "screen.out_ask"), markup=False)
    assert printer.decider is not None
    watch = printer.decider.ask([["watch", "観戦"], ["stop", "終わる"]], lambda: None) == 0
    printer.condensed = watch
    if not watch:
        console.print(t(lang, "screen.stopped"), markup=False)
    return watch


def _outcome(console: Console, game, lang: str) -> None:
    from fuyuki.board.text import Texts

    view = game.view(None)
    texts = Texts(game.pack, view, lang)
    console.print(screen(view, texts, with_hand=False))
    r = game.result
    if r is None:
        console.print(unfinished_line(lang), style="yellow", markup=False)
    elif r["winner"] is None:
        console.print(Text(texts.t("ui.draw", reason=texts.t(f"reason.{r['reason']}"),
                                   rounds=r["rounds"]), style="bold"))
    else:
        console.print(Text(texts.t("ui.winner", camp=texts.camp(r["winner"]), rounds=r["rounds"]),
                           style="bold green"))


@board_app.command("play")
def play(
    seed: Optional[int] = typer.Option(None, help="game seed (default: a fresh one, printed; "
                                       "the same seed replays the same game)"),
    players: int = typer.Option(4, help="number of camps, 2 to 5"),
    camps: Optional[str] = typer.Option(None, help="camp ids in seat order, comma-separated "
                                        "(saber,archer,rider,berserker,caster)"),
    seat: int = typer.Option(0, help="your seat"),
    lang: str = typer.Option("ja", help="ja (default) or en"),
    bots: str = typer.Option("heuristic", help="random, heuristic or hard"),
    bot_iterations: Optional[int] = typer.Option(
        None, "--bot-iterations", help="worlds the hard bot searches a decision (then the same "
        "--seed plays the same game; default: about 0.8 s of CPU a decision)"),
    bots_only: bool = typer.Option(False, "--bots-only", help="bots play every seat; print the game"),
    save: Optional[Path] = typer.Option(None, help="save the game record (JSON) here"),
    pack: Optional[Path] = typer.Option(None, help="a content pack directory"),
    tutorial: bool = typer.Option(False, "--tutorial",
                                  help="explain each new decision and the first attack, death, "
                                  "陣地 … once"),
) -> None:
    """Play the board game in the terminal against bots (or watch bots play)."""
    import secrets

    from fuyuki.board import new_game
    from fuyuki.board.agents import make_bot
    from fuyuki.cli.prompt import interrupted

    console = Console()
    _check_lang(lang)
    if bots not in PLAY_BOTS:
        fail(bots_error(bots, PLAY_BOTS), lang)
    if bot_iterations is not None and bot_iterations < 1:
        fail(DataError("--bot-iterations", "iterations", f"must be 1 or more, not {bot_iterations}",
                       "low", lo=1, got=repr(bot_iterations)), lang)
    if seed is None:
        seed = secrets.randbelow(10**9)
    try:
        if save:
            check_output(save, "--save")
        if camps is None:
            from fuyuki.board.content import default_pack, load_pack
            players_error(players, len((load_pack(pack) if pack else default_pack()).camps))
        game = new_game(players=players, seed=seed,
                        camps=[c.strip() for c in camps.split(",")] if camps else None,
                        pack=str(pack) if pack else None)
        if not bots_only and not 0 <= seat < game.n:
            raise DataError("--seat", "seat", f"must be 0 to {game.n - 1}", "between", lo=0,
                            hi=game.n - 1, got=seat)
        human = None if bots_only else seat
        budget = {} if bot_iterations is None else {"iterations": bot_iterations}
        agents = [make_bot(bots, seed, s, **budget) for s in range(game.n)]
        teacher = Teacher(tutorial)
        from fuyuki.cli.screen import Decider

        printer = Printer(console, game, human, lang, show_map_each_turn=bots_only,
                          teacher=teacher,
                          decider=Decider(console, lang) if human is not None else None)
        from fuyuki.board.text import Texts, register

        register()
        console.print(Text(Texts(game.pack, game.view(human), lang).t("ui.title"), style="bold")
                      + Text(f"  seed={seed}", style="dim"))
        if human is not None:
            from fuyuki.cli.opening import show_opening
            show_opening(console, "board", lang)
        out = False
        while not game.over:
            printer.flush()
            if human is not None and not out and game.view(None)["camps"][human]["out"]:
                out = True
                if not knocked_out(console, printer):
                    break
            for s, decision in game.pending().items():
                if s == human:
                    choice = ask_human(console, game, s, lang, decision, teacher, printer)
                else:
                    choice = agents[s].choose(game.view(s), decision)
                game.submit(s, choice)
        printer.flush()
        printer.rest()
        _outcome(console, game, lang)
        if save:
            game.record.save(save)
            console.print(Texts(game.pack, game.view(None), lang).t("ui.saved", path=str(save)))
    except FuyukiError as exc:
        fail(exc, lang)
    except KeyboardInterrupt:
        interrupted(console, lang)


@board_app.command("replay")
def replay_cmd(
    record: Path = typer.Argument(..., help="a record saved with --save"),
    lang: str = typer.Option("ja", help="ja (default) or en"),
    seat: Optional[int] = typer.Option(None, help="see the game as this seat (default: spectator)"),
) -> None:
    """Replay a saved game and print it (public events, or one seat's)."""
    console = Console()
    _check_lang(lang)
    try:
        game = board_save(record, lang)
        seat_option(seat, game.n)
    except FuyukiError as exc:
        fail(exc, lang)
    printer = Printer(console, game, seat, lang, show_map_each_turn=False)
    printer.flush()
    _outcome(console, game, lang)


@board_app.command("simulate")
def simulate_cmd(
    games: int = typer.Option(200, help="number of games"),
    players: int = typer.Option(4, help="camps per game, 2 to 5 (drawn from every camp of the pack)"),
    bots: str = typer.Option("heuristic", help="random or heuristic"),
    seed: int = typer.Option(0, help="simulation seed"),
    workers: int = typer.Option(1, help="worker processes (the figures do not depend on it)"),
    lang: str = typer.Option("ja", help="ja (default) or en"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="show a progress bar"),
) -> None:
    """Bots play many games; print each camp's and each seat's win share with its Wilson 95 %
    interval (a draw is a win for nobody)."""
    from rich.progress import Progress

    from fuyuki.board.content import default_pack
    from fuyuki.board.simulate import simulate
    from fuyuki.board.text import register
    from fuyuki.core.i18n import tr

    console = Console()
    _check_lang(lang)
    register()

    def t(key: str, **p: Any) -> str:
        return tr(lang, f"board.ui.{key}", **p)

    try:
        if bots not in BOTS:
            raise bots_error(bots)
        if games < 1:
            raise DataError("--games", "games", "must be at least 1", "low", lo=1, got=games)
        players_error(players, len(default_pack().camps))
        with Progress(console=Console(stderr=True), transient=True,
                      disable=not progress) as bar:
            task = bar.add_task(t("sim_running"), total=games)
            res = simulate(games, players=players, bots=bots, seed=seed, workers=max(1, workers),
                           progress=lambda n: bar.advance(task, n))
    except FuyukiError as exc:
        fail(exc, lang)
    pack = default_pack()

    def pct(x: float) -> str:
        return f"{100 * x:.1f}%"

    def row(name: str, v: dict[str, Any]) -> list[str]:
        return [name, str(v["played"]), str(v["wins"]), pct(v["win_rate"]),
                f"{pct(v['low'])}–{pct(v['high'])}"]

    def table(title: str, first: str) -> Table:
        tab = Table(title=title)
        for col in (first, "played", "wins", "rate", "interval"):
            tab.add_column(t(col), justify="left" if col == first else "right")
        return tab

    camps = table(t("sim_title", games=games, players=players, bots=bots), "camp")
    for k, v in sorted(res["camps"].items(), key=lambda kv: -kv[1]["win_rate"]):
        camps.add_row(*row(pick(pack.camps[k].name, lang), v))
    console.print(camps)
    seats = table(t("sim_seats"), "seat")
    for i, v in enumerate(res["seats"]):
        seats.add_row(*row(str(i + 1), v))
    console.print(seats)
    console.print(t("draws", draws=res["draws"], rounds=f"{res['mean_rounds']:.1f}"))
    console.print(t("sim_note", share=pct(1 / players)))
