"""The embedded default store: one SQLite file, WAL, ``BEGIN IMMEDIATE`` for every write.

Connections live in a small pool: each operation borrows one, so a connection is used by one
thread at a time (safe to share between Streamlit's session threads, unlike a connection kept
in ``st.cache_resource``), and an idle connection stays open, so WAL is not checkpointed and
the file not reopened on every write. The ``(table_id, seq)`` primary key makes a second
writer against the same sequence number fail even if two processes race past the check.
``synchronous=FULL``: an acknowledged action survives a power cut, not just a crash.

The file carries our ``application_id`` and a schema version (``user_version``); older files
are migrated in place when opened, a file of another program is refused untouched
(``aids.store.sqlite_file``). The meets and their paper tables: ``aids.store.sqlite_meets``.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from aids.core.errors import Forbidden, InvalidAction, NotFound, StaleState, StoreError
from aids.store.base import EventRow, FiguresRow, KeyRow, TableRow, figures_pair
from aids.store.schema import (  # the file's parts, named here for tools and tests as before
    APPLICATION_ID,
    FIGURES,
    KEYS,
    MEETS,
    MEETS_REPLACED,
    MIGRATIONS,
    PAPERS,
    RELEASE_0_1_TABLES,
    SCHEMA,
    SCHEMA_VERSION,
)
from aids.store.sqlite_file import create_private, make_private, prepare
from aids.store.sqlite_meets import SqliteMeets, check_organiser, join_meet
from aids.store.sqlite_rows import (
    MEET_COLUMNS,
    TABLE_COLUMNS,
    dump,
    insert_table,
    prefixed,
    table_of,
)

__all__ = [
    "APPLICATION_ID",
    "FIGURES",
    "KEYS",
    "MEETS",
    "MEETS_REPLACED",
    "MEET_COLUMNS",
    "MIGRATIONS",
    "PAPERS",
    "RELEASE_0_1_TABLES",
    "SCHEMA",
    "SCHEMA_VERSION",
    "TABLE_COLUMNS",
    "SqliteStore",
]


class SqliteStore(SqliteMeets):
    """Tables, events, keys and meets in one SQLite file (see ``aids.store.base.Store``)."""

    POOL_SIZE = 4

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        self.read_only = False
        try:
            # the data holds every key's hash, sealed bets and seeds: for this user alone
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError("store/open", path=str(self.path), detail=exc.strerror) from None
        if self.path.is_dir():
            raise StoreError("store/open", path=str(self.path), detail="is a directory")
        # A file we may read but not write (a copy on a stick, a backup folder) is opened
        # read-only: tables can still be viewed and exported.
        self.read_only = self.path.exists() and not os.access(self.path, os.W_OK)
        self._uri = f"file:{quote(str(self.path.resolve()))}?mode=ro" if self.read_only else ""
        if not self.read_only:
            create_private(self.path)
        with self._connect() as conn:
            prepare(conn, self.path, read_only=self.read_only)
        if not self.read_only:
            make_private(self.path)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """Borrow a connection (one thread at a time) and give it back afterwards.

        A fault of the database file (full disk, damage, read-only) becomes a ``StoreError``
        naming the file and what to do; the connection is then closed, not reused.
        """
        try:
            conn = self._idle.get_nowait()
        except queue.Empty:
            try:
                conn = self._open()
            except sqlite3.Error as exc:
                raise self._fault(exc) from None
        try:
            yield conn
        except sqlite3.Error as exc:
            conn.close()
            raise self._fault(exc) from None
        except BaseException:
            conn.close()  # a connection in an unknown state is not reused
            raise
        if conn.in_transaction or self._idle.qsize() >= self.POOL_SIZE:
            conn.close()
        else:
            self._idle.put(conn)

    def _open(self) -> sqlite3.Connection:
        if self.read_only:
            try:
                conn = self._connect_uri(self._uri)
                conn.execute("SELECT 1 FROM sqlite_master LIMIT 1")
            except sqlite3.OperationalError:
                # WAL needs a shared-memory file beside the database; on a read-only folder
                # without one, read the file as it stands (a closed store has no WAL left).
                conn = self._connect_uri(self._uri + "&immutable=1")
        else:
            conn = sqlite3.connect(
                self.path, timeout=10, isolation_level=None, check_same_thread=False
            )
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=FULL")
        return conn

    @staticmethod
    def _connect_uri(uri: str) -> sqlite3.Connection:
        return sqlite3.connect(
            uri, uri=True, timeout=10, isolation_level=None, check_same_thread=False
        )

    def _fault(self, exc: sqlite3.Error) -> StoreError:
        """The store error a SQLite fault means for the person at the table."""
        name = getattr(exc, "sqlite_errorname", "") or ""
        primary = "_".join(name.split("_")[:2])  # SQLITE_CONSTRAINT_PRIMARYKEY → …_CONSTRAINT
        code = {
            "SQLITE_FULL": "store/full",
            "SQLITE_CORRUPT": "store/corrupt",
            "SQLITE_NOTADB": "store/corrupt",
            "SQLITE_BUSY": "store/busy",
            "SQLITE_LOCKED": "store/busy",
            "SQLITE_CONSTRAINT": "store/conflict",
            "SQLITE_READONLY": "store/read_only",
            "SQLITE_CANTOPEN": "store/open",
        }.get(primary)
        return StoreError(code or "store/io", path=str(self.path), detail=str(exc)[:200])

    def close(self) -> None:
        """Close the idle connections (tests and tools; the server keeps them)."""
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken up front so two writers queue instead of deadlocking.

        Nothing is acknowledged before COMMIT returns; a failed COMMIT (a full disk) rolls
        the whole transaction back.
        """
        if self.read_only:
            raise StoreError("store/read_only", path=str(self.path))
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise

    # --- tables ---------------------------------------------------------------------------

    def insert_table(
        self,
        row: TableRow,
        keys: list[KeyRow],
        events: list[EventRow] | None = None,
        *,
        meet_id: int | None = None,
        by: str | None = None,
    ) -> TableRow:
        with self._write() as conn:
            if meet_id is not None:
                check_organiser(conn, meet_id, by)
            stored = insert_table(conn, row, keys, events or [])
            if meet_id is not None:
                join_meet(conn, meet_id, stored.id)
            return stored

    def exists(self, public_id: str) -> bool:
        with self._connect() as conn:
            hit = conn.execute("SELECT 1 FROM tables WHERE public_id = ?", (public_id,))
            return hit.fetchone() is not None

    def get_table(self, public_id: str) -> TableRow:
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE public_id = ?", (public_id,)
            ).fetchone()
        if row is None:
            raise NotFound("table/not_found")
        return table_of(row)

    def list_tables(self) -> list[tuple[TableRow, int]]:
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {prefixed(TABLE_COLUMNS, 't')}, COALESCE(MAX(e.seq), 0)"
                " FROM tables t LEFT JOIN events e ON e.table_id = t.id"
                " GROUP BY t.id ORDER BY t.created_at DESC, t.id DESC"
            ).fetchall()
        return [(table_of(r[:7]), int(r[7])) for r in rows]

    # --- events ---------------------------------------------------------------------------

    def last_seq(self, table_id: int) -> int:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?", (table_id,)
            ).fetchone()
        return int(row[0])

    def seen_seq(self, table_id: int) -> int:
        return self.last_seq(table_id)  # a file tells nobody: followers read it

    def events(self, table_id: int, after: int = 0) -> list[EventRow]:
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT seq, kind, payload, created_at, actor FROM events"
                " WHERE table_id = ? AND seq > ? ORDER BY seq",
                (table_id, after),
            ).fetchall()
        return [EventRow(r[0], r[1], json.loads(r[2]) if r[2] else None, r[3], r[4]) for r in rows]

    def append(
        self, table_id: int, expected_seq: int, event: EventRow, *, key_hash: str | None = None
    ) -> None:
        if event.seq != expected_seq + 1:  # the log never skips or repeats a step
            raise InvalidAction("import/seq", seq=event.seq)
        key_check = (
            ""
            if key_hash is None
            else " AND EXISTS (SELECT 1 FROM keys WHERE table_id = ? AND key_hash = ?"
            " AND role = ? AND revoked_at IS NULL)"
        )
        key_params = () if key_hash is None else (table_id, key_hash, event.actor)
        with self._write() as conn:
            try:
                # One statement: insert only if the log still ends at expected_seq (and the
                # writer's key is live), so no other writer can come between check and write.
                cur = conn.execute(
                    "INSERT INTO events (table_id, seq, kind, payload, created_at, actor)"
                    " SELECT ?, ?, ?, ?, ?, ? WHERE"
                    " (SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?) = ?"
                    + key_check,
                    (
                        table_id,
                        event.seq,
                        event.kind,
                        dump(event.payload),
                        event.created_at,
                        event.actor,
                        table_id,
                        expected_seq,
                        *key_params,
                    ),
                )
            except sqlite3.IntegrityError:  # another process won the same seq
                raise StaleState("table/stale", expected=expected_seq, actual=event.seq) from None
            if cur.rowcount == 1:
                return
            if key_hash is not None and not _live_key(conn, table_id, key_hash, event.actor):
                raise Forbidden("table/forbidden")
            actual = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?", (table_id,)
            ).fetchone()[0]
            raise StaleState("table/stale", expected=expected_seq, actual=int(actual))

    # --- keys -----------------------------------------------------------------------------

    def keys(self, table_id: int, *, include_revoked: bool = False) -> list[KeyRow]:
        live = "" if include_revoked else " AND revoked_at IS NULL"
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT role, key_hash, created_at, revoked_at FROM keys"
                f" WHERE table_id = ?{live} ORDER BY created_at, role",
                (table_id,),
            ).fetchall()
        return [KeyRow(r[0], r[1], r[2], r[3]) for r in rows]

    def replace_key(
        self, table_id: int, new: KeyRow, revoked_at: str, *, by: str | None = None
    ) -> None:
        with self._write() as conn:
            if by is not None and not _live_key(conn, table_id, by, "referee"):
                raise Forbidden("table/forbidden")
            conn.execute(
                "UPDATE keys SET revoked_at = ?"
                " WHERE table_id = ? AND role = ? AND revoked_at IS NULL",
                (revoked_at, table_id, new.role),
            )
            conn.execute(
                "INSERT INTO keys (table_id, role, key_hash, created_at) VALUES (?, ?, ?, ?)",
                (table_id, new.role, new.key_hash, new.created_at),
            )

    def revoke_keys(
        self, table_id: int, role: str, revoked_at: str, *, by: str | None = None
    ) -> int:
        with self._write() as conn:
            if by is not None and not _live_key(conn, table_id, by, "referee"):
                raise Forbidden("table/forbidden")
            cur = conn.execute(
                "UPDATE keys SET revoked_at = ?"
                " WHERE table_id = ? AND role = ? AND revoked_at IS NULL",
                (revoked_at, table_id, role),
            )
            return int(cur.rowcount)

    # --- live chances -----------------------------------------------------------------------

    def claim_figures(
        self, table_id: int, seq: int, by: str, at: str, *, retake_before: str
    ) -> bool:
        if self.read_only:
            return False
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO figures (table_id, seq, claimed_by, claimed_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id, seq) DO UPDATE SET claimed_by = excluded.claimed_by,"
                " claimed_at = excluded.claimed_at"
                " WHERE figures.done = 0 AND figures.claimed_at < ?",
                (table_id, seq, by, at, retake_before),
            )
            return cur.rowcount == 1

    def put_figures(self, table_id: int, seq: int, payload: str | None, *, keep: int) -> None:
        if self.read_only:
            return
        with self._write() as conn:
            conn.execute(
                "UPDATE figures SET done = 1, payload = ? WHERE table_id = ? AND seq = ?",
                (payload, table_id, seq),
            )
            conn.execute(
                "DELETE FROM figures WHERE table_id = ? AND seq < ?", (table_id, seq - keep)
            )

    def figures(self, table_id: int, seq: int) -> tuple[FiguresRow | None, FiguresRow | None]:
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT seq, claimed_by, claimed_at, done, payload FROM figures"
                " WHERE table_id = ? AND seq <= ? AND (seq = ? OR done = 1)"
                " ORDER BY seq DESC LIMIT 2",
                (table_id, seq, seq),
            ).fetchall()
        return figures_pair(seq, [FiguresRow(r[0], r[1], r[2], bool(r[3]), r[4]) for r in rows])


def _live_key(conn: sqlite3.Connection, table_id: int, key_hash: str, role: str) -> bool:
    hit = conn.execute(
        "SELECT 1 FROM keys WHERE table_id = ? AND key_hash = ? AND role = ?"
        " AND revoked_at IS NULL",
        (table_id, key_hash, role),
    )
    return hit.fetchone() is not None
