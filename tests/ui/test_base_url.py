"""One base-URL rule for the page and the CLI: AIDS_PUBLIC_URL, else this machine's address and
the port the tracker actually serves on (never a guessed 8501 printed into a QR code)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit import config

from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.ui.conftest import new_app


@pytest.fixture
def served_on_8765(app_db: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("AIDS_PUBLIC_URL")
    monkeypatch.delenv("AIDS_PORT", raising=False)
    before = config.get_option("server.port")
    config.set_option("server.port", 8765)  # as `streamlit run --server.port 8765` would
    yield
    config.set_option("server.port", before)


def test_the_page_prints_the_port_it_is_served_on(app_db: Path, served_on_8765: None) -> None:
    service = TableService(SqliteStore(app_db), engines())
    info, key = service.create("derby", "Port", DerbySetup.default(["A", "B"]).to_dict())
    at = new_app(table=info.public_id, key=key, lang="en")
    links = [c.value for c in at.code if "table=" in c.value]
    assert links and all(":8765/?table=" in link for link in links)


def test_a_configured_public_url_wins(app_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIDS_PUBLIC_URL", "https://race.example.org/")
    service = TableService(SqliteStore(app_db), engines())
    info, key = service.create("derby", "Url", DerbySetup.default(["A", "B"]).to_dict())
    at = new_app(table=info.public_id, key=key, lang="en")
    links = [c.value for c in at.code if "table=" in c.value]
    assert links and all(link.startswith("https://race.example.org/?table=") for link in links)
