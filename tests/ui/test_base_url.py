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
from tests.ui.conftest import new_app, open_sections


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
    at = open_sections(new_app(table=info.public_id, key=key, lang="en"))
    links = [c.value for c in at.code if "table=" in c.value or "/live/" in c.value]
    assert links and all(":8765/?table=" in link or ":8765/live/" in link for link in links)


def test_a_configured_public_url_wins(app_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIDS_PUBLIC_URL", "https://race.example.org/")
    service = TableService(SqliteStore(app_db), engines())
    info, key = service.create("derby", "Url", DerbySetup.default(["A", "B"]).to_dict())
    at = open_sections(new_app(table=info.public_id, key=key, lang="en"))
    links = [c.value for c in at.code if "table=" in c.value or "/live/" in c.value]
    assert links and all(link.startswith("https://race.example.org/") for link in links)


def test_a_tracker_serving_this_machine_alone_links_to_localhost(
    app_db: Path, served_on_8765: None
) -> None:
    """Bound to 127.0.0.1 no phone can reach any address of this machine: the links say
    localhost (the README's rule), not a LAN address that would not answer."""
    before = config.get_option("server.address")
    config.set_option("server.address", "127.0.0.1")
    try:
        service = TableService(SqliteStore(app_db), engines())
        info, key = service.create("derby", "Local", DerbySetup.default(["A", "B"]).to_dict())
        at = open_sections(new_app(table=info.public_id, key=key, lang="en"))
    finally:
        config.set_option("server.address", before)
    links = [c.value for c in at.code if "table=" in c.value or "/live/" in c.value]
    assert links and all(link.startswith("http://localhost:8765/") for link in links)


def test_aids_new_beside_a_local_only_tracker_prints_localhost(tmp_path: Path) -> None:
    import json
    import os
    import subprocess
    import sys

    from aids.paths import ROOT

    (tmp_path / "tracker.json").write_text(
        json.dumps({"pid": os.getpid(), "port": 8612, "address": "127.0.0.1"})
    )
    env = dict(os.environ, AIDS_DB=str(tmp_path / "a.sqlite3"))
    env.pop("AIDS_PUBLIC_URL", None)
    env.pop("AIDS_PORT", None)
    out = subprocess.run(
        [sys.executable, "-m", "aids.cli", "--lang", "en", "new", "derby", "--title", "T",
         "--player", "A", "--player", "B"], env=env, cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "http://localhost:8612/live/" in out.stdout
