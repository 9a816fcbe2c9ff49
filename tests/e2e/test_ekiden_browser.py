"""A whole Hakone Ekiden relay played through the referee page in chromium, as a new referee
would: reveal each leg's card, play each team's runner in the order the page names, until the
relay is over; then the phone viewer shows the final standings. Screenshots are saved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.core.links import referee_url, viewer_url
from aids.games.base import REFEREE
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import on_screen, settle, shot, tap

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TEAMS = [("あき", "red"), ("Ben", "blue"), ("ちえ", "green")]


def test_a_whole_relay_through_the_referee_page(server: tuple[str, Path], browser: Any) -> None:
    base, db = server
    service = TableService(SqliteStore(db), engines())
    course = [{"slope": "up", "n": 2}] * 5 + [{"slope": "down", "n": 1}] * 5
    setup = {"teams": [{"name": n, "colour": c} for n, c in TEAMS], "start": 0, "course": course}
    info, key = service.create("ekiden", "Browser relay", setup)
    pid = info.public_id
    page = browser.new_page(viewport=LAPTOP)
    page.goto(referee_url(base, pid, key, "en"))
    settle(page, 800)
    for leg in range(1, 11):
        # the card: rank 1 advances, rank 5 goes back; tapped quickly, then Reveal at once
        seq = service.snapshot(pid).seq
        page.locator(f".st-key-mark_{seq}_1 button").first.click()
        page.locator(f".st-key-mark_{seq}_5 button").last.click()
        reveal = page.get_by_role("button", name="Reveal the card")
        on_screen(page, reveal)
        tap(page, reveal)
        state = service.snapshot(pid).state
        assert state.phase == "runners", f"leg {leg} card not revealed"
        assert state.marks == ("o", "-", "-", "-", "x"), "the card as tapped"
        for order in range(len(TEAMS)):
            seq = service.snapshot(pid).seq
            # a value typed and the button clicked at once (no Enter, no pause) is kept
            page.locator(f".st-key-up_{seq} input").fill(str(order + 3))
            play = page.get_by_role("button", name="Play this runner")
            on_screen(page, play)  # the confirm button is on screen at 1280 × 800
            tap(page, play)
            snap = service.snapshot(pid)
            assert snap.seq == seq + 1, f"leg {leg}: the runner was not played"
            entries = snap.state.entries or snap.state.history[-1]
            assert next(e for e in entries if e.order == order).runner.up == order + 3
        if leg == 5:
            shot(page, "ekiden-referee-en-leg5")
    final = service.snapshot(pid, REFEREE)
    assert final.outcome is not None and len(final.state.history) == 10
    assert "The relay is over" in page.inner_text("body")
    shot(page, "ekiden-referee-en-over")
    phone = browser.new_page(viewport=PHONE)
    phone.goto(viewer_url(base, pid, "ja"))
    settle(phone, 1500)
    text = phone.inner_text("body")
    assert "大会終了" in text and "あき" in text
    shot(phone, "ekiden-viewer-ja-390", full_page=True)
    page.close()
    phone.close()
