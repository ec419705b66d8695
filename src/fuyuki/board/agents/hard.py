"""The つよい (hard) bot: determinized search over what the seat cannot see.

At the decisions that shape a turn — which part of a group's phase comes next (action, move,
battle, or end), where the group moves or builds, which character starts a 《戦闘》 — the bot
samples *worlds* consistent with its view (:mod:`fuyuki.board.agents.belief`: the other camps'
hands and plotted cards and the deck order dealt at random, fresh dice), submits each option
in each world and plays on with heuristic bots on every seat until every other camp has had
a turn (or the game ends). Each playout ends in a score (:func:`score`): 1 for a win, 0 for
being out, else the camp's strength over the strength of every camp in play. The option with
the best mean score over the worlds is chosen (perfect-information Monte Carlo; the options
of one world share its deal and its dice, so they are compared on the same luck). Every other
decision — and a 令呪 the heuristic bot wants now — is the heuristic bot's.

Budget: ``iterations`` worlds a decision (reproducible: the same view and seed give the same
choice), or ``seconds`` of CPU time a decision (at least one world). The bot reads only the
view and decision it is given.
"""

from __future__ import annotations

import time
from typing import Any

from fuyuki.core import rng
from fuyuki.core.protocol import Decision

from fuyuki.board.agents.belief import RESUMABLE, sample_world
from fuyuki.board.agents.heuristic import SPELL, HeuristicBot

MAX_PLAYOUT = 600          # decisions a playout may take before it is scored where it stands


class Unresumable(Exception):
    """A world built from the view does not come to the view's decision with its options (a
    view the sampler cannot rebuild): the bot answers as the heuristic bot."""


class HardBot:
    def __init__(self, seed: int = 0, seat: int = 0, iterations: int | None = None,
                 seconds: float = 0.8):
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise ValueError(f"iterations must be 1 or more, not {iterations!r}")
        self.seed = seed
        self.seat = seat
        self.iterations = iterations
        self.seconds = seconds
        self.heuristic = HeuristicBot(seed, seat)
        #: CPU seconds of each searched decision (benchmarks read it)
        self.times: list[float] = []

    def choose(self, view: dict[str, Any], decision: Decision) -> Any:
        plain = self.heuristic.choose(view, decision)
        options = [o for o in decision.options if o != SPELL]
        if decision.kind not in RESUMABLE or plain == SPELL or len(options) < 2:
            return plain
        t0 = time.process_time()
        try:
            choice = self.search(view, options, plain)
        except Unresumable:
            return plain
        self.times.append(time.process_time() - t0)
        return choice

    def search(self, view: dict[str, Any], options: list[Any], plain: Any) -> Any:
        """The option with the best mean playout score over the sampled worlds (ties: the
        heuristic's choice, then the first)."""
        r = rng.stream(self.seed, f"board-hard-{view['seat']}-{view['round']}-{view['event_count']}-"
                                  f"{view['decision']['kind']}-{','.join(map(str, options))}")
        totals = dict.fromkeys(options, 0.0)
        start = time.process_time()
        worlds = 0
        while True:
            wseed = r.randrange(2**31)
            deal = r.randrange(2**31)
            for o in options:
                totals[o] += playout(view, o, wseed, rng.stream(deal, "deal"))
            worlds += 1
            if self.iterations is not None:
                if worlds >= self.iterations:
                    break
            elif (time.process_time() - start) * (worlds + 1) / worlds > self.seconds:
                break            # one more world would overrun the budget
        best = max(totals.values())
        return plain if totals.get(plain) == best else next(o for o in options if totals[o] == best)


def playout(view: dict[str, Any], option: Any, wseed: int, deal: Any) -> float:
    """The score of ``option`` in one world: sampled from ``view`` with ``deal`` (cards) and
    ``wseed`` (dice, the bots' tie-breaks), played on by heuristic bots."""
    g = sample_world(view, wseed, deal)
    me = view["seat"]
    d = g.pending().get(me)
    if d is None or d.kind != view["decision"]["kind"] or option not in d.options:
        raise Unresumable
    g.submit(me, option)
    others = {c["seat"] for c in view["camps"] if not c["out"] and c["seat"] != me}
    bots = [HeuristicBot(wseed, s) for s in range(g.n)]
    seen = 0
    for _ in range(MAX_PLAYOUT):
        if g.over:
            break
        for e in g.events[seen:]:
            if e.kind == "turn":
                others.discard(e.data["seat"])
        seen = len(g.events)
        if not others:
            break
        (seat, d), = g.pending().items()
        g.submit(seat, bots[seat].choose(sight(g, seat), d))
    return score(g, me)


def sight(g: Any, seat: int) -> dict[str, Any]:
    """What the heuristic bot reads of a view (a world's seat: ``Game.view`` less the events
    and the discard pile, which it never reads — half the time of a playout otherwise)."""
    camp = g.camps[seat]
    return {"seat": seat, "pack": g.config.get("pack"), "round": g.round,
            "map": {"width": g.pack.width, "height": g.pack.height},
            "chars": [c.public() for c in g.chars.values()],
            "camps": [c.public() for c in g.camps],
            "hand": [{"id": k, "card": g.card_type(k)} for k in camp.hand],
            "plotted": [{"id": k, "card": g.card_type(k)} for k in camp.plotted]}


def score(g: Any, seat: int) -> float:
    """1 if ``seat`` has won, 0 if it is out; else its strength over the total of the camps in
    play (a camp's strength: its master's HP share, twice, plus each living servant's HP
    share, plus a tenth of a point per card in hand or plotted)."""
    if g.over:
        return 1.0 if g.result.get("winner") == seat else 0.0
    if g.camps[seat].out:
        return 0.0
    strength = [0.0] * g.n
    for c in g.chars.values():
        if c.alive and c.camp is not None:
            strength[c.camp] += (2.0 if c.role == "master" else 1.0) * c.hp / c.max_hp
    for camp in g.camps:
        if not camp.out:
            strength[camp.seat] += 0.1 * (len(camp.hand) + len(camp.plotted))
    return strength[seat] / sum(strength)
