"""The meet service on a real SQLite file: who may change an event, what is checked before
anything is written, tables in and out, a table started inside an event, and what the
event's page reads (only what a viewer may see)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aids.core.errors import AidsError
from aids.games.base import AnyGame, Role
from aids.games.derby.model import DerbySetup
from aids.meets import MeetService, Scoring
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from aids.tables.attempts import KeyAttempts
from tests.meets.helpers import sprint_in_meet, sprint_setup


def code_of(call: object) -> str:
    with pytest.raises(AidsError) as err:
        call()  # type: ignore[operator]
    return err.value.code


def test_create_gives_a_key_that_makes_the_organiser_and_stores_only_its_hash(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    pid, key = meet
    assert meets.role_for(pid, key) == "organiser"
    row = meets.store.get_meet(pid)
    assert key not in repr(row) and len(row.organiser_hash) == 64
    info = meets.info(pid)
    assert (info.title, info.date, info.scoring) == ("Friday night", "2025-03-07", Scoring())


@pytest.mark.parametrize(
    ("title", "code"),
    [("", "input/empty"), ("x" * 81, "input/too_long"), ("A\u200bki", "input/invisible"),
     (7, "input/not_text")],
)  # fmt: skip
def test_event_title_is_checked_like_a_table_title_and_nothing_is_written(
    meets: MeetService, title: object, code: str
) -> None:
    assert code_of(lambda: meets.create(title, "2025-03-07")) == code
    assert meets.list_meets() == []


@pytest.mark.parametrize(
    "date", ["2025-02-30", "２０２５-03-01", "2025-3-1", "1999-12-31", "2025-03-01x", "", None]
)
def test_event_date_must_be_a_real_day_in_ascii_digits(meets: MeetService, date: object) -> None:
    assert code_of(lambda: meets.create("Night", date)) == "meet/date"
    assert meets.list_meets() == []


def test_a_wrong_missing_or_malformed_key_is_a_viewer(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    pid, key = meet
    for wrong in (None, "", key + "x", "a" * 500, 12):
        assert meets.role_for(pid, wrong) == "viewer"


def test_unknown_or_malformed_event_id_is_not_found(meets: MeetService) -> None:
    assert code_of(lambda: meets.info("A" * 24)) == "meet/not_found"
    assert code_of(lambda: meets.info("../etc")) == "meet/not_found"


def test_wrong_organiser_keys_are_limited_per_client_and_never_pause_the_right_key(
    all_service: TableService,
) -> None:
    clock = [0.0]
    meets = MeetService(
        all_service, key_attempts=KeyAttempts(burst=2, refill_seconds=5, clock=lambda: clock[0])
    )
    other, other_key = meets.create("Other", "2025-03-07")
    info, key = meets.create("Locked", "2025-03-07")
    pid = info.public_id
    meets.role_for(pid, "wrong-1")
    meets.role_for(pid, "wrong-2")
    assert code_of(lambda: meets.role_for(pid, "wrong-3")) == "meet/key_attempts"
    assert code_of(lambda: meets.add_table(pid, "wrong-3", "x")) == "meet/key_attempts"
    assert meets.role_for(pid, key) == "organiser"  # the right key: never refused
    assert meets.role_for(pid, None) == "viewer"  # no key: never refused
    assert meets.role_for(other.public_id, other_key) == "organiser"
    assert meets.role_for(pid, "wrong-4", client="192.0.2.1") == "viewer"  # its own budget
    clock[0] = 5.0
    assert meets.role_for(pid, "wrong-5") == "viewer"


def test_only_the_organiser_key_changes_an_event_and_a_refusal_writes_nothing(
    meets: MeetService, meet: tuple[str, str], derby_table_all: tuple[str, str]
) -> None:
    pid, _ = meet
    table, referee = derby_table_all
    for wrong in (None, referee, "nope"):
        assert code_of(lambda w=wrong: meets.add_table(pid, w, table)) == "meet/forbidden"
        assert code_of(lambda w=wrong: meets.update(pid, w, title="X")) == "meet/forbidden"
        assert code_of(lambda w=wrong: meets.rotate_key(pid, w)) == "meet/forbidden"
    assert meets.tables_of(pid) == [] and meets.info(pid).title == "Friday night"


def test_a_table_joins_by_its_referee_link_or_id_and_key_and_no_key_is_kept(
    meets: MeetService, meet: tuple[str, str], all_service: TableService
) -> None:
    pid, key = meet
    ids = []
    for n in range(3):
        info, referee = all_service.create("sprint", f"T{n}", sprint_setup(["A", "B"]))
        if n == 0:
            meets.add_table(pid, key, info.public_id, table_key=referee)
        else:
            meets.add_table(pid, key, f"http://h:8501/?table={info.public_id}&key={referee}")
        ids.append((info.public_id, referee))
    assert [s.public_id for s in meets.tables_of(pid)] == [i for i, _ in ids]
    whole = repr(meets.export(pid))
    assert not any(referee in whole for _, referee in ids)


def test_a_table_joins_an_event_only_with_its_referees_consent(
    meets: MeetService, meet: tuple[str, str], all_service: TableService
) -> None:
    """Anyone may start an event, so naming a table is not enough: a viewer link, a bare id,
    a seat's key or a wrong key are refused and the table stays free; the host's tool needs
    no key."""
    pid, key = meet
    info, referee = all_service.create("sprint", "Mine", sprint_setup(["A", "B"]))
    seat = all_service.rotate_key(info.public_id, referee, Role.seat_of(0))
    for ref, table_key in [
        (info.public_id, None),
        (f"http://h:8501/?table={info.public_id}&lang=en", None),
        (f"http://h:8501/?table={info.public_id}&key={seat}", None),
        (info.public_id, "not-the-referee-key-0123456789"),
    ]:
        attempt = lambda r=ref, k=table_key: meets.add_table(pid, key, r, table_key=k)  # noqa: E731
        assert code_of(attempt) == "meet/needs_referee"
    assert meets.tables_of(pid) == []
    meets.add_table(pid, None, info.public_id, host=True)
    assert [s.public_id for s in meets.tables_of(pid)] == [info.public_id]


@pytest.mark.parametrize("ref", ["", "not a table", "http://h/?x=1", "http://h/?table=a&table=b"])
def test_a_table_reference_that_names_no_table_is_refused(
    meets: MeetService, meet: tuple[str, str], ref: str
) -> None:
    assert code_of(lambda: meets.add_table(*meet, ref)) == "meet/table_ref"


def test_a_table_counts_in_one_event_only(
    meets: MeetService, meet: tuple[str, str], derby_table_all: tuple[str, str]
) -> None:
    pid, key = meet
    table, referee = derby_table_all
    meets.add_table(pid, key, table, table_key=referee)
    assert code_of(lambda: meets.add_table(pid, key, table, table_key=referee)) == (
        "meet/already_in"
    )
    other, other_key = meets.create("Saturday", "2025-03-08")
    assert code_of(
        lambda: meets.add_table(other.public_id, other_key, table, table_key=referee)
    ) == ("meet/table_taken")
    assert meets.tables_of(other.public_id) == []


def test_taking_a_table_out_keeps_the_table(
    meets: MeetService, meet: tuple[str, str], all_service: TableService
) -> None:
    pid, key = meet
    table = sprint_in_meet(meets, pid, key, "T", ["A", "B"], [3, 1])
    meets.remove_table(pid, key, table)
    assert meets.tables_of(pid) == []
    assert all_service.snapshot(table).outcome is not None
    assert code_of(lambda: meets.remove_table(pid, key, table)) == "meet/not_in"


def test_a_new_table_inside_the_event_joins_it_with_its_own_referee_key(
    meets: MeetService, meet: tuple[str, str], all_service: TableService
) -> None:
    pid, key = meet
    info, referee = meets.new_table(pid, key, "sprint", "Heat 1", sprint_setup(["A", "B"]))
    assert [s.public_id for s in meets.tables_of(pid)] == [info.public_id]
    assert all_service.role_for(info.public_id, referee).is_referee
    assert meets.role_for(pid, referee) == "viewer"  # a table's key is not the organiser's


@pytest.mark.parametrize(
    ("kind", "title", "setup", "code"),
    [
        ("sprint", "Heat", {"names": ["A"]}, "sprint/setup"),
        ("sprint", "", {"names": ["A", "B"]}, "input/empty"),
        ("chess", "Heat", {}, "table/unknown_game"),
    ],
)
def test_a_refused_new_table_writes_nothing_anywhere(
    meets: MeetService, meet: tuple[str, str], kind: str, title: str, setup: object, code: str
) -> None:
    pid, key = meet
    assert code_of(lambda: meets.new_table(pid, key, kind, title, setup)) == code
    assert meets.tables.list_tables() == [] and meets.tables_of(pid) == []


def test_a_new_table_with_a_wrong_key_creates_no_table(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    pid, _ = meet
    setup = sprint_setup(["A", "B"])
    assert code_of(lambda: meets.new_table(pid, "bad", "sprint", "T", setup)) == "meet/forbidden"
    assert meets.tables.list_tables() == []


def test_an_event_holds_at_most_sixty_tables(
    meets: MeetService, meet: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("aids.meets.service.MAX_TABLES", 2)
    pid, key = meet
    for n in range(2):
        meets.new_table(pid, key, "sprint", f"T{n}", sprint_setup(["A", "B"]))
    assert code_of(lambda: meets.new_table(pid, key, "sprint", "T", sprint_setup(["A", "B"]))) == (
        "meet/too_many"
    )
    assert len(meets.tables.list_tables()) == 2


def test_title_date_and_scoring_change_and_a_bad_value_changes_nothing(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    pid, key = meet
    meets.update(pid, key, title="Saturday", date="2025-03-08", scoring=Scoring("score"))
    info = meets.info(pid)
    assert (info.title, info.date, info.scoring.rule) == ("Saturday", "2025-03-08", "score")
    assert code_of(lambda: meets.update(pid, key, title="Sun", date="2025-13-01")) == "meet/date"
    assert meets.info(pid).title == "Saturday"


def test_a_new_organiser_key_stops_the_old_one(meets: MeetService, meet: tuple[str, str]) -> None:
    pid, key = meet
    new = meets.rotate_key(pid, key)
    assert meets.role_for(pid, key) == "viewer"
    assert meets.role_for(pid, new) == "organiser"
    host = meets.reissue_key(pid)  # the host's way back in
    assert meets.role_for(pid, new) == "viewer" and meets.role_for(pid, host) == "organiser"


def test_the_event_page_reads_tables_as_a_viewer_so_sealed_choices_stay_sealed(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    pid, key = meet
    sprint_in_meet(meets, pid, key, "Heat", ["Aki", "Ben"], [3, None])  # Aki's 3 is sealed
    [status] = meets.tables_of(pid)
    assert status.snapshot.role.is_viewer
    assert 3 not in status.snapshot.state.pending  # held hidden from the event page
    assert not status.finished and status.to_move("en") == "Ben"
    assert "Ben" in status.line("en") and "Step 1" in status.line("en")


def test_a_finished_table_shows_its_winner_and_an_unfinished_one_gives_no_points(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    pid, key = meet
    sprint_in_meet(meets, pid, key, "Done", ["Aki", "Ben"], [3, 2])
    sprint_in_meet(meets, pid, key, "Open", ["Aki", "Chie"], [2, 2])  # a collision: in play
    done, open_ = meets.tables_of(pid)
    assert done.finished and done.leaders == ("Aki",) and "Aki" in done.line("en")
    assert not open_.finished
    rows = {r.name: r for r in meets.standings(pid)}
    assert (rows["Aki"].points, rows["Aki"].played, rows["Aki"].in_play) == (10, 1, 1)
    assert (rows["Chie"].points, rows["Chie"].played, rows["Chie"].in_play) == (0, 0, 1)


def test_players_are_one_person_across_tables_by_name_whatever_the_width_or_case(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    pid, key = meet
    sprint_in_meet(meets, pid, key, "A", ["Aki", "Ben"], [3, 2])
    sprint_in_meet(meets, pid, key, "B", ["ＡＫＩ", "ben"], [1, 3])
    rows = [(r.rank, r.name, r.points, r.played, r.wins) for r in meets.standings(pid)]
    assert rows == [(1, "Aki", 16, 2, 1), (1, "Ben", 16, 2, 1)]


def test_score_rule_adds_each_games_own_score(meets: MeetService, meet: tuple[str, str]) -> None:
    pid, key = meet
    meets.update(pid, key, scoring=Scoring("score"))
    sprint_in_meet(meets, pid, key, "A", ["Aki", "Ben"], [3, 2])  # positions 3, 2
    sprint_in_meet(meets, pid, key, "B", ["Aki", "Ben"], [1, 3])  # positions 1, 3
    assert [(r.name, r.points) for r in meets.standings(pid)] == [("Ben", 5), ("Aki", 4)]


def test_events_and_their_tables_survive_reopening_the_file(
    db_path: Path, games: dict[str, AnyGame]
) -> None:
    first = MeetService(TableService(SqliteStore(db_path), games))
    info, key = first.create("Night", "2025-03-07")
    sprint_in_meet(first, info.public_id, key, "A", ["Aki", "Ben"], [3, 2])
    first.store.close()
    again = MeetService(TableService(SqliteStore(db_path), games))
    assert [m.title for m in again.list_meets()] == ["Night"]
    assert [r.name for r in again.standings(info.public_id)] == ["Aki", "Ben"]
    assert again.role_for(info.public_id, key) == "organiser"


def test_membership_names_each_tables_event_and_only_tables_in_one(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    pid, key = meet
    inside = sprint_in_meet(meets, pid, key, "Heat", ["Aki", "Ben"])
    alone, _ = meets.tables.create("sprint", "Alone", sprint_setup(["Chie", "Dai"]))
    other, other_key = meets.create("Saturday", "2025-03-08")
    later = sprint_in_meet(meets, other.public_id, other_key, "Final", ["Aki", "Chie"])
    found = meets.membership()
    assert {t: m.public_id for t, m in found.items()} == {inside: pid, later: other.public_id}
    assert alone.public_id not in found and found[later].title == "Saturday"


def test_a_table_this_tracker_cannot_read_leaves_the_rest_of_the_event_working(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    """A tracker started without a plugin game (or with an older rules engine) still shows
    the event: the table it cannot read is left out of the statuses and standings, listed
    among the members, and can be taken out."""
    pid, key = meet
    unknown = sprint_in_meet(meets, pid, key, "Plugin", ["Aki", "Ben"], [3, 1])
    setup = DerbySetup.default(["Aki", "Chie"]).to_dict()
    derby, referee = meets.tables.create("derby", "Derby", setup)
    meets.add_table(pid, key, derby.public_id, table_key=referee)
    known = {k: g for k, g in meets.tables.games.items() if k != "sprint"}
    without = MeetService(TableService(meets.store, known))  # no fake game here
    assert [s.public_id for s in without.tables_of(pid)] == [derby.public_id]
    assert [t.public_id for t in without.members(pid)] == [unknown, derby.public_id]
    assert [s.name for s in without.standings(pid)] == ["Aki", "Chie"]
    without.remove_table(pid, key, unknown)
    assert [t.public_id for t in meets.members(pid)] == [derby.public_id]
