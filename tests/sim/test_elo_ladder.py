"""benchmarks/elo_ladder.py: the Bradley–Terry fit, its intervals, and how a multi-player
ranking becomes pairwise results."""

import math

from tests.benchmark_module import load_benchmark

ladder = load_benchmark("elo_ladder")


def expected(ri: float, rj: float) -> float:
    return 1 / (1 + 10 ** ((rj - ri) / 400))


def test_the_fit_recovers_the_ratings_that_made_a_known_result():
    truth = [0.0, 100.0, 300.0]
    score = {(i, j): (1000 * expected(truth[i], truth[j]), 1000.0)
             for i in range(3) for j in range(i + 1, 3)}
    got = ladder.fit(3, score, prior=0)
    assert all(math.isclose(g, t, abs_tol=1e-6) for g, t in zip(got, truth))


def test_the_fit_of_an_even_result_is_zero_and_three_to_one_is_191_elo():
    assert ladder.fit(2, {(0, 1): (50.0, 100.0)}, prior=0) == [0.0, 0.0]
    assert math.isclose(ladder.fit(2, {(0, 1): (25.0, 100.0)}, prior=0)[1], 400 * math.log10(3))


def test_the_prior_keeps_a_clean_sweep_finite():
    r = ladder.fit(2, {(0, 1): (0.0, 200.0)})
    assert math.isfinite(r[1]) and r[1] > 600
    assert math.isclose(r[1], 400 * math.log10(200.5 / 0.5))


def test_the_bootstrap_interval_holds_the_fit_and_narrows_with_more_games():
    few = {(0, 1): [(1.0, 1)] * 15 + [(0.0, 1)] * 5}
    many = {(0, 1): [(1.0, 1)] * 150 + [(0.0, 1)] * 50}
    lo_f, hi_f = ladder.bootstrap(2, few, 300)[1]
    lo_m, hi_m = ladder.bootstrap(2, many, 300)[1]
    assert lo_f <= -150 <= hi_f and lo_m <= -185 <= hi_m
    assert hi_m - lo_m < hi_f - lo_f


def test_a_ranking_gives_one_result_per_pair_of_seats_of_different_levels():
    # seat 2 first, seats 0 and 1 share second place, seat 3 last; levels a b a b
    ranking = [[2], [0, 1], [3]]
    pts, n = ladder.seat_results(ranking, ["a", "b", "a", "b"], "a")
    # a-b pairs: (0,1) ½, (0,3) 1, (2,1) 1, (2,3) 1
    assert (pts, n) == (3.5, 4)
    assert ladder.ahead(ranking, 0, 1) == 0.5 and ladder.ahead(ranking, 3, 2) == 0.0
