"""Bot-vs-bot simulations: each camp's and each seat's win share with Wilson 95 % intervals
(no I/O; the CLI and benchmarks print them).

The games are planned from the master seed alone — game ``i`` gets its camps (in seat order)
and its seed from the stream ``(seed, "simulate")`` — so the figures are the same whatever
the number of worker processes.

Shares: a camp's share is its wins over the games it played; a seat's share is the wins of
the camp sitting there (turn order: seat 0 plays first) over all games. A draw (the last
masters die together, or the round limit) is a win for nobody: it counts as a game played
and not won for every camp and seat in it, so a draw can only lower the shares.
"""

from __future__ import annotations

from typing import Any, Callable

from fuyuki.core import contract, rng
from fuyuki.core.errors import DataError
from fuyuki.sim.generic import play_out
from fuyuki.sim.runner import chunk_size, chunked, cycle_collector_paused
from fuyuki.sim.stats import wilson

from fuyuki.board.agents import make_bot
from fuyuki.board.content import check_camp_ids, default_pack

Job = tuple[tuple[str, ...], int]          # the camps in seat order, the game's seed
Outcome = tuple[int | None, int]            # the winning seat (None: a draw), rounds played
BOTS = ("random", "heuristic")


def plan(games: int, players: int, seed: int, pool: list[str]) -> list[Job]:
    """Game ``i``: ``players`` camps drawn from ``pool`` in a random seat order, and a seed."""
    r = rng.stream(seed, "simulate")
    out: list[Job] = []
    for _ in range(games):
        chosen = tuple(r.sample(pool, players))
        out.append((chosen, r.randrange(2**31)))
    return out


def play_chunk(bots: str, jobs: list[Job]) -> list[Outcome]:
    out: list[Outcome] = []
    with cycle_collector_paused():
        for camps, gseed in jobs:
            n = len(camps)
            g = play_out(contract.start("board", gseed, {"players": n, "camps": list(camps)},
                                        "simulate"),
                         {s: make_bot(bots, gseed, s) for s in range(n)})
            result = g.result or {}
            winners = result["winners"]
            out.append((winners[0] if len(winners) == 1 else None, result["rounds"]))
    return out


def _play_star(args: tuple[str, list[Job]]) -> list[Outcome]:
    return play_chunk(*args)


def run(bots: str, jobs: list[Job], workers: int = 1,
        progress: Callable[[int], None] | None = None) -> list[Outcome]:
    """Every job's outcome, in job order (``workers`` > 1: that many forked processes)."""
    tick = progress or (lambda n: None)
    out: list[Outcome] = []
    if workers <= 1:
        for chunk in chunked(jobs, chunk_size(len(jobs), 1, cap=25)):
            out.extend(play_chunk(bots, chunk))
            tick(len(chunk))
        return out
    import multiprocessing as mp

    with mp.get_context("fork").Pool(workers) as pool:
        for res in pool.imap(_play_star, [(bots, c) for c in
                                          chunked(jobs, chunk_size(len(jobs), workers, cap=25))]):
            out.extend(res)
            tick(len(res))
    return out


def share(wins: int, games: int) -> dict[str, Any]:
    lo, hi = wilson(wins, games)
    return {"played": games, "wins": wins, "win_rate": wins / games if games else 0.0,
            "low": lo, "high": hi}


def check_players(players: int, pool: list[str]) -> None:
    if not 2 <= players <= len(pool):
        raise DataError("simulate", "players", f"must be 2 to {len(pool)}, not {players}")


def simulate(games: int, players: int = 4, bots: str = "heuristic", seed: int = 0,
             camps: list[str] | None = None, workers: int = 1,
             progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` games of ``players`` camps drawn from ``camps`` (default: every camp of
    the default pack) with ``bots`` on every seat; camp and seat shares with intervals."""
    pool = list(camps or default_pack().camps)
    check_camp_ids(default_pack(), pool, "simulate.camps")
    check_players(players, pool)
    if bots not in BOTS:
        raise DataError("simulate", "bots", f"must be one of {', '.join(BOTS)}, not {bots!r}")
    if games < 1:
        raise DataError("simulate", "games", f"must be at least 1, not {games}")
    jobs = plan(games, players, seed, pool)
    outcomes = run(bots, jobs, workers, progress)
    played = {k: 0 for k in pool}
    wins = {k: 0 for k in pool}
    seat_wins = [0] * players
    draws = rounds = 0
    for (chosen, _), (winner, n_rounds) in zip(jobs, outcomes):
        rounds += n_rounds
        for k in chosen:
            played[k] += 1
        if winner is None:
            draws += 1
        else:
            wins[chosen[winner]] += 1
            seat_wins[winner] += 1
    return {
        "games": games, "players": players, "bots": bots, "seed": seed, "draws": draws,
        "mean_rounds": rounds / games,
        "seats": [share(w, games) for w in seat_wins],
        "camps": {k: share(wins[k], played[k]) for k in pool},
    }
