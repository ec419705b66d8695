"""The terminal screen of Servant Big Battle, drawn from a view: a compact state that fits
80×24 with the last round's outcome and the options below it, the help of a decision and the
end (why it ended, a ranking). Text wraps; nothing is cut."""

from __future__ import annotations

from typing import Any, Iterable

from rich.console import Group
from rich.table import Table
from rich.text import Text

from fuyuki.cli.wrap import Paragraph
from fuyuki.core.events import Event
from fuyuki.sbb.cards import CardSet, parse_action
from fuyuki.sbb.text import (card_name, colon, gems_text, option_name, render, seat_name, sep,
                             stat, t, term_text)

COLOUR_STYLE = {"red": "bold red", "blue": "bold blue", "green": "bold green",
                "yellow": "bold yellow", "purple": "bold magenta"}
# What a round's short summary keeps: outcomes, not the steps that led to them.
SUMMARY_KINDS = ("uncontested", "misfire", "case1", "case2_win", "case2_tie", "case3_win",
                 "case3_split", "take", "lost", "grail", "swap", "pool_take", "darken")
SUMMARY_LINES = 6


def indented(text: str, style: str = "", indent: int = 5) -> Paragraph:
    """``text`` wrapped at the terminal's width with a hanging indent (never cut; Japanese
    by its line-breaking rules: :mod:`fuyuki.cli.wrap`)."""
    return Paragraph(text, style, indent)


def card_text(card: str, cards: CardSet, lang: str) -> str:
    """What a card does, in one paragraph: stats, ability or 宝具, text."""
    if card in cards.masters:
        m = cards.masters[card]
        return f"{stat(lang, 'ui.mana', m.mana)} 《{m.ability_name['ja']}》 {m.text[lang]}"
    if card in cards.servants:
        sv = cards.servants[card]
        return f"{stat(lang, 'ui.power', sv.power)} 《{sv.np_name['ja']}》 {sv.text[lang]}"
    if card in cards.events:
        return cards.events[card].text[lang]
    a = parse_action(card)
    if a is not None:
        return t(lang, f"help.{a.kind}")
    return ""


def land_of(card: str, view: dict[str, Any], cards: CardSet, lang: str) -> str:
    """"→ 穂群原学園 ◆2": where an action card goes, and the gems waiting there."""
    a = parse_action(card)
    if a is None:
        return t(lang, "screen.event_card") if card in cards.events else ""
    for land in view["lands"]:
        if cards.lands[land["id"]].colour == a.colour:
            return t(lang, "help.to_land", land=card_name(land["id"], lang, cards),
                     gems=land["gems"])
    return ""


def option_label(option: Any, kind: str, view: dict[str, Any], cards: CardSet, lang: str) -> str:
    label = option_name(option, lang, cards)
    if kind == "place_gem":
        gems = next((x["gems"] for x in view["lands"] if x["id"] == option), None)
        return f"{label} ◆{gems}" if gems is not None else label
    if isinstance(option, int):          # a seat (swap, つばめ返し): whose servant it is
        servant = view["seats"][option]["servant"]
        shown = card_name(servant, lang, cards) if servant else t(lang, "ui.hidden")
        return f"{label} ({shown})" if lang != "ja" else f"{label}（{shown}）"
    if kind in ("bid", "jewel") and isinstance(option, str) and option != "pass":
        where = land_of(option, view, cards, lang) if kind == "bid" else ""
        return f"{label} {where}".rstrip()
    return label


def option_names(option: Any, cards: CardSet) -> list[str]:
    """Every name a player may type for ``option`` (besides its number), in either language."""
    names = [] if isinstance(option, int) else [str(option)]   # a number is a menu position
    for lang in ("ja", "en"):
        names.append(option_name(option, lang, cards))
    for table in (cards.masters, cards.servants, cards.lands, cards.events):
        if option in table:
            names += list(table[option].name.values())
    return names


# ---------------------------------------------------------------------------- the state
def lands_line(view: dict[str, Any], cards: CardSet, lang: str) -> Text:
    out = Text(t(lang, "screen.lands"), style="dim")
    for land in view["lands"]:
        c = cards.lands[land["id"]]
        out.append(f"{t(lang, f'colour.{c.colour}')}:", style=COLOUR_STYLE.get(c.colour, ""))
        out.append(f"{card_name(c.id, lang, cards)}◆{land['gems']} ",
                   style=COLOUR_STYLE.get(c.colour, ""))
    out.rstrip()
    return out


def players_table(view: dict[str, Any], cards: CardSet, lang: str) -> Table:
    me = view.get("seat")
    table = Table(show_header=False, box=None, padding=(0, 1), pad_edge=False)
    for _ in range(4):
        table.add_column(overflow="fold")   # a long cell wraps, never ends in "…"
    hidden = f"({t(lang, 'ui.hidden')})"
    for p in view["seats"]:
        name = seat_name(p["seat"], lang, me)
        if p["seat"] == view["parent"]:
            name += f" [{t(lang, 'ui.parent')}]"
        master = card_name(p["master"], lang, cards) if p["master"] else hidden
        if p["master"]:
            master += f" {stat(lang, 'ui.mana', p['mana'])}"
            if p["dark"]:
                master += f" {t(lang, 'ui.dark')}"
        servant = hidden
        if p["servant"]:
            servant = (f"{card_name(p['servant'], lang, cards)} "
                       f"{stat(lang, 'ui.power', cards.servants[p['servant']].power)}")
        coins = f"  coins {p['coins']}" if "coins" in p else ""
        table.add_row(Text(name, style="bold" if p["seat"] == me else ""),
                      f"{t(lang, 'ui.gems')} {p['gems']}{coins}",
                      f"{t(lang, 'ui.hand')} {p['hand_size']}", f"{master} / {servant}")
    return table


def my_line(view: dict[str, Any], cards: CardSet, lang: str) -> Text:
    me, pub = view["me"], view["seats"][view["seat"]]
    out = Text(t(lang, "screen.you") + " ", style="bold")
    parts, space = [], "" if lang == "ja" else " "
    if me["master"]:
        state = t(lang, "ui.revealed") if pub["master_up"] else t(lang, "ui.hidden")
        dark = f" {t(lang, 'ui.dark')}" if me["dark"] else ""
        m = cards.masters[me["master"]]
        parts.append(f"{m.name['ja']}{dark}{space}[{state}] {stat(lang, 'ui.mana', me['mana'])}")
    if me["servant"]:
        state = t(lang, "ui.revealed") if pub["servant_up"] else t(lang, "ui.hidden")
        sv = cards.servants[me["servant"]]
        parts.append(f"{sv.name['ja']}{space}[{state}] {stat(lang, 'ui.power', sv.power)}")
    out.append(" / ".join(parts) or t(lang, "ui.none"))
    out.append(f"\n{t(lang, 'screen.hand')} ", style="bold")
    out.append("  ".join(card_name(c, lang, cards) for c in me["hand"]) or t(lang, "ui.none"))
    return out


def status(view: dict[str, Any], cards: CardSet, lang: str, goal: int) -> Group:
    head = Text(t(lang, "screen.head", round=view["round"], goal=goal, pool=view["pool"],
                  deck=view["decks"]["action"], discard=len(view["discards"]["action"])),
                style="bold reverse")
    parts: list[Any] = [head, lands_line(view, cards, lang), players_table(view, cards, lang)]
    if view.get("me"):
        parts.append(my_line(view, cards, lang))
    return Group(*parts)


def summary(events: Iterable[Event], lang: str, you: int | None, cards: CardSet) -> list[str]:
    """The outcome of the last round in a few lines (battles, gems taken, cards lost)."""
    lines = [render(e, lang, you=you, cards=cards) for e in events if e.kind in SUMMARY_KINDS]
    if len(lines) > SUMMARY_LINES:
        more = len(lines) - SUMMARY_LINES + 1
        lines = lines[:SUMMARY_LINES - 1] + [t(lang, "screen.more", n=more)]
    return lines


# ---------------------------------------------------------------------------- help
def help_screen(decision, view: dict[str, Any], cards: CardSet, lang: str) -> Group:
    kind_name = t(lang, f"decision.{decision.kind}")
    parts: list[Any] = [Text(t(lang, "help.title", kind_name=kind_name), style="bold cyan"),
                        indented(t(lang, f"help.{decision.kind}"), indent=2)]
    for i, opt in enumerate(decision.options, 1):
        parts.append(Text(f"  {i}. {option_label(opt, decision.kind, view, cards, lang)}",
                          style="bold"))
        card = view["seats"][opt]["servant"] if isinstance(opt, int) else opt
        text = card_text(card, cards, lang) if card else ""
        if text:
            parts.append(indented(text))
    me = view.get("me") or {}
    mine = [c for c in (me.get("master"), me.get("servant")) if c]
    if mine:
        parts.append(Text(t(lang, "help.yours"), style="bold"))
        parts += [indented(f"{card_name(c, lang, cards)} {card_text(c, cards, lang)}", indent=2)
                  for c in mine]
    parts.append(Text(t(lang, "help.field"), style="bold"))
    up = [(p["seat"], c) for p in view["seats"] for c in (p["master"], p["servant"]) if c]
    for seat, c in up:
        parts.append(indented(f"{seat_name(seat, lang, view.get('seat'))} {card_name(c, lang, cards)}"
                              f"{colon(lang)}{card_text(c, cards, lang)}", indent=2))
    if not up:
        parts.append(indented(t(lang, "help.none_up"), style="dim", indent=2))
    parts.append(Text(t(lang, "help.more"), style="dim"))
    return Group(*parts)


# ---------------------------------------------------------------------------- the end
def end_screen(result: dict[str, Any], view: dict[str, Any], cards: CardSet, lang: str,
               you: int | None) -> Group:
    winners = result.get("winners", [])
    who = sep(lang).join(seat_name(w, lang, you) for w in winners)
    gems = result.get("gems", [])
    best = gems_text(max((gems[w] for w in winners), default=0), lang) if gems else ""
    reason = t(lang, f"end.{result.get('reason')}", who=who, gems=best)
    table = Table(title=t(lang, "end.title") + t(lang, "end.rounds", rounds=result.get("rounds")))
    for col in (t(lang, "end.place"), t(lang, "end.player"), t(lang, "ui.gems"),
                t(lang, "what.master"), t(lang, "what.servant")):
        table.add_column(col)
    place, hidden = 1, f"({t(lang, 'ui.hidden')})"
    for group in result.get("ranking") or [winners]:
        for seat in group:
            p = view["seats"][seat]
            table.add_row(str(place), seat_name(seat, lang, you), str(gems[seat]),
                          card_name(p["master"], lang, cards) if p["master"] else hidden,
                          card_name(p["servant"], lang, cards) if p["servant"] else hidden,
                          style="bold green" if seat in winners else "")
        place += len(group)
    key = "ui.draw_game" if result.get("draw") else "ui.winner"
    return Group(table, Text(reason), Text(t(lang, key, winners=who), style="bold green"))


# ---------------------------------------------------------------------------- 宝石魔術
def battle_totals(events: list[Event], view: dict[str, Any], cards: CardSet,
                  lang: str) -> list[str]:
    """The battle a 宝石魔術 is asked about: each side's card and servant, so far (before the
    jewel and the masters' and lands' modifiers)."""
    battle = next((e for e in reversed(events) if e.kind == "battle"), None)
    reveal = next((e for e in reversed(events) if e.kind == "reveal"), None)
    if battle is None or reveal is None:
        return []
    me, bids = view.get("seat"), reveal.data["bids"]
    sides = []
    for seat in battle.data["seats"]:
        bid = bids[seat]
        a = parse_action(bid) if bid else None
        servant = view["seats"][seat]["servant"]
        if a is None or not servant:
            continue
        power = cards.servants[servant].power
        sides.append(f"{seat_name(seat, lang, me)}{colon(lang)}{term_text(bid, a.value, lang, cards)}"
                     f" + {term_text(servant, power, lang, cards)} = {a.value + power}")
    land = card_name(battle.data["land"], lang, cards)
    return [t(lang, "screen.totals", land=land, totals="  ".join(sides))] if sides else []
