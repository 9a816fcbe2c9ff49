"""Secrets stay with whoever may hold them: the referee's download, simulation seeds.

Real SQLite files in tmp dirs; the page's download is the service's ``referee_export``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aids.core.errors import Forbidden
from aids.games.base import REFEREE, SEED_BITS, Role, fresh_seed
from aids.games.derby.model import DerbySetup
from aids.games.rally.model import RallySetup
from aids.registry import engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.ui.conftest import new_app, open_sections

BET = {"type": "bet", "player": 0, "horse": 2}


def gn_table(service: TableService) -> tuple[str, str]:
    game = service.game("gn")
    setup = game.setup_to_dict(game.default_setup(["Aki", "Ben", "Chie"], "en"))
    info, key = service.create("gn", "Blind", setup)
    return info.public_id, key


def sealed_blind_bet(service: TableService) -> tuple[str, str]:
    """A Grand National table where seat 0 has sealed a blind bet on its own link."""
    pid, key = gn_table(service)
    seat = service.rotate_key(pid, key, Role.seat_of(0))
    game = service.game("gn")
    state = service.snapshot(pid, Role.seat_of(0)).state
    bet = next(
        a for a in game.legal_actions(state, Role.seat_of(0)) if type(a).__name__ == "BlindBet"
    )
    service.record(pid, seat, service.snapshot(pid).seq, bet)
    return pid, key


# --- the referee's download --------------------------------------------------------------------


def test_referee_export_refuses_while_a_blind_bet_is_sealed(service: TableService) -> None:
    """The blind bet is its seat's alone until settlement, even from the referee: the page's
    export (``referee_export``) is refused; the host's backup (``export``) holds it."""
    pid, key = sealed_blind_bet(service)
    with pytest.raises(Forbidden) as err:
        service.referee_export(pid, key)
    assert err.value.code == "table/export_sealed"
    assert any(e["kind"] == "action" for e in service.export(pid)["events"])


def test_referee_export_checks_the_key_when_the_file_is_made(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    """A tab kept open after its link was rotated gets nothing, not even what was written
    before the rotation."""
    pid, old = derby_table
    service.record(pid, old, 0, BET)
    assert json.dumps(service.referee_export(pid, old))  # the live key: the backup
    new = service.rotate_key(pid, old, REFEREE)
    with pytest.raises(Forbidden) as err:
        service.referee_export(pid, old)
    assert err.value.code == "table/forbidden"
    assert len(service.referee_export(pid, new)["events"]) == 1


def test_referee_export_of_a_simulation_holds_what_the_referee_sees(
    service: TableService,
) -> None:
    """In a Derby simulation the referee sees every hand and the seed: the export may hold
    them; a viewer's page offers no export at all."""
    setup = DerbySetup.default(["Aki", "Ben"], mode="simulation").to_dict()
    info, key = service.create("derby", "Sim", setup)
    document = service.referee_export(info.public_id, key)
    assert document["table"]["setup"]["seed"] == setup["seed"]


def test_the_page_offers_no_export_while_a_blind_bet_is_sealed(app_db: Path) -> None:
    service = TableService(SqliteStore(app_db), engines())
    pid, key = sealed_blind_bet(service)
    at = open_sections(new_app(table=pid, key=key, lang="en"))
    assert not at.exception
    keys = {getattr(b, "key", None) for b in at.get("download_button")}
    assert "download_export" not in keys
    assert any("still sealed" in c.value for c in at.caption)


# --- simulation seeds: 128 bits of secrets --------------------------------------------------------


def test_fresh_seeds_are_128_bits_of_secrets() -> None:
    seeds = {fresh_seed() for _ in range(64)}
    assert len(seeds) == 64
    assert max(s.bit_length() for s in seeds) > SEED_BITS - 8 >= 120


@pytest.mark.parametrize("setup_of", [DerbySetup.default, RallySetup.default])
def test_a_simulation_made_without_a_seed_gets_a_fresh_one(setup_of: object) -> None:
    assert callable(setup_of)
    seeds = {setup_of(["Aki", "Ben"], mode="simulation").seed for _ in range(8)}
    assert len(seeds) == 8 and all(s.bit_length() > 96 for s in seeds)


def test_the_rally_page_deals_a_simulation_from_a_128_bit_seed(app_db: Path) -> None:
    at = new_app(lang="en")
    at.selectbox(key="new_game").set_value("rally").run()
    at.text_input(key="new_title").set_value("Rally night")
    for i, name in enumerate(["Aki", "Ben"]):
        at.text_input(key=f"ra_player_{i}").set_value(name)
    at.radio(key="ra_mode").set_value("simulation")
    next(b for b in at.button if b.label == "Create table").click()
    at = at.run()
    assert not at.exception and not at.error
    state = TableService(SqliteStore(app_db), engines()).replay(at.query_params["table"])
    assert state.setup.mode == "simulation" and state.setup.seed.bit_length() > 96


def test_a_128_bit_seed_survives_export_and_import(service: TableService, tmp_path: Path) -> None:
    setup = RallySetup.default(["Aki", "Ben"], mode="simulation")
    info, key = service.create("rally", "Sim", setup.to_dict())
    service.record(info.public_id, key, 0, {"type": "draw", "seat": 0})
    document = json.loads(json.dumps(service.export(info.public_id)))
    other = TableService(SqliteStore(tmp_path / "other.sqlite3"), engines())
    other.import_(document)
    assert other.replay(info.public_id) == service.replay(info.public_id)
    assert other.replay(info.public_id).setup.seed == setup.seed


# --- stray keys: a key the game gives no role opens nothing -----------------------------------


def test_a_stray_seat_key_in_the_store_opens_nothing_and_the_referee_can_revoke_it(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    """A Derby has no seat links; a ``seat:0`` key that reached the store (an import before
    imports checked their keys) is the viewer's, and the referee sees it and revokes it."""
    from aids.store.base import KeyRow
    from aids.tables.keys import hash_key, new_key, now

    pid, key = derby_table
    stray = new_key()
    row = service.store.get_table(pid)
    service.store.replace_key(row.id, KeyRow("seat:0", hash_key(stray), now()), now())
    assert service.access(pid, stray).status == "wrong"
    with pytest.raises(Forbidden):
        service.record(pid, stray, 0, BET)
    assert Role.seat_of(0) in {k.role for k in service.keys(pid, key) if k.revoked_at is None}
    assert service.revoke_key(pid, key, Role.seat_of(0)) == 1
    assert all(k.revoked_at for k in service.keys(pid, key) if k.role == Role.seat_of(0))


def test_roles_from_python_callers_must_be_roles(
    service: TableService, derby_table: tuple[str, str]
) -> None:
    from aids.core.errors import InvalidAction

    pid, key = derby_table
    for call in (
        lambda: service.rotate_key(pid, key, "referee"),  # type: ignore[arg-type]
        lambda: service.revoke_key(pid, key, "seat:0"),  # type: ignore[arg-type]
        lambda: service.reissue_key(pid, "referee"),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidAction) as err:
            call()
        assert err.value.code == "table/role_type"


def test_the_referee_page_lists_a_stray_key_and_revokes_it(app_db: Path) -> None:
    from aids.store.base import KeyRow
    from aids.tables.keys import hash_key, new_key, now

    service = TableService(SqliteStore(app_db), engines())
    info, key = service.create("derby", "Stray", DerbySetup.default(["Aki", "Ben"]).to_dict())
    row = service.store.get_table(info.public_id)
    service.store.replace_key(row.id, KeyRow("seat:0", hash_key(new_key()), now()), now())
    at = open_sections(new_app(table=info.public_id, key=key, lang="en"))
    assert any("seat:0" in t.value and "opens nothing" in t.value for t in at.text)
    at.button(key="revoke_stray_seat:0").click()
    at = at.run()
    assert not at.exception
    live = {k.role for k in service.keys(info.public_id, key) if k.revoked_at is None}
    assert live == {REFEREE}
    assert not any("opens nothing" in t.value for t in at.text)
