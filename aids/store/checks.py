"""Checks both stores make of the rows they are handed, before writing any of them."""

from __future__ import annotations

from collections.abc import Sequence

from aids.core.errors import InvalidAction
from aids.store.base import PaperEntry, PaperWrite


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


def check_writes(writes: Sequence[PaperWrite]) -> None:
    """Several paper tables' entries written at once: each numbered on from its own seq
    (``check_numbered``), no table twice (``InvalidAction("paper/twice")``: two writes
    against one seq would be a stale write of the store's own making)."""
    seen: set[int] = set()
    for write in writes:
        if write.paper_id in seen:
            raise InvalidAction("paper/twice")
        seen.add(write.paper_id)
        check_numbered(write.entries, write.expected_seq)
