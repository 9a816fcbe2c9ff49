"""The Grand National page's traps (issue 19), under AppTest on a real SQLite file: each test
names the rule the page must not let a referee get wrong without being told.

The field (``tests/games/grand_national/helpers.py``) on the sample track (fences 5, 10, 15, …):
0 Red Rum (+6), 4 Corbiere (+5), 8 Amberleigh (+6) are the red caps; lanes spun from Red.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from aids.core.i18n import t
from aids.games.base import Role
from aids.games.grand_national import engine
from aids.games.grand_national.model import Card, Move
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.games.grand_national.helpers import setup
from tests.ui.conftest import new_app, ok
from tests.ui.conftest import page_html as html

JAPANESE = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]+")


def race_table(app_db: Path) -> tuple[TableService, str, str]:
    """The helpers' field, no blind bets, the going good, lanes from Red, started."""
    store = TableService(SqliteStore(app_db), engines())
    info, key = store.create("gn", "Traps", setup().to_dict())
    pid = info.public_id
    steps: list[dict[str, Any]] = [
        {"type": "blind_bet", "seat": s, "horse": None, "kind": None, "stake": 0} for s in range(3)
    ]  # the referee records "no blind bet" for each (gn.rulings.no_blind_bet)
    steps += [{"type": "going", "going": "good"}]
    steps += [{"type": "lane_spin", "lane": lane, "colour": "red"} for lane in range(1, 5)]
    steps += [{"type": "start"}]
    for step in steps:
        store.record(pid, key, store.snapshot(pid).seq, step)
    return store, pid, key


def record(store: TableService, pid: str, key: str, action: Any) -> None:
    store.record(pid, key, store.snapshot(pid).seq, action.to_dict())


def plain(text: str) -> str:
    """Markdown text as read (``md_text`` escapes punctuation with backslashes)."""
    return text.replace("\\", "")


def keys(at: Any, prefix: str) -> list[str]:
    return [b.key for b in at.button if b.key and b.key.startswith(prefix)]


def test_one_horse_per_square_the_page_offers_only_free_squares_and_says_why(
    app_db: Path,
) -> None:
    store, pid, key = race_table(app_db)
    record(store, pid, key, Move(0, 13, 1))  # Red Rum on 13 in lane 1
    referee = ok(new_app(table=pid, key=key, lang="en"))
    seq = store.snapshot(pid).seq
    lane1 = keys(referee, f"mv_{seq}_1_")
    assert f"mv_{seq}_1_12" in lane1 and f"mv_{seq}_1_13" not in lane1  # Corbiere: not onto it
    captions = plain(" ".join(c.value for c in referee.caption))
    assert "Not offered: 13: 🔴 Red Rum is there" in captions
    referee.button(key=f"mv_{seq}_2_12").click()  # round it in lane 2: 12 on + 1 sideways
    ok(referee.run())
    assert store.snapshot(pid).log[-1].action == Move(4, 12, 2)


def test_no_jumping_a_horse_a_typed_move_through_it_is_flagged_before_it_is_recorded(
    app_db: Path,
) -> None:
    store, pid, key = race_table(app_db)
    record(store, pid, key, Move(0, 8, 1))
    referee = ok(new_app(table=pid, key=key, lang="en"))
    seq = store.snapshot(pid).seq
    referee.number_input(key=f"mf_{seq}").set_value(11)
    referee = ok(referee.run())
    assert any("🔴 Red Rum is in the way" in plain(w.value) for w in referee.warning)
    referee.button(key="move_go").click()  # the board is the truth: recorded, then flagged
    referee = ok(referee.run())
    assert store.snapshot(pid).log[-1].action == Move(4, 11, 1)


def test_two_horses_on_one_square_are_flagged(app_db: Path) -> None:
    store, pid, key = race_table(app_db)
    record(store, pid, key, Move(0, 13, 1))
    record(store, pid, key, Move(4, 13, 1))  # typed past the warning, say
    referee = ok(new_app(table=pid, key=key, lang="en"))
    flagged = [plain(w.value) for w in referee.warning if "Two horses on one" in w.value]
    assert flagged and "13, lane 1: 🔴 Red Rum · 🔵 Corbiere" in flagged[0]


def test_a_jump_card_is_said_and_aimed_at_the_horse_that_drew_it_even_while_a_spin_is_due(
    app_db: Path,
) -> None:
    store, pid, key = race_table(app_db)
    while True:  # the first turn, the last horse (Chie's blue cap, 11) onto the fence at 10
        state = store.snapshot(pid).state
        horse = engine.next_horse(state)
        assert horse is not None
        if horse == 11:
            break
        record(store, pid, key, Move(horse, state.handicap[horse] + 1, state.lane[horse]))
    record(store, pid, key, Move(11, 10, 4))
    assert engine.needs_spin(store.snapshot(pid).state)
    referee = ok(new_app(table=pid, key=key, lang="en"))
    seq = store.snapshot(pid).seq
    assert any(
        "🟢 Numbersixvalverde draws a Jump card" in plain(m.value) for m in referee.markdown
    ), "the note waits for the spin"
    # the card due is the drawing horse's: no horse to pick (the leader was the old default)
    assert not [b for b in referee.selectbox if b.key == f"ch_{seq}"]
    assert keys(referee, f"spin_{seq}_")  # and the spinner below it
    referee.button(key="card_fall").click()
    ok(referee.run())
    assert store.snapshot(pid).log[-1].action == Card(11, "fall")


def test_a_card_advance_into_a_horse_is_recorded_blocked_where_the_squares_stop_it(
    app_db: Path,
) -> None:
    store, pid, key = race_table(app_db)
    record(store, pid, key, Move(0, 13, 1))
    record(store, pid, key, Move(4, 10, 1))  # Corbiere onto the fence at 10: a Jump card
    referee = ok(new_app(table=pid, key=key, lang="en"))
    seq = store.snapshot(pid).seq
    assert not [b for b in referee.selectbox if b.key == f"ch_{seq}"]  # Corbiere's card
    assert any("🔵 Corbiere has 2 free lengths ahead" in plain(c.value) for c in referee.caption)
    referee.number_input(key=f"cv_{seq}").set_value(3)  # "advance 3 lengths"
    referee.button(key="card_advance").click()
    ok(referee.run())
    snap = store.snapshot(pid)
    assert snap.log[-1].action == Card(4, "advance", 3, moved=2)  # blocked: burns 1
    assert snap.state.distance[4] == 12 and snap.state.used[4] == 5 + 1  # the move's 5, +1


def test_ruling_the_referee_records_no_blind_bet_for_a_seat_and_never_sees_a_bet(
    app_db: Path,
) -> None:
    store = TableService(SqliteStore(app_db), engines())
    info, key = store.create("gn", "Blind", setup().to_dict())
    pid = info.public_id
    aki = store.rotate_key(pid, key, Role.seat_of(0))
    bet = {"type": "blind_bet", "seat": 0, "horse": 11, "kind": "show", "stake": 7300}
    store.record(pid, aki, store.snapshot(pid).seq, bet)
    referee = ok(new_app(table=pid, key=key, lang="en"))
    assert keys(referee, "blind_none_") == ["blind_none_1", "blind_none_2"]  # not Aki's
    assert "7,300" not in html(referee) and "7300" not in html(referee)
    assert not [b for b in referee.button if b.key == "blind_go"]  # no bet for a seat
    for seat in (1, 2):
        referee.button(key=f"blind_none_{seat}").click()
        referee = ok(referee.run())
    assert store.snapshot(pid).state.phase == "going"  # the race need not wait


def test_an_english_page_of_a_table_made_on_the_japanese_form_is_english(app_db: Path) -> None:
    """Untyped horse names were the stable's name and the cap's colour in the form's
    language ("あき 赤帽") and stayed Japanese on English pages; now the cap's number."""
    at = new_app(lang="ja")
    at.selectbox(key="new_game").set_value("gn").run()
    at.text_input(key="new_title").set_value("Night")
    for i, name in enumerate(["Aki", "Ben"]):
        at.text_input(key=f"gn_stable_{i}").set_value(name)
    next(b for b in at.button if b.label == t("table.create", "ja")).click()
    at = ok(at.run())
    pid = at.query_params["table"]
    store = TableService(SqliteStore(app_db), engines())
    state = store.snapshot(pid).state
    assert [h.name for h in state.setup.stables[0].horses] == ["Aki 1", "Aki 2", "Aki 3", "Aki 4"]
    page = ok(new_app(table=pid, lang="en"))
    shown = "\n".join(
        [html(page), *(m.value for m in page.markdown), *(c.value for c in page.caption)]
    )
    assert set(JAPANESE.findall(shown)) <= {"日本語"}  # the language switch names itself
