"""An unsettled blind bet is its writer's alone: no viewer, referee or other-seat snapshot, log
line, page or page export shows it; the host's complete backup (``aids export``) holds it and
says so; after settlement everyone sees it on the ledger."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from aids.core.errors import Forbidden
from aids.games.base import REFEREE, VIEWER, Role
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.games.grand_national.helpers import setup
from tests.ui.conftest import new_app, open_sections

ROOT = Path(__file__).resolve().parents[3]
SECRET_STAKE = 7300  # a figure that appears nowhere else in the table
SECRET_HORSE = 11  # Numbersixvalverde, Chie's


@pytest.fixture
def table(tmp_path: Path) -> tuple[TableService, str, str, Path]:
    db = tmp_path / "gn.sqlite3"
    service = TableService(SqliteStore(db), engines())
    info, key = service.create("gn", "Secret", setup().to_dict())
    pid = info.public_id
    aki = service.rotate_key(pid, key, Role.seat_of(0))
    bet = {"type": "blind_bet", "seat": 0, "horse": SECRET_HORSE, "kind": "show",
           "stake": SECRET_STAKE}  # fmt: skip
    service.record(pid, aki, service.snapshot(pid).seq, bet)
    return service, pid, key, db


def test_no_snapshot_or_log_line_but_the_writers_shows_the_blind_bet(table) -> None:  # type: ignore[no-untyped-def]
    service, pid, _, _ = table
    for role in (VIEWER, REFEREE, Role.seat_of(1), Role.seat_of(2)):
        snap = service.snapshot(pid, role)
        assert str(SECRET_STAKE) not in repr(snap.state.blind)
        assert all(e.sealed and e.action is None for e in snap.log if e.kind == "action")
        game = service.game("gn")
        lines = [game.describe(snap.state, e.action, "en") for e in snap.log if e.action]
        assert not any(str(SECRET_STAKE) in line for line in lines)
    own = service.snapshot(pid, Role.seat_of(0))
    assert own.state.blind[0].stake == SECRET_STAKE


def test_the_referees_page_and_its_export_do_not_reveal_it(  # type: ignore[no-untyped-def]
    table, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, pid, key, db = table
    with pytest.raises(Forbidden) as err:
        service.referee_export(pid, key)
    assert err.value.code == "table/export_sealed"
    monkeypatch.setenv("AIDS_DB", str(db))
    for params in ({"key": key}, {}):
        page = open_sections(new_app(table=pid, lang="en", **params))  # every box open
        text = "\n".join(
            [h.proto.body for h in page.html]
            + [m.value for m in page.markdown]
            + [c.value for c in page.caption]
        )
        assert str(SECRET_STAKE) not in text and "7,300" not in text
        assert "blind" in text.lower()  # the page does say one was written


def test_the_hosts_backup_holds_it_and_says_so(table) -> None:  # type: ignore[no-untyped-def]
    service, pid, _, db = table
    service.store.close()
    env = dict(os.environ, AIDS_DB=str(db))
    out = subprocess.run(
        [sys.executable, "-m", "aids.cli", "--lang", "en", "export", pid], env=env, cwd=ROOT,
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert str(SECRET_STAKE) in out.stdout  # complete: the host holds the data file anyway
    assert "complete backup" in out.stderr and "1 secret choice" in out.stderr
    json.loads(out.stdout)


def test_after_settlement_everyone_sees_it_on_the_ledger(table) -> None:  # type: ignore[no-untyped-def]
    service, pid, key, _ = table
    for seat in (1, 2):
        own = service.rotate_key(pid, key, Role.seat_of(seat))
        service.record(pid, own, service.snapshot(pid).seq,
                       {"type": "blind_bet", "seat": seat, "horse": None, "kind": None,
                        "stake": 0})  # fmt: skip
    steps = [{"type": "going", "going": "good"}] + [
        {"type": "lane_spin", "lane": lane, "colour": "red"} for lane in range(1, 5)
    ] + [{"type": "start"}]  # fmt: skip
    for step in steps:
        service.record(pid, key, service.snapshot(pid).seq, step)
    for horse in range(12):  # every horse pulled up: the race is over, bets settled
        if service.snapshot(pid).outcome is None:
            service.record(pid, key, service.snapshot(pid).seq, {"type": "pull_up", "horse": horse})
    viewer = service.snapshot(pid, VIEWER)
    assert viewer.state.settled and viewer.state.blind[0].stake == SECRET_STAKE
    assert any(line.reason == "blind" and line.amount == SECRET_STAKE
               for line in viewer.state.ledger)  # fmt: skip
    assert service.referee_export(pid, key)
