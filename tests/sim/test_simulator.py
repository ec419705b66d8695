"""The simulator: determinism across workers, rotation, fixed pairings, counting, flags,
the what-if comparison and the hidden-identity measurement."""

from pathlib import Path

import pytest

from fuyuki.core.errors import DataError
from fuyuki.sbb.cards import default_cards_path
from fuyuki.sim import SimConfig, simulate
from fuyuki.sim.aggregate import build_report
from fuyuki.sim.config import parse_bots, parse_compare, parse_fix
from fuyuki.sim.play import play_game
from fuyuki.sim.runner import plan, run_jobs
from fuyuki.sim.tally import Tally


def strong_cards(tmp_path: Path) -> str:
    """The built-in cards with アーチャー made overwhelming: its 宝具 always works, destroys
    servants and masters, and takes 8 gems from the pool."""
    text = default_cards_path().read_text("utf-8")
    at = text.index('id = "archer"')
    p = text.index("effect = ", at)
    end = text.index("\n", p)
    path = tmp_path / "strong.toml"
    path.write_text(text[:p] + 'effect = { destroy = ["servant", "master"], pool_gems = 8 }'
                    + text[end:], "utf-8")
    return str(path)


def test_workers_1_and_2_give_the_same_report():
    cfg = SimConfig(games=40, bots=("random", "heuristic", "random", "random"), seed=5,
                    gap_games=4)
    assert simulate(cfg, workers=1) == simulate(cfg, workers=2)


def test_same_seed_same_report_other_seed_other_games():
    cfg = SimConfig(games=20, seed=1)
    a = run_jobs(cfg, plan(cfg)[0])
    assert a == run_jobs(cfg, plan(cfg)[0])
    b = run_jobs(SimConfig(games=20, seed=2), plan(cfg)[0])
    assert [g["seed"] for g in a] != [g["seed"] for g in b]


def test_players_rotate_through_every_seat_from_the_first_parent():
    cfg = SimConfig(games=12, players=4, fixed=((0, "sakura", "gilgamesh"),), seed=3)
    games = run_jobs(cfg, plan(cfg)[0])
    offsets = {}
    for g in games:
        for seat in g["seats"]:
            offsets.setdefault(seat["player"], []).append(seat["offset"])
    for player, offs in offsets.items():
        assert sorted(offs) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3], player
    for g in games:
        fixed = [s for s in g["seats"] if s["player"] == 0]
        assert (fixed[0]["master"], fixed[0]["servant"]) == ("sakura", "gilgamesh")


def test_summary_matches_the_game_it_describes():
    cfg = SimConfig(games=3, bots=("heuristic",), seed=9)
    summary = play_game(cfg, 2)
    # replay the same game through the hook and check the summary's facts
    from fuyuki.sbb import setup_overrides as so
    from fuyuki.sim.play import make_agent, seats_of
    from fuyuki.core.rng import derive_seeds
    g = so.start(4, summary["seed"], cfg.rules())
    seat_of = seats_of(4, g.view(None)["parent"], 2)
    so.deal(g, {}, "draft")
    bots = [None] * 4
    for k, bot_seed in enumerate(derive_seeds(summary["seed"], "bots", 4)):
        bots[seat_of[k]] = make_agent("heuristic", bot_seed, cfg.rules())
    while not g.over:
        for seat, d in g.pending().items():
            g.submit(seat, bots[seat].choose(g.view(seat), d))
    assert summary["rounds"] == g.result["rounds"]
    assert summary["battles"] == sum(e.kind == "battle" for e in g.events)
    winners = [s["player"] for s in summary["seats"] if s["win"]]
    assert winners == ([] if g.result["draw"] else [seat_of.index(g.result["winners"][0])])
    assert [s["gems"] for s in summary["seats"]] == g.result["gems"]


def fake_game(i, rounds, winner, pairs, parent=0, draw=False, losses=()):
    seats = []
    for seat, (m, s) in enumerate(pairs):
        seats.append({"player": seat, "bot": "random", "offset": (seat - parent) % len(pairs),
                      "master": m, "servant": s, "win": (not draw and seat == winner),
                      "shared": False, "gems": 0, "reveal": 1 if seat == 0 else None,
                      "dark_with": None})
    return {"i": i, "seed": i, "parent": parent, "rounds": rounds, "reason": "victory",
            "draw": draw, "seats": seats, "battles": 2, "kinds": {"case1": 1},
            "abilities": {"luck": 1}, "losses": [list(x) for x in losses]}


def test_report_numbers_match_a_hand_checked_case():
    # three games of two players; hand-counted below
    pairs = [("rin", "saber"), ("sakura", "gilgamesh")]
    games = [
        fake_game(0, 4, 1, pairs, losses=[("np:gilgamesh", "servant", 1),
                                           ("np:gilgamesh", "master", 1)]),
        fake_game(1, 6, 1, pairs, parent=1),
        fake_game(2, 11, None, pairs, draw=True),
        fake_game(3, 5, 0, [("rin", "gilgamesh"), ("sakura", "saber")]),
    ]
    cfg = SimConfig(games=4, players=2, seconds_per_round=90)
    report = build_report(cfg, Tally.of(games), [])
    assert report["draws"] == 1 and report["draw_rate"] == 0.25
    assert report["fair_share"] == pytest.approx(3 / 8)      # 3 decided games / (4 games x 2)
    m = {r["id"]: r for r in report["masters"]}
    assert (m["sakura"]["games"], m["sakura"]["wins"]) == (4, 2)
    assert (m["rin"]["games"], m["rin"]["wins"]) == (4, 1)
    s = {r["id"]: r for r in report["servants"]}
    assert (s["gilgamesh"]["games"], s["gilgamesh"]["wins"]) == (4, 3)
    assert s["gilgamesh"]["lo"] == pytest.approx(0.3006, abs=1e-4)   # Wilson 3/4
    p = {r["id"]: r for r in report["pairs"]}
    assert (p["sakura+gilgamesh"]["games"], p["sakura+gilgamesh"]["wins"]) == (3, 2)
    assert (p["rin+gilgamesh"]["games"], p["rin+gilgamesh"]["wins"]) == (1, 1)
    off = {r["id"]: r for r in report["offsets"]}
    # seat 1 wins game 0 (offset 1) and game 1 (parent 1: offset 0); seat 0 wins game 3
    assert (off[0]["wins"], off[1]["wins"]) == (2, 1)
    ln = report["length"]
    assert ln["mean"] == 6.5 and ln["median"] == 5.5 and ln["p90"] == pytest.approx(9.5)
    assert ln["minutes_mean"] == pytest.approx(6.5 * 1.5)
    assert ln["histogram"] == {"4": 1, "5": 1, "6": 1, "11": 1}
    assert report["battles"]["per_game"] == 2
    assert report["losses"] == [{"cause": "np:gilgamesh", "servants": 1, "masters": 1,
                                 "per_game": 0.5}]
    rv = {r["id"]: r for r in report["hidden"]["reveal"]}
    assert (rv[1]["games"], rv[1]["wins"]) == (4, 1) and (rv["never"]["wins"]) == 2


def test_an_overwhelming_servant_is_flagged_high(tmp_path):
    cfg = SimConfig(games=400, cards=strong_cards(tmp_path), assign="random", seed=1)
    report = simulate(cfg)
    s = {r["id"]: r for r in report["servants"]}
    assert s["archer"]["flag"] == "high"
    assert s["archer"]["lo"] > report["fair_share"]
    assert report["servants"][0]["id"] == "archer"
    plain = simulate(SimConfig(games=400, assign="random", seed=1))
    assert {r["id"]: r for r in plain["servants"]}["archer"]["flag"] != "high"


def test_the_comparison_finds_the_change_and_its_significance(tmp_path):
    cfg = SimConfig(games=400, assign="random", seed=1)
    other = parse_compare(strong_cards(tmp_path), cfg)
    report = simulate(cfg, compare=other)
    cmp = report["compare"]
    archer = next(r for r in cmp["servants"] if r["id"] == "archer")
    assert archer["diff"] > 0.1 and archer["significant"] and archer["p"] < 0.05
    base = {r["id"]: r for r in report["servants"]}
    assert archer["base_rate"] == base["archer"]["rate"]
    assert cmp["servants"][0]["id"] == "archer"      # the most significant change first


def test_comparing_a_run_with_itself_changes_nothing():
    cfg = SimConfig(games=30, seed=4)
    cmp = simulate(cfg, compare=parse_compare("edition=final", cfg))["compare"]
    assert cmp["significant"] == 0
    assert all(r["diff"] == 0 for r in cmp["masters"])


def test_the_hidden_identity_gap_pairs_plain_and_full_state_games():
    cfg = SimConfig(games=0, bots=("heuristic",), gap_games=6, seed=2)
    main, gap = plan(cfg)
    assert main == [] and len(gap) == 12
    assert gap[0][1] == ("heuristic",) * 4
    assert gap[1][1][0] == "heuristic-full-state" and gap[0][2] == gap[1][2]
    report = simulate(cfg)
    g = report["hidden"]["gap"]
    assert g["games"] == 6 and g["gap"] == pytest.approx(g["full_rate"] - g["plain_rate"])


def test_the_full_state_bot_is_never_an_opponent():
    from fuyuki.sbb.agents import bot_names
    assert "heuristic-full-state" not in bot_names()
    with pytest.raises(DataError):
        SimConfig(bots=("heuristic-full-state",))


def test_cli_values_are_parsed_or_refused_clearly():
    assert parse_bots("heuristic", 3) == ("heuristic",) * 3
    assert parse_bots("random,heuristic,random", 3) == ("random", "heuristic", "random")
    assert parse_fix(["0=sakura+gilgamesh", "2=zouken+avenger"]) == (
        (0, "sakura", "gilgamesh"), (2, "zouken", "avenger"))
    for bad in (["sakura+gilgamesh"], ["0=sakura"], ["x=a+b"]):
        with pytest.raises(DataError):
            parse_fix(bad)
    with pytest.raises(DataError):
        parse_fix(["0=a+b", "0=c+d"])
    with pytest.raises(DataError):
        SimConfig(bots=("random", "random"), players=4)
    with pytest.raises(DataError):
        SimConfig(fixed=((5, "rin", "saber"),))
    with pytest.raises(DataError):
        parse_compare("nonsense", SimConfig())
    cfg, label = parse_compare("edition=final,option=tie_dice", SimConfig())
    assert cfg.options == ("tie_dice",) and label == "edition=final,option=tie_dice"


def test_the_full_state_view_shows_every_identity_and_changes_some_bids():
    from fuyuki.sbb import setup_overrides as so
    from fuyuki.sbb.agents.heuristic import HeuristicBot
    from fuyuki.sim.analysis import FullStateHeuristicBot, full_view
    differ = 0
    for seed in range(15):
        g = so.new_game(4, seed, assign="random")
        plain, full = HeuristicBot(1), FullStateHeuristicBot(1)
        while not g.over:
            for seat, d in g.pending().items():
                v = full_view(g, seat)
                if d.kind == "bid":
                    assert all(p["master"] and p["servant"] for p in v["seats"])
                    hidden = g.view(seat)
                    assert any(p["master"] is None for p in hidden["seats"]) or g.s.round > 1
                    differ += plain.choose(hidden, d) != full.choose(v, d)
                g.submit(seat, plain.choose(g.view(seat), d))
    assert differ > 0


def test_dark_sakura_is_counted_with_the_servant_she_draws_after_darkening():
    from fuyuki.sbb import setup_overrides as so
    from fuyuki.sim.play import GameFacts
    found = 0
    for seed in range(60):
        g = so.new_game(4, seed, fixed={0: ("sakura", "saber")}, assign="random")
        from fuyuki.sbb.agents.random_bot import RandomBot
        bots = [RandomBot(seed + i) for i in range(4)]
        while not g.over:
            for seat, d in g.pending().items():
                g.submit(seat, bots[seat].choose(None, d))
        summary = GameFacts(g, [0, 1, 2, 3], ("random",) * 4, 0, seed).summary()
        kinds = [(e.kind, e.data.get("seat")) for e in g.events]
        if ("darken", 0) not in kinds:
            assert summary["seats"][0]["dark_with"] is None
            continue
        found += 1
        after = kinds.index(("darken", 0))
        new = next(e for e in g.events[after:] if e.kind == "new_servant" and e.data["seat"] == 0)
        assert summary["seats"][0]["dark_with"] == new.data["card"]
        if found == 3:
            break
    assert found == 3


def test_games_make_no_reference_cycles_so_the_collector_may_pause():
    """play_chunk pauses the cycle collector: that is only free if games leave no cycles."""
    import gc

    from fuyuki.sim.runner import play_chunk
    for bots in ("random", "heuristic"):
        cfg = SimConfig(games=0, players=4, bots=(bots,), seed=3)
        gc.collect()
        gc.disable()
        try:
            play_chunk(cfg, [("game", None, i) for i in range(30)])
            assert gc.collect() == 0, bots
        finally:
            gc.enable()


def _summary_from_events(g, seat_of):
    """What GameFacts counts, read the plain way: from the game's Event objects."""
    from fuyuki.sim.play import ABILITY_EVENTS, BATTLE_KINDS
    n = g.players
    abilities, kinds, losses, np_servant = {}, {}, {}, {}
    masters, servants, reveal = [""] * n, [""] * n, [None] * n
    darkened, dark_with = [False] * n, [None] * n
    rnd = battles = parent = 0
    for e in g.events:
        k, d = e.kind, e.data
        if k in ABILITY_EVENTS:
            abilities[k] = abilities.get(k, 0) + 1
        if k in BATTLE_KINDS:
            kinds[k] = kinds.get(k, 0) + 1
        if k == "battle":
            battles += 1
        elif k == "round":
            rnd = d["round"]
        elif k == "setup":
            parent = d["parent"]
        elif k == "draft_kept" and rnd == 0:
            (masters if d["kind"] == "master" else servants)[d["seat"]] = d["card"]
        elif k == "dealt" and rnd == 0:
            masters[d["seat"]], servants[d["seat"]] = d["master"], d["servant"]
        elif (k == "flip" and d["what"] == "master") or k == "new_master_up":
            if reveal[d["seat"]] is None:
                reveal[d["seat"]] = rnd
        elif k == "np_resolves":
            np_servant[d["seat"]] = d["servant"]
            abilities["np:" + d["servant"]] = abilities.get("np:" + d["servant"], 0) + 1
        elif k == "darken":
            darkened[d["seat"]] = True
        elif k == "new_servant" and darkened[d["seat"]] and dark_with[d["seat"]] is None:
            dark_with[d["seat"]] = d["card"]
        elif k == "lost":
            label = (f"np:{np_servant.get(d['source'], '?')}" if d["cause"] == "np"
                     else d["cause"])
            losses[(label, d["what"])] = losses.get((label, d["what"]), 0) + 1
    return {"parent": parent, "battles": battles, "kinds": kinds, "abilities": abilities,
            "losses": [[a, b, c] for (a, b), c in sorted(losses.items())],
            "masters": masters, "servants": servants, "reveal": reveal, "dark_with": dark_with}


def test_game_facts_count_what_the_events_say():
    """GameFacts reads the raw log by a table of kinds: the same counts as the Event objects
    give, over games of several editions with random and heuristic bots."""
    from fuyuki.sbb import new_game
    from fuyuki.sbb.agents import make_bot, play_out
    from fuyuki.sbb.rules import Rules
    from fuyuki.sim.play import GameFacts

    checked = set()
    for preset in ("final", "v1.0", "v1.1"):
        rules = Rules.preset(preset)
        for seed in range(40):
            g = new_game(4, seed, rules)
            bot = "heuristic" if seed % 4 == 0 else "random"
            play_out(g, [make_bot(bot, seed * 4 + k, rules) for k in range(4)])
            seat_of = [0, 1, 2, 3]
            got = GameFacts(g, seat_of, (bot,) * 4, seed, seed).summary()
            want = _summary_from_events(g, seat_of)
            for key in ("parent", "battles", "kinds", "abilities", "losses"):
                assert got[key] == want[key], (preset, seed, key)
            for field in ("master", "servant", "reveal", "dark_with"):
                plural = {"master": "masters", "servant": "servants"}.get(field, field)
                assert [p[field] for p in got["seats"]] == want[plural], (preset, seed, field)
            checked |= set(got["abilities"]) | set(got["kinds"])
    assert len(checked) >= 10   # many kinds of event were met


def test_game_facts_read_an_event_at_its_place_or_by_name_alike():
    """GameFacts reads the data of the frequent events at its place when the event carries
    its step's constant keys (as Game.log writes them), else by name: the same facts from a
    log whose keys are other tuples — equal, or the same keys in another order."""
    from fuyuki.sbb import new_game
    from fuyuki.sbb.agents import make_bot, play_out
    from fuyuki.sim.play import GameFacts

    for seed in range(25):
        g = new_game(4, seed)
        play_out(g, [make_bot("random", seed * 4 + k) for k in range(4)])
        seat_of = [1, 2, 3, 0]
        log = g.s.log
        # the events of a kind carry one keys tuple, their step's constant
        for kind in ("draft_kept", "round"):
            assert len({id(e[2]) for e in log if e[0] == kind}) == 1
        want = GameFacts(g, seat_of, ("random",) * 4, seed, seed).summary()
        for keys_of in (lambda keys: tuple(list(keys)), lambda keys: keys[::-1]):
            other = []
            for e in log:
                if e[2] is None:
                    other.append(e)
                elif keys_of(e[2]) == e[2]:
                    other.append((e[0], e[1], keys_of(e[2]), *e[3:]))
                else:   # the keys reversed, and their values with them
                    other.append((e[0], e[1], keys_of(e[2]), *reversed(e[3:])))
            assert all(o[2] is not e[2] for o, e in zip(other, log) if e[2] is not None)
            g.s.log = other
            assert GameFacts(g, seat_of, ("random",) * 4, seed, seed).summary() == want, seed
            g.s.log = log


def test_a_games_seeds_made_ahead_play_the_same_game():
    """The workers hash a chunk's seeds before playing it (play.game_seeds): the game is the
    one play_facts makes from its index alone; and the engine's stream given to the setup
    hook is the one the game plays with."""
    from fuyuki.sbb import setup_overrides
    from fuyuki.sbb.game import game_stream
    from fuyuki.sim.play import game_seeds, play_facts

    cfg = SimConfig(games=0, players=4, bots=("random",), seed=3)
    for i in range(6):
        ahead = play_facts(cfg, i, seeds=game_seeds(cfg, i)).summary()
        assert ahead == play_facts(cfg, i).summary()
    own = setup_overrides.start(4, 5, quiet=True)
    other = setup_overrides.start(4, 5, quiet=True, rng_stream=game_stream(6))
    same = setup_overrides.start(4, 5, quiet=True, rng_stream=game_stream(5))
    assert own.s.adeck == same.s.adeck and own.s.adeck != other.s.adeck
    # game_seeds hashes the seed's digits, written out once: the seeds of the int seed
    from fuyuki.core.rng import derive_seeds

    seed, bots, rng = game_seeds(cfg, 4)
    assert bots == derive_seeds(seed, "bots", 4)
    assert rng.getstate() == game_stream(seed).getstate() == game_stream(str(seed)).getstate()
