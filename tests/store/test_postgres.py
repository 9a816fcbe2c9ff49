"""What only the PostgreSQL store has: migrations on start, notices to followers, many
processes on one database, and its faults (the shared contract is in test_conformance.py)."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from aids.core.errors import StaleState, StoreError
from aids.store import open_store, shown
from aids.store.base import EventRow, KeyRow, PaperEntry, PaperRow, TableRow
from aids.store.postgres import PostgresStore
from aids.store.postgres_schema import LATEST, MIGRATIONS, SCHEMA_TABLE
from aids.store.throwaway import free_port
from tests.store.test_conformance import eventually

T0 = "2026-11-30T19:00:00.000+00:00"
REFEREE = KeyRow("referee", "ab" * 32, T0)


def table_row(public_id: str = "pg-table-0123456789abcdef") -> TableRow:
    return TableRow(0, public_id, "derby", "金曜日", T0, {"players": ["秋子"]}, 1)


def action(n: int) -> EventRow:
    return EventRow(n, "action", {"type": "pass", "n": n}, T0)


@pytest.fixture
def store(pg_url: str) -> Iterator[PostgresStore]:
    s = PostgresStore(pg_url)
    yield s
    s.close()


def rows(url: str, query: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(query).fetchall()  # type: ignore[arg-type]


# --- migrations ---------------------------------------------------------------------------


def test_a_new_database_gets_every_migration_once_in_order(store: PostgresStore) -> None:
    applied = rows(store.url, "SELECT version, name FROM aids_schema ORDER BY version")
    assert applied == [(v, name) for v, name, _ in MIGRATIONS]
    assert applied[-1][0] == LATEST


def test_opening_again_runs_nothing_and_changes_nothing(pg_url: str) -> None:
    PostgresStore(pg_url).close()
    before = rows(pg_url, "SELECT version, applied_at FROM aids_schema ORDER BY version")
    PostgresStore(pg_url).close()
    assert rows(pg_url, "SELECT version, applied_at FROM aids_schema ORDER BY version") == before


def test_trackers_starting_together_on_a_new_database_migrate_it_once(pg_url: str) -> None:
    """Four stores opened at the same moment: the advisory lock lets one migrate; the
    others wait, then find nothing left to do."""
    failures: list[BaseException] = []
    opened: list[PostgresStore] = []
    gate = threading.Barrier(4)

    def start() -> None:
        gate.wait()
        try:
            opened.append(PostgresStore(pg_url))
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in opened:
        s.close()
    assert failures == []
    assert rows(pg_url, "SELECT count(*), max(version) FROM aids_schema") == [(LATEST, LATEST)]


def test_a_database_at_version_1_is_migrated_and_keeps_its_tables(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE aids_schema (version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        conn.execute(MIGRATIONS[0][2])  # type: ignore[arg-type]
        conn.execute("INSERT INTO aids_schema (version, name) VALUES (1, 'tables')")
        conn.execute(
            "INSERT INTO tables (public_id, kind, title, created_at, setup)"
            " VALUES ('old-table-0123456789abcde', 'derby', 'Old', %s, '{}')",
            (T0,),
        )
    store = PostgresStore(pg_url)
    try:
        old = store.get_table("old-table-0123456789abcde")
        assert old.title == "Old" and store.list_meets() == []
        store.append(old.id, 0, action(1))  # the notice trigger of migration 3 is in place
        assert store.seen_seq(old.id) == 1
    finally:
        store.close()
    assert [v for (v,) in rows(pg_url, "SELECT version FROM aids_schema")] == [
        v for v, _, _ in MIGRATIONS
    ]


def test_a_database_at_version_5_keeps_its_meets_and_takes_paper_tables(pg_url: str) -> None:
    """Migration 6 on a database written before tables played on paper: its events and their
    tables stay as they were, and an event then takes paper tables and their result logs."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(SCHEMA_TABLE)  # type: ignore[arg-type]
        for version, name, ddl in MIGRATIONS[:5]:
            conn.execute(ddl)  # type: ignore[arg-type]
            conn.execute("INSERT INTO aids_schema (version, name) VALUES (%s, %s)", (version, name))
        table_id = conn.execute(
            "INSERT INTO tables (public_id, kind, title, created_at, setup)"
            " VALUES ('old-table-0123456789abcde', 'derby', '古い卓', %s, '{}') RETURNING id",
            (T0,),
        ).fetchone()
        meet_id = conn.execute(
            "INSERT INTO meets (public_id, title, date, created_at, scoring, organiser_hash)"
            " VALUES ('old-meet-0123456789abcdef', '秋の夜', '2026-11-30', %s, '{}', %s)"
            " RETURNING id",
            (T0, "cd" * 32),
        ).fetchone()
        assert table_id is not None and meet_id is not None
        conn.execute(
            "INSERT INTO meet_tables (table_id, meet_id, position) VALUES (%s, %s, 1)",
            (table_id[0], meet_id[0]),
        )
    store = PostgresStore(pg_url)
    try:
        meet = store.get_meet("old-meet-0123456789abcdef")
        assert [t.title for t, _ in store.meet_tables(meet.id)] == ["古い卓"]
        assert store.meet_papers(meet.id) == []
        row = PaperRow(0, "old-paper-0123456789abcde", "derby", "紙の卓", T0, {"seats": 2})
        paper = store.insert_paper(meet.id, row, by="cd" * 32)
        entry = PaperEntry(1, "entered", {"places": [1, 2]}, None, "organiser", T0)
        store.append_paper(meet.id, paper.id, 0, [entry], by="cd" * 32)
        assert store.meet_papers(meet.id) == [(paper, [entry])]
    finally:
        store.close()
    assert rows(pg_url, "SELECT max(version) FROM aids_schema") == [(LATEST,)] == [(6,)]


def test_a_database_from_a_newer_release_is_refused_untouched(pg_url: str) -> None:
    PostgresStore(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("INSERT INTO aids_schema (version, name) VALUES (%s, 'future')", (LATEST + 1,))
    with pytest.raises(StoreError) as err:
        PostgresStore(pg_url)
    assert err.value.code == "store/newer" and err.value.params["version"] == LATEST + 1
    assert rows(pg_url, "SELECT count(*) FROM aids_schema") == [(LATEST + 1,)]


def test_a_schema_holding_another_programs_tables_is_refused_untouched(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE tables (id integer PRIMARY KEY, other text)")
    with pytest.raises(StoreError) as err:
        PostgresStore(pg_url)
    assert err.value.code == "store/foreign"
    assert rows(pg_url, "SELECT to_regclass('aids_schema') IS NULL") == [(True,)]


# --- notices to followers -----------------------------------------------------------------


def test_seen_seq_follows_writes_of_any_process_from_notices_without_reading(
    store: PostgresStore, pg_url: str
) -> None:
    """Once a table is heard of, a follower's question reads nothing: a write made by a bare
    INSERT on another connection reaches it through the trigger's NOTIFY alone."""
    table = store.insert_table(table_row(), [REFEREE])
    assert store.seen_seq(table.id) == 0  # starts the listener
    assert eventually(store.listening)
    assert store.seen_seq(table.id) == 0  # read once more: now followed
    reads: list[int] = []
    real = store.last_seq
    store.last_seq = lambda table_id: reads.append(table_id) or real(table_id)  # type: ignore[method-assign]
    with psycopg.connect(pg_url, autocommit=True) as other:
        for n in (1, 2, 3):
            other.execute(
                "INSERT INTO events (table_id, seq, kind, payload, created_at)"
                " VALUES (%s, %s, 'action', '{}', %s)",
                (table.id, n, T0),
            )
    assert eventually(lambda: store.seen_seq(table.id) == 3)
    assert reads == []


def test_a_lost_listening_connection_falls_back_to_reading_then_listens_again(
    store: PostgresStore, pg_url: str
) -> None:
    table = store.insert_table(table_row(), [REFEREE])
    assert store.seen_seq(table.id) == 0
    assert eventually(lambda: bool(rows(pg_url, LISTENERS)))
    rows(pg_url, f"SELECT pg_terminate_backend(pid) FROM ({LISTENERS}) AS l")
    writer = PostgresStore(pg_url)
    try:
        writer.append(table.id, 0, action(1))  # while nobody may be listening
        assert eventually(lambda: store.seen_seq(table.id) == 1)
        assert eventually(lambda: bool(rows(pg_url, LISTENERS)))  # listening again
        writer.append(table.id, 1, action(2))
        assert eventually(lambda: store.seen_seq(table.id) == 2)
    finally:
        writer.close()


LISTENERS = (
    "SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database()"
)


def test_notices_of_one_schema_never_reach_another(pg_server: str, pg_url: str) -> None:
    """Two deployments in two schemas of one database: table ids overlap, notices do not."""
    from aids.store.throwaway import create_schema, with_schema

    create_schema(pg_server, "t_other_deployment")
    mine, theirs = (
        PostgresStore(pg_url),
        PostgresStore(with_schema(pg_server, "t_other_deployment")),
    )
    try:
        a = mine.insert_table(table_row(), [REFEREE])
        b = theirs.insert_table(table_row(), [REFEREE])
        assert a.id == b.id
        assert mine.seen_seq(a.id) == 0
        for n in range(1, 4):
            theirs.append(b.id, n - 1, action(n))
        time.sleep(0.3)
        assert mine.seen_seq(a.id) == 0 and mine.last_seq(a.id) == 0
    finally:
        mine.close()
        theirs.close()


# --- many processes on one database -------------------------------------------------------


def _appender(url: str, table_id: int, count: int, done: Any) -> None:
    """Append ``count`` actions, each retried after a refusal with a fresh look at the log;
    report every sequence number the store acknowledged."""
    store = PostgresStore(url)
    mine = []
    while len(mine) < count:
        seq = store.last_seq(table_id)
        try:
            store.append(table_id, seq, action(seq + 1))
        except StaleState:
            continue
        mine.append(seq + 1)
    store.close()
    done.put(mine)


def test_four_processes_appending_to_one_table_lose_and_repeat_nothing(
    store: PostgresStore, pg_url: str
) -> None:
    """Nothing acknowledged is lost: the log is 1..N without a gap, and every acknowledged
    sequence number is one process's alone."""
    table = store.insert_table(table_row(), [REFEREE])
    ctx = multiprocessing.get_context("spawn")
    done = ctx.Queue()
    procs = [ctx.Process(target=_appender, args=(pg_url, table.id, 25, done)) for _ in range(4)]
    for p in procs:
        p.start()
    acknowledged = [done.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    every = sorted(seq for mine in acknowledged for seq in mine)
    assert every == list(range(1, 101))
    assert [e.seq for e in store.events(table.id)] == every


def test_every_connection_waits_for_the_disk_before_acknowledging(store: PostgresStore) -> None:
    """The throwaway server runs with synchronous_commit=off; the store's sessions turn it
    on, so an acknowledged append is in the write-ahead log whatever the server's default."""
    with store._connect() as conn:
        assert conn.execute("SHOW synchronous_commit").fetchone() == ("on",)


# --- faults -------------------------------------------------------------------------------


def test_an_unreachable_server_is_a_store_error_that_never_shows_the_password() -> None:
    url = f"postgresql://aids:s3cret-word@127.0.0.1:{free_port()}/aids?connect_timeout=1"
    with pytest.raises(StoreError) as err:
        open_store(url)
    assert err.value.code == "store/server" and "refused" in err.value.message("en")
    for lang in ("ja", "en"):
        text = err.value.message(lang)
        assert "s3cret-word" not in text and "127.0.0.1" in text
    assert shown(url) == url.replace("s3cret-word", "***")


def test_a_server_restart_costs_one_refused_request_and_writes_nothing_twice(
    store: PostgresStore, pg_url: str
) -> None:
    """Every connection of the pool is cut (as a restart does): the next request is refused
    with a clear store error, the one after works, and the log holds each write once."""
    table = store.insert_table(table_row(), [REFEREE])
    store.append(table.id, 0, action(1))
    rows(
        pg_url,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
        " AND datname = current_database() AND query NOT LIKE 'LISTEN%'",
    )
    with pytest.raises(StoreError) as err:
        store.append(table.id, 1, action(2))
    assert err.value.code == "store/server"
    store.append(table.id, 1, action(2))
    store.append(table.id, 2, action(3))
    assert [e.seq for e in store.events(table.id)] == [1, 2, 3]


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://aids:s3cret-word@[::1/aids",  # a bracket never closed
        "postgresql://aids:s3cret-word@127.0.0.1/aids?no_such_option=1",
    ],
)
def test_an_address_libpq_cannot_read_is_a_store_url_error(url: str) -> None:
    with pytest.raises(StoreError) as err:
        open_store(url)
    assert err.value.code == "store/url"
    assert "s3cret-word" not in err.value.message("en")


def test_a_database_url_that_is_not_postgresql_is_refused_not_taken_for_a_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AIDS_DATABASE_URL", "mysql://aids@db.local/aids")
    with pytest.raises(StoreError) as err:
        open_store()
    assert err.value.code == "store/url"
    assert list(tmp_path.iterdir()) == []


def test_serve_refuses_an_unreachable_database_before_serving(tmp_path: Path) -> None:
    env = dict(os.environ, AIDS_DATABASE_URL=f"postgresql://aids@127.0.0.1:{free_port()}/aids")
    done = subprocess.run(
        [sys.executable, "-m", "aids.cli", "--lang", "en", "serve", "--port", str(free_port())],
        capture_output=True, text=True, env=env, timeout=60, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("store/server: The database server postgresql://aids@127.0.0.1")
    assert "Tracker:" not in done.stdout
