"""Set-up as quick as dealing, for the games whose set-up is names and a course (issue 28 §4):
a new Derby and a new Rally table made from the home page in chromium, their taps counted
as a referee makes them (the Grand National's and the Ekiden's are counted in their own
browser tests). Target: any table set up in two minutes by someone new, which on these
forms means a handful of taps; the README's taps table gives the counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.games.rally.board import sample_map
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import Reruns, create_table, fill_new_table, open_home_for, shot

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PLAYERS = ["あき", "Ben", "ちえ", "Dai"]
DERBY_BUDGET = 7  # tab, title, four names, Create
RALLY_BUDGET = 9  # tab, title, four names, the course (open, choose), Create


@pytest.mark.parametrize(("lang", "viewport"), [("ja", PHONE), ("en", LAPTOP)],
                         ids=["ja-390", "en-1280"])  # fmt: skip
def test_a_derby_table_is_set_up_in_a_handful_of_taps(
    server: tuple[str, Path], browser: Any, lang: str, viewport: dict[str, int]
) -> None:
    """The Derby's set-up rule (players in seat order, each a counter colour; horses in row
    order by default): four players typed and the table made within DERBY_BUDGET taps, no
    tap before Create waiting on the server; the table holds the players as typed."""
    base, db = server
    page = browser.new_page(viewport=viewport)
    reruns = Reruns(page)
    open_home_for(page, base, lang, "derby")
    before = reruns.count
    taps = fill_new_table(page, lang, f"Heat {lang}", PLAYERS, "new_player")
    assert reruns.count == before, "a tap before Create waited on the server"
    shot(page, f"derby-setup-{lang}-{viewport['width']}")
    pid = create_table(page, lang)
    taps += 1
    setup = TableService(SqliteStore(db), engines()).snapshot(pid).state.setup
    assert [p.name for p in setup.players] == PLAYERS
    print(f"\nDerby set-up at {viewport['width']} px ({lang}): {taps} taps")
    assert taps <= DERBY_BUDGET
    page.close()


@pytest.mark.parametrize(("lang", "viewport"), [("en", PHONE), ("ja", LAPTOP)],
                         ids=["en-390", "ja-1280"])  # fmt: skip
def test_a_rally_table_is_set_up_in_a_handful_of_taps(
    server: tuple[str, Path], browser: Any, lang: str, viewport: dict[str, int]
) -> None:
    """The Rally's set-up rule (players in seat order, a machine each from the preset, a
    course from start town to goal): four players typed and one of the map's courses chosen,
    the table made within RALLY_BUDGET taps; the table runs that course."""
    base, db = server
    course = sample_map().courses[1]
    page = browser.new_page(viewport=viewport)
    open_home_for(page, base, lang, "rally")
    taps = fill_new_table(page, lang, f"Rally {lang}", PLAYERS, "ra_player")
    box = page.locator(".st-key-ra_course input[role=combobox]")
    box.click()  # the list opens; typing the course's first town narrows it to that course
    box.fill(course.name(lang).split(" ")[0])
    page.get_by_role("option").filter(has_text=course.name(lang)).first.click()
    taps += 2
    shot(page, f"rally-setup-{lang}-{viewport['width']}")
    pid = create_table(page, lang)
    taps += 1
    state = TableService(SqliteStore(db), engines()).snapshot(pid).state
    assert [p.name for p in state.setup.players] == PLAYERS
    assert (state.setup.start, state.setup.goal) == (course.start, course.goal)
    print(f"\nRally set-up at {viewport['width']} px ({lang}): {taps} taps")
    assert taps <= RALLY_BUDGET
    page.close()
