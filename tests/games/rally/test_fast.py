"""The rally's fast path (``FastRally``) against the engine: at thousands of random positions
the greedy driver's options (the actions and their weights) are those of
``chances.choices`` and the state after each is ``engine.apply``'s, field by field; whole
fast playouts replay through the engine to the same placings and team points; and the
playouts of ``RallyChances`` are the engine's own playouts, drawing the same random numbers.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from aids.games.base import VIEWER
from aids.games.rally import GAME, engine
from aids.games.rally.board import sample_map
from aids.games.rally.chances import RallyChances, choices, play_out, result
from aids.games.rally.data import load
from aids.games.rally.fast import END, END_RACE, OVER, FastRally
from aids.games.rally.fast_map import CARD_KEYS, Roads, keys
from aids.games.rally.model import Action, EndTurn, Machine, RallySetup, RallyState
from tests.games.rally import helpers

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi", "Fumi", "Gen"]
PRESETS = [Machine(p.actions, p.hand, p.draw) for p in load().presets]


def fields(state: RallyState) -> dict[str, object]:
    """The engine state's fields that decide the rest of the race, as ``fast_fields``
    names them (the turn records play no part in the rules)."""
    return {
        "round": state.round, "turn": state.turn, "phase": state.phase, "towns": state.towns,
        "rain": state.rain, "engine": state.engine, "police": state.police, "jams": state.jams,
        "arrived": state.arrived, "actions_left": state.actions_left, "moved": state.moved,
        "ferry": state.current.ferry, "acted": bool(state.current.cards),
        "hand_sizes": state.hand_sizes, "pile_size": state.pile_size,
        "discard_size": state.discard_size, "hands": state.hands, "pile": state.pile,
        "discard": state.discard, "reshuffles": state.reshuffles, "ended": state.ended,
    }  # fmt: skip


def fast_fields(race: FastRally) -> dict[str, object]:
    """A fast race's fields as the engine's state has them (ids, card keys, sorted hands)."""
    ids = race.roads.ids
    return {
        "round": race.round, "turn": race.turn, "phase": ("draw", "act", "over")[race.phase],
        "towns": tuple(ids[t] for t in race.towns), "rain": tuple(race.rain),
        "engine": tuple(race.engine), "police": tuple(race.police),
        "jams": race.roads.jams_of(race.jams), "arrived": tuple(race.arrived),
        "actions_left": race.left, "moved": race.moved, "ferry": race.ferried,
        "acted": race.acted, "hand_sizes": tuple(race.hand_sizes),
        "pile_size": len(race.pile), "discard_size": race.discard_size,
        "hands": tuple(keys(h) for h in race.hands),
        "pile": tuple(CARD_KEYS[c] for c in reversed(race.pile)),
        "discard": keys(race.discard), "reshuffles": race.reshuffles, "ended": race.ended,
    }  # fmt: skip


def random_setup(rng: random.Random) -> RallySetup:
    """2–7 cars, each with a machine preset drawn at random, on a course of the sample map or
    on the test strip (its ferry and its long way round), individual or team play."""
    players = rng.randint(2, 7)
    base = RallySetup.default(NAMES[:players], mode="simulation", seed=rng.randrange(2**31))
    if rng.random() < 0.25:
        board, start, goal = helpers.STRIP, "koriyama", rng.choice(["sapporo", "sendai"])
    else:
        board = sample_map()
        course = rng.choice(board.courses)
        start, goal = course.start, course.goal
    seats = [replace(p, machine=rng.choice(PRESETS)) for p in base.players]
    teams: tuple[str, ...] = ()
    if players >= 3 and rng.random() < 0.5:
        teams = ("East", "West")
        seats = [replace(p, team=i % 2) for i, p in enumerate(seats)]
    return replace(
        base, players=tuple(seats), start_player=rng.randrange(players), start=start,
        goal=goal, board=board, teams=teams,
    )  # fmt: skip


def stirred(state: RallyState, rng: random.Random) -> RallyState:
    """``state`` with what a race meets less often put in at random: jams (at the cars' towns
    and elsewhere), rain, engine failure, police, cars at ports, and a short pile (most of it
    moved to the discard pile, so the next draws reshuffle). Card counts stay whole."""
    n, towns = state.players, list(state.towns)
    ids = [t.id for t in state.setup.board.towns]
    jams = set(state.jams)
    for _ in range(rng.randint(0, 1)):
        jams.add(rng.choice(towns) if rng.random() < 0.6 else rng.choice(ids))
    jams.discard(state.setup.goal)
    ports = [t.id for t in state.setup.board.towns if t.port]
    if state.phase == "draw" and rng.random() < 0.3 and ports:
        seat = state.turn
        if seat not in state.arrived:
            towns[seat] = rng.choice(ports)
    on_road = [s not in state.arrived for s in range(n)]
    rain = tuple(r or (o and rng.random() < 0.2) for r, o in zip(state.rain, on_road, strict=True))
    eng = tuple(e or (o and rng.random() < 0.2) for e, o in zip(state.engine, on_road, strict=True))
    police = tuple(
        p or (2 if o and rng.random() < 0.1 else 0)
        for p, o in zip(state.police, on_road, strict=True)
    )
    out = replace(
        state, towns=tuple(towns), jams=frozenset(t for t in jams if t != state.setup.goal),
        rain=rain, engine=eng, police=police,
    )  # fmt: skip
    if rng.random() < 0.3 and state.pile:
        keep = min(rng.randint(0, 2), len(out.pile))
        moved = out.pile[keep:]
        out = replace(
            out, pile=out.pile[:keep], pile_size=keep,
            discard=tuple(sorted(out.discard + moved)),
            discard_size=out.discard_size + len(moved),
        )  # fmt: skip
    if out.phase == "act" and out.turn in out.arrived:  # pragma: no cover - never the turn
        return state
    return out


def positions(rng: random.Random, races: int) -> list[RallyState]:
    """Every position of ``races`` greedy races on random setups (to 80 rounds at most), one
    in twenty stirred (and the race goes on from there)."""
    out = []
    for _ in range(races):
        state = engine.initial_state(random_setup(rng))
        while state.phase != "over" and state.round <= 80:
            if rng.random() < 0.05:
                state = stirred(state, rng)
            out.append(state)
            options = choices(state)
            action = rng.choices([a for a, _ in options], [w for _, w in options])[0]
            state = engine.apply(state, action)
        out.append(state)
    return out


def test_the_fast_path_agrees_with_the_engine_move_for_move_on_thousands_of_positions() -> None:
    """At every position of 40 greedy races (2–7 cars, every machine preset, team play, the
    sample map's courses and the test strip, jams, statuses, ports and short piles stirred
    in): the state in codes reads back as the engine's, the driver's options (actions and
    weights, in order) are ``chances.choices``', and the state after each option is
    ``engine.apply``'s, field by field. Every kind of action, reshuffles, arrivals and the
    end of a race are met."""
    rng = random.Random(20)
    met: Counter[str] = Counter()
    checked = 0
    for state in positions(rng, 40):
        met.update(f"preset {p.machine.text()}" for p in state.setup.players)
        met["teams"] += bool(state.setup.teams)
        met["strip"] += state.setup.board is helpers.STRIP
        met["jammed car"] += engine.is_stuck(state, state.turn)
        met["status"] += state.rain[state.turn] or state.engine[state.turn]
        met["police"] += any(state.police)
        race = FastRally.of(state)
        assert fast_fields(race) == fields(state)
        options = race.options() if state.phase != "over" else []
        want = choices(state) if state.phase != "over" else []
        assert [(race.to_engine(a), w) for a, w in options] == want, state
        for action, _ in options:
            after = race.copy()
            after.step(action)
            truth = engine.apply(state, race.to_engine(action))
            assert fast_fields(after) == fields(truth), (state, action)
            met[("draw", "travel", "attack", "defend", "ferry", "end", "end_race")[action[0]]] += 1
            met["reshuffle"] += truth.reshuffles > state.reshuffles
            met["arrival"] += len(truth.arrived) > len(state.arrived)
            met["over"] += truth.phase == "over"
            met["discard"] += action[0] == END and bool(action[1])
            met["choice"] += len(options) > 1
        checked += 1
    assert checked > 5_000
    presets = [f"preset {m.text()}" for m in PRESETS]
    situations = ("teams", "strip", "jammed car", "status", "police")
    assert all(met[k] > 100 for k in (*presets, *situations)), met
    assert all(met[k] > 20 for k in ("draw", "travel", "attack", "defend", "ferry", "end")), met
    assert all(met[k] > 20 for k in ("reshuffle", "arrival", "over", "discard", "choice")), met


def test_past_the_last_round_the_race_is_ended_as_the_referee_ends_it() -> None:
    """The round cap: past ``last_round`` the one option is the referee's end, and the cars
    are then placed as the engine places them."""
    state = engine.initial_state(random_setup(random.Random(3)))
    race = FastRally.of(state)
    race.last_round = state.round - 1
    (only,) = race.options()
    assert only == ((END_RACE,), 1.0)
    race.step(only[0])
    ended = engine.apply(state, race.to_engine(only[0]))
    assert fast_fields(race) == fields(ended) and race.result() == result(ended)


def recorded_playout(state: RallyState, rng: random.Random) -> tuple[FastRally, list[Action]]:
    """A fast playout from a dealt ``state``, one ``step`` at a time with the options drawn
    by their weights, and the engine actions it took."""
    race = FastRally.of(state)
    race.last_round = state.round + 100
    taken: list[Action] = []
    while race.phase != OVER:
        options = race.options()
        action = rng.choices([a for a, _ in options], [w for _, w in options])[0]
        taken.append(race.to_engine(action))
        race.step(action)
    return race, taken


@pytest.mark.parametrize("mode", ["simulation", "tracking"])
def test_a_playout_is_a_whole_legal_engine_race_with_the_same_result(mode: str) -> None:
    """Whole fast playouts from positions of tracked and simulated tables (dealt as the model
    deals what a viewer cannot see; team play, every preset) replay through ``engine.apply``
    action by action to the same final state, placings and team points."""
    rng = random.Random(7)
    replayed = 0
    for _ in range(12):
        setup = random_setup(rng)
        seed = setup.seed if mode == "simulation" else None
        history = [engine.initial_state(replace(setup, mode=mode, seed=seed))]  # type: ignore[arg-type]
        sim = engine.initial_state(setup)
        for _ in range(rng.randrange(0, 300)):
            if sim.phase == "over":
                break
            options = choices(sim)
            action = rng.choices([a for a, _ in options], [w for _, w in options])[0]
            sim = engine.apply(sim, action)
            if mode == "tracking" and isinstance(action, EndTurn):
                action = replace(action, discard=())  # as a tracked table records it
            history.append(engine.apply(history[-1], action))
        viewed = [GAME.view(s, VIEWER) for s in history]
        if viewed[-1].phase == "over":
            continue
        model = RallyChances(viewed)
        dealt = model.sample(viewed[-1], rng)
        race, taken = recorded_playout(dealt, rng)
        state = dealt
        for action in taken:
            state = engine.apply(state, action)
        assert fast_fields(race) == fields(state)
        assert race.result() == result(state)
        assert race.placings() == [list(g) for g in engine.placings(state)]
        if state.setup.teams:
            assert race.result()[-len(state.setup.teams) :] == list(
                map(float, engine.team_totals(state))
            )
        replayed += 1
    assert replayed >= 8


class PlainRally(RallyChances):
    """The chances on ``FastRally``, not on the compiled loop."""

    compiled = False


def test_the_playouts_are_the_engines_playouts_drawing_the_same_random_numbers() -> None:
    """``RallyChances.playouts`` on ``FastRally`` (``compiled = False``) gives, row for row,
    what the engine's ``sample`` and ``play_out`` give with the same ``rng``: the same deals,
    the same reshuffles, the same choices — in tracking and simulation, individual and team
    play, at the start, mid-race and late. (The compiled loop's playouts agree with them
    within their error: ``test_fast_jit.py``.)"""
    rng = random.Random(11)
    compared = 0
    for mode in ("simulation", "tracking"):
        for teams in (False, True):
            setup = random_setup(rng)
            if teams != bool(setup.teams):
                players = tuple(
                    replace(p, team=(i % 2) if teams else None) for i, p in enumerate(setup.players)
                )
                setup = replace(setup, players=players, teams=("E", "W") if teams else ())
            if teams and len(setup.players) < 2:  # pragma: no cover - 2 at least
                continue
            states = [engine.initial_state(setup)]
            while states[-1].phase != "over" and states[-1].round < 40:
                options = choices(states[-1])
                action = rng.choices([a for a, _ in options], [w for _, w in options])[0]
                states.append(engine.apply(states[-1], action))
            for share in (0.0, 0.5, 0.85):
                upto = int(share * (len(states) - 2)) + 1
                history = states[:upto]
                if mode == "tracking":
                    tracked = replace(setup, mode="tracking", seed=None)
                    history = [
                        replace(s, setup=tracked, hands=(), pile=(), discard=()) for s in history
                    ]
                viewed = [GAME.view(s, VIEWER) for s in history]
                state = viewed[-1]
                model = PlainRally(viewed)
                mine = random.Random(upto)
                reference = []
                for _ in range(6):
                    dealt = model.sample(state, mine)
                    last = state.round + model.cap_rounds
                    reference.append(result(play_out(dealt, mine, last, model.max_steps)))
                assert model.playouts(state, 6, random.Random(upto)) == reference
                compared += 1
    assert compared == 12


def test_the_roads_give_the_engines_reach_and_proposal_under_jams() -> None:
    """``Roads.reach`` answers as ``engine.reachable`` and ``engine.proposal`` do, for
    random towns, jams and km on the sample map."""
    rng = random.Random(5)
    setup = RallySetup.default(NAMES[:3])
    state = engine.initial_state(setup)
    roads = Roads(setup.board, setup.goal)
    ids = [t.id for t in setup.board.towns]
    for _ in range(400):
        jams = frozenset(rng.sample(ids, rng.randint(0, 4))) - {setup.goal}
        here = rng.choice([t for t in ids if t not in jams and t != setup.goal])
        km = rng.choice([20, 25, 45, 70, 100, 160, 200, 400])
        probe = replace(state, towns=(here, *state.towns[1:]), jams=jams)
        kms, best = roads.reach(roads.index[here], roads.mask(jams))
        reach = engine.reachable(probe, 0, km)
        assert sorted(reach.values()) == [k for k in kms if k <= km]
        stop = best[max(i for i, k in enumerate(kms) if k <= km)]
        assert roads.ids[stop] == engine.proposal(probe, 0, km)
