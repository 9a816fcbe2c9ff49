"""The Grand National's course drawn as a track (issue 19, "boards that fit"): at 1280 × 800
and 390 × 844, at the start (every horse behind the line), mid-race (some on the second lap)
and at the end (four placed, in the infield), the course is drawn (the wide oval on the
laptop's column, the tall one on the phone), every horse's disc is inside it, no two discs or
names overlap, nothing is wider than the screen, the field's table shows every column on the
laptop, and an English page holds no Japanese but the players' names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.core.links import page_url, referee_url
from aids.games.base import REFEREE
from aids.games.grand_national import engine, lanes
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e import fit
from tests.e2e.helpers import settle, shot
from tests.games.grand_national.helpers import setup

pytestmark = pytest.mark.e2e
VIEWPORTS = {"1280": fit.LAPTOP, "390": fit.PHONE}
NAMES = ["日本語"]  # the language switch's own name


def race_to(service: TableService, pid: str, key: str, stage: str) -> None:
    """Record, legally on the squares, from a new table to ``stage``: ``start`` (the race on,
    nobody moved), ``mid`` (the leader on its second lap) or ``end``. Each horse takes the
    farthest square it is offered; every spin is Red."""
    steps: list[dict[str, Any]] = [
        {"type": "blind_bet", "seat": s, "horse": None, "kind": None, "stake": 0} for s in range(3)
    ]
    steps += [{"type": "going", "going": "good"}]
    steps += [{"type": "lane_spin", "lane": lane, "colour": "red"} for lane in range(1, 5)]
    steps += [{"type": "start"}]
    for step in steps:
        service.record(pid, key, service.snapshot(pid).seq, step)
    for _ in range(800):
        snap = service.snapshot(pid, REFEREE)
        state = snap.state
        lap = state.setup.track.lap
        if stage == "start" or snap.outcome is not None:
            return
        if stage == "mid" and max(state.distance) > lap + 6 and not engine.needs_spin(state):
            return
        if engine.needs_spin(state):
            action: dict[str, Any] = {"type": "spin", "colour": "red"}
        else:
            horse = engine.next_horse(state)
            assert horse is not None
            offers = lanes.landings(state, horse)
            if offers:
                x = max(offers, key=lambda o: (o.forward, o.lane == state.lane[horse]))
                action = x.move(horse).to_dict()
            else:
                action = {"type": "boxed", "horse": horse}
        service.record(pid, key, snap.seq, action)
    raise AssertionError("the race did not get there")


@pytest.mark.parametrize("stage", ["start", "mid", "end"])
@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_the_course_fits_and_every_horse_is_on_it(
    server: tuple[str, Path], browser: Any, stage: str, width: str
) -> None:
    base, db = server
    service = TableService(SqliteStore(db), engines())
    info, key = service.create("gn", "Aintree", setup().to_dict())
    pid = info.public_id
    race_to(service, pid, key, stage)
    state = service.snapshot(pid).state
    page = browser.new_page(viewport=VIEWPORTS[width])
    url = referee_url(base, pid, key, "en") if stage != "end" else page_url(base, pid, "en")
    page.goto(url)
    settle(page, 1200)
    shown = "wide" if width == "1280" else "tall"
    course = f".gn-course.{shown}"
    page.locator(f"{course} .gn-horse").first.wait_for(timeout=30000)  # drawn, horses on it
    settle(page, 400)
    assert fit.boxes(page, course), f"the {shown} drawing is not shown"
    on_course = [
        h
        for h in range(state.horses)
        if state.status[h] in ("running", "pulled_up") and h not in state.placed
    ]
    discs = fit.boxes(page, f"{course} .gn-horse")
    assert len(discs) == len(on_course) + len(state.placed)
    assert fit.outside(page, course, ".gn-horse") == []
    assert fit.outside(page, course, ".gn-label") == []
    assert fit.overlaps(page, f"{course} .gn-horse, {course} .gn-label") == []
    wide = fit.too_wide(page)
    assert wide == [], "\n".join(wide)
    assert fit.japanese(page, NAMES) == []
    if width == "1280":  # every column of the field without scrolling it sideways
        clipped = page.evaluate(
            "() => [...document.querySelectorAll('.aids-scroll-x')]"
            ".filter(e => e.querySelector('table.gn th') && e.scrollWidth > e.clientWidth + 1)"
            ".length"
        )
        assert clipped == 0, "the field's table is wider than its column"
    if stage == "mid":
        assert any(state.distance[h] > state.setup.track.lap for h in on_course)
        assert fit.boxes(page, f"{course} .gn-horse.lap2")
    if stage == "end":
        assert state.placed and len(fit.boxes(page, f"{course} .gn-label")) >= len(state.placed)
    page.locator(course).scroll_into_view_if_needed()
    shot(page, f"gn-course-en-{width}-{stage}")
    page.close()
