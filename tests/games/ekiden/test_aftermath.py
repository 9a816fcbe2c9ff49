"""What a step caused, as the live view says it after the action (``Game.aftermath``, issue 27
§1 "what just happened"): random relays, each step checked against the engine's own states
by the rules themselves, not by the code under test."""

from __future__ import annotations

import random

import pytest

from aids.core.i18n import t
from aids.games.base import CHANCE, REFEREE, VIEWER
from aids.games.ekiden import GAME
from aids.games.ekiden.describe import team_label
from aids.games.ekiden.model import (
    SKILLS,
    EkidenSetup,
    EkidenState,
    Entry,
    Roster,
    Run,
    Runner,
    Terrain,
)

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi"]


def random_setup(rng: random.Random) -> EkidenSetup:
    base = EkidenSetup.default(NAMES[: rng.randint(3, 5)], start=0)
    course = tuple(
        rng.choice((Terrain("flat"), Terrain("up", rng.randint(1, 3)), Terrain("down", 2)))
        for _ in range(10)
    )
    return EkidenSetup(base.teams, rng.randrange(len(base.teams)), course)


def random_roster(rng: random.Random, team: int) -> Roster:
    return Roster(
        team,
        tuple(
            Runner(rng.randint(2, 6), rng.randint(0, 4), rng.randint(0, 3), rng.choice(SKILLS))
            for _ in range(10)
        ),
    )


def relays(seed: int) -> list[tuple[EkidenState, object, EkidenState]]:
    """One random relay as (before, action, after) steps, the referee's states; some teams
    enter a roster first (sealed from the viewer until the end)."""
    rng = random.Random(seed)
    state = GAME.initial_state(random_setup(rng))
    steps = []
    for team in range(state.teams):
        if rng.random() < 0.5:
            action: object = random_roster(rng, team)
            after = GAME.apply(state, action, REFEREE)  # type: ignore[arg-type]
            steps.append((state, action, after))
            state = after
    while not GAME.is_over(state):
        (actor,) = GAME.to_move(state)
        action = rng.choice(list(GAME.legal_actions(state, actor)))
        after = GAME.apply(state, action, REFEREE if actor == CHANCE else actor)  # type: ignore[arg-type]
        steps.append((state, action, after))
        state = after
    return steps


def leg_winner(leg: tuple[Entry, ...]) -> int:
    """Leg ranking (区間順位): the highest declared power; on a tie, the runner played first."""
    best = max(leg, key=lambda e: (e.declared, -e.order))
    return best.team


def leader(state: EkidenState) -> int:
    """Standing (順位): the farthest column leads; in one column, the piece nearer the line."""
    return min(range(state.teams), key=lambda t: (-state.places[t].column, state.places[t].slot))


def said(before: EkidenState, after: EkidenState, lang: str) -> tuple[str, ...]:
    """The clauses as the live view gets them: both states through the viewer's view."""
    return GAME.aftermath(GAME.view(before, VIEWER), GAME.view(after, VIEWER), lang)


@pytest.mark.parametrize("seed", range(30))
def test_each_clause_is_said_exactly_when_its_change_happened(seed: int) -> None:
    """Rules "Each leg" (leg ranking; the leg ends when its last runner is played), "Standing"
    and "End" (after leg 10 standing 1 wins): after every step of a random relay the viewer
    hears which team was fastest on a leg just run, a team that took the lead, and the winner
    when the relay ended — each exactly when the engine's states show it, in both languages."""
    steps = relays(seed)
    legs = 0
    for before, action, after in steps:
        teams = after.teams
        leg_ended = isinstance(action, Run) and len(before.entries) == teams - 1
        over = leg_ended and before.leg == 10
        fastest = leg_winner(after.history[-1]) if leg_ended else None
        new_leader = leader(after) if leg_ended and not over else None
        if new_leader == leader(before):
            new_leader = None
        for lang in ("en", "ja"):
            words = said(before, after, lang)
            expected = []
            for team in range(teams):
                label = team_label(after, team)
                won = t("ekiden.after.leg_won", lang, leg=before.leg, team=label)
                assert (won in words) == (team == fastest), (seed, words)
                lead = t("ekiden.after.lead", lang, team=label)
                assert (lead in words) == (team == new_leader), (seed, words)
                end = t("ekiden.after.over", lang, team=label)
                assert (end in words) == (over and team == leader(after)), (seed, words)
                expected += [c for c, due in ((won, team == fastest), (lead, team == new_leader))
                             if due]  # fmt: skip
            assert len(words) == len(expected) + over  # nothing else is said
        legs += leg_ended
    assert legs == 10


def test_the_random_relays_take_the_lead_from_one_another() -> None:
    """The check above is not empty: across the relays the lead changes hands many times."""
    changes = sum(
        1
        for seed in range(30)
        for before, action, after in relays(seed)
        if isinstance(action, Run) and len(before.entries) == after.teams - 1
        and after.leg == before.leg + 1 and leader(after) != leader(before)
    )  # fmt: skip
    assert changes > 30


def test_a_roster_entered_or_a_runner_played_mid_leg_causes_nothing_to_say() -> None:
    """A roster (sealed from the viewer) and a runner that does not end its leg change no
    place and no result: nothing follows the action's own line."""
    quiet = [
        (before, after)
        for seed in range(5)
        for before, action, after in relays(seed)
        if isinstance(action, Roster)
        or (isinstance(action, Run) and len(before.entries) < after.teams - 1)
    ]
    assert quiet
    assert all(said(before, after, lang) == () for before, after in quiet for lang in ("en", "ja"))
