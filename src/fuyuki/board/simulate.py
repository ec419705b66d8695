"""Bot-vs-bot simulations: camp win rates (no I/O; the CLI and benchmarks print them)."""

from __future__ import annotations

from typing import Any

from fuyuki.core import rng

from fuyuki.board.agents import make_bot
from fuyuki.board.content import default_pack
from fuyuki.board.game import Game, new_game


def play_out(game: Game, bots: list[Any]) -> Game:
    while not game.over:
        for seat, decision in game.pending().items():
            game.submit(seat, bots[seat].choose(game.view(seat), decision))
    return game


def simulate(games: int, players: int = 4, bots: str = "heuristic", seed: int = 0,
             camps: list[str] | None = None) -> dict[str, Any]:
    """Play ``games`` games; each game draws ``players`` camps from ``camps`` (default: every
    camp of the pack) and shuffles the seats, from the stream ``(seed, "simulate")``."""
    pool = list(camps or default_pack().camps)
    r = rng.stream(seed, "simulate")
    played = {k: 0 for k in pool}
    wins = {k: 0 for k in pool}
    draws = 0
    rounds = 0
    seat_wins = [0] * players
    for _ in range(games):
        chosen = r.sample(pool, players)
        gseed = r.randrange(2**31)
        g = play_out(new_game(players=players, seed=gseed, camps=chosen),
                     [make_bot(bots, gseed, s) for s in range(players)])
        rounds += g.round
        for k in chosen:
            played[k] += 1
        if g.result["camp"] is None:
            draws += 1
        else:
            wins[g.result["camp"]] += 1
            seat_wins[g.result["winner"]] += 1
    return {
        "games": games, "players": players, "bots": bots, "seed": seed, "draws": draws,
        "mean_rounds": rounds / games if games else 0.0,
        "seat_wins": seat_wins,
        "camps": {k: {"played": played[k], "wins": wins[k],
                      "win_rate": wins[k] / played[k] if played[k] else 0.0} for k in pool},
    }
