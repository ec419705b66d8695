import pytest

from fuyuki.sbb import new_game
from fuyuki.sbb import agents
from fuyuki.sbb.agents import make_bot


def play_out(game, bots=None, rng_seed=0, limit=100000):
    """Play ``game`` to the end with bots (default: random)."""
    n = game.players
    bots = bots or [make_bot("random", rng_seed * 10 + i) for i in range(n)]
    agents.play_out(game, bots, limit=limit)
    return game


@pytest.fixture
def random_game():
    def make(players=4, seed=0, **kw):
        return play_out(new_game(players, seed, **kw), rng_seed=seed)
    return make
