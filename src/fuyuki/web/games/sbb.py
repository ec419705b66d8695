"""Servant Big Battle at the table server: settings (edition, mode, options), bots, texts."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, ClassVar

from fuyuki.core.data import package_file
from fuyuki.core.errors import FuyukiError
from fuyuki.core.events import Event
from fuyuki.sbb.game import RNG_VERSION, rng_version
from fuyuki.sbb import text as sbb_text
from fuyuki.sbb.agents import bot_names, make_bot
from fuyuki.sbb.rules import OPTIONS, Rules, editions
from fuyuki.web.games import TIMER_META, Adapter

#: つよい is the net bot: as strong as the hard bot's search at 300 iterations, in
#: milliseconds a decision, so it answers on the server's loop (docs/net-bot.md); the hard
#: bot where numpy is missing
LEVELS = {"easy": "random", "normal": "heuristic", "hard": "net"}


def modes() -> list[str]:
    found = sorted(p.stem for p in package_file("fuyuki.sbb", "data", "modes").glob("*.toml"))
    return ["standard"] + [m for m in found if m != "standard"]


@lru_cache(maxsize=64)
def rules_for(edition: str, mode: str, options: tuple[str, ...]) -> Rules:
    return Rules.preset(edition, None if mode == "standard" else mode, options)


def _rules(config: dict[str, Any]) -> Rules:
    return rules_for(config["edition"], config["mode"], tuple(config["options"]))


class SbbAdapter(Adapter):
    name = "sbb"
    title: ClassVar[dict[str, str]] = {"ja": "サーヴァント大戦", "en": "Servant Big Battle"}
    page = "table.html"
    takeover = "heuristic"
    slow_bots = frozenset({"hard"})
    shared_texts = True               # sbb.text renders an event from the event alone

    def levels(self) -> dict[str, str]:
        have = set(bot_names())
        levels = {lv: name for lv, name in LEVELS.items() if name in have}
        if "hard" not in levels and "hard" in have:
            levels["hard"] = "hard"
        return levels

    def check_config(self, raw: dict[str, Any]) -> dict[str, Any]:
        bad = self.bad
        self.check_fields(raw, {"edition", "mode", "options"})
        edition = raw.get("edition", "final")
        if edition not in editions():
            raise bad("edition", f"unknown edition (known: {editions()})")
        mode = raw.get("mode", "standard") or "standard"
        if mode not in modes():
            raise bad("mode", f"unknown mode (known: {modes()})")
        options = raw.get("options", [])
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            raise bad("options", "must be a list of names")
        for o in options:
            if o not in OPTIONS:
                raise bad("options", f"unknown option {o!r} (known: {list(OPTIONS)})")
        options = sorted(set(options))
        try:
            rules = rules_for(edition, mode, tuple(options))
        except FuyukiError as exc:
            raise bad("mode", str(exc)) from None
        common = self.check_common(raw, {"edition", "mode", "options"}, rules.players, 4, "normal")
        # a new table deals with the current RNG version and says so in its config, so its
        # stored game replays with it; a table stored before the key existed replays with 1
        return {"players": common["players"], "edition": edition, "mode": mode,
                "options": options, **{k: common[k] for k in ("bots", "bot_level", "timer")},
                "rng": RNG_VERSION}

    def engine_config(self, config: dict[str, Any]) -> dict[str, Any]:
        mode = None if config["mode"] == "standard" else config["mode"]
        return {"players": config["players"], "edition": config["edition"], "mode": mode,
                "options": config["options"], "rng": rng_version(config)}

    def make_bot(self, name: str, seed: int, seat: int, config: dict[str, Any], **kw: Any) -> Any:
        return make_bot(name, seed, _rules(config), **kw)

    def page_view(self, game: Any, seat: int | None) -> dict[str, Any]:
        return game.view(seat)                 # a seat's decision is in its view ("me")

    def waiting_for(self, game: Any) -> list[int] | None:
        """Named in the drafts, the parent's gem and the bids (who has not locked is public);
        a decision during the battles (jewel magecraft, 強運, a substitute...) may come from
        a face-down card: the table then waits for someone it does not name."""
        if game.view(None)["phase"] in ("draft_master", "draft_servant", "gems", "bid"):
            return sorted(game.pending())
        return None

    def event_text(self, game: Any, event: Event) -> dict[str, str] | None:
        data = json.loads(json.dumps(event.data))      # as the client sees them
        plain = Event(event.kind, data, event.to)
        return {lang: sbb_text.render(plain, lang) for lang in ("ja", "en")}

    def meta(self) -> dict[str, Any]:
        return {"editions": editions(), "modes": modes(), "options": list(OPTIONS),
                "levels": list(self.levels()), "players": _players_by(), **TIMER_META}

    def data(self, query: dict[str, str]) -> dict[str, Any]:
        from fuyuki.core.errors import IllegalAction
        from fuyuki.web.cards import card_data

        edition, mode = query.get("edition", "final"), query.get("mode", "standard")
        if edition not in editions() or mode not in modes():
            raise IllegalAction("bad_config", "unknown edition or mode")
        return card_data(edition, mode)


def _players_by() -> dict[str, list[int]]:
    """Allowed player counts of every edition/mode pair ("final/standard": [3, 4, 5])."""
    out = {}
    for e in editions():
        for m in modes():
            try:
                out[f"{e}/{m}"] = list(rules_for(e, m, ()).players)
            except FuyukiError:  # not an error: this edition has no such mode
                pass
    return out
