"""Grand National's live chances: the engine's own moves straight on at a rider's pace; Monte
Carlo against exact enumeration near the finish; a settled race and a certain one at 100 %;
sealed blind bets out of every figure; the same seed, the same figures.

Horses by index: stable × 4 + slot (``helpers.FIELD``): Aki (seat 0) 0 Red Rum +6, 1 Aldaniti +4,
2 Foinavon +1, 3 Party Politics +3; Ben (seat 1) 4 Corbiere +5 …; Chie (seat 2) 8 Amberleigh +6 …
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from aids.games.base import CHANCE, REFEREE, VIEWER
from aids.games.chances import Estimate, Measure, PlayoutTooLong, estimate
from aids.games.grand_national import GAME, engine
from aids.games.grand_national.chances import GnChances, result
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import horse_label, stable_label
from aids.games.grand_national.fast_state import speeds
from aids.games.grand_national.model import (
    Action,
    Bet,
    BlindBet,
    GnState,
    Going,
    LaneSpin,
    Move,
    PullUp,
    Start,
)
from tests.games.grand_national.helpers import placed_at, setup

PRIZES = sum(load().prizes)  # $430,000 to the owners of 1st–4th


def viewed(history: Sequence[GnState]) -> list[GnState]:
    return [GAME.view(s, VIEWER) for s in history]


def steps(history: list[GnState], *actions: Action) -> list[GnState]:
    """The history with ``actions`` applied in turn (as the referee records them)."""
    for action in actions:
        history.append(engine.apply(history[-1], action))
    return history


def to_start(blind: BlindBet | None = None, *extra: Action, stables: int = 3) -> list[GnState]:
    """From the deal to the start: seat 0's blind bet (none by default), the others none, the
    going Good, lanes spun from Red, then ``extra`` (bets) in the market, then the start."""
    field = setup()
    if stables < len(field.stables):
        field = replace(field, stables=field.stables[:stables], bookmaker=0)
    history = [engine.initial_state(field)]
    bets = [blind or BlindBet(0, None, None, 0)]
    bets += [BlindBet(s, None, None, 0) for s in range(1, stables)]
    lanes = [LaneSpin(lane, "red") for lane in range(1, 5)]
    return steps(history, *bets, Going("good"), *lanes, *extra, Start())


def _played(
    history: list[GnState],
    rng: random.Random,
    until: Callable[[GnState], bool] = lambda state: False,
) -> list[GnState]:
    """The history played on with the model's own choices (until ``until(state)`` or the end)."""
    model = GnChances()
    while history[-1].phase != "over" and not until(history[-1]):
        options = model.choices(history[-1])
        history.append(engine.apply(history[-1], rng.choice(list(options))))
    return history


def _horses(est: Estimate, group: str) -> list[float]:
    return [v for m, v in zip(est.measures, est.values, strict=True) if m.group == group]


# --- the model: the engine's own choices -----------------------------------------------------


def test_the_model_moves_each_horse_straight_on_at_a_riders_pace_among_the_engines_moves() -> None:
    """Every step of a playout is one of the engine's legal actions: a move is one of the
    engine's moves that keep the lane, at a speed the rider's pace allows (``fast_state.speeds``:
    the even pace or one either side, never one that leaves the horse unable to finish); a
    spin is one of the engine's chance actions; no pull-up, card or boxed turn is chosen."""
    rng = random.Random(4)
    model = GnChances()
    for _ in range(3):
        history = _played(to_start(), rng)
        for state in history[:-1]:
            if state.phase != "race":
                continue
            if engine.needs_spin(state):
                assert list(model.choices(state)) == list(engine.legal_actions(state, CHANCE))
                continue
            horse = engine.next_horse(state)
            assert horse is not None
            legal = engine.legal_actions(state, REFEREE)
            straight = [a for a in legal if isinstance(a, Move) and a.lane == state.lane[horse]]
            chosen = list(model.choices(state))
            assert chosen and set(chosen) <= set(straight)
            lengths = state.setup.track.finish - state.distance[horse]
            want = speeds("rider", state.handicap[horse], lengths, state.speed_left(horse))
            assert [m.forward - state.handicap[horse] for m in chosen] == want


@pytest.mark.parametrize(("order", "too_free"), [("caps", "round_end"), ("position", "any_time")])
def test_playouts_run_to_the_engines_end_under_either_turn_order(order: str, too_free: str) -> None:
    """The variants (turn order by position, running too free checked at the round's end) are
    the engine's to apply: every playout ends with the race over and four placed."""
    history = [engine.initial_state(setup(order=order, too_free=too_free))]
    model = GnChances(history)
    for final in (model.play_out(history[-1], random.Random(seed)) for seed in range(4)):
        assert final.phase == "over" and final.settled and len(final.placed) == 4


def test_labels_and_titles_name_horses_and_stables_as_the_page_does() -> None:
    state = to_start()[-1]
    model = GAME.chances(())
    assert isinstance(model, GnChances)
    assert model.label(state, Measure("win", 0), "en") == horse_label(state, 0) == "🔴 Red Rum"
    assert model.label(state, Measure("money", 1, "expected"), "ja") == stable_label(state, 1)
    assert [model.title(g, "en") for g in model.groups] == [
        "Wins", "Placed 1st–4th", "Expected money ($)",
    ]  # fmt: skip
    assert model.title("win", "ja") != model.title("win", "en")
    measures = model.measures(state)
    assert len(measures) == 12 + 12 + 3
    assert {m.kind for m in measures if m.group == "money"} == {"expected"}


# --- Monte Carlo against exact enumeration ----------------------------------------------------


def _near_the_finish(seed: int) -> list[GnState]:
    """A 2-stable race with bets at the posted odds, played by the model until the page's
    exact enumeration succeeds and some figure is still open (the fourth place)."""
    rng = random.Random(seed)
    model = GnChances()
    while True:
        history = to_start(None, Bet(1, 0, "win", 1000), Bet(0, 5, "show", 2000), stables=2)
        while history[-1].phase != "over":
            state = history[-1]
            known = model.exact(state) if state.placed else None
            if known is not None and any(0.0 < v < 1.0 for v in known[: 2 * state.horses]):
                return history
            history.append(engine.apply(state, rng.choice(list(model.choices(state)))))


def _two_horse_finish(**where: int) -> list[GnState]:
    """Every horse but Red Rum (0, +6) and Corbiere (4, +5) pulled up at the start, the two
    then put ``where`` lengths from the start line (``h0=82``): a finish of one or two rounds
    (Red Rum 14 from home finishes at its even pace of 8, not at 7), the spinner deciding who
    goes first in the second; bets at the posted odds on both."""
    history = to_start(None, Bet(1, 0, "win", 1_000), Bet(0, 4, "show", 2_000))
    steps(history, *(PullUp(h) for h in range(12) if h not in (0, 4)))
    history.append(placed_at(history[-1], **where))
    return history


POSITIONS = {
    "fourth place, seed 1": lambda: _near_the_finish(1),
    "fourth place, seed 2": lambda: _near_the_finish(2),
    "fourth place, seed 3": lambda: _near_the_finish(3),
    "two-horse finish, one round": lambda: _two_horse_finish(h0=82, h4=84),
    "two-horse finish, two rounds": lambda: _two_horse_finish(h0=68, h4=72),
}


@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_monte_carlo_agrees_with_exact_enumeration_near_the_finish(position: str) -> None:
    """Chances (issue 11): where every spin and speed to the end can be enumerated (the same
    enumeration the page uses, allowed more steps here), 4,000 playouts give each figure
    within its stated error (taken at 99.9 %, 1.68 × the 95 % half-width, as there are many
    figures)."""
    history = viewed(POSITIONS[position]())
    model = GnChances(history)
    model.exact_nodes = 20_000
    exact = model.exact(history[-1])
    assert exact is not None
    horses = history[-1].horses
    assert sum(0.0 < v < 1.0 for v in exact[: 2 * horses]) >= 2  # something is still open
    mc = estimate(model, history[-1], playouts=4_000, seed=len(position), exact=False)
    assert not mc.exact and mc.playouts == 4_000
    for measure, want, got, error in zip(mc.measures, exact, mc.values, mc.errors, strict=True):
        assert abs(got - want) <= 1.68 * error + 1e-9, (measure, want, got, error)
    assert sum(exact[:horses]) == pytest.approx(1.0)  # one winner
    placed = len(history[-1].placed) + len(engine.running(history[-1]))
    assert sum(exact[horses : 2 * horses]) == pytest.approx(min(4, placed))


def test_the_page_gets_exact_figures_near_the_finish_without_playouts() -> None:
    """With the page's own limits, a position a few steps from its end is computed exactly."""
    history = viewed(_two_horse_finish(h0=82, h4=84))
    est = estimate(GnChances(history), history[-1])
    assert est.exact and est.playouts == 0
    assert 0.0 < est.value("win", 0) < 1.0 and est.value("placed", 0) == 1.0
    far = viewed(to_start())
    assert GnChances(far).exact(far[-1]) is None  # the start: playouts


# --- decided and certain positions -----------------------------------------------------------


def test_a_settled_race_is_decided_exactly_from_the_ledger_blind_bets_included() -> None:
    """Once the race is over nothing is left to chance: the winner at 100 %, the four placed
    at 100 %, the rest at 0, each stable's money its cash after the settlement (the blind
    bet, opened now, included), and no playouts."""
    blind = BlindBet(0, 8, "show", 10_000)
    history = _played(to_start(blind, Bet(1, 4, "win", 5_000)), random.Random(21))
    final = viewed(history)[-1]
    assert final.settled and final.blind[0] == blind
    est = estimate(GnChances(viewed(history)), final)
    assert est.exact and est.playouts == 0 and est.worst_error == 0.0
    assert _horses(est, "win") == [1.0 if h == final.placed[0] else 0.0 for h in range(12)]
    assert _horses(est, "placed") == [1.0 if h in final.placed else 0.0 for h in range(12)]
    assert _horses(est, "money") == [float(engine.cash(final, s)) for s in range(3)]
    assert any(line.reason == "blind" for line in final.ledger)


def test_a_race_whose_outcome_is_certain_gives_100_percent_from_the_playouts_too() -> None:
    """Every horse but Red Rum (+6, 60 speed points: it cannot run out) pulled up: it wins
    whatever speeds it is given, so the playouts say 100 % with no error, and the money is
    certain too (its prize, and Ben's Win bet on it paid at 12/1)."""
    start = to_start(None, Bet(1, 0, "win", 1_000))
    history = steps(start, *(PullUp(h) for h in range(1, 12)))
    state = history[-1]
    assert state.phase == "race" and engine.running(state) == [0]
    model = GnChances(viewed(history))
    est = estimate(model, viewed(history)[-1], playouts=300, seed=3, exact=False)
    assert est.playouts == 300 and not est.exact
    assert est.value("win", 0) == 1.0 and est.value("placed", 0) == 1.0
    assert all(est.value("win", h) == 0.0 for h in range(1, 12))
    cash = [engine.cash(state, s) for s in range(3)]
    assert _horses(est, "money") == [cash[0] + 250_000, cash[1] + 13_000, cash[2]]
    assert max(est.errors) == 0.0


# --- secrecy -----------------------------------------------------------------------------------


@pytest.mark.parametrize("phase", ["blind_bets", "market", "race"])
def test_a_sealed_blind_bet_changes_no_figure(phase: str) -> None:
    """Two tables that differ only in seat 0's sealed blind bet ($10,000 to Win on a 100/1
    horse, or no blind bet at all) give the viewer identical histories and identical figures:
    the stake is not on the ledger until settlement, and the model never settles it."""
    figures = []
    for blind in (BlindBet(0, 2, "win", 10_000), BlindBet(0, None, None, 0)):
        history = to_start(blind)
        if phase == "blind_bets":
            history = history[:2]  # seat 0's bet written, the others not yet
        elif phase == "market":
            history = history[:-1]
        else:
            history = _played(history, random.Random(8), lambda s: s.round == 4)
        seen = viewed(history)
        est = estimate(GnChances(seen), seen[-1], playouts=60, seed=5)
        figures.append((seen, est.values, est.errors))
    assert figures[0] == figures[1]


# --- reproducible, and honest when stopped early ---------------------------------------------


def test_the_same_seed_gives_the_same_figures_and_another_seed_others() -> None:
    history = viewed(_played(to_start(), random.Random(30), lambda s: s.round == 3))
    model = GnChances(history)
    first = estimate(model, history[-1], playouts=80, seed=9)
    again = estimate(GnChances(history), history[-1], playouts=80, seed=9)
    other = estimate(model, history[-1], playouts=80, seed=10)
    assert first.values == again.values and first.errors == again.errors
    assert first.values != other.values


def test_a_budget_stops_the_playouts_early_with_the_error_it_has() -> None:
    """Chances (issues 11, 18): a spent budget stops the playouts after the game in hand
    (checked after each game, not each batch); the page then says how many games were
    simulated and the error they leave: one game tells nothing (±100 points)."""
    history = viewed(to_start())
    est = estimate(GnChances(history), history[-1], playouts=10_000, seed=1, budget=0.0, batch=20)
    assert est.playouts == 1 and not est.exact
    assert est.worst_error == 1.0


def test_before_the_start_the_going_and_lanes_are_spun_and_every_race_pays_its_prizes() -> None:
    """While blind bets are written the rest is modelled: the going and the lanes spun at
    random, the race run; every simulated race has one winner, four placed and pays $430,000
    in prize money (no bets taken: the stables' money grows by exactly that)."""
    history = viewed(steps([engine.initial_state(setup())], BlindBet(1, 3, "win", 500)))
    state = history[-1]
    assert state.phase == "blind_bets"
    est = estimate(GnChances(history), state, playouts=60, seed=2)
    assert sum(_horses(est, "win")) == pytest.approx(1.0)
    assert sum(_horses(est, "placed")) == pytest.approx(4.0)
    cash = sum(engine.cash(state, s) for s in range(3))
    assert sum(_horses(est, "money")) == pytest.approx(cash + PRIZES)


def test_one_playouts_figures_are_the_engines_results_and_ledger() -> None:
    """A playout's row: 1 for the winner, 1 for each of the four placed, each stable's cash
    on the engine's ledger after its settlement."""
    final = _played(to_start(None, Bet(2, 9, "show", 700)), random.Random(12))[-1]
    row = result(final)
    assert row[final.placed[0]] == 1.0 and sum(row[:12]) == 1.0
    assert [h for h in range(12) if row[12 + h]] == sorted(final.placed)
    assert list(row[24:]) == [engine.cash(final, s) for s in range(3)]


def test_a_playout_past_its_step_cap_raises_instead_of_looping() -> None:
    """Chances (issue 18): a race played out is capped in engine steps; one past the cap (a
    bug) raises ``PlayoutTooLong`` for the worker to log — it no longer stops silently and
    counts an unfinished race as a result."""
    history = viewed(to_start())
    model = GnChances(history)
    model.max_steps = 5
    with pytest.raises(PlayoutTooLong) as err:
        model.playouts(history[-1], 2, random.Random(1))
    assert err.value.kind == "gn"
