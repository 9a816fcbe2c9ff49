"""The Ekiden page under AppTest on a real SQLite file: create a table through the home page,
run a whole 10-leg relay through the page, enter a roster, and read the board."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from aids.games.base import REFEREE, VIEWER, Role
from aids.games.ekiden import engine
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.ui.conftest import new_app

TEAMS = ["あき", "Ben", "ちえ"]


def service(db: Path) -> TableService:
    return TableService(SqliteStore(db), engines())


def create(at: AppTest) -> AppTest:
    at.selectbox(key="new_game").set_value("ekiden").run()
    at.text_input(key="new_title").set_value("Hakone night")
    for i, name in enumerate(TEAMS):
        at.text_input(key=f"ek_team_{i}").set_value(name)
    at.number_input(key="ek_start").set_value(2)
    at.number_input(key="ek_leg_1").set_value(3)
    at.number_input(key="ek_leg_10").set_value(2)
    next(b for b in at.button if b.label == "Create table").click()
    return at.run()


def html(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.html)


def test_create_an_ekiden_table_from_the_home_page(app_db: Path) -> None:
    at = create(new_app(lang="en"))
    assert not at.exception and not at.error, [e.value for e in at.error]
    pid = at.query_params["table"]
    state = service(app_db).snapshot(pid).state
    assert [t.name for t in state.setup.teams] == TEAMS and state.setup.start == 1
    assert (state.setup.course[0].slope, state.setup.course[0].n) == ("up", 3)
    assert (state.setup.course[9].slope, state.setup.course[9].n) == ("down", 2)
    assert "reveal the situation card" in html(at)


def test_a_whole_relay_through_the_page(app_db: Path) -> None:
    at = create(new_app(lang="en"))
    pid = at.query_params["table"]
    store = service(app_db)
    for leg in range(1, 11):
        seq = store.snapshot(pid).seq
        for rank, mark in zip(range(1, 6), "o-x-o", strict=True):
            at.segmented_control(key=f"mark_{seq}_{rank}").set_value(mark)
        at.button(key="reveal_go").click()
        at = at.run()
        assert not at.error, [e.value for e in at.error]
        assert store.snapshot(pid).state.marks == tuple("o-x-o")  # the card as tapped
        for i in range(3):
            seq = store.snapshot(pid).seq
            at.segmented_control(key=f"power_{seq}").set_value(2 + (leg + i) % 5)
            at.number_input(key=f"up_{seq}").set_value(1 + i)
            at.selectbox(key=f"skill_{seq}").set_value("commander" if i == 0 else None)
            at = at.run()
            assert any("Declared power" in m.value for m in at.markdown)
            at.button(key="run_go").click()
            at = at.run()
            assert not at.error, [e.value for e in at.error]
            played = store.snapshot(pid).state
            entries = played.entries or played.history[-1]
            ran = next(e for e in entries if e.order == i)
            assert (ran.runner.power, ran.runner.up) == (2 + (leg + i) % 5, 1 + i)
    final = store.snapshot(pid, REFEREE)
    assert final.outcome is not None and len(final.state.history) == 10
    assert any(p.column != 0 for p in final.state.places)  # the marks moved the pieces
    assert final.state == store.replay(pid)
    assert "The relay is over" in html(at)
    charts = at.get("vega_lite_chart")
    assert charts and "Standing after each leg" in str(charts[0].proto)  # 順位変動


def test_a_team_enters_its_roster_with_its_own_link_hidden_from_others(app_db: Path) -> None:
    store = service(app_db)
    setup = {
        "teams": [
            {"name": n, "colour": c} for n, c in zip(TEAMS, ["red", "blue", "green"], strict=True)
        ],
        "start": 0,
        "course": [{"slope": "flat", "n": 0}] * 10,
    }
    info, referee = store.create("ekiden", "Roster", setup)
    pid = info.public_id
    seat = store.rotate_key(pid, referee, Role.seat_of(1))
    at = new_app(table=pid, key=seat, lang="en")
    assert not at.exception
    at.button(key="roster_go").click()
    at = at.run()
    assert not at.error, [e.value for e in at.error]
    full = store.snapshot(pid, REFEREE).state
    assert full.rosters[1] is not None and len(full.rosters[1]) == 10
    assert store.snapshot(pid, VIEWER).state.rosters == (None, None, None)
    viewer = new_app(table=pid, lang="en")
    assert "made a secret choice" in html(viewer)


def test_the_road_shows_every_piece_and_flags_one_past_the_printed_road(app_db: Path) -> None:
    store = service(app_db)
    colours = ["red", "blue", "green"]
    teams = [{"name": n, "colour": c} for n, c in zip(TEAMS, colours, strict=True)]
    setup = {"teams": teams, "start": 0, "course": [{"slope": "flat", "n": 0}] * 10}
    info, key = store.create("ekiden", "Road", setup)
    pid = info.public_id
    for leg in (1, 2):
        store.record(
            pid, key, store.snapshot(pid).seq, {"type": "situation", "leg": leg, "marks": "ooooo"}
        )
        for _ in range(3):
            snap = store.snapshot(pid)
            run = {
                "type": "run",
                "team": engine.next_runner(snap.state),
                "leg": leg,
                "runner": {"power": 4, "up": 9 if leg == 2 else 5, "down": 1},
            }
            store.record(pid, key, snap.seq, run)
    at = new_app(table=pid, lang="en")
    body = html(at)
    assert body.count('class="piece') == 3 and "Standing" in body
    assert any("past the printed road" in w.value for w in at.warning)  # column 14 > 13


def test_a_typed_runner_whose_name_already_ran_for_the_team_gets_a_warning(app_db: Path) -> None:
    store = service(app_db)
    teams = [{"name": n, "colour": c} for n, c in zip(TEAMS, ["red", "blue", "green"], strict=True)]
    setup = {"teams": teams, "start": 0, "course": [{"slope": "flat", "n": 0}] * 10}
    info, key = store.create("ekiden", "Names", setup)
    pid = info.public_id
    store.record(pid, key, 0, {"type": "situation", "leg": 1, "marks": "ooooo"})
    first = engine.next_runner(store.snapshot(pid).state)
    at = new_app(table=pid, key=key, lang="en")
    seq = store.snapshot(pid).seq
    at.text_input(key=f"name_{seq}").set_value("Sato")
    at = at.run()
    assert not at.warning  # nobody of that name has run yet
    at.button(key="run_go").click()
    at = at.run()
    assert not at.error, [e.value for e in at.error]
    assert store.snapshot(pid).state.entries[0].runner.name == "Sato"  # the typed name kept
    while (snap := store.snapshot(pid)).state.leg == 1:
        team = engine.next_runner(snap.state)
        run = {"type": "run", "team": team, "leg": 1, "runner": {"power": 3, "up": 1, "down": 1}}
        store.record(pid, key, snap.seq, run)
    store.record(
        pid, key, store.snapshot(pid).seq, {"type": "situation", "leg": 2, "marks": "-----"}
    )
    while engine.next_runner((snap := store.snapshot(pid)).state) != first:
        team = engine.next_runner(snap.state)
        run = {"type": "run", "team": team, "leg": 2, "runner": {"power": 3, "up": 1, "down": 1}}
        store.record(pid, key, snap.seq, run)
    at = new_app(table=pid, key=key, lang="en")
    seq = store.snapshot(pid).seq
    at.text_input(key=f"name_{seq}").set_value("ｓａｔｏ")  # the same name, another width and case
    at = at.run()
    warned = [w.value for w in at.warning]
    assert len(warned) == 1 and "already ran leg 1" in warned[0] and "Sato" not in warned[0]
    assert "ｓａｔｏ" in warned[0] and "runs only once" in warned[0]
    at.text_input(key=f"name_{seq}").set_value("Suzuki")
    at = at.run()
    assert not at.warning
    ja = new_app(table=pid, key=key, lang="ja")
    ja.text_input(key=f"name_{seq}").set_value("Sato")
    ja = ja.run()
    assert len(ja.warning) == 1 and "第1区ですでに走っています" in ja.warning[0].value
