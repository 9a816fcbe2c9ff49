"""The one error hierarchy, split by cause.

Every error carries a stable ``code`` (``<kind>/<rule>``, ``table/stale``) and the parameters
of its message; ``message(lang)`` renders it from the catalogue in Japanese or English (a
parameter that is ``Localized`` renders itself in that language). Nothing is written when any
of these is raised: engines validate before they build a new state, and the table service
writes only after the engine accepted the action.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from aids.core.i18n import t


@runtime_checkable
class Localized(Protocol):
    """A message parameter that renders itself per language (a card, a colour, a term)."""

    def localized(self, lang: str) -> str: ...


@dataclass(frozen=True, slots=True)
class OsReason:
    """Why the system refused a file, in the reader's language where the catalogue has the
    error (``os.ENOENT`` …), else in the system's own words."""

    name: str  # the errno's name, "ENOENT"; empty where the error has none
    words: str  # the system's own words, "No such file or directory"

    @classmethod
    def of(cls, exc: OSError) -> OsReason:
        name = errno.errorcode.get(exc.errno or 0, "")
        return cls(name, exc.strerror or type(exc).__name__)

    def localized(self, lang: str) -> str:
        said = t(f"os.{self.name}", lang) if self.name else ""
        return self.words if not said or said == f"os.{self.name}" else said

    def __str__(self) -> str:
        return self.words


@dataclass(frozen=True, slots=True)
class Size:
    """A number of bytes as a person reads it: "40 MB", "512 KB", "300 bytes"."""

    size: int

    def localized(self, lang: str) -> str:
        for unit, scale in (("mb", 1024 * 1024), ("kb", 1024)):
            if self.size >= scale:
                return t(f"size.{unit}", lang, n=f"{self.size / scale:,.4g}")
        return t("size.bytes", lang, n=self.size)


class AidsError(Exception):
    """Base of every error the referee or a player can see."""

    def __init__(self, code: str, /, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        """``code: message`` in English, rendered only when shown (engines raise and catch
        many of these while listing legal actions: a playout must not pay for the words)."""
        return f"{self.code}: {self.message('en')}"

    def message(self, lang: str) -> str:
        params = {
            name: value.localized(lang) if isinstance(value, Localized) else value
            for name, value in self.params.items()
        }
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


class DataError(AidsError):
    """A data file the program ships or loads (a seed, a map) contradicts itself."""


class StoreError(AidsError):
    """The data file cannot be used as it is (not ours, damaged, from a newer release)."""
