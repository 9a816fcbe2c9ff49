"""Grand National's numbers from ``seeds/gn.toml``, loaded and checked once."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from aids.core.errors import DataError
from aids.games.palette import Colour
from aids.paths import SEEDS


@dataclass(frozen=True, slots=True)
class Odds:
    """Fractional odds: the profit per 1 staked (``12/1``). A winning bet returns
    stake × odds + stake, in whole dollars (rounded down: [ruling])."""

    num: int
    den: int = 1

    def __post_init__(self) -> None:
        if not (1 <= self.num <= 1000 and 1 <= self.den <= 100):
            raise ValueError("odds")

    @property
    def value(self) -> Fraction:
        return Fraction(self.num, self.den)

    def returns(self, stake: int) -> int:
        """What a winning ``stake`` gets back: stake × odds + stake.

        >>> Odds(12).returns(1000), Odds(7, 4).returns(100)
        (13000, 275)
        """
        return int(stake * self.value) + stake

    def text(self) -> str:
        return f"{self.num}/{self.den}"

    def to_list(self) -> list[int]:
        return [self.num, self.den]


@dataclass(frozen=True, slots=True)
class GnData:
    min_stables: int
    max_stables: int
    horses: int
    start_cash: int
    caps: tuple[str, ...]
    slot_prices: tuple[tuple[int, ...], ...]
    blind_max: int
    show_places: int
    odds: dict[int, tuple[Odds, Odds]]  # by reserve price: (win, show)
    goings: tuple[str, ...]
    tops: tuple[int, ...]
    grid: int
    laps: int
    handicap: tuple[int, int]
    speed: tuple[int, int]
    too_free_lengths: int
    too_free_penalty: int
    prizes: tuple[int, ...]
    colours: tuple[Colour, ...]

    def colour(self, key: str) -> Colour | None:
        return next((c for c in self.colours if c.key == key), None)

    def top(self, going: str) -> int:
        return self.tops[self.goings.index(going)]

    @property
    def prices(self) -> tuple[int, ...]:
        return tuple(sorted(self.odds, reverse=True))


@cache
def load() -> GnData:
    with open(SEEDS / "gn.toml", "rb") as fh:
        raw = tomllib.load(fh)
    race = raw["race"]
    data = GnData(
        min_stables=raw["stables"]["min"],
        max_stables=raw["stables"]["max"],
        horses=raw["stables"]["horses"],
        start_cash=raw["stables"]["start_cash"],
        caps=tuple(raw["stables"]["caps"]),
        slot_prices=tuple(tuple(p) for p in raw["deal"]["slot_prices"]),
        blind_max=raw["bets"]["blind_max"],
        show_places=raw["bets"]["show_places"],
        odds={o["price"]: (Odds(*o["win"]), Odds(*o["show"])) for o in raw["odds"]},
        goings=tuple(raw["going"]["keys"]),
        tops=tuple(raw["going"]["tops"]),
        grid=raw["going"]["grid"],
        laps=race["laps"],
        handicap=(race["handicap"][0], race["handicap"][1]),
        speed=(race["speed"][0], race["speed"][1]),
        too_free_lengths=race["too_free_lengths"],
        too_free_penalty=race["too_free_penalty"],
        prizes=tuple(race["prizes"]),
        colours=tuple(Colour(**c) for c in raw["colours"]),
    )
    checks = {
        "a slot rule per horse": len(data.slot_prices) == data.horses == len(data.caps),
        "slot prices are priced": all(p in data.odds for s in data.slot_prices for p in s),
        "a grid top per going": len(data.goings) == len(data.tops),
        "tops fit the grid": all(0 < top <= data.grid for top in data.tops),
        "a colour per stable": len(data.colours) >= data.max_stables,
        "show pays at least the winner": data.show_places >= 1,
    }
    for rule, ok in checks.items():
        if not ok:
            raise DataError("seeds/invalid", file="gn.toml", detail=rule)
    return data
