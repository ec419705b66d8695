"""Grail War Board at the table server: settings, bots, and the page data of a seat.

The page data is the seat's own ``game.view(seat)`` (its hand and plotted cards, everyone
else's as counts) with, for the seat's open decision, the prompt and every option's text in
ja and en (rendered by :mod:`fuyuki.board.text` from that view) and what each option points at
on the map (``refs``): a character, the areas a move lands on, or a card of the hand.
"""

from __future__ import annotations

from typing import Any, ClassVar

from fuyuki.board import default_pack
from fuyuki.board.agents import make_bot
from fuyuki.board.text import Texts
from fuyuki.core.events import Event
from fuyuki.core.i18n import pick
from fuyuki.web.games import TIMER_META, Adapter

LANGS = ("ja", "en")
CARD_KINDS = ("plot", "pay", "discard", "boost")
CHAR_KINDS = ("target", "aim", "heal_target", "order")


class BoardAdapter(Adapter):
    name = "board"
    title: ClassVar[dict[str, str]] = {"ja": "聖杯戦争ボード", "en": "Grail War Board"}
    page = "board.html"
    takeover = "heuristic"
    pace = 0.3             # a turn is many small decisions (group, part, target...)
    slow_bots = frozenset({"hard"})      # the hard bot searches: it thinks in the worker process

    def __init__(self) -> None:
        self._public: tuple[Any, int, dict[str, Any]] | None = None   # (game, step, view(None))

    def levels(self) -> dict[str, str]:
        return {"easy": "random", "normal": "heuristic", "hard": "hard"}

    def check_config(self, raw: dict[str, Any]) -> dict[str, Any]:
        pack = default_pack()
        common = self.check_common(raw, {"camps"}, range(2, len(pack.camps) + 1), 4, "normal")
        out = {"players": common["players"]}
        camps = raw.get("camps")
        if camps is not None:
            if not isinstance(camps, list) or len(camps) != common["players"] or \
                    not all(isinstance(k, str) and k in pack.camps for k in camps) or \
                    len(set(camps)) != len(camps):
                raise self.bad("camps", f"one different camp a seat (known: {sorted(pack.camps)})")
            out["camps"] = list(camps)
        return {**out, **{k: common[k] for k in ("bots", "bot_level", "timer")}}

    def make_bot(self, name: str, seed: int, seat: int, config: dict[str, Any], **kw: Any) -> Any:
        return make_bot(name, seed, seat, **kw)      # kw: the hard bot's ``seconds``

    def event_text(self, game: Any, event: Event) -> dict[str, str] | None:
        """The board's own text of ``event``, naming characters and camps as the public view
        shows them now (one view a step, shared by that step's events)."""
        if self._public is None or self._public[0] is not game or self._public[1] != game.step:
            self._public = (game, game.step, game.view(None))
        view = self._public[2]
        ev = {"kind": event.kind, "data": event.data}
        return {lang: Texts(default_pack(), view, lang).event(ev) for lang in LANGS}

    def page_view(self, game: Any, seat: int | None) -> dict[str, Any]:
        view = game.view(seat)
        view.pop("recent_events", None)          # the table sends the events itself
        view.pop("events_from", None)
        view.pop("event_count", None)
        d = view.get("decision")
        if d is not None:
            texts = {lang: Texts(default_pack(), view, lang) for lang in LANGS}
            view["prompt"] = {lang: texts[lang].prompt(d) for lang in LANGS}
            view["labels"] = {lang: [texts[lang].option(d["kind"], o) for o in d["options"]]
                              for lang in LANGS}
            view["refs"] = [option_ref(view, d, o) for o in d["options"]]
        return view

    def meta(self) -> dict[str, Any]:
        pack = default_pack()
        return {"players": list(range(2, len(pack.camps) + 1)), "levels": list(self.levels()),
                "camps": [{"id": k, "name": c.name} for k, c in pack.camps.items()],
                "default_camps": pack.rules["default_camps"], **TIMER_META}

    def data(self, query: dict[str, str]) -> dict[str, Any]:
        """The default pack's printed texts: cards, 魔術/宝具, skills, camps, the map."""
        pack = default_pack()
        return {
            "map": {"width": pack.width, "height": pack.height,
                    "areas": [list(r) for r in pack.areas]},
            "cards": {k: {"name": c.name, "timing": c.timing, "effect": c.effect,
                          "value": c.value, "dice": c.dice, "range": c.range, "text": c.text}
                      for k, c in pack.cards.items()},
            "abilities": {k: {"name": a.name, "kind": a.kind, "timing": a.timing,
                              "cost": a.cost, "range": a.range, "value": a.value,
                              "dice": a.dice, "text": a.text} for k, a in pack.abilities.items()},
            "skills": {k: {"name": s.get("name", k), "text": s.get("text", {})}
                       for k, s in pack.skills.items()},
            "camps": {k: {"name": c.name, "name_text": {lang: pick(c.name, lang) for lang in LANGS}}
                      for k, c in pack.camps.items()},
        }


def option_ref(view: dict[str, Any], d: dict[str, Any], o: Any) -> dict[str, Any] | None:
    """What option ``o`` of decision ``d`` points at, from the seat's view only:
    ``{"char": id}``, ``{"areas": [[r, c], ...]}`` (a move or a ダッシュ: the areas its
    decision's ``lands`` names) or ``{"card": instance id}``."""
    kind, s = d["kind"], str(o)
    chars = {c["id"] for c in view["chars"]}
    head, _, rest = s.partition(":")
    if kind in CHAR_KINDS and s in chars:
        return {"char": s}
    if kind in CARD_KINDS and s[:1] == "k" and s[1:].isdigit():
        return {"card": s}
    if kind == "action" and head == "card":
        return {"card": rest}
    if kind == "defence" and "+" in s:               # 防御 / 回避 with a card of the hand
        return {"card": s.split("+", 1)[1]}
    if head in ("cover", "fight", "first_aid", "recontract", "build") and rest in chars:
        return {"char": rest}
    if kind == "action" and head == "ability":
        return {"char": rest.split(":")[-1]}
    lands = d["info"].get("lands", {}).get(s) if kind in ("move", "dash") else None
    if lands:                                  # {id: area}: where the engine says each lands
        areas = list({tuple(p): list(p) for p in lands.values()}.values())
        return {"areas": areas, "char": next(iter(lands))} if kind == "dash" else {"areas": areas}
    return None
