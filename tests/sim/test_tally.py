"""The report's counts kept in the workers (fuyuki.sim.tally): the same counts as the games'
summaries, whatever the chunks and the number of workers."""

from fuyuki.sim import SimConfig
from fuyuki.sim.runner import count_jobs, plan, run_jobs
from fuyuki.sim.tally import NEVER, TABLES, Tally

CFG = SimConfig(games=60, players=4, bots=("random", "heuristic", "random", "random"), seed=11)


def summaries() -> list[dict]:
    return run_jobs(CFG, plan(CFG)[0])


def test_tables_count_each_seat_once_in_every_table_it_belongs_to():
    games = summaries()
    expected = {name: {} for name in TABLES}
    for g in games:
        for seat in g["seats"]:
            keys = {"masters": seat["master"], "servants": seat["servant"],
                    "pairs": f"{seat['master']}+{seat['servant']}", "offsets": seat["offset"],
                    "by_player": seat["player"], "by_bot": seat["bot"],
                    "dark_with": seat["dark_with"],
                    "reveal": NEVER if seat["reveal"] is None else seat["reveal"]}
            for name, k in keys.items():
                if k is None:
                    continue
                c = expected[name].setdefault(k, [0, 0])
                c[0] += 1
                c[1] += int(seat["win"])
    got = dict(zip(TABLES, Tally.of(games).tables()))
    assert got == expected
    assert sum(c[0] for c in got["masters"].values()) == 4 * len(games)


def test_game_counts_match_the_summaries():
    games = summaries()
    t = Tally.of(games)
    assert (t.games, t.draws) == (len(games), sum(g["draw"] for g in games))
    assert t.rounds == [g["rounds"] for g in games]
    assert t.battle_total == sum(g["battles"] for g in games)
    assert sum(t.battles.values()) == len(games)
    assert sum(t.abilities.values()) == sum(sum(g["abilities"].values()) for g in games)
    assert sum(c for by in t.losses.values() for c in by.values()) == \
        sum(c for g in games for _, _, c in g["losses"])


def test_chunks_merged_in_order_give_the_tally_of_all_games_key_order_included():
    games = summaries()
    whole = Tally.of(games)
    merged = Tally()
    for i in range(0, len(games), 7):
        merged.merge(Tally.of_state(Tally.of(games[i:i + 7]).state()))
    assert [list(x.items()) if isinstance(x, dict) else x for x in merged.state()] == \
        [list(x.items()) if isinstance(x, dict) else x for x in whole.state()]


def test_counted_in_the_workers_equals_counted_from_the_summaries():
    jobs = plan(CFG)[0]
    expected = Tally.of(run_jobs(CFG, jobs)).state()
    assert count_jobs(CFG, jobs).state() == expected
    assert count_jobs(CFG, jobs, workers=2).state() == expected
