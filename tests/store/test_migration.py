"""SQLite file handling: migration of release 0.1 files, refusal of files that are not ours."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import aids.store.sqlite as sqlite_store
from aids.core.errors import InvalidAction, StoreError
from aids.games.base import REFEREE
from aids.registry import engines
from aids.store.sqlite import APPLICATION_ID, SqliteStore
from aids.tables import TableService, load_export
from aids.tables.keys import hash_key

FIXTURES = Path(__file__).parent / "fixtures"
DUMP = (FIXTURES / "release-0.1.sql").read_text(encoding="utf-8")
EXPORT_V1 = (FIXTURES / "release-0.1-export.json").read_text(encoding="utf-8")
PUBLIC_ID = "SnBN5p5SeQB7-yrzYBZH_y50"
_KEY_LINE = re.search(r"^-- Referee key of its one table: (\S+)$", DUMP, re.MULTILINE)
assert _KEY_LINE is not None, "the dump's header names the referee key"
REFEREE_KEY = _KEY_LINE.group(1)
# Seat 2 (Chie) is to move after the dump's last event (seat 1 played red:3).
NEXT_PLAY = {"type": "play", "player": 2, "horse": 1, "card": "blue:4"}


def dump_rows(sql: str) -> sqlite3.Connection:
    """The dump loaded into memory: the rows release 0.1 wrote, to compare against."""
    conn = sqlite3.connect(":memory:")
    conn.executescript(sql)
    return conn


def build_release_0_1_file(path: Path) -> Path:
    conn = sqlite3.connect(path)
    try:
        conn.executescript(DUMP)
    finally:
        conn.close()
    return path


def read(path: Path, sql: str) -> list[tuple[Any, ...]]:
    """Rows read by a plain sqlite3 connection of its own, closed afterwards."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def pragma(path: Path, name: str) -> Any:
    return read(path, f"PRAGMA {name}")[0][0]


def whole_file(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def files_beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


@pytest.fixture
def old_file(tmp_path: Path) -> Path:
    return build_release_0_1_file(tmp_path / "release-0.1.sqlite3")


@pytest.fixture
def migrated(old_file: Path) -> Path:
    store = SqliteStore(old_file)
    store.close()
    return old_file


# --- migration of a release 0.1 file ------------------------------------------------------


def test_release_0_1_fixture_is_a_version_0_file_with_the_key_hash_on_the_table() -> None:
    old = dump_rows(DUMP)
    assert old.execute("PRAGMA user_version").fetchone()[0] == 0
    assert old.execute("SELECT referee_key_hash FROM tables").fetchall() == [
        (hash_key(REFEREE_KEY),)
    ]


def test_migration_sets_schema_version_and_application_id(migrated: Path) -> None:
    assert pragma(migrated, "user_version") == sqlite_store.SCHEMA_VERSION == 6
    assert pragma(migrated, "application_id") == APPLICATION_ID


def test_migration_moves_the_referee_key_hash_into_the_keys_table(migrated: Path) -> None:
    columns = [r[1] for r in read(migrated, "PRAGMA table_info(tables)")]
    assert "referee_key_hash" not in columns
    assert read(migrated, "SELECT table_id, role, key_hash, revoked_at FROM keys") == [
        (1, "referee", hash_key(REFEREE_KEY), None)
    ]
    store = SqliteStore(migrated)
    try:
        row = store.get_table(PUBLIC_ID)
        assert [(k.role, k.key_hash) for k in store.keys(row.id)] == [
            ("referee", hash_key(REFEREE_KEY))
        ]
    finally:
        store.close()


def test_migration_keeps_table_and_events_and_marks_them_referee_rules_v1(
    migrated: Path,
) -> None:
    old = dump_rows(DUMP)
    old_table = old.execute("SELECT id, public_id, kind, title, created_at, setup FROM tables")
    old_events = old.execute(
        "SELECT table_id, seq, kind, payload, created_at FROM events ORDER BY table_id, seq"
    ).fetchall()
    assert len(old_events) == 5
    assert read(
        migrated, "SELECT id, public_id, kind, title, created_at, setup FROM tables"
    ) == list(old_table)
    assert read(migrated, "SELECT rules_version FROM tables") == [(1,)]
    assert (
        read(
            migrated,
            "SELECT table_id, seq, kind, payload, created_at FROM events ORDER BY table_id, seq",
        )
        == old_events
    )
    assert read(migrated, "SELECT DISTINCT actor FROM events") == [("referee",)]
    store = SqliteStore(migrated)
    try:
        row = store.get_table(PUBLIC_ID)
        assert row.rules_version == 1
        events = store.events(row.id)
        assert [(e.seq, e.kind, e.payload, e.created_at, e.actor) for e in events] == [
            (seq, kind, json.loads(payload) if payload else None, at, "referee")
            for _, seq, kind, payload, at in old_events
        ]
    finally:
        store.close()


def test_migrated_table_works_through_the_service_with_the_old_key(old_file: Path) -> None:
    store = SqliteStore(old_file)
    try:
        service = TableService(store, engines())
        assert service.role_for(PUBLIC_ID, REFEREE_KEY) == REFEREE
        assert service.snapshot(PUBLIC_ID).seq == 5
        assert service.replay(PUBLIC_ID) == service.snapshot(PUBLIC_ID, REFEREE).state
        after = service.record(PUBLIC_ID, REFEREE_KEY, 5, NEXT_PLAY)
        assert after.seq == 6
        assert service.replay(PUBLIC_ID) == after.state
        last = store.events(store.get_table(PUBLIC_ID).id, after=5)
        assert [(e.seq, e.kind, e.payload, e.actor) for e in last] == [
            (6, "action", NEXT_PLAY, "referee")
        ]
    finally:
        store.close()


def test_opening_a_migrated_file_again_changes_nothing(migrated: Path) -> None:
    before = whole_file(migrated)
    store = SqliteStore(migrated)
    store.close()
    assert pragma(migrated, "user_version") == sqlite_store.SCHEMA_VERSION
    assert pragma(migrated, "application_id") == APPLICATION_ID
    assert whole_file(migrated) == before


def test_release_0_1_export_imports_with_its_referee_key_and_exports_as_version_2(
    tmp_path: Path,
) -> None:
    store = SqliteStore(tmp_path / "fresh.sqlite3")
    try:
        service = TableService(store, engines())
        info = service.import_(load_export(EXPORT_V1))
        assert info.public_id == PUBLIC_ID and info.rules_version == 1
        assert service.role_for(PUBLIC_ID, REFEREE_KEY) == REFEREE
        assert service.snapshot(PUBLIC_ID).seq == 5
        exported = service.export(PUBLIC_ID)
        assert exported["version"] == 2
        keys = exported["table"]["keys"]
        assert isinstance(keys, list)
        assert [(k["role"], k["key_sha256"], k["revoked_at"]) for k in keys] == [
            ("referee", hash_key(REFEREE_KEY), None)
        ]
        assert {e["actor"] for e in exported["events"]} == {"referee"}
        with pytest.raises(InvalidAction) as err:
            service.import_(load_export(EXPORT_V1))
        assert err.value.code == "import/exists"
    finally:
        store.close()


def test_release_0_1_file_and_its_export_give_the_same_game(old_file: Path, tmp_path: Path) -> None:
    migrated = SqliteStore(old_file)
    imported = SqliteStore(tmp_path / "fresh.sqlite3")
    try:
        from_file = TableService(migrated, engines())
        from_export = TableService(imported, engines())
        from_export.import_(load_export(EXPORT_V1))
        assert from_file.replay(PUBLIC_ID) == from_export.replay(PUBLIC_ID)
        assert migrated.events(1) == imported.events(imported.get_table(PUBLIC_ID).id)
    finally:
        migrated.close()
        imported.close()


# --- files that are not ours --------------------------------------------------------------


@pytest.mark.parametrize("journal_mode", ["delete", "wal"])
def test_foreign_sqlite_file_is_refused_and_left_byte_for_byte_unchanged(
    tmp_path: Path, journal_mode: str
) -> None:
    path = tmp_path / "notes.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA journal_mode={journal_mode}")
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO notes VALUES (1, 'buy carrots for the horses')")
    conn.commit()
    conn.close()
    before, beside = path.read_bytes(), files_beside(path)
    with pytest.raises(StoreError) as err:
        SqliteStore(path)
    assert err.value.code == "store/foreign"
    assert path.read_bytes() == before
    assert files_beside(path) == beside == ["notes.sqlite3"]  # no -wal or -shm left behind
    assert read(path, "SELECT * FROM notes") == [(1, "buy carrots for the horses")]


def test_garbage_file_is_refused_as_corrupt_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "aids.sqlite3"
    path.write_bytes(b"These are my race notes, not a database.\n" * 200)
    before = path.read_bytes()
    with pytest.raises(StoreError) as err:
        SqliteStore(path)
    assert err.value.code == "store/corrupt"
    assert path.read_bytes() == before
    assert files_beside(path) == ["aids.sqlite3"]


def damaged_store_file(tmp_path: Path) -> Path:
    """Our own data file with a table, then everything after the 100-byte header overwritten
    (a disk or copy gone wrong): the header still says it is ours."""
    path = tmp_path / "aids.sqlite3"
    store = SqliteStore(path)
    service = TableService(store, engines())
    service.import_(load_export(EXPORT_V1))
    store.close()
    assert files_beside(path) == ["aids.sqlite3"]  # the last close checkpointed the WAL
    data = bytearray(path.read_bytes())
    data[100:] = (b"\xde\xad\xbe\xef" * len(data))[: len(data) - 100]
    path.write_bytes(bytes(data))
    return path


def test_damaged_store_file_is_refused_as_corrupt_and_left_unchanged(tmp_path: Path) -> None:
    path = damaged_store_file(tmp_path)
    before = path.read_bytes()
    with pytest.raises(StoreError) as err:
        SqliteStore(path)
    assert path.read_bytes() == before
    assert err.value.code == "store/corrupt"


def test_damaged_store_file_is_refused_with_a_store_error_and_left_unchanged(
    tmp_path: Path,
) -> None:
    path = damaged_store_file(tmp_path)
    before = path.read_bytes()
    with pytest.raises(StoreError) as err:
        SqliteStore(path)
    assert err.value.code in ("store/corrupt", "store/open")
    assert path.read_bytes() == before


def test_file_from_a_newer_schema_is_refused_as_newer_and_left_unchanged(
    tmp_path: Path,
) -> None:
    path = tmp_path / "aids.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {sqlite_store.SCHEMA_VERSION + 1}")
    conn.execute("CREATE TABLE tables (id INTEGER PRIMARY KEY, future TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError) as err:
        SqliteStore(path)
    assert err.value.code == "store/newer"
    assert err.value.params["version"] == sqlite_store.SCHEMA_VERSION + 1
    assert path.read_bytes() == before


def test_directory_path_is_refused_as_store_open(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    with pytest.raises(StoreError) as err:
        SqliteStore(folder)
    assert err.value.code == "store/open"
    assert list(folder.iterdir()) == []


def test_path_under_a_regular_file_is_refused_as_store_open(tmp_path: Path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder\n", encoding="utf-8")
    with pytest.raises(StoreError) as err:
        SqliteStore(blocker / "aids.sqlite3")
    assert err.value.code == "store/open"
    assert blocker.read_text(encoding="utf-8") == "not a folder\n"


def test_missing_folders_of_a_new_file_are_created(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "aids.sqlite3"
    store = SqliteStore(path)
    store.close()
    assert pragma(path, "user_version") == sqlite_store.SCHEMA_VERSION
    assert pragma(path, "application_id") == APPLICATION_ID


# --- durability settings ------------------------------------------------------------------


def test_store_connections_use_synchronous_full_wal_and_foreign_keys(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "aids.sqlite3")
    try:
        # Borrow two at once: the pooled one from opening and a freshly made one.
        with store._connect() as first, store._connect() as second:
            assert first is not second
            for conn in (first, second):
                assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
                assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
                assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    finally:
        store.close()


def test_wal_mode_is_stored_in_the_file_for_other_connections(tmp_path: Path) -> None:
    path = tmp_path / "aids.sqlite3"
    SqliteStore(path).close()
    assert pragma(path, "journal_mode") == "wal"


# --- schema 2 → 3: meets ------------------------------------------------------------------


def test_a_schema_2_file_gains_the_meet_tables_and_keeps_its_tables(tmp_path: Path) -> None:
    """Migration step 2: a file written before events of many tables ("meets") opens with
    empty meet tables beside its own rows, which stay as they were."""
    path = tmp_path / "v2.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(sqlite_store.SCHEMA + sqlite_store.KEYS)
    conn.execute(
        "INSERT INTO tables (public_id, kind, title, created_at, setup, rules_version)"
        " VALUES ('v2-table-0123456789abcdef', 'derby', 'Old', '2026-01-01', '{}', 1)"
    )
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()
    before = read(path, "SELECT * FROM tables")
    store = SqliteStore(path)
    try:
        assert store.list_meets() == []
        assert store.meet_of(store.get_table("v2-table-0123456789abcdef").id) is None
    finally:
        store.close()
    assert pragma(path, "user_version") == sqlite_store.SCHEMA_VERSION
    assert read(path, "SELECT * FROM tables") == before
    names = {r[0] for r in read(path, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"meets", "meet_tables", "figures"} <= names


# --- schema 4 → 5: an event's replaced organiser keys --------------------------------------


def test_a_schema_4_file_keeps_its_events_and_remembers_replaced_organiser_keys(
    tmp_path: Path,
) -> None:
    """Migration step 4: a file written before events remembered their replaced organiser
    keys opens with its events as they were (none replaced yet); the next rotation makes the
    old organiser link answer "replaced"."""
    from aids.meets import MeetService

    path = tmp_path / "v4.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(
        sqlite_store.SCHEMA + sqlite_store.KEYS + sqlite_store.MEETS + sqlite_store.FIGURES
    )
    key = "an-organiser-key-written-by-release-4"
    conn.execute(
        "INSERT INTO meets (public_id, title, date, created_at, scoring, organiser_hash)"
        " VALUES ('v4-meet-0123456789abcdefg', 'Old night', '2026-11-01', '2026-11-01',"
        ' \'{"rule": "placing", "points": [3, 2, 1]}\', ?)',
        (hash_key(key),),
    )
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 4")
    conn.commit()
    conn.close()
    service = TableService(SqliteStore(path), engines())
    try:
        meets = MeetService(service)
        pid = "v4-meet-0123456789abcdefg"
        assert service.store.get_meet(pid).replaced == ()
        assert meets.access(pid, key) == ("organiser", "live")
        new = meets.rotate_key(pid, key)
        assert meets.access(pid, key) == ("viewer", "replaced")
        assert meets.access(pid, new) == ("organiser", "live")
        assert meets.info(pid).title == "Old night"
    finally:
        service.store.close()
    assert pragma(path, "user_version") == sqlite_store.SCHEMA_VERSION


# --- schema 5 → 6: a meet's tables played on paper ------------------------------------------


def test_a_schema_5_file_keeps_its_meets_and_tables_and_takes_paper_tables(
    tmp_path: Path,
) -> None:
    """Migration step 5: a file written before tables played on paper opens with its events
    and their tables as they were, and an event of it then takes paper tables and their
    result logs."""
    from aids.store.base import PaperEntry, PaperRow

    path = tmp_path / "v5.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(
        sqlite_store.SCHEMA
        + sqlite_store.KEYS
        + sqlite_store.MEETS
        + sqlite_store.FIGURES
        + sqlite_store.MEETS_REPLACED
    )
    conn.execute(
        "INSERT INTO tables (public_id, kind, title, created_at, setup, rules_version)"
        " VALUES ('v5-table-0123456789abcdef', 'derby', '古い卓', '2026-11-01', '{}', 1)"
    )
    conn.execute(
        "INSERT INTO meets (public_id, title, date, created_at, scoring, organiser_hash,"
        " replaced) VALUES ('v5-meet-0123456789abcdefg', '秋の夜', '2026-11-01', '2026-11-01',"
        ' \'{"rule": "placing", "points": [3, 2, 1]}\', ?, ?)',
        (hash_key("organiser"), json.dumps([hash_key("older")])),
    )
    conn.execute("INSERT INTO meet_tables (table_id, meet_id, position) VALUES (1, 1, 1)")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 5")
    conn.commit()
    conn.close()
    old = {name: read(path, f"SELECT * FROM {name}") for name in ("tables", "meets", "meet_tables")}
    store = SqliteStore(path)
    try:
        meet = store.get_meet("v5-meet-0123456789abcdefg")
        assert meet.title == "秋の夜" and meet.replaced == (hash_key("older"),)
        assert [t.title for t, _ in store.meet_tables(meet.id)] == ["古い卓"]
        assert store.meet_papers(meet.id) == []
        row = PaperRow(0, "v5-paper-0123456789abcdef", "derby", "紙の卓", "2026-11-02", {})
        paper = store.insert_paper(meet.id, row, by=hash_key("organiser"))
        entry = PaperEntry(1, "entered", {"places": [1, 2]}, None, "organiser", "2026-11-02")
        store.append_paper(meet.id, paper.id, 0, [entry], by=hash_key("organiser"))
        assert store.meet_papers(meet.id) == [(paper, [entry])]
    finally:
        store.close()
    assert pragma(path, "user_version") == sqlite_store.SCHEMA_VERSION == 6
    assert {name: read(path, f"SELECT * FROM {name}") for name in old} == old
    names = {r[0] for r in read(path, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"papers", "paper_entries"} <= names


def test_a_new_file_has_the_same_tables_and_columns_as_a_migrated_one(
    migrated: Path, tmp_path: Path
) -> None:
    """Every step's tables, as a new file gets them at once (``NEW_FILE``) and as a release
    0.1 file gets them one migration at a time: the same tables with the same columns."""
    fresh = tmp_path / "fresh.sqlite3"
    SqliteStore(fresh).close()

    def shape(path: Path) -> dict[str, list[tuple[Any, ...]]]:
        names = [r[0] for r in read(path, "SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: read(path, f"PRAGMA table_info({n})") for n in sorted(names)}

    assert shape(fresh) == shape(migrated)
    assert {"papers", "paper_entries"} <= set(shape(fresh))
