"""The Grand National page under AppTest on a real SQLite file: create a table from the home
page, then a short race through the pages — blind bets on each player's own link (sealed from
the referee's page), the going and lane spins, a bet and the bookmaker's odds, the start, every
move to the finish — and the settled money."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from aids.core.i18n import t
from aids.games.base import REFEREE, Role
from aids.games.grand_national import engine, lanes
from aids.games.grand_national.deal import slot_choices
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.ui.conftest import new_app, ok, open_sections
from tests.ui.conftest import page_html as html

STABLES = [("あき", "red"), ("Ben", "blue"), ("Chie", "green")]
# A short track: a lap of 12 lengths, so a race of 24 lengths is run in a few rounds.
SHORT = {
    "track": {"name_en": "Short test track", "name_ja": "短い試験コース", "lap": 12, "lanes": 6},
    "landmarks": {"fences": [3, 6, 9], "bechers": 6, "water": 10, "melling_road": 8,
                  "elbow": 11, "horseshoes": [4, 11]},
}  # fmt: skip


def service(db: Path) -> TableService:
    return TableService(SqliteStore(db), engines())


def short_table(store: TableService, seated: list[tuple[str, str]] = STABLES) -> tuple[str, str]:
    prices = (60000, 40000, 20000, 30000)
    stables = [
        {"name": n, "colour": c, "horses": [
            {"name": f"{n} {i + 1}", "price": prices[i], "handicap": 3} for i in range(4)]}
        for n, c in seated
    ]  # fmt: skip
    info, key = store.create("gn", "Short GN", {"stables": stables, "bookmaker": 2,
                                                 "track": SHORT})  # fmt: skip
    return info.public_id, key


def test_create_a_grand_national_table_from_the_home_page(app_db: Path) -> None:
    at = new_app(lang="en")
    at.selectbox(key="new_game").set_value("gn").run()
    at.text_input(key="new_title").set_value("Aintree night")
    for i, (name, _) in enumerate(STABLES):
        at.text_input(key=f"gn_stable_{i}").set_value(name)
    next(b for b in at.button if b.label == t("table.create", "en")).click()
    at = ok(at.run())
    state = service(app_db).snapshot(at.query_params["table"]).state
    assert [s.name for s in state.setup.stables] == ["あき", "Ben", "Chie"]
    assert engine.cash(state, 0) == 250000 - sum(c.preset[0] for c in slot_choices())
    assert "Blind bets" in html(at) or any("Blind bets" in m.value for m in at.markdown)


def seat_page(store: TableService, pid: str, key: str, seat: int) -> AppTest:
    return ok(new_app(table=pid, key=store.rotate_key(pid, key, Role.seat_of(seat)), lang="en"))


def tap(at: AppTest, key: str, value: Any) -> AppTest:
    at.button_group(key=key).set_value(value)
    return ok(at.run())


def farthest(state: Any, horse: int) -> Any:
    """The landing the page offers that goes farthest (its own lane first on a tie)."""
    offers = lanes.landings(state, horse)
    return max(offers, key=lambda x: (x.forward, x.lane == state.lane[horse], -x.lane))


def test_a_short_race_through_the_pages(app_db: Path) -> None:
    store = service(app_db)
    pid, key = short_table(store)
    # blind bets on the players' own phones: Aki a bet, Ben none; Chie has no phone, so the
    # referee records "no blind bet" for her (gn.rulings.no_blind_bet)
    aki = seat_page(store, pid, key, 0)
    seq = store.snapshot(pid).seq
    aki.selectbox(key=f"bh_{seq}").set_value(0)
    aki.button_group(key=f"bs_{seq}").set_value(10000)
    aki.button(key="blind_go").click()
    aki = ok(aki.run())
    assert "Your blind bet" in " ".join(s.value for s in aki.success)
    ben = seat_page(store, pid, key, 1)
    ben.button(key="blind_none_go").click()
    ok(ben.run())
    referee = ok(new_app(table=pid, key=key, lang="en"))
    assert [b.key for b in referee.button if b.key and b.key.startswith("blind_none_")] == [
        "blind_none_2"
    ]
    referee.button(key="blind_none_2").click()
    referee = ok(referee.run())
    assert "10,000" not in html(referee) and "10000" not in html(referee)  # sealed
    # the going and the lanes: a tap each
    seq = store.snapshot(pid).seq
    referee.button(key=f"going_{seq}_heavy").click()
    referee = ok(referee.run())
    assert store.snapshot(pid).state.top() == 54
    for lane in range(1, 5):
        seq = store.snapshot(pid).seq
        referee.button(key=f"lane{lane}_{seq}_red").click()
        referee = ok(referee.run())
    # the market: Ben bets 5,000 on horse 0 to Win at the posted 12/1, then the start
    seq = store.snapshot(pid).seq
    referee.button_group(key=f"ws_{seq}").set_value(1)
    referee.selectbox(key=f"wh_{seq}").set_value(0)
    referee.button_group(key=f"wa_{seq}").set_value(5000)
    referee.button(key="bet_go").click()
    referee = ok(referee.run())
    assert store.snapshot(pid).state.wagers[0].stake == 5000
    referee.button(key="start_go").click()
    referee = ok(referee.run())
    # the race: every horse taps the farthest square the page offers, spins from red
    for _ in range(200):
        snap = store.snapshot(pid, REFEREE)
        if snap.outcome is not None:
            break
        state = snap.state
        if engine.needs_spin(state):
            referee.button(key=f"spin_{snap.seq}_red").click()
        else:
            horse = engine.next_horse(state)
            assert horse is not None
            if lanes.landings(state, horse):
                x = farthest(state, horse)
                referee.button(key=f"mv_{snap.seq}_{x.lane}_{x.forward}").click()
            else:
                referee.button(key="boxed_go").click()
        referee = ok(referee.run())
        assert store.snapshot(pid).seq == snap.seq + 1
        assert lanes.shared_squares(store.snapshot(pid).state) == ()  # never two on a square
    final = store.snapshot(pid, REFEREE)
    assert final.outcome is not None and final.state.settled and final.state.placed
    # four placed, or none left running (lapped on this short track)
    assert len(final.state.placed) == 4 or not engine.running(final.state)
    assert final.state == store.replay(pid)
    # horses 150,000 each; prizes to the owners of 1st–4th; Aki's blind 10,000 and Ben's
    # 5,000 on horse 0 to Win at 12/1 (stake back and 12 × the stake, or the stake lost)
    prizes = [0, 0, 0]
    for place, h in enumerate(final.state.placed):
        prizes[h // 4] += (250000, 100000, 50000, 30000)[place]
    won = final.state.placed[0] == 0
    cash = [engine.cash(final.state, s) for s in range(3)]
    assert cash == [
        100000 + prizes[0] + (120000 if won else -10000),
        100000 + prizes[1] - 5000 + (65000 if won else 0),
        100000 + prizes[2],
    ]
    assert "Winner" in " ".join(m.value for m in referee.markdown) or "Winner" in html(referee)


def test_the_bookmaker_posts_odds_from_their_own_link(app_db: Path) -> None:
    store = service(app_db)
    pid, key = short_table(store)
    for seat in range(3):
        own = store.rotate_key(pid, key, Role.seat_of(seat))
        none = {"type": "blind_bet", "seat": seat, "horse": None, "kind": None, "stake": 0}
        store.record(pid, own, store.snapshot(pid).seq, none)
    for step in [{"type": "going", "going": "good"}] + [
        {"type": "lane_spin", "lane": lane, "colour": "red"} for lane in range(1, 5)
    ]:
        store.record(pid, key, store.snapshot(pid).seq, step)
    chie = seat_page(store, pid, key, 2)  # the bookmaker
    seq = store.snapshot(pid).seq
    chie.number_input(key=f"owin_n_{seq}_0").set_value(9)
    chie.button(key="odds_go").click()
    ok(chie.run())
    assert store.snapshot(pid).state.odds[0][0].text() == "9/1"
    ben = seat_page(store, pid, key, 1)
    assert not [b for b in ben.button if b.key == "odds_go"]  # only the bookmaker's


def test_the_page_shows_later_turns_in_seating_order_as_the_engine_gives_them(
    app_db: Path,
) -> None:
    store = service(app_db)
    # seats A red, B blue, C white: the spinner's ring (Red, White, Blue) is not the table's
    pid, key = short_table(store, [("A", "red"), ("B", "blue"), ("C", "white")])
    for seat in range(3):
        own = store.rotate_key(pid, key, Role.seat_of(seat))
        none = {"type": "blind_bet", "seat": seat, "horse": None, "kind": None, "stake": 0}
        store.record(pid, own, store.snapshot(pid).seq, none)
    for step in [{"type": "going", "going": "good"}] + [
        {"type": "lane_spin", "lane": lane, "colour": "red"} for lane in range(1, 5)
    ] + [{"type": "start"}]:  # fmt: skip
        store.record(pid, key, store.snapshot(pid).seq, step)
    while (state := store.snapshot(pid).state).round == 1:
        horse = engine.next_horse(state)
        assert horse is not None
        move = {"type": "move", "horse": horse, "forward": 4, "lane": state.lane[horse]}
        store.record(pid, key, store.snapshot(pid).seq, move)
    store.record(pid, key, store.snapshot(pid).seq, {"type": "spin", "colour": "red"})
    assert engine.turn_order(store.snapshot(pid).state) == (0, 4, 8)
    viewer = ok(new_app(table=pid, lang="en"))
    order = [c.value for c in viewer.caption if c.value.startswith("Order now")]
    assert order == ["Order now: 🔴 A 1 → 🔵 B 1 → ⚪ C 1"], order


def test_the_referee_prints_every_seats_private_link(app_db: Path) -> None:
    store = service(app_db)
    pid, key = short_table(store)
    old = store.rotate_key(pid, key, Role.seat_of(0))
    at = ok(open_sections(new_app(table=pid, key=key, lang="en")))
    at.button(key="seat_sheet_go").click()
    at = ok(at.run())
    assert [b for b in at.get("download_button") if "private" in str(b.proto)]
    assert store.role_for(pid, old).is_viewer  # the old link stopped: new ones are printed
    live = {k.role for k in store.keys(pid, key) if k.revoked_at is None}
    assert {Role.seat_of(s) for s in range(3)} <= live
