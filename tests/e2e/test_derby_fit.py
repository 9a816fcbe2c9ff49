"""The Derby's next action on the referee's first screen (issue 19, "At the table": "the
discard input is below the first screen at 768x1024 and 390x844; the black cards 5–9 are
cut off at 390 px wide"). Mid-race, a fallen horse's cards to discard, a horse chosen: the
bet's horses and button, the card's horses, every card, the discard count and the record
buttons are wholly on the first screen at a laptop's, a tablet's and a phone's size, and no
pill's words are cut."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.core.links import referee_url
from aids.games.derby import engine
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e import fit
from tests.e2e.helpers import settle, shot
from tests.e2e.scenes import mid_race

pytestmark = pytest.mark.e2e
VIEWPORTS = {"1280": fit.LAPTOP, "768": fit.TABLET, "390": fit.PHONE}

# A pill whose words do not fit (cut with an ellipsis) or which sticks out of its grid.
_CUT = """(selector) => [...document.querySelectorAll(selector)].flatMap(b => {
  const out = [], p = b.querySelector('p') || b, box = b.getBoundingClientRect();
  const grid = b.closest('[role=radiogroup]')?.getBoundingClientRect() || box;
  if (p.scrollWidth > p.clientWidth + 1) out.push(`${b.textContent.trim()}: words cut`);
  if (box.left < grid.left - 1 || box.right > grid.right + 1 || box.bottom > grid.bottom + 1)
    out.push(`${b.textContent.trim()}: outside its grid`);
  return out; })"""


def cut(page: Any, selector: str) -> list[str]:
    return list(page.evaluate(_CUT, selector))


@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_the_whole_next_action_is_on_the_first_screen(
    server: tuple[str, Path], browser: Any, width: str
) -> None:
    """Issue 19, controls below the fold: with a horse chosen (its own and the black cards
    offered) and a discard possible, every control of the turn is on the first screen,
    the page at its top: the bet's horses and Place counter, the card's horses, all the
    cards (black 5–9 too), the discard count, Pass and Play card; no pill is cut."""
    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = mid_race(service, 3, "en")
    state, seq = service.snapshot(pid).state, service.snapshot(pid).seq
    page = browser.new_page(viewport=VIEWPORTS[width])
    page.goto(referee_url(base, pid, key, "en"))
    settle(page, 1200)
    page.locator(f".st-key-play_horse_{seq} button").first.click()  # red: 8 red, 9 black left
    settle(page, 800)
    cards = page.locator(f".st-key-play_card_{seq}_0 button")
    offered = engine.legal_cards(state, 0)
    assert cards.count() == len(offered) and {c.value for c in offered if c.is_black} >= {5, 9}
    shot(page, f"derby-fit-{width}")
    controls = {
        "bet horses": f".st-key-bet_horse_{seq} button",
        "place counter": ".st-key-bet_go button",
        "card horses": f".st-key-play_horse_{seq} button",
        "cards": f".st-key-play_card_{seq}_0 button",
        "discard count": f".st-key-discards_{seq} input",
        "pass": ".st-key-pass_go button",
        "play card": ".st-key-play_go button",
    }
    below = {name: fit.in_first_screen(page, css) for name, css in controls.items()}
    assert {name: b for name, b in below.items() if b} == {}
    pills = ", ".join(controls[k] for k in ("bet horses", "card horses", "cards"))
    assert cut(page, pills) == []
    assert fit.too_wide(page) == []
    page.close()
