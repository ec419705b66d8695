"""Grail War RPG commands: ``fuyuki war new | battle | verify``."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any, Optional

import typer

from fuyuki.core.dice import CommittedDice, derive_secret, fresh_secret, verify_lines
from fuyuki.core.errors import FuyukiError, IllegalAction
from fuyuki.core.events import Event, visible
from fuyuki.core.protocol import Decision
from fuyuki.core.record import Record

war_app = typer.Typer(help="Grail War RPG (seed 002): a forum-run Holy Grail War with a GM "
                           "console and verifiable dice.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(war_app, name="war")


def _fail(exc: Exception) -> None:
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(2)


def _lang(lang: str) -> str:
    if lang not in ("ja", "en"):
        _fail(ValueError(f"--lang must be ja or en, not {lang!r}"))
    return lang


# -- prompts for people ------------------------------------------------------------------------

def prompt_choice(lang: str, who: str, d: Decision, names: dict[str, str],
                  status: str | None = None) -> Any:
    from fuyuki.rpg.options import option_label
    from fuyuki.rpg.text import t

    typer.echo("")
    if status:
        typer.echo(status)
    typer.echo(t(lang, "prompt.decide", who=who, kind=t(lang, f"kind.{d.kind}")))
    for key in ("target", "offer"):
        if key in d.info and d.info[key] in names:
            typer.echo(t(lang, "prompt.other", name=names[d.info[key]]))
    if d.kind == "retreat":
        typer.echo(t(lang, "prompt.retreat", cost=d.info.get("cost"), seals=d.info.get("seals"),
                     mana=d.info.get("mana"), per=d.info.get("mana_per_seal")))
    if d.info.get("totals") and d.kind in ("pick_stat", "redraw", "declare"):
        from fuyuki.rpg.text import ORDER, stats_line
        for i, tot in enumerate(d.info["totals"]):
            typer.echo(f"  {'AB'[i]}: {stats_line(lang, ORDER, tot)}")
    options = list(d.options)
    if len(options) > 12:
        # long lists (the action with every target): choose the kind first, then the target
        groups: dict[str, list[Any]] = {}
        for opt in options:
            groups.setdefault(str(opt).split(":", 1)[0], []).append(opt)
        heads = list(groups)
        for i, head in enumerate(heads, 1):
            first = groups[head][0]
            label = option_label(lang, d, first, names) if len(groups[head]) == 1 else \
                t(lang, f"opt.{head}", x="…")
            typer.echo(f"  {i}. {label}")
        head = heads[_ask_index(lang, len(heads))]
        options = groups[head]
        if len(options) == 1:
            return options[0]
    for i, opt in enumerate(options, 1):
        typer.echo(f"  {i}. {option_label(lang, d, opt, names)}")
    return options[_ask_index(lang, len(options))]


def _ask_index(lang: str, n: int) -> int:
    from fuyuki.rpg.text import t

    while True:
        raw = typer.prompt(t(lang, "prompt.ask")).strip()
        if raw.isdigit() and 1 <= int(raw) <= n:
            return int(raw) - 1
        typer.echo(t(lang, "prompt.bad"))


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
    from fuyuki.rpg.agents.simple import SimpleAgent
    from fuyuki.rpg.battle_game import BattleGame
    from fuyuki.rpg.roster import load_pair_file, load_roster, lookup_pair
    from fuyuki.rpg.rules import default_rules
    from fuyuki.rpg.text import Renderer

    lang = _lang(lang)
    try:
        rules = default_rules()
        ro = None

        def sheet(x: str):
            nonlocal ro
            if x.endswith(".toml") or Path(x).is_file():
                return load_pair_file(x, rules)
            if ro is None:
                ro = load_roster(roster, rules)
            return lookup_pair(ro, x)

        pa, pb = sheet(a), sheet(b)
        if attacker not in (None, "A", "B", "a", "b"):
            raise IllegalAction("bad_attacker", "--attacker must be A or B")
        att = None if attacker is None else "AB".index(attacker.upper())
        secret = derive_secret(seed, "battle") if seed is not None else fresh_secret()
        dice = CommittedDice(secret)
        game = BattleGame(rules, ([pa], [pb]), lambda: dice, attacker=att, surprise=surprise,
                          snipe=snipe, lineups=(lineup_a, lineup_b), label="b1")
        agents = {0: SimpleAgent(seed or 0, 0), 1: SimpleAgent(seed or 0, 1)}
        head = [Event("dice_commit", {"scope": "battle", "sha": dice.commitment})]
        out = Renderer(lang, brief=brief)
        typer.echo("\n".join(out.lines(head)))
        shown = 0
        while not game.over:
            typer.echo("\n".join(out.lines(game.events[shown:]))) if game.events[shown:] else None
            shown = len(game.events)
            for seat, d in game.pending().items():
                if "AB"[seat] in human.upper():
                    names = {ps.servant.id: ps.servant.name for ps in game.states}
                    names |= {ps.master.id: ps.master.name for ps in game.states}
                    names |= {ps.id: ps.master.name for ps in game.states}
                    from fuyuki.rpg.text import side_name
                    choice = prompt_choice(lang, side_name(lang, seat), d, names)
                else:
                    choice = agents[seat].choose({"me": game.states[seat].sheet()
                                                  | {"max_mana": game.states[seat].max_mana(rules)},
                                                  "pairs": []}, d)
                game.submit(seat, choice)
        tail = [Event("dice_reveal", {"scope": "battle", "secret": dice.secret.hex()})]
        rest = out.lines(game.events[shown:] + tail)
        typer.echo("\n".join(rest))
        if log:
            full = Renderer(lang, brief=brief, dice=True).lines(head + game.events + tail)
            log.write_text("\n".join(full) + "\n", "utf-8")
    except FuyukiError as exc:
        _fail(exc)


# -- war verify -------------------------------------------------------------------------------

@war_app.command("verify")
def verify_cmd(
    log: Path = typer.Argument(..., help="a published log with #DICE lines"),
    lang: str = typer.Option("ja", help="ja or en"),
) -> None:
    """Recompute every roll of a published log from its revealed secrets. Exit 0 when all
    match, 1 when some do not (each is listed), 2 when the log cannot be read."""
    from fuyuki.rpg.text import t

    lang = _lang(lang)
    try:
        text = log.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail(exc)
    report = verify_lines(text.splitlines())
    for p in report.problems:
        typer.echo(t(lang, f"verify.{p.code}", line=p.line, **p.params))
    if report.ok:
        typer.echo(t(lang, "verify.ok", commits=report.commits, rolls=report.rolls))
        return
    typer.echo(t(lang, "verify.summary", bad=len(report.problems), rolls=report.rolls))
    raise typer.Exit(1)


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
) -> None:
    """Start (or resume) a war. People choose their pairs' moves at prompts; the program
    drives the others (all of them with --auto)."""
    from fuyuki.rpg.roster import lookup_pair, parse_roster
    from fuyuki.rpg.rules import default_rules
    from fuyuki.rpg.text import Renderer, t
    from fuyuki.rpg.war import War
    from fuyuki.rpg.agents.simple import SimpleAgent
    from fuyuki.core.data import package_file, read_toml
    import tomllib

    lang = _lang(lang)
    try:
        rules = default_rules()
        notes: list[list[Any]] = []
        if resume is not None:
            rec = Record.load(resume)
            if rec.game != "rpg-war":
                raise FuyukiError(f"{resume}: not a Grail War RPG save (game={rec.game!r})")
            cfg = rec.config
            roster_text, roster_name = cfg["roster_toml"], cfg["roster_path"]
            humans_ids = list(cfg.get("humans", []))
            war_seed = cfg.get("seed_text", rec.seed)
            max_turns = cfg.get("max_turns")
            notes = list(cfg.get("notes", []))
            submissions = rec.submissions
            save = save or resume
        else:
            path = roster or package_file("fuyuki.rpg", "data", "roster.toml")
            read_toml(path)  # clear error when missing / not TOML
            roster_text, roster_name = Path(path).read_text("utf-8"), str(path)
            war_seed = seed if seed is not None else secrets.token_hex(16)
            max_turns = turns
            submissions = []
            humans_ids = []
        ro = parse_roster(tomllib.loads(roster_text), roster_name, rules)
        if resume is None:
            for h in human:
                humans_ids.append(lookup_pair(ro, h).id)
            if not auto and not humans_ids:
                humans_ids = [ro.pairs[0].id]
        if auto:
            humans_ids = []
        war = War(ro, rules, war_seed, max_turns=max_turns)
        for s, c in submissions:
            war.submit(s, c)
        humans = {i for i, p in enumerate(war.pairs) if p.id in humans_ids}
        agents = {i: SimpleAgent(war_seed, i) for i in range(len(war.pairs))}
        gm = Renderer(lang, brief=brief)
        pub = Renderer(lang, brief=brief, dice=True)
        names = {}
        for p in war.pairs:
            names[p.id] = p.servant.name
            names[p.servant.id] = p.servant.name
            names[p.master.id] = p.master.name

        def save_now() -> None:
            if save is not None:
                Record("rpg-war", 0, {"roster_toml": roster_text, "roster_path": roster_name,
                                      "seed_text": war_seed, "humans": sorted(humans_ids),
                                      "max_turns": max_turns, "notes": notes},
                       list(war.submissions)).save(save)

        def publish() -> None:
            if log is not None:
                lines: list[str] = []
                done = 0
                for at, who, text in sorted(notes, key=lambda n: n[0]):
                    lines += pub.lines(visible(war.events[done:at], None))
                    lines.append(t(lang, "prompt.note", who=who, text=text))
                    done = at
                lines += pub.lines(visible(war.events[done:], None))
                log.write_text("\n".join(lines) + "\n", "utf-8")
                pub.__init__(lang, brief=brief, dice=True)

        shown = 0
        if quiet:
            shown = len(war.events)
        elif submissions:
            shown = len(war.events)
            typer.echo(t(lang, "prompt.resumed", turn=war.turn, n=len(submissions)))
        while not war.over:
            if not quiet and war.events[shown:]:
                typer.echo(gm.text(war.events[shown:]))
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
                    choice = prompt_choice(lang, me.label, d, names, status)
                    if d.kind == "comm":
                        memo = typer.prompt(t(lang, "prompt.memo"), default="", show_default=False)
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
        elif war.events[shown:]:
            typer.echo(gm.text(war.events[shown:]))
        save_now()
        publish()
    except FuyukiError as exc:
        _fail(exc)
    except KeyError as exc:
        _fail(FuyukiError(f"save file: missing {exc}"))
