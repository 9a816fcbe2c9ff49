"""Random legal races, in both modes, checked against the digest's invariants after every
action: the card count, a movement's km, never passing a jammed town or crossing the strait
by road, and replay from the log equal to the state reached."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from aids.games.base import REFEREE, Role
from aids.games.rally import GAME, engine
from aids.games.rally.model import Action, RallySetup, RallyState, Travel
from tests.games.rally.invariants import rally_invariants

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi"]


def road_reach(state: RallyState, start: str, km: int) -> dict[str, int]:
    """An independent reading of the movement rule: relax every road until nothing changes,
    never leaving a jammed town other than the start, nor the goal (no heap, no shared code)."""
    best = {start: 0}
    changed = True
    while changed:
        changed = False
        for road in state.setup.board.roads:
            for a, b in ((road.a, road.b), (road.b, road.a)):
                if a in best and (a == start or (a not in state.jams and a != state.setup.goal)):
                    total = best[a] + road.km
                    if total <= km and total < best.get(b, km + 1):
                        best[b] = total
                        changed = True
    return best


def check_travel(before: RallyState, action: Travel, after: RallyState) -> None:
    """The km is the cards' sum (doubled by TOP SPEED), and the stop is within it by roads
    that pass no jammed town; the ferry is never part of a movement."""
    record = after.current
    # arriving, or "Move and end turn", ended the turn (later ones may be missed)
    if action.to == before.setup.goal or action.end:
        record = next(r for r in reversed(after.turns) if r.seat == action.seat and not r.missed)
    km = engine.travel_km(action.cards)
    assert record.km == km and record.to == action.to
    reach = road_reach(before, before.towns[action.seat], km)
    assert action.to in reach
    assert engine.reachable(before, action.seat, km) == reach


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 5),
    simulation=st.booleans(),
    near=st.booleans(),
)
def test_random_races_keep_the_digest_invariants(
    seed: int, players: int, simulation: bool, near: bool
) -> None:
    rng = random.Random(seed)
    setup = RallySetup.default(
        NAMES[:players], mode="simulation" if simulation else "tracking", seed=seed
    )
    if near:  # a short course, so races reach the goal and the end
        setup = RallySetup(setup.players, 0, "koriyama", "fukushima", setup.board,
                           mode=setup.mode, seed=setup.seed)  # fmt: skip
    state = GAME.initial_state(setup)
    log = []
    for _ in range(300):
        if GAME.is_over(state):
            break
        seat = Role.seat_of(state.turn)
        options = list(GAME.legal_actions(state, seat))
        assert options, "the seat to act always has a legal action (at least the draw or end)"
        moves = [a for a in options if isinstance(a, Travel)]
        # drive towards the goal most of the time, as players do
        action: Action
        if moves and rng.random() < 0.7:
            action = min(moves, key=lambda a: engine.to_goal(state, a.to))
        else:
            action = rng.choice(options)
        after = GAME.apply(state, action, REFEREE)
        if isinstance(action, Travel):
            check_travel(state, action, after)
        rally_invariants(after)
        log.append(action)
        state = after
    assert GAME.is_over(state) or len(log) == 300  # every car arrived, or the cap
    if GAME.is_over(state):
        assert set(state.arrived) == set(range(players))
    replayed = GAME.initial_state(setup)
    for action in log:
        replayed = GAME.apply(replayed, action, REFEREE)
    assert replayed == state
