"""Persistence of tables, their append-only event logs and meets.

``open_store`` is the one place that picks the store: PostgreSQL when ``AIDS_DATABASE_URL``
is a ``postgresql://`` address (several tracker processes on one database), else the embedded
SQLite file (``AIDS_DB`` or ``data/aids.sqlite3``).
"""

from __future__ import annotations

import os
import re

from aids.store.base import Store


def store_locator() -> str:
    """Where the store is: the database URL, or the SQLite file's path (a cache key too)."""
    from aids.paths import database_path

    return os.environ.get("AIDS_DATABASE_URL", "").strip() or str(database_path())


def shown(locator: str) -> str:
    """The locator as it may be printed: a database URL without its password."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", locator)


def is_server(locator: str) -> bool:
    return locator.startswith(("postgresql://", "postgres://"))


def open_store(locator: str | None = None) -> Store:
    """The store at ``locator`` (default: ``store_locator()``)."""
    where = store_locator() if locator is None else locator
    if os.environ.get("AIDS_DATABASE_URL", "").strip() and locator is None and not is_server(where):
        from aids.core.errors import StoreError

        raise StoreError("store/url", detail=shown(where)[:80])
    if is_server(where):
        from aids.store.postgres import PostgresStore

        return PostgresStore(where)
    from aids.store.sqlite import SqliteStore

    return SqliteStore(where)
