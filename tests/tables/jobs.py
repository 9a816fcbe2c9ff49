"""Jobs for the chances worker's tests, in a module that imports nothing heavy: a job is
unpickled in the worker's process, which imports the job's module first, and that import
counts against the job's time limit (a test module importing the engines takes a second
or more on a loaded machine, past a 1 s limit)."""

from __future__ import annotations

import os
from typing import Any


def forever(*_: Any) -> None:
    """A job that never ends (a model stuck in a loop)."""
    while True:
        pass


def pid() -> int:
    return os.getpid()
