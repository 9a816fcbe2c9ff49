"""The Ekiden's live chances: what is drawn comes only from what the table has seen (runners
run, situation cards revealed; never a roster); Monte Carlo against exact enumeration; a
finished relay, and one already won, at 100 %; the same seed, the same figures."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest

from aids.core.i18n import t
from aids.games.base import REFEREE, VIEWER
from aids.games.chances import PlayoutTooLong, estimate
from aids.games.ekiden import engine
from aids.games.ekiden.chances import EkidenChances, mark_odds, result, runner_pool
from aids.games.ekiden.game import GAME
from aids.games.ekiden.model import (
    MARKS,
    EkidenState,
    Mark,
    Roster,
    Run,
    Runner,
    Situation,
    Terrain,
)
from tests.games.ekiden.helpers import reveal, run, runner, setup, situation

# runner kinds the races below are run with: few kinds keep exact enumeration cheap
KINDS = (
    runner(5, up=2, down=1, skill="commander"),
    runner(3, up=3, down=2, skill="front_runner"),
    runner(4, up=1, down=1, skill="anchor"),
)


def race(
    teams: int,
    kinds: tuple[Runner, ...],
    seed: int,
    stop: Callable[[EkidenState], bool],
    course: list[Terrain] | None = None,
) -> EkidenState:
    """A tracked relay without rosters: random cards, runners typed in from ``kinds``, until
    ``stop`` or the end."""
    rng = random.Random(seed)
    state = engine.initial_state(setup(teams, start=seed % teams, course=course))
    while not engine.is_over(state) and not stop(state):
        if state.phase == "situation":
            state = reveal(state, "".join(rng.choice("o-x") for _ in range(5)))
        else:
            team = engine.next_runner(state)
            assert team is not None
            state = run(state, team, rng.choice(kinds))
    return state


def viewed(state: EkidenState) -> EkidenState:
    return GAME.view(state, VIEWER)


def at(leg: int, played: int = 0, phase: str = "situation") -> Callable[[EkidenState], bool]:
    """Stop at ``leg`` in ``phase`` with ``played`` runners already run in it."""
    return lambda s: s.leg == leg and s.phase == phase and len(s.entries) == played


# --- what is drawn ----------------------------------------------------------------------------


def test_runners_not_yet_run_are_drawn_from_the_runners_run_at_this_table() -> None:
    """Runner values are not in the rulebook: the pool is every runner run so far (names
    dropped); before the first, the engine's typed-in runners (every power and skill)."""
    state = race(4, KINDS, 1, at(3, played=2, phase="runners"))
    pool = runner_pool(viewed(state))
    assert len(pool) == 2 * 4 + 2
    assert set(pool) <= set(KINDS)
    start = engine.initial_state(setup(4))
    typed = engine.legal_actions(reveal(start, "-----"))
    assert runner_pool(start) == [a.runner for a in typed if isinstance(a, Run)]
    assert {r.power for r in runner_pool(start)} == {2, 3, 4, 5, 6}


def test_situation_marks_follow_the_revealed_ones_plus_one_of_each() -> None:
    """Situation cards' marks are not in the rulebook: at each rank given out (1, 3, 5 with
    three teams) a card not yet revealed shows ○ — × as the revealed cards did there, plus
    one of each; before any card, uniformly."""
    state = engine.initial_state(setup(3))
    assert all(p == (1 / 3, 1 / 3, 1 / 3) for _, p in mark_odds(state))
    state = reveal(state, "oxx-x")  # ranks 1, 3, 5 read o, x, x
    for team in engine.standings(state)[::-1]:
        state = run(state, team, KINDS[2])
    state = reveal(state, "o-ooo")  # leg 2's card, revealed: o, o, o
    odds = dict(mark_odds(state))
    assert set(odds) == {1, 3, 5}
    assert odds[1] == (3 / 5, 1 / 5, 1 / 5)
    assert odds[3] == (2 / 5, 1 / 5, 2 / 5)
    assert odds[5] == (2 / 5, 1 / 5, 2 / 5)


# --- decided, exact, Monte Carlo ----------------------------------------------------------------


def test_a_finished_relay_is_decided_exactly_from_the_final_standings() -> None:
    """After leg 10 standing 1 wins: 100 % for the winner, 0 for the others, each team's
    standing as it finished, and no playouts."""
    state = race(5, KINDS, 7, lambda s: False)
    result = estimate(GAME.chances(()), viewed(state))
    assert result.exact and result.playouts == 0 and result.worst_error == 0.0
    order = engine.standings(state)
    assert [result.value("win", team) for team in range(5)] == [
        1.0 if team == order[0] else 0.0 for team in range(5)
    ]
    assert [result.value("standing", team) for team in range(5)] == [
        float(order.index(team) + 1) for team in range(5)
    ]


def _runaway() -> EkidenState:
    """Aki leads by 27 columns before leg 10: nine legs of rank 1 on ○ +3, the others on —."""
    state = engine.initial_state(setup(3))
    leader, chaser = runner(6, up=3, down=1), runner(2, up=1, down=1)
    while state.leg < 10:
        state = reveal(state, "oo---")  # three teams read ranks 1, 3, 5: o, -, -
        for team in engine.standings(state)[::-1]:
            state = run(state, team, leader if team == 0 else chaser)
    return state


def test_a_relay_already_won_before_the_last_leg_gives_100_percent_from_the_playouts_too() -> None:
    """Moves are a runner's up or down value: with a 27-column lead and no runner seen moving
    more than 3, leg 10 cannot change the winner — the playouts say 100 % with no error."""
    state = viewed(_runaway())
    assert [p.column for p in state.places] == [27, 0, 0]
    result = estimate(EkidenChances(exact_leaves=0), state, playouts=2_000, seed=5)
    assert not result.exact and result.playouts == 2_000
    assert result.value("win", 0) == 1.0 and result.error("win", 0) == 0.0
    assert result.value("win", 1) == result.value("win", 2) == 0.0
    assert result.value("standing", 0) == 1.0
    exact = estimate(GAME.chances(()), state)
    assert exact.exact and exact.value("win", 0) == 1.0


def test_a_relay_whose_every_place_is_fixed_is_decided_at_once() -> None:
    """Chances (Ekiden): once every piece leads the next by more columns than the legs left
    could close (each leg at most the farthest step forward and back of a runner seen at the
    table), the figures are decided at once — no playouts, no enumeration, no queue — and
    they are what the playouts say with no error; a leg sooner, one gap could close."""
    state, legs = engine.initial_state(setup(3)), {}
    fast, middle, slow = runner(6, up=9, down=0), runner(4, up=2, down=0), runner(2, up=0, down=1)
    while state.leg < 10:
        legs[state.leg] = viewed(state)
        state = reveal(state, "o-o-x")  # three teams read ranks 1, 3, 5: o, o, x
        for team in engine.standings(state)[::-1]:
            state = run(state, team, (fast, middle, slow)[team])
    model = GAME.chances(())
    assert [p.column for p in legs[9].places] == [72, 16, -8]  # gaps 56, 24 > 2 legs × 10
    assert model.decided(legs[8]) is None  # gap 21 <= 3 legs × 10
    known = estimate(model, legs[9])
    assert known.exact and known.playouts == 0
    assert known.values == (1.0, 0.0, 0.0, 1.0, 2.0, 3.0)
    sampled = estimate(model, legs[9], playouts=500, exact=False)
    assert sampled.values == known.values and max(sampled.errors) == 0.0


POSITIONS = {
    "3 teams, leg 10 before its card": (3, KINDS, 2, at(10)),
    "4 teams, leg 10 before its card": (4, KINDS[:2], 3, at(10)),
    "5 teams, leg 10 before its card": (5, KINDS[1:], 4, at(10)),
    "3 teams, leg 9 with two runners run": (3, KINDS[:2], 29, at(9, 2, "runners")),
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_monte_carlo_agrees_with_exact_enumeration_on_small_positions(name: str) -> None:
    """Chances (Ekiden): where every card and runner still to come can be enumerated, 20,000
    playouts on the engine (sampled hands, uniform picks) give each figure within its stated
    error (taken at 99.9 %, 1.68 × the 95 % half-width, as there are many figures) — which
    also checks that a uniform pick from sampled hands is one draw from the pool."""
    teams, kinds, seed, stop = POSITIONS[name]
    state = viewed(race(teams, kinds, seed, stop))
    exact = EkidenChances().exact(state)
    assert exact is not None
    assert any(0.05 < p < 0.95 for p in exact[:teams])  # not already decided
    mc = estimate(EkidenChances(exact_leaves=0), state, playouts=20_000, seed=seed)
    assert not mc.exact and mc.playouts == 20_000
    for measure, want, got, error in zip(mc.measures, exact, mc.values, mc.errors, strict=True):
        assert abs(got - want) <= 1.68 * error + 1e-9, (measure, want, got, error)
    assert sum(exact[:teams]) == pytest.approx(1.0)
    assert sum(exact[teams:]) == pytest.approx(teams * (teams + 1) / 2)


def engine_exact(state: EkidenState) -> list[float]:
    """The model's figures by brute force over the engine: every card to come at the ranks
    given out (other ranks —) and every runner of the pool for every runner to run, each
    with its chance, through ``engine.apply``."""
    pool = Counter(runner_pool(state))
    runners = [(r, count / pool.total()) for r, count in pool.items()]
    odds = mark_odds(state)
    cards = []
    for combo in itertools.product(range(3), repeat=len(odds)):
        marks: list[Mark] = ["-"] * 5
        chance = 1.0
        for (label, p), i in zip(odds, combo, strict=True):
            marks[label - 1], chance = MARKS[i], chance * p[i]
        cards.append((tuple(marks), chance))

    def expected(s: EkidenState) -> list[float]:
        if engine.is_over(s):
            return result(s)
        team = engine.next_runner(s)
        branches: list[tuple[Situation | Run, float]] = (
            [(Situation(s.leg, m), p) for m, p in cards]
            if team is None
            else [(Run(team, s.leg, runner=r), p) for r, p in runners]
        )
        total = [0.0] * (2 * s.teams)
        for action, chance in branches:
            for i, v in enumerate(expected(engine.apply(s, action))):
                total[i] += chance * v
        return total

    return expected(state)


SLOPES = [Terrain("up", 2), Terrain("down", 3), Terrain("flat"), Terrain("up", 1)] * 2 + [
    Terrain("down", 1),
    Terrain("up", 3),
]
VARIED = (
    runner(4, up=3, down=0, skill="uphill"),
    runner(5, up=1, down=2, skill="downhill"),
    runner(3, up=2, down=2, skill="return"),
    runner(6, up=0, down=1, skill="outbound"),
    runner(4, up=1, down=1, skill="front_runner"),
    runner(2, up=3, down=3, skill="commander"),
)
Position = tuple[int, tuple[Runner, ...], int, Callable[[EkidenState], bool], list[Terrain] | None]
EXACT_POSITIONS: dict[str, Position] = {
    **{name: (*position, None) for name, position in POSITIONS.items()},
    "5 teams, leg 10 with two runners run": (5, KINDS[1:], 4, at(10, 2, "runners"), None),
    "3 teams, leg 10 with one runner run": (3, KINDS, 5, at(10, 1, "runners"), None),
    "4 teams, leg 10 with its card, sloped": (4, VARIED, 11, at(10, 1, "runners"), SLOPES),
    "3 teams, leg 10 before its card, sloped": (3, VARIED, 12, at(10), SLOPES),
    "3 teams, leg 9 with two runners run, sloped": (3, VARIED[:3], 13, at(9, 2, "runners"), SLOPES),
}


@pytest.mark.parametrize("name", sorted(EXACT_POSITIONS))
def test_exact_figures_are_an_enumeration_over_the_engine(name: str) -> None:
    """Chances (Ekiden): the exact figures — runners alike in what the rules read merged,
    the last leg summed over each piece's columns rather than enumerated — are, to 1e-9,
    the brute-force enumeration through ``engine.apply`` of every card and every runner of
    the pool (sloped legs, every skill, the Commander's bonus carried into leg 10)."""
    teams, kinds, seed, stop, course = EXACT_POSITIONS[name]
    state = viewed(race(teams, kinds, seed, stop, course))
    exact = EkidenChances().exact(state)
    assert exact is not None
    assert exact == pytest.approx(engine_exact(state), abs=1e-9)


def test_the_last_leg_is_known_exactly_from_its_start() -> None:
    """Chances (Ekiden): from the start of leg 10 (its card not yet revealed), through each
    runner, to the relay over, a 5-team table that has run every typed-in kind of runner
    (seven declared powers on a flat leg) gets exact figures, no playouts: the last leg's
    card and moves are summed, only the declared powers enumerated; over, it is decided."""
    kinds = tuple(runner_pool(engine.initial_state(setup(5))))
    state = race(5, kinds, 21, at(10))
    while True:
        figures = estimate(GAME.chances(()), viewed(state))
        assert figures.exact and figures.playouts == 0
        assert sum(figures.values[:5]) == pytest.approx(1.0)
        if engine.is_over(state):
            break
        if state.phase == "situation":
            state = reveal(state, "ox-o-")
        else:
            state = run(state, engine.next_runner(state) or 0, kinds[7 * len(state.entries)])
    assert GAME.chances(()).decided(viewed(state)) == tuple(result(state))


def test_exact_only_where_cheap_and_the_budget_stops_the_playouts_early() -> None:
    """Early in the relay the cards and runners to come are far too many to enumerate: the
    figures are sampled, and a budget of a hundredth of a second stops them early (checked
    after each relay), with the wide error they leave; a spent budget still gives one."""
    state = viewed(race(4, KINDS, 8, at(3)))
    model = GAME.chances(())
    assert model.exact(state) is None
    result = estimate(model, state, playouts=100_000, seed=1, budget=0.01)
    assert not result.exact and 1 <= result.playouts < 100_000
    assert sum(result.value("win", team) for team in range(4)) == pytest.approx(1.0)
    assert 0.0 < result.worst_error <= 1.0
    spent = estimate(model, state, playouts=100_000, seed=1, budget=0.0)
    assert spent.playouts == 1 and spent.worst_error == 1.0


# --- honesty ------------------------------------------------------------------------------------


def _with_rosters(late: Runner) -> list[EkidenState]:
    """A table where every team entered a roster (hidden from the viewer) and ran its first
    two runners; Aki's unplayed runners are all ``late``."""
    state = engine.initial_state(setup(3))
    for team in range(3):
        roster = (*KINDS[:2], *(late if team == 0 else KINDS[2] for _ in range(8)))
        state = engine.apply(state, Roster(team, roster))
    history = [state]
    for marks in ("o-x-x", "-o-xo"):
        history.append(state := engine.apply(state, situation(state, marks)))
        for team in engine.standings(state)[::-1]:  # roster runner 1 on leg 1, 2 on leg 2
            history.append(state := engine.apply(state, Run(team, state.leg, pick=state.leg - 1)))
    return history


def test_the_figures_never_depend_on_a_roster_hidden_from_the_viewer() -> None:
    """Every read passes ``view``: whatever Aki's hidden runners hold (slow or very fast),
    the viewer's figures are the same — and the model ignores a roster even if handed one."""
    slow, fast = runner(2, up=0, down=9), runner(6, up=9, down=0, skill="anchor")
    figures = []
    for late in (slow, fast):
        history = _with_rosters(late)
        assert history[-1].rosters[0] is not None
        public = [GAME.view(s, VIEWER) for s in history]
        assert public[-1].rosters == (None, None, None)
        for last in (public[-1], GAME.view(history[-1], REFEREE)):
            result = estimate(GAME.chances(public), last, playouts=300, seed=9)
            figures.append(result.values)
    assert len(set(figures)) == 1


def test_the_same_seed_gives_the_same_figures() -> None:
    """Anyone can reproduce a figure: ``estimate(model, state, seed=seq)`` twice is the same
    to the last digit; another seed differs within the error."""
    state = viewed(race(4, KINDS, 6, at(6)))
    model = GAME.chances(())
    first = estimate(model, state, playouts=800, seed=42)
    again = estimate(GAME.chances(()), state, playouts=800, seed=42)
    other = estimate(model, state, playouts=800, seed=43)
    assert (first.values, first.errors) == (again.values, again.errors)
    assert first.values != other.values
    assert first.model == "ekiden.chances.model"


def test_the_page_names_each_figure_by_team_and_each_group_in_both_languages() -> None:
    """The page shows the win chances then the expected standings, each row the team's piece
    colour and name; the model's line exists in ja and en."""
    state = engine.initial_state(setup(3))
    model = GAME.chances(())
    assert model.groups == ("win", "standing")
    measures = model.measures(state)
    assert [m.kind for m in measures] == ["probability"] * 3 + ["rank"] * 3
    assert model.label(state, measures[4], "ja") == "🔵 Ben"
    for lang in ("ja", "en"):
        for key in ("win", "standing", "model"):
            assert t(f"ekiden.chances.{key}", lang) != f"ekiden.chances.{key}"
    assert replace(state, rosters=(None,) * 3) == viewed(state)


def test_a_playout_past_its_step_cap_raises_instead_of_looping() -> None:
    """Chances (issue 18): a relay played out is capped in engine steps; one past the cap
    (a bug) raises ``PlayoutTooLong`` for the worker to log, never loops for ever."""
    state = viewed(race(3, KINDS, 8, at(2)))
    with pytest.raises(PlayoutTooLong) as err:
        EkidenChances(exact_leaves=0, max_steps=5).playouts(state, 3, random.Random(1))
    assert err.value.kind == "ekiden"
    assert len(EkidenChances(exact_leaves=0).playouts(state, 3, random.Random(1))) == 3
