"""The sampler rebuilds a game in the middle of a round from the engine's own step lists
(setup.deal_steps, rounds.AFTER_BATTLES/AFTER_EVENTS/event_steps, battle.battle_steps): the
sampled game's rule stack, its open step and the 聖杯出現 flag are the real game's, at every
decision it can rebuild — drafts, the extra gem, sealed bids, 宝石魔術, and a swap while other
events of the round are still to resolve."""

import random

from fuyuki.sbb import new_game
from fuyuki.sbb.agents.random_bot import RandomBot
from fuyuki.sbb.sampling import SUPPORTED, Sampler


def _check_games(players: int, seeds: range) -> set[str]:
    seen: set[str] = set()
    for seed in seeds:
        g = new_game(players, seed)
        bots = [RandomBot(seed * 10 + i) for i in range(players)]
        while not g.over:
            for seat, d in g.pending().items():
                if d.kind in SUPPORTED and not g.s.answers:
                    world = Sampler(g.view(seat), g.rules).sample(random.Random(seed))
                    assert world.s.stack == g.s.stack, (seed, d.kind)
                    assert world.s.cont == g.s.cont, (seed, d.kind)
                    assert world.s.grail == g.s.grail, (seed, d.kind)
                    if d.kind == "swap" and g.s.stack[-1][0] in ("swap_ask", "grail"):
                        seen.add("swap with events after it")
                    seen.add(d.kind)
                g.submit(seat, bots[seat].choose(None, d))
    return seen


def test_sampled_rule_stack_is_the_real_one():
    seen = _check_games(5, range(60))
    assert {"draft_master", "draft_servant", "place_gem", "bid", "jewel", "swap"} <= seen
    assert "swap with events after it" in seen
