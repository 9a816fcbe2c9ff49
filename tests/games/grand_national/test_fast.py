"""Grand National's fast path (``FastRace``) against the engine, move for move.

As chess move generators are checked by perft: at thousands of positions of whole random
games (2–6 stables, every variant, the market and the race full of the referee's other
actions: cards, boxed horses, pull-ups), the fast path's options of the model's kinds are the
engine's, as a set, and the state after each is the engine's, field by field; a whole fast
playout replayed through the engine ends with the same placings and the same ledger.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from aids.games.base import CHANCE, REFEREE, VIEWER
from aids.games.grand_national import GAME, engine
from aids.games.grand_national.chances import result
from aids.games.grand_national.fast import FastRace
from aids.games.grand_national.fast_state import (
    can_finish,
    even_pace,
    fields,
    race_of,
    speeds,
    to_engine_action,
)
from aids.games.grand_national.model import Action, BlindBet, GnState, Move, Spin, Start
from tests.games.grand_national.test_chances_plain import game

POSITIONS = 3_000


def model_kinds(state: GnState) -> set[Action]:
    """The engine's legal actions of the kinds the model takes: the first unwritten blind
    bet's "none", the spinner's, the start, the due horse's moves that keep its lane."""
    if state.phase == "blind_bets":
        seat = next(s for s, b in enumerate(state.blind) if b is None)
        return {BlindBet(seat, None, None, 0)}
    if state.phase in ("going", "lanes") or engine.needs_spin(state):
        return set(engine.legal_actions(state, CHANCE))
    if state.phase == "market":
        return {a for a in engine.legal_actions(state, REFEREE) if isinstance(a, Start)}
    horse = engine.next_horse(state)
    if state.phase != "race" or horse is None:
        return set()
    return {
        a
        for a in engine.legal_actions(state, REFEREE)
        if isinstance(a, Move) and a.lane == state.lane[horse]
    }


def same_fields(race: FastRace, state: GnState, where: str) -> None:
    for name, value in fields(race).items():
        assert getattr(state, name) == value, (where, name, getattr(state, name), value)


def positions(count: int, seed: int) -> list[GnState]:
    """Viewer's states taken from whole random games: every phase, every variant."""
    rng = random.Random(seed)
    out: list[GnState] = []
    while len(out) < count:
        states = game(rng)
        out.extend(GAME.view(s, VIEWER) for s in rng.sample(states, min(len(states), 40)))
    return out[:count]


def test_the_fast_path_agrees_with_the_engine_move_for_move_on_3000_positions() -> None:
    """At 3,000 positions (blind bets, going, lanes, market, the race in cap and position
    order, either running-too-free rule, cards entered, horses boxed, pulled up, lost turns
    pending, over) the fast path holds the engine's state; its options are the engine's
    legal actions of the model's kinds (as a set), and after each the states agree."""
    kinds: dict[str, int] = {}
    for i, state in enumerate(positions(POSITIONS, 20)):
        race = race_of(state, "uniform")
        same_fields(race, state, f"position {i}")
        codes = race.actions()
        actions = {to_engine_action(state, c) for c in codes}
        assert len(actions) == len(codes)
        assert actions == model_kinds(state), i
        for code in codes:
            after = race.copy()
            after.step(code)
            same_fields(after, engine.apply(state, to_engine_action(state, code)), f"{i}: {code}")
        kind = state.phase if state.phase != "race" else f"race, {state.setup.order}"
        kinds[kind] = kinds.get(kind, 0) + 1
    assert set(kinds) >= {"blind_bets", "going", "lanes", "market", "race, caps",
                          "race, position", "over"}, kinds  # fmt: skip


def _chooser(rng: random.Random, seen: list[int]) -> Callable[[list[int]], int]:
    def choose(options: list[int]) -> int:
        index = int(rng.random() * len(options))
        seen.append(options[index])
        return index

    return choose


@pytest.mark.parametrize("pacing", ["uniform", "rider"])
def test_a_playout_is_a_whole_legal_engine_race_with_the_same_result(pacing: str) -> None:
    """A fast playout (the hot path) from positions of random games, and the same choices
    made one by one, replayed through ``engine.apply``: each a legal engine action, the
    engine's race ends where the fast one does, with the same placings and the same
    ledger (each stable's cash after the settlement)."""
    for i, start in enumerate(positions(120, 21)):
        base = race_of(start, pacing)
        hot = base.copy().play_out(random.Random(i))
        seen: list[int] = []
        slow = base.copy()
        slow.run(_chooser(random.Random(i), seen))
        assert slow.result() == hot
        state = start
        for code in seen:
            state = engine.apply(state, to_engine_action(state, code))
        same_fields(slow, state, f"playout {i}")
        assert list(result(state)) == hot, i
        assert state.phase == "over" or not model_kinds(state)


def test_a_rider_runs_its_even_pace_or_one_either_side_and_can_always_still_finish() -> None:
    """The rider's speeds (``gn.chances.model``): each legal, within one of the even pace
    (the fastest speed whose turns to the finish its points pay for), and each leaves the
    horse able to finish (checked by a search over every way to spend the points); a horse
    that cannot finish whatever it runs has every legal speed."""

    def reachable(handicap: int, lengths: int, points: int) -> bool:
        if lengths <= 0:
            return True
        return any(reachable(handicap, lengths - handicap - s, points - s)
                   for s in range(1, min(8, points) + 1))  # fmt: skip

    for handicap in range(8):
        for lengths in range(1, 40):
            for points in range(1, 20):
                options = speeds("rider", handicap, lengths, points)
                legal = list(range(1, min(8, points) + 1))
                assert set(options) <= set(legal)
                pace = even_pace(handicap, lengths, points)
                if pace is None:
                    assert options == legal
                    continue
                assert pace in options
                assert all(abs(s - pace) <= 1 for s in options)
                for s in options:
                    left = lengths - handicap - s
                    assert can_finish(handicap, left, points - s)
                    assert reachable(handicap, left, points - s)
                faster = pace + 1
                if faster <= 8:
                    turns = -(-lengths // (handicap + faster))
                    assert faster * turns > points  # the even pace is the fastest one


def test_uniform_pacing_lists_every_legal_speed() -> None:
    assert speeds("uniform", 3, 50, 5) == [1, 2, 3, 4, 5]
    assert speeds("uniform", 0, 96, 64) == list(range(1, 9))


def test_a_spin_code_names_the_colour_the_engine_spins() -> None:
    """The spinner's codes are the colours in play in sorted order, as the engine lists them."""
    for state in positions(400, 22):
        if state.phase == "race" and engine.needs_spin(state):
            race = race_of(state)
            spins = [to_engine_action(state, c) for c in race.actions()]
            assert spins == list(engine.legal_actions(state, CHANCE))
            assert all(isinstance(a, Spin) for a in spins)
            return
    raise AssertionError("no position waiting for a spin")
