"""A table's sheet is the record of its race: the hand-worked race printed, cell by cell.

Rows: 1 red, 2 blue, 3 green, 4 yellow, 5 white, 6 pink, 7 brown, 8 purple; seats A, B, C.
The cells are read from the flowables ``story`` returns (what is printed where); the PDF tests
check the same sheet's text once drawn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from reportlab.lib.units import mm
from reportlab.platypus import Table

from aids.print.cells import Centred, Dot, SeatMark, TextBox, Tick, Value
from aids.print.derby import sheet as derby_sheet
from aids.print.frame import body_width, page_size, styles
from aids.tables import Snapshot
from tests.print.pdf_layout import text_lines
from tests.print.tables import hand_worked, service_at
from tests.print.test_derby_sheet import sheet

SLOT = {f: 2 * f for f in range(1, 5)}  # column of the counter slot before fence f
CARD = {**{f: 2 * f + 1 for f in range(1, 5)}, 5: 10}  # column of fence f's cards
FINISHED = 11
RED, BLUE, GREEN, YELLOW, WHITE, PINK, BROWN, PURPLE = range(8)


def show(cell: Any) -> str:
    """A printed cell in words: ``[2]`` a seat's numbered square, ``■7`` a black card 7,
    ``~`` struck through, ``✓`` ticked, ``(…)`` the small note under a value."""
    if isinstance(cell, list | tuple):
        return " ".join(show(c) for c in cell)
    if isinstance(cell, Centred):
        return show_mark(cell.mark)
    if isinstance(cell, TextBox):
        mark = show_mark(cell.mark) if cell.mark else ""
        return mark + cell.text + ("~" if cell.strike else "")
    if isinstance(cell, Value):
        return ("■" if cell.inverse else "") + cell.text + (f" ({cell.note})" if cell.note else "")
    if isinstance(cell, Tick):
        return "✓"
    return str(cell)


def show_mark(mark: Any) -> str:
    if isinstance(mark, SeatMark):
        return f"[{mark.number}]" if mark.fill else f"[{mark.number}?]"
    return "●" if isinstance(mark, Dot) else ""


def tables_of(snapshot: Snapshot | None, lang: str = "en") -> tuple[Table, Table]:
    from aids.games.derby import GAME

    width = body_width(page_size(GAME, "a4"))
    grid, _, bottom = derby_sheet.story(snapshot, lang, width, styles(lang))
    return grid, bottom._cellvalues[0][0]


def grid_cell(grid: Table, horse: int, col: int) -> str:
    return show(grid._cellvalues[horse + 2][col])


def score_row(scores: Table, seat: int) -> list[str]:
    return [show(c) for c in scores._cellvalues[seat + 2]]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("record")


@pytest.fixture(scope="module")
def finished(folder: Path) -> Snapshot:
    return hand_worked(service_at(folder))


@pytest.fixture(scope="module")
def after_fence_3(folder: Path) -> Snapshot:
    return hand_worked(service_at(folder), turns=22, title="Half")


def test_finished_sheet_shows_each_horses_top_card_at_each_fence(finished: Snapshot) -> None:
    grid, _ = tables_of(finished)
    assert [grid_cell(grid, RED, CARD[f]) for f in range(1, 6)] == ["5", "1", "9", "2", "■1"]
    assert grid_cell(grid, PURPLE, CARD[3]) == "■9"  # a black card: white on a dark tile
    assert grid_cell(grid, WHITE, CARD[1]) == "2"


def test_finished_sheet_notes_the_cards_stacked_under_the_top_one(finished: Snapshot) -> None:
    grid, _ = tables_of(finished)
    assert grid_cell(grid, BLUE, CARD[2]) == "8 (under: Black 0)"
    grid_ja, _ = tables_of(finished, "ja")
    assert grid_cell(grid_ja, BLUE, CARD[2]) == "8 (下：黒 0)"


def test_finished_sheet_marks_counters_with_the_owners_seat_number(finished: Snapshot) -> None:
    grid, _ = tables_of(finished)
    slots = {
        (horse, fence): grid_cell(grid, horse, SLOT[fence])
        for horse in range(8)
        for fence in range(1, 5)
    }
    counters = {k: v for k, v in slots.items() if v.startswith("[")}
    assert counters == {
        (RED, 1): "[1]",
        (BLUE, 1): "[2]",
        (YELLOW, 1): "[1]",
        (WHITE, 1): "[3]",
        (GREEN, 2): "[3]",
        (RED, 2): "[1]",
        (PURPLE, 2): "[1]",
        (PURPLE, 3): "[2]",
        (YELLOW, 4): "[2]",
        (RED, 4): "[3]",
    }
    seat_colours = {m.number: m.fill for m in _seat_marks(grid)}
    assert len(set(seat_colours.values())) == 3  # each seat in its own colour, and numbered


def _seat_marks(grid: Table) -> list[SeatMark]:
    return [c.mark for row in grid._cellvalues for c in row if isinstance(c, Centred)]


def test_finished_sheet_strikes_fallen_horses_with_the_fence_they_fell_at(
    finished: Snapshot,
) -> None:
    grid, _ = tables_of(finished)
    names = [grid_cell(grid, h, 1) for h in range(8)]
    assert names == [
        "●Red~",
        "●Blue",
        "●Green~",
        "●Yellow",
        "●White~",
        "●Pink~",
        "●Brown~",
        "●Purple",
    ]
    fell = {h: grid_cell(grid, h, FINISHED) for h in range(8)}
    assert fell == {
        RED: "fell at fence 5",
        BLUE: "✓",
        GREEN: "fell at fence 3",
        YELLOW: "✓",
        WHITE: "fell at fence 1",
        PINK: "fell at fence 4",
        BROWN: "fell at fence 2",
        PURPLE: "✓",
    }
    assert grid_cell(grid, WHITE, SLOT[2]) == ""  # no slot to mark once a horse is out


def test_finished_sheet_fills_the_score_table_and_marks_the_winners(finished: Snapshot) -> None:
    _, scores = tables_of(finished)
    # counters still scoring × points per fence: A yellow@1 4, purple@2 3; B blue@1 4,
    # purple@3 2, yellow@4 1; C lost all three. A and B share the win.
    assert score_row(scores, 0) == ["[1]A", "1", "4", "1", "3", "0", "0", "0", "0", "7 (★ winner)"]
    assert score_row(scores, 1) == ["[2]B", "1", "4", "0", "0", "1", "2", "1", "1", "7 (★ winner)"]
    assert score_row(scores, 2) == ["[3]C", "0", "0", "0", "0", "0", "0", "0", "0", "0"]


def test_sheet_in_progress_prints_the_race_so_far(after_fence_3: Snapshot) -> None:
    grid, scores = tables_of(after_fence_3)
    assert [grid_cell(grid, RED, CARD[f]) for f in range(1, 6)] == ["5", "1", "9", "", ""]
    assert grid_cell(grid, GREEN, FINISHED) == "fell at fence 3"
    assert grid_cell(grid, BLUE, FINISHED) == "□"  # still running: nothing ticked yet
    # counters so far (fences 1–4 reached: 4 is being run); no points until the race ends
    assert score_row(scores, 0) == ["[1]A", "2", "", "2", "", "0", "", "0", "", ""]
    text = "\n".join(text_lines(sheet(after_fence_3, "en")))
    assert "Printed during the race: fence 4 of 5" in text


def test_blank_sheet_stays_blank() -> None:
    grid, scores = tables_of(None)
    for horse in range(8):
        assert [grid_cell(grid, horse, CARD[f]) for f in range(1, 6)] == [""] * 5
        assert [grid_cell(grid, horse, SLOT[f]) for f in range(1, 5)] == ["○"] * 4
        assert grid_cell(grid, horse, FINISHED) == "□"
    rows = [score_row(scores, seat) for seat in range(5)]
    assert rows == [[f"[{seat + 1}?]"] + [""] * 9 for seat in range(5)]


def test_blank_score_cells_leave_room_to_write() -> None:
    _, scores = tables_of(None)
    assert all(w >= 10 * mm for w in scores._colWidths[1:])
    assert all(h >= 8 * mm for h in scores._rowHeights[2:])


def test_horses_and_players_carry_a_number_as_well_as_a_colour(finished: Snapshot) -> None:
    grid, scores = tables_of(finished)
    assert [grid_cell(grid, h, 0) for h in range(8)] == [str(n) for n in range(1, 9)]
    assert all(isinstance(grid._cellvalues[h + 2][1].mark, Dot) for h in range(8))
    marks = [scores._cellvalues[seat + 2][0].mark for seat in range(3)]
    assert [(m.number, m.fill is not None) for m in marks] == [(1, True), (2, True), (3, True)]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["under: Black 0", "fell at fence 1", "★ winner", "Key:"]),
        ("ja", ["下：黒 0", "第1柵で落馬", "★勝者", "記号："]),
    ],
)
def test_finished_record_is_printed_in_the_pdf(
    finished: Snapshot, lang: str, words: list[str]
) -> None:
    text = "\n".join(text_lines(sheet(finished, lang)))
    for word in words:
        assert word in text


def test_same_table_prints_the_same_bytes(finished: Snapshot) -> None:
    assert sheet(finished, "ja") == sheet(finished, "ja")
    assert sheet(None, "en", "letter") == sheet(None, "en", "letter")
