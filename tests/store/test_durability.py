"""What survives a crash, and what two processes racing on one data file get.

Real processes on a real SQLite file: a writer killed with SIGKILL mid-run loses no action it
had acknowledged; two imports of one file at once give one table and one clean refusal.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService

ROOT = Path(__file__).resolve().parents[2]

WRITER = """
import sys
from aids.store.sqlite import SqliteStore
from aids.store.base import EventRow
store = SqliteStore(sys.argv[1])
table_id = store.get_table(sys.argv[2]).id
seq = store.last_seq(table_id)
while True:
    store.append(table_id, seq, EventRow(seq + 1, "undo", None, "t", "referee"))
    seq += 1
    print(seq, flush=True)  # acknowledged: the append has returned
"""


@pytest.mark.parametrize("run", range(5))
def test_a_writer_killed_mid_run_loses_no_acknowledged_event(tmp_path: Path, run: int) -> None:
    db = tmp_path / "kill.sqlite3"
    service = TableService(SqliteStore(db), engines())
    info, _ = service.create("derby", "Kill", DerbySetup.default(["A", "B"]).to_dict())
    service.store.close()
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db), info.public_id],
        stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    assert writer.stdout is not None
    acknowledged = 0
    deadline = time.monotonic() + 0.2 + run * 0.15
    while time.monotonic() < deadline:
        acknowledged = int(writer.stdout.readline())
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    assert acknowledged > 0
    store = SqliteStore(db)
    table_id = store.get_table(info.public_id).id
    stored = [e.seq for e in store.events(table_id)]
    assert stored == list(range(1, len(stored) + 1))  # no gap, no torn row
    assert len(stored) >= acknowledged
    store.close()


def test_two_processes_importing_one_file_one_wins_one_is_told(tmp_path: Path) -> None:
    source = TableService(SqliteStore(tmp_path / "source.sqlite3"), engines())
    info, key = source.create("derby", "Twice", DerbySetup.default(["A", "B"]).to_dict())
    source.record(info.public_id, key, 0, {"type": "bet", "player": 0, "horse": 1})
    exported = tmp_path / "table.json"
    exported.write_text(json.dumps(source.export(info.public_id)), encoding="utf-8")
    env = dict(os.environ, AIDS_DB=str(tmp_path / "target.sqlite3"))
    SqliteStore(tmp_path / "target.sqlite3").close()  # both processes find a ready file
    command = [sys.executable, "-m", "aids.cli", "--lang", "en", "import", str(exported)]
    pipe = subprocess.PIPE
    runs = [
        subprocess.Popen(command, stdout=pipe, stderr=pipe, text=True, env=env, cwd=ROOT)
        for _ in range(2)
    ]
    results = [(r.wait(timeout=60), r.stderr.read() if r.stderr else "") for r in runs]
    assert sorted(code for code, _ in results) == [0, 2]
    refusal = next(err for code, err in results if code == 2)
    assert "import/exists" in refusal and "Traceback" not in refusal
    target = TableService(SqliteStore(tmp_path / "target.sqlite3"), engines())
    assert [t.public_id for t, _ in target.list_tables()] == [info.public_id]
