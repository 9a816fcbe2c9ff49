"""The store on a PostgreSQL server, for a night of many tables, phones and trackers.

Chosen by ``AIDS_DATABASE_URL=postgresql://…`` (``aids.store.open_store``). Several tracker
processes may share one database: every guarantee lives in the database, none in a process.

- Connections come from a psycopg pool; each operation borrows one, in autocommit mode, so a
  single-statement write is its own transaction (one round trip) and a multi-statement one
  takes ``BEGIN``/``COMMIT`` around it. Every connection sets ``synchronous_commit = on``: a
  write is acknowledged once it is in the server's write-ahead log on disk.
- ``append`` is one statement: insert row ``expected_seq + 1`` only if the log still ends at
  ``expected_seq`` (and the writer's key is live). Two writers racing past the check both try
  the same ``(table_id, seq)`` primary key; the second waits for the first to commit and then
  fails, and is told ``StaleState``. Nothing is acknowledged before the commit.
- The schema is created and migrated on start (``aids.store.postgres_schema``), under an
  advisory lock, idempotently.
- Followers are told, not polled: a trigger on the log sends ``NOTIFY`` when an append
  commits, and one listening connection per process keeps the newest sequence number it has
  heard of each table (``seen_seq``), so a page that follows a table asks the database
  nothing until the table changes.

The schema (PostgreSQL's ``search_path``, e.g. ``?options=-csearch_path%3Dclub``) scopes
everything, the notification channel included: two deployments in two schemas of one database
never see each other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, LiteralString

import psycopg
from psycopg import errors
from psycopg_pool import ConnectionPool, PoolTimeout

from aids.core.errors import Forbidden, InvalidAction, NotFound, StaleState, StoreError
from aids.store import shown
from aids.store.base import EventRow, FiguresRow, KeyRow, TableRow, figures_pair
from aids.store.notices import Heard
from aids.store.postgres_meets import PostgresMeets, check_organiser, join_meet
from aids.store.postgres_rows import MEET_COLUMNS, TABLE_COLUMNS, dump, insert_table, table_of
from aids.store.postgres_schema import LATEST, LOCK_KEY, MIGRATIONS, SCHEMA_TABLE, channel

__all__ = ["MEET_COLUMNS", "OUR_TABLES", "TABLE_COLUMNS", "PostgresStore"]

OUR_TABLES = (
    "tables", "events", "keys", "meets", "meet_tables", "figures", "papers", "paper_entries",
)  # fmt: skip


class PostgresStore(PostgresMeets):
    """Tables, logs, keys and meets in one PostgreSQL database (see ``aids.store.base``);
    the meets and their paper tables are in ``aids.store.postgres_meets``."""

    POOL_SIZE = 8  # per process; a tracker's sessions share it
    WAIT_SECONDS = 10.0  # for a free connection, or the server at start

    def __init__(self, url: str) -> None:
        self.url = url
        self.where = shown(url)
        self._suspect = False  # a connection was lost: test the idle ones before reuse
        # One connection of our own first: a wrong address or an unreachable server is told
        # at once, with libpq's own reason; it also migrates, before any pool exists.
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=10) as first:
                _durable(first)
                self.schema = self._migrate(first)
        except psycopg.ProgrammingError as exc:  # libpq could not read the address
            raise StoreError("store/url", detail=_why(exc)) from None
        except psycopg.Error as exc:
            raise self._fault(exc) from None
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=self.POOL_SIZE,
            kwargs={"autocommit": True},
            configure=_durable,
            open=False,
            name="aids",
        )
        try:
            self._pool.open(wait=True, timeout=self.WAIT_SECONDS)
        except PoolTimeout as exc:
            self._pool.close()
            raise StoreError("store/server", path=self.where, detail=_why(exc)) from None
        self._heard = Heard(url, channel(self.schema), self.where)

    # --- connections ----------------------------------------------------------------------

    @contextmanager
    def _connect(self) -> Iterator[psycopg.Connection[Any]]:
        """Borrow a connection; a fault of the server becomes a ``StoreError`` naming the
        database (never its password) and what to do.

        After a lost connection (the server restarted, the network dropped) the pool's idle
        connections are tested before the next borrow, so one request per process is refused
        (nothing written), not one per stale connection.
        """
        if self._suspect:
            self._suspect = False
            self._pool.check()
        try:
            with self._pool.connection(timeout=self.WAIT_SECONDS) as conn:
                yield conn
        except PoolTimeout as exc:
            self._suspect = True
            raise StoreError(
                "store/pool", path=self.where, seconds=int(self.WAIT_SECONDS), detail=_why(exc)
            ) from None
        except psycopg.OperationalError as exc:
            self._suspect = True
            raise self._fault(exc) from None
        except psycopg.Error as exc:
            raise self._fault(exc) from None

    @contextmanager
    def _write(self) -> Iterator[psycopg.Connection[Any]]:
        """One transaction of several statements: all of it commits, or none."""
        with self._connect() as conn, conn.transaction():
            yield conn

    def _fault(self, exc: psycopg.Error) -> StoreError:
        if isinstance(exc, errors.DiskFull):
            code = "store/full"
        elif isinstance(exc, errors.ReadOnlySqlTransaction):
            code = "store/read_only"
        elif isinstance(exc, errors.IntegrityError):
            code = "store/conflict"
        elif isinstance(exc, psycopg.OperationalError):
            code = "store/server"
        else:
            code = "store/io"
        return StoreError(code, path=self.where, detail=_why(exc))

    def _migrate(self, conn: psycopg.Connection[Any]) -> str:
        """Bring the schema up to ``LATEST`` (each step once, in order); its name."""
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
            schema = conn.execute("SELECT current_schema()").fetchone()
            if schema is None or schema[0] is None:
                raise StoreError("store/server", path=self.where, detail="no schema to write in")
            if _exists(conn, "aids_schema"):
                done = {r[0] for r in conn.execute("SELECT version FROM aids_schema")}
            elif any(_exists(conn, name) for name in OUR_TABLES):
                raise StoreError("store/foreign", path=self.where)
            else:
                conn.execute(SCHEMA_TABLE)
                done = set()
            if done and max(done) > LATEST:
                raise StoreError("store/newer", path=self.where, version=max(done))
            for version, name, ddl in MIGRATIONS:
                if version not in done:
                    conn.execute(ddl)
                    conn.execute(
                        "INSERT INTO aids_schema (version, name) VALUES (%s, %s)", (version, name)
                    )
        return str(schema[0])

    def close(self) -> None:
        self._heard.stop()
        self._pool.close()

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
        self._heard.tell(stored.id, events[-1].seq if events else 0)
        return stored

    def exists(self, public_id: str) -> bool:
        with self._connect() as conn:
            hit = conn.execute("SELECT 1 FROM tables WHERE public_id = %s", (public_id,))
            return hit.fetchone() is not None

    def get_table(self, public_id: str) -> TableRow:
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables t WHERE t.public_id = %s", (public_id,)
            ).fetchone()
        if row is None:
            raise NotFound("table/not_found")
        return table_of(row)

    def list_tables(self) -> list[tuple[TableRow, int]]:
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {TABLE_COLUMNS}, (SELECT COALESCE(MAX(e.seq), 0) FROM events e"
                "  WHERE e.table_id = t.id)"
                " FROM tables t ORDER BY t.created_at DESC, t.id DESC"
            ).fetchall()
        return [(table_of(r[:7]), int(r[7])) for r in rows]

    # --- events ---------------------------------------------------------------------------

    def last_seq(self, table_id: int) -> int:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = %s", (table_id,)
            ).fetchone()
        return int(row[0]) if row else 0

    def on_notice(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` when a notice tells of a new log entry (``Heard.on_notice``)."""
        self._heard.on_notice(listener)

    def seen_seq(self, table_id: int) -> int:
        return self._heard.seq(table_id, self.last_seq)

    def listening(self) -> bool:
        """Whether followers are answered from notices now (else ``seen_seq`` reads)."""
        return self._heard.connected

    def events(self, table_id: int, after: int = 0) -> list[EventRow]:
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT seq, kind, payload, created_at, actor FROM events"
                " WHERE table_id = %s AND seq > %s ORDER BY seq",
                (table_id, after),
            ).fetchall()
        return [EventRow(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def append(
        self, table_id: int, expected_seq: int, event: EventRow, *, key_hash: str | None = None
    ) -> None:
        if event.seq != expected_seq + 1:  # the log never skips or repeats a step
            raise InvalidAction("import/seq", seq=event.seq)
        key_check: LiteralString = (
            ""
            if key_hash is None
            else " AND EXISTS (SELECT 1 FROM keys WHERE table_id = %s AND key_hash = %s"
            " AND role = %s AND revoked_at IS NULL)"
        )
        key_params = () if key_hash is None else (table_id, key_hash, event.actor)
        with self._connect() as conn:
            try:
                # One statement, so one transaction: insert only if the log still ends at
                # expected_seq (and the writer's key is live).
                cur = conn.execute(
                    "INSERT INTO events (table_id, seq, kind, payload, created_at, actor)"
                    " SELECT %s, %s, %s, %s::json, %s, %s WHERE"
                    " (SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = %s) = %s"
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
            except errors.UniqueViolation:  # another writer won the same seq
                raise StaleState("table/stale", expected=expected_seq, actual=event.seq) from None
            if cur.rowcount == 1:
                self._heard.tell(table_id, event.seq)
                return
            if key_hash is not None and not _live_key(conn, table_id, key_hash, event.actor):
                raise Forbidden("table/forbidden")
            actual = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = %s", (table_id,)
            ).fetchone()
            now_at = int(actual[0]) if actual else 0
            raise StaleState("table/stale", expected=expected_seq, actual=now_at)

    # --- keys -----------------------------------------------------------------------------

    def keys(self, table_id: int, *, include_revoked: bool = False) -> list[KeyRow]:
        live: LiteralString = "" if include_revoked else " AND revoked_at IS NULL"
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT role, key_hash, created_at, revoked_at FROM keys"
                " WHERE table_id = %s" + live + " ORDER BY created_at, role",
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
                "UPDATE keys SET revoked_at = %s"
                " WHERE table_id = %s AND role = %s AND revoked_at IS NULL",
                (revoked_at, table_id, new.role),
            )
            conn.execute(
                "INSERT INTO keys (table_id, role, key_hash, created_at) VALUES (%s, %s, %s, %s)",
                (table_id, new.role, new.key_hash, new.created_at),
            )

    def revoke_keys(
        self, table_id: int, role: str, revoked_at: str, *, by: str | None = None
    ) -> int:
        with self._write() as conn:
            if by is not None and not _live_key(conn, table_id, by, "referee"):
                raise Forbidden("table/forbidden")
            cur = conn.execute(
                "UPDATE keys SET revoked_at = %s"
                " WHERE table_id = %s AND role = %s AND revoked_at IS NULL",
                (revoked_at, table_id, role),
            )
            return int(cur.rowcount)

    # --- live chances -----------------------------------------------------------------------

    def claim_figures(
        self, table_id: int, seq: int, by: str, at: str, *, retake_before: str
    ) -> bool:
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO figures (table_id, seq, claimed_by, claimed_at)"
                " VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (table_id, seq) DO UPDATE SET claimed_by = excluded.claimed_by,"
                " claimed_at = excluded.claimed_at"
                " WHERE figures.done = 0 AND figures.claimed_at < %s",
                (table_id, seq, by, at, retake_before),
            )
            return cur.rowcount == 1

    def put_figures(self, table_id: int, seq: int, payload: str | None, *, keep: int) -> None:
        with self._write() as conn:
            conn.execute(
                "UPDATE figures SET done = 1, payload = %s::json WHERE table_id = %s AND seq = %s",
                (payload, table_id, seq),
            )
            conn.execute(
                "DELETE FROM figures WHERE table_id = %s AND seq < %s", (table_id, seq - keep)
            )

    def figures(self, table_id: int, seq: int) -> tuple[FiguresRow | None, FiguresRow | None]:
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT seq, claimed_by, claimed_at, done, payload::text FROM figures"
                " WHERE table_id = %s AND seq <= %s AND (seq = %s OR done = 1)"
                " ORDER BY seq DESC LIMIT 2",
                (table_id, seq, seq),
            ).fetchall()
        return figures_pair(seq, [FiguresRow(r[0], r[1], r[2], bool(r[3]), r[4]) for r in rows])


def _durable(conn: psycopg.Connection[Any]) -> None:
    """An acknowledged write is on the server's disk (its WAL), whatever the server's default:
    as ``synchronous=FULL`` is for the SQLite file."""
    conn.execute("SET synchronous_commit = on")


def _live_key(conn: psycopg.Connection[Any], table_id: int, key_hash: str, role: str) -> bool:
    hit = conn.execute(
        "SELECT 1 FROM keys WHERE table_id = %s AND key_hash = %s AND role = %s"
        " AND revoked_at IS NULL",
        (table_id, key_hash, role),
    )
    return hit.fetchone() is not None


def _exists(conn: psycopg.Connection[Any], name: str) -> bool:
    row = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (name,)).fetchone()
    return bool(row and row[0])


def _why(exc: BaseException) -> str:
    """The first line of a driver's message, with any password in an address masked."""
    return shown((str(exc).strip().splitlines() or [type(exc).__name__])[0][:200])
