"""The data file holds every secret (key hashes, sealed bets, seeds): this user's alone.

Real files in tmp dirs; modes read back with ``stat``.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import pytest

from aids.core.errors import StoreError
from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def open_umask() -> object:
    """The common default umask (022), under which files were created 0644."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_new_data_folder_and_file_are_the_users_alone(tmp_path: Path) -> None:
    path = tmp_path / "data" / "aids.sqlite3"
    service = TableService(SqliteStore(path), engines())
    info, key = service.create("derby", "Night", DerbySetup.default(["Aki", "Ben"]).to_dict())
    service.record(info.public_id, key, 0, {"type": "bet", "player": 0, "horse": 1})
    assert mode(path.parent) == 0o700
    assert mode(path) == 0o600
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    assert wal.exists() and shm.exists()
    assert mode(wal) == 0o600 and mode(shm) == 0o600


def test_a_data_file_of_an_older_release_readable_by_others_is_made_private(
    tmp_path: Path,
) -> None:
    path = tmp_path / "aids.sqlite3"
    SqliteStore(path)
    path.chmod(0o644)
    SqliteStore(path)
    assert mode(path) == 0o600


def test_a_file_of_another_program_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (t TEXT)")
    path.chmod(0o644)
    with pytest.raises(StoreError) as err:
        SqliteStore(path)
    assert err.value.code == "store/foreign"
    assert mode(path) == 0o644


def test_an_existing_folder_is_left_as_it_was(tmp_path: Path) -> None:
    """The folder may be the user's own (``AIDS_DATA_DIR``): only the file is tightened."""
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    SqliteStore(folder / "aids.sqlite3")
    assert mode(folder) == 0o755 and mode(folder / "aids.sqlite3") == 0o600


OTHER_PROCESS = """
import sys
from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
service = TableService(SqliteStore(sys.argv[1]), engines())
info, _ = service.create("derby", "There", DerbySetup.default(["Aki", "Ben"]).to_dict())
print(info.public_id, len(service.store.list_tables()))
"""


def _another_process(path: Path) -> tuple[str, int]:
    """Another process opens the file, adds a table, counts the tables it sees, closes."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", OTHER_PROCESS, str(path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    public_id, seen = done.stdout.split()
    return public_id, int(seen)


def test_opening_the_file_again_in_one_process_keeps_its_writes_seen_by_others(
    tmp_path: Path,
) -> None:
    """SQLite's locks belong to the process: closing any descriptor of the data file drops
    them all (SQLite's "How To Corrupt An SQLite Database File", 2.2). Making the file
    private must not open a file that exists, or a second store in one process (a tool, a
    test, a reconnect) leaves this process's connections unlocked: another process closing
    its own takes itself for the last one and deletes the WAL and its index while this one
    still writes to them; what this process wrote afterwards was never seen by any other
    (the browser tests' "No table with this link exists")."""
    path = tmp_path / "aids.sqlite3"
    here = TableService(SqliteStore(path), engines())
    setup = DerbySetup.default(["Aki", "Ben"]).to_dict()
    here.create("derby", "Here", setup)
    SqliteStore(path)  # the same file opened again in this process
    there, seen = _another_process(path)
    assert seen == 2
    assert here.snapshot(there).info.title == "There"
    here.create("derby", "Here again", setup)
    _, seen = _another_process(path)
    assert seen == 4, "a table written here after the second open is lost to other processes"


def test_the_hosts_backups_and_seat_link_sheets_are_the_users_alone(tmp_path: Path) -> None:
    """Issue 18 §1 (every artefact holding a secret): ``aids export -o`` and ``aids meet
    export -o`` hold key hashes, sealed choices and seeds, and ``aids print --seat-links``
    prints live seat keys: each is written 0600, even over an older file others could read;
    a blank sheet, which holds nothing secret, keeps the usual mode."""
    from tests.test_cli import aids, links

    db = tmp_path / "data" / "aids.sqlite3"
    pid, _ = links(aids("new", "gn", "--title", "Aintree", "--player", "Aki", "--player",
                        "Ben", db=db).stdout)  # fmt: skip
    backup = tmp_path / "table.json"
    backup.write_text("{}")
    backup.chmod(0o644)  # an older export, readable by others
    aids("export", pid, "-o", str(backup), db=db)
    assert mode(backup) == 0o600 and pid in backup.read_text()
    meet = aids("meet", "new", "--title", "Friday", "--date", "2025-03-07", db=db).stdout
    meet_id = meet.split("?meet=")[1].split("&")[0]
    night = tmp_path / "night.json"
    aids("meet", "export", meet_id, "-o", str(night), db=db)
    assert mode(night) == 0o600
    out = aids("print", "gn", "--table", pid, "--seat-links", "--sheet-lang", "en", "--out",
               str(tmp_path), db=db).stdout  # fmt: skip
    assert mode(Path(out.strip().splitlines()[-1])) == 0o600
    blank = aids("print", "derby", "--sheet-lang", "en", "--out", str(tmp_path), db=db).stdout
    assert mode(Path(blank.split()[0])) == 0o644
