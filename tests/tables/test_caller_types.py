"""A Python caller's wrongly typed value is a clear refusal, never an AttributeError."""

from __future__ import annotations

from typing import Any

import pytest

from aids.core.errors import AidsError, InvalidAction
from aids.games.derby.model import Bet, NoCardsLeft
from aids.games.grand_national.model import Bet as GnBet
from aids.tables import TableService


@pytest.mark.parametrize("role", ["referee", "seat:0", None, 0])
def test_a_read_for_a_role_that_is_not_a_role_is_refused(
    service: TableService, derby_table: tuple[str, str], role: Any
) -> None:
    pid, _ = derby_table
    with pytest.raises(InvalidAction) as err:
        service.snapshot(pid, role)
    assert err.value.code == "table/role_type"
    assert type(role).__name__ in err.value.message("en")


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (GnBet(0, 1, "win", 5), "input/unknown_field"),  # another game's action
        (Bet("0", "1"), "derby/malformed_action"),  # wrongly typed fields
        (NoCardsLeft(confirm="no"), "derby/malformed_action"),  # type: ignore[arg-type]
        (NoCardsLeft(confirm=1), "derby/malformed_action"),  # type: ignore[arg-type]
        ((0, 1), "derby/malformed_action"),
        ({1, 2}, "derby/malformed_action"),
        (None, "derby/malformed_action"),
    ],
)
def test_a_wrongly_typed_action_is_refused_and_nothing_is_written(
    service: TableService, derby_table: tuple[str, str], action: Any, code: str
) -> None:
    pid, key = derby_table
    with pytest.raises(AidsError) as err:
        service.record(pid, key, 0, action)
    assert err.value.code == code
    assert service.snapshot(pid).seq == 0
