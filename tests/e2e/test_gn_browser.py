"""A whole Grand National played through the pages in chromium, as a new table would: each
player writes a blind bet on their own phone (390 px) or says none, the referee records "no
blind bet" for the player without a phone, the going, the lane spins, a bet and the start,
then every move to the finish on a short track, each a tap on the lengths the squares offer;
the phone viewer shows the settled money. Taps per action are counted and printed, and the
browser is watched for reruns: no tap of an action but its last asks the server for anything.
Screenshots are saved."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from aids.core.links import page_url, referee_url
from aids.games.base import REFEREE, Role
from aids.games.grand_national import engine, lanes
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e import fit
from tests.e2e.helpers import (
    Reruns,
    create_table,
    fill_new_table,
    on_screen,
    open_home_for,
    settle,
    shot,
    tap,
    wait_seq,
)
from tests.e2e.scenes import gn_race
from tests.ui.test_gn_page import short_table

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
NAMES = ["あき", "日本語"]  # a player's own name (and its horses'), the language switch's


def action(page: Any, reruns: Reruns, taps: list[Any]) -> int:
    """Tap each locator in turn with no pause for the server, the last one (which records the
    action) on the first screen; asserts that no tap but the last asked for a rerun."""
    before = reruns.count
    for locator in taps[:-1]:
        locator.click()
    page.wait_for_timeout(150)
    assert reruns.count == before, "a tap before the last waited for the server"
    on_screen(page, taps[-1])
    taps[-1].click()
    return len(taps)


def choose(page: Any, key: str, option: str) -> list[Any]:
    """A selectbox's two taps: open it, then the option."""
    return [
        page.locator(f".st-key-{key} input"),
        page.get_by_role("option", name=option, exact=True),
    ]


def live(page: Any, key: str) -> Any:
    """The element with widget key ``key`` in the newest run (not one left from the last)."""
    return page.locator(f".st-key-{key}:not([data-stale='true'])")


def chip(page: Any, key: str, text: str) -> Any:
    return live(page, key).locator("button:visible").filter(has_text=text).first


def move_taps(page: Any, state: Any, seq: int, horse: int) -> list[Any]:
    """The farthest square the engine offers (its own lane on a tie): its lane's tab if
    another, then its lengths."""
    offers = lanes.landings(state, horse)
    if not offers:
        return [live(page, "boxed_go").locator("button:visible")]
    x = max(offers, key=lambda o: (o.forward, o.lane == state.lane[horse], -o.lane))
    button = live(page, f"mv_{seq}_{x.lane}_{x.forward}").locator("button:visible")
    if button.count():
        return [button]
    return [page.get_by_role("tab", name=f"Lane {x.lane}", exact=True), button]


def test_a_whole_grand_national_through_the_pages(server: tuple[str, Path], browser: Any) -> None:
    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = short_table(service)
    counted: dict[str, list[int]] = {}
    # blind bets: Aki bets on her phone; Ben says none on his; Chie has no phone
    for seat in (0, 1):
        own = service.rotate_key(pid, key, Role.seat_of(seat))
        phone = browser.new_page(viewport=PHONE)
        reruns = Reruns(phone)
        phone.goto(referee_url(base, pid, own, "en"))
        settle(phone, 800)
        seq = service.snapshot(pid).seq
        if seat == 0:
            assert fit.japanese(phone, NAMES) == []
            taps = [*choose(phone, f"bh_{seq}", "🔵 Ben 1"), chip(phone, f"bs_{seq}", "$10,000")]
            taps.append(phone.get_by_role("button", name="Seal my blind bet"))
            shot(phone, "gn-seat-en-390-blind")
            counted["blind bet (seat's phone)"] = [action(phone, reruns, taps)]
        else:
            taps = [phone.get_by_role("button", name="No blind bet", exact=True)]
            counted["no blind bet (seat's phone)"] = [action(phone, reruns, taps)]
        wait_seq(phone, service, pid, seq + 1)
        phone.close()
    assert service.snapshot(pid, Role.seat_of(0)).state.blind[0].stake == 10000
    page = browser.new_page(viewport=LAPTOP)
    reruns = Reruns(page)
    page.goto(referee_url(base, pid, key, "en"))
    settle(page, 800)
    assert "10,000" not in page.inner_text("body")  # sealed from the referee too
    seq = service.snapshot(pid).seq
    taps = [page.get_by_role("button", name="🟢 Chie: no blind bet")]
    counted["no blind bet (referee, for a seat)"] = [action(page, reruns, taps)]
    wait_seq(page, service, pid, seq + 1)
    seq = service.snapshot(pid).seq
    counted["spin (going, lanes, caps)"] = [
        action(page, reruns, [chip(page, f"going_{seq}", "Soft")])
    ]
    wait_seq(page, service, pid, seq + 1)
    for lane in range(1, 5):
        seq = service.snapshot(pid).seq
        taps = [chip(page, f"lane{lane}_{seq}", "Red")]
        counted["spin (going, lanes, caps)"].append(action(page, reruns, taps))
        wait_seq(page, service, pid, seq + 1)
    assert service.snapshot(pid).state.phase == "market"
    assert fit.japanese(page, NAMES) == []
    seq = service.snapshot(pid).seq
    taps = [
        chip(page, f"ws_{seq}", "Ben"),
        *choose(page, f"wh_{seq}", "🔴 あき 1 · Win 12/1 · Show 3/1"),
    ]
    taps += [chip(page, f"wa_{seq}", "$2,000"), page.get_by_role("button", name="Take the bet")]
    counted["bet at the posted odds (referee)"] = [action(page, reruns, taps)]
    wait_seq(page, service, pid, seq + 1)
    wager = service.snapshot(pid).state.wagers[0]
    assert (wager.seat, wager.horse, wager.kind, wager.stake) == (1, 0, "win", 2000)
    shot(page, "gn-referee-en-market")
    seq = service.snapshot(pid).seq
    tap(page, page.get_by_role("button", name="They're off: start the race"))
    wait_seq(page, service, pid, seq + 1)
    fit.in_first_screen(page, ".st-key-move_box")  # scrolls to the top: the market was longer
    counted["horse move"] = []
    for _ in range(150):
        snap = service.snapshot(pid, REFEREE)
        if snap.outcome is not None:
            break
        state = snap.state
        if engine.needs_spin(state):
            taps = [chip(page, f"spin_{snap.seq}", "Blue")]
            counted["spin (going, lanes, caps)"].append(action(page, reruns, taps))
        else:
            horse = engine.next_horse(state)
            assert horse is not None
            taps = move_taps(page, state, snap.seq, horse)
            counted["horse move"].append(action(page, reruns, taps))
            if state.round == 2 and horse == 4:
                shot(page, "gn-referee-en-race")
                assert fit.japanese(page, NAMES) == []
        wait_seq(page, service, pid, snap.seq + 1)
        assert lanes.shared_squares(service.snapshot(pid).state) == ()
    final = service.snapshot(pid, REFEREE)
    assert final.outcome is not None and final.state.settled and final.state.placed
    assert final.state == service.replay(pid)
    phone = browser.new_page(viewport=PHONE)
    phone.goto(page_url(base, pid, "ja"))
    settle(phone, 1500)
    text = phone.inner_text("body")
    assert "勝者" in text and "$" in text
    shot(phone, "gn-viewer-ja-390", full_page=True)
    page.close()
    phone.close()
    print("\nGrand National taps per action (chromium, 1280 px referee, 390 px phones):")
    for name, taps_each in counted.items():
        spread = Counter(taps_each)
        print(f"  {name}: " + ", ".join(f"{n} taps × {c}" for n, c in sorted(spread.items())))
    assert max(counted["horse move"]) <= 3
    assert max(counted["bet at the posted odds (referee)"]) < 7
    assert max(counted["spin (going, lanes, caps)"]) == 1


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
def test_a_move_mid_race_is_a_tap_or_two_on_the_first_screen(
    server: tuple[str, Path], browser: Any, viewport: dict[str, int]
) -> None:
    """Round 2 (the scene's first turn left horses on shared squares: flagged): the move's
    lengths are on the first screen, nothing is wider than the screen, a lane's tab does not
    move the page or ask the server, and a lane change is two taps."""
    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = gn_race(service)
    service.record(pid, key, service.snapshot(pid).seq, {"type": "spin", "colour": "red"})
    page = browser.new_page(viewport=viewport)
    reruns = Reruns(page)
    page.goto(referee_url(base, pid, key, "en"))
    settle(page, 1000)
    seq = service.snapshot(pid).seq
    width = viewport["width"]
    live(page, f"mv_{seq}_1").wait_for(timeout=30000)  # drawn, however busy the server
    settle(page)
    assert "Two horses on one square" in page.inner_text("body")
    assert fit.in_first_screen(page, f".st-key-mv_{seq}_1 button") == []
    wide = fit.too_wide(page)
    assert wide == [], "\n".join(wide)
    assert fit.japanese(page, NAMES) == []
    shot(page, f"gn-referee-en-{width}-move")
    state = service.snapshot(pid).state
    horse = engine.next_horse(state)
    assert horse == 0
    x = next(o for o in lanes.landings(state, horse) if o.lane == 3)
    top = fit.scroll_top(page)
    tab = page.get_by_role("tab", name="Lane 3", exact=True)
    button = live(page, f"mv_{seq}_3_{x.forward}").locator("button:visible")
    taps = action(page, reruns, [tab, button])
    wait_seq(page, service, pid, seq + 1)
    assert abs(fit.scroll_top(page) - top) <= 1, "a tap moved the page"
    assert service.snapshot(pid).log[-1].action == x.move(horse)
    print(f"\nGrand National lane change at {width} px: {taps} taps (lane's tab, lengths)")
    assert taps == 2
    page.close()


def test_a_table_on_the_boards_own_track_file(
    server: tuple[str, Path], browser: Any, tmp_path: Path
) -> None:
    """The referee loads a track file on New table: a broken one is refused with the item
    named; a good one becomes the table's track."""
    import json

    from tests.ui.test_gn_page import SHORT

    base, db = server
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(SHORT | {"landmarks": SHORT["landmarks"] | {"bechers": 4}}))
    good = tmp_path / "short.json"
    good.write_text(json.dumps(SHORT))
    page = browser.new_page(viewport=LAPTOP)
    # The game chosen by the link (as a rule card's QR opens it): typing into the game box and
    # pressing Enter raced the box's options on a loaded machine and left another game chosen.
    open_home_for(page, base, "en", "gn")
    page.get_by_role("tab", name="New table").click()
    upload = page.locator(".st-key-gn_track_file input[type=file]")
    upload.set_input_files(str(broken))
    settle(page, 800)
    assert "Becher's Brook (4) must be one of the fences" in page.inner_text("body")
    upload.set_input_files(str(good))
    settle(page, 800)
    assert "Short test track — a lap of 12 lengths" in page.inner_text("body")
    page.locator(".st-key-new_title input").fill("Own track")
    for i, name in enumerate(["Aki", "Ben"]):
        page.locator(f".st-key-gn_stable_{i} input").fill(name)
    tap(page, page.get_by_role("button", name="Create table"))
    settle(page, 800)
    pid = page.url.split("table=")[1].split("&")[0]
    state = TableService(SqliteStore(db), engines()).snapshot(pid).state
    assert state.setup.track.lap == 12 and not state.setup.track.sample
    page.close()


# A real deal for six stables (seeded once, written out): each stable's (price, handicap) by
# slot, slot k from stack k; 33 of the 48 values differ from the form's preset.
DEAL = [
    [(60000, 2), (40000, 3), (20000, 7), (30000, 3)],
    [(60000, 2), (30000, 2), (20000, 3), (50000, 0)],
    [(50000, 3), (40000, 1), (10000, 5), (10000, 2)],
    [(60000, 4), (40000, 7), (20000, 3), (60000, 4)],
    [(50000, 1), (30000, 1), (10000, 2), (50000, 5)],
    [(60000, 0), (30000, 7), (10000, 2), (30000, 4)],
]
OWNERS = ["あき", "Ben", "ちえ", "Dan", "えみ", "Fay"]
SETUP_BUDGET = 45  # taps for a six-stable table: the typed grid took two or more a changed cell


@pytest.mark.parametrize(
    ("viewport", "lang"),
    # the laptop in the referee's usual Japanese; the phone, where the words' widths decide
    # what fits, in both (a laptop in English repeated the Japanese one with shorter words)
    [(PHONE, "en"), (LAPTOP, "ja"), (PHONE, "ja")],
    ids=["390-en", "1280-ja", "390-ja"],
)
def test_a_six_stable_table_is_set_up_by_tapping_the_deal(
    server: tuple[str, Path], browser: Any, viewport: dict[str, int], lang: str
) -> None:
    """Issue 28 §4 (set-up as quick as dealing; deal rule: slot k from stack k): a new table of
    six stables, each stable's four dealt horses a tap on the card's price and one on its
    handicap where they differ from the preset, within SETUP_BUDGET taps counted from the
    home page to Create (no tap before Create waits on the server); the table made holds the
    deal exactly. Screenshots of the form are saved."""
    from aids.games.grand_national.deal import slot_choices

    base, db = server
    page = browser.new_page(viewport=viewport)
    reruns = Reruns(page)
    open_home_for(page, base, lang, "gn")
    before = reruns.count
    taps = fill_new_table(page, lang, f"Deal {viewport['width']} {lang}", OWNERS, "gn_stable")
    shot(page, f"gn-setup-{lang}-{viewport['width']}")
    for s, horses in enumerate(DEAL):
        for slot, ((price, mark), c) in enumerate(zip(horses, slot_choices(), strict=True)):
            if price != c.preset[0]:
                page.locator(f".st-key-gn_deal_{s}_{slot}_price button").nth(
                    c.prices.index(price)
                ).click()
                taps += 1
            if mark != c.preset[1]:
                page.locator(f".st-key-gn_deal_{s}_{slot}_handicap button").nth(
                    c.handicaps.index(mark)
                ).click()
                taps += 1
    for slot in range(4):
        for field in ("price", "handicap"):
            last = page.locator(f".st-key-gn_deal_5_{slot}_{field} button").last.bounding_box()
            box = page.locator(f".st-key-gn_deal_5_{slot}_{field}").bounding_box()
            assert last["x"] + last["width"] <= box["x"] + box["width"] + 0.5, "a value cut"
    shot(page, f"gn-setup-{lang}-{viewport['width']}-dealt", full_page=True)
    page.wait_for_timeout(150)
    assert reruns.count == before, "a tap before Create waited on the server"
    pid = create_table(page, lang)
    taps += 1
    state = TableService(SqliteStore(db), engines()).snapshot(pid).state
    made = [[(h.price, h.handicap) for h in stable.horses] for stable in state.setup.stables]
    assert made == DEAL and [s.name for s in state.setup.stables] == OWNERS
    print(f"\nGrand National set-up at {viewport['width']} px ({lang}): {taps} taps")
    assert taps <= SETUP_BUDGET
    page.close()
