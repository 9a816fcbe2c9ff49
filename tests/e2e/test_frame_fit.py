"""The table page's frame at a real table of every game, in chromium (issue 19, the frame's
items): a tap never moves the page, the phone's header leaves the screen to the game, and a
finished game's report button gives the report (its results and print buttons on the first
screen are ``test_pages_conform``'s, on the same pages). Tables come from
``tests/e2e/frame_scenes.py``; the checks from ``tests/e2e/fit.py``; screenshots are saved
(``helpers.SHOTS``) for a person to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.core.i18n import t
from aids.core.links import page_url, referee_url
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e import fit
from tests.e2e.frame_scenes import KINDS, finished, mid_game
from tests.e2e.helpers import settle, shot, still_box

pytestmark = pytest.mark.e2e
STILL = 2.0  # px: "the same place"
VIEWPORTS = {"1280": fit.LAPTOP, "390": fit.PHONE}
# a control of the next action: a choice (pill, segment) or a button, the first a finger finds
CONTROL = ".st-key-controls button"
RECORD = ".st-key-controls button[kind^=primary]"
LIVE = ":not([disabled]):visible"


def service_of(server: tuple[str, Path]) -> TableService:
    return TableService(SqliteStore(server[1]), engines())


def open_page(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport)
    page.goto(url)
    settle(page, 1500)
    return page


def header_bottom(page: Any) -> float:
    """Where Streamlit's own bar (over the top of the page) ends."""
    return float(
        page.evaluate(
            "() => { const h = document.querySelector('[data-testid=stHeader]');"
            " return h ? h.getBoundingClientRect().bottom : 0; }"
        )
    )


def top_of(page: Any, selector: str) -> float:
    return float(still_box(page.locator(selector).first)["y"])


def reach(page: Any, locator: Any) -> None:
    """Scroll as a thumb does when a control is not comfortably on screen: until it sits
    in the middle of the screen."""
    box = locator.bounding_box()
    assert box is not None, "the control is not drawn"
    height = page.viewport_size["height"]
    if header_bottom(page) < box["y"] and box["y"] + box["height"] < 0.8 * height:
        return
    shift = box["y"] + box["height"] / 2 - 0.5 * height
    page.evaluate(f"document.querySelector('[data-testid=stMain]').scrollBy(0, {shift:.0f})")
    page.wait_for_timeout(300)


def finger(page: Any, locator: Any) -> None:
    """A tap where the control is now, as a finger does it: no scrolling to it first (a
    browser test's click would scroll the page itself); then the run it starts, and the
    page drawn again when the newest chances are ready (the watcher's own rerun, seconds
    later: what the referee sees "by itself")."""
    box = locator.bounding_box()
    assert box is not None, "the control is not drawn"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    settle(page, 500)
    chances_drawn(page)


def chances_drawn(page: Any) -> None:
    """Wait until the chances shown are the newest position's (not "updating", not being
    worked out), and the page has been drawn from them."""
    waiting = ["Updating for the newest action", "Working out the chances"]
    for _ in range(60):
        text = page.locator(".st-key-chances").all_inner_texts()
        if not any(w in t for t in text for w in waiting):
            break
        page.wait_for_timeout(250)
    settle(page, 800)


@pytest.mark.parametrize("width", list(VIEWPORTS))
@pytest.mark.parametrize("kind", KINDS)
def test_a_tap_does_not_move_the_page(
    server: tuple[str, Path], browser: Any, kind: str, width: str
) -> None:
    """Issue 19: "the page does not jump after a tap". Mid-game, the referee taps a control
    of the next action, then the action's record button: the page stays scrolled where it
    was (±2 px), the box being tapped holds its place, and on the laptop Undo stays whole on
    the first screen (not under Streamlit's bar)."""
    viewport = VIEWPORTS[width]
    pid, key = mid_game(service_of(server), kind)
    page = open_page(browser, referee_url(server[0], pid, key, "en"), viewport)
    control = page.locator(CONTROL + LIVE).first
    reach(page, control)
    top, box = fit.scroll_top(page), top_of(page, ".st-key-controls")
    finger(page, control)
    assert abs(fit.scroll_top(page) - top) <= STILL, f"{kind}: a tap scrolled the page"
    assert abs(top_of(page, ".st-key-controls") - box) <= STILL, f"{kind}: the controls moved"
    record = page.locator(RECORD + LIVE)
    if record.count():
        reach(page, record.first)
        top = fit.scroll_top(page)
        finger(page, record.first)
        assert abs(fit.scroll_top(page) - top) <= STILL, f"{kind}: recording scrolled the page"
    shot(page, f"frame-{kind}-{width}-after-tap")
    if width == "1280":
        undo = page.locator(".st-key-undo button").bounding_box()
        assert undo is not None
        assert undo["y"] >= header_bottom(page) - 1, f"{kind}: Undo is under the bar"
        assert undo["y"] + undo["height"] <= viewport["height"]
    page.close()


@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_a_refused_write_says_why_without_moving_the_page(
    server: tuple[str, Path], browser: Any, width: str
) -> None:
    """Issue 19, the flash area: a write refused (here another device took the last action
    back first, so the page's Undo is stale) says why over the foot of the screen; the
    controls and the page hold still, and Dismiss takes the message away."""
    viewport = VIEWPORTS[width]
    service = service_of(server)
    pid, key = mid_game(service, "derby")
    page = open_page(browser, referee_url(server[0], pid, key, "en"), viewport)
    flash = page.locator(".st-key-flash [data-testid=stAlert]")
    for _ in range(6):  # the page may notice the other device before the tap lands: again
        top, box = fit.scroll_top(page), top_of(page, ".st-key-controls")
        undo = page.locator(".st-key-undo button").bounding_box()
        assert undo is not None
        service.undo(pid, key, service.snapshot(pid).seq)  # the other device
        page.mouse.click(undo["x"] + undo["width"] / 2, undo["y"] + undo["height"] / 2)
        settle(page, 1000)
        if flash.count():
            break
    assert "Someone else changed this table first" in flash.inner_text()
    assert fit.in_first_screen(page, ".st-key-flash") == []
    assert abs(fit.scroll_top(page) - top) <= STILL
    assert abs(top_of(page, ".st-key-controls") - box) <= STILL, "the message pushed the controls"
    shot(page, f"frame-flash-{width}")
    finger(page, page.locator(".st-key-dismiss_flash button"))
    assert flash.count() == 0
    assert abs(top_of(page, ".st-key-controls") - box) <= STILL
    page.close()


@pytest.mark.parametrize("role", ["referee", "viewer"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_phone_header_leaves_the_screen_to_the_game(
    server: tuple[str, Path], browser: Any, kind: str, role: str
) -> None:
    """Issue 19: "the top quarter of the phone is title, language toggle and a sidebar icon".
    At 390 × 844 the game's first element (its status) starts in the top 20 % of the screen,
    the header's tools are whole on it, and the language toggle is on it and works."""
    pid, key = mid_game(service_of(server), kind)
    url = (
        referee_url(server[0], pid, key, "en")
        if role == "referee"
        else page_url(server[0], pid, "en")
    )
    page = open_page(browser, url, fit.PHONE)
    shot(page, f"frame-{kind}-{role}-390-header")
    assert top_of(page, ".st-key-status") <= 0.2 * fit.PHONE["height"]
    assert fit.in_first_screen(page, ".st-key-lang_switch button") == []
    if role == "referee":
        assert fit.in_first_screen(page, ".st-key-tools button") == []
        assert fit.overlaps(page, ".st-key-tools button, .st-key-page_head h1") == []
    assert fit.too_wide(page) == []
    finger(page, page.locator(".st-key-lang_switch button").filter(has_text="日本語"))
    assert "lang=ja" in page.url
    assert t(f"table.role.{role}", "ja", seat="") in page.inner_text("body")
    page.close()


def test_the_report_button_at_the_end_gives_the_report(
    server: tuple[str, Path], browser: Any
) -> None:
    """The end's report button makes the post-game report when tapped: a PDF of the table
    with its results (read back with pypdf)."""
    import io

    from pypdf import PdfReader

    pid, key = finished(service_of(server), "derby")
    page = open_page(browser, referee_url(server[0], pid, key, "en"), fit.LAPTOP)
    with page.expect_download(timeout=60000) as caught:
        page.locator(".st-key-end_report button").click()
    data = Path(caught.value.path()).read_bytes()
    assert data.startswith(b"%PDF")
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "Results" in text and "Derby over" in text
    page.close()


@pytest.mark.parametrize("width", ["768"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_next_action_starts_on_a_tablets_and_a_phones_first_screen(
    server: tuple[str, Path], browser: Any, kind: str, width: str
) -> None:
    """Issue 19: "many tables have no laptop: the referee page must work on a tablet and a
    phone too". Mid-game at 768 × 1024 the game's status and the first control of the next
    action are on the first screen and nothing is wider than the screen (what a game's own
    page puts further down its controls is that game's test's to check). The phone's
    (390 × 844) are ``test_pages_conform``'s ``test_the_referees_page_fits_the_table[*-mid-390]``
    (the first control on the first screen, on the same mid-game tables) and
    ``test_the_phone_header_leaves_the_screen_to_the_game[*-referee]`` (the status at the
    top, nothing too wide)."""
    viewport = {"768": fit.TABLET}[width]
    pid, key = mid_game(service_of(server), kind)
    page = open_page(browser, referee_url(server[0], pid, key, "en"), viewport)
    shot(page, f"frame-{kind}-{width}-next-action")
    assert fit.in_first_screen(page, ".st-key-status") == []
    first = page.locator(CONTROL + LIVE).first
    box = first.bounding_box()
    assert box is not None and box["y"] + box["height"] <= viewport["height"], (kind, box)
    assert fit.too_wide(page) == []
    page.close()


# Every element the browser draws in a fixed place while the page scrolls under it: fixed or
# sticky boxes, and Streamlit's own bar (laid over the scrolling page), shown and on screen.
FLOATING = """() => {
  const bar = document.querySelector('[data-testid=stHeader]');
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    const s = getComputedStyle(e), r = e.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.bottom <= 0 || r.top >= innerHeight) continue;
    if (s.visibility === 'hidden' || s.display === 'none') continue;
    const pinned = s.position === 'fixed' || s.position === 'sticky';
    if (pinned || (bar && bar.contains(e) && e.matches('button, a'))) {
      const name = e.dataset.testid || e.className.toString().slice(0, 40);
      out.push(name + ' @' + Math.round(r.top));
    }
  }
  return out;
}"""


@pytest.mark.parametrize("viewport", [fit.PHONE, {"width": 820, "height": 1180}],
                         ids=["390", "820"])  # fmt: skip
@pytest.mark.parametrize("where", ["derby", "ekiden", "event"])
def test_nothing_fixed_covers_the_page_when_it_is_scrolled(
    server: tuple[str, Path], browser: Any, where: str, viewport: dict[str, int]
) -> None:
    """Issue 28 §5: on a phone and a tablet the language toggle and the menu button floated
    over the Derby board's fences, the Ekiden banner and the event page once scrolled. Now
    nothing is drawn in a fixed place over the page: scrolled, no fixed or sticky box and
    no control of a bar is on screen; the toggle and the links to the pages scrolled away
    with the page's top, and scrolled back they work."""
    from aids.core.links import organiser_url
    from aids.meets import MeetService

    service = service_of(server)
    if where == "event":
        meets = MeetService(service)
        info, key = meets.create("Scroll night", "2025-03-07")
        for _ in range(3):
            pid, referee = mid_game(service, "derby")
            meets.add_table(info.public_id, key, pid, table_key=referee)
        url = organiser_url(server[0], info.public_id, key, "ja")
    else:
        pid, key = mid_game(service, where)
        url = referee_url(server[0], pid, key, "en" if where == "derby" else "ja")
    page = open_page(browser, url, viewport)
    switch = page.locator(".st-key-lang_switch button").first
    top = switch.bounding_box()
    assert top is not None and top["y"] >= 0
    page.evaluate("document.querySelector('[data-testid=stMain]').scrollBy(0, 400)")
    page.wait_for_timeout(400)
    assert fit.scroll_top(page) >= 120, "the page is long enough to scroll"
    assert page.evaluate(FLOATING) == []
    moved = switch.bounding_box()
    assert moved is not None and moved["y"] + moved["height"] <= 0  # gone with the top
    shot(page, f"frame-scrolled-{where}-{viewport['width']}")
    page.evaluate("document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
    page.wait_for_timeout(300)
    other = "English" if "lang=ja" in url else "日本語"
    finger(page, page.locator(".st-key-lang_switch button").filter(has_text=other))
    assert ("lang=en" if other == "English" else "lang=ja") in page.url
    page.close()
