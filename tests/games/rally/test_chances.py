"""The rally's live chances: the greedy driver plays only the engine's legal actions and brings
the cars home; the hidden cards are dealt from what the table has not seen; Monte Carlo
against exact enumeration; settled places at 100 %; nothing hidden ever changes a figure."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from aids.games.base import VIEWER, Role
from aids.games.chances import Estimate, Measure, PlayoutTooLong, decided, estimate
from aids.games.rally import GAME, engine
from aids.games.rally.chances import (
    CAP_ROUNDS,
    RallyChances,
    choices,
    play_out,
    result,
    unseen,
)
from aids.games.rally.model import EndRace, Machine, RallySetup, RallyState, TurnRecord

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi"]


def setup(
    players: int, *, mode: str = "simulation", seed: int = 1, teams: list[int] | None = None
) -> RallySetup:
    """The sample map's first course (Tokyo → Sapporo), Balanced machines."""
    base = RallySetup.default(NAMES[:players], mode=mode, seed=seed)  # type: ignore[arg-type]
    if teams is None:
        return base
    players_ = tuple(replace(p, team=teams[i]) for i, p in enumerate(base.players))
    names = tuple(f"Team {t + 1}" for t in range(max(teams) + 1))
    return replace(base, players=players_, teams=names)


def greedy_step(state: RallyState, rng: random.Random) -> RallyState:
    options = choices(state)
    actions = [a for a, _ in options]
    action = rng.choices(actions, weights=[w for _, w in options])[0]
    return engine.apply(state, action)


def race(players: int, seed: int, rounds: int, teams: list[int] | None = None) -> list[RallyState]:
    """A simulated race played by the greedy driver until ``rounds`` have passed (or the
    end): the referee's history of states."""
    rng = random.Random(seed)
    state = engine.initial_state(setup(players, seed=seed, teams=teams))
    history = [state]
    while state.phase != "over" and state.round <= rounds:
        state = greedy_step(state, rng)
        history.append(state)
    return history


def viewed(history: list[RallyState]) -> list[RallyState]:
    return [GAME.view(s, VIEWER) for s in history]


# --- the model of the players' choices --------------------------------------------------------


def test_the_greedy_driver_chooses_only_legal_actions_with_probabilities_adding_to_one() -> None:
    """Every action the model may take is one the engine lists as legal for the seat to act
    (no second copy of the rules), and its probabilities add up to 1."""
    positions = 0
    for seed in range(10):
        for state in race(2 + seed % 4, seed, rounds=200):
            if state.phase == "over":
                continue
            options = choices(state)
            legal = engine.legal_actions(state, Role.seat_of(state.turn))
            assert all(a in legal for a, _ in options), state
            assert sum(w for _, w in options) == pytest.approx(1.0)
            positions += 1
    assert positions > 2_000


def test_the_greedy_driver_brings_every_car_home_where_uniform_play_does_not() -> None:
    """The measured reason for the model (module docstring): on the sample map's Tokyo →
    Sapporo course, greedy races end with every car at the goal well within the round cap,
    while uniformly random legal play gets no car there in 100 rounds."""
    rng = random.Random(8)
    for seed in range(4):
        start = engine.initial_state(setup(4, seed=seed))
        final = play_out(start, rng, start.round + CAP_ROUNDS)
        assert final.phase == "over" and not final.ended
        assert sorted(final.arrived) == [0, 1, 2, 3] and final.round < CAP_ROUNDS
    for seed in range(2):
        state = engine.initial_state(setup(4, seed=seed))
        while state.round <= 100:
            legal = engine.legal_actions(state, Role.seat_of(state.turn))
            state = engine.apply(state, rng.choice(legal))
        assert state.arrived == ()


# --- what the table has seen ------------------------------------------------------------------


def test_the_unseen_cards_are_every_card_but_those_seen_played_since_the_last_reshuffle() -> None:
    """From the viewer's history alone: the cards seen are in the referee's discard pile, the
    rest of it is as many cards as the model counts unseen there, and the unseen cards are
    exactly the hands, the pile and those unseen discards (the deck's 104 in all)."""
    history = race(4, 5, rounds=16)
    truth = history[-1]
    assert truth.reshuffles >= 1  # the pile has run out at least once
    for upto in (len(history) // 3, len(history) - 1):
        state, seen_by = history[upto], viewed(history[: upto + 1])
        cards, seen, hidden = unseen(seen_by, seen_by[-1])
        thrown = Counter(state.discard) - Counter(seen)
        assert not Counter(seen) - Counter(state.discard)
        assert sum(thrown.values()) == hidden
        held = Counter(c for hand in state.hands for c in hand) + Counter(state.pile)
        assert Counter(cards) == held + thrown
        assert len(cards) + len(seen) == 104


def test_without_the_history_after_a_reshuffle_every_card_counts_as_unseen() -> None:
    """Never guess: past a reshuffle, the state alone cannot say which cards were seen since;
    the model then deals all 104 cards (knowing less, never wrongly)."""
    state = GAME.view(race(4, 5, rounds=16)[-1], VIEWER)
    cards, seen, hidden = unseen((), state)
    assert len(cards) == 104 and seen == [] and hidden == state.discard_size


def test_a_sampled_deal_keeps_everything_the_table_sees() -> None:
    """A deal gives each hand its public size, the pile its public count, the discard pile
    its count with every seen card in it; the cars, statuses and turn are untouched."""
    history = viewed(race(4, 6, rounds=14))
    state = history[-1]
    model = RallyChances(history)
    _, seen, _ = unseen(history, state)
    rng = random.Random(1)
    for _ in range(20):
        dealt = model.sample(state, rng)
        assert tuple(len(h) for h in dealt.hands) == state.hand_sizes
        assert len(dealt.pile) == state.pile_size and len(dealt.discard) == state.discard_size
        assert not Counter(seen) - Counter(dealt.discard)
        cards = [*dealt.pile, *dealt.discard, *(c for h in dealt.hands for c in h)]
        assert Counter(cards) == Counter(engine.full_deck())
        public = ("towns", "rain", "engine", "police", "jams", "arrived", "turn", "phase")
        assert all(getattr(dealt, f) == getattr(state, f) for f in public)


# --- Monte Carlo against exact enumeration -------------------------------------------------


def tiny(
    towns: list[str],
    cards: list[str],
    hands: list[int],
    *,
    thrown: int = 0,
    teams: list[int] | None = None,
) -> RallyState:
    """A constructed position on the sample map: cars near Sapporo with 2 / 2 / 1 machines,
    every card but ``cards`` seen played (one public turn record), ``thrown`` of ``cards``
    thrown down unseen, the rest in the hands (``hands`` sizes) and the pile."""
    base = setup(len(towns), mode="tracking", teams=teams)
    machine = Machine(2, 2, 1)
    players = tuple(replace(p, machine=machine) for p in base.players)
    start = engine.initial_state(replace(base, players=players))
    seen = tuple(sorted((Counter(engine.full_deck()) - Counter(cards)).elements()))
    return replace(
        start,
        towns=tuple(towns),
        hand_sizes=tuple(hands),
        pile_size=len(cards) - sum(hands) - thrown,
        discard_size=len(seen) + thrown,
        turns=(TurnRecord(0, 1, base.start, cards=seen),),
    )


SMALL = {
    "two cars, a jam and rain unseen": (
        tiny(["tomakomai", "otaru"], ["20", "25", "40", "40", "rain", "top", "jam"], [1, 1],
             thrown=1),
        1,
    ),
    "three cars, one in the rain, police unseen": (
        replace(
            tiny(["kutchan", "otaru", "takikawa"],
                 ["30", "30", "50", "50", "police", "clear_sky", "40"], [1, 1, 1]),
            rain=(False, True, False),
        ),
        0,
    ),
    "four cars in two teams": (
        tiny(["kutchan", "otaru", "takikawa", "tomakomai"],
             ["20", "20", "40", "40", "50", "50", "top", "top"], [1, 1, 1, 1],
             teams=[0, 1, 0, 1]),
        0,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SMALL))
def test_monte_carlo_agrees_with_exact_enumeration_on_small_positions(name: str) -> None:
    """Chances (issue 11): on positions small enough to enumerate every order of the unseen
    cards and every sequence of the model's choices (a short round cap), 6,000 playouts give
    each figure within its stated error (taken at 99.9 %, 1.68 × the 95 % half-width, as
    there are many figures)."""
    state, cap = SMALL[name]
    model = RallyChances((state,), cap_rounds=cap)
    exact = model.exact(state)
    assert exact is not None
    assert 0.0 < max(exact[: state.players]) < 1.0  # a real question: nobody is sure to win
    mc = estimate(model, state, playouts=6_000, seed=3, exact=False)
    assert not mc.exact and mc.playouts == 6_000
    for measure, want, got, error in zip(mc.measures, exact, mc.values, mc.errors, strict=True):
        assert abs(got - want) <= 1.68 * error + 1e-9, (measure, want, got, error)
    assert sum(exact[: state.players]) == pytest.approx(1.0)
    if state.setup.teams:
        teams = len(state.setup.teams)
        assert sum(exact[2 * state.players : 2 * state.players + teams]) == pytest.approx(1.0)


def test_exact_enumeration_gives_way_to_monte_carlo_on_a_real_position() -> None:
    """Mid-race the unseen cards have far too many orders to enumerate: no exact figures."""
    history = viewed(race(4, 2, rounds=6))
    assert RallyChances(history).exact(history[-1]) is None


# --- decided and settled ------------------------------------------------------------------


@pytest.mark.parametrize("teams", [None, [0, 1, 1, 0]])
def test_a_finished_race_is_decided_exactly_from_the_engines_placings(
    teams: list[int] | None,
) -> None:
    """Once the race is over nothing is left to chance: the winner at 100 %, the others at 0,
    each car's place as the engine places it, the team with the most points at 100 % and its
    points the engine's; no playouts."""
    final = GAME.view(race(4, 9, rounds=200, teams=teams)[-1], VIEWER)
    assert final.phase == "over"
    result_ = estimate(RallyChances([final]), final)
    assert result_.exact and result_.playouts == 0
    placings = engine.placings(final)
    for seat in range(4):
        assert result_.value("first", seat) == (1.0 if seat == placings[0][0] else 0.0)
        assert result_.value("place", seat) == 1 + [g[0] for g in placings].index(seat)
    if teams:
        totals = engine.team_totals(final)
        for team, total in enumerate(totals):
            assert result_.value("team_points", team) == total
            assert result_.value("team", team) == (1.0 if total == max(totals) else 0.0)


def test_a_race_ended_by_the_referee_places_the_cars_by_distance_to_the_goal() -> None:
    """[ruling] end: cars on the road are placed nearest the goal first; a tie for first
    shares the win and both take the better place."""
    state = engine.initial_state(setup(3, mode="tracking"))
    state = replace(state, towns=("otaru", "otaru", "kutchan"))
    over = engine.apply(state, EndRace())
    assert result(over) == [0.5, 0.5, 0.0, 1.0, 1.0, 3.0]


def test_places_already_settled_give_100_percent_from_the_playouts_too() -> None:
    """Two cars have arrived (first and second): whatever happens, the first is first and
    the second second — the playouts say so with no error; the others share places 3 and 4."""
    history = viewed(race(4, 12, rounds=8))
    state = replace(history[-1], arrived=(2, 0))
    history[-1] = state
    mc = estimate(RallyChances(history), state, playouts=60, seed=1, exact=False)
    assert mc.value("first", 2) == 1.0 and mc.error("first", 2) == 0.0
    assert [mc.value("first", s) for s in (0, 1, 3)] == [0.0, 0.0, 0.0]
    assert mc.value("place", 2) == 1.0 and mc.value("place", 0) == 2.0
    assert mc.error("place", 0) == 0.0
    assert mc.value("place", 1) + mc.value("place", 3) == pytest.approx(7.0)


def test_once_one_car_is_left_on_the_road_the_figures_are_decided_at_once() -> None:
    """A car arriving that leaves one on the road settles every place: ``decided`` gives the
    figures (the table service then shows them without queueing a computation, so a page
    never keeps the figure from before the arrival); with two on the road it does not."""
    history = viewed(race(4, 13, rounds=5, teams=[0, 1, 0, 1]))
    model = RallyChances(history)
    two_left = replace(history[-1], arrived=(1, 2))
    assert model.decided(two_left) is None and decided(model, two_left) is None
    one_left = replace(history[-1], arrived=(1, 2, 0))
    known = decided(model, one_left)
    assert known is not None and known.exact and known.playouts == 0
    assert [known.value("place", s) for s in range(4)] == [3.0, 1.0, 2.0, 4.0]
    assert [known.value("first", s) for s in range(4)] == [0.0, 1.0, 0.0, 0.0]
    assert [known.value("team_points", t) for t in range(2)] == [8.0 + 10.0, 15.0 + 5.0]
    assert [known.value("team", t) for t in range(2)] == [0.0, 1.0]


def test_the_last_car_on_the_road_is_placed_exactly() -> None:
    """With one car left on the road every place is fixed: exact figures, no playouts."""
    history = viewed(race(3, 13, rounds=5))
    state = replace(history[-1], arrived=(1, 2))
    result_ = estimate(RallyChances([*history[:-1], state]), state)
    assert result_.exact and result_.playouts == 0
    assert [result_.value("place", s) for s in range(3)] == [3.0, 1.0, 2.0]


# --- honest figures ---------------------------------------------------------------------------


def _figures(history: list[RallyState]) -> Estimate:
    return estimate(RallyChances(history), history[-1], playouts=24, seed=7)


def test_the_figures_never_read_what_the_viewer_cannot_see() -> None:
    """The referee's states, the viewer's, states with the hands and pile dealt otherwise
    (another seed) and the same table tracked instead of simulated all give the same
    figures: only what everyone sees goes in."""
    history = race(4, 21, rounds=13)
    truth = history[-1]
    assert truth.reshuffles >= 1
    cards = [c for hand in truth.hands for c in hand] + list(truth.pile)
    random.Random(2).shuffle(cards)
    hands, at = [], 0
    for hand in truth.hands:
        hands.append(tuple(sorted(cards[at : at + len(hand)])))
        at += len(hand)
    other = replace(
        truth, hands=tuple(hands), pile=tuple(cards[at:]), setup=replace(truth.setup, seed=99)
    )
    tracked_setup = replace(truth.setup, mode="tracking", seed=None)
    tracked = [replace(s, setup=tracked_setup, hands=(), pile=(), discard=()) for s in history]
    reference = _figures(history)
    assert reference.playouts == 24
    assert _figures(viewed(history)).values == reference.values
    assert _figures([*history[:-1], other]).values == reference.values
    assert _figures(tracked).values == reference.values


def test_the_same_seed_gives_the_same_figures() -> None:
    history = viewed(race(3, 31, rounds=10))
    first = estimate(RallyChances(history), history[-1], playouts=30, seed=5)
    again = estimate(RallyChances(history), history[-1], playouts=30, seed=5)
    assert first.values == again.values and first.errors == again.errors
    assert not first.exact and first.playouts == 30


def test_the_budget_stops_the_playouts_early_with_a_wider_stated_error() -> None:
    """The table service allows a few seconds: a tight budget stops well short of the
    playouts asked for (a playout call hands back what it has after a quarter second)."""
    history = viewed(race(4, 41, rounds=3))
    result_ = estimate(RallyChances(history), history[-1], playouts=10_000, budget=0.3)
    assert 1 <= result_.playouts < 10_000 and result_.seconds < 2.0
    assert result_.worst_error > 0.0


# --- on the page ------------------------------------------------------------------------------


def test_the_game_gives_its_model_and_the_page_its_words() -> None:
    """``Rally.chances`` hands out the model; groups and the model line come from both
    catalogues; a car is named as the page names it, a team by its name."""
    history = viewed(race(4, 51, rounds=1, teams=[0, 1, 0, 1]))
    model = GAME.chances(history)
    assert isinstance(model, RallyChances)
    state = history[-1]
    measures = model.measures(state)
    assert len(measures) == 4 + 4 + 2 + 2
    assert model.label(state, Measure("first", 1), "en").endswith("Ben")
    assert model.label(state, Measure("team", 1, "probability"), "ja") == "Team 2"
    for group in model.groups:
        assert model.title(group, "en") != model.title(group, "ja")
        assert not model.title(group, "en").startswith("rally.")


def test_a_playout_past_its_step_cap_raises_instead_of_looping() -> None:
    """Chances (issue 18): a race played out is capped in engine steps as well as in rounds;
    one past the cap (a bug) raises ``PlayoutTooLong`` for the worker to log."""
    history = viewed(race(3, 4, rounds=2))
    model = RallyChances(history)
    model.max_steps = 5
    with pytest.raises(PlayoutTooLong) as err:
        model.playouts(history[-1], 2, random.Random(1))
    assert err.value.kind == "rally"
