"""Invariants over random games (hypothesis): gems and cards are conserved, games end, and
no view ever holds another seat's hidden master, servant, hand or unrevealed bid."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fuyuki.sbb import new_game
from fuyuki.sbb.agents import make_bot


def _all_actions(g):
    s = g.s
    on_table = [b for b in s.bids if b] if s.phase in ("reveal", "battle", "events") else []
    return sorted(g.t.names_of(s.adeck + s.adisc + [c for h in s.hand for c in h] + on_table))


def _check_conservation(g, total_gems, actions, masters, servants):
    s = g.s
    assert s.pool + sum(s.gems_on) + sum(s.gems) == total_gems
    assert min(s.gems) >= 0 and s.pool >= 0 and min(s.gems_on) >= 0
    if s.phase not in ("setup",) and not s.phase.startswith("draft"):
        assert _all_actions(g) == actions
    held_m = [m for m in s.master if m]
    held_s = [x for x in s.servant if x]
    if not s.phase.startswith("draft"):
        assert sorted(g.t.names_of(s.mdeck + s.mdisc + held_m)) == masters
        assert sorted(g.t.names_of(s.sdeck + s.sdisc + held_s)) == servants


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.sampled_from([3, 4, 5]),
       bot=st.sampled_from(["random", "heuristic"]))
def test_gems_and_cards_conserved_and_game_ends(seed, players, bot):
    g = new_game(players, seed)
    total = g.s.pool
    actions = sorted(g.t.names_of(g.s.adeck))
    masters = sorted(g.rules.masters)
    servants = sorted(g.rules.servants)
    bots = [make_bot(bot, seed + i) for i in range(players)]
    steps = 0
    while not g.over:
        for seat, d in g.pending().items():
            b = bots[seat]
            g.submit(seat, b.choose(g.view(seat) if b.needs_view else None, d))
            steps += 1
            _check_conservation(g, total, actions, masters, servants)
        assert steps < 20000
    assert g.result["winners"]


def _hide(g, j, rng):
    """A copy of ``g`` that differs from it only in what seat ``j`` hides from the others:
    its face-down master and servant and the cards in its hand (swapped with deck cards)."""
    c = g.clone()
    s = c.s
    if not s.m_up[j] and s.mdeck:
        k = rng.randrange(len(s.mdeck))
        s.master[j], s.mdeck[k] = s.mdeck[k], s.master[j]
    if not s.s_up[j] and s.sdeck:
        k = rng.randrange(len(s.sdeck))
        s.servant[j], s.sdeck[k] = s.sdeck[k], s.servant[j]
    for i in range(len(s.hand[j])):
        if s.adeck:
            k = rng.randrange(len(s.adeck))
            s.hand[j][i], s.adeck[k] = s.adeck[k], s.hand[j][i]
    return c


def _public(view):
    v = dict(view)
    v.pop("log_size", None)
    return json.dumps(v, sort_keys=True, ensure_ascii=False)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.sampled_from([3, 4, 5]))
def test_views_never_leak_hidden_cards(seed, players):
    """view(i) is the same whatever seat j hides: changing j's face-down master and servant
    and its hand (with cards i cannot see) must not change i's serialized view."""
    rng = random.Random(seed)
    g = new_game(players, seed)
    bots = [make_bot("random", seed + i) for i in range(players)]
    while not g.over:
        pending = g.pending()
        if g.s.phase != "draft_master" and g.s.phase != "draft_servant" and not g.s.asking.get(0):
            pass
        for seat, d in pending.items():
            if not g.s.phase.startswith("draft"):
                j = rng.randrange(players)
                other = _hide(g, j, rng)
                for i in range(players):
                    if i != j:
                        a, b = g.view(i), other.view(i)
                        if a["me"]["decision"] and a["me"]["decision"]["kind"] == "luck":
                            # whether i may use 強運 is i's own information
                            pass
                        assert _public(a) == _public(b), (i, j)
                assert _public(g.view(None)) == _public(other.view(None))
            g.submit(seat, bots[seat].choose(None, d))


def test_unrevealed_bid_not_in_other_views():
    for seed in range(30):
        g = new_game(4, seed)
        while not g.over:
            p = g.pending()
            if p and all(d.kind == "bid" for d in p.values()) and 0 in p:
                before = [_public(g.view(i)) for i in (1, 2, 3)] + [_public(g.view(None))]
                g.submit(0, p[0].options[-1])
                after = [g.view(i) for i in (1, 2, 3)] + [g.view(None)]
                for v in after:
                    assert v["seats"][0]["locked"] is True
                    v["seats"][0]["locked"] = False
                assert [_public(v) for v in after] == before
                return
            for seat, d in p.items():
                g.submit(seat, d.options[0])


def test_private_events_name_their_seat():
    """Events that name a hidden card are addressed to the seat that may see it."""
    private = {"draw", "draft_pack", "draft_kept", "new_servant", "new_master", "dealt",
               "swap_cards"}
    for seed in range(50):
        g = new_game(4, seed)
        bots = [make_bot("random", seed + i) for i in range(4)]
        while not g.over:
            for seat, d in g.pending().items():
                g.submit(seat, bots[seat].choose(None, d))
        for e in g.events:
            assert json.loads(json.dumps(e.data)) == e.data, e  # plain JSON data (no tuples)
            if e.kind in private:
                assert e.to is not None and e.data["seat"] in e.to
            else:
                assert e.to is None
