"""The store's paper tables of a meet (issue 21 §1): tables played on paper, with no action
log, only a result log (entered, corrected, confirmed). Every test runs on both stores, as
the conformance suite does (its fixtures: a SQLite file, a schema of the PostgreSQL server)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from aids.core.errors import Forbidden, InvalidAction, NotFound, StaleState
from aids.store.base import MeetRow, PaperEntry, PaperRow, Store
from tests.store import test_conformance as conformance
from tests.store.test_conformance import (
    ORGANISER,
    REFEREE_KEY,
    REFUSALS,
    SETUP_JA,
    T0,
    T1,
    T2,
    T3,
    action,
    hash_of,
    meet_row,
    race,
    table_row,
)

open_store = conformance.open_store  # the same fixture: every test on both stores
store = conformance.store

PHOTO = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"  # a SHA-256, hex
RESULT_JA: dict[str, Any] = {
    "places": [1, 2, 2],
    "seats": ["秋子", "ベン", "千恵「ちえ」"],
    "money": [1200, -600.5, None],
    "note": "第１卓：写真から🐎",
    "shared": True,
    "columns": {"名前": "速い", "nested": [[], {}, [0, 1.25]]},
}


def paper_row(public_id: str = "paper-table-0123456789ab", title: str = "紙の卓 一") -> PaperRow:
    return PaperRow(0, public_id, "derby", title, T0, SETUP_JA)


def entered(seq: int, result: dict[str, Any] | None = None, at: str = T1) -> PaperEntry:
    return PaperEntry(
        seq, "entered", RESULT_JA if result is None else result, PHOTO, "organiser", at
    )


def confirmed(seq: int, by: str = "host", at: str = T2) -> PaperEntry:
    return PaperEntry(seq, "confirmed", None, None, by, at)


@pytest.fixture
def meet(store: Store) -> MeetRow:
    return store.insert_meet(meet_row())


@pytest.fixture
def paper(store: Store, meet: MeetRow) -> PaperRow:
    return store.insert_paper(meet.id, paper_row(), by=ORGANISER)


# --- adding and reading -------------------------------------------------------------------


def test_insert_paper_returns_a_new_id_and_reads_back_its_japanese_title_and_setup(
    store: Store, meet: MeetRow
) -> None:
    first = store.insert_paper(meet.id, paper_row(), by=ORGANISER)
    second = store.insert_paper(meet.id, paper_row("paper-table-0123456789cd"), by=None)
    assert first.id > 0 and second.id > 0 and first.id != second.id
    assert first == replace(paper_row(), id=first.id)
    got = store.meet_papers(meet.id)
    assert got == [(first, []), (second, [])]
    assert got[0][0].title == "紙の卓 一" and got[0][0].setup == SETUP_JA
    # a paper table is no tracked table: it has no log of actions
    assert store.meet_tables(meet.id) == [] and store.list_tables() == []


def test_meet_papers_come_in_the_order_added_each_with_its_log_oldest_first(
    store: Store, meet: MeetRow
) -> None:
    rows = [
        store.insert_paper(meet.id, paper_row(f"paper-{n}-0123456789abcdef", f"卓{n}"), by=None)
        for n in range(3)
    ]
    other = store.insert_meet(meet_row("meet-other-0123456789abc"))
    elsewhere = store.insert_paper(other.id, paper_row("paper-else-0123456789abc"), by=None)
    store.append_paper(meet.id, rows[2].id, 0, [entered(1)], by=ORGANISER)
    store.append_paper(meet.id, rows[0].id, 0, [entered(1)], by=ORGANISER)
    store.append_paper(meet.id, rows[2].id, 1, [confirmed(2)], by=None)
    store.append_paper(meet.id, rows[2].id, 2, [entered(3, {"places": [2, 1]}, T3)], by=None)
    got = store.meet_papers(meet.id)
    assert [row for row, _ in got] == rows
    assert [[e.seq for e in log] for _, log in got] == [[1], [], [1, 2, 3]]
    assert got[2][1][-1].result == {"places": [2, 1]}
    assert store.meet_papers(other.id) == [(elsewhere, [])]
    assert store.meet_papers(meet.id + other.id + 1000) == []


def test_entries_round_trip_json_results_a_none_result_and_a_none_photo(
    store: Store, meet: MeetRow, paper: PaperRow
) -> None:
    corrected = PaperEntry(2, "corrected", {}, None, "host", T2)
    log = [entered(1), corrected, confirmed(3, "organiser", T3)]
    store.append_paper(meet.id, paper.id, 0, log, by=ORGANISER)
    (row, got), *_ = store.meet_papers(meet.id)
    assert row == paper and got == log
    assert got[0].result == RESULT_JA and got[0].photo == PHOTO and got[0].by == "organiser"
    assert got[1].result == {} and got[1].photo is None
    assert got[2].result is None and got[2].photo is None and got[2].step == "confirmed"


# --- who may write ------------------------------------------------------------------------


def test_paper_writes_need_the_organisers_key_hash_and_change_nothing_without_it(
    store: Store, meet: MeetRow, paper: PaperRow
) -> None:
    store.append_paper(meet.id, paper.id, 0, [entered(1)], by=ORGANISER)
    before = store.meet_papers(meet.id)
    wrong = hash_of("referee")
    with pytest.raises(Forbidden) as err:
        store.insert_paper(meet.id, paper_row("paper-new-0123456789abcd"), by=wrong)
    assert err.value.code == "meet/forbidden"
    with pytest.raises(Forbidden) as err:
        store.append_paper(meet.id, paper.id, 1, [confirmed(2)], by=wrong)
    assert err.value.code == "meet/forbidden"
    with pytest.raises(Forbidden) as err:
        store.remove_paper(meet.id, paper.id, by=wrong)
    assert err.value.code == "meet/forbidden"
    assert store.meet_papers(meet.id) == before
    store.append_paper(meet.id, paper.id, 1, [confirmed(2)], by=None)  # the host's own tool
    assert [e.seq for e in store.meet_papers(meet.id)[0][1]] == [1, 2]


def test_a_replaced_organiser_key_writes_no_paper_table(store: Store, meet: MeetRow) -> None:
    store.update_meet(meet.id, by=ORGANISER, organiser_hash=hash_of("new"))
    with pytest.raises(Forbidden):
        store.insert_paper(meet.id, paper_row(), by=ORGANISER)
    assert store.meet_papers(meet.id) == []
    assert store.insert_paper(meet.id, paper_row(), by=hash_of("new")).id > 0


def test_paper_writes_on_an_unknown_meet_raise_meet_not_found(store: Store, meet: MeetRow) -> None:
    with pytest.raises(NotFound) as err:
        store.insert_paper(meet.id + 1000, paper_row(), by=None)
    assert err.value.code == "meet/not_found"
    with pytest.raises(NotFound) as err:
        store.remove_paper(meet.id + 1000, 1, by=None)
    assert err.value.code == "meet/not_found"
    assert store.meet_papers(meet.id) == [] and store.meet_papers(meet.id + 1000) == []


def test_append_paper_to_a_paper_table_not_of_that_meet_raises_paper_not_found(
    store: Store, meet: MeetRow, paper: PaperRow
) -> None:
    other = store.insert_meet(meet_row("meet-other-0123456789abc"))
    for meet_id, paper_id in [(other.id, paper.id), (meet.id, paper.id + 1000)]:
        with pytest.raises(NotFound) as err:
            store.append_paper(meet_id, paper_id, 0, [entered(1)], by=None)
        assert err.value.code == "meet/paper_not_found"
    # the other meet's organiser is no organiser of this one's paper tables either
    with pytest.raises(NotFound):
        store.append_paper(other.id, paper.id, 0, [entered(1)], by=ORGANISER)
    assert store.meet_papers(meet.id) == [(paper, [])] and store.meet_papers(other.id) == []


# --- the result log -----------------------------------------------------------------------


def test_append_paper_with_a_stale_seq_raises_paper_stale_and_writes_nothing(
    store: Store, meet: MeetRow, paper: PaperRow
) -> None:
    store.append_paper(meet.id, paper.id, 0, [entered(1)], by=ORGANISER)
    before = store.meet_papers(meet.id)
    for seen in (0, 4):  # behind the log, or ahead of it
        late = [PaperEntry(seen + 1, "corrected", {"places": [1]}, None, "organiser", T2)]
        with pytest.raises(StaleState) as err:
            store.append_paper(meet.id, paper.id, seen, late, by=ORGANISER)
        assert err.value.code == "paper/stale"
        assert err.value.params == {"expected": seen, "actual": 1}
    assert store.meet_papers(meet.id) == before
    store.append_paper(meet.id, paper.id, 1, [confirmed(2)], by=ORGANISER)  # still works


def test_append_paper_writes_all_its_entries_or_none(
    store: Store, meet: MeetRow, paper: PaperRow
) -> None:
    store.append_paper(meet.id, paper.id, 0, [entered(1), confirmed(2)], by=ORGANISER)
    assert [e.step for e in store.meet_papers(meet.id)[0][1]] == ["entered", "confirmed"]
    unknown_step = PaperEntry(4, "guessed", None, None, "organiser", T3)
    with pytest.raises(REFUSALS):
        store.append_paper(meet.id, paper.id, 2, [entered(3), unknown_step], by=ORGANISER)
    assert [e.seq for e in store.meet_papers(meet.id)[0][1]] == [1, 2]


@pytest.mark.parametrize("seqs", [[4], [3, 3], [3, 5], [2]], ids=["skip", "repeat", "gap", "back"])
def test_append_paper_never_leaves_a_gap_or_repeats_a_step(
    store: Store, meet: MeetRow, paper: PaperRow, seqs: list[int]
) -> None:
    store.append_paper(meet.id, paper.id, 0, [entered(1), confirmed(2)], by=ORGANISER)
    with pytest.raises(InvalidAction) as err:
        store.append_paper(meet.id, paper.id, 2, [entered(n) for n in seqs], by=ORGANISER)
    assert err.value.code == "import/seq"
    assert [e.seq for e in store.meet_papers(meet.id)[0][1]] == [1, 2]


def assert_one_paper_writer_wins_each_round(
    stores: list[Store], meet: MeetRow, paper: PaperRow, rounds: int
) -> None:
    for n in range(rounds):
        writers = [
            partial(s.append_paper, meet.id, paper.id, n, [entered(n + 1, {"by": i})], by=ORGANISER)
            for i, s in enumerate(stores)
        ]
        won, errors = race(writers)
        assert won == 1, f"round {n}: {won} writers won"
        assert len(errors) == len(stores) - 1
        assert all(isinstance(e, StaleState) and e.code == "paper/stale" for e in errors), errors
    log = stores[0].meet_papers(meet.id)[0][1]
    assert [e.seq for e in log] == list(range(1, rounds + 1))


def test_two_threads_appending_the_same_paper_seq_exactly_one_wins(
    store: Store, meet: MeetRow, paper: PaperRow
) -> None:
    assert_one_paper_writer_wins_each_round([store, store], meet, paper, rounds=8)


def test_two_store_instances_appending_the_same_paper_seq_exactly_one_wins(
    open_store: Callable[[], Store], store: Store, meet: MeetRow, paper: PaperRow
) -> None:
    assert_one_paper_writer_wins_each_round([store, open_store(), open_store()], meet, paper, 8)


# --- removing -----------------------------------------------------------------------------


def test_remove_paper_takes_its_log_and_says_whether_it_was_there(
    store: Store, meet: MeetRow, paper: PaperRow
) -> None:
    kept = store.insert_paper(meet.id, paper_row("paper-kept-0123456789abc"), by=None)
    store.append_paper(meet.id, paper.id, 0, [entered(1), confirmed(2)], by=ORGANISER)
    store.append_paper(meet.id, kept.id, 0, [entered(1)], by=ORGANISER)
    other = store.insert_meet(meet_row("meet-other-0123456789abc"))
    assert store.remove_paper(other.id, paper.id, by=ORGANISER) is False  # not that meet's
    assert len(store.meet_papers(meet.id)) == 2
    assert store.remove_paper(meet.id, paper.id, by=ORGANISER) is True
    assert store.remove_paper(meet.id, paper.id, by=ORGANISER) is False
    assert store.meet_papers(meet.id) == [(kept, [entered(1)])]
    # a page still naming the removed paper table writes nowhere, not even to a new one
    again = store.insert_paper(meet.id, paper_row(), by=ORGANISER)  # its public id is free
    assert again.id != paper.id
    with pytest.raises(NotFound) as err:
        store.append_paper(meet.id, paper.id, 0, [entered(1)], by=ORGANISER)
    assert err.value.code == "meet/paper_not_found"
    assert store.meet_papers(meet.id) == [(kept, [entered(1)]), (again, [])]


# --- public ids and imports ---------------------------------------------------------------


def test_a_taken_paper_public_id_raises_import_exists_and_writes_nothing(
    store: Store, meet: MeetRow, paper: PaperRow
) -> None:
    other = store.insert_meet(meet_row("meet-other-0123456789abc"))
    for meet_id in (meet.id, other.id):
        with pytest.raises(InvalidAction) as err:
            store.insert_paper(meet_id, replace(paper_row(), title="Impostor"), by=None)
        assert err.value.code == "import/exists"
        assert err.value.params["public_id"] == paper.public_id
    assert store.meet_papers(meet.id) == [(paper, [])] and store.meet_papers(other.id) == []


def test_insert_meet_with_paper_tables_stores_them_with_their_logs_in_order(
    store: Store,
) -> None:
    tables = [(table_row("import-a-0123456789abcdef"), [REFEREE_KEY], [action(1)])]
    papers = [
        (paper_row("import-p1-0123456789abcde"), [entered(1), confirmed(2)]),
        (paper_row("import-p2-0123456789abcde", "二卓目"), []),
    ]
    meet = store.insert_meet(meet_row(), tables, papers)
    got = store.meet_papers(meet.id)
    assert [(row.public_id, row.title, log) for row, log in got] == [
        ("import-p1-0123456789abcde", "紙の卓 一", [entered(1), confirmed(2)]),
        ("import-p2-0123456789abcde", "二卓目", []),
    ]
    assert all(row.id > 0 for row, _ in got)
    assert [(t.public_id, seq) for t, seq in store.meet_tables(meet.id)] == [
        ("import-a-0123456789abcdef", 1)
    ]
    store.append_paper(meet.id, got[1][0].id, 0, [entered(1)], by=ORGANISER)  # it goes on


@pytest.mark.parametrize("clash", ["meet", "table", "paper", "paper_twice"])
def test_insert_meet_with_paper_tables_that_clashes_writes_nothing_at_all(
    store: Store, meet: MeetRow, paper: PaperRow, clash: str
) -> None:
    store.append_paper(meet.id, paper.id, 0, [entered(1)], by=ORGANISER)
    table = store.insert_table(table_row(), [REFEREE_KEY])
    before = (store.list_meets(), store.meet_papers(meet.id), store.list_tables())
    new_paper = paper_row("import-p1-0123456789abcde")
    papers = [
        (new_paper, [entered(1)]),
        (paper if clash == "paper" else paper_row("import-p2-0123456789abcde"), [entered(1)]),
    ]
    if clash == "paper_twice":  # the document itself names one paper table twice
        papers.append((new_paper, []))
    tables = [
        (table_row("import-a-0123456789abcdef"), [REFEREE_KEY], [action(1)]),
        (table_row(table.public_id if clash == "table" else "import-b-0123456789abcd"), [], []),
    ]
    public_id = meet.public_id if clash == "meet" else "fresh-meet-0123456789abc"
    with pytest.raises(InvalidAction) as err:
        store.insert_meet(meet_row(public_id), tables, papers)
    assert err.value.code == "import/exists"
    assert (store.list_meets(), store.meet_papers(meet.id), store.list_tables()) == before
    assert not store.exists("import-a-0123456789abcdef")
    # nothing half-written blocks an import of the same rows without the clash
    again = store.insert_meet(meet_row("fresh-meet-0123456789abc"), tables[:1], papers[:1])
    assert [row.public_id for row, _ in store.meet_papers(again.id)] == [new_paper.public_id]


def test_insert_meet_with_a_paper_log_that_skips_a_step_writes_nothing(store: Store) -> None:
    papers = [(paper_row(), [entered(1), confirmed(3)])]
    with pytest.raises(InvalidAction) as err:
        store.insert_meet(meet_row(), [], papers)
    assert err.value.code == "import/seq"
    assert store.list_meets() == []


def test_an_entry_racing_the_removal_of_its_paper_table_is_refused_or_removed_with_it(
    open_store: Callable[[], Store], store: Store, meet: MeetRow
) -> None:
    """Whichever write goes first, the other is told plainly: an entry written first goes
    with the table, or is refused as the table is gone; never a fault of the store."""
    there = open_store()
    for n in range(6):
        paper = store.insert_paper(meet.id, paper_row(f"racing-{n}-0123456789abcdef"), by=None)
        write = partial(there.append_paper, meet.id, paper.id, 0, [entered(1)], by=ORGANISER)
        remove = partial(store.remove_paper, meet.id, paper.id, by=ORGANISER)
        won, errors = race([write, remove] if n % 2 else [remove, write])
        assert won + len(errors) == 2
        assert all(isinstance(e, NotFound) and e.code == "meet/paper_not_found" for e in errors)
        assert store.meet_papers(meet.id) == []


def test_append_papers_writes_every_tables_entries_in_one_transaction_or_none(
    store: Store, meet: MeetRow, paper: PaperRow
) -> None:
    """Issue 26 §2: several paper tables' results in one write (``aids meet scan --confirm``
    of many photos): a stale seq on the last table leaves the first untouched too."""
    from aids.store.base import PaperWrite

    other = store.insert_paper(meet.id, replace(paper_row(), public_id="Q" * 24), by=ORGANISER)
    store.append_paper(meet.id, other.id, 0, [entered(1)], by=ORGANISER)
    before = store.meet_papers(meet.id)
    stale = [PaperWrite(paper.id, 0, [entered(1)]), PaperWrite(other.id, 0, [entered(1)])]
    with pytest.raises(StaleState):
        store.append_papers(meet.id, stale, by=ORGANISER)
    assert store.meet_papers(meet.id) == before
    with pytest.raises(InvalidAction) as twice:
        twice_over = [
            PaperWrite(paper.id, 0, [entered(1)]),
            PaperWrite(paper.id, 1, [confirmed(2)]),
        ]
        store.append_papers(meet.id, twice_over, by=None)
    assert twice.value.code == "paper/twice" and store.meet_papers(meet.id) == before
    both = [PaperWrite(paper.id, 0, [entered(1)]), PaperWrite(other.id, 1, [confirmed(2)])]
    store.append_papers(meet.id, both, by=ORGANISER)
    logs = {row.id: [e.step for e in entries] for row, entries in store.meet_papers(meet.id)}
    assert logs == {paper.id: ["entered"], other.id: ["entered", "confirmed"]}
