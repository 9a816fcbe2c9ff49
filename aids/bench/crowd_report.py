"""The crowd benchmark's figures: what one run found (``Result``), the latencies and the CPU
and memory rates made from the viewers' notes and the ``/proc`` readings, and the report that
prints a run as a compact table (``aids.bench.crowd``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from aids.bench.procs import Usage

TARGET_P95_S = 2.0


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


def rates(a: Usage, b: Usage) -> dict[str, float]:
    """The CPU (cores) and memory of each group of processes, and the machine's, between two
    readings."""
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


def quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def tracker_rates(a: Usage, b: Usage, pid: int) -> dict[str, float]:
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
