"""Two trackers writing to one table on PostgreSQL, as a hypothesis state machine: each
tracker is its own table service and store (pool and listener), and each writes from its own
view, which may lag the other's writes. After every step: the log has no gap, every
acknowledged write is in it once, a refused write changed nothing, and once the notices have
arrived each tracker's cached state equals a fresh replay of the log."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from aids.core.errors import AidsError, StaleState
from aids.games.base import REFEREE
from aids.registry import engines
from aids.store.postgres import PostgresStore
from aids.tables import TableService
from tests.e2e.scenes import new_table


def machine_on(url: str) -> type[RuleBasedStateMachine]:
    class TwoTrackers(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.trackers = [TableService(PostgresStore(url), engines()) for _ in range(2)]
            self.pid, self.key = new_table(self.trackers[0], "Two trackers", 3)
            self.table_id = self.trackers[0].store.get_table(self.pid).id
            self.acknowledged: list[int] = []  # sequence numbers of successful writes

        def teardown(self) -> None:
            for t in self.trackers:
                t.store.close()

        @rule(who=st.integers(0, 1), seed=st.integers(0, 2**32 - 1))
        def act(self, who: int, seed: int) -> None:
            """A tracker records a legal action of its (possibly old) view."""
            service = self.trackers[who]
            snap = service.snapshot(self.pid, REFEREE)
            if not snap.to_move:
                return
            rng = random.Random(seed)
            actor = rng.choice(sorted(snap.to_move))
            options = list(service.game("derby").legal_actions(snap.state, actor))
            if not options:
                return
            action = service.game("derby").action_to_dict(rng.choice(options))
            self._write(lambda: service.record(self.pid, self.key, snap.seq, action), snap.seq)

        @rule(first=st.integers(0, 1), seed=st.integers(0, 2**32 - 1))
        def both_act_on_the_same_view(self, first: int, seed: int) -> None:
            """Both trackers show the same step and both record: the first wins, the second
            is refused as stale and writes nothing."""
            views = [t.snapshot(self.pid, REFEREE) for t in self.trackers]
            assert views[0].seq == views[1].seq
            if not views[0].to_move:
                return
            rng = random.Random(seed)
            game = self.trackers[0].game("derby")
            actor = rng.choice(sorted(views[0].to_move))
            options = list(game.legal_actions(views[0].state, actor))
            if not options:
                return
            action = game.action_to_dict(rng.choice(options))
            order = [first, 1 - first]
            won = self.trackers[order[0]].record(self.pid, self.key, views[0].seq, action)
            self.acknowledged.append(won.seq)
            before = self.trackers[0].store.events(self.table_id)
            try:
                self.trackers[order[1]].record(self.pid, self.key, views[1].seq, action)
            except StaleState as exc:
                assert exc.params["expected"] == views[1].seq
            else:
                raise AssertionError("two writes of one step were both acknowledged")
            assert self.trackers[0].store.events(self.table_id) == before

        @rule(who=st.integers(0, 1))
        def undo(self, who: int) -> None:
            service = self.trackers[who]
            snap = service.snapshot(self.pid, REFEREE)
            if snap.can_undo:
                self._write(lambda: service.undo(self.pid, self.key, snap.seq), snap.seq)

        @rule(who=st.integers(0, 1))
        def redo(self, who: int) -> None:
            service = self.trackers[who]
            snap = service.snapshot(self.pid, REFEREE)
            if snap.can_redo:
                self._write(lambda: service.redo(self.pid, self.key, snap.seq), snap.seq)

        def _write(self, write: object, seen: int) -> None:
            before = self.trackers[0].store.events(self.table_id)
            try:
                after = write()  # type: ignore[operator]
            except StaleState:
                assert seen < len(before)  # only a view that lagged is refused as stale
                assert self.trackers[0].store.events(self.table_id) == before
                return
            except AidsError:  # the engine refused on a view that lagged: nothing written
                assert self.trackers[0].store.events(self.table_id) == before
                return
            assert after.seq == seen + 1
            self.acknowledged.append(after.seq)

        @invariant()
        def the_log_is_whole_and_holds_each_acknowledged_write_once(self) -> None:
            seqs = [e.seq for e in self.trackers[1].store.events(self.table_id)]
            assert seqs == list(range(1, len(seqs) + 1))
            assert sorted(self.acknowledged) == seqs

        @invariant()
        def each_tracker_catches_up_to_a_fresh_replay(self) -> None:
            last = self.trackers[0].store.last_seq(self.table_id)
            truth = self.trackers[0].replay(self.pid)
            for service in self.trackers:
                deadline = time.monotonic() + 5
                while service.snapshot(self.pid).seq != last:
                    assert time.monotonic() < deadline, "the notice never came"
                    time.sleep(0.01)
                assert service.snapshot(self.pid, REFEREE).state == truth

    return TwoTrackers


@pytest.mark.timeout(600)
def test_two_trackers_on_one_table_never_lose_or_repeat_a_write(pg_url: str) -> None:
    run_state_machine_as_test(
        machine_on(pg_url),
        settings=settings(
            max_examples=15,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
