"""Checks both stores make of the rows they are handed, before writing any of them."""

from __future__ import annotations

from collections.abc import Sequence

from aids.core.errors import InvalidAction
from aids.store.base import PaperEntry


def check_numbered(entries: Sequence[PaperEntry], after: int) -> None:
    """A paper table's result entries follow entry ``after`` one by one:
    ``InvalidAction("import/seq")`` at the first that skips or repeats a step.

    >>> check_numbered([PaperEntry(3, "confirmed", None, None, "host", "t")], 2)
    >>> check_numbered([PaperEntry(2, "confirmed", None, None, "host", "t")], 2)
    Traceback (most recent call last):
    aids.core.errors.InvalidAction: import/seq...
    """
    for seq, entry in enumerate(entries, after + 1):
        if entry.seq != seq:
            raise InvalidAction("import/seq", seq=entry.seq)
