"""Every bad input is a clean refusal: the error names the rule or field, nothing is stored.

Each case is tried against a real SQLite file holding a table in play; the test asserts the
error code and that the stored rows are byte-for-byte what they were. The counts per surface
are printed at the end of the run (see ``conftest.py``).
"""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aids.core.errors import AidsError
from aids.games.base import Role
from aids.games.derby.model import Card, DerbySetup
from aids.games.ekiden import engine as ekiden
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService, load_export
from tests.bad_input.cases import (
    BAD_ACTIONS,
    BAD_KEYS,
    BAD_PUBLIC_IDS,
    BAD_SEQS,
    BAD_SETUPS,
    BAD_TITLES,
    EKIDEN_BAD_ACTIONS,
    IMPORT_MUTATIONS,
    RAW_IMPORTS,
    Case,
)


def dump(db: Path) -> str:
    """Every stored row, as SQL text: equal dumps mean nothing was written."""
    with sqlite3.connect(db) as conn:
        return "\n".join(conn.iterdump())


@pytest.fixture
def table(service: TableService, db_path: Path) -> tuple[TableService, str, str, Path]:
    """A 3-player Derby at step 5 (plays, a bet, an undo and a redo): seat 2 to act."""
    info, key = service.create(
        "derby", "Friday", DerbySetup.default(["Aki", "Ben", "Chie"]).to_dict()
    )
    pid = info.public_id
    service.record(pid, key, 0, {"type": "play", "player": 0, "horse": 1, "card": "blue:4"})
    service.record(pid, key, 1, {"type": "bet", "player": 1, "horse": 2})
    service.record(pid, key, 2, {"type": "play", "player": 1, "horse": 2, "card": "green:4"})
    service.undo(pid, key, 3)
    service.redo(pid, key, 4)
    return service, pid, key, db_path


def refused(expected: tuple[str, ...], attempt: Any, db: Path) -> AidsError:
    before = dump(db)
    with pytest.raises(AidsError) as err:
        attempt()
    assert err.value.code in expected, err.value.code
    for lang in ("ja", "en"):
        message = err.value.message(lang)
        assert message and not message.startswith("errors.")  # a catalogued message
    assert dump(db) == before
    return err.value


# --- service -------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", BAD_ACTIONS, ids=str)
def test_service_refuses_a_bad_action(table, bad: Case) -> None:
    service, pid, key, db = table
    # the cases speak of seat 0 as the seat to act; here that is seat 2 (Chie)
    action = copy.deepcopy(bad.value)
    if isinstance(action, dict) and type(action.get("player")) is int and action["player"] == 0:
        action["player"] = 2
    refused(bad.codes, lambda: service.record(pid, key, 5, action), db)


@pytest.mark.parametrize(("label", "key"), BAD_KEYS, ids=[k for k, _ in BAD_KEYS])
def test_service_refuses_a_write_without_a_live_key(table, label: str, key: Any) -> None:
    service, pid, _, db = table
    bet = {"type": "bet", "player": 2, "horse": 3}
    refused(("table/forbidden",), lambda: service.record(pid, key, 5, bet), db)
    refused(("table/forbidden",), lambda: service.undo(pid, key, 5), db)
    assert service.role_for(pid, key).is_viewer


@pytest.mark.parametrize(("label", "pid"), BAD_PUBLIC_IDS, ids=[k for k, _ in BAD_PUBLIC_IDS])
def test_service_refuses_an_id_that_is_no_table(table, label: str, pid: Any) -> None:
    service, _, key, db = table
    bet = {"type": "bet", "player": 2, "horse": 3}
    refused(("table/not_found",), lambda: service.record(pid, key, 5, bet), db)
    refused(("table/not_found",), lambda: service.snapshot(pid), db)
    refused(("table/not_found",), lambda: service.role_for(pid, key), db)


@pytest.mark.parametrize(("label", "seq", "code"), BAD_SEQS, ids=[s for s, _, _ in BAD_SEQS])
def test_service_refuses_a_write_against_the_wrong_step(
    table, label: str, seq: Any, code: str
) -> None:
    service, pid, key, db = table
    bet = {"type": "bet", "player": 2, "horse": 3}
    refused((code,), lambda: service.record(pid, key, seq, bet), db)


@pytest.mark.parametrize("bad", BAD_SETUPS, ids=str)
def test_service_refuses_a_bad_setup(table, bad: Case) -> None:
    service, _, _, db = table
    refused(bad.codes, lambda: service.create("derby", "Night", bad.value), db)


@pytest.mark.parametrize("bad", BAD_TITLES, ids=str)
def test_service_refuses_a_bad_title(table, bad: Case) -> None:
    service, _, _, db = table
    setup = DerbySetup.default(["Aki", "Ben"]).to_dict()
    refused(bad.codes, lambda: service.create("derby", bad.value, setup), db)


@pytest.mark.parametrize("kind", [None, "", "chess", "DERBY", 5, "derby\x00"])
def test_service_refuses_an_unknown_game(table, kind: Any) -> None:
    service, _, _, db = table
    setup = DerbySetup.default(["Aki", "Ben"]).to_dict()
    refused(("table/unknown_game",), lambda: service.create(kind, "Night", setup), db)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(code=st.text(max_size=12))
def test_any_card_text_is_a_card_or_a_clean_refusal(code: str) -> None:
    try:
        card = Card.parse(code)
    except AidsError as err:
        assert err.code == "derby/unknown_card"
        return
    assert card.code() == code  # only the one spelling of each card is accepted


# --- import --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "mutate", "code"), IMPORT_MUTATIONS, ids=[m[0] for m in IMPORT_MUTATIONS]
)
def test_import_refuses_a_damaged_document(
    table, tmp_path: Path, label: str, mutate: Any, code: str
) -> None:
    service, pid, _, _ = table
    document = mutate(copy.deepcopy(service.export(pid)))
    target_db = tmp_path / "target.sqlite3"
    target = TableService(SqliteStore(target_db), engines())
    refused((code,), lambda: target.import_(json.loads(json.dumps(document))), target_db)
    assert target.list_tables() == []


@pytest.mark.parametrize(("label", "raw", "code"), RAW_IMPORTS, ids=[r[0] for r in RAW_IMPORTS])
def test_import_refuses_a_file_that_is_no_export(
    tmp_path: Path, label: str, raw: bytes, code: str
) -> None:
    target_db = tmp_path / "target.sqlite3"
    target = TableService(SqliteStore(target_db), engines())
    refused((code,), lambda: target.import_(load_export(raw)), target_db)


@pytest.fixture
def relay(service: TableService) -> tuple[TableService, str, str]:
    """A 3-team Ekiden with leg 1's situation card revealed."""
    info, key = service.create("ekiden", "Relay", {
        "teams": [{"name": n, "colour": c} for n, c in (("Aki", "red"), ("Ben", "blue"),
                                                        ("Chie", "green"))],
        "start": 0, "course": [{"slope": "flat", "n": 0}] * 10})  # fmt: skip
    service.record(info.public_id, key, 0, {"type": "situation", "leg": 1, "marks": "o-xo-"})
    return service, info.public_id, key


@pytest.mark.parametrize("bad", EKIDEN_BAD_ACTIONS, ids=str)
def test_service_refuses_a_bad_ekiden_action(relay, db_path: Path, bad: Case) -> None:
    service, pid, key = relay
    refused(bad.codes, lambda: service.record(pid, key, 1, bad.value), db_path)


def _ekiden_roster(power: int = 4) -> list[dict[str, int]]:
    return [{"power": power, "up": 1, "down": 1}] * 10


EKIDEN_STEPS = {
    # name: (what to record first, the refused action, its code)
    "roster after the first runner": (
        [{"type": "run", "team": 0, "leg": 1, "runner": {"power": 4, "up": 1, "down": 1}}],
        {"type": "roster", "team": 1, "runners": _ekiden_roster()},
        "ekiden/roster_closed",
    ),
    "a runner who already ran": (
        [{"type": "roster", "team": t, "runners": _ekiden_roster()} for t in range(3)]
        + [{"type": "run", "team": t, "leg": 1, "pick": 0} for t in (0, 1, 2)]
        + [{"type": "situation", "leg": 2, "marks": "ooooo"}],
        "REPICK",
        "ekiden/runner_used",
    ),
    "typed runner for a team with a roster": (
        [{"type": "roster", "team": 0, "runners": _ekiden_roster()}],
        {"type": "run", "team": 0, "leg": 1, "runner": {"power": 4, "up": 1, "down": 1}},
        "ekiden/pick_from_roster",
    ),
    "a pick past the roster": (
        [{"type": "roster", "team": 0, "runners": _ekiden_roster()}],
        {"type": "run", "team": 0, "leg": 1, "pick": 10},
        "ekiden/unknown_runner",
    ),
}


@pytest.mark.parametrize("name", list(EKIDEN_STEPS))
def test_service_refuses_an_illegal_ekiden_step(relay, db_path: Path, name: str) -> None:
    service, pid, key = relay
    before, bad, code = EKIDEN_STEPS[name]
    for action in before:
        snap = service.snapshot(pid)
        service.record(pid, key, snap.seq, action)
    snap = service.snapshot(pid)
    if bad == "REPICK":  # whoever plays first in leg 2 picks the runner they ran in leg 1
        bad = {"type": "run", "team": ekiden.next_runner(snap.state), "leg": 2, "pick": 0}
    refused((code,), lambda: service.record(pid, key, snap.seq, bad), db_path)


def test_service_refuses_anything_after_the_relay(relay, db_path: Path) -> None:
    service, pid, key = relay
    state = service.snapshot(pid).state
    while state.phase != "over":
        snap = service.snapshot(pid)
        if state.phase == "situation":
            action = {"type": "situation", "leg": state.leg, "marks": "o-x-o"}
        else:
            action = {"type": "run", "team": ekiden.next_runner(state), "leg": state.leg,
                      "runner": {"power": 3, "up": 1, "down": 1}}  # fmt: skip
        state = service.record(pid, key, snap.seq, action).state
    seq = service.snapshot(pid).seq
    late = {"type": "situation", "leg": 10, "marks": "ooooo"}
    refused(("ekiden/game_over",), lambda: service.record(pid, key, seq, late), db_path)


def test_a_seat_key_cannot_play_another_teams_runner(relay, db_path: Path) -> None:
    service, pid, key = relay
    seat2 = service.rotate_key(pid, key, Role.seat_of(2))
    run = {"type": "run", "team": 0, "leg": 1, "runner": {"power": 4, "up": 1, "down": 1}}
    refused(("table/wrong_actor",), lambda: service.record(pid, seat2, 1, run), db_path)
