"""Servant Big Battle for OpenSpiel. Importing this module registers two games::

    import pyspiel
    import fuyuki.adapters.openspiel  # noqa: F401
    game = pyspiel.load_game("python_servant_big_battle", {"players": 4})
    seq = pyspiel.load_game("python_servant_big_battle_seq")

``python_servant_big_battle`` — simultaneous moves: at each decision point every seat with
an open decision acts at once (sealed bids are the natural case, 強運 is offered to all);
a seat with nothing to decide has the single legal action ``0`` (no-op).

``python_servant_big_battle_seq`` — the same game turn by turn: the lowest-numbered seat
with an open decision moves; a decision with a single option is taken automatically.
It implements ``resample_from_infostate`` so that OpenSpiel's **Python**
:class:`open_spiel.python.algorithms.ismcts.ISMCTSBot` can search it. OpenSpiel's C++
search bots (``pyspiel.ISMCTSBot``, ``pyspiel.MCTSBot``) crash on games written in Python:
use the Python bots.

Chance: the engine draws its randomness from a seeded stream, so the game has one explicit
chance node at the start choosing the engine's seed among ``chance_outcomes`` equally
likely outcomes (seed = ``seed`` + outcome); after it everything is deterministic.

Rewards are terminal: each winner gets ``1/len(winners)`` (a shared win on a draw), the
others 0 (general sum in OpenSpiel's terms; the returns always add up to 1).

Information: observation string and tensor are the seat's current view
(``game.view(seat)``) encoded by :mod:`fuyuki.adapters.encoding`. The information state
adds the seat's history: a digest of every event the seat has seen and of its own
choices, so that two different histories give different strings. The information-state
tensor is the observation tensor (no history: a fixed-size tensor cannot hold it). Views,
events (``events_for(seat, step)``), pending decisions, the result and the record are all
read through the engine contract (docs/contract.md); the one exception is
``resample_from_infostate``, which OpenSpiel hands the true state to build a world consistent
with a seat's information: it samples from ``view(seat)`` and that seat's events, and copies the
rule stack of the true game for a decision in the middle of an effect.

Parameters (all with defaults): ``players`` (3–5, default 4; 7 in the ``big_battle``
mode), ``edition`` ("final", "v1.0", "v1.1"), ``mode`` ("standard" or a mode of
:mod:`fuyuki.sbb.modes`), ``chance_outcomes`` (1000), ``seed`` (0).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np
import pyspiel

from fuyuki import sbb
from fuyuki.adapters.encoding import NOOP, Encoding
from fuyuki.core.protocol import Decision
from fuyuki.sbb.rules import Rules

SIM_NAME = "python_servant_big_battle"
SEQ_NAME = "python_servant_big_battle_seq"
DEFAULTS = {"players": 4, "edition": "final", "mode": "standard", "chance_outcomes": 1000,
            "seed": 0}


def _game_type(short: str, long: str, dynamics) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=7,    # 3-5; the big_battle mode is for 7
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS)


SIM_TYPE = _game_type(SIM_NAME, "Python Servant Big Battle (simultaneous)",
                      pyspiel.GameType.Dynamics.SIMULTANEOUS)
SEQ_TYPE = _game_type(SEQ_NAME, "Python Servant Big Battle (turn by turn)",
                      pyspiel.GameType.Dynamics.SEQUENTIAL)

_RULES: dict[tuple, tuple[Rules, Encoding]] = {}


def _rules(edition: str, mode: str) -> tuple[Rules, Encoding]:
    key = (edition, mode)
    if key not in _RULES:
        rules = Rules.preset(edition, None if mode in ("", "standard") else mode)
        _RULES[key] = (rules, Encoding(rules))
    return _RULES[key]


class _Shared:
    """Per-game constants, shared by every state (never deep-copied)."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.players = int(params["players"])
        self.rules, self.enc = _rules(str(params["edition"]), str(params["mode"]))
        if self.players not in self.rules.players:
            raise ValueError(f"{self.players} players is not allowed (allowed: "
                             f"{list(self.rules.players)})")
        self.outcomes = int(params["chance_outcomes"])
        if self.outcomes < 1:
            raise ValueError("chance_outcomes must be at least 1")
        self.seed = int(params["seed"])

    def __deepcopy__(self, memo):
        return self


class _Engine:
    """Holds the engine game; deep-copying it is the engine's cheap clone."""

    __slots__ = ("g", "digests")

    def __init__(self, g=None) -> None:
        self.g = g
        self.digests: dict[int, tuple[int, Any]] = {}

    def __deepcopy__(self, memo):
        e = _Engine(self.g.clone() if self.g is not None else None)
        e.digests = {k: (i, h.copy()) for k, (i, h) in self.digests.items()}
        return e

    def __getstate__(self):
        return {"g": self.g}            # the digests are a cache (hash objects do not pickle)

    def __setstate__(self, state) -> None:
        self.g = state["g"]
        self.digests = {}

    def history_digest(self, seat: int) -> str:
        """A digest of the events ``seat`` has seen and of its own choices (incremental)."""
        g = self.g
        at, h = self.digests.get(seat, (0, None))
        if h is None:
            h = hashlib.sha1()
        for e in g.events_for(seat, at):
            h.update(f"{e.kind}{sorted(e.data.items())!r};".encode())
        self.digests[seat] = (g.step, h)
        mine = [c for q, c in g.record.submissions if q == seat]
        return h.hexdigest()[:20] + "/" + hashlib.sha1(repr(mine).encode()).hexdigest()[:12]


def _max_length(rounds: int, n: int) -> int:
    """An upper bound on the moves of a game: per round the extra gem, n bids, n 宝石魔術,
    n 身代わり, a つばめ返し per land, n swaps and n 強運 offers per effect (2n effects with
    retaliations), before that 2n draft picks and the chance node."""
    return rounds * (2 * n * n + 4 * n + 8) + 2 * n + 1


class _GameBase(pyspiel.Game):
    TYPE: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = dict(DEFAULTS)
        p.update(params or {})
        self.shared = _Shared(p)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.shared.enc.num_actions,
            max_chance_outcomes=self.shared.outcomes,
            num_players=self.shared.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=_max_length(self.shared.rules.round_cap, self.shared.players))
        super().__init__(self.TYPE, info, p)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return SbbObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                           self.shared)


class _StateBase(pyspiel.State):
    def __init__(self, game: _GameBase) -> None:
        super().__init__(game)
        self._sh = game.shared
        self._e = _Engine()

    # ------------------------------------------------------------------ shared parts
    @property
    def engine(self):
        """The engine game (``None`` before the chance node)."""
        return self._e.g

    def is_terminal(self) -> bool:
        return self._e.g is not None and self._e.g.over

    def current_player(self):
        g = self._e.g
        if g is None:
            return pyspiel.PlayerId.CHANCE
        if g.over:
            return pyspiel.PlayerId.TERMINAL
        return self._to_move(g)

    def _to_move(self, g):
        """Who moves in a running game (the simultaneous or the turn-based form)."""
        raise NotImplementedError

    def _legal_actions(self, player):
        return self._sh.enc.legal_actions(player, self._sh.players, self._decision(player))

    def chance_outcomes(self):
        k = self._sh.outcomes
        return [(i, 1.0 / k) for i in range(k)]

    def _start(self, outcome: int) -> None:
        self._e.g = sbb.new_game(self._sh.players, self._sh.seed + int(outcome), self._sh.rules)

    def returns(self):
        g = self._e.g
        if g is None or not g.over:
            return [0.0] * self._sh.players
        winners = g.result["winners"]
        return [1.0 / len(winners) if i in winners else 0.0 for i in range(self._sh.players)]

    def rewards(self):
        return self.returns()

    def _decision(self, seat: int) -> Decision | None:
        g = self._e.g
        if g is None or g.over:
            return None
        return g.pending().get(seat)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed:{self._sh.seed + int(action)}"
        return self._sh.enc.action_name(action)

    def __str__(self) -> str:
        g = self._e.g
        if g is None:
            return "chance: the seed"
        view = g.view(None)
        view.pop("log_size", None)
        return (f"seed={g.record.seed} moves={len(g.record.submissions)} "
                + json.dumps(view, ensure_ascii=False, sort_keys=True))


class SimultaneousState(_StateBase):
    """A state of ``python_servant_big_battle``."""

    def _to_move(self, g):
        return pyspiel.PlayerId.SIMULTANEOUS

    def _apply_action(self, action):
        assert self._e.g is None, "the only sequential node is the chance node"
        self._start(action)

    def _apply_actions(self, actions):
        g, enc, n = self._e.g, self._sh.enc, self._sh.players
        pending = g.pending()
        for seat in sorted(pending):
            g.submit(seat, enc.option_of(seat, n, pending[seat], actions[seat]))
        for seat in range(n):
            if seat not in pending and actions[seat] != NOOP:
                raise pyspiel.SpielError(f"seat {seat} has nothing to decide: only the "
                                         f"no-op (0) is legal, not {actions[seat]}")


class SequentialState(_StateBase):
    """A state of ``python_servant_big_battle_seq``."""

    def _to_move(self, g):
        return min(g.pending())

    def _apply_action(self, action):
        if self._e.g is None:
            self._start(action)
        else:
            g = self._e.g
            seat = min(g.pending())
            d = g.pending()[seat]
            g.submit(seat, self._sh.enc.option_of(seat, self._sh.players, d, action))
        self._auto()

    def _auto(self) -> None:
        """Take every forced decision of the seat to move (a single option)."""
        g = self._e.g
        while not g.over:
            pending = g.pending()
            seat = min(pending)
            if len(pending[seat].options) != 1:
                return
            g.submit(seat, pending[seat].options[0])

    def resample_from_infostate(self, player_id, probability_sampler=None, rng=None):
        """A state of a world drawn at random among those ``player_id`` cannot tell from
        this one: the same information state, other hidden cards (see
        :func:`resample_world`)."""
        g = self._e.g
        if g is None or g.over:
            return self.clone()
        if rng is None:
            rng = random.Random(_rng_seed(probability_sampler))
        world = resample_world(g, player_id, rng)
        new = self.clone()
        new._e = _Engine(world)
        return new


def _rng_seed(sampler) -> int:
    if sampler is not None:
        try:
            return int(sampler() * 2**52)
        except TypeError:
            pass
    return random.getrandbits(52)


def resample_world(g, seat: int, rng: random.Random):
    """An engine game that ``seat`` cannot tell from ``g``: its view, visible events and
    own choices are the same, the cards it cannot see are redrawn.

    For decisions that :class:`fuyuki.sbb.sampling.Sampler` can rebuild (drafts, the extra
    gem, the sealed bid, 宝石魔術, とりかえっこプリーズ) the world comes from it, built from
    ``g.view(seat)`` and ``g.visible_events(seat)`` only. For a decision in the middle of an
    effect (強運, 身代わり, つばめ返し) the rule stack cannot be rebuilt from the view, so the
    world is a copy of ``g`` whose hidden cards (other seats' hands and face-down cards,
    the three decks) are shuffled among themselves — without the sampler's draft
    constraints, and the other seats' open decisions are rebuilt for their new cards.
    The same fallback serves when the sampler reports an inconsistency (SamplingError).

    Seats that moved before ``seat`` in this decision (turn order: lowest seat first) have
    answered in the world too, at random among their options."""
    from fuyuki.sbb.sampling import Sampler, SamplingError, Unsupported

    view = g.view(seat)
    events = g.visible_events(seat)
    answered_before = sorted(q for q in g.s.answers if q != seat)
    try:
        world = Sampler(view, rules=g.rules, events=events).sample(rng)
    except (Unsupported, SamplingError):
        world = _shuffle_hidden(g, seat, rng)
    world.quiet = False
    world.s.events = list(events)
    world.record.submissions[:] = [(q, c) for q, c in g.record.submissions if q == seat]
    pending = world.pending()
    for q in answered_before:
        if q in pending:
            world.s.answers[q] = rng.choice(pending[q].options)
    return world


def _shuffle_hidden(g, seat: int, rng: random.Random):
    """A copy of ``g`` with every card ``seat`` cannot see shuffled among the hidden places."""
    from fuyuki.sbb.abilities import SUBSTITUTE
    from fuyuki.sbb.sampling import redeal_hidden

    w = g.clone()
    s = w.s
    s.rng = random.Random(rng.getrandbits(64))
    redeal_hidden(s, seat, rng)
    others = [q for q in range(s.n) if q != seat]
    for q in others:
        if not s.m_up[q]:
            s.dark[q] = bool(s.master[q] and w.ab(q).starts_dark(w.rules))
    # the others' open decisions for their new cards
    asking = dict(s.asking)
    for q in others:
        d = asking.get(q)
        if d is None:
            continue
        if d.kind == "luck":
            opts = ("use", "decline") if w.holds_luck(q) else ("decline",)
            asking[q] = Decision("luck", opts, d.info)
        elif d.kind == "bid":
            asking[q] = Decision("bid", tuple(w.t.names_of(sorted(set(s.hand[q])))), d.info)
        elif d.kind == "jewel":   # asked by the master's battle_offer hook (宝石魔術)
            offer = w.ab(q).battle_offer(w, q, d.info["land"])
            if offer is not None:
                asking[q] = offer
            else:
                del asking[q]
        elif d.kind == SUBSTITUTE and w.ab(q).kind != SUBSTITUTE:
            del asking[q]
    s.asking = asking
    s.answers = {}
    return w


class SbbObserver:
    """OpenSpiel observer: strings and tensors from ``game.view(seat)`` only."""

    def __init__(self, iig_obs_type, shared: _Shared) -> None:
        self.iig_obs_type = iig_obs_type
        self.shared = shared
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(shared.enc.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def _view(self, state, player):
        g = state._e.g
        if g is None:
            return None
        view = g.view(player if self.private else None)
        if not self.private:
            view["seat"] = player
        return view

    def set_from(self, state, player):
        self.shared.enc.observe(self._view(state, player), out=self.tensor)

    def string_from(self, state, player):
        view = self._view(state, player)
        if view is None:
            return f"p{player} start"
        view.pop("log_size", None)
        text = json.dumps(view, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            if self.private:
                text += "|h=" + state._e.history_digest(player)
            else:
                text += f"|h=public:{len(state._e.g.events_for(None))}"
        return text


class ServantBigBattleGame(_GameBase):
    """``python_servant_big_battle``: simultaneous moves."""

    TYPE = SIM_TYPE

    def new_initial_state(self):
        return SimultaneousState(self)


class ServantBigBattleSeqGame(_GameBase):
    """``python_servant_big_battle_seq``: turn by turn, with ``resample_from_infostate``."""

    TYPE = SEQ_TYPE

    def new_initial_state(self):
        return SequentialState(self)


pyspiel.register_game(SIM_TYPE, ServantBigBattleGame)
pyspiel.register_game(SEQ_TYPE, ServantBigBattleSeqGame)
