"""A war setting (issue 50, item 3): who answers the small decisions (a battle's steps, a
reroll, mana) of the pairs the readers drive — the program at once, the readers by a question
the first answer decides, or the GM alone (a click each)."""

from __future__ import annotations

import random

import pytest

from fuyuki.web.games.rpg import MINOR, roster_of
from tests.web.helpers import close_all, connect_all
from tests.web.war_driver import create_war, read_all

EVERY_PAIR = [p.id for p in roster_of(None).pairs]


@pytest.fixture(autouse=True)
def _quick_readers(monkeypatch):
    """One reader answers every question at once (the answer limits are tested elsewhere)."""
    from fuyuki.web.games import rpg

    monkeypatch.setattr(rpg, "ANSWER_GAP", 0.0)
    monkeypatch.setattr(rpg, "ANSWER_RATE", (1e6, 1e6))


def _play(http, minor: str | None, turns: int = 2) -> dict[str, list]:
    """A war whose every pair the readers drive, played to its end by its GM (the next turn;
    プログラムに任せる for whatever reaches the GM) and a reader (each question's answer). What
    reached the GM by kind, the questions' kinds and the GM's last view."""
    settings = {} if minor is None else {"anka_minor": minor}
    made = create_war(http, anka=EVERY_PAIR, turns=turns, **settings)
    seats, clients = connect_all(http, made["code"], {made["seat"]: made["token"]}, spectators=1)
    gm, reader = seats[made["seat"]], clients[-1]
    rng = random.Random(5)
    clicked: list[str] = []
    asked: list[str] = []
    for _ in range(5000):
        view = gm.last["view"]
        if view["over"]:
            break
        for q in view["questions"]:
            if q["q"] not in {a[0] for a in asked}:
                asked.append((q["q"], q["kind"], q["n"]))
        if view["held"]:
            gm.send({"type": "gm", "gm": "next"})
        elif view["questions"]:
            q = view["questions"][0]
            reader.send({"type": "answer", "q": q["q"], "option": rng.choice(q["options"]),
                         "name": "", "text": ""})
        else:
            seat, d = min(view["decisions"].items(), key=lambda x: int(x[0]))
            clicked.append(d["kind"])
            gm.send({"type": "gm", "gm": "auto", "seat": int(seat)})
        read_all(clients)
    assert gm.last["view"]["over"]
    events = [e for m in gm.messages if m["type"] == "state" for e in m.get("events", [])]
    close_all()
    return {"clicked": clicked, "asked": asked, "decided": [e for e in events
                                                           if e["kind"] == "gm_decided"]}


def test_by_default_the_program_answers_the_small_decisions_of_the_readers_pairs(http):
    got = _play(http, None, turns=3)
    assert not [k for k in got["clicked"] if k in MINOR]
    assert got["clicked"]                          # the big ones still reach the GM
    assert len(got["decided"]) > len(got["clicked"])   # the program's answers are logged too


def test_with_gm_the_small_decisions_wait_for_the_gms_click_each(http):
    got = _play(http, "gm")
    assert [k for k in got["clicked"] if k in MINOR]
    assert len(got["decided"]) == len(got["clicked"])


def test_with_readers_each_small_decision_is_a_question_the_first_answer_decides(http):
    got = _play(http, "readers", turns=3)
    assert not [k for k in got["clicked"] if k in MINOR]
    minor = [(q, kind, n) for q, kind, n in got["asked"] if kind in MINOR]
    assert minor and all(n == 1 for _, _, n in minor)


def test_the_setting_is_checked_and_offered(http):
    r = http.post("/api/tables", json={"game": "rpg", "name": "GM", "anka_minor": "bots"})
    assert r.status_code == 400 and r.json()["error"] == "bad_config"
    assert "anka_minor" in r.json()["message"]
    assert http.get("/api/meta").json()["games"]["rpg"]["anka_minor"] == ["program", "readers",
                                                                           "gm"]


@pytest.mark.parametrize("minor", ["program", "readers", "gm"])
def test_the_setting_is_in_the_public_summary(http, minor):
    made = create_war(http, anka=EVERY_PAIR[:1], turns=1, anka_minor=minor)
    assert http.get(f"/api/tables/{made['code']}").json()["config"]["anka_minor"] == minor
