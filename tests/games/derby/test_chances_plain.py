"""The Derby's live chances against a plain playout loop over the engine (issue 18 §4).

The plain loop shares nothing with ``aids.games.derby.chances`` but the engine: it deals the
cards nobody has seen itself (the unseen cards less as many dead ones as were said to be
discarded, into hands of the sizes the referee's hands have and the pile) and plays uniformly
random legal actions (``engine.legal_actions``) through ``engine.apply`` to the engine's own
end, each play or pass discarding every dead card the hand holds — the model
``derby.chances.model`` states. Positions come from whole random races: simulations, and
their tracking twins where the referee declares each discard, or where the players keep the
dead cards in hand (the discards the log never hears of).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from aids.games.base import VIEWER
from aids.games.chances import Estimate, estimate
from aids.games.derby import engine
from aids.games.derby.chances import DerbyChances
from aids.games.derby.model import Action, Card, DerbySetup, DerbyState, Pass, PlayCard, full_deck
from tests.games.plain_check import Comparison

BUDGET = 2.0  # seconds an estimate may take: it must stop by then
SLACK = 1.0  # past the budget, for the playout under way and the figures' arithmetic
MAX_STEPS = 2_000  # a Derby race has at most 90 plays, 25 bets and fewer passes than turns


# --- whole random races, their positions ---------------------------------------------------


def race(rng: random.Random, players: int, keep: float) -> tuple[list[DerbyState], ...]:
    """A simulated race of random legal actions (each dead card in hand kept with chance
    ``keep``, else discarded; all discarded from a hand left with no live card, as a player
    would rather than pass for ever) and its tracking twin (the discards declared as a
    count): the simulation's states (the referee's) and the twin's."""
    names = ["A", "B", "C", "D", "E"][:players]
    sim = engine.initial_state(
        DerbySetup.default(names, mode="simulation", seed=rng.randrange(9**9))
    )
    twin = engine.initial_state(DerbySetup.default(names))
    sims, twins = [sim], [twin]
    while sim.ended is None:
        actions = engine.legal_actions(sim)
        action = actions[rng.randrange(len(actions))]
        if isinstance(action, PlayCard | Pass):
            dead = dead_after(sim, action)
            if len(dead) < len(sim.hands[action.player]) - isinstance(action, PlayCard):
                dead = tuple(c for c in dead if rng.random() >= keep)
            action = replace(action, discard=dead)
            told: Action = replace(action, discard=(), discard_count=len(dead))
        else:
            told = action
        sim, twin = engine.apply(sim, action), engine.apply(twin, told)
        sims.append(sim)
        twins.append(twin)
    return sims, twins


def dead_after(state: DerbyState, action: PlayCard | Pass) -> tuple[Card, ...]:
    """The cards of fallen horses the player's hand holds once ``action`` has resolved (the
    fence it completes included), before its draw."""
    fallen = engine.apply(state, replace(action, discard=(), discard_count=0)).fallen
    gone = {state.setup.horses[h].colour for h, f in enumerate(fallen) if f is not None}
    hand = list(state.hands[action.player])
    if isinstance(action, PlayCard):
        hand.remove(action.card)
    return tuple(c for c in hand if c.colour in gone)


# --- the plain loop --------------------------------------------------------------------------


def deal(state: DerbyState, sizes: list[int], rng: random.Random) -> DerbyState:
    """``state`` (public) as a simulation with the unseen cards dealt at random."""
    unseen = [c for c in full_deck() if c not in state.played]
    fallen = {state.setup.horses[h].colour for h, f in enumerate(state.fallen) if f is not None}
    dead = [c for c in unseen if c.colour in fallen]
    thrown = set(rng.sample(dead, state.discarded))
    rest = [c for c in unseen if c not in thrown]
    rng.shuffle(rest)
    hands, at = [], 0
    for size in sizes:
        hands.append(tuple(rest[at : at + size]))
        at += size
    assert len(rest) - at == state.pile
    setup = replace(state.setup, mode="simulation", seed=0)
    return replace(state, setup=setup, hands=tuple(hands), deck=tuple(rest[at:]))


def plain_playout(state: DerbyState, rng: random.Random) -> DerbyState:
    """Uniformly random legal actions to the engine's end, every dead card discarded."""
    for _ in range(MAX_STEPS):
        if state.ended is not None:
            return state
        actions = engine.legal_actions(state)
        action = actions[rng.randrange(len(actions))]
        if isinstance(action, PlayCard | Pass):
            action = replace(action, discard=dead_after(state, action))
        state = engine.apply(state, action)
    raise AssertionError(f"a plain playout did not end in {MAX_STEPS} steps")


def figures(fast: Estimate, final: DerbyState) -> list[float]:
    """The final race's figures in the model's order: each horse finishing, each player's
    share of the win, each player's points."""
    points = engine.scores(final)
    best = max(points)
    out = []
    for m in fast.measures:
        if m.group == "horse":
            out.append(1.0 if final.fallen[m.index] is None else 0.0)
        elif m.group == "player":
            out.append(1.0 / points.count(best) if points[m.index] == best else 0.0)
        else:
            out.append(float(points[m.index]))
    return out


def compare(
    check: Comparison, label: str, viewed: list[DerbyState], sizes: list[int], seed: int, n: int
) -> None:
    state = viewed[-1]
    fast = estimate(DerbyChances(viewed), state, playouts=n, seed=seed, budget=BUDGET)
    assert fast.seconds <= BUDGET + SLACK and (fast.exact or fast.playouts > 1)
    rng = random.Random(seed + 1)
    plain = [figures(fast, plain_playout(deal(state, sizes, rng), rng)) for _ in range(n)]
    check.add(label, fast, plain, len(state.setup.players))


@pytest.mark.timeout(300)
def test_the_fast_path_agrees_with_a_plain_engine_loop_on_random_positions() -> None:
    """Chances model (derby.chances.model): on 210 positions of whole random races of 2–5
    players — 70 of simulations, 140 of tracked races (half with every discard declared,
    half with the dead cards kept in hand) — ``estimate`` and the plain loop (50 playouts
    each) agree within their errors, figure by figure and summed over the positions, and
    every estimate ends within its budget."""
    rng = random.Random(18)
    check = Comparison()
    made = {"simulation": 0, "declared": 0, "kept": 0}
    want = {"simulation": 70, "declared": 70, "kept": 70}
    game = 0
    while made != want:
        kind = min((k for k in want if made[k] < want[k]), key=lambda k: made[k])
        keep = {"simulation": rng.choice([0.0, 0.5, 1.0]), "declared": 0.0, "kept": 1.0}[kind]
        sims, twins = race(rng, rng.randint(2, 5), keep)
        states = sims if kind == "simulation" else twins
        for at in sorted(rng.sample(range(len(states) - 1), 4)):  # four positions a race
            if made[kind] == want[kind]:
                break
            viewed = [engine.view(s, VIEWER) for s in states[: at + 1]]
            sizes = [len(h) for h in sims[at].hands]
            compare(check, f"{kind} race {game} at {at}", viewed, sizes, game * 100 + at, 50)
            made[kind] += 1
        game += 1
    assert check.positions() == sum(want.values())
    check.check()
