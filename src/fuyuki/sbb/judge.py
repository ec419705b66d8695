"""The rules judge: one round from the bids to the end of the round, explained.

A scenario (TOML, format in the README and docs/judge.md) fixes the lands' gems, the pool,
the parent, every seat's cards, gems and bid, and the answers to optional decisions. The
judge builds that state, resolves reveal, battles, events, the draw step and the end check
with the real engine, and reports every step.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fuyuki.core.data import Table, read_toml
from fuyuki.core.protocol import Decision
from fuyuki.core.errors import DataError, ScenarioError
from fuyuki.core.record import Record
from fuyuki.core.rng import stream
from fuyuki.sbb.cards import card_table, parse_action
from fuyuki.sbb.game import Game
from fuyuki.sbb.modes import check_card
from fuyuki.sbb.rules import Rules
from fuyuki.sbb.state import State
from fuyuki.sbb.text import render

#: the most gems a scenario may hold when the game's gems are unlimited (聖杯大戦争)
GEMS_UNLIMITED = 10_000
SEAT_KEYS = ["master", "servant", "gems", "dark", "revealed", "bid", "hand", "choices", "coins"]
CHOICE_KEYS = ["substitute", "jewel", "luck", "swap", "tsubame"]
TOP_KEYS = ["players", "parent", "pool", "seed", "edition", "mode", "options", "lands", "seat",
            "round", "title", "expect"]


EXPECT_KEYS = ["events", "no_events", "pool", "next_parent", "game_over", "winners", "lands",
               "seat"]
RESULT_SEAT_KEYS = ["gems", "master", "servant", "master_lost", "servant_lost", "dark",
                    "revealed", "hand_size", "coins"]


def _check_expect(top: Table, rules: Rules, n: int) -> None:
    """The ``[expect]`` table of a scenario file used as a test: every key one the judge's
    result has, every event kind one the engine emits."""
    from fuyuki.core.i18n import keys
    from fuyuki.sbb import text  # noqa: F401  (registers the sbb catalog)

    if not top.has("expect"):
        return
    ex = top.table("expect")
    ex.check_keys(EXPECT_KEYS)
    kinds = {k.removeprefix("sbb.event.") for k in keys("en") if k.startswith("sbb.event.")}
    for name in ("events", "no_events"):
        for i, kind in enumerate(ex.list_of(name, str, [])):
            if kind not in kinds:
                raise ex.fail(f"{name}[{i}]", f"no event kind {kind!r}")
    lands = ex.table("lands", {})
    for land in lands.data:
        if land not in rules.cards.lands:
            raise lands.fail(land, f"no land {land!r}")
    seats = ex.table("seat", {})
    for key in seats.data:
        if not (key.isascii() and key.isdigit() and int(key) < n):
            raise seats.fail(key, f"no seat {key!r} (seats 0 to {n - 1})")
        seats.table(key).check_keys(RESULT_SEAT_KEYS)


@dataclass
class Verdict:
    game: Game
    log: list[str]
    result: dict[str, Any]


def load_scenario(path: str | Path, cards: str | Path | None = None, edition: str | None = None,
                  mode: str | None = None, options: tuple[str, ...] | None = None
                  ) -> tuple[Game, list[dict[str, Any]]]:
    """Build the game a scenario describes, waiting for the bids to be revealed. ``edition``,
    ``mode`` and ``options`` (from the command line) override the scenario's own."""
    p = str(path)
    data = read_toml(path, ScenarioError)
    top = Table(data, p, error=ScenarioError)
    top.check_keys(TOP_KEYS)
    try:
        opts = tuple(options) if options else tuple(top.list_of("options", str, []))
        rules = Rules.preset(edition or top.str("edition", "final"),
                             mode or top.str("mode", "standard"), opts, cards)
    except ScenarioError:
        raise
    except DataError as exc:
        raise ScenarioError(p, exc.key if exc.file.startswith("--") else f"{exc.file}: {exc.key}",
                            exc.reason) from None
    n = top.int("players", lo=1, hi=9)
    _check_expect(top, rules, n)
    try:
        rules.check_players(n)
    except DataError as exc:
        raise top.fail("players", exc.reason) from None
    parent = top.int("parent", 0, lo=0, hi=n - 1)
    cs = rules.cards
    lands_t = top.table("lands")
    lands = []
    gems_on = []
    for land_id in lands_t.data:
        if land_id not in cs.lands:
            raise lands_t.fail(land_id, f"no land with id {land_id!r} (known: {list(cs.lands)})")
    for land_id in cs.lands:  # table order
        if lands_t.has(land_id):
            lands.append(land_id)
            gems_on.append(lands_t.int(land_id, lo=0, hi=GEMS_UNLIMITED))
    if not lands:
        raise top.fail("lands", "at least one land must be in play")
    if n == 3 and len(lands) == len(cs.lands):
        raise top.fail("lands", f"three players play with one colour removed: at most "
                       f"{len(cs.lands) - 1} lands, not {len(lands)}")
    seats = top.tables("seat")
    if len(seats) != n:
        raise top.fail("seat", f"{len(seats)} [[seat]] tables for {n} players")
    seed = top.int("seed", 0)
    state = State(n, stream(seed, "sbb-judge"))
    t = card_table(cs)
    state.parent = parent
    state.round = top.int("round", 1, lo=1)
    state.lands = t.ids_of(lands)
    state.gems_on = gems_on
    # gems: the pool holds at most the edition's supply (聖杯大戦争's gems are unlimited: a
    # bound only so that numbers stay numbers a table could hold)
    supply = GEMS_UNLIMITED if rules.unlimited_gems else rules.gem_pool
    state.pool = top.int("pool", lo=0, hi=supply)
    colours = {cs.lands[l].colour for l in lands}
    deck = cs.action_deck(lands, rules.events)
    events = [e for e in rules.events if e in cs.events]
    luck_cards = cs.luck_cards(deck)
    state.luck_cards = tuple(t.ids_of(luck_cards))
    choices: list[dict[str, Any]] = []
    bids: dict[int, str] = {}
    masters, servants = list(rules.masters), list(rules.servants)
    for i, st in enumerate(seats):
        st.check_keys(SEAT_KEYS)
        m = st.str("master")
        sv = st.str("servant")
        check_card(rules, "master", m, p, st.where("master"), ScenarioError)
        check_card(rules, "servant", sv, p, st.where("servant"), ScenarioError)
        if m not in masters:
            raise st.fail("master", f"{m!r} is already another seat's master")
        if sv not in servants:
            raise st.fail("servant", f"{sv!r} is already another seat's servant")
        masters.remove(m)
        servants.remove(sv)
        state.master[i], state.servant[i] = t.ids[m], t.ids[sv]
        state.gems[i] = st.int("gems", 0, lo=0, hi=supply)
        state.coins[i] = st.int("coins", 1 if rules.coins else 0, lo=0, hi=n if rules.coins else 0)
        darkens = cs.masters[m].hooks.darkens
        state.dark[i] = st.bool("dark", rules.start_dark and darkens)
        if state.dark[i] and not darkens:
            raise st.fail("dark", f"only a master with the 黒化 ability can be dark, not {m!r}")
        rev = st.list("revealed", [])
        for r in rev:
            if r not in ("master", "servant"):
                raise st.fail("revealed", f"must list 'master' and/or 'servant', not {r!r}")
        state.m_up[i] = "master" in rev
        state.s_up[i] = "servant" in rev
        hand = st.list("hand", [])
        bid = st.str("bid", "pass")
        for k, card in enumerate(hand + ([bid] if bid != "pass" else [])):
            where = f"hand[{k}]" if k < len(hand) else "bid"
            if not isinstance(card, str):
                raise st.fail(where, f"must be a card id, not {card!r}")
            a = parse_action(card)
            if a is None and card not in events:
                raise st.fail(where, f"{card!r} is not a card of this game (actions are "
                              "<colour>-<sortie|np>-<value>; events: " + ", ".join(events) + ")")
            if a is not None and a.colour not in colours:
                raise st.fail(where, f"{card!r}: no land of colour {a.colour!r} is in play")
            if card not in deck:
                raise st.fail(where, f"{card!r}: more copies than the deck holds")
            deck.remove(card)
        state.hand[i] = t.ids_of(hand)
        if bid != "pass":
            bids[i] = bid
            state.hand[i].append(t.ids[bid])  # the reveal takes it from the hand
        ch = st.table("choices", {})
        ch.check_keys(CHOICE_KEYS)
        c: dict[str, Any] = {
            "substitute": ch.bool("substitute", False),
            "jewel": ch.str("jewel", ""),
            "luck": ch.bool("luck", False),
            "swap": ch.int("swap", -1, lo=0, hi=n - 1),
            "tsubame": ch.int("tsubame", -1, lo=0, hi=n - 1),
        }
        if c["jewel"] and c["jewel"] not in hand:
            raise ch.fail("jewel", f"{c['jewel']!r} is not in this seat's hand")
        if c["luck"] and not any(h in luck_cards for h in hand):
            raise ch.fail("luck", "this seat holds no 強運 in its hand")
        if bid != "pass" and bid in cs.events and cs.events[bid].kind == "swap":
            if c["swap"] < 0:
                raise ch.fail("swap", "missing: とりかえっこプリーズ must name a target seat")
            if c["swap"] == i:
                raise ch.fail("swap", "the target must be another seat")
        choices.append(c)
    total = state.pool + sum(state.gems_on) + sum(state.gems)
    if total > supply:
        raise top.fail("pool", f"the pool, the lands and the seats hold {total} gems: more than "
                       f"the {supply} of this game")
    if sum(state.coins) > n:
        raise top.fail("seat", f"the seats hold {sum(state.coins)} coins: more than the {n} "
                       "of this game (one each)")
    state.rng.shuffle(deck)
    state.adeck = t.ids_of(deck)
    state.mdeck = t.ids_of(masters)
    state.sdeck = t.ids_of(servants)
    state.rng.shuffle(state.mdeck)
    state.rng.shuffle(state.sdeck)
    state.phase = "bid"
    record = Record("sbb-judge", seed, {"scenario": p})
    game = Game(rules, state, record)
    game.pause_at_round_end = True
    state.stack.append(("reveal", bids))
    return game, choices


def answer(decision: Decision, seat: int, choice: dict[str, Any], path: str = "<scenario>") -> Any:
    """The scenario's answer to an optional decision (absent: decline; つばめ返し with no
    target given: the first candidate [R-33]). A scripted answer that is not one of the
    decision's options is a ScenarioError naming it."""
    kind = decision.kind
    opts = decision.options
    if kind == "substitute":
        return "yes" if choice["substitute"] else "no"
    if kind == "luck":
        if choice["luck"] and "use" in opts and seat in decision.info.get("targets", ()):
            return "use"
        return "decline"
    given = {"jewel": "", "swap": -1, "tsubame": -1}
    if kind in given:
        if choice[kind] == given[kind]:
            return "pass" if kind == "jewel" else opts[0]
        if choice[kind] not in opts:
            raise ScenarioError(path, f"seat[{seat}].choices.{kind}",
                                f"{choice[kind]!r} is not a legal choice here "
                                f"(legal: {[o for o in opts if o != 'pass']})")
        return choice[kind]
    return opts[0]


def judge(path: str | Path, lang: str = "ja", cards: str | Path | None = None,
          edition: str | None = None, mode: str | None = None,
          options: tuple[str, ...] | None = None) -> Verdict:
    """Resolve the scenario's round and explain every step."""

    game, choices = load_scenario(path, cards, edition, mode, options)
    game._run()
    while game.pending():
        for seat, d in game.pending().items():
            game.submit(seat, answer(d, seat, choices[seat], str(path)))
    s, names = game.s, game.t.names
    log = [render(e, lang, cards=game.rules.cards) for e in s.events]
    seats = []
    for i in range(s.n):
        rec: dict[str, Any] = {
            "gems": s.gems[i], "master": names[s.master[i]], "servant": names[s.servant[i]],
            "master_lost": s.lost_master[i], "servant_lost": s.lost_servant[i],
            "dark": s.dark[i],
            "revealed": [w for w, up in (("master", s.m_up[i]), ("servant", s.s_up[i])) if up],
            "hand_size": len(s.hand[i]),
        }
        if game.rules.coins:
            rec["coins"] = s.coins[i]
        seats.append(rec)
    result = {
        "lands": {names[land]: s.gems_on[i] for i, land in enumerate(s.lands)},
        "pool": s.pool,
        "next_parent": s.parent,
        "seats": seats,
        "game_over": s.over,
        "winners": s.result["winners"] if s.result else [],
        "log": log,
    }
    return Verdict(game, log, result)
