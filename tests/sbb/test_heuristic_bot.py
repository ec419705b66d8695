"""The heuristic bot (agents/heuristic.py): scripted views in, bids out."""

from __future__ import annotations

from typing import Any

from fuyuki.core.protocol import Decision
from fuyuki.sbb.agents.heuristic import HeuristicBot

LANDS = ("emiya", "school", "ryudoji", "church", "einzbern")   # red blue green yellow purple


def _view(hand, discards=(), gems=(1, 1, 1, 1, 1), servant="saber", my_gems=2,
          deck=30) -> dict[str, Any]:
    """Seat 0 of four at a bid, the others face down with three cards each."""
    seats = [{"seat": s, "gems": my_gems if s == 0 else 2, "hand_size": 3, "master": None,
              "servant": None, "master_up": False, "servant_up": False, "dark": None,
              "mana": None, "bid": None, "locked": False} for s in range(4)]
    seats[0].update(master="rin", servant=servant, dark=False, mana=4)
    return {"game": "sbb", "seat": 0, "players": 4, "edition": "final", "mode": "standard",
            "options": [], "round": 2, "parent": 1, "phase": "bid", "pool": 30,
            "lands": [{"id": land, "gems": g} for land, g in zip(LANDS, gems)],
            "seats": seats, "decks": {"action": deck, "master": 6, "servant": 6},
            "discards": {"action": list(discards), "master": [], "servant": []},
            "luck_possible": True, "over": False, "result": None, "log_size": 0,
            "me": {"hand": list(hand), "master": "rin", "servant": servant, "dark": False,
                   "mana": 4, "seen": [], "bid": None}}


def _bid(view) -> str:
    hand = tuple(view["me"]["hand"])
    return HeuristicBot(seed=1).choose(view, Decision("bid", hand))


def test_the_unseen_cards_are_the_lands_cards_less_my_hand_and_the_discard():
    view = _view(["red-sortie-5", "red-np-1"], discards=["red-sortie-4", "blue-np-3"])
    sorties, nps, unseen = HeuristicBot().unseen_actions(view)
    assert sorted(sorties["red"]) == [1, 2, 2, 3, 3]
    assert sorted(nps["red"]) == [2, 3]
    assert sorted(nps["blue"]) == [1, 2]
    assert sorted(sorties["blue"]) == [1, 2, 2, 3, 3, 4, 5]
    assert unseen == 30 + 3 * 3     # the deck and the others' hands


def test_a_sortie_goes_where_the_cards_that_beat_it_are_gone():
    # two 出撃 of 3 on lands of equal gems; every red card that beats セイバー + 3 is in the
    # discard, none of the blue ones: the red land is the safe one
    red_gone = ["red-sortie-3", "red-sortie-4", "red-sortie-5", "red-np-1", "red-np-2",
                "red-np-3"]
    assert _bid(_view(["red-sortie-3", "blue-sortie-3"], discards=red_gone)) == "red-sortie-3"
    blue_gone = [c.replace("red", "blue") for c in red_gone]
    assert _bid(_view(["red-sortie-3", "blue-sortie-3"], discards=blue_gone)) == \
        "blue-sortie-3"


def test_a_strong_servant_is_not_risked_where_a_rivals_np_can_destroy_it():
    # the same gems and the same card: only the red 宝具 are all gone, so the blue land may
    # meet a 宝具 that beats my 出撃 and takes my ギルガメッシュ and a gem
    bot = HeuristicBot(seed=1)
    red_nps = ["red-np-1", "red-np-2", "red-np-3"]
    view = _view(["red-sortie-2", "blue-sortie-2"], discards=red_nps,
                 servant="gilgamesh", my_gems=5)
    scores = bot.bid_scores(view, ("red-sortie-2", "blue-sortie-2"))
    assert scores["red-sortie-2"] > scores["blue-sortie-2"]
    poor = _view(["red-sortie-2", "blue-sortie-2"], discards=red_nps, servant="avenger",
                 my_gems=0)
    poor_scores = bot.bid_scores(poor, ("red-sortie-2", "blue-sortie-2"))
    # with no gem to return and the weakest servant, the risk costs less
    assert (scores["red-sortie-2"] - scores["blue-sortie-2"]) > \
        (poor_scores["red-sortie-2"] - poor_scores["blue-sortie-2"])


def test_the_extra_gem_goes_where_the_best_bid_then_gains_most():
    # a strong 出撃 on purple and a weak one on blue: the gem goes to the purple land, and
    # it is the land that leaves the best bid worth the most (the rivals drawn to the gems)
    view = _view(["purple-sortie-5", "blue-sortie-1"])
    bot = HeuristicBot(seed=2)
    choice = bot.choose(view, Decision("place_gem", LANDS))
    assert choice == "einzbern"

    def best_after(land_id):
        lands = [dict(l, gems=l["gems"] + (l["id"] == land_id)) for l in view["lands"]]
        return max(bot.bid_scores(dict(view, lands=lands), view["me"]["hand"]).values())
    assert best_after(choice) == max(best_after(land) for land in LANDS)


def test_grail_is_bid_only_with_a_lead_no_rival_can_catch_this_round():
    """聖杯出現 ends the game at the round's end (most gems wins) and is the bot's bid: it is
    played when the bot leads by at least the richest land's gems, else kept."""
    hand = ["grail", "red-sortie-3"]
    # leading by 3 (5 against 2): the richest land holds 3 gems -> play it; 4 gems -> not
    assert _bid(_view(hand, gems=(3, 1, 1, 1, 1), my_gems=5)) == "grail"
    assert _bid(_view(hand, gems=(4, 1, 1, 1, 1), my_gems=5)) == "red-sortie-3"
    # one gem on each land: a lead of 1 is enough, a tie is not
    assert _bid(_view(hand, gems=(1, 1, 1, 1, 1), my_gems=3)) == "grail"
    assert _bid(_view(hand, gems=(1, 1, 1, 1, 1), my_gems=2)) == "red-sortie-3"
