"""The benchmarks' processes: the tracker servers the crowd benchmark starts and what ``/proc``
says of their CPU and memory, their children's (the chances worker), the browser's and the
machine's (``aids.bench.crowd``), and a database server's CPU with its exited backends'
(``aids.bench.pg_writers`` too)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from aids.paths import ROOT
from aids.store import is_server

TICK = os.sysconf("SC_CLK_TCK")


# --- processes and /proc -------------------------------------------------------------------


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    cpu_s: float  # user + system, this process only
    rss: int  # bytes
    pss: int  # bytes: shared pages divided among their sharers (chromium's many processes)
    cmd: str


def _proc(pid: int) -> Proc | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        status = Path(f"/proc/{pid}/status").read_text()
        cmd = (
            Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        )
    except OSError:  # gone meanwhile
        return None
    rest = stat.rsplit(")", 1)[1].split()
    rss = next((int(line.split()[1]) * 1024 for line in status.splitlines()
                if line.startswith("VmRSS:")), 0)  # fmt: skip
    pss = rss
    with contextlib.suppress(OSError, StopIteration):
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
        pss = next(int(line.split()[1]) * 1024 for line in rollup if line.startswith("Pss:"))
    return Proc(pid, int(rest[1]), (int(rest[11]) + int(rest[12])) / TICK, rss, pss, cmd)


def _all_procs() -> dict[int, Proc]:
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (p := _proc(int(entry))) is not None:
            out[p.pid] = p
    return out


def _tree(procs: dict[int, Proc], root: int) -> list[Proc]:
    """``root`` and every process below it."""
    children: dict[int, list[int]] = {}
    for p in procs.values():
        children.setdefault(p.ppid, []).append(p.pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in procs:
            found.append(procs[pid])
        todo.extend(children.get(pid, []))
    return found


def _machine_busy_s() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, all cores."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:8]]
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / TICK, sum(fields) / TICK


def mem_available() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return 0


def server_cpu(pid: int | None) -> float:
    """CPU seconds of a local server process and everything below it, the exited children
    included (reaped, so counted in their parent's ``cutime``); ``nan`` without a pid."""
    if pid is None:
        return float("nan")
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    times: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            rest = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(rest[1]), []).append(int(entry))
        times[int(entry)] = sum(int(x) for x in rest[11:15])  # utime stime cutime cstime
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += times.get(p, 0)
        todo.extend(children.get(p, []))
    return total / tick


@dataclass
class Usage:
    """CPU seconds and RSS of the groups of processes the benchmark cares about."""

    at: float
    server_cpu: float = 0.0
    server_rss: int = 0
    worker_cpu: float = 0.0  # the live-chances worker (a spawned child of the server)
    worker_rss: int = 0
    helpers_cpu: float = 0.0  # other children of the server (multiprocessing's tracker)
    helpers_rss: int = 0
    browser_cpu: float = 0.0  # playwright's driver and chromium: the phones' side
    browser_rss: int = 0  # PSS, the sum of RSS would count chromium's shared pages often
    bench_cpu: float = 0.0  # this process: the referee's writes and playwright's client
    db_cpu: float = 0.0  # the PostgreSQL server we started, its exited backends included
    db_rss: int = 0  # PSS (its processes share the buffers)
    machine_busy: float = 0.0
    machine_total: float = 0.0
    # per tracker (server pid): (server CPU, server RSS, chances worker CPU, worker RSS)
    trackers: dict[int, tuple[float, int, float, int]] = field(default_factory=dict)


def usage(server_pids: int | Sequence[int], db_pid: int | None = None) -> Usage:
    """CPU and memory now: the trackers (each with its chances worker and helpers, summed in
    the ``server_*``/``worker_*`` fields and kept apart in ``trackers``), the database server
    we started, the browser (this process's other children) and the machine."""
    pids = [server_pids] if isinstance(server_pids, int) else list(server_pids)
    procs = _all_procs()
    u = Usage(time.monotonic())
    server = set()
    for server_pid in pids:
        cpu, rss, worker_cpu, worker_rss = 0.0, 0, 0.0, 0
        for p in _tree(procs, server_pid):
            server.add(p.pid)
            if p.pid == server_pid:
                cpu, rss = p.cpu_s, p.rss
            elif "spawn_main" in p.cmd:
                worker_cpu += p.cpu_s
                worker_rss += p.rss
            else:
                u.helpers_cpu += p.cpu_s
                u.helpers_rss += p.rss
        u.trackers[server_pid] = (cpu, rss, worker_cpu, worker_rss)
        u.server_cpu += cpu
        u.server_rss += rss
        u.worker_cpu += worker_cpu
        u.worker_rss += worker_rss
    if db_pid is not None:
        database = _tree(procs, db_pid)
        server.update(p.pid for p in database)
        u.db_cpu = server_cpu(db_pid)
        u.db_rss = sum(p.pss for p in database)
    me = os.getpid()
    for p in _tree(procs, me):
        if p.pid == me:
            u.bench_cpu = p.cpu_s
        elif p.pid not in server:
            u.browser_cpu += p.cpu_s
            u.browser_rss += p.pss
    u.machine_busy, u.machine_total = _machine_busy_s()
    return u


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    db: Path | str,
    port: int,
    log: Path,
    playouts: int | None = None,
    options: Sequence[str] = (),
    profile: Path | None = None,
) -> subprocess.Popen[bytes]:
    """``streamlit run streamlit_app.py`` as ``aids serve`` runs it (and the browser tests: no
    file watcher, so an edit elsewhere in the tree cannot reload code mid-run). ``options``:
    more Streamlit options as ``section.name=value`` (``runner.postScriptGC=false``). ``db``:
    the SQLite file, or a ``postgresql://`` address (``AIDS_DATABASE_URL``). ``profile``: run
    it under cProfile (its main thread: the server's event loop), its statistics written
    there on SIGUSR1 (``profile_hook``)."""
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, AIDS_PUBLIC_URL=base, AIDS_PORT=str(port))
    env.pop("AIDS_DATABASE_URL", None)  # the store is the one given, never the caller's
    if is_server(str(db)):
        env["AIDS_DATABASE_URL"] = str(db)
    else:
        env["AIDS_DB"] = str(db)
    if playouts is not None:
        env["AIDS_CHANCE_PLAYOUTS"] = str(playouts)
    if profile is not None:
        hook = str(Path(__file__).resolve().parent / "profile_hook")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [hook, env.get("PYTHONPATH", "")]))
        env["AIDS_BENCH_PROFILE"] = str(profile)
    command = [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "streamlit_app.py"),
        "--server.port", str(port), "--server.address", "127.0.0.1",
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    for option in options:
        name, _, value = option.partition("=")
        command += [f"--{name}", value]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    while True:  # poll the health endpoint, as Streamlit's own e2e tests do
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            stop(proc)
            raise RuntimeError(f"the tracker did not start; see {log}")
        time.sleep(0.3)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
