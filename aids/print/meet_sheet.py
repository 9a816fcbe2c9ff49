"""An event's printables: the standings sheet, and the event pack (every table's own sheets,
then the standings sheet) in one PDF.

The standings sheet (portrait) has the event's QR code and link in its header, the scoring
rule, the standings (rank, name, points, tables played, wins, in play) and every table with
its status. The pack gives each table the header of its own sheet (its title, players and
viewer QR code) by naming each table's page templates apart. Everything comes from the
viewer's snapshots (``aids.meets``): printed matter is public. Names no game: each table's
sheet is its game's sheet module, found through the registry.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import portrait
from reportlab.lib.units import mm
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Spacer,
    TableStyle,
)

from aids import registry
from aids.core.i18n import t
from aids.core.links import meet_url
from aids.meets import MeetInfo, Standing, TableStatus
from aids.meets.papers import PaperStatus
from aids.meets.status import Listed
from aids.print.cells import FAINT, Grid, TextBox, ruled
from aids.print.fonts import register
from aids.print.frame import (
    MARGIN,
    PAPERS,
    SheetHeader,
    body_width,
    build_pdf,
    header_for,
    header_templates,
    page_size,
    styles,
)
from aids.print.meet_slips import slip_spec
from aids.print.slips import PAGE, SlipSpec, draw_slip

WINNER = colors.HexColor("#fff4c2")


def standings_size(paper: str) -> tuple[float, float]:
    size = portrait(PAPERS.get(paper, PAPERS["a4"]))
    return float(size[0]), float(size[1])


def standings_header(
    meet: MeetInfo, tables: Sequence[Listed], base_url: str, lang: str
) -> SheetHeader:
    done = sum(1 for s in tables if s.finished)
    return SheetHeader(
        meet.title,
        t("meet.sheet.subtitle", lang, date=meet.date),
        (t("meet.sheet.count", lang, n=len(tables), done=done),),
        meet_url(base_url, meet.public_id, lang),
        t("meet.sheet.qr", lang),
    )


def standings_story(
    meet: MeetInfo,
    tables: Sequence[Listed],
    rows: Sequence[Standing],
    lang: str,
    width: float,
) -> list[Flowable]:
    """The standings and the tables (tracked, then those played on paper), below the
    header."""
    story: list[Flowable] = [
        TextBox(t("meet.standings", lang), 13, grow=True, space_after=1.5 * mm),
        TextBox(meet.scoring.describe(lang), 9, grow=True, space_after=2.5 * mm),
    ]
    if rows:
        story.append(_standings_grid(rows, lang, width))
    else:
        story.append(TextBox(t("meet.no_players", lang), 10, grow=True))
    story += [
        Spacer(1, 2.5 * mm),
        TextBox(t("meet.standings_note", lang), 8.5, grow=True, colour=FAINT),
        Spacer(1, 6 * mm),
        TextBox(t("meet.tables", lang), 13, grow=True, space_after=2 * mm),
    ]
    if tables:
        story.append(_tables_grid(tables, lang, width))
    else:
        story.append(TextBox(t("meet.no_tables", lang), 10, grow=True))
    looks = [(s.title, s.look(lang)) for s in tables if s.look(lang)]
    if looks:  # a stored paper result a rule refuses: what it holds and the rule it breaks
        story += [
            Spacer(1, 2.5 * mm),
            TextBox(t("meet.paper.look_rule", lang), 8.5, grow=True, colour=FAINT),
        ]
        story += [TextBox(f"{title}: {look}", 8.5, grow=True) for title, look in looks]
    return story


def _standings_grid(rows: Sequence[Standing], lang: str, width: float) -> Grid:
    heads = ("rank", "name", "points", "played", "wins", "in_play")
    data: list[list[Any]] = [[TextBox(t(f"meet.col.{h}", lang), 8, max_lines=2) for h in heads]]
    for row in rows:
        data.append([
            TextBox(str(row.rank), 11, align="centre"),
            TextBox(row.name, 11, max_lines=1),
            TextBox(f"{row.points:,}", 11, align="right"),
            TextBox(str(row.played), 10, align="centre"),
            TextBox(str(row.wins), 10, align="centre"),
            TextBox(str(row.in_play) if row.in_play else "", 10, align="centre"),
        ])  # fmt: skip
    numbers = 17 * mm
    name = width - numbers * 5
    grid = Grid(data, colWidths=[numbers, name, numbers, numbers, numbers, numbers],
                rowHeights=[9 * mm] + [7.5 * mm] * len(rows), repeatRows=1,
                hAlign="LEFT")  # fmt: skip
    style = ruled(1)
    leaders = sum(1 for r in rows if r.rank == 1 and r.points > 0)
    if leaders:
        style.append(("BACKGROUND", (0, 1), (-1, leaders), WINNER))
    grid.setStyle(TableStyle(style))
    return grid


def _tables_grid(tables: Sequence[Listed], lang: str, width: float) -> Grid:
    heads = ("number", "game", "table", "status")
    data: list[list[Any]] = [[TextBox(t(f"meet.col.{h}", lang), 8, max_lines=2) for h in heads]]
    for n, status in enumerate(tables, start=1):
        data.append([
            TextBox(str(n), 10, align="centre"),
            TextBox(t(f"{status.kind}.name", lang), 8.5, max_lines=2),
            TextBox(status.title, 9.5, max_lines=2),
            TextBox(status.line(lang), 8.5, max_lines=2),
        ])  # fmt: skip
    game, number = 32 * mm, 10 * mm
    rest = width - game - number
    grid = Grid(data, colWidths=[number, game, rest * 0.42, rest * 0.58],
                rowHeights=[7 * mm] + [11 * mm] * len(tables), repeatRows=1,
                hAlign="LEFT")  # fmt: skip
    grid.setStyle(TableStyle(ruled(1)))
    return grid


def render_standings(
    meet: MeetInfo,
    tables: Sequence[TableStatus],
    rows: Sequence[Standing],
    base_url: str,
    lang: str,
    paper: str = "a4",
    papers: Sequence[PaperStatus] = (),
) -> bytes:
    """The event's standings sheet (portrait ``paper``) in ``lang``; its tables list ends
    with those played on paper (``papers``)."""
    size = standings_size(paper)
    listed: list[Listed] = [*tables, *papers]
    story = standings_story(meet, listed, rows, lang, body_width(size))
    return build_pdf(standings_header(meet, listed, base_url, lang), story, size=size,
                     lang=lang, author=t("app.name", lang))  # fmt: skip


def render_meet_pack(
    meet: MeetInfo,
    tables: Sequence[TableStatus],
    rows: Sequence[Standing],
    base_url: str,
    lang: str,
    paper: str = "a4",
    papers: Sequence[PaperStatus] = (),
) -> bytes:
    """Every table's own sheets (as its game prints them, under its own header), then the
    standings sheet, its tables list ending with those played on paper, then each paper
    table's result slip (A5): one PDF for the night."""
    templates: list[Any] = []
    story: list[Flowable] = []
    for n, status in enumerate(tables):
        game = registry.entry(status.kind).game
        size = page_size(game, paper)
        prefix = f"t{n}-"
        sheets = header_templates(header_for(game, status.snapshot, base_url, lang), size, prefix)
        templates += sheets
        story += [NextPageTemplate(sheets[0].id), PageBreak()] if n else []
        body = registry.sheet_module(status.kind).story(
            status.snapshot, lang, body_width(size), styles(lang)
        )
        story += [_renamed(f, prefix) for f in body]
    size = standings_size(paper)
    listed: list[Listed] = [*tables, *papers]
    last = header_templates(standings_header(meet, listed, base_url, lang), size, "meet-")
    templates += last
    if tables:
        story += [NextPageTemplate(last[0].id), PageBreak()]
    story += standings_story(meet, listed, rows, lang, body_width(size))
    for n, paper_table in enumerate(papers):  # then each paper table's result slip, an A5 page
        slip = _slip_template(slip_spec(meet, paper_table, lang), f"slip{n}-")  # type: ignore[arg-type]
        templates.append(slip)
        story += [NextPageTemplate(slip.id), PageBreak(), Spacer(1, 1)]
    first = templates[0]
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=first.pagesize,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        title=meet.title,
        author=t("app.name", lang),
        subject=t("meet.sheet.subtitle", lang, date=meet.date),
        lang=lang,
        initialFontName=register(),
        invariant=1,
    )
    doc.addPageTemplates(templates)
    doc.build(story)
    return buffer.getvalue()


def _slip_template(spec: SlipSpec, prefix: str) -> PageTemplate:
    """An A5 page that is one result slip, drawn whole on the page (``draw_slip``)."""
    frame = Frame(0, 0, PAGE[0], PAGE[1], id=f"{prefix}frame")
    return PageTemplate(id=f"{prefix}page", frames=[frame], pagesize=PAGE,
                        onPage=lambda canvas, _doc: draw_slip(canvas, spec))  # fmt: skip


def _renamed(flowable: Flowable, prefix: str) -> Flowable:
    """A table's ``turn_to`` names its page templates ``portrait``/``landscape``: in the pack
    they are that table's own (``t3-landscape``), so each page keeps its table's header."""
    if isinstance(flowable, NextPageTemplate):
        target = flowable.action[1]
        if target in ("portrait", "landscape"):
            return NextPageTemplate(prefix + target)
    return flowable
