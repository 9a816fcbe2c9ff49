"""One conformance test of the table page for every game (issue 19, "How it is shown"), in
chromium at 1280 × 800 and 390 × 844, at the start, mid-game and at the end of a table:

- the referee's next action (its first control and its record button) is on the first
  screen; at the end, the results (every seat, the winner first) and the report and sheet
  buttons are (issue 19: "the left half was blank, they were below the fold");
- nothing is wider than the screen except a marked horizontal scroller;
- every piece is inside its board's box, and no two labels of a map or strip overlap;
- a player's phone (the viewer's link, and a seat's own link where the game has them) holds
  the standings on its first screen (the results at the end), the seat's own row marked,
  and a table wider than the phone shows a shadow at the edge it scrolls to;
- an English page holds no Japanese outside the names people and maps gave.

A tap that must not move the page is ``test_frame_fit``'s. The game's own parts are named in
``BOARDS``; the tables come from ``tests/e2e/frame_scenes.py``. Screenshots are saved
(``helpers.SHOTS``); the mid-game laptop and phone ones are copied to ``docs/img`` by
``AIDS_DOC_SHOTS=1`` (see the README)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from aids.core.links import page_url, referee_url
from aids.games.base import REFEREE, Role
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e import fit
from tests.e2e.conftest import ROOT
from tests.e2e.frame_scenes import KINDS, finished, mid_game, start
from tests.e2e.helpers import settle, shot

pytestmark = pytest.mark.e2e
WIDTHS = {"1280": fit.LAPTOP, "390": fit.PHONE}
PHASES = {"start": start, "mid": mid_game, "end": finished}
LIVE = ":not([disabled])"
DOCS = ROOT / "docs" / "img"
DOC_SHOTS = ("-mid-referee-1280", "-mid-viewer-390")  # copied to docs/img by AIDS_DOC_SHOTS


class Board(NamedTuple):
    """A game's board on the page: its box, the pieces drawn in it, its labels (or "")."""

    box: str
    pieces: str
    labels: str


BOARDS = {
    "derby": Board(".aids-board", ".chip", ""),
    "ekiden": Board(".ek-road", ".piece", ".ek-road .piece, .ek-road .num"),
    "rally": Board(
        ".rally-map",
        ".rally-car, .rally-label, .rally-stop",
        ".rally-map .rally-label, .rally-map .rally-car",
    ),
    "gn": Board(".gn-course", ".gn-horse, .gn-label", ".gn-course .gn-horse, .gn-course .gn-label"),
}


def service_of(server: tuple[str, Path]) -> TableService:
    return TableService(SqliteStore(server[1]), engines())


def names_in(value: Any) -> list[str]:
    """Every name people or a map gave in a setup (values under a "name"-like key, team
    names), which a page shows as written in any language."""
    found: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("name", "names", "teams", "title") or k.startswith("name_"):
                found += [v] if isinstance(v, str) else names_in(v)
            found += names_in(v) if isinstance(v, dict | list) else []
    elif isinstance(value, list):
        for item in value:
            found += [item] if isinstance(item, str) else names_in(item)
    return found


def table_names(service: TableService, pid: str) -> list[str]:
    snap = service.snapshot(pid, REFEREE)
    setup = service.game(snap.info.kind).setup_to_dict(snap.state.setup)
    return [snap.info.title, *snap.seats, *names_in(setup), "日本語"]  # the language toggle


def open_page(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport)
    page.goto(url)
    settle(page, 1500)
    return page


def too_wide(page: Any) -> list[str]:
    """Wider than the screen, but for Streamlit's own boxes for a link (``st.code``, which
    scroll by themselves)."""
    return [w for w in fit.too_wide(page) if "code" not in w and not w.startswith("span ")]


def unmarked_scrollers(page: Any) -> list[str]:
    """Boxes that scroll sideways (a table wider than the screen) with no edge shadow to
    say more columns lie beyond (issue 19: "no sign they scroll")."""
    return list(
        page.evaluate(
            "() => [...document.querySelectorAll('.aids-scroll-x')]"
            ".filter(e => e.scrollWidth > e.clientWidth + 1"
            " && !getComputedStyle(e).backgroundImage.includes('radial-gradient'))"
            ".map(e => e.className + ': ' + e.innerText.slice(0, 40))"
        )
    )


def board_fits(page: Any, kind: str) -> list[str]:
    board = BOARDS[kind]
    if not fit.boxes(page, board.box):
        return []  # this page does not draw the board (a finished game's phone, say)
    problems = fit.outside(page, board.box, board.pieces)
    if board.labels:
        problems += [f"overlap {o}" for o in fit.overlaps(page, board.labels)]
    return problems


def keep(page: Any, name: str) -> None:
    """The screenshot, saved with the others; with ``AIDS_DOC_SHOTS=1`` the mid-game ones
    of the referee's laptop and the viewer's phone are copied to ``docs/img`` as well (the
    README shows them)."""
    path = shot(page, name)
    if os.environ.get("AIDS_DOC_SHOTS") and name.endswith(DOC_SHOTS):
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, DOCS / path.name)


@pytest.fixture(scope="module")
def tables(server: tuple[str, Path]) -> dict[tuple[str, str], tuple[str, str]]:
    """(kind, phase) → (public id, referee key): made once for the module."""
    service = service_of(server)
    return {(k, p): make(service, k) for k in KINDS for p, make in PHASES.items()}


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("phase", list(PHASES))
@pytest.mark.parametrize("kind", KINDS)
def test_the_referees_page_fits_the_table(
    server: tuple[str, Path],
    browser: Any,
    tables: dict[tuple[str, str], tuple[str, str]],
    kind: str,
    phase: str,
    width: str,
) -> None:
    """Issue 19: the referee's next action on the first screen (at the end the results and
    the print buttons), nothing too wide, pieces on their board, labels apart, English."""
    pid, key = tables[kind, phase]
    page = open_page(browser, referee_url(server[0], pid, key, "en"), WIDTHS[width])
    keep(page, f"conform-{kind}-{phase}-referee-{width}")
    if phase == "end":  # the results (every seat, the winner first) and the report and sheet
        service = service_of(server)
        outcome, seats = service.snapshot(pid).outcome, service.snapshot(pid).seats
        assert outcome is not None
        for part in (".st-key-results", f".st-key-results button{LIVE}",
                     ".st-key-end_report button", ".st-key-end_sheet button"):  # fmt: skip
            assert fit.in_first_screen(page, part) == [], part
        rows = page.locator(".st-key-results table.aids-results tr")
        assert rows.count() == len(seats) + 1
        assert seats[outcome.winners[0]] in rows.nth(1).inner_text()
    # the next action: its first control and its record button, the page at its top
    else:
        control = f".st-key-controls button{LIVE}, .st-key-controls input{LIVE}"
        assert fit.in_first_screen(page, control, first=True) == [], f"{kind} {phase}"
        record = f".st-key-controls button[kind^=primary]{LIVE}"
        if fit.boxes(page, record):
            assert fit.in_first_screen(page, record, first=True) == [], f"{kind} {phase}"
    wide = too_wide(page)
    assert wide == [], "\n".join(wide)
    problems = board_fits(page, kind)
    assert problems == [], "\n".join(problems)
    assert fit.japanese(page, table_names(service_of(server), pid)) == []
    page.close()


@pytest.mark.parametrize("phase", list(PHASES))
@pytest.mark.parametrize("kind", KINDS)
def test_a_players_phone_shows_who_leads_first(
    server: tuple[str, Path],
    browser: Any,
    tables: dict[tuple[str, str], tuple[str, str]],
    kind: str,
    phase: str,
) -> None:
    """Issue 19, phones: "first screen: standings (who leads), the seat's own row marked on
    a seat link, chances; the board below". At 390 × 844 the viewer's link and a seat's
    own link show the standings whole on the first screen (the results once the game is
    over); on the seat's link its own row says "you"; the board fits and the page is
    English."""
    service = service_of(server)
    pid, key = tables[kind, phase]
    urls = {"viewer": page_url(server[0], pid, "en")}
    seat = 1
    if service.game(kind).info.seat_keys:
        own = service.rotate_key(pid, key, Role.seat_of(seat))
        urls["seat"] = referee_url(server[0], pid, own, "en")
    names = table_names(service, pid)
    for role, url in urls.items():
        page = open_page(browser, url, fit.PHONE)
        keep(page, f"conform-{kind}-{phase}-{role}-390")
        block = ".st-key-results" if phase == "end" else ".st-key-standings"
        assert fit.in_first_screen(page, block) == [], f"{kind} {phase} {role}"
        assert page.locator(".st-key-end_report").count() == 0  # printing is the referee's
        if role == "seat":
            mine = page.locator(f"{block} tr:has(.you)")
            assert mine.count() == 1, f"{kind} {phase}: the seat's own row is not marked"
            assert service.snapshot(pid).seats[seat] in mine.inner_text()
        wide = too_wide(page)
        assert wide == [], "\n".join(wide)
        assert unmarked_scrollers(page) == []
        problems = board_fits(page, kind)
        assert problems == [], "\n".join(problems)
        assert fit.japanese(page, names) == []
        page.close()
