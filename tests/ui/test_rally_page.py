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


def chips(at: AppTest, seq: int) -> list[str]:
    """The card chips' labels, in order (``30 km``, ``TOP SPEED``; chips of one kind are told
    apart by invisible word joiners, dropped here)."""
    return [
        o.content.replace("\u2060", "") for o in at.button_group(key=f"travel_{seq}").proto.options
    ]


def tap_cards(at: AppTest, seq: int, *cards: str) -> AppTest:
    """Tap the card chips one by one, as the referee does: each card on the next chip of
    its kind not yet tapped."""
    group = at.button_group(key=f"travel_{seq}")
    labels = chips(at, seq)
    for card in cards:
        label = "TOP SPEED" if card == "top" else f"{card} km"
        held = list(group.value or [])
        group.set_value(
            [*held, next(i for i, x in enumerate(labels) if x == label and i not in held)]
        )
        at = ok(at.run())
        group = at.button_group(key=f"travel_{seq}")
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
        # the total heads the stop list; the proposal is the reachable town nearest the goal:
        # the goal itself
        assert at.selectbox(key=f"to_{seq}_40").label.startswith("**40 km**")
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
    assert chips(at, seq).count("TOP SPEED") == 1  # at most one TOP SPEED
    assert chips(at, seq).count("30 km") == 3  # three actions: up to three cards
    at = tap_cards(at, seq, "top")
    # the engine's own reason for the cards tapped
    reason = t("errors.rally/top_alone", "en")
    assert any(reason in c.value.replace("\\", "").replace("\u2060", "") for c in at.caption)
    at.button(key="move_go").click()  # TOP SPEED alone: nothing is written
    at = ok(at.run())
    assert service(app_db).snapshot(pid).seq == seq
    at = tap_cards(at, seq, "30")
    assert at.selectbox(key=f"to_{seq}_60").label.startswith("**60 km**")


def test_an_attack_and_a_defence_through_the_page(app_db: Path) -> None:
    at = create(new_app(lang="en"))
    pid = at.query_params["table"]
    store = service(app_db)
    at.button(key="draw_go").click()
    at = ok(at.run())
    seq = store.snapshot(pid).seq
    at.button_group(key=f"card_{seq}").set_value("rain")
    at = ok(at.run())
    targets = [b for b in at.button if (b.key or "").startswith("card_go_")]
    assert len(targets) == 2  # Ben and Chie: never the player's own car
    assert "Rain" in targets[0].label and PLAYERS[1] in targets[0].label
    targets[0].click()  # the target's button plays the card: one tap
    at = ok(at.run())
    state = store.snapshot(pid).state
    assert state.rain == (False, True, False)
    seq = store.snapshot(pid).seq
    at.button_group(key=f"card_{seq}").set_value("clear_sky")
    at = ok(at.run())
    helped = [b for b in at.button if (b.key or "").startswith("card_go_")]
    assert len(helped) == 1  # only Ben has rain to clear
    helped[0].click()
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
    state = store.snapshot(pid).state
    assert state.towns[0] == "muroran"
    assert state.turn == 1  # the crossing is the whole turn: it ends with it


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
    assert chips(at, seq).count(f"{single[0]} km") == 1


def table(
    store: TableService, course: dict[str, str], steps: list[dict[str, object]]
) -> tuple[str, str]:
    """A tracking table of the three players on ``course`` after ``steps``."""
    players = [{"name": n, "colour": c, "machine": {"actions": 3, "hand": 5, "draw": 2}}
               for n, c in zip(PLAYERS, ["red", "blue", "green"], strict=True)]  # fmt: skip
    info, key = store.create("rally", "Table", {"players": players, "course": course})
    for step in steps:
        store.record(info.public_id, key, store.snapshot(info.public_id).seq, step)
    return info.public_id, key


UTSUNOMIYA = [  # Tokyo → Sapporo: Aki drives 110 km to Utsunomiya; Ben and Chie pass
    {"type": "draw", "seat": 0},
    {"type": "travel", "seat": 0, "cards": ["20", "40", "50"], "to": "utsunomiya"},
    {"type": "end_turn", "seat": 0},
    *({"type": t_, "seat": s} for s in (1, 2) for t_ in ("draw", "end_turn")),
    {"type": "draw", "seat": 0},
]


def test_stop_list_never_proposes_staying_put_and_staying_is_an_explicit_choice(
    app_db: Path,
) -> None:
    """Ruling "the tracker proposes the reachable town nearest the goal": 40 + 30 km from
    Utsunomiya reach only Mito (farther from Sapporo). No stop is proposed, the page names the
    town needed, Move writes nothing until the referee chooses; staying is then recorded."""
    store = service(app_db)
    pid, key = table(store, {"start": "tokyo", "goal": "sapporo"}, UTSUNOMIYA)
    at = ok(new_app(table=pid, key=key, lang="en"))
    seq = store.snapshot(pid).seq
    at = tap_cards(at, seq, "40", "30")
    stops = at.selectbox(key=f"to_{seq}_70")
    assert stops.value is None and stops.options[0].startswith("Utsunomiya (stay) · 0 km")
    assert any("Shirakawa needs 75 km" in w.value for w in at.warning)
    at.button(key="move_end").click()
    at = ok(at.run())
    assert store.snapshot(pid).seq == seq  # nothing written: no stop chosen
    at.selectbox(key=f"to_{seq}_70").set_value("utsunomiya")
    at.button(key="move_go").click()
    at = ok(at.run())
    state = store.snapshot(pid).state
    assert state.towns[0] == "utsunomiya" and state.current.cards == ("30", "40")


def test_end_turn_never_drops_staged_travel_cards(app_db: Path) -> None:
    """One movement per turn, made of the cards tapped: End turn with 90 km tapped and not
    moved writes nothing — tapped before the page redraws (both taps reach the server in one
    run), or after, when the button is off and says why."""
    store = service(app_db)
    pid, key = table(store, {"start": "tokyo", "goal": "sapporo"}, [{"type": "draw", "seat": 0}])
    at = ok(new_app(table=pid, key=key, lang="en"))
    seq = store.snapshot(pid).seq
    labels = chips(at, seq)
    at.button_group(key=f"travel_{seq}").set_value([labels.index("40 km"), labels.index("50 km")])
    at.button(key="end_turn").click()  # the quick tap, before the redraw
    at = ok(at.run())
    assert store.snapshot(pid).seq == seq and store.snapshot(pid).state.turn == 0
    assert at.button(key="end_turn").disabled
    assert any("90 km staged" in c.value for c in at.caption)
    at.button(key=f"clear_{seq}").click()
    at = ok(at.run())
    at.button(key="end_turn").click()
    ok(at.run())
    assert store.snapshot(pid).state.turn == 1  # cleared: the turn ends without a move


def test_move_and_end_turn_is_one_tap(app_db: Path) -> None:
    store = service(app_db)
    pid, key = table(store, {"start": "tokyo", "goal": "sapporo"}, [{"type": "draw", "seat": 0}])
    at = ok(new_app(table=pid, key=key, lang="en"))
    at = tap_cards(at, store.snapshot(pid).seq, "30")
    at.button(key="move_end").click()
    ok(at.run())
    state = store.snapshot(pid).state
    assert state.towns[0] == "omiya" and state.turn == 1 and state.phase == "draw"


def test_a_jammed_stop_is_marked_with_what_stopping_there_means(app_db: Path) -> None:
    """Ruling: every car at a jammed town is stuck (Chie jammed Ben at Nihonmatsu)."""
    steps: list[dict[str, object]] = [
        {"type": "draw", "seat": 0}, {"type": "end_turn", "seat": 0},
        {"type": "draw", "seat": 1},
        {"type": "travel", "seat": 1, "cards": ["20"], "to": "nihonmatsu"},
        {"type": "end_turn", "seat": 1},
        {"type": "draw", "seat": 2}, {"type": "attack", "seat": 2, "card": "jam", "target": 1},
        {"type": "end_turn", "seat": 2}, {"type": "draw", "seat": 0},
    ]  # fmt: skip
    store = service(app_db)
    pid, key = table(store, {"start": "koriyama", "goal": "aomori"}, steps)
    at = ok(new_app(table=pid, key=key, lang="en"))
    seq = store.snapshot(pid).seq
    at = tap_cards(at, seq, "20")
    stops = at.selectbox(key=f"to_{seq}_20")
    assert stops.value == "motomiya"  # short of the jam
    jammed = [o for o in stops.options if "Nihonmatsu" in o]
    assert jammed and jammed[0].startswith("🚧") and "stuck there" in jammed[0]
    stops.set_value("nihonmatsu")
    at = ok(at.run())
    assert any("stuck there until" in c.value for c in at.caption)


def test_a_turn_missed_to_police_is_said_in_the_action_area(app_db: Path) -> None:
    """Police: the target misses its next 2 turns; the page says so when one is skipped."""
    steps: list[dict[str, object]] = [
        {"type": "draw", "seat": 0}, {"type": "attack", "seat": 0, "card": "police", "target": 1},
        {"type": "end_turn", "seat": 0},
    ]  # fmt: skip
    store = service(app_db)
    pid, key = table(store, {"start": "tokyo", "goal": "sapporo"}, steps)
    at = ok(new_app(table=pid, key=key, lang="en"))
    assert store.snapshot(pid).state.turn == 2
    assert any("Ben missed a turn (police): 1 more to miss" in i.value for i in at.info)


def test_the_first_car_home_wins_and_a_banner_says_so_at_once(app_db: Path) -> None:
    """Individual play: the first to reach the goal wins; the others race on for places."""
    steps: list[dict[str, object]] = [
        {"type": "draw", "seat": 0},
        {"type": "travel", "seat": 0, "cards": ["20", "20"], "to": "fukushima-nishi"},
    ]
    store = service(app_db)
    pid, key = table(store, {"start": "koriyama", "goal": "fukushima-nishi"}, steps)
    assert store.snapshot(pid).outcome is None  # the race goes on
    page = html(ok(new_app(table=pid, key=key, lang="en")))
    assert "Winner: 🔴 あき, first to reach Fukushima-Nishi" in page
    viewer = html(ok(new_app(table=pid, lang="ja")))
    assert "勝者：🔴 あき" in viewer
