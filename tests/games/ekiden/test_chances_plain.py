"""The Ekiden's live chances against a plain playout loop over the engine (issue 18 §4).

The plain loop shares nothing with ``aids.games.ekiden.chances`` but the engine. It draws what
the viewer cannot see as the model ``ekiden.chances.model`` states: each runner a team has
not yet run, with replacement, from the runners run so far at the table (before the first,
from the runners the engine offers to type in), and each situation card among the engine's
legal ones with the chance of its marks at the ranks given out (the marks revealed at that
rank so far plus one of each; ranks not given out read "—"); each team plays uniformly among
its legal picks (``Ekiden.legal_actions``) through ``Ekiden.apply``. Positions come from whole
random relays of 3–5 teams on random courses, with rosters entered and with runners typed in.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from aids.games.base import CHANCE, REFEREE, VIEWER, Role
from aids.games.chances import Estimate, estimate
from aids.games.ekiden import GAME, engine
from aids.games.ekiden.model import (
    SKILLS,
    EkidenSetup,
    EkidenState,
    Roster,
    Run,
    Runner,
    Situation,
    Terrain,
)
from tests.games.plain_check import Comparison

BUDGET = 2.0  # seconds an estimate may take: it must stop by then
SLACK = 1.0  # past the budget, for the relay under way and the figures' arithmetic
MAX_STEPS = 200  # ten legs of a card and at most five runners
MARKS = ("o", "-", "x")


def random_runner(rng: random.Random) -> Runner:
    skill = rng.choice((None, *SKILLS))
    return Runner(rng.randint(2, 6), rng.randint(0, 3), rng.randint(0, 2), skill)


def relay(rng: random.Random, teams: int, rosters: bool) -> list[EkidenState]:
    """A whole random relay (the referee's states): a random course and start player, the
    rosters entered (random runners) or runners typed in from a few kinds, random cards."""
    course = tuple(
        rng.choice([Terrain("flat"), Terrain("up", rng.randint(1, 3)), Terrain("down", 2)])
        for _ in range(10)
    )
    base = EkidenSetup.default(["Aki", "Ben", "Chie", "Dai", "Emi"][:teams])
    state = engine.initial_state(replace(base, start=rng.randrange(teams), course=course))
    kinds = [random_runner(rng) for _ in range(rng.randint(2, 6))]
    if rosters:
        for team in range(teams):
            state = engine.apply(state, Roster(team, tuple(random_runner(rng) for _ in range(10))))
    states = [state]
    while not engine.is_over(state):
        if state.phase == "situation":
            marks = tuple(rng.choice(MARKS) for _ in range(5))
            state = engine.apply(state, Situation(state.leg, marks))  # type: ignore[arg-type]
        else:
            team = engine.next_runner(state)
            assert team is not None
            if rosters:
                state = engine.apply(state, rng.choice(engine.legal_actions(state)))
            else:
                state = engine.apply(state, Run(team, state.leg, runner=rng.choice(kinds)))
        states.append(state)
    return states


# --- the plain loop --------------------------------------------------------------------------


def run_so_far(state: EkidenState) -> list[tuple[int, Runner]]:
    """(team, runner) of every runner run: the finished legs, then this one's; no names."""
    entries = [e for leg in state.history for e in leg] + list(state.entries)
    return [(e.team, replace(e.runner, name="")) for e in entries]


def pool(state: EkidenState) -> list[Runner]:
    """What a runner not yet run is drawn from."""
    ran = [r for _, r in run_so_far(state)]
    if ran:
        return ran
    probe = state
    if probe.phase == "situation":
        probe = engine.apply(probe, Situation(probe.leg, ("-",) * 5))
    probe = replace(probe, rosters=(None,) * probe.teams)
    return [a.runner for a in engine.legal_actions(probe) if isinstance(a, Run) and a.runner]


def card_weights(state: EkidenState) -> dict[tuple[str, ...], float]:
    """Each card's chance as the ranks given out read it (other ranks "—")."""
    given = engine.rank_labels(state.teams)
    seen: Counter[tuple[int, str]] = Counter()
    cards = len(state.history)
    for leg in state.history:
        for e in leg:
            seen[e.rank, e.mark or ""] += 1
    if state.marks is not None:
        cards += 1
        for rank in given:
            seen[rank, state.marks[rank - 1]] += 1
    out: dict[tuple[str, ...], float] = {}
    for marks in _all_cards():
        chance = 1.0
        for rank in range(1, 6):
            mark = marks[rank - 1]
            if rank in given:
                chance *= (1 + seen[rank, mark]) / (3 + cards)
            elif mark != "-":
                chance = 0.0
        if chance:
            out[marks] = chance
    return out


def _all_cards() -> list[tuple[str, ...]]:
    cards: list[tuple[str, ...]] = [()]
    for _ in range(5):
        cards = [(*c, m) for c in cards for m in MARKS]
    return cards


def plain_playout(
    state: EkidenState,
    runners: list[Runner],
    weights: dict[tuple[str, ...], float],
    rng: random.Random,
) -> EkidenState:
    """Rosters drawn, then the relay to its end through the game's own legal actions."""
    ran = run_so_far(state)
    rosters = []
    for team in range(state.teams):
        mine = [r for t, r in ran if t == team]
        rosters.append(tuple(mine + rng.choices(runners, k=10 - len(mine))))
    used = tuple(
        frozenset(range(sum(1 for t, _ in ran if t == team))) for team in range(state.teams)
    )
    state = replace(state, rosters=tuple(rosters), used=used)
    for _ in range(MAX_STEPS):
        if engine.is_over(state):
            return state
        (actor,) = GAME.to_move(state)
        actions = list(GAME.legal_actions(state, actor))
        if actor == CHANCE:
            chances = [weights.get(a.marks, 0.0) for a in actions if isinstance(a, Situation)]
            action = rng.choices(actions, weights=chances)[0]
        else:
            action = actions[rng.randrange(len(actions))]
        state = GAME.apply(state, action, REFEREE if actor == CHANCE else actor)
    raise AssertionError(f"a plain relay did not end in {MAX_STEPS} steps")


def figures(fast: Estimate, final: EkidenState) -> list[float]:
    order = engine.standings(final)
    return [
        (1.0 if order[0] == m.index else 0.0)
        if m.group == "win"
        else float(order.index(m.index) + 1)
        for m in fast.measures
    ]


@pytest.mark.timeout(300)
def test_the_model_agrees_with_a_plain_engine_loop_on_random_positions() -> None:
    """Chances model (ekiden.chances.model): on 210 positions of whole random relays of 3–5
    teams — half with rosters entered, half with runners typed in — ``estimate`` and the
    plain loop (40 relays each) agree within their errors, figure by figure and summed over
    the positions, and every estimate ends within its budget."""
    rng = random.Random(18)
    check = Comparison()
    game = 0
    while check.positions() < 210:
        teams, rosters = 3 + game % 3, game % 2 == 0
        states = relay(rng, teams, rosters)
        for at in sorted(rng.sample(range(len(states) - 1), 6)):
            viewed = [GAME.view(s, VIEWER) for s in states[: at + 1]]
            state = viewed[-1]
            fast = estimate(
                GAME.chances(viewed), state, playouts=40, seed=game * 1000 + at, budget=BUDGET
            )
            assert fast.seconds <= BUDGET + SLACK and (fast.exact or fast.playouts > 1)
            plain_rng = random.Random(game * 1000 + at + 1)
            runners, weights = pool(state), card_weights(state)
            plain = [
                figures(fast, plain_playout(state, runners, weights, plain_rng)) for _ in range(40)
            ]
            check.add(f"relay {game} at {at}", fast, plain, teams)
        game += 1
    assert Role.seat_of(0) != REFEREE  # seats act for themselves in the plain loop
    check.check()
