"""Grand National's sheets as printed: tables recorded through the table service on a real
SQLite file, rendered by pypdfium2 (QR codes read by zxing-cpp), text and lines read by pypdf.

The race (the field of ``tests/games/grand_national/helpers.py``): Aki (Red, seat 0), Ben
(Blue, seat 1) and Chie (Green, seat 2, the bookmaker). With their own seat links Aki writes a
blind bet of $7,300 on Corbiere to Win, Ben $6,100 on Amberleigh to Show, Chie none. The going
is Heavy (grid top 54: cells 55–64 struck). Red Rum is posted at 10/1 and 5/2; the referee
raises Party Politics' handicap from 3 to 5; Ben bets $2,000 on Red Rum to Win at 10/1. They're
off: Red Rum, Corbiere, Amberleigh, Aldaniti and Rough Quest move with 8 speed points each.
Settled (cards advance Amberleigh, Corbiere, Red Rum and Aldaniti home in that order): Ben's
blind Show returns $6,100 × 3 + $6,100 = $24,400; Aki's blind Win and Ben's bet are lost.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from aids.core.i18n import t
from aids.core.links import home_url, referee_url, viewer_url
from aids.games.base import REFEREE, VIEWER, Role
from aids.games.derby import GAME as DERBY
from aids.games.grand_national import GAME, engine
from aids.games.grand_national.data import load
from aids.games.grand_national.model import GnSetup, Horse, Stable
from aids.games.grand_national.track import sample_track
from aids.print.derby import sheet as derby_sheet
from aids.print.fonts import CLOSING, OPENING
from aids.print.frame import MARGIN, page_size, qr_rect, render_sheet
from aids.print.gn import money as gn_money
from aids.print.gn import sheet as gn_sheet
from aids.store.sqlite import SqliteStore
from aids.tables import Snapshot, TableService
from tests.games.grand_national.helpers import setup
from tests.print.pdf_layout import (
    Box,
    Segment,
    Text,
    crossing_texts,
    describe,
    lines,
    overlapping_texts,
    text_lines,
    texts,
)
from tests.print.test_rally_sheet import (
    compact,
    decode_qr,
    find,
    flat,
    page,
    page_count,
    page_texts,
    same_row,
)

BASE = "http://192.168.10.5:8501"
LANGS = ["ja", "en"]
PAPERS = ["a4", "letter", "a3"]
STABLES = 3
BOARD, MONEY = STABLES, STABLES + 1  # page indexes after the stable pages (A4, 3 stables)
NAMES = {0: "Red Rum", 4: "Corbiere", 8: "Amberleigh", 3: "Party Politics"}


@dataclass(frozen=True, slots=True)
class Race:
    service: TableService
    pid: str
    key: str
    seat_keys: tuple[str, ...]

    def record(self, key: str, action: dict[str, Any]) -> None:
        self.service.record(self.pid, key, self.service.snapshot(self.pid).seq, action)

    def snapshot(self, role: Role = VIEWER) -> Snapshot:
        return self.service.snapshot(self.pid, role)

    def links(self, lang: str) -> dict[int, str]:
        """Each stable's private link (its seat key), as the referee hands them out."""
        return {s: referee_url(BASE, self.pid, k, lang) for s, k in enumerate(self.seat_keys)}


def new_service(folder: Path) -> TableService:
    """A service on a real SQLite file that knows Grand National (whether or not registered)."""
    return TableService(SqliteStore(folder / "t.sqlite3"), {"gn": GAME})


def to_the_start(service: TableService, title: str, raw_setup: dict[str, Any]) -> Race:
    """A table with seat keys, every stable's blind bet written with its own key (the first
    two: Corbiere to Win $7,300, Amberleigh to Show $6,100), Heavy going and the lanes."""
    info, key = service.create("gn", title, raw_setup)
    seats = len(raw_setup["stables"])
    seat_keys = tuple(
        service.rotate_key(info.public_id, key, Role.seat_of(s)) for s in range(seats)
    )
    race = Race(service, info.public_id, key, seat_keys)
    blind = {
        0: {"horse": 4, "kind": "win", "stake": 7300},
        1: {"horse": 8, "kind": "show", "stake": 6100},
    }
    for seat in range(seats):
        bet = blind.get(seat, {"stake": 0})
        race.record(seat_keys[seat], {"type": "blind_bet", "seat": seat, **bet})
    race.record(key, {"type": "going", "going": "heavy"})
    for lane in range(1, 5):
        race.record(key, {"type": "lane_spin", "lane": lane, "colour": "red"})
    return race


def run(race: Race, moves: int) -> None:
    """The start, then ``moves`` horses in turn each move their handicap and 8 speed points."""
    race.record(race.key, {"type": "start"})
    for _ in range(moves):
        state = race.snapshot(REFEREE).state
        h = engine.next_horse(state)
        assert h is not None
        forward = state.handicap[h] + 8
        race.record(
            race.key, {"type": "move", "horse": h, "forward": forward, "lane": state.lane[h]}
        )


def settle(race: Race, horses: tuple[int, ...]) -> None:
    """Cards advance ``horses`` 20 lengths at a time, in this order, until the race is over."""
    while race.snapshot(REFEREE).state.phase != "over":
        for h in horses:
            state = race.snapshot(REFEREE).state
            if state.phase == "race" and state.status[h] == "running":
                race.record(
                    race.key, {"type": "card", "horse": h, "effect": "advance", "value": 20}
                )


def market(race: Race) -> None:
    """The bookmaker's odds for Red Rum; a handicap for the going; Ben's bet (his own link)."""
    odds = {"type": "odds", "horse": 0, "win": [10, 1], "show": [5, 2]}
    race.record(race.key, odds)
    race.record(race.key, {"type": "handicap", "horse": 3, "mark": 5})
    bet = {"type": "bet", "seat": 1, "horse": 0, "kind": "win", "stake": 2000}
    race.record(race.seat_keys[1], bet)


@pytest.fixture(scope="module")
def race(tmp_path_factory: pytest.TempPathFactory) -> Race:
    """The race of the module's docstring, five moves into the first round."""
    service = new_service(tmp_path_factory.mktemp("gn"))
    race = to_the_start(service, "金曜グランドナショナル", setup().to_dict())
    market(race)
    run(race, 5)
    return race


@pytest.fixture(scope="module")
def settled(tmp_path_factory: pytest.TempPathFactory) -> Race:
    """The same race, run home and settled."""
    service = new_service(tmp_path_factory.mktemp("gn_settled"))
    race = to_the_start(service, "Settled", setup().to_dict())
    market(race)
    run(race, 5)
    settle(race, (8, 4, 0, 1))
    state = race.snapshot().state
    assert state.placed == (8, 4, 0, 1) and state.settled
    return race


def sheet(
    snapshot: Snapshot | None,
    lang: str,
    paper: str = "a4",
    links: dict[int, str] | None = None,
) -> bytes:
    return render_sheet(gn_sheet, GAME, snapshot, BASE, lang, paper, seat_links=links)


@pytest.fixture(scope="module")
def pdfs(race: Race) -> dict[str, bytes]:
    """The race's sheet as a viewer prints it, in each language (A4, no private links)."""
    return {lang: sheet(race.snapshot(), lang) for lang in LANGS}


def all_text(pdf: bytes) -> str:
    return "".join(flat(pdf, i) for i in range(page_count(pdf)))


def page_box(pdf: bytes, index: int) -> tuple[float, float]:
    box = PdfReader(io.BytesIO(pdf)).pages[index].mediabox
    return float(box.width), float(box.height)


# --- the pages, in order ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_stable_cards_then_the_odds_board_then_money_then_the_rulings(
    pdfs: dict[str, bytes], lang: str
) -> None:
    pdf = pdfs[lang]
    assert page_count(pdf) == STABLES + 3  # the rulings run on to a page of their own
    for seat, stable in enumerate(("Aki", "Ben", "Chie")):
        text = flat(pdf, seat)
        assert stable in text and compact(t("gn.sheet.speed_left", lang)) in text
        assert page_box(pdf, seat) == pytest.approx(page_size(GAME, "a4"))
    board = flat(pdf, BOARD)
    assert compact(t("gn.sheet.board_title", lang)) in board
    width, height = page_box(pdf, BOARD)
    assert width > height  # the board is landscape in a portrait sheet
    money = flat(pdf, MONEY)
    assert compact(t("gn.sheet.money_title", lang)) in money
    assert page_box(pdf, MONEY) == pytest.approx(page_size(GAME, "a4"))  # turned back
    rulings = all_text(pdf)[-4000:]
    assert compact(t("table.rulings", lang)) in rulings
    assert compact(t("gn.rulings.blind_odds", lang)) in rulings


@pytest.mark.parametrize(
    ("lang", "terms"),
    [
        ("ja", ("厩舎", "単勝", "複勝", "オッズボード", "基準価格", "ハンデ", "残りスピード")),
        ("en", ("Stable", "Win", "Show", "Odds board", "Reserve price", "Handicap", "Speed left")),
    ],
)
def test_key_terms_are_in_the_sheets_language(
    pdfs: dict[str, bytes], lang: str, terms: tuple[str, ...]
) -> None:
    text = all_text(pdfs[lang])
    assert all(compact(term) in text for term in terms)
    other = "ja" if lang == "en" else "en"
    assert compact(t("gn.sheet.board_title", other)) not in text


# --- QR codes: the viewer link in the header, each stable's private link on its card ----------


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_scans_to_the_viewer_link_and_never_a_key(race: Race, lang: str) -> None:
    pdf = sheet(race.snapshot(), lang, "letter")
    expected = viewer_url(BASE, race.pid, lang)
    assert "key" not in expected
    for index in range(page_count(pdf)):
        assert decode_qr(pdf, index) == [expected]
    ask = compact(t("gn.sheet.private_ask", lang))
    assert all(ask in flat(pdf, seat) for seat in range(STABLES))


@pytest.mark.parametrize("lang", LANGS)
def test_each_stable_card_carries_its_own_private_link(race: Race, lang: str) -> None:
    links = race.links(lang)
    pdf = sheet(race.snapshot(), lang, "a4", links)
    viewer = viewer_url(BASE, race.pid, lang)
    for seat in range(STABLES):
        assert sorted(decode_qr(pdf, seat)) == sorted([viewer, links[seat]])
        text = flat(pdf, seat)
        assert compact(t("gn.sheet.private_link", lang)) in text
        assert compact(links[seat]) in text  # the link under its code
        assert all(compact(links[other]) not in text for other in links if other != seat)
        assert compact(t("gn.sheet.private_ask", lang)) not in text
    assert len(set(links.values())) == STABLES
    for index in range(STABLES, page_count(pdf)):  # the board, money and rulings: public
        assert decode_qr(pdf, index) == [viewer]
        assert not any(compact(link) in flat(pdf, index) for link in links.values())


def test_the_private_links_reach_only_a_sheet_that_takes_them(race: Race) -> None:
    """``render_sheet`` passes ``seat_links`` to a story that accepts them; another game's
    sheet is printed exactly as without them."""
    links = {0: "http://example.test/?table=x&key=secret"}
    plain = render_sheet(derby_sheet, DERBY, None, BASE, "en")
    assert render_sheet(derby_sheet, DERBY, None, BASE, "en", seat_links=links) == plain
    assert "secret" not in all_text(plain)


# --- a stable's card ---------------------------------------------------------------------------


def centre(box: Box) -> tuple[float, float]:
    return (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2


def strokes_through(text: Text, segments: list[Segment]) -> int:
    """How many slanted strokes pass through the middle of ``text`` (a struck grid cell)."""
    x, y = centre(text.box)
    count = 0
    for s in segments:
        if abs(s.x0 - s.x1) < 0.01 or abs(s.y0 - s.y1) < 0.01:
            continue  # a ruled line
        lo_x, hi_x = sorted((s.x0, s.x1))
        if not lo_x <= x <= hi_x:
            continue
        at = s.y0 + (s.y1 - s.y0) * (x - s.x0) / (s.x1 - s.x0)
        if abs(at - y) < 4:
            count += 1
    return count


def grid_marks(pdf: bytes, index: int) -> dict[int, list[int]]:
    """For each number 1–64 in a stable page's grids, the strokes through each place it is
    printed. A grid's numbers stand eight or more to a line (not the going table's tops, nor
    a card's handicap and speed left)."""
    segments = lines(page(pdf, index))
    numbers = [
        x
        for x in page_texts(pdf, index)
        if x.text.strip().isdigit() and 1 <= int(x.text.strip()) <= load().grid
    ]
    out: dict[int, list[int]] = {}
    for x in numbers:
        middle = centre(x.box)[1]
        if sum(1 for y in numbers if abs(centre(y.box)[1] - middle) < 1) >= 8:
            out.setdefault(int(x.text.strip()), []).append(strokes_through(x, segments))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_heavy_going_crosses_out_cells_55_to_64_of_every_grid(
    pdfs: dict[str, bytes], lang: str
) -> None:
    pdf = pdfs[lang]
    assert load().top("heavy") == 54
    for seat in range(STABLES):
        marks = grid_marks(pdf, seat)
        for n in range(55, 65):
            assert marks[n] == [2, 2, 2, 2], (seat, n)  # × in each of the four grids
        assert all(2 not in marks[n] for n in range(1, 55))
        text = flat(pdf, seat)
        assert compact(t("gn.sheet.struck", lang, low=55, high=64)) in text
        assert compact(t("gn.going.heavy", lang)) in text


@pytest.mark.parametrize("lang", LANGS)
def test_speed_points_used_are_struck_from_the_top_down(pdfs: dict[str, bytes], lang: str) -> None:
    """Red Rum and Aldaniti (Aki), Corbiere and Rough Quest (Ben), Amberleigh (Chie) have used
    8 speed points each: cells 54–47 of their grids are struck once; 46 is the speed left."""
    moved = {0: 2, 1: 2, 2: 1}  # grids per page with 8 points used
    for seat, count in moved.items():
        marks = grid_marks(pdfs[lang], seat)
        for n in range(47, 55):
            assert sorted(marks[n]) == sorted([1] * count + [0] * (4 - count)), (seat, n)
        assert all(set(marks[n]) == {0} for n in range(1, 47))
    found = page_texts(pdfs[lang], 0)
    label = find(found, t("gn.sheet.speed_left", lang))
    below = [x.text.strip() for x in found if x.box.y1 < label.box.y0 and x.box.x0 < label.box.x1]
    assert "46" in below and "54" in below  # Red Rum 46 left; Foinavon has not moved


@pytest.mark.parametrize("lang", LANGS)
def test_stable_card_names_its_horses_prices_and_handicaps(
    pdfs: dict[str, bytes], lang: str
) -> None:
    text = flat(pdfs[lang], 0)
    for name in ("Red Rum", "Aldaniti", "Foinavon", "Party Politics"):
        assert compact(name) in text
    for price in ("$60,000", "$40,000", "$10,000", "$30,000"):
        assert price in text
    assert compact(t("gn.sheet.dealt", lang, mark=3)) in text  # Party Politics: 3 → 5
    for cap in load().caps:
        assert compact(t(f"gn.caps.{cap}", lang)) in text
    assert "Corbiere" not in text and "Corbiere" in flat(pdfs[lang], 1)
    assert compact(t("gn.sheet.bookmaker", lang)) in flat(pdfs[lang], 2)
    assert compact(t("gn.sheet.bookmaker", lang)) not in text


# --- the odds board ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_odds_board_lists_every_runner_with_the_odds_posted(
    pdfs: dict[str, bytes], lang: str
) -> None:
    """Red Rum as the bookmaker posted it; the others at the reserve-price table's odds."""
    found = page_texts(pdfs[lang], BOARD)
    state = setup()
    d = load()
    for h in range(state.horse_count):
        horse = state.horse(h)
        row = same_row(found, find(found, horse.name))
        win, show = ("10/1", "5/2") if h == 0 else (o.text() for o in d.odds[horse.price])
        handicap = "5" if h == 3 else str(horse.handicap)
        assert row[-4:] == [handicap, f"${horse.price:,}", win, show], horse.name
    text = flat(pdfs[lang], BOARD)
    for stable in ("Aki", "Ben", "Chie"):
        assert stable in text
    assert "12/1" in text and "3/1" in text  # Amberleigh (60K) at the table's odds


@pytest.mark.parametrize("paper", PAPERS)
def test_odds_board_is_printed_large(race: Race, paper: str) -> None:
    pdf = sheet(race.snapshot(), "en", paper)
    found = page_texts(pdf, BOARD)
    odds = [x for x in found if x.text.strip() == "10/1"]
    name = find(found, "Red Rum")
    assert odds and odds[0].size >= {"a3": 30, "a4": 18, "letter": 18}[paper]
    assert name.size >= {"a3": 20, "a4": 12, "letter": 12}[paper]
    width, height = page_box(pdf, BOARD)
    assert (width, height) == pytest.approx(page_size(GAME, paper)[::-1])


# --- money and bets: sealed blind bets ------------------------------------------------------


def sealed_texts(lang: str) -> list[str]:
    """What would give away an unsettled blind bet: its stakes and the blind-bet labels."""
    blind = t("gn.sheet.blind_kind", lang, kind=t("gn.kind.win", lang))
    return ["$7,300", "$6,100", "7,300", "6,100", compact(blind)]


def ledger_lines(pdf: bytes, index: int, lang: str) -> list[int]:
    """The numbers of the money ledger's lines on a page (its first column)."""
    found = page_texts(pdf, index)
    label = find(found, t("gn.sheet.col_no", lang))
    x = centre(label.box)[0]
    return [
        int(n.text)
        for n in found
        if n.text.strip().isdigit() and n.box.y1 < label.box.y0 and abs(centre(n.box)[0] - x) < 6
    ]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("role", [VIEWER, REFEREE, Role.seat_of(0), Role.seat_of(2)])
def test_an_unsettled_blind_bet_is_on_no_page(race: Race, lang: str, role: Role) -> None:
    """Not even the referee's print nor a stable's own shows it: only that one was written."""
    snapshot = race.snapshot(role)
    assert not snapshot.state.settled
    pdf = sheet(snapshot, lang, "a4", race.links(lang))
    text = all_text(pdf)
    assert [s for s in sealed_texts(lang) if s in text] == []
    sealed = compact(t("gn.sheet.blind_sealed", lang))
    assert sealed in flat(pdf, 0) and sealed in flat(pdf, 1)
    assert compact(t("gn.sheet.blind_none", lang)) not in flat(pdf, 2)  # Chie's: sealed too
    money = flat(pdf, MONEY)
    # the blind horses only as bought (the ledger) and on no bet: Ben's $2,000 is the one bet
    assert money.count("Corbiere") == 1 and money.count("Amberleigh") == 1
    assert money.count("RedRum") == 3  # bought, Ben's bet, its stake held
    assert compact(t("gn.sheet.open", lang)) in money
    # start money ×3, twelve horses bought, Ben's stake: no line for a blind stake
    assert ledger_lines(pdf, MONEY, lang) == list(range(1, 17))


@pytest.mark.parametrize("lang", LANGS)
def test_once_settled_the_ledger_shows_the_blind_bets_and_their_results(
    settled: Race, lang: str
) -> None:
    pdf = sheet(settled.snapshot(), lang)
    text = all_text(pdf)
    assert "$7,300" in text and "$6,100" in text
    blind_show = t("gn.sheet.blind_kind", lang, kind=t("gn.kind.show", lang))
    assert compact(blind_show) in text
    assert compact(t("gn.sheet.won", lang, amount="$24,400")) in text
    assert text.count(compact(t("gn.sheet.lost", lang))) >= 2
    assert compact(t("gn.reason.blind", lang)) in text
    assert compact(t("gn.sheet.blind_none", lang)) in flat(pdf, 2)  # Chie wrote none
    state = settled.snapshot().state
    for seat in range(STABLES):
        assert f"${engine.cash(state, seat):,}" in text
    for place, prize in enumerate(load().prizes):
        assert f"${prize:,}" in text, place
    assert compact(t("gn.sheet.placed", lang, place=1)) in flat(pdf, 2)  # Amberleigh


@pytest.mark.parametrize("lang", LANGS)
def test_cash_by_stable_adds_up_from_the_ledger(race: Race, lang: str) -> None:
    found = page_texts(sheet(race.snapshot(), lang), MONEY)
    state = race.snapshot().state
    # Ben: $250,000 start, $110,000 of horses, $2,000 staked → $138,000
    assert same_row(found, find(found, "Ben"))[:4] == ["$250,000", "-$110,000", "-$2,000", "—"]
    for seat, name in enumerate(("Aki", "Ben", "Chie")):
        assert same_row(found, find(found, name))[-1] == f"${engine.cash(state, seat):,}"


def prize_and_odds_rows(pdf: bytes, lang: str) -> tuple[list[str], list[str]]:
    """The prize row and the Win odds row, between their titles and the bets' title."""
    found = page_texts(pdf, MONEY)
    top = find(found, t("gn.sheet.prizes_title", lang)).box.y0
    bottom = find(found, t("gn.sheet.bets_title", lang)).box.y1
    split = find(found, t("gn.sheet.odds_title", lang)).box.x0  # the odds table's left edge
    region = [x for x in found if bottom < x.box.y0 and x.box.y1 < top]
    left = [x for x in region if x.box.x1 < split]
    right = [x for x in region if x.box.x0 >= split]
    prizes = same_row(left, find(left, t("gn.sheet.prize", lang)))
    return prizes, same_row(right, find(right, t("gn.kind.win", lang)))


@pytest.mark.parametrize("lang", LANGS)
def test_prizes_and_odds_tables_come_from_the_seed_file(
    race: Race, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    prizes, win = prize_and_odds_rows(sheet(race.snapshot(), lang), lang)
    assert prizes == [f"${p:,}" for p in load().prizes]
    assert prizes == ["$250,000", "$100,000", "$50,000", "$30,000"]
    assert win == [o.text() for o, _ in (load().odds[p] for p in load().prices)]
    assert win == ["12/1", "20/1", "28/1", "40/1", "66/1", "100/1"]
    other = replace(load(), prizes=(111000, 22000, 3300, 440))
    monkeypatch.setattr(gn_money, "load", lambda: other)
    prizes, _ = prize_and_odds_rows(sheet(race.snapshot(), lang), lang)
    assert prizes == ["$111,000", "$22,000", "$3,300", "$440"]


# --- the blank sheet -------------------------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_blank_sheet_has_one_stable_card_a_board_to_fill_and_ruled_ledger(
    lang: str, paper: str
) -> None:
    pdf = sheet(None, lang, paper)
    n = page_count(pdf)
    assert decode_qr(pdf, 0) == [home_url(BASE, lang)]
    stable = flat(pdf, 0)
    assert compact(t("gn.sheet.private_ask", lang)) in stable
    marks = grid_marks(pdf, 0)
    assert sorted(marks) == list(range(1, 65)) and all(set(v) == {0} for v in marks.values())
    assert all(len(marks[k]) >= 4 for k in range(1, 65))
    boards = [i for i in range(n) if compact(t("gn.sheet.runner", lang)) in flat(pdf, i)]
    assert boards and all(page_box(pdf, i)[0] > page_box(pdf, i)[1] for i in boards)
    caps = sum(flat(pdf, i).count(compact(t("gn.caps.red", lang))) for i in boards)
    assert caps == load().max_stables  # a block per stable the game allows
    money = next(i for i in range(n) if compact(t("gn.sheet.cash_title", lang)) in flat(pdf, i))
    assert len([s for s in lines(page(pdf, money)) if abs(s.y0 - s.y1) < 0.01]) > 40
    assert "$250,000" in flat(pdf, money) and "100/1" in flat(pdf, money)


# --- everything fits: six stables, 40-character names, every paper ---------------------------

LONG = "長" * 39


def long_setup() -> dict[str, Any]:
    d = load()
    stables = []
    for s in range(d.max_stables):
        horses = tuple(
            Horse(
                "馬" * 38 + "一二三四五六"[s] + "赤黒白青"[slot],
                d.slot_prices[slot][s % len(d.slot_prices[slot])],
                7,
            )
            for slot in range(d.horses)
        )
        stables.append(Stable(LONG + "一二三四五六"[s], d.colours[s].key, horses))
    return GnSetup(tuple(stables), 5, sample_track()).to_dict()


@pytest.fixture(scope="module")
def long_race(tmp_path_factory: pytest.TempPathFactory) -> Race:
    """Six stables with the longest names, bets of every kind, run home and settled."""
    service = new_service(tmp_path_factory.mktemp("gn_long"))
    race = to_the_start(service, "漢" * 80, long_setup())
    for seat in range(6):
        bet = {"type": "bet", "seat": seat, "horse": (seat * 5) % 24, "kind": "show", "stake": 999}
        race.record(race.seat_keys[seat], bet)
    run(race, 8)
    settle(race, (0, 4, 8, 12, 16))
    return race


@pytest.fixture(scope="module")
def fit(long_race: Race) -> dict[tuple[str, str], bytes]:
    snapshot = long_race.snapshot()
    return {
        (lang, paper): sheet(snapshot, lang, paper, long_race.links(lang))
        for lang in LANGS
        for paper in PAPERS
    }


def every_page(fit: dict[tuple[str, str], bytes]) -> Iterator[tuple[str, bytes]]:
    for (lang, paper), pdf in fit.items():
        for index in range(page_count(pdf)):
            yield f"{lang}-{paper}-p{index + 1}", page(pdf, index)


def test_six_stables_get_a_card_each_and_the_whole_board(
    fit: dict[tuple[str, str], bytes], long_race: Race
) -> None:
    snapshot = long_race.snapshot()
    for (lang, paper), pdf in fit.items():
        links = long_race.links(lang)
        for seat in range(6):
            assert compact(LONG + "一二三四五六"[seat]) in flat(pdf, seat)
        assert sorted(decode_qr(pdf, 5)) == sorted(
            [viewer_url(BASE, snapshot.info.public_id, lang), links[5]]
        )
        boards = [i for i in range(page_count(pdf)) if page_box(pdf, i)[0] > page_box(pdf, i)[1]]
        board_text = "".join(flat(pdf, i) for i in boards)
        for seat in range(6):
            for slot in range(4):
                name = "馬" * 38 + "一二三四五六"[seat] + "赤黒白青"[slot]
                assert name in board_text, (lang, paper, seat, slot)
        assert len(boards) == {"a3": 2, "a4": 2, "letter": 2}[paper], (lang, paper)


def test_no_text_runs_past_the_margins_or_into_the_header_qr(
    fit: dict[tuple[str, str], bytes],
) -> None:
    outside: list[str] = []
    for name, pdf in every_page(fit):
        width, height = page_box(pdf, 0)
        sheet_box = Box(MARGIN, MARGIN, width - MARGIN, height - MARGIN)
        qr = Box(*qr_rect((width, height)))
        for x in texts(pdf):
            if not x.box.inside(sheet_box, tol=0.01) or x.box.overlaps(qr, tol=0):
                outside.append(f"{name}: {describe(x)}")
    assert outside == []


def test_no_text_crosses_a_cell_border(fit: dict[tuple[str, str], bytes]) -> None:
    crossing: list[str] = []
    for name, pdf in every_page(fit):
        crossing += [f"{name}: {x}" for x in crossing_texts(pdf)]
    assert crossing == []


def test_no_two_texts_overlap(fit: dict[tuple[str, str], bytes]) -> None:
    clashes: list[str] = []
    for name, pdf in every_page(fit):
        clashes += [f"{name}: {pair}" for pair in overlapping_texts(pdf)]
    assert clashes == []


def test_no_japanese_line_ends_with_an_opening_bracket(fit: dict[tuple[str, str], bytes]) -> None:
    for paper in PAPERS:
        pdf = fit["ja", paper]
        for index in range(page_count(pdf)):
            found = [x.strip() for x in text_lines(page(pdf, index)) if x.strip()]
            assert [x for x in found if x[-1] in OPENING] == []
            assert [x for x in found if x[0] in CLOSING] == []
