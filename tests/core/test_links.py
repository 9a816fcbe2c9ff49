"""Links for QR codes: configured base URL, viewer vs referee link."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from aids.core.links import page_url, public_base_url, referee_url, viewer_url


def test_base_url_from_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIDS_PUBLIC_URL", "https://derby.example.org/")
    assert public_base_url() == "https://derby.example.org"
    assert public_base_url("http://10.0.0.9:9000") == "http://10.0.0.9:9000"


def test_default_base_url_uses_the_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AIDS_PUBLIC_URL", raising=False)
    monkeypatch.setenv("AIDS_PORT", "8765")
    assert public_base_url().endswith(":8765")


def test_viewer_link_has_no_key_referee_link_has_it() -> None:
    """Issue 27 §1: the link players scan opens the table's live view; the full page has its
    own link; only the referee's link holds a key."""
    viewer = urlparse(viewer_url("http://h:1", "PUB", "ja"))
    assert viewer.path == "/live/PUB" and parse_qs(viewer.query) == {"lang": ["ja"]}
    page = urlparse(page_url("http://h:1", "PUB", "ja"))
    assert parse_qs(page.query) == {"table": ["PUB"], "lang": ["ja"]}
    referee = urlparse(referee_url("http://h:1", "PUB", "K+/=", None))
    assert parse_qs(referee.query) == {"table": ["PUB"], "key": ["K+/="]}
