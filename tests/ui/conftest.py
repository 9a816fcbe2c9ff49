"""The tracker pages under Streamlit's AppTest, on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from aids.ui.sharing import LAZY_SECTIONS

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


def new_app(**params: str) -> AppTest:
    """A fresh session of the app (as a new browser tab) with these URL parameters."""
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    return at.run()


def open_sections(at: AppTest) -> AppTest:
    """The page again with every box it draws only while open opened (``LAZY_SECTIONS``:
    the players' QR, share and print, the keys), as a reader who opens each one."""
    for key in LAZY_SECTIONS:
        at.session_state[key] = True
    return at.run()


def page_html(at: AppTest) -> str:
    """Everything the page drew as HTML (boards, tables, the map)."""
    return "\n".join(h.proto.body for h in at.html)


def ok(at: AppTest) -> AppTest:
    """The run raised nothing and showed no error."""
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    return at
