"""Servant Big Battle as a PettingZoo environment.

    from fuyuki.adapters.pettingzoo import parallel_env, env
    penv = parallel_env(players=4)          # native ParallelEnv
    aec = env(players=4)                    # AEC, through pettingzoo's parallel_to_aec

One ``step`` is one decision point of the engine: every seat with an open decision acts at
once (sealed bids, 強運 offered to everyone); a seat with nothing to decide sees an action
mask with only the no-op (action 0) and its action is ignored. Agents are
``player_0`` … ``player_{n-1}`` (the engine's seats).

Observations are ``{"observation": Box(0, 1, float32), "action_mask": Box(0, 1, int8)}``
built by :mod:`fuyuki.adapters.encoding` from ``game.view(seat)`` only. Rewards come at the
end: each winner gets ``1/len(winners)``, the others 0. The engine ends every game by
itself (the round cap), so there is no truncation unless ``max_steps`` is given.

An action outside the mask is, by default, replaced by the decision's first option and
flagged with ``info["illegal_action"] = True`` (PettingZoo's seed test samples actions
without the mask); ``on_illegal="raise"`` raises :class:`fuyuki.core.errors.IllegalAction`.

``reset(seed=s)`` fully determines the game: the engine seed of each game is drawn from a
generator seeded by ``s``, so the same seed gives the same sequence of games.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from fuyuki import sbb
from fuyuki.adapters.encoding import Encoding
from fuyuki.core.errors import IllegalAction
from fuyuki.sbb.game import check_player_count
from fuyuki.sbb.rules import Rules


class ServantBigBattleParallelEnv(ParallelEnv):
    metadata = {"name": "servant_big_battle_v0", "render_modes": ["ansi"],
                "is_parallelizable": True}

    def __init__(self, players: int = 4, seed: int | None = None, edition: str = "final",
                 mode: str | None = None, options: tuple[str, ...] = (),
                 render_mode: str | None = None, on_illegal: str = "first",
                 max_steps: int | None = None) -> None:
        super().__init__()
        self.rules = Rules.preset(edition, mode, tuple(options))
        check_player_count(self.rules, players)
        if on_illegal not in ("first", "raise"):
            raise ValueError("on_illegal must be 'first' or 'raise'")
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi'")
        self.n = players
        self.encoding = Encoding(self.rules)
        self.render_mode = render_mode
        self.on_illegal = on_illegal
        self.max_steps = max_steps
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._seeds = random.Random(seed)
        self.game = None
        self.steps = 0

    # ------------------------------------------------------------------ spaces
    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Dict:
        enc = self.encoding
        return spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (enc.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (enc.num_actions,), np.int8),
        })

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Discrete:
        return spaces.Discrete(self.encoding.num_actions)

    # ------------------------------------------------------------------ the loop
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._seeds = random.Random(seed)
        self.game = sbb.new_game(self.n, self._seeds.randrange(2**31), self.rules)
        self.agents = list(self.possible_agents)
        self.steps = 0
        return self._observations(), {a: self._info(a) for a in self.agents}

    def step(self, actions: dict[str, Any]):
        g, enc = self.game, self.encoding
        if g is None or not self.agents:
            raise IllegalAction("not_running", "call reset() first: the game is over or not "
                                "started")
        illegal: set[str] = set()
        pending = g.pending()
        for seat in sorted(pending):
            agent = self.possible_agents[seat]
            if agent not in actions:
                continue        # this seat stays pending until it acts
            d = pending[seat]
            try:
                option = enc.option_of(seat, self.n, d, actions[agent])
            except IllegalAction:
                if self.on_illegal == "raise":
                    raise
                option = d.options[0]
                illegal.add(agent)
            g.submit(seat, option)
        self.steps += 1
        obs = self._observations()
        done = g.over
        truncate = not done and self.max_steps is not None and self.steps >= self.max_steps
        rewards = {a: 0.0 for a in self.agents}
        if done:
            winners = g.result["winners"]
            for a in self.agents:
                if self._seat[a] in winners:
                    rewards[a] = 1.0 / len(winners)
        terms = {a: done for a in self.agents}
        truncs = {a: truncate for a in self.agents}
        infos = {a: self._info(a, a in illegal) for a in self.agents}
        if done or truncate:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: self.observe(a) for a in self.agents}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` observes now: its view encoded, and its action mask."""
        seat = self._seat[agent]
        g = self.game
        decision = g.pending().get(seat)
        return {"observation": self.encoding.observe(g.view(seat)),
                "action_mask": self.encoding.mask(seat, self.n, decision)}

    def _info(self, agent: str, illegal: bool = False) -> dict[str, Any]:
        seat = self._seat[agent]
        d = self.game.pending().get(seat)
        info: dict[str, Any] = {"seat": seat, "decision": d.kind if d else None,
                                "illegal_action": illegal}
        if self.game.over:
            info["result"] = self.game.result
        return info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        view = self.game.view(None)
        return json.dumps({k: view[k] for k in ("round", "parent", "phase", "pool", "lands",
                                                  "seats", "over", "result")},
                          ensure_ascii=False)

    def close(self) -> None:
        self.game = None
        self.agents = []


def parallel_env(players: int = 4, seed: int | None = None, edition: str = "final",
                 mode: str | None = None, **kwargs: Any) -> ServantBigBattleParallelEnv:
    """The native parallel environment (see the module's documentation)."""
    return ServantBigBattleParallelEnv(players=players, seed=seed, edition=edition, mode=mode,
                                       **kwargs)


def env(players: int = 4, seed: int | None = None, edition: str = "final",
        mode: str | None = None, **kwargs: Any):
    """The AEC environment: :func:`parallel_env` through PettingZoo's ``parallel_to_aec``."""
    return parallel_to_aec(parallel_env(players, seed, edition, mode, **kwargs))
