"""A whole Japan Rally played through the referee page in chromium, as a new referee would:
create the table on the home page (a course chosen by its start and goal), then for each turn
tap the draw, the card chips, the destination the page proposes, an attack and a defence,
and the end of the turn, until every car has arrived; then the phone viewer shows the map and
the finishing order. Screenshots are saved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aids.core.links import viewer_url
from aids.games.base import REFEREE
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import on_screen, settle, shot, tap

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PLAYERS = ["あき", "Ben"]


def choose(page: Any, key: str, option: str) -> None:
    """Pick ``option`` in the selectbox with widget key ``key`` (typed, then Enter)."""
    box = page.locator(f".st-key-{key} input")
    box.click()
    box.fill(option)
    page.keyboard.press("Enter")
    settle(page)


def chip(page: Any, key: str, text: str) -> None:
    tap(page, page.locator(f".st-key-{key} button").filter(has_text=text).first)


def test_a_whole_rally_through_the_pages(server: tuple[str, Path], browser: Any) -> None:
    base, db = server
    service = TableService(SqliteStore(db), engines())
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{base}/?lang=en")
    settle(page, 800)
    page.get_by_role("tab", name="New table").click()
    choose(page, "new_game", "Japan Rally")
    page.locator(".st-key-new_title input").fill("Browser rally")
    for i, name in enumerate(PLAYERS):
        page.locator(f".st-key-ra_player_{i} input").fill(name)
    choose(page, "ra_course", "Choose start and goal below")
    choose(page, "ra_start", "Koriyama")
    choose(page, "ra_goal", "Sendai")
    tap(page, page.get_by_role("button", name="Create table"))
    settle(page, 800)
    page.keyboard.press("Escape")  # the referee link's dialog, shown once
    settle(page)
    pid = page.url.split("table=")[1].split("&")[0]
    assert service.snapshot(pid).state.setup.goal == "sendai"
    turns = 0
    while service.snapshot(pid).outcome is None and turns < 12:
        turns += 1
        state = service.snapshot(pid).state
        seat = state.turn
        draw = page.get_by_role("button", name="Drawn 2")
        on_screen(page, draw)
        tap(page, draw)
        seq = service.snapshot(pid).seq
        rained = service.snapshot(pid).state.rain[seat]
        if rained:  # the car helps itself first: clear sky, then one card only
            chip(page, f"card_{seq}", "Clear sky")
            chip(page, f"target_{seq}_clear_sky", PLAYERS[seat])
            tap(page, page.get_by_role("button", name="Play Clear sky"))
            seq = service.snapshot(pid).seq
        chip(page, f"chip_{seq}_0", "50 km")
        chip(page, f"chip_{seq}_1", "30 km")
        assert "80 km" in page.inner_text(".st-key-travel_box")
        move = page.get_by_role("button", name="Move", exact=True)
        on_screen(page, move)  # the confirm button is on screen at 1280 × 800
        if turns == 1:
            shot(page, "rally-referee-en-turn1")
        tap(page, move)
        after = service.snapshot(pid).state
        assert after.towns[seat] != state.towns[seat] or seat in after.arrived
        if seat in after.arrived:
            continue  # arriving ends the turn
        if seat == 0 and not after.rain[1]:
            seq = service.snapshot(pid).seq
            chip(page, f"card_{seq}", "Rain")
            chip(page, f"target_{seq}_rain", "Ben")
            tap(page, page.get_by_role("button", name="Play Rain"))
            assert service.snapshot(pid).state.rain[1]
        tap(page, page.get_by_role("button", name="End turn"))
    final = service.snapshot(pid, REFEREE)
    assert final.outcome is not None and final.outcome.reason == "arrived", turns
    assert final.state == service.replay(pid)
    assert "Winner" in page.inner_text("body")
    shot(page, "rally-referee-en-over")
    phone = browser.new_page(viewport=PHONE)
    phone.goto(viewer_url(base, pid, "ja"))
    settle(phone, 1500)
    text = phone.inner_text("body")
    assert "勝者" in text and "仙台" in text and "あき" in text
    assert phone.locator(".rally-map img").count() == 1
    shot(phone, "rally-viewer-ja-390", full_page=True)
    page.close()
    phone.close()


def test_a_player_drives_a_simulated_car_from_a_phone(
    server: tuple[str, Path], browser: Any
) -> None:
    """Simulation mode with seat links: Aki's phone shows Aki's hand only, offers chips for the
    cards held, and the discard down to the hand size at the end of the turn."""
    from aids.core.links import referee_url
    from aids.games.base import Role

    base, db = server
    service = TableService(SqliteStore(db), engines())
    players = [{"name": n, "colour": c, "machine": {"actions": 3, "hand": 5, "draw": 2}}
               for n, c in (("あき", "red"), ("Ben", "blue"))]  # fmt: skip
    info, key = service.create("rally", "Phones", {
        "players": players, "course": {"start": "tokyo", "goal": "sendai"},
        "mode": "simulation", "seed": 4})  # fmt: skip
    pid = info.public_id
    aki = service.rotate_key(pid, key, Role.seat_of(0))
    phone = browser.new_page(viewport=PHONE)
    phone.goto(referee_url(base, pid, aki, "en"))
    settle(phone, 1000)
    tap(phone, phone.get_by_role("button", name="Draw 2"))
    hand = service.snapshot(pid, Role.seat_of(0)).state.hands[0]
    assert len(hand) == 7 and "Hand of" in phone.inner_text("body")
    other = service.snapshot(pid, Role.seat_of(1)).state
    assert other.hands[0] == ()  # Ben's view holds no card of Aki's
    shot(phone, "rally-seat-en-390-hand", full_page=True)
    seq = service.snapshot(pid).seq
    travel = [c for c in hand if c in ("20", "25", "30", "40", "50")]
    if travel:
        chip(phone, f"chip_{seq}_0", f"{travel[0]} km")
        move = phone.get_by_role("button", name="Move", exact=True)
        tap(phone, move)
        assert service.snapshot(pid).state.current.km == int(travel[0])
    state = service.snapshot(pid, Role.seat_of(0)).state
    excess = state.hand_sizes[0] - 5
    seq = service.snapshot(pid).seq
    if excess > 0:
        for i in range(excess):
            phone.locator(f".st-key-discard_{seq} button").nth(i).click()
            settle(phone)
    tap(phone, phone.get_by_role("button", name="End turn"))
    after = service.snapshot(pid, REFEREE).state
    assert after.turn == 1 and after.hand_sizes[0] <= 5
    seen = service.snapshot(pid).log[-1].action  # as a viewer reads the log
    assert seen is not None and seen.discard == () and seen.discard_count == excess
    phone.close()


def test_a_table_on_the_boards_own_map_file(
    server: tuple[str, Path], browser: Any, tmp_path: Path
) -> None:
    """The referee loads a map file on New table: a broken one is refused with the item
    named; a good one gives its towns to the course and becomes the table's map."""
    import json

    from tests.games.rally.helpers import map_dict

    base, db = server
    broken = tmp_path / "broken.json"
    raw = map_dict()
    raw["roads"].append({"a": "sendai", "b": "morioka", "km": 180})
    broken.write_text(json.dumps(raw), encoding="utf-8")
    good = tmp_path / "strip.json"
    good.write_text(json.dumps(map_dict()), encoding="utf-8")
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{base}/?lang=en")
    settle(page, 800)
    page.get_by_role("tab", name="New table").click()
    choose(page, "new_game", "Japan Rally")
    page.locator(".st-key-rally_map_file input[type=file]").set_input_files(str(broken))
    settle(page, 800)
    assert "morioka" in page.inner_text("body") and "not on the map" in page.inner_text("body")
    page.locator(".st-key-rally_map_file input[type=file]").set_input_files(str(good))
    settle(page, 800)
    assert "Test strip — 11 towns, 10 roads" in page.inner_text("body")
    page.locator(".st-key-new_title input").fill("Own map")
    for i, name in enumerate(PLAYERS):
        page.locator(f".st-key-ra_player_{i} input").fill(name)
    tap(page, page.get_by_role("button", name="Create table"))
    settle(page, 800)
    pid = page.url.split("table=")[1].split("&")[0]
    state = TableService(SqliteStore(db), engines()).snapshot(pid).state
    assert state.setup.board.en == "Test strip" and not state.setup.board.sample
    assert (state.setup.start, state.setup.goal) == ("koriyama", "sapporo")  # its course
    page.close()
