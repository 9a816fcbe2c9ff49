"""The rally page under AppTest on a real SQLite file: create a table through the home page,
drive a short course through the page (draw, card chips, destination, arrival), play an attack
and a defence, take the ferry, and read the map and standings."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from aids.core.i18n import t
from aids.games.base import REFEREE, VIEWER, Role
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.ui.conftest import new_app, ok
from tests.ui.conftest import page_html as html

PLAYERS = ["あき", "Ben", "ちえ"]


def service(db: Path) -> TableService:
    return TableService(SqliteStore(db), engines())


def create(
    at: AppTest, *, start: str = "koriyama", goal: str = "fukushima-nishi", lang: str = "en"
) -> AppTest:
    at.selectbox(key="new_game").set_value("rally").run()
    at.text_input(key="new_title").set_value("Rally night")
    for i, name in enumerate(PLAYERS):
        at.text_input(key=f"ra_player_{i}").set_value(name)
    at.selectbox(key="ra_course").set_value("")
    at.selectbox(key="ra_start").set_value(start)
    at.selectbox(key="ra_goal").set_value(goal)
    next(b for b in at.button if b.label == t("table.create", lang)).click()
    return ok(at.run())


def tap_cards(at: AppTest, seq: int, *cards: str, held: int = 0) -> AppTest:
    """Tap the card chips one by one, as the referee does (``held`` already tapped)."""
    for i, card in enumerate(cards, start=held):
        at.button_group(key=f"chip_{seq}_{i}").set_value(card)
        at = ok(at.run())
    return at


def test_create_a_rally_table_from_the_home_page(app_db: Path) -> None:
    at = create(new_app(lang="en"))
    state = service(app_db).snapshot(at.query_params["table"]).state
    assert [p.name for p in state.setup.players] == PLAYERS
    assert (state.setup.start, state.setup.goal) == ("koriyama", "fukushima-nishi")
    assert state.setup.players[0].machine.text() == "3 / 5 / 2"
    assert state.setup.board.sample and not state.setup.teams
    assert "data:image/svg+xml" in html(at)  # the map, drawn offline


def test_a_whole_short_course_through_the_page(app_db: Path) -> None:
    """Koriyama → Fukushima-Nishi (40 km): each car draws, taps 20 + 20 and arrives."""
    at = create(new_app(lang="en"))
    pid = at.query_params["table"]
    store = service(app_db)
    for seat in range(3):
        at.button(key="draw_go").click()
        at = ok(at.run())
        seq = store.snapshot(pid).seq
        at = tap_cards(at, seq, "20", "20")
        assert any("= **40 km**" in m.value for m in at.markdown)
        # the proposal is the reachable town nearest the goal: the goal itself
        assert at.selectbox(key=f"to_{seq}_40").value == "fukushima-nishi"
        at.button(key="move_go").click()
        at = ok(at.run())
        assert store.snapshot(pid).state.arrived[-1] == seat
    final = store.snapshot(pid, REFEREE)
    assert final.outcome is not None and final.outcome.ranking == ((0,), (1,), (2,))
    assert final.state == store.replay(pid)
    assert "Winner" in html(at) or any("Winner" in m.value for m in at.markdown)


def test_the_chips_offer_only_a_legal_movement(app_db: Path) -> None:
    at = create(new_app(lang="en"))
    pid = at.query_params["table"]
    at.button(key="draw_go").click()
    at = ok(at.run())
    seq = service(app_db).snapshot(pid).seq
    at = tap_cards(at, seq, "top")
    assert any("TOP SPEED" in c.value and "legal" in c.value for c in at.caption)
    assert not [b for b in at.button if b.key == "move_go"]  # TOP SPEED alone: no move
    at = tap_cards(at, seq, "30", held=1)
    assert any("= **60 km**" in m.value for m in at.markdown)
    chips = at.button_group(key=f"chip_{seq}_2")
    assert "top" not in chips.options  # at most one TOP SPEED


def test_an_attack_and_a_defence_through_the_page(app_db: Path) -> None:
    at = create(new_app(lang="en"))
    pid = at.query_params["table"]
    store = service(app_db)
    at.button(key="draw_go").click()
    at = ok(at.run())
    seq = store.snapshot(pid).seq
    at.button_group(key=f"card_{seq}").set_value("rain")
    at = ok(at.run())
    target = at.button_group(key=f"target_{seq}_rain")
    assert len(target.options) == 2  # Ben and Chie: never the player's own car
    target.set_value(0)
    at = ok(at.run())
    at.button(key="card_go").click()
    at = ok(at.run())
    state = store.snapshot(pid).state
    assert state.rain == (False, True, False)
    seq = store.snapshot(pid).seq
    at.button_group(key=f"card_{seq}").set_value("clear_sky")
    at = ok(at.run())
    helped = at.button_group(key=f"target_{seq}_clear_sky")
    assert len(helped.options) == 1  # only Ben has rain to clear
    helped.set_value(0)
    at = ok(at.run())
    at.button(key="card_go").click()
    at = ok(at.run())
    assert not any(store.snapshot(pid).state.rain)


def test_the_ferry_is_offered_at_a_port_and_taken(app_db: Path) -> None:
    store = service(app_db)
    players = [{"name": n, "colour": c, "machine": {"actions": 3, "hand": 5, "draw": 2}}
               for n, c in zip(PLAYERS, ["red", "blue", "green"], strict=True)]  # fmt: skip
    info, key = store.create(
        "rally", "Ferry", {"players": players, "course": {"start": "aomori", "goal": "sapporo"}}
    )
    pid = info.public_id
    at = ok(new_app(table=pid, key=key, lang="en"))
    assert any("ferry" in c.value for c in at.caption)
    at.button(key="draw_go").click()
    at = ok(at.run())
    at.button(key="ferry_muroran").click()
    at = ok(at.run())
    assert store.snapshot(pid).state.towns[0] == "muroran"
    assert any("Crossed by ferry" in c.value for c in at.caption)


def test_a_seat_enters_its_own_turn_and_waits_for_others(app_db: Path) -> None:
    store = service(app_db)
    players = [{"name": n, "colour": c, "machine": {"actions": 3, "hand": 5, "draw": 2}}
               for n, c in zip(PLAYERS, ["red", "blue", "green"], strict=True)]  # fmt: skip
    info, key = store.create("rally", "Seats", {"players": players})
    pid = info.public_id
    ben = store.rotate_key(pid, key, Role.seat_of(1))
    aki = store.rotate_key(pid, key, Role.seat_of(0))
    waiting = ok(new_app(table=pid, key=ben, lang="en"))
    assert not [b for b in waiting.button if b.key == "draw_go"]
    assert any("Waiting for" in c.value for c in waiting.caption)
    own = ok(new_app(table=pid, key=aki, lang="en"))
    own.button(key="draw_go").click()
    ok(own.run())
    assert store.snapshot(pid, VIEWER).state.phase == "act"


def test_the_viewer_sees_the_map_and_standings_in_japanese(app_db: Path) -> None:
    at = create(new_app(lang="ja"), lang="ja")
    pid = at.query_params["table"]
    viewer = ok(new_app(table=pid, lang="ja"))
    page = html(viewer)
    assert "data:image/svg+xml" in page and "郡山" in page
    assert "ゴールまで" in page
    assert not [b for b in viewer.button if b.key in ("draw_go", "move_go")]


def test_a_machine_preset_is_saved_and_used_for_the_next_table(app_db: Path) -> None:
    at = new_app(lang="en")
    at.selectbox(key="new_game").set_value("rally").run()
    at.text_input(key="preset_name").set_value("Red Fox")
    at.number_input(key="preset_actions").set_value(4)
    at.number_input(key="preset_hand").set_value(6)
    at.number_input(key="preset_draw").set_value(3)
    at.button(key="preset_go").click()
    at = ok(at.run())
    assert (app_db.parent / "rally_presets.json").exists()
    assert at.selectbox(key="rally_preset").value == "own-red fox"
    at = create(at)
    state = service(app_db).snapshot(at.query_params["table"]).state
    assert {p.machine.text() for p in state.setup.players} == {"4 / 6 / 3"}
    again = new_app(lang="en")  # a new browser tab still offers it
    again.selectbox(key="new_game").set_value("rally").run()
    assert "Red Fox" in again.selectbox(key="rally_preset").options


def test_a_preset_with_no_name_is_refused_with_the_field_named(app_db: Path) -> None:
    at = new_app(lang="en")
    at.selectbox(key="new_game").set_value("rally").run()
    at.button(key="preset_go").click()
    at = at.run()
    assert any("preset" in e.value for e in at.error)
    assert not (app_db.parent / "rally_presets.json").exists()


def test_the_chips_never_offer_a_card_the_hand_no_longer_holds(app_db: Path) -> None:
    store = service(app_db)
    players = [{"name": n, "colour": c, "machine": {"actions": 3, "hand": 5, "draw": 2}}
               for n, c in zip(PLAYERS, ["red", "blue", "green"], strict=True)]  # fmt: skip
    for seed in range(40):  # a deal whose hand holds exactly one of some distance card
        info, key = store.create("rally", f"Sim {seed}", {
            "players": players, "mode": "simulation", "seed": seed})  # fmt: skip
        pid = info.public_id
        store.record(pid, key, 0, {"type": "draw", "seat": 0})
        hand = store.snapshot(pid, REFEREE).state.hands[0]
        single = [c for c in ("20", "25", "30", "40", "50") if hand.count(c) == 1]
        if single:
            break
    at = ok(new_app(table=pid, key=key, lang="en"))
    seq = store.snapshot(pid).seq
    at = tap_cards(at, seq, single[0])
    assert single[0] not in at.button_group(key=f"chip_{seq}_1").options
