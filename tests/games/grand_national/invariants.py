"""The Grand National digest's invariants as one check, shared by the state-machine tests."""

from __future__ import annotations

from aids.games.grand_national import engine
from aids.games.grand_national.data import load
from aids.games.grand_national.model import BANK, HELD, SEALED, GnState


def gn_invariants(state: GnState) -> None:
    """Money is conserved (every transfer a line between two parties, the parties summing to
    zero), no stable below $0, stakes held until settlement and none after; speed points within
    0..top; handicaps within 0–7; each horse moves at most once a round; at most 4 placed."""
    parties = {BANK, HELD, *range(state.seats)}
    assert sum(engine.balance(state.ledger, p) for p in parties) == 0
    assert all(line.amount > 0 and line.frm != line.to for line in state.ledger)
    assert all(engine.cash(state, s) >= 0 for s in range(state.seats))
    held = engine.balance(state.ledger, HELD)
    assert held == (0 if state.settled else sum(w.stake for w in state.wagers))
    low, high = load().handicap
    for h in range(state.horses):
        assert 0 <= state.used[h] <= state.top()
        assert low <= state.handicap[h] <= high
        assert state.penalty[h] >= 0
    assert state.moved <= set(range(state.horses))
    assert len(state.placed) <= len(load().prizes) and len(set(state.placed)) == len(state.placed)
    if state.phase == "race":  # never stuck: a horse is due, or the spinner is
        assert engine.next_horse(state) is not None or engine.needs_spin(state)
    for seat, bet in enumerate(state.blind):
        if bet is not None and bet is not SEALED and bet.stake:
            assert bet.stake <= load().blind_max and bet.seat == seat
