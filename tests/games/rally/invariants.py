"""The rally digest's invariants as one check, shared by the state-machine tests."""

from __future__ import annotations

from collections import Counter

from aids.games.rally import engine
from aids.games.rally.data import load
from aids.games.rally.model import RallyState


def rally_invariants(state: RallyState) -> None:
    """Card counts: draw pile + all hands + discard pile = 104 (each card, in a simulation);
    every car on the map; statuses within the rules; a finished car carries none."""
    assert state.pile_size + sum(state.hand_sizes) + state.discard_size == load().total
    assert all(size >= 0 for size in state.hand_sizes)
    if state.simulation:
        held = Counter(state.pile) + Counter(state.discard)
        for hand in state.hands:
            held += Counter(hand)
        assert held == Counter(engine.full_deck())
        assert [len(h) for h in state.hands] == list(state.hand_sizes)
    board = state.setup.board
    assert all(board.has(town) for town in state.towns)
    assert all(board.has(town) for town in state.jams)
    assert all(0 <= turns <= load().police_turns for turns in state.police)
    for seat in state.arrived:
        assert state.towns[seat] == state.setup.goal
        assert not (state.rain[seat] or state.engine[seat] or state.police[seat])
    assert len(set(state.arrived)) == len(state.arrived)
    if state.phase != "over":
        assert state.turn not in state.arrived
        assert 0 <= state.actions_left <= state.machine(state.turn).actions
