"""The embedded default store: one SQLite file, WAL, ``BEGIN IMMEDIATE`` for every write.

Connections live in a small pool: each operation borrows one, so a connection is used by one
thread at a time (safe to share between Streamlit's session threads, unlike a connection kept
in ``st.cache_resource``), and an idle connection stays open, so WAL is not checkpointed and
the file not reopened on every write. The ``(table_id, seq)`` primary key makes a second
writer against the same sequence number fail even if two processes race past the check.
"""

from __future__ import annotations

import json
import queue
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aids.core.errors import NotFound, StaleState

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    created_at TEXT NOT NULL,
    setup TEXT NOT NULL,
    referee_key_hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL CHECK (seq > 0),
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'redo')),
    payload TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
"""


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    public_id: str
    kind: str
    title: str
    created_at: str
    setup: dict[str, Any]
    referee_key_hash: str


@dataclass(frozen=True, slots=True)
class EventRow:
    seq: int
    kind: str  # action | undo | redo
    payload: dict[str, Any] | None
    created_at: str


class SqliteStore:
    """Tables and events in one SQLite file."""

    POOL_SIZE = 4

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        with self._connect() as conn:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """Borrow a connection (one thread at a time) and give it back afterwards."""
        try:
            conn = self._idle.get_nowait()
        except queue.Empty:
            conn = sqlite3.connect(
                self.path, timeout=10, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA synchronous=NORMAL")
        try:
            yield conn
        except BaseException:
            conn.close()  # a connection in an unknown state is not reused
            raise
        if conn.in_transaction or self._idle.qsize() >= self.POOL_SIZE:
            conn.close()
        else:
            self._idle.put(conn)

    def close(self) -> None:
        """Close the idle connections (tests and tools; the server keeps them)."""
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken up front so two writers queue instead of deadlocking."""
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # --- tables ---------------------------------------------------------------------------

    def insert_table(self, row: TableRow, events: list[EventRow] | None = None) -> TableRow:
        """Create a table (and, for an import, its whole log) atomically."""
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO tables (public_id, kind, title, created_at, setup, referee_key_hash)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    row.public_id,
                    row.kind,
                    row.title,
                    row.created_at,
                    json.dumps(row.setup, ensure_ascii=False),
                    row.referee_key_hash,
                ),
            )
            table_id = int(cur.lastrowid or 0)
            conn.executemany(
                "INSERT INTO events (table_id, seq, kind, payload, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(table_id, e.seq, e.kind, _dump(e.payload), e.created_at) for e in events or []],
            )
        return TableRow(
            table_id,
            row.public_id,
            row.kind,
            row.title,
            row.created_at,
            row.setup,
            row.referee_key_hash,
        )

    def exists(self, public_id: str) -> bool:
        with self._connect() as conn:
            hit = conn.execute("SELECT 1 FROM tables WHERE public_id = ?", (public_id,))
            return hit.fetchone() is not None

    def get_table(self, public_id: str) -> TableRow:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT id, public_id, kind, title, created_at, setup, referee_key_hash"
                " FROM tables WHERE public_id = ?",
                (public_id,),
            ).fetchone()
        if row is None:
            raise NotFound("table/not_found")
        return _table(row)

    def list_tables(self) -> list[tuple[TableRow, int]]:
        """Every table, newest first, with its last sequence number."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT t.id, t.public_id, t.kind, t.title, t.created_at, t.setup,"
                " t.referee_key_hash, COALESCE(MAX(e.seq), 0)"
                " FROM tables t LEFT JOIN events e ON e.table_id = t.id"
                " GROUP BY t.id ORDER BY t.created_at DESC, t.id DESC"
            ).fetchall()
        return [(_table(r[:7]), int(r[7])) for r in rows]

    # --- events ---------------------------------------------------------------------------

    def last_seq(self, table_id: int) -> int:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?", (table_id,)
            ).fetchone()
        return int(row[0])

    def events(self, table_id: int, after: int = 0) -> list[EventRow]:
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT seq, kind, payload, created_at FROM events"
                " WHERE table_id = ? AND seq > ? ORDER BY seq",
                (table_id, after),
            ).fetchall()
        return [EventRow(r[0], r[1], json.loads(r[2]) if r[2] else None, r[3]) for r in rows]

    def append(self, table_id: int, expected_seq: int, event: EventRow) -> None:
        """Append ``event`` as ``expected_seq + 1``; refuse if the log has moved on."""
        with self._write() as conn:
            row = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?", (table_id,)
            ).fetchone()
            actual = int(row[0])
            if actual != expected_seq:
                raise StaleState("table/stale", expected=expected_seq, actual=actual)
            try:
                conn.execute(
                    "INSERT INTO events (table_id, seq, kind, payload, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (table_id, event.seq, event.kind, _dump(event.payload), event.created_at),
                )
            except sqlite3.IntegrityError:  # another process won the same seq
                raise StaleState("table/stale", expected=expected_seq, actual=event.seq) from None


def _dump(payload: dict[str, Any] | None) -> str | None:
    return None if payload is None else json.dumps(payload, ensure_ascii=False)


def _table(row: tuple[Any, ...]) -> TableRow:
    return TableRow(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6])
