"""The PostgreSQL store under load: the cost of recording an action, and many writers at once.

Run with ``python -m aids.bench.pg`` (a throwaway server is started and removed afterwards) or
``python -m aids.bench.pg --database-url postgresql://…`` (a schema of its own is created in
that database and dropped afterwards). Every figure is printed beside a baseline measured in
the same run, because the machines we run on are shared and noisy. See docs/scaling.md.

1. **Record one action**: ``TableService.record`` on a Derby table (key → role, checks, the
   engine, the append) and ``store.append`` alone, interleaved write by write with a bare
   ``INSERT`` of the same row into a table of the same columns with no constraint, index or
   trigger, over one kept-open psycopg connection in autocommit (a pooled connection, as the
   store's). The same on the SQLite file (``synchronous=FULL``; its bare insert is
   ``BEGIN IMMEDIATE``/``INSERT``/``COMMIT`` with the same setting) as a reference.
2. **Many writers**: ``--workers`` spawned processes (each its own store) make ``--appends``
   appends each, once to a table each and once all to one table, where a writer that loses a
   race (``StaleState``) reads the log's end afresh and tries again. Then every log is read
   back and checked: exactly ``1..N`` per table, and every acknowledged append in it exactly
   once, at the sequence number it was acknowledged with (``check_logs``).

The throwaway server runs with ``fsync=off`` and ``synchronous_commit=off`` (nothing there
outlives the run), while the SQLite file syncs every commit: compare each store with its own
bare insert, not the two stores' milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from aids.bench.procs import server_cpu
from aids.core.errors import StaleState
from aids.store import is_server, open_store, shown
from aids.store.base import EventRow, KeyRow, TableRow
from aids.tables.keys import hash_key, new_key, new_public_id, now

WORKERS = 8
APPENDS = 500
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


def _quantile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (``nan`` for none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# --- 1. record one action --------------------------------------------------------------------


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
        out[f"{name}_p50_ms"] = _quantile(values, 0.5) * 1e3
        out[f"{name}_p99_ms"] = _quantile(values, 0.99) * 1e3
    for name in ("record", "append"):
        for q in ("p50", "p99"):
            out[f"{name}_{q}_ratio"] = out[f"{name}_{q}_ms"] / out[f"bare_{q}_ms"]
    return out


# --- 2. many writers ---------------------------------------------------------------------------


@dataclass
class Writers:
    """One many-writers run: what was asked, what came back, and the integrity verdict."""

    store: str  # postgresql | sqlite
    tables: int  # 1: every writer on one table; else one table per writer
    workers: int
    appends: int  # per worker
    seconds: float = float("nan")  # from the start signal to the last acknowledgement
    acked: int = 0
    conflicts: int = 0  # StaleState refusals (then a fresh read of the log's end, and retry)
    ack_p50_ms: float = float("nan")  # one append, from its first try to its acknowledgement
    ack_p99_ms: float = float("nan")
    rows: int = 0  # read back
    writers_cpu_s: float = float("nan")  # the writer processes' CPU while appending
    db_cpu_s: float = float("nan")  # the database server's CPU over the run (when local)
    problems: list[str] = field(default_factory=list)  # the integrity check's findings
    errors: list[str] = field(default_factory=list)  # a writer that failed

    @property
    def per_s(self) -> float:
        return self.acked / self.seconds if self.seconds > 0 else float("nan")


def new_table(store: Any, title: str) -> tuple[int, str]:
    """A Derby table written straight to the store; (its id, its referee key)."""
    key, at = new_key(), now()
    row = TableRow(0, new_public_id(), "derby", title, at, tracking_setup(), 1)
    stored = store.insert_table(row, [KeyRow("referee", hash_key(key), at)])
    return stored.id, key


def writer(
    locator: str,
    table_id: int,
    key: str,
    worker: int,
    count: int,
    ready: Any,
    start: Any,
    out: Any,
) -> None:
    """One writer process: its own store, ``count`` appends to ``table_id``, each retried
    after ``StaleState`` with the log's end read afresh. Puts its report on ``out``:
    acknowledged (seq, n) pairs, conflicts, per-append times, and its clock span."""
    report: dict[str, Any] = {"worker": worker, "acked": [], "conflicts": 0, "times": []}
    store = None
    try:
        store = open_store(locator)
        key_hash = hash_key(key)
        last = store.last_seq(table_id)
        ready.put(worker)  # imported and connected: waiting for the start signal
        start.wait(timeout=300)
        report["began"], cpu = time.monotonic(), time.process_time()
        for n in range(count):
            begin = time.perf_counter()
            while True:
                event = EventRow(last + 1, "action", {"w": worker, "n": n}, now(), "referee")
                try:
                    store.append(table_id, last, event, key_hash=key_hash)
                except StaleState:
                    report["conflicts"] += 1
                    last = store.last_seq(table_id)
                    continue
                break
            report["times"].append(time.perf_counter() - begin)
            last += 1
            report["acked"].append((last, n))
        report["ended"] = time.monotonic()
        report["cpu_s"] = time.process_time() - cpu
    except BaseException as exc:
        report["error"] = f"{type(exc).__name__}: {exc}"
        ready.put(worker)  # failed before the start: do not keep the others waiting
    finally:
        if store is not None:
            store.close()
        out.put(report)


def check_logs(
    logs: Mapping[int, Sequence[EventRow]], acked: Iterable[tuple[int, int, int, int]]
) -> list[str]:
    """What is wrong with the logs after a many-writers run; ``[]`` when nothing is.

    ``logs``: each table's log as read back; ``acked``: every acknowledged append as
    (table id, seq, worker, n), the payload being ``{"w": worker, "n": n}``. Each log must be
    exactly ``1..N``, each acknowledged append must be in it once at its own sequence number
    (not lost, not overwritten), and no write may be in it twice or without an acknowledgement.

    >>> ok = {1: [EventRow(1, "action", {"w": 0, "n": 0}, "t")]}
    >>> check_logs(ok, [(1, 1, 0, 0)])
    []
    >>> check_logs(ok, [(1, 1, 0, 0), (1, 2, 0, 1)])
    ['table 1: acknowledged seq 2 (writer 0, append 1) is not in the log']
    """
    problems: list[str] = []
    held: dict[tuple[int, int], list[tuple[Any, Any]]] = {}
    for table_id, events in sorted(logs.items()):
        seqs = [e.seq for e in events]
        counts = Counter(seqs)
        if seqs != list(range(1, len(seqs) + 1)):
            top = max(seqs, default=0)
            gaps = sorted(set(range(1, top + 1)) - set(seqs))
            twice = sorted(s for s, c in counts.items() if c > 1)
            out_of_order = seqs != sorted(seqs)
            problems.append(
                f"table {table_id}: the log is not 1..{len(seqs)}: gaps {gaps[:10]},"
                f" repeated {twice[:10]}{', out of order' if out_of_order else ''}"
            )
        writes = Counter(
            (p.get("w"), p.get("n")) for e in events if isinstance(p := e.payload, dict)
        )
        for (w, n), times in sorted(writes.items(), key=str):
            if times > 1:
                problems.append(f"table {table_id}: writer {w}'s append {n} is in the log {times}×")
        for e in events:
            p = e.payload if isinstance(e.payload, dict) else {}
            held.setdefault((table_id, e.seq), []).append((p.get("w"), p.get("n")))
    acked = list(acked)
    seen_acks: Counter[tuple[int, int]] = Counter()
    for table_id, seq, w, n in acked:
        seen_acks[(table_id, seq)] += 1
        there = held.get((table_id, seq))
        if not there:
            problems.append(
                f"table {table_id}: acknowledged seq {seq} (writer {w}, append {n})"
                " is not in the log"
            )
        elif (w, n) not in there:
            problems.append(
                f"table {table_id}: acknowledged seq {seq} (writer {w}, append {n}) holds"
                f" another write {there[0]}"
            )
    for (table_id, seq), times in sorted(seen_acks.items()):
        if times > 1:
            problems.append(f"table {table_id}: seq {seq} was acknowledged {times}×")
    acks = {(table_id, seq, w, n) for table_id, seq, w, n in acked}
    for (table_id, seq), rows in sorted(held.items()):
        for w, n in rows:
            if (table_id, seq, w, n) not in acks:
                problems.append(
                    f"table {table_id}: seq {seq} (writer {w}, append {n}) is in the log,"
                    " never acknowledged"
                )
    return problems


def bench_writers(
    locator: str,
    *,
    workers: int = WORKERS,
    appends: int = APPENDS,
    one_table: bool = False,
    timeout_s: float = 600.0,
    db_pid: int | None = None,
) -> Writers:
    """``workers`` spawned processes × ``appends`` appends, each to a table of its own or
    all to one; then the logs read back and checked (``check_logs``)."""
    result = Writers(
        "postgresql" if is_server(locator) else "sqlite", 1 if one_table else workers,
        workers, appends,
    )  # fmt: skip
    store = open_store(locator)
    try:
        if one_table:
            shared = new_table(store, "writers")
            targets = [shared] * workers
        else:
            targets = [new_table(store, f"writer {w}") for w in range(workers)]
        ctx = multiprocessing.get_context("spawn")
        ready, start, out = ctx.Queue(), ctx.Event(), ctx.Queue()
        procs = [
            ctx.Process(
                target=writer,
                args=(locator, table_id, key, w, appends, ready, start, out),
                name=f"aids-bench-writer-{w}",
            )
            for w, (table_id, key) in enumerate(targets)
        ]
        for p in procs:
            p.start()
        waiting = set(range(workers))
        deadline = time.monotonic() + 120
        while waiting and time.monotonic() < deadline:  # every writer imported and connected
            with contextlib.suppress(Exception):
                waiting.discard(ready.get(timeout=1.0))
            if all(not p.is_alive() for p in procs):
                break
        db_before = server_cpu(db_pid)
        start.set()
        reports: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout_s
        while len(reports) < workers and time.monotonic() < deadline:
            with contextlib.suppress(Exception):
                reports.append(out.get(timeout=1.0))
            if len(reports) < workers and all(not p.is_alive() for p in procs) and out.empty():
                break
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
                p.join()
        time.sleep(0.2)  # the writers' server processes gone, their CPU counted by their parent
        result.db_cpu_s = server_cpu(db_pid) - db_before
        if len(reports) < workers:
            result.errors.append(f"only {len(reports)} of {workers} writers reported")
        acked: list[tuple[int, int, int, int]] = []
        times: list[float] = []
        for r in reports:
            w = r["worker"]
            if "error" in r:
                result.errors.append(f"writer {w}: {r['error']}")
            acked += [(targets[w][0], seq, w, n) for seq, n in r["acked"]]
            result.conflicts += r["conflicts"]
            times += r["times"]
        result.writers_cpu_s = sum(r.get("cpu_s", 0.0) for r in reports)
        spans = [(r["began"], r["ended"]) for r in reports if "ended" in r]
        if spans:
            result.seconds = max(e for _, e in spans) - min(b for b, _ in spans)
        result.acked = len(acked)
        result.ack_p50_ms = _quantile(times, 0.5) * 1e3
        result.ack_p99_ms = _quantile(times, 0.99) * 1e3
        logs = {table_id: store.events(table_id) for table_id in {t for t, _ in targets}}
        result.rows = sum(len(events) for events in logs.values())
        result.problems = check_logs(logs, acked)
        if result.acked != workers * appends:
            result.problems.append(f"{result.acked} of {workers * appends} appends acknowledged")
    finally:
        store.close()
    return result


# --- the run ---------------------------------------------------------------------------------


@contextlib.contextmanager
def database(url: str | None) -> Iterator[tuple[str, int | None]]:
    """A schema of our own at ``url`` (a throwaway server when ``None``), dropped after;
    its address, and the server's process id when we started it. A ``url`` that names its
    schema already (``options=-csearch_path…``, as the tests' ``pg_url``) is used as it is:
    the benchmark's tables stay in it."""
    from urllib.parse import unquote

    from aids.store.throwaway import ThrowawayServer, create_schema, with_schema

    if url is not None and "search_path" in unquote(url):
        yield url, None
        return
    server = None
    if url is None:
        server = ThrowawayServer().start()
        url = server.url()
    schema = f"aids_bench_{os.getpid()}"
    try:
        create_schema(url, schema)
        pid = None if server is None or server.process is None else server.process.pid
        yield with_schema(url, schema), pid
    finally:
        with contextlib.suppress(Exception):
            drop_schema(url, schema)
        if server is not None:
            server.stop()


def drop_schema(url: str, schema: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def run(
    url: str | None = None,
    *,
    races: int = RACES,
    workers: int = WORKERS,
    appends: int = APPENDS,
    sqlite: bool = True,
    say: Any = None,
) -> dict[str, Any]:
    """Every benchmark of this module; the figures as a dict (``report`` prints them)."""

    def note(text: str) -> None:
        if say is not None:
            say(text)

    results: dict[str, Any] = {"workers": workers, "appends": appends}
    with database(url) as (pg, pid):
        results["database"] = shown(pg)
        note("record one action on PostgreSQL")
        results["record_pg"] = bench_record(pg, PgBare(pg), races)
        for one in (False, True):
            note(f"{workers} writers x {appends} appends on PostgreSQL, {'one' if one else 'own'}")
            runs = results.setdefault("writers", [])
            runs.append(
                asdict(
                    bench_writers(pg, workers=workers, appends=appends, one_table=one, db_pid=pid)
                )
            )
    if sqlite:
        from aids.paths import data_dir

        data_dir().mkdir(parents=True, exist_ok=True)  # the data folder's disk, not a RAM /tmp
        with tempfile.TemporaryDirectory(prefix="bench-pg-", dir=data_dir()) as tmp:
            note("record one action on SQLite")
            folder = Path(tmp)
            results["record_sqlite"] = bench_record(
                str(folder / "store.sqlite3"), SqliteBare(folder / "bare.sqlite3"), races
            )
            for one in (False, True):
                note(f"{workers} writers x {appends} appends on SQLite")
                path = str(folder / f"writers-{int(one)}.sqlite3")
                results["writers"].append(
                    asdict(bench_writers(path, workers=workers, appends=appends, one_table=one))
                )
    for r in results["writers"]:
        n = max(1, r["acked"])
        r["per_s"] = r["acked"] / r["seconds"] if r["seconds"] > 0 else float("nan")
        r["writer_cpu_ms_per_append"] = 1000 * r["writers_cpu_s"] / n
        r["db_cpu_ms_per_append"] = 1000 * r["db_cpu_s"] / n
    return results


def report(results: Mapping[str, Any]) -> str:
    lines = [f"database: {results.get('database', '?')}", ""]
    lines.append(
        "record one action          p50 ms   p99 ms   p50 ratio  p99 ratio (to the bare INSERT)"
    )
    for name, label in (("record_pg", "PostgreSQL"), ("record_sqlite", "SQLite (FULL sync)")):
        r = results.get(name)
        if not r:
            continue
        lines.append(f"  {label}  ({r['writes']} writes each)")
        for what, title in (("record", "TableService.record"), ("append", "store.append"),
                            ("bare", "bare INSERT")):  # fmt: skip
            ratio = (
                f"{r[f'{what}_p50_ratio']:8.2f}×  {r[f'{what}_p99_ratio']:8.2f}×"
                if what != "bare"
                else ""
            )
            lines.append(
                f"    {title:<22}{r[f'{what}_p50_ms']:7.3f}  {r[f'{what}_p99_ms']:7.3f}   {ratio}"
            )
    lines += ["", "many writers               appends/s  seconds  conflicts  ack p50/p99 ms"
              "   rows  CPU ms/append: writers, db  verdict"]  # fmt: skip
    for r in results.get("writers", []):
        where = "one table" if r["tables"] == 1 else f"{r['tables']} tables"
        verdict = "0 lost, 0 duplicated" if not r["problems"] and not r["errors"] else "FAILED"
        lines.append(
            f"  {r['store']:<10} {r['workers']}×{r['appends']} {where:<10}"
            f"{r['per_s']:8.0f}  {r['seconds']:7.2f}  {r['conflicts']:9d}"
            f"  {r['ack_p50_ms']:6.2f}/{r['ack_p99_ms']:<7.2f} {r['rows']:6d}"
            f"  {r['writer_cpu_ms_per_append']:6.3f}, {r['db_cpu_ms_per_append']:6.3f}"
            f"          {verdict}"
        )
        lines += [f"    ! {p}" for p in (r["errors"] + r["problems"])[:10]]
    return "\n".join(lines)


def failed(results: Mapping[str, Any]) -> bool:
    return any(r["problems"] or r["errors"] for r in results.get("writers", []))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m aids.bench.pg",
        description="The PostgreSQL store: record latency and many writers (docs/scaling.md).",
    )
    add = parser.add_argument
    add("--database-url", help="a PostgreSQL database to use (default: a throwaway server)")
    add("--races", type=int, default=RACES, help="Derby races recorded for the latencies")
    add("--workers", type=int, default=WORKERS, help="writer processes")
    add("--appends", type=int, default=APPENDS, help="appends per writer")
    add("--no-sqlite", action="store_true", help="skip the SQLite reference figures")
    add("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    results = run(
        args.database_url,
        races=args.races,
        workers=args.workers,
        appends=args.appends,
        sqlite=not args.no_sqlite,
        say=lambda text: print(text, file=sys.stderr, flush=True),
    )
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))
    return 1 if failed(results) else 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
