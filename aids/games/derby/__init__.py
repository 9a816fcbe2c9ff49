"""Grand National Derby (Knizia): the pure rules engine and its place on the game contract."""

from aids.games.derby.game import GAME, Derby

__all__ = ["GAME", "Derby"]
