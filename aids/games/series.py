"""A race chart's data: one line per seat over the points where the race can be compared.

Each game's ``history.series(history)`` builds one from the states a reader may see (each
already through ``view``), so a chart never shows more than its reader's page does. The page
draws it with Altair, the post-game report with ReportLab: both read only this value. Labels
are message keys (``charts.…``), named here and put into words by the drawing, in its language.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Line:
    """One seat's line: its name, its value at each x point (None where it has none),
    ``extra``, a second measure at the same points (empty when the series has none), and
    ``colour``, the seat's piece's own colour as the game's seeds give it (``#d32f2f``: the
    car, team, stable or counter on the table), which the line is drawn in
    (``palette.line_inks``); None: the seat has no piece colour, an ink clear of the
    pieces' is taken.

    >>> Line("Aki", (0, 4), (1, 1)).last
    4
    """

    name: str
    values: tuple[int | None, ...]
    extra: tuple[int | None, ...] = ()
    colour: str | None = None

    @property
    def last(self) -> int | None:
        """The latest defined value (None if there is none)."""
        return next((v for v in reversed(self.values) if v is not None), None)


@dataclass(frozen=True, slots=True)
class Series:
    """What a race chart shows.

    ``x`` are the points (fence, leg, round or step numbers), ``lines`` one per seat in seat
    order. ``*_key`` are message keys: the title, the axes, the legend (who a line is) and
    ``extra_key`` the name of the lines' second measure. ``x_domain``/``y_domain`` fix an axis
    when the whole race is known in advance (fences 1–5, standings 1–n). ``y_reversed``: 1 is
    best and drawn at the top (standings); ``step``: a value holds until the next point
    (money); ``money``: the values are dollars.

    >>> s = Series("t", "x", "y", "who", (1, 2), (Line("Aki", (0, 4)),))
    >>> s.empty, s.names
    (False, ('Aki',))
    """

    title_key: str
    x_key: str
    y_key: str
    legend_key: str
    x: tuple[int, ...]
    lines: tuple[Line, ...]
    extra_key: str | None = None
    x_domain: tuple[int, int] | None = None
    y_domain: tuple[int, int] | None = None
    y_reversed: bool = False
    step: bool = False
    money: bool = False

    @classmethod
    def of(cls, kind: str, x: tuple[int, ...], lines: tuple[Line, ...], **more: Any) -> Series:
        """A game's chart, its words from the game's own catalogue: ``<kind>.charts.title``,
        ``.x``, ``.y``, ``.legend`` (and ``.extra`` when the lines carry a second measure).

        >>> Series.of("relay", (1,), (Line("Aki", (4,)),)).title_key
        'relay.charts.title'
        """
        words = f"{kind}.charts"
        return cls(f"{words}.title", f"{words}.x", f"{words}.y", f"{words}.legend", x, lines,
                   **more)  # fmt: skip

    @property
    def empty(self) -> bool:
        """Nothing to chart yet (the first fence, leg or round is still being run)."""
        return not self.x

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(line.name for line in self.lines)


def first_where(count: int, reached: list[int]) -> list[int]:
    """For each mark 1..``count``, the index of the first state whose progress ``reached[i]``
    has passed it: the state "after fence k", "after round k". Marks not reached are left out.

    >>> first_where(3, [0, 0, 1, 1, 2])  # progress per state: after mark 1 at 2, mark 2 at 4
    [2, 4]
    """
    out: list[int] = []
    for mark in range(1, count + 1):
        at = next((i for i, done in enumerate(reached) if done >= mark), None)
        if at is None:
            break
        out.append(at)
    return out


def history_module(game: Any) -> Any | None:
    """The ``history`` module beside a game's engine (``aids/games/<folder>/history.py``,
    found from the game's own package), or None for a game without a chart."""
    package = type(game).__module__.rpartition(".")[0]
    name = f"{package}.history"
    if not package or importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def series_for(game: Any, history: Sequence[Any]) -> Series | None:
    """The game's chart of ``history`` (states as the reader may see them), or None; each
    line in its piece's own colour, as the game's series gives it (``Line.colour``)."""
    module = history_module(game)
    if module is None:
        return None
    series: Series = module.series(history)
    return series
