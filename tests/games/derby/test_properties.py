"""Random legal simulation races keep the invariants listed in the rules digest."""

from __future__ import annotations

import random
from collections import Counter as Tally

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aids.games.derby import engine
from aids.games.derby.data import load
from aids.games.derby.model import Bet, DerbySetup, PlayCard
from aids.games.derby.simulate import play_out

races = st.tuples(
    st.integers(min_value=2, max_value=5),  # players
    st.integers(min_value=0, max_value=2**32 - 1),  # deal
    st.integers(min_value=0, max_value=2**32 - 1),  # choices
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(races)
def test_random_simulation_races_keep_the_invariants(race: tuple[int, int, int]) -> None:
    players, deal, choices = race
    setup = DerbySetup.default([f"P{i}" for i in range(players)], mode="simulation", seed=deal)
    start = engine.initial_state(setup)
    final, log = play_out(start, random.Random(choices))

    # The race ends: 3 finishers after fence 5, or all that remain when the cards run out.
    assert final.ended is not None
    running = engine.finishers(final)
    if final.ended == "fence5":
        assert len(running) == 3
    else:
        assert final.pile == 0
        assert len(running) == 8 - (final.fence - 1)

    # No card is ever duplicated; every card is somewhere exactly once.
    on_table = [c for column in final.columns for stack in column for c in stack]
    assert len(on_table) == len(set(on_table)) == len(final.played)
    in_hands = [c for hand in final.hands for c in hand]
    everywhere = Tally(on_table) + Tally(in_hands) + Tally(final.deck)
    assert all(n == 1 for n in everywhere.values())
    assert sum(everywhere.values()) + final.discarded == 90

    # A slot holds at most one counter; nobody places more than they own.
    slots = [(c.horse, c.fence) for c in final.counters]
    assert len(slots) == len(set(slots))
    assert all(final.counters_left(p) >= 0 for p in range(players))

    # Scores equal the sum over surviving counters.
    payout = load().payout
    expected = [0] * players
    for c in final.counters:
        if c.horse in running:
            expected[c.player] += payout[c.fence]
    assert engine.scores(final) == tuple(expected)

    # Replay equals the live state; after fence k, 8 − k horses run.
    state = start
    for action in log:
        before = state.fence
        state = engine.apply(state, action)
        if state.fence != before:
            assert len(state.running) == 8 - before
        if isinstance(action, PlayCard) and state.fence == before:
            # resolution happens exactly when the last running slot is filled
            column = state.columns[state.fence - 1]
            assert any(not column[h] for h in state.running)
    assert state == final
    assert sum(isinstance(a, Bet) for a in log) == len(final.counters)
