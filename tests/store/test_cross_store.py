"""Moving tables between the SQLite file and PostgreSQL with ``aids export``/``aids import``:
a table goes SQLite → PostgreSQL → SQLite and comes back byte for byte, with its keys (live
and revoked), undo and redo, seats' actors and Japanese text, and replays to the same state."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from aids.games.base import REFEREE, Role
from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store import open_store
from aids.tables import TableService
from tests.e2e.scenes import new_table, record

ROOT = Path(__file__).resolve().parents[2]


def aids(*args: str, store: str) -> subprocess.CompletedProcess[str]:
    """The CLI on one store: a SQLite path, or a postgresql:// URL."""
    env = {k: v for k, v in os.environ.items() if k not in ("AIDS_DB", "AIDS_DATABASE_URL")}
    env["AIDS_DATABASE_URL" if store.startswith("postgresql://") else "AIDS_DB"] = store
    return subprocess.run(
        [sys.executable, "-m", "aids.cli", *args],
        capture_output=True, text=True, env=env, check=True, cwd=ROOT,
    )  # fmt: skip


def lived_in_table(where: str) -> str:
    """A Derby table with a history: plays, an undo and a redo, a rotated referee key."""
    service = TableService(open_store(where), engines())
    try:
        pid, key = new_table(service, "秋の夜 🏇", 3, "ja")
        record(service, pid, key, [(None, "red", "red 3"), ("blue", "blue", "blue 4")])
        seq = service.snapshot(pid).seq
        service.undo(pid, key, seq)
        service.redo(pid, key, seq + 1)
        service.rotate_key(pid, key, REFEREE)
        assert service.snapshot(pid).seq == seq + 2
        return pid
    finally:
        service.store.close()


@pytest.mark.parametrize("first", ["sqlite", "postgresql"])
def test_a_table_goes_between_sqlite_and_postgresql_and_back_unchanged(
    tmp_path: Path, pg_url: str, first: str
) -> None:
    sqlite_a, sqlite_b = str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")
    hops = [sqlite_a, pg_url, sqlite_b] if first == "sqlite" else [pg_url, sqlite_a, pg_url]
    if first == "postgresql":
        # the last hop comes back to PostgreSQL: a second schema, as another server would be
        from aids.store.throwaway import create_schema, with_schema

        base = pg_url.split("?")[0]
        create_schema(base, "t_cross_back")
        hops[2] = with_schema(base, "t_cross_back")
    pid = lived_in_table(hops[0])
    documents = []
    for n, where in enumerate(hops):
        out = tmp_path / f"hop{n}.json"
        aids("export", pid, "-o", str(out), store=where)
        documents.append(out.read_bytes())
        if n + 1 < len(hops):
            imported = aids("import", str(out), store=hops[n + 1])
            assert pid in imported.stdout
    assert documents[0] == documents[1] == documents[2]
    text = json.loads(documents[0])
    assert text["table"]["title"] == "秋の夜 🏇"
    assert [k["revoked_at"] is None for k in text["table"]["keys"]].count(False) == 1
    assert [e["kind"] for e in text["events"]][-2:] == ["undo", "redo"]
    states = []
    for where in hops:
        service = TableService(open_store(where), engines())
        try:
            states.append(service.replay(pid))
            assert service.snapshot(pid, Role.parse("referee")).can_undo
        finally:
            service.store.close()
    assert states[0] == states[1] == states[2]


def test_a_whole_event_goes_sqlite_to_postgresql_and_back_unchanged(
    tmp_path: Path, pg_url: str, with_fake_game: None
) -> None:
    """``aids meet export``/``import``: an event of a finished table (the tests' Sealed
    Sprint), a Derby race in play and a new one moves to PostgreSQL and back; the documents
    are identical and so are the standings."""
    from aids.meets import MeetService
    from tests.meets.helpers import sprint_in_meet

    first, back = str(tmp_path / "laptop.sqlite3"), str(tmp_path / "back.sqlite3")
    service = MeetService(TableService(open_store(first), engines()))
    try:
        meet, organiser = service.create("秋の競馬ナイト", "2026-11-28")
        pid = lived_in_table(first)
        service.add_table(meet.public_id, organiser, pid, host=True)  # its key was rotated
        setup = DerbySetup.default(["Aki", "Ben"]).to_dict()
        other, _ = service.new_table(meet.public_id, organiser, "derby", "第2卓", setup)
        sprint = sprint_in_meet(service, meet.public_id, organiser, "予選", ["Aki", "Chie"], [3, 1])
        standings = service.standings(meet.public_id)
        assert [(s.name, s.points) for s in standings][:2] == [("Aki", 10), ("Chie", 6)]
    finally:
        service.store.close()
    documents = []
    for n, (here, there) in enumerate([(first, pg_url), (pg_url, back), (back, None)]):
        out = tmp_path / f"event{n}.json"
        aids("meet", "export", meet.public_id, "-o", str(out), store=here)
        documents.append(out.read_bytes())
        if there is not None:
            assert meet.public_id in aids("meet", "import", str(out), store=there).stdout
    assert documents[0] == documents[1] == documents[2]
    assert [t["table"]["public_id"] for t in json.loads(documents[0])["tables"]] == [
        pid,
        other.public_id,
        sprint,
    ]
    for where in (pg_url, back):
        moved = MeetService(TableService(open_store(where), engines()))
        try:
            assert moved.standings(meet.public_id) == standings
        finally:
            moved.store.close()
