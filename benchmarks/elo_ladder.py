"""One Elo ladder per game: every pair of bot levels plays ``--games`` games, and Elo ratings
are fitted to the pairwise results.

Games, seats rotated so that no level keeps a seat:

- ``sbb`` (Servant Big Battle, 4 players) and ``board`` (the board game, 4 camps): a game of
  levels A and B seats them A, B, A, B, shifted by one seat each game. The game's ranking
  (best place first) gives four results, one per pair of seats of different levels: who
  finished ahead, ½ each when they share a place. Same-level seats give none.
- ``war`` (the Grail War RPG, the sample roster's two factions of seven pairs): a war is one
  result — one level drives a faction, the other the other, the sides swapped every other
  war (same seed): the faction left wins, at the turn limit the faction with more surviving
  pairs, ½ when even (benchmarks/rpg_paired.py's score).

Fit: Bradley–Terry by maximum likelihood (minorisation–maximisation) on the Elo scale
(``400 · log10`` of the strength ratio), the first level at 0; each pair of levels carries
one virtual game split ½–½ (a prior that keeps a 200–0 sweep finite). Intervals: 95 %
percentile bootstrap, the games of each pair resampled with replacement (``--boot`` fits).

    nice -n 19 .venv/bin/python benchmarks/elo_ladder.py --game sbb --games 200 --iterations 300
    nice -n 19 .venv/bin/python benchmarks/elo_ladder.py --game board --games 200
    nice -n 19 .venv/bin/python benchmarks/elo_ladder.py --game war --games 200

``--levels`` chooses the levels (by default every level the game offers; SBB's ``hard`` at
``--iterations`` iterations a decision, the board's ``hard`` at ``--board-iterations`` worlds a
decision: fixed budgets, so a seed replays the same games); ``--cap LEVEL=N`` plays fewer games in the pairs
that include a slow level.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from typing import Callable

#: a game's results: (points of level a, comparisons) per game
Results = list[tuple[float, int]]


# -- the fit ------------------------------------------------------------------------------------
def fit(n: int, score: dict[tuple[int, int], tuple[float, float]], prior: float = 1.0,
        rounds: int = 2000) -> list[float]:
    """Elo ratings of ``n`` levels, level 0 at 0, from ``score[i, j] = (points of i against j,
    comparisons)`` given for ``i < j``: the Bradley–Terry maximum-likelihood strengths,
    ``prior`` virtual comparisons split evenly added to every pair that met."""
    pts = [[0.0] * n for _ in range(n)]
    games = [[0.0] * n for _ in range(n)]
    for (i, j), (p, g) in score.items():
        pts[i][j] += p + prior / 2
        pts[j][i] += g - p + prior / 2
        games[i][j] += g + prior
        games[j][i] += g + prior
    w = [1.0] * n
    for _ in range(rounds):
        new = []
        for i in range(n):
            won = sum(pts[i])
            den = sum(games[i][j] / (w[i] + w[j]) for j in range(n) if j != i and games[i][j])
            new.append(won / den if den and won > 0 else w[i])
        done = max(abs(math.log(a / b)) for a, b in zip(new, w)) < 1e-12
        w = [x / new[0] for x in new]
        if done:
            break
    return [400 * math.log10(x) for x in w]


def bootstrap(n: int, results: dict[tuple[int, int], Results], fits: int, seed: int = 0,
              prior: float = 1.0) -> list[tuple[float, float]]:
    """Each level's 95 % interval: ``fits`` refits on the games of each pair resampled."""
    rand = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(n)]
    for _ in range(fits):
        score = {}
        for key, games in results.items():
            pick = [games[rand.randrange(len(games))] for _ in games]
            score[key] = (sum(p for p, _ in pick), float(sum(c for _, c in pick)))
        for i, r in enumerate(fit(n, score, prior)):
            samples[i].append(r)
    out = []
    for s in samples:
        s.sort()
        out.append((s[int(0.025 * (len(s) - 1))], s[int(math.ceil(0.975 * (len(s) - 1)))]))
    return out


def ahead(ranking: list[list[int]], s: int, t: int) -> float:
    """1 when seat ``s`` finished ahead of ``t`` in ``ranking`` (best place first), ½ level."""
    place = {seat: k for k, p in enumerate(ranking) for seat in p}
    return 1.0 if place[s] < place[t] else 0.0 if place[s] > place[t] else 0.5


def seat_results(ranking: list[list[int]], levels: list[str], a: str) -> tuple[float, int]:
    """Level ``a``'s points over every pair of seats of different levels."""
    pts, n = 0.0, 0
    for s, t in itertools.combinations(range(len(levels)), 2):
        if levels[s] != levels[t]:
            x = ahead(ranking, s, t)
            pts += x if levels[s] == a else 1 - x
            n += 1
    return pts, n


# -- the games ----------------------------------------------------------------------------------
def sbb_levels(args) -> list[str]:
    from fuyuki.sbb.agents import bot_names
    names = ["random", "heuristic", "hard"]
    try:
        import fuyuki.sbb.agents.net  # noqa: F401
        if "net" in bot_names():
            names.append("net")
    except ImportError:
        pass
    return names


def sbb_game(args) -> Callable[[str, str, int], tuple[float, int]]:
    from fuyuki import sbb
    from fuyuki.sbb.agents import make_bot

    def one(a: str, b: str, gi: int) -> tuple[float, int]:
        seed = args.seed + gi
        levels = [a if (k + gi) % 2 == 0 else b for k in range(4)]
        game = sbb.new_game(4, seed, quiet=True)
        bots = [make_bot(lv, seed * 10 + k, iterations=args.iterations if lv == "hard" else None)
                for k, lv in enumerate(levels)]
        while not game.over:
            for s, d in game.pending().items():
                game.submit(s, bots[s].choose(game.view(s) if bots[s].needs_view else None, d))
        return seat_results(game.result["ranking"], levels, a)
    return one


def board_levels(args) -> list[str]:
    from fuyuki.board.agents import make_bot
    names = ["random", "heuristic"]
    try:
        make_bot("hard", 0, 0)
        names.append("hard")
    except (ValueError, ImportError):
        pass
    return names


def board_game(args) -> Callable[[str, str, int], tuple[float, int]]:
    from fuyuki import board
    from fuyuki.board.agents import make_bot

    def one(a: str, b: str, gi: int) -> tuple[float, int]:
        seed = args.seed + gi
        levels = [a if (k + gi) % 2 == 0 else b for k in range(4)]
        g = board.new_game(players=4, seed=seed)
        bots = [make_bot(lv, seed, s, **({"iterations": args.board_iterations} if lv == "hard" else {}))
                for s, lv in enumerate(levels)]
        while not g.over:
            for seat, d in g.pending().items():
                g.submit(seat, bots[seat].choose(g.view(seat), d))
        return seat_results(g.result["ranking"], levels, a)
    return one


def war_levels(args) -> list[str]:
    from fuyuki.rpg.agents import LEVELS
    return list(LEVELS)


def war_game(args) -> Callable[[str, str, int], tuple[float, int]]:
    from fuyuki.rpg.roster import load_roster
    from fuyuki.rpg.rules import default_rules
    from rpg_paired import faction_score, play
    rules = default_rules()
    roster = load_roster(None, rules)
    first, second = list(roster.factions)[:2]

    def one(a: str, b: str, gi: int) -> tuple[float, int]:
        ours = first if gi % 2 == 0 else second
        levels = [a if p.faction == ours else b for p in roster.pairs]
        war = play(roster, rules, args.seed + gi // 2, levels)
        return faction_score(war, ours), 1
    return one


GAMES = {"sbb": (sbb_levels, sbb_game), "board": (board_levels, board_game), "war": (war_levels, war_game)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True, choices=list(GAMES))
    ap.add_argument("--games", type=int, default=200, help="games a pair of levels")
    ap.add_argument("--levels", nargs="+", default=None, help="the levels (default: all)")
    ap.add_argument("--cap", action="append", default=[], metavar="LEVEL=N",
                    help="at most N games in the pairs including LEVEL")
    ap.add_argument("--iterations", type=int, default=300, help="SBB hard: iterations a decision")
    ap.add_argument("--board-iterations", type=int, default=16, help="board hard: worlds a decision")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--boot", type=int, default=1000, help="bootstrap fits for the intervals")
    args = ap.parse_args(argv)
    levels_of, game_of = GAMES[args.game]
    levels = args.levels or levels_of(args)
    caps = {}
    for c in args.cap:
        name, _, n = c.partition("=")
        if not n.isdigit():
            ap.error(f"--cap {c!r}: write LEVEL=N")
        caps[name] = int(n)
    one = game_of(args)
    results: dict[tuple[int, int], Results] = {}
    rows = []
    start = time.time()
    for (i, a), (j, b) in itertools.combinations(enumerate(levels), 2):
        n = min([args.games] + [caps[x] for x in (a, b) if x in caps])
        t0 = time.time()
        games = [one(a, b, gi) for gi in range(n)]
        results[i, j] = games
        pts, cmp = sum(p for p, _ in games), sum(c for _, c in games)
        rows.append((a, b, n, pts / cmp, time.time() - t0))
        print(f"{a:>10s} vs {b:<10s}: {n} games, {a} scores {pts / cmp:.3f} ({time.time() - t0:.0f} s)",
              flush=True)
    score = {k: (sum(p for p, _ in g), float(sum(c for _, c in g))) for k, g in results.items()}
    ratings = fit(len(levels), score)
    ci = bootstrap(len(levels), results, args.boot)
    print(f"\n{args.game}: Elo (first level at 0), 95 % bootstrap interval; {time.time() - start:.0f} s")
    print("| level | Elo | 95 % interval |\n|---|---:|---|")
    for k in sorted(range(len(levels)), key=lambda k: -ratings[k]):
        print(f"| {levels[k]} | {ratings[k]:.0f} | {ci[k][0]:.0f} to {ci[k][1]:.0f} |")
    print("\n| pair | games | score of the first |\n|---|---:|---:|")
    for a, b, n, s, _ in rows:
        print(f"| {a} – {b} | {n} | {s:.3f} |")


if __name__ == "__main__":
    main()
