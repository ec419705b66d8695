"""Grail War RPG commands: ``fuyuki war new | battle | verify``."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any, Optional

import typer

from fuyuki.cli.files import fail, roster as roster_file, rpg_sheet, war_log, war_save
from fuyuki.core.dice import derive_secret, fresh_secret
from fuyuki.core.load import read_text
from fuyuki.core.errors import DataError, FuyukiError, IllegalAction
from fuyuki.core.load import check_output
from fuyuki.core.events import Event
from fuyuki.core.protocol import Decision

war_app = typer.Typer(help="Grail War RPG (seed 002): a forum-run Holy Grail War with a GM "
                           "console and verifiable dice.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(war_app, name="war")


def _lang(lang: str) -> str:
    if lang not in ("ja", "en"):
        fail(DataError("--lang", "lang", f"must be ja or en, not {lang!r}"), "en")
    return lang


# -- prompts for people ------------------------------------------------------------------------

# Events that begin a block of the war's log (a pair's event of the morning, a battle, an
# action, a phase...): "since your last decision" shows a block by its first line, with the
# battle's outcome, or whole when it concerns the player's pairs.
HEADS = ("turn_start", "event", "battle_start", "h_action", "h_comm", "h_mana", "mana_check",
         "war_end", "engage", "contact_peace", "no_engage")
OUTCOMES = ("retreat", "vanish", "out", "battle_end", "war_end")


def since_lines(rendered: list[tuple[Event, list[str]]], mine: set[str] | None) -> list:
    """The war's events since the player's last decision (each with its rendered lines), as
    lines of the shared screen: each block whole when it names one of ``mine`` (their pairs'
    servants and masters; None: every block is theirs), else its first line and its
    outcome."""
    from fuyuki.cli.screen import MINE, OUTCOME, STEP, Since

    blocks: list[list[tuple[Event, list[str]]]] = []
    for ev, lines in rendered:
        if not blocks or ev.kind in HEADS or ev.kind.startswith("act_"):
            blocks.append([])
        blocks[-1].append((ev, lines))
    out = []
    for block in blocks:
        lines = [line for _, ls in block for line in ls if line.strip()]
        if not lines:
            continue
        named = mine is None or any(name in repr(ev.data) for ev, _ in block for name in mine)
        if named or any(ev.kind == "war_end" for ev, _ in block):
            # line by line: when they do not all fit, the latest ones stay
            out += [Since(line.strip(), MINE) for line in lines]
            continue
        ends = [line.strip() for ev, ls in block if ev.kind in OUTCOMES for line in ls]
        head = lines[0].strip()
        out.append(Since(" ".join([head] + [e for e in ends if e != head]),
                         OUTCOME if ends else STEP))
    return out


class WarScreen:
    """The people's decisions of a war on the shared screen (:mod:`fuyuki.cli.screen`)."""

    def __init__(self, lang: str, renderer, mine: set[str] | None,
                 tutorial: bool = False) -> None:
        from rich.console import Console

        from fuyuki.cli.screen import Decider

        self.console = Console(highlight=False)
        self.lang, self.renderer, self.mine = lang, renderer, mine
        self.decider = Decider(self.console, lang)
        self.seen: list[tuple[Event, list[str]]] = []    # since the last decision, rendered
        self.tutorial = tutorial
        self.taught: set[str] = set()    # the kinds of decision explained already

    def lesson(self, kind: str) -> list:
        """With ``--tutorial``, what a kind of decision is about, the first time it comes."""
        from fuyuki.cli.prompt import t as cli_t
        from fuyuki.cli.wrap import Paragraph
        from fuyuki.rpg.text import t

        if not self.tutorial or kind in self.taught:
            return []
        self.taught.add(kind)
        return [Paragraph(cli_t(self.lang, "screen.tutorial") + t(self.lang, f"help.{kind}"),
                          "bold yellow", 0)]

    def saw(self, events: list[Event]) -> None:
        for ev in events:
            lines = self.renderer.lines([ev])
            self.decider.log.extend(lines)
            self.seen.append((ev, lines))

    def since(self) -> list:
        """What happened since the last decision, for its screen (handed over once)."""
        since, self.seen = since_lines(self.seen, self.mine), []
        return since

    def rest(self) -> None:
        for line in self.since():
            self.console.print(line.text, markup=False)

    def choose(self, who: str, d: Decision, names: dict[str, str], status: str | None = None,
               extra: list[str] | None = None) -> Any:
        from rich.text import Text

        from fuyuki.cli.screen import Frame
        from fuyuki.rpg.options import option_label
        from fuyuki.rpg.text import t

        lang = self.lang
        head = [Text(status)] if status else []
        prompt = [Text(line) for line in extra or []]
        prompt.append(Text(t(lang, "prompt.decide", who=who, kind=t(lang, f"kind.{d.kind}")),
                           style="bold cyan"))
        for key in ("target", "offer"):
            if key in d.info and d.info[key] in names:
                prompt.append(Text(t(lang, "prompt.other", name=names[d.info[key]])))
        if d.kind == "retreat":
            prompt.append(Text(t(lang, "prompt.retreat", cost=d.info.get("cost"),
                                 seals=d.info.get("seals"), mana=d.info.get("mana"),
                                 per=d.info.get("mana_per_seal"))))
        if d.info.get("totals") and d.kind in ("prepare", "pick_stat", "redraw", "declare"):
            from fuyuki.rpg.text import ORDER, stats_line
            sides = d.info.get("sides") or ["", ""]
            for i, tot in enumerate(d.info["totals"]):
                prompt.append(Text(f"  {'AB'[i]} {sides[i]}: {stats_line(lang, ORDER, tot)}"))
        if d.kind == "prepare" and "base" in d.info:
            from fuyuki.rpg.text import prepare_lines
            prompt += [Text(line) for line in prepare_lines(lang, d.info, d.info.get("names", {}))]
        options = list(d.options)
        since = self.since()
        notes = self.lesson(d.kind)
        if len(options) > 12:
            # long lists (the action with every target): the kind first, then the target
            groups: dict[str, list[Any]] = {}
            for opt in options:
                groups.setdefault(str(opt).split(":", 1)[0], []).append(opt)
            heads = list(groups)
            labels = [option_label(lang, d, groups[h][0], names) if len(groups[h]) == 1
                      else t(lang, f"opt.{h}", x="…") for h in heads]
            chosen = self._ask(d, Frame(head, since, prompt, notes), labels)
            options = groups[heads[chosen]]
            if len(options) == 1:
                return options[0]
            head, since, notes = [], [], []
            prompt = [Text(labels[chosen], style="bold cyan")]
        labels = [option_label(lang, d, o, names) for o in options]
        return options[self._ask(d, Frame(head, since, prompt, notes), labels)]

    def _ask(self, d: Decision, frame, labels: list[str]) -> int:
        """Draw ``frame`` with ``labels`` numbered under it; read the player's choice."""
        from rich.console import Group
        from rich.text import Text

        from fuyuki.cli.pager import page
        from fuyuki.rpg.text import t

        lang = self.lang
        frame.prompt += [Text(f"  {i}. {label}") for i, label in enumerate(labels, 1)]

        def show_help() -> None:
            page(self.console, Group(Text(t(lang, "help.title", kind=t(lang, f"kind.{d.kind}")),
                                          style="bold cyan"),
                                     Text(t(lang, f"help.{d.kind}")),
                                     Text(t(lang, "help.more"), style="dim")))

        return self.decider.decide(frame, [[label] for label in labels], show_help)


# -- war battle -------------------------------------------------------------------------------

@war_app.command("battle")
def battle_cmd(
    a: str = typer.Argument(..., help="side A: a sheet file (TOML) or a pair id/name of the roster"),
    b: str = typer.Argument(..., help="side B: a sheet file (TOML) or a pair id/name of the roster"),
    roster: Optional[Path] = typer.Option(None, help="roster file (default: the sample roster)"),
    seed: Optional[str] = typer.Option(None, help="derive the dice secret from this seed"),
    attacker: Optional[str] = typer.Option(None, help="A or B: who attacks (the other defends)"),
    snipe: bool = typer.Option(False, help="the attacker snipes (needs 千里眼)"),
    surprise: bool = typer.Option(False, help="the attacker attacks by surprise"),
    human: str = typer.Option("", help="sides you decide for at prompts: A, B or AB"),
    lineup_a: Optional[str] = typer.Option(None, help="A's main|sub, e.g. servant|master"),
    lineup_b: Optional[str] = typer.Option(None, help="B's main|sub"),
    lang: str = typer.Option("ja", help="ja or en"),
    brief: bool = typer.Option(False, help="only the paste-ready lines, no breakdown"),
    log: Optional[Path] = typer.Option(None, help="write the publishable log (with #DICE lines)"),
) -> None:
    """Calculate one battle between two sheets, step by step (seed 002 steps 1–7)."""
    from fuyuki.rpg.agents import program
    from fuyuki.rpg.battle_game import BattleGame
    from fuyuki.rpg.roster import lookup_pair
    from fuyuki.rpg.rules import default_rules
    from fuyuki.rpg.text import Renderer
    from fuyuki.rpg.war_log import battle_log, head_event, roster_field, war_dice

    lang = _lang(lang)
    try:
        if log:
            check_output(log, "--log")
        rules = default_rules()
        ro, ro_text = None, None
        sources: list[dict[str, Any]] = []

        def sheet(x: str):
            nonlocal ro, ro_text
            if x.endswith(".toml") or Path(x).is_file():
                pair = rpg_sheet(x)
                sources.append({"sheet": read_text(x), "name": Path(x).name})
                return pair
            if ro is None:
                ro, ro_text, _ = roster_file(roster)
            sources.append({"pair": x})
            return lookup_pair(ro, x)

        pa, pb = sheet(a), sheet(b)
        if attacker not in (None, "A", "B", "a", "b"):
            raise DataError("--attacker", "attacker", "must be A or B", "choice",
                            allowed="A | B", got=repr(attacker))
        for option, text in (("--lineup-a", lineup_a), ("--lineup-b", lineup_b)):
            if text is not None and text.count("|") != 1:
                raise DataError(option, "lineup", "write 'main|sub'", "format",
                                want="main|sub", got=repr(text))
        att = None if attacker is None else "AB".index(attacker.upper())
        secret = derive_secret(seed, "battle") if seed is not None else fresh_secret()
        wd = war_dice(secret, 1, ro_text)
        dice = wd(1)
        dice.follow(None)
        game = BattleGame(rules, ([pa], [pb]), lambda: dice, attacker=att, surprise=surprise,
                          snipe=snipe, lineups=(lineup_a, lineup_b), label="t1/b1")
        agents = {0: program(seed or 0, 0), 1: program(seed or 0, 1)}
        head = [head_event(wd), Event("dice_commit", {"scope": "t1", "sha": dice.commitment,
                                                      **dice.published()})]
        out = Renderer(lang, brief=brief)
        typer.echo("\n".join(out.lines(head)))
        people = {seat for seat in (0, 1) if "AB"[seat] in human.upper()}
        # people decide on the shared screen: what happened since their last decision, all of
        # it theirs, fits it (the whole breakdown is behind `log`); after the last decision
        # the rest is printed
        screen = WarScreen(lang, out, None) if people else None
        names = {ps.servant.id: ps.servant.name for ps in game.states}
        names |= {ps.master.id: ps.master.name for ps in game.states}
        names |= {ps.id: ps.master.name for ps in game.states}
        shown = 0
        while not game.over:
            if screen is not None:
                screen.saw(game.events[shown:])
            elif game.events[shown:]:
                typer.echo("\n".join(out.lines(game.events[shown:])))
            shown = len(game.events)
            for seat, d in game.pending().items():
                if screen is not None and seat in people:
                    from fuyuki.rpg.text import side_name
                    choice = screen.choose(side_name(lang, seat), d, names)
                else:
                    choice = agents[seat].choose({"me": game.states[seat].sheet()
                                                  | {"max_mana": game.states[seat].max_mana(rules)},
                                                  "pairs": []}, d)
                game.submit(seat, choice)
        if screen is not None:
            screen.rest()
        tail = [Event("dice_reveal", {"scope": "t1", "secret": dice.secret.hex(),
                                      "seal": dice.seal().hex()})]
        rest = out.lines(game.events[shown:] + tail)
        typer.echo("\n".join(rest))
        if log:
            record = {"v": 2, "kind": "battle", "lang": lang, "brief": brief, "sides": sources,
                      "roster": roster_field(ro_text), "attacker": att, "surprise": surprise,
                      "snipe": snipe, "lineups": [lineup_a, lineup_b],
                      "submissions": [list(x) for x in game.submissions]}
            full = battle_log(Renderer(lang, brief=brief, dice=True), wd, dice, game.events,
                              record)
            log.write_text("\n".join(full) + "\n", "utf-8")
    except IllegalAction as exc:
        if exc.code != "bad_lineup":
            fail(exc, lang)
        fail(DataError("--lineup-a / --lineup-b", "lineup", str(exc), "format",
                       want="servant|master, master|servant, -|servant",
                       got=f"{lineup_a or '-'} / {lineup_b or '-'}"), lang)
    except FuyukiError as exc:
        fail(exc, lang)
    except KeyboardInterrupt:
        from rich.console import Console

        from fuyuki.cli.prompt import interrupted
        interrupted(Console(), lang)


# -- war verify -------------------------------------------------------------------------------

@war_app.command("verify")
def verify_cmd(
    log: Path = typer.Argument(..., help="a published log with #DICE lines"),
    lang: str = typer.Option("ja", help="ja or en"),
) -> None:
    """Replay a published log: every roll recomputed from the revealed secrets and
    contributions, every generated line from the record. Exit 0 when all of it matches; 1
    naming the first line that does not (or when the log holds no dice); 2 when the log cannot
    be read or replayed by this version (another format, other rules); 3 when nothing
    mismatches but something is not published yet (a turn's secret, the war's record)."""
    from fuyuki.rpg.text import t
    from fuyuki.rpg.war_log import exit_code

    lang = _lang(lang)
    try:
        report = war_log(log)
    except FuyukiError as exc:
        fail(exc, lang)
    for p in report.problems:
        typer.echo(t(lang, f"verify.{p.code}", line=p.line, **p.params))
    code = exit_code(report)
    if code == 2:
        raise typer.Exit(2)               # not a log this program can replay
    if code == 0:
        typer.echo(t(lang, "verify.ok", commits=report.commits, rolls=report.rolls))
        return
    if report.problems and report.problems[0].code == "empty":
        raise typer.Exit(1)
    for p in report.pending:
        typer.echo(t(lang, f"verify.{p.code}", line=p.line, **p.params))
    unverifiable = sum(p.params.get("rolls", 0) for p in report.pending)
    typer.echo(t(lang, "verify.summary", bad=len(report.problems), rolls=report.rolls,
                 unverifiable=unverifiable))
    raise typer.Exit(code)


# -- war new ----------------------------------------------------------------------------------

@war_app.command("new")
def new_cmd(
    roster: Optional[Path] = typer.Option(None, help="roster file (default: the sample roster)"),
    human: list[str] = typer.Option([], help="a pair you drive (id or name); repeat for more"),
    seed: Optional[str] = typer.Option(None, help="the war's seed (default: a fresh secret one)"),
    auto: bool = typer.Option(False, help="the program drives every pair to the end"),
    log: Optional[Path] = typer.Option(None, help="write the publishable log here"),
    save: Optional[Path] = typer.Option(None, help="save the war here (after every human decision and at the end)"),
    resume: Optional[Path] = typer.Option(None, help="resume the war saved in this file"),
    turns: Optional[int] = typer.Option(None, help="turn limit (default: rules.toml)"),
    lang: str = typer.Option("ja", help="ja or en"),
    brief: bool = typer.Option(False, help="only the paste-ready lines, no breakdown"),
    quiet: bool = typer.Option(False, help="print only the end of the war"),
    tutorial: bool = typer.Option(False, "--tutorial",
                                  help="explain each new kind of decision once"),
) -> None:
    """Start (or resume) a war. People choose their pairs' moves at prompts; the program
    drives the others (all of them with --auto)."""
    from rich.console import Console

    from fuyuki.cli.prompt import interrupted, read_line
    from fuyuki.rpg.roster import lookup_pair
    from fuyuki.rpg.rules import default_rules
    from fuyuki.rpg.text import Renderer, t
    from fuyuki.core import contract
    from fuyuki.rpg.agents import program

    lang = _lang(lang)
    try:
        for path, opt in ((save, "--save"), (log, "--log")):
            if path is not None and path != resume:
                check_output(path, opt)
        rules = default_rules()
        limit = rules.war["max_turns"] * 10
        if turns is not None and not 1 <= turns <= limit:
            raise DataError("--turns", "turns", f"must be 1 to {limit}", "between", lo=1,
                            hi=limit, got=turns)
        # the war is the contract's rpg-war (fuyuki.rpg.war_record.start): its record is the
        # save, and a save resumes through contract.replay (war_save)
        if resume is not None:
            saved = war_save(resume, lang)
            war, submissions = saved["war"], saved["submissions"]
            save = save or resume
        else:
            ro, roster_text, roster_name = roster_file(roster)
            humans_ids = [lookup_pair(ro, h).id for h in human]
            if not auto and not humans_ids:
                humans_ids = [ro.pairs[0].id]
            war = contract.start("rpg-war", 0, {
                "roster_toml": roster_text, "roster_path": roster_name,
                "seed_text": seed if seed is not None else secrets.token_hex(16),
                "humans": [] if auto else humans_ids, "max_turns": turns, "notes": []}, "war new")
            submissions = []
        config = war.config
        if auto:
            config["humans"] = []
        roster_text, notes, war_seed = config["roster_toml"], config["notes"], war.seed
        from fuyuki.rpg.war_log import cli_dice, cli_lines, end_event, head_event, last_seal, \
            roster_field
        dice = cli_dice(war_seed, war.max_turns, roster_text)     # the war's: its chain's head
        humans = {i for i, p in enumerate(war.pairs) if p.id in config["humans"]}
        agents = {i: program(war_seed, i) for i in range(len(war.pairs))}
        gm = Renderer(lang, brief=brief)
        pub = Renderer(lang, brief=brief, dice=True)
        names = {}
        for p in war.pairs:
            names[p.id] = p.servant.name
            names[p.servant.id] = p.servant.name
            names[p.master.id] = p.master.name

        def save_now() -> None:
            if save is not None:
                war.record.save(save)

        def publish() -> None:
            if log is not None:
                lines = pub.lines([head_event(dice)]) + cli_lines(pub, war.events, notes, lang)
                if war.over:
                    record = {"v": 2, "kind": "war", "lang": lang, "brief": brief,
                              "roster": roster_field(roster_text), "turns": war.max_turns,
                              "notes": notes, "submissions": [list(x) for x in war.submissions]}
                    lines += pub.lines([end_event(record, *last_seal(war.events))])
                log.write_text("\n".join(lines) + "\n", "utf-8")
                pub.__init__(lang, brief=brief, dice=True)

        if humans and not quiet:
            from fuyuki.cli.opening import show_opening
            show_opening(Console(highlight=False), "war", lang)
        screen = None
        if humans and not quiet:
            mine = {n for i in humans for n in (war.pairs[i].servant.name,
                                                 war.pairs[i].master.name)}
            screen = WarScreen(lang, gm, mine, tutorial)
        shown = 0
        if quiet:
            shown = len(war.events)
        elif submissions:
            shown = len(war.events)
            typer.echo(t(lang, "prompt.resumed", turn=war.turn, n=len(submissions)))

        def show(events: list[Event]) -> None:
            if screen is not None:
                screen.saw(events)
            elif events:
                typer.echo(gm.text(events))

        while not war.over:
            if not quiet:
                show(war.events[shown:])
            shown = len(war.events)
            pend = war.pending()
            for seat in sorted(pend):
                d = pend[seat]
                if seat in humans:
                    me = war.pairs[seat]
                    status = t(lang, "prompt.state", who=me.label, mana=me.mana,
                               max=me.max_mana(rules), seals=me.seals,
                               items=", ".join(f"{rules.items[k].name[lang]}×{v}"
                                               for k, v in me.items.items()) or "-")
                    if screen is None:
                        screen = WarScreen(lang, gm, set(), tutorial)
                    choice = screen.choose(me.label, d, names, status)
                    if d.kind == "comm":
                        memo = read_line(Console(highlight=False), lang, t(lang, "prompt.memo"))
                        if memo.strip():
                            notes.append([len(war.events), me.label, memo.strip()])
                else:
                    choice = agents[seat].choose(war.view(seat), d)
                war.submit(seat, choice)
                if seat in humans:
                    save_now()
            if war.pending() and any(s in humans for s in war.pending()):
                publish()
        if quiet:
            end = [e for e in war.events if e.kind == "war_end"]
            typer.echo(gm.text(end))
        elif screen is not None:      # the rest condensed, as on a screen (log: the whole)
            screen.saw(war.events[shown:])
            screen.rest()
        elif war.events[shown:]:
            typer.echo(gm.text(war.events[shown:]))
        save_now()
        publish()
    except FuyukiError as exc:
        fail(exc, lang)
    except KeyboardInterrupt:
        interrupted(Console(), lang)
