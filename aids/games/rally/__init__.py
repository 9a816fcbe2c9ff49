"""Japan Rally (ジャパンラリー): the map, the rules engine and the game contract."""

from aids.games.rally.game import GAME

__all__ = ["GAME"]
