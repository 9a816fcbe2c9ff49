"""The slip-reading benchmark runs and reports the read against the QR code alone (no timing
is asserted: these machines are shared)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from aids.bench import scan


def test_bench_reports_read_and_qr_alone_for_each_size(capsys: pytest.CaptureFixture[str]) -> None:
    rows = scan.run(repeat=1)
    assert [r["size"] for r in rows] == ["3000x4000", "1200x1600", "1200x1600-bent"]
    assert all(r["read_s"] > 0 and r["qr_alone_s"] > 0 and r["ratio"] > 0 for r in rows)
    assert "the QR code alone" in capsys.readouterr().out


def test_aids_bench_includes_the_slip_read_from_the_repository(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``aids bench`` (issue 21 §4) carries the slip read with its ratio to the QR code."""
    from aids.bench import targets

    figures = targets.bench_scan(repeat=1)
    assert figures["3000x4000_ratio"] > 0 and figures["1200x1600_read_s"] > 0
    assert "the QR code alone" in capsys.readouterr().out


def test_aids_bench_reads_a_slip_without_the_tests_on_the_path(tmp_path: Path) -> None:
    """Rule (issue 26 §6): the installed ``aids bench`` cannot import ``tests``; the slip
    benchmark takes its photos from the package, so it runs (or says it was skipped and
    why), never a traceback. Run in a fresh process where only the package is importable."""
    package = Path(scan.__file__).resolve().parents[1]
    (tmp_path / "aids").symlink_to(package)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    code = "from aids.bench.targets import bench_scan; print(sorted(bench_scan(repeat=1)))"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "the QR code alone" in done.stdout and "1200x1600_ratio" in done.stdout
    blocked = "import sys; sys.modules['pypdfium2'] = None; " + code  # the test extras missing
    done = subprocess.run([sys.executable, "-c", blocked], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "skipped, pypdfium2" in done.stdout
