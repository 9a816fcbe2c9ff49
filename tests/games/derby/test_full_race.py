"""A whole 3-player race worked by hand: ties, a stacked black card, lost counters, shared win.

Rows: 1 red, 2 blue, 3 green, 4 yellow, 5 white, 6 pink, 7 brown, 8 purple.
Seats: A, B, C; A starts. Comments give the expected fall for each fence.
"""

from __future__ import annotations

import pytest

from aids.core.errors import RuleViolation
from aids.games.derby import engine
from aids.games.derby.model import DerbyState
from tests.games.derby.helpers import ROWS, bet, card, play, tracking

# (bet or None, horse, card) per turn, in seat order A, B, C, A, ...
RACE: list[tuple[str | None, str, str]] = [
    # fence 1 — tie at 2 between green (row 3) and white (row 5): white falls with C's counter
    ("red", "red", "red 5"),  # A
    ("blue", "blue", "blue 3"),  # B
    (None, "green", "green 2"),  # C
    ("yellow", "yellow", "yellow 6"),  # A
    (None, "white", "white 2"),  # B
    ("white", "pink", "pink 8"),  # C bets white@1
    (None, "brown", "brown 4"),  # A
    (None, "purple", "purple 9"),  # B fills the column
    # fence 2 — black 0 under blue 8 (top counts); tie at 1 red/brown: brown (row 7) falls
    ("green", "green", "green 7"),  # C bets green@2
    (None, "blue", "black 0"),  # A
    (None, "blue", "blue 8"),  # B stacks on the black 0
    (None, "red", "red 1"),  # C
    ("red", "yellow", "yellow 3"),  # A bets red@2
    (None, "pink", "pink 4"),  # B
    (None, "brown", "brown 1"),  # C
    ("purple", "purple", "purple 2"),  # A bets purple@2 and fills the column
    # fence 3 — green 0 is lowest: green falls with C's green@2 counter
    ("purple", "purple", "black 9"),  # B bets purple@3
    (None, "red", "red 9"),  # C
    (None, "green", "green 0"),  # A
    (None, "blue", "blue 5"),  # B
    (None, "yellow", "yellow 9"),  # C
    (None, "pink", "pink 6"),  # A fills
    # fence 4 — pink 1 is lowest: pink falls (no counters on it)
    ("yellow", "yellow", "yellow 4"),  # B bets yellow@4
    ("red", "red", "red 2"),  # C bets red@4
    (None, "blue", "blue 6"),  # A
    (None, "purple", "purple 5"),  # B
    (None, "pink", "pink 1"),  # C fills
    # fence 5 — black 1 on red is lowest: red falls, taking A's two counters and C's
    (None, "red", "black 1"),  # A
    (None, "blue", "blue 9"),  # B
    (None, "yellow", "yellow 8"),  # C
    (None, "purple", "purple 8"),  # A fills: the race ends
]


def run(race: list[tuple[str | None, str, str]]) -> DerbyState:
    state = tracking(3)
    for horse_bet, horse, code in race:
        if horse_bet:
            state = bet(state, horse_bet)
        state = play(state, horse, code)
    return state


def test_hand_worked_race_falls_in_order() -> None:
    state = run(RACE)
    falls = {ROWS[h]: f for h, f in enumerate(state.fallen) if f is not None}
    assert falls == {"white": 1, "brown": 2, "green": 3, "pink": 4, "red": 5}


def test_hand_worked_race_finishers_and_scores() -> None:
    state = run(RACE)
    assert state.ended == "fence5"
    assert [ROWS[h] for h in engine.finishers(state)] == ["blue", "yellow", "purple"]
    # A: red@1 lost, yellow@1 4, red@2 lost, purple@2 3  → 7
    # B: blue@1 4, purple@3 2, yellow@4 1                 → 7
    # C: white@1 lost, green@2 lost, red@4 lost          → 0
    assert engine.scores(state) == (7, 7, 0)
    assert engine.winners(state) == (0, 1)  # equal totals share the win


def test_hand_worked_race_stacked_black_card_lies_under_the_top() -> None:
    state = run(RACE)
    assert state.columns[1][ROWS.index("blue")] == (card("black 0"), card("blue 8"))


def test_hand_worked_race_counters_and_pile() -> None:
    state = run(RACE)
    assert [state.counters_left(p) for p in range(3)] == [1, 2, 2]
    assert len(state.played) == 31
    assert state.pile == 90 - 24 - 31


def test_hand_worked_race_scores_if_it_ended_after_fence_3() -> None:
    state = run(RACE[:22])
    assert state.fence == 4
    # running: red, blue, yellow, pink, purple → A 4+4+3+3, B 4+2, C 0
    assert engine.scores(state) == (14, 6, 0)


def test_hand_worked_race_no_bet_at_fence_5() -> None:
    state = run(RACE[:27])
    assert state.fence == 5
    with pytest.raises(RuleViolation) as err:
        bet(state, "blue")
    assert err.value.code == "derby/no_bet_at_fence_5"
