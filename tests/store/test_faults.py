"""Store faults a referee's laptop meets: a full disk, a read-only data folder.

Both use real file systems: a small tmpfs for the full disk and a read-only bind mount for
the read-only folder. Mounting needs root; elsewhere the tests skip and say why.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from aids.core.errors import StoreError
from aids.games.base import REFEREE
from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.base import EventRow
from aids.store.sqlite import SqliteStore
from aids.tables import TableService


def mount(*args: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting a test file system needs root")
    done = subprocess.run(["mount", *args], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount here: {done.stderr.strip()}")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 600 kB tmpfs: a full disk after a few hundred kB of writes."""
    folder = tmp_path / "disk"
    folder.mkdir()
    mount("-t", "tmpfs", "-o", "size=600k", "tmpfs", str(folder))
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


@pytest.fixture
def read_only_copy(tmp_path: Path) -> Iterator[tuple[Path, str, str]]:
    """A data folder holding one table, then bound read-only: (file, public id, key)."""
    source = tmp_path / "rw"
    source.mkdir()
    store = SqliteStore(source / "aids.sqlite3")
    service = TableService(store, engines())
    info, key = service.create("derby", "Backup", DerbySetup.default(["A", "B"]).to_dict())
    service.record(info.public_id, key, 0, {"type": "bet", "player": 0, "horse": 1})
    store.close()
    target = tmp_path / "ro"
    target.mkdir()
    mount("--bind", str(source), str(target))
    try:
        mount("-o", "remount,ro,bind", str(target))
        yield target / "aids.sqlite3", info.public_id, key
    finally:
        subprocess.run(["umount", "-l", str(target)], check=False)


def test_a_full_disk_refuses_the_write_cleanly_and_loses_nothing_acknowledged(
    small_disk: Path,
) -> None:
    store = SqliteStore(small_disk / "aids.sqlite3")
    service = TableService(store, engines())
    info, _ = service.create("derby", "Full", DerbySetup.default(["A", "B"]).to_dict())
    row = store.get_table(info.public_id)
    acknowledged = 0
    with pytest.raises(StoreError) as err:
        for seq in range(10_000):
            event = EventRow(seq + 1, "action", {"type": "pass", "n": "x" * 4000}, "t", "referee")
            store.append(row.id, seq, event)
            acknowledged += 1
    assert err.value.code == "store/full"
    assert str(small_disk) in err.value.message("en")
    assert "いっぱい" in err.value.message("ja")
    assert acknowledged > 10
    store.close()
    reopened = SqliteStore(small_disk / "aids.sqlite3")
    assert reopened.last_seq(row.id) == acknowledged  # every acknowledged write is there
    reopened.close()


def test_a_read_only_data_file_can_be_viewed_and_exported_not_changed(
    read_only_copy: tuple[Path, str, str],
) -> None:
    path, public_id, key = read_only_copy
    before = path.read_bytes()
    store = SqliteStore(path)
    service = TableService(store, engines())
    assert store.read_only
    assert service.snapshot(public_id).seq == 1
    assert service.role_for(public_id, key) == REFEREE
    assert len(service.export(public_id)["events"]) == 1
    with pytest.raises(StoreError) as err:
        service.record(public_id, key, 1, {"type": "play", "player": 0, "horse": 1,
                                             "card": "blue:3"})  # fmt: skip
    assert err.value.code == "store/read_only"
    assert "読み取り専用" in err.value.message("ja")
    store.close()
    assert path.read_bytes() == before
