"""The rally's compiled playouts (``fast_jit``) against ``FastRally``, playout for playout.

``FastRally`` is checked against the engine move for move (``test_fast.py``); the compiled
loop is checked against ``FastRally``: at thousands of positions of random races (2–7 cars,
every machine preset, team play, jams, statuses, ports, short piles, tracked tables dealt as
the model deals them, the round cap near or far), given the same deal and the same uniform
numbers — ``FastRally``'s reshuffles made the same Fisher–Yates shuffle, ``FastRally.shuffle``
— both draw as many numbers and end with the same figures. The compiled deal is checked
through the chances: they agree with ``FastRally``'s within their error.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest

from aids.games.base import VIEWER
from aids.games.chances import PlayoutTooLong, estimate
from aids.games.rally import GAME, engine
from aids.games.rally.chances import RallyChances
from aids.games.rally.fast import FastRally
from aids.games.rally.fast_jit import AVAILABLE, Kernel
from aids.games.rally.fast_jit_map import (
    drive_choice,
    pack_map,
    reach_under_jams,
    throw_nth,
    throw_ways,
)
from aids.games.rally.fast_map import CARDS, DRIVE_CODES
from aids.games.rally.model import RallyState
from tests.games.grand_national.test_fast_jit import Feed
from tests.games.rally.test_chances import race, viewed
from tests.games.rally.test_fast import PlainRally, positions, random_setup

POSITIONS = 1_500
NUMBERS = 40_000  # more than a playout draws


def fisher_yates(feed: Feed) -> Callable[[list[int]], None]:
    """The compiled loop's reshuffle for ``FastRally.shuffle``: ``random.shuffle``'s order
    of swaps, each place's from one of ``feed``'s numbers."""

    def shuffle(deck: list[int]) -> None:
        for i in range(len(deck) - 1, 0, -1):
            j = int(feed.random() * (i + 1))
            deck[i], deck[j] = deck[j], deck[i]

    return shuffle


def codes(counts: list[int]) -> list[int]:
    return [c for c in range(CARDS) for _ in range(counts[c])]


def tracked(state: RallyState) -> RallyState:
    """``state`` as a tracked table shows it to a viewer: no hands, no pile, no discards."""
    setup = replace(state.setup, mode="tracking", seed=None)
    return GAME.view(replace(state, setup=setup, hands=(), pile=(), discard=()), VIEWER)


def dealt(
    state: RallyState, rng: random.Random
) -> tuple[FastRally, list[list[int]], list[int], list[int]]:
    """The public race of ``state`` and a deal of what the table cannot see, as
    ``RallyChances.playouts`` splits one: the hands, the discard pile, the pile (next first).
    A simulated table keeps its own cards."""
    if state.setup.mode == "simulation":
        race = FastRally.of(state)
        hands = [codes(h) for h in race.hands]
        return race, hands, codes(race.discard), list(reversed(race.pile))
    model = RallyChances([state])
    template, cards, seen = model.fast(state)
    hidden = state.discard_size - len(seen)
    order = list(cards)
    rng.shuffle(order)
    hands, at = [], 0
    for size in state.hand_sizes:
        hands.append(order[at : at + size])
        at += size
    return template.copy(), hands, seen + order[at : at + hidden], order[at + hidden :]


def test_numba_is_installed_so_the_chances_run_compiled() -> None:
    """The project depends on Numba: without it the rally's chances fall back to
    ``FastRally``, several times slower."""
    assert AVAILABLE and RallyChances.compiled


def test_the_compiled_loop_plays_each_race_as_fast_rally_does_on_1500_positions() -> None:
    """Rule (all of rally.md, as ``FastRally`` has it, with the greedy driver): the same deal
    and the same numbers give the same numbers drawn and the same row (each car first, each
    car's place, each team winning and its points), at positions of random races — simulated
    and tracked, 2–7 cars, team play, jams, statuses, ports and short piles stirred in, the
    round cap met — where reshuffles, jams, ferries and the referee's end all occur."""
    rng = random.Random(31)
    met: Counter[str] = Counter()
    checked = 0
    while checked < POSITIONS:
        race_positions = [s for s in positions(rng, 1) if s.phase != "over"]
        for state in rng.sample(race_positions, min(60, len(race_positions))):
            if checked >= POSITIONS:
                break
            if rng.random() < 0.5:
                state = tracked(state)
            race, hands, discard, pile = dealt(state, rng)
            race.last_round = state.round + rng.choice([0, 1, 4, 100])
            numbers = np.random.default_rng(checked).random(NUMBERS)
            feed = Feed(numbers)
            fast = race.copy()
            fast.deal(hands, discard, pile, 0)
            fast.shuffle = fisher_yates(feed)
            want = fast.play_out(feed)  # type: ignore[arg-type]
            row, drawn = Kernel(race).play_dealt(hands, discard, pile, numbers)
            assert drawn == feed.used, checked
            assert row.tolist() == pytest.approx(want, abs=1e-12), checked
            checked += 1
            met[state.setup.mode] += 1
            met[f"{state.players} cars"] += 1
            met["teams"] += bool(state.setup.teams)
            met["jams"] += bool(state.jams)
            met["police"] += any(state.police)
            met["reshuffle"] += fast.reshuffles > race.reshuffles
            met["referee"] += fast.ended
            met["all home"] += len(fast.arrived) == fast.players
    assert all(met[k] > 300 for k in ("simulation", "tracking")), met
    assert all(met[f"{n} cars"] > 60 for n in range(2, 8)), met
    assert all(met[k] > 50 for k in ("teams", "jams", "police", "reshuffle")), met
    assert all(met[k] > 50 for k in ("referee", "all home")), met


def test_the_reaches_kept_from_race_to_race_give_each_race_as_fast_rally_plays_it() -> None:
    """The kernel keeps every reach under jams it finds for the estimate's later races
    (``Memo``, keyed by the jams within a town's reach): one kernel playing 400 races from the
    same positions, each dealt afresh, plays every one as a fresh ``FastRally`` does — the
    same numbers drawn, the same row — with reaches under jams found and kept."""
    rng = random.Random(8)
    races_seen = jammed = 0
    for state in [s for s in positions(rng, 1) if s.phase != "over"][::7][:8]:
        race, *_ = dealt(state, rng)
        kernel = Kernel(race)
        for k in range(50):
            _, hands, discard, pile = dealt(state, rng)
            numbers = np.random.default_rng(1_000 + races_seen).random(NUMBERS)
            feed = Feed(numbers)
            fast = race.copy()
            fast.deal(hands, discard, pile, 0)
            fast.shuffle = fisher_yates(feed)
            want = fast.play_out(feed)  # type: ignore[arg-type]
            row, drawn = kernel.play_dealt(hands, discard, pile, numbers)
            assert drawn == feed.used and row.tolist() == pytest.approx(want, abs=1e-12), k
            races_seen += 1
        jammed += int((kernel.memo.keys[:, :, 2] >= 0).sum())
    assert races_seen >= 300 and jammed > 20, (races_seen, jammed)


def test_the_drivers_movement_is_roads_drive_for_random_hands_towns_and_jams() -> None:
    """Rule (rally.md travel; the model's greedy driver): the compiled choice of movement —
    the farthest movement's nearness to the goal, then the fewest cards and km that keep it
    — is ``Roads.drive``'s (every set of travel cards tried), for 3,000 random hands of up
    to nine travel cards, every limit of cards, towns all over two maps, with jams."""
    rng = random.Random(12)
    agreed = moved = 0
    while agreed < 3_000:
        state = engine.initial_state(random_setup(rng))
        roads = FastRally.of(state).roads
        towns = len(roads.ids)
        for _ in range(100):
            here = rng.randrange(towns)
            jams = sum(1 << t for t in rng.sample(range(towns), rng.choice([0, 0, 1, 3, 8])))
            counts = [rng.choice([0, 0, 1, 1, 2, 3]) for _ in DRIVE_CODES]
            most = rng.randint(1, 5)
            hand = np.zeros(CARDS, dtype=np.int64)
            hand[list(DRIVE_CODES)] = counts
            kms, best = roads.reach(here, jams)
            rank = np.array(roads.rank, dtype=np.int64)
            go = np.zeros(len(DRIVE_CODES), dtype=np.int64)
            stop = drive_choice(hand, most, here, np.array(kms), np.array(best), len(kms),
                                rank, go)  # fmt: skip
            want = roads.drive(here, jams, most, tuple(counts))
            if want is None:
                assert stop == -1, (here, jams, most, counts)
            else:
                cards, to = want
                used = Counter(cards)
                assert (stop, go.tolist()) == (to, [used[c] for c in DRIVE_CODES]), want
                moved += 1
            agreed += 1
    assert moved > 1_000, moved


def test_the_reach_under_jams_is_roads_reach_for_random_towns_and_jams() -> None:
    """Rule (rally.md jams: a jammed town may be reached but not passed; the goal ends the
    drive): the compiled reach under jams — its stops' km in order, ties by town code, and
    the proposal within each — is ``Roads.reach``'s, for 2,000 random towns and sets of jams
    on both maps, one scratch array reused from call to call as the loop does."""
    rng = random.Random(9)
    checked = 0
    while checked < 2_000:
        state = engine.initial_state(random_setup(rng))
        race = FastRally.of(state)
        roads, (places, paths) = race.roads, pack_map(race)
        towns = len(roads.ids)
        dist, kms, best = (np.zeros(towns, dtype=np.int64) for _ in range(3))
        for _ in range(100):
            here = rng.randrange(towns)
            jammed = rng.sample(range(towns), min(towns, rng.choice([1, 2, 4, 8, 16])))
            jams = np.zeros(towns, dtype=np.int64)
            jams[jammed] = 1
            stops = reach_under_jams(here, jams, roads.goal, places, paths, dist, kms, best)
            want_kms, want_best = roads.reach(here, sum(1 << t for t in jammed))
            assert kms[:stops].tolist() == want_kms and best[:stops].tolist() == want_best
            checked += 1


def test_the_ways_to_throw_cards_down_are_roads_discards_one_by_one() -> None:
    """Rule (rally.md hand limit): the cards over the limit are thrown down as any distinct
    set; the compiled count of those sets and the ``i``-th of them in sorted order are
    ``Roads.discards``' list, for random hands of up to twelve cards and one to five cards
    over, and the hand is left as it was."""
    rng = random.Random(4)
    roads = FastRally.of(engine.initial_state(random_setup(rng))).roads
    for _ in range(400):
        counts = [0] * CARDS
        for _ in range(rng.randint(1, 12)):
            counts[rng.randrange(CARDS)] += 1
        excess = rng.randint(1, min(5, sum(counts)))
        hand = np.array(counts, dtype=np.int64)
        sets = roads.discards(tuple(counts), excess)
        assert throw_ways(hand, 0, excess) == len(sets)
        out = np.zeros(CARDS, dtype=np.int64)
        for i, cards in enumerate(sets):
            throw_nth(hand, excess, i, out)
            used = Counter(cards)
            assert out.tolist() == [used[c] for c in range(CARDS)], (counts, excess, i)
            assert hand.tolist() == counts


def test_a_race_past_its_step_cap_is_refused_as_too_long() -> None:
    """A playout's cap in steps (``MAX_STEPS``): a race not over within it raises
    ``PlayoutTooLong``, dealt or on seeds, rather than run on."""
    state = engine.initial_state(random_setup(random.Random(3)))
    race, hands, discard, pile = dealt(state, random.Random(3))
    kernel = Kernel(race)
    with pytest.raises(PlayoutTooLong):
        kernel.play_dealt(hands, discard, pile, np.zeros(0), max_steps=3)
    with pytest.raises(PlayoutTooLong):
        cards = [c for hand in hands for c in hand] + pile
        Kernel(race, cards, [], race.hand_sizes).play(np.zeros(1, dtype=np.int64), 3)


@pytest.mark.parametrize(
    ("players", "rounds", "teams"), [(6, 0, None), (4, 12, [0, 1, 0, 1]), (3, 30, None)]
)
def test_the_chances_agree_on_either_path_within_their_error(
    players: int, rounds: int, teams: list[int] | None
) -> None:
    """Chances model (rally.chances.model), one model on either path: a viewer's position
    estimated on ``FastRally`` and on the compiled loop (its own deals and reshuffles) gives
    every figure within the two estimates' combined 99.9 % error — at the start, mid-race in
    team play and late."""
    history = viewed(race(players, players + rounds, rounds, teams))
    state = history[-1]
    assert state.phase != "over"
    compiled = estimate(RallyChances(history), state, playouts=2_000, seed=1, exact=False)
    plain = estimate(PlainRally(history), state, playouts=2_000, seed=2, exact=False)
    assert compiled.playouts == plain.playouts == 2_000
    for m, a, b, ea, eb in zip(
        compiled.measures, compiled.values, plain.values, compiled.errors, plain.errors,
        strict=True,
    ):  # fmt: skip
        allowed = 3.3 / 1.96 * (ea * ea + eb * eb) ** 0.5 + 1e-9
        assert abs(a - b) <= allowed, (m, a, b, allowed)


def test_the_same_seed_gives_the_same_figures_and_a_playout_its_own_seed_alone() -> None:
    """Reproducible chances on the compiled loop: the same seed gives the same figures, and
    each playout depends on its own seed alone (alone or among others, the same row)."""
    history = viewed(race(4, 8, 10))
    state = history[-1]
    first = estimate(RallyChances(history), state, playouts=300, seed=5, exact=False)
    again = estimate(RallyChances(history), state, playouts=300, seed=5, exact=False)
    other = estimate(RallyChances(history), state, playouts=300, seed=6, exact=False)
    assert first.values == again.values and first.values != other.values
    kernel = RallyChances(history)._kernel(state)
    seeds = np.array([11, 12, 13, 2**32 - 1], dtype=np.int64)
    together = kernel.play(seeds)
    for i in range(len(seeds)):
        assert kernel.play(seeds[i : i + 1])[0].tolist() == together[i].tolist()
