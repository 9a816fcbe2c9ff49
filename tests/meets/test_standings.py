"""Event standings from outcomes: the placing rule with ties, the score rule, and invariants
over random events (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aids.core.errors import AidsError
from aids.core.inputs import identity
from aids.games.base import Outcome, rank_by_score
from aids.meets import Result, Scoring, standings
from aids.meets.scoring import check_points, parse_points, scoring_of
from aids.meets.standings import table_points

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi", "Fumi"]


def finished(names: list[str], scores: list[int]) -> Result:
    return Result(tuple(names), Outcome("end", rank_by_score(scores), tuple(scores)))


def test_default_placing_points_are_10_6_4_3_2_1_and_later_places_score_nothing() -> None:
    result = finished([*NAMES, "Gen"], [70, 60, 50, 40, 30, 20, 10])
    assert list(table_points(result, Scoring()).values()) == [10, 6, 4, 3, 2, 1, 0]


def test_players_tied_for_a_place_each_get_its_points_and_the_next_place_is_skipped() -> None:
    result = finished(["Aki", "Ben", "Chie", "Dai"], [9, 5, 5, 1])
    assert table_points(result, Scoring()) == {0: 10, 1: 6, 2: 6, 3: 3}


def test_equal_points_share_a_rank_and_the_next_rank_counts_those_ahead() -> None:
    rows = standings([finished(["Aki", "Ben", "Chie"], [5, 5, 1])], Scoring())
    assert [(r.rank, r.name, r.points, r.wins) for r in rows] == [
        (1, "Aki", 10, 1), (1, "Ben", 10, 1), (3, "Chie", 4, 0),
    ]  # fmt: skip


def test_score_rule_counts_money_as_it_is() -> None:
    rows = standings([finished(["Aki", "Ben"], [1200, 800])], Scoring("score"))
    assert [(r.name, r.points) for r in rows] == [("Aki", 1200), ("Ben", 800)]


def test_a_points_table_may_not_rise_and_holds_whole_numbers() -> None:
    assert parse_points("10, 6，4、2 1") == (10, 6, 4, 2, 1)
    cases = [
        ("5, 6", "meet/points_order"), ("10, x", "meet/points"), ("", "meet/points"),
        ("１０", "meet/points"), ("1000", "meet/points"), ("1 " * 13, "meet/points"),
    ]  # fmt: skip
    for bad, code in cases:
        with pytest.raises(AidsError) as err:
            parse_points(bad)
        assert err.value.code == code, bad
    with pytest.raises(AidsError) as err:
        scoring_of("money")
    assert err.value.code == "meet/scoring"
    assert check_points([0]) == (0,)


def test_a_stored_rule_round_trips_and_a_foreign_one_is_refused() -> None:
    for rule in (Scoring(), Scoring("placing", (3, 1)), Scoring("score")):
        assert Scoring.from_dict(rule.to_dict()) == rule
    for bad in ({"rule": "score", "points": [1]}, {"rule": "placing"}, [], None):
        with pytest.raises(AidsError) as err:
            Scoring.from_dict(bad)
        assert err.value.code == "meet/scoring"


# --- invariants over random events ---------------------------------------------------------

# "aki" and "ＢＥＮ" are Aki and Ben at another table; names at one table stay unique
names_st = st.lists(st.sampled_from([*NAMES, "aki", "ＢＥＮ"]), min_size=2, max_size=5,
                    unique_by=identity)  # fmt: skip


@st.composite
def results(draw: st.DrawFn) -> Result:
    names = draw(names_st)
    if draw(st.booleans()) and draw(st.booleans()):
        return Result(tuple(names), None)  # about a quarter still in play
    scores = draw(st.lists(st.integers(0, 6), min_size=len(names), max_size=len(names)))
    return finished(names, scores)


@st.composite
def rules(draw: st.DrawFn) -> Scoring:
    if draw(st.booleans()):
        return Scoring("score")
    points = sorted(draw(st.lists(st.integers(0, 20), min_size=1, max_size=6)), reverse=True)
    return Scoring("placing", tuple(points))


events = st.lists(results(), max_size=6)


@given(events, rules())
def test_every_point_awarded_at_a_finished_table_is_in_the_standings(
    tables: list[Result], rule: Scoring
) -> None:
    awarded = sum(sum(table_points(r, rule).values()) for r in tables)
    assert sum(row.points for row in standings(tables, rule)) == awarded


@given(events, rules())
def test_rank_is_one_plus_the_players_with_more_points_and_rows_run_in_rank_order(
    tables: list[Result], rule: Scoring
) -> None:
    rows = standings(tables, rule)
    for row in rows:
        assert row.rank == 1 + sum(1 for other in rows if other.points > row.points)
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    assert len({identity(r.name) for r in rows}) == len(rows)  # each player once


@given(events, rules(), st.randoms())
def test_the_order_tables_joined_in_changes_nobodys_points(
    tables: list[Result], rule: Scoring, rng: random.Random
) -> None:
    def by_player(rows: tuple[object, ...]) -> dict[str, tuple[int, int, int, int]]:
        return {identity(r.name): (r.points, r.played, r.wins, r.in_play) for r in rows}  # type: ignore[attr-defined]

    shuffled = list(tables)
    rng.shuffle(shuffled)
    assert by_player(standings(tables, rule)) == by_player(standings(shuffled, rule))


@given(events, rules())
def test_seats_tied_at_a_table_get_equal_points_and_a_winner_never_gets_less(
    tables: list[Result], rule: Scoring
) -> None:
    for result in tables:
        points = table_points(result, rule)
        if result.outcome is None:
            assert points == {}
            continue
        for group in result.outcome.ranking:
            assert len({points[s] for s in group}) == 1
        best = points[result.outcome.winners[0]]
        assert all(best >= p for p in points.values())


@given(events, rules())
def test_tables_in_play_count_as_in_play_and_give_no_points(
    tables: list[Result], rule: Scoring
) -> None:
    done = [r for r in tables if r.outcome is not None]
    with_open = standings(tables, rule)
    only_done = {identity(r.name): r.points for r in standings(done, rule)}
    for row in with_open:
        assert row.points == only_done.get(identity(row.name), 0)
    assert sum(r.in_play for r in with_open) == sum(
        len(r.seats) for r in tables if r.outcome is None
    )


def test_two_seats_with_one_name_at_one_table_stay_two_players() -> None:
    """A game may allow names that match by case (the tests' fake game does): they are two
    players at that table, never one player scored twice."""
    table = Result(("Aki", "aki", "Ben"), Outcome("end", ((0,), (1,), (2,)), (3, 2, 1)))
    rows = standings([table], Scoring())
    assert [(s.name, s.points, s.played) for s in rows] == [
        ("Aki", 10, 1),
        ("aki", 6, 1),
        ("Ben", 4, 1),
    ]
