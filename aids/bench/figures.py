"""The live chances at a busy event: several trackers on one database, many tables being
played, phones following each table (issue 20, "once per table, every core").

Run with ``python -m aids.bench.figures [--trackers 2] [--tables 8] [--phones 2]
[--seconds 60] [--interval 2] [--postgres | --database-url URL]``. It starts ``--trackers``
tracker processes on one store (a temporary SQLite file, or PostgreSQL), creates ``--tables``
Derby tables (simulations, each played by its own referee from this process: a write to each
table every ``--interval`` seconds, the tables' writes spread evenly), and opens ``--phones``
viewers per table (Streamlit's websocket driven directly, as a phone's page drives it),
spread round-robin over the trackers.

Every chances block carries a hidden marker of the position its figures are for
(``aids-figures``, while they are the newest). Each viewer notes when the figures of each
position first show; a write's figure time is from its commit to the first phone of its
table showing that position's figures (a position the table moved past before its figures
came is not counted: no page wants it). The store tells who computed what: each position's
figures row names the tracker that claimed it, so the report counts the positions computed,
by tracker, against the positions written — each at most once.

The figures are for the machine they are measured on (shared and noisy here). See
docs/scaling.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from aids.bench.procs import free_port, start_server, stop
from aids.bench.referee import Referee
from aids.bench.viewers import SocketViewer
from aids.paths import data_dir
from aids.store import open_store

TARGET_P95_S = 2.0


@dataclass
class Result:
    trackers: int
    tables: int
    phones: int
    seconds: float
    interval: float
    store: str = "sqlite"
    writes: int = 0
    shown: int = 0  # positions whose figures a phone showed
    moved_past: int = 0  # positions the table left before any phone showed their figures
    p50_s: float = float("nan")
    p95_s: float = float("nan")
    max_s: float = float("nan")
    computed: int = 0  # positions with figures in the store
    by_tracker: dict[str, int] = field(default_factory=dict)
    twice: int = 0  # positions computed more than once (must be 0)
    errors: list[str] = field(default_factory=list)


def _quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(
    trackers: int = 2,
    tables: int = 8,
    phones: int = 2,
    seconds: float = 60.0,
    interval: float = 2.0,
    *,
    database_url: str | None = None,
    postgres: bool = False,
    verbose: bool = True,
) -> Result:
    def say(text: str) -> None:
        if verbose:
            print(text, file=sys.stderr, flush=True)

    result = Result(trackers, tables, phones, seconds, interval)
    data_dir().mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as outer:
        tmp = Path(outer.enter_context(tempfile.TemporaryDirectory(dir=data_dir())))
        locator: str = str(tmp / "figures.sqlite3")
        if database_url is not None or postgres:
            from aids.bench.pg import database

            say("starting a throwaway PostgreSQL server" if database_url is None else "")
            locator, _ = outer.enter_context(database(database_url))
            result.store = "postgresql"
        referees = [Referee(locator, "derby", seed) for seed in range(tables)]
        for referee in referees:
            outer.callback(referee.close)
        ports, servers = [], []
        for t in range(trackers):
            port = free_port()
            servers.append(start_server(locator, port, tmp / f"tracker-{t}.log"))
            outer.callback(stop, servers[-1])
            ports.append(port)
        say(f"{trackers} tracker(s) on {', '.join(map(str, ports))}; {tables} tables")
        viewers: list[tuple[int, SocketViewer]] = []
        async with contextlib.AsyncExitStack() as stack:
            n = 0
            for table, referee in enumerate(referees):
                for _ in range(phones):
                    viewer = SocketViewer(n)
                    base = f"http://127.0.0.1:{ports[n % trackers]}"
                    await viewer.open(base, f"table={referee.public_id}&lang=en", 120)
                    stack.push_async_callback(viewer.close)
                    viewers.append((table, viewer))
                    n += 1
            await asyncio.sleep(3)  # every first position's figures in
            say(f"{len(viewers)} phones open; writing for {seconds:.0f} s")
            writes: list[tuple[int, int, float]] = []  # (table, seq, time of commit)
            began, k = time.monotonic(), 0
            step = interval / tables
            while time.monotonic() - began < seconds:
                await asyncio.sleep(max(0.0, began + k * step - time.monotonic()))
                table = k % tables
                seq = await asyncio.to_thread(referees[table].write)
                writes.append((table, seq, time.time()))
                k += 1
            await asyncio.sleep(max(5.0, 2 * interval))  # the last figures
            probes = [(table, await v.probe()) for table, v in viewers]
            for _, v in viewers:
                result.errors.extend(f"phone {v.index}: {e}" for e in v.errors)
        claims = referees_store(locator, [r.public_id for r in referees])
    _score(result, writes, probes, claims)
    return result


def referees_store(locator: str, public_ids: list[str]) -> dict[str, list[str]]:
    """Each table's figures rows in the store: who claimed each position (done ones)."""
    store = open_store(locator)
    try:
        from aids.registry import engines
        from aids.tables import TableService

        service = TableService(store, engines())
        out: dict[str, list[str]] = {}
        for pid in public_ids:
            table_id, last = service.table_id(pid), service.snapshot(pid).seq
            rows = [store.figures(table_id, seq)[0] for seq in range(last + 1)]
            out[pid] = [r.claimed_by for r in rows if r is not None and r.done]
        return out
    finally:
        store.close()


def _score(
    result: Result,
    writes: list[tuple[int, int, float]],
    probes: list[tuple[int, dict[str, Any]]],
    claims: dict[str, list[str]],
) -> None:
    first: dict[tuple[int, int], float] = {}
    for table, record in probes:
        for seq, at in record.get("figures", {}).items():
            key = (table, int(seq))
            first[key] = min(first.get(key, float("inf")), at / 1000)
    newest: dict[int, int] = {}
    for table, seq, _ in writes:
        newest[table] = max(newest.get(table, 0), seq)
    times = []
    later = {(t, s) for t, s, _ in writes}
    for table, seq, at in writes:
        if (table, seq) in first:
            times.append(first[(table, seq)] - at)
        elif (table, seq + 1) in later:
            result.moved_past += 1
        else:
            result.errors.append(f"table {table}: the figures of position {seq} never showed")
    result.writes, result.shown = len(writes), len(times)
    if times:
        result.p50_s, result.p95_s = statistics.median(times), _quantile(times, 0.95)
        result.max_s = max(times)
    counted: Counter[str] = Counter()
    for names in claims.values():
        counted.update(names)
        result.computed += len(names)
    result.by_tracker = dict(counted)


def report(r: Result) -> str:
    met = "met" if r.p95_s <= TARGET_P95_S else "NOT met"
    return "\n".join(
        [
            f"{r.trackers} trackers on {r.store}, {r.tables} tables, {r.phones} phones each,"
            f" a write per table every {r.interval:g} s for {r.seconds:g} s",
            f"writes {r.writes}: figures shown on a phone for {r.shown}, {r.moved_past} moved"
            " past before their figures (no page wanted them)",
            f"write → figures on a phone: p50 {r.p50_s:.2f} s, p95 {r.p95_s:.2f} s"
            f" (target <= {TARGET_P95_S:g} s: {met}), max {r.max_s:.2f} s",
            f"positions computed {r.computed} (each once: the store's key), by tracker: "
            + ", ".join(f"{name} {n}" for name, n in sorted(r.by_tracker.items())),
            f"errors: {len(r.errors)}" + "".join(f"\n  {e}" for e in r.errors[:10]),
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aids.bench.figures", description=__doc__)
    add = parser.add_argument
    add("--trackers", type=int, default=2)
    add("--tables", type=int, default=8)
    add("--phones", type=int, default=2, help="viewers per table")
    add("--seconds", type=float, default=60.0)
    add("--interval", type=float, default=2.0, help="seconds between two writes to one table")
    add("--postgres", action="store_true", help="a throwaway PostgreSQL server")
    add("--database-url", help="a PostgreSQL database to use (a schema of its own)")
    add("--json", type=Path, help="also write the result here")
    args = parser.parse_args(argv)
    result = asyncio.run(
        run(
            args.trackers,
            args.tables,
            args.phones,
            args.seconds,
            args.interval,
            database_url=args.database_url,
            postgres=args.postgres,
        )
    )
    print(report(result))
    if args.json:
        args.json.write_text(json.dumps(asdict(result), indent=1))
    return 1 if result.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
