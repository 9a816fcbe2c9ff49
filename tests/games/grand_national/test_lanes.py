"""Squares and routes (``aids/games/grand_national/lanes.py``): one horse per square, no
jumping another horse, no sideways step on a fence, a blocked or boxed-in horse; and the
rulings ``gn.rulings.route`` (a move is a path of steps; the start line and the run-in are not
squares; only running horses hold one) and ``gn.rulings.squares`` (flagged, not refused).

Horses by index as in ``test_rules.py``: 0 Red Rum (+6), 4 Corbiere (+5), 8 Amberleigh (+6);
lanes spun from Red, so the first turn moves 0, 4, 8 (red caps, lane 1), then 1, 5, 9, …
The sample track's fences: 5, 10, 15, 20, 25, 30, 36, 41; the water 44.
"""

from __future__ import annotations

import random
from dataclasses import replace

from aids.games.base import REFEREE
from aids.games.grand_national import engine, lanes
from aids.games.grand_national.lanes import Landing, Problem
from aids.games.grand_national.model import Card, GnState, Move, Spin
from tests.games.grand_national.helpers import play, to_race


def at(state: GnState, **where: tuple[int, int]) -> GnState:
    """The same state with horses put at (distance, lane): ``at(s, h0=(13, 1))``."""
    distance, lane = list(state.distance), list(state.lane)
    for key, (d, ln) in where.items():
        distance[int(key[1:])], lane[int(key[1:])] = d, ln
    return replace(state, distance=tuple(distance), lane=tuple(lane))


def offered(state: GnState, horse: int, lane: int) -> list[int]:
    return [x.lengths for x in lanes.landings(state, horse) if x.lane == lane]


def test_one_horse_per_square_the_issues_three_red_caps_at_13_in_lane_1() -> None:
    # Red Rum moved 13 in lane 1; Corbiere (+5) may not land there too, nor pass it in lane 1
    state = play(to_race(), Move(0, 13, 1))
    assert 13 not in offered(state, 4, 1)
    assert offered(state, 4, 1) == [6, 7, 8, 9, 10, 11, 12]  # up to the square behind it
    assert lanes.problem(state, 4, 13, 1) == Problem("taken", 0)
    assert lanes.problem(state, 4, 12, 1) is None


def test_no_jumping_a_horse_in_its_lane_it_overtakes_by_changing_lane() -> None:
    state = play(to_race(), Move(0, 8, 1))  # Red Rum on 8 in lane 1
    assert lanes.problem(state, 4, 11, 1) == Problem("through", 0)
    assert 11 not in offered(state, 4, 1)
    assert 11 in offered(state, 4, 2)  # one sideways + 10 on: round it in lane 2
    assert Landing(10, 2, 11) in lanes.landings(state, 4)


def test_no_sideways_step_on_a_fence() -> None:
    # Corbiere stands on the fence at 10 in lane 1, Red Rum on 11 just ahead: it can only get
    # out to lane 2 by a step it may not take on the fence
    state = at(to_race(), h4=(10, 1), h0=(11, 1))
    state = replace(state, moved=frozenset({0}))
    assert engine.next_horse(state) == 4
    assert lanes.problem(state, 4, 6, 2) == Problem("fence")
    assert offered(state, 4, 2) == []
    # off the fence the same step is fine
    free = at(state, h4=(9, 1), h0=(10, 1))
    assert lanes.problem(free, 4, 6, 2) is None


def test_ruling_the_start_line_is_not_a_square() -> None:
    state = to_race()  # every horse behind the start line, the red caps all in lane 1
    assert lanes.holders(state) == {} and lanes.shared_squares(state) == ()
    assert offered(state, 0, 1) == list(range(7, 15))  # +6 and 1–8 speed points, all free


def test_ruling_past_the_finish_is_not_a_square() -> None:
    finish = to_race().setup.track.finish
    state = at(to_race(), h0=(finish - 3, 1), h4=(finish - 1, 1))
    state = replace(state, status=("finished", *state.status[1:]))  # Red Rum is home
    state = at(state, h0=(finish + 2, 1))
    assert lanes.problem(state, 4, 8, 1) is None  # the run-in holds any number


def test_ruling_only_running_horses_hold_squares() -> None:
    state = play(to_race(), Move(0, 13, 1))
    fallen = play(state, Card(0, "fall"))
    assert 13 in offered(fallen, 4, 1)
    assert lanes.problem(fallen, 4, 13, 1) is None


def test_a_blocked_horse_is_offered_what_it_can_still_reach_and_burns_one_speed_point() -> None:
    # Corbiere (+5) at 22 in lane 1; a wall of horses on 23 in lanes 1–6: it can only step
    # sideways, at most 5 lengths — short of its handicap + 1
    state = to_race()
    wall = {f"h{h}": (23, lane) for h, lane in zip((1, 2, 3, 5, 6, 7), range(1, 7), strict=True)}
    state = replace(at(state, h4=(22, 1), **wall), moved=frozenset({0}))
    moves = lanes.landings(state, 4)
    assert [(x.forward, x.lane) for x in moves] == [(0, 2), (0, 3), (0, 4), (0, 5), (0, 6)]
    assert all(x.blocked for x in moves)
    after = play(state, Landing(0, 3, 2, True).move(4))
    assert after.lane[4] == 3 and after.used[4] == 1


def test_a_boxed_in_horse_is_offered_nothing() -> None:
    # Corbiere at 20 in lane 1 with horses on 21 in lane 1 and on 20 in lane 2
    state = at(to_race(), h4=(20, 1), h1=(21, 1), h5=(20, 2))
    state = replace(state, moved=frozenset({0}))
    assert lanes.landings(state, 4) == ()


def test_a_card_advance_stops_behind_a_horse_in_its_lane() -> None:
    state = at(to_race(), h4=(9, 1), h0=(13, 1))
    assert lanes.advance_room(state, 4, 6) == 3  # 10, 11, 12: blocked, burns 1
    assert lanes.advance_room(state, 4, 6, lane=2) == 6  # a card's lane change is free
    assert lanes.advance_room(state, 4, 3) == 3


def test_ruling_squares_two_horses_on_one_square_are_flagged_not_refused() -> None:
    state = play(to_race(), Move(0, 13, 1))
    both = play(state, Move(4, 13, 1))  # the engine records what the referee enters
    assert both.distance[4] == 13
    assert lanes.shared_squares(both) == ((0, 4),)


def test_every_square_offered_is_a_legal_move_on_free_squares() -> None:
    """Random races: each landing offered is accepted by the engine, lands on a free square
    and has a clear route; a move the page does not offer is one the helper can explain."""
    rng = random.Random(7)
    for _ in range(4):
        state = to_race()
        for _ in range(80):
            if state.phase != "race":
                break
            if engine.needs_spin(state):
                state = play(state, Spin(rng.choice(["red", "blue", "green"])))
                continue
            horse = engine.next_horse(state)
            assert horse is not None
            offers = lanes.landings(state, horse)
            for x in offers:
                assert lanes.problem(state, horse, x.forward, x.lane) is None
                engine.apply(state, x.move(horse))
            speed_legal = {
                (a.forward, a.lane)
                for a in engine.legal_actions(state, REFEREE)
                if isinstance(a, Move) and a.horse == horse
            }
            full = {(x.forward, x.lane) for x in offers if not x.blocked}
            for forward, lane in speed_legal - full:
                assert (offers and offers[0].blocked) or lanes.problem(state, horse, forward, lane)
            state = play(state, rng.choice(offers).move(horse)) if offers else state
            assert lanes.shared_squares(state) == ()
            if not offers:
                break


def test_a_card_advance_stopped_short_says_so_in_the_log() -> None:
    from aids.games.grand_national.describe import describe

    state = at(to_race(), h4=(9, 1), h0=(13, 1))
    line = describe(state, Card(4, "advance", 6, moved=3), "en")
    assert line == "Card: 🔵 Corbiere advances 6 (blocked after 3)"
    assert describe(state, Card(4, "advance", 6), "en") == "Card: 🔵 Corbiere advances 6"
