"""The event page's tables played on paper under AppTest, on a real SQLite file (issue 21 §1):
the organiser adds one, enters its result in a tap per seat, sees a refusal that names the
field and writes nothing, confirms it; everyone sees it marked paper in the standings."""

from __future__ import annotations

from pathlib import Path

import pytest

from aids.meets import MeetService, Scoring
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.ui.conftest import new_app, ok, page_html


@pytest.fixture
def meets(app_db: Path) -> MeetService:
    return MeetService(TableService(SqliteStore(app_db), engines()))


def button(at: object, label: str) -> object:
    return next(b for b in at.button if b.label == label)  # type: ignore[attr-defined]


def test_the_organiser_adds_a_paper_table_and_enters_its_result_in_a_tap_per_seat(
    meets: MeetService,
) -> None:
    info, key = meets.create("Night", "2025-03-07")
    at = ok(new_app(meet=info.public_id, key=key, lang="en"))
    assert "Paper tables" in [t.label for t in at.tabs]
    at.selectbox(key="meet_paper_game").set_value("rally")
    at.text_input(key="meet_paper_title").set_value("Table 7")
    at.text_area(key="meet_paper_names").set_value("Aki\nBen\n千恵")
    button(at, "Add a paper table").click().run()  # type: ignore[attr-defined]
    ok(at)
    [paper] = meets.papers_of(info.public_id)
    assert paper.seats == ("Aki", "Ben", "千恵") and paper.kind == "rally"
    prefix = f"meet_paper_{paper.public_id}_0"
    for seat, place in enumerate((2, 1, 2)):
        at.segmented_control(key=f"{prefix}_place_{seat}").set_value(place)
    button(at, "Save the result").click().run()  # type: ignore[attr-defined]
    ok(at)
    saved = meets.paper(info.public_id, paper.public_id)
    assert saved.places() == (2, 1, 2) and not saved.confirmed
    html = page_html(at)
    assert "Played on paper · won by Ben (not yet confirmed)" in html
    assert '<span class="aids-paper-mark">paper</span>' in html
    button(at, "Confirm the result").click().run()  # type: ignore[attr-defined]
    ok(at)
    assert meets.paper(info.public_id, paper.public_id).confirmed
    assert any("Confirmed" in c.value for c in at.caption)  # who and when, in the log
    viewer = ok(new_app(meet=info.public_id, lang="en"))
    assert "<td>Ben</td>" in page_html(viewer) and "confirmed" in page_html(viewer)
    assert not viewer.tabs


def test_a_refused_result_names_the_field_and_writes_nothing(meets: MeetService) -> None:
    info, key = meets.create("Night", "2025-03-07", Scoring("score"))
    game = meets.tables.game("derby")
    setup = game.setup_to_dict(game.default_setup(["Aki", "Ben", "Chie"], "en"))
    paper = meets.new_paper(info.public_id, key, "derby", "T1", setup)
    at = ok(new_app(meet=info.public_id, key=key, lang="en"))
    prefix = f"meet_paper_{paper.public_id}_0"
    for seat, (place, points) in enumerate(((1, 9), (2, 12), (3, 0))):
        at.segmented_control(key=f"{prefix}_place_{seat}").set_value(place)
        at.number_input(key=f"{prefix}_points_{seat}").set_value(points)
    button(at, "Save the result").click().run()  # type: ignore[attr-defined]
    assert [e.value.replace("\\", "") for e in at.error] == [
        "Aki (seat 1) is given place 1, but the points entered put them in place 2: check the slip."
    ]
    assert meets.paper(info.public_id, paper.public_id).entries == ()


ODD_RESULTS = (  # each accepted into a store at some time, by a release or by hand
    ("derby", ["Aki", "Ben"], {"places": [1, 1], "points": [20, 20]}),  # before the points rule
    ("derby", ["Aki", "Ben"], {"places": ["2", "1"], "points": ["3", "4"]}),  # string numbers
    ("gn", ["Aki", "Ben"], {"places": ["2", "1"], "money": ["120000", "610000"]}),  # no prize
    ("ekiden", ["Aki", "Ben", "Chie"], {"places": [1, 1, 3], "column": [3, 3, 1]}),  # a tie
    ("rally", ["Aki", "Ben"], {"places": ["x", 1.5]}),  # nothing a place can be
    ("rally", ["Aki", "Ben"], {"places": [1, 2, 3]}),  # one seat too many
)


def test_no_stored_result_crashes_the_event_pages_and_the_organiser_fixes_one(
    meets: MeetService,
) -> None:
    """Issue 26 §1: the viewer and organiser pages render with every odd-but-accepted stored
    result; such a table says what is wrong; the organiser corrects it on the page."""
    from tests.meets.test_papers import stored_as_is

    info, key = meets.create("Night", "2025-03-07", Scoring("score"))
    papers = []
    for kind, names, result in ODD_RESULTS:
        game = meets.tables.game(kind)
        setup = game.setup_to_dict(game.default_setup(names, "en"))
        paper = meets.new_paper(info.public_id, key, kind, f"{kind} odd", setup)
        stored_as_is(meets, (info.public_id, key), paper, result)
        papers.append(paper.public_id)
    viewer = ok(new_app(meet=info.public_id, lang="en"))
    assert page_html(viewer).count("needs a look") == 4  # 20 + 20, the tie, "x", 3 places
    assert "Stored: places 1, 1 · points 20, 20. Points rule" in page_html(viewer)
    assert any("left out of the standings" in c.value for c in viewer.caption)
    ok(new_app(meet=info.public_id, lang="ja"))
    at = ok(new_app(meet=info.public_id, key=key, lang="en"))
    for i in range(len(papers)):  # each table's result form, with its stored values
        at.selectbox(key="meet_paper_which").set_value(i).run()
        assert not at.exception, (i, at.exception)
        assert at.selectbox(key="meet_paper_which").index == i  # two tables of one title too
    at.selectbox(key="meet_paper_which").set_value(0).run()
    assert any("Points rule" in w.value for w in at.warning), [w.value for w in at.warning]
    prefix = f"meet_paper_{papers[0]}_1"
    for seat, (place, points) in enumerate(((1, 12), (2, 3))):
        at.segmented_control(key=f"{prefix}_place_{seat}").set_value(place)
        at.number_input(key=f"{prefix}_points_{seat}").set_value(points)
    button(at, "Save the result").click().run()  # type: ignore[attr-defined]
    ok(at)
    fixed = meets.paper(info.public_id, papers[0])
    assert fixed.problem is None and fixed.finished and fixed.places() == (1, 2)
    assert page_html(ok(new_app(meet=info.public_id, lang="en"))).count("needs a look") == 3
