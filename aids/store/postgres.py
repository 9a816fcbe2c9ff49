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

import hmac
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, LiteralString

import psycopg
from psycopg import errors, sql
from psycopg_pool import ConnectionPool, PoolTimeout

from aids.core.errors import Forbidden, InvalidAction, NotFound, StaleState, StoreError
from aids.store import shown
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
from aids.store.notices import Heard
from aids.store.postgres_schema import LATEST, LOCK_KEY, MIGRATIONS, SCHEMA_TABLE, channel

TABLE_COLUMNS = "t.id, t.public_id, t.kind, t.title, t.created_at, t.setup, t.rules_version"
MEET_COLUMNS = (
    "m.id, m.public_id, m.title, m.date, m.created_at, m.scoring, m.organiser_hash, m.replaced"
)
OUR_TABLES = ("tables", "events", "keys", "meets", "meet_tables", "figures")


class PostgresStore:
    """Tables, logs, keys and meets in one PostgreSQL database (see ``aids.store.base``)."""

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
                _check_organiser(conn, meet_id, by)
            stored = _insert_table(conn, row, keys, events or [])
            if meet_id is not None:
                _join_meet(conn, meet_id, stored.id)
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
        return _table(row)

    def list_tables(self) -> list[tuple[TableRow, int]]:
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {TABLE_COLUMNS}, (SELECT COALESCE(MAX(e.seq), 0) FROM events e"
                "  WHERE e.table_id = t.id)"
                " FROM tables t ORDER BY t.created_at DESC, t.id DESC"
            ).fetchall()
        return [(_table(r[:7]), int(r[7])) for r in rows]

    # --- events ---------------------------------------------------------------------------

    def last_seq(self, table_id: int) -> int:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = %s", (table_id,)
            ).fetchone()
        return int(row[0]) if row else 0

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
                        _dump(event.payload),
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

    # --- meets ----------------------------------------------------------------------------

    def insert_meet(self, row: MeetRow, tables: Sequence[TableBundle] = ()) -> MeetRow:
        with self._write() as conn:
            stored = [_insert_table(conn, *bundle) for bundle in tables]
            try:
                with conn.transaction():  # a savepoint: the clash is ours to name
                    hit = conn.execute(
                        "INSERT INTO meets (public_id, title, date, created_at, scoring,"
                        " organiser_hash) VALUES (%s, %s, %s, %s, %s::json, %s) RETURNING id",
                        (
                            row.public_id,
                            row.title,
                            row.date,
                            row.created_at,
                            _dump(row.scoring),
                            row.organiser_hash,
                        ),
                    ).fetchone()
            except errors.UniqueViolation:
                raise InvalidAction("import/exists", public_id=row.public_id) from None
            meet_id = int(hit[0]) if hit else 0
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO meet_tables (table_id, meet_id, position) VALUES (%s, %s, %s)",
                    [(t.id, meet_id, n) for n, t in enumerate(stored, 1)],
                )
        return replace(row, id=meet_id)

    def get_meet(self, public_id: str) -> MeetRow:
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {MEET_COLUMNS} FROM meets m WHERE m.public_id = %s", (public_id,)
            ).fetchone()
        if row is None:
            raise NotFound("meet/not_found")
        return _meet(row)

    def list_meets(self) -> list[MeetRow]:
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {MEET_COLUMNS} FROM meets m"
                " ORDER BY m.date DESC, m.created_at DESC, m.id DESC"
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
            "scoring": None if scoring is None else _dump(scoring),
            "organiser_hash": organiser_hash,
        }
        given = {k: v for k, v in changes.items() if v is not None}
        with self._write() as conn:
            _check_organiser(conn, meet_id, by)
            if organiser_hash is not None:  # the key it replaces is remembered, in this write
                found = conn.execute(
                    "SELECT organiser_hash, replaced FROM meets WHERE id = %s FOR UPDATE",
                    (meet_id,),
                ).fetchone()
                assert found is not None  # _check_organiser found the meet
                given["replaced"] = json.dumps(list(replaced_after(found[0], found[1])))
            if given:
                columns = sql.SQL(", ").join(
                    sql.SQL("{} = {}").format(
                        sql.Identifier(k),
                        sql.SQL("%s::json" if k in ("scoring", "replaced") else "%s"),
                    )
                    for k in given
                )
                conn.execute(
                    sql.SQL("UPDATE meets SET {} WHERE id = %s").format(columns),
                    (*given.values(), meet_id),
                )

    def meet_tables(self, meet_id: int) -> list[tuple[TableRow, int]]:
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {TABLE_COLUMNS}, (SELECT COALESCE(MAX(e.seq), 0) FROM events e"
                "  WHERE e.table_id = t.id)"
                " FROM meet_tables mt JOIN tables t ON t.id = mt.table_id"
                " WHERE mt.meet_id = %s ORDER BY mt.position",
                (meet_id,),
            ).fetchall()
        return [(_table(r[:7]), int(r[7])) for r in rows]

    def add_meet_table(self, meet_id: int, table_id: int, *, by: str | None) -> None:
        with self._write() as conn:
            _check_organiser(conn, meet_id, by)
            if conn.execute("SELECT 1 FROM tables WHERE id = %s", (table_id,)).fetchone() is None:
                raise NotFound("table/not_found")
            _join_meet(conn, meet_id, table_id)

    def remove_meet_table(self, meet_id: int, table_id: int, *, by: str | None) -> bool:
        with self._write() as conn:
            _check_organiser(conn, meet_id, by)
            cur = conn.execute(
                "DELETE FROM meet_tables WHERE meet_id = %s AND table_id = %s",
                (meet_id, table_id),
            )
            return cur.rowcount == 1

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

    def meet_of(self, table_id: int) -> MeetRow | None:
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {MEET_COLUMNS} FROM meets m JOIN meet_tables mt ON mt.meet_id = m.id"
                " WHERE mt.table_id = %s",
                (table_id,),
            ).fetchone()
        return None if row is None else _meet(row)


def _insert_table(
    conn: psycopg.Connection[Any], row: TableRow, keys: list[KeyRow], events: list[EventRow]
) -> TableRow:
    try:
        with conn.transaction():  # a savepoint inside a meet's import
            hit = conn.execute(
                "INSERT INTO tables (public_id, kind, title, created_at, setup, rules_version)"
                " VALUES (%s, %s, %s, %s, %s::json, %s) RETURNING id",
                (
                    row.public_id,
                    row.kind,
                    row.title,
                    row.created_at,
                    _dump(row.setup),
                    row.rules_version,
                ),
            ).fetchone()
    except errors.UniqueViolation:  # the same public id, even from another process
        raise InvalidAction("import/exists", public_id=row.public_id) from None
    table_id = int(hit[0]) if hit else 0
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO keys (table_id, role, key_hash, created_at, revoked_at)"
            " VALUES (%s, %s, %s, %s, %s)",
            [(table_id, k.role, k.key_hash, k.created_at, k.revoked_at) for k in keys],
        )
        if events:  # one statement, so the trigger sends one notice for the whole log
            cur.execute(
                "INSERT INTO events (table_id, seq, kind, payload, created_at, actor)"
                " SELECT %s, e.seq, e.kind, e.payload::json, e.created_at, e.actor"
                " FROM unnest(%s::int[], %s::text[], %s::text[], %s::text[], %s::text[])"
                " AS e(seq, kind, payload, created_at, actor)",
                (
                    table_id,
                    [e.seq for e in events],
                    [e.kind for e in events],
                    [_dump(e.payload) for e in events],
                    [e.created_at for e in events],
                    [e.actor for e in events],
                ),
            )
    return replace(row, id=table_id)


def _join_meet(conn: psycopg.Connection[Any], meet_id: int, table_id: int) -> None:
    """Inside the write (the meet's row locked by ``_check_organiser``): the table takes the
    meet's next place (one meet per table)."""
    try:
        with conn.transaction():
            conn.execute(
                "INSERT INTO meet_tables (table_id, meet_id, position) SELECT %s, %s,"
                " COALESCE(MAX(position), 0) + 1 FROM meet_tables WHERE meet_id = %s",
                (table_id, meet_id, meet_id),
            )
    except errors.UniqueViolation:
        raise InvalidAction("meet/table_taken") from None


def _durable(conn: psycopg.Connection[Any]) -> None:
    """An acknowledged write is on the server's disk (its WAL), whatever the server's default:
    as ``synchronous=FULL`` is for the SQLite file."""
    conn.execute("SET synchronous_commit = on")


def _check_organiser(conn: psycopg.Connection[Any], meet_id: int, by: str | None) -> None:
    """Inside the write: the meet exists (locked against a concurrent change) and, given
    ``by``, it is the organiser's key hash."""
    row = conn.execute(
        "SELECT organiser_hash FROM meets WHERE id = %s FOR UPDATE", (meet_id,)
    ).fetchone()
    if row is None:
        raise NotFound("meet/not_found")
    if by is not None and not hmac.compare_digest(str(row[0]), by):
        raise Forbidden("meet/forbidden")


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


def _dump(payload: dict[str, Any] | None) -> str | None:
    return None if payload is None else json.dumps(payload, ensure_ascii=False)


def _table(row: Sequence[Any]) -> TableRow:
    return TableRow(int(row[0]), row[1], row[2], row[3], row[4], row[5], int(row[6]))


def _meet(row: Sequence[Any]) -> MeetRow:
    return MeetRow(int(row[0]), row[1], row[2], row[3], row[4], row[5], row[6], tuple(row[7]))
