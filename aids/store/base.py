"""The store interface: tables, their append-only event logs and their keys.

The table service talks only to this interface; ``aids.store.sqlite`` is the embedded default
and ``tests/store/test_conformance.py`` is the suite every implementation must pass (a
PostgreSQL store for multi-table events will run the same suite). Rows are plain values: the
store knows nothing of games, roles or rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int  # the store's own id (0 before insertion)
    public_id: str
    kind: str
    title: str
    created_at: str
    setup: dict[str, Any]
    rules_version: int


@dataclass(frozen=True, slots=True)
class EventRow:
    seq: int
    kind: str  # action | undo | redo
    payload: dict[str, Any] | None
    created_at: str
    actor: str = "referee"  # the role whose key made the write: referee | seat:N


@dataclass(frozen=True, slots=True)
class KeyRow:
    """A key's hash for one role of one table; a revoked key opens nothing."""

    role: str  # referee | seat:N
    key_hash: str
    created_at: str
    revoked_at: str | None = None


class Store(Protocol):
    """Persistence of tables. Every method is atomic; ``append`` is the only log write."""

    def insert_table(
        self, row: TableRow, keys: list[KeyRow], events: list[EventRow] | None = None
    ) -> TableRow:
        """Create a table with its keys (and, for an import, its whole log) atomically.

        Raises ``InvalidAction("import/exists")`` if the public id is taken.
        """
        ...

    def exists(self, public_id: str) -> bool: ...

    def get_table(self, public_id: str) -> TableRow:
        """The table's row; ``NotFound("table/not_found")`` if there is none."""
        ...

    def list_tables(self) -> list[tuple[TableRow, int]]:
        """Every table, newest first, with its last sequence number."""
        ...

    def last_seq(self, table_id: int) -> int: ...

    def events(self, table_id: int, after: int = 0) -> list[EventRow]: ...

    def append(
        self, table_id: int, expected_seq: int, event: EventRow, *, key_hash: str | None = None
    ) -> None:
        """Append ``event`` as ``expected_seq + 1``, in one transaction that checks the log
        still ends at ``expected_seq`` (else ``StaleState``) and, given ``key_hash``, that a
        live key with that hash is held by ``event.actor`` (else ``Forbidden``)."""
        ...

    def keys(self, table_id: int, *, include_revoked: bool = False) -> list[KeyRow]: ...

    def replace_key(
        self, table_id: int, new: KeyRow, revoked_at: str, *, by: str | None = None
    ) -> None:
        """Revoke every live key of ``new.role`` and add ``new``, in one transaction; given
        ``by`` (a key hash), only if that is a live referee key (else ``Forbidden``)."""
        ...

    def revoke_keys(
        self, table_id: int, role: str, revoked_at: str, *, by: str | None = None
    ) -> int:
        """Revoke every live key of ``role``; returns how many. ``by`` as in ``replace_key``."""
        ...

    def close(self) -> None: ...
