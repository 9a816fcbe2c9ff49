"""What the table service needs from a game: parse, start, apply. Engines stay pure."""

from __future__ import annotations

from typing import Any, Protocol


class GameRules(Protocol):
    """A game as the table service sees it. ``state``/``action`` types are the game's own."""

    kind: str

    def setup_from_dict(self, raw: object) -> Any: ...

    def initial_state(self, setup: Any) -> Any: ...

    def action_from_dict(self, raw: object) -> Any: ...

    def apply(self, state: Any, action: Any) -> Any: ...

    def is_over(self, state: Any) -> bool: ...
