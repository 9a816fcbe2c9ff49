"""Two tracker processes on one PostgreSQL database, as behind a proxy at a club night: a
write made through one shows on pages served by the other, a viewer's page is told of it by
the database's notice (no read per tick), and the referee's undo on one tracker reaches a
phone on the other."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from aids.core.links import page_url, referee_url
from aids.registry import engines
from aids.store.postgres import PostgresStore
from aids.store.throwaway import create_schema, with_schema
from aids.tables import TableService
from tests.e2e.conftest import tracker
from tests.e2e.helpers import settle, shot, tap
from tests.e2e.scenes import new_table, record

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def two_trackers(pg_server: str) -> Iterator[tuple[str, str, str]]:
    """(database URL, tracker A's base URL, tracker B's) — one schema, two processes."""
    create_schema(pg_server, "e2e_trackers")
    url = with_schema(pg_server, "e2e_trackers")
    with tracker(AIDS_DATABASE_URL=url) as a, tracker(AIDS_DATABASE_URL=url) as b:
        yield url, a, b


def seq_shown(page: Any) -> int:
    return int(page.locator(".aids-seq").last.get_attribute("data-seq"))


def wait_seq(page: Any, seq: int, seconds: float = 15) -> float:
    """Seconds until the page shows log position ``seq``."""
    start = time.monotonic()
    while seq_shown(page) != seq:
        assert time.monotonic() - start < seconds, f"still at {seq_shown(page)}, not {seq}"
        page.wait_for_timeout(100)
    return time.monotonic() - start


def test_a_phone_on_one_tracker_follows_writes_made_through_another(
    two_trackers: tuple[str, str, str], browser: Any
) -> None:
    url, a, b = two_trackers
    store = PostgresStore(url)  # a third process on the database: a second referee device
    service = TableService(store, engines())
    try:
        pid, key = new_table(service, "Club night", 3)
        referee = browser.new_page(viewport=LAPTOP)
        referee.goto(referee_url(a, pid, key, "en"))
        settle(referee, 800)
        phone = browser.new_page(viewport=PHONE)
        phone.goto(page_url(b, pid, "en"))
        settle(phone, 800)
        assert seq_shown(phone) == 0 and seq_shown(referee) == 0

        record(service, pid, key, [(None, "red", "red 3")])  # written by neither tracker
        assert wait_seq(phone, 1) < 5
        assert wait_seq(referee, 1) < 5

        undo = referee.get_by_role("button", name="↶ Undo")
        tap(referee, undo)  # tracker A writes the undo
        assert wait_seq(phone, 2) < 5  # tracker B's phone shows it
        table_id = store.get_table(pid).id
        assert [e.kind for e in store.events(table_id)] == ["action", "undo"]
        assert "Turn: 🟥1 Aki" in phone.inner_text("body").replace("\n", " ")
        shot(phone, "postgres-viewer-on-second-tracker-390", full_page=True)
        referee.close()
        phone.close()
    finally:
        store.close()


def test_a_phone_says_when_the_database_is_out_of_reach_and_recovers_by_itself(
    two_trackers: tuple[str, str, str], browser: Any
) -> None:
    """The database refuses every connection for a while (as during a restart): the phone's
    page shows the store's message in its language, not a traceback, and once the database
    is back it follows the table again with no reload."""
    url, _, b = two_trackers
    store = PostgresStore(url)
    service = TableService(store, engines())
    admin = url.split("?")[0].rsplit("/", 1)[0] + "/postgres"
    try:
        pid, key = new_table(service, "Restart", 3)
        phone = browser.new_page(viewport=PHONE)
        phone.goto(page_url(b, pid, "ja"))
        settle(phone, 800)
        assert seq_shown(phone) == 0
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("ALTER DATABASE aids ALLOW_CONNECTIONS false")
            try:
                conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'aids'"
                )
                warning = phone.locator("[data-testid='stAlertContentWarning']")
                warning.wait_for(timeout=30000)
                assert "記録データに届きません" in warning.inner_text()
                assert "127.0.0.1" not in phone.inner_text("body")  # nor where the data is
                assert "Traceback" not in phone.inner_text("body")
                shot(phone, "postgres-viewer-database-away-ja-390")
            finally:
                conn.execute("ALTER DATABASE aids ALLOW_CONNECTIONS true")
        store.close()
        store = PostgresStore(url)
        service = TableService(store, engines())
        record(service, pid, key, [(None, "red", "red 3")])
        assert wait_seq(phone, 1, seconds=30) < 30
        # the warning goes with the next tick that reaches the data (the first after the
        # outage may still find the pool reconnecting)
        phone.locator("[data-testid='stAlertContentWarning']").wait_for(
            state="detached", timeout=10000
        )
        phone.close()
    finally:
        store.close()
