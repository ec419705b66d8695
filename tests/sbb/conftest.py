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


def first_bid(players=4, seed=0, seat=0, bots_seeded=0, choice=False, quiet=False):
    """A game of heuristic bots (seat k's seeded ``bots_seeded * 10 + k``) stopped at
    ``seat``'s first bid (``choice``: the first with more than one card to bid)."""
    game = new_game(players, seed, quiet=quiet)
    bots = [make_bot("heuristic", bots_seeded * 10 + k) for k in range(players)]
    while not game.over:
        pend = game.pending()
        if seat in pend and pend[seat].kind == "bid" and (
                not choice or len(pend[seat].options) > 1):
            return game
        for s, d in pend.items():
            game.submit(s, bots[s].choose(game.view(s), d))
    raise AssertionError("no bid with a choice")


def game_with(hero, game_seed, seat, players=4):
    """A whole game of ``players`` seats (seed ``game_seed``), ``seat`` played by ``hero``
    and the others by heuristic bots seeded by their seat: its events and result (to check
    that a bot with an iteration budget replays a game exactly)."""
    game = new_game(players, game_seed)
    bots = [hero if i == seat else make_bot("heuristic", i) for i in range(players)]
    play_out(game, bots)
    return [(e.kind, e.data) for e in game.events], game.result


@pytest.fixture
def random_game():
    def make(players=4, seed=0, **kw):
        return play_out(new_game(players, seed, **kw), rng_seed=seed)
    return make
