"""The generated slip photos, kept under this name for the tests that import them from here:
the generator lives in the package (``aids.bench.slip_photos``), where ``aids bench`` finds
it without the tests."""

from aids.bench.slip_photos import *  # noqa: F403
from aids.bench.slip_photos import __all__  # noqa: F401
