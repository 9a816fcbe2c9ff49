"""One drawing of a table for the live view: its sections as HTML, for one position, one set of
figures and one language.

A rendering is made from the viewer's snapshot only (``TableService.snapshot`` without a key:
every read filtered by the game's ``view``), so a sealed choice cannot reach a phone: the hub
asks for nothing else, and ``render`` refuses any other role. Every phone watching the table in
that language is sent the same bytes (``Rendering.message``): the first screen's sections in
full, or after one step only the sections that changed.

The sections, in the page's order: ``head`` (title, game, step), ``last`` (what just happened,
in words), ``next`` (what comes next: the game's status lines), ``standings``, ``board`` (the
top of the board: ``GamePage.board_top``), then ``chances`` (compact: the leaders, then all),
``chart`` (inline SVG) and ``log``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from aids.core.i18n import Lang, t
from aids.games.base import AnyGame
from aids.games.chances import Measure
from aids.games.palette import Ink
from aids.games.series import series_for
from aids.live.svg import chart_svg
from aids.tables import LogEntry, Snapshot
from aids.tables.chances import Chances
from aids.ui.common import html_text, speaking, tr
from aids.ui.context import TableContext, page_for
from aids.ui.insights import Figure, bar, bar_inks, bar_style, figure_groups, how_made
from aids.ui.standings import standings_html
from aids.ui.table_log import describe_entry

SECTIONS = (
    "head",
    "last",
    "next",
    "standings",
    "board",
    "updating",
    "chances",
    "chart",
    "log",
    "style",
)
_STYLE = re.compile(r"<style>.*?</style>", re.S)
# a picture embedded in a section (the Grand National's track): served once by its own URL
_DATA_IMAGE = re.compile(
    r'<img ([^>]*?)src="data:image/(svg\+xml|png|jpeg);base64,([A-Za-z0-9+/=]+)"'
)
_EXT = {"svg+xml": "svg", "png": "png", "jpeg": "jpg"}
LOG_LINES = 12  # the live view's log: the newest lines (the full page has them all)
LEADERS = 3  # chances shown before "all"


@dataclass(frozen=True, slots=True)
class Rendering:
    """A table drawn for the live view: the log position, the figures shown (the position
    they are for, -1 for none yet) and the language, and each section's HTML.

    ``tag`` names what a phone holds (the SSE event id), so a phone that reconnects says
    what it has and is sent only what it lacks."""

    public_id: str
    seq: int
    figures: int
    lang: Lang
    sections: Mapping[str, str]
    over: bool = False
    version: str = ""  # what a drawing of something else than a table was made from
    assets: Mapping[str, bytes] = field(default_factory=dict)  # by file name, see ``assets``

    @property
    def tag(self) -> str:
        return f"{self.version or f'{self.seq}.{self.figures}'}.{self.lang}"

    def changes(self, since: Rendering | None) -> dict[str, str]:
        """The sections that differ from ``since`` (all of them without one)."""
        if since is None or since.lang != self.lang:
            return dict(self.sections)
        return {k: v for k, v in self.sections.items() if since.sections.get(k) != v}

    def message(self, since: Rendering | None = None) -> bytes:
        """One Server-Sent Event: the id (``tag``), then the sections to swap in as JSON."""
        body = {"seq": self.seq, "over": self.over, "s": self.changes(since)}
        data = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        return f"id: {self.tag}\ndata: {data}\n\n".encode()


def render(
    snapshot: Snapshot, game: AnyGame, lang: Lang, figures: Chances | None = None
) -> Rendering:
    """The live view of ``snapshot`` (the viewer's: any other role is refused) in ``lang``,
    with the newest ``figures`` the chance service has (None: a game without chances)."""
    if not snapshot.role.is_viewer:
        raise ValueError("the live view draws the viewer's snapshot only")
    ctx = TableContext(snapshot.in_language(game, lang), None, game, lang)
    page = page_for(snapshot.info.kind)
    with speaking(lang):
        standings = page.standings(ctx) if snapshot.outcome is None else None
        sections = {
            "head": _head(ctx),
            "last": _last(ctx),
            "next": "".join(
                f'<p class="{"news done" if line.done else "news"}">{html_text(line.text)}</p>'
                for line in page.status(ctx)
            ),
            "standings": ""
            if standings is None
            else (
                f"<h2>{html_text(standings.title or tr('table.standings'))}</h2>"
                + standings_html(
                    standings.head,
                    standings.rows,
                    mine=None,
                    you=tr("table.you"),
                    label=standings.title or tr("table.standings"),
                )
                + (f'<p class="note">{html_text(standings.note)}</p>' if standings.note else "")
            ),
            "board": page.board_top(ctx),
            "updating": _updating(figures),
            "chances": _chances(ctx, figures),
            "chart": _chart(ctx),
            "log": _log(ctx),
        }
    # The pieces' style sheets (the board's, the standings') in a section of their own: they
    # rarely change, so a step's message carries only the markup that did.
    styles: list[str] = []
    for name, html in sections.items():
        styles += _STYLE.findall(html)
        sections[name] = _STYLE.sub("", html)
    sections["style"] = "".join(dict.fromkeys(styles))
    found: dict[str, bytes] = {}
    for name, html in sections.items():
        sections[name] = _DATA_IMAGE.sub(lambda m: _asset(m, snapshot.info.public_id, found), html)
    shown = -1 if figures is None or figures.estimate is None else figures.seq
    return Rendering(
        snapshot.info.public_id,
        snapshot.seq,
        shown,
        lang,
        sections,
        over=snapshot.outcome is not None,
        assets=found,
    )


def _asset(match: re.Match[str], public_id: str, found: dict[str, bytes]) -> str:
    """An embedded picture as a file of its own, named by its content (a phone fetches the
    static track once and keeps it; a step's message carries its name, not its bytes). The
    URL is relative to the table's page: ``<table>/asset/<name>``; lazily loaded, so a
    picture the screen's width hides is never fetched."""
    attrs, kind, data = match.groups()
    body = base64.b64decode(data)
    name = f"{hashlib.sha256(body).hexdigest()[:16]}.{_EXT[kind]}"
    found[name] = body
    return f'<img {attrs}loading="lazy" src="{public_id}/asset/{name}"'


def _head(ctx: TableContext) -> str:
    info = ctx.snapshot.info
    game = tr(ctx.game.info.name_key)
    step = tr("live.step", n=ctx.snapshot.seq)
    return (
        f"<h1>{html_text(info.title)}</h1>"
        f'<p class="game">{html_text(game)} · <span class="step">{html_text(step)}</span></p>'
    )


def last_words(ctx: TableContext) -> str:
    """What just happened, in words: the newest line of the log as the viewer may see it,
    and what it caused (``Game.aftermath``); "" before the first action."""
    log = ctx.snapshot.log
    if not log:
        return ""
    entry = log[-1]
    words = describe_entry(ctx, entry)
    if entry.kind == "action" and not entry.undone and entry.action is not None:
        history = ctx.snapshot.history
        if len(history) >= 2:
            caused = ctx.game.aftermath(history[-2], history[-1], ctx.lang)
            words = "; ".join((words, *caused))
    return words


def _last(ctx: TableContext) -> str:
    words = last_words(ctx)
    if not words:
        return f'<p class="last none">{html_text(tr("live.nothing_yet"))}</p>'
    step = ctx.snapshot.log[-1].seq
    return (
        f'<p class="last"><span class="tag">{html_text(tr("live.just_now", n=step))}</span> '
        f"{html_text(words)}</p>"
    )


def _chances(ctx: TableContext, figures: Chances | None) -> str:
    model = ctx.game.chances(())
    if model is None or figures is None:
        return ""
    title = f"<h2>{html_text(tr('chances.title'))}</h2>"
    est = figures.estimate
    if est is None:
        return f'{title}<p class="note">{html_text(tr("chances.computing"))}</p>'
    groups = []
    inks = bar_inks(model, ctx.snapshot.state, est.measures)  # each piece's own colour
    for group, rows in figure_groups(model, est):
        best = sorted(rows, key=lambda r: r[1] if r[0].kind == "rank" else -r[1])
        caption = html_text(model.title(group, ctx.lang))
        top = _bars(ctx, best[:LEADERS], rows, inks)
        rest = ""
        if len(rows) > LEADERS:  # the others, under the leaders
            others = _bars(ctx, best[LEADERS:], rows, inks)
            rest = f"<details><summary>{html_text(tr('live.all'))}</summary>{others}</details>"
        groups.append(f'<div class="odds"><h3>{caption}</h3>{top}{rest}</div>')
    how = how_made(est, stale=False, over=ctx.snapshot.outcome is not None)
    return title + "".join(groups) + f'<p class="note">{html_text(how)}</p>'


def _updating(figures: Chances | None) -> str:
    """While the figures shown are the last position's: a line saying they are updating (a
    section of its own, so the figures themselves are sent once, when they are in)."""
    if figures is None or figures.estimate is None or not figures.stale:
        return ""
    return f'<p class="note">{html_text(tr("chances.updating"))}</p>'


def _bars(
    ctx: TableContext, shown: list[Figure], group: list[Figure], inks: dict[Measure, Ink]
) -> str:
    """The ``shown`` figures of a ``group`` as bars, each in its piece's ink."""
    model = ctx.game.chances(())
    assert model is not None
    state = ctx.snapshot.state
    out = []
    for figure in shown:
        name = html_text(model.label(state, figure[0], ctx.lang))
        width, text, _spread = bar(figure, group)
        style = bar_style(inks[figure[0]])
        out.append(
            f'<tr><th scope="row">{name}</th><td class="bar"><i style="width:{width:.0f}%;{style}">'
            f'</i></td><td class="num">{text}</td></tr>'
        )
    return f"<table>{''.join(out)}</table>"


def _chart(ctx: TableContext) -> str:
    series = series_for(ctx.game, ctx.snapshot.history)
    if series is None:
        return ""
    title = f"<h2>{html_text(t(series.title_key, ctx.lang))}</h2>"
    if not series.x:
        return f'{title}<p class="note">{html_text(t("charts.empty", ctx.lang))}</p>'
    return title + chart_svg(series, ctx.lang)


def _log(ctx: TableContext) -> str:
    log: tuple[LogEntry, ...] = ctx.snapshot.log
    title = f"<h2>{html_text(tr('page.log_title'))}</h2>"
    if not log:
        return f'{title}<p class="note">{html_text(tr("table.log_empty"))}</p>'
    items = []
    for entry in reversed(log[-LOG_LINES:]):
        css = ' class="undone"' if entry.undone else ""
        items.append(f"<li{css}><b>{entry.seq}</b> {html_text(describe_entry(ctx, entry))}</li>")
    more = ""
    if len(log) > LOG_LINES:
        more = f'<p class="note">{html_text(tr("live.log_more", n=len(log) - LOG_LINES))}</p>'
    return f'{title}<ol class="log">{"".join(items)}</ol>{more}'
