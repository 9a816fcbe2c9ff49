"""The rally's live chances against a plain playout loop over the engine (issue 18 §4).

The plain loop shares nothing with ``aids.games.rally.chances`` but the engine. It deals what
nobody has seen as the model ``rally.chances.model`` states — every card but those played
since the last reshuffle (read from the history's turn records), shuffled into the hands of
their public sizes, the cards thrown down unseen and the pile, a reshuffle seed drawn at
random — and drives every car with the greedy driver the model states, choosing among the
game's own legal actions (``Rally.legal_actions``): a ferry that takes it nearer the goal; a
defence lifting its own jam, engine failure or rain; the travel whose town is nearest the
goal (fewest cards, then fewest km, the town of that drive nearest the goal, then the longer
drive); then uniformly among every attack, defence and ending the turn (the discards shared
among the ends), until the race is over or 100 rounds on (the referee ends it). Positions
come from whole greedy races of 2–5 cars on every sample course, simulated and tracked (their
twins), individual and team play, with every machine preset.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from aids.games.base import REFEREE, VIEWER, Role
from aids.games.chances import Estimate, estimate
from aids.games.rally import GAME, engine
from aids.games.rally.data import load
from aids.games.rally.model import (
    Action,
    Attack,
    Defend,
    Draw,
    EndRace,
    EndTurn,
    Ferry,
    Machine,
    RallySetup,
    RallyState,
    Travel,
)
from tests.games.plain_check import Comparison

BUDGET = 3.0  # seconds an estimate may take: it must stop by then
SLACK = 1.5  # past the budget, for the race under way and the figures' arithmetic
CAP_ROUNDS = 100  # the model's rounds beyond the position before the referee ends the race
MAX_STEPS = 50_000


def random_setup(rng: random.Random, players: int, mode: str) -> RallySetup:
    base = RallySetup.default(["Aki", "Ben", "Chie", "Dai", "Emi"][:players], mode="simulation")
    course = rng.choice(base.board.courses)
    machines = [Machine(p.actions, p.hand, p.draw) for p in load().presets]
    teams: tuple[str, ...] = ()
    seats = [replace(p, machine=rng.choice(machines)) for p in base.players]
    if players >= 4 and rng.random() < 0.5:
        teams = ("East", "West")
        seats = [replace(p, team=i % 2) for i, p in enumerate(seats)]
    return replace(
        base,
        players=tuple(seats),
        start_player=rng.randrange(players),
        start=course.start,
        goal=course.goal,
        teams=teams,
        mode=mode,  # type: ignore[arg-type]
        seed=rng.randrange(2**31) if mode == "simulation" else None,
    )


def race(rng: random.Random) -> tuple[list[RallyState], list[RallyState]]:
    """A whole simulated race driven by the greedy driver (the referee's states) and its
    tracking twin (the same actions, discards unnamed)."""
    players = rng.randint(2, 5)
    setup = random_setup(rng, players, "simulation")
    sim = engine.initial_state(setup)
    twin = engine.initial_state(replace(setup, mode="tracking", seed=None))
    sims, twins = [sim], [twin]
    while sim.phase != "over":
        if sim.round > CAP_ROUNDS:
            action: Action = EndRace()
        else:
            action = greedy(sim, rng)
        told = replace(action, discard=()) if isinstance(action, EndTurn) else action
        sim, twin = engine.apply(sim, action), engine.apply(twin, told)
        sims.append(sim)
        twins.append(twin)
    return sims, twins


# --- the plain loop --------------------------------------------------------------------------


def greedy(state: RallyState, rng: random.Random) -> Action:
    """The greedy driver's action, among the game's legal actions for the seat to act."""
    seat = state.turn
    legal = list(GAME.legal_actions(state, Role.seat_of(seat)))
    if state.phase == "draw":
        (draw,) = [a for a in legal if isinstance(a, Draw)]
        return draw
    here = engine.to_goal(state, state.towns[seat])
    ferries = [a for a in legal if isinstance(a, Ferry) and engine.to_goal(state, a.to) < here]
    if ferries:
        return min(ferries, key=lambda a: (engine.to_goal(state, a.to), a.to))
    if state.actions_left > 0:
        for own in (
            Defend(seat, "jam_clear", town=state.towns[seat]),
            Defend(seat, "repair", target=seat),
            Defend(seat, "clear_sky", target=seat),
        ):
            if own in legal:
                return own
        travels = [a for a in legal if isinstance(a, Travel)]
        if travels:

            def nearest(a: Travel) -> tuple[object, ...]:
                km = engine.travel_km(a.cards)
                road = engine.reachable(state, seat, km)[a.to]
                return (engine.to_goal(state, a.to), len(a.cards), km, a.cards, -road, a.to)

            best = min(travels, key=nearest)
            if engine.to_goal(state, best.to) < here:
                return best
    plays = [a for a in legal if isinstance(a, Attack | Defend)]
    ends = [a for a in legal if isinstance(a, EndTurn)]
    pick = rng.randrange(len(plays) + 1)
    return plays[pick] if pick < len(plays) else ends[rng.randrange(len(ends))]


def seen_since_reshuffle(history: list[RallyState]) -> list[str]:
    """The cards played since the discard pile last became the draw pile."""
    state = history[-1]
    first = next(s for s in history if s.reshuffles == state.reshuffles)
    records = [*state.turns[len(first.turns) :], state.current]
    return [card for record in records for card in record.cards]


def deal(history: list[RallyState], rng: random.Random) -> RallyState:
    state = history[-1]
    seen = seen_since_reshuffle(history)
    unseen = list((Counter(engine.full_deck()) - Counter(seen)).elements())
    rng.shuffle(unseen)
    hands, at = [], 0
    for size in state.hand_sizes:
        hands.append(tuple(sorted(unseen[at : at + size])))
        at += size
    thrown = state.discard_size - len(seen)
    assert thrown >= 0 and len(unseen) - at - thrown == state.pile_size
    discard = tuple(sorted(seen + unseen[at : at + thrown]))
    setup = replace(state.setup, mode="simulation", seed=rng.randrange(2**31))
    return replace(
        state, setup=setup, hands=tuple(hands), discard=discard, pile=tuple(unseen[at + thrown :])
    )


def plain_playout(history: list[RallyState], rng: random.Random) -> RallyState:
    state = deal(history, rng)
    last = history[-1].round + CAP_ROUNDS
    for _ in range(MAX_STEPS):
        if state.phase == "over":
            return state
        if state.round > last:
            (end,) = GAME.legal_actions(state, REFEREE)
            return GAME.apply(state, end, REFEREE)
        state = GAME.apply(state, greedy(state, rng), Role.seat_of(state.turn))
    raise AssertionError(f"a plain playout did not end in {MAX_STEPS} steps")


def figures(fast: Estimate, final: RallyState) -> list[float]:
    groups = engine.placings(final)
    place, places = 1, {}
    for group in groups:
        places.update(dict.fromkeys(group, place))
        place += len(group)
    totals = engine.team_totals(final) if final.setup.teams else ()
    out = []
    for m in fast.measures:
        if m.group == "first":
            out.append(1.0 / len(groups[0]) if m.index in groups[0] else 0.0)
        elif m.group == "place":
            out.append(float(places[m.index]))
        elif m.group == "team":
            best = max(totals)
            out.append(1.0 / totals.count(best) if totals[m.index] == best else 0.0)
        else:
            out.append(float(totals[m.index]))
    return out


@pytest.mark.timeout(300)
def test_the_model_agrees_with_a_plain_engine_loop_on_random_positions() -> None:
    """Chances model (rally.chances.model): on 200 positions of whole greedy races of 2–5
    cars — simulated and tracked, individual and team play, every course and machine
    preset — ``estimate`` and the plain loop (8 races each) agree within their errors, figure
    by figure and summed over the positions, and every estimate ends within its budget."""
    rng = random.Random(18)
    check = Comparison()
    number = 0
    while check.positions() < 200:
        sims, twins = race(rng)
        for kind, states in (("simulation", sims), ("tracking", twins)):
            for at in sorted(rng.sample(range(len(states) - 1), 2)):
                history = [GAME.view(s, VIEWER) for s in states[: at + 1]]
                state = history[-1]
                seed = number * 100_000 + at
                fast = estimate(GAME.chances(history), state, playouts=8, seed=seed, budget=BUDGET)
                assert fast.seconds <= BUDGET + SLACK and (fast.exact or fast.playouts > 1)
                plain_rng = random.Random(seed + 1)
                plain = [figures(fast, plain_playout(history, plain_rng)) for _ in range(8)]
                check.add(f"{kind} race {number} at {at}", fast, plain, state.players)
        number += 1
    check.check()
