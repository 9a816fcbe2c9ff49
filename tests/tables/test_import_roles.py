"""An imported table holds only the keys and actors its game's roles allow.

Anyone may import a file from the home page, so a file must not carry a hidden writer: a
``seat:N`` key on a game without seat keys (a Derby seat key recorded player 0's actions,
outlived the referee's rotation and could not be revoked), a seat beyond the table's seats,
a second live referee key or two live keys for one seat. A revoked key opens nothing and is
kept as it was. An event's import checks each of its tables the same way.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from aids.cli import main
from aids.core.errors import InvalidAction
from aids.games.base import REFEREE, AnyGame, Role
from aids.games.derby.model import DerbySetup
from aids.meets import MeetService
from aids.store.base import KeyRow
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from aids.tables.keys import hash_key, new_key, now

STAMP = "2026-11-29T21:00:00+00:00"


def with_key(doc: dict[str, Any], role: str, revoked: str | None = None) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    doc["table"]["keys"].append(
        {"role": role, "key_sha256": hash_key(new_key()), "created_at": STAMP,
         "revoked_at": revoked}
    )  # fmt: skip
    return doc


@pytest.fixture
def target(tmp_path: Path, games: dict[str, AnyGame]) -> TableService:
    """Another tracker's service, on its own file."""
    return TableService(SqliteStore(tmp_path / "target.sqlite3"), games)


@pytest.fixture
def derby_doc(service: TableService, derby_table: tuple[str, str]) -> dict[str, Any]:
    return service.export(derby_table[0])


@pytest.fixture
def gn_doc(service: TableService) -> dict[str, Any]:
    """A two-stable Grand National whose seats hold keys (the game has private input)."""
    game = service.game("gn")
    info, key = service.create("gn", "Aintree", game.setup_to_dict(
        game.default_setup(["Aki", "Ben"], "en")))  # fmt: skip
    for seat in (0, 1):
        service.rotate_key(info.public_id, key, Role.seat_of(seat))
    return service.export(info.public_id)


def refused(target: TableService, doc: object) -> InvalidAction:
    with pytest.raises(InvalidAction) as err:
        target.import_(json.loads(json.dumps(doc)))
    assert target.list_tables() == []
    return err.value


def test_a_live_seat_key_on_a_game_without_seat_keys_is_refused_naming_it(
    target: TableService, derby_doc: dict[str, Any]
) -> None:
    err = refused(target, with_key(derby_doc, "seat:0"))
    assert err.code == "import/seat_key"
    assert err.params["field"] == "table.keys[1].role"
    assert "table.keys[1].role" in err.message("en") and "seat:0" in err.message("ja")


def test_a_second_live_referee_key_is_refused(
    target: TableService, derby_doc: dict[str, Any]
) -> None:
    assert refused(target, with_key(derby_doc, "referee")).code == "import/key_twice"


def test_a_seat_key_beyond_the_tables_seats_is_refused(
    target: TableService, gn_doc: dict[str, Any]
) -> None:
    err = refused(target, with_key(gn_doc, "seat:2"))
    assert err.code == "import/seat_key_range" and err.params["seats"] == 2


def test_two_live_keys_for_one_seat_are_refused(
    target: TableService, gn_doc: dict[str, Any]
) -> None:
    assert refused(target, with_key(gn_doc, "seat:1")).code == "import/key_twice"


def test_revoked_keys_open_nothing_and_are_kept_as_they_were(
    target: TableService, derby_doc: dict[str, Any], gn_doc: dict[str, Any]
) -> None:
    doc = with_key(with_key(derby_doc, "seat:0", STAMP), "referee", STAMP)
    target.import_(doc)
    pid = doc["table"]["public_id"]

    def keys(listed: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return sorted(tuple(k.values()) for k in listed)

    assert keys(target.export(pid)["table"]["keys"]) == keys(doc["table"]["keys"])
    target.import_(with_key(gn_doc, "seat:1", STAMP))  # a rotated seat key, as exported


def test_a_legitimate_export_with_seat_keys_imports(
    target: TableService, gn_doc: dict[str, Any]
) -> None:
    info = target.import_(gn_doc)
    roles = sorted(k.role for k in target.store.keys(target.store.get_table(info.public_id).id))
    assert roles == ["referee", "seat:0", "seat:1"]


def test_an_event_import_refuses_a_table_with_a_forged_key(
    tmp_path: Path, games: dict[str, AnyGame], target: TableService
) -> None:
    meets = MeetService(TableService(SqliteStore(tmp_path / "night.sqlite3"), games))
    info, key = meets.create("Friday", "2026-11-29")
    meets.new_table(info.public_id, key, "derby", "Heat 1",
                    DerbySetup.default(["Aki", "Ben"]).to_dict())  # fmt: skip
    doc = meets.export(info.public_id)
    doc["tables"][0] = with_key(doc["tables"][0], "seat:0")
    other = MeetService(target)
    with pytest.raises(InvalidAction) as err:
        other.import_(json.loads(json.dumps(doc)))
    assert err.value.code == "import/seat_key"
    assert other.list_meets() == [] and target.list_tables() == []


def test_the_referee_lists_and_the_host_revokes_a_stray_key_of_an_older_import(
    service: TableService,
    derby_table: tuple[str, str],
    db_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A table imported before these checks may hold a stray key: the referee's list shows
    it, and ``aids key revoke --role seat:0`` (the host) stops it."""
    pid, key = derby_table
    row = service.store.get_table(pid)
    stray = new_key()
    service.store.replace_key(row.id, KeyRow("seat:0", hash_key(stray), now()), now())
    assert Role.seat_of(0) in {k.role for k in service.keys(pid, key) if k.revoked_at is None}
    monkeypatch.setenv("AIDS_DB", str(db_path))
    assert main(["--lang", "en", "key", "revoke", pid, "--role", "seat:0"]) == 0
    assert "seat:0" in capsys.readouterr().out
    assert service.role_for(pid, stray) != Role.seat_of(0)
    assert service.role_for(pid, key) == REFEREE
