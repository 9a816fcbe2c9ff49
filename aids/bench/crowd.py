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
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

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
TARGET_P95_S = 2.0
LOW_MEMORY_BYTES = 2 * 1024**3  # stop opening pages / end the run below this MemAvailable


# --- the run ------------------------------------------------------------------------------


@dataclass
class Result:
    viewers: int
    seconds: float
    interval: float
    game: str
    client: str = "browser"
    started: int = 0
    options: list[str] = field(default_factory=list)
    writes: int = 0
    pairs: int = 0
    missed: int = 0
    p50_s: float = float("nan")
    p95_s: float = float("nan")
    max_s: float = float("nan")
    write_p50_ms: float = float("nan")
    write_max_ms: float = float("nan")
    load_p50_s: float = float("nan")
    load_max_s: float = float("nan")
    reruns_per_viewer_s: float = float("nan")  # viewer fragment runs received, per viewer/s
    cpu_ms_per_rerun: float = float("nan")  # the server's CPU over idle per fragment run
    kb_per_viewer_s: float = float("nan")  # websocket bytes received per viewer per second
    errors: list[str] = field(default_factory=list)
    server_log_tracebacks: int = 0
    idle: dict[str, float] = field(default_factory=dict)
    loaded: dict[str, float] = field(default_factory=dict)
    stopped_early: str = ""
    trackers: int = 1  # tracker processes on the one store, viewers spread round-robin
    store: str = "sqlite"  # or postgresql
    database: str = ""  # the SQLite file or the database's address (no password)
    # per tracker: port, viewers, p50_s/p95_s/max_s, missed, pairs, server_cpu (cores, loaded)
    # and server_cpu_idle, server_rss_mb, worker_cpu, worker_rss_mb, reruns_per_viewer_s,
    # cpu_ms_per_rerun, tracebacks
    per_tracker: list[dict[str, Any]] = field(default_factory=list)


def _rates(a: Usage, b: Usage) -> dict[str, float]:
    wall = b.at - a.at
    busy = b.machine_busy - a.machine_busy
    total = b.machine_total - a.machine_total
    ours = sum(getattr(b, k) - getattr(a, k) for k in
               ("server_cpu", "worker_cpu", "helpers_cpu", "browser_cpu", "bench_cpu",
                "db_cpu"))  # fmt: skip
    return {
        "wall_s": wall,
        "server_cpu": (b.server_cpu - a.server_cpu) / wall,
        "worker_cpu": (b.worker_cpu - a.worker_cpu) / wall,
        "helpers_cpu": (b.helpers_cpu - a.helpers_cpu) / wall,
        "browser_cpu": (b.browser_cpu - a.browser_cpu) / wall,
        "bench_cpu": (b.bench_cpu - a.bench_cpu) / wall,
        "db_cpu": (b.db_cpu - a.db_cpu) / wall,
        "db_rss_mb": b.db_rss / 2**20,
        "machine_cores": total / wall,
        "machine_busy": busy / wall,
        "others_cpu": max(0.0, busy - ours) / wall,
        "server_rss_mb": b.server_rss / 2**20,
        "worker_rss_mb": b.worker_rss / 2**20,
        "browser_rss_mb": b.browser_rss / 2**20,
    }


def latencies(writes: Sequence[tuple[int, float]], seen: Sequence[dict[int, float]],
              timeout_s: float) -> tuple[list[float], int]:  # fmt: skip
    """Every (write, viewer) latency in seconds, and the pairs never shown within ``timeout_s``.

    ``writes``: (sequence, clock time of the commit); ``seen``: per viewer, the clock time in
    seconds when its marker first showed each sequence (a viewer may skip one that was
    overtaken before its next refresh: the first later sequence shown counts for it)."""
    out: list[float] = []
    missed = 0
    for marks in seen:
        order = sorted(marks.items())
        for seq, at in writes:
            shown = next((t for s, t in order if s >= seq), None)
            if shown is None or shown - at > timeout_s:
                missed += 1
            else:
                out.append(shown - at)
    return out, missed


def _first_exception(log: str) -> str:
    """The exception line of the first traceback in a log (its first unindented line)."""
    lines = log[log.index("Traceback") :].splitlines()
    return next((line for line in lines[1:] if line and not line[0].isspace()), lines[0])


def _quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


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
        db_pid: int | None = None
        locator: Path | str = tmp / "crowd.sqlite3"
        if database_url is not None or postgres:
            from aids.bench.pg import database

            if database_url is None:
                say("starting a throwaway PostgreSQL server")
            locator, db_pid = outer.enter_context(database(database_url))
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
            result.idle = _rates(marks["idle_from"], marks["idle_to"])

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
            result.loaded = _rates(marks["start"], marks["end"])
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
        result.p50_s, result.p95_s = statistics.median(lat), _quantile(lat, 0.95)
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
            p95_s=_quantile(t_lat, 0.95),
            max_s=max(t_lat, default=float("nan")),
        )
        if wall and {"idle_from", "idle_to", "start", "end"} <= marks.keys():
            idle = _tracker_rates(marks["idle_from"], marks["idle_to"], server.pid)
            loaded = _tracker_rates(marks["start"], marks["end"], server.pid)
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


def _tracker_rates(a: Usage, b: Usage, pid: int) -> dict[str, float]:
    """One tracker's CPU (cores) and memory between two readings."""
    wall = b.at - a.at
    (cpu_a, _, worker_a, _), (cpu_b, rss, worker_b, worker_rss) = a.trackers[pid], b.trackers[pid]
    return {
        "cpu": (cpu_b - cpu_a) / wall,
        "rss_mb": rss / 2**20,
        "worker_cpu": (worker_b - worker_a) / wall,
        "worker_rss_mb": worker_rss / 2**20,
    }


def report(r: Result) -> str:
    """A compact table of one run."""
    nan = float("nan")
    idle, load = r.idle, r.loaded
    n = max(1, r.viewers)
    met = "met" if r.p95_s <= TARGET_P95_S else "NOT met"
    setup = f"{r.game}, {r.client} viewers, {r.started} actions before they came"
    store = "a SQLite file" if r.store == "sqlite" else "PostgreSQL"
    rows = [
        ("store, trackers", f"{store} ({r.database}); {r.trackers} tracker process(es),"
         " viewers spread round-robin; the referee writes from this process"),
        ("viewers × seconds", f"{r.viewers} × {r.seconds:.0f} s, a write every {r.interval} s"
         f" ({setup}{'; ' + ' '.join(r.options) if r.options else ''})"),
        ("write → viewer shows it", f"p50 {r.p50_s:.2f} s  p95 {r.p95_s:.2f} s"
         f"  max {r.max_s:.2f} s  (target p95 <= {TARGET_P95_S} s: {met})"),
        ("never shown", f"{r.missed} of {r.writes} writes × {r.pairs // max(1, r.writes)}"
         " viewers within the timeout"),
        ("errors", f"{len(r.errors)} (server tracebacks {r.server_log_tracebacks})"),
        ("viewer load to first marker", f"p50 {r.load_p50_s:.1f} s  max {r.load_max_s:.1f} s"),
        ("referee write", f"p50 {r.write_p50_ms:.1f} ms  max {r.write_max_ms:.1f} ms"),
        ("viewer reruns received", f"{r.reruns_per_viewer_s:.2f} /s per viewer (asked 1 /s);"
         f" server CPU {r.cpu_ms_per_rerun:.0f} ms per rerun; {r.kb_per_viewer_s:.1f} KB/s"),
    ]  # fmt: skip
    if idle and load:
        server_extra = load["server_cpu"] - idle["server_cpu"]
        rss_extra = load["server_rss_mb"] - idle["server_rss_mb"]
        rows += [
            ("server CPU (cores)", f"{load['server_cpu']:.2f} loaded vs {idle['server_cpu']:.2f}"
             f" idle: {1000 * server_extra / n:.1f} ms/s per viewer"),
            ("server RSS", f"{load['server_rss_mb']:.0f} MB vs {idle['server_rss_mb']:.0f} MB"
             f" idle: {rss_extra / n:.2f} MB per viewer"),
            ("chances worker", f"{load['worker_cpu']:.2f} cores, {load['worker_rss_mb']:.0f} MB"
             f" (idle {idle['worker_cpu']:.2f} cores)"),
            ("database server", f"{1000 * load['db_cpu']:.1f} ms/s of CPU"
             f" (idle {1000 * idle['db_cpu']:.1f} ms/s),"
             f" {load['db_rss_mb']:.0f} MB PSS" if r.store == "postgresql" and "db_cpu" in load
             else "none (SQLite in the trackers' processes)" if r.store == "sqlite"
             else "not measured (not started by this run)"),
            ("clients", f"chromium {load['browser_cpu']:.2f} cores, {load['browser_rss_mb']:.0f}"
             f" MB PSS ({load['browser_rss_mb'] / n:.0f} MB per page); this process"
             f" {load['bench_cpu']:.2f} cores"),
            ("machine", f"{load['machine_busy']:.2f} of {load['machine_cores']:.0f} cores busy;"
             f" others' load {load['others_cpu']:.2f} cores (idle phase"
             f" {idle['others_cpu']:.2f})"),
        ]  # fmt: skip
    for t, e in enumerate(r.per_tracker if r.trackers > 1 else [], 1):
        rows.append((f"tracker {t} (port {e['port']})",
                     f"{e.get('viewers', 0)} viewers: p50 {e.get('p50_s', nan):.2f} s"
                     f"  p95 {e.get('p95_s', nan):.2f} s  max {e.get('max_s', nan):.2f} s;"
                     f" never shown {e.get('missed', 0)} of {e.get('pairs', 0)};"
                     f" CPU {e.get('server_cpu', nan):.2f} cores"
                     f" (idle {e.get('server_cpu_idle', nan):.2f}),"
                     f" {e.get('cpu_ms_per_rerun', nan):.0f} ms per rerun,"
                     f" {e.get('server_rss_mb', nan):.0f} MB; chances worker"
                     f" {e.get('worker_cpu', nan):.2f} cores;"
                     f" tracebacks {e['tracebacks']}"))  # fmt: skip
    if r.stopped_early:
        rows.append(("stopped early", r.stopped_early))
    width = max(len(k) for k, _ in rows)
    lines = [f"{k:<{width}}  {v}" for k, v in rows]
    lines += [f"  ! {e}" for e in r.errors[:10]]
    if len(r.errors) > 10:
        lines.append(f"  ! … and {len(r.errors) - 10} more")
    return "\n".join(lines)


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
