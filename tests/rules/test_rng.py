"""The game's generator (SplitMix64): uniform draws without modulo bias, reproducible from the one
integer of its state. The rejection in ``below`` only shows for draws within n of 2**64, so these
tests build the states that produce such draws by inverting SplitMix64's output mix."""

from __future__ import annotations

import pytest

from fate_royal.rules.rng import Rng

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def _unxorshift(x: int, shift: int) -> int:
    z = x
    for _ in range(64 // shift + 1):
        z = x ^ (z >> shift)
    return z & MASK


def _unmix(out: int) -> int:
    """The state after the step whose output is ``out`` (SplitMix64's mix is a bijection)."""
    z = _unxorshift(out, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z = _unxorshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    return _unxorshift(z, 30)


def rng_whose_next_draw_is(out: int) -> Rng:
    return Rng((_unmix(out) - GAMMA) & MASK)


def test_the_inverse_really_gives_the_draw():
    for out in (0, 1, MASK, MASK - 1, 123456789):
        assert rng_whose_next_draw_is(out).next64() == out


def test_the_sequence_is_splitmix64():
    r = Rng(0)
    assert [r.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                                             0x06C45D188009454F]
    assert Rng(-1).state == MASK  # the seed is taken modulo 2**64


def test_a_draw_in_the_biased_tail_is_rejected():
    # 2**64 = 1 (mod 3): the top value 2**64 - 1 would make 0 a little likelier, so it is drawn again
    r = rng_whose_next_draw_is(MASK)
    after = Rng(r.state)
    after.next64()
    assert r.below(3) == after.next64() % 3
    assert r.state == after.state  # two draws were used


def test_the_highest_unbiased_draws_are_kept():
    for out in (MASK - 1, MASK - 2):  # below the limit 2**64 - 1 for n = 3
        r = rng_whose_next_draw_is(out)
        assert r.below(3) == out % 3
        assert r.state == rng_whose_next_draw_is(out).state + GAMMA & MASK  # one draw only


def test_a_power_of_two_rejects_nothing():
    r = rng_whose_next_draw_is(MASK)
    assert r.below(4) == 3


@pytest.mark.parametrize("n", [0, -1])
def test_below_needs_a_positive_bound(n):
    with pytest.raises(ValueError, match=r"^below\(\) needs n > 0$"):
        Rng(1).below(n)


def test_choice_picks_by_below_and_refuses_an_empty_list():
    r, twin = Rng(7), Rng(7)
    items = ["a", "b", "c", "d", "e"]
    assert [r.choice(items) for _ in range(20)] == [items[twin.below(5)] for _ in range(20)]
    with pytest.raises(ValueError, match="needs n > 0"):
        Rng(1).choice([])


def test_die_and_shuffle_are_uniform_enough_and_reproducible():
    r = Rng(42)
    faces = [r.die() for _ in range(6000)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(850 < faces.count(f) < 1150 for f in range(1, 7))
    a, b = list(range(10)), list(range(10))
    Rng(5).shuffle(a)
    Rng(5).shuffle(b)
    assert a == b and sorted(a) == list(range(10)) and a != list(range(10))
