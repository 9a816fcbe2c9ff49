"""The conformance suite every ``Store`` implementation must pass, on real files."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import psycopg
import pytest

import aids.store as stores
from aids.core.errors import AidsError, Forbidden, InvalidAction, NotFound, StaleState
from aids.store.base import REPLACED_KEEP, EventRow, KeyRow, MeetRow, Store, TableRow

# Every implementation, by where its data is: a SQLite file in this test's folder, or a fresh
# schema of its own on the PostgreSQL server. Opening the same place again must show the same
# data (a second process would do the same); ``open_store`` picks the store, as the app does.
STORES = ["sqlite", "postgresql"]

# What a store may raise when handed rows it cannot store (a duplicate primary key): one of
# our errors or its driver's own.
REFUSALS: tuple[type[Exception], ...] = (AidsError, sqlite3.Error, psycopg.Error)

T0 = "2026-11-29T21:13:19.199+00:00"
T1 = "2026-11-29T21:14:00.000+00:00"
T2 = "2026-11-29T21:15:00.000+00:00"
T3 = "2026-11-29T21:16:00.000+00:00"

SETUP_JA: dict[str, Any] = {
    "players": [{"name": "秋子", "colour": "red"}, {"name": "ベン", "colour": "blue"}],
    "horses": [{"name": "赤い稲妻", "colour": "red"}, {"name": "青嵐", "colour": "blue"}],
    "mode": "tracking",
    "seed": None,
    "notes": "第１レース「ダービー」🐎",
    "flags": [True, False, 0, 1.5],
}


def hash_of(label: str) -> str:
    """A well-formed key hash (64 hex digits), distinct per label."""
    return (label.encode().hex() * 64)[:64]


REFEREE_KEY = KeyRow("referee", hash_of("referee"), T0)
SEAT0_KEY = KeyRow("seat:0", hash_of("seat0"), T0)
SEAT1_KEY = KeyRow("seat:1", hash_of("seat1"), T0)


def table_row(public_id: str = "SnBN5p5SeQB7-yrzYBZH_y50", created_at: str = T0) -> TableRow:
    return TableRow(0, public_id, "derby", "金曜日のダービー", created_at, SETUP_JA, 3)


def action(n: int, actor: str = "referee", at: str = T1) -> EventRow:
    payload = {"type": "play", "player": 0, "horse": 1, "card": f"blue:{n}", "メモ": "一着"}
    return EventRow(n, "action", payload, at, actor)


@pytest.fixture(params=STORES)
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Store]]:
    """Opens the parametrized implementation on this test's data; closes all at teardown."""
    if request.param == "sqlite":
        where = str(tmp_path / "s.sqlite3")
    else:
        where = request.getfixturevalue("pg_url")
    opened: list[Store] = []

    def open_() -> Store:
        opened.append(stores.open_store(where))
        return opened[-1]

    yield open_
    for s in opened:
        s.close()


@pytest.fixture
def store(open_store: Callable[[], Store]) -> Store:
    return open_store()


@pytest.fixture
def table(store: Store) -> TableRow:
    """One table with a referee key and two seat keys, and no events."""
    return store.insert_table(table_row(), [REFEREE_KEY, SEAT0_KEY, SEAT1_KEY])


# --- tables -------------------------------------------------------------------------------


def test_insert_table_returns_new_id_and_same_values(store: Store) -> None:
    row = table_row()
    stored = store.insert_table(row, [REFEREE_KEY])
    other = store.insert_table(table_row("other-table-0123456789ab"), [REFEREE_KEY])
    assert stored.id > 0 and other.id > 0 and stored.id != other.id
    assert stored == replace(row, id=stored.id)


def test_get_table_round_trips_japanese_setup_and_rules_version(store: Store) -> None:
    stored = store.insert_table(table_row(), [REFEREE_KEY])
    got = store.get_table(stored.public_id)
    assert got == stored
    assert got.setup == SETUP_JA and got.setup["notes"] == "第１レース「ダービー」🐎"
    assert got.rules_version == 3


def test_exists_is_true_only_for_inserted_public_ids(store: Store) -> None:
    assert not store.exists("SnBN5p5SeQB7-yrzYBZH_y50")
    store.insert_table(table_row(), [REFEREE_KEY])
    assert store.exists("SnBN5p5SeQB7-yrzYBZH_y50")
    assert not store.exists("SnBN5p5SeQB7-yrzYBZH_y51")


def test_get_table_of_unknown_id_raises_not_found(store: Store) -> None:
    store.insert_table(table_row(), [REFEREE_KEY])
    with pytest.raises(NotFound) as err:
        store.get_table("no-such-table-0123456789")
    assert err.value.code == "table/not_found"


def test_duplicate_public_id_raises_import_exists_and_writes_nothing(store: Store) -> None:
    first = store.insert_table(table_row(), [REFEREE_KEY, SEAT0_KEY], [action(1)])
    clash = replace(table_row(), title="Impostor", setup={"players": []}, rules_version=9)
    with pytest.raises(InvalidAction) as err:
        store.insert_table(
            clash,
            [KeyRow("referee", hash_of("impostor"), T2)],
            [action(1, at=T2), action(2, at=T2)],
        )
    assert err.value.code == "import/exists"
    assert store.get_table(first.public_id) == first
    assert set(store.keys(first.id, include_revoked=True)) == {REFEREE_KEY, SEAT0_KEY}
    assert store.events(first.id) == [action(1)]
    assert store.list_tables() == [(first, 1)]


@pytest.mark.parametrize(
    ("keys", "events"),
    [
        ([REFEREE_KEY], [action(1), action(2), replace(action(3), seq=2)]),
        ([REFEREE_KEY, replace(SEAT0_KEY, key_hash=REFEREE_KEY.key_hash)], [action(1)]),
    ],
    ids=["two-events-same-seq", "two-keys-same-hash"],
)
def test_insert_table_with_an_invalid_row_stores_nothing_of_the_table(
    store: Store, keys: list[KeyRow], events: list[EventRow]
) -> None:
    row = table_row()
    with pytest.raises(REFUSALS):
        store.insert_table(row, keys, events)
    assert not store.exists(row.public_id)
    assert store.list_tables() == []
    # Nothing half-written blocks a correct insert of the same table afterwards.
    stored = store.insert_table(row, [REFEREE_KEY], [action(1)])
    assert store.keys(stored.id) == [REFEREE_KEY]
    assert store.events(stored.id) == [action(1)]


def test_insert_table_with_events_stores_the_whole_log(store: Store) -> None:
    log = [action(1), EventRow(2, "undo", None, T2), EventRow(3, "redo", None, T2, "seat:1")]
    stored = store.insert_table(table_row(), [REFEREE_KEY], log)
    assert store.events(stored.id) == log
    assert store.last_seq(stored.id) == 3


# --- events -------------------------------------------------------------------------------


def test_appended_events_come_back_in_order_with_payload_time_and_actor(
    store: Store, table: TableRow
) -> None:
    log = [
        action(1, "seat:0", T1),
        EventRow(2, "undo", None, T2, "referee"),
        EventRow(3, "redo", None, T3, "referee"),
        action(4, "seat:1", T3),
    ]
    for event in log:
        store.append(table.id, event.seq - 1, event)
    assert store.events(table.id) == log
    assert store.events(table.id)[0].payload == action(1).payload


def test_last_seq_is_zero_for_an_empty_log_then_the_newest_seq(
    store: Store, table: TableRow
) -> None:
    assert store.last_seq(table.id) == 0
    store.append(table.id, 0, action(1))
    store.append(table.id, 1, action(2))
    assert store.last_seq(table.id) == 2


def test_events_after_n_returns_only_later_events(store: Store, table: TableRow) -> None:
    for n in range(1, 6):
        store.append(table.id, n - 1, action(n))
    assert [e.seq for e in store.events(table.id, after=3)] == [4, 5]
    assert [e.seq for e in store.events(table.id, after=0)] == [1, 2, 3, 4, 5]
    assert store.events(table.id, after=5) == []


def test_sequence_numbers_are_per_table(store: Store, table: TableRow) -> None:
    other = store.insert_table(table_row("other-table-0123456789ab"), [REFEREE_KEY])
    store.append(table.id, 0, action(1))
    store.append(table.id, 1, action(2))
    store.append(other.id, 0, action(1, "seat:0"))
    assert store.last_seq(table.id) == 2 and store.last_seq(other.id) == 1
    assert store.events(other.id) == [action(1, "seat:0")]


@pytest.mark.parametrize(
    ("expected_seq", "event_seq"),
    [(0, 1), (1, 2), (3, 4)],
    ids=["behind", "same-seq-as-the-last-write", "ahead"],
)
def test_append_with_wrong_expected_seq_raises_stale_and_writes_nothing(
    store: Store, table: TableRow, expected_seq: int, event_seq: int
) -> None:
    store.append(table.id, 0, action(1))
    store.append(table.id, 1, action(2))
    event = action(event_seq, "seat:0", T3)
    with pytest.raises(StaleState) as err:
        store.append(table.id, expected_seq, event)
    assert err.value.code == "table/stale"
    assert store.events(table.id) == [action(1), action(2)]
    assert store.last_seq(table.id) == 2


def test_append_after_a_stale_refusal_still_works(store: Store, table: TableRow) -> None:
    store.append(table.id, 0, action(1))
    with pytest.raises(StaleState):
        store.append(table.id, 0, action(1, "seat:0"))
    store.append(table.id, 1, action(2))
    assert [e.seq for e in store.events(table.id)] == [1, 2]


def test_append_with_a_key_checks_it_is_live_and_held_by_the_actor(
    store: Store, table: TableRow
) -> None:
    store.append(table.id, 0, action(1), key_hash=REFEREE_KEY.key_hash)
    store.append(table.id, 1, action(2, actor="seat:0"), key_hash=SEAT0_KEY.key_hash)
    refusals = [
        (action(3, actor="seat:1"), SEAT0_KEY.key_hash),  # seat 0's key for seat 1's action
        (action(3), hash_of("nobody")),  # a key the table never had
    ]
    for event, key_hash in refusals:
        with pytest.raises(Forbidden):
            store.append(table.id, 2, event, key_hash=key_hash)
    store.revoke_keys(table.id, "seat:1", T1)
    with pytest.raises(Forbidden):
        store.append(table.id, 2, action(3, actor="seat:1"), key_hash=SEAT1_KEY.key_hash)
    assert [e.seq for e in store.events(table.id)] == [1, 2]


def test_append_never_leaves_a_gap_in_the_log(store: Store, table: TableRow) -> None:
    # The Protocol: ``event`` is appended "as expected_seq + 1". Refusing the mismatched row
    # is as good as storing it as seq 1; storing it as seq 3 is not.
    with pytest.raises(AidsError):
        store.append(table.id, 0, action(3))
    assert store.last_seq(table.id) == 0 and store.events(table.id) == []


def race(appenders: Sequence[Callable[[], None]]) -> tuple[int, list[BaseException]]:
    """Start the appenders together; returns how many succeeded and what the others raised."""
    barrier = threading.Barrier(len(appenders))
    won: list[int] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def run(append: Callable[[], None]) -> None:
        barrier.wait()
        try:
            append()
        except BaseException as exc:
            with lock:
                errors.append(exc)
        else:
            with lock:
                won.append(1)

    threads = [threading.Thread(target=run, args=(a,)) for a in appenders]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "an append hung"
    return len(won), errors


def assert_one_winner_per_round(stores: list[Store], table: TableRow, rounds: int) -> None:
    for n in range(rounds):
        appenders = [
            partial(s.append, table.id, n, action(n + 1, f"seat:{i}")) for i, s in enumerate(stores)
        ]
        won, errors = race(appenders)
        assert won == 1, f"round {n}: {won} writers won"
        assert len(errors) == len(stores) - 1
        assert all(isinstance(e, StaleState) for e in errors), errors
        assert all(e.code == "table/stale" for e in errors if isinstance(e, StaleState))
    events = stores[0].events(table.id)
    assert [e.seq for e in events] == list(range(1, rounds + 1))


def test_two_threads_appending_the_same_seq_exactly_one_wins(store: Store, table: TableRow) -> None:
    assert_one_winner_per_round([store, store], table, rounds=10)


def test_two_store_instances_appending_the_same_seq_exactly_one_wins(
    open_store: Callable[[], Store], store: Store, table: TableRow
) -> None:
    assert_one_winner_per_round([store, open_store()], table, rounds=10)


# --- keys ---------------------------------------------------------------------------------


def test_keys_returns_the_live_keys_given_to_insert_table(store: Store) -> None:
    old = KeyRow("seat:1", hash_of("old-seat1"), T0, revoked_at=T1)
    stored = store.insert_table(table_row(), [REFEREE_KEY, SEAT0_KEY, old])
    assert set(store.keys(stored.id)) == {REFEREE_KEY, SEAT0_KEY}
    assert set(store.keys(stored.id, include_revoked=True)) == {REFEREE_KEY, SEAT0_KEY, old}


def test_replace_key_revokes_every_live_key_of_the_role_and_adds_the_new_one(
    store: Store,
) -> None:
    second_seat0 = KeyRow("seat:0", hash_of("seat0-bis"), T0)
    stored = store.insert_table(table_row(), [REFEREE_KEY, SEAT0_KEY, second_seat0, SEAT1_KEY])
    new = KeyRow("seat:0", hash_of("seat0-new"), T2)
    store.replace_key(stored.id, new, T2)
    assert set(store.keys(stored.id)) == {REFEREE_KEY, new, SEAT1_KEY}
    assert set(store.keys(stored.id, include_revoked=True)) == {
        REFEREE_KEY,
        replace(SEAT0_KEY, revoked_at=T2),
        replace(second_seat0, revoked_at=T2),
        new,
        SEAT1_KEY,
    }


def test_replace_key_that_fails_revokes_nothing(store: Store, table: TableRow) -> None:
    # The new row clashes with an existing key: the revocation must roll back with it.
    with pytest.raises(REFUSALS):
        store.replace_key(table.id, replace(SEAT1_KEY, role="seat:0", created_at=T2), T2)
    assert set(store.keys(table.id, include_revoked=True)) == {
        REFEREE_KEY,
        SEAT0_KEY,
        SEAT1_KEY,
    }


def test_revoke_keys_returns_the_count_then_zero_and_spares_other_roles(store: Store) -> None:
    second_seat0 = KeyRow("seat:0", hash_of("seat0-bis"), T0)
    stored = store.insert_table(table_row(), [REFEREE_KEY, SEAT0_KEY, second_seat0, SEAT1_KEY])
    assert store.revoke_keys(stored.id, "seat:0", T2) == 2
    assert store.revoke_keys(stored.id, "seat:0", T3) == 0
    assert set(store.keys(stored.id)) == {REFEREE_KEY, SEAT1_KEY}
    revoked = [k for k in store.keys(stored.id, include_revoked=True) if k.role == "seat:0"]
    assert {k.revoked_at for k in revoked} == {T2}  # the second call changed nothing


def test_keys_of_one_table_are_not_touched_by_another(store: Store, table: TableRow) -> None:
    other = store.insert_table(table_row("other-table-0123456789ab"), [REFEREE_KEY, SEAT0_KEY])
    store.replace_key(other.id, KeyRow("referee", hash_of("other-ref"), T2), T2)
    assert store.revoke_keys(other.id, "seat:0", T2) == 1
    assert set(store.keys(table.id, include_revoked=True)) == {
        REFEREE_KEY,
        SEAT0_KEY,
        SEAT1_KEY,
    }


# --- listing and reopening ----------------------------------------------------------------


def test_list_tables_is_empty_for_a_new_store(store: Store) -> None:
    assert store.list_tables() == []


def test_list_tables_is_newest_first_with_each_tables_last_seq(store: Store) -> None:
    middle = store.insert_table(table_row("middle-table-0123456789a", T2), [REFEREE_KEY])
    oldest = store.insert_table(table_row("oldest-table-0123456789a", T1), [REFEREE_KEY])
    newest = store.insert_table(table_row("newest-table-0123456789a", T3), [REFEREE_KEY])
    for n in range(1, 4):
        store.append(oldest.id, n - 1, action(n))
    store.append(newest.id, 0, action(1))
    assert store.list_tables() == [(newest, 1), (middle, 0), (oldest, 3)]


def test_second_instance_on_the_same_data_sees_everything_the_first_wrote(
    open_store: Callable[[], Store], store: Store
) -> None:
    first = store.insert_table(table_row(), [REFEREE_KEY, SEAT0_KEY], [action(1)])
    store.append(first.id, 1, EventRow(2, "undo", None, T2))
    new = KeyRow("seat:0", hash_of("seat0-new"), T2)
    store.replace_key(first.id, new, T2)
    second = open_store()
    assert second.exists(first.public_id)
    assert second.get_table(first.public_id) == first
    assert second.list_tables() == [(first, 2)]
    assert second.events(first.id) == [action(1), EventRow(2, "undo", None, T2)]
    assert set(second.keys(first.id)) == {REFEREE_KEY, new}
    # ... and the other way round: the first instance sees what the second writes.
    second.append(first.id, 2, EventRow(3, "redo", None, T3, "seat:0"))
    assert store.last_seq(first.id) == 3
    assert store.events(first.id, after=2) == [EventRow(3, "redo", None, T3, "seat:0")]


def test_seen_seq_catches_up_with_a_write_of_another_instance(
    open_store: Callable[[], Store], store: Store, table: TableRow
) -> None:
    """A follower's view of the log length (SQLite: read; PostgreSQL: told by the server)
    reaches another process's write within a moment and never runs ahead of the log."""
    second = open_store()
    assert second.seen_seq(table.id) == 0
    for n in range(1, 4):
        store.append(table.id, n - 1, action(n))
    assert eventually(lambda: second.seen_seq(table.id) == 3)
    assert store.seen_seq(table.id) == 3  # the writer knows its own write at once


def eventually(check: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


# --- meets (events of many tables) --------------------------------------------------------

ORGANISER = hash_of("organiser")


def meet_row(public_id: str = "meet-night-0123456789abc", date: str = "2026-11-29") -> MeetRow:
    scoring = {"rule": "placing", "points": [10, 6, 4, 3, 2, 1]}
    return MeetRow(0, public_id, "秋の競馬ナイト 🏇", date, T0, scoring, ORGANISER)


def test_insert_meet_returns_a_new_id_and_reads_back_the_same(store: Store) -> None:
    stored = store.insert_meet(meet_row())
    other = store.insert_meet(meet_row("meet-other-0123456789abc"))
    assert stored.id > 0 and other.id > 0 and stored.id != other.id
    assert stored == replace(meet_row(), id=stored.id)
    assert store.get_meet(stored.public_id) == stored
    assert store.meet_tables(stored.id) == []


def test_get_meet_of_unknown_id_raises_meet_not_found(store: Store) -> None:
    with pytest.raises(NotFound) as err:
        store.get_meet("no-such-meet-0123456789a")
    assert err.value.code == "meet/not_found"


def test_list_meets_is_newest_night_first(store: Store) -> None:
    early = store.insert_meet(meet_row("meet-early-0123456789abc", "2026-10-01"))
    late = store.insert_meet(meet_row("meet-late-0123456789abcd", "2026-12-24"))
    assert store.list_meets() == [late, early]


def test_meet_tables_keep_the_order_they_joined_with_each_last_seq(
    store: Store, table: TableRow
) -> None:
    meet = store.insert_meet(meet_row())
    second = store.insert_table(table_row("second-table-0123456789a"), [REFEREE_KEY])
    store.add_meet_table(meet.id, second.id, by=ORGANISER)
    store.add_meet_table(meet.id, table.id, by=None)  # the host's own tool
    store.append(table.id, 0, action(1))
    assert store.meet_tables(meet.id) == [(second, 0), (table, 1)]
    assert store.meet_of(table.id) == meet and store.meet_of(second.id) == meet


def test_a_table_joins_one_meet_only(store: Store, table: TableRow) -> None:
    first = store.insert_meet(meet_row())
    other = store.insert_meet(meet_row("meet-other-0123456789abc"))
    store.add_meet_table(first.id, table.id, by=ORGANISER)
    for meet in (first, other):
        with pytest.raises(InvalidAction) as err:
            store.add_meet_table(meet.id, table.id, by=ORGANISER)
        assert err.value.code == "meet/table_taken"
    assert store.meet_tables(other.id) == [] and store.meet_of(table.id) == first


def test_meet_writes_need_the_organisers_key_hash_and_change_nothing_without_it(
    store: Store, table: TableRow
) -> None:
    meet = store.insert_meet(meet_row())
    wrong = hash_of("referee")
    with pytest.raises(Forbidden) as err:
        store.add_meet_table(meet.id, table.id, by=wrong)
    assert err.value.code == "meet/forbidden"
    with pytest.raises(Forbidden):
        store.update_meet(meet.id, by=wrong, title="Hijacked")
    store.add_meet_table(meet.id, table.id, by=ORGANISER)
    with pytest.raises(Forbidden):
        store.remove_meet_table(meet.id, table.id, by=wrong)
    assert store.get_meet(meet.public_id) == meet
    assert store.meet_tables(meet.id) == [(table, 0)]


def test_update_meet_changes_only_the_given_fields(store: Store) -> None:
    meet = store.insert_meet(meet_row())
    scoring = {"rule": "score"}
    store.update_meet(meet.id, by=ORGANISER, title="Winter night", scoring=scoring)
    assert store.get_meet(meet.public_id) == replace(meet, title="Winter night", scoring=scoring)
    store.update_meet(meet.id, by=ORGANISER, date="2026-12-01", organiser_hash=hash_of("new"))
    moved = store.get_meet(meet.public_id)
    assert (moved.date, moved.organiser_hash, moved.title) == (
        "2026-12-01",
        hash_of("new"),
        "Winter night",
    )
    with pytest.raises(Forbidden):  # the old key stops at once
        store.update_meet(meet.id, by=ORGANISER, title="Back")


def test_a_replaced_organiser_key_is_remembered_newest_first_in_the_same_write(
    store: Store,
) -> None:
    """Issue 18 §2: every organiser key the event replaced is kept (newest first, at most
    ``REPLACED_KEEP``), so an old link can be told it was replaced; other changes keep the
    list as it is."""
    meet = store.insert_meet(meet_row())
    assert meet.replaced == ()
    by = ORGANISER
    for n in range(3):
        store.update_meet(meet.id, by=by, organiser_hash=hash_of(f"k{n}"))
        by = hash_of(f"k{n}")
    store.update_meet(meet.id, by=by, title="Later")
    got = store.get_meet(meet.public_id)
    assert got.replaced == (hash_of("k1"), hash_of("k0"), ORGANISER)
    assert got.organiser_hash == hash_of("k2") and got.title == "Later"
    for n in range(3, 3 + REPLACED_KEEP):
        store.update_meet(meet.id, by=by, organiser_hash=hash_of(f"k{n}"))
        by = hash_of(f"k{n}")
    kept = store.get_meet(meet.public_id).replaced
    assert len(kept) == REPLACED_KEEP and kept[0] == hash_of(f"k{REPLACED_KEEP + 1}")


def test_remove_meet_table_frees_the_table_and_says_whether_it_was_there(
    store: Store, table: TableRow
) -> None:
    meet = store.insert_meet(meet_row())
    store.add_meet_table(meet.id, table.id, by=ORGANISER)
    assert store.remove_meet_table(meet.id, table.id, by=ORGANISER) is True
    assert store.remove_meet_table(meet.id, table.id, by=ORGANISER) is False
    assert store.meet_of(table.id) is None and store.meet_tables(meet.id) == []
    other = store.insert_meet(meet_row("meet-other-0123456789abc"))
    store.add_meet_table(other.id, table.id, by=ORGANISER)
    assert store.meet_of(table.id) == other


def test_meet_writes_on_unknown_meet_or_table_raise_not_found(
    store: Store, table: TableRow
) -> None:
    meet = store.insert_meet(meet_row())
    with pytest.raises(NotFound) as err:
        store.add_meet_table(meet.id + 1000, table.id, by=None)
    assert err.value.code == "meet/not_found"
    with pytest.raises(NotFound) as err:
        store.add_meet_table(meet.id, table.id + 1000, by=None)
    assert err.value.code == "table/not_found"


def test_insert_meet_with_tables_stores_every_table_log_and_key_in_order(store: Store) -> None:
    bundles = [
        (table_row("import-a-0123456789abcdef"), [REFEREE_KEY], [action(1), action(2)]),
        (table_row("import-b-0123456789abcdef"), [REFEREE_KEY, SEAT0_KEY], []),
    ]
    meet = store.insert_meet(meet_row(), bundles)
    got = store.meet_tables(meet.id)
    assert [(row.public_id, seq) for row, seq in got] == [
        ("import-a-0123456789abcdef", 2),
        ("import-b-0123456789abcdef", 0),
    ]
    assert store.events(got[0][0].id) == [action(1), action(2)]
    assert set(store.keys(got[1][0].id)) == {REFEREE_KEY, SEAT0_KEY}


@pytest.mark.parametrize("clash", ["meet", "table"])
def test_insert_meet_that_clashes_writes_nothing_at_all(
    store: Store, table: TableRow, clash: str
) -> None:
    existing = store.insert_meet(meet_row())
    public_id = existing.public_id if clash == "meet" else "fresh-meet-0123456789abc"
    bundles = [
        (table_row("import-a-0123456789abcdef"), [REFEREE_KEY], [action(1)]),
        (table_row(table.public_id if clash == "table" else "import-b-0123456789abcd"), [], []),
    ]
    with pytest.raises(InvalidAction) as err:
        store.insert_meet(meet_row(public_id), bundles)
    assert err.value.code == "import/exists"
    assert not store.exists("import-a-0123456789abcdef")
    assert store.list_meets() == [existing]
    assert [row.public_id for row, _ in store.list_tables()] == [table.public_id]


def test_insert_table_into_a_meet_joins_it_in_the_same_write(store: Store) -> None:
    meet = store.insert_meet(meet_row())
    first = store.insert_table(table_row(), [REFEREE_KEY], meet_id=meet.id, by=ORGANISER)
    second = store.insert_table(
        table_row("second-table-0123456789a"), [REFEREE_KEY], meet_id=meet.id, by=None
    )
    assert store.meet_tables(meet.id) == [(first, 0), (second, 0)]
    assert store.meet_of(first.id) == meet


@pytest.mark.parametrize(
    ("meet_offset", "by", "refusal"),
    [(0, hash_of("referee"), Forbidden), (1000, ORGANISER, NotFound)],
    ids=["wrong_organiser", "no_such_meet"],
)
def test_insert_table_into_a_meet_that_refuses_writes_no_table(
    store: Store, meet_offset: int, by: str, refusal: type[Exception]
) -> None:
    meet = store.insert_meet(meet_row())
    with pytest.raises(refusal):
        store.insert_table(table_row(), [REFEREE_KEY], meet_id=meet.id + meet_offset, by=by)
    assert not store.exists(table_row().public_id)
    assert store.list_tables() == [] and store.meet_tables(meet.id) == []


# --- live chances: computed once for every tracker on the store (issue 20) ----------------

FIGURES = '{"values": [0.25, 0.75], "note": "一着"}'


def test_the_first_claim_of_a_position_wins_and_its_figures_come_back_as_written(
    open_store: Callable[[], Store], table: TableRow
) -> None:
    """Issue 20, "compute each (table, log position) once": one tracker claims, another
    tracker on the same store is refused the claim and reads the first one's figures."""
    here, there = open_store(), open_store()
    assert here.claim_figures(table.id, 3, "tracker-a", T1, retake_before=T0)
    assert not there.claim_figures(table.id, 3, "tracker-b", T1, retake_before=T0)
    this, done = there.figures(table.id, 3)
    assert this is not None and (this.claimed_by, this.done, done) == ("tracker-a", False, None)
    here.put_figures(table.id, 3, FIGURES, keep=16)
    this, done = there.figures(table.id, 3)
    assert this == done and done is not None
    assert (done.done, done.payload) == (True, FIGURES)
    # a finished position is never claimed again, however old
    assert not there.claim_figures(table.id, 3, "tracker-b", T3, retake_before=T3)


def test_a_claim_left_unfinished_past_its_time_is_taken_over(store: Store, table: TableRow) -> None:
    """A tracker that stopped mid-computation does not leave a position without figures:
    a claim older than ``retake_before`` and not done goes to the next who asks."""
    assert store.claim_figures(table.id, 1, "gone", T0, retake_before=T0)
    assert not store.claim_figures(table.id, 1, "next", T1, retake_before=T0)
    assert store.claim_figures(table.id, 1, "next", T2, retake_before=T1)
    this, _ = store.figures(table.id, 1)
    assert this is not None and (this.claimed_by, this.claimed_at) == ("next", T2)


def test_a_failed_computation_is_stored_as_done_without_figures(
    store: Store, table: TableRow
) -> None:
    assert store.claim_figures(table.id, 2, "a", T1, retake_before=T0)
    store.put_figures(table.id, 2, None, keep=16)
    this, done = store.figures(table.id, 2)
    assert this is not None and this.done and this.payload is None and done == this


def test_a_page_gets_the_newest_figures_done_while_a_newer_position_is_computed(
    store: Store, table: TableRow
) -> None:
    for seq in (1, 2, 3):
        assert store.claim_figures(table.id, seq, "a", T1, retake_before=T0)
    store.put_figures(table.id, 1, '{"n": 1}', keep=16)
    store.put_figures(table.id, 2, '{"n": 2}', keep=16)
    this, done = store.figures(table.id, 3)
    assert this is not None and not this.done
    assert done is not None and (done.seq, done.payload) == (2, '{"n": 2}')
    assert store.figures(table.id, 9) == (None, done)


def test_old_positions_figures_are_forgotten_and_other_tables_untouched(
    store: Store, table: TableRow
) -> None:
    other = store.insert_table(table_row("OtherTable_0123456789abc"), [REFEREE_KEY])
    assert store.claim_figures(other.id, 1, "a", T1, retake_before=T0)
    store.put_figures(other.id, 1, '{"other": true}', keep=2)
    for seq in range(1, 7):
        assert store.claim_figures(table.id, seq, "a", T1, retake_before=T0)
        store.put_figures(table.id, seq, f'{{"n": {seq}}}', keep=2)
    assert store.figures(table.id, 3) == (None, None)
    assert [store.figures(table.id, s)[0] is not None for s in (4, 5, 6)] == [True] * 3
    assert store.figures(other.id, 1)[1] is not None


def test_of_many_trackers_claiming_at_once_exactly_one_wins(
    open_store: Callable[[], Store], table: TableRow
) -> None:
    trackers = [open_store() for _ in range(6)]
    barrier = threading.Barrier(len(trackers))
    won: list[str] = []
    lock = threading.Lock()

    def claim(n: int, store: Store) -> None:
        barrier.wait()
        if store.claim_figures(table.id, 5, f"t{n}", T1, retake_before=T0):
            with lock:
                won.append(f"t{n}")

    threads = [threading.Thread(target=claim, args=(n, s)) for n, s in enumerate(trackers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(won) == 1
    this, _ = trackers[0].figures(table.id, 5)
    assert this is not None and this.claimed_by == won[0]
