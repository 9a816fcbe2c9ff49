"""One test per rule and ruling of shared/rules/rally.md, each naming the rule it checks."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from aids.core.errors import GameOver, InvalidAction, NotYourTurn, RuleViolation
from aids.games.base import REFEREE, VIEWER, Role
from aids.games.rally import GAME, engine
from aids.games.rally.data import load
from aids.games.rally.model import (
    Action,
    Attack,
    Defend,
    Draw,
    EndRace,
    EndTurn,
    Ferry,
    Machine,
    RallyState,
    Travel,
    action_from_dict,
)
from tests.games.rally.helpers import at, drawn, move, pass_turn, play, start


def code_of(state: RallyState, action: Action) -> str:
    with pytest.raises((InvalidAction, RuleViolation, NotYourTurn, GameOver)) as err:
        engine.apply(state, action)
    return err.value.code


# --- the rulebook's example: Koriyama –5– Motomiya –15– Nihonmatsu –20– Fukushima-Nishi ----


def test_rulebook_example_one_20_km_card_reaches_nihonmatsu() -> None:
    state = drawn(start())
    assert engine.reachable(state, 0, 20)["nihonmatsu"] == 20
    assert "fukushima-nishi" not in engine.reachable(state, 0, 20)
    assert engine.proposal(state, 0, 20) == "nihonmatsu"
    assert move(state, ("20",), "nihonmatsu").towns[0] == "nihonmatsu"


def test_rulebook_example_two_20_km_cards_reach_fukushima_nishi() -> None:
    state = move(drawn(start()), ("20", "20"), "fukushima-nishi")
    assert state.towns[0] == "fukushima-nishi"
    assert state.current.km == 40


def test_rulebook_example_one_30_km_card_still_stops_at_nihonmatsu() -> None:
    state = drawn(start())
    assert engine.proposal(state, 0, 30) == "nihonmatsu"
    assert code_of(state, Travel(0, ("30",), "fukushima-nishi")) == "rally/out_of_reach"


def test_rulebook_example_top_speed_doubles_fifty_plus_fifty_to_200() -> None:
    assert engine.travel_km(["50", "50", "top"]) == 200


# --- travel ---------------------------------------------------------------------------------


def test_top_speed_is_never_played_alone() -> None:
    assert code_of(drawn(start()), Travel(0, ("top",), "koriyama")) == "rally/top_alone"


def test_ruling_at_most_one_top_speed_in_a_movement() -> None:
    state = drawn(start())
    assert code_of(state, Travel(0, ("20", "top", "top"), "sendai")) == "rally/top_twice"


def test_ruling_one_movement_per_turn() -> None:
    state = move(drawn(start()), ("20",), "nihonmatsu")
    assert code_of(state, Travel(0, ("20",), "fukushima-nishi")) == "rally/one_move"


def test_each_card_costs_an_action() -> None:
    state = drawn(start(machine=Machine(2, 5, 2)))
    action = Travel(0, ("20", "20", "20"), "fukushima-nishi")
    assert code_of(state, action) == "rally/no_actions"


def test_only_travel_cards_make_a_movement() -> None:
    assert code_of(drawn(start()), Travel(0, ("20", "rain"), "nihonmatsu")) == (
        "rally/travel_cards"
    )


def test_unused_km_are_lost_and_the_car_never_stops_between_towns() -> None:
    state = move(drawn(start()), ("25",), "nihonmatsu")  # 5 km left over: lost
    assert state.towns[0] == "nihonmatsu" and state.current.km == 25
    assert engine.reachable(drawn(start()), 0, 4) == {"koriyama": 0}


def test_ruling_the_driver_may_stop_at_any_town_within_reach() -> None:
    state = move(drawn(start()), ("20", "20"), "motomiya")
    assert state.towns[0] == "motomiya"


def test_engine_proposal_is_the_reachable_town_nearest_the_goal_own_town_included() -> None:
    """The chances model's driver; the page's stop list: ``reach.advise`` (test_reach)."""
    state = drawn(start(goal="aizu"))
    assert engine.proposal(state, 0, 60) == "aizu"
    assert engine.proposal(state, 0, 50) == "koriyama"  # every other town is farther away


def test_travel_cards_never_cross_the_strait() -> None:
    state = drawn(at(start(), 0, "aomori"))
    assert "muroran" not in engine.reachable(state, 0, 10_000)
    assert code_of(state, Travel(0, ("50",), "muroran")) == "rally/out_of_reach"


def test_an_unknown_town_is_refused_by_name() -> None:
    assert code_of(drawn(start()), Travel(0, ("20",), "atlantis")) == "rally/unknown_town"


# --- attacks ----------------------------------------------------------------------------------


def test_a_jam_stops_the_target_at_its_town() -> None:
    state = play(drawn(start()), Attack(0, "jam", 1))
    assert state.jams == {"koriyama"}
    state = drawn(play(state, EndTurn(0)))
    assert code_of(state, Travel(1, ("20",), "nihonmatsu")) == "rally/jammed"
    assert engine.travel_choices(state, 1) == []


def test_ruling_every_car_at_a_jammed_town_is_stuck_including_one_already_there() -> None:
    state = play(drawn(start()), Attack(0, "jam", 1), EndTurn(0))  # Aki is at Koriyama too
    state = pass_turn(pass_turn(state))
    assert state.turn == 0
    assert code_of(drawn(state), Travel(0, ("20",), "nihonmatsu")) == "rally/jammed"


def test_ruling_a_move_may_end_at_a_jammed_town_but_not_pass_it() -> None:
    state = at(at(start(), 1, "motomiya"), 2, "nihonmatsu")
    state = play(drawn(state), Attack(0, "jam", 1))  # a jam at Motomiya
    assert "motomiya" in engine.reachable(state, 0, 40)
    assert "nihonmatsu" not in engine.reachable(state, 0, 40)  # only through Motomiya
    stopped = play(state, Travel(0, ("20",), "motomiya"))
    assert engine.is_stuck(stopped, 0)


def test_a_jam_is_driven_around_by_the_long_road() -> None:
    state = at(start(), 1, "nihonmatsu")
    state = play(drawn(state), Attack(0, "jam", 1))
    km = engine.reachable(state, 0, 200)
    assert km["fukushima-nishi"] == 60 + 70 + 45  # by Aizu and Yonezawa
    assert "sendai" not in km or km["sendai"] > 175


def test_rain_allows_one_travel_card_per_turn() -> None:
    state = play(drawn(start()), Attack(0, "rain", 1), EndTurn(0))
    state = drawn(state)
    assert code_of(state, Travel(1, ("20", "20"), "fukushima-nishi")) == "rally/rain"
    assert code_of(state, Travel(1, ("50", "top"), "fukushima-nishi")) == "rally/rain"
    assert play(state, Travel(1, ("20",), "nihonmatsu")).towns[1] == "nihonmatsu"


def test_engine_failure_stops_all_travel_cards() -> None:
    state = drawn(play(drawn(start()), Attack(0, "engine", 1), EndTurn(0)))
    assert code_of(state, Travel(1, ("20",), "nihonmatsu")) == "rally/engine_failure"


def test_ruling_police_makes_the_target_miss_two_whole_turns() -> None:
    state = play(drawn(start()), Attack(0, "police", 1), EndTurn(0))
    assert state.turn == 2  # Ben's first turn is missed: no draw, no actions
    missed = [r for r in state.turns if r.missed]
    assert [(r.seat, r.round) for r in missed] == [(1, 1)]
    state = pass_turn(pass_turn(state))  # Chie, then Aki: Ben misses round 2 too
    assert state.turn == 2 and state.police[1] == 0
    state = pass_turn(pass_turn(state))
    assert state.turn == 1 and state.round == 3
    assert state.hand_sizes[1] == 5  # no card was drawn in the missed turns


def test_ruling_no_duplicate_status() -> None:
    state = play(drawn(start()), Attack(0, "rain", 1))
    assert code_of(state, Attack(0, "rain", 1)) == "rally/status_held"
    state = play(state, Attack(0, "jam", 2))
    assert code_of(state, Attack(0, "jam", 1)) == "rally/status_held"  # same town


def test_an_attack_is_played_on_another_player() -> None:
    assert code_of(drawn(start()), Attack(0, "rain", 0)) == "rally/attack_self"


def test_ruling_a_finished_car_cannot_be_attacked() -> None:
    state = at(start(goal="nihonmatsu"), 0, "koriyama")
    state = pass_turn(move(drawn(state), ("20",), "nihonmatsu"))  # Aki arrives; Ben passes
    assert state.arrived == (0,)
    assert code_of(drawn(state), Attack(2, "rain", 0)) == "rally/target_arrived"


def test_an_attack_card_is_not_a_defence() -> None:
    assert code_of(drawn(start()), Attack(0, "repair", 1)) == "rally/not_attack"
    assert code_of(drawn(start()), Defend(0, "rain", target=1)) == "rally/not_defence"


# --- defences ---------------------------------------------------------------------------------


def test_jam_cleared_names_the_town_and_frees_it() -> None:
    state = play(drawn(start()), Attack(0, "jam", 1), Defend(0, "jam_clear", town="koriyama"))
    assert state.jams == frozenset()
    assert code_of(drawn(start()), Defend(0, "jam_clear", target=1)) == "rally/defence_town"


def test_clear_sky_ends_rain_and_engine_repair_ends_engine_failure() -> None:
    state = play(drawn(start()), Attack(0, "rain", 1), Attack(0, "engine", 1))
    state = play(state, EndTurn(0), Draw(1), Defend(1, "clear_sky", target=1))
    state = play(state, Defend(1, "repair", target=1))
    assert not state.rain[1] and not state.engine[1]


def test_ruling_a_defence_may_help_another_player() -> None:
    state = play(drawn(start()), Attack(0, "rain", 1), EndTurn(0), Draw(1), Attack(1, "rain", 2))
    assert play(state, Defend(1, "clear_sky", target=2)).rain == (False, True, False)


def test_ruling_a_defence_with_nothing_to_remove_is_refused() -> None:
    state = drawn(start())
    assert code_of(state, Defend(0, "clear_sky", target=1)) == "rally/nothing_to_remove"
    assert code_of(state, Defend(0, "repair", target=0)) == "rally/nothing_to_remove"
    assert code_of(state, Defend(0, "jam_clear", town="sendai")) == "rally/no_jam"


def test_nothing_defends_against_police() -> None:
    assert all(c.removes != "police" for c in load().cards)


# --- the ferry -----------------------------------------------------------------------------------


def ferry_state(**kw: Any) -> RallyState:
    """Aki at Aomori at the start of the turn, drawn."""
    return drawn(at(start(**kw), 0, "aomori"))


def test_ferry_taken_by_a_car_that_starts_its_turn_at_a_port() -> None:
    state = ferry_state()
    assert engine.can_ferry(state, 0) == ("muroran",)
    state = play(state, Ferry(0, "muroran"))
    assert state.towns[0] == "muroran" and state.current.ferry
    assert code_of(state, Travel(0, ("50",), "sapporo")) == "rally/ferried"
    assert code_of(state, Attack(0, "rain", 1)) == "rally/ferried"
    assert play(state, EndTurn(0)).turns[-1].ferry


def test_ferry_declined_the_car_stays_at_the_port() -> None:
    state = play(ferry_state(), EndTurn(0))
    assert state.towns[0] == "aomori"


def test_ferry_refused_on_the_turn_the_car_arrives_at_the_port() -> None:
    state = drawn(at(start(), 0, "sendai"))
    state = move(state, ("50", "25", "top"), "aomori")
    assert engine.can_ferry(state, 0) == ()
    assert code_of(state, Ferry(0, "muroran")) == "rally/ferry_acted"


def test_ferry_refused_after_playing_any_card() -> None:
    state = play(ferry_state(), Attack(0, "rain", 1))
    assert code_of(state, Ferry(0, "muroran")) == "rally/ferry_acted"


def test_ferry_refused_to_a_jammed_car() -> None:
    state = at(start(), 1, "aomori")
    state = play(drawn(state), Attack(0, "jam", 1), EndTurn(0))
    state = drawn(state)
    assert engine.can_ferry(state, 1) == ()
    assert code_of(state, Ferry(1, "muroran")) == "rally/jammed"


def test_rain_and_engine_failure_do_not_stop_the_ferry() -> None:
    state = at(start(), 1, "aomori")
    state = play(drawn(state), Attack(0, "rain", 1), Attack(0, "engine", 1), EndTurn(0))
    assert play(drawn(state), Ferry(1, "muroran")).towns[1] == "muroran"


def test_ferry_only_from_a_port() -> None:
    assert code_of(drawn(start()), Ferry(0, "muroran")) == "rally/ferry_port"


def test_ruling_police_turns_skip_the_ferry_too() -> None:
    state = at(start(), 1, "aomori")
    state = play(drawn(state), Attack(0, "police", 1), EndTurn(0))
    assert state.turn == 2 and state.towns[1] == "aomori"


# --- the turn ------------------------------------------------------------------------------------


def test_a_turn_starts_with_the_draw() -> None:
    state = start()
    assert code_of(state, Travel(0, ("20",), "nihonmatsu")) == "rally/draw_first"
    assert code_of(drawn(state), Draw(0)) == "rally/drawn"
    assert drawn(state).hand_sizes[0] == 5 + 2


def test_turns_go_clockwise_and_others_wait() -> None:
    state = start()
    assert code_of(state, Draw(1)) == "rally/not_your_turn"
    state = pass_turn(state)
    assert state.turn == 1 and state.round == 1
    state = pass_turn(pass_turn(state))
    assert state.turn == 0 and state.round == 2


def test_discard_down_to_the_hand_size_at_the_end_of_the_turn() -> None:
    state = pass_turn(start())  # 5 + 2 drawn, nothing played: 2 discarded
    assert state.hand_sizes[0] == 5
    assert state.discard_size == 2
    assert code_of(drawn(state), EndTurn(1, ("20",))) == "rally/discard_tracking"


def test_the_card_count_is_104_at_all_times_in_tracking_mode() -> None:
    state = start()
    for _ in range(60):
        state = pass_turn(state)
        assert state.pile_size + sum(state.hand_sizes) + state.discard_size == 104
    assert state.reshuffles >= 1


# --- simulation mode: the real deck ---------------------------------------------------------------


def cards_on_table(state: RallyState) -> Counter[str]:
    out = Counter(state.pile) + Counter(state.discard)
    for hand in state.hands:
        out += Counter(hand)
    return out


def test_simulation_deals_the_104_card_deck_and_keeps_it_whole() -> None:
    state = start(mode="simulation", seed=7)
    assert cards_on_table(state) == Counter(engine.full_deck())
    assert len(engine.full_deck()) == 104
    for _ in range(80):
        state = drawn(state)
        excess = engine.must_discard(state, state.turn)
        state = play(state, EndTurn(state.turn, state.hands[state.turn][:excess]))
        assert cards_on_table(state) == Counter(engine.full_deck())
        assert state.pile_size == len(state.pile) and state.discard_size == len(state.discard)
    assert state.reshuffles >= 1


def test_simulation_plays_only_cards_in_the_hand() -> None:
    state = drawn(start(mode="simulation", seed=7))
    missing = next(k for k in ("20", "25", "30", "40", "50") if k not in state.hands[0])
    assert code_of(state, Travel(0, (missing,), "koriyama")) == "rally/not_in_hand"


def test_simulation_discards_exactly_down_to_the_hand_size() -> None:
    state = drawn(start(mode="simulation", seed=3))
    assert code_of(state, EndTurn(0)) == "rally/discard_count"
    assert code_of(state, EndTurn(0, state.hands[0][:3])) == "rally/discard_count"


def test_a_simulation_hides_hands_pile_and_seed_from_others() -> None:
    state = drawn(start(mode="simulation", seed=3))
    for role in (VIEWER, Role.seat_of(1)):
        seen = GAME.view(state, role)
        assert seen.pile == () and seen.setup.seed == engine.HIDDEN_SEED
        assert seen.hands[0] == ()
        assert seen.hand_sizes == state.hand_sizes
    assert GAME.view(state, Role.seat_of(0)).hands[0] == state.hands[0]
    assert GAME.view(state, REFEREE) == state
    end = EndTurn(0, state.hands[0][:2])
    assert GAME.view_action(state, end, Role.seat_of(1)) == EndTurn(0, (), 2)


# --- the end -----------------------------------------------------------------------------


def test_finishing_order_and_the_end_when_every_car_has_arrived() -> None:
    state = start(2, goal="nihonmatsu")
    state = move(drawn(state), ("20",), "nihonmatsu")  # Aki arrives: the turn ends
    assert state.arrived == (0,) and state.turn == 1 and state.phase == "draw"
    state = move(drawn(state), ("25",), "nihonmatsu")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "arrived"
    assert outcome.ranking == ((0,), (1,))
    assert code_of(state, Draw(0)) == "rally/over"


def test_ruling_the_referee_ends_the_race_and_cars_are_placed_by_distance_to_goal() -> None:
    state = at(at(start(3, goal="sendai"), 1, "fukushima-nishi"), 2, "nihonmatsu")
    state = play(state, EndRace())
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "ended"
    assert outcome.ranking == ((1,), (2,), (0,))


def test_ruling_the_ferry_counts_zero_km_and_fewer_crossings_is_ahead() -> None:
    state = at(at(start(3), 1, "aomori"), 2, "muroran")
    assert engine.to_goal(state, "aomori") == (120, 1)
    assert engine.to_goal(state, "muroran") == (120, 0)
    state = play(state, EndRace())
    assert engine.placings(state) == ((2,), (1,), (0,))


def test_ruling_equal_distances_share_a_place_and_its_points() -> None:
    state = play(start(3, goal="sendai"), EndRace())
    assert engine.placings(state) == ((0, 1, 2),)
    assert engine.place_points(state) == (15, 15, 15)


def test_team_scoring_15_10_8_5_3_1_and_ruling_7th_scores_0() -> None:
    assert load().points == (15, 10, 8, 5, 3, 1, 0)
    teams = [0, 1, 0, 1, 0, 1, 0]
    state = start(7, goal="sendai", teams=teams)
    order = ["sendai", "fukushima-nishi", "nihonmatsu", "motomiya", "koriyama", "sukagawa",
             "aizu"]  # fmt: skip
    for seat, town in enumerate(order):
        state = at(state, seat, town)
    state = play(state, EndRace())
    assert engine.place_points(state) == (15, 10, 8, 5, 3, 1, 0)
    assert engine.team_totals(state) == (15 + 8 + 3 + 0, 10 + 5 + 1)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.ranking == ((0, 2, 4, 6), (1, 3, 5))
    assert outcome.scores[0] == 26


def test_ruling_an_arriving_car_ends_its_turn_and_takes_no_more_turns() -> None:
    state = start(3, goal="nihonmatsu")
    state = move(drawn(state), ("20",), "nihonmatsu")
    assert state.turn == 1
    state = pass_turn(pass_turn(state))
    assert state.turn == 1 and state.round == 2  # Aki's turns are skipped


# --- actions as values -------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        Draw(1),
        Travel(0, ("50", "50", "top"), "sendai"),
        Attack(2, "police", 0),
        Defend(0, "jam_clear", town="koriyama"),
        Defend(0, "repair", target=1),
        Ferry(0, "muroran"),
        EndTurn(1, ("20", "rain")),
        EndRace(),
    ],
)
def test_actions_round_trip_through_their_dicts(action) -> None:  # type: ignore[no-untyped-def]
    assert action_from_dict(action.to_dict()) == action


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({"type": "fly", "seat": 0}, "rally/malformed"),
        ({"type": "draw"}, "rally/malformed"),
        ({"type": "travel", "seat": 0, "cards": ["60"], "to": "sendai"}, "rally/unknown_card"),
        ({"type": "travel", "seat": 0, "cards": "20", "to": "sendai"}, "rally/malformed"),
        ({"type": "attack", "seat": 0, "card": "rain"}, "rally/malformed"),
        ({"type": "defend", "seat": 0, "card": "repair", "target": True}, "rally/malformed"),
        ({"type": "ferry", "seat": 0}, "rally/malformed"),
    ],
)
def test_malformed_actions_name_their_field(raw, code) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidAction) as err:
        action_from_dict(raw)
    assert err.value.code == code


def test_a_refused_action_changes_nothing() -> None:
    state = drawn(start())
    before = replace(state)
    code_of(state, Travel(0, ("30",), "fukushima-nishi"))
    assert state == before


def test_a_car_ferried_to_a_goal_at_the_port_has_arrived() -> None:
    state = drawn(at(start(2, goal="muroran"), 0, "aomori"))
    state = play(state, Ferry(0, "muroran"))
    assert state.arrived == (0,) and state.turn == 1
    assert code_of(drawn(state), Attack(1, "jam", 0)) == "rally/target_arrived"


def test_a_car_never_drives_on_past_the_goal() -> None:
    state = drawn(at(start(2, goal="fukushima-nishi"), 0, "nihonmatsu"))
    reach = engine.reachable(state, 0, 200)
    assert "sendai" not in reach and "fukushima-nishi" in reach
    assert code_of(state, Travel(0, ("50", "50", "top"), "sendai")) == "rally/out_of_reach"


def test_a_simulations_seed_and_pile_stay_hidden_after_the_end() -> None:
    """An undo may take the race on again: what would deal the future stays the referee's."""
    state = play(drawn(start(mode="simulation", seed=9)), EndRace())
    seen = GAME.view(state, VIEWER)
    assert seen.setup.seed == engine.HIDDEN_SEED and seen.pile == () and seen.hands[1] == ()
