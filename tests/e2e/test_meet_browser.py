"""The event page in chromium against a real tracker: an event made on the home page shows
its organiser link once; anyone's event page shows the standings and the tables (each with
its QR code) at a glance on a laptop (1280 × 800) and a phone (390 px), and follows the
tables on its own. Screenshots are saved (``helpers.SHOTS``) for a person to look at."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from aids.core.links import meet_url, organiser_url
from aids.meets import MeetService
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import on_screen, settle, shot, tap
from tests.e2e.scenes import mid_race, record
from tests.games.derby.test_full_race import RACE
from tests.print.tables import hand_worked

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def meets_of(server: tuple[str, Path]) -> MeetService:
    return MeetService(TableService(SqliteStore(server[1]), engines()))


@pytest.fixture(scope="module")
def night(server: tuple[str, Path]) -> tuple[str, str, str, str]:
    """An event with a finished Derby and one mid-race: (event id, organiser key, mid-race
    table id, its referee key)."""
    meets = meets_of(server)
    info, key = meets.create("Friday race night · 金曜レースナイト", "2025-03-07")
    done = hand_worked(meets.tables, title="Heat 1")
    meets.add_table(info.public_id, None, done.info.public_id, host=True)  # the host's tool
    pid, referee = mid_race(meets.tables)
    meets.add_table(info.public_id, key, pid, table_key=referee)
    return info.public_id, key, pid, referee


def open_page(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport)
    page.goto(url)
    settle(page, 1200)
    return page


@pytest.mark.parametrize(("lang", "viewport"), [("en", LAPTOP), ("ja", PHONE)])
def test_standings_and_the_first_table_are_on_screen_without_scrolling(
    server: tuple[str, Path], browser: Any, night: tuple[str, str, str, str], lang: str,
    viewport: dict[str, int],
) -> None:  # fmt: skip
    base = server[0]
    page = open_page(browser, meet_url(base, night[0], lang), viewport)
    standings = page.locator(".st-key-meet_standings")
    on_screen(page, standings.locator("h3"))
    on_screen(page, standings.locator("table.aids-standings tr").nth(1))  # the leader
    if viewport is LAPTOP:  # beside the standings: the first table, its QR code and status
        on_screen(page, page.locator(".st-key-meet_table_0 img"))
        on_screen(page, page.locator(".st-key-meet_table_0 p.aids-table-line"))
    assert page.locator("[data-testid='stTabs']").count() == 0  # a viewer: no organiser tools
    assert page.locator(".st-key-meet_tables img").count() == 2  # a QR code per table
    width = "1280" if viewport is LAPTOP else "390"
    tall = {"width": viewport["width"], "height": 2400 if viewport is LAPTOP else 3400}
    page.set_viewport_size(tall)
    page.wait_for_timeout(500)
    shot(page, f"meet-viewer-{lang}-{width}")
    page.close()


def test_the_event_page_follows_a_table_on_its_own(
    server: tuple[str, Path], browser: Any, night: tuple[str, str, str, str]
) -> None:
    base = server[0]
    meets = meets_of(server)
    page = open_page(browser, meet_url(base, night[0], "en"), LAPTOP)
    line = page.locator(".st-key-meet_table_1 p.aids-table-line")
    before = line.inner_text()
    seq = meets.tables.snapshot(night[2]).seq
    assert f"Step {seq}" in before
    record(meets.tables, night[2], night[3], RACE[12:13])  # no reload: the fragment re-reads
    after = meets.tables.snapshot(night[2]).seq
    deadline = time.monotonic() + 15
    while f"Step {after}" not in line.inner_text() and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert f"Step {after}" in line.inner_text()
    page.close()


def test_an_event_made_on_home_shows_its_organiser_link_once_then_the_tools(
    server: tuple[str, Path], browser: Any
) -> None:
    base = server[0]
    page = open_page(browser, f"{base}/?lang=en", LAPTOP)
    tap(page, page.get_by_role("tab", name="Events"))
    page.get_by_label("Event title").fill("Saturday <b>night</b>")
    tap(page, page.get_by_role("button", name="Create event"))
    dialog = page.get_by_role("dialog")
    dialog.wait_for(timeout=30000)
    link = dialog.locator("code").inner_text()
    assert "key=" in link and "meet=" in link
    dialog.locator("img").first.wait_for()  # the QR code for the organiser's own phone
    shot(page, "meet-created-dialog-en")
    tap(page, dialog.get_by_role("button", name="Done, I have kept the link"))
    page.get_by_role("dialog").wait_for(state="detached", timeout=30000)  # closed
    assert page.locator("h1.aids-title").inner_text() == "Saturday <b>night</b>"  # as text
    on_screen(page, page.locator(".st-key-meet_standings h3"))
    page.get_by_role("tab", name="Add a table").wait_for()
    pid = link.split("meet=")[1].split("&")[0]
    key = link.split("key=")[1].split("&")[0]
    assert meets_of(server).role_for(pid, key) == "organiser"
    page.reload()
    settle(page, 800)
    assert page.get_by_role("dialog").count() == 0  # shown once
    page.close()


def test_organiser_page_screenshots(
    server: tuple[str, Path], browser: Any, night: tuple[str, str, str, str]
) -> None:
    base = server[0]
    for lang, view, tall in (("en", LAPTOP, 2400), ("ja", PHONE, 3400)):
        page = open_page(browser, organiser_url(base, night[0], night[1], lang), view)
        on_screen(page, page.locator(".st-key-meet_standings h3"))
        page.get_by_role("tab", name="Add a table" if lang == "en" else "テーブルを追加").wait_for()
        page.set_viewport_size({"width": view["width"], "height": tall})
        page.wait_for_timeout(500)
        shot(page, f"meet-organiser-{lang}-{view['width']}")
        page.close()
