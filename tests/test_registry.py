"""The registry: the one place games are listed; plugins add games, never replace one."""

from __future__ import annotations

import sys
import types

import pytest

from aids import registry
from aids.core.errors import InvalidAction
from aids.registry import BUILT_IN, GameEntry


def test_every_built_in_game_has_a_page_and_a_sheet_module() -> None:
    for entry in BUILT_IN:
        assert callable(registry.page_module(entry.kind).board)
        assert callable(registry.sheet_module(entry.kind).story)


def test_a_plugin_may_not_replace_a_built_in_game(monkeypatch: pytest.MonkeyPatch) -> None:
    impostor = types.ModuleType("impostor_plugin")
    impostor.ENTRY = GameEntry(BUILT_IN[0].game, page="x", sheet="y")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "impostor_plugin", impostor)
    monkeypatch.setenv("AIDS_GAME_PLUGINS", "impostor_plugin")
    with pytest.raises(InvalidAction) as err:
        registry.entries()
    assert err.value.code == "table/plugin"


def test_a_plugin_that_fails_to_import_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIDS_GAME_PLUGINS", "no_such_plugin_module")
    with pytest.raises(InvalidAction) as err:
        registry.entries()
    assert "ModuleNotFoundError" in err.value.message("en")
