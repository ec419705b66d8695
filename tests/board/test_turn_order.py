"""[R-7] Turn-order compensation: the seats' order in each round and the seat bonus, read from
rules.toml (docs/board.md, decision R-7)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fuyuki import board
from fuyuki.board.content import default_dir, load_pack
from fuyuki.core.errors import DataError


def _pack(tmp_path: Path, old: str, new: str) -> str:
    d = tmp_path / "pack"
    shutil.copytree(default_dir(), d)
    rules = (d / "rules.toml").read_text("utf-8")
    assert old in rules
    (d / "rules.toml").write_text(rules.replace(old, new), "utf-8")
    return str(d)


def _turns(g: board.Game, count: int) -> list[int]:
    """The seats of the first ``count`` turns, every camp ending its turn at once."""
    seats: list[int] = []
    while len(seats) < count:
        (seat, d), = g.pending().items()
        if d.kind == "part":
            g.submit(seat, "end")
        elif d.kind == "discard":
            g.submit(seat, d.options[0])
        else:
            g.submit(seat, "pass" if "pass" in d.options else d.options[0])
        seats = [e.data["seat"] for e in g.events if e.kind == "turn"]
    return seats[:count]


def _quiet(players: int, pack: str | None = None) -> board.Game:
    """A game where nobody can fight: no cards, everyone at home."""
    camps = ["saber", "archer", "rider", "berserker", "caster"][:players]
    return board.new_game(players=players, seed=1, camps=camps, pack=pack,
                          setup={"start_hand": 0, "clear_deck": True})


def test_rule_r7_snake_turn_order_reverses_every_round() -> None:
    assert load_pack().rules["turn_order"] == "snake"
    assert _turns(_quiet(4), 12) == [0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3]


def test_rule_r7_rotate_turn_order_moves_the_first_seat_on(tmp_path: Path) -> None:
    pack = _pack(tmp_path, 'turn_order = "snake"', 'turn_order = "rotate"')
    assert _turns(_quiet(3, pack), 9) == [0, 1, 2, 1, 2, 0, 2, 0, 1]


def test_rule_r7_fixed_turn_order_starts_with_seat_0(tmp_path: Path) -> None:
    pack = _pack(tmp_path, 'turn_order = "snake"', 'turn_order = "fixed"')
    assert _turns(_quiet(3, pack), 6) == [0, 1, 2, 0, 1, 2]


def test_rule_r7_seat_bonus_plots_cards_for_the_first_seats() -> None:
    bonus = load_pack().rules["seat_bonus"]["plotted"]
    g = board.new_game(players=5, seed=3, camps=["saber", "archer", "rider", "berserker", "caster"])
    for camp in g.camps:
        want = min(camp.ch, bonus[camp.seat] if camp.seat < len(bonus) else 0)
        assert len(camp.plotted) == want
        drawn = g.pack.rules["draw_per_turn"] if camp.seat == 0 else 0   # seat 0 is at its plot
        assert len(camp.hand) == g.pack.rules["start_hand"] + drawn
        mine = g.view(camp.seat)
        assert [p["id"] for p in mine["plotted"]] == camp.plotted
        other = g.view((camp.seat + 1) % 5)
        assert "plotted" not in other["camps"][camp.seat]
        assert other["camps"][camp.seat]["plotted_count"] == want
    assert bonus[0] > bonus[-1]


def test_rule_r7_seat_bonus_is_capped_by_ch(tmp_path: Path) -> None:
    pack = _pack(tmp_path, "plotted = [2, 1, 1, 0, 0]", "plotted = [9]")
    g = board.new_game(players=2, seed=1, camps=["saber", "rider"], pack=pack)
    assert len(g.camps[0].plotted) == g.camps[0].ch
    assert g.camps[1].plotted == []


def test_rule_r7_scenarios_get_no_seat_bonus() -> None:
    g = _quiet(2)
    assert all(c.plotted == [] for c in g.camps)


@pytest.mark.parametrize("old,new,key", [
    ('turn_order = "snake"', 'turn_order = "spiral"', "turn_order"),
    ("plotted = [2, 1, 1, 0, 0]", 'plotted = [2, "x"]', "seat_bonus.plotted[1]"),
    ("plotted = [2, 1, 1, 0, 0]", "cards = [1]", "seat_bonus.cards"),
])
def test_rule_r7_bad_turn_order_data_is_refused(tmp_path: Path, old: str, new: str,
                                                key: str) -> None:
    with pytest.raises(DataError) as e:
        load_pack(_pack(tmp_path, old, new))
    assert e.value.file.endswith("rules.toml") and e.value.key == key
