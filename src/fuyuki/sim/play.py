"""One simulated game: seats, bots, the engine loop, and the game's summary.

The simulator runs the engine itself, so after the game it reads the events it counts —
kept as the game plays, the rest of the log never written — to count what happened
(:class:`GameFacts`); nothing from the log is ever given to a bot.
"""

from __future__ import annotations

from typing import Any, Final, Sequence

from fuyuki.core.errors import DataError
from fuyuki.core.events import Logged, logged_get
from fuyuki.core.rng import Rng, derive_seed, derive_seeds
from fuyuki.sbb import setup_overrides
from fuyuki.sbb.agents.heuristic import HeuristicBot
from fuyuki.sbb.agents.random_bot import RandomBot
from fuyuki.sbb.battle import NP_RESOLVES
from fuyuki.sbb.game import FLIP, Game, game_stream
from fuyuki.sbb.losses import LOST, NEW_SERVANT
from fuyuki.sbb.rounds import ROUND
from fuyuki.sbb.setup import DRAFT_KEPT
from fuyuki.sbb.view import build_seen
from fuyuki.sim.analysis import FullStateHeuristicBot, full_view
from fuyuki.sim.config import SimConfig
from fuyuki.sim.tally import Tally

# events counted as uses of a card ability or a rule worth watching
ABILITY_EVENTS = ("luck", "prevented", "substitute", "life_extension", "overseer", "darken",
                  "dojo", "fetch", "fetch_back", "fetch_nothing", "jewel", "fragarach",
                  "np_fizzle", "blades_fizzle", "np_as_sortie", "swap", "grail", "tsubame",
                  "retaliate", "misfire", "uncontested")
BATTLE_KINDS = ("case1", "case2_win", "case2_tie", "case3_win", "case3_split")


def make_agent(name: str, seed: int, rules, iterations: int | None = None):
    """A bot for the simulator. ``heuristic-full-state`` is the analysis device of
    :mod:`fuyuki.sim.analysis` and is used only by the hidden-identity measurement.
    ``iterations``: the hard bot's search budget (None: its time budget)."""
    if name == "random":
        return RandomBot(seed)
    if name == "heuristic":
        return HeuristicBot(seed, cards=rules.cards)
    if name == "heuristic-full-state":
        return FullStateHeuristicBot(seed, cards=rules.cards)
    from fuyuki.sbb.agents import bot_names, make_bot
    if name not in bot_names():
        raise DataError("--bots", "bots", f"bot {name!r} is not available here "
                        f"(available: {bot_names()})")
    return make_bot(name, seed, rules, iterations)


def game_seed(master: int, index: int, stream: str = "game") -> int:
    """The seed of game ``index`` (of ``stream``) of a simulation whose master seed is
    ``master`` (:meth:`SimConfig.game_seed`): a function of those alone, so results do not
    depend on how games are spread over workers."""
    return derive_seed(master, f"sim-{stream}-{index}") % (2**63)


def seats_of(players: int, parent: int, index: int) -> list[int]:
    """The seat of each simulation player in game ``index`` (rotation from the first parent)."""
    return [(parent + k + index) % players for k in range(players)]


def play_game(cfg: SimConfig, index: int, *, bots: tuple[str, ...] | None = None,
              stream: str = "game", rules=None) -> dict[str, Any]:
    """Play game ``index`` of ``cfg`` (seed from the master seed and the index) and return its
    summary. ``bots`` overrides ``cfg.bots`` (one name per player)."""
    return play_facts(cfg, index, bots=bots, stream=stream, rules=rules).summary()


#: a game's seed, its players' bots' seeds (by simulation player), the engine's random stream
Seeds = tuple[int, list[int], Rng]


def game_seeds(cfg: SimConfig, index: int, stream: str = "game") -> Seeds:
    """Game ``index``'s :data:`Seeds`. The simulator's workers hash a chunk's seeds before
    playing it (:func:`play_facts`' ``seeds``): a hash right after a game, its caches cold,
    takes about twice as long."""
    seed = game_seed(cfg.seed, index, stream)
    text = str(seed)   # the seed's digits, which both hashes read: written out once
    return seed, derive_seeds(text, "bots", cfg.players), game_stream(text)


def play_facts(cfg: SimConfig, index: int, *, bots: tuple[str, ...] | None = None,
               stream: str = "game", rules=None,
               seeds: Seeds | None = None) -> GameFacts:
    """:func:`play_game`'s game, its :class:`GameFacts` (what the report counts: the
    simulator's workers count these, no summary made). ``seeds``: its
    :func:`game_seeds`, if they were made ahead."""
    rules = rules or cfg.rules()
    n = cfg.players
    seed, bot_seeds, rng_stream = seeds or game_seeds(cfg, index, stream)
    # quiet: no log written; the events the summary reads kept as the game plays
    g = setup_overrides.start(n, seed, rules, quiet=True, keep=READ_KINDS, rng_stream=rng_stream)
    parent = g.s.parent  # public (the setup event names it); read directly, no view built
    seat_of = seats_of(n, parent, index)
    fixed = {seat_of[k]: (m, s) for k, m, s in cfg.fixed}
    setup_overrides.deal(g, fixed, cfg.assign)
    names = bots or cfg.bots
    agents: list[Any] = [None] * n
    for k, bot_seed in enumerate(bot_seeds):
        agents[seat_of[k]] = make_agent(names[k], bot_seed, rules, cfg.bot_iterations)
    # (the one bot that reads the full state; getattr with a default raises and catches
    # an AttributeError inside for every other bot)
    full = [isinstance(a, FullStateHeuristicBot) for a in agents]
    if not any(full):   # the bots-only fast path: each bot reads its own view or none
        g.play_bots(agents)
        return GameFacts(g, seat_of, names, index, seed)
    needs = [a.needs_view for a in agents]
    seen = [getattr(a, "reads_seen", False) for a in agents]
    pending, submit = g.pending, g.submit
    while not g.s.over:
        for seat, d in pending().items():
            a = agents[seat]
            view: Any
            if full[seat]:
                view = full_view(g, seat)
            elif seen[seat]:
                view = build_seen(g, seat)   # as in Game.play_bots
            elif needs[seat]:
                view = g.view(seat)
            else:
                view = None
            submit(seat, a.choose(view, d))
    return GameFacts(g, seat_of, names, index, seed)


def count_played(cfg: SimConfig, jobs: list[tuple[str, tuple[str, ...] | None, int]],
                 seeds: list[Seeds], rules: Any, counts: Tally) -> None:
    """Play each job ``(stream, bots, index)`` of ``jobs`` with its :func:`game_seeds` (in
    ``seeds``, in the same order) and add its facts to ``counts``: the simulator's game loop
    (:func:`fuyuki.sim.runner.count_games`), here so that it runs compiled — each game's call
    and count a native call, no interpreted loop between games."""
    for k in range(len(jobs)):
        stream, bots, index = jobs[k]
        counts.add_facts(play_facts(cfg, index, bots=bots, stream=stream, rules=rules,
                                    seeds=seeds[k]))


class GameFacts:
    """What the report counts of one finished game (``seat_of[k]``: simulation player
    ``k``'s seat, ``names[k]``: its bot), read in one pass from the game's log — from the
    events it kept, for a game that keeps only some kinds (:func:`play_facts`' game keeps
    :data:`READ_KINDS`): the result, each seat's first master and servant, the round its
    master was first revealed, the servant a darkened seat drew, the battles, ability uses
    and losses. :meth:`summary` is the JSON-ready summary;
    :meth:`fuyuki.sim.tally.Tally.add_facts` counts the facts themselves."""

    def __init__(self, g: Game, seat_of: list[int], names: Sequence[str], index: int,
                 seed: int) -> None:
        n = g.players
        result = g.result
        assert result is not None, "the facts of a finished game"
        self.index, self.seed, self.n = index, seed, n
        self.names = names
        self.player_at = [0] * n
        for player in range(n):
            self.player_at[seat_of[player]] = player
        self.rounds: int = result["rounds"]
        self.reason: str = result["reason"]
        self.draw = bool(result["draw"])
        self.winners: list[int] = result["winners"]
        self.gems: list[int] = result["gems"]
        masters = [""] * n
        servants = [""] * n
        reveal: list[int | None] = [None] * n
        rnd = 0
        battles = 0
        kinds: dict[str, int] = {}
        abilities: dict[str, int] = {}
        losses: dict[tuple[str, str], int] = {}
        np_servant: dict[int, str] = {}
        darkened = [False] * n
        dark_with: list[str | None] = [None] * n
        parent = 0
        seat: int   # (an int: the lists above indexed natively, not through a generic look-up)
        for e in (g.kept if g.keep is not None else g.s.log):   # as logged: no Event objects
            # the three most frequent, logged by Game.log with their step's keys (each tuple
            # the keys of that one kind), are known by that tuple: no look-up by kind
            keys = e[2]
            k: str = e[0]
            if keys is DRAFT_KEPT:
                read = _DRAFT_KEPT
            elif keys is FLIP:
                read = _FLIP
            elif keys is ROUND:
                read = _ROUND
            else:
                read = _READ.get(k, _SKIP)   # (one look-up an event, then native compares)
                if read == _SKIP:
                    continue
                if read == _ABILITY:
                    abilities[k] = abilities.get(k, 0) + 1
                    continue
                if read == _BATTLE:
                    battles += 1
                    continue
                if read == _BATTLE_KIND:
                    kinds[k] = kinds.get(k, 0) + 1
                    continue
            if read == _ROUND:
                rnd = _at(e, ROUND, _ROUND_ROUND)
            elif read == _SETUP:
                parent = logged_get(e, "parent")
            elif read == _DRAFT_KEPT:
                if rnd == 0:
                    kind: str = _at(e, DRAFT_KEPT, _KEPT_KIND)
                    held = masters if kind == "master" else servants
                    seat = _at(e, DRAFT_KEPT, _KEPT_SEAT)
                    held[seat] = _at(e, DRAFT_KEPT, _KEPT_CARD)
            elif read == _DEALT:
                if rnd == 0:
                    seat = logged_get(e, "seat")
                    masters[seat] = logged_get(e, "master")
                    servants[seat] = logged_get(e, "servant")
            elif read == _FLIP:
                what: str = _at(e, FLIP, _FLIP_WHAT)
                if what == "master":
                    seat = _at(e, FLIP, _FLIP_SEAT)
                    if reveal[seat] is None:
                        reveal[seat] = rnd
            elif read == _NEW_MASTER_UP:
                seat = logged_get(e, "seat")
                if reveal[seat] is None:
                    reveal[seat] = rnd
            elif read == _NP_RESOLVES:
                servant = _at(e, NP_RESOLVES, _NP_SERVANT)
                np_servant[_at(e, NP_RESOLVES, _NP_SEAT)] = servant
                label = "np:" + servant
                abilities[label] = abilities.get(label, 0) + 1
            elif read == _DARKEN:   # an ability event, counted, and read
                abilities[k] = abilities.get(k, 0) + 1
                darkened[logged_get(e, "seat")] = True
            elif read == _NEW_SERVANT:
                seat = _at(e, NEW_SERVANT, _NEW_SEAT)
                if darkened[seat] and dark_with[seat] is None:
                    dark_with[seat] = _at(e, NEW_SERVANT, _NEW_CARD)
            elif read == _LOST:
                cause = _at(e, LOST, _LOST_CAUSE)
                label = (f"np:{np_servant.get(_at(e, LOST, _LOST_SOURCE), '?')}"
                         if cause == "np" else cause)
                key = (label, _at(e, LOST, _LOST_WHAT))
                losses[key] = losses.get(key, 0) + 1
        self.parent, self.battles, self.kinds, self.abilities = parent, battles, kinds, abilities
        self.masters, self.servants, self.reveal, self.dark_with = (masters, servants, reveal,
                                                                    dark_with)
        #: ``(cause label, "servant"/"master")`` and its count, sorted
        self.losses = sorted(losses.items()) if len(losses) > 1 else list(losses.items())

    def seat(self, seat: int) -> tuple[Any, ...]:
        """``seat``'s properties: ``(master, servant, offset from the first parent, player,
        bot, dark_with, reveal round)`` (the key the report's counts are kept by)."""
        player = self.player_at[seat]
        return (self.masters[seat], self.servants[seat], (seat - self.parent) % self.n, player,
                self.names[player], self.dark_with[seat], self.reveal[seat])

    def won(self, seat: int) -> bool:
        """Whether ``seat`` won alone (not in a draw)."""
        return not self.draw and seat in self.winners

    def summary(self) -> dict[str, Any]:
        """The game's JSON-ready summary."""
        seats = []
        for seat in range(self.n):
            master, servant, offset, player, bot, dark_with, reveal = self.seat(seat)
            seats.append({"player": player, "bot": bot, "offset": offset, "master": master,
                          "servant": servant, "win": self.won(seat),
                          "shared": self.draw and seat in self.winners,
                          "gems": self.gems[seat], "reveal": reveal, "dark_with": dark_with})
        return {
            "i": self.index,
            "seed": self.seed,
            "parent": self.parent,
            "rounds": self.rounds,
            "reason": self.reason,
            "draw": self.draw,
            "seats": seats,
            "battles": self.battles,
            "kinds": self.kinds,
            "abilities": self.abilities,
            "losses": [[label, what, c] for (label, what), c in self.losses],
        }


# what GameFacts does with each kind of event (a kind not in _READ: nothing — the draws,
# the most frequent, among them); Final: C constants in the compiled build
_SKIP: Final = 0
_ABILITY: Final = 1        # counted as a use of an ability (ABILITY_EVENTS)
_BATTLE_KIND: Final = 2    # counted by case (BATTLE_KINDS)
_BATTLE: Final = 3
_ROUND: Final = 4
_SETUP: Final = 5
_DRAFT_KEPT: Final = 6
_DEALT: Final = 7
_FLIP: Final = 8
_NEW_MASTER_UP: Final = 9
_NP_RESOLVES: Final = 10
_DARKEN: Final = 11        # an ability event that is also read (who darkened)
_NEW_SERVANT: Final = 12
_LOST: Final = 13
_READ: Final[dict[str, int]] = {
    **{k: _ABILITY for k in ABILITY_EVENTS}, **{k: _BATTLE_KIND for k in BATTLE_KINDS},
    "battle": _BATTLE, "round": _ROUND, "setup": _SETUP, "draft_kept": _DRAFT_KEPT,
    "dealt": _DEALT, "flip": _FLIP, "new_master_up": _NEW_MASTER_UP,
    "np_resolves": _NP_RESOLVES, "darken": _DARKEN, "new_servant": _NEW_SERVANT, "lost": _LOST}


def _at(e: Logged, keys: tuple[str, ...], i: int) -> Any:
    """Datum ``keys[i]`` of the event ``e``: read at its place when ``e`` was logged with the
    step's constant ``keys`` (``Game.log``: the frequent events), else by its name."""
    return e[3 + i] if e[2] is keys else logged_get(e, keys[i])


# the places of the data GameFacts reads in the events logged with constant keys
_ROUND_ROUND: Final = ROUND.index("round")
_KEPT_KIND: Final = DRAFT_KEPT.index("kind")
_KEPT_SEAT: Final = DRAFT_KEPT.index("seat")
_KEPT_CARD: Final = DRAFT_KEPT.index("card")
_FLIP_WHAT: Final = FLIP.index("what")
_FLIP_SEAT: Final = FLIP.index("seat")
_NP_SERVANT: Final = NP_RESOLVES.index("servant")
_NP_SEAT: Final = NP_RESOLVES.index("seat")
_NEW_SEAT: Final = NEW_SERVANT.index("seat")
_NEW_CARD: Final = NEW_SERVANT.index("card")
_LOST_CAUSE: Final = LOST.index("cause")
_LOST_SOURCE: Final = LOST.index("source")
_LOST_WHAT: Final = LOST.index("what")
#: the kinds of event :class:`GameFacts` reads (all a simulated game keeps: Game.keep)
READ_KINDS: Final = frozenset(_READ)
assert [k for k in ABILITY_EVENTS if _READ[k] != _ABILITY] == ["darken"], \
    "an ability event that GameFacts also reads must be counted where it is read, like darken"
