"""The PostgreSQL benchmark's many writers: spawned processes, each with its own store, append
to a table each or all to one table, where a writer refused with ``StaleState`` reads the log's
end afresh and tries again; then every log is read back and checked (``check_logs``): exactly
``1..N``, every acknowledged append in it once, at the sequence number it was acknowledged with
(``aids.bench.pg``)."""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aids.bench.pg_record import quantile, tracking_setup
from aids.bench.procs import server_cpu
from aids.core.errors import StaleState
from aids.store import is_server, open_store
from aids.store.base import EventRow, KeyRow, TableRow
from aids.tables.keys import hash_key, new_key, new_public_id, now

WORKERS = 8
APPENDS = 500


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
        result.ack_p50_ms = quantile(times, 0.5) * 1e3
        result.ack_p99_ms = quantile(times, 0.99) * 1e3
        logs = {table_id: store.events(table_id) for table_id in {t for t, _ in targets}}
        result.rows = sum(len(events) for events in logs.values())
        result.problems = check_logs(logs, acked)
        if result.acked != workers * appends:
            result.problems.append(f"{result.acked} of {workers * appends} appends acknowledged")
    finally:
        store.close()
    return result
