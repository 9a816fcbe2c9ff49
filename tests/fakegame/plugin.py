"""Registers Sealed Sprint with the app (``AIDS_GAME_PLUGINS=tests.fakegame.plugin``)."""

from pathlib import Path

from aids.registry import GameEntry
from tests.fakegame.game import GAME

ENTRY = GameEntry(
    GAME,
    page="tests.fakegame.page",
    sheet="tests.fakegame.sheet",
    messages=Path(__file__).parent / "messages",
)
