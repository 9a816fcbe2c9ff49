"""Grand National Derby (Knizia): the pure rules engine."""

from __future__ import annotations

from typing import Any

from aids.games.derby import engine
from aids.games.derby.model import DerbySetup, DerbyState, action_from_dict


class DerbyRules:
    """The Derby as the table service sees it (see ``aids.games.base.GameRules``)."""

    kind = "derby"

    def setup_from_dict(self, raw: object) -> DerbySetup:
        return DerbySetup.from_dict(raw)

    def initial_state(self, setup: DerbySetup) -> DerbyState:
        return engine.initial_state(setup)

    def action_from_dict(self, raw: object) -> Any:
        return action_from_dict(raw)

    def apply(self, state: DerbyState, action: Any) -> DerbyState:
        return engine.apply(state, action)

    def is_over(self, state: DerbyState) -> bool:
        return engine.is_over(state)


RULES = DerbyRules()
