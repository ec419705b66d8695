"""The random bot's seeding: SplitMix64's finaliser computed on 32-bit halves (cheap in the
compiled build) gives exactly the 64-bit formula's value, so every bot's choices stay the same."""

from hypothesis import given, settings
from hypothesis import strategies as st

from fuyuki.sbb.agents.random_bot import RandomBot, _mix64

_M64 = 0xFFFFFFFFFFFFFFFF


def splitmix64_finaliser(seed: int) -> int:
    """The reference: the finaliser as written with 64-bit products."""
    z = (seed + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


@settings(max_examples=2000, deadline=None)
@given(st.integers(min_value=-(2**70), max_value=2**70))
def test_mix64_is_the_64_bit_formula(seed: int) -> None:
    hi, lo = _mix64(seed)
    assert (hi << 32) | lo == splitmix64_finaliser(seed & _M64)


def test_mix64_at_the_edges() -> None:
    for seed in [*range(-300, 300), 2**32 - 1, 2**32, 2**63 - 1, 2**63, _M64, _M64 + 1]:
        hi, lo = _mix64(seed)
        assert (hi << 32) | lo == splitmix64_finaliser(seed & _M64), seed


def test_bot_state_from_the_seed() -> None:
    for seed in (0, 1, 7, 2**40 + 3, -5):
        z = splitmix64_finaliser(seed & _M64)
        assert RandomBot(seed).state == ((z ^ (z >> 32)) & 0xFFFFFFFF or 0x9E3779B9)


@settings(max_examples=500, deadline=None)
@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=2, max_value=5000))
def test_pick_is_the_high_bits_of_x_times_k(seed: int, k: int) -> None:
    """A pick among k options is ``(x * k) >> 32`` of the bot's next 32-bit number (computed
    in halves): the same pick as the 64-bit product."""
    from fuyuki.core.protocol import Decision

    bot, twin = RandomBot(seed), RandomBot(seed)
    options = tuple(range(k))
    for _ in range(20):
        x = twin._next()
        assert bot.choose(None, Decision("pick", options)) == (x * k) >> 32


def test_play_out_calls_a_subclass_override_of_a_compiled_bot() -> None:
    """Game.play_bots calls a compiled bot's choose natively: an interpreted subclass's own
    choose must still be the one called, for every decision, and the game plays as it
    would through submit."""
    from fuyuki.sbb import new_game
    from fuyuki.sbb.agents import play_out

    class Counting(RandomBot):
        calls = 0

        def choose(self, view, decision):
            Counting.calls += 1
            return decision.options[-1]

    g = new_game(4, 7)
    n = play_out(g, [Counting(k) for k in range(4)])
    assert n == Counting.calls > 0
    h = new_game(4, 7)   # the same choices through the public door
    while not h.over:
        for seat, d in h.pending().items():
            h.submit(seat, d.options[-1])
    assert h.record.submissions == g.record.submissions
