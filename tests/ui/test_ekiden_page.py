"""The Ekiden page under AppTest on a real SQLite file: create a table through the home page,
run a whole 10-leg relay through the page, enter a roster, and read the board."""

from __future__ import annotations

import re
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
    at.segmented_control(key="ek_leg_1").set_value(3)
    at.segmented_control(key="ek_leg_10").set_value(2)
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
            at.segmented_control(key=f"up_{seq}").set_value(i)  # an up of 0 is a value
            at.button(key="run_commander" if i == 0 else "run_none").click()
            at = at.run()
            assert not at.error, [e.value for e in at.error]
            played = store.snapshot(pid).state
            entries = played.entries or played.history[-1]
            ran = next(e for e in entries if e.order == i)
            assert (ran.runner.power, ran.runner.up) == (2 + (leg + i) % 5, i)
            assert ran.runner.skill == ("commander" if i == 0 else None)
            if played.entries:  # the power track: what each runner declared this leg
                said = [c.value for c in at.caption if "Declared this leg" in c.value]
                assert said and f"{ran.declared}" in said[0]
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
    assert body.count('class="piece') == 3 and "Standings after leg 2" in body
    assert any("past the printed road" in w.value for w in at.warning)  # column 14 > 13


def standings_rows(at: AppTest) -> list[str]:
    """The standings box's table rows as text, the head first."""
    box = next(h.proto.body for h in at.html if "aids-standings" in h.proto.body)
    rows = box.split("<tr")[1:]
    return [re.sub(r"<[^>]+>", "|", r.split(">", 1)[1]).replace("||", "|") for r in rows]


def test_the_standings_list_the_teams_in_standing_order_and_mark_the_own_team(
    app_db: Path,
) -> None:
    """Issue 19 "At the table": the standings (engine.standings order: farthest column first,
    nearer the line in a column, so no shared places) with each team's column, its gap to the
    leader and its last leg's rank and move; on a team's own link (a seat is a team) that row
    says "you"; the board no longer draws a second standings table."""
    store = service(app_db)
    teams = [{"name": n, "colour": c} for n, c in zip(TEAMS, ["red", "blue", "green"], strict=True)]
    setup = {"teams": teams, "start": 0, "course": [{"slope": "flat", "n": 0}] * 10}
    info, key = store.create("ekiden", "Standings", setup)
    pid = info.public_id
    at = new_app(table=pid, lang="en")
    start = standings_rows(at)
    order = engine.standings(store.snapshot(pid).state)
    assert [TEAMS[t] in row for t, row in zip(order, start[1:], strict=True)] == [True] * 3
    assert "|Team|Road|Behind|" in start[0] and "Leg" not in start[0]
    store.record(pid, key, store.snapshot(pid).seq, {"type": "situation", "leg": 1,
                                                     "marks": "o-x--"})  # fmt: skip
    for up in (3, 4, 5):
        snap = store.snapshot(pid)
        team = engine.next_runner(snap.state)
        run = {"type": "run", "team": team, "leg": 1, "runner": {"power": up, "up": up,
                                                                 "down": 2}}  # fmt: skip
        store.record(pid, key, snap.seq, run)
    state = store.snapshot(pid).state
    order = engine.standings(state)
    rank = {e.team: e for e in state.history[-1]}
    seat = store.rotate_key(pid, key, Role.seat_of(order[1]))
    at = new_app(table=pid, key=seat, lang="en")
    rows = standings_rows(at)
    assert "Standings after leg 1" in html(at) and "|Leg 1|" in rows[0]
    lead = state.places[order[0]].column
    for place, (team, row) in enumerate(zip(order, rows[1:], strict=True), start=1):
        e = rank[team]
        column = state.places[team].column
        behind = "–" if place == 1 else str(lead - column)
        cells = f"|{place}||{team + 1}| {TEAMS[team]}|" + ("you|" if place == 2 else "")
        assert row.startswith(cells), row
        road, move = f"{column:+d}" if column else "S", f"{e.move:+d}" if e.move else "±0"
        assert f"|{road}|{behind}|#{e.rank} {move}|" in row, row
    assert html(at).count('class="mine"') == 1
    referee = new_app(table=pid, key=key, lang="en")
    assert 'class="mine"' not in html(referee) and html(referee).count('aids-standings"') <= 2
    ja = standings_rows(new_app(table=pid, lang="ja"))
    assert "|チーム|列|トップ差|第1区|" in ja[0] and f"{rank[order[0]].rank}位" in ja[1]


def test_a_typed_runner_whose_name_already_ran_for_the_team_gets_a_warning(app_db: Path) -> None:
    """A runner runs once (invariant): a typed card named like one the team already ran is
    held back with a warning on the first Play (nothing written), and played on the second;
    another name is played at once."""
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
    at.button(key="run_none").click()
    at = at.run()
    assert not at.error and not at.warning  # nobody of that name has run yet
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
    at.button(key="run_none").click()
    at = at.run()
    assert store.snapshot(pid).seq == seq  # held back: nothing written
    warned = [w.value for w in at.warning]
    assert len(warned) == 1 and "already ran leg 1" in warned[0] and "Sato" not in warned[0]
    assert "ｓａｔｏ" in warned[0] and "runs only once" in warned[0]
    ja = new_app(table=pid, key=key, lang="ja")
    ja.text_input(key=f"name_{seq}").set_value("Sato")
    ja.button(key="run_none").click()
    ja = ja.run()
    assert len(ja.warning) == 1 and "第1区ですでに走っています" in ja.warning[0].value
    at.text_input(key=f"name_{seq}").set_value("Suzuki")
    at.button(key="run_none").click()
    at = at.run()
    assert not at.warning and store.snapshot(pid).seq == seq + 1  # another name: played
    assert store.snapshot(pid).log[-1].action.runner.name == "Suzuki"


def test_a_held_back_runner_is_played_on_the_second_play(app_db: Path) -> None:
    """Warned, not refused: the referee may play a card whose name already ran."""
    store = service(app_db)
    teams = [{"name": n, "colour": c} for n, c in zip(TEAMS, ["red", "blue", "green"], strict=True)]
    setup = {"teams": teams, "start": 0, "course": [{"slope": "flat", "n": 0}] * 10}
    info, key = store.create("ekiden", "Again", setup)
    pid = info.public_id
    store.record(pid, key, 0, {"type": "situation", "leg": 1, "marks": "ooooo"})
    team = engine.next_runner(store.snapshot(pid).state)
    runner = {"power": 3, "up": 1, "down": 1, "name": "Sato"}
    store.record(pid, key, 1, {"type": "run", "team": team, "leg": 1, "runner": runner})
    while (snap := store.snapshot(pid)).state.leg == 1:
        nxt = engine.next_runner(snap.state)
        run = {"type": "run", "team": nxt, "leg": 1, "runner": {"power": 3, "up": 1, "down": 1}}
        store.record(pid, key, snap.seq, run)
    store.record(
        pid, key, store.snapshot(pid).seq, {"type": "situation", "leg": 2, "marks": "-----"}
    )
    while engine.next_runner((snap := store.snapshot(pid)).state) != team:
        nxt = engine.next_runner(snap.state)
        run = {"type": "run", "team": nxt, "leg": 2, "runner": {"power": 3, "up": 1, "down": 1}}
        store.record(pid, key, snap.seq, run)
    at = new_app(table=pid, key=key, lang="en")
    seq = store.snapshot(pid).seq
    at.text_input(key=f"name_{seq}").set_value("Sato")
    at.button(key="run_none").click()
    at = at.run()
    assert at.warning and store.snapshot(pid).seq == seq
    at.button(key="run_none").click()
    at = at.run()
    assert not at.error and store.snapshot(pid).seq == seq + 1
    assert store.snapshot(pid).log[-1].action.runner.name == "Sato"


def test_a_typed_up_of_zero_is_recorded_as_zero(app_db: Path) -> None:
    """Runner card values (ekiden.md Components: up = spaces forward on ○; the engine's range
    is 0-9): an up of 0 is tapped and recorded as 0, never raised to 1."""
    store = service(app_db)
    teams = [{"name": n, "colour": c} for n, c in zip(TEAMS, ["red", "blue", "green"], strict=True)]
    setup = {"teams": teams, "start": 0, "course": [{"slope": "flat", "n": 0}] * 10}
    info, key = store.create("ekiden", "Zero", setup)
    pid = info.public_id
    store.record(pid, key, 0, {"type": "situation", "leg": 1, "marks": "ooooo"})
    at = new_app(table=pid, key=key, lang="en")
    assert at.segmented_control(key="up_1").options[0] == "0"  # offered, from the engine
    at.segmented_control(key="up_1").set_value(0)
    at.segmented_control(key="down_1").set_value(0)
    at.button(key="run_none").click()
    at = at.run()
    assert not at.error, [e.value for e in at.error]
    ran = store.snapshot(pid).state.entries[0].runner
    assert (ran.up, ran.down) == (0, 0)


def test_a_value_left_unchosen_is_refused_by_name_and_nothing_is_written(app_db: Path) -> None:
    """The page never fills in a value the referee did not choose: a row tapped off (power,
    up, down) is refused with a message naming it, and nothing is recorded."""
    store = service(app_db)
    teams = [{"name": n, "colour": c} for n, c in zip(TEAMS, ["red", "blue", "green"], strict=True)]
    setup = {"teams": teams, "start": 0, "course": [{"slope": "flat", "n": 0}] * 10}
    info, key = store.create("ekiden", "Unset", setup)
    pid = info.public_id
    store.record(pid, key, 0, {"type": "situation", "leg": 1, "marks": "ooooo"})
    for field, words in (("power", "its power"), ("up", "its up value"),
                         ("down", "its down value")):  # fmt: skip
        at = new_app(table=pid, key=key, lang="en")
        at.segmented_control(key=f"{field}_1").set_value(None)
        at.button(key="run_none").click()
        at = at.run()
        assert store.snapshot(pid).seq == 1, f"{field}: something was written"
        assert any(words in e.value and "Nothing was recorded" in e.value for e in at.error), field


def test_a_roster_runner_is_picked_then_played_and_an_unpicked_one_is_refused(
    app_db: Path,
) -> None:
    """With a roster the referee picks a runner instead of typing values (ekiden.md Scout
    stage): each option shows the power it would declare; Play without a pick is refused by
    name and writes nothing."""
    store = service(app_db)
    teams = [{"name": n, "colour": c} for n, c in zip(TEAMS, ["red", "blue", "green"], strict=True)]
    setup = {"teams": teams, "start": 0, "course": [{"slope": "up", "n": 2}] * 10}
    info, key = store.create("ekiden", "Picks", setup)
    pid = info.public_id
    cards = [{"power": 3, "up": 1, "down": 1, "skill": "uphill"}] * 10
    for team in range(3):
        store.record(pid, key, team, {"type": "roster", "team": team, "runners": cards})
    store.record(pid, key, 3, {"type": "situation", "leg": 1, "marks": "ooooo"})
    at = new_app(table=pid, key=key, lang="en")
    assert all(o.endswith("→ 5") for o in at.pills(key="pick_4").options)  # 3 + uphill 2
    at.button(key="run_go").click()
    at = at.run()
    assert store.snapshot(pid).seq == 4
    assert any("Tap the roster runner" in e.value for e in at.error)
    at.pills(key="pick_4").set_value(6)
    at.button(key="run_go").click()
    at = at.run()
    assert not at.error and store.snapshot(pid).log[-1].action.pick == 6
