"""Fixtures of the attacker's tests: each scenario's pair of tables, built once per session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.security.pairs import BY_NAME, MeetPair, Pair, make_meet_pair, make_pair

BASE_URL = "http://race.test:8501"


@pytest.fixture(autouse=True)
def app_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake game registered, a fixed base URL, and chances cheap and deterministic on the
    pages (a fixed number of playouts, a budget they never reach)."""
    monkeypatch.setenv("AIDS_GAME_PLUGINS", "tests.fakegame.plugin")
    monkeypatch.setenv("AIDS_PUBLIC_URL", BASE_URL)
    monkeypatch.setenv("AIDS_CHANCE_PLAYOUTS", "40")
    monkeypatch.setenv("AIDS_CHANCE_SECONDS", "100000")


@pytest.fixture(scope="session")
def pair_of(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Pair]:
    """The pair of a scenario, imported once per session (readers only: nothing writes)."""
    built: dict[str, Pair] = {}

    def get(name: str) -> Pair:
        if name not in built:
            built[name] = make_pair(BY_NAME[name], tmp_path_factory.mktemp(name))
        return built[name]

    return get


@pytest.fixture(scope="session")
def meet_pair_of(
    pair_of: Callable[[str], Pair], tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], MeetPair]:
    """The scenario's two tables, each in an event of its own file (built once)."""
    built: dict[str, MeetPair] = {}

    def get(name: str) -> MeetPair:
        if name not in built:
            built[name] = make_meet_pair(pair_of(name), tmp_path_factory.mktemp(f"meet-{name}"))
        return built[name]

    return get


@pytest.fixture
def fresh_pair(tmp_path: Path) -> Callable[[str], Pair]:
    """A pair of this test's own, for tests that write (or try to)."""
    count = iter(range(100))

    def get(name: str) -> Pair:
        return make_pair(BY_NAME[name], tmp_path / f"{name}-{next(count)}")

    return get
