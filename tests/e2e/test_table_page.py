"""The table page at a real table, in chromium: the referee's controls stay on screen and hold
still (1280 × 800), a player with no card is told what to do, the referee link is shown once
after "Create table", the players' QR code is one tap from the top, labels are never cut, and
the phone viewer marks the last move and keeps open sections open. Screenshots are saved
(``helpers.SHOTS``) for a person to look at."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from aids.core.links import page_url, referee_url, viewer_url
from aids.games.derby import engine
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import on_screen, settle, shot, tap
from tests.e2e.scenes import mid_race, new_table, no_card_left, record
from tests.games.derby.test_full_race import RACE

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
STILL = 2  # px: "the same place" for a button under the referee's finger


def service_of(server: tuple[str, Path]) -> TableService:
    return TableService(SqliteStore(server[1]), engines())


def open_page(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport)
    page.goto(url)
    settle(page, 800)
    return page


def groups(page: Any) -> Any:
    """The play box's choices: horses first, then cards."""
    return page.locator(".st-key-play_box [role='radiogroup']")


def pick_card(page: Any, horse: int, card: int) -> None:
    """Tap a horse (by its place in the grid), then a card (by its place)."""
    tap(page, groups(page).first.locator("button").nth(horse))
    groups(page).nth(1).wait_for(timeout=30000)
    tap(page, groups(page).nth(1).locator("button").nth(card))


def wait_for_seq(service: TableService, pid: str, seq: int) -> None:
    deadline = time.monotonic() + 30
    while service.snapshot(pid).seq < seq and time.monotonic() < deadline:
        time.sleep(0.1)
    assert service.snapshot(pid).seq >= seq


@pytest.mark.parametrize(("lang", "players"), [("en", 4), ("ja", 3)])
def test_play_button_is_above_the_fold_and_does_not_move_when_a_bet_is_placed(
    server: tuple[str, Path], browser: Any, lang: str, players: int
) -> None:
    base, _ = server
    service = service_of(server)
    pid, key = new_table(service, "Fold", players, lang)
    page = open_page(browser, referee_url(base, pid, key, lang), LAPTOP)
    play = page.locator(".st-key-play_go button")
    start = on_screen(page, play)

    # no bet: horse and card chosen, every card and the button on screen
    pick_card(page, 2, 7)  # green, green 7
    no_bet = on_screen(page, play)
    for card in groups(page).nth(1).locator("button").all():
        on_screen(page, card)
    assert abs(no_bet["y"] - start["y"]) <= STILL  # choosing does not move it either
    shot(page, f"referee-{lang}-{players}p-no-bet")

    # the bet: the bet box stays, says so, and keeps its height
    tap(page, page.locator(".st-key-bet_box [role='radiogroup'] button").nth(3))
    tap(page, page.locator(".st-key-bet_go button"))
    page.locator(".st-key-bet_box [data-key='bet_note']").wait_for(timeout=30000)
    assert "✓" in page.locator(".st-key-bet_box").inner_text()
    after_bet = on_screen(page, play)
    pick_card(page, 2, 7)
    with_bet = on_screen(page, play)
    for card in groups(page).nth(1).locator("button").all():
        on_screen(page, card)
    shot(page, f"referee-{lang}-{players}p-bet-placed")
    assert abs(after_bet["y"] - no_bet["y"]) <= STILL, (no_bet, after_bet)
    assert abs(with_bet["y"] - no_bet["y"]) <= STILL, (no_bet, with_bet)

    tap(page, play)
    wait_for_seq(service, pid, 2)
    state = service.snapshot(pid).state
    assert [(c.horse, c.fence) for c in state.counters] == [(3, 1)]
    assert state.top_card(1, 2) is not None and state.top_card(1, 2).code() == "green:7"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_after_a_fall_pass_and_discards_are_on_screen_too(
    server: tuple[str, Path], browser: Any, lang: str
) -> None:
    base, _ = server
    service = service_of(server)
    pid, key = mid_race(service, 4, lang)
    page = open_page(browser, referee_url(base, pid, key, lang), LAPTOP)
    top = on_screen(page, page.locator(".st-key-play_go button"))
    pick_card(page, 1, 3)  # blue (white has fallen, so discards are asked for), blue 4
    for part in ("play_go", "pass_go", "discards_17"):  # one discard count for the turn
        on_screen(page, page.locator(f".st-key-{part}"))
    assert abs(on_screen(page, page.locator(".st-key-play_go button"))["y"] - top["y"]) <= STILL
    shot(page, f"referee-{lang}-after-a-fall")


def test_no_legal_card_says_why_and_offers_the_way_on(
    server: tuple[str, Path], browser: Any
) -> None:
    base, _ = server
    service = service_of(server)
    pid, key = no_card_left(service)
    state = service.snapshot(pid).state
    assert engine.legal_play_horses(state) == () and engine.can_pass(state)
    page = open_page(browser, referee_url(base, pid, key, "en"), LAPTOP)
    why = page.locator(".st-key-play_box [role='alert']")
    assert "Ben has no card to play" in why.inner_text()
    assert "record a pass" in why.inner_text() and "end the race" in why.inner_text()
    assert groups(page).count() == 0  # no empty list of cards
    on_screen(page, page.locator(".st-key-pass_go button"))
    on_screen(page, page.locator(".st-key-no_cards_go button"))
    shot(page, "referee-en-no-legal-card")

    seq = service.snapshot(pid).seq
    tap(page, page.locator(".st-key-pass_go button"))
    wait_for_seq(service, pid, seq + 1)
    assert service.snapshot(pid).state.turn == 0  # Aki's turn: the same words for her
    page.locator(".st-key-play_box [role='alert']", has_text="Aki has no card").wait_for()
    tap(page, page.locator(".st-key-no_cards_go button"))
    wait_for_seq(service, pid, seq + 2)
    assert service.snapshot(pid).state.ended == "no_cards"
    page.get_by_text("Race over").wait_for(timeout=30000)


def test_create_table_shows_the_referee_link_once_until_closed_and_opens_at_the_top(
    server: tuple[str, Path], browser: Any
) -> None:
    base, _ = server
    page = open_page(browser, f"{base}/?lang=en", LAPTOP)
    page.get_by_role("tab", name="New table").click()
    page.locator(".st-key-new_title input").fill("Created")
    for i, name in enumerate(["Aki", "Ben", "Chie"]):
        page.locator(f".st-key-new_player_{i} input").fill(name)
    create = page.get_by_role("button", name="Create table")
    create.scroll_into_view_if_needed()
    assert page.evaluate("document.querySelector('[data-testid=stMain]').scrollTop") > 0
    tap(page, create)

    dialog = page.get_by_role("dialog")
    dialog.wait_for(timeout=30000)
    link = dialog.locator("code").inner_text()
    assert "key=" in link and "table=" in link
    assert "Bookmark it now" in dialog.inner_text()
    dialog.locator("img").first.wait_for()  # the QR code for the referee's own phone
    dialog.locator("button[aria-label='Copy to clipboard']").first.wait_for(state="attached")
    shot(page, "referee-en-created-link")

    # another device records the first action while the referee reads the link: the page is
    # drawn again (as when the newest chances are ready), and the dialog stays until closed
    service = service_of(server)
    key = link.split("key=")[1].split("&")[0]
    pid = page.url.split("table=")[1].split("&")[0]
    record(service, pid, key, RACE[:1])
    seq = service.snapshot(pid).seq
    page.locator(f".aids-seq[data-seq='{seq}']").wait_for(state="attached", timeout=30000)
    settle(page, 800)
    assert "Bookmark it now" in page.get_by_role("dialog").inner_text()
    tap(page, dialog.get_by_role("button", name="Done, I have kept the link"))
    page.get_by_role("dialog").wait_for(state="detached", timeout=30000)  # closed
    page.wait_for_function(  # and the page back at its top (it may take a frame or two)
        "document.querySelector('[data-testid=stMain]').scrollTop === 0", timeout=30000
    )
    on_screen(page, page.locator(".aids-banner"))  # the turn banner
    on_screen(page, page.locator(".st-key-play_go button"))
    shot(page, "referee-en-after-create")

    assert service.role_for(pid, key).is_referee
    page.reload()
    settle(page, 800)
    assert page.get_by_role("dialog").count() == 0  # once


def test_a_dismissed_link_dialog_stays_closed_when_the_page_is_drawn_again(
    server: tuple[str, Path], browser: Any
) -> None:
    """The referee's link is shown once: closed with Esc (not the button), it does not come
    back when another device's write draws the page again."""
    base, _ = server
    page = open_page(browser, f"{base}/?lang=en", LAPTOP)
    page.get_by_role("tab", name="New table").click()
    page.locator(".st-key-new_title input").fill("Dismissed")
    for i, name in enumerate(["Aki", "Ben"]):
        page.locator(f".st-key-new_player_{i} input").fill(name)
    tap(page, page.get_by_role("button", name="Create table"))
    dialog = page.get_by_role("dialog")
    dialog.wait_for(timeout=30000)
    link = dialog.locator("code").inner_text()
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached", timeout=30000)
    settle(page, 800)
    service = service_of(server)
    pid = page.url.split("table=")[1].split("&")[0]
    record(service, pid, link.split("key=")[1].split("&")[0], RACE[:1])
    seq = service.snapshot(pid).seq
    page.locator(f".aids-seq[data-seq='{seq}']").wait_for(state="attached", timeout=30000)
    settle(page, 800)
    assert page.get_by_role("dialog").count() == 0


def test_players_qr_is_one_tap_from_the_top(server: tuple[str, Path], browser: Any) -> None:
    base, _ = server
    pid, key = new_table(service_of(server), "QR", 3)
    page = open_page(browser, referee_url(base, pid, key, "ja"), LAPTOP)
    button = page.get_by_role("button", name="📱 観戦用QR")
    assert on_screen(page, button)["y"] < 150
    tap(page, button)
    popover = page.locator("[data-testid='stPopoverBody']")
    popover.locator("img").wait_for()
    # the players' code opens the live view (issue 27)
    assert popover.locator("code").inner_text().strip() == viewer_url(base, pid, "ja")
    shot(page, "referee-ja-players-qr")


@pytest.mark.parametrize("width", [1280, 1024, 800, 390])
def test_japanese_undo_and_redo_labels_are_whole(
    server: tuple[str, Path], browser: Any, width: int
) -> None:
    base, _ = server
    service = service_of(server)
    pid, key = new_table(service, "Undo", 3, "ja")
    record(service, pid, key, [(None, "red", "red 3")])
    page = open_page(browser, referee_url(base, pid, key, "ja"), {"width": width, "height": 800})
    for name, label in (("undo", "↶ 取り消し"), ("redo", "↷ やり直し")):
        text = page.locator(f".st-key-{name} button p")
        assert text.inner_text() == label
        cut = text.evaluate("p => p.scrollWidth > p.clientWidth + 1")
        assert not cut, f"{label} is cut at {width} px"
    if width == 390:
        shot(page, "referee-ja-390", full_page=True)


def test_phone_viewer_marks_the_last_move_and_keeps_open_sections_open(
    server: tuple[str, Path], browser: Any
) -> None:
    base, _ = server
    service = service_of(server)
    pid, key = mid_race(service, 3, "ja")
    page = open_page(browser, page_url(base, pid, "ja"), PHONE)
    latest = page.locator("table.aids-board td.latest")
    assert latest.count() == 1 and latest.inner_text().strip() == "1"  # red 1 at fence 2
    for section in ("log_section", "rulings_section"):
        page.locator(f".st-key-{section} summary").click()
        page.locator(f".st-key-{section} details[open]").wait_for()
    assert page.locator("ol.aids-log li.latest").count() == 1

    record(service, pid, key, [RACE[12]])  # Aki bets on red at fence 2, plays yellow 3
    page.locator("table.aids-board td.latest", has_text="3").wait_for(timeout=10000)
    page.wait_for_timeout(2500)  # two more refreshes
    for section in ("log_section", "rulings_section"):
        assert page.locator(f".st-key-{section} details[open]").count() == 1, section
    first = page.locator("ol.aids-log li").first
    assert "latest" in (first.get_attribute("class") or "")
    assert "最新" in first.inner_text() and "黄" in first.inner_text()
    assert page.locator("table.aids-board td.latest").count() == 1
    shot(page, "viewer-ja-390", full_page=True)


def test_the_referee_page_follows_a_write_from_another_device(
    server: tuple[str, Path], browser: Any
) -> None:
    """A second device (or a player's own link) records: the referee's page redraws by itself
    within a few seconds, so the referee never works on an old board."""
    base, _ = server
    service = service_of(server)
    pid, key = new_table(service, "Follow", 3)
    page = open_page(browser, referee_url(base, pid, key, "en"), LAPTOP)
    # the page may be redrawing (its chances just came in) when first read: wait for it
    assert shows(page, "Turn: 🟥1 Aki", 15), "the referee's page never showed Aki's turn"
    record(service, pid, key, [(None, "red", "red 3")])  # another device plays Aki's card
    assert shows(page, "Turn: 🟦2 Ben", 15), "the other device's card never showed"
    page.close()


def shows(page: Any, text: str, seconds: float) -> bool:
    """Whether the page's text holds ``text`` within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        if text in page.inner_text("body").replace("\n", " "):
            return True
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(300)
