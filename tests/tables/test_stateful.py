"""A hypothesis state machine for every game: legal and illegal actions interleaved with
undo/redo, export/import and reopening the store; after every step the replayed log equals
the live state and a refused step left the stored rows as they were."""

from __future__ import annotations

import random
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from aids.core.errors import AidsError
from aids.games.base import REFEREE, Role
from aids.registry import BUILT_IN, engines
from aids.store.sqlite import SqliteStore
from aids.tables import TableService
from tests.conftest import FAKE_PLUGIN
from tests.games.grand_national.invariants import gn_invariants
from tests.games.rally.invariants import rally_invariants

NAMES = ["Aki", "Ben", "Chie", "Dai"]
DIGEST_INVARIANTS: dict[str, Callable[[Any], None]] = {
    "rally": rally_invariants,
    "gn": gn_invariants,
}


def dump(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        return "\n".join(conn.iterdump())


def machine_for(kind: str) -> type[RuleBasedStateMachine]:
    class TableMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.folder = Path(tempfile.mkdtemp())
            self.db = self.folder / "m.sqlite3"
            self.service = TableService(SqliteStore(self.db), engines())
            game = self.service.game(kind)
            self.game = game
            setup = game.setup_to_dict(game.default_setup(NAMES[: game.info.seats[0]], "en"))
            info, self.key = self.service.create(kind, "Machine", setup)
            self.pid = info.public_id
            self.keys = {REFEREE: self.key}
            if game.info.seat_keys:
                for seat in range(game.info.seats[0]):
                    role = Role.seat_of(seat)
                    self.keys[role] = self.service.rotate_key(self.pid, self.key, role)

        def key_for(self, actor: Role) -> str:
            return self.keys.get(actor, self.key)

        @rule(seed=st.integers(0, 2**32 - 1))
        def legal_action(self, seed: int) -> None:
            rng = random.Random(seed)
            snap = self.service.snapshot(self.pid, REFEREE)
            if not snap.to_move:
                return
            actor = rng.choice(sorted(snap.to_move))
            options = self.game.legal_actions(self.service.replay(self.pid), actor)
            if options:
                action = self.game.action_to_dict(rng.choice(list(options)))
                self.service.record(self.pid, self.key_for(actor), snap.seq, action)

        @rule(
            seed=st.integers(0, 2**32 - 1),
            junk=st.sampled_from(
                [None, 7, "x", {}, {"type": "nonsense"}, {"type": "run", "team": 99, "leg": 1}]
            ),
        )
        def illegal_action(self, seed: int, junk: object) -> None:
            snap = self.service.snapshot(self.pid, REFEREE)
            before = dump(self.db)
            with pytest.raises(AidsError):
                self.service.record(self.pid, self.key, snap.seq, junk)
            with pytest.raises(AidsError):  # a stale write
                self.service.record(self.pid, self.key, snap.seq + 1, junk)
            assert dump(self.db) == before

        @rule()
        def undo(self) -> None:
            snap = self.service.snapshot(self.pid, REFEREE)
            if snap.can_undo:
                self.service.undo(self.pid, self.key, snap.seq)

        @rule()
        def redo(self) -> None:
            snap = self.service.snapshot(self.pid, REFEREE)
            if snap.can_redo:
                self.service.redo(self.pid, self.key, snap.seq)

        @rule()
        def export_and_import(self) -> None:
            other = TableService(SqliteStore(self.folder / "copy.sqlite3"), engines())
            if other.store.exists(self.pid):
                other.store.close()
                (self.folder / "copy.sqlite3").unlink()
                other = TableService(SqliteStore(self.folder / "copy.sqlite3"), engines())
            other.import_(self.service.export(self.pid))
            assert other.replay(self.pid) == self.service.replay(self.pid)
            other.store.close()
            for suffix in ("", "-wal", "-shm"):
                (self.folder / f"copy.sqlite3{suffix}").unlink(missing_ok=True)

        @rule()
        def reopen_the_store(self) -> None:
            self.service.store.close()
            self.service = TableService(SqliteStore(self.db), engines())

        @invariant()
        def the_digest_invariants_hold(self) -> None:
            check = DIGEST_INVARIANTS.get(kind)
            if check is not None:
                check(self.service.replay(self.pid))

        @invariant()
        def replay_equals_the_live_state(self) -> None:  # as the referee may see it
            live = self.service.snapshot(self.pid, REFEREE).state
            assert live == self.game.view(self.service.replay(self.pid), REFEREE)

        def teardown(self) -> None:
            self.service.store.close()

    TableMachine.__name__ = f"{kind.title()}Machine"
    return TableMachine


@pytest.mark.parametrize("kind", [entry.kind for entry in BUILT_IN] + ["sprint"])
def test_the_table_service_state_machine(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIDS_GAME_PLUGINS", FAKE_PLUGIN)
    machine = machine_for(kind)
    machine.TestCase.settings = settings(
        max_examples=15,
        stateful_step_count=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    machine.TestCase().runTest()
