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
