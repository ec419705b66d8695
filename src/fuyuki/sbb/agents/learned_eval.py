"""The learned evaluation of a game cut at the hard bot's horizon (issue 21, item 4).

A small multilayer perceptron gives every seat a score from its row of
:func:`.features.seat_features`; the seats' softmax is each one's predicted share of the
win. It was trained (:mod:`.train_eval`) on positions at the end of each round of
bot games, labelled with the share of the win each seat finally took. The weights are a
small JSON file shipped in the package (``eval_weights.json``); loading takes a few
milliseconds. numpy does the arithmetic.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np

from fuyuki.sbb.agents.features import NAMES, seat_features

WEIGHTS = Path(__file__).with_name("eval_weights.json")


class Mlp:
    """The shape of both learned models' weights (this evaluation and the bid policy of
    :mod:`.learned_policy`): rows standardised, one tanh layer, a linear score per row."""

    def __init__(self, data: dict, names: tuple[str, ...], source: object) -> None:
        if tuple(data["features"]) != names:
            raise ValueError(f"{source}: the weights were trained on other features")
        self.mean = np.array(data["mean"])
        self.std = np.array(data["std"])
        self.w1 = np.array(data["w1"])
        self.b1 = np.array(data["b1"])
        self.w2 = np.array(data["w2"])
        self.b2 = float(data["b2"])
        self.recipe = data.get("recipe", {})

    def scores(self, x: np.ndarray) -> np.ndarray:
        """The score of each row of ``x`` (any shape ``(..., features)``)."""
        h = np.tanh(((x - self.mean) / self.std) @ self.w1 + self.b1)
        return h @ self.w2 + self.b2


class LearnedEval(Mlp):
    """``LearnedEval()(g)``: every seat's predicted share of the win in game ``g``."""

    def __init__(self, path: str | Path = WEIGHTS) -> None:
        super().__init__(json.loads(Path(path).read_text(encoding="utf-8")), NAMES, path)

    def __call__(self, g) -> list[float]:
        z = self.scores(np.array(seat_features(g)))
        e = np.exp(z - z.max())
        return (e / e.sum()).tolist()


@functools.cache
def shipped() -> LearnedEval:
    """The evaluation of the shipped weights, loaded once per process."""
    return LearnedEval()
