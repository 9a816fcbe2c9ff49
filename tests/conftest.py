"""Shared fixtures: real SQLite files in temporary folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "aids.sqlite3"


@pytest.fixture
def service(db_path: Path) -> TableService:
    return TableService(SqliteStore(db_path), engines())


@pytest.fixture
def derby_table(service: TableService) -> tuple[str, str]:
    """A fresh 3-player tracking table: (public id, referee key)."""
    info, key = service.create(
        "derby", "Friday", DerbySetup.default(["Aki", "Ben", "Chie"]).to_dict()
    )
    return info.public_id, key
