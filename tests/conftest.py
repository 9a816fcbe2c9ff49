"""Shared fixtures: real SQLite files in temporary folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from aids.games.base import AnyGame
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


FAKE_PLUGIN = "tests.fakegame.plugin"


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
