"""Issue 19, "At the table": "Move and end turn" is one action (``Travel(..., end=True)``), so
it can never half-happen. The engine checks it as the movement (rules "Movement",
shared/rules/rally.md) then the end of the turn (rule "End of a turn": discard down to the
hand size); it is refused whole when either is refused."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from aids.core.errors import InvalidAction, RuleViolation
from aids.games.base import Role
from aids.games.rally import GAME, engine
from aids.games.rally.describe import describe
from aids.games.rally.model import Draw, EndTurn, Ferry, RallyState, Travel, action_from_dict
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.games.rally.helpers import at, drawn, move, play, start


def test_move_and_end_turn_is_the_movement_then_end_turn_in_one_action() -> None:
    """Rules "Movement" + "End of a turn": one action gives the state of the two."""
    state = drawn(start())
    both = play(state, Travel(0, ("20",), "nihonmatsu"), EndTurn(0))
    one = engine.apply(state, Travel(0, ("20",), "nihonmatsu", end=True))
    assert one == both
    assert one.turn == 1 and one.phase == "draw" and one.turns[-1].to == "nihonmatsu"


def test_move_and_end_turn_discards_down_to_the_hand_size_in_tracking() -> None:
    """Rule "End of a turn": a tracked hand over its size is cut at the end, as EndTurn does."""
    state = drawn(start())
    state = replace(state, hand_sizes=(9, *state.hand_sizes[1:]))
    one = engine.apply(state, Travel(0, ("20",), "nihonmatsu", end=True))
    assert one == play(state, Travel(0, ("20",), "nihonmatsu"), EndTurn(0))
    assert one.hand_sizes[0] == state.machine(0).hand


def test_move_and_end_turn_is_refused_whole_when_the_movement_is_refused() -> None:
    """Rule "Movement" (the car stops at a town within reach): nothing of it happens."""
    state = drawn(start())
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, Travel(0, ("30",), "fukushima-nishi", end=True))
    assert err.value.code == "rally/out_of_reach"


def test_move_and_end_turn_is_refused_whole_when_a_simulation_must_choose_discards() -> None:
    """Rule "End of a turn": a simulation's player chooses the discards, so the one action
    that ends the turn without them is refused (and not offered), the movement with it."""
    state = drawn(start(mode="simulation", seed=3))
    hand = state.hands[0]
    extra = tuple(sorted(hand + state.pile[:4]))  # 11 cards: 6 over a hand of 5
    state = replace(state, hands=(extra, *state.hands[1:]),
                    hand_sizes=(len(extra), *state.hand_sizes[1:]))  # fmt: skip
    travel = next(a for a in engine.legal_actions(state, Role.seat_of(0)) if isinstance(a, Travel))
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, replace(travel, end=True))
    assert err.value.code == "rally/discard_count"
    assert not any(
        isinstance(a, Travel) and a.end for a in engine.legal_actions(state, Role.seat_of(0))
    )


def test_move_and_end_turn_to_the_goal_ends_the_turn_once() -> None:
    """Ruling "arrival": reaching the goal ends the car's turn; ``end`` does not end the next
    car's turn too."""
    state = drawn(at(start(3, goal="fukushima-nishi"), 0, "nihonmatsu"))
    one = engine.apply(state, Travel(0, ("20",), "fukushima-nishi", end=True))
    assert one == move(state, ("20",), "fukushima-nishi")
    assert one.arrived == (0,) and one.turn == 1 and one.phase == "draw"


def test_move_and_end_turn_round_trips_and_old_logs_read_as_before() -> None:
    """The event log: the action's dict keeps ``end`` only when set, so every stored travel
    reads back unchanged; a malformed ``end`` names its field."""
    action = Travel(0, ("50", "top"), "sendai", end=True)
    assert action_from_dict(action.to_dict()) == action
    assert "end" not in Travel(0, ("20",), "motomiya").to_dict()
    old = {"type": "travel", "seat": 0, "cards": ["20"], "to": "motomiya"}
    assert action_from_dict(old) == Travel(0, ("20",), "motomiya")
    with pytest.raises(InvalidAction) as err:
        action_from_dict(old | {"end": "yes"})
    assert err.value.code == "rally/malformed" and err.value.params["field"] == "end"
    with pytest.raises(InvalidAction):  # a Python caller's object goes through its dict form
        action_from_dict(Travel(0, ("20",), "motomiya", end="yes").to_dict())  # type: ignore[arg-type]


def test_move_and_end_turn_says_both_in_the_log() -> None:
    """The log line of the one action names the movement and the end of the turn."""
    state = drawn(start())
    line = describe(state, Travel(0, ("20",), "nihonmatsu", end=True), "en")
    assert "Nihonmatsu" in line and "ends the turn" in line
    assert "手番を終了" in describe(state, Travel(0, ("20",), "nihonmatsu", end=True), "ja")


def test_move_and_end_turn_is_one_log_entry_and_replay_equals_the_cached_state(
    tmp_path: Path,
) -> None:
    """The event log is the truth: one write, one entry; the fold of the stored log equals
    the state the service cached."""
    service = TableService(SqliteStore(tmp_path / "aids.sqlite3"), engines())
    setup = GAME.setup_to_dict(GAME.default_setup(["Aki", "Ben"], "en"))
    info, key = service.create("rally", "One write", setup)
    pid = info.public_id
    snap = service.record(pid, key, 0, Draw(0).to_dict())
    state = service.replay(pid)
    travel = next(
        a for a in engine.legal_actions(state, Role.seat_of(0)) if isinstance(a, Travel) and a.end
    )
    snap = service.record(pid, key, snap.seq, travel.to_dict())
    assert snap.seq == 2 and snap.log[-1].action == travel
    assert service.replay(pid) == snap.state and snap.state.turn == 1


def _at_aomori(**kw: object) -> RallyState:
    """Aki at Aomori (a port) at the start of the turn, drawn."""
    return drawn(at(start(**kw), 0, "aomori"))


def test_ferry_and_end_turn_is_the_crossing_then_end_turn_in_one_action() -> None:
    """Rule "Ferry" (the crossing is the whole turn; issue 28: no End turn left to tap):
    ``Ferry(..., end=True)`` gives the state of the crossing then EndTurn, the turn's record
    marked as crossed; the dict form round-trips and the log says the turn ended."""
    state = _at_aomori()
    one = engine.apply(state, Ferry(0, "muroran", end=True))
    assert one == play(state, Ferry(0, "muroran"), EndTurn(0))
    assert one.turn == 1 and one.towns[0] == "muroran" and one.turns[-1].ferry
    action = Ferry(0, "muroran", end=True)
    assert action_from_dict(action.to_dict()) == action
    assert Ferry(0, "muroran").to_dict() == {"type": "ferry", "seat": 0, "to": "muroran"}
    assert "ends the turn" in describe(state, action, "en")
    assert action in engine.legal_actions(state, Role.seat_of(0))


def test_ferry_and_end_turn_is_refused_whole_when_a_simulation_must_choose_discards() -> None:
    """Rules "Ferry" + "End of a turn": a simulation's hand over its size must choose its
    discards, so the crossing that ends the turn without them is refused and not offered."""
    state = _at_aomori(mode="simulation", seed=3)
    extra = tuple(sorted(state.hands[0] + state.pile[:4]))
    state = replace(state, hands=(extra, *state.hands[1:]),
                    hand_sizes=(len(extra), *state.hand_sizes[1:]))  # fmt: skip
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, Ferry(0, "muroran", end=True))
    assert err.value.code == "rally/discard_count"
    legal = engine.legal_actions(state, Role.seat_of(0))
    assert Ferry(0, "muroran") in legal and Ferry(0, "muroran", end=True) not in legal


def test_a_ferry_flag_that_is_not_a_bool_is_refused() -> None:
    """The input boundary: ``end`` is true or false, never a string read as true."""
    with pytest.raises(InvalidAction) as err:
        action_from_dict({"type": "ferry", "seat": 0, "to": "muroran", "end": "yes"})
    assert err.value.code == "rally/malformed"


def test_travel_fault_gives_the_engines_own_reason_for_staged_cards() -> None:
    """Rules "Movement" (each card one action; rain: one card; TOP SPEED not alone), issue 28:
    the page asks ``travel_fault`` for the reason the cards tapped are no movement, and it is
    the reason ``apply`` gives: with one action left and no rain, the actions."""
    state = replace(drawn(start()), actions_left=1)
    fault = engine.travel_fault(state, 0, ("30", "50"))
    assert fault is not None and fault.code == "rally/no_actions"
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, Travel(0, ("30", "50"), "nihonmatsu"))
    assert err.value.code == fault.code
    rained = replace(drawn(start()), rain=(True, False, False))
    assert engine.travel_fault(rained, 0, ("30", "50")).code == "rally/rain"  # type: ignore[union-attr]
    assert engine.travel_fault(rained, 0, ("50",)) is None
