"""One test per rule and ruling of shared/rules/derby.md; each name says which."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aids.core.errors import GameOver, InvalidAction, NotYourTurn, RuleViolation
from aids.games.base import REFEREE, VIEWER, Role
from aids.games.derby import engine
from aids.games.derby.game import GAME
from aids.games.derby.model import (
    Bet,
    Card,
    DerbySetup,
    NoCardsLeft,
    Pass,
    PlayCard,
    action_from_dict,
    full_deck,
)
from tests.games.derby.helpers import (
    FENCE1,
    ROWS,
    bet,
    card,
    fill_fence,
    play,
    simulation,
    tracking,
)

# --- components and setup ------------------------------------------------------------------


def test_components_90_speed_cards_each_exactly_once() -> None:
    deck = full_deck()
    assert len(deck) == 90 and len(set(deck)) == 90
    assert sum(c.is_black for c in deck) == 10
    assert {c.value for c in deck} == set(range(10))


@pytest.mark.parametrize(("players", "counters"), [(2, 5), (3, 5), (4, 4), (5, 4)])
def test_setup_counters_per_player_by_player_count(players: int, counters: int) -> None:
    state = tracking(players)
    assert all(state.counters_left(p) == counters for p in range(players))


@pytest.mark.parametrize("players", [1, 6])
def test_setup_two_to_five_players(players: int) -> None:
    with pytest.raises(InvalidAction) as err:
        DerbySetup.default([f"P{i}" for i in range(players)])
    assert err.value.code == "derby/setup_player_count"


def test_setup_each_horse_colour_once() -> None:
    raw = DerbySetup.default(["A", "B"]).to_dict()
    raw["horses"][1]["colour"] = "red"
    with pytest.raises(InvalidAction) as err:
        DerbySetup.from_dict(raw)
    assert err.value.code == "derby/setup_horse_colours"


def test_setup_simulation_deals_eight_each_rest_is_draw_pile() -> None:
    state = simulation(4, seed=7)
    assert [len(h) for h in state.hands] == [8, 8, 8, 8]
    assert state.pile == len(state.deck) == 90 - 32
    assert len(set(state.deck) | {c for h in state.hands for c in h}) == 90


def test_setup_simulation_shuffle_is_seeded() -> None:
    assert simulation(3, seed=5).hands == simulation(3, seed=5).hands
    assert simulation(3, seed=5).hands != simulation(3, seed=6).hands


def test_setup_row_order_is_kept() -> None:
    state = tracking()
    assert [h.colour for h in state.setup.horses] == ROWS


# --- the turn: bet -------------------------------------------------------------------------


def test_bet_is_optional_play_without_betting() -> None:
    state = play(tracking(), "red", "red 5")
    assert state.counters == () and state.turn == 1


def test_bet_goes_in_slot_of_current_fence() -> None:
    state = bet(tracking(), "green")
    assert [(c.player, c.horse, c.fence) for c in state.counters] == [(0, 2, 1)]


def test_bet_at_most_one_per_turn() -> None:
    state = bet(tracking(), "green")
    with pytest.raises(RuleViolation) as err:
        bet(state, "blue")
    assert err.value.code == "derby/one_bet_per_turn"


def test_bet_ruling_one_counter_per_slot_whoever_owns_it() -> None:
    state = play(bet(tracking(), "green"), "red", "red 1")  # A bets green at fence 1
    with pytest.raises(RuleViolation) as err:
        bet(state, "green")  # B, same slot
    assert err.value.code == "derby/slot_taken"
    assert "A" in err.value.message("en") and "A" in err.value.message("ja")


def test_bet_ruling_same_player_may_bet_same_horse_at_each_fence() -> None:
    state = tracking(2)
    state = play(bet(state, "pink"), "red", "red 9")  # A: pink at fence 1
    state = fill_fence(state, {h: v for h, v in FENCE1.items() if h != "red"})
    assert state.fence == 2 and state.turn == 0  # 8 plays: A, B, ... B resolved; A again
    state = bet(state, "pink")
    assert [(c.horse, c.fence) for c in state.counters] == [(5, 1), (5, 2)]


def test_bet_ruling_fifth_counter_is_usable_in_small_game() -> None:
    """With 5 counters in a 2–3 player game, a per-fence limit would strand the fifth."""
    state = tracking(2)
    pairs = (("red", "blue"), ("green", "yellow"), ("white", "pink"), ("brown", "purple"))
    for a_horse, b_horse in pairs:  # A bets four horses at fence 1, one per turn
        state = play(bet(state, a_horse), a_horse, f"{a_horse} 9")
        state = play(state, b_horse, f"{b_horse} {1 if b_horse == 'purple' else 9}")
    assert state.fence == 2 and state.turn == 0
    state = bet(state, "red")  # A's fifth counter, at fence 2
    assert state.counters_left(0) == 0


def test_bet_not_at_fence_5() -> None:
    state = tracking()
    for values in (FENCE1, *_later_fences()[:3]):
        state = fill_fence(state, values)
    assert state.fence == 5
    with pytest.raises(RuleViolation) as err:
        bet(state, "red")
    assert err.value.code == "derby/no_bet_at_fence_5"


def test_bet_only_on_running_horse() -> None:
    state = fill_fence(tracking(), FENCE1)  # purple fell
    with pytest.raises(RuleViolation) as err:
        bet(state, "purple")
    assert err.value.code == "derby/horse_fallen"


def test_bet_needs_counters_left() -> None:
    state = tracking(4)  # 4 counters each
    # A (seat 0) bets on each of its turns; fence 1 needs 8 plays, so A acts at plays 1 and 5.
    state = play(bet(state, "red"), "red", "red 9")
    state = fill_fence(state, {"blue": 9, "green": 9, "yellow": 9})
    state = play(bet(state, "blue"), "white", "white 9")
    state = fill_fence(state, {"pink": 9, "brown": 9, "purple": 0})  # purple falls
    assert state.fence == 2 and state.turn == 0
    state = play(bet(state, "red"), "red", "red 8")
    state = fill_fence(state, {"blue": 8, "green": 8, "yellow": 8})
    state = play(bet(state, "blue"), "white", "white 8")
    state = fill_fence(state, {"pink": 8, "brown": 0})  # brown falls
    assert state.fence == 3 and state.counters_left(0) == 0
    assert state.turn == 3  # D to act; come round to A
    state = play(state, "red", "red 7")
    with pytest.raises(RuleViolation) as err:
        bet(state, "green")
    assert err.value.code == "derby/no_counters_left"
    assert engine.legal_bet_horses(state) == ()


def test_bet_out_of_turn_refused() -> None:
    with pytest.raises(NotYourTurn) as err:
        engine.apply(tracking(), Bet(1, 0))
    assert err.value.code == "derby/not_your_turn"


# --- the turn: play a card -----------------------------------------------------------------


def test_card_coloured_only_on_own_horse() -> None:
    with pytest.raises(RuleViolation) as err:
        engine.apply(tracking(), PlayCard(0, ROWS.index("blue"), card("red 3")))
    assert err.value.code == "derby/card_wrong_horse"
    assert "赤 3" in err.value.message("ja") and "Red 3" in err.value.message("en")


def test_card_black_on_any_running_horse() -> None:
    state = play(tracking(), "yellow", "black 3")
    assert state.top_card(1, ROWS.index("yellow")) == card("black 3")


def test_card_black_not_on_fallen_horse() -> None:
    state = fill_fence(tracking(), FENCE1)
    with pytest.raises(RuleViolation) as err:
        play(state, "purple", "black 3")
    assert err.value.code == "derby/horse_fallen"


def test_card_stacking_only_top_card_counts() -> None:
    state = play(tracking(), "red", "black 0")  # red would fall on 0 ...
    state = play(state, "red", "red 9")  # ... but red 9 now lies on top
    state = fill_fence(state, {h: 5 for h in ROWS[1:]})  # ties at 5: purple (row 8) falls
    assert state.columns[0][0] == (card("black 0"), card("red 9"))
    assert state.fallen[0] is None and state.fallen[7] == 1


def test_card_each_card_exists_once() -> None:
    state = play(tracking(), "red", "red 7")
    with pytest.raises(RuleViolation) as err:
        play(state, "red", "red 7")
    assert err.value.code == "derby/card_already_played"


def test_card_of_fallen_horse_still_counts_as_played() -> None:
    state = fill_fence(tracking(), FENCE1)  # purple 2 fell with purple
    assert card("purple 2") in state.played
    assert card("purple 2") not in engine.legal_cards(state, ROWS.index("red"))


def test_card_simulation_must_be_in_hand() -> None:
    state = simulation(3, seed=2)
    missing = next(c for c in full_deck() if c not in state.hands[0] and c.is_black)
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, PlayCard(0, 0, missing))
    assert err.value.code == "derby/card_not_in_hand"


def test_card_unknown_card_and_horse_are_malformed() -> None:
    with pytest.raises(InvalidAction) as err:
        action_from_dict({"type": "play", "player": 0, "horse": 0, "card": "gold:3"})
    assert err.value.code == "derby/unknown_card"
    with pytest.raises(InvalidAction) as err:
        engine.apply(tracking(), PlayCard(0, 8, Card("red", 1)))
    assert err.value.code == "derby/unknown_horse"
    with pytest.raises(InvalidAction) as err:
        action_from_dict({"type": "play", "player": "0", "horse": 0, "card": "red:3"})
    assert err.value.params["field"] == "player"


def test_play_out_of_turn_refused() -> None:
    with pytest.raises(NotYourTurn):
        engine.apply(tracking(), PlayCard(2, 0, card("red 1")))


# --- resolution ----------------------------------------------------------------------------


def test_resolve_not_before_every_running_horse_has_a_card() -> None:
    state = fill_fence(tracking(), {h: v for h, v in FENCE1.items() if h != "brown"})
    state = play(state, "red", "red 0")  # stacked: red still only one slot
    assert state.fence == 1 and all(f is None for f in state.fallen)


def test_resolve_immediately_when_column_full_lowest_falls() -> None:
    state = fill_fence(tracking(), FENCE1)
    assert state.fence == 2
    assert state.fallen == (None,) * 7 + (1,)


def test_resolve_tie_farthest_from_fence_falls() -> None:
    values = {h: 7 for h in ROWS}
    values["blue"] = values["pink"] = 1
    state = fill_fence(tracking(), values)
    assert state.fallen[ROWS.index("pink")] == 1  # row 6 beats row 2 to the ground
    assert state.fallen[ROWS.index("blue")] is None


def test_resolve_fallen_horse_needs_no_card_at_later_fences() -> None:
    state = fill_fence(tracking(), FENCE1)
    state = fill_fence(state, {h: 1 for h in ROWS[:7]})  # 7 cards fill fence 2
    assert state.fence == 3 and state.fallen[6] == 2  # tie at 1: brown, the farthest


def test_resolve_fallen_horse_counters_are_lost() -> None:
    state = play(bet(tracking(), "purple"), "purple", "purple 0")
    assert engine.scores(state) == (4, 0, 0)
    state = fill_fence(state, {h: 5 for h in ROWS[:7]})
    assert state.fallen[7] == 1
    assert engine.scores(state) == (0, 0, 0)
    assert state.counters_left(0) == 4  # the counter is gone, not returned


def test_resolve_happens_before_discard_so_new_fallen_cards_can_go() -> None:
    state = fill_fence(tracking(), {h: v for h, v in FENCE1.items() if h != "purple"})
    last = PlayCard(state.turn, 7, card("purple 2"), discard_count=2)
    after = engine.apply(state, last)  # purple falls with this very card, then 2 discards
    assert after.fallen[7] == 1 and after.discarded == 2


def test_invariant_after_fence_k_eight_minus_k_running() -> None:
    state = tracking()
    for k, values in enumerate((FENCE1, *_later_fences()), start=1):
        state = fill_fence(state, values)
        assert len(state.running) == 8 - k


# --- pass, discard, draw -------------------------------------------------------------------


def test_pass_ruling_tracking_refused_while_every_card_is_playable() -> None:
    with pytest.raises(RuleViolation) as err:
        engine.apply(tracking(), Pass(0))
    assert err.value.code == "derby/pass_not_allowed"
    assert not engine.can_pass(tracking())


def test_pass_ruling_tracking_allowed_once_a_horse_fell() -> None:
    state = fill_fence(tracking(), FENCE1)
    player = state.turn
    state = engine.apply(state, Pass(player, discard_count=3))
    assert state.turn == (player + 1) % 3 and state.fence == 2 and state.discarded == 3


def test_pass_simulation_only_without_playable_card() -> None:
    state = simulation(3, seed=4)
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, Pass(0))
    assert err.value.code == "derby/pass_not_allowed"


def test_discard_only_cards_of_fallen_horses() -> None:
    with pytest.raises(RuleViolation) as err:
        engine.apply(tracking(), PlayCard(0, 0, card("red 1"), discard_count=1))
    assert err.value.code == "derby/discard_nothing_fallen"
    state = simulation(3, seed=4)
    hand = state.hands[0]
    playable = next(c for c in hand if not c.is_black)
    keep = next(c for c in hand if c != playable)
    with pytest.raises(RuleViolation) as err:
        engine.apply(
            state,
            PlayCard(0, ROWS.index(playable.colour), playable, discard=(keep,)),
        )
    assert err.value.code == "derby/discard_running_horse"


def test_discard_tracking_bounded_by_unknown_cards_of_fallen_horses() -> None:
    state = fill_fence(tracking(), FENCE1)  # purple fell; purple 2 is played: 9 unknown
    assert engine.unknown_fallen_cards(state) == 9
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, PlayCard(state.turn, 0, card("red 0"), discard_count=8))
    assert err.value.code == "derby/discard_too_many"


def test_discard_the_turns_limit_is_the_largest_any_action_allows() -> None:
    """Discard (step 4, optional): one count per turn, up to what a pass or a card allows."""
    start = tracking()
    assert engine.turn_discard_limit(start) == 0  # nothing fallen, no card fills fence 1
    seven = fill_fence(start, dict(list(FENCE1.items())[:7]))
    # purple's card fills the column and purple falls before the discard: a hand of 8 less
    # the card played
    assert engine.turn_discard_limit(seven) == 7
    assert engine.can_pass(seven) is False
    fell = fill_fence(start, FENCE1)  # purple fell: 9 of its cards unseen
    limits = [engine.discard_limit(fell, Pass(fell.turn))]
    limits += [
        engine.discard_limit(fell, PlayCard(fell.turn, h, c))
        for h in engine.legal_play_horses(fell)
        for c in engine.legal_cards(fell, h)
    ]
    assert engine.turn_discard_limit(fell) == max(limits) == 8  # a pass keeps all 8 cards
    engine.apply(fell, Pass(fell.turn, discard_count=8))
    with pytest.raises(RuleViolation):
        engine.apply(fell, Pass(fell.turn, discard_count=9))
    assert engine.turn_discard_limit(simulation()) == 0  # a simulation lists the cards


def test_discard_the_pile_is_exact_until_a_discard_could_go_unrecorded() -> None:
    """What the tracker records: discards as a count; the pile is exact before the first fall
    (no discard is possible), an upper bound after it, and exact in a simulation or at 0."""
    state = tracking()
    assert engine.pile_exact(state)
    state = fill_fence(state, dict(list(FENCE1.items())[:7]))
    assert engine.pile_exact(state) and state.pile == 90 - 24 - 7
    state = play(state, "purple", "purple 2")  # purple falls
    assert not engine.pile_exact(state)
    assert engine.pile_exact(replace(state, pile=0))
    assert engine.pile_exact(fill_fence(simulation(3, seed=2), {}))


def test_draw_back_up_to_eight_and_pile_shrinks() -> None:
    state = simulation(2, seed=9)
    hand = state.hands[0]
    c = hand[0]
    horse = 0 if c.is_black else ROWS.index(c.colour)
    after = engine.apply(state, PlayCard(0, horse, c))
    assert len(after.hands[0]) == 8 and after.pile == state.pile - 1
    assert after.hands[0][-1] == state.deck[0]
    tracked = play(tracking(), "red", "red 1")
    assert tracked.pile == 90 - 24 - 1


def test_draw_stops_when_pile_is_empty() -> None:
    state = tracking(5)
    assert state.pile == 50
    state = engine.apply(state, PlayCard(0, 0, card("red 0")))
    assert state.pile == 49
    # the pile never goes below zero, hands just shrink
    empty = replace(state, pile=0)
    assert engine.apply(empty, PlayCard(1, 1, card("blue 0"))).pile == 0
    assert engine.can_pass(empty)  # ruling: with an empty pile a hand may be empty


# --- the end and scoring -------------------------------------------------------------------


def _later_fences() -> list[dict[str, int]]:
    """Fences 2–5 after FENCE1: brown, pink, white, yellow fall in turn."""
    return [
        {"red": 6, "blue": 7, "green": 8, "yellow": 9, "white": 5, "pink": 3, "brown": 0},
        {"red": 7, "blue": 8, "green": 9, "yellow": 5, "white": 6, "pink": 0},
        {"red": 8, "blue": 9, "green": 5, "yellow": 6, "white": 1},
        {"red": 9, "blue": 5, "green": 6, "yellow": 2},
    ]


def test_end_after_fence_5_three_finishers() -> None:
    state = tracking()
    for values in (FENCE1, *_later_fences()):
        state = fill_fence(state, values)
    assert state.ended == "fence5" and engine.is_over(state)
    assert [ROWS[h] for h in engine.finishers(state)] == ["red", "blue", "green"]
    with pytest.raises(GameOver):
        play(state, "red", "red 0")
    assert engine.current_player(state) is None


def test_end_ruling_referee_declares_no_cards_left_in_tracking() -> None:
    state = replace(fill_fence(tracking(), FENCE1), pile=0)
    assert not engine.no_cards_needs_confirm(state)
    state = engine.apply(state, NoCardsLeft())
    assert state.ended == "no_cards"
    assert len(engine.finishers(state)) == 7


def test_end_ruling_no_cards_left_while_the_pile_counts_cards_needs_confirming() -> None:
    state = fill_fence(tracking(), FENCE1)
    assert state.pile > 0 and engine.no_cards_needs_confirm(state)
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, NoCardsLeft())
    assert err.value.code == "derby/no_cards_left_pile"
    assert err.value.params["pile"] == state.pile
    ended = engine.apply(state, NoCardsLeft(confirm=True))
    assert ended.ended == "no_cards" and len(engine.finishers(ended)) == 7
    assert GAME.legal_actions(state, REFEREE) == [NoCardsLeft(confirm=True)]


def test_end_ruling_a_rules_version_1_table_ends_without_the_confirmation() -> None:
    """Tables recorded before the confirmation existed replay as they were played."""
    setup = DerbySetup.default(["A", "B", "C"])
    assert GAME.info.rules_versions == (1, 2)
    old = GAME.initial_state_for(setup, 1)
    assert old.pile > 0 and not engine.no_cards_needs_confirm(old)
    assert engine.apply(old, NoCardsLeft()).ended == "no_cards"
    assert GAME.initial_state_for(setup, 2) == GAME.initial_state(setup)


def test_discard_a_misspelt_discard_count_is_refused_not_dropped() -> None:
    """``discard_cont`` would otherwise record a play without its discard: the pile's count
    goes wrong and no one notices."""
    raw = {"type": "play", "player": 0, "horse": 1, "card": "blue:2", "discard_cont": 3}
    with pytest.raises(InvalidAction) as err:
        action_from_dict(raw)
    assert err.value.code == "input/unknown_field"
    assert err.value.params["field"] == "discard_cont"
    assert "discard_count" in err.value.message("en")


def test_no_cards_left_takes_no_field_of_another_action() -> None:
    """A bet typed with the wrong type must not end the race (its fields are refused)."""
    with pytest.raises(InvalidAction) as err:
        action_from_dict({"type": "no_cards_left", "player": 0, "horse": 5})
    assert err.value.code == "input/unknown_field" and err.value.params["field"] == "horse"
    with pytest.raises(InvalidAction) as err:
        action_from_dict({"type": "no_cards_left", "confirm": "yes"})
    assert err.value.code == "derby/malformed_action"


def test_end_ruling_simulation_ends_when_pile_empty_and_nobody_can_play() -> None:
    with pytest.raises(RuleViolation) as err:
        engine.apply(simulation(), NoCardsLeft())
    assert err.value.code == "derby/no_cards_left_tracking_only"


def test_scoring_4_3_2_1_by_fence_of_placement() -> None:
    state = tracking(2)
    state = play(bet(state, "red"), "blue", "blue 9")  # A red@1
    state = fill_fence(state, {h: v for h, v in FENCE1.items() if h != "blue"})
    assert state.fence == 2 and state.turn == 0
    state = play(bet(state, "red"), "red", "red 8")  # A red@2 (A again after 8 plays)
    state = play(bet(state, "blue"), "blue", "blue 8")  # B blue@2
    state = fill_fence(state, {"green": 8, "yellow": 1, "white": 8, "pink": 8, "brown": 0})
    state = play(bet(state, "red"), "red", "red 7")  # fence 3, B's or A's turn
    state = fill_fence(state, {"blue": 7, "green": 2, "yellow": 7, "white": 7, "pink": 0})
    state = play(bet(state, "green"), "red", "red 6")  # fence 4
    sc = engine.scores(state)
    by_player = {p: 0 for p in range(2)}
    for c in state.counters:
        by_player[c.player] += {1: 4, 2: 3, 3: 2, 4: 1}[c.fence]
    assert sc == (by_player[0], by_player[1])
    assert sc == (4 + 3, 3 + 2 + 1)  # A: red@1, red@2; B: blue@2, red@3, green@4


def test_scoring_ruling_equal_totals_share_the_win() -> None:
    state = play(bet(tracking(2), "red"), "red", "red 9")  # A red@1: 4
    state = play(bet(state, "blue"), "blue", "blue 9")  # B blue@1: 4
    assert engine.scores(state) == (4, 4)
    assert engine.winners(state) == (0, 1)


# --- legal-next helpers --------------------------------------------------------------------


def test_legal_next_whose_turn_and_what() -> None:
    state = bet(tracking(), "red")
    assert engine.current_player(state) == 0
    assert engine.legal_bet_horses(state) == ()  # already bet this turn
    state = play(state, "red", "red 4")
    assert engine.current_player(state) == 1
    assert 0 not in engine.legal_bet_horses(state)  # red's fence-1 slot is taken
    assert len(engine.legal_cards(state, 0)) == 9 + 10  # red minus red 4, all black
    assert engine.legal_play_horses(state) == tuple(range(8))


def test_view_hides_hands_from_viewers_in_simulation() -> None:
    state = simulation()
    assert engine.view(state, VIEWER).hands == ((), (), ())
    assert engine.view(state, VIEWER).deck == ()
    assert engine.view(state, REFEREE) == state


def test_view_shows_a_seat_only_its_own_hand() -> None:
    state = simulation()
    seen = engine.view(state, Role.seat_of(1))
    assert seen.hands[1] == state.hands[1] and seen.hands[0] == () and seen.hands[2] == ()
    assert seen.deck == ()


def test_view_hides_the_seed_that_would_deal_the_hands_again() -> None:
    state = simulation(seed=1234)
    for role in (VIEWER, Role.seat_of(0)):
        assert engine.view(state, role).setup.seed == engine.HIDDEN_SEED
    assert engine.view(state, REFEREE).setup.seed == 1234


def test_actions_round_trip_through_dicts() -> None:
    actions = [
        Bet(1, 3),
        PlayCard(0, 2, card("black 4"), discard_count=2),
        PlayCard(2, 1, card("blue 0"), discard=(card("red 1"),)),
        Pass(1, discard_count=1),
        NoCardsLeft(),
        NoCardsLeft(confirm=True),
    ]
    for a in actions:
        assert action_from_dict(a.to_dict()) == a
        assert action_from_dict(a.to_dict()).to_dict() == a.to_dict()


def test_random_simulated_races_end_a_hand_of_fallen_horses_cards_may_be_discarded_on_a_pass() -> (
    None
):
    """Rules 2 and 4: a player with no playable card passes and may discard fallen horses'
    cards, then draws back up to 8. ``legal_actions`` offers that discard, so random play
    over it never sticks on a hand of dead cards with the pile not out."""
    import random

    from aids.games.derby import engine as derby_engine
    from aids.games.derby.model import DerbySetup as Setup

    for seed in range(60):
        rng = random.Random(seed)
        state = derby_engine.initial_state(
            Setup.default(["A", "B", "C", "D"][: 2 + seed % 3], mode="simulation", seed=seed)
        )
        for _ in range(3000):
            if state.ended:
                break
            state = derby_engine.apply(state, rng.choice(derby_engine.legal_actions(state)))
        assert state.ended, f"seed {seed} did not end"
