"""Money conservation over random legal action sequences (every actor's legal actions, bets
and odds included), with the digest's invariants after every action and replay equal to the
state reached."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from aids.games.base import CHANCE, REFEREE, Role
from aids.games.grand_national import GAME, engine
from aids.games.grand_national.model import Action, GnSetup
from tests.games.grand_national.invariants import gn_invariants

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi", "Fumi"]


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    stables=st.integers(2, 6),
    order=st.sampled_from(["caps", "position"]),
    too_free=st.sampled_from(["any_time", "round_end"]),
)
def test_random_legal_play_conserves_money(
    seed: int, stables: int, order: str, too_free: str
) -> None:
    rng = random.Random(seed)
    base = GnSetup.default(NAMES[:stables])
    setup = GnSetup(base.stables, base.bookmaker, base.track, order, too_free)  # type: ignore[arg-type]
    state = GAME.initial_state(setup)
    log: list[tuple[Action, Role]] = []
    for _ in range(1500):
        if GAME.is_over(state):
            break
        actors = sorted(GAME.to_move(state))
        if state.phase == "market":  # players bet on their own links too
            actors += [Role.seat_of(s) for s in range(state.seats)]
        actor = rng.choice(actors)
        options = list(GAME.legal_actions(state, actor))
        if not options:
            continue
        action = rng.choice(options)
        who = REFEREE if actor == CHANCE else actor
        state = GAME.apply(state, action, who)
        gn_invariants(state)
        log.append((action, who))
    if GAME.is_over(state):
        assert state.settled and engine.balance(state.ledger, -2) == 0
    replayed = GAME.initial_state(setup)
    for action, who in log:
        replayed = GAME.apply(replayed, action, who)
    assert replayed == state
