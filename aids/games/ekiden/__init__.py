"""Hakone Ekiden (card game): the pure rules engine and its place on the game contract."""

from aids.games.ekiden.game import GAME, Ekiden

__all__ = ["GAME", "Ekiden"]
