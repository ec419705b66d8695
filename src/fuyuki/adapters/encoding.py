"""Servant Big Battle as numbers: a fixed action space and an observation tensor.

Everything here is built from a seat's own door only — ``game.view(seat)`` and that seat's
open decision (which the view also carries as ``view["me"]["decision"]``). Nothing reads
the engine's state, so an observation can never carry another seat's secret.

The action space is fixed for a card set: every option of every decision kind gets its own
integer, grouped by kind (``0`` is the no-op for a seat with nothing to decide)::

    0                    noop
    draft_master:<id>    every master of the card set
    draft_servant:<id>   every servant
    place_gem:<land>     every land
    bid:<card>           every distinct action card id and every event id
    jewel:pass, jewel:<card>
    luck:use, luck:decline
    substitute:yes, substitute:no
    tsubame:+k, swap:+k  a target seat, counted to the left of the deciding seat (k >= 1)

Seats in the observation are also relative: slot 0 is the observing seat, slot k the seat k
places to its left, so a policy learned in one seat plays in every seat.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from fuyuki.core.errors import IllegalAction
from fuyuki.core.protocol import Decision
from fuyuki.sbb.rules import Rules

NOOP = 0
KINDS = ("draft_master", "draft_servant", "place_gem", "bid", "jewel", "luck", "substitute",
         "tsubame", "swap")
PHASES = ("setup", "draft_master", "draft_servant", "gems", "bid", "reveal", "battle",
          "events", "draw", "over")
SEAT_KINDS = ("tsubame", "swap")


class Encoding:
    """The action table and the observation layout for one rule set.

    ``max_players`` fixes the number of seat slots (default: the most the rules allow), so
    that games of 3, 4 and 5 players share one space.
    """

    def __init__(self, rules: Rules, max_players: int | None = None) -> None:
        cs = rules.cards
        self.rules = rules
        self.max_players = max_players or max(rules.players)
        self.masters = list(cs.masters)
        self.servants = list(cs.servants)
        self.lands = list(cs.lands)
        copies: Counter[str] = Counter()
        for land in cs.lands.values():
            copies.update(cs.actions_of(land.colour))
        self.action_cards = list(dict.fromkeys(
            c for land in cs.lands.values() for c in cs.actions_of(land.colour)))
        self.events = list(cs.events)
        for e in self.events:
            copies[e] += 1
        self.copies = copies
        self.bid_cards = self.action_cards + self.events
        self.deck_size = sum(copies.values())
        # gems are scaled by the victory target (12 in the final edition; v1.x have none:
        # then by a share of the gem pool)
        self.gem_scale = rules.victory_gems or max(rules.gem_pool // rules.players[0], 1)

        table: list[tuple[str, Any]] = [("noop", None)]
        table += [("draft_master", m) for m in self.masters]
        table += [("draft_servant", s) for s in self.servants]
        table += [("place_gem", land) for land in self.lands]
        table += [("bid", c) for c in self.bid_cards]
        table += [("jewel", "pass")] + [("jewel", c) for c in self.action_cards]
        table += [("luck", "use"), ("luck", "decline")]
        table += [("substitute", "yes"), ("substitute", "no")]
        for kind in SEAT_KINDS:
            table += [(kind, k) for k in range(1, self.max_players)]
        self.table = table
        self.index = {entry: i for i, entry in enumerate(table)}
        self.num_actions = len(table)

        self._m = {m: i for i, m in enumerate(self.masters)}
        self._s = {s: i for i, s in enumerate(self.servants)}
        self._l = {land: i for i, land in enumerate(self.lands)}
        self._b = {c: i for i, c in enumerate(self.bid_cards)}
        self._layout()

    # ------------------------------------------------------------------ actions
    def action_of(self, seat: int, players: int, kind: str, option: Any) -> int:
        """The integer action for ``option`` of a decision of ``kind`` taken by ``seat``."""
        key = (kind, (option - seat) % players) if kind in SEAT_KINDS else (kind, option)
        try:
            return self.index[key]
        except KeyError:
            raise IllegalAction("not_encodable", f"the option {option!r} of a {kind!r} "
                                "decision has no action number in this card set",
                                kind=kind, option=option) from None

    def legal_actions(self, seat: int, players: int, decision: Decision | None) -> list[int]:
        """The sorted integer actions of ``decision`` (``[NOOP]`` when there is none)."""
        if decision is None:
            return [NOOP]
        return sorted({self.action_of(seat, players, decision.kind, o)
                       for o in decision.options})

    def mask(self, seat: int, players: int, decision: Decision | None) -> np.ndarray:
        m = np.zeros(self.num_actions, dtype=np.int8)
        m[self.legal_actions(seat, players, decision)] = 1
        return m

    def option_of(self, seat: int, players: int, decision: Decision, action: int) -> Any:
        """The engine option that ``action`` names in ``decision``; IllegalAction if none."""
        action = int(action)
        if not 0 <= action < self.num_actions:
            raise IllegalAction("no_such_action", f"there is no action {action}", action=action)
        kind, value = self.table[action]
        if kind == decision.kind:
            option = (seat + value) % players if kind in SEAT_KINDS else value
            for o in decision.options:
                if o == option:
                    return o
        raise IllegalAction("not_an_option", f"action {action} ({self.action_name(action)}) is "
                            f"not an option of this {decision.kind!r} decision", action=action)

    def action_name(self, action: int) -> str:
        kind, value = self.table[int(action)]
        if kind == "noop":
            return "noop"
        if kind in SEAT_KINDS:
            return f"{kind}:+{value}"
        return f"{kind}:{value}"

    # ------------------------------------------------------------------ observations
    def _layout(self) -> None:
        P, M, S, L, B = (self.max_players, len(self.masters), len(self.servants),
                         len(self.lands), len(self.bid_cards))
        per_seat = 1 + 4 + M + S + 1 + 1 + B + 1 + 1   # exists, gems, hand, ups, cards, ...
        self.pieces = [
            ("seat", P), ("players", P), ("round", 1), ("parent", P), ("phase", len(PHASES)),
            ("pool", 1), ("lands", 2 * L), ("seats", P * per_seat), ("decks", 3),
            ("discards", B + M + S), ("luck_possible", 1), ("over", 1),
            ("hand", B), ("my_master", M), ("my_servant", S), ("my_state", 2),
            ("seen", M + S), ("my_bid", B), ("decision", len(KINDS)), ("info", 2 * P + L),
        ]
        self.per_seat = per_seat
        self.offsets: dict[str, tuple[int, int]] = {}
        at = 0
        for name, size in self.pieces:
            self.offsets[name] = (at, size)
            at += size
        self.obs_size = at

    def observe(self, view: dict[str, Any] | None, out: np.ndarray | None = None) -> np.ndarray:
        """The observation tensor (float32 in [0, 1]) of a seat's ``view``. A spectator's
        view (no ``me``) leaves the private parts at zero; ``None`` gives all zeros."""
        x = np.zeros(self.obs_size, dtype=np.float32) if out is None else out
        if out is not None:
            x.fill(0.0)
        if view is None:
            return x
        o = self.offsets
        n = view["players"]
        seat = view["seat"] if view["seat"] is not None else 0
        rel = lambda s: (s - seat) % n  # noqa: E731
        vic = float(self.gem_scale)

        def put(name: str, i: int, value: float) -> None:
            x[o[name][0] + i] = min(max(value, 0.0), 1.0)

        if view["seat"] is not None:
            put("seat", seat, 1)
        put("players", n - 1, 1)
        put("round", 0, view["round"] / 50)
        put("parent", rel(view["parent"]), 1)
        if view["phase"] in PHASES:
            put("phase", PHASES.index(view["phase"]), 1)
        put("pool", 0, view["pool"] / max(self.rules.gem_pool, 1))
        for land in view["lands"]:
            li = self._l[land["id"]]
            put("lands", 2 * li, 1)
            put("lands", 2 * li + 1, land["gems"] / vic)
        base = o["seats"][0]
        M, S, B = len(self.masters), len(self.servants), len(self.bid_cards)
        for p in view["seats"]:
            at = base + rel(p["seat"]) * self.per_seat

            def one(i: int, value: float = 1.0) -> None:
                x[at + i] = min(max(value, 0.0), 1.0)

            one(0)
            one(1, p["gems"] / vic)
            one(2, p["hand_size"] / 10)
            one(3, float(p["master_up"]))
            one(4, float(p["servant_up"]))
            if p["master"] is not None:
                one(5 + self._m[p["master"]])
            if p["servant"] is not None:
                one(5 + M + self._s[p["servant"]])
            one(5 + M + S, float(bool(p["dark"])))
            one(6 + M + S, (p["mana"] or 0) / 10)
            if p["bid"] is not None:
                one(7 + M + S + self._b[p["bid"]])
            one(7 + M + S + B, float(p["locked"]))
            one(8 + M + S + B, p.get("coins", 0) / 10)
        decks = view["decks"]
        put("decks", 0, decks["action"] / self.deck_size)
        put("decks", 1, decks["master"] / max(len(self.masters), 1))
        put("decks", 2, decks["servant"] / max(len(self.servants), 1))
        for card, k in Counter(view["discards"]["action"]).items():
            put("discards", self._b[card], k / self.copies[card])
        for card in view["discards"]["master"]:
            put("discards", B + self._m[card], 1)
        for card in view["discards"]["servant"]:
            put("discards", B + M + self._s[card], 1)
        put("luck_possible", 0, float(view["luck_possible"]))
        put("over", 0, float(view["over"]))
        me = view.get("me")
        if me is None:
            return x
        for card, k in Counter(me["hand"]).items():
            put("hand", self._b[card], k / self.copies[card])
        if me["master"]:
            put("my_master", self._m[me["master"]], 1)
        if me["servant"]:
            put("my_servant", self._s[me["servant"]], 1)
        put("my_state", 0, float(me["dark"]))
        put("my_state", 1, (me["mana"] or 0) / 10)
        for card in me["seen"]:
            if card in self._m:
                put("seen", self._m[card], 1)
            elif card in self._s:
                put("seen", M + self._s[card], 1)
        if me["bid"] is not None:
            put("my_bid", self._b[me["bid"]], 1)
        d = me["decision"]
        if d is not None:
            put("decision", KINDS.index(d["kind"]), 1)
            info = d["info"]
            P = self.max_players
            if "source" in info and info["source"] is not None:
                put("info", rel(info["source"]), 1)
            for t in info.get("targets", ()):
                put("info", P + rel(t), 1)
            if "land" in info and info["land"] in self._l:
                put("info", 2 * P + self._l[info["land"]], 1)
        return x
