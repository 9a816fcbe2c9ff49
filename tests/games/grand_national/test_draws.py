"""The card a horse draws after an action (``aids/games/grand_national/draws.py``): Jump cards
on fences and the water (the first turn too, and again after a Jump card's advance onto
another fence), Turf cards on horseshoes (not in the first turn, not after a card put it
there), and the horse a card's advance moved (the next in line when it carries a stamina
penalty). The sample track's fences: 5, 10, 15, …; horseshoes 7, 17, 27, 39, 46.

Horses as in ``test_rules.py``: 0 Red Rum (+6), 4 Corbiere (+5), 8 Amberleigh (+6).
"""

from __future__ import annotations

from dataclasses import replace

from aids.games.grand_national import engine
from aids.games.grand_national.draws import Draw, card_due
from aids.games.grand_national.model import Action, Card, GnState, Move
from tests.games.grand_national.helpers import placed_at, to_race


def due(state: GnState, action: Action) -> Draw | None:
    return card_due(state, action, engine.apply(state, action))


def test_a_horse_landing_on_a_fence_draws_a_jump_card_in_the_first_turn_too() -> None:
    assert due(to_race(), Move(0, 10, 1)) == Draw(0, "jump")


def test_a_horse_landing_in_the_water_jump_draws_a_jump_card() -> None:
    state = placed_at(to_race(), h0=36)
    assert due(state, Move(0, 8, 1)) == Draw(0, "jump")  # 44: the water


def test_no_turf_card_in_the_first_turn_but_on_a_horseshoe_later() -> None:
    assert due(to_race(), Move(0, 7, 1)) is None
    later = replace(to_race(), round=2)
    assert due(later, Move(0, 7, 1)) == Draw(0, "turf")


def test_a_jump_cards_advance_onto_another_fence_draws_again_onto_a_horseshoe_not() -> None:
    state = replace(placed_at(to_race(), h4=10), round=2)
    assert due(state, Card(4, "advance", 5)) == Draw(4, "jump")  # 15: Becher's
    assert due(state, Card(4, "advance", 7)) is None  # 17: a horseshoe, reached by a card


def test_the_horse_that_draws_is_the_one_the_advance_moved_not_the_penalised_one() -> None:
    state = placed_at(to_race(), h0=20, h4=10)
    state = engine.apply(state, Card(0, "penalty", 1))
    assert due(state, Card(0, "advance", 5)) == Draw(4, "jump")  # Corbiere: 10 → 15


def test_a_faller_and_other_effects_draw_nothing() -> None:
    state = placed_at(to_race(), h0=10)
    assert due(state, Card(0, "fall")) is None
    assert due(state, Card(0, "penalty", 1)) is None
