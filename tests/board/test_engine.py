"""The engine API: random full games, replay, clone, illegal moves, secrets, data errors."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from rich.cells import cell_len
from hypothesis import given, settings
from hypothesis import strategies as st

from fuyuki.core import contract
from fuyuki import board
from fuyuki.board.agents import HeuristicBot, RandomBot
from fuyuki.board.content import default_dir, load_pack
from fuyuki.board.simulate import simulate
from fuyuki.sim.generic import play_out
from fuyuki.core.errors import DataError, IllegalAction, ScenarioError
from fuyuki.core.record import Record
from fuyuki.sim.stats import wilson


def _random_game(seed: int, players: int, check=None) -> board.Game:
    g = board.new_game(players=players, seed=seed)
    bots = [RandomBot(seed, s) for s in range(players)]
    while not g.over:
        pend = g.pending()
        assert len(pend) == 1
        (seat, d), = pend.items()
        assert not g.instant, "no decision inside 《刹那の時間》"
        if check:
            check(g)
        g.submit(seat, bots[seat].choose(g.view(seat), d))
    assert g.pending() == {}
    return g


def _invariants(g: board.Game) -> None:
    for c in g.chars.values():
        assert c.hp <= c.max_hp
        if not c.alive:
            assert c.hp <= 0 or c.role == "servant"
    for camp in g.camps:
        assert len(camp.plotted) <= camp.ch
        if camp.out:
            assert not camp.hand and not camp.plotted
    cards = g.deck + g.discard + [k for c in g.camps for k in c.hand + c.plotted]
    assert sorted(cards) == sorted(f"k{i:02d}" for i in range(len(g.pack.deck)))


def test_random_full_games_run_clean() -> None:
    reasons = set()
    for seed in range(240):
        g = _random_game(seed, 2 + seed % 4)
        _invariants(g)
        assert g.result["reason"] in ("last_master", "all_masters_dead", "round_limit")
        reasons.add(g.result["reason"])
    assert "last_master" in reasons


def test_no_spell_inside_instant_and_invariants_each_step() -> None:
    for seed in range(6):
        g = _random_game(1000 + seed, 4, check=_invariants)
        depth = 0
        for e in g.events:
            if e.kind == "instant_begin":
                depth += 1
            elif e.kind == "instant_end":
                depth -= 1
            elif e.kind == "spell":
                assert depth == 0, "令呪 used in 《刹那の時間》"


def test_heuristic_games_finish() -> None:
    for seed in range(20):
        g = board.new_game(players=4, seed=seed)
        play_out(g, [HeuristicBot(seed, s) for s in range(4)])
        assert g.over


def test_record_replays_exactly(tmp_path: Path) -> None:
    g = _random_game(7, 4)
    path = tmp_path / "game.json"
    g.record.save(path)
    r = contract.replay(Record.load(path))
    assert r.result == g.result
    assert [e.to_json() for e in r.events] == [e.to_json() for e in g.events]


def test_seed_decides_the_game() -> None:
    a, b = _random_game(11, 3), _random_game(11, 3)
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    c = _random_game(12, 3)
    assert [e.to_json() for e in a.events] != [e.to_json() for e in c.events]


def test_clone_is_independent() -> None:
    g = board.new_game(players=3, seed=5)
    bots = [RandomBot(5, s) for s in range(3)]
    for _ in range(30):
        (seat, d), = g.pending().items()
        g.submit(seat, bots[seat].choose(g.view(seat), d))
    c = g.clone()
    assert c.view(None) == g.view(None)
    before = json.dumps(g.view(None), ensure_ascii=False)
    (seat, d), = c.pending().items()
    c.submit(seat, d.options[-1])
    assert json.dumps(g.view(None), ensure_ascii=False) == before


def test_illegal_moves_change_nothing() -> None:
    g = board.new_game(players=2, seed=3)
    (seat, d), = g.pending().items()
    before = (len(g.events), json.dumps(g.view(seat), ensure_ascii=False))
    with pytest.raises(IllegalAction) as e1:
        g.submit(1 - seat, d.options[0])
    assert e1.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as e2:
        g.submit(seat, "no-such-option")
    assert e2.value.code == "not_an_option"
    assert (len(g.events), json.dumps(g.view(seat), ensure_ascii=False)) == before
    play_out(g, [RandomBot(3, s) for s in range(2)])
    with pytest.raises(IllegalAction) as e3:
        g.submit(0, "pass")
    assert e3.value.code == "game_over"


def _secrets_hidden(g: board.Game) -> None:
    for viewer in [None, *range(g.n)]:
        text = json.dumps(g.view(viewer, since=0), ensure_ascii=False)
        for camp in g.camps:
            if camp.seat == viewer:
                continue
            for kid in camp.hand + camp.plotted:
                assert f'"{kid}"' not in text, (viewer, camp.seat, kid)


def test_views_never_hold_other_seats_hands_or_plotted_cards() -> None:
    for seed in range(3):
        _random_game(2000 + seed, 3, check=_secrets_hidden)


def test_own_view_shows_own_hand_and_plotted() -> None:
    g = board.new_game(players=2, seed=0, setup={"start_hand": 0, "clear_deck": True,
                       "camps": {"0": {"hand": ["dash"], "plotted": ["supply"]}}})
    v = g.view(0)
    assert [h["card"] for h in v["hand"]] == ["dash"]
    assert [h["card"] for h in v["plotted"]] == ["supply"]
    assert "hand" not in g.view(None)
    v1 = g.view(1)
    assert v1["camps"][0]["hand_count"] == 1 and v1["camps"][0]["plotted_count"] == 1


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 5))
def test_property_random_games_keep_invariants(seed: int, players: int) -> None:
    g = _random_game(seed, players)
    _invariants(g)
    alive_camps = [c for c in g.camps if not c.out]
    if g.result["reason"] == "last_master":
        assert len(alive_camps) == 1 and g.result["winner"] == alive_camps[0].seat
        assert g.chars[alive_camps[0].master].alive


def test_bad_pack_names_file_and_key(tmp_path: Path) -> None:
    d = tmp_path / "pack"
    shutil.copytree(default_dir(), d)
    camps = (d / "camps.toml").read_text("utf-8")
    (d / "camps.toml").write_text(camps.replace('start = "衛宮邸"', 'start = "ロンドン"'), "utf-8")
    with pytest.raises(DataError) as e:
        load_pack(d)
    assert e.value.file.endswith("camps.toml") and e.value.key == "camps.saber.start"
    shutil.copy(default_dir() / "camps.toml", d / "camps.toml")
    cards = (d / "cards.toml").read_text("utf-8")
    (d / "cards.toml").write_text(cards.replace('effect = "heal"', 'effect = "explode"'), "utf-8")
    with pytest.raises(DataError) as e2:
        load_pack(d)
    assert e2.value.key == "cards.healing.effect"


@pytest.mark.parametrize("line,key", [('"ロンドン" = "ロン"', "short.ロンドン"),
                                      ('"港" = " "', "short.港")])
def test_bad_short_area_name_is_refused(tmp_path: Path, line: str, key: str) -> None:
    d = tmp_path / "pack"
    shutil.copytree(default_dir(), d)
    with open(d / "map.toml", "a", encoding="utf-8") as f:
        f.write(line + "\n")
    with pytest.raises(DataError) as e:
        load_pack(d)
    assert e.value.file.endswith("map.toml") and e.value.key == key


def test_short_area_names_are_what_the_terminal_map_shows() -> None:
    pack = load_pack()
    assert pack.short_area("アインツベルンの森") != pack.short_area("アインツベルン城")
    assert pack.short_area("衛宮邸") == "衛宮邸"
    assert all(cell_len(pack.short_area(a)) <= 14 for row in pack.areas for a in row)


def test_unknown_skill_is_refused(tmp_path: Path) -> None:
    d = tmp_path / "pack"
    shutil.copytree(default_dir(), d)
    camps = (d / "camps.toml").read_text("utf-8")
    (d / "camps.toml").write_text(camps.replace("skills = { revive = 1 }", "skills = { flight = 1 }"),
                                  "utf-8")
    with pytest.raises(DataError) as e:
        load_pack(d)
    assert e.value.key == "chars.berserker.skills.flight"


def test_custom_pack_plays(tmp_path: Path) -> None:
    d = tmp_path / "pack"
    shutil.copytree(default_dir(), d)
    g = board.new_game(players=2, seed=1, pack=str(d))
    play_out(g, [RandomBot(1, s) for s in range(2)])
    assert contract.replay(g.record).result == g.result


def test_bad_config_is_refused() -> None:
    with pytest.raises(DataError):
        board.new_game(players=9)
    with pytest.raises(DataError):
        board.new_game(players=2, camps=["saber", "lancer"])
    with pytest.raises(DataError):
        board.new_game(players=2, camps=["saber", "saber"])
    with pytest.raises(ScenarioError):
        board.new_game(players=2, setup={"weather": "rain"})
    with pytest.raises(ScenarioError):
        board.new_game(players=2, setup={"chars": {"saber": {"pos": "ロンドン"}}})


def test_empty_deck_and_discard_draw_nothing() -> None:
    g = board.new_game(players=2, seed=0, setup={"start_hand": 0, "clear_deck": True,
                                                  "camps": {"0": {"spells": 0}}})
    kinds = [(e.kind, e.data.get("count")) for e in g.events]
    assert kinds[kinds.index(("turn", None)) + 1] == ("draw", 0)
    assert g.camps[0].hand == []


def test_four_camps_and_caster_available() -> None:
    pack = load_pack()
    assert len(pack.camps) >= 4
    for camp in pack.camps.values():
        m = pack.chars[camp.master]
        assert m.ch > 0 and m.hand_limit > 0
        for s in camp.servants:
            assert pack.chars[s].hp > 0 and pack.chars[s].abilities
    g = board.new_game(players=5, seed=2)
    assert {c.id for c in g.camps} == set(pack.camps)


def test_simulate_counts_every_game() -> None:
    res = simulate(8, players=3, bots="random", seed=1)
    assert sum(v["played"] for v in res["camps"].values()) == 24
    assert sum(v["wins"] for v in res["camps"].values()) + res["draws"] == 8
    assert sum(s["wins"] for s in res["seats"]) + res["draws"] == 8
    for row in [*res["camps"].values(), *res["seats"]]:
        assert row["low"] <= row["win_rate"] <= row["high"]
        assert (row["low"], row["high"]) == wilson(row["wins"], row["played"])


def test_simulate_figures_do_not_depend_on_workers() -> None:
    assert simulate(4, players=4, seed=2, workers=2) == simulate(4, players=4, seed=2)


def test_random_bot_only_picks_options() -> None:
    g = board.new_game(players=2, seed=0)
    bot = RandomBot(0, 0)
    rng = random.Random(0)
    for _ in range(50):
        if g.over:
            break
        (seat, d), = g.pending().items()
        choice = bot.choose(g.view(seat), d) if rng.random() < 2 else None
        assert choice in d.options
        g.submit(seat, choice)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 300), bad=st.sampled_from(
    ["nonsense", "fight:nobody", "k99", "move:north", 17, "offset:excalibur"]))
def test_property_illegal_submission_changes_nothing(seed: int, steps: int, bad) -> None:
    g = board.new_game(players=3, seed=seed)
    bots = [RandomBot(seed, s) for s in range(3)]
    for _ in range(steps):
        if g.over:
            return
        (seat, d), = g.pending().items()
        g.submit(seat, bots[seat].choose(g.view(seat), d))
    if g.over:
        return
    (seat, d), = g.pending().items()
    if bad in d.options:
        return
    before = [json.dumps(g.view(s, since=0), ensure_ascii=False) for s in (None, 0, 1, 2)]
    n = len(g.submissions)
    with pytest.raises(IllegalAction):
        g.submit(seat, bad)
    assert [json.dumps(g.view(s, since=0), ensure_ascii=False) for s in (None, 0, 1, 2)] == before
    assert len(g.submissions) == n


def test_record_with_an_illegal_move_is_refused_clearly() -> None:
    g = _random_game(5, 2)
    rec = g.record
    rec.submissions[3] = (rec.submissions[3][0], "no-such-move")
    with pytest.raises(DataError) as e:
        contract.replay(rec)
    assert e.value.key == "submissions[3]"
    with pytest.raises(DataError) as e:
        contract.replay(Record("no-such-game", 1, {}, []))
    assert e.value.key == "game"
