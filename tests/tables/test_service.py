"""The table service on real SQLite files: keys, concurrency, undo/redo, replay, export."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from aids.core.errors import (
    Forbidden,
    InvalidAction,
    NotFound,
    NotYourTurn,
    RuleViolation,
    StaleState,
)
from aids.games.base import REFEREE
from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from aids.tables.keys import hash_key

BET = {"type": "bet", "player": 0, "horse": 2}
PLAY = {"type": "play", "player": 0, "horse": 2, "card": "green:5"}


def events_in_file(path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT seq, kind FROM events ORDER BY seq").fetchall()


def test_table_has_random_public_id_and_only_key_hash_stored(
    service: TableService, db_path: Path
) -> None:
    a, key_a = service.create("derby", "One", DerbySetup.default(["A", "B"]).to_dict())
    b, _ = service.create("derby", "Two", DerbySetup.default(["A", "B"]).to_dict())
    assert a.public_id != b.public_id and len(a.public_id) >= 22  # ≥ 128 bits base64url
    with sqlite3.connect(db_path) as conn:
        stored = conn.execute("SELECT key_hash FROM keys WHERE role = 'referee'").fetchall()
        dump = "\n".join(conn.iterdump())
    assert key_a not in dump and (hash_key(key_a),) in stored


def test_sqlite_file_uses_wal(service: TableService, db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_write_without_key_is_refused_and_writes_nothing(
    service: TableService, derby_table: tuple[str, str], db_path: Path
) -> None:
    pid, _ = derby_table
    for key in (None, "", "not-the-key"):
        with pytest.raises(Forbidden) as err:
            service.record(pid, key, 0, BET)
        assert err.value.code == "table/forbidden"
        assert "閲覧専用" in err.value.message("ja")
    assert events_in_file(db_path) == []


def test_refused_action_leaves_log_unchanged(
    service: TableService, derby_table: tuple[str, str], db_path: Path
) -> None:
    pid, key = derby_table
    service.record(pid, key, 0, PLAY)
    before = events_in_file(db_path)
    for bad in (
        {"type": "play", "player": 1, "horse": 2, "card": "green:5"},  # card already played
        {"type": "play", "player": 0, "horse": 2, "card": "red:1"},  # not your turn
        {"type": "play", "player": 1, "horse": 9, "card": "red:1"},  # unknown horse
        {"type": "dance"},
        {"type": "bet", "player": 1},
    ):
        with pytest.raises((RuleViolation, InvalidAction, NotYourTurn)):
            service.record(pid, key, 1, bad)
    assert events_in_file(db_path) == before
    assert service.snapshot(pid).seq == 1


def test_stale_write_between_two_connections_exactly_one_wins(
    db_path: Path, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    first = TableService(SqliteStore(db_path), engines())
    second = TableService(SqliteStore(db_path), engines())
    seq = first.snapshot(pid).seq
    assert second.snapshot(pid).seq == seq
    first.record(pid, key, seq, BET)
    with pytest.raises(StaleState) as err:
        second.record(pid, key, seq, {"type": "bet", "player": 0, "horse": 3})
    assert err.value.code == "table/stale"
    assert events_in_file(db_path) == [(1, "action")]
    # the loser sees the winner's write on its next read
    assert second.snapshot(pid).state.counters[0].horse == 2


def test_concurrent_writers_in_threads_exactly_one_wins(
    db_path: Path, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    services = [TableService(SqliteStore(db_path), engines()) for _ in range(6)]
    for s in services:
        s.snapshot(pid)
    barrier = threading.Barrier(len(services))
    outcomes: list[str] = []

    def write(s: TableService, horse: int) -> None:
        barrier.wait()
        try:
            s.record(pid, key, 0, {"type": "bet", "player": 0, "horse": horse})
            outcomes.append("ok")
        except StaleState:
            outcomes.append("stale")

    threads = [threading.Thread(target=write, args=(s, i)) for i, s in enumerate(services)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["ok"] + ["stale"] * 5
    assert events_in_file(db_path) == [(1, "action")]


def test_undo_and_redo_keep_the_audit_trail(
    service: TableService, derby_table: tuple[str, str], db_path: Path
) -> None:
    pid, key = derby_table
    service.record(pid, key, 0, BET)
    snap = service.record(pid, key, 1, PLAY)
    assert snap.state.turn == 1
    snap = service.undo(pid, key, 2)
    assert snap.state.turn == 0 and snap.state.played == frozenset() and snap.can_redo
    snap = service.undo(pid, key, 3)
    assert snap.state.counters == () and not snap.can_undo
    with pytest.raises(RuleViolation) as err:
        service.undo(pid, key, 4)
    assert err.value.code == "table/nothing_to_undo"
    snap = service.redo(pid, key, 4)
    assert len(snap.state.counters) == 1
    assert [(e.seq, e.kind, e.undone) for e in snap.log] == [
        (1, "action", False),
        (2, "action", True),
        (3, "undo", False),
        (4, "undo", False),
        (5, "redo", False),
    ]
    # a new action drops what could be redone
    snap = service.record(pid, key, 5, {"type": "play", "player": 0, "horse": 0, "card": "red:1"})
    assert not snap.can_redo
    with pytest.raises(RuleViolation) as err:
        service.redo(pid, key, 6)
    assert err.value.code == "table/nothing_to_redo"
    assert [k for _, k in events_in_file(db_path)] == [
        "action",
        "action",
        "undo",
        "undo",
        "redo",
        "action",
    ]


def test_cached_state_equals_fresh_replay(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    seq = 0
    for horse, card in [(0, "red:3"), (1, "blue:4"), (2, "black:2")]:
        snap = service.snapshot(pid)
        service.record(
            pid, key, seq, {"type": "play", "player": snap.state.turn, "horse": horse, "card": card}
        )
        seq += 1
    service.undo(pid, key, seq)
    assert service.snapshot(pid).state == service.replay(pid)


def test_history_is_every_state_in_force_as_the_reader_sees_it(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    """The charts and the step-through replay read the states along the log: one before the
    first action and one after each action in force (an undone one drops out), the last equal
    to the snapshot's state, each through the reader's view."""
    pid, key = derby_table
    service.record(pid, key, 0, BET)
    service.record(pid, key, 1, PLAY)
    service.undo(pid, key, 2)
    snap = service.snapshot(pid)
    assert len(snap.history) == 2  # the start and the bet; the undone play is not in force
    assert snap.history[0].counters == () and len(snap.history[1].counters) == 1
    assert snap.history[-1] == snap.state

    info, _ = service.create(
        "derby", "Dealt", DerbySetup.default(["A", "B"], mode="simulation", seed=4).to_dict()
    )
    viewer = service.snapshot(info.public_id)
    assert service.replay(info.public_id).hands  # the engine deals the hands
    assert all(not hand for state in viewer.history for hand in state.hands)  # none of them


def test_a_new_process_sees_everything(
    service: TableService, derby_table: tuple[str, str], db_path: Path
) -> None:
    pid, key = derby_table
    service.record(pid, key, 0, BET)
    service.record(pid, key, 1, PLAY)
    service.undo(pid, key, 2)
    code = (
        "import json, sys\n"
        "from aids.tables import TableService\n"
        "from aids.store.sqlite import SqliteStore\n"
        "from aids.registry import engines\n"
        "from aids.games.base import REFEREE\n"
        "s = TableService(SqliteStore(sys.argv[1]), engines()).snapshot(sys.argv[2], REFEREE)\n"
        "print(json.dumps([s.seq, s.state.turn, len(s.state.counters), s.can_redo]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(db_path), pid],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout) == [3, 0, 1, True]


def test_export_import_round_trip(
    service: TableService, derby_table: tuple[str, str], tmp_path: Path
) -> None:
    pid, key = derby_table
    service.record(pid, key, 0, BET)
    service.record(pid, key, 1, PLAY)
    service.undo(pid, key, 2)
    exported = service.export(pid)
    other = TableService(SqliteStore(tmp_path / "other.sqlite3"), engines())
    info = other.import_(json.loads(json.dumps(exported)))
    assert info.public_id == pid
    assert other.snapshot(pid).state == service.snapshot(pid).state
    assert other.export(pid) == exported
    assert other.role_for(pid, key) == REFEREE  # the same referee link keeps working


def test_import_never_overwrites(service: TableService, derby_table: tuple[str, str]) -> None:
    pid, _ = derby_table
    with pytest.raises(InvalidAction) as err:
        service.import_(service.export(pid))
    assert err.value.code == "import/exists"


@pytest.mark.parametrize(
    ("damage", "field"),
    [
        (lambda d: d.pop("format"), "format"),
        (lambda d: d["table"].pop("kind"), "table.kind"),
        (lambda d: d["table"].update(public_id="short"), "table.public_id"),
        (lambda d: d["table"]["keys"][0].update(key_sha256="xyz"), "table.keys[0].key_sha256"),
        (lambda d: d["table"]["keys"][0].update(role="boss"), "table.keys[0].role"),
        (lambda d: d["events"][0].update(actor="seat:x"), "events[0].actor"),
        (lambda d: d["table"].update(created_at="yesterday"), "table.created_at"),
        (lambda d: d["events"][0].update(seq=7), "events[0].seq"),
        (lambda d: d["events"][1].update(kind="delete"), "events[1].kind"),
        (lambda d: d["events"][0].update(payload=None), "events[0].payload"),
    ],
)
def test_malformed_import_names_the_field(
    service: TableService, derby_table: tuple[str, str], tmp_path: Path, damage, field: str
) -> None:
    pid, key = derby_table
    service.record(pid, key, 0, BET)
    service.record(pid, key, 1, PLAY)
    data = service.export(pid)
    damage(data)
    target = TableService(SqliteStore(tmp_path / "target.sqlite3"), engines())
    with pytest.raises(InvalidAction) as err:
        target.import_(data)
    assert err.value.params.get("field") == field
    assert field in err.value.message("ja") and field in err.value.message("en")
    assert target.list_tables() == []


def test_import_with_illegal_history_is_refused_naming_the_step(
    service: TableService, derby_table: tuple[str, str], tmp_path: Path
) -> None:
    pid, key = derby_table
    service.record(pid, key, 0, PLAY)
    data = service.export(pid)
    data["events"].append(
        {
            "seq": 2,
            "kind": "action",
            "actor": "referee",
            "created_at": data["events"][0]["created_at"],
            "payload": {"type": "play", "player": 1, "horse": 2, "card": "green:5"},
        }
    )
    target = TableService(SqliteStore(tmp_path / "target.sqlite3"), engines())
    with pytest.raises(InvalidAction) as err:
        target.import_(data)
    assert err.value.code == "import/replay" and err.value.params["seq"] == 2
    assert target.list_tables() == []


def test_unknown_table_and_game(service: TableService) -> None:
    with pytest.raises(NotFound):
        service.snapshot("x" * 24)
    with pytest.raises(InvalidAction) as err:
        service.create("chess", "x", {})
    assert err.value.code == "table/unknown_game"
    with pytest.raises(InvalidAction) as err:
        service.create("derby", "  ", DerbySetup.default(["A", "B"]).to_dict())
    assert err.value.code.startswith("input/")


def test_public_ids_never_start_like_a_command_line_option() -> None:
    from aids.tables.keys import new_public_id

    ids = [new_public_id() for _ in range(2000)]  # ~1 in 32 raw tokens starts with - or _
    assert all(i[0].isalnum() and len(i) == 24 for i in ids)
    assert len(set(ids)) == len(ids)


def test_keys_never_start_like_a_command_line_option() -> None:
    """``aids record TABLE FILE --key K`` must read K as the key, whatever K is."""
    from aids.tables.keys import new_key

    keys = [new_key() for _ in range(2000)]  # ~1 in 32 raw tokens starts with - or _
    assert all(k[0].isalnum() and len(k) == 32 for k in keys)
    assert len(set(keys)) == len(keys)
