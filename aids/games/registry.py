"""The games the app knows, by kind."""

from __future__ import annotations

from aids.core.errors import InvalidAction
from aids.games.base import GameRules
from aids.games.derby import RULES as DERBY

GAMES: dict[str, GameRules] = {DERBY.kind: DERBY}


def rules_for(kind: str) -> GameRules:
    try:
        return GAMES[kind]
    except KeyError:
        raise InvalidAction("table/unknown_game", kind=str(kind)[:40]) from None
