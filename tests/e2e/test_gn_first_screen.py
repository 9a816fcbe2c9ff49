"""Grand National's referee page when a card is due (issue 19, "At the table", item 2): a
horse just landed on a fence, so it draws a card, and then a spin (or the next horse's move)
is to be recorded. At 1280 × 800 and 390 × 844 the card's note and its effects, and the spin's
colours (the next move's lengths), are all on the first screen: the referee reaches the next
action without scrolling. Screenshots are saved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.core.links import referee_url
from aids.games.base import REFEREE
from aids.games.grand_national import draws, engine, lanes
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e import fit
from tests.e2e.helpers import settle, shot
from tests.e2e.scenes import gn_race

pytestmark = pytest.mark.e2e
VIEWPORTS = {"1280": fit.LAPTOP, "390": fit.PHONE}


def card_due_then(service: TableService, then: str) -> tuple[str, str]:
    """The scene's race (round 2) recorded on, legally on the squares, until a horse's move
    lands where it draws a card and the next thing to record is ``then`` ("spin": the
    spinner for the next cap; "move": the next horse's move)."""
    pid, key = gn_race(service)
    for _ in range(400):
        snap = service.snapshot(pid, REFEREE)
        state = snap.state
        assert snap.outcome is None, "the race ended first"
        if engine.needs_spin(state):
            service.record(pid, key, snap.seq, {"type": "spin", "colour": "red"})
            continue
        horse = engine.next_horse(state)
        assert horse is not None
        offers = lanes.landings(state, horse)
        if not offers:
            service.record(pid, key, snap.seq, {"type": "boxed", "horse": horse})
            continue
        for x in offers:
            move = x.move(horse)
            after = engine.apply(state, move)
            wanted = engine.needs_spin(after) == (then == "spin")
            if draws.card_due(state, move, after) and wanted and after.phase == "race":
                service.record(pid, key, snap.seq, move.to_dict())
                return pid, key
        x = max(offers, key=lambda o: (o.forward, o.lane == state.lane[horse]))
        service.record(pid, key, snap.seq, x.move(horse).to_dict())
    raise AssertionError("no card came due")


@pytest.mark.parametrize("then", ["spin", "move"])
@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_a_card_due_and_the_next_action_share_the_first_screen(
    server: tuple[str, Path], browser: Any, width: str, then: str
) -> None:
    """Issue 19 item 2 ("controls below the fold"): with a card due, the card is the next
    thing to record: its note, its numbers and every effect button are wholly on the first
    screen, the page at its top (the card due is the drawing horse's, so no horse to pick).
    On a laptop the action after it starts there too (the spin's colours, or the next
    move's first lengths); on a phone it follows the card, and comes to the top once the
    card is recorded. Nothing is wider than the screen."""
    service = TableService(SqliteStore(server[1]), engines())
    pid, key = card_due_then(service, then)
    page = browser.new_page(viewport=VIEWPORTS[width])
    page.goto(referee_url(server[0], pid, key, "en"))
    settle(page, 1500)
    page.locator(".st-key-draw_box").wait_for(timeout=30000)
    shot(page, f"gn-referee-card-then-{then}-{width}")
    assert fit.in_first_screen(page, ".st-key-draw_box p") == []
    assert fit.in_first_screen(page, ".st-key-draw_box button, .st-key-draw_box input") == []
    assert page.locator(".st-key-draw_box [data-testid=stSelectbox]").count() == 0
    after = ".st-key-chance_box button" if then == "spin" else ".st-key-move_box button"
    if width == "1280":
        assert fit.in_first_screen(page, after, first=True) == []
    wide = fit.too_wide(page)
    assert wide == [], "\n".join(wide)
    page.close()
