"""Sealed bids at the table server: the fourth game's adapter (issue 50). Everything else —
settings, seats, bots, the view filter, events, replays — comes from the engine contract."""

from __future__ import annotations

from typing import Any

from fuyuki.core.events import Event
from fuyuki.web.games import Adapter
from tests.fourth.engine import GAME


class SealedBidAdapter(Adapter):
    name = GAME
    title = {"ja": "封印入札", "en": "Sealed bids"}
    players = (2, 3, 4)

    def event_text(self, game: Any, event: Event) -> dict[str, str] | None:
        d = event.data
        if event.kind == "prize":
            return {"ja": f"第{d['round']}ラウンド：賞品は{d['prize']}点",
                    "en": f"Round {d['round']}: the prize is {d['prize']}"}
        if event.kind == "reveal":
            bids = ", ".join(f"P{s} {c}" for s, c in enumerate(d["bids"]))
            who = {"ja": "同点で流れた", "en": "a tie: nobody takes it"} if d["winner"] is None \
                else {"ja": f"P{d['winner']}が取った", "en": f"P{d['winner']} takes it"}
            return {"ja": f"入札 {bids}：{who['ja']}", "en": f"Bids {bids}: {who['en']}"}
        if event.kind == "game_over":
            won = " ".join(f"P{s}" for s in d["winners"])
            return {"ja": f"終了：勝者 {won or 'なし'}", "en": f"Over: won by {won or 'nobody'}"}
        if event.kind == "dealt":            # to its seat alone, like the next one
            hand = " ".join(map(str, d["hand"]))
            return {"ja": f"手札：{hand}", "en": f"Your hand: {hand}"}
        if event.kind == "bid":
            return {"ja": f"{d['card']}で入札した", "en": f"You bid {d['card']}"}
        return None
