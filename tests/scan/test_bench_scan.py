"""The slip-reading benchmark runs and reports the read against the QR code alone (no timing
is asserted: these machines are shared)."""

from __future__ import annotations

import pytest

from aids.bench import scan


def test_bench_reports_read_and_qr_alone_for_each_size(capsys: pytest.CaptureFixture[str]) -> None:
    rows = scan.run(repeat=1)
    assert [r["size"] for r in rows] == ["3000x4000", "1200x1600"]
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
