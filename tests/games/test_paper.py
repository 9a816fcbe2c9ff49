"""A table played on paper: its result, entered as the game's outcome, is checked by the game's
rules for results (``aids.games.paper`` and each game's ``paper`` module).

The strongest check is against play: every game played at random to its end on the engine,
its tracked outcome's places and numbers entered as a paper result, gives the same outcome
(ranking, scores, net) — so an event counts a table alike whether it was tracked or played on
paper. The rest are the rules that refuse a result, each naming its field.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aids.core.errors import AidsError, InvalidAction, RuleViolation
from aids.games.base import REFEREE, AnyGame, Outcome
from aids.games.grand_national.data import load as gn_data
from aids.games.paper import PaperResult, check_places
from aids.games.rally import engine as rally_engine
from aids.registry import BUILT_IN

KINDS = [entry.kind for entry in BUILT_IN]
NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi"]
MAX_STEPS = 5_000
END_AFTER = 400  # steps before the referee ends a race that random play has not


def games() -> dict[str, AnyGame]:
    return {entry.kind: entry.game for entry in BUILT_IN}


def played(game: AnyGame, setup: Any, rng: random.Random) -> tuple[Any, Outcome]:
    """Uniformly random legal play on the engine to the end (the referee's "end the race
    now" only when nothing else is legal, or after ``END_AFTER`` steps; chance's draws
    entered by the referee)."""
    state = game.initial_state(setup)
    for step in range(MAX_STEPS):
        outcome = game.outcome(state)
        if outcome is not None:
            return state, outcome
        movers = sorted(game.to_move(state), key=str)
        others = [m for m in movers if m != REFEREE]
        actor = rng.choice(others or movers)
        if step >= END_AFTER and REFEREE in movers:
            actor = REFEREE  # a rally of random moves wanders: the referee ends it, as at a table
        action = rng.choice(list(game.legal_actions(state, actor)))
        state = game.apply(state, action, actor if actor.kind == "seat" else REFEREE)
    raise AssertionError(f"{game.info.kind}: no end after {MAX_STEPS} steps")


def places_of(outcome: Outcome, seats: int) -> list[int]:
    """Competition ranks from a ranking: one more than the seats in the groups above."""
    places = [0] * seats
    above = 0
    for group in outcome.ranking:
        for seat in group:
            places[seat] = above + 1
        above += len(group)
    return places


def prize_money(state: Any, seats: int) -> list[int]:
    """Each Grand National stable's prize money in $K, from the engine's finishing order."""
    won = [0] * seats
    for place, horse in enumerate(state.placed):
        won[state.owner(horse)] += gn_data().prizes[place] // 1000
    return won


def paper_of(
    game: AnyGame, setup: Any, outcome: Outcome, scored: bool, places: list[int] | None = None,
    state: Any = None,
) -> Outcome:  # fmt: skip
    form = game.paper_form(setup, scored)
    assert form is not None
    raw: dict[str, Any] = {"places": places or places_of(outcome, len(form.seats))}
    for field in form.fields:
        raw[field.key] = list(outcome.scores)
        if field.key == "prize":
            raw[field.key] = prize_money(state, len(form.seats))
    return game.paper_outcome(setup, PaperResult.from_dict(raw, form), scored)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(5))
def test_a_tracked_result_entered_on_paper_gives_the_same_outcome(kind: str, seed: int) -> None:
    rng = random.Random(seed)
    game = games()[kind]
    low, high = game.info.seats
    names = NAMES[: rng.randint(low, min(high, len(NAMES)))]
    setup = game.default_setup(names, "en")
    if kind == "rally" and seed % 2:  # team play: the teams' totals decide
        names = NAMES[:4]
        setup = game.default_setup(names, "en")
        teams = ("East", "West")
        players = tuple(replace(p, team=i % 2) for i, p in enumerate(setup.players))
        setup = replace(setup, teams=teams, players=players)
    if kind == "rally":
        setup = replace(setup, mode="simulation", seed=seed + 1)  # a whole race, cards dealt
    state, tracked = played(game, setup, rng)
    places = None
    if kind == "rally" and setup.teams:  # each car's own place: the teams' totals follow
        places = places_of(Outcome("", rally_engine.placings(state), ()), len(names))
    on_paper = paper_of(game, setup, tracked, scored=True, places=places, state=state)
    assert on_paper.reason == "paper"
    assert on_paper.ranking == tracked.ranking
    assert on_paper.scores == tracked.scores
    assert on_paper.net == tracked.net
    placed_only = paper_of(game, setup, tracked, scored=False, places=places)
    assert placed_only.ranking == tracked.ranking


def competition_ranks(places: list[int]) -> bool:
    """The plain definition: each place is one more than the seats placed strictly above."""
    return all(p == 1 + sum(1 for q in places if q < p) for p in places)


@given(st.lists(st.integers(1, 6), min_size=1, max_size=6), st.booleans())
def test_places_are_accepted_exactly_when_they_are_competition_ranks(
    places: list[int], ties: bool
) -> None:
    valid = competition_ranks(places) and (ties or len(set(places)) == len(places))
    try:
        check_places(places, ties=ties)
    except RuleViolation as exc:
        assert not valid
        assert exc.code in ("paper/places", "paper/tie")
    else:
        assert valid


def derby_setup(names: list[str]) -> Any:
    return games()["derby"].default_setup(names, "en")


def refusal(kind: str, raw: dict[str, Any], scored: bool = True, seats: int = 3) -> AidsError:
    game = games()[kind]
    setup = game.default_setup(NAMES[:seats], "en")
    form = game.paper_form(setup, scored)
    assert form is not None
    with pytest.raises(AidsError) as caught:
        game.paper_outcome(setup, PaperResult.from_dict(raw, form), scored)
    return caught.value


def test_derby_places_must_be_the_ones_the_points_give() -> None:
    exc = refusal("derby", {"places": [1, 2, 3], "points": [4, 9, 0]})
    assert exc.code == "paper/places_follow"
    assert exc.params["seat"] == 1 and exc.params["expected"] == 2


def test_derby_points_are_a_sum_its_counters_can_make() -> None:
    # three players hold 5 counters each: at most 5 × 4 = 20 points
    exc = refusal("derby", {"places": [1, 2, 3], "points": [21, 9, 0]})
    assert isinstance(exc, InvalidAction) and str(exc.params["field"]) == "points[0]"
    assert exc.params["high"] == 20


def test_grand_national_money_is_whole_dollars_never_below_nothing() -> None:
    exc = refusal("gn", {"places": [1, 2], "money": [300000, -5], "prize": [0, 0]}, seats=2)
    assert exc.code == "input/number" and str(exc.params["field"]) == "money[1]"


def test_an_ekiden_standing_is_never_shared() -> None:
    exc = refusal("ekiden", {"places": [1, 1, 3], "column": [9, 9, 4]})
    assert exc.code == "paper/tie"


def test_an_ekiden_team_farther_on_the_road_never_stands_behind() -> None:
    exc = refusal("ekiden", {"places": [1, 2, 3], "column": [9, 12, 4]})
    assert exc.code == "paper/places_follow" and str(exc.params["field"]) == "column"


def test_an_ekiden_column_behind_the_start_is_below_zero() -> None:
    game = games()["ekiden"]
    setup = game.default_setup(NAMES[:3], "en")
    form = game.paper_form(setup, True)
    assert form is not None
    result = PaperResult.from_dict({"places": [3, 1, 2], "column": ["-2", 7, 3]}, form)
    assert game.paper_outcome(setup, result, True).scores == (-2, 7, 3)


def test_a_rally_result_asks_places_only_and_scores_them() -> None:
    game = games()["rally"]
    setup = game.default_setup(NAMES[:4], "en")
    form = game.paper_form(setup, True)
    assert form is not None and form.fields == ()
    outcome = game.paper_outcome(setup, PaperResult.from_dict({"places": [3, 1, 1, 4]}, form), True)
    assert outcome.scores == (8, 15, 15, 5)  # tied cars take the better place's points


def test_a_result_of_the_wrong_shape_says_which_field_and_how_many() -> None:
    """Issue 26 §6: ``paper/shape`` and its kin say which field, how many entries were given
    and expected, or that the field is not asked under this rule."""
    missing = refusal("derby", {"places": [1, 2, 3]})
    assert missing.code == "paper/missing" and str(missing.params["field"]) == "points"
    assert missing.message("en") == "The result has no points: give one per seat (3 seats)."
    count = refusal("derby", {"places": [1, 2], "points": [1, 2, 3]})
    assert count.code == "paper/count" and (count.params["given"], count.params["seats"]) == (2, 3)
    assert "The places give 2 entries, but this table has 3 seats" in count.message("en")
    assert "順位が2個ありますが、この卓は3席です" in count.message("ja")
    placing = games()["derby"].paper_form(games()["derby"].default_setup(NAMES, "en"), False)
    assert placing is not None
    with pytest.raises(InvalidAction) as extra:
        PaperResult.from_dict({"places": [1, 2, 3], "points": [9, 4, 0]}, placing)
    assert extra.value.code == "paper/not_asked"
    assert extra.value.message("en").startswith("The points are not asked under this event's rule")
    assert refusal("derby", "1,2,3").code == "paper/shape"


def test_a_refused_number_names_the_player_and_the_seat_from_one() -> None:
    """Issue 26 §6: never a raw key (``points[2]``) in a message, in either language."""
    exc = refusal("derby", {"places": [1, 2, 3], "points": [9, 4, 99]})
    assert exc.code == "input/number"
    assert "Chie's points (seat 3)" in exc.message("en") and "points[" not in exc.message("en")
    assert "Chie（3番目の席）の得点" in exc.message("ja")


def test_an_ekiden_tie_names_the_seats_that_share_the_place() -> None:
    """Issue 26 §6: the Ekiden has no shared standing; the refusal names who shares one."""
    exc = refusal("ekiden", {"places": [1, 2, 2]}, scored=False)
    assert exc.code == "paper/tie"
    assert exc.message("en").startswith("Ben (seat 2) and Chie (seat 3) share place 2")
    assert exc.message("ja").startswith("Ben（2番目の席）とChie（3番目の席）が2位に並んで")


def test_a_place_past_the_seats_names_its_field() -> None:
    exc = refusal("rally", {"places": [1, 2, 4]}, seats=3)
    assert exc.code == "input/number" and str(exc.params["field"]) == "places[2]"


def derby_tables(players: int) -> set[tuple[int, ...]]:
    """Every points vector a Derby table of ``players`` can end with, found plainly: for each
    way the race can end (the cards run out at fence k: 9 - k horses finish and fences 1..k
    took bets, or the normal end after fence 5: 3 horses), every slot (finishing horse,
    betting fence) is left empty or takes one counter of one seat, no seat placing more
    counters than it holds (the rulebook's setup and betting, written apart from the check)."""
    counters = 5 if players <= 3 else 4
    pays = {1: 4, 2: 3, 3: 2, 4: 1}
    endings = [(9 - k, [f for f in pays if f <= k]) for k in range(1, 6)] + [(3, [1, 2, 3, 4])]
    found: set[tuple[int, ...]] = set()
    for finished, fences in endings:
        states = {((0,) * players, (0,) * players)}
        for fence in fences:
            for _horse in range(finished):
                grown = set(states)
                for points, used in states:
                    for seat in range(players):
                        if used[seat] < counters:
                            p, u = list(points), list(used)
                            p[seat] += pays[fence]
                            u[seat] += 1
                            grown.add((tuple(p), tuple(u)))
                states = grown
        found |= {points for points, _ in states}
    return found


def test_derby_table_points_are_refused_exactly_when_no_end_of_the_race_pays_them() -> None:
    """Derby scoring and betting rules: every pair of points two players could be given is
    accepted exactly when some end of the race pays it (the plain enumeration above)."""
    game = games()["derby"]
    setup = derby_setup(["Aki", "Ben"])
    form = game.paper_form(setup, True)
    assert form is not None
    possible = derby_tables(2)
    refused = 0
    for a in range(21):
        for b in range(21):
            places = [1, 1] if a == b else ([1, 2] if a > b else [2, 1])
            result = PaperResult.from_dict({"places": places, "points": [a, b]}, form)
            try:
                game.paper_outcome(setup, result, True)
            except RuleViolation as exc:
                assert (a, b) not in possible, (a, b)
                assert exc.code == "derby/paper_points" and str(exc.params["field"]) == "points[1]"
                refused += 1
            else:
                assert (a, b) in possible, (a, b)
    assert refused > 0  # e.g. 20 and 20: ten counters paying 4 where at most 8 horses run


def test_derby_three_players_points_accepted_exactly_as_the_plain_enumeration_says() -> None:
    """Derby scoring with 5 counters each, all 9,261 points vectors of three players: the
    check agrees with the plain enumeration."""
    from aids.games.derby.paper import can_score

    possible = derby_tables(3)
    grid = itertools.product(range(21), repeat=3)
    disagree = [p for p in grid if can_score(p, counters=5) != (p in possible)]
    assert not disagree, disagree[:5]
    assert 0 < len(possible) < 21**3


def test_derby_points_no_end_could_pay_name_the_seat_and_are_told_in_both_languages() -> None:
    # 20 and 16 can be paid together (the cards run out at fence 2), but not another 20:
    # ten counters paying 4 where at most 8 horses take one at fence 1
    exc = refusal("derby", {"places": [1, 3, 1], "points": [20, 16, 20]})
    assert exc.code == "derby/paper_points" and str(exc.params["field"]) == "points[2]"
    assert "Chie" in exc.message("en") and "Chie" in exc.message("ja")
    assert "20" in exc.message("ja") and exc.message("ja") != exc.message("en")


@pytest.mark.parametrize("seed", range(40))
def test_derby_every_tracked_end_entered_on_paper_is_accepted(seed: int) -> None:
    """Derby scoring: a race played at random on the engine, its cards declared run out at a
    random moment (or played to the fifth fence), entered on paper with its points, is taken
    with the same outcome: the table check never refuses what a table can end with."""
    rng = random.Random(1000 + seed)
    game = games()["derby"]
    setup = derby_setup(NAMES[: rng.randint(2, 5)])
    state = game.initial_state(setup)
    stop = rng.choice([None, rng.randint(0, 120)])
    for step in range(MAX_STEPS):
        tracked = game.outcome(state)
        if tracked is not None:
            break
        movers = sorted(game.to_move(state), key=str)
        seats = [m for m in movers if m != REFEREE]
        actions = [
            a for m in seats for a in game.legal_actions(state, m) if type(a).__name__ != "Pass"
        ]
        if step == stop or not actions:
            ends = [a for a in game.legal_actions(state, REFEREE)]
            state = game.apply(state, rng.choice(ends), REFEREE)
            continue
        actor = rng.choice(seats)
        action = rng.choice(list(game.legal_actions(state, actor)))
        state = game.apply(state, action, actor)
    assert tracked is not None
    on_paper = paper_of(game, setup, tracked, scored=True)
    assert on_paper.ranking == tracked.ranking and on_paper.scores == tracked.scores


def gn_shares(stables: int) -> set[tuple[int, ...]]:
    """Every prize money vector ($K) a Grand National table can pay, found plainly: 1st to
    k-th placed (k = 0..4, fewer than four only when horses ran out), each place's horse
    owned by one stable (the rulebook's finish and payouts, written apart from the check)."""
    prizes = [250, 100, 50, 30]
    found = set()
    for k in range(5):
        for owners in itertools.product(range(stables), repeat=k):
            won = [0] * stables
            for place, owner in enumerate(owners):
                won[owner] += prizes[place]
            found.add(tuple(won))
    return found


@pytest.mark.parametrize("stables", [2, 3])
def test_grand_national_prize_money_is_taken_exactly_when_the_table_can_pay_it(
    stables: int,
) -> None:
    """Grand National finish and payouts: a table's prize money is taken exactly when some
    finish pays it (the plain enumeration), here with money enough to hold any prize."""
    from aids.games.grand_national.paper import check_prizes

    sums = sorted({sum(c) for n in range(5) for c in itertools.combinations([250, 100, 50, 30], n)})
    values = sums + ([1, 110, 200, 429] if stables == 2 else [])
    possible = gn_shares(stables)
    names = NAMES[:stables]
    for prize in itertools.product(values, repeat=stables):
        try:
            check_prizes(prize, [9_000_000] * stables, names)
        except RuleViolation as exc:
            assert prize not in possible, prize
            assert exc.code in ("gn/paper_prize", "gn/paper_prize_order")
        else:
            assert prize in possible, prize


def gn_refusal(raw: dict[str, Any]) -> AidsError:
    return refusal("gn", raw, seats=3)


def test_grand_national_prizes_each_go_to_one_stable_named_in_both_languages() -> None:
    """Grand National payouts: the 1st prize ($250K) counted for two stables is refused,
    naming the second stable's prize."""
    exc = gn_refusal({"places": [1, 2, 3], "money": [700000, 600000, 90000],
                      "prize": [250, 250, 0]})  # fmt: skip
    assert exc.code == "gn/paper_prize" and str(exc.params["field"]) == "prize[1]"
    assert "Ben" in exc.message("en") and "$250,000" in exc.message("ja")


def test_grand_national_prizes_are_paid_from_first_down() -> None:
    """Grand National payouts: a 3rd prize without a 2nd is refused, naming both."""
    exc = gn_refusal({"places": [1, 2, 3], "money": [700000, 600000, 90000],
                      "prize": [250, 50, 0]})  # fmt: skip
    assert exc.code == "gn/paper_prize_order" and exc.params["field"] == "prize"
    assert (exc.params["lower"], exc.params["missing"]) == (3, 2)


def test_grand_national_money_holds_the_prizes_won() -> None:
    """Grand National money is conserved: a stable ending with less than the prizes paid to
    it is refused, naming its money."""
    exc = gn_refusal({"places": [1, 2, 3], "money": [700000, 600000, 40000],
                      "prize": [250, 100, 50]})  # fmt: skip
    assert exc.code == "gn/paper_money_prize" and str(exc.params["field"]) == "money[2]"
    assert "Chie" in exc.message("ja") and "$40,000" in exc.message("en")
    game = games()["gn"]
    setup = game.default_setup(NAMES[:3], "en")
    form = game.paper_form(setup, True)
    assert form is not None
    for held, taken in ((50000, True), (49999, False)):  # all its money may be the prize
        raw = {"places": [1, 2, 3], "money": [700000, 600000, held], "prize": [250, 100, 50]}
        try:
            game.paper_outcome(setup, PaperResult.from_dict(raw, form), True)
        except RuleViolation:
            assert not taken
        else:
            assert taken


def test_a_grand_national_result_stored_before_the_prize_was_asked_is_still_read() -> None:
    """A result entered with money only (before the prize money was asked) keeps counting,
    and a new entry must give the prize money."""
    from aids.meets.papers import outcome_of

    game = games()["gn"]
    setup = game.default_setup(NAMES[:2], "en")
    outcome = outcome_of(game, setup, {"places": [2, 1], "money": [200000, 310000]})
    assert outcome.scores == (200000, 310000)
    form = game.paper_form(setup, True)
    assert form is not None
    with pytest.raises(InvalidAction) as caught:
        PaperResult.from_dict({"places": [2, 1], "money": [200000, 310000]}, form)
    assert caught.value.code == "paper/missing" and str(caught.value.params["field"]) == "prize"
    with pytest.raises(InvalidAction) as prize_only:  # never the later number alone
        outcome_of(game, setup, {"places": [1, 2], "prize": [430, 0]})
    assert prize_only.value.code == "paper/missing"


@pytest.mark.parametrize("seed", range(20))
def test_grand_national_tracked_races_entered_on_paper_hold_their_prizes(seed: int) -> None:
    """Grand National payouts: races played at random on the engine (bets, odds, cards and
    the referee's other actions) for a while, then ridden to the finish by the chances'
    model on the engine, entered on paper with their money and each stable's prize money,
    are taken with the same outcome."""
    from aids.games.grand_national.chances import GnChances

    rng = random.Random(seed)
    game = games()["gn"]
    setup = game.default_setup(NAMES[: rng.randint(2, 5)], "en")
    state = game.initial_state(setup)
    for _ in range(rng.randint(0, 120)):
        if game.outcome(state) is not None:
            break
        movers = sorted(game.to_move(state), key=str)
        actor = rng.choice([m for m in movers if m != REFEREE] or movers)
        action = rng.choice(list(game.legal_actions(state, actor)))
        state = game.apply(state, action, actor if actor.kind == "seat" else REFEREE)
    if game.outcome(state) is None:
        state = GnChances().play_out(state, rng)
    tracked = game.outcome(state)
    assert tracked is not None
    on_paper = paper_of(game, setup, tracked, scored=True, state=state)
    assert on_paper.scores == tracked.scores and on_paper.ranking == tracked.ranking


def test_a_shape_refusal_names_the_fields_in_words_in_either_language() -> None:
    """Issue 26 §6 (found in review): ``paper/shape`` listed raw keys (``places, points``)."""
    exc = refusal("derby", "1,2,3")  # type: ignore[arg-type]
    assert exc.code == "paper/shape"
    assert "places, points" not in exc.message("ja") and "順位・得点" in exc.message("ja")
    one = refusal("rally", {"places": [1, 2, 9]})
    assert "Aki" not in one.message("en") and "Chie's place (seat 3)" in one.message("en")
