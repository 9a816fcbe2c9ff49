"""Grand National (board game): stables, money, odds, the going, handicaps, stamina grids."""

from aids.games.grand_national.game import GAME

__all__ = ["GAME"]
