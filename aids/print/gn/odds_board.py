"""Grand National: the odds board, landscape, in type to read across a room."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors
from reportlab.platypus import Flowable, PageBreak, Table, TableStyle

from aids.core.i18n import t
from aids.games.grand_national.data import load
from aids.games.grand_national.describe import money
from aids.games.grand_national.model import GnState
from aids.print.cells import (
    FAINT,
    Dot,
    Grid,
    TextBox,
)
from aids.print.gn.parts import (
    BOARD_FOOT,
    BOARD_HEAD,
    BOARD_ROW_MAX,
    BOARD_ROW_MIN,
    BOARD_TITLE,
    BOARD_WEIGHTS,
    _c,
    _shaded,
    _widths,
)

# --- the odds board ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Runner:
    """A row of the odds board (blank: only the cap)."""

    cap: str
    name: str = ""
    handicap: str = ""
    price: str = ""
    win: str = ""
    show: str = ""
    out: bool = False


@dataclass(frozen=True, slots=True)
class Group:
    """A stable's block of the board: its owner cell and its four runners."""

    owner: str
    hex: str | None
    runners: tuple[Runner, ...]


def _board_groups(state: GnState | None, lang: str) -> list[Group]:
    d = load()
    if state is None:  # a block per stable the game allows, to write in
        blank = tuple(Runner(cap) for cap in d.caps)
        return [Group("", None, blank) for _ in range(d.max_stables)]
    groups = []
    for seat, stable in enumerate(state.setup.stables):
        colour = d.colour(stable.colour)
        owner = t(
            "gn.sheet.owner_cell",
            lang,
            name=stable.name,
            colour=colour.name(lang) if colour else stable.colour,
        )
        runners = []
        for slot in range(d.horses):
            h = seat * d.horses + slot
            win, show = state.odds[h]
            runners.append(
                Runner(
                    d.caps[slot],
                    state.setup.horse(h).name,
                    str(state.handicap[h]),
                    money(state.setup.horse(h).price),
                    win.text(),
                    show.text(),
                    state.status[h] in ("fallen", "withdrawn", "pulled_up"),
                )
            )
        groups.append(Group(owner, colour.hex if colour else None, tuple(runners)))
    return groups


def _board_title(state: GnState | None, lang: str) -> str:
    if state is None or state.going is None:
        return ""
    return t("gn.sheet.board_going", lang, going=t(f"gn.going.{state.going}", lang))


def _defaults_text(lang: str) -> str:
    d = load()
    parts = [f"{money(p)} {d.odds[p][0].text()} · {d.odds[p][1].text()}" for p in d.prices]
    return f"{t('gn.sheet.defaults', lang)} " + " ／ ".join(parts)


class OddsBoard(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """The odds board across the page: whole stables, rows as large as the page allows.

    Rows are at least ``BOARD_ROW_MIN`` tall (type to read across a room); when the stables do
    not all fit, the board goes on over as few pages as that needs, shared out evenly.
    """

    def __init__(
        self, groups: list[Group], going: str, lang: str, part: int = 1, parts: int = 1
    ) -> None:
        super().__init__()
        self.groups, self.going, self.lang = groups, going, lang
        self.part, self.parts = part, parts
        self.inner: Flowable | None = None

    def _room(self, height: float) -> float:
        return float(height - BOARD_TITLE - BOARD_HEAD - BOARD_FOOT - 2)

    def _fits(self, height: float) -> int:
        """How many stables fit at the smallest row."""
        horses = load().horses
        return int(self._room(height) // BOARD_ROW_MIN) // horses

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if self._fits(availHeight) < len(self.groups):
            self.width, self.height = availWidth, availHeight + 1  # to split
            return self.width, self.height
        rows = sum(len(g.runners) for g in self.groups)
        row = min(BOARD_ROW_MAX, self._room(availHeight) / max(rows, 1))
        self.inner = self._build(availWidth, row)
        self.width, self.height = self.inner.wrap(availWidth, availHeight)
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        fits = self._fits(availHeight)
        if fits < 1 or fits >= len(self.groups):
            return []
        pages = math.ceil(len(self.groups) / fits)
        per = math.ceil(len(self.groups) / pages)
        parts = self.part - 1 + pages if self.parts == 1 else self.parts
        first = OddsBoard(self.groups[:per], self.going, self.lang, self.part, parts)
        rest = OddsBoard(self.groups[per:], self.going, self.lang, self.part + 1, parts)
        return [first, PageBreak(), rest]

    def draw(self) -> None:
        assert self.inner is not None
        self.inner.drawOn(self.canv, 0, 0)

    def _build(self, width: float, row: float) -> Table:
        lang = self.lang
        title = t("gn.sheet.board_title", lang)
        if self.parts > 1:
            title = t("gn.sheet.board_part", lang, part=self.part, parts=self.parts)
        if self.going:
            title = f"{title}　{self.going}"
        keys = ("runner", "owner", "handicap", "price")
        label, kind = min(max(11, row * 0.3), 16), min(max(14, row * 0.4), 22)
        head = [_c(t(f"gn.sheet.{k}", lang), label, max_lines=2, min_size=7) for k in keys]
        head += [
            _c(t(f"gn.kind.{k}", lang), kind, max_lines=1, min_size=8) for k in ("win", "show")
        ]
        name_size, odds_size = min(row * 0.5, 26.0), min(row * 0.74, 40.0)
        rows: list[list[Any]] = [
            [TextBox(title, min(max(18, row * 0.5), 26), max_lines=1, min_size=11)] + [""] * 5,
            head,
        ]
        style = _shaded(1, pad=3)
        style.append(("SPAN", (0, 0), (-1, 0)))
        for group in self.groups:
            first = len(rows)
            for i, r in enumerate(group.runners):
                cap = load().colour(r.cap)
                mark = Dot(cap.hex if cap else "#ffffff", min(row * 0.42, 16))
                if r.name:
                    runner: Any = TextBox(
                        r.name, name_size, min_size=7, max_lines=2, mark=mark, strike=r.out
                    )
                else:
                    runner = TextBox(t(f"gn.caps.{r.cap}", lang), 8, colour=FAINT, mark=mark)
                owner: Any = ""
                if i == 0 and group.owner:
                    owner = TextBox(
                        group.owner,
                        min(row * 0.44, 20),
                        min_size=6.5,
                        max_lines=4,
                        mark=Dot(group.hex or "#ffffff", min(row * 0.36, 14)),
                    )
                rows.append(
                    [
                        runner,
                        owner,
                        _c(r.handicap, min(row * 0.62, 30), max_lines=1),
                        _c(r.price, min(row * 0.46, 22), max_lines=1, min_size=7),
                        _c(r.win, odds_size, max_lines=1, min_size=8),
                        _c(r.show, odds_size, max_lines=1, min_size=8),
                    ]
                )
            last = len(rows) - 1
            style += [
                ("SPAN", (1, first), (1, last)),
                ("LINEBELOW", (0, last), (-1, last), 1.6, colors.black),
            ]
        rows.append([TextBox(_defaults_text(lang), 9, max_lines=2, min_size=6.5)] + [""] * 5)
        style += [
            ("SPAN", (0, -1), (-1, -1)),
            ("LINEBEFORE", (4, 1), (4, -2), 1.6, colors.black),
            ("BACKGROUND", (4, 2), (-1, -2), colors.HexColor("#f7f7f7")),
        ]
        runners = len(rows) - 3
        table = Grid(
            rows,
            colWidths=_widths(BOARD_WEIGHTS, width),
            rowHeights=[BOARD_TITLE, BOARD_HEAD] + [row] * runners + [BOARD_FOOT],
        )
        table.setStyle(TableStyle(style))
        return table
