"""Around the board on every table page: the step-through replay and the live chances."""

from __future__ import annotations

import re
from pathlib import Path

from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from aids.ui.insights import chance_service
from tests.ui.conftest import new_app, ok, page_html

PLAYS = [
    {"type": "bet", "player": 0, "horse": 2},
    {"type": "play", "player": 0, "horse": 0, "card": "red:3"},
    {"type": "play", "player": 1, "horse": 1, "card": "blue:7"},
]


def _table(app_db: Path) -> tuple[str, str]:
    service = TableService(SqliteStore(app_db), engines())
    info, key = service.create(
        "derby", "Friday", DerbySetup.default(["Aki", "Ben", "Chie"]).to_dict()
    )
    for seq, action in enumerate(PLAYS):
        service.record(info.public_id, key, seq, action)
    return info.public_id, key


def _cards_on_board(at: object) -> list[str]:
    return re.findall(r'class="chip"[^>]*>(\d)<', page_html(at))  # type: ignore[arg-type]


def test_the_viewer_steps_back_through_the_race_and_returns_live(app_db: Path) -> None:
    """Replay (issue 11): a slider over the log shows the board at any step, read-only, and
    names the action that led there; switched off, the board is live again."""
    pid, _ = _table(app_db)
    at = ok(new_app(table=pid, lang="en"))
    assert sorted(_cards_on_board(at)) == ["3", "7"]
    at.toggle(key="replay_on").set_value(True).run()
    at.slider(key="replay_step").set_value(2).run()
    ok(at)
    assert _cards_on_board(at) == ["3"]  # after the second action: one card played
    assert any("step 2 of 3" in i.value and "Red" in i.value for i in at.info)
    at.slider(key="replay_step").set_value(0).run()
    assert _cards_on_board(at) == [] and any("the start" in i.value for i in at.info)
    at.toggle(key="replay_on").set_value(False).run()
    assert sorted(_cards_on_board(at)) == ["3", "7"] and not at.info


def test_the_referee_page_replays_without_touching_the_controls(app_db: Path) -> None:
    pid, key = _table(app_db)
    at = ok(new_app(table=pid, key=key, lang="en"))
    at.toggle(key="replay_on").set_value(True).run()
    at.slider(key="replay_step").set_value(1).run()
    ok(at)
    assert _cards_on_board(at) == []  # after the bet: no card yet
    assert at.button(key="undo") is not None  # the live tools stay as they were


def test_every_page_shows_the_chances_with_how_they_were_made(app_db: Path) -> None:
    """Chances (issue 11): bars per player and horse, how many simulated races and the
    error, the model in one line; the same figures for the viewer and the referee."""
    pid, key = _table(app_db)
    chance_service().wait(pid)
    viewer = ok(new_app(table=pid, lang="en"))
    html = page_html(viewer)
    assert re.findall(r"<caption>(.*?)</caption>", html) == ["Wins", "Finishes", "Expected points"]
    rows = re.findall(r'<th scope="row">(.*?)</th>.*?<td class="num">(\d+) %', html)
    assert [name for name, _ in rows[:3]] == ["Aki", "Ben", "Chie"]
    assert sum(int(p) for _, p in rows[:3]) in range(98, 103)  # the win shares add up
    caption = next(c.value for c in viewer.caption if "races simulated" in c.value)
    # the races the time allowed (AIDS_CHANCE_PLAYOUTS 1,000 at most; a busy machine fewer)
    races = int(re.search(r"([\d,]+) races simulated", caption)[1].replace(",", ""))  # type: ignore[index]
    assert 1 <= races <= 1000 and "Model:" in caption
    # issue 20: what the figures mean, first, in one line a player understands
    assert caption.startswith("What would happen if everyone bet and played at random from here.")
    referee = ok(new_app(table=pid, key=key, lang="en"))
    assert re.findall(r'<td class="num">(.*?)</td>', page_html(referee)) == re.findall(
        r'<td class="num">(.*?)</td>', html
    )


def test_expected_money_is_shown_in_whole_units(app_db: Path) -> None:
    """Issue 20, steady figures: "money without cents" (two identical stables showed
    $167,384.6 and $234,769.2). Every figure of a hundred or more on the chances of a
    Grand National table is a whole number, its error too."""
    from aids.games.grand_national.game import GAME as GN

    service = TableService(SqliteStore(app_db), engines())
    setup = GN.setup_to_dict(GN.default_setup(["Aki", "Ben", "Chie"], "en"))
    info, _ = service.create("gn", "Aintree", setup)
    chance_service().wait(info.public_id)
    html = page_html(ok(new_app(table=info.public_id, lang="en")))
    figures = re.findall(r'<td class="num">([^<]*)<small>([^<]*)</small>', html)
    amounts = [(t, s) for t, s in figures if "%" not in t]
    big = [(text, spread) for text, spread in amounts if float(text.replace(",", "")) >= 100]
    assert big, "no money figure on the page"
    assert all("." not in text + spread for text, spread in big), big
