"""One test per rule and ruling of shared/rules/ekiden.md, each naming the rule it checks."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aids.core.errors import GameOver, InvalidAction, NotYourTurn, RuleViolation
from aids.games.base import REFEREE, VIEWER, Role
from aids.games.ekiden import GAME, engine
from aids.games.ekiden.model import (
    SKILLS,
    EkidenSetup,
    Roster,
    Run,
    Runner,
    Terrain,
    action_from_dict,
)
from tests.games.ekiden.helpers import NAMES, reveal, run, runner, setup


def one_leg(state, declared_runners):  # type: ignore[no-untyped-def]
    """Reveal ooooo and play each team's runner in the required order."""
    state = reveal(state, "ooooo")
    for r in declared_runners:
        state = run(state, engine.next_runner(state), r)
    return state


def first_runner_bonus(course: list[Terrain], leg: int, skill: str, teams: int = 3) -> int:
    state = engine.initial_state(setup(teams, course=course))
    for _ in range(leg - 1):
        state = one_leg(state, [runner(3)] * teams)
    state = reveal(state, "ooooo")
    team = engine.next_runner(state)
    return engine.declared_power(state, team, runner(4, skill=skill))[0]


# --- setup -------------------------------------------------------------------------------


def test_two_teams_are_refused_with_the_reason() -> None:
    with pytest.raises(InvalidAction) as err:
        EkidenSetup.default(["Aki", "Ben"])
    assert err.value.code == "ekiden/team_count"
    assert "2" in err.value.message("ja") or "二" in err.value.message("ja")


def test_six_teams_are_refused() -> None:
    with pytest.raises(InvalidAction) as err:
        EkidenSetup.default([*NAMES, "Fumi"])
    assert err.value.code == "ekiden/team_count"


def test_team_names_that_look_alike_are_refused() -> None:
    with pytest.raises(InvalidAction) as err:
        EkidenSetup.default(["Aki", "Ａｋｉ", "Ben"])
    assert err.value.code == "input/duplicate"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({"slope": "up", "n": 0}, "ekiden/terrain"),
        ({"slope": "down", "n": 10}, "ekiden/terrain"),
        ({"slope": "flat", "n": 2}, "ekiden/terrain"),
        ({"slope": "steep", "n": 2}, "ekiden/malformed"),
        ({"slope": "up", "n": "2"}, "ekiden/malformed"),
    ],
)
def test_terrain_is_uphill_downhill_1_to_9_or_flat(raw: dict, code: str) -> None:
    data = setup().to_dict()
    data["course"][0] = raw
    with pytest.raises(InvalidAction) as err:
        EkidenSetup.from_dict(data)
    assert err.value.code == code


def test_ruling_a_bare_course_number_is_uphill_outbound_and_downhill_on_return() -> None:
    assert Terrain.from_card_value(1, 4) == Terrain("up", 4)
    assert Terrain.from_card_value(5, 4) == Terrain("up", 4)
    assert Terrain.from_card_value(6, 4) == Terrain("down", 4)
    assert Terrain.from_card_value(10, 2) == Terrain("down", 2)
    assert Terrain.from_card_value(3, 0) == Terrain("flat", 0)


def test_setup_round_trips_through_its_dict() -> None:
    s = setup(4, start=2, course=[Terrain("up", 3), Terrain("down", 2)])
    assert EkidenSetup.from_dict(s.to_dict()) == s


# --- runner cards ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "code"),
    [
        ({"power": 7, "up": 1, "down": 1}, "ekiden/runner_power"),
        ({"power": 1, "up": 1, "down": 1}, "ekiden/runner_power"),
        ({"power": 4, "up": 10, "down": 1}, "ekiden/runner_steps"),
        ({"power": 4, "up": 1, "down": -1}, "ekiden/runner_steps"),
        ({"power": 4, "up": 1, "down": 1, "skill": "flying"}, "ekiden/runner_skill"),
        ({"power": "4", "up": 1, "down": 1}, "ekiden/malformed"),
        ({"power": 4, "up": 1, "down": 1, "speed": 9}, "input/unknown_field"),
    ],
)
def test_runner_card_values_are_validated(card: dict, code: str) -> None:
    with pytest.raises(InvalidAction) as err:
        action_from_dict({"type": "run", "team": 0, "leg": 1, "runner": card})
    assert err.value.code == code


def test_ruling_a_runner_may_have_no_skill() -> None:
    parsed = Runner.from_dict({"power": 4, "up": 2, "down": 1})
    assert parsed.skill is None
    assert engine.typed_runner(4, 2, 1, engine.NO_SKILL).skill is None


def test_runner_card_up_and_down_values_offered_are_the_ones_accepted() -> None:
    """Components: up = spaces forward on ○, down = spaces back on × (no card values in the
    rulebook; the engine's range 0-9): every offered value is accepted as it is, 0 included,
    and the values just outside are refused."""
    choices = engine.runner_choices()
    assert choices.up[0] == 0 and choices.down[0] == 0
    for up in choices.up:
        assert engine.typed_runner(4, up, 1, engine.NO_SKILL).up == up
    for power in choices.power:
        assert engine.typed_runner(power, 0, 0, engine.NO_SKILL).power == power
    for bad in (choices.up[0] - 1, choices.up[-1] + 1):
        with pytest.raises(InvalidAction) as err:
            engine.typed_runner(4, bad, 1, engine.NO_SKILL)
        assert err.value.code == "ekiden/runner_steps"
    assert set(choices.skills) == {engine.NO_SKILL, *SKILLS}
    assert choices.preset.power in choices.power and choices.preset.up in choices.up


@pytest.mark.parametrize("field", ["power", "up", "down", "skill"])
def test_runner_card_a_value_left_unchosen_is_refused_by_name(field: str) -> None:
    """A typed card carries power, up, down and a skill or none: a value the referee did not
    choose is refused by name, never replaced by a default."""
    values: dict[str, object] = {"power": 4, "up": 2, "down": 1, "skill": "anchor"}
    values[field] = None
    with pytest.raises(InvalidAction) as err:
        engine.typed_runner(**values)  # type: ignore[arg-type]
    assert err.value.code == f"ekiden/unset_{field}"


def test_skill_modifiers_offered_are_the_ones_the_leg_applies() -> None:
    """Skills: the modifier each skill shows on the entry is the one the runner declares with."""
    course = [Terrain("up", 3)] * 5 + [Terrain("down", 2)] * 5
    state = reveal(engine.initial_state(setup(3, course=course)), "ooooo")
    team = engine.next_runner(state)
    bonuses = engine.skill_bonuses(state, team)
    for skill in SKILLS:
        assert bonuses[skill] == engine.declared_power(state, team, runner(4, skill=skill))[0]
    assert bonuses["uphill"] == 3 and bonuses[engine.NO_SKILL] == 0


# --- skills ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("terrain", "skill", "bonus"),
    [
        (Terrain("up", 3), "uphill", 3),
        (Terrain("down", 3), "uphill", -3),
        (Terrain("flat"), "uphill", 0),
        (Terrain("down", 2), "downhill", 2),
        (Terrain("up", 2), "downhill", -2),
        (Terrain("flat"), "downhill", 0),
    ],
)
def test_uphill_and_downhill_take_the_legs_terrain_number(terrain, skill, bonus) -> None:
    assert first_runner_bonus([terrain], 1, skill) == bonus


@pytest.mark.parametrize(
    ("leg", "skill", "bonus"),
    [(1, "outbound", 1), (6, "outbound", -1), (5, "return", -1), (10, "return", 1),
     (10, "anchor", 1), (9, "anchor", 0), (1, "commander", 0), (3, None, 0)],
)  # fmt: skip
def test_fixed_skill_modifiers(leg: int, skill, bonus: int) -> None:
    assert first_runner_bonus([], leg, skill) == bonus


def test_front_runner_gets_one_only_while_its_team_leads() -> None:
    state = reveal(engine.initial_state(setup(3, start=0)), "ooooo")
    leader = engine.standings(state)[0]
    other = engine.standings(state)[-1]
    assert engine.skill_bonus(state, leader, runner(4, skill="front_runner")) == 1
    assert engine.skill_bonus(state, other, runner(4, skill="front_runner")) == 0


def test_commander_gives_two_to_the_teams_next_runner_only() -> None:
    state = engine.initial_state(setup(3))
    state = reveal(state, "-----")
    first = engine.next_runner(state)
    state = run(state, first, runner(3, skill="commander"))
    for _ in range(2):
        state = run(state, engine.next_runner(state), runner(3))
    assert state.commander[first] == 2
    state = reveal(state, "-----")
    while engine.next_runner(state) != first:
        state = run(state, engine.next_runner(state), runner(3))
    assert engine.declared_power(state, first, runner(3)) == (0, 2, 5)


def test_ruling_declared_power_is_never_clamped() -> None:
    state = engine.initial_state(setup(3, course=[Terrain("up", 2)]))
    state = replace(state, commander=(2, 2, 2))  # as if each team's last runner commanded
    state = reveal(state, "ooooo")
    team = engine.next_runner(state)
    assert engine.declared_power(state, team, runner(6, skill="uphill"))[2] == 10
    low = engine.initial_state(setup(3, course=[Terrain("up", 3)]))
    low = reveal(low, "ooooo")
    assert engine.declared_power(low, engine.next_runner(low), runner(2, skill="downhill"))[2] == -1


# --- ranks, order, movement --------------------------------------------------------------


@pytest.mark.parametrize(("teams", "labels"), [(3, (1, 3, 5)), (4, (1, 2, 4, 5)),
                                               (5, (1, 2, 3, 4, 5))])  # fmt: skip
def test_leg_ranks_given_out_by_team_count(teams: int, labels: tuple[int, ...]) -> None:
    state = engine.initial_state(setup(teams))
    state = reveal(state, "ox-ox")
    for power in range(teams, 0, -1):
        state = run(state, engine.next_runner(state), runner(power + 1, up=2, down=1))
    results = state.history[0]
    assert tuple(e.rank for e in results) == labels
    marks = "ox-ox"
    assert tuple(e.mark for e in results) == tuple(marks[label - 1] for label in labels)


def test_runners_are_played_from_the_lowest_standing_up() -> None:
    state = reveal(engine.initial_state(setup(3, start=1)), "ooooo")
    expected = engine.next_runner(state)
    wrong = next(t for t in range(3) if t != expected)
    with pytest.raises(NotYourTurn) as err:
        run(state, wrong, runner(3))
    assert err.value.code == "ekiden/not_your_turn"


def test_the_situation_card_comes_before_the_runners() -> None:
    state = engine.initial_state(setup(3))
    with pytest.raises(NotYourTurn) as err:
        run(state, engine.standings(state)[-1], runner(3))
    assert err.value.code == "ekiden/situation_first"
    state = reveal(state, "ooooo")
    with pytest.raises(NotYourTurn) as err:
        reveal(state, "-----")
    assert err.value.code == "ekiden/situation_not_now"


def test_an_action_for_another_leg_is_refused() -> None:
    state = reveal(engine.initial_state(setup(3)), "ooooo")
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, Run(engine.next_runner(state), 2, runner=runner(3)))
    assert err.value.code == "ekiden/wrong_leg"


def test_a_backward_move_and_pieces_cross_the_line_every_leg() -> None:
    state = engine.initial_state(setup(3))
    assert engine.side_after(0) == "L" and engine.side_after(1) == "R"
    state = reveal(state, "xxxxx")
    for _ in range(3):
        state = run(state, engine.next_runner(state), runner(3, up=2, down=4))
    assert all(p.column == -4 for p in state.places)
    assert sorted(p.slot for p in state.places) == [0, 1, 2]


# --- rosters -----------------------------------------------------------------------------


def roster(base: int = 2) -> tuple[Runner, ...]:
    return tuple(Runner(2 + (i + base) % 5, 1 + i % 3, i % 2) for i in range(10))


def test_a_roster_holds_ten_runners_entered_before_the_race() -> None:
    state = engine.initial_state(setup(3))
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, Roster(0, roster()[:9]))
    assert err.value.code == "ekiden/roster_size"
    state = engine.apply(state, Roster(0, roster()))
    state = reveal(state, "ooooo")
    team = engine.next_runner(state)
    first = Run(team, 1, pick=0) if state.rosters[team] else Run(team, 1, runner=runner(3))
    state = engine.apply(state, first)
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, Roster(1, roster()))
    assert err.value.code == "ekiden/roster_closed"


def test_a_runner_runs_once() -> None:
    state = engine.initial_state(setup(3))
    for team in range(3):
        state = engine.apply(state, Roster(team, roster(team)))
    state = reveal(state, "ooooo")
    first = engine.next_runner(state)
    state = engine.apply(state, Run(first, 1, pick=4))
    while state.leg == 1:
        team = engine.next_runner(state)
        state = engine.apply(state, Run(team, 1, pick=0))
    state = reveal(state, "ooooo")
    while engine.next_runner(state) != first:
        team = engine.next_runner(state)
        state = engine.apply(state, Run(team, 2, pick=1))
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, Run(first, 2, pick=4))
    assert err.value.code == "ekiden/runner_used"
    assert 4 not in engine.legal_picks(state, first)


def test_a_typed_runner_named_like_one_the_team_already_ran_is_found_for_a_warning() -> None:
    """A runner runs once; a typed card is the referee's word, so a repeated name is only
    warned about (the page asks ``leg_run_by``), not refused."""
    state = reveal(engine.initial_state(setup(3)), "ooooo")
    first = engine.next_runner(state)
    assert first is not None
    state = run(state, first, replace(runner(4), name="Sato"))
    while state.leg == 1:
        state = run(state, engine.next_runner(state), replace(runner(3), name="Kato"))
    state = reveal(state, "ooooo")
    assert engine.leg_run_by(state, first, "Ｓａｔｏ") == 1  # width and case aside
    assert engine.leg_run_by(state, first, " sato ") == 1
    others = [t for t in range(3) if t != first]
    assert all(engine.leg_run_by(state, t, "Sato") is None for t in others)  # another team's
    assert all(engine.leg_run_by(state, t, "Kato") == 1 for t in others)
    assert engine.leg_run_by(state, first, "Suzuki") is None
    assert engine.leg_run_by(state, first, "") is None  # a card typed without a name
    while engine.next_runner(state) != first:
        state = run(state, engine.next_runner(state), runner(3))
    again = run(state, first, replace(runner(4), name="Sato"))  # warned, not refused
    assert [e.runner.name for e in again.history[-1] if e.team == first] == ["Sato"]


def test_a_team_with_a_roster_picks_from_it() -> None:
    state = engine.apply(engine.initial_state(setup(3)), Roster(0, roster()))
    state = reveal(state, "ooooo")
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, Run(0, 1, runner=runner(5)))
    assert err.value.code == "ekiden/pick_from_roster"


def test_a_teams_unplayed_runners_are_hidden_from_the_others() -> None:
    state = engine.apply(engine.initial_state(setup(3)), Roster(1, roster()))
    assert GAME.view(state, VIEWER).rosters == (None, None, None)
    assert GAME.view(state, Role.seat_of(1)).rosters[1] == roster()
    assert GAME.view(state, Role.seat_of(0)).rosters[1] is None
    assert GAME.view(state, REFEREE).rosters[1] == roster()
    assert GAME.view_action(state, Roster(1, roster()), VIEWER) is None


# --- the end -----------------------------------------------------------------------------


def test_the_relay_ends_after_leg_ten_with_standings() -> None:
    state = engine.initial_state(setup(3))
    for leg in range(10):
        state = one_leg(state, [runner(2 + (leg + i) % 5, up=leg % 3) for i in range(3)])
    assert state.phase == "over" and len(state.history) == 10
    outcome = GAME.outcome(state)
    assert outcome is not None and sum(len(g) for g in outcome.ranking) == 3
    assert outcome.ranking[0] == (engine.standings(state)[0],)
    with pytest.raises(GameOver):
        reveal(state, "ooooo")


def test_commander_has_no_effect_after_leg_ten() -> None:
    state = engine.initial_state(setup(3))
    for _ in range(10):
        state = one_leg(state, [runner(3, skill="commander")] * 3)
    assert state.commander == (0, 0, 0)


@settings(max_examples=40, deadline=None)
@given(teams=st.integers(3, 5), seed=st.integers(0, 10_000))
def test_random_legal_relays_keep_the_invariants(teams: int, seed: int) -> None:
    rng = random.Random(seed)
    state = engine.initial_state(setup(teams, start=rng.randrange(teams)))
    for team in range(teams):
        state = engine.apply(state, Roster(team, roster(rng.randrange(5))))
    while state.phase != "over":
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        assert sorted(engine.standings(state)) == list(range(teams))  # a permutation
    for team in range(teams):
        assert state.used[team] == frozenset(range(10))  # ten distinct runners each
    for results in state.history:
        assert sorted(e.team for e in results) == list(range(teams))  # one runner per leg
        assert tuple(e.rank for e in results) == engine.rank_labels(teams)
        assert sorted(e.standing for e in results) == list(range(1, teams + 1))


def test_the_log_of_an_undone_run_never_borrows_the_replacements_figures() -> None:
    from aids.games.ekiden.describe import describe

    state = reveal(engine.initial_state(setup(3)), "ooooo")
    team = engine.next_runner(state)
    undone = Run(team, 1, runner=runner(2))
    replacement = Run(team, 1, runner=runner(6, skill="commander"))
    after = engine.apply(state, replacement)  # the undone run was taken back
    assert describe(after, undone, "en").endswith("runs 2 ↑1 ↓1 no skill")
    assert "declared" not in describe(after, undone, "en")
    assert "declared power 6" in describe(after, replacement, "en")
