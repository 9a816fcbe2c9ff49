"""A colour of a game's pieces, counters or cards, as its seed file names it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Colour:
    """``key`` is the colour's id in setups and actions; ``symbol`` is shown beside it on the
    page (a colour is never the only sign); names in both languages; ``hex`` for drawing."""

    key: str
    symbol: str
    en: str
    ja: str
    hex: str

    def name(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en

    def label(self, lang: str) -> str:
        """``🔴 Red`` / ``🔴 赤``."""
        return f"{self.symbol} {self.name(lang)}"
