"""Wrong keys cost the client that sends them, never the holder of the right key.

The rule (``aids.tables.attempts``): the right key is always taken; a key the table once had
(rotated or revoked) is answered "replaced" and spends nothing; only a key the table never had
spends one of the sending client's wrong keys (a burst, then one per few seconds). A token
bucket on a fake clock, no sleeps; real SQLite files in tmp dirs.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from aids.core.errors import Forbidden
from aids.games.base import REFEREE, VIEWER, Role
from aids.games.derby.model import DerbySetup
from aids.meets import MeetService
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from aids.tables.attempts import BURST, LOCAL, REFILL_SECONDS, KeyAttempts

BET = {"type": "bet", "player": 0, "horse": 2}
WRONG = "not-the-key-but-as-long-as-one-x"
ATTACKER = "203.0.113.66"
REFEREE_PHONE = "192.0.2.10"


class FakeClock:
    """``time.monotonic`` stand-in: moves only when a test moves it; counts its readings."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        return self.now


class CountingStore(SqliteStore):
    """The real SQLite store, counting how often the keys of a table are read."""

    key_reads = 0

    def keys(self, table_id: int, *, include_revoked: bool = False) -> list:  # type: ignore[type-arg]
        CountingStore.key_reads += 1
        return super().keys(table_id, include_revoked=include_revoked)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(db_path: Path, clock: FakeClock) -> TableService:
    """The shared fixture's service (``derby_table`` uses this one), on the fake clock."""
    return TableService(CountingStore(db_path), engines(), key_attempts=KeyAttempts(clock=clock))


def events_in_file(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])


def flood(service: TableService, pid: str, client: str = ATTACKER) -> None:
    """Spend ``client``'s whole burst on wrong keys (each still answered as a viewer)."""
    for _ in range(BURST):
        assert service.role_for(pid, WRONG, client=client) == VIEWER


def refused_seconds(call: object) -> int:
    assert callable(call)
    with pytest.raises(Forbidden) as err:
        call()
    assert err.value.code == "table/key_attempts"
    seconds = err.value.params["seconds"]
    assert isinstance(seconds, int)
    return seconds


def gn_table(service: TableService) -> tuple[str, str]:
    """A Grand National table (a game whose seats have links of their own)."""
    game = service.game("gn")
    setup = game.setup_to_dict(game.default_setup(["Aki", "Ben", "Chie"], "en"))
    info, key = service.create("gn", "Seats", setup)
    return info.public_id, key


# --- the right key is never refused ----------------------------------------------------------


def test_right_key_is_taken_after_a_flood_from_the_same_client(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    flood(service, pid, LOCAL)
    refused_seconds(lambda: service.role_for(pid, WRONG, client=LOCAL))
    assert service.role_for(pid, key, client=LOCAL) == REFEREE
    service.record(pid, key, 0, BET)  # and it writes
    assert service.snapshot(pid).seq == 1


def test_right_key_is_taken_from_another_client_during_a_flood(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    flood(service, pid)
    refused_seconds(lambda: service.role_for(pid, WRONG, client=ATTACKER))
    assert service.role_for(pid, key, client=REFEREE_PHONE) == REFEREE
    assert service.role_for(pid, WRONG, client=REFEREE_PHONE) == VIEWER  # its own budget


def test_attacker_flooding_every_listed_table_for_a_minute_refuses_no_referee_action(
    service: TableService, clock: FakeClock, db_path: Path
) -> None:
    """20 wrong keys a second to every table on the home page for 60 s, from one client,
    while the referee of each records 20 actions: every action is taken."""
    tables = []
    for n in range(3):
        info, key = service.create("derby", f"T{n}", DerbySetup.default(["A", "B"]).to_dict())
        tables.append((info.public_id, key))
    refused = accepted = 0
    actions = {pid: 0 for pid, _ in tables}
    for tick in range(60 * 20):
        clock.now += 0.05
        for pid, _ in tables:
            try:
                service.role_for(pid, WRONG, client=ATTACKER)
            except Forbidden:
                refused += 1
        if tick % 60 == 0:  # the referee of each table: a redraw, then a bet and an undo
            for pid, key in tables:
                assert service.role_for(pid, key, client=LOCAL) == REFEREE
                seq = service.snapshot(pid).seq
                if seq % 2 == 0:
                    service.record(pid, key, seq, BET)
                else:
                    service.undo(pid, key, seq)
                actions[pid] += 1
                accepted += 1
    assert actions == {pid: 20 for pid, _ in tables}
    assert accepted == 60 and events_in_file(db_path) == 60
    assert refused > 3 * 60 * 20 * 0.9  # the flood itself was held back


def test_flooding_client_is_refused_and_a_key_issued_elsewhere_works_at_once(
    service: TableService, clock: FakeClock, db_path: Path, derby_table: tuple[str, str]
) -> None:
    """Past its budget a client's wrong keys are refused (the flood costs its sender), yet
    a key another process issued a moment ago is taken at once from that same client: the
    keys this process read are never the reason a right key is refused (behind a proxy
    every visitor may share one client's budget)."""
    pid, key = derby_table
    flood(service, pid)
    other = TableService(SqliteStore(db_path), engines())  # the CLI, or a second tracker
    refused = 0
    for n in range(1000):
        clock.now += 0.005
        if n == 500:
            key = other.rotate_key(pid, key, REFEREE)
            assert service.role_for(pid, key, client=ATTACKER) == REFEREE  # at once
            continue
        try:
            service.role_for(pid, WRONG, client=ATTACKER)
        except Forbidden:
            refused += 1
    assert refused >= 997  # one token came back in the 5 s
    service.record(pid, key, 0, BET)  # and it writes
    assert service.snapshot(pid).seq == 1


def test_right_keys_never_spend_the_budget(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    for _ in range(5 * BURST):
        assert service.role_for(pid, key) == REFEREE
    service.record(pid, key, 0, BET)
    service.undo(pid, key, 1)
    flood(service, pid, LOCAL)  # the whole burst of wrong keys is still there
    refused_seconds(lambda: service.role_for(pid, WRONG))


# --- a key the table once had: "replaced", and free --------------------------------------------


def test_rotated_referee_link_is_answered_replaced_without_spending(
    service: TableService, derby_table: tuple[str, str], db_path: Path
) -> None:
    pid, old = derby_table
    new = service.rotate_key(pid, old, REFEREE)
    for _ in range(10 * BURST):  # an old tab redrawing all evening
        access = service.access(pid, old, client=LOCAL)
        assert (access.role, access.status) == (VIEWER, "replaced")
    with pytest.raises(Forbidden) as err:  # and a click on it says so, writing nothing
        service.record(pid, old, 0, BET)
    assert err.value.code == "table/key_replaced"
    assert events_in_file(db_path) == 0
    flood(service, pid, LOCAL)  # nothing of the burst was spent
    assert service.role_for(pid, new) == REFEREE


def test_three_stale_referee_tabs_refuse_none_of_twelve_clicks(
    service: TableService, clock: FakeClock, derby_table: tuple[str, str]
) -> None:
    """The lockout seen at a real table: three tabs kept open on old referee links redraw
    every 2 s beside the referee's page; all twelve of the referee's clicks are taken."""
    pid, key = derby_table
    stale = []
    for _ in range(3):
        stale.append(key)
        key = service.rotate_key(pid, key, REFEREE)
    for click in range(12):
        for _ in range(5):
            clock.now += 0.4
            for old in stale:
                assert service.access(pid, old, client=LOCAL).status == "replaced"
        assert service.role_for(pid, key, client=LOCAL) == REFEREE
        if click % 2 == 0:
            service.record(pid, key, click, BET)
        else:
            service.undo(pid, key, click)
    assert service.snapshot(pid).seq == 12


def test_players_old_seat_links_cost_nothing_after_every_seat_link_is_reissued(
    service: TableService,
) -> None:
    """Issuing every seat link to print them rotates every seat's key while the phones
    still hold the old ones: each phone is told its link was replaced, nothing is spent."""
    pid, key = gn_table(service)
    first = [service.rotate_key(pid, key, Role.seat_of(s)) for s in range(3)]
    second = [service.rotate_key(pid, key, Role.seat_of(s)) for s in range(3)]
    for _ in range(4 * BURST):
        for old in first:
            assert service.access(pid, old, client=LOCAL).status == "replaced"
    for seat, new in enumerate(second):
        assert service.role_for(pid, new) == Role.seat_of(seat)
    service.revoke_key(pid, key, Role.seat_of(1))
    assert service.access(pid, second[1]).status == "replaced"
    flood(service, pid, LOCAL)  # the whole burst is still there


# --- wrong keys: per client ---------------------------------------------------------------------


def test_past_the_burst_a_clients_wrong_keys_are_refused_with_the_wait(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    flood(service, pid)
    assert refused_seconds(lambda: service.role_for(pid, WRONG, client=ATTACKER)) == 3


def test_the_refusal_names_the_seconds_to_wait_in_both_languages(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    flood(service, pid)
    with pytest.raises(Forbidden) as err:
        service.role_for(pid, WRONG, client=ATTACKER)
    assert "3 s" in err.value.message("en") and "3 秒" in err.value.message("ja")


def test_the_wait_named_shrinks_as_the_clock_runs(
    service: TableService, clock: FakeClock, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    flood(service, pid)
    clock.now += 1
    assert refused_seconds(lambda: service.role_for(pid, WRONG, client=ATTACKER)) == 2
    clock.now += 1.5
    assert refused_seconds(lambda: service.role_for(pid, WRONG, client=ATTACKER)) == 1


def test_after_one_refill_a_guesser_gets_one_more_try_only(
    service: TableService, clock: FakeClock, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    flood(service, pid)
    clock.now += REFILL_SECONDS
    assert service.role_for(pid, WRONG, client=ATTACKER) == VIEWER
    assert refused_seconds(lambda: service.role_for(pid, WRONG, client=ATTACKER)) == 3


def test_a_full_refill_restores_the_whole_burst(
    service: TableService, clock: FakeClock, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    flood(service, pid)
    clock.now += BURST * REFILL_SECONDS
    flood(service, pid)
    refused_seconds(lambda: service.role_for(pid, WRONG, client=ATTACKER))


def test_the_budget_is_the_clients_across_tables(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    """A flooder gains nothing by spreading wrong keys over many tables."""
    pid, _ = derby_table
    other, _key = service.create("derby", "Other", DerbySetup.default(["A", "B"]).to_dict())
    flood(service, pid)
    refused_seconds(lambda: service.role_for(other.public_id, WRONG, client=ATTACKER))


def test_no_key_is_never_refused_even_while_a_client_is_over_its_budget(
    service: TableService, derby_table: tuple[str, str], db_path: Path
) -> None:
    pid, _ = derby_table
    flood(service, pid, LOCAL)
    for _ in range(3 * BURST):
        assert service.role_for(pid, None) == VIEWER
        assert service.role_for(pid, "") == VIEWER
    with pytest.raises(Forbidden) as err:  # a write without a key is the viewer's refusal
        service.record(pid, None, 0, BET)
    assert err.value.code == "table/forbidden"
    assert events_in_file(db_path) == 0


def test_a_viewer_without_a_key_never_touches_the_limiter(
    service: TableService, clock: FakeClock, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    service.record(pid, key, 0, BET)
    readings = clock.readings
    for _ in range(3 * BURST):  # what the viewer's page does on every run and every tick
        role = service.role_for(pid, None)
        snapshot = service.snapshot(pid, role)
        assert snapshot.seq == 1 and len(snapshot.log) == 1
    assert clock.readings == readings  # the limiter never even read its clock


def test_malformed_keys_count_as_wrong_keys(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, key = derby_table
    for bad in [" ", "k" * 100_000, 7, ["k"], "\udcff", "鍵", "x", "%41", "\x1b", b"k"]:
        assert service.role_for(pid, bad, client=ATTACKER) == VIEWER
    refused_seconds(lambda: service.role_for(pid, WRONG, client=ATTACKER))
    assert service.role_for(pid, key, client=ATTACKER) == REFEREE


def test_writes_with_a_wrong_key_write_nothing(
    service: TableService, derby_table: tuple[str, str], db_path: Path
) -> None:
    pid, key = derby_table
    for _ in range(BURST):
        with pytest.raises(Forbidden) as err:
            service.record(pid, WRONG, 0, BET)
        assert err.value.code == "table/forbidden"
    refused_seconds(lambda: service.undo(pid, WRONG, 0))
    assert events_in_file(db_path) == 0
    service.record(pid, key, 0, BET)  # the referee's own write is taken
    assert events_in_file(db_path) == 1


def test_wrong_keys_from_many_threads_spend_exactly_the_burst(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    barrier = threading.Barrier(4 * BURST)
    outcomes: list[str] = []

    def guess() -> None:
        barrier.wait()
        try:
            service.role_for(pid, WRONG, client=ATTACKER)
            outcomes.append("viewer")
        except Forbidden as err:
            outcomes.append(err.code)

    threads = [threading.Thread(target=guess) for _ in range(4 * BURST)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["table/key_attempts"] * (3 * BURST) + ["viewer"] * BURST


def test_the_wait_lasts_seconds_not_minutes() -> None:
    assert 5 <= BURST <= 20 and 1 <= REFILL_SECONDS <= 10


# --- the organiser likewise -------------------------------------------------------------------


def test_organiser_is_never_refused_during_a_flood_of_wrong_organiser_keys(
    service: TableService, clock: FakeClock
) -> None:
    meets = MeetService(service)
    info, key = meets.create("Night", "2026-12-01")
    refused = 0
    for tick in range(60 * 20):
        clock.now += 0.05
        try:
            meets.role_for(info.public_id, WRONG, client=ATTACKER)
        except Forbidden as err:
            assert err.code == "meet/key_attempts"
            refused += 1
        if tick % 60 == 0:
            assert meets.role_for(info.public_id, key, client=LOCAL) == "organiser"
            meets.update(info.public_id, key, title=f"Night {tick // 60}")
    assert meets.info(info.public_id).title == "Night 19"
    assert refused > 60 * 20 * 0.9


def test_wrong_keys_on_events_and_tables_share_one_budget_per_client(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    pid, _ = derby_table
    meets = MeetService(service)
    info, _key = meets.create("Night", "2026-12-01")
    flood(service, pid)
    with pytest.raises(Forbidden) as err:
        meets.role_for(info.public_id, WRONG, client=ATTACKER)
    assert err.value.code == "meet/key_attempts"


def test_three_stale_organiser_tabs_refuse_none_of_twelve_changes(
    service: TableService, clock: FakeClock
) -> None:
    """Issue 18 §2, "the organiser likewise": an organiser link the event once had is
    answered "replaced" and spends nothing, however often its tab redraws; the newest link
    makes every change, and this machine's budget of wrong keys stays whole."""
    meets = MeetService(service)
    info, key = meets.create("Night", "2026-12-01")
    stale = []
    for _ in range(3):
        stale.append(key)
        key = meets.rotate_key(info.public_id, key)
    for change in range(12):
        for _ in range(5):  # each old tab redraws every 2 s, from this machine
            clock.now += 0.4
            for old in stale:
                assert meets.access(info.public_id, old) == ("viewer", "replaced")
        assert meets.role_for(info.public_id, key) == "organiser"
        meets.update(info.public_id, key, title=f"Night {change}")
    assert meets.info(info.public_id).title == "Night 11"
    for _ in range(BURST):  # the whole burst is still there for a mistyped link
        assert meets.access(info.public_id, WRONG) == ("viewer", "wrong")
    with pytest.raises(Forbidden):
        meets.access(info.public_id, WRONG)
