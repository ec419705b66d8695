"""Bot-vs-bot play of any registered game, through the engine contract alone.

:func:`play_out` answers every open decision with the seat's bot, which is given only
``view(seat)`` and its own decision; :func:`simulate` plays many games of one game and config
(``contract.start``) and counts wins by seat from the shared result keys (``winners``,
``draw``, ``rounds``). Any game registered in :mod:`fuyuki.core.contract` runs here unchanged —
the fourth test game does. Servant Big Battle's own simulator (:mod:`fuyuki.sim.runner`) is a
faster, specialised path for that one game.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from fuyuki.core import contract, rng
from fuyuki.core.errors import DataError, FuyukiError
from fuyuki.core.outcome import check_result
from fuyuki.core.protocol import Decision
from fuyuki.sim.stats import wilson

#: a bot maker: ``bot(seed, seat)`` -> an object with ``choose(view, decision)``
BotMaker = Callable[[int, int], Any]


class RandomBot:
    """Chooses uniformly among the decision's options (it reads no view)."""

    needs_view = False

    def __init__(self, seed: int = 0, seat: int = 0) -> None:
        self.rng = rng.stream(seed, f"generic-random-{seat}")

    def choose(self, view: Any, decision: Decision) -> Any:
        return self.rng.choice(decision.options)


def play_out(game: contract.Engine, bots: Mapping[int, Any] | Sequence[Any] | BotMaker, seed: int = 0,
             limit: int = 100_000) -> contract.Engine:
    """Play ``game`` to its end, one open decision at a time (the lowest seat first), each
    answered by its seat's bot from ``view(seat)``. ``bots``: the bots by seat (a mapping or a
    list), or a maker
    called once for each seat that is asked (``maker(seed, seat)``). A game that waits for
    nobody, or does not end within ``limit`` decisions, is a FuyukiError."""
    fixed = not callable(bots)
    made: dict[int, Any] = (dict(bots) if isinstance(bots, Mapping) else
                            dict(enumerate(bots)) if isinstance(bots, Sequence) else {})
    for _ in range(limit):
        if game.over:
            return game
        pending = game.pending()
        if not pending:
            raise FuyukiError("the game is not over and waits for no decision")
        seat = min(pending)
        bot = made.get(seat)
        if bot is None:
            if fixed or not callable(bots):
                raise FuyukiError(f"no bot plays seat {seat}")
            bot = made[seat] = bots(seed, seat)
        view = game.view(seat) if getattr(bot, "needs_view", True) else None
        game.submit(seat, bot.choose(view, pending[seat]))
    if game.over:
        return game
    raise FuyukiError(f"the game did not end within {limit} decisions")


def simulate(game: str, config: dict[str, Any] | None = None, games: int = 100, seed: int = 0,
             bot: BotMaker = RandomBot) -> dict[str, Any]:
    """Play ``games`` games of ``game`` with ``config`` (game ``i`` seeded from the stream
    ``(seed, "generic")``), ``bot`` on every seat; each seat's win share with its Wilson 95 %
    interval, the draws and the mean rounds."""
    if type(games) is not int or games < 1:
        raise DataError("simulate", "games", f"must be at least 1, not {games!r}")
    seeds = rng.stream(seed, "generic")
    wins: list[int] = []
    draws = rounds = 0
    for _ in range(games):
        gseed = seeds.randrange(2**31)
        g = play_out(contract.start(game, gseed, config or {}, "simulate"), bot, gseed)
        n = len(g.seats())
        result = check_result(g.result, n)
        wins += [0] * (n - len(wins))
        for s in result["winners"]:
            wins[s] += 1
        draws += result["draw"]
        rounds += result["rounds"]
    return {"game": game, "games": games, "seed": seed, "draws": draws,
            "mean_rounds": rounds / games,
            "seats": [{"wins": w, "win_rate": w / games, "low": wilson(w, games)[0],
                       "high": wilson(w, games)[1]} for w in wins]}
