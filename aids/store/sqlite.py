"""The embedded default store: one SQLite file, WAL, ``BEGIN IMMEDIATE`` for every write.

Connections live in a small pool: each operation borrows one, so a connection is used by one
thread at a time (safe to share between Streamlit's session threads, unlike a connection kept
in ``st.cache_resource``), and an idle connection stays open, so WAL is not checkpointed and
the file not reopened on every write. The ``(table_id, seq)`` primary key makes a second
writer against the same sequence number fail even if two processes race past the check.
``synchronous=FULL``: an acknowledged action survives a power cut, not just a crash.

The file carries our ``application_id`` and a schema version (``user_version``); older files
are migrated in place when opened, a file of another program is refused untouched.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hmac
import json
import os
import queue
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from aids.core.errors import Forbidden, InvalidAction, NotFound, StaleState, StoreError
from aids.store.base import (
    EventRow,
    FiguresRow,
    KeyRow,
    MeetRow,
    TableBundle,
    TableRow,
    figures_pair,
    replaced_after,
)
from aids.store.schema import (
    APPLICATION_ID,
    FIGURES,
    KEYS,
    MEETS,
    MEETS_REPLACED,
    MIGRATIONS,
    RELEASE_0_1_TABLES,
    SCHEMA,
    SCHEMA_VERSION,
)

TABLE_COLUMNS = "id, public_id, kind, title, created_at, setup, rules_version"
MEET_COLUMNS = "id, public_id, title, date, created_at, scoring, organiser_hash, replaced"


class SqliteStore:
    """Tables, events and keys in one SQLite file (see ``aids.store.base.Store``)."""

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
            self._create_private()
        with self._connect() as conn:
            self._prepare(conn)
        if not self.read_only:
            self._make_private()

    def _create_private(self) -> None:
        """A new data file is made readable by this user alone (0600) before SQLite opens
        it; SQLite gives its -wal and -shm files the same permissions.

        A file that exists is never opened here: SQLite's locks belong to the process, and
        closing any descriptor of the file drops every one of them (another store of this
        process would then be taken for gone by other processes, which delete the WAL index
        it still reads)."""
        try:
            os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            return
        except OSError as exc:
            raise StoreError("store/open", path=str(self.path), detail=exc.strerror) from None

    def _make_private(self) -> None:
        """A data file of ours (checked by ``_prepare``) that others may read, from an older
        release, is made this user's alone, with its -wal and -shm files."""
        for path in (self.path, *(Path(f"{self.path}{s}") for s in ("-wal", "-shm"))):
            try:
                if path.stat().st_mode & 0o077 and path.stat().st_uid == os.getuid():
                    path.chmod(0o600)
            except OSError:
                continue  # gone meanwhile, or not ours to change: SQLite still works

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Create, migrate or refuse the file: never touch a file that is not ours."""
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id == 0 and version == 0:
            if names == RELEASE_0_1_TABLES and _has_column(conn, "tables", "referee_key_hash"):
                version = 1  # a file written by release 0.1
            elif names:
                raise StoreError("store/foreign", path=str(self.path))
        elif app_id != APPLICATION_ID:
            raise StoreError("store/foreign", path=str(self.path))
        if version > SCHEMA_VERSION:
            raise StoreError("store/newer", path=str(self.path), version=version)
        if self.read_only:
            if version != SCHEMA_VERSION:
                raise StoreError("store/read_only_old", path=str(self.path))
            return
        conn.execute("PRAGMA journal_mode=WAL")
        if version == SCHEMA_VERSION:
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
                version = SCHEMA_VERSION  # another process finished the same step meanwhile
            elif version == 0:
                _run_script(conn, SCHEMA + KEYS + MEETS + FIGURES + MEETS_REPLACED)
            else:
                for step in range(version, SCHEMA_VERSION):
                    _run_script(conn, MIGRATIONS[step])
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

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
                _check_organiser(conn, meet_id, by)
            stored = _insert_table(conn, row, keys, events or [])
            if meet_id is not None:
                _join_meet(conn, meet_id, stored.id)
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
        return _table(row)

    def list_tables(self) -> list[tuple[TableRow, int]]:
        columns = ", ".join(f"t.{c.strip()}" for c in TABLE_COLUMNS.split(","))
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {columns}, COALESCE(MAX(e.seq), 0)"
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
                        _dump(event.payload),
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

    # --- meets ----------------------------------------------------------------------------

    def insert_meet(self, row: MeetRow, tables: Sequence[TableBundle] = ()) -> MeetRow:
        with self._write() as conn:
            table_ids = [_insert_table(conn, *bundle).id for bundle in tables]
            try:
                cur = conn.execute(
                    "INSERT INTO meets (public_id, title, date, created_at, scoring,"
                    " organiser_hash) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        row.public_id,
                        row.title,
                        row.date,
                        row.created_at,
                        json.dumps(row.scoring, ensure_ascii=False),
                        row.organiser_hash,
                    ),
                )
            except sqlite3.IntegrityError:
                raise InvalidAction("import/exists", public_id=row.public_id) from None
            meet_id = int(cur.lastrowid or 0)
            conn.executemany(
                "INSERT INTO meet_tables (table_id, meet_id, position) VALUES (?, ?, ?)",
                [(table_id, meet_id, n) for n, table_id in enumerate(table_ids, 1)],
            )
        return dataclasses.replace(row, id=meet_id)

    def get_meet(self, public_id: str) -> MeetRow:
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {MEET_COLUMNS} FROM meets WHERE public_id = ?", (public_id,)
            ).fetchone()
        if row is None:
            raise NotFound("meet/not_found")
        return _meet(row)

    def list_meets(self) -> list[MeetRow]:
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {MEET_COLUMNS} FROM meets ORDER BY date DESC, created_at DESC, id DESC"
            ).fetchall()
        return [_meet(r) for r in rows]

    def update_meet(
        self,
        meet_id: int,
        *,
        by: str | None,
        title: str | None = None,
        date: str | None = None,
        scoring: dict[str, Any] | None = None,
        organiser_hash: str | None = None,
    ) -> None:
        changes = {
            "title": title,
            "date": date,
            "scoring": None if scoring is None else json.dumps(scoring, ensure_ascii=False),
            "organiser_hash": organiser_hash,
        }
        given = {k: v for k, v in changes.items() if v is not None}
        with self._write() as conn:
            _check_organiser(conn, meet_id, by)
            if organiser_hash is not None:  # the key it replaces is remembered, in this write
                old, replaced = conn.execute(
                    "SELECT organiser_hash, replaced FROM meets WHERE id = ?", (meet_id,)
                ).fetchone()
                given["replaced"] = json.dumps(replaced_after(old, json.loads(replaced)))
            if given:
                columns = ", ".join(f"{k} = ?" for k in given)
                conn.execute(f"UPDATE meets SET {columns} WHERE id = ?", (*given.values(), meet_id))

    def meet_tables(self, meet_id: int) -> list[tuple[TableRow, int]]:
        columns = ", ".join(f"t.{c.strip()}" for c in TABLE_COLUMNS.split(","))
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {columns}, (SELECT COALESCE(MAX(seq), 0) FROM events e"
                "  WHERE e.table_id = t.id)"
                " FROM meet_tables m JOIN tables t ON t.id = m.table_id"
                " WHERE m.meet_id = ? ORDER BY m.position",
                (meet_id,),
            ).fetchall()
        return [(_table(r[:7]), int(r[7])) for r in rows]

    def add_meet_table(self, meet_id: int, table_id: int, *, by: str | None) -> None:
        with self._write() as conn:
            _check_organiser(conn, meet_id, by)
            if conn.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
                raise NotFound("table/not_found")
            _join_meet(conn, meet_id, table_id)

    def remove_meet_table(self, meet_id: int, table_id: int, *, by: str | None) -> bool:
        with self._write() as conn:
            _check_organiser(conn, meet_id, by)
            cur = conn.execute(
                "DELETE FROM meet_tables WHERE meet_id = ? AND table_id = ?", (meet_id, table_id)
            )
            return cur.rowcount == 1

    def meet_of(self, table_id: int) -> MeetRow | None:
        columns = ", ".join(f"m.{c.strip()}" for c in MEET_COLUMNS.split(","))
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {columns} FROM meets m JOIN meet_tables mt ON mt.meet_id = m.id"
                " WHERE mt.table_id = ?",
                (table_id,),
            ).fetchone()
        return None if row is None else _meet(row)


def _insert_table(
    conn: sqlite3.Connection, row: TableRow, keys: list[KeyRow], events: list[EventRow]
) -> TableRow:
    try:
        cur = conn.execute(
            "INSERT INTO tables (public_id, kind, title, created_at, setup, rules_version)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                row.public_id,
                row.kind,
                row.title,
                row.created_at,
                json.dumps(row.setup, ensure_ascii=False),
                row.rules_version,
            ),
        )
    except sqlite3.IntegrityError:  # the same public id, even from another process
        raise InvalidAction("import/exists", public_id=row.public_id) from None
    table_id = int(cur.lastrowid or 0)
    conn.executemany(
        "INSERT INTO keys (table_id, role, key_hash, created_at, revoked_at)"
        " VALUES (?, ?, ?, ?, ?)",
        [(table_id, k.role, k.key_hash, k.created_at, k.revoked_at) for k in keys],
    )
    conn.executemany(
        "INSERT INTO events (table_id, seq, kind, payload, created_at, actor)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(table_id, e.seq, e.kind, _dump(e.payload), e.created_at, e.actor) for e in events],
    )
    return dataclasses.replace(row, id=table_id)


def _join_meet(conn: sqlite3.Connection, meet_id: int, table_id: int) -> None:
    """Inside the write: the table takes the meet's next place (one meet per table)."""
    try:
        conn.execute(
            "INSERT INTO meet_tables (table_id, meet_id, position) SELECT ?, ?,"
            " COALESCE(MAX(position), 0) + 1 FROM meet_tables WHERE meet_id = ?",
            (table_id, meet_id, meet_id),
        )
    except sqlite3.IntegrityError:
        raise InvalidAction("meet/table_taken") from None


def _check_organiser(conn: sqlite3.Connection, meet_id: int, by: str | None) -> None:
    """Inside the write: the meet exists and, given ``by``, it is the organiser's key hash."""
    row = conn.execute("SELECT organiser_hash FROM meets WHERE id = ?", (meet_id,)).fetchone()
    if row is None:
        raise NotFound("meet/not_found")
    if by is not None and not hmac.compare_digest(row[0], by):
        raise Forbidden("meet/forbidden")


def _meet(row: tuple[Any, ...]) -> MeetRow:
    return MeetRow(
        row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6],
        tuple(json.loads(row[7])),
    )  # fmt: skip


def _live_key(conn: sqlite3.Connection, table_id: int, key_hash: str, role: str) -> bool:
    hit = conn.execute(
        "SELECT 1 FROM keys WHERE table_id = ? AND key_hash = ? AND role = ?"
        " AND revoked_at IS NULL",
        (table_id, key_hash, role),
    )
    return hit.fetchone() is not None


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run ``;``-separated statements inside the caller's transaction (``executescript``
    would commit it first)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def _has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    return any(r[1] == column for r in conn.execute(f"PRAGMA table_info({table})"))


def _dump(payload: dict[str, Any] | None) -> str | None:
    return None if payload is None else json.dumps(payload, ensure_ascii=False)


def _table(row: tuple[Any, ...]) -> TableRow:
    return TableRow(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), int(row[6]))
