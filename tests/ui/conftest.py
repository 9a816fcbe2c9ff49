"""The tracker pages under Streamlit's AppTest, on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


@pytest.fixture
def app_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's data file (AIDS_DB) in this test's folder; QR codes use a fixed base URL."""
    path = tmp_path / "app.sqlite3"
    monkeypatch.setenv("AIDS_DB", str(path))
    monkeypatch.setenv("AIDS_PUBLIC_URL", "http://race.test:8501")
    return path


def new_app(**params: str) -> AppTest:
    """A fresh session of the app (as a new browser tab) with these URL parameters."""
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    return at.run()
