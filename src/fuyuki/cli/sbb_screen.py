"""The terminal screen of Servant Big Battle: tables drawn with rich from a view."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from fuyuki.sbb.cards import CardSet
from fuyuki.sbb.text import card_name, seat_name, t

COLOUR_STYLE = {"red": "bold red", "blue": "bold blue", "green": "bold green",
                "yellow": "bold yellow", "purple": "bold magenta"}


def land_table(view: dict[str, Any], cards: CardSet, lang: str) -> Table:
    table = Table(title=t(lang, "ui.lands"), show_header=False, box=None, pad_edge=False)
    row = []
    for land in view["lands"]:
        c = cards.lands[land["id"]]
        row.append(Text(f"{c.name['ja']} ◆{land['gems']}", style=COLOUR_STYLE.get(c.colour, "")))
    table.add_row(*row)
    return table


def players_table(view: dict[str, Any], cards: CardSet, lang: str) -> Table:
    me = view.get("seat")
    table = Table(title=t(lang, "ui.players"))
    for col in ("", t(lang, "ui.gems"), t(lang, "ui.hand"), t(lang, "what.master"),
                t(lang, "what.servant"), t(lang, "ui.mana")):
        table.add_column(col)
    if any("coins" in p for p in view["seats"]):
        table.add_column("coins")
    for p in view["seats"]:
        name = seat_name(p["seat"], lang, me)
        if p["seat"] == view["parent"]:
            name += escape(f" [{t(lang, 'ui.parent')}]")
        master = card_name(p["master"], lang, cards) if p["master"] else f"({t(lang, 'ui.hidden')})"
        if p["dark"]:
            master += f" {t(lang, 'ui.dark')}"
        servant = card_name(p["servant"], lang, cards) if p["servant"] else f"({t(lang, 'ui.hidden')})"
        row = [name, str(p["gems"]), str(p["hand_size"]), master, servant,
               str(p["mana"]) if p["mana"] is not None else "-"]
        if "coins" in p:
            row.append(str(p["coins"]))
        table.add_row(*row, style="bold" if p["seat"] == me else "")
    return table


def my_cards(view: dict[str, Any], cards: CardSet, lang: str) -> Table:
    me = view["me"]
    seat = view["seat"]
    pub = view["seats"][seat]
    table = Table(title=t(lang, "ui.your_cards"), show_header=False)
    table.add_column("", style="bold")
    table.add_column("")
    if me["master"]:
        m = cards.masters[me["master"]]
        state = t(lang, "ui.revealed") if pub["master_up"] else t(lang, "ui.hidden")
        dark = f" {t(lang, 'ui.dark')}" if me["dark"] else ""
        table.add_row(t(lang, "what.master"),
                      escape(f"{m.name['ja']}{dark} [{state}] {t(lang, 'ui.mana')}{me['mana']} "
                             f"《{m.ability_name['ja']}》 {m.text[lang]}"))
    if me["servant"]:
        sv = cards.servants[me["servant"]]
        state = t(lang, "ui.revealed") if pub["servant_up"] else t(lang, "ui.hidden")
        table.add_row(t(lang, "what.servant"),
                      escape(f"{sv.name['ja']} [{state}] {t(lang, 'ui.power')}{sv.power} "
                             f"《{sv.np_name['ja']}》 {sv.text[lang]}"))
    hand = "  ".join(card_name(c, lang, cards) for c in me["hand"]) or t(lang, "ui.none")
    table.add_row(t(lang, "ui.hand"), hand)
    return table


def status(view: dict[str, Any], cards: CardSet, lang: str) -> Group:
    head = Text(f"{t(lang, 'ui.round')} {view['round']}  {t(lang, 'ui.pool')} {view['pool']}  "
                f"{t(lang, 'ui.deck')} {view['decks']['action']}  "
                f"{t(lang, 'ui.discard')} {len(view['discards']['action'])}", style="dim")
    parts: list[Any] = [head, land_table(view, cards, lang), players_table(view, cards, lang)]
    if view.get("me"):
        parts.append(my_cards(view, cards, lang))
    return Group(*parts)
