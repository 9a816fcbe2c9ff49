"""In a real browser: the referee records a bet and a card; a second page (viewer) updates."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from aids.core.links import page_url, referee_url, viewer_url
from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.conftest import wait_ready

pytestmark = pytest.mark.e2e


def page_problems(page) -> str:  # type: ignore[no-untyped-def]
    """Exceptions and errors Streamlit shows on the page, for a failure message."""
    shown = page.locator("[data-testid='stException'], [data-testid='stAlert']")
    return " | ".join(shown.all_inner_texts()) or "(no exception or alert shown)"


def click(page, locator) -> None:  # type: ignore[no-untyped-def]
    """Click once the element is there; on failure say what the page showed instead."""
    try:
        locator.click(timeout=30000)
    except Exception as exc:
        raise AssertionError(f"could not click: {page_problems(page)}") from exc
    wait_ready(page)


def test_referee_records_and_viewer_updates(server: tuple[str, Path], browser) -> None:  # type: ignore[no-untyped-def]
    base, db = server
    service = TableService(SqliteStore(db), engines())
    info, key = service.create("derby", "E2E Derby", DerbySetup.default(["Aki", "Ben"]).to_dict())
    pid = info.public_id

    viewer = browser.new_page(viewport={"width": 390, "height": 844})
    viewer.goto(page_url(base, pid, "en"))
    wait_ready(viewer)
    assert viewer.locator(".st-key-controls").count() == 0  # no controls
    assert viewer.get_by_role("button", name="Play card").count() == 0
    viewer.locator("table.derby").wait_for(timeout=10000)

    referee = browser.new_page(viewport={"width": 1280, "height": 1000})
    referee.goto(referee_url(base, pid, key, "en"))
    wait_ready(referee)
    referee.locator(".st-key-controls").wait_for(timeout=30000)

    # bet: Aki places a counter on Green at fence 1
    click(referee, referee.locator(".st-key-bet_box button").filter(has_text="Green").first)
    click(referee, referee.get_by_role("button", name="Place counter"))
    # the bet is in once the bet box says so (one bet per turn; the box keeps its place); a
    # click on the old play box while the page is still re-drawing would be lost, as it would
    # be for a person
    referee.locator(".st-key-bet_box [data-key='bet_note']").wait_for(timeout=30000)

    # card: horse, card, confirm — three taps
    play_box = referee.locator(".st-key-play_box")
    groups = play_box.locator("[data-testid='stButtonGroup']")
    click(referee, groups.first.locator("button").filter(has_text="Green").first)
    click(referee, groups.nth(1).locator("button").filter(has_text="7").first)
    referee.get_by_role("button", name="Play card").click()
    clicked = time.monotonic()
    # the viewer, untouched, shows the card by itself (it polls the store every second)
    viewer.locator("table.derby .chip", has_text="7").first.wait_for(timeout=10000)
    seen_after = time.monotonic() - clicked
    print(f"viewer updated {seen_after:.2f} s after the click")
    assert seen_after < 4  # the page promises ~2 s; slack for a loaded CI machine
    wait_ready(referee)

    deadline = time.monotonic() + 30
    while service.snapshot(pid).seq < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    state = service.snapshot(pid).state
    assert [(c.player, c.horse, c.fence) for c in state.counters] == [(0, 2, 1)]
    assert state.top_card(1, 2) is not None and state.top_card(1, 2).code() == "green:7"

    counter = viewer.locator("table.derby td.slot .aids-badge").first
    counter.wait_for(timeout=10000)  # Aki's counter, with her seat number
    assert counter.inner_text() == "1"
    assert viewer.locator("text=Ben").count() >= 1  # whose turn now


def test_sheet_downloaded_from_the_page_scans_to_the_viewer(
    server: tuple[str, Path], browser, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from tests.print.test_derby_sheet import decode_qr, page_text

    base, db = server
    service = TableService(SqliteStore(db), engines())
    info, key = service.create("derby", "Download", DerbySetup.default(["Aki", "Ben"]).to_dict())
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(referee_url(base, info.public_id, key, "en"))
    wait_ready(page)
    page.get_by_text("Share and print").click()
    with page.expect_download(timeout=30000) as download:
        page.get_by_role("button", name="Download score sheet (PDF)").click()
    path = tmp_path / "sheet.pdf"
    download.value.save_as(path)
    pdf = path.read_bytes()
    assert pdf.startswith(b"%PDF")
    assert decode_qr(pdf) == [viewer_url(base, info.public_id, "en")]  # the live view
    assert "Aki" in page_text(pdf)
