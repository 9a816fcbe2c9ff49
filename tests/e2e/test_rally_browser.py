"""A whole Japan Rally played through the pages in chromium, as a new referee would: create the
table on the home page (a course chosen by its start and goal), then for each turn tap the
draw, the card chips and Move and end turn, with an attack and a defence on the way, until
every car has arrived; the phone viewer shows the map and the finishing order. The taps of a
travel turn are counted and printed (issue 19: at most 4, and no tap of a movement waits on
the server: the chips and the button are tapped without a pause). The page fits at 1280 × 800
and 390 × 844, in English with no Japanese but the players' names. Screenshots are saved."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import pytest

from aids.core.links import page_url, referee_url
from aids.games.base import REFEREE
from aids.games.rally import reach
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e import fit
from tests.e2e.helpers import on_screen, settle, shot, tap
from tests.e2e.scenes import rally_mid_race

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PLAYERS = ["あき", "Ben"]
NAMES = ["あき", "ちえ", "日本語"]  # the players' own names, and the language switch's


def choose(page: Any, key: str, option: str) -> None:
    """Pick ``option`` in the selectbox with widget key ``key``: typed, then its option tapped
    once the list shows it (Enter pressed at once could race the list on a loaded machine and
    leave the box as it was)."""
    box = page.locator(f".st-key-{key} input")
    box.click()
    box.fill(option)
    page.get_by_role("option", name=option, exact=True).click(timeout=30000)
    settle(page)


def chip(page: Any, key: str, text: str) -> None:
    tap(page, page.locator(f".st-key-{key} button").filter(has_text=text).first)


def wait_seq(page: Any, service: TableService, pid: str, seq: int) -> None:
    """Until the table holds ``seq`` steps (or more: Move and end turn writes two) and the
    page is drawn from the newest."""
    for _ in range(300):
        now = service.snapshot(pid).seq
        if now >= seq and page.locator(f".aids-seq[data-seq='{now}']").count():
            break
        page.wait_for_timeout(100)
    assert service.snapshot(pid).seq >= seq, "the action was not recorded"
    settle(page)


def travel_taps(page: Any, seq: int, cards: list[str], button: str = "move_end") -> int:
    """Tap each card's chip (the next one of its kind not yet tapped) and then the button,
    one after the other with no pause for the server: the taps."""
    chips = page.locator(f".st-key-travel_{seq} button")
    labels = [chips.nth(i).inner_text().replace("\u2060", "") for i in range(chips.count())]
    used: list[int] = []
    for card in cards:
        i = next(i for i, x in enumerate(labels) if x == f"{card} km" and i not in used)
        used.append(i)
        chips.nth(i).click()
    go = page.locator(f".st-key-{button} button")
    on_screen(page, go)  # the last tap is on the first screen
    go.click()
    return len(cards) + 1


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
    turns, counts, first_home = 0, [], False
    while service.snapshot(pid).outcome is None and turns < 12:
        turns += 1
        state = service.snapshot(pid).state
        seat = state.turn
        draw = page.get_by_role("button", name="Drawn 2")
        on_screen(page, draw)
        seq = service.snapshot(pid).seq
        draw.click()
        wait_seq(page, service, pid, seq + 1)
        taps = 1
        if service.snapshot(pid).state.rain[seat]:  # the car helps itself: clear sky first
            seq = service.snapshot(pid).seq
            chip(page, f"card_{seq}", "Clear sky")
            target = page.locator(".st-key-card_targets button").filter(has_text=PLAYERS[seat])
            tap(page, target)  # its own rain: the one target, played in one tap
            taps = -100  # a defence first: not a plain travel turn
        seq = service.snapshot(pid).seq
        if turns == 1:  # the long way: Move, Rain on Ben, End turn
            tap(page, page.locator(f".st-key-travel_{seq} button").filter(has_text="50 km").first)
            tap(page, page.locator(f".st-key-travel_{seq} button").filter(has_text="30 km").first)
            assert "80 km" in page.inner_text(".st-key-travel_box")
            shot(page, "rally-referee-en-turn1")
            tap(page, page.locator(".st-key-move_go button"))
            assert service.snapshot(pid).state.towns[seat] != state.towns[seat]
            seq = service.snapshot(pid).seq
            chip(page, f"card_{seq}", "Rain")
            tap(page, page.locator(".st-key-card_targets button").filter(has_text="Ben"))
            assert service.snapshot(pid).state.rain[1]
            tap(page, page.get_by_role("button", name="End turn"))
            continue
        cards = ["50", "30"] if not service.snapshot(pid).state.rain[seat] else ["50"]
        taps += travel_taps(page, seq, cards)
        wait_seq(page, service, pid, seq + 1)
        after = service.snapshot(pid).state
        assert after.current.km == 0 or after.towns[seat] != state.towns[seat]
        assert after.towns[seat] != state.towns[seat] or seat in after.arrived
        assert after.turn != seat or after.phase == "over", "the turn ended with the move"
        if taps > 0:
            counts.append(taps)
        if after.arrived and not first_home and after.phase != "over":
            first_home = True  # the winner is known at once, though the race goes on
            assert "Winner:" in page.inner_text("[role=status]")
    final = service.snapshot(pid, REFEREE)
    assert final.outcome is not None and final.outcome.reason == "arrived", turns
    assert final.state == service.replay(pid)
    assert first_home and "Winner" in page.inner_text("body")
    print(f"\nRally taps per travel turn at 1280 px: {counts} (median "
          f"{statistics.median(counts)}: Drawn + a chip per card + Move and end turn; "
          "before issue 19: 5, 6 with a stop changed)")  # fmt: skip
    assert max(counts) <= 4
    shot(page, "rally-referee-en-over")
    phone = browser.new_page(viewport=PHONE)
    phone.goto(page_url(base, pid, "ja"))
    settle(phone, 1500)
    text = phone.inner_text("body")
    assert "勝者" in text and "仙台" in text and "あき" in text
    assert phone.locator(".rally-map img").count() == 1
    shot(phone, "rally-viewer-ja-390", full_page=True)
    page.close()
    phone.close()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
def test_the_referee_page_fits_and_a_travel_turn_is_four_taps(
    server: tuple[str, Path], browser: Any, viewport: dict[str, int]
) -> None:
    """Mid-race (a jam, a car under rain): the draw and then the movement's controls are on
    the first screen, nothing is wider than the screen, a chip's tap does not move the page,
    the English page holds no Japanese but the players' names, and Drawn + 50 + 30 + Move
    and end turn (no pause between them) records the turn as tapped."""
    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = rally_mid_race(service, "en")
    page = browser.new_page(viewport=viewport)
    page.goto(referee_url(base, pid, key, "en"))
    settle(page, 1000)
    page.keyboard.press("Escape")
    settle(page)
    width = viewport["width"]
    assert fit.in_first_screen(page, ".st-key-draw_go button") == []
    seq = service.snapshot(pid).seq + 1
    page.locator(".st-key-draw_go button").click()
    wait_seq(page, service, pid, seq)
    assert fit.in_first_screen(page, ".st-key-move_end button") == []
    assert fit.in_first_screen(page, f".st-key-travel_{seq} button") == []
    # the frame's share links (st.code: a box that scrolls by itself, unmarked) are not ours
    assert [w for w in fit.too_wide(page) if "code" not in w and not w.startswith("span ")] == []
    assert fit.japanese(page, NAMES) == []
    top = fit.scroll_top(page)
    tap(page, page.locator(f".st-key-travel_{seq} button").first)
    assert abs(fit.scroll_top(page) - top) <= 1, "a chip's tap moved the page"
    tap(page, page.locator(f".st-key-clear_{seq} button"))
    shot(page, f"rally-referee-en-{width}-act")
    taps = 1 + travel_taps(page, seq, ["50", "30"])
    wait_seq(page, service, pid, seq + 1)
    state = service.snapshot(pid).state
    record = state.turns[-1]
    assert (record.seat, record.cards, record.km) == (0, ("30", "50"), 80)
    assert state.turn == 1  # the turn ended with the move
    print(f"\nRally travel turn at {width} px: {taps} taps (Drawn, 50, 30, Move and end turn)")
    assert taps <= 4
    for section in page.locator("summary").all():  # the turns, log, rulings and the rest
        section.click()
        settle(page, 200)
    assert fit.japanese(page, NAMES) == []
    viewer = browser.new_page(viewport=viewport)
    viewer.goto(page_url(base, pid, "en"))
    settle(viewer, 1500)
    for section in viewer.locator("summary").all():
        section.click()
        settle(viewer, 200)
    assert fit.japanese(viewer, NAMES) == []
    viewer.close()
    page.close()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_map_puts_each_car_on_its_town_and_draws_the_stop(
    server: tuple[str, Path], browser: Any, viewport: dict[str, int], lang: str
) -> None:
    """Mid-race with 50 + 30 km tapped: every car disc sits on its town (the picture fills
    the map's box, so a town's dot is where its disc is), the stop the engine proposes is
    ringed, nothing is drawn outside the map, and no two labels or discs overlap."""
    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = rally_mid_race(service, lang)
    page = browser.new_page(viewport=viewport)
    page.goto(referee_url(base, pid, key, lang))
    settle(page, 1000)
    page.keyboard.press("Escape")
    seq = service.snapshot(pid).seq + 1
    page.locator(".st-key-draw_go button").click()
    wait_seq(page, service, pid, seq)
    chips = page.locator(f".st-key-travel_{seq} button")
    labels = [chips.nth(i).inner_text().replace("\u2060", "") for i in range(chips.count())]
    chips.nth(labels.index("50 km")).click()
    chips.nth(labels.index("30 km")).click()
    settle(page, 800)
    state = service.snapshot(pid).state
    proposal = reach.advise(state, state.turn, 80).proposal
    assert proposal is not None
    [board] = fit.boxes(page, ".rally-map")
    [picture] = fit.boxes(page, ".rally-map img")
    assert all(abs(board[k] - picture[k]) <= 2 for k in ("x", "y", "w", "h"))
    assert page.locator(".rally-map .rally-stop").get_attribute("data-town") == proposal
    cars = page.locator(".rally-map .rally-car")
    assert cars.count() == state.players
    for i in range(cars.count()):
        box = cars.nth(i).bounding_box()
        ax, ay = map(float, cars.nth(i).get_attribute("data-at").split(","))
        x, y = board["x"] + ax * board["w"], board["y"] + ay * board["h"]
        assert box["x"] - 1 <= x <= box["x"] + box["width"] + 1, "a car off its town"
        assert box["y"] - 1 <= y <= box["y"] + box["height"] + 1, "a car off its town"
    assert fit.outside(page, ".rally-map", ".rally-car, .rally-label, .rally-stop") == []
    assert fit.overlaps(page, ".rally-map .rally-label, .rally-map .rally-car") == []
    page.locator(".rally-map").scroll_into_view_if_needed()
    shot(page, f"rally-map-{lang}-{viewport['width']}")
    page.close()


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
    travel = sorted((c for c in hand if c in ("20", "25", "30", "40", "50")), key=int)
    if travel:  # the longest card; 20 or 25 km from Tokyo reach no town: staying is chosen
        chip(phone, f"travel_{seq}", f"{travel[-1]} km")
        if int(travel[-1]) < 30:
            assert "reaches no town nearer the goal" in phone.inner_text("body")
            choose(phone, f"to_{seq}_{travel[-1]}", "Tokyo (stay)")
        tap(phone, phone.locator(".st-key-move_go button"))
        assert service.snapshot(pid).state.current.km == int(travel[-1])
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
