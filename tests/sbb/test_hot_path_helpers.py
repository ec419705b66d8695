"""Small helpers of the engine's hot path give what the plain expressions they replace give."""

from hypothesis import given
from hypothesis import strategies as st

from fuyuki.sbb.battle import seat_key
from fuyuki.sbb.rounds import sorted_unique


@given(st.lists(st.integers(min_value=0, max_value=200), max_size=12))
def test_sorted_unique_is_sorted_set(cards: list[int]) -> None:
    before = list(cards)
    assert sorted_unique(cards) == sorted(set(cards))
    assert cards == before   # the hand itself is left as it was


@given(st.lists(st.integers(min_value=1, max_value=60), max_size=10))
def test_a_hand_dealt_card_by_card_stays_in_order(cards: list[int]) -> None:
    """insert_sorted (Game.take_action_card) keeps a hand ascending, repeats included."""
    from fuyuki.sbb.state import insert_sorted

    hand: list[int] = []
    for c in cards:
        insert_sorted(hand, c)
    assert hand == sorted(cards)


@given(st.lists(st.integers(min_value=1, max_value=60), max_size=10), st.booleans())
def test_bid_options_are_the_hands_ids_each_once_in_order(cards: list[int], dealt: bool) -> None:
    """bid_options: a hand in order (as dealt) or in any order (a scenario's, a sampled
    world's) gives the ids of sorted(set(hand))."""
    from fuyuki.sbb.cards import card_table
    from fuyuki.sbb.game import default_rules
    from fuyuki.sbb.rounds import bid_options

    t = card_table(default_rules().cards)
    hand = sorted(cards) if dealt else list(cards)
    assert bid_options(t, hand) == tuple(t.names[c] for c in sorted(set(cards)))


@given(st.integers(min_value=0, max_value=100))
def test_seat_key_is_str(seat: int) -> None:
    assert seat_key(seat) == str(seat)


@given(st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=6),
       st.lists(st.integers(min_value=0, max_value=3), max_size=6))
def test_ranking_is_winners_then_the_rest_by_count(gems: list[int], picks: list[int]) -> None:
    """Game.ranking (loops, no set or sort) against the plain expression it replaces."""
    from fuyuki.sbb import new_game

    g = new_game(4, 1)
    g.s.gems = (gems * 4)[:4]
    winners = sorted({p for p in picks})
    key = g.s.gems
    plain = [list(winners)] if winners else []
    for v in sorted({key[i] for i in range(4) if i not in winners}, reverse=True):
        plain.append([i for i in range(4) if i not in winners and key[i] == v])
    assert g.ranking(winners) == plain


def test_the_gem_decision_is_made_once_for_the_lands() -> None:
    from fuyuki.sbb import new_game

    g = new_game(4, 3)
    d = g.gem_decision()
    assert d.kind == "place_gem" and list(d.options) == [g.t.names[c] for c in g.s.lands]
    assert g.gem_decision() is d
    g.s.lands = g.s.lands[::-1]   # other lands: a new decision naming them
    assert g.gem_decision() is not d
    assert list(g.gem_decision().options) == list(d.options)[::-1]


@given(st.lists(st.integers(min_value=0, max_value=40), max_size=8))
def test_names_tuple_and_names_in_are_the_ids_in_order(cards: list[int]) -> None:
    from fuyuki.sbb.cards import card_table
    from fuyuki.sbb.game import default_rules

    t = card_table(default_rules().cards)
    assert t.names_tuple(cards) == tuple(t.names[c] for c in cards)
    assert t.names_in(tuple(cards)) == tuple(t.names_of(cards))


_LOSS = st.tuples(st.integers(min_value=0, max_value=4), st.sampled_from(["servant", "master"]),
                  st.sampled_from(["destroy", "sure", "cancel"]), st.integers(0, 4))


@given(st.lists(_LOSS, max_size=7))
def test_loss_targets_is_the_sorted_set_of_victims(losses) -> None:
    from fuyuki.sbb.battle import loss_targets

    assert loss_targets(tuple(losses)) == sorted({q for q, *_ in losses})


@given(st.lists(_LOSS, max_size=7), st.integers(min_value=0, max_value=4))
def test_by_seat_order_is_the_stable_sort_it_replaces(losses, parent) -> None:
    from fuyuki.sbb.losses import by_seat_order

    n = 5
    order = {seat: i for i, seat in enumerate((parent + k) % n for k in range(n))}
    want = sorted(losses, key=lambda x: (order[x[0]], x[1] != "servant"))
    got = list(losses)
    by_seat_order(got, parent, n)
    assert got == want


@given(st.lists(st.sampled_from([0, 1, 2, 3, 4]), min_size=1, max_size=5, unique=True),
       st.integers(min_value=0, max_value=3))
def test_the_action_deck_made_once_is_the_deck_made_each_time(lands: list[int],
                                                              drop: int) -> None:
    """CardTable.action_deck keeps each deck it made, by its lands, for the rules' events
    tuple it was made with: the same deck as made from scratch, a new list each time, and a
    new deck for another events tuple."""
    from fuyuki.sbb.cards import EVENT, card_table
    from fuyuki.sbb.rules import Rules

    rules = Rules.preset("final")
    t = card_table(rules.cards)
    land_ids = [t.land_ids[i] for i in lands]

    def plain(events: tuple[str, ...]) -> list[int]:
        deck = [c for land in land_ids for c in t.actions[t.colour[land]]]
        return deck + [t.ids[e] for e in events if e in t.ids and t.kind[t.ids[e]] == EVENT]

    t.action_deck(land_ids, rules.events)   # made, or found made
    got = t.action_deck(land_ids, rules.events)   # found
    got.append(-1)   # the caller's list: changing it changes no later deck
    again = t.action_deck(land_ids, rules.events)
    assert again == plain(rules.events) and again is not got
    fewer = tuple(rules.events[drop:])   # another tuple: not the kept deck
    assert t.action_deck(land_ids, fewer) == plain(fewer)
    assert t.action_deck(land_ids, rules.events) == plain(rules.events)


def test_ids_in_gives_a_new_list_of_the_tuples_ids_each_time() -> None:
    """CardTable.ids_in caches by the tuple itself: an equal tuple made anew, and a tuple
    made after many others, get their own ids; the list returned is the caller's."""
    from fuyuki.sbb.cards import card_table
    from fuyuki.sbb.game import default_rules

    t = card_table(default_rules().cards)
    masters = default_rules().masters
    first = t.ids_in(masters)
    assert first == t.ids_of(masters) and t.ids_in(masters) is not first
    first.append(0)
    assert t.ids_in(masters) == t.ids_of(masters)
    for k in range(100):   # many tuples: the cache is cleared on the way
        names = tuple(list(masters)[: 1 + k % len(masters)])
        assert t.ids_in(names) == t.ids_of(names)
    assert t.ids_in(tuple(reversed(masters))) == t.ids_of(tuple(reversed(masters)))
