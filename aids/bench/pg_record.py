"""The PostgreSQL benchmark's record latency: what ``TableService.record`` and ``store.append``
cost per action on one store, each against a bare insert of the same row measured write by
write beside it (``aids.bench.pg``). The Derby race whose actions are written, its table's
setup and the nearest-rank quantile both of the benchmark's measurements report are here too."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from aids.store import open_store
from aids.store.base import EventRow
from aids.tables.keys import hash_key, now

RACES = 5  # Derby races recorded for the latency figures (about 80 actions each)
WARMUP = 10  # writes of the first race not counted (connections, prepared statements)

# The table of the bare insert: the log's columns, no key, no check, no trigger.
BARE_PG = (
    "CREATE TABLE bench_bare (table_id bigint, seq integer, kind text, payload json,"
    " created_at text, actor text)"
)
BARE_SQLITE = (
    "CREATE TABLE bench_bare (table_id INTEGER, seq INTEGER, kind TEXT, payload TEXT,"
    " created_at TEXT, actor TEXT)"
)


def quantile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (``nan`` for none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class BareInsert:
    """The baseline: one row into ``bench_bare`` in its own transaction, nothing else."""

    def insert(self, table_id: int, seq: int, payload: str, created_at: str) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class PgBare(BareInsert):
    """Over one psycopg connection in autocommit: a single statement is its own
    transaction, one round trip, as the store's ``append``."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.conn = psycopg.connect(url, autocommit=True)
        self.conn.execute("DROP TABLE IF EXISTS bench_bare")
        self.conn.execute(BARE_PG)

    def insert(self, table_id: int, seq: int, payload: str, created_at: str) -> None:
        self.conn.execute(
            "INSERT INTO bench_bare (table_id, seq, kind, payload, created_at, actor)"
            " VALUES (%s, %s, 'action', %s::json, %s, 'referee')",
            (table_id, seq, payload, created_at),
        )

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.execute("DROP TABLE IF EXISTS bench_bare")
        self.conn.close()


class SqliteBare(BareInsert):
    """A second SQLite file beside the store's, WAL and ``synchronous=FULL`` as the store."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute(BARE_SQLITE)

    def insert(self, table_id: int, seq: int, payload: str, created_at: str) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute(
            "INSERT INTO bench_bare VALUES (?, ?, 'action', ?, ?, 'referee')",
            (table_id, seq, payload, created_at),
        )
        self.conn.execute("COMMIT")

    def close(self) -> None:
        self.conn.close()


def derby_payloads(seed: int = 7) -> list[dict[str, Any]]:
    """The actions of one simulated 4-player race as a referee records them (tracking mode:
    discards as counts), in their dict form."""
    import random

    from aids.games.derby import engine
    from aids.games.derby.model import DerbySetup
    from aids.games.derby.simulate import play_out

    setup = DerbySetup.default(["A", "B", "C", "D"], mode="simulation", seed=seed)
    state = engine.initial_state(setup)
    _, log = play_out(state, random.Random(seed))
    out = []
    for action in log:
        if engine.is_over(state):
            break
        state = engine.apply(state, action)
        payload = action.to_dict()
        discarded = payload.pop("discard", [])
        if discarded:
            payload["discard_count"] = len(discarded)
        out.append(payload)
    return out


def tracking_setup() -> dict[str, Any]:
    from aids.games.derby.model import DerbySetup

    setup = DerbySetup.default(["A", "B", "C", "D"], mode="simulation", seed=7)
    return DerbySetup(setup.players, setup.horses).to_dict()


def bench_record(locator: str, bare: BareInsert, races: int = RACES) -> dict[str, Any]:
    """p50/p99 of ``TableService.record`` and of ``store.append`` alone against ``bare``,
    interleaved write by write (the same row each time) so a burst of load hits all three."""
    from aids.registry import engines
    from aids.tables import TableService

    service = TableService(open_store(locator), engines())
    store = service.store
    payloads = derby_payloads()
    times: dict[str, list[float]] = {"record": [], "append": [], "bare": []}
    try:
        for race in range(races):
            info, key = service.create("derby", f"record {race}", tracking_setup())
            other, other_key = service.create("derby", f"append {race}", tracking_setup())
            table_id, key_hash = store.get_table(other.public_id).id, hash_key(other_key)
            for seq, payload in enumerate(payloads):
                counted = race > 0 or seq >= WARMUP
                begin = time.perf_counter()
                service.record(info.public_id, key, seq, payload)
                took = time.perf_counter() - begin
                if counted:
                    times["record"].append(took)
                event = EventRow(seq + 1, "action", payload, now(), "referee")
                begin = time.perf_counter()
                store.append(table_id, seq, event, key_hash=key_hash)
                took = time.perf_counter() - begin
                if counted:
                    times["append"].append(took)
                text, at = json.dumps(payload, ensure_ascii=False), now()
                begin = time.perf_counter()
                bare.insert(race, seq + 1, text, at)
                took = time.perf_counter() - begin
                if counted:
                    times["bare"].append(took)
    finally:
        store.close()
        bare.close()
    out: dict[str, Any] = {"writes": len(times["record"])}
    for name, values in times.items():
        out[f"{name}_p50_ms"] = quantile(values, 0.5) * 1e3
        out[f"{name}_p99_ms"] = quantile(values, 0.99) * 1e3
    for name in ("record", "append"):
        for q in ("p50", "p99"):
            out[f"{name}_{q}_ratio"] = out[f"{name}_{q}_ms"] / out[f"bare_{q}_ms"]
    return out
