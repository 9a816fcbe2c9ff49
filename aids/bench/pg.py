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

This module holds the database the benchmark runs on (``database``: a throwaway server, or a
schema of its own; the crowd and figures benchmarks run on it too), the run of both
measurements, their report and the command line; the measurements themselves are in
``aids.bench.pg_record`` and ``aids.bench.pg_writers``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from aids.bench.pg_record import RACES, PgBare, SqliteBare, bench_record
from aids.bench.pg_writers import APPENDS, WORKERS, bench_writers
from aids.store import shown


def bench_store(
    stack: contextlib.ExitStack, sqlite: Path, *, postgres: bool, url: str | None,
    say: Callable[[str], None],
) -> tuple[Path | str, int | None]:  # fmt: skip
    """Where a benchmark's trackers keep their tables: the SQLite file ``sqlite``, or with
    ``postgres``/``url`` a PostgreSQL schema (``database``, closed with ``stack``); and the
    database server's process id when the benchmark started it."""
    if not (postgres or url):
        return sqlite, None
    if url is None:
        say("starting a throwaway PostgreSQL server")
    return stack.enter_context(database(url))


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
