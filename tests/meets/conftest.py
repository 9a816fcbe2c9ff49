"""An event service that knows every game and the tests' fake one, on a real SQLite file and
on a real PostgreSQL schema (each test runs on both)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from aids.games.base import AnyGame
from aids.meets import MeetService
from aids.store import open_store
from aids.tables import TableService


@pytest.fixture
def meets(all_service: TableService) -> MeetService:
    return MeetService(all_service)


@pytest.fixture
def meet(meets: MeetService) -> tuple[str, str]:
    """A fresh event: (public id, organiser key)."""
    info, key = meets.create("Friday night", "2025-03-07")
    return info.public_id, key


@pytest.fixture(params=["sqlite", "postgresql"])
def all_service(
    request: pytest.FixtureRequest, db_path: Path, games: dict[str, AnyGame]
) -> Iterator[TableService]:
    """The service of the event tests on each store: the SQLite file, then a PostgreSQL
    schema of its own (the event layer sees only the store interface)."""
    where = str(db_path) if request.param == "sqlite" else request.getfixturevalue("pg_url")
    service = TableService(open_store(where), games)
    yield service
    service.store.close()
