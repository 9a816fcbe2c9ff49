"""The Derby's compiled playouts (``fast_jit``) against ``FastRace``, playout for playout.

``FastRace`` is checked against the engine move for move (``test_chances.py``); the compiled
loop is checked against ``FastRace``: at thousands of positions of random races (2–5
players, every fence, counters placed, horses fallen, the pile out), given the same hands,
pile and uniform numbers, both draw as many numbers and end with the same figures. The deal
is checked through the chances: playouts on the compiled path agree with exact enumeration
(``test_chances.py``'s small positions run on it) and with ``FastRace``'s within their error.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from aids.games.base import VIEWER
from aids.games.chances import PlayoutTooLong, estimate
from aids.games.derby import engine
from aids.games.derby.chances import DerbyChances
from aids.games.derby.fast_jit import AVAILABLE, Kernel
from aids.games.derby.simulate import random_action
from tests.games.derby.test_chances import _race_to, fast, sim
from tests.games.grand_national.test_fast_jit import Feed

POSITIONS = 3_000


def test_numba_is_installed_so_the_chances_run_compiled() -> None:
    assert AVAILABLE and DerbyChances.compiled


def test_the_compiled_loop_plays_each_race_as_fast_race_does_on_3000_positions() -> None:
    """Rule (all of derby.md, as ``FastRace`` has it): the same hands, pile and numbers give
    the same numbers drawn and the same row (each horse finishing, each player's share of the
    win, each player's points)."""
    rng = random.Random(77)
    seen, fences = 0, set()
    while seen < POSITIONS:
        state = sim(rng.randint(2, 5), rng.randrange(2**32))
        while state.ended is None and seen < POSITIONS:
            if rng.random() < 0.3:
                race = fast(state)
                numbers = np.random.default_rng(seen).random(2_000)
                feed = Feed(numbers)
                want = race.copy().play_out(feed)  # type: ignore[arg-type]
                deck = list(reversed(race.deck))  # the pile, its next card first
                row, drawn = Kernel(race).play_dealt(race.hands, deck, numbers)
                assert drawn == feed.used, seen
                assert row.tolist() == pytest.approx(want, abs=1e-12), seen
                seen += 1
                fences.add(state.fence)
            state = engine.apply(state, random_action(state, rng))
    assert fences >= {1, 2, 3, 4, 5}


def test_a_race_past_its_step_cap_is_refused_as_too_long() -> None:
    race = fast(sim(3, 5))
    with pytest.raises(PlayoutTooLong):
        Kernel(race).play_dealt(race.hands, list(reversed(race.deck)), np.zeros(0), max_steps=3)


@pytest.mark.parametrize("stop", [0, 30, 60])
def test_the_chances_agree_on_either_path_within_their_error(stop: int) -> None:
    """The same viewer's position estimated with deals and races on ``FastRace`` and on the
    compiled loop: every figure within the two estimates' combined 99.9 % error."""
    _, history = _race_to(lambda s: s.moves >= stop, random.Random(stop + 1))
    viewed = [engine.view(s, VIEWER) for s in history]

    class Plain(DerbyChances):
        compiled = False

    fast_figures = estimate(DerbyChances(viewed), viewed[-1], playouts=4_000, seed=1, exact=False)
    plain = estimate(Plain(viewed), viewed[-1], playouts=4_000, seed=2, exact=False)
    for m, a, b, ea, eb in zip(
        fast_figures.measures, fast_figures.values, plain.values, fast_figures.errors,
        plain.errors, strict=True,
    ):  # fmt: skip
        allowed = 3.3 / 1.96 * (ea * ea + eb * eb) ** 0.5 + 1e-9
        assert abs(a - b) <= allowed, (m, a, b, allowed)


def test_a_deal_keeps_the_counts_the_table_knows() -> None:
    """Every compiled deal is a race of the same table: its rows hold one share of the win
    in all, and a horse fallen before stays fallen."""
    state, history = _race_to(lambda s: s.fence >= 3, random.Random(9))
    viewed = [engine.view(s, VIEWER) for s in history]
    model = DerbyChances(viewed)
    rows = np.array(model.playouts(viewed[-1], 300, random.Random(4)))
    players = len(state.setup.players)
    assert np.allclose(rows[:, 8 : 8 + players].sum(axis=1), 1.0)
    for h, fell in enumerate(state.fallen):
        if fell is not None:
            assert np.all(rows[:, h] == 0.0)
