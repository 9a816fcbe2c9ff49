"""The live benchmark's figures: what one run found (``LiveResult``), the figures made from the
clients' notes and the ``/proc`` readings, and the report that prints each figure beside the
issue's target and a baseline measured in the same run (``aids.bench.live``)."""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from aids.bench.crowd_report import latencies, quantile
from aids.bench.live_pages import TARGET_SHOWN_S, PagesResult

# issue 27 §4
TARGET_P50_S = 0.1
TARGET_P95_S = 0.5
TARGET_IDLE_MS = 0.2  # server CPU per idle connected phone, ms per second
TARGET_WRITE_BYTES = 4096  # per write per phone on the wire
TARGET_LOAD_BYTES = 100 * 1024  # the first load at 390 px, everything
TARGET_LOAD_REQUESTS = 5


@dataclass
class Phase:
    """Phones following a table while the referee writes: who saw what, and how fast."""

    clients: int = 0
    writes: int = 0
    pairs: int = 0
    missed: int = 0
    p50_s: float = math.nan
    p95_s: float = math.nan
    max_s: float = math.nan
    bytes_per_write: float = math.nan  # all bytes received in the phase / writes / clients
    bytes_per_write_max: float = math.nan  # the most one client received for one write
    first_p50_s: float = math.nan  # per write, the first phone's latency (the hub's look, drawing)
    spread_p50_s: float = math.nan  # per write, the last phone's minus the first's (fanning out)
    events_per_write: float = math.nan  # data events per write per client
    bytes_per_s: float = math.nan  # per client
    drawings: int = 0  # distinct drawings received (event ids): the hub's drawings, one language
    server_cpu: float = math.nan  # cores over the phase
    worker_cpu: float = math.nan  # the chances worker's cores
    cpu_ms_per_write: float = math.nan  # server CPU over the idle phase with the phones, per write
    cpu_ms_per_client_s: float = math.nan  # server CPU over the idle server, per phone per second
    rss_mb_per_client: float = math.nan


@dataclass
class LiveResult:
    clients: int
    seconds: float
    interval: float
    game: str
    store: str = "sqlite"
    database: str = ""
    trackers: int = 1
    nginx: bool = False
    started: int = 0
    open_files: dict[str, int] = field(default_factory=dict)  # soft limit per process
    opened: int = 0
    load_p50_s: float = math.nan
    load_max_s: float = math.nan
    first_bytes: float = math.nan  # a phone's first event (the whole first screen), mean
    main: Phase = field(default_factory=Phase)
    one: Phase = field(default_factory=Phase)  # the baseline: one phone alone
    idle0: dict[str, float] = field(default_factory=dict)  # rates, the server with no phone
    idle: dict[str, float] = field(default_factory=dict)  # rates, N phones and no write
    loaded: dict[str, float] = field(default_factory=dict)  # rates, N phones and the writes
    idle_bytes_per_client_s: float = math.nan  # pings
    rss_before_mb: float = math.nan
    rss_with_mb: float = math.nan
    draw_ms: float = math.nan  # one drawing in the benchmark's process (CPU), the baseline
    sections: dict[str, int] = field(default_factory=dict)  # bytes of each, the last drawing
    by_section: dict[str, float] = field(default_factory=dict)  # bytes per write, one phone
    trimmed_bytes: float = math.nan  # per write, were each section sent as its changed middle
    write_p50_ms: float = math.nan
    nginx_cpu: float = math.nan  # cores over the writing phase
    per_tracker: list[dict[str, Any]] = field(default_factory=list)
    compare: dict[str, Phase] = field(default_factory=dict)  # "live", "streamlit"
    first_load: dict[str, dict[str, Any]] = field(default_factory=dict)  # "live", "streamlit"
    pages: PagesResult | None = None  # chromium pages following a whole race
    errors: list[str] = field(default_factory=list)
    server_log_tracebacks: int = 0
    stopped_early: str = ""


def phase_figures(
    phase: Phase,
    writes: Sequence[tuple[int, float]],
    notes: Sequence[dict[str, Any]],
    bytes_in: Sequence[int],
    wall_s: float,
) -> None:
    """Fill ``phase`` from the writes (sequence, commit time) and the notes of the clients
    that followed them (``bytes_in``: each one's bytes received over the phase)."""
    seen = [{int(s): t for s, t in n["seen"].items()} for n in notes]
    # a phone sent a newer position than a write is not missing it: two writes within one
    # of the hub's looks are drawn once (``latencies`` takes the first later position)
    lat, phase.missed = latencies(writes, seen, math.inf)
    phase.clients, phase.writes = len(notes), len(writes)
    phase.pairs = len(writes) * len(notes)
    if lat:
        phase.p50_s, phase.p95_s = statistics.median(lat), quantile(lat, 0.95)
        phase.max_s = max(lat)
    if not writes or not notes:
        return
    firsts, spreads = [], []
    for seq, at in writes:
        got = [min((t for s, t in one.items() if s >= seq), default=math.nan) for one in seen]
        got = [t - at for t in got if not math.isnan(t)]
        if got:
            firsts.append(min(got))
            spreads.append(max(got) - min(got))
    if firsts:
        phase.first_p50_s = statistics.median(firsts)
        phase.spread_p50_s = statistics.median(spreads)
    phase.bytes_per_write = sum(bytes_in) / len(writes) / len(notes)
    phase.bytes_per_s = sum(bytes_in) / len(notes) / wall_s if wall_s else math.nan
    first, last = writes[0][0], writes[-1][0]
    most, events = 0, 0
    tags: set[str] = set()
    for n in notes:
        per: dict[int, int] = {}
        for seq, size, _at, tag in n["events"]:
            if first <= seq <= last:
                per[seq] = per.get(seq, 0) + size
                events += 1
                tags.add(tag)
        most = max(most, *per.values(), 0)
    phase.bytes_per_write_max = most
    phase.events_per_write = events / len(writes) / len(notes)
    phase.drawings = len(tags)


def sections_per_write(
    bodies: Sequence[str], first: int, last: int
) -> tuple[dict[str, float], float]:
    """What one phone's messages for the writes ``first``..``last`` carried, per write: each
    section's bytes (JSON-escaped, as on the wire) and, in all, what they would weigh if each
    changed section were sent as the middle that differs from the one the phone holds (its
    common start and end left out: two numbers more)."""
    held: dict[str, str] = {}
    sizes: dict[str, float] = {}
    trimmed = 0
    writes = max(1, last - first + 1)
    for body in bodies:
        message = json.loads(body)
        for name, html in message["s"].items():
            before = held.get(name, "")
            held[name] = html
            if not first <= message["seq"] <= last:
                continue
            sizes[name] = sizes.get(name, 0) + _escaped(html) / writes
            start = 0
            most = min(len(before), len(html))
            while start < most and before[start] == html[start]:
                start += 1
            end = 0
            while end < most - start and before[-1 - end] == html[-1 - end]:
                end += 1
            trimmed += _escaped(html[start : len(html) - end]) + len(f"[{start},{end},]")
    return sizes, trimmed / writes


def _escaped(text: str) -> int:
    return len(json.dumps(text, ensure_ascii=False).encode()) - 2


def ratio(a: float, b: float) -> str:
    if not b or math.isnan(a) or math.isnan(b):
        return "—"
    x = a / b
    return f"{x:.2f}×" if abs(x) >= 0.1 else f"{x:.3f}×" if abs(x) >= 0.001 else f"{x:.1e}×"


def _met(value: float, target: float) -> str:
    if math.isnan(value):
        return "not measured"
    return "met" if value <= target else "NOT met"


def _kb(n: float) -> str:
    return "—" if math.isnan(n) else f"{n / 1024:.2f} KB"


def report(r: LiveResult) -> str:
    """The run as a table: each figure, the issue's target, a baseline from the same run."""
    m, one, idle0, idle, load = r.main, r.one, r.idle0, r.idle, r.loaded
    store = "a SQLite file" if r.store == "sqlite" else "PostgreSQL"
    where = f"{r.trackers} tracker(s)" + (" behind nginx" if r.nginx else "")
    head = [
        f"live view: {r.clients} clients × {r.seconds:.0f} s, a write every {r.interval} s"
        f" ({r.game}, {r.started} actions before); {where} on {store} ({r.database});"
        f" the clients in a process of their own; open files"
        f" {', '.join(f'{k} {v}' for k, v in r.open_files.items())}",
        f"opened {r.opened} of {r.clients} (first event p50 {r.load_p50_s:.2f} s,"
        f" max {r.load_max_s:.2f} s); {m.writes} writes (the referee's p50"
        f" {r.write_p50_ms:.1f} ms)",
        "",
    ]
    rows: list[tuple[str, str, str, str, str]] = [
        ("figure", "measured", "target", "baseline (same run)", "ratio"),
        ("missed (write, phone) pairs", f"{m.missed} of {m.pairs}", "0",
         f"one phone alone: {one.missed} of {one.pairs}", _met(m.missed, 0)),
        ("write → received p50", f"{m.p50_s:.3f} s", f"≤ {TARGET_P50_S} s",
         f"one phone alone {one.p50_s:.3f} s", f"{ratio(m.p50_s, one.p50_s)}"
         f" ({_met(m.p50_s, TARGET_P50_S)})"),
        ("write → received p95", f"{m.p95_s:.3f} s", f"≤ {TARGET_P95_S} s",
         f"one phone alone {one.p95_s:.3f} s", f"{ratio(m.p95_s, one.p95_s)}"
         f" ({_met(m.p95_s, TARGET_P95_S)})"),
        ("write → received max", f"{m.max_s:.3f} s", "", f"one phone alone {one.max_s:.3f} s",
         ratio(m.max_s, one.max_s)),
        ("  the first phone / fanning out, p50", f"{m.first_p50_s:.3f} s / {m.spread_p50_s:.3f} s",
         "", f"one phone alone {one.first_p50_s:.3f} s", "(per write: the first phone's"
         " latency; the last's minus the first's)"),
        ("bytes per write per phone", f"{_kb(m.bytes_per_write)} avg,"
         f" {_kb(m.bytes_per_write_max)} max", f"≤ {TARGET_WRITE_BYTES // 1024} KB",
         f"a phone's first screen {_kb(r.first_bytes)}",
         f"{ratio(m.bytes_per_write, r.first_bytes)} ({_met(m.bytes_per_write, TARGET_WRITE_BYTES)}"
         f"; max {_met(m.bytes_per_write_max, TARGET_WRITE_BYTES)})"),
        ("events per write per phone", f"{m.events_per_write:.2f}", "",
         f"drawings received: {m.drawings}", ""),
    ]  # fmt: skip
    if idle0 and idle:
        n = max(1, r.opened)
        per_idle = 1000 * (idle["server_cpu"] - idle0["server_cpu"]) / n
        rows.append(
            ("server CPU per idle phone", f"{per_idle:.3f} ms/s", f"≤ {TARGET_IDLE_MS} ms/s",
             f"the idle server alone {1000 * idle0['server_cpu']:.1f} ms/s; with"
             f" {n}: {1000 * idle['server_cpu']:.1f} ms/s", _met(per_idle, TARGET_IDLE_MS))
        )  # fmt: skip
    if idle and load:
        rows.append(
            ("server CPU per write", f"{m.cpu_ms_per_write:.1f} ms", "reported",
             f"one drawing here {r.draw_ms:.1f} ms", f"{ratio(m.cpu_ms_per_write, r.draw_ms)}"
             f" (one phone alone: {one.cpu_ms_per_write:.1f} ms)")
        )  # fmt: skip
        rows.append(
            ("server RSS per phone", f"{1024 * (r.rss_with_mb - r.rss_before_mb) / n:.1f} KB",
             "reported", f"the server {r.rss_before_mb:.0f} MB before the phones,"
             f" {r.rss_with_mb:.0f} MB with", "")
        )  # fmt: skip
    rows.append(("idle bytes per phone", f"{r.idle_bytes_per_client_s:.1f} B/s", "", "(pings)", ""))
    for name in ("live", "streamlit"):
        f = r.first_load.get(name)
        if not f:
            continue
        if "error" in f:
            rows.append((f"first load 390 px, {name}", f["error"], "", "", ""))
            continue
        target = (
            f"≤ {TARGET_LOAD_BYTES // 1024} KB, ≤ {TARGET_LOAD_REQUESTS}" if name == "live" else ""
        )
        base = r.first_load.get("streamlit", {})
        verdict = ""
        if name == "live":
            ok = f["bytes"] <= TARGET_LOAD_BYTES and f["requests"] <= TARGET_LOAD_REQUESTS
            verdict = ("met" if ok else "NOT met") + (
                f"; {ratio(f['bytes'], base['bytes'])} the bytes, "
                f"{ratio(f['requests'], base['requests'])} the requests"
                if "bytes" in base
                else ""
            )
        rows.append(
            (f"first load 390 px, {name}", f"{_kb(f['bytes'])}, {f['requests']} requests",
             target, "the Streamlit page" if name == "live" else "",
             verdict)
        )  # fmt: skip
    if r.pages is not None:
        p = r.pages
        whole = "the whole race" if p.over else f"{p.writes} writes (not the whole race)"
        shown = p.missed == 0 and p.late == 0 and p.over
        rows += [
            (f"{p.pages} chromium pages, {whole}",
             f"{p.late} of {p.pairs} later than {TARGET_SHOWN_S:.0f} s, {p.missed} missed",
             f"each ≤ {TARGET_SHOWN_S:.0f} s", f"p50 {p.p50_s:.3f} s, p95 {p.p95_s:.3f} s,"
             f" max {p.max_s:.3f} s", "met" if shown else "NOT met"),
            ("  a page closed, opened again", f"caught up in {p.caught_up_s:.2f} s",
             "catches up", f"at position {p.reopened_after}",
             "met" if p.caught_up_s <= TARGET_SHOWN_S + 5 else "NOT met"),
        ]  # fmt: skip
    if r.compare:
        live, st = r.compare.get("live", Phase()), r.compare.get("streamlit", Phase())
        rows += [
            (f"{live.clients} live vs {st.clients} Streamlit: CPU per phone",
             f"{live.cpu_ms_per_client_s:.2f} ms/s", "",
             f"Streamlit {st.cpu_ms_per_client_s:.2f} ms/s",
             ratio(live.cpu_ms_per_client_s, st.cpu_ms_per_client_s)),
            ("  bytes per phone", f"{_kb(live.bytes_per_s)}/s, {_kb(live.bytes_per_write)}/write",
             "", f"Streamlit {_kb(st.bytes_per_s)}/s, {_kb(st.bytes_per_write)}/write",
             ratio(live.bytes_per_s, st.bytes_per_s)),
            ("  write → shown p50 / p95", f"{live.p50_s:.3f} / {live.p95_s:.3f} s", "",
             f"Streamlit {st.p50_s:.3f} / {st.p95_s:.3f} s", ratio(live.p50_s, st.p50_s)),
            ("  missed", f"{live.missed} of {live.pairs}", "0",
             f"Streamlit {st.missed} of {st.pairs}", ""),
            ("  server RSS per phone", f"{1024 * live.rss_mb_per_client:.1f} KB", "",
             f"Streamlit {1024 * st.rss_mb_per_client:.0f} KB", "(after the main run: indicative)"),
        ]  # fmt: skip
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = head + ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
                    for row in rows]  # fmt: skip
    if idle and load:
        lines += [
            "",
            f"server: {load['server_cpu']:.2f} cores writing, {idle['server_cpu']:.2f} idle"
            f" with the phones, {idle0['server_cpu']:.3f} idle alone; chances worker"
            f" {load['worker_cpu']:.2f} cores ({m.worker_cpu:.2f}); clients' process (and"
            f" nginx, chromium) {load['browser_cpu']:.2f} cores; machine"
            f" {load['machine_busy']:.2f} of {load['machine_cores']:.0f} cores busy, others'"
            f" {load['others_cpu']:.2f} (idle phases {idle0['others_cpu']:.2f},"
            f" {idle['others_cpu']:.2f})"
            + (f"; nginx {r.nginx_cpu:.2f} cores" if not math.isnan(r.nginx_cpu) else ""),
        ]
    if r.sections:
        lines.append(
            "the last drawing's sections in a message (bytes): "
            + ", ".join(f"{k} {v:,}" for k, v in r.sections.items())
        )
    if r.by_section:
        lines.append(
            "sent per write to one phone, by section (bytes): "
            + ", ".join(f"{k} {v:,.0f}" for k, v in sorted(r.by_section.items(),
                                                          key=lambda kv: -kv[1]))
            + f"; {sum(r.by_section.values()):,.0f} in all; each section's changed middle"
            f" only: {r.trimmed_bytes:,.0f}"
        )  # fmt: skip
    for t, e in enumerate(r.per_tracker, 1):
        lines.append(
            f"tracker {t} (port {e['port']}): {e.get('clients', 0)} phones, missed"
            f" {e.get('missed', 0)} of {e.get('pairs', 0)}, p50 {e.get('p50_s', math.nan):.3f} s"
            f" p95 {e.get('p95_s', math.nan):.3f} s max {e.get('max_s', math.nan):.3f} s;"
            f" CPU {e.get('cpu', math.nan):.2f} cores writing, {e.get('cpu_idle', math.nan):.2f}"
            f" idle; {e.get('rss_mb', math.nan):.0f} MB; drawings {e.get('drawings', 0)};"
            f" tracebacks {e.get('tracebacks', 0)}"
        )
    if r.stopped_early:
        lines.append(f"stopped early: {r.stopped_early}")
    lines += [f"  ! {e}" for e in r.errors[:10]]
    if len(r.errors) > 10:
        lines.append(f"  ! … and {len(r.errors) - 10} more")
    return "\n".join(lines)
