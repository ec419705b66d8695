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


@given(st.integers(min_value=0, max_value=100))
def test_seat_key_is_str(seat: int) -> None:
    assert seat_key(seat) == str(seat)
