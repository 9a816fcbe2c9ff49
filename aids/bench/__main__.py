"""``python -m aids.bench``: the same as ``aids bench``."""

from aids.bench.targets import run

run()
