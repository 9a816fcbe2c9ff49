"""Under the board in chromium: the live chances arrive from the server's worker process and
follow the race, and the race chart is drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.core.links import page_url, referee_url
from aids.games.derby import engine
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import settle, shot
from tests.e2e.scenes import mid_race

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}


def test_a_phone_gets_the_chances_from_the_worker_and_they_follow_the_race(
    server: tuple[str, Path], browser: Any
) -> None:
    """Chances (issue 11): computed in the server's worker process after each action (never
    in the write's way) and shown on the viewer's phone with how they were made."""
    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = mid_race(service)
    page = browser.new_page(viewport=PHONE)
    page.goto(page_url(base, pid, "en"))
    settle(page, 500)
    chances = page.locator(".st-key-chances")
    chances.get_by_text("races simulated from this position").wait_for(timeout=60000)
    assert chances.locator("caption").all_inner_texts() == ["Wins", "Finishes", "Expected points"]
    assert page.locator("[data-testid='stVegaLiteChart']").count() == 1  # the race chart
    shot(page, "chances-phone", full_page=True)
    seq = service.snapshot(pid).seq
    service.record(pid, key, seq, _play(service, pid))
    page.wait_for_function(
        "n => Number(document.querySelector('.aids-seq')?.dataset.seq) >= n",
        arg=seq + 1,
        timeout=30000,
    )
    chances.get_by_text("Updating").or_(chances.get_by_text("races simulated")).first.wait_for(
        timeout=60000
    )
    page.close()


def test_the_referees_page_shows_the_new_figures_once_they_are_ready_with_no_tap(
    server: tuple[str, Path], browser: Any
) -> None:
    """After another device's action the referee's page redraws with the last figures marked
    "Updating", then redraws again by itself once the newest are computed."""
    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = mid_race(service)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(referee_url(base, pid, key, "en"))
    settle(page, 500)
    chances = page.locator(".st-key-chances")
    chances.get_by_text("races simulated from this position").wait_for(timeout=60000)
    seq = service.snapshot(pid).seq
    service.record(pid, key, seq, _play(service, pid))
    page.wait_for_function(
        "n => Number(document.querySelector('.aids-seq')?.dataset.seq) >= n",
        arg=seq + 1,
        timeout=30000,
    )
    page.wait_for_function(  # fresh figures, drawn without anyone touching the page
        "() => { const c = document.querySelector('.st-key-chances');"
        " return c && c.innerText.includes('races simulated')"
        " && !c.innerText.includes('Updating'); }",
        timeout=60000,
    )
    assert service.seq(pid) == seq + 1
    page.close()


def _play(service: TableService, pid: str) -> dict[str, Any]:
    state = service.replay(pid)
    action = next(a for a in engine.legal_actions(state) if type(a).__name__ == "PlayCard")
    return {"type": "play", "player": action.player, "horse": action.horse,
            "card": f"{action.card.colour}:{action.card.value}"}  # fmt: skip
