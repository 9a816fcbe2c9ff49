"""What the Derby page offers equals what the engine accepts (one source of truth).

The page never re-derives a limit: each choice it shows comes from a legal-next helper, and the
engine accepts every offered value and refuses the next one (the discard limit drifted once:
the page offered 8 while the engine allowed 7).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from aids.core.errors import RuleViolation
from aids.games.base import REFEREE
from aids.games.derby import engine
from aids.games.derby.describe import card_label, horse_label
from aids.games.derby.model import Card, DerbySetup, Pass, PlayCard
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.games.derby.helpers import FENCE1, ROWS
from tests.ui.conftest import new_app


@pytest.fixture
def table(app_db: Path) -> tuple[TableService, str, str]:
    service = TableService(SqliteStore(app_db), engines())
    info, key = service.create("derby", "Offers", DerbySetup.default(["A", "B"]).to_dict())
    return service, info.public_id, key


def page(pid: str, key: str) -> AppTest:
    return new_app(table=pid, key=key, lang="en")


def shown(label: str) -> str:
    """A pill's text as AppTest reports it: Streamlit draws a leading emoji as the pill's icon."""
    return label.split(" ", 1)[1]


def record_fence_1(service: TableService, pid: str, key: str) -> None:
    """Purple falls at fence 1 (eight own-colour cards)."""
    for seq, (colour, value) in enumerate(FENCE1.items()):
        turn = service.snapshot(pid).state.turn
        play = {"type": "play", "player": turn, "horse": ROWS.index(colour)}
        service.record(pid, key, seq, play | {"card": f"{colour}:{value}"})


def test_offered_bets_horses_and_cards_are_the_engine_helpers(table) -> None:
    service, pid, key = table
    record_fence_1(service, pid, key)
    state = service.snapshot(pid, REFEREE).state
    seq = service.snapshot(pid).seq
    at = page(pid, key)
    bets = [shown(horse_label(state, h)) for h in engine.legal_bet_horses(state)]
    assert at.pills(key=f"bet_horse_{seq}").options == bets and len(bets) == 7  # purple fell
    plays = [shown(horse_label(state, h)) for h in engine.legal_play_horses(state)]
    assert at.pills(key=f"play_horse_{seq}").options == plays
    horse = ROWS.index("red")
    at.pills(key=f"play_horse_{seq}").set_value(horse).run()
    offered = at.pills(key=f"play_card_{seq}_{horse}").options
    assert offered == [shown(card_label(c)) for c in engine.legal_cards(state, horse)]


def test_discard_limit_offered_is_the_limit_the_engine_enforces(table) -> None:
    """Discard rule (derby.md, a turn's step 4): one count for the turn, bounded by the
    engine's turn limit; the label states the chosen action's own limit, which apply enforces."""
    service, pid, key = table
    record_fence_1(service, pid, key)
    snap = service.snapshot(pid, REFEREE)
    state, seq = snap.state, snap.seq
    horse, code = ROWS.index("red"), "red:0"
    at = page(pid, key)
    field = at.number_input(key=f"discards_{seq}")
    assert field.max == engine.turn_discard_limit(state) == 8  # a pass discards from 8 cards
    assert "at most 8" in field.label
    with pytest.raises(RuleViolation):
        engine.apply(state, Pass(state.turn, discard_count=field.max + 1))
    at.pills(key=f"play_horse_{seq}").set_value(horse).run()
    at.pills(key=f"play_card_{seq}_{horse}").set_value(code).run()
    play = PlayCard(state.turn, horse, Card.parse(code))
    field = at.number_input(key=f"discards_{seq}")
    assert "at most 7" in field.label and engine.discard_limit(state, play) == 7  # one played
    engine.apply(state, replace(play, discard_count=7))
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, replace(play, discard_count=8))
    assert err.value.code == "derby/discard_too_many"


def test_discards_one_count_for_the_turn_never_a_second_field(table) -> None:
    """Discard rule: after a fall the turn has one discard count (no "if passing" field beside
    it), the same field before and after a card is chosen, and a count typed first is kept
    and recorded with the card (it is neither reset nor moved to another field)."""
    service, pid, key = table
    record_fence_1(service, pid, key)
    seq = service.snapshot(pid).seq
    at = page(pid, key)
    assert [n.key for n in at.number_input] == [f"discards_{seq}"]
    at.number_input(key=f"discards_{seq}").set_value(2).run()
    horse = ROWS.index("red")
    at.pills(key=f"play_horse_{seq}").set_value(horse).run()
    at.pills(key=f"play_card_{seq}_{horse}").set_value("red:0").run()
    assert [n.key for n in at.number_input] == [f"discards_{seq}"]
    assert at.number_input(key=f"discards_{seq}").value == 2
    at.button(key="play_go").click().run()
    assert not at.error, [e.value for e in at.error]
    state = service.snapshot(pid, REFEREE).state
    assert state.discarded == 2 and state.pile == 90 - 16 - 9 - 2


def test_a_pass_records_the_turns_discard_count(table) -> None:
    """Pass rule [ruling] (tracking: a pass once a horse has fallen): the pass takes the same
    one count."""
    service, pid, key = table
    record_fence_1(service, pid, key)
    seq = service.snapshot(pid).seq
    at = page(pid, key)
    at.number_input(key=f"discards_{seq}").set_value(3).run()
    at.button(key="pass_go").click().run()
    assert not at.error, [e.value for e in at.error]
    assert service.snapshot(pid, REFEREE).state.discarded == 3


def test_discards_offered_only_once_a_horse_has_fallen(table) -> None:
    _, pid, key = table
    at = page(pid, key)
    assert not at.number_input  # nothing has fallen, and no card fills fence 1 yet
    at.pills(key="play_horse_0").set_value(0).run()
    at.pills(key="play_card_0_0").set_value("red:3").run()
    assert not any(n.key == "discards_0" for n in at.number_input)


def test_discards_offered_when_this_card_may_fill_the_column(table) -> None:
    """Resolve before discard (derby.md step 3 before 4): with one horse left to fill the
    column, the card about to be played may make a horse fall, so the count is offered."""
    service, pid, key = table
    for seq, (colour, value) in enumerate(list(FENCE1.items())[:7]):
        turn = service.snapshot(pid).state.turn
        play = {"type": "play", "player": turn, "horse": ROWS.index(colour)}
        service.record(pid, key, seq, play | {"card": f"{colour}:{value}"})
    seq = service.snapshot(pid).seq
    at = page(pid, key)
    assert at.number_input(key=f"discards_{seq}").max == 7


def test_the_status_gives_the_pile_exactly_until_a_discard_could_go_unrecorded(table) -> None:
    """What the tracker records: discards by count; the pile is exact before any horse falls,
    and afterwards an upper bound (an unrecorded discard only makes it smaller)."""
    service, pid, key = table
    at = page(pid, key)
    status = next(h.proto.body for h in at.html if "draw pile" in h.proto.body)
    assert "draw pile 74" in status and "≈" not in status and "at most" not in status
    record_fence_1(service, pid, key)
    at = page(pid, key)
    status = next(h.proto.body for h in at.html if "draw pile" in h.proto.body)
    assert "draw pile at most 66" in status and "≈" not in status
