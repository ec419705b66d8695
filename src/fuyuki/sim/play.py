"""One simulated game: seats, bots, the engine loop, and the game's summary.

The simulator runs the engine itself, so after the game it reads the full event log to
count what happened (:func:`summarize`); nothing from the log is ever given to a bot.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from fuyuki.core.errors import DataError
from fuyuki.core.rng import derive_seeds
from fuyuki.sbb import setup_overrides
from fuyuki.sbb.agents.random_bot import RandomBot
from fuyuki.sim.config import SimConfig

# events counted as uses of a card ability or a rule worth watching
ABILITY_EVENTS = ("luck", "prevented", "substitute", "life_extension", "overseer", "darken",
                  "dojo", "fetch", "fetch_back", "fetch_nothing", "jewel", "fragarach",
                  "np_fizzle", "np_as_sortie", "swap", "grail", "tsubame", "retaliate",
                  "misfire", "uncontested")
BATTLE_KINDS = ("case1", "case2_win", "case2_tie", "case3_win", "case3_split")


def make_agent(name: str, seed: int, rules):
    """A bot for the simulator. ``heuristic-full-state`` is the analysis device of
    :mod:`fuyuki.sim.analysis` and is used only by the hidden-identity measurement."""
    if name == "random":
        return RandomBot(seed)
    if name == "heuristic":
        from fuyuki.sbb.agents.heuristic import HeuristicBot
        return HeuristicBot(seed, cards=rules.cards)
    if name == "heuristic-full-state":
        from fuyuki.sim.analysis import FullStateHeuristicBot
        return FullStateHeuristicBot(seed, cards=rules.cards)
    from fuyuki.sbb.agents import bot_names, make_bot
    if name not in bot_names():
        raise DataError("--bots", "bots", f"bot {name!r} is not available here "
                        f"(available: {bot_names()})")
    return make_bot(name, seed, rules)


def seats_of(players: int, parent: int, index: int) -> list[int]:
    """The seat of each simulation player in game ``index`` (rotation from the first parent)."""
    return [(parent + k + index) % players for k in range(players)]


def play_game(cfg: SimConfig, index: int, *, bots: tuple[str, ...] | None = None,
              stream: str = "game", rules=None) -> dict[str, Any]:
    """Play game ``index`` of ``cfg`` (seed from the master seed and the index) and return its
    summary. ``bots`` overrides ``cfg.bots`` (one name per player)."""
    from fuyuki.sim.analysis import full_view

    rules = rules or cfg.rules()
    n = cfg.players
    seed = cfg.game_seed(index, stream)
    g = setup_overrides.start(n, seed, rules)
    parent = g.s.parent  # public (the setup event names it); read directly, no view built
    seat_of = seats_of(n, parent, index)
    fixed = {seat_of[k]: (m, s) for k, m, s in cfg.fixed}
    setup_overrides.deal(g, fixed, cfg.assign)
    names = bots or cfg.bots
    agents: list[Any] = [None] * n
    for k, bot_seed in enumerate(derive_seeds(seed, "bots", n)):
        agents[seat_of[k]] = make_agent(names[k], bot_seed, rules)
    full = [getattr(a, "needs_full_state", False) for a in agents]
    needs = [a.needs_view for a in agents]
    pending, submit = g.pending, g.submit
    while not g.s.over:
        for seat, d in pending().items():
            a = agents[seat]
            if full[seat]:
                view = full_view(g, seat)
            elif needs[seat]:
                view = g.view(seat)
            else:
                view = None
            submit(seat, a.choose(view, d))
    return summarize(g, seat_of, names, index, seed)


class _Tally:
    """Counts one game's events for :func:`summarize`: one handler per event kind that
    matters, found by a single dict look-up (most events matter to nobody)."""

    def __init__(self, n: int) -> None:
        self.masters = [""] * n
        self.servants = [""] * n
        self.reveal: list[int | None] = [None] * n
        self.darkened = [False] * n
        self.dark_with: list[str | None] = [None] * n
        self.np_servant: dict[int, str] = {}
        self.kinds: Counter = Counter()
        self.abilities: Counter = Counter()
        self.losses: Counter = Counter()
        self.round = 0
        self.parent = 0
        self.battles = 0

    def on_round(self, k: str, d: dict) -> None:
        self.round = d["round"]

    def on_setup(self, k: str, d: dict) -> None:
        self.parent = d["parent"]

    def on_draft_kept(self, k: str, d: dict) -> None:
        if self.round == 0:
            (self.masters if d["kind"] == "master" else self.servants)[d["seat"]] = d["card"]

    def on_dealt(self, k: str, d: dict) -> None:
        if self.round == 0:
            self.masters[d["seat"]], self.servants[d["seat"]] = d["master"], d["servant"]

    def on_flip(self, k: str, d: dict) -> None:
        if d["what"] == "master" and self.reveal[d["seat"]] is None:
            self.reveal[d["seat"]] = self.round

    def on_new_master_up(self, k: str, d: dict) -> None:
        if self.reveal[d["seat"]] is None:
            self.reveal[d["seat"]] = self.round

    def on_battle(self, k: str, d: dict) -> None:
        self.battles += 1

    def on_battle_kind(self, k: str, d: dict) -> None:
        self.kinds[k] += 1

    def on_np_resolves(self, k: str, d: dict) -> None:
        self.np_servant[d["seat"]] = d["servant"]
        self.abilities["np:" + d["servant"]] += 1

    def on_darken(self, k: str, d: dict) -> None:
        self.darkened[d["seat"]] = True
        self.abilities[k] += 1

    def on_new_servant(self, k: str, d: dict) -> None:
        if self.darkened[d["seat"]] and self.dark_with[d["seat"]] is None:
            self.dark_with[d["seat"]] = d["card"]

    def on_lost(self, k: str, d: dict) -> None:
        cause = d["cause"]
        label = f"np:{self.np_servant.get(d['source'], '?')}" if cause == "np" else cause
        self.losses[(label, d["what"])] += 1

    def on_ability(self, k: str, d: dict) -> None:
        self.abilities[k] += 1


_HANDLERS = {
    **{k: _Tally.on_ability for k in ABILITY_EVENTS},
    **{k: _Tally.on_battle_kind for k in BATTLE_KINDS},
    "round": _Tally.on_round, "setup": _Tally.on_setup, "draft_kept": _Tally.on_draft_kept,
    "dealt": _Tally.on_dealt, "flip": _Tally.on_flip, "new_master_up": _Tally.on_new_master_up,
    "battle": _Tally.on_battle, "np_resolves": _Tally.on_np_resolves,
    "darken": _Tally.on_darken, "new_servant": _Tally.on_new_servant, "lost": _Tally.on_lost,
}
assert not set(ABILITY_EVENTS) & (set(_HANDLERS) - set(ABILITY_EVENTS) - {"darken"}), \
    "an ability event with a handler of its own must count itself (see on_darken)"


def summarize(g, seat_of: list[int], names, index: int, seed: int) -> dict[str, Any]:
    """What the report needs from one finished game, read from its full event log."""
    n = g.players
    result = g.result
    player_at = {seat: k for k, seat in enumerate(seat_of)}
    t = _Tally(n)
    handlers = _HANDLERS
    for e in g.events:
        h = handlers.get(e.kind)
        if h is not None:
            h(t, e.kind, e.data)
    winners = result["winners"]
    draw = bool(result["draw"])
    return {
        "i": index,
        "seed": seed,
        "parent": t.parent,
        "rounds": result["rounds"],
        "reason": result["reason"],
        "draw": draw,
        "seats": [{"player": player_at[seat], "bot": names[player_at[seat]],
                   "offset": (seat - t.parent) % n, "master": t.masters[seat],
                   "servant": t.servants[seat], "win": (not draw and seat in winners),
                   "shared": draw and seat in winners, "gems": result["gems"][seat],
                   "reveal": t.reveal[seat], "dark_with": t.dark_with[seat]}
                  for seat in range(n)],
        "battles": t.battles,
        "kinds": dict(t.kinds),
        "abilities": dict(t.abilities),
        "losses": [[label, what, c] for (label, what), c in sorted(t.losses.items())],
    }
