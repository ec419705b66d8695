"""Text for people, rendered from events and cards in ja or en.

Card, character and land names stay in Japanese in both languages; everything else comes
from ``data/messages.<lang>.toml``.
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
    return f"{name}({t(lang, 'ui.you')})" if you is not None and seat == you else name


def card_name(card: str | None, lang: str, cards: CardSet | None = None) -> str:
    """The name of any card id. Names stay Japanese; action cards read 赤の出撃3 / red sortie 3."""
    if not card:
        return t(lang, "ui.none")
    cs = cards or _cards()
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
            params[key] = "、".join(seat_name(v, lang, you) for v in value) or t(lang, "ui.none")
        elif key in CARD_KEYS and isinstance(value, str):
            params[key] = card_name(value, lang, cards)
        elif key == "hands" and isinstance(value, list):
            continue
        elif key in ("pack", "cards") and isinstance(value, list):
            params[key] = "、".join(card_name(c, lang, cards) for c in value)
        elif key == "bids" and isinstance(value, list):
            params[key] = "  ".join(f"{seat_name(i, lang, you)}:{card_name(b, lang, cards) if b else '-'}"
                                    for i, b in enumerate(value))
        elif key == "totals" and isinstance(value, dict):
            params[key] = "  ".join(f"{seat_name(int(k), lang, you)}={v}" for k, v in value.items())
        elif key == "rolls" and isinstance(value, dict):
            params[key] = "  ".join(f"{seat_name(int(k), lang, you)}={v}" for k, v in value.items())
        elif key == "gems" and isinstance(value, list):
            params[key] = " ".join(str(v) for v in value)
        else:
            params[key] = value
    d = event.data
    if event.kind == "draws":
        unit = "枚" if lang == "ja" else ""
        params["draws"] = "  ".join(f"{seat_name(seat, lang, you)}→{n}{unit}"
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
