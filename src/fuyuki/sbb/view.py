"""What a seat may see (§8). The only door through which information leaves the engine.

Public: lands and their gems, every player's gems (and coins), face-up masters and servants
(and whether 桜 is dark), hand sizes, deck and discard sizes and the discards' cards, every
revealed bid, who has locked a bid, the parent. Private to a seat: its hand, its own
face-down master and servant, the cards that passed through its hands in the drafts, its own
bid before the reveal, its open decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fuyuki.sbb.game import Game


def build_view(g: "Game", seat: int | None) -> dict[str, Any]:
    s, names = g.s, g.t.names
    revealed = s.phase not in ("bid", "gems", "draft_master", "draft_servant", "setup")
    players = []
    for i in range(s.n):
        p: dict[str, Any] = {
            "seat": i,
            "gems": s.gems[i],
            "hand_size": len(s.hand[i]),
            "master": names[s.master[i]] if s.m_up[i] else None,
            "servant": names[s.servant[i]] if s.s_up[i] else None,
            "master_up": s.m_up[i],
            "servant_up": s.s_up[i],
            "dark": s.dark[i] if s.m_up[i] else None,
            "mana": g.mana(i) if s.m_up[i] else None,
            "bid": (names[s.bids[i]] if s.bids[i] else None) if revealed else None,
            "locked": (s.phase == "bid" and i in s.answers),
        }
        if g.rules.coins:
            p["coins"] = s.coins[i]
        players.append(p)
    view: dict[str, Any] = {
        "game": "sbb",
        "seat": seat,
        "players": s.n,
        "edition": g.rules.edition,
        "mode": g.rules.mode,
        "options": list(g.rules.options),
        "round": s.round,
        "parent": s.parent,
        "phase": s.phase,
        "pool": s.pool,
        "lands": [{"id": names[land], "gems": s.gems_on[i]} for i, land in enumerate(s.lands)],
        "seats": players,
        "decks": {"action": len(s.adeck), "master": len(s.mdeck), "servant": len(s.sdeck)},
        "discards": {"action": [names[c] for c in s.adisc], "master": [names[c] for c in s.mdisc],
                     "servant": [names[c] for c in s.sdisc]},
        "luck_possible": g.luck_possible(),
        "over": s.over,
        "result": s.result,
        "log_size": len(s.events),
    }
    if seat is not None:
        me: dict[str, Any] = {
            "hand": [names[c] for c in sorted(s.hand[seat])],
            "master": names[s.master[seat]] or None,
            "servant": names[s.servant[seat]] or None,
            "dark": s.dark[seat],
            "mana": g.mana(seat) if s.master[seat] else None,
            "seen": [names[c] for c in s.seen[seat]],
            "bid": ((names[s.bids[seat]] if s.bids[seat] else None) if revealed
                    else s.answers.get(seat) if s.phase == "bid" else None),
        }
        decision = s.asking.get(seat) if seat not in s.answers else None
        me["decision"] = decision.to_json() if decision else None
        view["me"] = me
    return view
