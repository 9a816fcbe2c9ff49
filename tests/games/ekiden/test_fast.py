"""The Ekiden's fast playout path (``FastRelay``) against the engine: the same legal actions
and the same state after each, move for move, on thousands of random positions; a whole
playout, its draws taken as the model states them, replayed through the engine to the same
result."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest

from aids.games.base import VIEWER
from aids.games.chances import PlayoutTooLong
from aids.games.ekiden import GAME, engine
from aids.games.ekiden.chances import fast_relay, result
from aids.games.ekiden.fast import (
    CARD_MARKS,
    PHASES,
    FastRelay,
    Runners,
    card_code,
    fast_action,
    to_engine_action,
)
from aids.games.ekiden.model import (
    MARKS,
    SKILLS,
    EkidenSetup,
    EkidenState,
    Roster,
    Run,
    Runner,
    Situation,
    Terrain,
)

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi"]


def random_runner(rng: random.Random) -> Runner:
    """Any card the rules allow: power 2–6, up and down 0–9, any skill or none."""
    skill = rng.choice((None, *SKILLS))
    return Runner(rng.randint(2, 6), rng.randint(0, 9), rng.randint(0, 9), skill)


def random_start(rng: random.Random) -> EkidenState:
    """3–5 teams on a random course (flat, uphill 1–9, downhill 1–9) with a random start
    player; each team's roster entered (random cards) or not (runners typed in)."""
    teams = rng.randint(3, 5)
    course = tuple(
        rng.choice(
            [Terrain("flat"), Terrain("up", rng.randint(1, 9)), Terrain("down", rng.randint(1, 9))]
        )
        for _ in range(10)
    )
    setup = replace(EkidenSetup.default(NAMES[:teams]), start=rng.randrange(teams), course=course)
    state = engine.initial_state(setup)
    for team in range(teams):
        if rng.random() < 0.5:
            state = engine.apply(state, Roster(team, tuple(random_runner(rng) for _ in range(10))))
    return state


def typed_in(state: EkidenState) -> list[Runner]:
    """The runners the engine offers a team without a roster to type in."""
    probe = engine.apply(engine.initial_state(state.setup), Situation(1, ("-",) * 5))
    return [a.runner for a in engine.legal_actions(probe) if isinstance(a, Run) and a.runner]


def runners_of(state: EkidenState) -> Runners:
    rostered = [r for roster in state.rosters if roster is not None for r in roster]
    return Runners(state.setup, [*typed_in(state), *rostered])


def fast_key(relay: FastRelay) -> tuple[object, ...]:
    return (
        relay.leg, relay.phase, relay.places(), relay.order, relay.carried, relay.unused,
        relay.marks, list(zip(relay.played, relay.codes, relay.powers(), strict=True)),
    )  # fmt: skip


def engine_key(state: EkidenState, runners: Runners) -> tuple[object, ...]:
    """The same parts of the engine's state, read from it directly."""
    return (
        state.leg,
        PHASES[state.phase],
        [(p.column, p.slot) for p in state.places],
        list(engine.standings(state)),
        list(state.commander),
        [list(engine.legal_picks(state, team)) for team in range(state.teams)],
        None if state.marks is None else [MARKS.index(m) for m in state.marks],
        [(e.team, runners.code(e.runner), e.declared) for e in state.entries],
    )


def test_the_fast_path_agrees_with_the_engine_move_for_move_on_10000_positions() -> None:
    """Rule (all of ekiden.md): at every position of random relays of 3–5 teams (before each
    leg's card, each runner from a roster or typed in, each leg's last runner, the relay
    over) the fast path lists exactly the engine's legal actions, and after any one of them
    holds exactly the engine's state: places (column and slot), standings, the Commander's
    carried bonus, the picks left, the card, this leg's runners with their declared power.
    The positions meet every skill, ties of declared power and a Front-runner leading."""
    rng = random.Random(2026)
    positions, met = 0, Counter[str]()
    while positions < 10_000:
        state = random_start(rng)
        runners = runners_of(state)
        pool = typed_in(state)
        while True:
            relay = FastRelay.of(state, runners, pool)
            ours = relay.actions()
            theirs = [a for a in engine.legal_actions(state) if isinstance(a, Situation | Run)]
            assert len(theirs) == len(engine.legal_actions(state))  # never a roster
            assert sorted(ours) == sorted(fast_action(relay, a) for a in theirs), positions
            assert {to_engine_action(relay, state, a) for a in ours} == set(theirs), positions
            positions += 1
            if not ours:
                assert engine.is_over(state) and relay.phase == PHASES["over"]
                met["over"] += 1
                break
            action = ours[rng.randrange(len(ours))]
            met.update(_what(state, to_engine_action(relay, state, action)))
            state = engine.apply(state, to_engine_action(relay, state, action))
            relay.step(action)
            assert fast_key(relay) == engine_key(state, runners), positions
    assert all(met[k] >= 20 for k in ("tie", "front_leading", "commander_carried", "over"))
    assert all(met[s] >= 100 for s in SKILLS) and met["roster"] and met["typed"]


def _what(state: EkidenState, action: Situation | Run) -> list[str]:
    """What an action met, for the coverage asserted above."""
    if isinstance(action, Situation):
        return ["card"]
    roster = state.rosters[action.team]
    runner = action.runner if roster is None or action.pick is None else roster[action.pick]
    assert runner is not None
    out = ["typed" if roster is None else "roster", str(runner.skill)]
    if runner.skill == "front_runner" and engine.standing_of(state, action.team) == 1:
        out.append("front_leading")
    if state.commander[action.team]:
        out.append("commander_carried")
    if len(state.entries) == state.teams - 1:
        powers = [e.declared for e in state.entries] + [
            engine.declared_power(state, action.team, runner)[2]
        ]
        if len(set(powers)) < len(powers):
            out.append("tie")
    return out


def test_the_card_codes_read_the_marks_in_the_engines_order() -> None:
    """A situation card's code is its marks in base 3, rank 1 first: the engine lists every
    card in that order."""
    cards = [a for a in engine.legal_actions(_revealable()) if isinstance(a, Situation)]
    assert [card_code(c.marks) for c in cards] == list(range(243))
    assert all(
        CARD_MARKS[card_code(c.marks)] == tuple(MARKS.index(m) for m in c.marks) for c in cards
    )


def _revealable() -> EkidenState:
    return engine.initial_state(EkidenSetup.default(NAMES[:3]))


def card_weights(state: EkidenState) -> list[tuple[Situation, int]]:
    """Every card the ranks given out may read (other ranks —), in the engine's order, with
    its weight as the model states it: the product, over the ranks given out, of one plus
    how often its mark there was revealed (this leg's card too, once revealed)."""
    given = engine.rank_labels(state.teams)
    seen = Counter((e.rank, e.mark) for leg in state.history for e in leg)
    if state.marks is not None:
        seen.update((rank, state.marks[rank - 1]) for rank in given)
    probe = replace(state, phase="situation", marks=None)
    out = []
    for card in engine.legal_actions(probe):
        assert isinstance(card, Situation)
        if all(card.marks[row - 1] == "-" for row in range(1, 6) if row not in given):
            weight = 1
            for rank in given:
                weight *= 1 + seen[rank, card.marks[rank - 1]]
            out.append((card, weight))
    return out


def replay(state: EkidenState, floats: list[float]) -> EkidenState:
    """The playout whose random numbers were ``floats``, through the engine: a card is the
    first whose running sum of ``card_weights`` passes ``int(u * total)``, a runner the
    ``int(u * size)``-th of the team's legal picks, or without a roster of the runners run
    so far (before the first, the engine's typed-in ones) — the model's draws, as it states
    them, read from the engine's state alone."""
    numbers = iter(floats)
    ran = [e.runner for leg in state.history for e in leg] + [e.runner for e in state.entries]
    pool = [replace(r, name="") for r in ran] or typed_in(state)  # each as often as it ran
    running, total = [], 0
    for card, weight in card_weights(state):
        total += weight
        running.append((card, total))
    while not engine.is_over(state):
        if state.phase == "situation":
            drawn = int(next(numbers) * total)
            card = next(card for card, passed in running if passed > drawn)
            state = engine.apply(state, replace(card, leg=state.leg))
            continue
        team = engine.next_runner(state)
        assert team is not None
        if state.rosters[team] is None:
            action = Run(team, state.leg, runner=pool[int(next(numbers) * len(pool))])
        else:
            picks = engine.legal_picks(state, team)
            action = Run(team, state.leg, pick=picks[int(next(numbers) * len(picks))])
        state = engine.apply(state, action)
    assert next(numbers, None) is None  # every number drawn was used
    return state


def test_a_playout_is_a_whole_legal_engine_relay_with_the_same_result() -> None:
    """A playout's every draw is a legal engine action (a card, a roster pick, a runner of
    the pool typed in): replayed through the engine it ends with the same standings — from
    the viewer's positions (the model's own relay: no rosters, the table's pool and marks)
    and from the referee's, rosters known."""
    rng = random.Random(7)
    for game in range(120):
        states = [random_start(rng)]
        typed = [random_runner(rng) for _ in range(rng.randint(1, 5))]
        stop = rng.randint(1, 70)  # states: from the start to the relay over
        while not engine.is_over(states[-1]) and len(states) < stop:
            state = states[-1]
            if state.phase == "situation":
                marks = tuple(rng.choice(MARKS) for _ in range(5))
                states.append(engine.apply(state, Situation(state.leg, marks)))
            else:
                team = engine.next_runner(state)
                assert team is not None
                options = (
                    engine.legal_actions(state)
                    if state.rosters[team]
                    else [Run(team, state.leg, runner=rng.choice(typed))]
                )
                states.append(engine.apply(state, rng.choice(options)))
        state = states[-1]
        viewed = GAME.view(state, VIEWER)
        for start in (viewed, state) if game % 2 else (viewed,):
            relay = fast_relay(start)
            floats: list[float] = []

            def pick(draw: Callable[[], float] = rng.random, floats: list[float] = floats) -> float:
                floats.append(draw())
                return floats[-1]

            relay.run(None, steps=1_000, pick=pick)
            final = replay(start, floats)
            assert relay.phase == PHASES["over"] and relay.result() == result(final)


def test_a_fast_playout_past_its_step_cap_raises() -> None:
    """A relay played out is capped in steps (a bug past it): ``PlayoutTooLong``."""
    relay = fast_relay(_revealable())
    with pytest.raises(PlayoutTooLong) as err:
        relay.copy().play_out(random.Random(1), max_steps=5)
    assert err.value.kind == "ekiden" and err.value.steps == 5
    assert len(relay.copy().play_out(random.Random(1))) == 6
