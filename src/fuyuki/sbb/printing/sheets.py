"""The print-and-play sheets as one self-contained HTML document (template ``sheet.html`` and
``print.css`` of this package, the CSS inlined).

Pages come in pairs: nine card fronts of one back kind, then the page of their backs, each back
in the column mirrored left to right, so that double-sided printing flipped on the long edge
puts every back behind its front. Masters, servants, lands and the action deck (action cards
and events, which are shuffled together and so share one back) each start on a new page. A
last page holds the gem tokens (and the coins of a mode that uses them).

Names (cards, 宝具, abilities, 出撃/宝具) are printed in Japanese, with the English name as a
subtitle when ``lang`` is ``"en"``; every other text is in ``lang``.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path
from string import Template
from typing import Any

from fuyuki.core.i18n import pick, register, tr
from fuyuki.core.errors import FuyukiError
from fuyuki.sbb.cards import Master, load_cards, parse_action
from fuyuki.sbb.printing.deck import PrintDeck, print_deck
from fuyuki.sbb.rules import Rules

HERE = Path(__file__).parent
NS = "sbb_print"
register(NS, HERE)

PER_PAGE = 9
COLS = 3
# card grid on A4 portrait (mm): 3 x 3 poker cards, centred
CARD_W, CARD_H = 63.0, 88.0
GRID_X, GRID_Y = (210 - 3 * CARD_W) / 2, (297 - 3 * CARD_H) / 2
CUT_GAP, CUT_LEN = 1.0, 6.0
TOKENS_PER_PAGE = 120
BACK_KINDS = ("master", "servant", "land", "action")


def t(lang: str, key: str, **params: object) -> str:
    return tr(lang, f"{NS}.{key}", **params)


@dataclass(frozen=True)
class Sheets:
    html: str
    pages: int
    cards: int
    deck: PrintDeck


# ------------------------------------------------------------------------------ names
def _name(name: dict[str, str], lang: str, cls: str = "name") -> str:
    ja = name.get("ja") or pick(name, lang)
    long = " long" if _weight(ja) > 14 else ""
    out = f'<div class="{cls}{long}">{escape(ja)}</div>'
    en = name.get("en", "")
    if lang == "en" and en and en != ja:
        out += f'<div class="sub">{escape(en)}</div>'
    return out


def _inline_name(name: dict[str, str], lang: str) -> str:
    ja = name.get("ja") or pick(name, lang)
    out = escape(ja)
    en = name.get("en", "")
    if lang == "en" and en and en != ja:
        out += f' <span class="sub">{escape(en)}</span>'
    return out


def _weight(text: str) -> int:
    """Printed width of ``text`` in half-width units (a CJK character counts two)."""
    return sum(2 if ord(ch) >= 0x2E80 else 1 for ch in text)


def _text(text: str) -> str:
    w = _weight(text)
    size = " tiny" if w > 420 else " small" if w > 300 else ""
    return f'<div class="text{size}">{escape(text)}</div>'


def _mark(name: dict[str, str]) -> str:
    ja = name.get("ja", "")
    return f'<div class="mark serif">{escape(ja[:1])}</div>' if ja else ""


def _foot(cid: str, rules: Rules) -> str:
    mode = "" if rules.mode in (None, "standard") else " · " + escape(str(rules.mode))
    return (f'<div class="foot"><span>{escape(cid)}</span>'
            f'<span>{escape(rules.edition)}{mode}</span></div>')


def _stat(value: int, label: str) -> str:
    return f'<div class="stat"><b>{value}</b><small>{escape(label)}</small></div>'


# ------------------------------------------------------------------------------ fronts
class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def file_masters(rules: Rules) -> dict[str, Master]:
    """The masters as the card file has them, before an edition or a mode changed them."""
    try:
        return load_cards(rules.cards.source or None).masters
    except FuyukiError:
        return dict(rules.cards.masters)


def _join(lang: str, parts: list[str]) -> str:
    return ("、" if lang == "ja" else ", ").join(parts)


def _ability(m: Master, rules: Rules, lang: str,
             base: dict[str, Master]) -> tuple[dict[str, str], str, list[str]]:
    """The ability name, text and notes a master card shows under these rules.

    A mode may give a master another ability (ubw: 士郎's 無限の剣製): its name and text are
    then made from the rules, or borrowed from the card file's master with that ability. The
    text's ``{param}`` placeholders take the card's parameters; a parameter the edition
    changed that the text does not show, and a mode's change to how the ability works, become
    notes."""
    orig = base.get(m.id)
    name, text, notes = m.ability_name, pick(m.text, lang), []
    if orig is not None and orig.ability != m.ability:
        if m.ability == "infinite_blades" and rules.blades_as in rules.cards.servants:
            servant = rules.cards.servants[rules.blades_as]
            targets = [_card_name_ja(x, rules) for x in rules.shirou_blades_vs]
            name = servant.np_name
            text = t(lang, "ability.infinite_blades", np=servant.np_name.get("ja", ""),
                     servant=servant.name.get("ja", servant.id), targets=_join(lang, targets))
        else:
            donor = next((d for d in base.values() if d.ability == m.ability), None)
            if donor is not None:
                name, text = donor.ability_name, pick(donor.text, lang)
            else:
                name, text = {"ja": "", "en": ""}, ""
    try:
        text = text.format_map(_Params(m.params))
    except (ValueError, IndexError, AttributeError):   # stray braces: print the text as it is
        pass
    raw = pick(m.text, lang)
    changed = [t(lang, f"param.{k}", value=v) for k, v in m.params.items()
               if orig is not None and k in orig.params and orig.params[k] != v
               and "{" + k + "}" not in raw]
    if changed:
        notes.append(t(lang, "page.edition_note", edition=rules.edition) + _join(lang, changed))
    mode_notes = []
    if rules.fetch_ignored and m.ability == "fetch_master":
        mode_notes.append(t(lang, "note.ignored"))
    if rules.start_dark and m.ability == "darken":
        mode_notes.append(t(lang, "note.start_dark"))
    if mode_notes:
        notes.append(t(lang, "page.mode_note", mode=rules.mode) + _join(lang, mode_notes))
    return name, text, notes


def _card_name_ja(cid: str, rules: Rules) -> str:
    cs = rules.cards
    card = cs.servants.get(cid) or cs.masters.get(cid)
    return card.name.get("ja", cid) if card is not None else cid


def _master(cid: str, rules: Rules, lang: str, base: dict[str, Master] | None = None) -> tuple[str, str]:
    m = rules.cards.masters[cid]
    name, text, notes = _ability(m, rules, lang, base if base is not None else file_masters(rules))
    box = ""
    if m.ability != "none" or text:
        box = ('<div class="box"><div class="boxhead"><span class="tag solid">'
               f'{escape(t(lang, "label.ability"))}</span>{_inline_name(name, lang)}</div>'
               f'{_text(text)}{"".join(f"<div class=note>{escape(n)}</div>" for n in notes)}</div>')
    # v1.x masters have no 魔力 (every hand holds the same): no stat is printed then
    stat = _stat(m.mana, t(lang, "label.mana")) if rules.hand_limit else ""
    inner = (f'<div class="head"><span class="kind">{escape(t(lang, "kind.master"))}</span>'
             f'{stat}</div>'
             f'{_name(m.name, lang)}{_mark(m.name)}{box}{_foot(cid, rules)}')
    return "master", inner


def _servant(cid: str, rules: Rules, lang: str) -> tuple[str, str]:
    s = rules.cards.servants[cid]
    power = rules.power_override.get(cid, s.power)
    tags = ""
    keyword = s.keyword or t(lang, "label.no_keyword")
    tags += f'<span class="tag">{escape(t(lang, "label.keyword"))}: {escape(keyword)}</span>'
    if s.auto:
        tags += f'<span class="tag solid">{escape(t(lang, "label.auto"))}</span>'
    box = ('<div class="box"><div class="boxhead"><span class="tag solid">'
           f'{escape(t(lang, "label.np"))}</span>{_inline_name(s.np_name, lang)}</div>'
           f'<div>{tags}</div>{_text(pick(s.text, lang))}</div>')
    inner = (f'<div class="head"><span class="kind">{escape(t(lang, "kind.servant"))}</span>'
             f'{_stat(power, t(lang, "label.power"))}</div>'
             f'{_name(s.name, lang)}{_mark(s.name)}{box}{_foot(cid, rules)}')
    return "servant", inner


def _land(cid: str, rules: Rules, lang: str) -> tuple[str, str]:
    land = rules.cards.lands[cid]
    colour = t(lang, f"colour.{land.colour}")
    if land.mod_servant:
        target = rules.cards.servants[land.mod_servant].name.get("ja", land.mod_servant)
        sign = "+" if land.mod_bonus >= 0 else "−"
        label = t(lang, "label.modifier" if rules.land_modifiers else "label.modifier_option")
        mod = (f'<div class="modifier{"" if rules.land_modifiers else " off"}">'
               f'<span class="tag">{escape(label)}</span>{escape(target)} {sign}{abs(land.mod_bonus)}</div>')
    else:
        mod = f'<div class="modifier off">{escape(t(lang, "label.no_modifier"))}</div>'
    inner = (f'<div class="head"><span class="kind">{escape(t(lang, "kind.land"))}</span></div>'
             f'{_name(land.name, lang)}'
             f'<div class="swatch"><b>{escape(colour)}</b>'
             f'<span>{escape(t(lang, "label.colour"))}</span></div>'
             f'<div class="box">{mod}</div>{_foot(cid, rules)}')
    return f"land c-{land.colour}", inner


def _action(cid: str, rules: Rules, lang: str) -> tuple[str, str]:
    a = parse_action(cid)
    assert a is not None, cid
    kind_name = rules.cards.action_names[a.kind]
    ja = kind_name.get("ja", a.kind)
    colour = t(lang, f"colour.{a.colour}")
    sub = ""
    if lang == "en" and kind_name.get("en") and kind_name["en"] != ja:
        sub = f'<div class="sub">{escape(kind_name["en"])}</div>'
    corner = f"<b>{a.value}</b><span>{escape(ja[:1])}</span>"
    inner = (f'<div class="corner tl">{corner}</div><div class="corner br">{corner}</div>'
             f'<div class="band top">{escape(colour)}</div>'
             f'<div class="akind {a.kind}">{escape(ja)}</div>{sub}'
             f'<div class="value">{a.value}</div>'
             f'<div class="band bottom">{escape(cid)}</div>')
    return f"action c-{a.colour} {a.kind}", inner


def _event(cid: str, rules: Rules, lang: str) -> tuple[str, str]:
    e = rules.cards.events[cid]
    inner = (f'<div class="head"><span class="kind">{escape(t(lang, "kind.event"))}</span></div>'
             f'{_name(e.name, lang)}{_mark(e.name)}'
             f'<div class="box">{_text(pick(e.text, lang))}</div>{_foot(cid, rules)}')
    return "event", inner


_FRONTS = {"master": _master, "servant": _servant, "land": _land, "action": _action,
           "event": _event}


def card_html(kind: str, cid: str, rules: Rules, lang: str, row: int = 1, col: int = 1,
              base: dict[str, Master] | None = None) -> str:
    """One card front: ``kind`` is master, servant, land, action or event (``base``: the
    masters as the card file has them, see :func:`file_masters`)."""
    if kind == "master":
        classes, inner = _master(cid, rules, lang, base)
    else:
        classes, inner = _FRONTS[kind](cid, rules, lang)
    return (f'<div class="card front {classes}" data-kind="{kind}" data-card="{escape(cid)}" '
            f'style="grid-row:{row};grid-column:{col}"><div class="frame">{inner}</div></div>')


def back_html(kind: str, lang: str, row: int = 1, col: int = 1) -> str:
    label = t(lang, f"kind.{kind}")
    emblem = {"master": "令", "servant": "英", "land": "地", "action": "戦"}[kind]
    return (f'<div class="card back {kind}-back" data-back="{kind}" '
            f'style="grid-row:{row};grid-column:{col}"><div class="frame">'
            f'<div class="emblem serif">{emblem}</div><div class="bk">{escape(label)}</div>'
            f'<div class="title">{escape(t(lang, "title"))}</div></div></div>')


# ------------------------------------------------------------------------------ pages
def _cut_marks() -> str:
    marks = []
    xs = [GRID_X + i * CARD_W for i in range(COLS + 1)]
    ys = [GRID_Y + i * CARD_H for i in range(PER_PAGE // COLS + 1)]
    for x in xs:
        for y in (GRID_Y - CUT_GAP - CUT_LEN, ys[-1] + CUT_GAP):
            marks.append(f'<div class="cut v" style="left:{x:.2f}mm;top:{y:.2f}mm"></div>')
    for y in ys:
        for x in (GRID_X - CUT_GAP - CUT_LEN, xs[-1] + CUT_GAP):
            marks.append(f'<div class="cut h" style="left:{x:.2f}mm;top:{y:.2f}mm"></div>')
    return "".join(marks)


def _page(kind: str, body: str, caption: str, footer: str, marks: bool = True) -> str:
    return (f'<section class="sheet" data-page="{kind}">'
            f'<div class="caption">{escape(caption)}</div>'
            f'{body}{_cut_marks() if marks else ""}'
            f'<div class="caption bottom">{escape(footer)}</div></section>')


def slot(i: int, mirrored: bool = False) -> tuple[int, int]:
    """Grid row and column (1-based) of the ``i``-th card of a page; a back page mirrors the
    columns so that a long-edge flip lands each back behind its front."""
    row, col = divmod(i, COLS)
    if mirrored:
        col = COLS - 1 - col
    return row + 1, col + 1


def _chunks(items: list[Any], n: int) -> list[list[Any]]:
    return [items[i:i + n] for i in range(0, len(items), n)]


def render(rules: Rules, lang: str = "ja", backs: bool = True) -> Sheets:
    """The sheets of every card the rules' decks hold, in ``lang`` ("ja" or "en")."""
    deck = print_deck(rules)
    groups = {
        "master": [("master", c) for c in deck.masters],
        "servant": [("servant", c) for c in deck.servants],
        "land": [("land", c) for c in deck.lands],
        "action": [("action", c) for c in deck.actions] + [("event", c) for c in deck.events],
    }
    mode = rules.mode if rules.mode not in (None, "") else "standard"
    footer = f'{t(lang, "title")} — {t(lang, "page.edition", edition=rules.edition, mode=mode)}'
    pages: list[str] = []
    base = file_masters(rules)
    for back_kind in BACK_KINDS:
        chunks = _chunks(groups[back_kind], PER_PAGE)
        label = t(lang, f"kind.{back_kind}")
        for n, chunk in enumerate(chunks, 1):
            fronts = "".join(card_html(k, c, rules, lang, *slot(i), base=base)
                             for i, (k, c) in enumerate(chunk))
            pages.append(_page(back_kind, f'<div class="grid">{fronts}</div>',
                               t(lang, "page.front", kind=label, n=n, total=len(chunks)), footer))
            if backs:
                body = "".join(back_html(back_kind, lang, *slot(i, mirrored=True))
                               for i in range(len(chunk)))
                pages.append(_page(f"{back_kind}-back", f'<div class="grid">{body}</div>',
                                   t(lang, "page.back", kind=label, n=n, total=len(chunks)),
                                   footer))
    tokens = [("gem", t(lang, "kind.gem"))] * deck.gems + [("coin", t(lang, "kind.coin"))] * deck.coins
    heading = t(lang, "page.gems", gems=deck.gems)
    if deck.coins:
        heading += " / " + t(lang, "page.coins", coins=deck.coins)
    for chunk in _chunks(tokens, TOKENS_PER_PAGE):
        body = "".join(f'<div class="{k}" data-token="{k}">{escape(label)}</div>' for k, label in chunk)
        pages.append(_page("tokens", f'<div class="tokens"><h2>{escape(heading)}</h2>{body}</div>',
                           t(lang, "page.tokens"), footer, marks=False))
    html = Template((HERE / "sheet.html").read_text(encoding="utf-8")).substitute(
        lang=escape(lang),
        title=escape(f'{t(lang, "title")} — {t(lang, "game")}'),
        css=(HERE / "print.css").read_text(encoding="utf-8"),
        edition=escape(rules.edition),
        mode=escape(mode),
        pages="\n".join(pages),
    )
    return Sheets(html, len(pages), deck.total, deck)
