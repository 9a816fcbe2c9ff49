"""A whole Grand National played through the pages in chromium, as a new table would: each
player writes a blind bet on their own phone (390 px), the referee records the going, the lane
spins, a bet and the start, then every move to the finish on a short track; the phone viewer
shows the settled money. Screenshots are saved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.core.links import referee_url, viewer_url
from aids.games.base import REFEREE, Role
from aids.games.grand_national import engine
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import on_screen, settle, shot, tap
from tests.ui.test_gn_page import short_table

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def pill(page: Any, key: str, text: str) -> None:
    tap(page, page.locator(f".st-key-{key} button").filter(has_text=text).first)


def test_a_whole_grand_national_through_the_pages(server: tuple[str, Path], browser: Any) -> None:
    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = short_table(service)
    for seat, stake in ((0, "10000"), (1, "0"), (2, "2500")):
        own = service.rotate_key(pid, key, Role.seat_of(seat))
        phone = browser.new_page(viewport=PHONE)
        phone.goto(referee_url(base, pid, own, "en"))
        settle(phone, 800)
        seq = service.snapshot(pid).seq
        phone.locator(f".st-key-bs_{seq} input").fill(stake)
        seal = phone.get_by_role("button", name="Seal my blind bet")
        if seat == 0:
            on_screen(phone, seal)
            shot(phone, "gn-seat-en-390-blind")
        tap(phone, seal)
        assert service.snapshot(pid, Role.seat_of(seat)).state.blind[seat] is not None
        phone.close()
    page = browser.new_page(viewport=LAPTOP)
    page.goto(referee_url(base, pid, key, "en"))
    settle(page, 800)
    assert "10,000" not in page.inner_text("body")  # sealed from the referee too
    seq = service.snapshot(pid).seq
    pill(page, f"going_{seq}", "Soft")
    tap(page, page.get_by_role("button", name="Record the going"))
    for lane in range(1, 5):
        seq = service.snapshot(pid).seq
        pill(page, f"lane{lane}_{seq}", "Red")
        tap(page, page.get_by_role("button", name=f"Record lane {lane}"))
    assert service.snapshot(pid).state.phase == "market"
    seq = service.snapshot(pid).seq
    page.locator(f".st-key-wa_{seq} input").fill("3000")
    tap(page, page.get_by_role("button", name="Take the bet"))
    assert service.snapshot(pid).state.wagers[0].stake == 3000
    shot(page, "gn-referee-en-market")
    tap(page, page.get_by_role("button", name="They're off: start the race"))
    for _ in range(120):
        snap = service.snapshot(pid, REFEREE)
        if snap.outcome is not None:
            break
        state = snap.state
        if engine.needs_spin(state):
            pill(page, f"spin_{snap.seq}", "Blue")
            tap(page, page.get_by_role("button", name="Record the spin"))
            continue
        horse = engine.next_horse(state)
        assert horse is not None
        page.locator(f".st-key-mf_{snap.seq} input").fill(str(state.handicap[horse] + 5))
        move = page.get_by_role("button", name="Move", exact=True)
        on_screen(page, move)  # the confirm button is on screen at 1280 × 800
        tap(page, move)
        assert service.snapshot(pid).seq == snap.seq + 1, "the move was not recorded"
        if state.round == 2 and horse == 4:
            shot(page, "gn-referee-en-race")
    final = service.snapshot(pid, REFEREE)
    assert final.outcome is not None and final.state.settled and len(final.state.placed) == 4
    assert final.state == service.replay(pid)
    phone = browser.new_page(viewport=PHONE)
    phone.goto(viewer_url(base, pid, "ja"))
    settle(phone, 1500)
    text = phone.inner_text("body")
    assert "勝者" in text and "$" in text
    shot(phone, "gn-viewer-ja-390", full_page=True)
    page.close()
    phone.close()


def test_a_table_on_the_boards_own_track_file(
    server: tuple[str, Path], browser: Any, tmp_path: Path
) -> None:
    """The referee loads a track file on New table: a broken one is refused with the item
    named; a good one becomes the table's track."""
    import json

    from tests.ui.test_gn_page import SHORT

    base, db = server
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(SHORT | {"landmarks": SHORT["landmarks"] | {"bechers": 4}}))
    good = tmp_path / "short.json"
    good.write_text(json.dumps(SHORT))
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{base}/?lang=en")
    settle(page, 800)
    page.get_by_role("tab", name="New table").click()
    box = page.locator(".st-key-new_game input")
    box.click()
    box.fill("Grand National")
    page.keyboard.press("Enter")
    settle(page)
    upload = page.locator(".st-key-gn_track_file input[type=file]")
    upload.set_input_files(str(broken))
    settle(page, 800)
    assert "Becher's Brook (4) must be one of the fences" in page.inner_text("body")
    upload.set_input_files(str(good))
    settle(page, 800)
    assert "Short test track — a lap of 12 lengths" in page.inner_text("body")
    page.locator(".st-key-new_title input").fill("Own track")
    for i, name in enumerate(["Aki", "Ben"]):
        page.locator(f".st-key-gn_stable_{i} input").fill(name)
    tap(page, page.get_by_role("button", name="Create table"))
    settle(page, 800)
    pid = page.url.split("table=")[1].split("&")[0]
    state = TableService(SqliteStore(db), engines()).snapshot(pid).state
    assert state.setup.track.lap == 12 and not state.setup.track.sample
    page.close()
