"""Shared fixtures: real SQLite files in temporary folders, a real PostgreSQL server."""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from aids.games.base import AnyGame
from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.store.throwaway import NoServer, ThrowawayServer, create_schema, with_schema
from aids.tables import TableService

pytest_plugins = ["tests.bad_input.tally"]


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


FAKE_PLUGIN = "tests.fakegame.plugin"
MAIN = sys.modules["__main__"]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """Streamlit's AppTest runs a page as ``__main__`` and leaves it in ``sys.modules``: a
    process started with "spawn" after it (a PostgreSQL appender, a chances worker) would
    run that page's temporary file again as its main module and die. After each test the
    runner's own ``__main__`` is put back, so a test does not depend on which ran before it
    in its process (xdist gives each worker another order)."""
    try:
        return (yield)
    finally:
        sys.modules["__main__"] = MAIN


@pytest.fixture
def with_fake_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the tests' fake game (Sealed Sprint) for this test, as a plugin would be."""
    monkeypatch.setenv("AIDS_GAME_PLUGINS", FAKE_PLUGIN)


@pytest.fixture
def games(with_fake_game: None) -> dict[str, AnyGame]:
    """Every registered game plus the fake one, by kind."""
    return engines()


@pytest.fixture
def all_service(db_path: Path, games: dict[str, AnyGame]) -> TableService:
    """A service on a real SQLite file that knows every game, the fake one included."""
    return TableService(SqliteStore(db_path), games)


@pytest.fixture
def derby_table_all(all_service: TableService) -> tuple[str, str]:
    """A Derby table on the service that also knows the fake game."""
    info, key = all_service.create(
        "derby", "Friday", DerbySetup.default(["Aki", "Ben", "Chie"]).to_dict()
    )
    return info.public_id, key


@pytest.fixture
def app_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's data file (AIDS_DB) in this test's folder; QR codes use a fixed base URL."""
    path = tmp_path / "app.sqlite3"
    monkeypatch.setenv("AIDS_DB", str(path))
    monkeypatch.setenv("AIDS_PUBLIC_URL", "http://race.test:8501")
    monkeypatch.setenv("AIDS_CHANCE_PLAYOUTS", "1000")  # the pages' chances: cheap in tests
    monkeypatch.setenv("AIDS_CHANCE_SECONDS", "0.3")
    return path


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A PostgreSQL database for the session: ``AIDS_TEST_DATABASE_URL`` if set, else a
    throwaway server (temporary folder, free port) stopped when the tests end. Skips, naming
    what to install, only where the server is not installed."""
    given = os.environ.get("AIDS_TEST_DATABASE_URL")
    if given:
        yield given
        return
    try:
        server = ThrowawayServer().start()
    except NoServer as exc:
        pytest.skip(str(exc))
    try:
        yield server.url()
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: str, tmp_path: Path) -> str:
    """A fresh, empty schema of its own for this test (calling twice gives the same one)."""
    schema = "t_" + hashlib.sha256(str(tmp_path).encode()).hexdigest()[:20]
    create_schema(pg_server, schema)
    return with_schema(pg_server, schema)
