"""A war hosted for a GM, players and readers (fuyuki.rpg.hosted): the GM's powers, 安価
questions, what each seat may answer, and exact replay."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fuyuki.core.errors import IllegalAction
from fuyuki.core.protocol import Decision
from fuyuki.rpg.agents.simple import SimpleAgent
from fuyuki.rpg.hosted import READERS, HostedWar
from fuyuki.rpg.roster import load_roster
from fuyuki.rpg.rules import default_rules

RULES = default_rules()
ROSTER = load_roster(None, RULES)
ANKA = 0


def new(**kw) -> HostedWar:
    return HostedWar(ROSTER, RULES, kw.pop("secret", "ab" * 32), max_turns=kw.pop("turns", 2),
                     anka=[ANKA], **kw)


def asked(w: HostedWar) -> dict:
    """The pairs' open decisions (``pending()`` without the GM's)."""
    return {s: d for s, d in w.pending().items() if s != w.gm}


def until_anka(w: HostedWar, options: int = 3) -> None:
    """Bots play until the 安価 pair has a decision of at least ``options`` options (the GM
    decides smaller ones)."""
    bots = {s: SimpleAgent(1, s) for s in range(w.gm)}
    while w.decision(ANKA) is None or len(w.decision(ANKA).options) < options:
        d = w.decision(ANKA)
        if d is not None:
            calm = [o for o in d.options if o in ("talk", "ignore", "pass", "rest")]
            w.submit(w.gm, {"gm": "decide", "seat": ANKA, "option": (calm or list(d.options))[0]})
            continue
        if w.held:
            w.submit(w.gm, {"gm": "next"})
            continue
        s, d = next(iter(asked(w).items()))
        w.submit(s, bots[s].choose(w.view(s), d))


def test_the_war_commitment_comes_first_and_the_secret_only_at_the_end():
    w = new()
    assert w.events[0].kind == "dice_war" and "ab" * 32 not in str(w.events[0].data)
    assert not any(e.kind == "dice_end" for e in w.events)


def test_nothing_moves_until_the_gm_opens_the_turn_and_nothing_while_paused():
    w = new()
    assert w.held and asked(w) == {}
    assert w.pending()[w.gm].options == ({"gm": "next"},)     # the war waits for the GM
    w.submit(w.gm, {"gm": "next"})
    assert asked(w)
    w.submit(w.gm, {"gm": "pause"})
    assert w.pending() == {w.gm: Decision("gm", ({"gm": "resume"},))}
    with pytest.raises(IllegalAction):
        w.submit(w.gm, {"gm": "pause"})
    w.submit(w.gm, {"gm": "resume"})
    assert asked(w)


def test_a_pair_the_readers_drive_is_never_asked_directly():
    w = new()
    until_anka(w)
    assert ANKA not in asked(w)
    with pytest.raises(IllegalAction) as exc:
        w.submit(ANKA, w.decision(ANKA).options[0])
    assert exc.value.code == "not_your_turn"


def test_the_nth_answer_from_now_decides_and_the_answers_are_public():
    w = new()
    until_anka(w)
    opts = list(w.decision(ANKA).options[:3])
    w.submit(w.gm, {"gm": "ask", "seat": ANKA, "options": opts, "mode": "count", "n": 3})
    for k, o in enumerate([opts[0], opts[2], opts[1]]):
        assert w.question_of(ANKA) is not None
        w.submit(READERS, {"q": 1, "option": o, "name": f"r{k}", "text": ""})
    assert w.question_of(ANKA) is None
    decided = [e for e in w.events if e.kind == "anka_decided"]
    assert decided[0].data["option"] == opts[1] and decided[0].to is None
    assert all(e.to is None for e in w.events if e.kind.startswith("anka_"))
    assert (ANKA, opts[1]) in w.war.submissions


def test_a_vote_goes_to_the_most_answers_and_a_tie_to_the_first_answered():
    w = new()
    until_anka(w)
    a, b = w.decision(ANKA).options[:2]
    w.submit(w.gm, {"gm": "ask", "seat": ANKA, "options": [a, b], "mode": "vote", "close_at": 100.0})
    for o in (b, a):
        w.submit(READERS, {"q": 1, "option": o})
    assert w.due(99.0) == ([], 1.0)
    subs, _ = w.due(100.0)
    for seat, c in subs:
        w.submit(seat, c)
    assert [e.data["option"] for e in w.events if e.kind == "anka_decided"] == [b]


def test_a_refused_command_changes_nothing():
    w = new()
    until_anka(w)
    before = (len(w.events), len(w.submissions), w.war.turn)
    opts = list(w.decision(ANKA).options)
    bad = [{"gm": "ask", "seat": ANKA, "options": [opts[0]], "mode": "count", "n": 1},
           {"gm": "ask", "seat": ANKA, "options": opts[:2] + ["nonsense"], "mode": "count", "n": 1},
           {"gm": "ask", "seat": ANKA, "options": opts[:2], "mode": "count", "n": 0},
           {"gm": "ask", "seat": 1, "options": opts[:2], "mode": "count", "n": 1},
           {"gm": "narrate", "text": "x" * 601}, {"gm": "narrate", "text": "a\x07"},
           {"gm": "decide", "seat": ANKA, "option": "nonsense"}, {"gm": "close", "q": 1},
           {"gm": "next"}, {"gm": "fly"}, "next"]
    for c in bad:
        with pytest.raises(IllegalAction):
            w.submit(w.gm, c)
    with pytest.raises(IllegalAction):
        w.submit(READERS, {"q": 1, "option": opts[0]})
    assert (len(w.events), len(w.submissions), w.war.turn) == before


def test_the_gm_cannot_decide_over_an_open_question_but_can_close_it():
    w = new()
    until_anka(w)
    opts = list(w.decision(ANKA).options[:2])
    w.submit(w.gm, {"gm": "ask", "seat": ANKA, "options": opts, "mode": "count", "n": 5})
    with pytest.raises(IllegalAction) as exc:
        w.submit(w.gm, {"gm": "decide", "seat": ANKA, "option": opts[0]})
    assert exc.value.code == "question_open"
    w.submit(w.gm, {"gm": "close", "q": 1})            # no answers: closed without a decision
    assert [e.kind for e in w.events][-1] == "anka_closed" and w.decision(ANKA) is not None
    w.submit(w.gm, {"gm": "decide", "seat": ANKA, "option": opts[0]})
    assert any(e.kind == "gm_decided" for e in w.events)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_a_hosted_war_replays_exactly_from_its_submissions(seed):
    w = new(secret=f"{seed:064x}", turns=1)
    bots = {s: SimpleAgent(seed, s) for s in range(w.gm)}
    questioned = False
    while not w.over:
        if w.held:
            w.submit(w.gm, {"gm": "next"})
        elif asked(w):
            s, d = next(iter(asked(w).items()))
            w.submit(s, bots[s].choose(w.view(s), d))
        else:
            d = w.decision(ANKA)
            if not questioned and len(d.options) > 1:
                w.submit(w.gm, {"gm": "ask", "seat": ANKA, "options": list(d.options[:2]),
                                "mode": "count", "n": 1})
                w.submit(READERS, {"q": 1, "option": d.options[1], "name": "n", "text": "t"})
                questioned = True
            else:
                w.submit(w.gm, {"gm": "decide", "seat": ANKA, "option": d.options[0]})
    again = new(secret=f"{seed:064x}", turns=1)
    for s, c in w.submissions:
        again.submit(s, c)
    assert again.events == w.events and again.texts == w.texts and again.over
    # the record closes the log; the master secret itself is never published
    assert w.events[-1].kind == "dice_end" and f"{seed:064x}" not in w.public_log("ja")


def test_a_turn_begins_only_when_the_gm_opens_it():
    """The war's gate: between two turns nothing of the next turn happens (no commitment, no
    event, no roll) until the GM's ``next``."""
    w = new(turns=3)
    bots = {s: SimpleAgent(2, s) for s in range(w.gm)}
    w.submit(w.gm, {"gm": "next"})
    while w.war.turn == 1 and not w.over:
        if asked(w):
            s, d = next(iter(asked(w).items()))
            w.submit(s, bots[s].choose(w.view(s), d))
        elif w.held:
            break
        else:
            d = w.decision(ANKA)
            w.submit(w.gm, {"gm": "decide", "seat": ANKA, "option": d.options[0]})
    assert w.held and w.war.turn == 1
    assert w.events[-1].kind == "dice_reveal" and w.events[-1].data["turn"] == 1
    w.submit(w.gm, {"gm": "next"})
    kinds = [e.kind for e in w.events]
    at = len(kinds) - 1 - kinds[::-1].index("released")
    assert kinds[at + 1] == "dice_commit" and w.events[at + 1].data["turn"] == 2


def test_the_gm_may_decide_for_a_player_who_keeps_the_war_waiting_and_only_that_pair_sees_it():
    w = new()
    w.submit(w.gm, {"gm": "next"})
    seat, d = next((s, d) for s, d in asked(w).items())
    w.submit(w.gm, {"gm": "decide", "seat": seat, "option": d.options[0]})
    e = next(e for e in w.events if e.kind == "gm_decided")
    assert e.to == (seat, w.gm)
    assert (seat, d.options[0]) in w.war.submissions


def test_a_pair_the_readers_drive_with_no_question_open_is_the_gms_pending_decision():
    """[contract] pending() holds every decision the war waits for: the GM's ``decide`` for
    the readers' pair while no question decides it, none while one does."""
    w = new()
    until_anka(w)
    d = w.decision(ANKA)
    gm = w.pending()[w.gm]
    assert gm.kind == "gm"
    assert [o for o in gm.options if o.get("seat") == ANKA] == \
        [{"gm": "decide", "seat": ANKA, "option": o} for o in d.options]
    w.submit(w.gm, {"gm": "ask", "seat": ANKA, "options": list(d.options[:2]), "mode": "count",
                    "n": 2})
    assert not any(o.get("seat") == ANKA for o in w.pending().get(w.gm, Decision("gm", ())).options)
