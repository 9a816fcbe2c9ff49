"""In a real browser: old links cost the referee nothing, and an old tab downloads nothing.

Found at a real table: three tabs kept open on rotated referee links spent the table's
budget of wrong keys at every redraw, and the referee's own clicks were refused; a tab kept
open after its link was rotated still downloaded the whole log.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aids.core.links import referee_url
from aids.games.base import REFEREE
from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.conftest import wait_ready
from tests.e2e.helpers import settle, tap

pytestmark = pytest.mark.e2e
BET = {"type": "bet", "player": 0, "horse": 2}


def open_page(browser, url: str):  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page.goto(url)
    wait_ready(page)
    return page


def test_three_stale_referee_tabs_refuse_none_of_the_referees_clicks(
    server: tuple[str, Path], browser
) -> None:  # type: ignore[no-untyped-def]
    base, db = server
    service = TableService(SqliteStore(db), engines())
    info, key = service.create("derby", "Stale tabs", DerbySetup.default(["Aki", "Ben"]).to_dict())
    pid = info.public_id
    stale = []
    for _ in range(3):
        stale.append(open_page(browser, referee_url(base, pid, key, "en")))
        key = service.rotate_key(pid, key, REFEREE)
    referee = open_page(browser, referee_url(base, pid, key, "en"))
    for tab in stale:
        tab.reload()
        wait_ready(tab)
        assert "replaced by a newer one" in tab.locator("[data-testid='stAlert']").inner_text()
    for round_ in range(6):  # a bet, then undo: twelve writes, each redrawing every tab
        tap(referee, referee.locator(".st-key-bet_box button").filter(has_text="Green").first)
        tap(referee, referee.get_by_role("button", name="Place counter"))
        referee.locator(".st-key-bet_box [data-key='bet_note']").wait_for(timeout=30000)
        tap(referee, referee.get_by_role("button", name="Undo"))
        assert service.snapshot(pid).seq == 2 * (round_ + 1)
        alerts = referee.locator("[data-testid='stAlert']").all_inner_texts()
        assert not [a for a in alerts if "wrong keys" in a or "read-only" in a], alerts
    for tab in stale:  # the old tabs followed along, read-only, told why
        settle(tab, 2500)
        assert tab.locator(".st-key-controls").count() == 0
        tab.close()
    referee.close()


def test_a_tab_whose_link_was_rotated_downloads_nothing(
    server: tuple[str, Path], browser, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    base, db = server
    service = TableService(SqliteStore(db), engines())
    info, old = service.create("derby", "Old tab", DerbySetup.default(["Aki", "Ben"]).to_dict())
    pid = info.public_id
    tab = open_page(browser, referee_url(base, pid, old, "en"))
    tab.get_by_text("Share and print").click()
    button = tab.get_by_role("button", name="Export table (JSON)")
    button.wait_for(timeout=30000)
    new = service.rotate_key(pid, old, REFEREE)  # from another device; the tab is not redrawn
    with pytest.raises(Exception, match="Timeout"), tab.expect_download(timeout=6000):
        button.click()
    fresh = open_page(browser, referee_url(base, pid, new, "en"))
    service.record(pid, new, 0, BET)
    fresh.reload()
    wait_ready(fresh)
    fresh.get_by_text("Share and print").click()
    with fresh.expect_download(timeout=30000) as download:
        fresh.get_by_role("button", name="Export table (JSON)").click()
    path = tmp_path / "export.json"
    download.value.save_as(path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert len(document["events"]) == 1
    tab.close()
    fresh.close()


def test_an_organiser_tab_whose_link_was_rotated_downloads_nothing(
    server: tuple[str, Path], browser
) -> None:  # type: ignore[no-untyped-def]
    from aids.core.links import organiser_url
    from aids.meets import MeetService

    base, db = server
    meets = MeetService(TableService(SqliteStore(db), engines()))
    info, old = meets.create("Old organiser tab", "2026-12-01")
    tab = open_page(browser, organiser_url(base, info.public_id, old, "en"))
    tab.get_by_role("tab", name="Print and export").click()
    button = tab.get_by_role("button", name="Export the event (JSON)")
    button.wait_for(timeout=30000)
    new = meets.rotate_key(info.public_id, old)
    with pytest.raises(Exception, match="Timeout"), tab.expect_download(timeout=6000):
        button.click()
    assert meets.role_for(info.public_id, new) == "organiser"
    tab.close()
