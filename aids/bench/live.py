"""The live benchmark: a thousand phones following one table's live view while the referee
records (issue 27 §4).

Run with ``python -m aids.bench.live [--clients 1000] [--seconds 60] [--interval 2]`` (or
``aids bench live …``). It starts the real tracker (``streamlit run streamlit_app.py``, the
crowd benchmark's ``start_server``) on a temporary SQLite file, creates a Derby table with the
benchmarks' referee (a simulation: the longest of 40 seeded races) and opens the phones in
another process (``aids.bench.live_clients``: raw HTTP/1.1 sockets on
``/live/<table>/events?lang=en``, the Server-Sent Events parsed as they come). The open-files
soft limit is raised in this process (the trackers inherit it) and in the clients'. Then:

1. the idle server with no phone (``--idle`` seconds, ``/proc``): the baseline of CPU;
2. one phone alone while the referee writes a few times: the baseline of latency and of the
   cost of a write;
3. the ``--clients`` phones connected, no write (``--idle`` seconds): CPU and memory per
   idle phone;
4. a legal action every ``--interval`` seconds for ``--seconds``, written from this process
   (a second device: the tracker learns of it through the store). Every (write, phone) pair
   gives receive time − commit time, both ``time.time()`` on this machine; a phone sent a
   newer position than a write (two writes within one of the hub's looks) has not missed it:
   a write is missed only if the phone never received its position or a later one. Bytes
   per write per phone are all the bytes on the wire over the phase (HTTP framing and pings
   too) divided by writes and phones, and the most one phone received for one write.
5. ``--compare-streamlit M``: M live phones, then M Streamlit viewer sessions (the crowd
   benchmark's ``SocketViewer``: Streamlit's websocket as the viewer page drives it), each
   while the referee writes for ``--compare-seconds``: server CPU and bytes per phone side
   by side.
6. the first load of the live view and of the Streamlit viewer page at 390 × 844 in Debian's
   chromium (fresh contexts): bytes and requests (skipped with ``--no-browser``).

``--postgres`` / ``--database-url`` run on PostgreSQL and ``--trackers N`` starts N trackers,
the phones round-robin over them; ``--nginx`` puts the venue guide's nginx site
(``docs/venue/nginx-site.conf``) in front of two trackers on PostgreSQL: the phones connect
through it from many loopback addresses (its ``ip_hash`` keeps a device on one tracker), half
on each tracker (each address's tracker found first, from ``/proc/net/tcp``).

Every figure is printed beside the issue's target and a baseline from the same run, because
this machine is shared and noisy: compare the ratios between runs. See docs/crowd.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from aids.bench.crowd import CHROMIUM, CHROMIUM_ARGS, _first_exception
from aids.bench.crowd_report import rates, tracker_rates
from aids.bench.live_clients import watch
from aids.bench.live_pages import PagesResult, follow_race
from aids.bench.live_report import LiveResult, Phase, phase_figures, report, sections_per_write
from aids.bench.live_room import ClientProcess, established, first_loads, nginx
from aids.bench.procs import Usage, free_port, server_cpu, start_server, stop, usage
from aids.bench.referee import Referee
from aids.bench.viewers import SocketViewer
from aids.core.i18n import t
from aids.paths import OUTPUT, data_dir
from aids.store import shown

BASELINE_WRITES = 5  # writes seen by one phone alone
SUBNETS = 32  # behind nginx: the phones' loopback networks (127.0.k.1), one device each


class Run:
    """One run's moving parts: the trackers, the referee, the clients' process."""

    def __init__(
        self,
        result: LiveResult,
        referee: Referee,
        pids: list[int],
        ports: list[int],
        db_pid: int | None,
        clients: ClientProcess,
        say: Callable[[str], None],
    ) -> None:
        self.result, self.referee, self.pids, self.ports = result, referee, pids, ports
        self.db_pid, self.clients, self.say = db_pid, clients, say
        self.write_ms: list[float] = []

    def usage(self) -> Usage:
        return usage(self.pids, self.db_pid)

    async def write_for(self, seconds: float, interval: float) -> tuple[list[tuple[int, float]],
                                                                        float]:  # fmt: skip
        """A write every ``interval`` s for ``seconds``; the writes (sequence, commit time)
        and when the load of the last one is over (the phase's end, monotonic)."""
        writes: list[tuple[int, float]] = []
        began, k = time.monotonic(), 0
        while time.monotonic() - began < seconds:
            await asyncio.sleep(max(0.0, began + k * interval - time.monotonic()))
            t0 = time.perf_counter()
            seq = await asyncio.to_thread(self.referee.write)
            writes.append((seq, time.time()))  # the commit is done when write returns
            self.write_ms.append((time.perf_counter() - t0) * 1000)
            k += 1
        await asyncio.sleep(max(0.0, began + k * interval - time.monotonic()))
        return writes, time.monotonic()

    async def live_phase(self, phase: Phase, specs: list[dict[str, Any]], seconds: float,
                         interval: float, folder: Path, timeout_s: float,
                         idle0: dict[str, float]) -> list[dict[str, Any]]:  # fmt: skip
        """Phones opened from ``specs`` follow writes for ``seconds``; then closed."""
        before = self.usage()
        first = len((await self.clients.ask("counters"))["bytes"])
        opened = await self.clients.ask("open", clients=specs, at_once=50, timeout=120)
        self.result.errors += [f"live phone: {e}" for e in opened["errors"]]
        await asyncio.sleep(max(3.0, interval))
        start, counted = self.usage(), (await self.clients.ask("counters"))["bytes"]
        writes, _ = await self.write_for(seconds, interval)
        end = self.usage()
        await self.clients.ask("wait", seq=writes[-1][0] if writes else 0, timeout=timeout_s)
        after = (await self.clients.ask("counters"))["bytes"]
        notes = (await self.clients.records(folder))[first:]
        await self.clients.ask("close")
        loaded = rates(start, end)
        got = [after[first + i] - counted[first + i] for i in range(len(notes))]
        phase_figures(phase, writes, notes, got, loaded["wall_s"])
        _cpu(phase, loaded, idle0, len(writes))
        phase.rss_mb_per_client = (end.server_rss - before.server_rss) / 2**20 / max(1, len(notes))
        return notes


def _cpu(phase: Phase, loaded: dict[str, float], idle: dict[str, float], writes: int) -> None:
    phase.server_cpu, phase.worker_cpu = loaded["server_cpu"], loaded["worker_cpu"]
    extra = loaded["server_cpu"] - idle["server_cpu"]
    if writes:
        phase.cpu_ms_per_write = 1000 * extra * loaded["wall_s"] / writes
    if phase.clients:
        phase.cpu_ms_per_client_s = 1000 * extra / phase.clients


def drawing_cost(referee: Referee, repeat: int = 5) -> tuple[float, dict[str, int]]:
    """One drawing of the table as the hub makes it (the viewer's snapshot, ``render``), in
    this process: its CPU in ms (best of ``repeat``), and each section's size in a message
    (JSON-escaped, in bytes)."""
    from aids.live.render import render

    service, pid = referee.service, referee.public_id
    best = math.inf
    for _ in range(repeat):
        t0 = time.thread_time()
        snapshot = service.snapshot(pid)
        drawn = render(snapshot, service.game(snapshot.info.kind), "en", None)
        best = min(best, time.thread_time() - t0)
    sizes = {
        name: len(json.dumps(html, ensure_ascii=False).encode()) - 2
        for name, html in drawn.sections.items()
    }
    return 1000 * best, sizes


async def run(
    clients: int = 1000,
    seconds: float = 60.0,
    interval: float = 2.0,
    game: str = "derby",
    *,
    idle_s: float = 20.0,
    started: int = 0,
    timeout_s: float = 10.0,
    playouts: int | None = None,
    trackers: int = 1,
    postgres: bool = False,
    database_url: str | None = None,
    behind_nginx: bool = False,
    compare_streamlit: int = 0,
    compare_seconds: float = 30.0,
    browser: bool = True,
    verbose: bool = True,
    keep_notes: Path | None = None,
    profile: Path | None = None,
    baseline_writes: int = BASELINE_WRITES,
    pages: int = 20,
    pages_interval: float = 1.0,
    race_writes: int | None = None,
) -> LiveResult:
    """One run (see the module's doc); its figures."""
    from aids.cli.serve import raise_open_files

    def say(text: str) -> None:
        if verbose:
            print(text, file=sys.stderr, flush=True)

    if behind_nginx:
        trackers = 2
        postgres = postgres or database_url is None
    if trackers > 1 and not (postgres or database_url):
        raise ValueError("several trackers need PostgreSQL")
    result = LiveResult(clients, seconds, interval, game, trackers=trackers, nginx=behind_nginx,
                        started=started)  # fmt: skip
    result.open_files["benchmark and trackers"] = raise_open_files()
    data_dir().mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as outer:
        tmp = Path(outer.enter_context(tempfile.TemporaryDirectory(prefix="live-", dir=data_dir())))
        from aids.bench.pg import bench_store

        locator, db_pid = bench_store(
            outer, tmp / "live.sqlite3", postgres=postgres, url=database_url, say=say
        )
        if not isinstance(locator, Path):
            result.store = "postgresql"
        result.database = shown(str(locator))
        logs = [tmp / f"server-{t}.log" for t in range(trackers)]
        ran: list[int] = []
        servers: list[subprocess.Popen[bytes]] = []
        async with contextlib.AsyncExitStack() as stack:
            referee = Referee(locator, game, seed=1)
            stack.callback(referee.close)
            for _ in range(started):
                referee.write()
            ports = []
            for t in range(trackers):
                ports.append(free_port())
                prof = profile.with_suffix(f".{t}.prof") if profile and t else profile
                servers.append(start_server(locator, ports[-1], logs[t], playouts, profile=prof))
                stack.callback(stop, servers[-1])
            pids = [s.pid for s in servers]
            proxy: tuple[int, int] | None = None
            if behind_nginx:
                proxy = outer.enter_context(nginx(tmp, ports, clients))
            process = await ClientProcess.start()
            stack.push_async_callback(process.stop)
            result.open_files["clients"] = process.open_files
            go = Run(result, referee, pids, ports, db_pid, process, say)
            pid = referee.public_id
            path = f"/live/{pid}/events?lang=en"
            say(f"{trackers} tracker(s) on {ports}{f', nginx on {proxy[0]}' if proxy else ''};"
                f" table {pid} ({result.database}); warming up")  # fmt: skip
            await _warm(process, ports, path, pid)
            if browser and Path(CHROMIUM).exists():
                say("first loads in chromium")
                base = f"http://127.0.0.1:{proxy[0] if proxy else ports[0]}"
                result.first_load = await first_loads(base, pid, CHROMIUM, CHROMIUM_ARGS)
                await asyncio.sleep(3)  # the Streamlit page's session goes
            elif browser:
                result.first_load["live"] = {"error": f"{CHROMIUM} is missing"}

            say(f"idle server, no phone, {idle_s} s")
            idle_from = go.usage()
            await asyncio.sleep(idle_s)
            idle_to = go.usage()
            result.idle0 = rates(idle_from, idle_to)

            say(f"one phone alone, {baseline_writes} writes")
            await go.live_phase(result.one, [{"port": ports[0], "path": path}],
                                baseline_writes * interval, interval, tmp, timeout_s,
                                result.idle0)  # fmt: skip

            specs = await _specs(process, clients, ports, path, proxy)
            first = len((await process.ask("counters"))["bytes"])
            say(f"opening {clients} phones")
            before = go.usage()
            result.rss_before_mb = before.server_rss / 2**20
            opened = await process.ask("open", clients=specs, at_once=50, timeout=120)
            result.opened = int(opened["opened"])
            result.load_p50_s = opened["load_p50_s"] or math.nan
            result.load_max_s = opened["load_max_s"] or math.nan
            result.errors += [f"phone: {e}" for e in opened["errors"]]
            if opened["failed"]:
                result.errors.append(f"{opened['failed']} phones did not open")
            await asyncio.sleep(5)
            say(f"{result.opened} phones open; idle {idle_s} s")
            counted = (await process.ask("counters"))["bytes"]
            mark_a = go.usage()
            await asyncio.sleep(idle_s)
            mark_b = go.usage()
            idle_bytes = (await process.ask("counters"))["bytes"]
            result.idle = rates(mark_a, mark_b)
            result.rss_with_mb = mark_b.server_rss / 2**20
            result.idle_bytes_per_client_s = sum(
                idle_bytes[first + i] - counted[first + i] for i in range(len(specs))
            ) / max(1, len(specs)) / result.idle["wall_s"]  # fmt: skip

            say(f"writing every {interval} s for {seconds} s")
            analyst = await watch("127.0.0.1", ports[0], path)  # one more: the sections' bytes
            nginx_a = server_cpu(proxy[1]) if proxy else math.nan
            if profile is not None:  # the writing phase only
                _signal(pids, signal.SIGUSR2)
            start, counted = go.usage(), (await process.ask("counters"))["bytes"]
            writes, _ = await go.write_for(seconds, interval)
            end = go.usage()
            if profile is not None:
                _signal(pids, signal.SIGUSR1)
            nginx_b = server_cpu(proxy[1]) if proxy else math.nan
            result.loaded = rates(start, end)
            result.nginx_cpu = (nginx_b - nginx_a) / result.loaded["wall_s"]
            waited = await process.ask("wait", seq=writes[-1][0] if writes else 0,
                                       timeout=timeout_s)  # fmt: skip
            say(f"{waited['reached']} of {waited['of']} phones hold the last write")
            after = (await process.ask("counters"))["bytes"]
            analyst.close()
            if writes:
                result.by_section, result.trimmed_bytes = sections_per_write(
                    analyst.notes.bodies, writes[0][0], writes[-1][0]
                )
            notes = (await process.records(tmp))[first : first + len(specs)]
            if keep_notes is not None:
                keep_notes.write_text(json.dumps({"writes": writes, "notes": notes}))
            opened_notes = [n for n in notes if not n["errors"] or n["seen"]]
            sizes = [n["events"][0][1] for n in opened_notes if n["events"]]
            result.first_bytes = statistics.mean(sizes) if sizes else math.nan
            got = [after[first + i] - counted[first + i] for i in range(len(specs))]
            phase_figures(result.main, writes, notes, got, result.loaded["wall_s"])
            _cpu(result.main, result.loaded, result.idle, len(writes))
            result.main.rss_mb_per_client = (result.rss_with_mb - result.rss_before_mb) / max(
                1, result.opened
            )
            for n in notes:
                result.errors += [f"phone {n['index']}: {e}" for e in n["errors"]]
            _per_tracker(result, notes, writes, ports, pids, (mark_a, mark_b, start, end))
            await process.ask("close")
            result.write_p50_ms = statistics.median(go.write_ms) if go.write_ms else math.nan
            result.draw_ms, result.sections = await asyncio.to_thread(drawing_cost, referee)

            if compare_streamlit:
                await _compare(go, compare_streamlit, compare_seconds, interval, ports, path,
                               tmp, timeout_s)  # fmt: skip
            if pages and browser and Path(CHROMIUM).exists():
                say(f"{pages} chromium pages follow a whole race, a write every {pages_interval} s")
                base = f"http://127.0.0.1:{proxy[0] if proxy else ports[0]}"
                result.pages = await _pages(locator, game, base, pages, pages_interval,
                                            race_writes, timeout_s)  # fmt: skip
                result.errors += result.pages.errors
            ran = [log.stat().st_size for log in logs]
        for k, log in enumerate(logs):
            text = log.read_bytes()[: ran[k] if ran else None].decode(errors="replace")
            tracebacks = text.count("Traceback")
            result.server_log_tracebacks += tracebacks
            if k < len(result.per_tracker):
                result.per_tracker[k]["tracebacks"] = tracebacks
            if tracebacks:
                OUTPUT.mkdir(parents=True, exist_ok=True)
                kept = OUTPUT / f"live-server-{k}.log"
                kept.write_text(text)
                result.errors.append(f"server log: {tracebacks} traceback(s), kept in {kept};"
                                     f" the first: {_first_exception(text)}")  # fmt: skip
    if result.opened < clients and not result.stopped_early:
        result.stopped_early = f"only {result.opened} of {clients} phones opened"
    return result


async def _pages(locator: Path | str, game: str, base: str, pages: int, interval: float,
                 most: int | None, timeout_s: float) -> PagesResult:  # fmt: skip
    """Chromium pages of a new table's live view while its race is written to the end."""
    from playwright.async_api import async_playwright

    referee = Referee(locator, game, seed=2)
    try:
        async with async_playwright() as driver:
            browser = await driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                url = f"{base}/live/{referee.public_id}?lang=en"
                return await follow_race(browser, url, referee, pages, interval, most=most,
                                         timeout_s=timeout_s)  # fmt: skip
            finally:
                await browser.close()
    finally:
        referee.close()


def _signal(pids: Sequence[int], sig: int) -> None:
    for pid in pids:
        os.kill(pid, sig)


async def _warm(process: ClientProcess, ports: Sequence[int], path: str, pid: str) -> None:
    """Each tracker's imports and first drawing: its page once, a phone for a moment."""
    import urllib.request

    def page(port: int) -> None:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/live/{pid}?lang=en", timeout=120):
            pass

    for port in ports:
        await asyncio.to_thread(page, port)
        await process.ask("open", clients=[{"port": port, "path": path}], timeout=120)
    await asyncio.sleep(2)
    await process.ask("close")
    await asyncio.sleep(3)


async def _specs(process: ClientProcess, n: int, ports: Sequence[int], path: str,
                 proxy: tuple[int, int] | None) -> list[dict[str, Any]]:  # fmt: skip
    """Where each phone connects: round-robin over the trackers; behind nginx, from loopback
    networks whose tracker is found first (one phone from each, then which tracker's
    connections grew), half the phones on each tracker."""
    if proxy is None:
        return [{"port": ports[i % len(ports)], "path": path, "tracker": i % len(ports)}
                for i in range(n)]  # fmt: skip
    groups: dict[int, list[str]] = {t: [] for t in range(len(ports))}
    for k in range(1, SUBNETS + 1):
        source = f"127.0.{k}.1"
        held = established(ports)
        await process.ask("open", clients=[{"port": proxy[0], "path": path, "source": source}],
                          timeout=30)  # fmt: skip
        now = established(ports)
        grew = [t for t, port in enumerate(ports) if now[port] > held[port]]
        await process.ask("close")
        await asyncio.sleep(0.3)
        if len(grew) == 1:
            groups[grew[0]].append(source)
    if not all(groups.values()):
        raise RuntimeError(f"behind nginx, no loopback network reached every tracker: {groups}")
    specs = []
    for i in range(n):
        t = i % len(ports)
        sources = groups[t]
        specs.append({"port": proxy[0], "path": path, "tracker": t,
                      "source": sources[(i // len(ports)) % len(sources)]})  # fmt: skip
    return specs


def _per_tracker(
    result: LiveResult,
    notes: list[dict[str, Any]],
    writes: list[tuple[int, float]],
    ports: Sequence[int],
    pids: Sequence[int],
    marks: tuple[Usage, ...],
) -> None:
    if len(ports) < 2:
        return
    idle_a, idle_b, start, end = marks
    for k, (port, pid) in enumerate(zip(ports, pids, strict=True)):
        mine = [n for n in notes if n["tracker"] == k]
        phase = Phase()
        phase_figures(phase, writes, mine, [0] * len(mine), 0.0)
        loaded = tracker_rates(start, end, pid)
        result.per_tracker.append({
            "port": port, "clients": len(mine), "missed": phase.missed, "pairs": phase.pairs,
            "p50_s": phase.p50_s, "p95_s": phase.p95_s, "max_s": phase.max_s,
            "drawings": phase.drawings, "cpu": loaded["cpu"], "rss_mb": loaded["rss_mb"],
            "cpu_idle": tracker_rates(idle_a, idle_b, pid)["cpu"],
        })  # fmt: skip


async def _compare(go: Run, m: int, seconds: float, interval: float, ports: Sequence[int],
                   path: str, folder: Path, timeout_s: float) -> None:  # fmt: skip
    """``m`` live phones, then ``m`` Streamlit viewer sessions, each while the referee writes."""
    result, idle0 = go.result, go.result.idle0
    go.say(f"compare: {m} live phones, {seconds} s")
    live = result.compare["live"] = Phase()
    specs = [{"port": ports[i % len(ports)], "path": path} for i in range(m)]
    await go.live_phase(live, specs, seconds, interval, folder, timeout_s, idle0)

    go.say(f"compare: {m} Streamlit viewers, {seconds} s")
    streamlit = result.compare["streamlit"] = Phase()
    before = go.usage()
    query = f"table={go.referee.public_id}&lang=en"
    viewers: list[SocketViewer] = []
    try:
        for i in range(m):
            viewer = SocketViewer(i)
            try:
                await viewer.open(f"http://127.0.0.1:{ports[i % len(ports)]}", query, 120)
            except Exception as exc:
                result.errors.append(f"Streamlit viewer {i} did not open: {exc}")
                continue
            viewers.append(viewer)
        await asyncio.sleep(max(3.0, interval))
        probes = [await v.probe() for v in viewers]
        start = go.usage()
        writes, _ = await go.write_for(seconds, interval)
        end = go.usage()
        deadline = time.monotonic() + timeout_s
        last = writes[-1][0] if writes else 0
        while time.monotonic() < deadline and any(v.record["max"] < last for v in viewers):
            await asyncio.sleep(0.2)
        after = [await v.probe() for v in viewers]
    finally:
        for v in viewers:
            await v.close()
    notes = [{"seen": {int(s): t / 1000 for s, t in a["seen"].items()}, "events": []}
             for a in after]  # fmt: skip
    loaded = rates(start, end)
    got = [a["bytes"] - b["bytes"] for a, b in zip(after, probes, strict=True)]
    phase_figures(streamlit, writes, notes, got, loaded["wall_s"])
    _cpu(streamlit, loaded, idle0, len(writes))
    streamlit.rss_mb_per_client = (end.server_rss - before.server_rss) / 2**20 / max(1, m)
    for v in viewers:
        result.errors += [f"Streamlit viewer {v.index}: {e}" for e in v.errors]


def main(argv: Sequence[str] | None = None) -> int:
    from aids.bench.live_args import add_arguments

    parser = argparse.ArgumentParser(
        prog="python -m aids.bench.live", description=t("cli.bench.live", "en")
    )
    add_arguments(parser, "en")
    return run_with(parser.parse_args(argv))


def run_with(args: argparse.Namespace) -> int:
    """A run with the options of ``aids.bench.live_args``: its report printed; the exit
    status (1 on an error, a missed write or phones that did not open; 2 refused)."""
    if args.trackers > 1 and not (args.database_url or args.postgres or args.nginx):
        print("several trackers need PostgreSQL: --postgres or --database-url", file=sys.stderr)
        return 2
    result = asyncio.run(
        run(args.clients, args.seconds, args.interval, args.game, idle_s=args.idle,
            started=args.started, timeout_s=args.timeout, playouts=args.playouts,
            trackers=args.trackers, postgres=args.postgres, database_url=args.database_url,
            behind_nginx=args.nginx, compare_streamlit=args.compare_streamlit,
            compare_seconds=args.compare_seconds, browser=not args.no_browser,
            keep_notes=args.notes, profile=args.profile, pages=args.pages,
            pages_interval=args.pages_interval)
    )  # fmt: skip
    print(report(result))
    if args.json:
        args.json.write_text(json.dumps(asdict(result), indent=1, default=str))
    return 1 if result.errors or result.main.missed or result.stopped_early else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
