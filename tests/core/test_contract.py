"""The engine contract (fuyuki.core.contract, docs/contract.md): the same checks against every
registered game — Servant Big Battle, the board, the RPG war (terminal and hosted) and the
fourth test game (tests/fourth/engine.py), registered from outside the package."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import tests.fourth.engine  # noqa: F401  (registers "sealed-bid" from outside the package)
from fuyuki.core import contract
from fuyuki.core.data import package_file
from fuyuki.core.errors import DataError, IllegalAction
from fuyuki.core.outcome import check_result
from fuyuki.core.record import Record
from fuyuki.sim import generic

ROSTER = package_file("fuyuki.rpg", "data", "roster.toml").read_text("utf-8")
#: a small game of each registered game: every one registered must be here
CONFIGS: dict[str, dict[str, Any]] = {
    "sbb": {"players": 3, "edition": "final"},
    "board": {"players": 3},
    "rpg-war": {"roster_toml": ROSTER, "roster_path": "roster.toml", "seed_text": "s",
                "max_turns": 2},
    "rpg-hosted": {"secret": "ab" * 32, "turns": 1, "anka": [1], "players": [0]},
    "sealed-bid": {"players": 3, "hand": 4},
}
GAMES = sorted(CONFIGS)


def dumps(x: Any) -> str:
    return json.dumps(x, ensure_ascii=False, sort_keys=True, default=repr)


def views(g: contract.Engine) -> dict[str, str]:
    """Every role's view and events, as text."""
    return {repr(r): dumps([g.view(r), [e.to_json() for e in g.events_for(r)]])
            for r in g.roles()}


def played(game: str, seed: int, stop: int | None = None, every: int = 0,
           check=None) -> contract.Engine:
    """A game played by uniform random bots from its views (``stop``: that many decisions);
    ``check(g)`` after every ``every``-th decision."""
    g = contract.start(game, seed, CONFIGS[game], "test")
    rng = random.Random(seed)
    n = 0
    while not g.over and (stop is None or n < stop):
        pending = g.pending()
        assert pending, "not over, yet nobody is asked"
        seat = rng.choice(sorted(pending))
        g.view(seat)
        g.submit(seat, rng.choice(pending[seat].options))
        n += 1
        if check is not None and every and n % every == 0:
            check(g)
    return g


def test_every_registered_game_is_checked_here():
    assert set(contract.games()) == set(CONFIGS)


@pytest.mark.parametrize("game", GAMES)
def test_random_play_ends_with_a_result_of_the_shared_shape_and_every_role_has_a_view(game):
    def check(g):
        assert isinstance(g, contract.Engine)
        assert None in g.roles() and set(g.seats()) <= set(g.roles())
        assert g.step >= len(g.events_for(None))
        views(g)
    for seed in (1, 2):
        g = played(game, seed, every=7, check=check)
        assert g.over and g.pending() == {}
        check_result(g.result, len(g.seats()))
        check(g)


@pytest.mark.parametrize("game", GAMES)
def test_events_for_a_step_are_the_tail_of_the_role_s_events(game):
    g = played(game, 3, stop=30)
    for role in g.roles():
        every = g.events_for(role)
        step = g.step
        assert g.events_for(role, step) == []
        mid = step // 2
        tail = g.events_for(role, mid)
        assert every[len(every) - len(tail):] == tail


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_submission_changes_no_role_s_view(game):
    def check(g):
        before, subs, step = views(g), list(g.record.submissions), g.step
        pending = g.pending()
        seat = min(pending)
        idle = [s for s in g.seats() if s not in pending]
        bad = [(seat, "no-such-option"), (seat, {"x": [1]}), ("0", None), (None, 1), (99, 1)]
        bad += [(s, pending[seat].options[0]) for s in idle[:1]]
        for s, c in bad:
            with pytest.raises(IllegalAction):
                g.submit(s, c)
            assert views(g) == before and g.record.submissions == subs and g.step == step
    played(game, 4, stop=60, every=9, check=check)


@pytest.mark.parametrize("game", GAMES)
def test_a_role_the_game_does_not_have_is_refused(game):
    g = contract.start(game, 1, CONFIGS[game])
    for role in (99, -5, "nobody", 1.5):
        with pytest.raises(IllegalAction) as e:
            g.view(role)
        assert e.value.code == "no_such_role"


@pytest.mark.parametrize("game", GAMES)
def test_replay_of_the_record_gives_every_role_s_view_and_the_result_again(game):
    for stop in (25, None):
        g = played(game, 5, stop=stop)
        record = Record.from_json(json.loads(dumps(g.record.to_json())))   # as a file holds it
        again = contract.replay(record, "saved.json")
        assert views(again) == views(g)
        assert again.result == g.result and again.over == g.over


def _sbb_secret(g, seat: int) -> list[int]:
    """Swap the seat's hand for cards of the action deck, its face-down master for one of the
    master deck."""
    s = g.s
    k = min(len(s.hand[seat]), len(s.adeck))
    s.hand[seat][:k], s.adeck[:k] = s.adeck[:k], s.hand[seat][:k]
    s.hand[seat].sort()
    if s.master[seat] and not s.m_up[seat] and s.mdeck:
        s.master[seat], s.mdeck[0] = s.mdeck[0], s.master[seat]
    return [o for o in g.seats() if o != seat]


def _board_secret(g, seat: int) -> list[int]:
    """Swap the camp's hand and plotted cards for cards of the deck."""
    camp = g.camps[seat]
    for cards in (camp.hand, camp.plotted):
        k = min(len(cards), len(g.deck))
        cards[:k], g.deck[:k] = g.deck[:k], cards[:k]
    return [o for o in g.seats() if o != seat]


def _war_secret(g, seat: int) -> list[int]:
    """Change the pair's hidden sheet (its mana); the pairs that learned it may see it, and the
    pairs the readers drive show theirs to everyone."""
    war = getattr(g, "war", g)
    if seat in getattr(g, "anka", ()):
        return []
    war.pairs[seat].mana += 7
    return [o for o in g.seats() if o != seat and war.pairs[seat].id not in war.pairs[o].known]


def _sealed_secret(g, seat: int) -> list[int]:
    """Give the seat other cards."""
    g.hands[seat] = [c + 100 for c in g.hands[seat]]
    return [o for o in g.seats() if o != seat]


#: for each game: change one seat's secret inside a copy of the game (a test may reach in) and
#: name the seats whose views must not change
SECRETS = {"sbb": _sbb_secret, "board": _board_secret, "rpg-war": _war_secret,
           "rpg-hosted": _war_secret, "sealed-bid": _sealed_secret}


@pytest.mark.parametrize("game", GAMES)
def test_no_seat_s_view_holds_another_seat_s_secret(game):
    """Change a seat's secret (its hand, its face-down cards, its sheet) in a replayed copy:
    no other seat's view, nor the spectator's, may change."""
    def check(g):
        n = len(g.record.submissions)
        if n & (n - 1):
            return                       # after decisions 1, 2, 4, 8, ...
        for seat in random.Random(g.step).sample(g.seats(), min(4, len(g.seats()))):
            copy = contract.replay(g.record)
            others = SECRETS[game](copy, seat)
            for role in [*others, None]:
                assert dumps(copy.view(role)) == dumps(g.view(role)), (seat, role)
    played(game, 6, every=1, check=check)


def test_the_hosted_war_answers_the_gm_and_the_readers_itself():
    g = played("rpg-hosted", 7, stop=40)
    gm, reader = g.view("gm"), g.view("reader")
    assert gm["role"] == "gm" and set(gm["sheets"]) == {str(s) for s in g.seats()}
    assert reader["role"] == "reader" and "sheets" not in reader and "me" not in reader
    assert g.view(None) == reader and g.view(g.gm) == gm
    assert len(g.events_for("gm")) == g.step >= len(g.events_for("reader"))


def test_the_hosted_wars_events_carry_its_own_text_and_a_readers_make_its_public_log():
    g = played("rpg-hosted", 7, stop=40)
    gm = [contract.event_text(e) for e in g.events_for("gm")]
    assert gm and all(set(t) == {"ja", "en"} for t in gm)
    for lang in ("ja", "en"):
        read = [contract.event_text(e)[lang] for e in g.events_for("reader")]
        assert "\n".join(x for x in read if x) + "\n" == g.public_log(lang)
    board = played("board", 3, stop=30)
    assert all(contract.event_text(e) is None for e in board.events_for(None))


# -- hostile records: every one ends in one DataError naming where ---------------------------
def _error(game: Any, seed: Any, config: Any, subs: Any) -> DataError:
    """A hostile record as it reaches every door: JSON read by ``Record.from_json``, then
    replayed (a compiled ``Record`` cannot even hold a field of the wrong type)."""
    data = {"game": game, "seed": seed, "config": config,
            "submissions": [list(x) if isinstance(x, tuple) else x for x in subs]
            if isinstance(subs, list) else subs}
    with pytest.raises(DataError) as e:
        contract.replay(Record.from_json(data, "bad.json"), "bad.json")
    assert e.value.file == "bad.json"
    return e.value


@pytest.mark.parametrize("name", ["nope", "", "SBB"])
def test_a_record_of_an_unknown_game_names_game(name):
    assert _error(name, 1, {}, []).key == "game"
    assert _error(5, 1, {}, []).key == "game"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad", [{"no_such_key": 1}, "players", [1], None])
def test_a_bad_config_names_config(game, bad):
    config = dict(CONFIGS[game], **bad) if isinstance(bad, dict) else bad
    if bad is None:
        config = {**CONFIGS[game], next(iter(CONFIGS[game])): {"deep": [[[]]]}}
    assert _error(game, 1, config, []).key.startswith("config")


@pytest.mark.parametrize("game", GAMES)
def test_a_bad_seed_names_seed(game):
    assert _error(game, "7", CONFIGS[game], []).key == "seed"


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_or_garbage_submission_names_it(game):
    g = played(game, 8, stop=12)
    subs = list(g.record.submissions)
    seed, config = g.record.seed, g.record.config
    nested: Any = []
    for _ in range(5000):
        nested = [nested]
    for i, junk in [(3, (subs[3][0], "no-such-option")), (0, ("x", subs[0][1])),
                    (5, (subs[5][0], {"a": object()})), (2, (10**30, 1)), (4, (subs[4][0], nested)),
                    (len(subs), (0, None))]:
        key = _error(game, seed, config, subs[:i] + [junk] + subs[i + 1:]).key
        assert key.startswith(f"submissions[{i}]"), key
    assert _error(game, seed, config, subs[:2] + [(1, 2, 3)]).key == "submissions[2]"
    assert _error(game, seed, config, "x").key == "submissions"


@pytest.mark.parametrize("game", GAMES)
def test_the_generic_simulator_plays_every_game_to_its_end(game):
    out = generic.simulate(game, CONFIGS[game], games=2, seed=1)
    assert out["games"] == 2 and len(out["seats"]) >= 2
    assert sum(s["wins"] for s in out["seats"]) >= 2 - out["draws"]
