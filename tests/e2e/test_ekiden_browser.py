"""The Hakone Ekiden through the referee page in chromium, as a new referee would: a whole
relay (reveal each leg's card, play each team's runner in the order the page names), then the
phone viewer's final standings; and the taps each action takes, counted and printed, with no
tap but the last of an action waiting on the server. Screenshots are saved."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import pytest

from aids.core.links import page_url, referee_url
from aids.games.base import REFEREE
from aids.games.ekiden import engine
from aids.games.ekiden.model import MARKS, Runner
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.e2e.helpers import (
    Reruns,
    create_table,
    fill_new_table,
    on_screen,
    open_home_for,
    settle,
    shot,
    still_box,
    wait_seq,
)

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TEAMS = [("あき", "red"), ("Ben", "blue"), ("ちえ", "green")]
COURSE = [{"slope": "up", "n": 2}] * 5 + [{"slope": "down", "n": 1}] * 5


def new_relay(service: TableService, title: str) -> tuple[str, str]:
    setup = {"teams": [{"name": n, "colour": c} for n, c in TEAMS], "start": 0, "course": COURSE}
    info, key = service.create("ekiden", title, setup)
    return info.public_id, key


def button_of(page: Any, key: str, index: int) -> Any:
    return page.locator(f".st-key-{key} button").nth(index)


def reveal_taps(page: Any, seq: int, marks: str) -> int:
    """Tap each rank's mark that differs from the preset "—", then Reveal: the taps."""
    taps = 0
    for rank, mark in enumerate(marks, start=1):
        if mark != "-":
            button_of(page, f"mark_{seq}_{rank}", MARKS.index(mark)).click()  # type: ignore[arg-type]
            taps += 1
    page.locator(".st-key-reveal_go button").click()
    return taps + 1


def runner_taps(page: Any, seq: int, card: Runner) -> int:
    """Tap each of the card's numbers that differs from the preset the engine gives, then its
    skill, which plays it: the taps (a tap each, no typing)."""
    choices = engine.runner_choices()
    taps = 0
    rows = (("power", choices.power), ("up", choices.up), ("down", choices.down))
    for field, options in rows:
        value = getattr(card, field)
        if value != getattr(choices.preset, field):
            button_of(page, f"{field}_{seq}", options.index(value)).click()
            taps += 1
    play = page.locator(f".st-key-run_{card.skill or engine.NO_SKILL} button")
    if page.viewport_size["width"] >= LAPTOP["width"]:
        on_screen(page, play)  # the last tap is on the laptop's first screen
    play.click()
    return taps + 1


def test_a_whole_relay_through_the_referee_page(server: tuple[str, Path], browser: Any) -> None:
    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = new_relay(service, "Browser relay")
    page = browser.new_page(viewport=LAPTOP)
    page.goto(referee_url(base, pid, key, "en"))
    settle(page, 800)
    for leg in range(1, 11):
        # the card: rank 1 advances, rank 5 goes back; tapped quickly, then Reveal at once
        seq = service.snapshot(pid).seq
        on_screen(page, page.locator(".st-key-reveal_go button"))
        reveal_taps(page, seq, "o---x")
        wait_seq(page, service, pid, seq + 1)
        state = service.snapshot(pid).state
        assert state.phase == "runners", f"leg {leg} card not revealed"
        assert state.marks == ("o", "-", "-", "-", "x"), "the card as tapped"
        for order in range(len(TEAMS)):
            seq = service.snapshot(pid).seq
            # a value tapped and the button clicked at once (no pause) is kept
            runner_taps(page, seq, Runner(4, order + 3, 1))
            wait_seq(page, service, pid, seq + 1)
            snap = service.snapshot(pid)
            entries = snap.state.entries or snap.state.history[-1]
            assert next(e for e in entries if e.order == order).runner.up == order + 3
        if leg == 5:
            shot(page, "ekiden-referee-en-leg5")
    final = service.snapshot(pid, REFEREE)
    assert final.outcome is not None and len(final.state.history) == 10
    assert "The relay is over" in page.inner_text("body")
    shot(page, "ekiden-referee-en-over")
    phone = browser.new_page(viewport=PHONE)
    phone.goto(page_url(base, pid, "ja"))
    settle(phone, 1500)
    text = phone.inner_text("body")
    assert "大会終了" in text and "あき" in text
    shot(phone, "ekiden-viewer-ja-390", full_page=True)
    page.close()
    phone.close()


# Typed runners as they come at a table: most cards differ from the preset (4 ↑1 ↓1, no
# skill) in a value or two, some in every one.
CARDS = [
    Runner(4, 1, 1),
    Runner(5, 2, 1),
    Runner(3, 1, 2, "outbound"),
    Runner(6, 3, 1),
    Runner(4, 2, 2, "uphill"),
    Runner(2, 0, 1, "commander"),
    Runner(5, 4, 3, "uphill"),  # every number differs: the most a card takes
]


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
def test_taps_per_action_and_no_tap_waits_on_the_server(
    server: tuple[str, Path], browser: Any, viewport: dict[str, int]
) -> None:
    """Entry speed (issue 19): a situation card is its marks + Reveal, a typed runner the
    values that differ from the preset + Play, and only that last tap asks the server for
    anything (the rows are a form). The counts are printed; the same on a phone."""
    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = new_relay(service, f"Taps {viewport['width']}")
    page = browser.new_page(viewport=viewport)
    reruns = Reruns(page)
    page.goto(referee_url(base, pid, key, "en"))
    settle(page, 800)
    cards = iter(CARDS)
    runner_counts, reveal_counts = [], []
    for _leg in range(3):
        seq = service.snapshot(pid).seq
        before = reruns.count
        reveal_counts.append(reveal_taps(page, seq, "o-x-o"))
        wait_seq(page, service, pid, seq + 1)
        assert reruns.count - before == 1, "a mark's tap waited on the server"
        for _team in TEAMS:
            card = next(cards, None)
            if card is None:
                break
            seq = service.snapshot(pid).seq
            before = reruns.count
            runner_counts.append(runner_taps(page, seq, card))
            wait_seq(page, service, pid, seq + 1)
            assert reruns.count - before == 1, "a value's tap waited on the server"
            assert service.snapshot(pid).log[-1].action.runner == card, "recorded as tapped"
    shot(page, f"ekiden-taps-{viewport['width']}")
    page.close()
    roster_counts = roster_taps(service, browser, base, viewport)
    median = statistics.median(runner_counts)
    print(
        f"\nEkiden taps at {viewport['width']} px: typed runner {runner_counts}"
        f" (median {median}; 1 + the numbers that differ from the preset: 1 to 4);"
        f" situation card {reveal_counts} (marks other than — + Reveal);"
        f" roster runner {roster_counts} (pick + Play)"
    )
    assert median <= 3 and max(runner_counts) <= 4 and roster_counts == [2]


def roster_taps(
    service: TableService, browser: Any, base: str, viewport: dict[str, int]
) -> list[int]:
    """A team with a roster: its runner picked and played, the taps counted (one rerun)."""
    pid, key = new_relay(service, f"Roster {viewport['width']}")
    cards = [{"power": 2 + i % 5, "up": i % 4, "down": 1} for i in range(10)]
    for team in range(len(TEAMS)):
        roster = {"type": "roster", "team": team, "runners": cards}
        service.record(pid, key, service.snapshot(pid).seq, roster)
    service.record(pid, key, service.snapshot(pid).seq, {"type": "situation", "leg": 1,
                                                         "marks": "o-x-o"})  # fmt: skip
    page = browser.new_page(viewport=viewport)
    reruns = Reruns(page)
    page.goto(referee_url(base, pid, key, "en"))
    settle(page, 800)
    seq = service.snapshot(pid).seq
    before = reruns.count
    taps = [button_of(page, f"pick_{seq}", 3), page.locator(".st-key-run_go button")]
    for button in taps:
        button.click()
    wait_seq(page, service, pid, seq + 1)
    assert reruns.count - before == 1, "the pick waited on the server"
    assert service.snapshot(pid).log[-1].action.pick == 3
    page.close()
    return [len(taps)]


def open_sections(page: Any) -> None:
    """Open every closed section (expander) of the page, so its words are read too."""
    closed = page.locator("[data-testid='stExpander'] details:not([open]) > summary")
    for _ in range(20):
        if closed.count() == 0:
            break
        closed.first.click()
        settle(page, 300)


# The language switch names Japanese in Japanese (日本語): the one Japanese word a page in
# English shows on purpose, besides the names players typed.
LANGUAGE_SWITCH = ["日本語"]


def mid_relay(service: TableService) -> tuple[str, str]:
    """Leg 3 under way: two legs run (a Commander among them), the third card revealed."""
    pid, key = new_relay(service, "English relay")
    for leg in (1, 2):
        service.record(pid, key, service.snapshot(pid).seq,
                       {"type": "situation", "leg": leg, "marks": "o-o-x"})  # fmt: skip
        while (snap := service.snapshot(pid)).state.phase == "runners":
            team = engine.next_runner(snap.state)
            card = {"power": 3 + team, "up": 2, "down": 1, "skill": "commander"}
            service.record(pid, key, snap.seq, {"type": "run", "team": team, "leg": leg,
                                                "runner": card})  # fmt: skip
    service.record(pid, key, service.snapshot(pid).seq,
                   {"type": "situation", "leg": 3, "marks": "o-o-x"})  # fmt: skip
    return pid, key


def test_an_english_page_holds_no_japanese_but_the_names(
    server: tuple[str, Path], browser: Any
) -> None:
    """English pages are English (issue 19): the referee's and the viewer's page at 1280 × 800,
    every section open, hold no Japanese outside the teams' names ("Leg results (区間順位)"
    did)."""
    from tests.e2e.fit import japanese

    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = mid_relay(service)
    names = [name for name, _ in TEAMS] + LANGUAGE_SWITCH
    page = browser.new_page(viewport=LAPTOP)
    for url in (referee_url(base, pid, key, "en"), page_url(base, pid, "en")):
        page.goto(url)
        settle(page, 1500)
        open_sections(page)
        assert japanese(page, names) == [], url
    shot(page, "ekiden-viewer-en-1280-open")
    page.close()


def relay_at(service: TableService, moment: str) -> tuple[str, str]:
    """A relay at its ``start`` (five teams on S), ``mid``-way (leg 5) or its ``end``, where
    the last team is back at -11 and the winner past the printed road (+20)."""
    teams = [*TEAMS, ("Dai", "yellow"), ("Emi", "purple")] if moment == "start" else TEAMS
    setup = {"teams": [{"name": n, "colour": c} for n, c in teams], "start": 0, "course": COURSE}
    info, key = service.create("ekiden", f"Road {moment}", setup)
    pid = info.public_id
    legs = {"start": 0, "mid": 4, "end": 10}[moment]
    for leg in range(1, legs + 1):
        service.record(pid, key, service.snapshot(pid).seq,
                       {"type": "situation", "leg": leg, "marks": "o-o-x"})  # fmt: skip
        while (snap := service.snapshot(pid)).state.phase == "runners":
            team = engine.next_runner(snap.state)
            card = [{"power": 2, "up": 1, "down": 2 if leg == 1 else 1},
                    {"power": 6, "up": 2, "down": 1},
                    {"power": 4, "up": 1, "down": 1}][team]  # fmt: skip
            service.record(pid, key, snap.seq, {"type": "run", "team": team, "leg": leg,
                                                "runner": card})  # fmt: skip
    if moment == "end":
        columns = sorted(p.column for p in service.snapshot(pid).state.places)
        assert columns == [-11, 10, 20]
    return pid, key


@pytest.mark.parametrize("moment", ["start", "mid", "end"])
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
def test_the_road_shows_all_its_columns_and_every_piece_on_screen(
    server: tuple[str, Path], browser: Any, viewport: dict[str, int], moment: str
) -> None:
    """Boards that fit (issue 19): the road's 27 columns (and any a piece passed) are all
    drawn at 1280 × 800 and 390 × 844, every piece inside the road and on the screen's
    width, no column number or piece over another, nothing wider than the screen but the
    tables marked as sideways scrollers (which say so); at the end the last team (-11) is
    drawn as well as the winner past the printed road (+20)."""
    from tests.e2e import fit

    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = relay_at(service, moment)
    state = service.snapshot(pid).state
    page = browser.new_page(viewport=viewport)
    for url in (referee_url(base, pid, key, "en"), page_url(base, pid, "en")):
        page.goto(url)
        settle(page, 1500)
        numbers = fit.boxes(page, ".ek-road .num")
        drawn = [b["text"] for b in numbers]
        assert drawn[0] == "-13" and "+13" in drawn and "S" in drawn, drawn
        assert len(drawn) == max(27, 1 + max(p.column for p in state.places) + 13)
        pieces = fit.boxes(page, ".ek-road .piece")
        assert len(pieces) == state.teams, "a piece is not drawn"
        assert fit.outside(page, ".ek-road", ".piece") == []
        assert fit.overlaps(page, ".ek-road .piece, .ek-road .num") == []
        width = viewport["width"]
        assert all(p["x"] >= 0 and p["x"] + p["w"] <= width for p in pieces), pieces
        assert fit.too_wide(page) == []
        for scroller in page.locator(".aids-scroll-x").all():  # each says it scrolls
            assert scroller.get_attribute("role") == "region" and scroller.get_attribute(
                "aria-label"
            )
    shot(page, f"ekiden-road-{moment}-{width}", full_page=True)
    page.close()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
def test_axe_finds_no_wcag_violation_on_the_ekiden_pages(
    server: tuple[str, Path], browser: Any, viewport: dict[str, int]
) -> None:
    """The runner's rows of buttons, the road and the sideways tables pass axe-core's WCAG 2
    A/AA rules (scrolling boxes can be reached by keyboard and are named)."""
    from tests.e2e.helpers import axe_violations

    base, db = server
    service = TableService(SqliteStore(db), engines())
    pid, key = mid_relay(service)
    page = browser.new_page(viewport=viewport)
    for url in (referee_url(base, pid, key, "en"), page_url(base, pid, "ja")):
        page.goto(url)
        settle(page, 1500)
        problems = axe_violations(page)
        assert problems == [], url
    page.close()


# The course as laid (lower half = outbound leg, upper = return leg; 0 = flat) and two teams'
# drafted rosters (seeded once, written out): realistic cards, most differing from the preset
# (4 ↑1 ↓1, no skill) in two or three of their four values.
LAID = {1: 2, 10: 1, 2: 3, 9: 0, 3: 1, 8: 2, 4: 4, 7: 1, 5: 5, 6: 3}
DRAFTED = [
    [Runner(2, 4, 1, "downhill"), Runner(3, 1, 3, "commander"), Runner(5, 1, 1, "downhill"),
     Runner(5, 1, 1, "outbound"), Runner(3, 1, 1, "outbound"), Runner(2, 1, 1, "anchor"),
     Runner(3, 1, 2, "return"), Runner(6, 1, 3, "commander"), Runner(3, 1, 0, "return"),
     Runner(4, 1, 2, "return")],
    [Runner(2, 3, 1, "downhill"), Runner(3, 2, 0), Runner(5, 2, 1, "downhill"),
     Runner(5, 2, 1, "downhill"), Runner(3, 1, 1, "outbound"), Runner(6, 2, 0, "outbound"),
     Runner(3, 1, 1, "anchor"), Runner(5, 1, 1, "downhill"), Runner(5, 3, 1, "commander"),
     Runner(6, 2, 1, "front_runner")],
]  # fmt: skip
FORM_BUDGET = 15  # taps from the home page to Create: the typed course alone took 16 or more
ROSTER_BUDGET = 33  # taps for a team's roster: the grid took two or more a changed cell (60+)


def whole(page: Any, key: str) -> None:
    """The widget's last button is wholly inside the widget and the viewport (none cut)."""
    last = still_box(page.locator(f".st-key-{key} button").last)
    box = still_box(page.locator(f".st-key-{key}"))
    right = min(box["x"] + box["width"], page.viewport_size["width"])
    assert last["x"] + last["width"] <= right + 0.5, (key, last, box)


def roster_row_taps(page: Any, row: str, card: Runner) -> int:
    """Tap each of the card's values that differs from the preset row: the taps."""
    choices = engine.runner_choices()
    taps = 0
    for field, options in (("power", choices.power), ("up", choices.up), ("down", choices.down)):
        if getattr(card, field) != getattr(choices.preset, field):
            button_of(page, f"{row}_{field}", options.index(getattr(card, field))).click()
            taps += 1
    if card.skill is not None:
        button_of(page, f"{row}_skill", choices.skills.index(card.skill)).click()
        taps += 1
    return taps


@pytest.mark.parametrize(
    ("viewport", "lang"),
    # the laptop in the referee's usual Japanese; the phone, where the words' widths decide
    # what fits, in both (a laptop in English repeated the Japanese one with shorter words)
    [(PHONE, "en"), (LAPTOP, "ja"), (PHONE, "ja")],
    ids=["390-en", "1280-ja", "390-ja"],
)
def test_a_relay_is_set_up_by_tapping_the_course_and_the_rosters(
    server: tuple[str, Path], browser: Any, viewport: dict[str, int], lang: str
) -> None:
    """Issue 28 §4 (set-up as quick as dealing) and §3 (skills in words): a new relay's five
    course cards are a tap a half (a flat half none), within FORM_BUDGET taps from the home
    page to Create; then two teams' drafted rosters, a tap for each value a card shows that
    differs from the preset, within ROSTER_BUDGET taps a team, no tap but Save waiting on
    the server; the table holds the course and the rosters exactly as laid and drafted, and
    the roster's skills read as words, never code keys. Screenshots are saved."""
    from aids.core.i18n import t
    from aids.games.ekiden.model import SKILLS, Terrain

    base, db = server
    service = TableService(SqliteStore(db), engines())
    page = browser.new_page(viewport=viewport)
    reruns = Reruns(page)
    open_home_for(page, base, lang, "ekiden")
    before = reruns.count
    title = f"Relay {viewport['width']} {lang}"
    form = fill_new_table(page, lang, title, [n for n, _ in TEAMS], "ek_team")
    for leg, value in LAID.items():
        if value:
            button_of(page, f"ek_leg_{leg}", value).click()
            form += 1
    whole(page, "ek_leg_1")
    shot(page, f"ekiden-setup-{lang}-{viewport['width']}", full_page=True)
    page.wait_for_timeout(150)
    assert reruns.count == before, "a tap before Create waited on the server"
    pid = create_table(page, lang)
    form += 1
    course = service.snapshot(pid).state.setup.course
    assert list(course) == [Terrain.from_card_value(leg, LAID[leg]) for leg in range(1, 11)]
    page.keyboard.press("Escape")  # the referee link's dialog, shown once
    page.get_by_role("dialog").wait_for(state="detached", timeout=30000)
    settle(page)

    counts, per_runner = [], []
    for team, roster in enumerate(DRAFTED):
        seq = service.snapshot(pid).seq
        taps = 0
        closed = page.locator("[data-testid='stExpander'] details:not([open]) > summary")
        section = closed.filter(has_text=t("ekiden.ui.rosters", lang))
        if section.count():
            section.click()
            settle(page)
            taps += 1
        if team:
            page.locator(".st-key-roster_team input").click()
            page.keyboard.type(TEAMS[team][0])
            page.keyboard.press("Enter")
            settle(page)
            taps += 2
        shown = page.locator(f".st-key-ro_{seq}_{team}_0_skill button").all_inner_texts()
        assert shown == [t(f"ekiden.skills.{s}", lang) for s in ("none", *SKILLS)]
        box = page.locator(".st-key-roster_box").inner_text()
        assert "ekiden." not in box and not {*SKILLS, "None"} & set(box.split())
        before = reruns.count
        for i, card in enumerate(roster):
            per_runner.append(roster_row_taps(page, f"ro_{seq}_{team}_{i}", card))
        taps += sum(per_runner[-len(roster) :])
        if team == 0:
            for field in ("power", "up", "down", "skill"):
                whole(page, f"ro_{seq}_{team}_9_{field}")
            shot(page, f"ekiden-roster-{lang}-{viewport['width']}")
        page.wait_for_timeout(150)
        assert reruns.count == before, "a roster tap before Save waited on the server"
        page.locator(".st-key-roster_go button").click()
        taps += 1
        wait_seq(page, service, pid, seq + 1)
        assert service.snapshot(pid, REFEREE).state.rosters[team] == tuple(roster)
        counts.append(taps)
    print(
        f"\nEkiden set-up at {viewport['width']} px ({lang}): form {form} taps (course"
        f" {sum(1 for v in LAID.values() if v)}); rosters {counts} taps; a runner"
        f" {per_runner} (median {statistics.median(per_runner)})"
    )
    assert form <= FORM_BUDGET and all(n <= ROSTER_BUDGET for n in counts)
    assert max(per_runner) <= 4
    page.close()
