"""axe-core (WCAG 2 A/AA) in chromium finds nothing on the home page, the referee page
mid-race, the referee page of a player with no card, and the phone viewer, in both languages
(a Derby; a rally's referee page with its card chips and its phone viewer with the map; a
Grand National's referee page in the race and its phone viewer).

axe-core comes from PyPI at install time (``axe-playwright-python`` bundles axe.min.js); it is
never copied into the repository.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.core.links import page_url, referee_url
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import axe_violations, settle, shot, tap
from tests.e2e.scenes import gn_race, mid_race, no_card_left, rally_mid_race

pytestmark = pytest.mark.e2e


def open_page(browser: Any, url: str, width: int, height: int) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    settle(page, 1000)
    return page


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    "where",
    [
        "home",
        "referee",
        "referee-no-card",
        "viewer",
        "rally-referee",
        "rally-viewer",
        "gn-referee",
        "gn-viewer",
    ],
)
def test_axe_finds_no_wcag_violation(
    server: tuple[str, Path], browser: Any, where: str, lang: str
) -> None:
    base, db = server
    service = TableService(SqliteStore(db), engines())
    if where == "home":
        page = open_page(browser, f"{base}/?lang={lang}", 1280, 800)
    elif where == "referee":
        pid, key = mid_race(service, 4, lang)
        page = open_page(browser, referee_url(base, pid, key, lang), 1280, 800)
        play = page.locator(".st-key-play_box [role='radiogroup']")
        tap(page, play.first.locator("button").nth(1))  # cards and discard counts shown
    elif where == "referee-no-card":
        pid, key = no_card_left(service)
        page = open_page(browser, referee_url(base, pid, key, lang), 1280, 800)
    elif where == "rally-referee":
        pid, key = rally_mid_race(service, lang)
        page = open_page(browser, referee_url(base, pid, key, lang), 1280, 800)
        tap(page, page.locator(".st-key-draw_go button"))
        tap(page, page.locator(".st-key-travel_11 button").first)  # a card chip: the km shown
        # a pill keeps focus while it fades to its new colour: let go of it before checking
        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.mouse.move(0, 0)
        settle(page, 600)
    elif where == "gn-referee":
        pid, key = gn_race(service)
        page = open_page(browser, referee_url(base, pid, key, lang), 1280, 800)
    elif where == "gn-viewer":
        pid, _ = gn_race(service)
        page = open_page(browser, page_url(base, pid, lang), 390, 844)
        for section in ("gn_grids", "gn_odds"):
            if page.locator(f".st-key-{section} summary").count():
                page.locator(f".st-key-{section} summary").click()
        settle(page)
    elif where == "rally-viewer":
        pid, _ = rally_mid_race(service, lang)
        page = open_page(browser, page_url(base, pid, lang), 390, 844)
    else:
        pid, _ = mid_race(service, 3, lang)
        page = open_page(browser, page_url(base, pid, lang), 390, 844)
        for section in ("log_section", "rulings_section"):
            page.locator(f".st-key-{section} summary").click()
        settle(page)
    problems = axe_violations(page)
    if problems:
        shot(page, f"axe-{where}-{lang}", full_page=True)
    assert problems == []


def test_axe_reports_a_caption_of_too_little_contrast(
    server: tuple[str, Path], browser: Any
) -> None:
    """The check itself works: a grey caption like Streamlit's default one is reported."""
    base, _ = server
    page = open_page(browser, f"{base}/?lang=en", 1280, 800)
    page.evaluate(
        """() => { const p = document.createElement('p');
        p.textContent = 'Grand National Derby · Referee';
        p.style.cssText = 'color:#828180;background:#fff;font-size:14px';
        document.querySelector('[data-testid=stMainBlockContainer]').append(p); }"""
    )
    assert any(v.startswith("color-contrast") for v in axe_violations(page))
