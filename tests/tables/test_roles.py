"""Roles and keys in the table service, proven on the fake game with a secret choice.

One function decides the role (an empty, wrong or revoked key is the viewer); every write is
checked against the actor the action is made by; every read is filtered for the reader.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from aids.core.errors import Forbidden, InvalidAction, RuleViolation
from aids.games.base import CHANCE, REFEREE, VIEWER, Role
from aids.registry import BUILT_IN
from aids.store.base import KeyRow
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from aids.tables.keys import hash_key
from tests.fakegame.game import SEALED

SEAT0, SEAT1 = Role.seat_of(0), Role.seat_of(1)


def commit(seat: int, speed: int, round_: int = 1) -> dict[str, object]:
    return {"type": "commit", "seat": seat, "speed": speed, "round": round_}


def rows(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT * FROM events ORDER BY table_id, seq").fetchall()


@pytest.fixture
def sprint(all_service: TableService) -> tuple[str, str, str, str]:
    """A 2-seat Sealed Sprint: (public id, referee key, seat 0 key, seat 1 key)."""
    info, referee = all_service.create("sprint", "Sprint", {"names": ["Aki", "Ben"]})
    pid = info.public_id
    return (
        pid,
        referee,
        all_service.rotate_key(pid, referee, SEAT0),
        all_service.rotate_key(pid, referee, SEAT1),
    )


def test_one_function_decides_the_role(all_service: TableService, sprint) -> None:
    pid, referee, k0, k1 = sprint
    assert all_service.role_for(pid, referee) == REFEREE
    assert all_service.role_for(pid, k0) == SEAT0 and all_service.role_for(pid, k1) == SEAT1
    for nothing in (None, "", " ", "x" * 500, 42, ["k"], referee + "x", "\udcff"):
        assert all_service.role_for(pid, nothing) == VIEWER


def test_a_seat_writes_only_its_own_actions(
    all_service: TableService, sprint, db_path: Path
) -> None:
    pid, _, k0, _ = sprint
    before = rows(db_path)
    with pytest.raises(Forbidden) as err:
        all_service.record(pid, k0, 0, commit(1, 2))  # seat 0 commits for seat 1
    assert err.value.code == "table/wrong_actor"
    with pytest.raises(Forbidden):
        all_service.record(pid, k0, 0, {"type": "roll", "value": 3})  # nor for chance
    with pytest.raises(Forbidden) as err:
        all_service.undo(pid, k0, 0)  # undo is the referee's
    assert err.value.code == "table/forbidden"
    assert rows(db_path) == before


def test_a_secret_choice_is_made_by_the_seat_not_the_referee(
    all_service: TableService, sprint
) -> None:
    pid, referee, _, _ = sprint
    with pytest.raises(RuleViolation) as err:
        all_service.record(pid, referee, 0, commit(0, 3))
    assert err.value.code == "sprint/secret_by_seat"
    assert "本人" in err.value.message("ja")


def test_commitments_stay_hidden_from_everyone_else_until_all_are_in(
    all_service: TableService, sprint
) -> None:
    pid, _, k0, k1 = sprint
    all_service.record(pid, k0, 0, commit(0, 3))
    for role in (VIEWER, REFEREE, SEAT1):
        seen = all_service.snapshot(pid, role)
        assert seen.state.pending == (SEALED, None), role
        assert seen.log[0].sealed and seen.log[0].action is None
        assert seen.log[0].actor == SEAT0
    own = all_service.snapshot(pid, SEAT0)
    assert own.state.pending == (3, None) and own.log[0].action is not None
    all_service.record(pid, k1, 1, commit(1, 1))
    revealed = all_service.snapshot(pid, VIEWER)
    assert revealed.state.pending == (3, 1) and not any(e.sealed for e in revealed.log)
    assert revealed.to_move == frozenset({CHANCE})


def test_rotating_a_key_stops_the_old_link_at_once(all_service: TableService, sprint) -> None:
    pid, referee, k0, _ = sprint
    new_referee = all_service.rotate_key(pid, referee, REFEREE)
    assert all_service.role_for(pid, referee) == VIEWER
    assert all_service.role_for(pid, new_referee) == REFEREE
    with pytest.raises(Forbidden):
        all_service.rotate_key(pid, referee, SEAT0)  # the old referee key can do nothing
    new_k0 = all_service.rotate_key(pid, new_referee, SEAT0)
    assert all_service.role_for(pid, k0) == VIEWER and all_service.role_for(pid, new_k0) == SEAT0


def test_revoking_a_seat_key_makes_its_link_read_only(all_service: TableService, sprint) -> None:
    pid, referee, k0, _ = sprint
    assert all_service.revoke_key(pid, referee, SEAT0) == 1
    assert all_service.role_for(pid, k0) == VIEWER
    with pytest.raises(Forbidden):
        all_service.record(pid, k0, 0, commit(0, 2))
    with pytest.raises(InvalidAction) as err:
        all_service.revoke_key(pid, referee, REFEREE)
    assert err.value.code == "table/revoke_referee"
    listed = {(k.role, k.revoked_at is None) for k in all_service.keys(pid, referee)}
    assert (SEAT0, False) in listed and (REFEREE, True) in listed


def test_only_the_referee_manages_keys(all_service: TableService, sprint) -> None:
    pid, _, k0, _ = sprint
    for attempt in (
        lambda: all_service.rotate_key(pid, k0, SEAT1),
        lambda: all_service.revoke_key(pid, k0, SEAT1),
        lambda: all_service.keys(pid, k0),
        lambda: all_service.rotate_key(pid, None, REFEREE),
    ):
        with pytest.raises(Forbidden):
            attempt()


def test_seat_keys_only_for_seats_that_exist_and_games_with_private_input(
    all_service: TableService, sprint, derby_table_all: tuple[str, str]
) -> None:
    pid, referee, _, _ = sprint
    with pytest.raises(InvalidAction) as err:
        all_service.rotate_key(pid, referee, Role.seat_of(2))
    assert err.value.code == "table/role"
    derby_pid, derby_key = derby_table_all
    with pytest.raises(InvalidAction) as err:
        all_service.rotate_key(derby_pid, derby_key, SEAT0)
    assert err.value.code == "table/no_seat_keys"


def test_every_event_records_its_actor(all_service: TableService, sprint) -> None:
    pid, referee, k0, k1 = sprint
    all_service.record(pid, k0, 0, commit(0, 2))
    all_service.record(pid, k1, 1, commit(1, 3))
    all_service.record(pid, referee, 2, {"type": "roll", "value": 6})
    all_service.undo(pid, referee, 3)
    exported = all_service.export(pid)
    assert [e["actor"] for e in exported["events"]] == ["seat:0", "seat:1", "referee", "referee"]


def test_export_and_import_keep_every_key_and_role(
    all_service: TableService, sprint, tmp_path: Path, games
) -> None:
    pid, referee, k0, _ = sprint
    all_service.record(pid, k0, 0, commit(0, 2))
    all_service.revoke_key(pid, referee, SEAT1)
    other = TableService(SqliteStore(tmp_path / "other.sqlite3"), games)
    other.import_(all_service.export(pid))
    assert other.role_for(pid, referee) == REFEREE and other.role_for(pid, k0) == SEAT0
    assert other.export(pid) == all_service.export(pid)
    assert other.snapshot(pid, SEAT1).state.pending == (SEALED, None)


def test_a_table_of_an_unknown_rules_version_is_refused(
    all_service: TableService, sprint, db_path: Path
) -> None:
    pid, _, _, _ = sprint
    data = all_service.export(pid)
    data["table"]["rules_version"] = 99
    data["table"]["public_id"] = ("Z" if pid[0] != "Z" else "Y") + pid[1:]  # a new id
    with pytest.raises(InvalidAction) as err:
        all_service.import_(data)
    assert err.value.code == "table/rules_version"
    assert "99" in err.value.message("en")
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE tables SET rules_version = 99")
    fresh = TableService(SqliteStore(db_path), all_service.games)
    with pytest.raises(InvalidAction) as err:
        fresh.snapshot(pid)
    assert err.value.code == "table/rules_version"


def test_a_table_of_a_game_this_process_does_not_know_is_refused(
    all_service: TableService, sprint, db_path: Path
) -> None:
    pid, _, _, _ = sprint
    without_fake = TableService(SqliteStore(db_path), {e.kind: e.game for e in BUILT_IN})
    with pytest.raises(InvalidAction) as err:
        without_fake.snapshot(pid)
    assert err.value.code == "table/unknown_game"


def test_a_key_revoked_by_another_process_stops_the_next_write(
    all_service: TableService, sprint, db_path: Path
) -> None:
    pid, referee, k0, _ = sprint
    all_service.record(pid, k0, 0, commit(0, 1))  # this process now knows seat 0's key
    all_service.undo(pid, referee, 1)
    other = TableService(SqliteStore(db_path), all_service.games)  # e.g. a second tracker
    other.revoke_key(pid, referee, SEAT0)
    before = rows(db_path)
    with pytest.raises(Forbidden):
        all_service.record(pid, k0, 2, commit(0, 2))
    assert rows(db_path) == before


def test_the_referee_export_never_reveals_a_sealed_choice(
    all_service: TableService, sprint
) -> None:
    pid, referee, k0, k1 = sprint
    all_service.record(pid, k0, 0, commit(0, 3))
    with pytest.raises(Forbidden) as err:
        all_service.referee_export(pid, referee)
    assert err.value.code == "table/export_sealed"
    for not_referee in (k0, None, "guess"):
        with pytest.raises(Forbidden):
            all_service.referee_export(pid, not_referee)
    all_service.record(pid, k1, 1, commit(1, 1))  # all in: revealed
    assert len(all_service.referee_export(pid, referee)["events"]) == 2


def test_a_rotated_referee_key_cannot_download_the_export(
    all_service: TableService, sprint
) -> None:
    pid, referee, _, _ = sprint
    all_service.rotate_key(pid, referee, REFEREE)
    with pytest.raises(Forbidden):
        all_service.referee_export(pid, referee)


def test_key_changes_check_the_referee_key_in_the_same_transaction(
    all_service: TableService, sprint
) -> None:
    pid, referee, _, _ = sprint
    row = all_service.store.get_table(pid)
    all_service.rotate_key(pid, referee, REFEREE)  # the old referee key is now revoked
    with pytest.raises(Forbidden):
        all_service.store.replace_key(
            row.id, KeyRow("seat:0", "f" * 64, "2026-11-29T00:00:00+00:00"), "x",
            by=hash_key(referee),
        )  # fmt: skip
    with pytest.raises(Forbidden):
        all_service.store.revoke_keys(row.id, "seat:1", "x", by=hash_key(referee))
    assert all(k.key_hash != "f" * 64 for k in all_service.store.keys(row.id))
