"""Grand National's compiled playouts (``fast_jit``) against ``FastRace``, playout for playout.

``FastRace`` is checked against the engine move for move (``test_fast.py``); the compiled loop
is checked against ``FastRace``: from thousands of positions of whole random games (every
phase and variant, cards entered, horses boxed, pulled up, lost turns pending), both pacings,
both are fed the same uniform numbers, and they must draw as many of them and end with the
same figures. Then the chances themselves: estimates on either path agree within their error.
"""

from __future__ import annotations

import numpy as np
import pytest

from aids.games.chances import PlayoutTooLong, estimate
from aids.games.grand_national.chances import GnChances
from aids.games.grand_national.fast_jit import AVAILABLE, Kernel, warm
from aids.games.grand_national.fast_state import race_of
from tests.games.grand_national.test_fast import positions

POSITIONS = 1_500


class Feed:
    """``random.Random``'s one method ``FastRace.play_out`` calls, reading given numbers."""

    def __init__(self, numbers: np.ndarray) -> None:
        self.numbers, self.used = numbers, 0

    def random(self) -> float:
        value = float(self.numbers[self.used])
        self.used += 1
        return value


def test_numba_is_installed_so_the_chances_run_compiled() -> None:
    """The project depends on Numba: without it the chances fall back to ``FastRace``,
    several times slower than issue 20's target."""
    assert AVAILABLE
    assert GnChances.compiled


@pytest.mark.parametrize("pacing", ["rider", "uniform"])
def test_the_compiled_loop_plays_each_playout_as_fast_race_does_on_1500_positions(
    pacing: str,
) -> None:
    """Fed the same numbers, the compiled loop draws as many as ``FastRace.play_out`` and
    ends with the same row: each horse 1st, placed, each stable's money after settlement."""
    phases: dict[str, int] = {}
    for i, state in enumerate(positions(POSITIONS, 31)):
        race = race_of(state, pacing)
        numbers = np.random.default_rng(i).random(4_000)
        feed = Feed(numbers)
        want = race.copy().play_out(feed)  # type: ignore[arg-type]
        rows, drawn = Kernel(race).play(np.array([i]), draws=numbers)
        assert drawn == feed.used, (i, state.phase, drawn, feed.used)
        assert rows[0].tolist() == pytest.approx(want, abs=1e-9), (i, state.phase)
        phases[state.phase] = phases.get(state.phase, 0) + 1
    assert set(phases) >= {"going", "lanes", "market", "race", "over"}, phases


def test_past_the_given_numbers_it_draws_its_own_and_a_playout_depends_on_its_seed_alone() -> None:
    state = next(s for s in positions(200, 4) if s.phase == "going")
    kernel = Kernel(race_of(state))
    seeds = np.arange(50)
    first, drawn = kernel.play(seeds)
    again = np.vstack([kernel.play(seeds[:20])[0], kernel.play(seeds[20:])[0]])  # split
    other, _ = kernel.play(seeds + 50)
    assert drawn > 50 and np.array_equal(first, again) and not np.array_equal(first, other)
    n = state.horses
    assert np.all(first[:, :n].sum(axis=1) == 1.0)  # one winner a race
    assert np.all(first[:, n : 2 * n].sum(axis=1) <= 4.0)


def test_a_playout_past_its_steps_is_refused_as_too_long() -> None:
    """The step cap of ``FastRace`` holds: the chances' deadline can never wait on a loop."""
    state = next(s for s in positions(200, 4) if s.phase == "race")
    with pytest.raises(PlayoutTooLong):
        Kernel(race_of(state)).play(np.array([1]), max_steps=2)


def test_warming_compiles_the_loop_without_a_race() -> None:
    warm()  # the worker calls this before it takes a job; a second call is instant
    warm()


@pytest.mark.parametrize("step", [0, 40, 110])
def test_the_chances_agree_on_either_path_within_their_error(step: int) -> None:
    """The same position estimated on ``FastRace`` and on the compiled loop: every figure
    within the two estimates' combined 99.9 % error (the paths draw different numbers)."""
    states = [s for s in positions(400, 12) if s.phase in ("market", "race")]
    state = states[min(step, len(states) - 1)]

    class Plain(GnChances):
        compiled = False

    fast = estimate(GnChances(), state, playouts=4_000, seed=1, exact=False)
    plain = estimate(Plain(), state, playouts=4_000, seed=2, exact=False)
    for m, a, b, ea, eb in zip(
        fast.measures, fast.values, plain.values, fast.errors, plain.errors, strict=True
    ):
        allowed = 3.3 / 1.96 * (ea * ea + eb * eb) ** 0.5 + 1e-9
        assert abs(a - b) <= allowed, (m, a, b, allowed)


def test_the_same_seed_gives_the_same_figures() -> None:
    """The compiled loop seeds its own generator from the estimate's ``random.Random``, so
    an estimate repeats (every tracker shows one position's figures alike)."""
    state = next(s for s in positions(200, 4) if s.phase == "race")
    one = estimate(GnChances(), state, playouts=500, seed=3, exact=False)
    two = estimate(GnChances(), state, playouts=500, seed=3, exact=False)
    three = estimate(GnChances(), state, playouts=500, seed=4, exact=False)
    assert one.values == two.values and one.values != three.values
