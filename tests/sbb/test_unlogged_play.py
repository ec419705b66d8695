"""Bots play without writing the event log; the log is made, the same, when first read
(Game.play_bots, State.log, game.replayed_log)."""

import pytest

from fuyuki.core.errors import FuyukiError
from fuyuki.sbb import setup_overrides
from fuyuki.sbb.agents import make_bot, play_out
from fuyuki.sbb.game import new_game
from fuyuki.sbb.rules import load_rules

PRESETS = [("final", None, 4), ("final", None, 3), ("final", None, 5), ("v1.0", None, 4),
           ("v1.1", None, 5), ("final", "hf", 4), ("final", "big_battle", 7)]


def _events(g):
    return [(e.kind, e.data, e.to) for e in g.events]


def _bots(n, seed, rules, kind="random"):
    return [make_bot(kind, seed * 7 + k, rules) for k in range(n)]


def _game(edition, mode, n, seed):
    rules = load_rules(edition, mode)
    if n not in rules.players:
        pytest.skip(f"{edition}/{mode} does not seat {n}")
    return new_game(n, seed, rules), rules


@pytest.mark.parametrize("edition,mode,n", PRESETS)
def test_a_game_bots_played_without_its_log_reads_the_same_events(edition, mode, n):
    for seed in range(12):
        g, rules = _game(edition, mode, n, seed)
        kind = "heuristic" if seed % 3 == 0 else "random"
        before = len(g.s._log)
        play_out(g, _bots(n, seed, rules, kind))
        assert g.over and g.s.unlogged is not None
        assert len(g.s._log) == before                # nothing written while the bots played
        ref, _ = _game(edition, mode, n, seed)
        ref.play_bots(_bots(n, seed, rules, kind), keep_log=True)
        assert ref.s.unlogged is None
        assert g.record.submissions == ref.record.submissions
        assert _events(g) == _events(ref), (edition, mode, n, seed)
        assert g.s.unlogged is None and g.s.log == ref.s.log
        assert g.view(0)["log_size"] == len(ref.s.log)


def test_a_game_with_fixed_servants_reads_the_same_events():
    for seed in range(6):
        g = setup_overrides.new_game(4, seed, fixed={0: ("sakura", "gilgamesh")}, assign="random")
        ref = setup_overrides.new_game(4, seed, fixed={0: ("sakura", "gilgamesh")},
                                       assign="random")
        play_out(g, _bots(4, seed, g.rules))
        ref.play_bots(_bots(4, seed, g.rules), keep_log=True)
        assert g.s.unlogged is not None
        assert _events(g) == _events(ref)


def test_the_log_is_written_for_a_bot_that_reads_a_view():
    g = new_game(4, 3)

    class Viewer:
        needs_view = True

        def __init__(self, seed):
            self.bot = make_bot("random", seed)

        def choose(self, view, decision):
            assert view["log_size"] == len(g.s._log)   # the view's log is there at each turn
            return self.bot.choose(None, decision)

    play_out(g, [Viewer(0), *_bots(4, 3, g.rules)[1:]])
    assert g.over and g.s.unlogged is None


def test_a_game_stopped_before_its_end_has_its_log_at_once():
    g = new_game(4, 5)
    with pytest.raises(FuyukiError, match="did not end"):
        play_out(g, _bots(4, 5, g.rules), limit=10)
    assert not g.over and g.s.unlogged is None      # written before play_out returned
    ref = new_game(4, 5)
    for seat, choice in g.record.submissions:
        ref.submit(seat, choice)
    assert g.s._log == ref.s._log
    play_out(g, _bots(4, 5, g.rules))                # and it goes on as any game
    assert g.over


def test_a_bots_illegal_answer_leaves_the_log_written():
    g = new_game(4, 6)

    class Cheat:
        needs_view = False

        def choose(self, view, decision):
            return "no such card"

    with pytest.raises(FuyukiError):
        play_out(g, [make_bot("random", 1), make_bot("random", 2), make_bot("random", 3), Cheat()])
    assert g.s.unlogged is None
    ref = new_game(4, 6)
    for seat, choice in g.record.submissions:
        ref.submit(seat, choice)
    assert g.s._log == ref.s._log


def test_a_clone_of_a_game_played_without_its_log_has_the_whole_log():
    g = new_game(4, 8)
    play_out(g, _bots(4, 8, g.rules))
    assert g.s.unlogged is not None
    c = g.clone()
    assert c.s.unlogged is None and g.s.unlogged is None
    assert _events(c) == _events(g) and len(c.s.log) > 50


def test_a_state_changed_outside_submit_makes_the_log_an_error_not_a_wrong_log():
    g = new_game(4, 9)
    g.s.gems[0] = g.s.gems[0] + 5   # not through submit: the record cannot know it
    play_out(g, _bots(4, 9, g.rules))
    with pytest.raises(FuyukiError, match="does not replay to the same game"):
        _ = g.events
    with pytest.raises(FuyukiError):
        _ = g.s.log                                   # every read, not only the first


def test_a_quiet_game_and_keep_log_write_as_asked():
    q = new_game(4, 10, quiet=True)
    before = len(q.s._log)
    play_out(q, _bots(4, 10, q.rules))
    assert q.s.unlogged is None and len(q.s.log) == before   # quiet: no log, none made
    k = new_game(4, 10)
    k.play_bots(_bots(4, 10, k.rules), keep_log=True)
    assert k.s.unlogged is None and len(k.s._log) > 50


def test_a_changed_state_and_an_early_stop_raise_the_stop_not_the_log():
    g = new_game(4, 11)
    g.s.gems[1] = g.s.gems[1] + 3
    with pytest.raises(FuyukiError, match="did not end"):
        play_out(g, _bots(4, 11, g.rules), limit=10)
    with pytest.raises(FuyukiError, match="does not replay to the same game"):
        _ = g.events


@pytest.mark.parametrize("edition,mode,n", PRESETS)
def test_a_quiet_game_keeps_the_events_of_its_keep_kinds_as_the_log_has_them(edition, mode, n):
    """Game.keep (the simulator's games): a quiet game writes no log but keeps the events of
    the kinds asked for — exactly the full log's events of those kinds, in its order, from
    the setup's on; the draws among them when asked, and the events whose data a step makes
    only for a game that writes them (Game.logs: the totals, the reveal, the gems placed...)."""
    kinds = [{"setup", "dealt", "draft_kept", "round", "flip", "draw", "lost"},
             {"battle", "np_resolves", "darken", "new_servant", "totals"},
             {"gems_placed", "reveal", "draws"}]
    for seed in range(9):
        rules = load_rules(edition, mode)
        if n not in rules.players:
            pytest.skip(f"{edition}/{mode} does not seat {n}")
        keep = frozenset(kinds[seed % 3])
        g = setup_overrides.start(n, seed, rules, quiet=True, keep=keep)
        setup_overrides.deal(g)
        g.play_bots(_bots(n, seed, rules))
        ref = setup_overrides.new_game(n, seed, rules)
        ref.play_bots(_bots(n, seed, rules), keep_log=True)
        assert g.s._log == [] and g.s.unlogged is None
        assert g.record.submissions == ref.record.submissions
        assert g.kept == [e for e in ref.s.log if e[0] in keep], (edition, mode, n, seed)
        assert g.kept, "some events kept"
