"""Japan Rally's log sheets as printed: tables recorded through the table service on a real
SQLite file, rendered by pypdfium2 (QR read by zxing-cpp), text and lines read by pypdf.

The short race (Koriyama → Aomori, team play): あき drives 20 km to Nihonmatsu; Ben puts the
police on あき and stops at Sukagawa (12 km: off the best way, so that town is only on the log);
ちえ drives 40 km and rains on Ben. In round 2 あき misses her turn, Ben starts his in the rain,
and in round 3 あき misses again: Ben is to draw.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
import zxingcpp
from pypdf import PdfReader, PdfWriter

from aids.core.i18n import t
from aids.core.links import home_url, viewer_url
from aids.games.base import REFEREE, VIEWER, Role
from aids.games.rally import GAME, engine
from aids.games.rally.board import sample_map
from aids.games.rally.data import load
from aids.games.rally.model import Attack, Draw, Machine, Player, RallySetup, Travel
from aids.print.fonts import CLOSING, OPENING
from aids.print.frame import MARGIN, body_width, page_size, qr_rect, render_sheet
from aids.print.rally import sheet as rally_sheet
from aids.print.rally import side as rally_side
from aids.store.sqlite import SqliteStore
from aids.tables import Snapshot, TableService
from tests.print.pdf_layout import (
    Box,
    Text,
    crossing_texts,
    describe,
    lines,
    overlapping_texts,
    text_lines,
    texts,
)

BASE = "http://192.168.10.5:8501"
LANGS = ["ja", "en"]
PAPERS = ["a4", "letter"]
MACHINES = [Machine(4, 7, 3), Machine(2, 6, 1), Machine(3, 5, 2)]
NAMES = ["あき", "Ben", "ちえ"]
Action = dict[str, Any]


# --- tables ------------------------------------------------------------------------------------


@pytest.fixture
def service(tmp_path: Path) -> TableService:
    """A service on a real SQLite file that knows the rally (not registered everywhere yet)."""
    return TableService(SqliteStore(tmp_path / "t.sqlite3"), {"rally": GAME})


def setup_dict(
    names: list[str],
    start: str,
    goal: str,
    *,
    teams: tuple[str, ...] = (),
    machines: list[Machine] | None = None,
) -> dict[str, Any]:
    colours = load().colours
    machines = machines or [Machine(3, 5, 2)] * len(names)
    players = tuple(
        Player(n, colours[i].key, machines[i], (i % len(teams)) if teams else None)
        for i, n in enumerate(names)
    )
    return RallySetup(players, 0, start, goal, sample_map(), teams=teams).to_dict()


def record_all(service: TableService, pid: str, key: str, actions: list[Action]) -> None:
    for action in actions:
        service.record(pid, key, service.snapshot(pid).seq, action)


def turn(seat: int, *plays: Action) -> list[Action]:
    return [{"type": "draw", "seat": seat}, *plays, {"type": "end_turn", "seat": seat}]


def travel(seat: int, cards: list[str], to: str) -> Action:
    return {"type": "travel", "seat": seat, "cards": cards, "to": to}


def attack(seat: int, card: str, target: int) -> Action:
    return {"type": "attack", "seat": seat, "card": card, "target": target}


@pytest.fixture
def race_table(service: TableService) -> tuple[str, str]:
    """The short race of the module's docstring: (public id, referee key)."""
    setup = setup_dict(NAMES, "koriyama", "aomori", teams=("東チーム", "West"), machines=MACHINES)
    info, key = service.create("rally", "金曜ラリー", setup)
    actions = [
        *turn(0, travel(0, ["20"], "nihonmatsu")),
        *turn(1, attack(1, "police", 0), travel(1, ["20"], "sukagawa")),
        *turn(2, travel(2, ["20", "20"], "fukushima-nishi"), attack(2, "rain", 1)),
        *turn(1),
        *turn(2),
    ]
    record_all(service, info.public_id, key, actions)
    state = service.snapshot(info.public_id).state
    assert (state.round, state.turn, state.phase) == (3, 1, "draw")
    return info.public_id, key


@pytest.fixture
def race(service: TableService, race_table: tuple[str, str]) -> Snapshot:
    """The short race as a viewer sees it."""
    return service.snapshot(race_table[0], VIEWER)


def sheet(snapshot: Snapshot | None, lang: str, paper: str = "a4") -> bytes:
    return render_sheet(rally_sheet, GAME, snapshot, BASE, lang, paper)


# --- reading the PDF back --------------------------------------------------------------------


def page_count(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


def page(pdf: bytes, index: int) -> bytes:
    """One page as a PDF of its own (the layout helpers read a document's first page)."""
    writer = PdfWriter()
    writer.add_page(PdfReader(io.BytesIO(pdf)).pages[index])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def whole(found: list[Text]) -> list[Text]:
    """Strings drawn in two font subsets joined back into one, with the box of both."""
    out: list[Text] = []
    for x in found:
        if x.continues and out:
            last = out[-1]
            box = Box(last.box.x0, last.box.y0, x.box.x1, max(last.box.y1, x.box.y1))
            out[-1] = Text(last.text + x.text, box, last.size)
        else:
            out.append(x)
    return out


def page_texts(pdf: bytes, index: int) -> list[Text]:
    """Every string on one page, whole, with its box."""
    return whole(texts(page(pdf, index)))


def flat(pdf: bytes, index: int) -> str:
    """A page's text with all white space removed (a cell may wrap a name over two lines)."""
    return "".join(PdfReader(io.BytesIO(pdf)).pages[index].extract_text().split())


def decode_qr(pdf: bytes, index: int) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[index].render(scale=200 / 72).to_pil()
    finally:
        document.close()
    return [
        r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode
    ]


def side_x(paper: str = "a4") -> float:
    """Where the side column (route card, points) begins: the turn log is left of it."""
    width = body_width(page_size(GAME, paper))
    return float(MARGIN + width * rally_sheet.LOG_SHARE + rally_sheet.SIDE_GAP / 2)


def in_log(found: list[Text], paper: str = "a4") -> list[Text]:
    return [x for x in found if x.box.x1 < side_x(paper)]


def in_side(found: list[Text], paper: str = "a4") -> list[Text]:
    return [x for x in found if x.box.x0 > side_x(paper)]


def log_row(found: list[Text], lang: str, round_: int) -> list[str]:
    """The texts of the turn log's row of ``round_`` after its number, left to right."""
    log = in_log(found)
    head = find(log, t("rally.sheet.log_round", lang))
    centre = (head.box.x0 + head.box.x1) / 2
    numbers = [
        x
        for x in log
        if x.text.strip() == str(round_)
        and x.box.y1 < head.box.y0
        and x.box.x0 - 2 <= centre <= x.box.x1 + 2
    ]
    assert numbers, f"no row {round_}"
    return same_row(log, max(numbers, key=lambda x: x.box.y1))


def find(found: list[Text], text: str) -> Text:
    """The string ``text`` on the page, or its lines if its cell wrapped it (joined, with
    the box of all of them)."""
    want = compact(text)
    for first in found:
        got, box = compact(first.text), first.box
        while got != want and want.startswith(got) and got:
            below = [
                x
                for x in found
                if abs(x.box.x0 - first.box.x0) < 1
                and 0 < box.y0 - x.box.y1 < first.size
                and want.startswith(got + compact(x.text))
            ]
            if not below:
                break
            got += compact(below[0].text)
            box = Box(box.x0, below[0].box.y0, max(box.x1, below[0].box.x1), box.y1)
        if got == want:
            return Text(text, box, first.size)
    raise AssertionError(f"{text!r} is not on the page")


def under(found: list[Text], label: Text) -> str:
    """The text printed in the cell right under ``label`` (the same column, the next row)."""
    centre = (label.box.x0 + label.box.x1) / 2
    below = [x for x in found if x.box.y1 < label.box.y0 and x.box.x0 - 2 <= centre <= x.box.x1 + 2]
    return max(below, key=lambda x: x.box.y1).text.strip()


def same_row(found: list[Text], label: Text) -> list[str]:
    """The texts on ``label``'s line to its right, left to right."""
    middle = (label.box.y0 + label.box.y1) / 2
    row = [
        x for x in found if x.box.y0 < middle < x.box.y1 and x.box.x0 > label.box.x1 and x != label
    ]
    return [x.text.strip() for x in sorted(row, key=lambda x: x.box.x0)]


def slanted(pdf: bytes) -> int:
    """Stroked segments neither horizontal nor vertical: the two strokes of each tick."""
    return sum(1 for s in lines(pdf) if abs(s.x0 - s.x1) > 0.01 and abs(s.y0 - s.y1) > 0.01)


def compact(text: str) -> str:
    return "".join(text.split())


# --- the pages and their QR code ---------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_one_page_per_car_then_the_rulings(race: Snapshot, lang: str) -> None:
    pdf = sheet(race, lang)
    assert page_count(pdf) == len(NAMES) + 1
    for seat, name in enumerate(NAMES):
        assert name in flat(pdf, seat)
    rulings = flat(pdf, len(NAMES))
    assert compact(t("table.rulings", lang)) in rulings
    assert compact(t("rally.rulings.police", lang)) in rulings


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_scans_to_the_viewer_link_and_never_a_key(race: Snapshot, lang: str) -> None:
    pdf = sheet(race, lang, "letter")
    expected = viewer_url(BASE, race.info.public_id, lang)
    for index in range(page_count(pdf)):
        assert decode_qr(pdf, index) == [expected]
    assert "key" not in expected


# --- a car's page ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_each_car_page_shows_its_own_machine_numbers(race: Snapshot, lang: str) -> None:
    """Actions, hand size and draw, each in the box under its label, on the car's own page."""
    pdf = sheet(race, lang)
    for seat, machine in enumerate(MACHINES):
        found = page_texts(pdf, seat)
        numbers = [
            under(found, find(found, t(f"rally.sheet.{k}", lang)))
            for k in ("actions", "hand", "draw")
        ]
        assert numbers == [str(machine.actions), str(machine.hand), str(machine.draw)]


@pytest.mark.parametrize("lang", LANGS)
def test_car_page_names_its_seat_colour_and_team(race: Snapshot, lang: str) -> None:
    pdf = sheet(race, lang)
    for seat, team in enumerate(["東チーム", "West", "東チーム"]):
        found = page_texts(pdf, seat)
        assert under(found, find(found, t("rally.sheet.seat", lang))) == str(seat + 1)
        assert under(found, find(found, t("rally.sheet.team", lang))) == team
        colour = load().colours[seat].name(lang)
        assert under(found, find(found, t("rally.sheet.colour", lang))) == colour


@pytest.mark.parametrize(
    ("lang", "moves"),
    [
        ("ja", ("郡山→二本松", "郡山→須賀川", "郡山→福島西")),
        ("en", ("Koriyama→Nihonmatsu", "Koriyama→Sukagawa", "Koriyama→Fukushima-Nishi")),
    ],
)
def test_turn_log_has_each_cars_moves_on_its_own_page(
    race: Snapshot, lang: str, moves: tuple[str, ...]
) -> None:
    pdf = sheet(race, lang)
    pages = [flat(pdf, seat) for seat in range(len(NAMES))]
    for seat, move in enumerate(moves):
        assert move in pages[seat]
        assert all(move not in other for i, other in enumerate(pages) if i != seat)
    assert "20km" in pages[0] and "20+20km" in pages[2]
    sukagawa = "須賀川" if lang == "ja" else "Sukagawa"
    assert sukagawa not in pages[0]  # off the best way: not on the route card


@pytest.mark.parametrize("lang", LANGS)
def test_turn_log_names_the_target_of_each_attack(race: Snapshot, lang: str) -> None:
    pdf = sheet(race, lang)
    police = compact(t("rally.cards.police", lang))
    rain = compact(t("rally.cards.rain", lang))
    assert f"{police}→あき" in flat(pdf, 1)
    assert f"{rain}→Ben" in flat(pdf, 2)


@pytest.mark.parametrize("lang", LANGS)
def test_police_turns_are_logged_as_missed(race: Snapshot, lang: str) -> None:
    """Police: the next 2 turns are missed whole; each keeps its row, marked as missed."""
    pdf = sheet(race, lang)
    missed = compact(t("rally.sheet.missed", lang))
    assert flat(pdf, 0).count(missed) == 2
    assert missed not in flat(pdf, 1) and missed not in flat(pdf, 2)


@pytest.mark.parametrize("lang", LANGS)
def test_status_column_shows_the_status_the_turn_began_with(race: Snapshot, lang: str) -> None:
    """Rained on in round 1, Ben began round 2 in the rain; no one else was rained on."""
    pdf = sheet(race, lang)
    found = page_texts(pdf, 1)
    status = t("rally.sheet.status.rain", lang)
    assert log_row(found, lang, 2)[-1] == status
    assert status not in log_row(found, lang, 1)
    for seat in (0, 2):
        assert status not in [x.text.strip() for x in page_texts(pdf, seat)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_turn_in_progress_is_logged_once_it_has_drawn(
    service: TableService, race_table: tuple[str, str], lang: str
) -> None:
    pid, key = race_table
    record_all(service, pid, key, [{"type": "draw", "seat": 1}])
    found = page_texts(sheet(service.snapshot(pid, VIEWER), lang), 1)
    sukagawa = sample_map().town_name("sukagawa", lang)
    assert log_row(found, lang, 3) == [f"{sukagawa} →", t("rally.sheet.status.rain", lang)]
    # In the rain: one travel card. 20 km from Sukagawa reaches Motomiya (12 + 5 km).
    record_all(service, pid, key, [travel(1, ["20"], "motomiya")])
    found = page_texts(sheet(service.snapshot(pid, VIEWER), lang), 1)
    board = sample_map()
    move = f"{board.town_name('sukagawa', lang)} → {board.town_name('motomiya', lang)}"
    row = log_row(found, lang, 3)
    assert row[:2] == ["20 km", "20"]
    assert compact("".join(row[2:-1])) == compact(move)
    assert row[-1] == t("rally.sheet.status.rain", lang)


@pytest.mark.parametrize(
    ("lang", "towns"),
    [
        ("ja", ["郡山", "本宮", "二本松", "福島西"]),
        ("en", ["Koriyama", "Motomiya", "Nihonmatsu", "Fukushima-Nishi"]),
    ],
)
def test_route_card_lists_the_best_way_with_cumulative_km(
    race: Snapshot, lang: str, towns: list[str]
) -> None:
    """The rulebook's chain Koriyama –5– Motomiya –15– Nihonmatsu –20– Fukushima-Nishi opens
    the way to Aomori; every car's page carries the whole route with the km from the start."""
    board = sample_map()
    route = board.route("koriyama", "aomori")
    assert [board.town_name(town, lang) for town, _, _ in route[:4]] == towns
    pdf = sheet(race, lang)
    for seat in range(len(NAMES)):
        side = in_side(page_texts(pdf, seat))
        kms = [same_row(side, find(side, board.town_name(town, lang)))[0] for town, _, _ in route]
        assert kms == [str(km) for _, km, _ in route]
        assert kms[:4] == ["0", "5", "20", "40"] and kms[-1] == "493"


@pytest.mark.parametrize("lang", LANGS)
def test_team_points_by_place_come_from_the_seed_file(
    race: Snapshot, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    label = t("rally.sheet.points", lang)
    side = in_side(page_texts(sheet(race, lang), 0))
    assert same_row(side, find(side, label)) == ["15", "10", "8", "5", "3", "1", "0"]
    other = replace(load(), points=(21, 13, 9, 6, 4, 2, 1))
    monkeypatch.setattr(rally_side, "load", lambda: other)  # the side column prints them
    side = in_side(page_texts(sheet(race, lang), 0))
    assert same_row(side, find(side, label)) == ["21", "13", "9", "6", "4", "2", "1"]


@pytest.mark.parametrize("lang", LANGS)
def test_finished_race_prints_each_cars_place_and_team_total(
    service: TableService, lang: str
) -> None:
    """The referee ends the race: cars on the road are placed by distance to the goal."""
    setup = setup_dict(NAMES, "koriyama", "aomori", teams=("東", "西"))
    info, key = service.create("rally", "Short", setup)
    actions = [*turn(0, travel(0, ["20", "20"], "fukushima-nishi")), {"type": "end_race"}]
    record_all(service, info.public_id, key, actions)
    state = service.snapshot(info.public_id).state
    assert state.phase == "over" and engine.placings(state)[0] == (0,)
    pdf = sheet(service.snapshot(info.public_id, VIEWER), lang)
    found = page_texts(pdf, 0)
    assert under(found, find(found, t("rally.sheet.finish_place", lang))) == "1"
    assert under(found, find(found, t("rally.sheet.finish_points", lang))) == "15"
    team = str(engine.team_totals(state)[0])  # あき 1st (15) and ちえ (seats tied, 2nd: 10)
    assert under(found, find(found, t("rally.sheet.finish_team", lang))) == team == "25"


@pytest.mark.parametrize("lang", LANGS)
def test_top_speed_with_one_distance_card_is_printed_as_that_card_doubled(
    service: TableService, lang: str
) -> None:
    """TOP SPEED doubles the distance cards played with it: 50 + TOP SPEED is 50×2 km
    (issue 19: it was printed "(50)×2 km"); two cards keep their brackets."""
    info, key = service.create("rally", "Top", setup_dict(NAMES[:2], "tokyo", "sapporo"))
    pid = info.public_id
    state = engine.apply(service.snapshot(pid).state, Draw(0))
    to = engine.proposal(state, 0, 100)
    record_all(service, pid, key, [*turn(0, travel(0, ["50", "top"], to)), *turn(1)])
    state = engine.apply(service.snapshot(pid).state, Draw(0))
    again = engine.proposal(state, 0, 140)
    record_all(service, pid, key, [*turn(0, travel(0, ["30", "40", "top"], again))])
    found = page_texts(sheet(service.snapshot(pid, VIEWER), lang), 0)
    assert log_row(found, lang, 1)[:2] == ["50×2 km", "100"]
    assert log_row(found, lang, 2)[:2] == ["(30+40)×2 km", "140"]
    assert "(50)" not in flat(sheet(service.snapshot(pid, VIEWER), lang), 0)


@pytest.mark.parametrize("lang", LANGS)
def test_individual_play_prints_no_team_points(service: TableService, lang: str) -> None:
    """Team points score places only in team play: an individual race's car pages have no
    points table and no points or team total in the finish box, only the place."""
    info, key = service.create("rally", "Solo", setup_dict(NAMES, "koriyama", "aomori"))
    actions = [*turn(0, travel(0, ["20", "20"], "fukushima-nishi")), {"type": "end_race"}]
    record_all(service, info.public_id, key, actions)
    pdf = sheet(service.snapshot(info.public_id, VIEWER), lang)
    for seat in range(len(NAMES)):
        text = flat(pdf, seat)
        for gone in ("points_title", "finish_points", "finish_team"):
            assert compact(t(f"rally.sheet.{gone}", lang)) not in text, gone
        assert compact(t("rally.sheet.finish_place", lang)) in text
    found = page_texts(pdf, 0)
    assert under(found, find(found, t("rally.sheet.finish_place", lang))) == "1"
    assert crossing_texts(page(pdf, 0)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_ferry_crossing_is_ticked_and_the_route_marks_the_ferry(
    service: TableService, lang: str
) -> None:
    info, key = service.create("rally", "Strait", setup_dict(NAMES[:2], "aomori", "sapporo"))
    crossing = [{"type": "draw", "seat": 0}, {"type": "ferry", "seat": 0, "to": "muroran"}]
    record_all(service, info.public_id, key, [*crossing, {"type": "end_turn", "seat": 0}])
    pdf = sheet(service.snapshot(info.public_id, VIEWER), lang)
    port = sample_map().town_name("muroran", lang)
    aomori = sample_map().town_name("aomori", lang)
    assert compact(f"{aomori} → {port}") in flat(pdf, 0)
    assert slanted(page(pdf, 0)) == 2  # one tick: the crossing
    assert slanted(page(pdf, 1)) == 0
    side = in_side(page_texts(pdf, 1))
    assert same_row(side, find(side, port)) == ["0", t("rally.sheet.ferry_mark", lang)]


def test_a_simulation_prints_its_statuses_though_the_viewer_sees_no_cards(
    service: TableService,
) -> None:
    """A simulation's viewer snapshot hides the hands; the log still replays (tracking mode
    counts the same cards), so the police's missed turns and statuses are printed."""
    names = ["Aki", "Ben"]
    raw = setup_dict(names, "tokyo", "sapporo")
    raw.update(mode="simulation", seed=4)
    info, key = service.create("rally", "Sim", raw)
    pid = info.public_id
    for _ in range(40):
        state = service.snapshot(pid, REFEREE).state
        legal = engine.legal_actions(state, Role.seat_of(state.turn))
        police = [a for a in legal if isinstance(a, Attack) and a.card in ("police", "rain")]
        moves = [a for a in legal if isinstance(a, Travel)]
        choice = next(iter(police + moves[-1:] + [a for a in legal if isinstance(a, Draw)]), None)
        action = choice or legal[-1]  # else: end the turn (with the discards it needs)
        service.record(pid, key, service.snapshot(pid).seq, GAME.action_to_dict(action))
    viewer = service.snapshot(pid, VIEWER)
    assert viewer.state.hands == ((), ())  # a viewer sees no cards
    attacks = [e.action for e in viewer.log if isinstance(e.action, Attack)]
    assert attacks  # the play above made some
    pdf = sheet(viewer, "en")
    text = flat(pdf, 0) + flat(pdf, 1)
    shown = {
        "police": compact(t("rally.sheet.missed", "en")),
        "rain": t("rally.sheet.status.rain", "en"),
    }
    for card in {a.card for a in attacks}:
        assert shown[card] in text


# --- the blank sheet ------------------------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_blank_sheet_is_one_car_page_on_the_sample_maps_first_course(lang: str, paper: str) -> None:
    pdf = sheet(None, lang, paper)
    assert page_count(pdf) == 2  # one car page to copy, then the rulings
    assert decode_qr(pdf, 0) == [home_url(BASE, lang)]
    course = sample_map().courses[0]
    text = flat(pdf, 0)
    assert compact(course.name(lang)) in text
    assert compact(t("rally.sheet.route_sample", lang, course=course.name(lang), km=845)) in text
    side = in_side(page_texts(pdf, 0), paper)
    for town, km, ferry in sample_map().route(course.start, course.goal):
        row = same_row(side, find(side, sample_map().town_name(town, lang)))
        assert row == ([str(km), t("rally.sheet.ferry_mark", lang)] if ferry else [str(km)])
    points = same_row(side, find(side, t("rally.sheet.points", lang)))
    assert points == [str(p) for p in load().points]


# --- everything fits: long names, seven cars, the longest course ----------------------------


LONG = ["長" * 39 + c for c in "一二三四五六七"]
FIT_CASES = ["blank", "seven_long_names", "kagoshima_sapporo"]


def _played(service: TableService, pid: str, key: str, rounds: int) -> None:
    """Each car drives its longest legal move to the proposed town, ``rounds`` times."""
    for _ in range(rounds * 3 * len(service.snapshot(pid).state.setup.players)):
        snap = service.snapshot(pid, REFEREE)
        state = snap.state
        if state.phase == "over":
            return
        legal = engine.legal_actions(state, Role.seat_of(state.turn))
        moves = [a for a in legal if isinstance(a, Travel)]
        if state.phase == "draw":
            action: Any = legal[0]
        elif moves and not state.moved:
            cards = max((a.cards for a in moves), key=engine.travel_km)
            to = engine.proposal(state, state.turn, engine.travel_km(cards))
            action = Travel(state.turn, cards, to)
        else:
            action = legal[-1]
        service.record(pid, key, snap.seq, GAME.action_to_dict(action))


@pytest.fixture(scope="module")
def fit_tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Snapshot | None]:
    folder = tmp_path_factory.mktemp("rally_fit")
    service = TableService(SqliteStore(folder / "t.sqlite3"), {"rally": GAME})
    teams = ("東" * 40, "W" * 40)
    seven, key = service.create(
        "rally", "漢" * 80, setup_dict(LONG, "fukuoka", "tokyo", teams=teams)
    )
    _played(service, seven.public_id, key, 4)
    long, key = service.create(
        "rally", "鹿児島→札幌", setup_dict(["あき", "W" * 40], "kagoshima", "sapporo")
    )
    _played(service, long.public_id, key, 12)
    return {
        "blank": None,
        "seven_long_names": service.snapshot(seven.public_id, VIEWER),
        "kagoshima_sapporo": service.snapshot(long.public_id, VIEWER),
    }


@pytest.fixture(scope="module")
def rendered(fit_tables: dict[str, Snapshot | None]) -> dict[tuple[str, str, str], bytes]:
    return {
        (case, lang, paper): sheet(fit_tables[case], lang, paper)
        for case in FIT_CASES
        for lang in LANGS
        for paper in PAPERS
    }


def car_pages(rendered: dict[tuple[str, str, str], bytes]) -> Iterator[tuple[str, bytes, str]]:
    """Every car page of every fit case as its own PDF, with its paper and a name."""
    for (case, lang, paper), pdf in rendered.items():
        for index in range(page_count(pdf) - 1):
            yield f"{case}-{lang}-{paper}-p{index + 1}", page(pdf, index), paper


def test_seven_cars_with_long_names_get_a_page_each(
    rendered: dict[tuple[str, str, str], bytes], fit_tables: dict[str, Snapshot | None]
) -> None:
    for lang in LANGS:
        for paper in PAPERS:
            pdf = rendered["seven_long_names", lang, paper]
            assert page_count(pdf) == len(LONG) + 1
            snapshot = fit_tables["seven_long_names"]
            assert snapshot is not None
            url = viewer_url(BASE, snapshot.info.public_id, lang)
            assert decode_qr(pdf, 6) == [url]


def test_the_longest_course_fits_its_route_card_on_every_car_page(
    rendered: dict[tuple[str, str, str], bytes],
) -> None:
    """Kagoshima → Sapporo has 39 towns on its best way: all on the page, with their km."""
    route = sample_map().route("kagoshima", "sapporo")
    assert len(route) == 39
    for lang in LANGS:
        for paper in PAPERS:
            pdf = rendered["kagoshima_sapporo", lang, paper]
            assert page_count(pdf) == 3  # two cars, the rulings: the log fitted its page
            for index in range(2):
                side = in_side(page_texts(pdf, index), paper)
                for town, km, _ in route:
                    cell = find(side, sample_map().town_name(town, lang))
                    assert same_row(side, cell)[0] == str(km), (lang, paper, town)


def test_no_text_crosses_a_cell_border(rendered: dict[tuple[str, str, str], bytes]) -> None:
    """Every cell is ruled: text that left its cell (a long name, a town that wrapped, a
    status) would cross one of its borders."""
    crossing: list[str] = []
    for name, pdf, _ in car_pages(rendered):
        assert len(lines(pdf)) > 100
        crossing += [f"{name}: {x}" for x in crossing_texts(pdf)]
    assert crossing == []


def test_no_text_runs_past_the_margins_or_into_the_qr_code(
    rendered: dict[tuple[str, str, str], bytes],
) -> None:
    outside: list[str] = []
    for name, pdf, paper in car_pages(rendered):
        width, height = page_size(GAME, paper)
        sheet_box = Box(MARGIN, MARGIN, width - MARGIN, height - MARGIN)
        qr = Box(*qr_rect((width, height)))
        for x in texts(pdf):
            if not x.box.inside(sheet_box, tol=0.01) or x.box.overlaps(qr, tol=0):
                outside.append(f"{name}: {describe(x)}")
    assert outside == []


def test_no_two_texts_overlap(rendered: dict[tuple[str, str, str], bytes]) -> None:
    clashes: list[str] = []
    for name, pdf, _ in car_pages(rendered):
        clashes += [f"{name}: {pair}" for pair in overlapping_texts(pdf)]
    assert clashes == []


def test_no_japanese_line_ends_with_an_opening_bracket(
    rendered: dict[tuple[str, str, str], bytes],
) -> None:
    """Kinsoku on every page, the rulings included."""
    for case in FIT_CASES:
        pdf = rendered[case, "ja", "a4"]
        for index in range(page_count(pdf)):
            found = [x.strip() for x in text_lines(page(pdf, index)) if x.strip()]
            assert [x for x in found if x[-1] in OPENING] == []
            assert [x for x in found if x[0] in CLOSING] == []
