"""The tracker page driven by Streamlit's AppTest against a real SQLite file."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from aids.games.derby import engine
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from aids.ui.derby.page import standing_rows
from aids.ui.standings import NUM
from tests.games.derby.helpers import FENCE1, ROWS, bet, fill_fence, play, tracking
from tests.games.derby.test_full_race import RACE
from tests.ui.conftest import new_app, open_sections, page_html


def create_table(at: AppTest, title: str, players: list[str]) -> AppTest:
    at.text_input(key="new_title").set_value(title)
    for i, name in enumerate(players):
        at.text_input(key=f"new_player_{i}").set_value(name)
    next(b for b in at.button if b.label in ("テーブルを作成", "Create table")).click()
    return at.run()


def seq_of(at: AppTest, db: Path) -> int:
    pid = at.query_params["table"]
    return TableService(SqliteStore(db), engines()).snapshot(pid).seq


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click()
    return at.run()


def banner(at: AppTest) -> str:
    """The status line (drawn as text in HTML, so names stay text)."""
    return " ".join(h.proto.body for h in at.html if "aids-banner" in h.proto.body)


def test_home_lists_no_tables_in_japanese_by_default(app_db: Path) -> None:
    at = new_app()
    assert not at.exception
    assert at.title[0].value == "レースナイト卓上ツール"
    at = new_app(lang="en")
    assert at.title[0].value == "Race-night table aids"


def test_create_table_refuses_one_player_with_message(app_db: Path) -> None:
    at = create_table(new_app(lang="en"), "Solo", ["Aki"])
    assert any("2–5 players" in e.value for e in at.error)
    assert TableService(SqliteStore(app_db), engines()).list_tables() == []


def test_create_and_record_a_whole_race(app_db: Path) -> None:
    at = create_table(new_app(lang="en"), "Friday", ["A", "B", "C"])
    assert not at.exception
    assert "key" in at.query_params and "table" in at.query_params
    pid = at.query_params["table"]
    service = TableService(SqliteStore(app_db), engines())
    for horse_bet, horse, code in RACE:
        seq = seq_of(at, app_db)
        if horse_bet:
            at.pills(key=f"bet_horse_{seq}").set_value(ROWS.index(horse_bet)).run()
            at = click(at, "bet_go")
            seq += 1
        row = ROWS.index(horse)
        at.pills(key=f"play_horse_{seq}").set_value(row).run()
        colour, value = code.split()
        at.pills(key=f"play_card_{seq}_{row}").set_value(f"{colour}:{value}").run()
        at = click(at, "play_go")
        assert not at.error, [e.value for e in at.error]
    state = service.snapshot(pid).state
    assert state.ended == "fence5"
    assert engine.scores(state) == (7, 7, 0)
    assert "Race over" in banner(at)
    assert state == service.replay(pid)


def test_undo_redo_buttons(app_db: Path) -> None:
    at = create_table(new_app(lang="en"), "Undo", ["A", "B"])
    pid = at.query_params["table"]
    at.pills(key="play_horse_0").set_value(0).run()
    at.pills(key="play_card_0_0").set_value("red:3").run()
    at = click(at, "play_go")
    service = TableService(SqliteStore(app_db), engines())
    assert service.snapshot(pid).state.turn == 1
    at = click(at, "undo")
    assert service.snapshot(pid).state.turn == 0
    at = click(at, "redo")
    assert service.snapshot(pid).state.turn == 1
    assert [e.kind for e in service.snapshot(pid).log] == ["action", "undo", "redo"]


def test_offered_choices_are_only_legal_ones(app_db: Path) -> None:
    at = create_table(new_app(lang="en"), "Legal", ["A", "B"])
    at.pills(key="play_horse_0").set_value(0).run()
    options = at.pills(key="play_card_0_0").options
    assert len(options) == 20  # ten red and ten black
    at.pills(key="play_card_0_0").set_value("red:3").run()
    at = click(at, "play_go")
    at.pills(key="play_horse_1").set_value(0).run()
    assert len(at.pills(key="play_card_1_0").options) == 19  # red 3 is gone
    assert not any(b.key == "pass_go" for b in at.button)  # no pass before a fall


def test_stale_write_shows_message_in_chosen_language(app_db: Path) -> None:
    at = create_table(new_app(lang="ja"), "Stale", ["A", "B"])
    pid, key = at.query_params["table"], at.query_params["key"]
    at.pills(key="play_horse_0").set_value(0).run()
    at.pills(key="play_card_0_0").set_value("red:3").run()
    # another device records first
    TableService(SqliteStore(app_db), engines()).record(
        pid, key, 0, {"type": "play", "player": 0, "horse": 1, "card": "blue:2"}
    )
    at = click(at, "play_go")
    assert any("先に別の端末" in w.value for w in at.warning)
    assert TableService(SqliteStore(app_db), engines()).snapshot(pid).seq == 1


def test_viewer_shows_no_controls_and_cannot_write(app_db: Path) -> None:
    at = create_table(new_app(lang="en"), "View", ["A", "B"])
    pid, key = at.query_params["table"], at.query_params["key"]
    service = TableService(SqliteStore(app_db), engines())
    service.record(pid, key, 0, {"type": "bet", "player": 0, "horse": 2})
    viewer = open_sections(new_app(table=pid, lang="en"))
    assert not viewer.exception
    assert len(viewer.button) == 0 and len(viewer.pills) == 0
    assert any("Scores if the race ended now" in h.proto.body for h in viewer.html)
    for key in ("guess", "", " "):  # an empty or wrong key is the viewer, with no controls
        wrong = open_sections(new_app(table=pid, key=key, lang="en"))
        assert len(wrong.pills) == 0 and len(wrong.button) == 0
        assert not any(d.label == "Export table (JSON)" for d in wrong.get("download_button"))
    assert any("not valid" in e.value for e in new_app(table=pid, key="guess", lang="en").error)


def test_refresh_loses_nothing(app_db: Path) -> None:
    at = create_table(new_app(lang="en"), "Refresh", ["A", "B"])
    pid, key = at.query_params["table"], at.query_params["key"]
    at.pills(key="bet_horse_0").set_value(4).run()
    at = click(at, "bet_go")
    fresh = new_app(table=pid, key=key, lang="en")  # a new session, as after F5
    assert fresh.pills(key="play_horse_1") is not None
    assert TableService(SqliteStore(app_db), engines()).snapshot(pid).state.counters[0].horse == 4


def test_print_page_offers_blank_sheets_in_both_languages(app_db: Path) -> None:
    def page() -> None:
        from aids.ui import print_page

        print_page.render()

    at = AppTest.from_function(page, default_timeout=60)
    at.query_params["lang"] = "en"
    at.run()
    assert not at.exception
    labels = [b.label for b in at.get("download_button")]
    assert any("日本語" in label for label in labels) and any(
        "English" in label for label in labels
    )
    assert sum("side by side" in label for label in labels) == 4  # a cards button per game
    at.toggle(key="cards_duplex").set_value(True).run()  # double-sided rule cards
    labels = [b.label for b in at.get("download_button")]
    assert sum("en on the back" in label for label in labels) == 4
    assert not any("side by side" in label for label in labels)


def test_rulings_are_shown_to_the_referee(app_db: Path) -> None:
    at = create_table(new_app(lang="en"), "Rulings", ["A", "B"])
    assert any(e.label.startswith("How this program reads the rules") for e in at.expander)
    assert any("One counter per slot" in h.proto.body for h in at.html)


def test_pass_and_no_cards_left_buttons(app_db: Path) -> None:
    at = create_table(new_app(lang="en"), "Late race", ["A", "B"])
    pid, key = at.query_params["table"], at.query_params["key"]
    service = TableService(SqliteStore(app_db), engines())
    assert not any(b.key == "pass_go" for b in at.button)
    values = [5, 6, 7, 8, 9, 4, 3, 2]  # purple (2) falls at fence 1
    for seq, (colour, value) in enumerate(zip(ROWS, values, strict=True)):
        turn = service.snapshot(pid).state.turn
        play = {"type": "play", "player": turn, "horse": seq, "card": f"{colour}:{value}"}
        service.record(pid, key, seq, play)
    at = new_app(table=pid, key=key, lang="en")
    at = click(at, "pass_go")
    assert service.snapshot(pid).log[-1].action.to_dict()["type"] == "pass"
    at = click(at, "no_cards_go")  # the tracker still counts cards: refused, nothing stored
    assert service.snapshot(pid).state.ended is None
    assert any("still counts" in e.value for e in at.error)
    seq = service.snapshot(pid).seq
    at.checkbox(key=f"no_cards_confirm_{seq}").check()
    at = click(at.run(), "no_cards_go")
    state = service.snapshot(pid).state
    assert state.ended == "no_cards" and len(engine.finishers(state)) == 7
    assert service.snapshot(pid).log[-1].action.confirm is True
    assert "Race over" in banner(at)
    assert not any(b.key == "play_go" for b in at.button)  # nothing more to record


def test_standings_rank_by_points_if_the_race_ended_now_ties_share_a_place() -> None:
    """Issue 19 "At the table", standings: the players by their score if the race ended now
    (engine.scores), equal totals sharing a place (derby rulings: equal totals share the
    win), each with their counter mark, points and counters left."""
    state = tracking(3)
    state = bet(state, "red")  # A: a counter on red at fence 1 (4 points if it finishes)
    state = play(state, "red", "red 5")
    state = bet(state, "blue")  # B: blue, 4 points
    state = fill_fence(state, {h: v for h, v in FENCE1.items() if h != "red"})
    assert engine.scores(state) == (4, 4, 0)
    rows = standing_rows(state)
    assert [(r.place, r.seat) for r in rows] == [(1, 0), (1, 1), (3, 2)]
    assert rows[0].cells[1:] == (f"{NUM}4", f"{NUM}{state.counters_left(0)}")
    assert rows[0].cells[0].endswith(" A") and rows[2].cells[0].endswith(" C")


def test_the_standings_are_drawn_once_and_the_board_holds_no_score_list(app_db: Path) -> None:
    """Issue 19 "At the table": the scores move from under the board into the frame's
    standings (one table, the players best first); a name typed with markup stays text."""
    at = create_table(new_app(lang="en"), "Standings", ["<b>Aki</b>", "Ben"])
    pid, key = at.query_params["table"], at.query_params["key"]
    service = TableService(SqliteStore(app_db), engines())
    service.record(pid, key, 0, {"type": "bet", "player": 0, "horse": 2})
    for viewer in (new_app(table=pid, key=key, lang="en"), new_app(table=pid, lang="en")):
        assert not viewer.exception
        html = page_html(viewer)
        assert "<ul class='aids-scores'>" not in html  # the old list under the board
        assert html.count('class="aids-standings"') == 1
        assert "Counters left" in html and "Scores if the race ended now" in html
        assert "&lt;b&gt;Aki&lt;/b&gt;" in html and "<b>Aki</b>" not in html
