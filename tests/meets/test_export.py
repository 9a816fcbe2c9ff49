"""An event exported as one JSON document and imported into another file: checked whole
first (each table as a table import checks it, replaying its log), then stored all at once."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from aids.core.errors import AidsError
from aids.games.base import AnyGame
from aids.games.derby.model import DerbySetup
from aids.meets import MeetService
from aids.store.sqlite import SqliteStore
from aids.tables import TableService, load_export
from tests.meets.helpers import sprint_in_meet


@pytest.fixture
def night(meets: MeetService, meet: tuple[str, str]) -> dict[str, Any]:
    """An event of three tables (two finished, one with a collision still in play), exported
    and read back from its JSON text."""
    pid, key = meet
    sprint_in_meet(meets, pid, key, "Heat 1", ["Aki", "Ben", "Chie"], [3, 2, 1])
    sprint_in_meet(meets, pid, key, "Heat 2", ["Ben", "Dai"], [3, 1])
    sprint_in_meet(meets, pid, key, "Heat 3", ["Aki", "Dai"], [2, 2])
    return dict(load_export(json.dumps(meets.export(pid), ensure_ascii=False)))


@pytest.fixture
def other(tmp_path: Path, games: dict[str, AnyGame]) -> MeetService:
    """The meet service of another tracker, on its own file."""
    return MeetService(TableService(SqliteStore(tmp_path / "other.sqlite3"), games))


def refused(service: MeetService, doc: object) -> str:
    with pytest.raises(AidsError) as err:
        service.import_(doc)
    assert service.list_meets() == [] and service.tables.list_tables() == []  # nothing written
    return err.value.code


def test_export_has_the_meet_format_and_each_tables_own_export(night: dict[str, Any]) -> None:
    assert (night["format"], night["version"]) == ("race-night-aids/meet", 2)
    assert night["papers"] == []  # no table of this night was played on paper
    assert [t["table"]["title"] for t in night["tables"]] == ["Heat 1", "Heat 2", "Heat 3"]
    assert all(t["format"] == "race-night-aids/table" for t in night["tables"])


def test_an_imported_event_has_the_same_tables_standings_and_organiser(
    meets: MeetService, meet: tuple[str, str], night: dict[str, Any], other: MeetService
) -> None:
    pid, key = meet
    info = other.import_(night)
    assert info == meets.info(pid)
    assert other.standings(pid) == meets.standings(pid)
    assert [s.line("en") for s in other.tables_of(pid)] == [
        s.line("en") for s in meets.tables_of(pid)
    ]
    assert other.role_for(pid, key) == "organiser"  # the key's hash came along
    for status in other.tables_of(pid):
        assert other.tables.replay(status.public_id) == meets.tables.replay(status.public_id)


def test_an_event_whose_last_table_has_an_illegal_log_writes_nothing(
    night: dict[str, Any], other: MeetService
) -> None:
    bad = copy.deepcopy(night)
    bad["tables"][2]["events"][0]["payload"]["speed"] = 9  # not a speed of the game
    assert refused(other, bad) in {"sprint/action", "import/replay", "import/field"}


def test_an_event_with_a_table_already_here_writes_nothing(
    night: dict[str, Any], other: MeetService
) -> None:
    other.tables.import_(night["tables"][1])
    with pytest.raises(AidsError) as err:
        other.import_(night)
    assert err.value.code == "import/exists"
    assert other.list_meets() == [] and len(other.tables.list_tables()) == 1


def test_an_event_already_here_is_never_overwritten(
    meets: MeetService, night: dict[str, Any]
) -> None:
    with pytest.raises(AidsError) as err:
        meets.import_(night)
    assert err.value.code == "meet/exists"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(format="race-night-aids/table"), "format"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d["meet"].update(date="2025-02-30"), "meet.date"),
        (lambda d: d["meet"].update(title=""), None),
        (lambda d: d["meet"].pop("scoring"), "meet.scoring"),
        (lambda d: d["meet"].update(scoring={"rule": "placing", "points": [1, 5]}), "meet.scoring"),
        (lambda d: d["meet"].update(organiser_sha256="00"), "meet.organiser_sha256"),
        (lambda d: d["meet"].update(created_at="yesterday"), "meet.created_at"),
        (lambda d: d["tables"][1]["table"].update(title=""), None),
        (lambda d: d["tables"][1]["table"].pop("kind"), "tables[1].table.kind"),
        (lambda d: d["tables"].append(copy.deepcopy(d["tables"][0])), "tables[3].table.public_id"),
        (lambda d: d.update(tables={}), "tables"),
    ],
)
def test_a_damaged_event_file_names_the_first_wrong_field_and_writes_nothing(
    night: dict[str, Any], other: MeetService, change: Any, field: str | None
) -> None:
    bad = copy.deepcopy(night)
    change(bad)
    with pytest.raises(AidsError) as err:
        other.import_(bad)
    if field is not None:
        assert (err.value.code, err.value.params.get("field")) == ("import/field", field)
    else:
        assert err.value.code == "input/empty"
    assert other.list_meets() == [] and other.tables.list_tables() == []


def test_an_unknown_version_is_refused(night: dict[str, Any], other: MeetService) -> None:
    assert refused(other, dict(night, version=3)) == "meet/version"
    assert refused(other, dict(night, version=1)) == "import/field"  # version 1 had no papers


def test_a_version_1_export_from_before_paper_tables_still_imports(
    meets: MeetService, meet: tuple[str, str], night: dict[str, Any], other: MeetService
) -> None:
    old = {k: v for k, v in night.items() if k != "papers"} | {"version": 1}
    other.import_(old)
    assert other.standings(meet[0]) == meets.standings(meet[0])


def test_the_organisers_export_holds_only_what_viewers_see(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    pid, key = meet
    sprint_in_meet(meets, pid, key, "Done", ["Aki", "Ben"], [3, 2])
    assert meets.organiser_export(pid, key)["meet"]["public_id"] == pid
    sprint_in_meet(meets, pid, key, "Sealed", ["Aki", "Ben"], [3, None])  # Aki's 3 is sealed
    with pytest.raises(AidsError) as err:
        meets.organiser_export(pid, key)
    assert (err.value.code, err.value.params["title"]) == ("meet/export_hidden", "Sealed")
    with pytest.raises(AidsError) as err:
        meets.organiser_export(pid, "not the key")
    assert err.value.code == "meet/forbidden"
    assert len(meets.export(pid)["tables"]) == 2  # the host's backup is complete


def test_the_organisers_export_never_carries_a_simulations_seed(
    meets: MeetService, meet: tuple[str, str]
) -> None:
    """A Derby simulation's seed deals every hand: a table added by its public link, with no
    move made yet, would hand the organiser everyone's cards. Refused; the host's is whole."""
    pid, key = meet
    setup = DerbySetup.default(["Aki", "Ben", "Chie"], mode="simulation", seed=12345).to_dict()
    info, referee = meets.tables.create("derby", "Dealt", setup)
    meets.add_table(pid, key, info.public_id, table_key=referee)
    with pytest.raises(AidsError) as err:
        meets.organiser_export(pid, key)
    assert (err.value.code, err.value.params["title"]) == ("meet/export_hidden", "Dealt")
    assert meets.export(pid)["tables"][0]["table"]["setup"]["seed"] == 12345
