"""Full-information simulation: random legal races for tests and probability estimates."""

from __future__ import annotations

import random
from dataclasses import replace

from aids.games.derby import engine
from aids.games.derby.model import Action, DerbyState, Pass, PlayCard


def with_fallen_discards(state: DerbyState, action: Action) -> Action:
    """The same play or pass, discarding every card of a fallen horse the hand will hold."""
    if not isinstance(action, PlayCard | Pass):
        return action
    after = engine.apply(state, action)  # who has fallen once this action resolves
    fallen = {state.setup.horses[h].colour for h, f in enumerate(after.fallen) if f is not None}
    hand = list(state.hands[action.player])
    if isinstance(action, PlayCard):
        hand.remove(action.card)
    discard = tuple(c for c in hand if c.colour in fallen)
    return replace(action, discard=discard) if discard else action


def random_action(state: DerbyState, rng: random.Random, bet_chance: float = 0.5) -> Action:
    """A random legal action: sometimes a bet, then a play (or the forced pass)."""
    actions = engine.legal_actions(state)
    bets = [a for a in actions if not isinstance(a, PlayCard | Pass)]
    others = [a for a in actions if isinstance(a, PlayCard | Pass)]
    if bets and rng.random() < bet_chance:
        return rng.choice(bets)
    return with_fallen_discards(state, rng.choice(others))


def play_out(
    state: DerbyState, rng: random.Random, max_moves: int = 2000
) -> tuple[DerbyState, list[Action]]:
    """Play random legal actions to the end; returns the final state and the log."""
    log: list[Action] = []
    while not engine.is_over(state) and len(log) < max_moves:
        action = random_action(state, rng)
        state = engine.apply(state, action)
        log.append(action)
    return state, log
