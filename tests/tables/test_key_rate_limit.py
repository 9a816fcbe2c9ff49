"""Wrong keys are rate-limited per table (a token bucket on a fake clock, no sleeps); the
viewer without a key is never limited; real SQLite files in tmp dirs."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from aids.core.errors import Forbidden
from aids.games.base import REFEREE, VIEWER
from aids.games.derby.model import DerbySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from aids.tables.attempts import BURST, REFILL_SECONDS, KeyAttempts

BET = {"type": "bet", "player": 0, "horse": 2}
WRONG = "not-the-key-but-as-long-as-one-x"


class FakeClock:
    """``time.monotonic`` stand-in: moves only when a test moves it; counts its readings."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(db_path: Path, clock: FakeClock) -> TableService:
    """The shared fixture's service (``derby_table`` uses this one), on the fake clock."""
    return TableService(SqliteStore(db_path), engines(), key_attempts=KeyAttempts(clock=clock))


def events_in_file(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])


def lock(service: TableService, pid: str) -> None:
    """Spend the table's whole burst on wrong keys (each still answered as a viewer)."""
    for _ in range(BURST):
        assert service.role_for(pid, WRONG) == VIEWER


def refused_seconds(call: object) -> int:
    assert callable(call)
    with pytest.raises(Forbidden) as err:
        call()
    assert err.value.code == "table/key_attempts"
    seconds = err.value.params["seconds"]
    assert isinstance(seconds, int)
    return seconds


def test_past_the_burst_every_key_is_refused_even_the_right_one(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    lock(service, pid)
    assert refused_seconds(lambda: service.role_for(pid, WRONG)) == REFILL_SECONDS
    assert refused_seconds(lambda: service.role_for(pid, key)) == REFILL_SECONDS


def test_the_refusal_names_the_seconds_to_wait_in_both_languages(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    lock(service, pid)
    with pytest.raises(Forbidden) as err:
        service.role_for(pid, key)
    assert "3 s" in err.value.message("en") and "3 秒" in err.value.message("ja")


def test_the_wait_named_shrinks_as_the_clock_runs(
    service: TableService, clock: FakeClock, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    lock(service, pid)
    clock.now += 1
    assert refused_seconds(lambda: service.role_for(pid, WRONG)) == 2
    clock.now += 1.5
    assert refused_seconds(lambda: service.role_for(pid, WRONG)) == 1  # 0.5 s rounds up


def test_the_right_key_works_again_once_a_token_refills(
    service: TableService, clock: FakeClock, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    lock(service, pid)
    clock.now += REFILL_SECONDS - 0.01
    refused_seconds(lambda: service.role_for(pid, key))
    clock.now += 0.01
    assert service.role_for(pid, key) == REFEREE
    assert service.role_for(pid, key) == REFEREE  # a right key gave its token back


def test_after_one_refill_a_guesser_gets_one_more_try_only(
    service: TableService, clock: FakeClock, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    lock(service, pid)
    clock.now += REFILL_SECONDS
    assert service.role_for(pid, WRONG) == VIEWER
    assert refused_seconds(lambda: service.role_for(pid, WRONG)) == REFILL_SECONDS


def test_a_full_refill_restores_the_whole_burst(
    service: TableService, clock: FakeClock, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    lock(service, pid)
    clock.now += BURST * REFILL_SECONDS
    lock(service, pid)
    refused_seconds(lambda: service.role_for(pid, WRONG))


def test_no_key_is_never_refused_even_while_the_table_is_locked(
    service: TableService, derby_table: tuple[str, str], db_path: Path
) -> None:
    pid, _ = derby_table
    lock(service, pid)
    for _ in range(3 * BURST):
        assert service.role_for(pid, None) == VIEWER
        assert service.role_for(pid, "") == VIEWER
    with pytest.raises(Forbidden) as err:  # a write without a key is the viewer's refusal
        service.record(pid, None, 0, BET)
    assert err.value.code == "table/forbidden"
    assert events_in_file(db_path) == 0


def test_a_viewer_without_a_key_reads_during_the_lockout_without_touching_the_limiter(
    service: TableService, clock: FakeClock, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    service.record(pid, key, 0, BET)
    lock(service, pid)
    readings = clock.readings
    for _ in range(3 * BURST):  # what the viewer's page does on every run and every tick
        role = service.role_for(pid, None)
        snapshot = service.snapshot(pid, role)
        assert snapshot.seq == 1 and len(snapshot.log) == 1
    assert clock.readings == readings  # the limiter never even read its clock


def test_a_locked_table_does_not_lock_another_table(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    info, other_key = service.create("derby", "Other", DerbySetup.default(["A", "B"]).to_dict())
    lock(service, pid)
    refused_seconds(lambda: service.role_for(pid, WRONG))
    assert service.role_for(info.public_id, other_key) == REFEREE
    assert service.role_for(info.public_id, WRONG) == VIEWER  # its own budget, untouched
    service.record(info.public_id, other_key, 0, BET)


def test_right_keys_never_spend_the_budget(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    for _ in range(5 * BURST):
        assert service.role_for(pid, key) == REFEREE
    service.record(pid, key, 0, BET)
    service.undo(pid, key, 1)
    lock(service, pid)  # the whole burst of wrong keys is still there
    refused_seconds(lambda: service.role_for(pid, WRONG))


def test_wrong_keys_between_right_ones_still_lock(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    for _ in range(BURST):  # a right key in between does not reset the count
        assert service.role_for(pid, key) == REFEREE
        assert service.role_for(pid, WRONG) == VIEWER
    refused_seconds(lambda: service.role_for(pid, key))


def test_malformed_keys_count_as_wrong_keys(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    for bad in [" ", "k" * 100_000, 7, ["k"], "\udcff", "鍵", "x", "%41", "\x1b", b"k"]:
        assert service.role_for(pid, bad) == VIEWER
    refused_seconds(lambda: service.role_for(pid, key))


def test_writes_with_a_wrong_key_count_and_a_locked_table_writes_nothing(
    service: TableService, derby_table: tuple[str, str], db_path: Path
) -> None:
    pid, key = derby_table
    for _ in range(BURST):
        with pytest.raises(Forbidden) as err:
            service.record(pid, WRONG, 0, BET)
        assert err.value.code == "table/forbidden"
    refused_seconds(lambda: service.record(pid, key, 0, BET))  # even the referee's write
    refused_seconds(lambda: service.undo(pid, WRONG, 0))
    refused_seconds(lambda: service.rotate_key(pid, key, REFEREE))
    assert events_in_file(db_path) == 0
    assert service.snapshot(pid).seq == 0 and service.snapshot(pid).log == ()


def test_wrong_keys_from_many_threads_spend_exactly_the_burst(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    service.role_for(pid, None)
    barrier = threading.Barrier(4 * BURST)
    outcomes: list[str] = []

    def guess() -> None:
        barrier.wait()
        try:
            service.role_for(pid, WRONG)
            outcomes.append("viewer")
        except Forbidden as err:
            outcomes.append(err.code)

    threads = [threading.Thread(target=guess) for _ in range(4 * BURST)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["table/key_attempts"] * (3 * BURST) + ["viewer"] * BURST


def test_the_lockout_lasts_seconds_not_minutes() -> None:
    assert 5 <= BURST <= 20 and 1 <= REFILL_SECONDS <= 10  # a referee waits a few seconds
