"""The post-game report of a table: one PDF to keep or to send round after game night.

Page one: how the game ended, the results (place, names, the game's score), the race chart
drawn as vectors (``print.charts``, the page's chart from the same series) and the rulings in
force. Then the game's own record (its filled-in sheets: each fence, leg, turn or bet), and
last every action in order, as the log reads. The header's QR code leads back to the table.
Everything comes from what a viewer may see: a report is public.

Names no game: the game's words come from its catalogue (``<kind>.report.score``,
``<kind>.outcome.<reason>``) and its sheet module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import BalancedColumns, Flowable, PageBreak, Spacer, TableStyle

from aids.core.i18n import t, t_count
from aids.core.links import viewer_url
from aids.games.base import AnyGame
from aids.games.series import series_for
from aids.print.cells import FAINT, Grid, TextBox, ruled
from aids.print.charts import drawing
from aids.print.fonts import printable
from aids.print.frame import (
    SheetHeader,
    Styles,
    body_width,
    build_pdf,
    join_list,
    page_size,
    rulings,
    styles,
)
from aids.tables import Snapshot

CHART_HEIGHT = 68 * mm


def render_report(
    game: AnyGame,
    sheet: Any,
    snapshot: Snapshot,
    base_url: str,
    lang: str,
    paper: str = "a4",
) -> bytes:
    """The report of ``snapshot``'s table (a viewer's snapshot) in ``lang`` on ``paper``."""
    snapshot = snapshot.in_language(game, lang)
    size = page_size(game, paper)
    series = series_for(game, snapshot.history)
    width = body_width(size)
    sheet_styles = styles(lang)
    story: list[Flowable] = [
        *_results(game, snapshot, lang, width),
        *_chart(series, lang, width),
        Spacer(1, 4 * mm),
        *rulings(game, lang, sheet_styles),
        PageBreak(),
        *sheet.story(snapshot, lang, width, sheet_styles),
        PageBreak(),
        *_log(game, snapshot, lang, width, sheet_styles),
    ]
    return build_pdf(_header(game, snapshot, base_url, lang), story, size=size, lang=lang,
                     author=t("app.name", lang))  # fmt: skip


def _header(game: AnyGame, snapshot: Snapshot, base_url: str, lang: str) -> SheetHeader:
    done = [e for e in snapshot.log if e.kind == "action" and not e.undone]
    span = (
        t("report.when", lang, first=done[0].created_at[:16].replace("T", " "),
          last=done[-1].created_at[:16].replace("T", " "), count=len(done))
        if done
        else t("report.nothing_yet", lang)
    )  # fmt: skip
    return SheetHeader(
        snapshot.info.title,
        t("report.subtitle", lang, game=t(game.info.name_key, lang)),
        (t("sheet.players_line", lang, names=join_list(snapshot.seats, lang)), span),
        viewer_url(base_url, snapshot.info.public_id, lang),
        t("report.qr", lang),
    )


def _results(game: AnyGame, snapshot: Snapshot, lang: str, width: float) -> list[Flowable]:
    kind = game.info.kind
    outcome = snapshot.outcome
    if outcome is None:
        return [TextBox(t("report.in_progress", lang), 11, grow=True, space_after=3 * mm)]
    head = [t("report.place", lang), t("report.name", lang), t(f"{kind}.report.score", lang)]
    rows: list[list[Any]] = [[TextBox(h, 8.5, max_lines=2) for h in head]]
    place = 1
    for group in outcome.ranking:
        for seat in group:
            rows.append([
                TextBox(str(place), 12, align="centre"),
                TextBox(snapshot.seats[seat], 11, max_lines=1),
                TextBox(score_words(outcome.scores[seat], kind, lang), 11, align="right"),
            ])  # fmt: skip
        place += len(group)
    table = Grid(rows, colWidths=[16 * mm, min(90 * mm, width * 0.45), 38 * mm],
                 rowHeights=[7 * mm] + [8 * mm] * (len(rows) - 1), hAlign="LEFT")  # fmt: skip
    style = ruled(1)
    style.append(("BACKGROUND", (0, 1), (-1, len(outcome.ranking[0])), colors.HexColor("#fff4c2")))
    table.setStyle(TableStyle(style))
    return [
        TextBox(t("report.results", lang), 13, grow=True, space_after=1.5 * mm),
        TextBox(t(f"{kind}.outcome.{outcome.reason}", lang), 9.5, grow=True, space_after=2 * mm),
        table,
    ]


def score_words(value: int, kind: str, lang: str) -> str:
    """A final score in the game's words ("12 pts", "$470,000"); a game whose unit has a
    singular says it for one ("1 pt")."""
    return t_count(f"{kind}.report.score_value", lang, value, value=f"{value:,}")


def _chart(series: Any | None, lang: str, width: float) -> list[Flowable]:
    if series is None or not series.lines:
        return []
    return [Spacer(1, 5 * mm), drawing(series, lang, width, CHART_HEIGHT)]


def _log(
    game: AnyGame, snapshot: Snapshot, lang: str, width: float, sheet_styles: Styles
) -> list[Flowable]:
    """Every action in force, numbered, as the table's log describes it."""
    done = [e for e in snapshot.log if e.kind == "action" and not e.undone]
    states: Sequence[Any] = snapshot.history
    lines: list[Flowable] = []
    for n, entry in enumerate(done, start=1):
        if entry.sealed or entry.action is None:
            text = t("replay.sealed", lang)
        else:
            text = printable(game.describe(states[n - 1], entry.action, lang), lang)
        lines.append(TextBox(f"{n}. {text}", 7.5, grow=True, space_after=0.8))
    if not lines:
        return []
    columns = 3 if width > 200 * mm else 2
    return [
        TextBox(t("report.log", lang, count=len(done)), 12, grow=True, space_after=2 * mm),
        BalancedColumns(lines, nCols=columns, spaceBefore=0, innerPadding=4 * mm),
        Spacer(1, 2 * mm),
        TextBox(t("report.log_note", lang), 7, grow=True, colour=FAINT),
    ]
