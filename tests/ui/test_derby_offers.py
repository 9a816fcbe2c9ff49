"""What the Derby page offers equals what the engine accepts (one source of truth).

The page never re-derives a limit: each choice it shows comes from a legal-next helper, and the
engine accepts every offered value and refuses the next one (the discard limit drifted once:
the page offered 8 while the engine allowed 7).
"""

from __future__ import annotations

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
    service, pid, key = table
    record_fence_1(service, pid, key)
    snap = service.snapshot(pid, REFEREE)
    state, seq = snap.state, snap.seq
    horse, code = ROWS.index("red"), "red:0"
    at = page(pid, key)
    at.pills(key=f"play_horse_{seq}").set_value(horse).run()
    at.pills(key=f"play_card_{seq}_{horse}").set_value(code).run()
    offered = at.number_input(key=f"discards_{seq}").max
    play = PlayCard(state.turn, horse, Card.parse(code))
    assert offered == engine.discard_limit(state, play) == 7  # a hand of 8, one card played
    engine.apply(state, PlayCard(state.turn, horse, play.card, discard_count=offered))
    with pytest.raises(RuleViolation) as err:
        engine.apply(state, PlayCard(state.turn, horse, play.card, discard_count=offered + 1))
    assert err.value.code == "derby/discard_too_many"
    passing = at.number_input(key=f"pass_discards_{seq}").max
    assert passing == engine.discard_limit(state, Pass(state.turn)) == 8  # nothing played
    with pytest.raises(RuleViolation):
        engine.apply(state, Pass(state.turn, discard_count=passing + 1))


def test_discards_offered_only_once_a_horse_has_fallen(table) -> None:
    _, pid, key = table
    at = page(pid, key)
    at.pills(key="play_horse_0").set_value(0).run()
    at.pills(key="play_card_0_0").set_value("red:3").run()
    assert not any(n.key == "discards_0" for n in at.number_input)
