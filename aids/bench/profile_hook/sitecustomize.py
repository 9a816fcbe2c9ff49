"""Loaded by Python at start-up in a tracker the live benchmark profiles: ``start_server``
puts this folder first on ``PYTHONPATH`` and names the statistics file in
``AIDS_BENCH_PROFILE`` (taken out of the environment here, so the tracker's children are not
profiled). cProfile runs on the main thread (the server's event loop: the live view's hub,
the streams, the HTTP server); SIGUSR2 starts it afresh, SIGUSR1 writes its statistics."""

from __future__ import annotations

import os

_where = os.environ.pop("AIDS_BENCH_PROFILE", "")
if _where:
    import cProfile
    import signal
    from typing import Any

    _profile = [cProfile.Profile()]
    _profile[0].enable()

    def _afresh(*_: Any) -> None:
        _profile[0].disable()
        _profile[0] = cProfile.Profile()
        _profile[0].enable()

    def _write(*_: Any) -> None:
        _profile[0].disable()
        _profile[0].dump_stats(_where)
        _profile[0].enable()

    signal.signal(signal.SIGUSR2, _afresh)
    signal.signal(signal.SIGUSR1, _write)
