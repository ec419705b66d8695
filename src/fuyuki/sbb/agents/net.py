"""The net bot: a small policy network, learned from the hard bot's search, bids in a blink.

The hard bot's strength lies in its sealed bids (about six a game), each a search over
sampled worlds (:mod:`.bids`) that costs tens of milliseconds. This bot answers a bid with
a multilayer perceptron instead: each option of the bid is one row of :data:`NAMES`
(:func:`bid_features`, read from the seat's own view only — the heuristic bot's rating of
the card, what the bid leaves in hand, the card's land, the table), one tanh layer scores
each row, and the bot bids the option of the best score. The network was fitted by
:mod:`.train_net` to the hard bot's bids (the softmax of its search's option values), so it
is the search distilled (expert iteration's imitation step).

Every other decision is answered like the hard bot answers it at three and four players
where it does not search: the drafts by the heuristic bot's preferences, 強運, 身代わり and
つばめ返し by the heuristic's rules; the parent's extra gem, 宝石魔術 and a swap's target,
which the hard bot searches, by the heuristic's rules too (docs/net-bot.md: how often).

The weights ship in the package, a few kB a file: ``net_weights.json`` fitted to
four-player games and bidding at four and five players, ``net_weights_3.json`` fitted to
three-player games (:data:`WEIGHTS_OF`). A format version, the feature names they were
trained on and a SHA-256 of the arrays are checked at load; any mismatch is one
:class:`NetWeightsError` naming the file.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from fuyuki.core.errors import FuyukiError
from fuyuki.core.protocol import Decision
from fuyuki.sbb.agents.heuristic import HeuristicBot
from fuyuki.sbb.agents.learned_eval import Mlp
from fuyuki.sbb.agents.learned_policy import NAMES as RATING_NAMES
from fuyuki.sbb.agents.learned_policy import option_features
from fuyuki.sbb.cards import ACTION
from fuyuki.sbb.view import seen_of_view

WEIGHTS = Path(__file__).with_name("net_weights.json")
#: the player counts with a network of their own, fitted to games of that many players
#: (the network of :data:`WEIGHTS`, fitted to four-player games, bids at the others)
WEIGHTS_OF = {3: Path(__file__).with_name("net_weights_3.json")}
#: the weights file's layout; a file of another version is refused
FORMAT = 1
#: what a bid option's row holds: the heuristic rating's reading of the card
#: (:data:`.learned_policy.NAMES`), then what the bid leaves and the table around it
NAMES = RATING_NAMES + (
    "left best", "left gap", "left sorties", "left same colour", "left same best",
    "extra land", "land rank", "parent", "after parent", "round", "gems/target",
    "rival best", "rival power", "rivals", "effect", "loss", "deck", "pool")
SIZE = len(NAMES)
#: the arrays of a weights file, in the order the SHA-256 reads them
ARRAYS = ("mean", "std", "w1", "b1", "w2", "b2")


class NetWeightsError(FuyukiError):
    """A weights file that is missing, corrupt, of another format or of other features."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{path}: not the net bot's weights: {reason}")


def bid_features(rating: HeuristicBot, view: dict[str, Any], options: Any) -> list[list[float]]:
    """One row of :data:`NAMES` for each card of ``options``, a sealed bid of the seat whose
    ``view`` it is, read through the heuristic bot ``rating``."""
    t = rating._t()
    seen = seen_of_view(view, t)
    rows = option_features(rating, seen, options)
    table = rating.bid_table(seen)
    scores = [r[0] for r in rows]
    n = view["players"]
    me = view["seat"]
    gems = seen.gems
    target = max(float(table.target), 1.0)
    rival_best = max((g for i, g in enumerate(gems) if i != me), default=0)
    land_gems = seen.land_gems
    cols = table.land_colours
    extra = view.get("extra_gem")
    extra_colour = next((cols[k] for k, land in enumerate(view["lands"]) if land["id"] == extra),
                        -2)
    hand = [t.ids.get(c, 0) for c in view["me"]["hand"]]
    parent = view["parent"]
    shared = [1.0 if parent == me else 0.0, ((me - parent) % n) / n, view["round"] / 10,
              gems[me] / target, rival_best / target, max(table.rivals, default=0.0) / 5,
              len(table.rivals) / 4, table.effect, table.loss, view["decks"]["action"] / 40,
              view["pool"] / 40]
    for k, card in enumerate(options):
        c = t.ids.get(card, 0)
        left = [x for j, x in enumerate(scores) if j != k]
        left_best = max(left, default=0.0)
        rest = list(hand)
        if c in rest:
            rest.remove(c)
        action = t.kind[c] == ACTION
        colour = t.colour[c] if action else -3
        sorties = [t.value[x] for x in rest if t.kind[x] == ACTION and not t.np[x]]
        same = [t.value[x] for x in rest if t.kind[x] == ACTION and t.colour[x] == colour]
        g = land_gems[cols.index(colour)] if colour in cols else -1
        rank = sum(1 for x in land_gems if x > g) / max(len(land_gems), 1) if g >= 0 else 1.0
        rows[k] += [left_best, scores[k] - left_best, sum(sorties) / 10, len(same) / 3,
                    max(same, default=0) / 5, 1.0 if colour == extra_colour else 0.0,
                    rank] + shared
    return rows


def _digest(weights: dict[str, Any]) -> str:
    """The SHA-256 of a weights file's format, features and arrays (their JSON, as written)."""
    body = [weights.get("format"), weights.get("features")] + [weights.get(k) for k in ARRAYS]
    return hashlib.sha256(json.dumps(body, separators=(",", ":")).encode()).hexdigest()


def save(path: str | Path, weights: dict[str, Any]) -> None:
    """Write ``weights`` (``features``, the arrays of :data:`ARRAYS`, ``recipe``) as a
    weights file of this format, with its SHA-256."""
    out = {"format": FORMAT, "features": list(weights["features"]),
           **{k: np.round(np.asarray(weights[k], dtype=float), 6).tolist() for k in ARRAYS}}
    out["b2"] = out["b2"] if isinstance(out["b2"], float) else float(np.ravel(out["b2"])[0])
    out["sha256"] = _digest(out)
    out["recipe"] = weights.get("recipe", {})
    Path(path).write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")


def load(path: str | Path = WEIGHTS) -> Mlp:
    """The network of a weights file, checked: its format, its features (:data:`NAMES`),
    the SHA-256 of its arrays and their shapes. Anything else is a :class:`NetWeightsError`."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise NetWeightsError(path, f"unreadable ({e})") from None
    if not isinstance(data, dict):
        raise NetWeightsError(path, "not a JSON object")
    missing = [k for k in ("format", "features", "sha256") + ARRAYS if k not in data]
    if missing:
        raise NetWeightsError(path, f"missing {', '.join(missing)}")
    if data["format"] != FORMAT:
        raise NetWeightsError(path, f"format {data['format']!r}; this bot reads {FORMAT}")
    if data["features"] != list(NAMES):
        raise NetWeightsError(path, "trained on other features than this bot reads")
    if data["sha256"] != _digest(data):
        raise NetWeightsError(path, "its SHA-256 does not match its numbers (corrupt)")
    try:
        arrays = {k: np.array(data[k], dtype=float) for k in ARRAYS}
    except (TypeError, ValueError) as e:
        raise NetWeightsError(path, f"not numbers ({e})") from None
    hidden = arrays["b1"].shape[0] if arrays["b1"].ndim == 1 else -1
    if (arrays["w1"].shape, arrays["mean"].shape, arrays["std"].shape, arrays["w2"].shape,
            arrays["b2"].shape) != ((SIZE, hidden), (SIZE,), (SIZE,), (hidden,), ()):
        raise NetWeightsError(path, "arrays of the wrong shapes")
    return Mlp({**data, "b2": float(arrays["b2"])}, NAMES, path)


@functools.cache
def shipped(players: int = 4) -> Mlp:
    """The shipped network of ``players``-player games, loaded once per process (a bot is
    made for every game)."""
    return load(WEIGHTS_OF.get(players, WEIGHTS))


class NetBot:
    """Bids by the policy network (:func:`bid_features`, the best score); every other
    decision like the heuristic bot (seeded ``seed``). ``rules``: the game's, for a card
    set other than the default; ``path``: another weights file, for every player count
    (else the shipped network of the game's player count, :data:`WEIGHTS_OF`)."""

    name = "net"
    needs_view = True

    def __init__(self, seed: int = 0, rules: Any = None, path: str | Path | None = None) -> None:
        if path is None:
            self.model = None
            for players in (4, *WEIGHTS_OF):     # loaded once a process, not at a first bid
                shipped(players)
        else:
            self.model = load(path)
        self.fallback = HeuristicBot(seed, cards=rules.cards if rules is not None else None)
        #: the heuristic bot whose rating the features read (its noise never used)
        self.rating = HeuristicBot(seed, cards=rules.cards if rules is not None else None)

    def scores(self, view: dict[str, Any], options: Any) -> np.ndarray:
        """The network's score of each option of a sealed bid at ``view``."""
        model = self.model if self.model is not None else shipped(view["players"])
        return model.scores(np.array(bid_features(self.rating, view, options)))

    def choose(self, view: dict[str, Any], decision: Decision) -> Any:
        opts = decision.options
        if decision.kind != "bid" or len(opts) == 1:
            return self.fallback.choose(view, decision)
        return opts[int(np.argmax(self.scores(view, opts)))]
