"""The Derby's referee page in chromium: the taps a bet and a card take (counted and printed;
issue 19 keeps them at 2 and 3), the turn's one discard count shown only when a discard is
possible, and an English page with no Japanese but the names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.core.links import page_url, referee_url
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import settle, shot
from tests.e2e.scenes import NAMES, mid_race, new_table
from tests.e2e.test_ekiden_browser import LANGUAGE_SWITCH, Reruns, open_sections, wait_seq

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def choices(page: Any, box: str) -> Any:
    return page.locator(f".st-key-{box} [role='radiogroup']")


def tap_and_wait(page: Any, locator: Any) -> None:
    """A tap whose rerun the next tap needs (the cards of the horse just chosen)."""
    locator.click()
    settle(page)


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
def test_taps_per_bet_and_card(server: tuple[str, Path], browser: Any, viewport: dict) -> None:
    """Entry speed (issue 19): a bet is horse + Place counter (2 taps), a card horse + card +
    Play card (3); counted in the browser and printed, the same on a phone."""
    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = new_table(service, f"Taps {viewport['width']}", 3)
    page = browser.new_page(viewport=viewport)
    reruns = Reruns(page)
    page.goto(referee_url(base, pid, key, "en"))
    settle(page, 800)
    assert page.locator(".st-key-play_box input").count() == 0  # no discard count at fence 1

    seq, before = service.snapshot(pid).seq, reruns.count
    bet = [choices(page, "bet_box").locator("button").nth(2), page.locator(".st-key-bet_go button")]
    for button in bet:
        tap_and_wait(page, button)
    wait_seq(page, service, pid, seq + 1)
    assert service.snapshot(pid).state.counters[-1].horse == 2
    bet_reruns = reruns.count - before

    seq, before = service.snapshot(pid).seq, reruns.count
    card = [choices(page, "play_box").first.locator("button").nth(2)]
    tap_and_wait(page, card[0])
    card.append(choices(page, "play_box").nth(1).locator("button").nth(5))
    tap_and_wait(page, card[1])
    card.append(page.locator(".st-key-play_go button"))
    card[2].click()
    wait_seq(page, service, pid, seq + 1)
    assert service.snapshot(pid).log[-1].action.to_dict()["card"] == "green:5"
    card_reruns = reruns.count - before
    shot(page, f"derby-taps-{viewport['width']}")
    print(
        f"\nDerby taps at {viewport['width']} px: bet {len(bet)} ({bet_reruns} reruns),"
        f" card {len(card)} ({card_reruns} reruns: the horse's cards come from the engine)"
    )
    assert (len(bet), len(card)) == (2, 3)
    page.close()


def test_after_a_fall_one_discard_count_for_the_turn(
    server: tuple[str, Path], browser: Any
) -> None:
    """Discard (step 4): after a fall the turn has one discard count, none "if passing"
    beside it, and the status gives the draw pile as at most N."""
    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = mid_race(service, 4, "en")
    page = browser.new_page(viewport=LAPTOP)
    page.goto(referee_url(base, pid, key, "en"))
    settle(page, 800)
    seq = service.snapshot(pid).seq
    page.locator(f".st-key-discards_{seq}").wait_for()  # the turn's boxes are drawn
    assert page.locator(".st-key-play_box input").count() == 1
    assert "at most" in page.locator(".aids-banner").first.inner_text()
    assert "≈" not in page.inner_text("body")
    page.close()


def test_an_english_page_holds_no_japanese_but_the_names(
    server: tuple[str, Path], browser: Any
) -> None:
    """English pages are English (issue 19): the Derby's referee and viewer pages at
    1280 × 800, every section open, hold no Japanese but the language switch."""
    from tests.e2e.fit import japanese

    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = mid_race(service, 4, "en")
    page = browser.new_page(viewport=LAPTOP)
    for url in (referee_url(base, pid, key, "en"), page_url(base, pid, "en")):
        page.goto(url)
        settle(page, 1500)
        open_sections(page)
        assert japanese(page, NAMES + LANGUAGE_SWITCH) == [], url
    page.close()
