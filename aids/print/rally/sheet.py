"""Japan Rally's log sheets: one page per car, then the rulings.

The print frame draws the paper, the header and the QR code; this module gives the body. A
car's page has its driver, colour, seat, team and machine numbers across the top; below, the
turn log (round, cards played, km, from → to, ferry, the car's status at the start of the
turn) fills the page's height on the left, beside the side column (``side``: the route
card, the team points by place, the car's finish and, room allowing, a box for notes).
Blank, one page has empty boxes and rows to write on and the sample map's first course; for a
table the log is filled as far as the race has gone, with ruled rows left to write on.

Everything in a log row comes from the engine's turn records (``TurnRecord``: the statuses a
turn began with, each card with its aim, the km, from → to), so the sheet never re-derives
a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Spacer, Table, TableStyle

from aids.core.i18n import t
from aids.games.rally import GAME
from aids.games.rally.board import sample_map
from aids.games.rally.data import load
from aids.games.rally.describe import card_name
from aids.games.rally.model import RallyState, TurnRecord
from aids.print.cells import (
    FAINT,
    Grid,
    SeatMark,
    TextBox,
    Tick,
    Value,
    ruled,
)
from aids.print.frame import Styles, join_list, rulings
from aids.print.rally.side import GAP_SMALL, Course, _c, _side
from aids.tables import Snapshot

LOG_HEAD = 8 * mm
LOG_ROW = 7.2 * mm  # a row to write a turn on by hand
LOG_ROW_MIN = 5.6 * mm  # rows shrink to this before the log goes on to another page
SPARE_ROWS = 3  # at least these empty rows under a filled log, to go on writing
LOG_WEIGHTS = (9, 33, 8, 31, 9, 22)  # turn (round), cards, km, from → to, ferry, status
LOG_SHARE = 0.62  # of the body's width; the route card and the rest take the other side
SIDE_GAP = 3 * mm
ID_HEAD = 5 * mm
ID_ROW = 10 * mm
ID_WEIGHTS = (33, 10, 7, 20, 10, 10, 10)  # player, colour, seat, team, actions, hand, draw
TRAVEL = ("travel", "top")


@dataclass(frozen=True, slots=True)
class Turn:
    """One row of a car's turn log: the record and the car's statuses when the turn began."""

    record: TurnRecord
    statuses: tuple[str, ...]
    plays: tuple[str, ...] = ()  # the cards played, each with its target (from the log)
    live: bool = False  # the turn being played: no move yet is not "no move"


def story(snapshot: Snapshot | None, lang: str, width: float, styles: Styles) -> list[Flowable]:
    """A log sheet per car (one blank sheet before game night), then the rulings."""
    state: RallyState | None = snapshot.state if snapshot is not None else None
    out: list[Flowable] = []
    if state is None:
        first = sample_map().courses[0]
        course = Course(sample_map(), first.start, first.goal, sample=True)
        out += _page(None, None, [], course, lang, width)
    else:
        course = Course(state.setup.board, state.setup.start, state.setup.goal, sample=False)
        for seat in range(state.players):
            out += _page(state, seat, _turns(state, seat, lang), course, lang, width)
    out += [TextBox(t("rally.sheet.legend", lang), 7.5, grow=True, space_after=3 * mm)]
    out += rulings(GAME, lang, styles)
    return out


def _page(
    state: RallyState | None,
    seat: int | None,
    turns: list[Turn],
    course: Course,
    lang: str,
    width: float,
) -> list[Flowable]:
    side = _side(state, seat, course, lang)
    log = _log_rows(state, turns, lang)
    first_round = turns[0].record.round if turns else 1
    name = state.setup.players[seat].name if state is not None and seat is not None else ""
    caption = t("rally.sheet.continued", lang, name=name)
    body = Body(log, side, lang, first_round=first_round, caption=caption)
    return [_identity(state, seat, lang, width), Spacer(1, 3 * mm), body, PageBreak()]


# --- the car: driver, colour, seat, team, machine ---------------------------------------------


def _identity(state: RallyState | None, seat: int | None, lang: str, width: float) -> Table:
    keys = ("player", "colour", "seat", "team", "actions", "hand", "draw")
    head = [_c(t(f"rally.sheet.{k}", lang), 7.5, max_lines=2) for k in keys]
    values: list[Any] = [""] * len(keys)
    if state is not None and seat is not None:
        player = state.setup.players[seat]
        colour = load().colour(player.colour)
        mark = SeatMark(seat + 1, colour.hex if colour else None, side=14)
        team = (
            state.setup.teams[player.team]
            if player.team is not None
            else t("rally.sheet.no_team", lang)
        )
        machine = player.machine
        values = [
            TextBox(player.name, 11, min_size=6.5, max_lines=2, mark=mark),
            _c(colour.name(lang) if colour else player.colour, 9, max_lines=2),
            Value(str(seat + 1), size=13),
            _c(team, 9, min_size=5.5, max_lines=3),
            Value(str(machine.actions), size=14),
            Value(str(machine.hand), size=14),
            Value(str(machine.draw), size=14),
        ]
    unit = width / sum(ID_WEIGHTS)
    table = Grid(
        [head, values], colWidths=[w * unit for w in ID_WEIGHTS], rowHeights=[ID_HEAD, ID_ROW]
    )
    style = ruled(1)
    style.append(("LINEBEFORE", (4, 0), (4, -1), 1.4, colors.black))  # the machine's numbers
    table.setStyle(TableStyle(style))
    return table


# --- the turn log ---------------------------------------------------------------------------


def _turns(state: RallyState, seat: int, lang: str) -> list[Turn]:
    """Car ``seat``'s finished turns, and its turn in progress once it has drawn (or the one
    the referee ended the race in, if it played anything)."""
    indexed = [(i, r) for i, r in enumerate(state.turns) if r.seat == seat]
    current = state.current
    ended_in = state.ended and bool(current.cards or current.to or current.ferry)
    if current.seat == seat and (state.phase == "act" or ended_in):
        indexed.append((len(state.turns), current))
    live = len(state.turns) if state.phase == "act" else -1
    return [Turn(r, r.status, _plays(state, r, lang), i == live) for i, r in indexed]


def _plays(state: RallyState, record: TurnRecord, lang: str) -> tuple[str, ...]:
    """The turn's cards as played: the movement's (``(30+40)×2 km``), then each other card
    with whom or where it was aimed at (``Rain → Ben``)."""
    travel = tuple(c for c, aim in zip(record.cards, record.aims, strict=True) if aim is None)
    out = [_cards(travel, lang)] if travel else []
    for card, aim in zip(record.cards, record.aims, strict=True):
        if isinstance(aim, int):
            out.append(f"{card_name(card, lang)} → {state.setup.players[aim].name}")
        elif isinstance(aim, str):
            out.append(f"{card_name(card, lang)} → {state.setup.board.town_name(aim, lang)}")
    return tuple(out)


def _status_text(state: RallyState, turn: Turn, lang: str) -> str:
    """The statuses the turn began with; a turn missed to police is only that (nothing else
    mattered in it), and the turn that reached the goal says so with the place."""
    record = turn.record
    if record.missed:
        return t("rally.sheet.missed", lang)
    words = [t(f"rally.sheet.status.{s}", lang) for s in turn.statuses]
    if record.to and record.to == state.setup.goal and record.seat in state.arrived:
        words.append(t("rally.sheet.arrived", lang, place=state.arrived.index(record.seat) + 1))
    return join_list(words, lang)


def _cards(cards: Sequence[str], lang: str) -> str:
    """Cards as a log row shows them, short: ``30+40 km``; with TOP SPEED the distance
    doubled, ``50×2 km`` or ``(30+40)×2 km``; then the other cards by name (``Rain``)."""
    d = load()
    kms = [str(c.km) for c in map(d.card, cards) if c is not None and c.kind == "travel"]
    others = [c for c in cards if (card := d.card(c)) is None or card.kind not in TRAVEL]
    words = []
    if kms and "top" in cards:
        words.append(f"{kms[0]}×2 km" if len(kms) == 1 else f"({'+'.join(kms)})×2 km")
    elif kms:
        words.append(f"{'+'.join(kms)} km")
    elif "top" in cards:  # not a legal move; shown as recorded
        others.insert(0, "top")
    words += [card_name(c, lang) for c in others]
    return " + ".join(words)


def _log_head(lang: str) -> list[Any]:
    keys = ("round", "cards", "km", "from_to", "ferry", "status")
    return [_c(t(f"rally.sheet.log_{k}", lang), 7.5, max_lines=2) for k in keys]


def _log_rows(state: RallyState | None, turns: list[Turn], lang: str) -> list[list[Any]]:
    """The filled rows of a car's log (none on a blank sheet)."""
    if state is None:
        return []
    board = state.setup.board
    rows: list[list[Any]] = []
    for turn in turns:
        record = turn.record
        start = board.town_name(record.start, lang)
        if record.to and record.to != record.start:
            where = f"{start} → {board.town_name(record.to, lang)}"
        elif record.missed:
            where = start
        elif turn.live:
            where = f"{start} →"
        else:
            where = t("rally.sheet.stayed", lang, town=start)
        played = join_list(turn.plays, lang) if turn.plays else _cards(record.cards, lang)
        rows.append(
            [
                _c(str(record.round), 10),
                _c(played, 8, min_size=5.5, max_lines=3) if played else "",
                _c(str(record.km), 10) if record.km else "",
                _c(where, 8, max_lines=2),
                Tick(9) if record.ferry else "",
                _c(_status_text(state, turn, lang), 7.5, max_lines=2),
            ]
        )
    return rows


def _blank_row(round_: int) -> list[Any]:
    """An empty row to write a turn on: its round printed faint, the arrow and ferry box."""
    return [
        _c(str(round_), 9, colour=FAINT),
        "",
        "",
        _c("→", 9, colour=FAINT),
        _c("□", 11, colour=FAINT),
        "",
    ]


def _log_table(
    rows: list[list[Any]], lang: str, width: float, row: float, first_round: int
) -> Table:
    unit = width / sum(LOG_WEIGHTS)
    table = Grid(
        [_log_head(lang), *rows],
        colWidths=[w * unit for w in LOG_WEIGHTS],
        rowHeights=[LOG_HEAD] + [row] * len(rows),
    )
    style = ruled(1, pad=2)
    for i in range(1, len(rows)):  # a heavier line under every 5th round, to count by
        if (first_round + i - 1) % 5 == 0:
            style.append(("LINEBELOW", (0, i), (-1, i), 1.1, colors.black))
    table.setStyle(TableStyle(style))
    return table


class Body(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """The turn log beside the side column, as tall as the page has room for.

    The log takes the height left on the page: its filled rows, then empty ruled rows to the
    bottom (rows shrink from ``LOG_ROW`` to ``LOG_ROW_MIN`` to keep ``SPARE_ROWS`` empty
    ones). A log longer than that goes on to the next page across its whole width, under
    ``caption`` (the car's name), without the side column.
    """

    def __init__(
        self,
        filled: list[list[Any]],
        side: Callable[[float, float], list[Flowable]] | None,
        lang: str,
        *,
        first_round: int = 1,
        caption: str = "",
        continued: bool = False,
    ) -> None:
        super().__init__()
        self.filled, self.side, self.lang = filled, side, lang
        self.first_round, self.caption, self.continued = first_round, caption, continued
        self.parts: list[tuple[Flowable, float, float]] = []  # flowable, x, its height

    def _log_width(self, width: float) -> float:
        return width * LOG_SHARE if self.side else width

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.parts = []
        top = 0.0
        if self.continued:
            title = TextBox(self.caption, 10, max_lines=1, space_after=GAP_SMALL)
            top = title.wrap(availWidth, 14)[1] + GAP_SMALL
            self.parts.append((title, 0.0, top - GAP_SMALL))
        room = availHeight - top - LOG_HEAD - 0.5
        filled = len(self.filled)
        row = LOG_ROW
        if (filled + SPARE_ROWS) * row > room:
            row = max(LOG_ROW_MIN, room / (filled + SPARE_ROWS))
        count = int(room // row)
        if count < max(filled, 1):
            self.width, self.height = availWidth, availHeight + 1  # too tall: split
            return self.width, self.height
        row = min(room / count, LOG_ROW * 1.1)  # the rows share what is left over
        first_blank = self.first_round + filled
        rows = self.filled + [_blank_row(first_blank + i) for i in range(count - filled)]
        width = self._log_width(availWidth)
        log = _log_table(rows, self.lang, width, row, self.first_round)
        log_height = log.wrap(width, availHeight)[1]
        self.parts.append((log, 0.0, log_height))
        height = top + log_height
        if self.side is not None:
            x = width + SIDE_GAP
            side_width = availWidth - x
            used = 0.0
            for item in self.side(side_width, log_height):
                h = item.wrap(side_width, log_height - used)[1]
                used += h + item.getSpaceAfter()
                self.parts.append((item, x, h))
            height = max(height, used)
        self.width, self.height = availWidth, height
        return availWidth, height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        top = 10 + 2 * GAP_SMALL if self.continued else 0.0
        fits = int((availHeight - top - LOG_HEAD - 0.5) // LOG_ROW_MIN)
        if fits < 1 or fits >= len(self.filled):
            return []
        first = Body(
            self.filled[:fits],
            self.side,
            self.lang,
            first_round=self.first_round,
            caption=self.caption,
            continued=self.continued,
        )
        rest = Body(
            self.filled[fits:],
            None,
            self.lang,
            first_round=self.first_round + fits,
            caption=self.caption,
            continued=True,
        )
        return [first, rest]

    def draw(self) -> None:
        left = right = self.height  # the tops of what is still to be drawn on each side
        for item, x, h in self.parts:
            if x == 0.0:
                left -= h
                item.drawOn(self.canv, 0, left)
                left -= item.getSpaceAfter()
            else:
                right -= h
                item.drawOn(self.canv, x, right)
                right -= item.getSpaceAfter()


# --- the rule cards' numbers and tables (aids.print.cards), from the same seed as the engine ---


def card_values() -> dict[str, str]:
    d = load()
    return {
        "players_min": str(d.min_players),
        "players_max": str(d.max_players),
        "deck": str(d.total),
        "team_points": "/".join(map(str, d.points)),
        "police_turns": str(d.police_turns),
    }


def card_table(table: str, lang: str) -> list[list[str]]:
    """``deck``: every card and how many; ``statuses``: each attack and what ends it;
    ``team_points``: points by place."""
    d = load()
    if table == "team_points":
        return [[t("rally.sheet.place", lang), *map(str, range(1, len(d.points) + 1))],
                [t("rally.sheet.points", lang), *map(str, d.points)]]  # fmt: skip
    if table == "statuses":
        ends = {c.removes: c.key for c in d.cards if c.kind == "defence"}
        head = [t("rally.card_table.attack", lang), t("rally.card_table.ended_by", lang)]
        return [head, *([card_name(c.key, lang), card_name(ends[c.key], lang) if c.key in ends
                         else t("rally.card_table.nothing", lang)]
                        for c in d.cards if c.kind == "attack")]  # fmt: skip
    head = [t("rally.card_table.card", lang), t("rally.card_table.count", lang)]
    return [head, *([card_name(c.key, lang), str(c.count)] for c in d.cards)]
