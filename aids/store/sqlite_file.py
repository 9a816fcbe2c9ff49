"""The SQLite file itself: made private, then created, migrated or refused when opened.

A file carries our ``application_id`` and its schema version (``user_version``): a new file
gets the whole schema, an older one of ours is migrated in place one step per version
(``aids.store.schema``), a file of another program or of a newer release is refused
untouched. Used by ``aids.store.sqlite.SqliteStore`` when it opens a file.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from aids.core.errors import StoreError
from aids.store.schema import (
    APPLICATION_ID,
    MIGRATIONS,
    NEW_FILE,
    RELEASE_0_1_TABLES,
    SCHEMA_VERSION,
)


def create_private(path: Path) -> None:
    """A new data file is made readable by this user alone (0600) before SQLite opens
    it; SQLite gives its -wal and -shm files the same permissions.

    A file that exists is never opened here: SQLite's locks belong to the process, and
    closing any descriptor of the file drops every one of them (another store of this
    process would then be taken for gone by other processes, which delete the WAL index
    it still reads)."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return
    except OSError as exc:
        raise StoreError("store/open", path=str(path), detail=exc.strerror) from None


def make_private(path: Path) -> None:
    """A data file of ours (checked by ``prepare``) that others may read, from an older
    release, is made this user's alone, with its -wal and -shm files."""
    for part in (path, *(Path(f"{path}{s}") for s in ("-wal", "-shm"))):
        try:
            if part.stat().st_mode & 0o077 and part.stat().st_uid == os.getuid():
                part.chmod(0o600)
        except OSError:
            continue  # gone meanwhile, or not ours to change: SQLite still works


def prepare(conn: sqlite3.Connection, path: Path, *, read_only: bool) -> None:
    """Create, migrate or refuse the file: never touch a file that is not ours."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if app_id == 0 and version == 0:
        if names == RELEASE_0_1_TABLES and _has_column(conn, "tables", "referee_key_hash"):
            version = 1  # a file written by release 0.1
        elif names:
            raise StoreError("store/foreign", path=str(path))
    elif app_id != APPLICATION_ID:
        raise StoreError("store/foreign", path=str(path))
    if version > SCHEMA_VERSION:
        raise StoreError("store/newer", path=str(path), version=version)
    if read_only:
        if version != SCHEMA_VERSION:
            raise StoreError("store/read_only_old", path=str(path))
        return
    conn.execute("PRAGMA journal_mode=WAL")
    if version == SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
            version = SCHEMA_VERSION  # another process finished the same step meanwhile
        elif version == 0:
            _run_script(conn, NEW_FILE)
        else:
            for step in range(version, SCHEMA_VERSION):
                _run_script(conn, MIGRATIONS[step])
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run ``;``-separated statements inside the caller's transaction (``executescript``
    would commit it first)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def _has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    return any(r[1] == column for r in conn.execute(f"PRAGMA table_info({table})"))
