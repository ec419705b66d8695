"""Text for people, rendered from events and cards in ja or en.

Card and character names stay in Japanese in both languages; in English a land reads
"Homurahara Academy (穂群原学園)". Everything else comes from ``data/messages.<lang>.toml``.
"""

from __future__ import annotations

from typing import Any

from fuyuki.core import i18n
from fuyuki.core.data import package_file
from fuyuki.core.events import Event
from fuyuki.sbb.cards import CardSet, parse_action

i18n.register("sbb", package_file("fuyuki.sbb", "data"))

SEAT_KEYS = {"seat", "first", "parent", "target", "from_seat", "to_seat", "source"}
SEATS_KEYS = {"seats", "losers", "winners", "candidates", "targets"}
CARD_KEYS = {"card", "master", "servant", "now_seat", "now_target", "land"}


def _cards() -> CardSet:
    from fuyuki.sbb.game import default_rules
    return default_rules().cards


def t(lang: str, key: str, **params: Any) -> str:
    return i18n.tr(lang, f"sbb.{key}", **params)


def seat_name(seat: int | None, lang: str, you: int | None = None) -> str:
    if seat is None:
        return "-"
    name = t(lang, "ui.seat", seat=seat)
    if you is None or seat != you:
        return name
    return f"{name}({t(lang, 'ui.you')})" if lang == "ja" else f"{name} ({t(lang, 'ui.you')})"


def sep(lang: str) -> str:
    """The separator of a list of names: 、 in Japanese, a comma in English."""
    return "、" if lang == "ja" else ", "


def colon(lang: str) -> str:
    """The colon after a label: ： in Japanese, ": " in English."""
    return "：" if lang == "ja" else ": "


def gems_text(n: int, lang: str) -> str:
    """"GEM3個" / "3 gems" / "1 gem"."""
    return t(lang, "ui.gem_one" if n == 1 else "ui.gem_many", n=n)


def stat(lang: str, key: str, value: int) -> str:
    """"魔力4" in Japanese, "魔力 4" / "power 3" in English."""
    return f"{t(lang, key)}{value}" if lang == "ja" else f"{t(lang, key)} {value}"


def card_name(card: str | None, lang: str, cards: CardSet | None = None) -> str:
    """The name of any card id. Names stay Japanese; action cards read 赤の出撃3 / red sortie 3;
    in English a land reads "Homurahara Academy (穂群原学園)"."""
    if not card:
        return t(lang, "ui.none")
    cs = cards or _cards()
    if card in cs.lands and lang != "ja":
        name = cs.lands[card].name
        return f"{name.get(lang) or name['ja']} ({name['ja']})"
    for table in (cs.masters, cs.servants, cs.lands, cs.events):
        if card in table:
            return table[card].name["ja"]
    a = parse_action(card)
    if a is not None:
        colour = t(lang, f"colour.{a.colour}")
        kind = t(lang, f"kind.{a.kind}")
        return f"{colour}の{kind}{a.value}" if lang == "ja" else f"{colour} {kind} {a.value}"
    if card == "pass":
        return t(lang, "option.pass")
    return card


def option_name(option: Any, lang: str, cards: CardSet | None = None) -> str:
    if isinstance(option, int):
        return seat_name(option, lang)
    if option in ("use", "decline", "yes", "no", "pass"):
        return t(lang, f"option.{option}")
    return card_name(option, lang, cards)


def render(event: Event, lang: str = "ja", you: int | None = None,
           cards: CardSet | None = None) -> str:
    """One line of text for ``event``."""
    params: dict[str, Any] = {}
    for key, value in event.data.items():
        if key in SEAT_KEYS and isinstance(value, int):
            params[key] = seat_name(value, lang, you)
        elif key in SEATS_KEYS and isinstance(value, (list, tuple)):
            params[key] = sep(lang).join(seat_name(v, lang, you) for v in value) or t(lang, "ui.none")
        elif key in CARD_KEYS and isinstance(value, str):
            params[key] = card_name(value, lang, cards)
        elif key == "hands" and isinstance(value, list):
            continue
        elif key in ("pack", "cards") and isinstance(value, list):
            params[key] = sep(lang).join(card_name(c, lang, cards) for c in value)
        elif key == "bids" and isinstance(value, list):
            params[key] = "  ".join(f"{seat_name(i, lang, you)}{colon(lang)}"
                                    f"{card_name(b, lang, cards) if b else '-'}"
                                    for i, b in enumerate(value))
        elif key == "totals" and isinstance(value, dict):
            terms = event.data.get("parts") or {}
            params[key] = "  ".join(
                f"{seat_name(int(k), lang, you)}{colon(lang)}"
                + (" + ".join(term_text(x, n, lang, cards) for x, n in terms[k]) + " = "
                   if k in terms else "") + str(v)
                for k, v in value.items())
        elif key == "parts":
            continue
        elif key == "rolls" and isinstance(value, dict):
            params[key] = "  ".join(f"{seat_name(int(k), lang, you)}={v}" for k, v in value.items())
        elif key == "gems" and isinstance(value, list):
            params[key] = " ".join(str(v) for v in value)
        else:
            params[key] = value
            if key == "gems" and isinstance(value, int):
                params["n_gems"] = gems_text(value, lang)
    d = event.data
    if event.kind == "draws":
        params["draws"] = "  ".join(t(lang, "ui.hand_count", seat=seat_name(seat, lang, you), n=n)
                                    for seat, n in zip(d["seats"], d["hands"]))
    if "what" in d:
        params["what_name"] = t(lang, f"what.{d['what']}")
    if "how" in d:
        params["how_name"] = t(lang, f"how.{d['how']}")
    if "kind" in d and event.kind == "draft_start":
        params["kind_name"] = t(lang, f"what.{d['kind']}")
    if "direction" in d:
        params["direction_name"] = t(lang, f"direction.{d['direction']}")
    if "deck" in d:
        params["deck_name"] = t(lang, f"deck.{d['deck']}")
    if "reason" in d:
        params["reason_name"] = t(lang, f"reason.{d['reason']}")
    return t(lang, f"event.{event.kind}", **params)


def term_text(term: str, value: int, lang: str, cards: CardSet | None = None) -> str:
    """One part of a battle total: 宝具2, セイバー3, 宝石魔術2 (NP 2, セイバー 3 in English)."""
    a = parse_action(term)
    if a is not None:
        name = t(lang, f"kind.{a.kind}")
    elif term in ("jewel", "land", "snake"):
        name = t(lang, f"term.{term}")
    else:
        name = card_name(term, lang, cards)
    return f"{name}{value}" if lang == "ja" else f"{name} {value}"
