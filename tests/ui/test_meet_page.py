"""The event page and the home page's events tab under AppTest, on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from aids.meets import MeetService
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.meets.helpers import sprint_in_meet
from tests.ui.conftest import new_app, ok, page_html


@pytest.fixture
def meets(app_db: Path, with_fake_game: None) -> MeetService:
    return MeetService(TableService(SqliteStore(app_db), engines()))


def test_creating_an_event_on_home_opens_it_with_the_organiser_key(meets: MeetService) -> None:
    at = new_app(lang="en")
    at.text_input(key="meet_title").set_value("Friday night")
    at.text_input(key="meet_create_points").set_value("5, 3, 1")
    next(b for b in at.button if b.label == "Create event").click().run()
    ok(at)
    [info] = meets.list_meets()
    assert at.query_params["meet"] == info.public_id
    assert meets.role_for(info.public_id, at.query_params["key"]) == "organiser"
    assert info.scoring.points == (5, 3, 1)


def test_a_refused_event_shows_the_message_and_writes_nothing(meets: MeetService) -> None:
    at = new_app(lang="en")
    at.text_input(key="meet_create_points").set_value("1, 5")
    at.text_input(key="meet_title").set_value("Night")
    next(b for b in at.button if b.label == "Create event").click().run()
    assert [e.value.replace("\\", "") for e in at.error] == [
        "Placing points may not rise: a lower place cannot be worth more than a higher one."
    ]
    assert meets.list_meets() == []


def test_the_viewer_sees_standings_and_tables_and_no_organiser_tools(meets: MeetService) -> None:
    info, key = meets.create("[x](http://evil.test)", "2025-03-07")
    sprint_in_meet(meets, info.public_id, key, "Heat", ["Aki", "Ben"], [3, 1])
    at = ok(new_app(meet=info.public_id, lang="en"))
    html = page_html(at)
    assert "[x](http://evil.test)" in html and 'href="http://evil.test"' not in html
    assert "<td>Aki</td>" in html and "Finished · won by Aki" in html
    assert not at.tabs  # no organiser tabs
    wrong = new_app(meet=info.public_id, key="wrong", lang="en")
    assert not wrong.exception and not wrong.tabs
    assert [e.value for e in wrong.error] == [
        "This link's key is not (or no longer) the organiser's: you see the event read-only."
    ]


def test_an_old_organiser_link_is_told_it_was_replaced_and_shows_the_event(
    meets: MeetService,
) -> None:
    """Issue 18 §2: a tab still holding a replaced organiser link shows the event read-only
    and says the link was replaced (not "not valid"), in either language."""
    info, key = meets.create("Night", "2025-03-07")
    meets.rotate_key(info.public_id, key)
    old = ok(new_app(meet=info.public_id, key=key, lang="en"))
    assert not old.tabs and not old.error
    assert [w.value for w in old.warning] == [
        "This organiser link was replaced by a newer one: you see the event read-only. "
        "Use the newest organiser link."
    ]
    ja = ok(new_app(meet=info.public_id, key=key, lang="ja"))
    assert any("置き換えられました" in w.value for w in ja.warning)


def test_the_organiser_adds_a_table_by_its_referee_link_and_changes_the_rule(
    meets: MeetService,
) -> None:
    info, key = meets.create("Night", "2025-03-07")
    table, referee = meets.tables.create("sprint", "Heat", {"names": ["Aki", "Ben"], "goal": 3})
    at = ok(new_app(meet=info.public_id, key=key, lang="en"))
    assert [t.label for t in at.tabs][:2] == ["Add a table", "New table"]
    link = f"http://x:8501/?table={table.public_id}&key={referee}"
    at.text_input(key="meet_add_ref").set_value(link)
    next(b for b in at.button if b.label == "Add to the event").click().run()
    ok(at)
    assert [s.public_id for s in meets.tables_of(info.public_id)] == [table.public_id]
    at.radio(key="meet_set_rule").set_value("score")
    next(b for b in at.button if b.label == "Save").click().run()
    ok(at)
    assert meets.info(info.public_id).scoring.rule == "score"


def test_home_lists_a_tables_event_with_a_link_to_the_event_page(meets: MeetService) -> None:
    info, key = meets.create("Friday <b>night</b>", "2025-03-07")
    sprint_in_meet(meets, info.public_id, key, "Heat", ["Aki", "Ben"])
    meets.tables.create("sprint", "Alone", {"names": ["Chie", "Dai"], "goal": 3})
    html = page_html(ok(new_app(lang="en")))
    heat = next(line for line in html.split("<li>") if "Heat" in line)
    alone = next(line for line in html.split("<li>") if "Alone" in line)
    assert f"?meet={info.public_id}&amp;lang=en" in heat
    assert "Event: Friday &lt;b&gt;night&lt;/b&gt;" in heat
    assert "meet=" not in alone
