"""Grand National's live chances against a plain playout loop over the engine (issue 18 §4).

The plain loop shares nothing with ``aids.games.grand_national.chances`` but the engine: at
each step it asks the game who is to move and what they may do (``GrandNational.to_move``,
``legal_actions``) and takes the choice the model ``gn.chances.model`` states — a blind bet
still to write is none; a spin (going, lanes, caps) uniform among the engine's chance actions;
the market starts the race as it stands; the horse due moves straight on in its lane at a
rider's pace: uniform among its even pace (the fastest speed it could run every turn to the
finish on the points it has) and one point either side, leaving out any speed after which it
could not finish even at one point a turn (all its legal speeds if it cannot finish at all) —
through ``GrandNational.apply``, to the engine's end.
Positions come from whole random games of 2–6 stables in every variant (cap or position
order, running too free at any time or at the round's end, the palette's spinner or a
shuffled one, any bookmaker), blind bets written or not, the market and the race full of the
referee's other actions (handicaps, odds, bets, cards, boxed horses, pull-ups).
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from aids.games.base import CHANCE, REFEREE, VIEWER, Role
from aids.games.chances import Estimate, estimate
from aids.games.grand_national import GAME, engine
from aids.games.grand_national.data import load
from aids.games.grand_national.model import (
    BlindBet,
    Boxed,
    GnSetup,
    GnState,
    Move,
    Start,
)
from tests.games.plain_check import Comparison

BUDGET = 2.0  # seconds an estimate may take: it must stop by then
SLACK = 1.0  # past the budget, for the race under way and the figures' arithmetic
MAX_STEPS = 5_000  # every move burns a speed point


def random_setup(rng: random.Random) -> GnSetup:
    d = load()
    count = rng.randint(d.min_stables, d.max_stables)
    base = GnSetup.default(["Aki", "Ben", "Chie", "Dai", "Emi", "Fumi"][:count])
    stables = tuple(
        replace(s, horses=tuple(replace(h, handicap=rng.randint(*d.handicap)) for h in s.horses))
        for s in base.stables
    )
    ring = [c.key for c in d.colours]
    rng.shuffle(ring)
    return replace(
        base,
        stables=stables,
        bookmaker=rng.randrange(count),
        order=rng.choice(["caps", "position"]),
        too_free=rng.choice(["any_time", "round_end"]),
        spinner=tuple(ring) if rng.random() < 0.5 else (),
    )


def game(rng: random.Random) -> list[GnState]:
    """A whole random game (the referee's states): random legal actions of whoever is to
    move, the referee mostly moving the horse due (any lane and speed) and now and then
    playing a card, boxing a horse in or pulling one up."""
    state = engine.initial_state(random_setup(rng))
    states = [state]
    for _ in range(MAX_STEPS):
        if state.phase == "over":
            return states
        actor = rng.choice(sorted(GAME.to_move(state)))
        actions = list(GAME.legal_actions(state, actor))
        if state.phase == "market":
            seat = Role.seat_of(rng.randrange(state.seats))
            bets = list(GAME.legal_actions(state, seat))
            if bets and rng.random() < 0.3:
                actor, actions = seat, bets
            elif rng.random() < 0.3:
                actions = [a for a in actions if isinstance(a, Start)]
        if state.phase == "race" and actor == REFEREE and rng.random() < 0.9:
            actions = [a for a in actions if isinstance(a, Move | Boxed)] or actions
        action = actions[rng.randrange(len(actions))]
        state = GAME.apply(state, action, REFEREE if actor == CHANCE else actor)
        states.append(state)
    raise AssertionError("a random game did not end")


# --- the plain loop --------------------------------------------------------------------------


def rider_moves(state: GnState, moves: list[Move]) -> list[Move]:
    """The stated rider's choice among the due horse's straight moves (the engine's list)."""
    horse = moves[0].horse
    handicap, points = state.handicap[horse], state.speed_left(horse)
    to_go = state.setup.track.finish - state.distance[horse]

    def turns(speed: int) -> int:
        return math.ceil(to_go / (handicap + speed))

    def could_still_finish(speed: int) -> bool:
        rest = to_go - handicap - speed
        return rest <= 0 or points - speed >= math.ceil(rest / (handicap + 1))

    by_speed = {m.forward - handicap: m for m in moves}
    paces = [v for v in by_speed if v * turns(v) <= points]
    if not paces:
        return moves
    even = max(paces)
    return [m for v, m in sorted(by_speed.items()) if abs(v - even) <= 1 and could_still_finish(v)]


def plain_playout(state: GnState, rng: random.Random) -> GnState:
    for _ in range(MAX_STEPS):
        movers = sorted(GAME.to_move(state))
        if not movers:
            return state
        if CHANCE in movers:
            actions = list(GAME.legal_actions(state, CHANCE))
            action = actions[rng.randrange(len(actions))]
            state = GAME.apply(state, action, REFEREE)
        elif state.phase == "blind_bets":
            seat = movers[0]
            (none,) = [
                a
                for a in GAME.legal_actions(state, seat)
                if isinstance(a, BlindBet) and a.horse is None
            ]
            state = GAME.apply(state, none, seat)
        elif state.phase == "market":
            (start,) = [a for a in GAME.legal_actions(state, REFEREE) if isinstance(a, Start)]
            state = GAME.apply(state, start, REFEREE)
        else:
            moves = [
                a
                for a in GAME.legal_actions(state, REFEREE)
                if isinstance(a, Move) and a.lane == state.lane[a.horse]
            ]
            if not moves:
                return state
            moves = rider_moves(state, moves)
            state = GAME.apply(state, moves[rng.randrange(len(moves))], REFEREE)
    raise AssertionError(f"a plain playout did not end in {MAX_STEPS} steps")


def figures(fast: Estimate, final: GnState) -> list[float]:
    out = []
    for m in fast.measures:
        if m.group == "win":
            out.append(1.0 if final.placed[:1] == (m.index,) else 0.0)
        elif m.group == "placed":
            out.append(1.0 if m.index in final.placed else 0.0)
        else:
            out.append(float(engine.cash(final, m.index)))
    return out


@pytest.mark.timeout(300)
def test_the_model_agrees_with_a_plain_engine_loop_on_random_positions() -> None:
    """Chances model (gn.chances.model): on 200 positions of whole random games of 2–6
    stables in every variant, ``estimate`` and the plain loop (12 races each) agree within
    their errors, figure by figure and summed over the positions, and every estimate ends
    within its budget."""
    rng = random.Random(18)
    check = Comparison()
    number = 0
    while check.positions() < 200:
        states = game(rng)
        for at in sorted(rng.sample(range(len(states) - 1), 5)):
            state = GAME.view(states[at], VIEWER)
            model = GAME.chances([GAME.view(s, VIEWER) for s in states[: at + 1]])
            seed = number * 10_000 + at
            fast = estimate(model, state, playouts=12, seed=seed, budget=BUDGET)
            assert fast.seconds <= BUDGET + SLACK and (fast.exact or fast.playouts > 1)
            plain_rng = random.Random(seed + 1)
            plain = [figures(fast, plain_playout(state, plain_rng)) for _ in range(12)]
            check.add(f"game {number} at {at} ({state.phase})", fast, plain, state.seats)
        number += 1
    check.check()
