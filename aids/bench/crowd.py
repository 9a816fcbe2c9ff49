"""The crowd benchmark: many viewer pages on one table while the referee records.

Run with ``python -m aids.bench.crowd [--viewers 30] [--seconds 60] [--interval 2]``. It starts
the real tracker (``streamlit run streamlit_app.py``) on a free port and a temporary SQLite
file, creates a table there with the table service, opens ``--viewers`` viewer pages in
headless chromium (one browser, a context per viewer, a phone-sized window), and then writes a
legal action as the referee every ``--interval`` seconds from this process: a second device,
which the server sees only through the store, as a viewer's page does.

Every table page carries a hidden marker ``<span class="aids-seq" data-seq="N">``
(``aids.ui.frame._mark``). A script installed in each page before Streamlit's own notes the
clock time (``performance.timeOrigin + performance.now()``, the machine's clock, as Python's
``time.time()``) when the marker first shows a new sequence; nothing is asked of the pages
while the benchmark runs, so the measurement costs a mutation observer per page. Afterwards the
notes are collected and every (write, viewer) pair gives one latency: from the write's commit
to the viewer showing it. Errors are page errors, console errors, Streamlit exception boxes,
websocket closes, tracebacks in the server's output and writes a viewer never showed. CPU and
memory come from ``/proc`` for the server, its chances worker, the browser and the machine.

With ``--postgres`` (a throwaway PostgreSQL server) or ``--database-url URL`` the store is
PostgreSQL, and ``--trackers N`` starts N tracker processes on it (ports of their own), the
viewers spread round-robin over them; the referee's writes still come from this process, one
more client of the database. Each tracker then learns of a write from the database's notice
(``PostgresStore.seen_seq``). The report gives the figures overall and per tracker.

The figures are for the machine they are measured on (shared and noisy here): compare the
ratios (per viewer, to the idle server) between runs. See docs/crowd.md.

This module holds the run and its command line; the run's figures and their report are in
``aids.bench.crowd_report``, the referee in ``aids.bench.referee``, the viewers in
``aids.bench.viewers`` and the processes and their ``/proc`` readings in ``aids.bench.procs``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from aids.bench.crowd_report import Result, latencies, quantile, rates, report, tracker_rates
from aids.bench.procs import Usage, free_port, mem_available, start_server, stop, usage
from aids.bench.referee import Referee
from aids.bench.viewers import PageViewer, SocketViewer, Viewer
from aids.paths import OUTPUT, data_dir
from aids.registry import engines
from aids.store import shown

CHROMIUM = os.environ.get("AIDS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
LOW_MEMORY_BYTES = 2 * 1024**3  # stop opening pages / end the run below this MemAvailable


# --- the run ------------------------------------------------------------------------------


def _first_exception(log: str) -> str:
    """The exception line of the first traceback in a log (its first unindented line)."""
    lines = log[log.index("Traceback") :].splitlines()
    return next((line for line in lines[1:] if line and not line[0].isspace()), lines[0])


async def run(
    viewers: int = 30,
    seconds: float = 60.0,
    interval: float = 2.0,
    game: str = "derby",
    *,
    client: str = "browser",
    started: int = 0,
    timeout_s: float = 10.0,
    playouts: int | None = None,
    options: Sequence[str] = (),
    open_at_once: int = 4,
    idle_s: float = 5.0,
    seed: int = 1,
    verbose: bool = True,
    trackers: int = 1,
    database_url: str | None = None,
    postgres: bool = False,
) -> Result:
    """One run: ``trackers`` tracker processes on one store (a temporary SQLite file; with
    ``postgres`` a throwaway PostgreSQL server, or the database at ``database_url``, in a
    schema of its own), a table with ``started`` actions recorded, ``viewers`` viewers
    (``client``: "browser" pages or "socket" clients) spread round-robin over the trackers, a
    write every ``interval`` seconds for ``seconds``; then every viewer's notes."""

    def say(text: str) -> None:
        if verbose:
            print(text, file=sys.stderr, flush=True)

    if trackers < 1:
        raise ValueError("at least one tracker")
    result = Result(viewers, seconds, interval, game, client, started, list(options))
    result.trackers = trackers
    data_dir().mkdir(parents=True, exist_ok=True)  # the data folder's disk, as the tracker's
    with contextlib.ExitStack() as outer:
        tmp = Path(
            outer.enter_context(tempfile.TemporaryDirectory(prefix="crowd-", dir=data_dir()))
        )
        from aids.bench.pg import bench_store

        locator, db_pid = bench_store(
            outer, tmp / "crowd.sqlite3", postgres=postgres, url=database_url, say=say
        )
        if not isinstance(locator, Path):
            result.store = "postgresql"
        result.database = shown(str(locator))
        logs = [tmp / f"server-{t}.log" for t in range(trackers)]
        ran: list[int] = []  # each log's length when the run ended
        open_viewers: list[Viewer] = []
        writes: list[tuple[int, float]] = []
        write_ms: list[float] = []
        before: dict[int, dict[str, Any]] = {}
        servers: list[subprocess.Popen[bytes]] = []
        ports: list[int] = []
        marks: dict[str, Usage] = {}
        async with contextlib.AsyncExitStack() as stack:
            referee = Referee(locator, game, seed)
            stack.callback(referee.close)
            for _ in range(started):  # a race under way when the viewers come
                referee.write()
            for t in range(trackers):
                port = free_port()
                server = start_server(locator, port, logs[t], playouts, options)
                stack.callback(stop, server)
                servers.append(server)
                ports.append(port)
            pids = [s.pid for s in servers]
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            query = f"table={referee.public_id}&lang=en"
            browser: Any = None
            if client == "browser":
                from playwright.async_api import async_playwright

                driver = await stack.enter_async_context(async_playwright())
                browser = await driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                stack.push_async_callback(browser.close)

            async def one(i: int, timeout: float, tracker: int) -> Viewer:
                base = bases[tracker]
                if client == "browser":
                    page = PageViewer(i)
                    await page.open(browser, f"{base}/?{query}", timeout)
                    return page
                sock = SocketViewer(i)
                await sock.open(base, query, timeout)
                return sock

            say(f"{trackers} tracker(s) on port(s) {', '.join(map(str, ports))}, table"
                f" {referee.public_id} ({result.database}); warming up")  # fmt: skip
            # imports, the first run, the chances worker: one tracker at a time
            for t in range(trackers):
                warm = await one(-1 - t, 120, t)
                await asyncio.sleep(2)
                await warm.close()
            await asyncio.sleep(3)
            marks["idle_from"] = usage(pids, db_pid)
            await asyncio.sleep(idle_s)
            marks["idle_to"] = usage(pids, db_pid)
            result.idle = rates(marks["idle_from"], marks["idle_to"])

            gate = asyncio.Semaphore(open_at_once)

            async def gated(i: int) -> Viewer | None:
                async with gate:
                    if result.stopped_early:
                        return None
                    if mem_available() < LOW_MEMORY_BYTES:
                        result.stopped_early = "low memory while opening viewers"
                        return None
                    try:
                        return await one(i, 120, i % trackers)
                    except Exception as exc:
                        result.errors.append(f"viewer {i} did not load: {exc}")
                        return None

            say(f"opening {viewers} {client} viewers")
            opened = await asyncio.gather(*(gated(i) for i in range(viewers)))
            open_viewers = [v for v in opened if v is not None]
            for v in open_viewers:
                stack.push_async_callback(v.close)
            if loads := [v.load_s for v in open_viewers]:
                result.load_p50_s, result.load_max_s = statistics.median(loads), max(loads)
            await asyncio.sleep(max(3.0, interval))  # every viewer on its refresh rhythm
            before = {v.index: await v.probe() for v in open_viewers}

            say(f"{len(open_viewers)} viewers open; writing every {interval} s for {seconds} s")
            marks["start"] = usage(pids, db_pid)
            began = time.monotonic()
            k = 0
            while time.monotonic() - began < seconds:
                await asyncio.sleep(max(0.0, began + k * interval - time.monotonic()))
                t0 = time.perf_counter()
                seq = await asyncio.to_thread(referee.write)
                write_ms.append((time.perf_counter() - t0) * 1000)
                writes.append((seq, time.time()))
                k += 1
                if mem_available() < LOW_MEMORY_BYTES:
                    result.stopped_early = "low memory during the run"
                    break
            # the load until the last write is due to show
            await asyncio.sleep(max(0.0, began + k * interval - time.monotonic()))
            marks["end"] = usage(pids, db_pid)
            result.loaded = rates(marks["start"], marks["end"])
            last = writes[-1][0] if writes else 0
            deadline = time.monotonic() + timeout_s
            while time.monotonic() < deadline:  # until every viewer shows the last write
                probes = await asyncio.gather(
                    *(v.probe() for v in open_viewers), return_exceptions=True
                )
                if all(isinstance(p, dict) and p.get("max", -1) >= last for p in probes):
                    break
                await asyncio.sleep(0.5)
            await asyncio.gather(*(v.finish() for v in open_viewers))
            after = await asyncio.gather(*(v.probe() for v in open_viewers),
                                         return_exceptions=True)  # fmt: skip
            ran = [log.stat().st_size for log in logs]  # what follows is the shutdown's
        for t, (log, port) in enumerate(zip(logs, ports, strict=True)):
            text = log.read_bytes()[: ran[t]].decode(errors="replace")
            tracebacks = text.count("Traceback")
            result.server_log_tracebacks += tracebacks
            result.per_tracker.append({"port": port, "tracebacks": tracebacks})
            if tracebacks:
                OUTPUT.mkdir(parents=True, exist_ok=True)
                kept = OUTPUT / f"crowd-server-{port}.log"
                kept.write_text(text)
                result.errors.append(
                    f"server log: {tracebacks} traceback(s), kept in {kept};"
                    f" the first: {_first_exception(text)}"
                )

    records = [a if isinstance(a, dict) else {} for a in after]
    seen = [{int(s): t / 1000 for s, t in r.get("seen", {}).items()} for r in records]
    lat, result.missed = latencies(writes, seen, timeout_s)
    result.writes, result.pairs = len(writes), len(writes) * len(open_viewers)
    if lat:
        result.p50_s, result.p95_s = statistics.median(lat), quantile(lat, 0.95)
        result.max_s = max(lat)
    if write_ms:
        result.write_p50_ms = statistics.median(write_ms)
        result.write_max_ms = max(write_ms)
    wall = result.loaded.get("wall_s", 0.0)
    runs_of = [
        r.get("marks", 0) - before[v.index].get("marks", 0)
        for r, v in zip(records, open_viewers, strict=True)
    ]
    bytes_of = [
        r.get("bytes", 0) - before[v.index].get("bytes", 0)
        for r, v in zip(records, open_viewers, strict=True)
    ]
    if open_viewers and wall:
        n = len(open_viewers)
        runs = sum(runs_of)
        result.reruns_per_viewer_s = runs / n / wall
        result.kb_per_viewer_s = sum(bytes_of) / 1024 / n / wall
        extra = result.loaded["server_cpu"] - result.idle.get("server_cpu", 0.0)
        if runs:
            result.cpu_ms_per_rerun = 1000 * extra * wall / runs
    for t, server in enumerate(servers):
        mine = [k for k, v in enumerate(open_viewers) if v.index % trackers == t]
        t_lat, t_missed = latencies(writes, [seen[k] for k in mine], timeout_s)
        entry = result.per_tracker[t]
        entry.update(
            viewers=len(mine),
            pairs=len(writes) * len(mine),
            missed=t_missed,
            p50_s=statistics.median(t_lat) if t_lat else float("nan"),
            p95_s=quantile(t_lat, 0.95),
            max_s=max(t_lat, default=float("nan")),
        )
        if wall and {"idle_from", "idle_to", "start", "end"} <= marks.keys():
            idle = tracker_rates(marks["idle_from"], marks["idle_to"], server.pid)
            loaded = tracker_rates(marks["start"], marks["end"], server.pid)
            runs = sum(runs_of[k] for k in mine)
            entry.update(
                server_cpu=loaded["cpu"],
                server_cpu_idle=idle["cpu"],
                server_rss_mb=loaded["rss_mb"],
                worker_cpu=loaded["worker_cpu"],
                worker_rss_mb=loaded["worker_rss_mb"],
                reruns_per_viewer_s=runs / len(mine) / wall if mine else float("nan"),
                cpu_ms_per_rerun=(
                    1000 * (loaded["cpu"] - idle["cpu"]) * wall / runs if runs else float("nan")
                ),
            )
    for v in open_viewers:
        result.errors.extend(f"viewer {v.index}: {e}" for e in v.errors)
    if len(open_viewers) < viewers and not result.stopped_early:
        result.stopped_early = f"only {len(open_viewers)} of {viewers} viewers opened"
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m aids.bench.crowd",
        description="Many viewers on one table while the referee records (docs/crowd.md).",
    )
    add = parser.add_argument
    add("--viewers", type=int, default=30)
    add("--seconds", type=float, default=60.0)
    add("--interval", type=float, default=2.0, help="seconds between the referee's writes")
    add("--game", default="derby", choices=sorted(engines()))
    add(
        "--client",
        choices=["browser", "socket"],
        default="browser",
        help="viewer pages in headless chromium, or Streamlit's websocket driven directly",
    )
    add(
        "--started",
        type=int,
        default=0,
        help="actions recorded before the viewers come (a race under way)",
    )
    add("--timeout", type=float, default=10.0, help="a write shown later than this is missed")
    add("--playouts", type=int, help="AIDS_CHANCE_PLAYOUTS for the server (default: its own)")
    add(
        "--option",
        action="append",
        default=[],
        metavar="SECTION.NAME=VALUE",
        help="a Streamlit option for the server (repeat), e.g. runner.postScriptGC=false",
    )
    add("--open-at-once", type=int, default=4, help="viewers opened in parallel")
    add(
        "--trackers",
        type=int,
        default=1,
        help="tracker processes on the same store, viewers spread round-robin over them",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--database-url",
        metavar="URL",
        help="run on this PostgreSQL database (in a schema of its own, dropped"
        " after) instead of a temporary SQLite file",
    )
    where.add_argument(
        "--postgres",
        action="store_true",
        help="run on a throwaway PostgreSQL server started for the run",
    )
    add("--json", type=Path, help="also write the result here")
    args = parser.parse_args(argv)  # fmt: skip
    if args.trackers > 1 and not (args.database_url or args.postgres):
        print("several trackers need PostgreSQL: --postgres or --database-url", file=sys.stderr)
        return 2
    if args.client == "browser" and not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing (set AIDS_CHROMIUM)", file=sys.stderr)
        return 2
    result = asyncio.run(
        run(args.viewers, args.seconds, args.interval, args.game, client=args.client,
            started=args.started, timeout_s=args.timeout, playouts=args.playouts,
            options=args.option, open_at_once=args.open_at_once, trackers=args.trackers,
            database_url=args.database_url, postgres=args.postgres)
    )  # fmt: skip
    print(report(result))
    if args.json:
        args.json.write_text(json.dumps(asdict(result), indent=1, default=str))
    failed = result.errors or result.missed or result.stopped_early
    return 1 if failed else 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
