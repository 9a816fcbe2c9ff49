"""One test per rule and ruling of shared/rules/grand_national.md, each naming what it checks.

Horses by index: stable × 4 + slot. Red (Aki): 0 Red Rum (60K, +6), 1 Aldaniti (40K, +4),
2 Foinavon (10K, +1), 3 Party Politics (30K, +3). Blue (Ben): 4 Corbiere (50K, +5), 5, 6, 7.
Green (Chie, the bookmaker): 8 Amberleigh (60K, +6), 9, 10, 11.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from aids.core.errors import AidsError, Forbidden
from aids.games.base import REFEREE, VIEWER, Role
from aids.games.grand_national import GAME, engine
from aids.games.grand_national.data import Odds, load
from aids.games.grand_national.model import (
    BANK,
    HELD,
    SEALED,
    Action,
    Bet,
    BlindBet,
    Boxed,
    Card,
    GnSetup,
    GnState,
    Going,
    Horse,
    LaneSpin,
    Move,
    PullUp,
    SetHandicap,
    SetOdds,
    Spin,
    Stable,
    Start,
)
from tests.games.grand_national.helpers import as_role, placed_at, play, setup, to_market, to_race


def code_of(state: GnState, action: Action) -> str:
    with pytest.raises(AidsError) as err:
        engine.apply(state, action)
    return err.value.code


# --- the deal and the money ------------------------------------------------------------------


def test_every_stable_starts_with_250000_and_pays_its_horses_list_prices() -> None:
    state = engine.initial_state(setup())
    assert [engine.cash(state, s) for s in range(3)] == [
        250000 - 140000,
        250000 - 110000,
        250000 - 170000,
    ]


def test_the_deal_takes_each_slot_from_its_stack() -> None:
    good = setup()
    horses = list(good.stables[0].horses)
    horses[0] = Horse("Too Cheap", 40000, 3)  # slot 1 comes from the 60K/50K stack
    with pytest.raises(AidsError) as err:
        replace(good, stables=(Stable("Aki", "red", tuple(horses)), *good.stables[1:]))
    assert err.value.code == "gn/stack" and "60K / 50K" in err.value.message("en")
    horses[0] = Horse("Any Price", 60000, 3)
    horses[3] = Horse("Slot Four", 10000, 3)  # slot 4: any remaining horse
    replace(good, stables=(Stable("Aki", "red", tuple(horses)), *good.stables[1:]))


def test_ruling_at_least_two_stables_and_at_most_six_colours() -> None:
    with pytest.raises(AidsError) as err:
        replace(setup(), stables=setup().stables[:1])
    assert err.value.code == "gn/stable_count"


# --- blind bets ------------------------------------------------------------------------------


def test_a_blind_bet_is_at_most_10000() -> None:
    state = engine.initial_state(setup())
    assert code_of(state, BlindBet(0, 0, "win", 10001)) == "gn/blind_max"
    assert play(state, BlindBet(0, 0, "win", 10000)).blind[0] == BlindBet(0, 0, "win", 10000)


def test_a_blind_bet_is_the_seats_own_not_even_the_referees() -> None:
    state = engine.initial_state(setup())
    with pytest.raises(Forbidden):
        as_role(state, BlindBet(0, 0, "win", 500), REFEREE)
    with pytest.raises(Forbidden):
        as_role(state, BlindBet(0, 0, "win", 500), Role.seat_of(1))
    assert as_role(state, BlindBet(0, 0, "win", 500), Role.seat_of(0)).blind[0] is not None


def test_ruling_the_referee_may_record_no_blind_bet_for_a_seat_and_nothing_else() -> None:
    state = engine.initial_state(setup())
    none = BlindBet(1, None, None, 0)
    assert GAME.may_act(state, none, REFEREE)
    recorded = as_role(state, none, REFEREE)
    assert recorded.blind[1] == none
    assert GAME.view(recorded, REFEREE).blind[1] is SEALED  # the log keeps it sealed alike
    for sneaky in (BlindBet(1, 4, "win", 0), BlindBet(1, 4, "show", 500)):
        assert not GAME.may_act(state, sneaky, REFEREE)
        with pytest.raises(Forbidden):
            as_role(state, sneaky, REFEREE)
    with pytest.raises(AidsError) as err:  # a seat that has written keeps its own bet
        as_role(play(state, BlindBet(1, 4, "win", 500)), none, REFEREE)
    assert err.value.code == "gn/blind_once"
    for seat in (0, 2):  # the race need not wait for a phone
        recorded = as_role(recorded, BlindBet(seat, None, None, 0), REFEREE)
    assert recorded.phase == "going"


def test_blind_bets_are_hidden_from_everyone_until_settlement_the_referee_included() -> None:
    state = play(engine.initial_state(setup()), BlindBet(0, 0, "win", 7000))
    bet = BlindBet(0, 0, "win", 7000)
    for role in (VIEWER, REFEREE, Role.seat_of(1)):
        seen = GAME.view(state, role)
        assert seen.blind[0] is SEALED and "7000" not in repr(seen)
        assert GAME.view_action(state, bet, role) is None
    assert GAME.view(state, Role.seat_of(0)).blind[0] == bet
    assert engine.cash(state, 0) == 110000  # the public ledger does not show the stake yet


def test_the_going_waits_for_every_blind_bet() -> None:
    state = play(engine.initial_state(setup()), BlindBet(0, None, None, 0))
    assert code_of(state, Going("good")) == "gn/not_now"
    assert GAME.to_move(state) == {Role.seat_of(1), Role.seat_of(2)}


# --- the going, lanes, the market ------------------------------------------------------------


@pytest.mark.parametrize(
    ("going", "top"),
    [("firm", 64), ("good_to_firm", 62), ("good", 60), ("good_to_soft", 58), ("soft", 56),
     ("heavy", 54)],
)  # fmt: skip
def test_the_going_sets_every_grid_top(going: str, top: int) -> None:
    state = to_market(going=going)
    assert state.top() == top and all(state.speed_left(h) == top for h in range(12))


def test_ruling_lanes_go_clockwise_round_the_spinner_ring_from_the_colour_spun() -> None:
    state = to_market()
    state = engine.initial_state(setup())
    state = play(state, *(BlindBet(s, None, None, 0) for s in range(3)), Going("good"))
    state = play(state, LaneSpin(1, "green"))
    assert state.lanes[0] == (2, 0, 1)  # Green, then Red, then Blue (White, Black not in play)
    assert code_of(state, LaneSpin(3, "red")) == "gn/lane_order"
    assert code_of(state, LaneSpin(2, "yellow")) == "gn/colour_not_in_play"


def test_the_odds_board_starts_from_the_reserve_price_table() -> None:
    state = to_market()
    assert state.odds[0] == (Odds(12), Odds(3))  # 60K
    assert state.odds[2] == (Odds(100), Odds(25))  # 10K


def test_the_bookmaker_may_change_odds_and_others_may_not() -> None:
    state = to_market()
    with pytest.raises(Forbidden):
        as_role(state, SetOdds(0, Odds(8), Odds(2)), Role.seat_of(0))
    changed = as_role(state, SetOdds(0, Odds(8), Odds(2)), Role.seat_of(2))  # Chie
    assert changed.odds[0] == (Odds(8), Odds(2))


def test_ruling_every_bet_is_settled_at_the_odds_it_was_taken_at() -> None:
    state = play(to_market(), SetOdds(0, Odds(8), Odds(2)), Bet(1, 0, "win", 2000))
    state = play(state, SetOdds(0, Odds(10), Odds(2)))
    assert state.wagers[0].odds == Odds(8)


def test_ruling_bets_are_limited_by_cash() -> None:
    state = to_market()
    assert code_of(state, Bet(2, 0, "win", 80001)) == "gn/cash"
    assert engine.cash(play(state, Bet(2, 0, "win", 80000)), 2) == 0


def test_ruling_the_referee_enters_each_handicap_for_the_going() -> None:
    state = play(to_market(), SetHandicap(0, 4))
    assert state.handicap[0] == 4
    assert code_of(state, SetHandicap(0, 8)) == "gn/handicap_range"


def test_bets_and_odds_close_at_the_start() -> None:
    state = play(to_market(), Start())
    assert code_of(state, Bet(0, 0, "win", 100)) == "gn/market_closed"


# --- turn order ------------------------------------------------------------------------------


def first_move(state: GnState, horse: int) -> Move:
    """The least legal move straight ahead: handicap + 1 speed point."""
    return Move(horse, state.handicap[horse] + 1, state.lane[horse])


def test_the_first_turn_goes_by_caps_inside_first() -> None:
    state = to_race()
    order = []
    while state.round == 1:
        horse = engine.next_horse(state)
        assert horse is not None
        order.append(horse)
        state = play(state, first_move(state, horse))
    assert order == [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]


def test_later_turns_go_by_the_spinner_colour_for_each_cap() -> None:
    state = to_race()
    while state.round == 1:
        state = play(state, first_move(state, engine.next_horse(state) or 0))
    assert engine.needs_spin(state) and code_of(state, first_move(state, 0)) == "gn/spin_first"
    state = play(state, Spin("blue"))
    order = []
    for _ in range(3):
        horse = engine.next_horse(state)
        assert horse is not None
        order.append(horse)
        state = play(state, first_move(state, horse))
    assert order == [4, 8, 0]  # Blue, Green, Red: red caps
    assert engine.needs_spin(state)  # and a spin for the black caps


def test_ruling_later_turns_go_round_the_table_in_seating_order_not_the_spinner_ring() -> None:
    # Seats A red, B blue, C white; the ring runs Red → White → Blue, the table A → B → C.
    stables = setup().stables
    seated = (*stables[:2], replace(stables[2], colour="white"))
    state = to_race(stables=seated)
    assert state.lanes[0] == (0, 2, 1)  # the lanes still follow the ring: A, C, B
    while state.round == 1:
        state = play(state, first_move(state, engine.next_horse(state) or 0))
    state = play(state, Spin("red"))
    assert engine.turn_order(state) == (0, 4, 8)  # what the page shows
    order = []
    while not engine.needs_spin(state):
        horse = engine.next_horse(state)
        assert horse is not None
        order.append(horse)
        state = play(state, first_move(state, horse))
    assert order == [0, 4, 8]  # A's red cap, then B (to A's left), then C
    state = play(state, Spin("white"))  # C spun for the black caps: then A, then B
    assert [engine.next_horse(state)] == [9] and state.group == (9, 1, 5)


def test_variant_position_order_leader_first_and_an_advanced_horse_moves_at_its_new_place() -> None:
    state = to_race(order="position")
    while state.round == 1:
        state = play(state, first_move(state, engine.next_horse(state) or 0))
    leader = engine.race_order(state)[0]
    assert engine.next_horse(state) == leader
    state = play(state, first_move(state, leader))
    last = engine.race_order(state)[-1]
    state = play(state, Card(last, "advance", 20))  # an unmoved horse advanced to the front
    assert engine.next_horse(state) == last


def test_each_horse_moves_once_a_round_and_is_marked() -> None:
    state = to_race()
    state = play(state, first_move(state, 0))
    assert 0 in state.moved
    assert code_of(state, first_move(state, 0)) == "gn/not_this_horse"


# --- movement --------------------------------------------------------------------------------


def test_a_horse_moves_its_handicap_plus_1_to_8_speed_points_struck_from_its_grid() -> None:
    state = to_race()
    assert code_of(state, Move(0, 6, 1)) == "gn/speed"  # handicap only
    assert code_of(state, Move(0, 15, 1)) == "gn/speed"  # 6 + 9
    moved = play(state, Move(0, 11, 1))  # the rulebook's example: +6 moving 11
    assert moved.used[0] == 5 and moved.distance[0] == 11


def test_sideways_lengths_count_toward_the_move() -> None:
    state = to_race()
    moved = play(state, Move(0, 9, 3))  # 9 forward + 2 sideways = 11
    assert moved.used[0] == 5 and moved.lane[0] == 3


def test_a_blocked_horse_still_uses_at_least_one_speed_point() -> None:
    state = to_race()
    moved = play(state, Move(0, 2, 1, blocked=True))
    assert moved.used[0] == 1 and moved.distance[0] == 2


def test_a_boxed_in_horse_forfeits_its_turn_and_burns_one_speed_point() -> None:
    state = play(to_race(), Boxed(0))
    assert state.used[0] == 1 and state.distance[0] == 0 and engine.next_horse(state) == 4


def test_ruling_a_card_advance_a_blocked_horse_cannot_complete_burns_one_speed_point() -> None:
    state = to_race()
    short = play(state, Card(5, "advance", 3, moved=1))
    assert short.distance[5] == 1 and short.used[5] == 1
    full = play(state, Card(5, "advance", 3))
    assert full.distance[5] == 3 and full.used[5] == 0


def test_a_stamina_penalised_horse_is_skipped_and_the_next_in_line_advances() -> None:
    state = placed_at(to_race(), h0=20, h4=15, h8=10)
    state = play(state, Card(0, "penalty", 1))
    advanced = play(state, Card(0, "advance", 3))
    assert advanced.distance[0] == 20 and advanced.distance[4] == 18
    assert play(state, Card(0, "second_wind"), Card(0, "advance", 3)).distance[0] == 23


def test_ruling_a_handicap_change_is_clamped_to_0_7() -> None:
    state = to_race()
    assert play(state, Card(0, "handicap", 2)).handicap[0] == 7  # 6 + 2 → 7
    assert play(state, Card(2, "handicap", -2)).handicap[2] == 0  # 1 − 2 → 0


def test_a_horse_out_of_speed_points_is_pulled_up() -> None:
    state = to_race()
    state = replace(state, used=(state.top() - 1, *state.used[1:]))
    state = play(state, Move(0, 7, 1))
    assert state.status[0] == "pulled_up"


def test_a_lapped_horse_is_pulled_up() -> None:
    state = placed_at(to_race(), h4=47)
    state = play(state, Card(8, "advance", 1))  # anything that moves the race on
    state = play(state, Card(4, "advance", 1))
    assert state.distance[4] - state.distance[0] >= state.setup.track.lap
    assert state.status[0] == "pulled_up"


def test_an_owner_may_pull_up_their_horse_but_not_anothers() -> None:
    state = to_race()
    assert as_role(state, PullUp(1), Role.seat_of(0)).status[1] == "pulled_up"
    with pytest.raises(Forbidden):
        as_role(state, PullUp(1), Role.seat_of(1))


# --- running too free ------------------------------------------------------------------------


def test_running_too_free_at_any_time_costs_2_handicap_once_but_not_in_the_first_turn() -> None:
    state = to_race()
    clear = play(state, Move(0, 14, 1))  # 14 lengths clear in the first turn: exempt
    assert clear.handicap[0] == 6
    later = replace(placed_at(clear, h0=30), round=2)
    later = play(later, Card(4, "advance", 1))  # any change: the check runs
    assert later.handicap[0] == 4 and 0 in later.too_free_done
    again = play(placed_at(later, h0=40), Card(4, "advance", 1))
    assert again.handicap[0] == 4  # once per horse


def test_running_too_free_is_checked_only_up_to_melling_road_on_the_last_lap() -> None:
    state = replace(to_race(), round=2)
    track = state.setup.track
    until = track.too_free_until
    past = play(placed_at(state, h0=until + 1, h4=until - 11), Card(8, "advance", 1))
    assert past.handicap[0] == 6
    at = play(placed_at(state, h0=until, h4=until - 12), Card(8, "advance", 1))
    assert at.handicap[0] == 4


def test_variant_running_too_free_at_the_end_of_each_round_the_first_included() -> None:
    state = to_race(too_free="round_end")
    state = play(state, Move(0, 14, 1))
    assert state.handicap[0] == 6  # not yet: the round is not over
    while state.round == 1:
        state = play(state, Boxed(engine.next_horse(state) or 0))
    assert state.handicap[0] == 4


def test_running_too_free_never_takes_a_handicap_below_0() -> None:
    state = replace(to_race(), round=2)
    state = play(placed_at(state, h2=30), Card(4, "advance", 1))
    assert state.handicap[2] == 0  # Foinavon +1 − 2 → 0


# --- which deck ------------------------------------------------------------------------------


def test_the_deck_jump_on_fences_and_water_turf_on_horseshoes_go_for_home_late() -> None:
    state = replace(to_race(), round=2)
    track = state.setup.track
    assert engine.deck_for(placed_at(state, h0=track.fences[0]), 0) == "jump"
    assert engine.deck_for(placed_at(state, h0=track.water), 0) == "jump"
    assert engine.deck_for(placed_at(state, h0=track.horseshoes[0]), 0) == "turf"
    late = placed_at(state, h0=track.horseshoes[0], h4=track.bechers_last_lap + 1)
    assert engine.deck_for(late, 0) == "go_for_home"


def test_no_turf_card_in_the_first_turn_nor_after_a_card_move() -> None:
    state = to_race()
    track = state.setup.track
    assert engine.deck_for(placed_at(state, h0=track.horseshoes[0]), 0) is None
    carded = play(replace(state, round=2), Card(0, "advance", track.horseshoes[0]))
    assert engine.deck_for(carded, 0) is None
    assert engine.deck_for(carded, 4) is None  # at the start line: no landmark


# --- the finish and settlement ---------------------------------------------------------------


def test_a_hand_worked_settlement_with_exact_cash() -> None:
    state = engine.initial_state(setup())
    state = as_role(state, BlindBet(0, 0, "win", 10000), Role.seat_of(0))  # Red Rum, 12/1
    state = as_role(state, BlindBet(1, 4, "show", 5000), Role.seat_of(1))  # Corbiere, 5/1
    state = as_role(state, BlindBet(2, None, None, 0), Role.seat_of(2))
    state = to_market(state)
    state = play(state, SetOdds(0, Odds(8), Odds(2)), Bet(1, 0, "win", 2000))  # at 8/1
    state = play(state, SetOdds(0, Odds(10), Odds(2)), Bet(0, 8, "show", 1000))  # at 3/1
    state = play(state, Start())
    over = engine.settle(replace(state, phase="over", placed=(0, 4, 8, 1)))
    assert [engine.cash(over, s) for s in range(3)] == [
        110000 - 1000 + 250000 + 30000 - 10000 + 130000 + 4000,
        140000 - 2000 + 18000 - 5000 + 30000 + 100000,
        80000 + 50000,
    ]
    assert engine.balance(over.ledger, HELD) == 0
    assert GAME.outcome(replace(over, phase="over")) is not None


def test_the_race_ends_when_four_have_placed_and_settles_itself() -> None:
    state = to_race()
    finish = state.setup.track.finish
    state = placed_at(state, h0=finish - 1, h4=finish - 1, h8=finish - 1, h1=finish - 1)
    for horse in (0, 4, 8, 1):
        state = play(state, Card(horse, "advance", 1))
    assert state.phase == "over" and state.placed == (0, 4, 8, 1) and state.settled
    prizes = [line for line in state.ledger if line.reason == "prize"]
    assert [(line.to, line.amount) for line in prizes] == [
        (0, 250000),
        (1, 100000),
        (2, 50000),
        (0, 30000),
    ]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    # scores are each stable's cash; what the race gave is that less the start money
    assert outcome.stakes == (load().start_cash,) * 3
    assert outcome.net == tuple(engine.cash(state, s) - load().start_cash for s in range(3))


def test_the_ledger_balances_every_transfer_a_line() -> None:
    state = to_race()
    total = sum(engine.balance(state.ledger, party) for party in (BANK, HELD, 0, 1, 2))
    assert total == 0


def test_default_prizes_and_blind_limits_come_from_the_seed() -> None:
    assert load().prizes == (250000, 100000, 50000, 30000) and load().blind_max == 10000


# --- from review ------------------------------------------------------------------------------


def test_variant_position_order_still_runs_the_whole_first_turn_by_caps() -> None:
    state = to_race(order="position")
    moved = []
    while state.round == 1:
        horse = engine.next_horse(state)
        assert horse is not None
        moved.append(horse)
        state = play(state, first_move(state, horse))
    assert moved == [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]


def test_a_cap_with_no_horse_left_running_is_passed_over() -> None:
    state = play(to_race(), PullUp(1), PullUp(5), PullUp(9))  # every black cap out
    while state.round == 1:
        state = play(state, first_move(state, engine.next_horse(state) or 0))
    state = play(state, Spin("red"))
    for _ in range(3):  # the red caps
        state = play(state, first_move(state, engine.next_horse(state) or 0))
    assert engine.needs_spin(state) and state.cap == 2  # straight to the white caps


def test_a_spin_for_a_cap_that_all_lose_their_turn_moves_on() -> None:
    state = to_race()
    while state.round == 1:
        state = play(state, first_move(state, engine.next_horse(state) or 0))
    state = play(state, Card(0, "lose_turn"), Card(4, "lose_turn"), Card(8, "lose_turn"))
    state = play(state, Spin("red"))
    assert engine.needs_spin(state) and state.cap == 1  # the red caps' turns are lost


def test_a_horse_lapped_by_the_winner_is_pulled_up() -> None:
    state = to_race()
    finish = state.setup.track.finish
    state = placed_at(state, h0=finish - 1, h4=finish - 1 - state.setup.track.lap)
    state = play(state, Card(0, "advance", 1))
    assert 0 in state.placed and state.status[4] == "pulled_up"


def test_the_referee_never_learns_a_sealed_blind_stake_from_a_bet_limit() -> None:
    state = engine.initial_state(setup())
    state = as_role(state, BlindBet(0, 0, "win", 7300), Role.seat_of(0))
    for seat in (1, 2):
        state = as_role(state, BlindBet(seat, None, None, 0), Role.seat_of(seat))
    state = to_market(state)
    limit = 110000 - 10000  # cash less the blind maximum, whatever the stake
    with pytest.raises(AidsError) as err:
        as_role(state, Bet(0, 0, "win", limit + 1), REFEREE)
    assert err.value.code == "gn/cash_sealed" and "7,300" not in err.value.message("en")
    assert "102700" not in err.value.message("en") and "102,700" not in err.value.message("en")
    with pytest.raises(AidsError):  # Ben has no blind stake, yet the same rule holds
        as_role(state, Bet(1, 0, "win", 140000 - 10000 + 1), REFEREE)
    assert as_role(state, Bet(0, 0, "win", limit), REFEREE).wagers[-1].stake == limit
    own = as_role(state, Bet(0, 0, "win", 102700), Role.seat_of(0))  # the player knows
    assert engine.cash(own, 0) == 110000 - 102700


def test_ruling_the_referee_enters_the_spinners_own_colour_ring() -> None:
    ring = ("green", "yellow", "blue", "white", "red", "black")
    state = engine.initial_state(setup(spinner=ring))
    state = play(state, *(BlindBet(s, None, None, 0) for s in range(3)), Going("good"))
    state = play(state, LaneSpin(1, "blue"))
    assert state.lanes[0] == (1, 0, 2)  # Blue, then Red, then Green round this spinner
    with pytest.raises(AidsError) as err:
        setup(spinner=("green", "blue"))  # Red is in play but not on the ring
    assert err.value.code == "gn/spinner"
    assert GnSetup.from_dict(setup(spinner=ring).to_dict()).spinner == ring
