"""Counts the bad-input cases per surface and prints them at the end of the run.

A plugin of ``tests/conftest.py`` (``pytest_plugins``) rather than this folder's conftest: under
pytest-xdist the controller, which prints the summary, never collects and so never loads a
conftest below ``tests/``; it does load ``tests/conftest.py``, and every test's report
reaches it."""

from __future__ import annotations

from collections import Counter

import pytest

SURFACES = {"test_service": "service", "test_import": "import", "test_cli": "CLI",
            "test_page": "page", "test_any": "service (hypothesis examples)"}  # fmt: skip
TRIED: Counter[str] = Counter()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call" or "bad_input" not in report.nodeid:
        return
    name = report.nodeid.split("::")[-1]
    label = next((s for prefix, s in SURFACES.items() if name.startswith(prefix)), None)
    if label is not None:
        TRIED[label] += 150 if label.startswith("service (") else 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not TRIED:
        return
    counts = ", ".join(f"{label} {n}" for label, n in sorted(TRIED.items()))
    terminalreporter.write_line(f"bad inputs tried: {sum(TRIED.values())} ({counts})")
