"""The net bot (agents/net.py): a policy network distilled from the hard bot's search, its
weights file and its training (agents/train_net.py)."""

from __future__ import annotations

import json
import random

import pytest

np = pytest.importorskip("numpy")     # the network's arithmetic (extras sim, rl)

from fuyuki.sbb import new_game  # noqa: E402
from fuyuki.sbb.agents import bot_names, make_bot, net  # noqa: E402
from fuyuki.sbb.agents.net import NAMES, SIZE, WEIGHTS, NetBot, NetWeightsError  # noqa: E402
from fuyuki.sbb.agents.train_net import main as train_net  # noqa: E402
from fuyuki.sbb.rules import Rules  # noqa: E402
from .conftest import game_with, play_out  # noqa: E402
from .test_hard_bot import _hide_differently, _walk  # noqa: E402


@pytest.mark.parametrize("players,preset", [(4, None), (3, None), (5, None),
                                            (4, ("v1.1", None)), (4, ("final", "hf"))])
def test_the_net_bot_plays_whole_games_legally(players, preset):
    """Every answer is one of the options (``submit`` raises otherwise) and games end."""
    rules = Rules.preset(*preset) if preset else None
    for seed in range(2):
        game = new_game(players, 300 + seed, rules)
        bots = [make_bot("net", seed * 10 + i, rules) if i % 2 == 0
                else make_bot("heuristic", i, rules) for i in range(players)]
        play_out(game, bots)
        assert game.over and game.result["winners"] is not None


def test_the_net_bot_is_a_level_with_its_name():
    bot = make_bot("net", 3)
    assert isinstance(bot, NetBot) and bot.name == "net" and bot.needs_view
    assert "net" in bot_names()


def test_a_whole_game_with_a_net_bot_replays_exactly_from_its_seed():
    assert game_with(make_bot("net", 4), 21, 1) == game_with(make_bot("net", 4), 21, 1)


def test_the_net_bot_bids_the_option_of_the_best_network_score():
    game = new_game(4, 8)
    bots = [make_bot("heuristic", i) for i in range(4)]
    checked = 0

    def visit(g, seat, d):
        nonlocal checked
        if d.kind == "bid" and len(d.options) > 1:
            bot = NetBot(0)
            scores = bot.scores(g.view(seat), d.options)
            assert len(scores) == len(d.options)
            assert bot.choose(g.view(seat), d) == d.options[int(scores.argmax())]
            checked += 1

    _walk(game, bots, visit)
    assert checked >= 8


def test_each_bid_option_gets_a_row_of_the_named_features():
    game = new_game(4, 5)
    bots = [make_bot("heuristic", i) for i in range(4)]
    rows = []

    def visit(g, seat, d):
        if d.kind == "bid" and len(d.options) > 1:
            rows.append((d.options, net.bid_features(NetBot(0).rating, g.view(seat), d.options)))

    _walk(game, bots, visit)
    assert rows
    for options, r in rows:
        assert len(r) == len(options) and all(len(row) == SIZE == len(NAMES) for row in r)


def test_the_net_bot_reads_nothing_but_its_own_view():
    """Two games that differ only in other seats' hidden cards: the net bot decides the
    same, at every kind of decision."""
    compared = 0
    for seed in range(3):
        game = new_game(4, seed)
        bots = [make_bot("heuristic", seed * 10 + i) for i in range(4)]
        rng = random.Random(seed)

        def visit(g, seat, d):
            nonlocal compared
            if seat != 0 or len(d.options) < 2:
                return
            twin, changed = _hide_differently(g, seat, rng)
            if not changed:
                return
            assert twin.view(seat) == g.view(seat)
            a = NetBot(5).choose(g.view(seat), d)
            b = NetBot(5).choose(twin.view(seat), twin.pending()[seat])
            assert a == b
            compared += 1

        _walk(game, bots, visit)
    assert compared >= 12


def _weights() -> dict:
    return json.loads(WEIGHTS.read_text(encoding="utf-8"))


def _write(tmp_path, data, name="w.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


@pytest.mark.parametrize("path", [WEIGHTS, *net.WEIGHTS_OF.values()],
                         ids=lambda p: p.name)
def test_the_shipped_weights_pass_their_own_check(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == net.FORMAT and data["features"] == list(NAMES)
    assert net.load(path).w1.shape == (SIZE, len(data["b1"]))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_net_bot_bids_by_the_network_of_its_games_player_count(players):
    """Three players have a network of their own (net_weights_3.json); four and five bid by
    the four-player one. The two networks differ on some bid, so the test can tell them."""
    mine = net.load(net.WEIGHTS_OF.get(players, WEIGHTS))
    other = net.load(WEIGHTS if players == 3 else net.WEIGHTS_OF[3])
    game = new_game(players, 12)
    bots = [make_bot("heuristic", i) for i in range(players)]
    told = checked = 0

    def visit(g, seat, d):
        nonlocal told, checked
        if d.kind == "bid" and len(d.options) > 1:
            bot = NetBot(0)
            rows = np.array(net.bid_features(bot.rating, g.view(seat), d.options))
            scores = bot.scores(g.view(seat), d.options).tolist()
            assert scores == mine.scores(rows).tolist()
            told += scores != other.scores(rows).tolist()
            checked += 1

    _walk(game, bots, visit)
    assert checked >= 6 and told == checked


@pytest.mark.parametrize("spoil,reason", [
    (lambda d: d["w1"][0].__setitem__(0, d["w1"][0][0] + 0.5), "SHA-256"),
    (lambda d: d.__setitem__("format", net.FORMAT + 1), "format"),
    (lambda d: d.__setitem__("features", d["features"][::-1]), "other features"),
    (lambda d: d.pop("w2"), "missing w2"),
], ids=["a changed number", "another format", "other features", "an array missing"])
def test_a_wrong_or_corrupt_weights_file_is_one_clear_error(tmp_path, spoil, reason):
    data = _weights()
    spoil(data)
    path = _write(tmp_path, data)
    with pytest.raises(NetWeightsError, match=reason) as e:
        NetBot(0, path=path)
    assert str(path) in str(e.value)


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", ""], ids=["not JSON", "a list", "empty"])
def test_a_weights_file_that_is_not_a_json_object_is_one_clear_error(tmp_path, text):
    with pytest.raises(NetWeightsError, match="not the net bot's weights"):
        net.load(_write(tmp_path, text))


def test_a_missing_weights_file_is_one_clear_error(tmp_path):
    with pytest.raises(NetWeightsError, match="unreadable"):
        net.load(tmp_path / "nowhere.json")


def test_a_tiny_training_run_writes_weights_the_bot_loads_and_plays_with(tmp_path, capsys):
    out = tmp_path / "net.json"
    train_net(["all", "--part", "20:2", "--part", "24:1:4", "--iterations", "8", "--epochs", "1",
               "--out", str(out)])
    report = json.loads(capsys.readouterr().out)
    assert report["bids"] > 0
    weights = json.loads(out.read_text(encoding="utf-8"))
    assert weights["recipe"]["data"] == [{"games": 2, "seed": 20, "iterations": 8},
                                         {"games": 1, "seed": 24, "iterations": 8, "players": 4}]
    bot = NetBot(1, path=out)
    game = new_game(4, 30)
    play_out(game, [bot] + [make_bot("heuristic", i) for i in range(1, 4)])
    assert game.over


def test_data_made_in_pieces_is_the_data_of_one_run(tmp_path):
    whole, a, b = tmp_path / "whole.npz", tmp_path / "a.npz", tmp_path / "b.npz"
    train_net(["data", "--games", "2", "--seed", "40", "--iterations", "6", "--out", str(whole)])
    train_net(["data", "--games", "1", "--seed", "40", "--iterations", "6", "--out", str(a)])
    train_net(["data", "--games", "1", "--seed", "41", "--iterations", "6", "--out", str(b)])
    import numpy as np
    w, pa, pb = (np.load(p) for p in (whole, a, b))
    for key in ("x", "values", "choice", "seed"):
        assert np.array_equal(w[key], np.concatenate([pa[key], pb[key]]))


def test_the_servers_strong_level_is_the_net_bot():
    from fuyuki.web.games.sbb import SbbAdapter
    assert SbbAdapter().levels()["hard"] == "net"


def test_the_datas_games_are_the_paired_benchmarks_hard_arm(tmp_path):
    """A four-player data run from a seed divisible by 4 plays the games of
    ``bot_paired.py --hero hard --seed`` that seed: its shares pair with a net arm."""
    import numpy as np
    from tests.benchmark_module import load_benchmark
    out = tmp_path / "p4.npz"
    train_net(["data", "--games", "4", "--seed", "400", "--players", "4", "--iterations", "6",
               "--out", str(out)])
    rows = load_benchmark("bot_paired")._games("hard", "heuristic", 4, 400, list(range(400, 404)),
                                               {"iterations": 6})
    assert np.load(out)["game_share"].tolist() == [r[1] for r in rows]


def test_training_can_leave_out_the_games_a_network_is_measured_on(tmp_path, capsys):
    data, out = tmp_path / "d.npz", tmp_path / "w.json"
    train_net(["data", "--games", "3", "--seed", "60", "--iterations", "6", "--out", str(data)])
    capsys.readouterr()
    train_net(["train", str(data), "--exclude", "62", "63", "--epochs", "1", "--out", str(out)])
    report = json.loads(capsys.readouterr().out)
    import numpy as np
    assert report["bids"] == int((np.load(data)["seed"] < 62).sum())


@pytest.mark.parametrize("part", ["1", "1:0", "1:5:6", "a:b"])
def test_a_bad_part_of_the_data_is_a_one_line_error(part, capsys):
    with pytest.raises(SystemExit) as e:
        train_net(["all", "--part", part, "--out", "never.json"])
    assert e.value.code == 2
    assert "SEED:GAMES[:PLAYERS]" in capsys.readouterr().err


def test_a_second_round_is_played_by_the_first_network_and_labelled_by_the_search(tmp_path, capsys):
    out = tmp_path / "net.json"
    train_net(["all", "--part", "20:2", "--apprentice-part", "30:2:4", "--iterations", "6",
               "--epochs", "1", "--out", str(out)])
    report = json.loads(capsys.readouterr().out)
    assert report["bids"] > 0
    data = json.loads(out.read_text(encoding="utf-8"))["recipe"]["data"]
    assert data[1] == {"games": 2, "seed": 30, "iterations": 6, "players": 4,
                       "apprentice": "net.json"}
    assert net.load(out).w1.shape[0] == SIZE


def test_the_crossfit_benchmark_pairs_networks_with_the_hard_arm_on_games_they_never_saw(
        tmp_path, capsys):
    from tests.benchmark_module import load_benchmark
    data, out = tmp_path / "p4.npz", tmp_path / "r.json"
    train_net(["data", "--games", "16", "--seed", "800", "--players", "4", "--iterations", "6",
               "--out", str(data)])
    load_benchmark("net_crossfit").main([str(data), "--measure", "800", "16", "--folds", "2",
                                         "--epochs", "1", "--out", str(out)])
    result = json.loads(out.read_text(encoding="utf-8"))
    import numpy as np
    assert result["per_game"]["hard"] == np.load(data)["game_share"].tolist()
    assert len(result["per_game"]["net"]) == 16 and "net - hard" in capsys.readouterr().out
