"""What a step caused, as the live view says it after the action (``Game.aftermath``, issue 27
§1 "what just happened"): random races, each step checked against the engine's own states by
the rules themselves (from the action and the positions), not by the code under test."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from aids.core.i18n import t
from aids.games.base import REFEREE, VIEWER, Role
from aids.games.rally import GAME, engine
from aids.games.rally.data import load
from aids.games.rally.describe import car_label
from aids.games.rally.model import (
    Action,
    Attack,
    Defend,
    Draw,
    EndRace,
    Ferry,
    Player,
    RallySetup,
    RallyState,
    Travel,
)

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi"]
LANGS = ("en", "ja")


def random_setup(rng: random.Random, seed: int) -> RallySetup:
    """2–5 cars on a short course or the map's first, tracking or a simulation, and team
    play now and then."""
    players = rng.randint(2, 5)
    mode = rng.choice(("tracking", "simulation"))
    base = RallySetup.default(NAMES[:players], mode=mode, seed=seed)  # type: ignore[arg-type]
    start, goal = (base.start, base.goal)
    if rng.random() < 0.7:
        start, goal = "koriyama", "fukushima"
    cars, teams = base.players, ()
    if players >= 3 and rng.random() < 0.4:
        teams = ("Kanto", "Tohoku")
        cars = tuple(Player(p.name, p.colour, p.machine, i % 2) for i, p in enumerate(cars))
    return RallySetup(cars, rng.randrange(players), start, goal, base.board, teams,
                      base.mode, base.seed)  # fmt: skip


def race(seed: int) -> Iterator[tuple[RallyState, Action, RallyState]]:
    """One random race as (before, action, after) steps, the referee's states: each car
    drives towards the goal most of the time, as players do; the referee ends it now and
    then."""
    rng = random.Random(seed)
    state = GAME.initial_state(random_setup(rng, seed))
    for _ in range(400):
        if GAME.is_over(state):
            return
        options = list(GAME.legal_actions(state, Role.seat_of(state.turn)))
        moves = [a for a in options if isinstance(a, Travel)]
        action: Action
        if rng.random() < 0.002:
            action = EndRace()
        elif moves and rng.random() < 0.6:
            action = min(moves, key=lambda a: engine.to_goal(state, a.to))
        else:
            action = rng.choice(options)
        after = GAME.apply(state, action, REFEREE)
        yield state, action, after
        state = after


def expected(
    before: RallyState, action: Action, after: RallyState, lang: str
) -> list[tuple[str, str]]:
    """The clauses the rules say this step caused, read from the action and the positions,
    each with its message key."""
    out: list[tuple[str, str]] = []

    def say(key: str, **params: object) -> None:
        out.append((key, t(f"rally.after.{key}", lang, **params)))

    town = after.setup.board.town_name
    # Winning: a car that reaches the goal (by road or by the ferry) takes the next place
    if isinstance(action, Travel | Ferry) and action.to == before.setup.goal:
        goal = town(before.setup.goal, lang)
        car = car_label(after, action.seat)
        say("arrived", car=car, goal=goal, place=len(before.arrived) + 1)
    # Traffic jam: every car at a jammed town is stuck, one already there or one that comes
    on_road = [s for s in range(after.players) if s not in after.arrived]
    held: list[int] = []
    at = ""
    if isinstance(action, Attack) and action.card == "jam":
        at = before.towns[action.target]
        held = [s for s in on_road if before.towns[s] == at]
    elif isinstance(action, Travel | Ferry) and action.to in before.jams:
        at, held = action.to, [action.seat]
    if held:
        cars = ("、" if lang == "ja" else ", ").join(car_label(after, s) for s in held)
        say("stuck", cars=cars, town=town(at, lang))
    # Defend: jam cleared lets every car at that town go
    if isinstance(action, Defend) and action.card == "jam_clear":
        freed = [s for s in on_road if before.towns[s] == action.town]
        if freed:
            cars = ("、" if lang == "ja" else ", ").join(car_label(after, s) for s in freed)
            say("freed", cars=cars)
    # Police: the target misses its next 2 turns, skipped whole as play moves on
    if isinstance(action, Attack) and action.card == "police":
        car = car_label(after, action.target)
        say("police", car=car, n=load().police_turns)
    for seat in range(after.players):
        gone = before.police[seat] - after.police[seat]
        if gone > 0:
            say("missed_one" if gone == 1 else "missed_many", car=car_label(after, seat), n=gone)
    # A turn's draw: when the draw pile runs out, the discard pile is shuffled into a new one
    if (
        isinstance(action, Draw)
        and before.pile_size < before.machine(action.seat).draw
        and before.discard_size > 0
    ):
        say("reshuffled")
    # The end: every car arrived, or the referee ended it; the winner as the outcome has it
    if after.phase == "over":
        outcome = GAME.outcome(after)
        assert outcome is not None
        if after.setup.teams:
            teams = dict.fromkeys(after.setup.players[s].team or 0 for s in outcome.winners)
            winner = " · ".join(after.setup.teams[team] for team in teams)
        else:
            winner = " · ".join(car_label(after, s) for s in outcome.winners)
        say("over", winner=winner)
    return out


def said(before: RallyState, after: RallyState, lang: str) -> tuple[str, ...]:
    """The clauses as the live view gets them: both states through the viewer's view."""
    return GAME.aftermath(GAME.view(before, VIEWER), GAME.view(after, VIEWER), lang)


@pytest.mark.parametrize("seed", range(40))
def test_each_clause_is_said_exactly_when_its_change_happened(seed: int) -> None:
    """Rules "Winning" (places in order of arrival), "Traffic jam" (every car at a jammed town
    is stuck), "Defend" (jam cleared), "Police" (2 turns missed whole), "A turn" (the discard
    pile reshuffled when the draw pile runs out) and the end ruling: after every step of a
    random race the viewer hears exactly the clauses those rules say the step caused."""
    for before, action, after in race(seed):
        for lang in LANGS:
            due = [text for _, text in expected(before, action, after, lang)]
            assert sorted(said(before, after, lang)) == sorted(due), (seed, action)


def test_the_random_races_hold_every_kind_of_news() -> None:
    """The check above is not empty: the races hold arrivals, jams that hold cars and are
    cleared, police and missed turns, reshuffles and ends."""
    seen = Counter(
        key
        for seed in range(40)
        for before, action, after in race(seed)
        for key, _ in expected(before, action, after, "en")
    )
    kinds = ("arrived", "stuck", "freed", "police", "missed_one", "reshuffled", "over")
    assert all(seen[kind] >= 3 for kind in kinds), seen


def test_an_arrival_in_team_play_gives_the_place_and_the_end_names_the_team() -> None:
    """Team play: the last car home is said with its place, and the race's end names the
    team with the most points."""
    setup = RallySetup.default(["Aki", "Ben", "Chie"])
    teams = tuple(Player(p.name, p.colour, p.machine, i % 2) for i, p in enumerate(setup.players))
    setup = RallySetup(teams, 0, setup.start, setup.goal, setup.board, ("Kanto", "Tohoku"))
    state = GAME.initial_state(setup)
    before = replace(state, arrived=(0, 1), towns=(setup.goal, setup.goal, setup.start))
    after = replace(before, arrived=(0, 1, 2), towns=(setup.goal,) * 3, phase="over")
    words = said(before, after, "en")
    assert words[0].endswith(", #3") and "Chie" in words[0]
    assert words[-1] == "the race is over, won by Kanto"


def test_a_car_under_police_may_miss_both_its_turns_in_one_step() -> None:
    """Police ruling (a missed turn is skipped whole): with two cars, when one reaches the goal
    the other, under police for 2 turns, misses both before it plays — one step, one clause
    that counts them."""
    setup = RallySetup.default(["Aki", "Ben"])
    setup = RallySetup(setup.players, 0, "koriyama", "motomiya", setup.board)
    state = GAME.apply(GAME.initial_state(setup), Draw(0), REFEREE)
    state = GAME.apply(state, Attack(0, "police", 1), REFEREE)
    home = next(
        a
        for a in GAME.legal_actions(state, Role.seat_of(0))
        if isinstance(a, Travel) and a.to == "motomiya"
    )
    after = GAME.apply(state, home, REFEREE)
    assert after.turn == 1 and after.police[1] == 0
    assert said(state, after, "en") == (
        "🔴 Aki reaches Motomiya, #1",
        "🔵 Ben misses 2 turns to police",
    )
    assert said(state, after, "ja")[1] == "🔵 Benは警察で2回休み"
    assert [text for _, text in expected(state, home, after, "en")] == list(
        said(state, after, "en")
    )
