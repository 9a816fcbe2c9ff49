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
