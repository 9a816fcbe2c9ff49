"""The one error hierarchy, split by cause.

Every error carries a stable ``code`` (``derby/slot_taken``) and the parameters of its message;
``message(lang)`` renders it from the catalogue in Japanese or English. Nothing is written when
any of these is raised: engines validate before they build a new state, and the table service
writes only after the engine accepted the action.
"""

from __future__ import annotations

from aids.core.i18n import t


class AidsError(Exception):
    """Base of every error the referee or a player can see."""

    def __init__(self, code: str, /, **params: object) -> None:
        self.code = code
        self.params = params
        super().__init__(f"{code}: {self.message('en')}")

    def message(self, lang: str) -> str:
        params = dict(self.params)
        card = params.get("card")
        if isinstance(card, str) and card.count(":") == 1:  # "red:7" → "赤 7" / "Red 7"
            colour, value = card.split(":")
            params["card"] = f"{t(f'colours.{colour}', lang)} {value}"
        return t(f"errors.{self.code}", lang, **params)


class InvalidAction(AidsError):
    """Malformed input: wrong type, unknown horse, a field missing from a file."""


class RuleViolation(AidsError):
    """Well-formed but illegal: the code names the rule."""


class NotYourTurn(AidsError):
    """A player acted out of turn."""


class GameOver(AidsError):
    """The game has ended; no more actions."""


class StaleState(AidsError):
    """Optimistic-concurrency conflict: the write was made against an older sequence number."""


class Forbidden(AidsError):
    """The key given does not allow this (a viewer tried to write)."""


class NotFound(AidsError):
    """No such table."""
